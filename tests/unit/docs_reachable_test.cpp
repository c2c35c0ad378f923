// The README and docs are what a clone of the project holds: every relative link resolves inside
// the repository, nothing a user needs points at ../shared/docs (which only the development
// machine has), and the GitHub Action installs kbaudit without a self-hosted URL and uploads SARIF.

#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <regex>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = KBAUDIT_SOURCE_DIR;

/// README.md, docs/*.md and docs/ci/*.md: the pages a user reads (docs/rules and docs/suites are
/// generated from rules/ and problems/suites/).
std::vector<fs::path> pages() {
  std::vector<fs::path> out = {kSource / "README.md"};
  for (const char *dir : {"docs", "docs/ci"})
    for (const auto &e : fs::directory_iterator(kSource / dir))
      if (e.path().extension() == ".md")
        out.push_back(e.path());
  return out;
}

TEST(DocsReachable, RelativeLinksResolveInsideTheRepository) {
  const std::regex link(R"(\]\(([^)\s]+)\))");
  const fs::path root = fs::canonical(kSource);
  unsigned checked = 0;
  // Code is not prose: `kernel[grid](...)` in a code span or block is no link.
  const std::regex fenced("```[^`]*```"), span("`[^`\n]*`");
  for (const fs::path &page : pages()) {
    const std::string text =
        std::regex_replace(std::regex_replace(kbaudit::test::readFile(page), fenced, ""), span, "");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
      std::string target = (*it)[1].str();
      if (target.rfind("http://", 0) == 0 || target.rfind("https://", 0) == 0 || target.rfind("mailto:", 0) == 0 ||
          target.front() == '#')
        continue;
      target = target.substr(0, target.find('#'));
      const fs::path resolved = fs::weakly_canonical(page.parent_path() / target);
      ++checked;
      EXPECT_TRUE(fs::exists(resolved)) << page.filename() << " links " << target << ", which does not exist";
      const fs::path rel = resolved.lexically_relative(root);
      EXPECT_FALSE(rel.empty() || *rel.begin() == "..") << page.filename() << " links " << target << ", outside the repository";
    }
  }
  EXPECT_GT(checked, 50u);
}

TEST(DocsReachable, NothingAUserNeedsLivesInSharedDocs) {
  for (const fs::path &page : pages())
    EXPECT_EQ(kbaudit::test::readFile(page).find("../shared/docs"), std::string::npos)
        << page.filename() << " sends the reader to ../shared/docs, which a clone does not have";
  // The annotation schema the annotations follow is the project's own page.
  const std::string schema = kbaudit::test::readFile(kSource / "docs/annotation-schema.md");
  for (const char *field : {"run_id", "model", "harness", "effort", "problem", "peak_fraction", "verdict", "summary",
                            "quotes", "implication", "kbaudit"})
    EXPECT_NE(schema.find(std::string("`") + field + "`"), std::string::npos) << field;
  EXPECT_NE(kbaudit::test::readFile(kSource / "README.md").find("docs/annotation-schema.md"), std::string::npos);
}

TEST(DocsReachable, TheActionInstallsFromAReleaseOrFromSourceAndUploadsSarif) {
  const YAML::Node action = YAML::LoadFile((kSource / "action.yml").string());
  EXPECT_FALSE(action["inputs"]["deb-url"]["required"].as<bool>(false)) << "a self-hosted .deb must not be required";
  ASSERT_TRUE(action["inputs"]["from-source"]) << "the Action can build kbaudit from source";
  ASSERT_TRUE(action["inputs"]["sarif"]) << "the Action can audit into SARIF";
  std::string install, steps;
  bool uploads = false;
  for (const auto &step : action["runs"]["steps"]) {
    if (step["uses"] && step["uses"].as<std::string>().rfind("github/codeql-action/upload-sarif@", 0) == 0)
      uploads = true;
    if (step["run"]) {
      steps += step["run"].as<std::string>();
      if (step["name"] && step["name"].as<std::string>().find("Install") != std::string::npos)
        install += step["run"].as<std::string>();
    }
  }
  EXPECT_TRUE(uploads) << "no github/codeql-action/upload-sarif step";
  EXPECT_NE(install.find("releases/download"), std::string::npos) << "installs from the release artefact";
  EXPECT_NE(install.find("setup.sh"), std::string::npos) << "or builds from source";
  EXPECT_NE(steps.find("--output-format sarif"), std::string::npos);
  // The comment names no package the static .deb does not depend on (packaging/ci_deb.sh checks
  // the names against the built .deb's Depends); it once listed libllvm14 and libclang-cpp14.
  const std::string text = kbaudit::test::readFile(kSource / "action.yml");
  for (const char *gone : {"libllvm14", "libclang-cpp14"})
    EXPECT_EQ(text.find(gone), std::string::npos) << gone;
}

} // namespace
