// The embed analyzer over the real solutions in $KBAUDIT_CORPUS: every solution that
// calls load_inline yields its C++/CUDA text, mapped onto lines that exist, and a raw
// triple-quoted source maps onto the very lines it was written on.

#include "kbaudit/embed/bundle.h"
#include "kbaudit/embed/embedded_source.h"
#include "kbaudit/python/frontend.h"
#include "kbaudit/source/source_file.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

namespace kbaudit {
namespace {

namespace fs = std::filesystem;

std::string rtrim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> linesOf(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    lines.push_back(l);
  return lines;
}

/// Whether the literal the source starts in is a raw triple-quoted one: only those keep
/// the text byte for byte (escapes in other literals change it).
bool startsInRawTripleQuote(const embed::EmbeddedSource &s, const SourceFile &file) {
  if (s.lineMap.empty() || s.lineMap[0] == 0)
    return false;
  const std::string_view line = file.line(s.lineMap[0]);
  for (const char *opener : {"r\"\"\"", "r'''", "R\"\"\"", "R'''"})
    if (line.find(opener) != std::string_view::npos)
      return true;
  return false;
}

bool callsLoadInline(const py::PythonFacts &facts) {
  for (const py::Call &c : facts.calls)
    if (c.method == "load_inline")
      return true;
  return false;
}

/// Share of the non-blank lines of a source from a raw literal that are the solution
/// lines they map to.
std::pair<unsigned, unsigned> verbatimLines(const embed::EmbeddedSource &s, const SourceFile &file) {
  const auto embedded = linesOf(s.text);
  unsigned nonBlank = 0, equal = 0;
  for (std::size_t i = 0; i < embedded.size() && i < s.lineMap.size(); ++i) {
    const std::string text = rtrim(embedded[i]);
    if (text.empty())
      continue;
    ++nonBlank;
    if (s.lineMap[i] == 0)
      continue;
    // The literal may open or close mid-line (`X = r"""#include ...`, `}"""`): its first
    // line is then the end of the solution line, its last line the start.
    const std::string py = rtrim(file.line(s.lineMap[i]));
    const bool first = i == 0, last = i + 1 == embedded.size();
    equal += text == py ||
             (first && py.size() > text.size() &&
              py.compare(py.size() - text.size(), text.size(), text) == 0) ||
             (last && py.rfind(text, 0) == 0);
  }
  return {equal, nonBlank};
}

TEST(EmbedCorpus, LoadInlineSolutionsYieldMappedSources) {
  const char *env = std::getenv("KBAUDIT_CORPUS");
  if (!env || !fs::is_directory(fs::path(env) / "runs"))
    GTEST_SKIP() << "KBAUDIT_CORPUS does not name a corpus directory";

  std::vector<fs::path> solutions;
  for (const auto &entry : fs::directory_iterator(fs::path(env) / "runs"))
    if (fs::is_regular_file(entry.path() / "solution.py"))
      solutions.push_back(entry.path() / "solution.py");
  std::sort(solutions.begin(), solutions.end());

  unsigned mentioning = 0, calling = 0, withUnresolved = 0, rawChecked = 0, rawExact = 0;
  std::map<std::string, unsigned> byOrigin, diagnosticCodes;
  for (const fs::path &path : solutions) {
    const SourceFile file = SourceFile::load(path);
    if (!file.analyzable())
      continue;
    const std::string run = path.parent_path().filename().string();
    // As the pipeline runs it: the front end sees only the Python before any appended
    // sidecar, and the embed analyzer gets the sidecars.
    const embed::Bundle bundle = embed::splitBundle(file.text());
    const py::PythonFacts facts =
        py::analyze(std::string_view(file.text()).substr(0, bundle.pythonBytes));
    const embed::EmbedFacts out = embed::extract(facts, path.parent_path(), bundle.files);

    bool unresolved = false;
    for (const Diagnostic &d : out.diagnostics) {
      ++diagnosticCodes[d.code];
      unresolved |= d.code == "embed-unresolved";
      if (d.code == "embed-unresolved" || d.code == "sidecar-missing")
        std::cout << "[" << d.code << "] " << run << ":" << d.lines.begin << " " << d.message << "\n";
    }
    withUnresolved += unresolved;
    bool anyCode = false;
    for (const embed::EmbeddedSource &s : out.sources) {
      ++byOrigin[embed::originName(s.origin)];
      anyCode |= s.text.find_first_not_of(" \t\r\n") != std::string::npos;
      if (s.file != "solution.py")
        continue;
      for (unsigned line : s.lineMap)
        EXPECT_LE(line, file.lineCount()) << run;
      if (s.origin == embed::Origin::LoadSidecar) {
        // A sidecar appended to solution.py is the file itself, line for line.
        const auto [equal, nonBlank] = verbatimLines(s, file);
        EXPECT_EQ(equal, nonBlank) << run << ": appended sidecar " << s.path;
        continue;
      }
      if (!startsInRawTripleQuote(s, file))
        continue;
      const auto [equal, nonBlank] = verbatimLines(s, file);
      ++rawChecked;
      rawExact += equal == nonBlank;
      EXPECT_GE(equal * 10, nonBlank * 9)
          << run << ": " << equal << " of " << nonBlank << " lines of the "
          << embed::originName(s.origin) << " source at line " << s.origin_lines.begin
          << " match the solution lines they map to";
    }

    if (file.text().find("load_inline") == std::string::npos)
      continue;
    ++mentioning;
    // Solutions that only mention load_inline in prose have nothing to recover.
    if (!callsLoadInline(facts))
      continue;
    ++calling;
    // A solution whose sources are all computed at run time may yield none, but then it
    // must say so: nothing is lost silently.
    EXPECT_TRUE(anyCode || unresolved)
        << run << ": calls load_inline but no C++/CUDA text was recovered and nothing says why";
    if (!anyCode)
      std::cout << "[embed corpus] no source recovered: " << run << "\n";
  }
  // The front end must see the load_inline calls, or the checks above checked nothing.
  if (mentioning > 0) {
    EXPECT_GT(calling, 0u);
  }
  std::cout << "[embed corpus] " << solutions.size() << " solutions; " << mentioning
            << " mention load_inline, " << calling << " call it; " << withUnresolved
            << " have unresolved sources; raw-literal sources checked " << rawChecked << " ("
            << rawExact << " exact)\n";
  for (const auto &[origin, n] : byOrigin)
    std::cout << "[embed corpus] sources " << origin << ": " << n << "\n";
  for (const auto &[code, n] : diagnosticCodes)
    std::cout << "[embed corpus] diagnostics " << code << ": " << n << "\n";
}

} // namespace
} // namespace kbaudit
