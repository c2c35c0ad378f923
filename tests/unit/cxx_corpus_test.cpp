// The Clang front end over the real corpus: every embedded source the pipeline recovers
// parses without crashing. Prints how many parse clean, how many with recovered errors,
// and the parse time. Skips when KBAUDIT_CORPUS does not name a directory.

#include "kbaudit/cxx/frontend.h"
#include "kbaudit/facts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <vector>

namespace fs = std::filesystem;

namespace {

TEST(CxxCorpus, EveryEmbeddedSourceParsesWithoutCrashing) {
  const char *env = std::getenv("KBAUDIT_CORPUS");
  std::error_code ec;
  if (!env || !fs::is_directory(fs::path(env) / "runs", ec))
    GTEST_SKIP() << "corpus not present (KBAUDIT_CORPUS)";

  std::vector<fs::path> solutions;
  for (const auto &entry : fs::directory_iterator(fs::path(env) / "runs"))
    if (fs::exists(entry.path() / "solution.py"))
      solutions.push_back(entry.path() / "solution.py");
  std::sort(solutions.begin(), solutions.end());

  unsigned runsWithSources = 0, sources = 0, units = 0, clean = 0, recovered = 0, crashed = 0,
           notParsed = 0, launches = 0, exports = 0;
  std::vector<double> unitMs;
  const auto start = std::chrono::steady_clock::now();
  for (const fs::path &solution : solutions) {
    const kbaudit::Facts facts = kbaudit::analyzeSolution(solution);
    if (facts.embedded.sources.empty())
      continue;
    ++runsWithSources;
    sources += facts.embedded.sources.size();
    const kbaudit::cxx::CxxFacts cxx = kbaudit::cxx::analyzeEmbedded(facts.embedded);
    launches += cxx.launches.size();
    exports += cxx.exports.size();
    for (const kbaudit::cxx::ParseReport &r : cxx.parses) {
      ++units;
      unitMs.push_back(r.milliseconds);
      if (r.crashed)
        ++crashed;
      else if (!r.parsed)
        ++notParsed;
      else if (r.errors == 0)
        ++clean;
      else
        ++recovered;
      EXPECT_FALSE(r.crashed) << solution;
    }
  }
  const double totalMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::sort(unitMs.begin(), unitMs.end());
  const auto pct = [&](double p) {
    return unitMs.empty() ? 0.0 : unitMs[std::min(unitMs.size() - 1, static_cast<size_t>(p * unitMs.size()))];
  };
  double parseMs = 0;
  for (double ms : unitMs)
    parseMs += ms;
  std::cout << "[cxx corpus] runs=" << solutions.size() << " with_sources=" << runsWithSources
            << " sources=" << sources << " units=" << units << " zero_errors=" << clean
            << " recovered_errors=" << recovered << " crashed=" << crashed << " not_parsed=" << notParsed
            << " launches=" << launches << " exports=" << exports << "\n"
            << "[cxx corpus] unit ms: median=" << pct(0.5) << " p90=" << pct(0.9)
            << " max=" << (unitMs.empty() ? 0.0 : unitMs.back()) << " clang_total_ms=" << parseMs
            << " pipeline_total_wall_ms=" << totalMs << "\n";
  EXPECT_EQ(crashed, 0u);
}

} // namespace
