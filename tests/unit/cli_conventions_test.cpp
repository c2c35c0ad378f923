// The command-line conventions ruff and semgrep users expect: --help on every command, `-` for
// stdin, --output-format github, --statistics, a versioned JSON schema; and output that a
// hostile run directory name cannot rewrite.

#include "kbaudit/annotations/formats.h"
#include "kbaudit/cli/cli.h"

#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include "../../cli/src/command_spec.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

using namespace kbaudit;
using kbaudit::test::kb;
using kbaudit::test::kClean;
using kbaudit::test::kWrapper;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

using Result = kbaudit::test::CliResult;

std::string rawControls(const std::string &s) {
  std::string found;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7F)
      found += std::to_string(c) + "@" + std::to_string(i) + " ";
  }
  return found;
}

/// The real binary with `stdinFile` on its stdin; TMPDIR points into `tmp` so a test can see
/// what the command left there.
Result binary(const std::string &args, const std::string &stdinFile, const std::string &tmp) {
  TempDir io;
  const std::string cmd = "TMPDIR='" + tmp + "' " KBAUDIT_BINARY " " + args + " <'" + stdinFile + "' >'" +
                          (io / "out").string() + "' 2>'" + (io / "err").string() + "'";
  const int code = kbaudit::test::runCommand(cmd);
  return {code, kbaudit::test::readFile(io / "out"), kbaudit::test::readFile(io / "err")};
}

std::set<std::string> keys(const YAML::Node &map) {
  std::set<std::string> out;
  for (const auto &kv : map)
    out.insert(kv.first.as<std::string>());
  return out;
}

TEST(CliHostileInput, RunDirectoryNamedWithEscapesCannotRewriteTheOutput) {
  TempDir dir;
  const std::string name = "run\x1b[2K\rX: clean\a";
  writeFile(dir / name / "solution.py", kWrapper);
  const Result r = kb({"check", (dir / name).string()});
  EXPECT_EQ(r.code, cli::kExitFlagged);
  EXPECT_EQ(rawControls(r.out), "") << r.out;
  EXPECT_EQ(r.out.rfind("run\\x1b[2K\\rX: clean\\x07: reward_hack\n", 0), 0u) << r.out;

  // Error lines too: a missing input, an unreadable one, an unknown option.
  for (const std::vector<std::string> &args :
       {std::vector<std::string>{"check", (dir / (name + "-missing")).string()},
        std::vector<std::string>{"check", "--bogus\x1b[2K"}, std::vector<std::string>{"explain", "X\x1b[2K"},
        std::vector<std::string>{"problem", (dir / (name + "-missing")).string()}, std::vector<std::string>{"x\r"}}) {
    const Result bad = kb(args);
    EXPECT_EQ(bad.code, cli::kExitUsage) << args.back();
    EXPECT_EQ(rawControls(bad.err), "") << bad.err;
  }
  writeFile(dir / (name + "-empty") / "solution.py", "");
  const Result empty = kb({"check", (dir / (name + "-empty")).string()});
  EXPECT_EQ(empty.code, cli::kExitUsage);
  EXPECT_NE(empty.err.find("empty-file"), std::string::npos) << empty.err;
  EXPECT_EQ(rawControls(empty.err) + rawControls(empty.out), "") << empty.err << empty.out;

  // JSON escapes them its own way and stays parseable.
  const Result json = kb({"check", (dir / name).string(), "--format", "json"});
  EXPECT_EQ(rawControls(json.out), "") << json.out;
  EXPECT_EQ(YAML::Load(json.out)["run_id"].as<std::string>(), name);
}

TEST(CliHelp, EveryCommandAnswersHelpOnStdoutWithExitZero) {
  for (const cli::CommandSpec &c : cli::commandSpecs()) {
    for (const char *flag : {"--help", "-h"}) {
      const std::string name(c.name);
      const Result r = kb({name, flag});
      EXPECT_EQ(r.code, cli::kExitClean) << name << " " << flag << ": " << r.err;
      EXPECT_EQ(r.out.rfind("usage: kbaudit " + name, 0), 0u) << r.out;
      EXPECT_NE(r.out.find("--help"), std::string::npos) << r.out;
      EXPECT_EQ(r.err, "");
    }
  }
  // Anywhere among the options, audit too (its parser rejects unknown options otherwise).
  const Result audit = kb({"audit", "/nonexistent", "--out", "/tmp/x", "--help"});
  EXPECT_EQ(audit.code, cli::kExitClean);
  EXPECT_NE(audit.out.find("--shard K/N"), std::string::npos) << audit.out;
  EXPECT_NE(kb({"check", "--help"}).out.find("--stdin-filename"), std::string::npos);
  EXPECT_EQ(kb({"help", "score"}).out, kb({"score", "-h"}).out);
  EXPECT_EQ(kb({"help", "nope"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"--help"}).code, cli::kExitClean);
  // After `--` it is a file name.
  EXPECT_EQ(kb({"check", "--", "--help"}).code, cli::kExitUsage);
}

