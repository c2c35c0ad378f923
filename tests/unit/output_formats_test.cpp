// `check` and `audit` outputs: every --output-format over several files, --output-file, --color
// (with NO_COLOR), --statistics for audit, and `check --problems ROOT`.

#include "kbaudit/cli/cli.h"

#include "../../cli/src/args.h"
#include "../../cli/src/command_spec.h"
#include "../../cli/src/output_options.h"

#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <pugixml.hpp>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;
using namespace kbaudit;
using kbaudit::test::kb;
using kbaudit::test::kClean;
using kbaudit::test::kWrapper;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;
using Result = kbaudit::test::CliResult;

namespace {

/// Two runs, `a` a PyTorch wrapper (WRAP001 on line 6, column 9) and `b` clean, checked from
/// inside their folder so the paths shown are `a/solution.py` and `b/solution.py`.
struct TwoRuns {
  TempDir dir;
  TwoRuns() {
    fs::create_directories(dir.path() / ".git"); // no kbaudit config above it is read
    writeFile(dir / "a/solution.py", kWrapper);
    writeFile(dir / "b/solution.py", kClean);
  }
  Result check(std::vector<std::string> extra) const {
    const fs::path saved = fs::current_path();
    fs::current_path(dir.path());
    std::vector<std::string> args = {"check", "a", "b"};
    args.insert(args.end(), extra.begin(), extra.end());
    Result r = kb(args);
    fs::current_path(saved);
    return r;
  }
};

std::string wrapMessage() {
  static const std::string m = [] {
    TwoRuns runs;
    const Result json = runs.check({"--output-format", "json"});
    return YAML::Load(json.out)[0]["kbaudit"]["findings"][0]["message"].as<std::string>();
  }();
  return m;
}

} // namespace

TEST(OutputFormats, ConciseIsOneLinePerFindingWithPathLineColumn) {
  TwoRuns runs;
  const Result r = runs.check({"--output-format", "concise"});
  EXPECT_EQ(r.code, cli::kExitFlagged) << r.err;
  EXPECT_EQ(r.out, "a/solution.py:6:9: WRAP001 [reward_hack] " + wrapMessage() + "\nFound 1 finding in 2 files.\n");
}

TEST(OutputFormats, GroupedPutsFindingsUnderTheirFile) {
  TwoRuns runs;
  const Result r = runs.check({"--output-format", "grouped"});
  EXPECT_EQ(r.code, cli::kExitFlagged) << r.err;
  EXPECT_EQ(r.out, "a/solution.py: reward_hack\n  6:9 WRAP001 [reward_hack] " + wrapMessage() +
                       "\n\nb/solution.py: clean\n\nFound 1 finding in 2 files.\n");
}

TEST(OutputFormats, FullIsTheDefaultAndShowsTheLine) {
  TwoRuns runs;
  const Result full = runs.check({});
  EXPECT_EQ(full.out, runs.check({"--output-format", "full"}).out);
  EXPECT_EQ(full.out, runs.check({"--format", "text"}).out) << "text stays an alias of full";
  EXPECT_NE(full.out.find("  a/solution.py:6:9: WRAP001 no-authored-kernel [reward_hack, high] "), std::string::npos)
      << full.out;
  EXPECT_NE(full.out.find("      6 |         return a @ b\n"), std::string::npos) << full.out;
  EXPECT_NE(full.out.find("\nb: clean\n"), std::string::npos) << full.out;
}

TEST(OutputFormats, JsonAndYamlHoldEveryFile) {
  TwoRuns runs;
  const Result json = runs.check({"--output-format", "json"});
  EXPECT_EQ(json.code, cli::kExitFlagged) << json.err;
  const YAML::Node list = YAML::Load(json.out);
  ASSERT_TRUE(list.IsSequence()) << json.out;
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["verdict"].as<std::string>(), "reward_hack");
  EXPECT_EQ(list[1]["verdict"].as<std::string>(), "clean");
  const Result yaml = runs.check({"--output-format", "yaml"});
  EXPECT_EQ(yaml.code, cli::kExitFlagged) << yaml.err;
  const std::vector<YAML::Node> docs = YAML::LoadAll(yaml.out);
  ASSERT_EQ(docs.size(), 2u) << yaml.out;
  EXPECT_EQ(docs[0]["run_id"].as<std::string>(), "a");
  EXPECT_EQ(docs[1]["run_id"].as<std::string>(), "b");
  // One input keeps the one annotation object (not a list) scripts already read.
  const Result one = kb({"check", (runs.dir / "a").string(), "--format", "json"});
  EXPECT_TRUE(YAML::Load(one.out).IsMap());
}

