// The precompiled prelude kept on disk between processes (analyzers/cxx/src/prelude_cache.h):
// an entry reads back only under its own key and only intact; a second kbaudit process uses the
// first one's entry and reports the same; a damaged entry is ignored and replaced.

#include "../../analyzers/cxx/src/prelude_cache.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace fs = std::filesystem;
using namespace kbaudit;
namespace pc = kbaudit::cxx::prelude_cache;

namespace {

const std::string kPch = std::string("CPCH") + std::string(1000, '\x07') + std::string("\0tail", 5);

fs::path onlyEntry(const fs::path &dir) {
  fs::path found;
  int n = 0;
  for (const auto &e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) {
      found = e.path();
      ++n;
    }
  EXPECT_EQ(n, 1) << "one entry, no temp files left behind";
  return found;
}

void overwriteByte(const fs::path &file, std::streamoff at, char c) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(at);
  f.put(c);
}

} // namespace

TEST(PreludeCache, AnEntryReadsBackUnderItsKeyOnly) {
  test::TempDir dir;
  const std::string key = pc::key({"kbaudit-clang", "-x", "cuda"}, "#include <a.h>\n");
  ASSERT_EQ(key.size(), 64u);
  EXPECT_FALSE(pc::load(dir.path(), key)) << "nothing stored yet";
  ASSERT_TRUE(pc::store(dir.path(), key, kPch));
  EXPECT_EQ(pc::load(dir.path(), key), kPch);
  const std::string other = pc::key({"kbaudit-clang", "-x", "c++"}, "#include <a.h>\n");
  EXPECT_NE(other, key);
  EXPECT_FALSE(pc::load(dir.path(), other));
  // The entry's file copied under another key's name is not that key's entry.
  fs::create_directories(dir.path() / other.substr(0, 2));
  fs::copy_file(onlyEntry(dir.path()), dir.path() / other.substr(0, 2) / other);
  EXPECT_FALSE(pc::load(dir.path(), other));
}

TEST(PreludeCache, TheKeyCoversTheCommandLineAndThePreludeSource) {
  const std::string base = pc::key({"a", "b"}, "src");
  EXPECT_EQ(base, pc::key({"a", "b"}, "src"));
  EXPECT_NE(base, pc::key({"a", "b", "-DX"}, "src"));
  EXPECT_NE(base, pc::key({"ab"}, "src")) << "arguments are separated, not concatenated";
  EXPECT_NE(base, pc::key({"a", "b"}, "src2"));
}

TEST(PreludeCache, DamagedEntriesAreIgnored) {
  test::TempDir dir;
  const std::string key = pc::key({"x"}, "y");
  ASSERT_TRUE(pc::store(dir.path(), key, kPch));
  const fs::path entry = onlyEntry(dir.path());
  const std::uintmax_t size = fs::file_size(entry);

  overwriteByte(entry, static_cast<std::streamoff>(size - 3), 'Z'); // the payload
  EXPECT_FALSE(pc::load(dir.path(), key)) << "checksum";
  ASSERT_TRUE(pc::store(dir.path(), key, kPch));
  EXPECT_TRUE(pc::load(dir.path(), key)) << "replaced";

  fs::resize_file(entry, size - 10); // torn
  EXPECT_FALSE(pc::load(dir.path(), key));
  ASSERT_TRUE(pc::store(dir.path(), key, kPch));
  overwriteByte(entry, 0, 'X'); // the magic
  EXPECT_FALSE(pc::load(dir.path(), key));
  fs::resize_file(entry, 0);
  EXPECT_FALSE(pc::load(dir.path(), key));
  fs::remove(entry);
  fs::create_directory(entry); // not a file
  EXPECT_FALSE(pc::load(dir.path(), key));
  EXPECT_FALSE(pc::store(dir.path(), key, kPch)) << "cannot replace a directory";
}

TEST(PreludeCache, AnUnwritableFolderIsOnlySlower) {
  test::TempDir dir;
  test::writeFile(dir / "file", "x");
  EXPECT_FALSE(pc::store(dir / "file" / "sub", pc::key({}, ""), kPch));
  EXPECT_FALSE(pc::store(fs::path(), pc::key({}, ""), kPch));
  EXPECT_FALSE(pc::load(fs::path(), pc::key({}, "")));
}

TEST(PreludeCache, TheDefaultFolderFollowsTheEnvironment) {
  const char *saved = std::getenv("KBAUDIT_PRELUDE_CACHE");
  const std::string keep = saved ? saved : "";
  ::setenv("KBAUDIT_PRELUDE_CACHE", "/tmp/somewhere", 1);
  EXPECT_EQ(pc::defaultDir(), fs::path("/tmp/somewhere"));
  ::setenv("KBAUDIT_PRELUDE_CACHE", "off", 1);
  EXPECT_TRUE(pc::defaultDir().empty());
  if (saved)
    ::setenv("KBAUDIT_PRELUDE_CACHE", keep.c_str(), 1);
  else
    ::unsetenv("KBAUDIT_PRELUDE_CACHE");
}

TEST(PreludeCache, ASecondProcessUsesTheEntryAndADamagedOneIsReplaced) {
  test::TempDir dir;
  const fs::path solution = dir / "solution.py";
  test::writeFile(solution, R"(import torch
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
__global__ void add_kernel(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}
torch::Tensor add(torch::Tensor a, torch::Tensor b) {
    auto out = torch::empty_like(a);
    int n = a.numel();
    add_kernel<<<(n + 255) / 256, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""
mod = load_inline(name="add", cpp_sources="torch::Tensor add(torch::Tensor a, torch::Tensor b);",
                  cuda_sources=cuda_src, functions=["add"])

class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        return mod.add(a, b)
)");
  const fs::path cache = dir / "prelude";
  const auto check = [&](const std::string &out) {
    const std::string cmd = "KBAUDIT_PRELUDE_CACHE='" + cache.string() + "' '" + KBAUDIT_BINARY + "' check '" +
                            solution.string() + "' --no-compile --format json > '" + (dir / out).string() + "' 2>&1";
    const int code = test::runCommand(cmd);
    EXPECT_TRUE(code == 0 || code == 1) << test::readFile(dir / out);
    return test::readFile(dir / out);
  };
  const std::string first = check("first.json");
  ASSERT_TRUE(fs::exists(cache)) << "the first process kept its prelude";
  std::vector<fs::path> entries;
  for (const auto &e : fs::recursive_directory_iterator(cache))
    if (e.is_regular_file())
      entries.push_back(e.path());
  ASSERT_FALSE(entries.empty());
  const auto mtimes = [&] {
    std::vector<fs::file_time_type> t;
    for (const fs::path &p : entries)
      t.push_back(fs::last_write_time(p));
    return t;
  };
  const auto before = mtimes();
  EXPECT_EQ(check("second.json"), first) << "the kept prelude gives the same facts";
  EXPECT_EQ(mtimes(), before) << "a valid entry is read, not rewritten";

  for (const fs::path &p : entries)
    overwriteByte(p, static_cast<std::streamoff>(fs::file_size(p) / 2), '\x5a');
  EXPECT_EQ(check("third.json"), first) << "a damaged entry is not used";
  for (const fs::path &p : entries) {
    const std::string key = p.filename().string();
    EXPECT_TRUE(pc::load(cache, key)) << "the damaged entry was replaced: " << p;
  }
}