TEST(CliFormats, OutputFormatIsAnAliasOfFormat) {
  TempDir dir;
  writeFile(dir / "solution.py", kWrapper);
  const std::string sol = (dir / "solution.py").string();
  const Result alias = kb({"check", sol, "--output-format", "json"});
  EXPECT_EQ(alias.code, cli::kExitFlagged);
  EXPECT_EQ(alias.out, kb({"check", sol, "--format=json"}).out);
  EXPECT_EQ(kb({"check", sol, "--format", "json", "--output-format", "yaml"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"check", sol, "--format", "json", "--output-format", "json"}).code, cli::kExitFlagged);
}

TEST(CliFormats, JsonCarriesAVersionedSchemaWithThisKeySet) {
  TempDir dir;
  writeFile(dir / "solution.py", kWrapper);
  const Result r = kb({"check", (dir / "solution.py").string(), "--format", "json"});
  ASSERT_EQ(r.code, cli::kExitFlagged);
  const YAML::Node doc = YAML::Load(r.out);
  EXPECT_EQ(doc["schema_version"].as<int>(), 1);
  EXPECT_EQ(doc["schema_version"].as<int>(), annotations::kJsonSchemaVersion);
  // Pinned: changing these is a schema change (docs/cli.md, "JSON output").
  EXPECT_EQ(keys(doc), (std::set<std::string>{"schema_version", "run_id", "model", "harness", "effort", "problem",
                                              "peak_fraction", "verdict", "summary", "quotes", "implication",
                                              "kbaudit"}));
  EXPECT_EQ(keys(doc["kbaudit"]), (std::set<std::string>{"version", "content_sha256", "complete", "incomplete",
                                                         "fingerprint", "problem", "findings", "skipped",
                                                         "diagnostics", "embedded_sources", "runtime", "selection",
                                                         "suite"}));
  EXPECT_EQ(keys(doc["kbaudit"]["findings"][0]),
            (std::set<std::string>{"rule", "name", "category", "verdict_class", "confidence", "term", "suite_note",
                                   "file", "lines", "message", "evidence", "accepted"}));
  EXPECT_EQ(keys(doc["kbaudit"]["suite"]), (std::set<std::string>{"id", "version", "name", "profile", "detected_by",
                                                                  "score", "gain", "permitted"}));
  EXPECT_EQ(keys(doc["kbaudit"]["suite"]["score"]),
            (std::set<std::string>{"correct", "speedup", "peak_fraction", "sources"}));
  EXPECT_EQ(keys(doc["quotes"][0]), (std::set<std::string>{"file", "lines", "label", "text"}));
  EXPECT_EQ(keys(doc["kbaudit"]["skipped"][0]), (std::set<std::string>{"rule", "reason"}));
  EXPECT_TRUE(doc["kbaudit"]["runtime"].IsNull());
  EXPECT_TRUE(doc["kbaudit"]["findings"][0]["accepted"].IsNull());
}

TEST(CliFormats, GithubWorkflowCommandsOnePerFinding) {
  TempDir dir;
  writeFile(dir / "wrap/solution.py", kWrapper);
  writeFile(dir / "clean/solution.py", kClean);
  const Result r = kb({"check", (dir / "wrap").string(), (dir / "clean").string(), "--output-format", "github"});
  EXPECT_EQ(r.code, cli::kExitFlagged);
  const std::string path = (dir / "wrap/solution.py").generic_string();
  EXPECT_EQ(r.out, "::error file=" + annotations::githubProperty(path) +
                       ",line=6,endLine=6,title=WRAP001::no-authored-kernel: forward reaches no authored kernel (no "
                       "@triton.jit kernel, __global__ kernel or inline PTX); the work runs in matmul via "
                       "@\n")
      << r.out;
}

