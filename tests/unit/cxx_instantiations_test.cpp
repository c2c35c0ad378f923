// Clang front end: which template instantiations are made. Instantiations that differ only in
// value arguments are made once (they resolve every call alike); a template whose body a value
// can steer keeps every instantiation, so a library call it makes for one value is still found.

#include "cxx_test_util.h"
#include "kbaudit/cxx/frontend.h"

#include <gtest/gtest.h>

using namespace kbaudit;
using namespace kbaudit::cxx;
using namespace kbaudit::cxx::test;

namespace {

// A CUTLASS device GEMM (a tracked library) and an authored functor with the same interface.
constexpr const char *kGemm = R"cu(#include <torch/extension.h>
#include "cutlass/gemm/device/gemm.h"
using Gemm = cutlass::gemm::device::Gemm<cutlass::half_t, cutlass::layout::RowMajor,
                                         cutlass::half_t, cutlass::layout::ColumnMajor,
                                         float, cutlass::layout::RowMajor, float>;
struct Mine {
  using Arguments = Gemm::Arguments;
  cutlass::Status operator()(const Arguments &) { return cutlass::Status::kSuccess; }
};
)cu";

/// kGemm, `templates`, and a host function that builds GEMM arguments `args` and runs `calls`.
CxxFacts withGemm(const std::string &templates, const std::string &calls) {
  return analyzeSources({cuda(std::string(kGemm) + templates +
                              "torch::Tensor run(torch::Tensor a, int M, int N, int K) {\n"
                              "  Gemm gemm;\n"
                              "  Gemm::Arguments args({M, N, K}, {nullptr, K}, {nullptr, K}, {nullptr, N}, {nullptr, N},"
                              " {1.0f, 0.0f});\n" +
                              calls + "  return a;\n}\n")});
}

unsigned repeated(const CxxFacts &f) {
  unsigned n = 0;
  for (const ParseReport &p : f.parses)
    n += p.repeatedInstantiations;
  return n;
}

size_t cutlassCalls(const CxxFacts &f) {
  size_t n = 0;
  for (const CxxCall &c : f.calls)
    n += c.callee == "cutlass::gemm::device::Gemm::operator()" && c.category == CallCategory::Cutlass;
  return n;
}

TEST(CxxInstantiations, AKernelDispatchedOverTileSizesIsInstantiatedOnce) {
  const CxxFacts f = analyzeSources({cuda(R"cu(#include <torch/extension.h>
template <int TILE> __global__ void scale(float *x, int n) {
  __shared__ float tile[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n) { tile[threadIdx.x] = x[i]; x[i] = tile[threadIdx.x] * 2.0f; }
}
template <typename T, int TILE> __global__ void fill(T *x) { x[threadIdx.x] = T(TILE); }
void run(torch::Tensor x, int n) {
  float *p = x.data_ptr<float>();
  if (n < 1024) scale<64><<<n / 64, 64>>>(p, n);
  else if (n < 4096) scale<128><<<n / 128, 128>>>(p, n);
  else scale<256><<<n / 256, 256>>>(p, n);
  fill<float, 1><<<1, 32>>>(p);
  fill<double, 1><<<1, 32>>>(reinterpret_cast<double *>(p));
}
)cu")});
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  // scale<128> and scale<256> repeat scale<64>; fill<double> differs from fill<float> in a type.
  EXPECT_EQ(repeated(f), 2u);
  ASSERT_EQ(f.parses.size(), 1u);
  EXPECT_TRUE(f.parses[0].parsed);
}

TEST(CxxInstantiations, EachTypeArgumentIsStillInstantiated) {
  const CxxFacts f = withGemm(R"cu(
template <class G, int STAGES> cutlass::Status launch(G &g, const typename G::Arguments &args) {
  return g(args);
}
)cu",
                              R"cu(  Mine mine;
  launch<Mine, 2>(mine, args);
  launch<Mine, 3>(mine, args);
  launch<Gemm, 2>(gemm, args);
)cu");
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_EQ(repeated(f), 1u); // launch<Mine, 3>
  EXPECT_EQ(cutlassCalls(f), 1u);
}

TEST(CxxInstantiations, ATypeAValuePicksKeepsEveryInstantiation) {
  const CxxFacts f = withGemm(R"cu(
template <int N> struct Pick { using Op = Mine; };
template <> struct Pick<1> { using Op = Gemm; };
template <int N> cutlass::Status launch(const Gemm::Arguments &args) {
  typename Pick<N>::Op op;
  return op(args);
}
)cu",
                              R"cu(  launch<0>(args);
  launch<1>(args);
)cu");
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_EQ(repeated(f), 0u);
  EXPECT_EQ(cutlassCalls(f), 1u);
}

TEST(CxxInstantiations, AConditionalTypeKeepsEveryInstantiation) {
  const CxxFacts f = withGemm(R"cu(
#include <type_traits>
template <int N> cutlass::Status launch(const Gemm::Arguments &args) {
  std::conditional_t<N == 1, Gemm, Mine> op;
  return op(args);
}
)cu",
                              R"cu(  launch<0>(args);
  launch<1>(args);
)cu");
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_EQ(repeated(f), 0u);
  EXPECT_EQ(cutlassCalls(f), 1u);
}

TEST(CxxInstantiations, ABaseOrMemberTypeAValuePicksKeepsEveryInstantiation) {
  // X has no specializations, but its base and its member type are picked by N.
  const CxxFacts f = withGemm(R"cu(
#include <type_traits>
template <int N> struct X : std::conditional_t<N == 1, Gemm, Mine> {};
template <int N> struct Y { using Op = std::conditional_t<N == 1, Gemm, Mine>; };
template <int N> cutlass::Status viaBase(const Gemm::Arguments &args) {
  X<N> op;
  return op(args);
}
template <int N> cutlass::Status viaMember(const Gemm::Arguments &args) {
  typename Y<N>::Op op;
  return op(args);
}
)cu",
                              R"cu(  viaBase<0>(args);
  viaBase<1>(args);
  viaMember<0>(args);
  viaMember<1>(args);
)cu");
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_EQ(repeated(f), 0u);
  EXPECT_EQ(cutlassCalls(f), 2u);
}

TEST(CxxInstantiations, AnIfConstexprInACalleeKeepsItsCallersInstantiations) {
  // outer<1> repeats outer<0> in its own body, but only outer<1> asks for inner<Gemm, 1>,
  // whose `if constexpr` branch makes the library call.
  const CxxFacts f = withGemm(R"cu(
template <class G, int M> cutlass::Status inner(G &g, const typename G::Arguments &args) {
  if constexpr (M == 1)
    return g(args);
  return cutlass::Status::kSuccess;
}
template <int M> cutlass::Status outer(Gemm &g, const Gemm::Arguments &args) {
  return inner<Gemm, M>(g, args);
}
)cu",
                              R"cu(  outer<0>(gemm, args);
  outer<1>(gemm, args);
)cu");
  ASSERT_EQ(errorCount(f), 0u) << errors(f);
  EXPECT_EQ(repeated(f), 0u);
  EXPECT_EQ(cutlassCalls(f), 1u);
}

} // namespace
