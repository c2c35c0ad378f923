// The Triton analysis over the recorded corpus (KBAUDIT_CORPUS, set by ctest): no crash,
// every solution with an `@triton.jit` decorator line yields a kernel, and a summary of
// what was found.

#include "triton_test_support.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace kbaudit::triton::testing {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The corpus appends sidecar C++ after a banner line; only the Python before it counts.
std::string pythonPart(std::string text) {
  size_t banner = text.find("# ===== sidecar:");
  while (banner != std::string::npos && banner != 0 && text[banner - 1] != '\n')
    banner = text.find("# ===== sidecar:", banner + 1);
  if (banner != std::string::npos)
    text.resize(banner);
  return text;
}

/// A line that starts (after indentation) with `@triton.jit`: the text also occurs in
/// comments and docstrings of solutions whose kernels live in another module.
bool writesJitDecorator(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line.substr(first).starts_with("@triton.jit"))
      return true;
    if (nl == std::string_view::npos)
      break;
    pos = nl + 1;
  }
  return false;
}

TEST(TritonCorpus, EverySolutionAnalyses) {
  const char *dir = std::getenv("KBAUDIT_CORPUS");
  if (!dir || !fs::is_directory(fs::path(dir) / "runs"))
    GTEST_SKIP() << "KBAUDIT_CORPUS not set or has no runs/";
  std::vector<fs::path> files;
  for (const auto &run : fs::directory_iterator(fs::path(dir) / "runs"))
    if (fs::is_regular_file(run.path() / "solution.py"))
      files.push_back(run.path() / "solution.py");
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());

  size_t mentionsJit = 0, withTriton = 0, kernels = 0, launched = 0, dots = 0, defaultPrecision = 0, elementwiseOnly = 0,
         casts = 0, libraryOps = 0, typedOperands = 0, operands = 0;
  for (const auto &path : files) {
    SCOPED_TRACE(path.parent_path().filename().string());
    std::string text = pythonPart(readFile(path));
    TritonFacts f = analyze(py::analyze(text));
    mentionsJit += text.find("@triton.jit") != std::string::npos;
    if (writesJitDecorator(text)) {
      ++withTriton;
      EXPECT_FALSE(f.kernels.empty());
    }
    kernels += f.kernels.size();
    for (const auto &k : f.kernels) {
      launched += k.launched;
      elementwiseOnly += k.work.elementwiseOnly;
      EXPECT_TRUE(k.lines.valid());
    }
    for (const auto &d : f.dots) {
      ++dots;
      defaultPrecision += d.precision == "default";
      EXPECT_LT(d.kernel, f.kernels.size());
      EXPECT_TRUE(f.kernels[d.kernel].lines.contains(d.lines.begin));
      for (const auto &o : d.operands) {
        ++operands;
        typedOperands += !o.dtype.empty();
      }
    }
    for (const auto &l : f.launches) {
      if (l.kernel) {
        EXPECT_LT(*l.kernel, f.kernels.size());
      }
    }
    casts += f.casts.size();
    for (const auto &o : f.ops)
      libraryOps += o.kind == OpKind::Sort || o.kind == OpKind::Scan || o.kind == OpKind::Libdevice;
  }
  std::cout << "[ triton   ] " << files.size() << " solutions, " << mentionsJit << " mention @triton.jit, " << withTriton
            << " decorate with it; "
            << kernels << " kernels (" << launched << " launched here, " << elementwiseOnly
            << " elementwise-only); " << dots << " dots (" << defaultPrecision
            << " without explicit precision; " << typedOperands << "/" << operands
            << " operands with an inferred dtype); " << casts << " casts; " << libraryOps
            << " sort/scan/libdevice ops\n";
  EXPECT_GT(kernels, 0u);
}

} // namespace
} // namespace kbaudit::triton::testing