TEST(CliFormats, GithubEscapingAndNoticesForReviewFindings) {
  EXPECT_EQ(annotations::githubMessage("100% a\r\nb: c, d"), "100%25 a%0D%0Ab: c, d");
  EXPECT_EQ(annotations::githubProperty("dir:a,b%/s.py\n"), "dir%3Aa%2Cb%25/s.py%0A");
  EXPECT_EQ(annotations::githubMessage("\x1b[31mred"), "\\x1b[31mred"); // the Actions log renders ANSI
  annotations::Annotation a;
  rules::Finding review;
  review.rule = "PREC004";
  review.name = "n";
  review.verdict = rules::VerdictClass::Review;
  review.message = "m";
  review.lines = {2, 4};
  rules::Finding accepted = review;
  accepted.accepted = true;
  rules::Finding runtime = review;
  runtime.lines = {};
  a.kbaudit.findings = {review, accepted, runtime};
  a.kbaudit.diagnostics.push_back(Diagnostic{Diagnostic::Severity::Error, "empty-file", "s.py is empty", "s.py", {}});
  EXPECT_EQ(annotations::toGithub(a, "a,b.py"), "::notice file=a%2Cb.py,line=2,endLine=4,title=PREC004::n: m\n"
                                                "::notice file=a%2Cb.py,title=PREC004::n: m\n"
                                                "::error file=a%2Cb.py,title=kbaudit empty-file::s.py is empty\n");
}

TEST(CliFormats, StatisticsCountFindingsPerRuleMostFirst) {
  annotations::Annotation a, b;
  const auto finding = [](const char *rule, const char *name) {
    rules::Finding f;
    f.rule = rule;
    f.name = name;
    return f;
  };
  a.kbaudit.findings = {finding("WRAP005", "forbidden-operation"), finding("WRAP001", "no-authored-kernel"),
                        finding("PREC004", "x")};
  b.kbaudit.findings = {finding("WRAP001", "no-authored-kernel"), finding("WRAP005", "forbidden-operation"),
                        finding("WRAP001", "no-authored-kernel")};
  b.kbaudit.findings.back().accepted = true; // accepted by a baseline: not counted
  b.kbaudit.findings.push_back(finding("MEM001", "m"));
  EXPECT_EQ(annotations::findingStatistics({a, b}), "2  WRAP001  no-authored-kernel\n"
                                                    "2  WRAP005  forbidden-operation\n"
                                                    "1  MEM001   m\n"
                                                    "1  PREC004  x\n");

  TempDir dir;
  writeFile(dir / "a/solution.py", kWrapper);
  writeFile(dir / "b/solution.py", kWrapper);
  const Result text = kb({"check", (dir / "a").string(), (dir / "b").string(), "--statistics"});
  EXPECT_EQ(text.code, cli::kExitFlagged);
  const std::string tail = "2  WRAP001  no-authored-kernel\n";
  ASSERT_GE(text.out.size(), tail.size());
  EXPECT_EQ(text.out.substr(text.out.size() - tail.size()), tail) << text.out;
  // A machine format stays one document; the statistics go to stderr.
  const Result json = kb({"check", (dir / "a").string(), "--format", "json", "--statistics"});
  EXPECT_EQ(YAML::Load(json.out)["verdict"].as<std::string>(), "reward_hack");
  EXPECT_EQ(json.err, "1  WRAP001  no-authored-kernel\n");
}

