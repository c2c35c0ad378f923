// The batch audit over the real corpus (../shared/corpus, read in place, never copied):
// one annotation per run, each a valid YAML document with every schema field, and every
// quote byte-for-byte equal to the lines it names in that run's solution.py.
// Skips when the corpus is absent.

#include "kbaudit/cli/cli.h"

#include "corpus_support.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;
using kbaudit::test::readFile;

namespace {

std::vector<std::string> fileLines(const std::string &text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

TEST(CorpusAudit, EveryRunGetsACompleteAnnotationWithExactQuotes) {
  const fs::path runs = kbaudit::test::corpusRuns();
  REQUIRE_CORPUS(runs);

  kbaudit::test::TempDir out;
  std::ostringstream sout, serr;
  ASSERT_EQ(kbaudit::cli::run({"audit", runs.string(), "--out", out.path().string(), "--quiet"}, sout, serr),
            kbaudit::cli::kExitClean)
      << serr.str();

  unsigned runCount = 0;
  for (const auto &entry : fs::directory_iterator(runs)) {
    if (!entry.is_directory())
      continue;
    ++runCount;
    const std::string id = entry.path().filename().string();
    const fs::path annotation = out / (id + ".yaml");
    ASSERT_TRUE(fs::exists(annotation)) << id;
    YAML::Node y;
    ASSERT_NO_THROW(y = YAML::LoadFile(annotation.string())) << annotation;
    for (const char *field : {"run_id", "model", "harness", "effort", "problem", "peak_fraction", "verdict",
                              "summary", "quotes", "kbaudit"})
      EXPECT_TRUE(y[field].IsDefined()) << id << " lacks " << field;
    EXPECT_EQ(y["run_id"].as<std::string>(), id);
    const std::string verdict = y["verdict"].as<std::string>();
    if (verdict != "clean") {
      EXPECT_FALSE(y["implication"].as<std::string>("").empty()) << id;
    }

    const std::vector<std::string> lines = fileLines(readFile(entry.path() / "solution.py"));
    for (const auto &q : y["quotes"]) {
      const unsigned begin = q["lines"][0].as<unsigned>();
      const unsigned end = q["lines"][q["lines"].size() - 1].as<unsigned>();
      ASSERT_TRUE(begin >= 1 && begin <= end && end <= lines.size()) << id;
      std::string expected;
      for (unsigned n = begin; n <= end; ++n)
        expected += lines[n - 1] + "\n";
      EXPECT_EQ(q["text"].as<std::string>(), expected) << id << " quote " << begin << "-" << end;
    }
  }
  EXPECT_GT(runCount, 0u);
  unsigned written = 0;
  for (const auto &entry : fs::directory_iterator(out.path()))
    written += entry.path().extension() == ".yaml";
  EXPECT_EQ(written, runCount);
}

} // namespace
