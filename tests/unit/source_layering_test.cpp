// The layering of docs/design.md, checked on the tree rather than trusted: the semantic library
// (the model rules ask) includes nothing from the layers above it, no analyzer includes a higher
// layer, and Clang's headers stay inside analyzers/cxx (a unit that includes them costs ~18 s and
// ~1 GB to compile).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = KBAUDIT_SOURCE_DIR;

std::vector<fs::path> sourcesUnder(const fs::path &dir) {
  std::vector<fs::path> out;
  for (const auto &e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".cpp" || e.path().extension() == ".h"))
      out.push_back(e.path());
  return out;
}

/// Every `#include` line of `file` matching `pattern`, as "path:line: text".
std::vector<std::string> includes(const fs::path &file, const std::regex &pattern) {
  std::vector<std::string> out;
  std::ifstream in(file);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find("#include") != std::string::npos && std::regex_search(line, pattern))
      out.push_back(fs::relative(file, kRoot).string() + ":" + std::to_string(n) + ": " + line);
  return out;
}

std::string joined(const std::vector<std::string> &lines) {
  std::ostringstream s;
  for (const auto &l : lines)
    s << l << '\n';
  return s.str();
}

} // namespace

TEST(SourceLayering, TheSemanticLibraryIncludesNothingAboveIt) {
  const std::regex above(R"(kbaudit/(problems|rules|annotations|runtime|cli)/)");
  std::vector<std::string> hits;
  for (const fs::path &f : sourcesUnder(kRoot / "analyzers" / "semantic"))
    for (auto &h : includes(f, above))
      hits.push_back(std::move(h));
  EXPECT_TRUE(hits.empty()) << joined(hits);
}

TEST(SourceLayering, NoAnalyzerIncludesAHigherLayer) {
  const std::regex above(R"(kbaudit/(problems|rules|annotations|runtime|cli)/)");
  std::vector<std::string> hits;
  for (const fs::path &f : sourcesUnder(kRoot / "analyzers"))
    for (auto &h : includes(f, above))
      hits.push_back(std::move(h));
  EXPECT_TRUE(hits.empty()) << joined(hits);
}

// Clang's headers live in the two libraries that parse: the C++ front end and the CUDA-to-CPU
// translator (analyzers/cudacpu, which uses Clang's lexer and Rewriter). Both hand on plain structs.
TEST(SourceLayering, ClangHeadersStayInsideTheCxxFrontEnd) {
  const std::regex clang(R"(#include\s*[<"]clang/)");
  std::vector<std::string> hits;
  for (const char *top : {"analyzers", "rules", "annotations", "runtime_checks", "problems", "cli", "tests"}) {
    if (!fs::exists(kRoot / top))
      continue;
    for (const fs::path &f : sourcesUnder(kRoot / top)) {
      const std::string rel = fs::relative(f, kRoot).string();
      if (rel.rfind("analyzers/cxx/src/", 0) == 0 || rel.rfind("analyzers/cudacpu/src/", 0) == 0)
        continue;
      for (auto &h : includes(f, clang))
        hits.push_back(std::move(h));
    }
  }
  EXPECT_TRUE(hits.empty()) << joined(hits);
}