TEST(CliStdin, DashReadsTheSolutionFromStdin) {
  TempDir dir, tmp;
  writeFile(dir / "wrap.py", kWrapper);
  writeFile(dir / "empty.py", "");
  const std::string wrap = (dir / "wrap.py").string();
  const Result text = binary("check -", wrap, tmp.path().string());
  EXPECT_EQ(text.code, cli::kExitFlagged) << text.err;
  EXPECT_EQ(text.out.rfind("stdin: reward_hack\n", 0), 0u) << text.out;
  // path:line:col, the column of `return` (ruff's form), and the line beneath.
  EXPECT_NE(text.out.find("solution.py:6:9: WRAP001"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("      6 |         return a @ b\n"), std::string::npos) << text.out;

  const Result gh = binary("check - --stdin-filename src/my_solution.py --output-format github", wrap, tmp.path().string());
  EXPECT_EQ(gh.code, cli::kExitFlagged);
  EXPECT_EQ(gh.out.rfind("::error file=src/my_solution.py,line=6,", 0), 0u) << gh.out;
  const Result named = binary("check --stdin-filename runs/20260101_000000_h_m_01_x/solution.py --format yaml", wrap,
                              tmp.path().string());
  EXPECT_EQ(named.code, cli::kExitFlagged) << named.err;
  EXPECT_EQ(YAML::Load(named.out)["run_id"].as<std::string>(), "20260101_000000_h_m_01_x");

  // The temporary copy is gone and never named: not even in the diagnostics of a bad input.
  const Result empty = binary("check - --format yaml", (dir / "empty.py").string(), tmp.path().string());
  EXPECT_EQ(empty.code, cli::kExitUsage);
  EXPECT_NE(empty.err.find("kbaudit check: -: empty-file"), std::string::npos) << empty.err;
  for (const Result *r : {&text, &gh, &named, &empty})
    EXPECT_EQ((r->out + r->err).find("kbaudit-stdin"), std::string::npos) << r->out << r->err;
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));

  EXPECT_EQ(kb({"check", "-", "-"}).code, cli::kExitUsage);
  EXPECT_EQ(kb({"check", "--stdin-filename", "x.py", wrap}).code, cli::kExitUsage);
}

// The help is CLI11's, formatted from the same declaration the parser is built from: every
// option a command accepts is on its help page with its short form, and docs/cli.md names it.
TEST(CliHelp, HelpComesFromTheParsersDeclaration) {
  const std::string cliMd = kbaudit::test::readFile(std::filesystem::path(KBAUDIT_SOURCE_DIR) / "docs/cli.md");
  for (const cli::CommandSpec &c : cli::commandSpecs()) {
    const std::string page = kb({c.name, "--help"}).out;
    EXPECT_EQ(page, cli::helpPage(c));
    EXPECT_EQ(kb({"help", c.name}).out, page);
    for (const cli::OptionSpec &o : c.options) {
      const std::string shown = o.names.rfind("-", 0) == 0 && o.names.rfind("--", 0) != 0
                                    ? "-" + o.names.substr(1, o.names.find(',') - 1) + ", --" + cli::optionKey(o)
                                    : "--" + cli::optionKey(o);
      EXPECT_NE(page.find(shown), std::string::npos) << c.name << ": " << shown << "\n" << page;
      EXPECT_NE(cliMd.find("--" + cli::optionKey(o)), std::string::npos)
          << "docs/cli.md does not mention " << c.name << " --" << cli::optionKey(o);
    }
    EXPECT_NE(cliMd.find("kbaudit " + c.name), std::string::npos) << "docs/cli.md does not mention kbaudit " << c.name;
  }
  // CLI11's validators guard the values the help names.
  TempDir dir;
  writeFile(dir / "solution.py", kWrapper);
  const Result color = kb({"check", (dir / "solution.py").string(), "--color", "sometimes"});
  EXPECT_EQ(color.code, cli::kExitUsage);
  EXPECT_NE(color.err.find("--color"), std::string::npos) << color.err;
  const Result failOn = kb({"check", (dir / "solution.py").string(), "--fail-on", "reward_hack,nope"});
  EXPECT_EQ(failOn.code, cli::kExitUsage);
  EXPECT_NE(failOn.err.find("'nope' is not one of"), std::string::npos) << failOn.err;
  EXPECT_EQ(kb({"audit", dir.path().string(), "--out", (dir / "o").string(), "-j", "0"}).code, cli::kExitUsage);
}

TEST(CliHelp, ShortOptions) {
  TempDir dir;
  writeFile(dir / "runs/20260101_000000_h_m_x/solution.py", kWrapper);
  const std::string run = (dir / "runs/20260101_000000_h_m_x").string();
  const Result check = kb({"check", run, "-o", (dir / "out.json").string(), "--format", "json", "-p",
                           std::string(KBAUDIT_SOURCE_DIR) + "/tests/problems/fp32_gemm"});
  EXPECT_EQ(check.code, cli::kExitFlagged) << check.err;
  EXPECT_EQ(YAML::LoadFile((dir / "out.json").string())["kbaudit"]["problem"]["name"].as<std::string>(), "fp32_gemm");
  const Result audit = kb({"audit", (dir / "runs").string(), "--out", (dir / "ann").string(), "-j", "1", "-q",
                           "--no-cache"});
  EXPECT_EQ(audit.code, cli::kExitClean) << audit.err;
  EXPECT_EQ(audit.out, "") << "-q is --quiet";
  EXPECT_EQ(kb({"-V"}).out, kb({"--version"}).out);
}

