// The built-in suite profiles kbaudit carries are parsed from problems/suites/*.yaml at build time
// (problems/src/suites_gen.cpp): each must equal what parsing its YAML file now gives, field by
// field (SuiteProfile's defaulted ==, so a field the generator forgets fails here), and every file
// must have its compiled profile.

#include "kbaudit/problems/suite_profile.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace kbaudit::problems;

namespace {

const fs::path kSource = KBAUDIT_SOURCE_DIR;

const SuiteProfile *builtin(const std::string &id) {
  for (const SuiteProfile &p : builtinProfiles())
    if (p.id == id)
      return &p;
  return nullptr;
}

} // namespace

TEST(SuiteProfiles, BuildTimeParseEqualsTheYamlParsedNow) {
  std::size_t files = 0;
  for (const auto &entry : fs::directory_iterator(kSource / "problems" / "suites")) {
    if (entry.path().extension() != ".yaml")
      continue;
    ++files;
    const std::string file = "problems/suites/" + entry.path().filename().string();
    ProfileError error;
    std::optional<SuiteProfile> parsed = parseSuiteProfile(kbaudit::test::readFile(entry.path()), file, error);
    ASSERT_TRUE(parsed) << error.text();
    parsed->builtin = true; // set by the catalogue, not by the YAML
    const SuiteProfile *carried = builtin(parsed->id);
    ASSERT_NE(carried, nullptr) << file << " has no compiled profile: reconfigure so it is embedded";
    EXPECT_TRUE(*parsed == *carried) << file << " differs from the compiled profile";
    // Spelled out for a readable failure where the == above fails.
    EXPECT_EQ(parsed->file, carried->file);
    EXPECT_EQ(parsed->summary, carried->summary) << file;
    EXPECT_EQ(parsed->costs, carried->costs) << file;
    EXPECT_EQ(parsed->tolerance, carried->tolerance) << file;
    EXPECT_EQ(parsed->score.minSpeedup, carried->score.minSpeedup) << file;
    EXPECT_EQ(parsed->score.minPeakFraction, carried->score.minPeakFraction) << file;
  }
  EXPECT_EQ(builtinProfiles().size(), files);
  EXPECT_GE(files, 5u);
}

TEST(SuiteProfiles, ProfileEqualityComparesEveryPart) {
  // The test above rests on == seeing each nested part; a change to any of them must show.
  const SuiteProfile *base = builtin("kernelbench-hard");
  ASSERT_NE(base, nullptr);
  EXPECT_TRUE(*base == *base);
  const auto differs = [&](auto edit) {
    SuiteProfile p = *base;
    edit(p);
    return !(p == *base);
  };
  EXPECT_TRUE(differs([](SuiteProfile &p) { p.sources.back().says += "!"; }));
  EXPECT_TRUE(differs([](SuiteProfile &p) { p.detect.table = !p.detect.table; }));
  EXPECT_TRUE(differs([](SuiteProfile &p) { p.detect.markers.push_back("x"); }));
  EXPECT_TRUE(differs([](SuiteProfile &p) { p.score.minSpeedup += 1e-9; }));
  EXPECT_TRUE(differs([](SuiteProfile &p) { p.score.minPeakFraction.reset(); }));
  EXPECT_TRUE(differs([](SuiteProfile &p) { p.tolerance["fp32"] = 0.5; }));
  EXPECT_TRUE(differs([](SuiteProfile &p) { p.builtin = false; }));
}
