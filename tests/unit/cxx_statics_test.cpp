// Clang front end: mutable state that outlives a call.

#include "cxx_test_util.h"
#include "kbaudit/cxx/frontend.h"

#include <gtest/gtest.h>

using namespace kbaudit;
using namespace kbaudit::cxx;
using namespace kbaudit::cxx::test;

namespace {

const MutableStatic *staticNamed(const CxxFacts &f, const std::string &name) {
  return findFact(f.statics, [&](const MutableStatic &s) { return s.name == name; });
}

TEST(CxxStatics, CachesKeyedByDataPtrAndShapes) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
#include <unordered_map>
static std::unordered_map<void*, torch::Tensor> g_out_cache;
namespace {
std::map<std::vector<int64_t>, torch::Tensor> by_shape;
}
struct Workspace { static float* buffer; };
float* Workspace::buffer = nullptr;
__device__ float d_scratch[1024];
__constant__ float c_weights[64];
const int kTile = 64;
torch::Tensor forward(torch::Tensor x) {
  static const void* last_ptr = nullptr;
  static torch::Tensor last_out;
  static int calls = 0;
  ++calls;
  if (x.data_ptr() == last_ptr) return last_out;
  void* key = x.data_ptr();
  auto it = g_out_cache.find(key);
  if (it != g_out_cache.end()) return it->second;
  auto shape = x.sizes().vec();
  if (by_shape.count(shape)) return by_shape[shape];
  if (!Workspace::buffer) cudaMalloc(&Workspace::buffer, 1 << 20);
  auto out = x * 2;
  last_ptr = x.data_ptr();
  last_out = out;
  g_out_cache[key] = out;
  return out;
}
)cu", 7)});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);

  const MutableStatic *cache = staticNamed(f, "g_out_cache");
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->storage, StaticStorage::Global);
  EXPECT_TRUE(cache->container);
  EXPECT_TRUE(cache->holdsTensor);
  EXPECT_TRUE(cache->written);
  EXPECT_TRUE(cache->keyedByDataPtr);
  EXPECT_FALSE(cache->keyedByShape);
  EXPECT_EQ(cache->lines, (LineRange{9, 9}));

  const MutableStatic *shapes = staticNamed(f, "(anonymous namespace)::by_shape");
  ASSERT_NE(shapes, nullptr);
  EXPECT_TRUE(shapes->keyedByShape);
  EXPECT_FALSE(shapes->keyedByDataPtr);
  EXPECT_TRUE(shapes->written); // operator[] inserts

  const MutableStatic *last = staticNamed(f, "forward::last_ptr");
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->storage, StaticStorage::StaticLocal);
  EXPECT_EQ(last->function, "forward");
  EXPECT_TRUE(last->pointer);
  EXPECT_TRUE(last->keyedByDataPtr);
  EXPECT_TRUE(last->written);

  const MutableStatic *out = staticNamed(f, "forward::last_out");
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(out->holdsTensor);
  EXPECT_TRUE(out->written);
  EXPECT_FALSE(out->keyedByDataPtr);

  const MutableStatic *calls = staticNamed(f, "forward::calls");
  ASSERT_NE(calls, nullptr);
  EXPECT_TRUE(calls->written);

  const MutableStatic *buffer = staticNamed(f, "Workspace::buffer");
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(buffer->storage, StaticStorage::StaticMember);
  EXPECT_TRUE(buffer->written); // address passed to cudaMalloc

  ASSERT_NE(staticNamed(f, "d_scratch"), nullptr);
  EXPECT_EQ(staticNamed(f, "d_scratch")->storage, StaticStorage::Device);
  EXPECT_EQ(staticNamed(f, "c_weights")->storage, StaticStorage::Device);
  EXPECT_EQ(staticNamed(f, "kTile"), nullptr); // const: not mutable state
  EXPECT_EQ(f.statics.size(), 8u);
}

} // namespace