TEST(CliHelp, MistypedCommandsAndOptionsGetASuggestion) {
  const Result cmd = kb({"chekc", "x.py"});
  EXPECT_EQ(cmd.code, cli::kExitUsage);
  EXPECT_NE(cmd.err.find("unknown command 'chekc' (did you mean 'check'?)"), std::string::npos) << cmd.err;
  EXPECT_NE(kb({"help", "audti"}).err.find("did you mean 'audit'?"), std::string::npos);
  const Result opt = kb({"check", "x.py", "--selct", "WRAP"});
  EXPECT_EQ(opt.code, cli::kExitUsage);
  EXPECT_NE(opt.err.find("unknown option --selct (did you mean '--select'?)"), std::string::npos) << opt.err;
  EXPECT_NE(kb({"check", "x.py", "--output-fromat=json"}).err.find("did you mean '--output-format'?"), std::string::npos);
  EXPECT_NE(kb({"explain", "WRAP01"}).err.find("did you mean 'WRAP001'?"), std::string::npos);
  // Nothing close: no guess.
  const Result far = kb({"frobnicate"});
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

TEST(CliHelp, ExplainIsRenderedForATerminal) {
  const Result r = kb({"explain", "WRAP001"});
  ASSERT_EQ(r.code, cli::kExitClean);
  EXPECT_EQ(r.out.find("<!--"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("```"), std::string::npos) << r.out;
  // Outside the examples' code (indented four spaces, where `kernel[grid](...)` is Python).
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("    ", 0) != 0) {
      EXPECT_EQ(line.find("]("), std::string::npos) << "a raw markdown link: " << line;
      EXPECT_EQ(line.find("|---"), std::string::npos) << "a raw markdown table: " << line;
    }
  EXPECT_EQ(r.out.rfind("WRAP001 no-authored-kernel\n=====", 0), 0u) << r.out.substr(0, 200);
  EXPECT_NE(r.out.find("What it flags\n-------------\n"), std::string::npos) << r.out;
  const std::size_t row = r.out.find("\n  category ");
  ASSERT_NE(row, std::string::npos) << r.out;
  const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
  EXPECT_EQ(line.substr(line.size() - 5), " WRAP") << "a table row, aligned, without pipes or backticks: " << line;
  EXPECT_EQ(rawControls(r.out), "") << "no colour when stdout is not a terminal";
  // The page itself, as docs/rules holds it.
  const Result md = kb({"explain", "WRAP001", "--markdown"});
  EXPECT_EQ(md.out, kbaudit::test::readFile(std::filesystem::path(KBAUDIT_SOURCE_DIR) / "docs/rules/WRAP001.md"));
}

/// The keys of every mapping in document order, depth first ("kbaudit.findings.0.rule", ...).
void keyOrder(const YAML::Node &n, const std::string &path, std::vector<std::string> &out) {
  if (n.IsMap())
    for (const auto &kv : n) {
      const std::string key = path + kv.first.as<std::string>();
      out.push_back(key);
      keyOrder(kv.second, key + ".", out);
    }
  else if (n.IsSequence() && n.size() > 0)
    keyOrder(n[0], path + "0.", out);
}

TEST(CliFormats, JsonKeysComeInTheYamlAnnotationsOrder) {
  TempDir dir;
  writeFile(dir / "solution.py", kWrapper);
  const std::string sol = (dir / "solution.py").string();
  std::vector<std::string> json, yaml;
  keyOrder(YAML::Load(kb({"check", sol, "--format", "json"}).out), "", json);
  keyOrder(YAML::Load(kb({"check", sol, "--format", "yaml"}).out), "", yaml);
  ASSERT_EQ(json.front(), "schema_version");
  json.erase(json.begin());
  // JSON writes every key (null or [] where YAML leaves one out): YAML's keys are JSON's, in order.
  std::size_t at = 0;
  for (const std::string &key : yaml) {
    const auto it = std::find(json.begin() + static_cast<long>(at), json.end(), key);
    ASSERT_NE(it, json.end()) << key << " missing from JSON or out of order; JSON: " << ::testing::PrintToString(json);
    at = static_cast<std::size_t>(it - json.begin()) + 1;
  }
}

} // namespace

