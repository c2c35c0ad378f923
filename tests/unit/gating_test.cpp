// Gating one submission: SARIF output, --fail-on, kbaudit.yaml and maintainer baselines.

#include "kbaudit/cli/cli.h"
#include "kbaudit/rules/rule_meta.h"

#include "cli_run.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace kbaudit;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

using Result = kbaudit::test::CliResult;
using kbaudit::test::kb;

// A pure-PyTorch "kernel" (WRAP001, reward_hack) that also flips TF32 (PREC002).
const char *kHack = R"(import torch
# kbaudit: ignore WRAP001  (a solution cannot silence kbaudit)
torch.backends.cuda.matmul.allow_tf32 = True


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        return a @ b
)";

/// Runs `check` from inside `dir` (kbaudit.yaml is looked up from the current directory).
Result checkIn(const fs::path &dir, std::vector<std::string> extra) {
  const fs::path saved = fs::current_path();
  fs::current_path(dir);
  std::vector<std::string> args = {"check", "run/solution.py"};
  args.insert(args.end(), extra.begin(), extra.end());
  Result r = kb(args);
  fs::current_path(saved);
  return r;
}

struct Repo {
  TempDir dir;
  Repo() {
    fs::create_directories(dir.path() / ".git");
    writeFile(dir.path() / "run" / "solution.py", kHack);
  }
};

TEST(Sarif, HasTheStructureSarif210Requires) {
  Repo repo;
  const Result r = checkIn(repo.dir.path(), {"--format", "sarif"});
  EXPECT_EQ(r.code, cli::kExitFlagged) << r.err;
  const YAML::Node root = YAML::Load(r.out);
  EXPECT_EQ(root["version"].as<std::string>(), "2.1.0");
  EXPECT_NE(root["$schema"].as<std::string>().find("sarif-2.1.0"), std::string::npos);
  ASSERT_TRUE(root["runs"].IsSequence());
  ASSERT_EQ(root["runs"].size(), 1u);
  const YAML::Node run = root["runs"][0];
  const YAML::Node driver = run["tool"]["driver"];
  EXPECT_EQ(driver["name"].as<std::string>(), "kbaudit");
  std::set<std::string> ids;
  for (const YAML::Node &rule : driver["rules"]) {
    ids.insert(rule["id"].as<std::string>());
    EXPECT_FALSE(rule["name"].as<std::string>().empty());
    EXPECT_FALSE(rule["shortDescription"]["text"].as<std::string>().empty());
    EXPECT_FALSE(rule["fullDescription"]["text"].as<std::string>().empty());
    // No doc_base_url: no helpUri pointing into the build machine's checkout.
    EXPECT_FALSE(rule["helpUri"]) << rule["helpUri"].as<std::string>();
    EXPECT_NE(rule["help"]["text"].as<std::string>().find("kbaudit explain " + rule["id"].as<std::string>()),
              std::string::npos);
  }
  EXPECT_EQ(r.out.find("file://"), std::string::npos) << "a build-machine path in the SARIF";
  EXPECT_NE(driver["fullName"].as<std::string>().find("kbaudit"), std::string::npos);
  ASSERT_TRUE(run["invocations"].IsSequence());
  EXPECT_TRUE(run["invocations"][0]["executionSuccessful"].as<bool>());
  EXPECT_EQ(run["invocations"][0]["properties"]["selection_source"].as<std::string>(), "default");
  EXPECT_EQ(run["automationDetails"]["id"].as<std::string>(), "kbaudit/");
  EXPECT_EQ(ids.size(), rules::catalogue().size());
  ASSERT_TRUE(run["results"].IsSequence());
  std::set<std::string> flagged;
  for (const YAML::Node &res : run["results"]) {
    flagged.insert(res["ruleId"].as<std::string>());
    const std::string level = res["level"].as<std::string>();
    EXPECT_TRUE(level == "error" || level == "warning" || level == "note") << level;
    EXPECT_FALSE(res["message"]["text"].as<std::string>().empty());
    const YAML::Node loc = res["locations"][0]["physicalLocation"];
    EXPECT_EQ(loc["artifactLocation"]["uri"].as<std::string>(), "run/solution.py");
    EXPECT_EQ(loc["artifactLocation"]["uriBaseId"].as<std::string>(), "%SRCROOT%");
    EXPECT_GE(loc["region"]["startLine"].as<int>(), 1);
    EXPECT_GE(loc["region"]["endLine"].as<int>(), loc["region"]["startLine"].as<int>());
    const int index = res["ruleIndex"].as<int>();
    EXPECT_EQ(driver["rules"][index]["id"].as<std::string>(), res["ruleId"].as<std::string>());
  }
  EXPECT_TRUE(flagged.count("WRAP001")); // the comment in the solution silenced nothing
  EXPECT_TRUE(flagged.count("PREC002"));
  EXPECT_EQ(run["properties"]["kbaudit"][0]["verdict"].as<std::string>(), "reward_hack");
}