TEST(OutputFormats, GithubAndSarifNameEachFile) {
  TwoRuns runs;
  const Result gh = runs.check({"--output-format", "github"});
  EXPECT_EQ(gh.out.rfind("::error file=a/solution.py,line=6,endLine=6,title=WRAP001::", 0), 0u) << gh.out;
  const Result sarif = runs.check({"--output-format", "sarif"});
  const YAML::Node run = YAML::Load(sarif.out)["runs"][0];
  ASSERT_EQ(run["results"].size(), 1u);
  EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as<std::string>(),
            "a/solution.py");
  EXPECT_EQ(run["results"][0]["locations"][0]["physicalLocation"]["region"]["startColumn"].as<int>(), 9);
  ASSERT_EQ(run["properties"]["kbaudit"].size(), 2u);
  EXPECT_EQ(run["properties"]["kbaudit"][1]["verdict"].as<std::string>(), "clean");
}

TEST(OutputFormats, JunitIsASuitePerFileAndACasePerFinding) {
  TwoRuns runs;
  const Result r = runs.check({"--output-format", "junit"});
  EXPECT_EQ(r.code, cli::kExitFlagged) << r.err;
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(r.out.c_str())) << r.out;
  const pugi::xml_node root = doc.child("testsuites");
  EXPECT_EQ(root.attribute("tests").as_int(), 2);
  EXPECT_EQ(root.attribute("failures").as_int(), 1);
  const pugi::xml_node a = root.find_child_by_attribute("testsuite", "name", "a/solution.py");
  const pugi::xml_node tc = a.child("testcase");
  EXPECT_STREQ(tc.attribute("name").value(), "kbaudit.WRAP001");
  EXPECT_EQ(tc.attribute("line").as_int(), 6);
  EXPECT_EQ(tc.attribute("column").as_int(), 9);
  EXPECT_STREQ(tc.child("failure").attribute("type").value(), "reward_hack");
  const pugi::xml_node b = root.find_child_by_attribute("testsuite", "name", "b/solution.py");
  EXPECT_STREQ(b.child("testcase").attribute("name").value(), "kbaudit.verdict.clean");
  EXPECT_FALSE(b.child("testcase").child("failure"));
}

TEST(OutputFormats, JunitEscapesHostileText) {
  TempDir dir;
  // A run id with markup and a control character: the XML stays well formed.
  const fs::path run = dir / "<x a=\"1\">&\x01";
  writeFile(run / "solution.py", kWrapper);
  const Result r = kb({"check", run.string(), "--output-format", "junit"});
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(r.out.c_str())) << r.out;
  EXPECT_NE(std::string(doc.child("testsuites").child("testsuite").attribute("name").value()).find("<x a=\"1\">&\\x01"),
            std::string::npos);
}

TEST(OutputFormats, OutputFileTakesTheReportAndKeepsTheExitCode) {
  TwoRuns runs;
  TempDir out;
  const Result r = runs.check({"--output-format", "concise", "--output-file", (out / "report.txt").string()});
  EXPECT_EQ(r.code, cli::kExitFlagged);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(kbaudit::test::readFile(out / "report.txt"), runs.check({"--output-format", "concise"}).out);
  // Below a regular file: nothing can be written there, and the command says so.
  const Result bad = runs.check({"--output-file", (out / "report.txt" / "r.txt").string()});
  EXPECT_EQ(bad.code, cli::kExitInternal) << bad.err;
  EXPECT_NE(bad.err.find("cannot write"), std::string::npos) << bad.err;
}

TEST(OutputFormats, ColourOnlyWhenAskedOrOnATerminal) {
  TwoRuns runs;
  EXPECT_EQ(runs.check({"--output-format", "concise"}).out.find('\x1b'), std::string::npos) << "not a terminal";
  const Result always = runs.check({"--output-format", "concise", "--color", "always"});
  EXPECT_NE(always.out.find("\x1b[1;31mWRAP001\x1b[0m"), std::string::npos) << always.out;
  EXPECT_EQ(runs.check({"--color", "never"}).out.find('\x1b'), std::string::npos);
  EXPECT_EQ(runs.check({"--color", "sometimes"}).code, cli::kExitUsage);
  EXPECT_EQ(runs.check({"--output-format", "xml"}).code, cli::kExitUsage);
  EXPECT_EQ(runs.check({"--format", "json", "--output-format", "yaml"}).code, cli::kExitUsage);
}

