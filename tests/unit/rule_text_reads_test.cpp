// Rules ask the model questions; they do not search source or expression text (issue 22: text
// reads were why verdicts did not survive a comment, a string literal or a respelling). This test
// holds the line: no rule source reads a `.text` (or `->text`) field. A question a rule needs that the model
// cannot answer yet goes into analyzers/semantic, where it is answered once and tested; a rule
// quotes an expression in a message through semantic::quote.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

namespace fs = std::filesystem;

namespace {

unsigned readsOnLine(const std::string &line) {
  static const std::regex read(R"((\.|->)text\b)");
  return static_cast<unsigned>(std::distance(std::sregex_iterator(line.begin(), line.end(), read), {}));
}

std::map<std::string, unsigned> textReads() {
  const fs::path root = KBAUDIT_SOURCE_DIR;
  std::map<std::string, unsigned> out;
  for (const auto &e : fs::recursive_directory_iterator(root / "rules")) {
    if (!e.is_regular_file() || (e.path().extension() != ".cpp" && e.path().extension() != ".h"))
      continue;
    std::ifstream in(e.path());
    std::string line;
    unsigned n = 0;
    while (std::getline(in, line))
      n += readsOnLine(line);
    if (n)
      out[fs::relative(e.path(), root).string()] = n;
  }
  return out;
}

} // namespace

TEST(RuleTextReads, NoRuleReadsText) {
  for (const auto &[file, n] : textReads())
    ADD_FAILURE() << file << " reads `.text` " << n << " times: ask the model (analyzers/semantic: "
                  << "semantic::reads, rootName, isName; semantic::quote for a message) instead";
}

TEST(RuleTextReads, TheScanFindsAReadWhereThereIsOne) {
  // The scan itself, on a line it must count: a test that cannot fail would prove nothing.
  EXPECT_EQ(readsOnLine("if (mentionsName(a.value.text, n) && b.text.empty())"), 2u);
  EXPECT_EQ(readsOnLine("\"runs `\" + t.expr->text + \"`\""), 1u);
  EXPECT_EQ(readsOnLine("a.value.textual; a.context; text"), 0u);
}