TEST(FailOn, ChoosesWhatExitsOne) {
  Repo repo;
  EXPECT_EQ(checkIn(repo.dir.path(), {}).code, cli::kExitFlagged);
  EXPECT_EQ(checkIn(repo.dir.path(), {"--fail-on", "rubric_leak"}).code, cli::kExitClean);
  EXPECT_EQ(checkIn(repo.dir.path(), {"--fail-on", "reward_hack"}).code, cli::kExitFlagged);
  EXPECT_EQ(checkIn(repo.dir.path(), {"--fail-on", "bogus"}).code, cli::kExitUsage);

  // `review` gates on findings left for review, even when the verdict is clean.
  writeFile(repo.dir.path() / "run" / "solution.py", R"(import torch
import triton
import triton.language as tl


@triton.jit
def _copy(x_ptr, y_ptr, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)


torch.backends.cudnn.allow_tf32 = True


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        _copy[(1,)](x, y, x.numel(), B=1024)
        return y
)");
  EXPECT_EQ(checkIn(repo.dir.path(), {}).code, cli::kExitClean);
  EXPECT_EQ(checkIn(repo.dir.path(), {"--fail-on", "review"}).code, cli::kExitFlagged);
}

TEST(Config, RepositoryFileSetsTheDefaultsAndTheCommandLineWins) {
  Repo repo;
  // A ModelNew is KernelBench's convention, whose checker only warns on precision: the config
  // file names the suite whose rules gate here.
  writeFile(repo.dir.path() / "kbaudit.yaml", "select: [PREC]\nfail_on: [reward_hack]\nsuite: kernelbench-hard\n");
  const Result r = checkIn(repo.dir.path(), {"--format", "yaml"});
  EXPECT_EQ(r.code, cli::kExitFlagged);
  EXPECT_EQ(r.out.find("rule: WRAP001"), std::string::npos) << "kbaudit.yaml selected PREC only";
  EXPECT_NE(r.out.find("rule: PREC002"), std::string::npos);
  const Result cli = checkIn(repo.dir.path(), {"--format", "yaml", "--select", "WRAP001"});
  EXPECT_NE(cli.out.find("rule: WRAP001"), std::string::npos);
  EXPECT_EQ(cli.out.find("rule: PREC002"), std::string::npos);
  EXPECT_NE(checkIn(repo.dir.path(), {"--format", "yaml", "--no-config"}).out.find("rule: WRAP001"),
            std::string::npos);

  writeFile(repo.dir.path() / "kbaudit.yaml", "selct: [PREC]\n");
  const Result typo = checkIn(repo.dir.path(), {});
  EXPECT_EQ(typo.code, cli::kExitUsage);
  EXPECT_NE(typo.err.find("unknown key 'selct'"), std::string::npos) << typo.err;
}

