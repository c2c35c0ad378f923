// The Python front end over the recorded corpus (KBAUDIT_CORPUS, set by ctest): no crash,
// load_inline resolved wherever it is used, model classes' methods all found, and the
// whole corpus well within the time budget.

#include "python_test_support.h"
#include "test_files.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kbaudit::py::testing {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpusSolutions() {
  const char *dir = std::getenv("KBAUDIT_CORPUS");
  if (!dir || !fs::is_directory(fs::path(dir) / "runs"))
    return {};
  std::vector<fs::path> out;
  for (const auto &run : fs::directory_iterator(fs::path(dir) / "runs")) {
    fs::path p = run.path() / "solution.py";
    if (fs::is_regular_file(p))
      out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}


/// Lines of `text` in [range.begin, range.end], 1-indexed.
std::vector<std::string_view> linesIn(std::string_view text, LineRange range) {
  std::vector<std::string_view> out;
  unsigned line = 1;
  size_t pos = 0;
  while (pos <= text.size() && line <= range.end) {
    size_t nl = text.find('\n', pos);
    std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (line >= range.begin)
      out.push_back(l);
    if (nl == std::string_view::npos)
      break;
    pos = nl + 1;
    ++line;
  }
  return out;
}

TEST(PythonCorpus, EverySolutionAnalyses) {
  auto files = corpusSolutions();
  if (files.empty())
    GTEST_SKIP() << "KBAUDIT_CORPUS not set or has no runs/";
  std::vector<std::string> sources;
  for (const auto &p : files)
    sources.push_back(kbaudit::test::readFile(p));

  std::vector<PythonFacts> all;
  all.reserve(sources.size());
  auto start = std::chrono::steady_clock::now();
  for (const auto &s : sources)
    all.push_back(analyze(s));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("corpus_files", static_cast<int>(files.size()));
  RecordProperty("corpus_seconds_x1000", static_cast<int>(seconds * 1000));
  std::cout << "[ corpus   ] " << files.size() << " solutions analysed in " << seconds << " s\n";
  // The budget is 2 s on the reference machine; allow for a loaded CI host.
  EXPECT_LT(seconds, 10.0);

  size_t withLoadInline = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const PythonFacts &f = all[i];
    const std::string &text = sources[i];
    SCOPED_TRACE(files[i].parent_path().filename().string());
    EXPECT_FALSE(hasError(f.diagnostics));

    // Only code that calls load_inline (not a comment or string mentioning it) must resolve.
    bool calls = false;
    for (const auto &c : f.calls)
      calls |= c.method == "load_inline" || c.callee == "load_inline";
    if (calls) {
      ++withLoadInline;
      EXPECT_FALSE(callsTo(f, "torch.utils.cpp_extension.load_inline").empty());
    }

    for (const auto &cls : f.classes) {
      if (cls.name != "Model" && cls.name != "ModelNew")
        continue;
      // Every method listed has its Function; `def forward(` written in the class body
      // must come out as <Class>.forward (some models override __call__ or define `step`
      // instead, which is for the rules to judge).
      for (const auto &m : cls.methods)
        EXPECT_NE(f.findFunction(cls.name + "." + m), nullptr) << cls.name << "." << m;
      bool writesForward = false;
      for (std::string_view l : linesIn(text, cls.lines))
        writesForward |= l.substr(0, 16) == "    def forward(";
      if (writesForward) {
        EXPECT_NE(f.findFunction(cls.name + ".forward"), nullptr) << cls.name;
      }
    }

    // Every fact has a location inside the file.
    unsigned lastLine = static_cast<unsigned>(std::count(text.begin(), text.end(), '\n')) + 1;
    for (const auto &c : f.calls) {
      EXPECT_TRUE(c.lines.valid());
      EXPECT_LE(c.lines.end, lastLine);
    }
    for (const auto &s : f.strings) {
      EXPECT_TRUE(s.lines.valid());
      for (unsigned o : s.value.lineOrigins) {
        EXPECT_GE(o, s.lines.begin == 0 ? 0u : 1u);
        EXPECT_LE(o, lastLine);
      }
    }
  }
  // The corpus is mostly load_inline solutions: if none resolved, resolution is broken.
  EXPECT_GT(withLoadInline, files.size() / 4);
}

} // namespace
} // namespace kbaudit::py::testing
