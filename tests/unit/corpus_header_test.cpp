// The annotation's header fields against what each corpus run carries and what its human
// annotation says (../shared/corpus, read in place, never copied; skips when absent).
//
// kbaudit copies model, harness, effort, problem and peak_fraction from the run's result.json or
// meta.json and leaves a field empty where neither carries it (cli/src/run_header.h). This test
// reads those files itself, independently of kbaudit's reader, and checks field by field that
// the header holds exactly the carried value and nothing where the run carries none. It then
// compares the same fields with the human annotation, as a leaderboard reader would: a human
// value agrees when it equals the carried one, when it is the carried word followed by a
// parenthesised note (`longcat-claude (Claude Code -> ...)`), or, for numbers, when it rounds to
// the carried figure at the figure's own precision (4.3385 vs 4.338). Where a human wrote another
// number (a re-measurement their evidence describes) kbaudit keeps the run's own: those runs
// are listed, never counted as kbaudit's disagreement.

#include "kbaudit/cli/cli.h"

#include "corpus_support.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>

namespace fs = std::filesystem;

namespace {

/// A carried field: its text exactly as the run's file writes it ("" for a null number).
struct Carried {
  std::string text;
  bool isNumber = false;
};

/// `map[key]`, or a null node when the key is absent (yaml-cpp's missing-key node throws on use).
YAML::Node get(const YAML::Node &map, const char *key) {
  const YAML::Node v = map[key];
  return v.IsDefined() ? v : YAML::Node();
}

YAML::Node loadOrNull(const fs::path &file) {
  std::error_code ec;
  if (!fs::exists(file, ec))
    return YAML::Node();
  try {
    return YAML::LoadFile(file.string()); // JSON is YAML
  } catch (const std::exception &) {
    return YAML::Node();
  }
}

std::map<std::string, Carried> carriedFields(const fs::path &runDir) {
  std::map<std::string, Carried> out;
  for (const char *name : {"result.json", "meta.json"}) {
    const YAML::Node record = loadOrNull(runDir / name);
    if (!record.IsMap())
      continue;
    for (const char *key : {"model", "harness", "effort", "problem"})
      if (!out.count(key) && get(record, key).IsScalar())
        out[key] = Carried{get(record, key).as<std::string>(), false};
    if (out.count("peak_fraction"))
      continue;
    if (get(record, "correct").IsScalar() && get(record, "correct").as<std::string>() == "false") {
      out["peak_fraction"] = Carried{"", true};
      continue;
    }
    for (const char *key : {"peak_fraction", "score"})
      if (get(record, key).IsScalar() && get(record, key).as<std::string>() != "null") {
        out["peak_fraction"] = Carried{get(record, key).as<std::string>(), true};
        break;
      }
  }
  return out;
}

bool isEmpty(const YAML::Node &v) {
  return !v || v.IsNull() || (v.IsScalar() && (v.as<std::string>().empty() || v.as<std::string>() == "null"));
}

/// Decimal places of a number as written ("4.338" -> 3).
int decimals(const std::string &text) {
  const auto dot = text.find('.');
  if (dot == std::string::npos)
    return 0;
  std::size_t end = text.find_first_of("eE", dot);
  return static_cast<int>((end == std::string::npos ? text.size() : end) - dot - 1);
}

bool humanAgrees(const YAML::Node &human, const Carried &c) {
  if (c.isNumber) {
    if (c.text.empty() || isEmpty(human))
      return c.text.empty() && isEmpty(human);
    const double h = human.as<double>(), v = std::stod(c.text);
    return std::fabs(h - v) <= 0.5 * std::pow(10.0, -decimals(c.text)) + 1e-12;
  }
  if (isEmpty(human))
    return c.text.empty();
  const std::string h = human.as<std::string>();
  return h == c.text || h.rfind(c.text + " (", 0) == 0;
}

TEST(CorpusHeader, FieldsAreCopiedFromTheRunOrLeftEmptyAndMatchTheHumansWhereTheyUseTheRunsFigures) {
  const fs::path runs = kbaudit::test::corpusRuns();
  REQUIRE_CORPUS(runs);

  kbaudit::test::TempDir out;
  std::ostringstream sout, serr;
  ASSERT_EQ(kbaudit::cli::run({"audit", runs.string(), "--out", out.path().string(), "--quiet"}, sout, serr),
            kbaudit::cli::kExitClean)
      << serr.str();

  std::map<std::string, unsigned> carriedCount, humanDiffers;
  std::ostringstream humanReport;
  unsigned compared = 0;
  for (const auto &entry : fs::directory_iterator(runs)) {
    if (!entry.is_directory())
      continue;
    const std::string id = entry.path().filename().string();
    const YAML::Node mine = YAML::LoadFile((out.path() / (id + ".yaml")).string());
    const YAML::Node human = loadOrNull(entry.path() / "annotation.yaml");
    const std::map<std::string, Carried> carried = carriedFields(entry.path());
    for (const char *field : {"model", "harness", "effort", "problem", "peak_fraction"}) {
      const auto c = carried.find(field);
      if (c == carried.end()) {
        EXPECT_TRUE(isEmpty(get(mine, field))) << id << ": " << field << " is filled though the run carries none";
        continue;
      }
      ++carriedCount[field];
      if (c->second.text.empty()) {
        EXPECT_TRUE(isEmpty(get(mine, field))) << id << ": " << field << " should be null (the run was not correct)";
      } else if (c->second.isNumber) {
        ASSERT_FALSE(isEmpty(get(mine, field))) << id << ": " << field;
        EXPECT_DOUBLE_EQ(get(mine, field).as<double>(), std::stod(c->second.text)) << id << ": " << field;
      } else {
        EXPECT_EQ(get(mine, field).as<std::string>(""), c->second.text) << id << ": " << field;
      }
      ++compared;
      if (human.IsMap() && !humanAgrees(get(human, field), c->second)) {
        ++humanDiffers[field];
        humanReport << "  " << id << " " << field << ": human " << YAML::Dump(get(human, field)) << ", run "
                    << (c->second.text.empty() ? "null" : c->second.text) << "\n";
      }
    }
  }
  EXPECT_GT(compared, 0u);
  // The corpus carries each of these for some runs; a reader that lost one would show here.
  for (const char *field : {"model", "harness", "problem", "peak_fraction"})
    EXPECT_GT(carriedCount[field], 0u) << field;
  std::ostringstream summary;
  for (const auto &[field, n] : carriedCount)
    summary << field << ": carried by " << n << " runs, human differs from the run's own value in "
            << humanDiffers[field] << "\n";
  std::cout << summary.str() << humanReport.str();
}

} // namespace