// A kbaudit.yaml shipped inside the audited repository once switched every category off and the
// gate passed with an empty SARIF that said nothing: the selection and its source are recorded.
TEST(Config, RulesSwitchedOffByAConfigFileAreRecordedInTheAnnotationAndSarif) {
  Repo repo;
  writeFile(repo.dir.path() / "kbaudit.yaml", "ignore: [WRAP, PREC, MEM, RUB, TIME]\n");
  const Result yaml = checkIn(repo.dir.path(), {"--format", "yaml"});
  EXPECT_EQ(yaml.code, cli::kExitClean);
  const YAML::Node a = YAML::Load(yaml.out);
  const YAML::Node sel = a["kbaudit"]["selection"];
  ASSERT_TRUE(sel.IsMap()) << yaml.out;
  EXPECT_EQ(sel["source"].as<std::string>(), "config file");
  EXPECT_NE(sel["config"].as<std::string>().find("kbaudit.yaml"), std::string::npos);
  EXPECT_EQ(sel["disabled"].size(), rules::catalogue().size());
  const YAML::Node sarif = YAML::Load(checkIn(repo.dir.path(), {"--format", "sarif"}).out);
  const YAML::Node props = sarif["runs"][0]["invocations"][0]["properties"];
  EXPECT_EQ(props["selection_source"].as<std::string>(), "config file");
  EXPECT_EQ(props["rules_disabled"].size(), rules::catalogue().size());

  // The gate of docs/ci reads the gating repository's config, so the submission's has no say.
  TempDir gate;
  writeFile(gate.path() / "kbaudit.yaml", "fail_on: [reward_hack, rubric_leak]\n");
  const Result gated = checkIn(repo.dir.path(), {"--format", "yaml", "--config", (gate.path() / "kbaudit.yaml").string()});
  EXPECT_EQ(gated.code, cli::kExitFlagged);
  const YAML::Node g = YAML::Load(gated.out)["kbaudit"]["selection"];
  EXPECT_EQ(g["source"].as<std::string>(), "default");
  EXPECT_EQ(g["disabled"].size(), 0u);
}

TEST(Baseline, AcceptedFindingsAreReportedButDoNotGate) {
  Repo repo;
  writeFile(repo.dir.path() / "kbaudit-baseline.yaml", R"(accepted:
  - run: run
    rule: WRAP001
    reason: "problem allows torch for this track"
    who: maintainer
  - run: run
    rule: PREC002
    reason: "reviewed: TF32 is allowed here"
    who: maintainer
)");
  const Result r = checkIn(repo.dir.path(), {"--baseline", "kbaudit-baseline.yaml", "--format", "yaml"});
  EXPECT_EQ(r.code, cli::kExitClean) << r.out;
  EXPECT_NE(r.out.find("verdict: clean"), std::string::npos);
  EXPECT_NE(r.out.find("rule: WRAP001"), std::string::npos) << "accepted findings are still reported";
  EXPECT_NE(r.out.find("reason: \"problem allows torch for this track\""), std::string::npos) << r.out;

  const Result sarif = checkIn(repo.dir.path(), {"--baseline", "kbaudit-baseline.yaml", "--format", "sarif"});
  const YAML::Node results = YAML::Load(sarif.out)["runs"][0]["results"];
  ASSERT_GT(results.size(), 0u);
  for (const YAML::Node &res : results)
    EXPECT_EQ(res["suppressions"][0]["kind"].as<std::string>(), "external");

  // Through kbaudit.yaml, and an entry without a reason is refused.
  writeFile(repo.dir.path() / "kbaudit.yaml", "baseline: kbaudit-baseline.yaml\n");
  EXPECT_EQ(checkIn(repo.dir.path(), {}).code, cli::kExitClean);
  writeFile(repo.dir.path() / "kbaudit-baseline.yaml", "accepted:\n  - run: run\n    rule: WRAP001\n    who: x\n");
  const Result bad = checkIn(repo.dir.path(), {});
  EXPECT_EQ(bad.code, cli::kExitUsage);
  EXPECT_NE(bad.err.find("has no reason"), std::string::npos) << bad.err;
}

} // namespace

namespace {

TEST(FailOn, AuditGatesOnlyWhenAsked) {
  Repo repo;
  const fs::path out = repo.dir.path() / "out";
  const std::string runs = (repo.dir.path()).string();
  EXPECT_EQ(kb({"audit", runs, "--out", out.string(), "--quiet", "--no-config"}).code, cli::kExitClean);
  const Result gate = kb({"audit", runs, "--out", out.string(), "--quiet", "--no-config", "--fail-on", "reward_hack"});
  EXPECT_EQ(gate.code, cli::kExitFlagged);
  EXPECT_NE(gate.err.find("1 run matched --fail-on"), std::string::npos) << gate.err;
  writeFile(repo.dir.path() / "baseline.yaml",
            "accepted:\n  - run: run\n    rule: WRAP\n    reason: reviewed\n    who: m\n  - run: run\n"
            "    rule: PREC\n    reason: reviewed\n    who: m\n");
  EXPECT_EQ(kb({"audit", runs, "--out", out.string(), "--quiet", "--no-config", "--fail-on", "reward_hack",
                "--baseline", (repo.dir.path() / "baseline.yaml").string()})
                .code,
            cli::kExitClean);
}

} // namespace