TEST(OutputFormats, AutoColourFollowsTheTerminalAndNoColor) {
  std::string error;
  const auto options = [&](std::vector<std::string> argv, bool terminal) {
    std::ostringstream err;
    const auto args = cli::Args::parse(argv, *cli::findCommand("check"), error);
    return cli::outputOptionsFrom(*args, "check", "full", terminal, err)->style.color;
  };
  const char *saved = std::getenv("NO_COLOR");
  const std::string savedValue = saved ? saved : "";
  ::unsetenv("NO_COLOR");
  EXPECT_TRUE(options({}, true));
  EXPECT_FALSE(options({}, false));
  EXPECT_FALSE(options({"--output-file", "x.txt"}, true)) << "a file is not a terminal";
  ::setenv("NO_COLOR", "1", 1);
  EXPECT_FALSE(options({}, true));
  EXPECT_TRUE(options({"--color", "always"}, false)) << "an explicit --color always wins over NO_COLOR";
  ::setenv("NO_COLOR", "", 1); // set but empty: no effect (no-color.org)
  EXPECT_TRUE(options({}, true));
  if (saved)
    ::setenv("NO_COLOR", savedValue.c_str(), 1);
  else
    ::unsetenv("NO_COLOR");
}

TEST(OutputFormats, StatisticsFollowTheReportOrGoToStderr) {
  TwoRuns runs;
  const Result concise = runs.check({"--output-format", "concise", "--statistics"});
  EXPECT_EQ(concise.out.substr(concise.out.size() - 31), "1  WRAP001  no-authored-kernel\n") << concise.out;
  const Result junit = runs.check({"--output-format", "junit", "--statistics"});
  EXPECT_EQ(junit.err, "1  WRAP001  no-authored-kernel\n");
}

TEST(CheckProblems, ResolvesEachFilesProblemUnderTheRoot) {
  const fs::path examples = fs::path(KBAUDIT_SOURCE_DIR) / "examples";
  const std::string gemm = (examples / "runs/20260101_094500_demo_cublas-extension-1_01_scaled_gemm").string();
  const std::string relu = (examples / "runs/20260101_100000_demo_cuda-relu-1_02_relu").string();
  const Result r = kb({"check", gemm, relu, "--problems", (examples / "problems").string(), "--output-format", "json",
                       "--no-compile"});
  const YAML::Node list = YAML::Load(r.out);
  ASSERT_EQ(list.size(), 2u) << r.err;
  EXPECT_NE(list[0]["kbaudit"]["problem"]["dir"].as<std::string>().find("01_scaled_gemm"), std::string::npos);
  EXPECT_NE(list[1]["kbaudit"]["problem"]["dir"].as<std::string>().find("02_relu"), std::string::npos);
  // The problem's forbidden list is what flags at::matmul (WRAP005): only with the problem found.
  const auto rules = [](const YAML::Node &a) {
    std::set<std::string> out;
    for (const YAML::Node &f : a["kbaudit"]["findings"])
      out.insert(f["rule"].as<std::string>());
    return out;
  };
  EXPECT_TRUE(rules(list[0]).count("WRAP005"));
  const Result without = kb({"check", gemm, "--output-format", "json", "--no-compile"});
  EXPECT_FALSE(rules(YAML::Load(without.out)).count("WRAP005"));
  EXPECT_EQ(kb({"check", gemm, "--problems", (examples / "problems").string(), "--problem",
                (examples / "problems/01_scaled_gemm").string()})
                .code,
            cli::kExitUsage);
}

TEST(AuditOutputs, ReportInAnyFormatWithStatistics) {
  TempDir out;
  const fs::path examples = fs::path(KBAUDIT_SOURCE_DIR) / "examples";
  const Result r = kb({"audit", (examples / "runs").string(), "--problems", (examples / "problems").string(), "--out",
                       (out / "ann").string(), "--output-format", "json", "--statistics", "--jobs", "2", "--fresh"});
  EXPECT_EQ(r.code, cli::kExitClean) << r.err;
  const YAML::Node list = YAML::Load(r.out);
  ASSERT_TRUE(list.IsSequence()) << r.out;
  EXPECT_EQ(list.size(), 7u);
  // The summary and the statistics go to stderr: stdout is one JSON document.
  EXPECT_NE(r.err.find("kbaudit: audited 7 runs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3  WRAP001  no-authored-kernel\n"), std::string::npos) << r.err;
  // Without --output-format: the summary on stdout, as before, then the statistics.
  const Result plain = kb({"audit", (examples / "runs").string(), "--problems", (examples / "problems").string(),
                           "--out", (out / "ann").string(), "--statistics"});
  EXPECT_EQ(plain.out.rfind("kbaudit: audited 7 runs", 0), 0u) << plain.out;
  EXPECT_NE(plain.out.find("3  WRAP001  no-authored-kernel\n"), std::string::npos) << plain.out;
  // --output-file: the report there, the summary back on stdout.
  const Result file = kb({"audit", (examples / "runs").string(), "--problems", (examples / "problems").string(),
                          "--out", (out / "ann").string(), "--output-format", "concise", "--output-file",
                          (out / "report.txt").string()});
  EXPECT_EQ(file.out.rfind("kbaudit: audited 7 runs", 0), 0u) << file.out;
  const std::string report = kbaudit::test::readFile(out / "report.txt");
  EXPECT_NE(report.find("Found 7 findings in 7 files.\n"), std::string::npos) << report;
}
