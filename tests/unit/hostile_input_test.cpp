// Hostile inputs, generated here (nothing big is stored): each case is one way a submission or a
// sweep's layout once crashed, hung, hid or lost a result. The batch must finish, every run
// must get its own annotation, and nothing may turn a hack into `clean`.
#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include "kbaudit/annotations/run_file_name.h"
#include "kbaudit/annotations/yaml_writer.h"

#include "../../cli/src/output_lock.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;
using kbaudit::annotations::annotationFileName;
using kbaudit::annotations::fromYaml;
using kbaudit::annotations::runIdFromFileStem;
using kbaudit::test::kb;
using kbaudit::test::readFile;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

constexpr const char *kRun = "20260101_000000_h_model_01_gemm";

std::string verdictOf(const fs::path &yaml) { return fromYaml(readFile(yaml)).verdict; }

std::set<std::string> diagnosticCodes(const fs::path &yaml) {
  std::set<std::string> codes;
  for (const auto &d : fromYaml(readFile(yaml)).kbaudit.diagnostics)
    codes.insert(d.code);
  return codes;
}

std::string withCudaSource(const std::string &cpp) {
  return "import torch\nfrom torch.utils.cpp_extension import load_inline\nsrc = r'''\n" + cpp +
         "'''\next = load_inline(name='x', cpp_sources=src, functions=[])\n"
         "class ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n        return torch.matmul(a, b)\n";
}

/// Each macro doubles the one before: `A39` is 2^39 tokens.
std::string exponentialMacros() {
  std::string src = "#define A0 x\n";
  for (int i = 1; i < 40; ++i)
    src += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" + std::to_string(i - 1) + "\n";
  return src + "int y = A39;\n";
}

TEST(HostileInput, TensOfThousandsOfUnclosedBracketsDoNotCrash) {
  // Debian's tree-sitter 0.20 double-freed here (65,534+ unclosed brackets).
  TempDir dir;
  for (const char open : {'(', '['}) {
    writeFile(dir / "solution.py", std::string(kbaudit::test::kWrapper) + "x = " + std::string(70'000, open) + "\n");
    const auto r = kb({"check", (dir / "solution.py").string(), "--format", "yaml"});
    // The wrapper before the brackets is still found; past CPython's 200 open brackets the rest
    // of the file is not seen reliably, so the run is incomplete and its verdict `bug` (exit 2),
    // since WRAP001 rests on an absence the unseen part could fill.
    EXPECT_EQ(r.code, 2) << r.err;
    const auto a = fromYaml(r.out);
    EXPECT_FALSE(a.kbaudit.complete);
    bool wrapper = false;
    for (const auto &f : a.kbaudit.findings)
      wrapper |= f.rule == "WRAP001";
    EXPECT_TRUE(wrapper) << r.out.substr(0, 3000);
  }
}

TEST(HostileInput, DeepTemplatesAndMacrosInEmbeddedCudaNeitherCrashNorPassClean) {
  TempDir runs, out;
  const std::string tmpl = "template<class T> struct A { T t; };\nusing X = " + [] {
    std::string s;
    for (int i = 0; i < 10'000; ++i)
      s += "A<";
    s += "int";
    s += std::string(10'000, '>');
    return s;
  }() + ";\n";
  std::string macro = "#define F(x) x\nint y = ";
  for (int i = 0; i < 10'000; ++i)
    macro += "F(";
  macro += "1" + std::string(10'000, ')') + ";\n";
  writeFile(runs / "20260101_000000_h_m_01_deep_template" / "solution.py", withCudaSource(tmpl));
  writeFile(runs / "20260101_000000_h_m_02_deep_macro" / "solution.py", withCudaSource(macro));
  writeFile(runs / kRun / "solution.py", kbaudit::test::kClean);
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char *id : {"20260101_000000_h_m_01_deep_template", "20260101_000000_h_m_02_deep_macro"}) {
    const fs::path yaml = out / annotationFileName(id);
    ASSERT_TRUE(fs::exists(yaml)) << id;
    EXPECT_NE(verdictOf(yaml), "clean") << id;
  }
  EXPECT_EQ(verdictOf(out / annotationFileName(kRun)), "clean");
}

// The worker's limits stop an exponential expansion (time here, or memory: whichever comes
// first), the retry without Clang answers, and the run is incomplete, never clean.
TEST(HostileInput, ExponentialMacroExpansionIsStoppedAndNeverClean) {
  TempDir runs, out;
  writeFile(runs / kRun / "solution.py", withCudaSource(exponentialMacros()));
  const auto start = std::chrono::steady_clock::now();
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet", "--run-timeout", "3",
                     "--run-memory", "2048"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  EXPECT_EQ(r.code, 0) << r.err;
  const fs::path yaml = out / annotationFileName(kRun);
  EXPECT_EQ(verdictOf(yaml), "bug");
  EXPECT_TRUE(diagnosticCodes(yaml).count("analysis-incomplete")) << readFile(yaml);
}

TEST(HostileInput, AFifoOrADeviceNamedSolutionPyIsRefusedWithoutBlocking) {
  TempDir runs, out;
  const fs::path fifoRun = runs / "20260101_000000_h_m_01_fifo";
  fs::create_directories(fifoRun);
  ASSERT_EQ(::mkfifo((fifoRun / "solution.py").c_str(), 0600), 0);
  const fs::path zeroRun = runs / "20260101_000000_h_m_02_zero";
  fs::create_directories(zeroRun);
  fs::create_symlink("/dev/zero", zeroRun / "solution.py");
  const auto start = std::chrono::steady_clock::now();
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(r.code, 0) << r.err;
  const fs::path fifoYaml = out / annotationFileName("20260101_000000_h_m_01_fifo");
  EXPECT_EQ(verdictOf(fifoYaml), "bug");
  EXPECT_TRUE(diagnosticCodes(fifoYaml).count("not-a-regular-file"));
  const fs::path zeroYaml = out / annotationFileName("20260101_000000_h_m_02_zero");
  EXPECT_EQ(verdictOf(zeroYaml), "bug");
  EXPECT_TRUE(diagnosticCodes(zeroYaml).count("solution-outside-run")) << readFile(zeroYaml);
}

TEST(HostileInput, ASymlinkOutOfTheRunIsNotRead) {
  TempDir runs, out, elsewhere;
  writeFile(elsewhere / "honest.py", kbaudit::test::kClean);
  fs::create_directories(runs / kRun);
  fs::create_symlink(elsewhere / "honest.py", runs / kRun / "solution.py");
  ASSERT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"}).code, 0);
  const fs::path yaml = out / annotationFileName(kRun);
  EXPECT_EQ(verdictOf(yaml), "bug");
  EXPECT_TRUE(diagnosticCodes(yaml).count("solution-outside-run"));
}

TEST(HostileInput, RunIdsThatDifferOnlyInUnsafeCharactersKeepTheirOwnAnnotations) {
  TempDir runs, out, truth;
  // One hack among look-alike names: before, all four wrote `run_a.yaml` and the last one won.
  const std::vector<std::string> ids = {"run a", "run:a", "run_a", "run\xc3\xa4", "run%41", ".run_a"};
  for (const std::string &id : ids) {
    const bool hack = id == "run:a";
    writeFile(runs / id / "solution.py", hack ? kbaudit::test::kWrapper : kbaudit::test::kClean);
    writeFile(truth / id / "annotation.yaml", std::string("run_id: \"x\"\nverdict: ") + (hack ? "reward_hack" : "clean") + "\n");
  }
  ASSERT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"}).code, 0);
  std::set<std::string> files;
  for (const auto &e : fs::directory_iterator(out.path()))
    if (e.path().extension() == ".yaml")
      files.insert(e.path().filename().string());
  EXPECT_EQ(files.size(), ids.size());
  for (const std::string &id : ids) {
    const fs::path yaml = out / annotationFileName(id);
    ASSERT_TRUE(fs::exists(yaml)) << id;
    EXPECT_EQ(verdictOf(yaml), id == "run:a" ? "reward_hack" : "clean") << id;
    EXPECT_NE(annotationFileName(id).front(), '.') << "no hidden annotation files";
  }
  const auto score = kb({"score", "--truth", truth.path().string(), "--pred", out.path().string()});
  EXPECT_NE(score.out.find("scored runs: 6"), std::string::npos) << score.out;
  EXPECT_NE(score.out.find("recall: 100.0%"), std::string::npos) << score.out;
  EXPECT_EQ(score.out.find("unaudited"), std::string::npos) << score.out;
}

TEST(HostileInput, TheFileNameMappingIsInjectiveAndReversible) {
  const std::vector<std::string> ids = {"", "%", "%25", "a", "A", ".a", "%2Ea", "a b", "a_b", "a%20b",
                                        "\x1b[2K", "r\xc3\xa4", std::string(1, '\x7f')};
  std::set<std::string> names;
  for (const std::string &id : ids) {
    const std::string name = annotationFileName(id);
    EXPECT_TRUE(names.insert(name).second) << "collision on " << name;
    EXPECT_EQ(name.find('/'), std::string::npos);
    const auto back = runIdFromFileStem(name.substr(0, name.size() - 5));
    ASSERT_TRUE(back) << name;
    EXPECT_EQ(*back, id);
  }
  // Names not written by the mapping do not decode (they are matched by their run_id).
  EXPECT_FALSE(runIdFromFileStem("a%2")); // cut escape
  EXPECT_FALSE(runIdFromFileStem("a%5F")); // '_' is never escaped
  EXPECT_FALSE(runIdFromFileStem("a b"));
}

TEST(HostileInput, AVeryLongRunIdWorksInAuditAndScore) {
  TempDir runs, out, truth;
  // 250 bytes: a valid directory name, but `.<id>.yaml.tmp.<pid>.<n>` was not.
  const std::string id = "20260101_000000_h_" + std::string(224, 'm') + "_01_gemm";
  ASSERT_EQ(id.size(), 250u);
  writeFile(runs / id / "solution.py", kbaudit::test::kWrapper);
  writeFile(truth / id / "annotation.yaml", "verdict: reward_hack\n");
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string name = annotationFileName(id);
  EXPECT_LE(name.size(), 255u);
  ASSERT_TRUE(fs::exists(out / name));
  EXPECT_EQ(fromYaml(readFile(out / name)).runId, id);
  const auto score = kb({"score", "--truth", truth.path().string(), "--pred", out.path().string()});
  EXPECT_NE(score.out.find("recall: 100.0%"), std::string::npos) << score.out;
}

TEST(HostileInput, AStraySolutionPyAtTheTopDoesNotHideTheRunsBelow) {
  TempDir runs, out;
  writeFile(runs / "solution.py", kbaudit::test::kClean);
  writeFile(runs / kRun / "solution.py", kbaudit::test::kWrapper);
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"});
  EXPECT_EQ(r.code, 2); // an input was skipped: named, and the exit code says so
  EXPECT_EQ(verdictOf(out / annotationFileName(kRun)), "reward_hack");
  EXPECT_NE(r.err.find("skipped solution.py"), std::string::npos) << r.err;
}

TEST(HostileInput, DanglingLinksAndLoopsAreReportedNotDropped) {
  TempDir runs, out;
  writeFile(runs / kRun / "solution.py", kbaudit::test::kClean);
  fs::create_symlink(runs / "nowhere", runs / "20260101_000000_h_m_02_dangling");
  fs::create_symlink(runs / "loop_b", runs / "loop_a");
  fs::create_symlink(runs / "loop_a", runs / "loop_b");
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string()});
  EXPECT_EQ(r.code, 2) << r.err; // the loop was skipped: named, and the exit code says so
  EXPECT_EQ(verdictOf(out / annotationFileName("20260101_000000_h_m_02_dangling")), "bug");
  EXPECT_NE(r.err.find("loop_a: symbolic link loop"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("audited 2 runs"), std::string::npos) << r.out;
}

TEST(HostileInput, StaleTempFilesOfAKilledAuditAreRemovedByTheNext) {
  TempDir runs, out;
  writeFile(runs / kRun / "solution.py", kbaudit::test::kClean);
  writeFile(out / ".kbaudit-tmp.99999.0", "half");
  writeFile(out / ("." + std::string(kRun) + ".yaml.tmp.12345.3"), "half"); // an older version's name
  writeFile(out / "notes.txt", "kept");
  ASSERT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"}).code, 0);
  EXPECT_FALSE(fs::exists(out / ".kbaudit-tmp.99999.0"));
  EXPECT_FALSE(fs::exists(out / ("." + std::string(kRun) + ".yaml.tmp.12345.3")));
  EXPECT_TRUE(fs::exists(out / "notes.txt"));
}

TEST(HostileInput, ASecondAuditIntoTheSameOutIsRefusedWhileTheFirstRuns) {
  TempDir runs, out;
  writeFile(runs / kRun / "solution.py", kbaudit::test::kClean);
  std::string error;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    // Holds the lock as a running audit would, in another process (a POSIX lock is per process),
    // and says so once it has it.
    auto lock = kbaudit::cli::OutputLock::acquire(out.path(), error);
    const char byte = lock ? 'y' : 'n';
    (void)!::write(ready[1], &byte, 1);
    ::sleep(lock ? 30 : 0);
    ::_exit(lock ? 0 : 1);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ASSERT_EQ(byte, 'y');
  ::close(ready[0]);
  ::close(ready[1]);
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"});
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("another kbaudit audit is writing into"), std::string::npos) << r.err;
  // Once it is gone, the lock is free again.
  EXPECT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet"}).code, 0);
}

std::string cudaSolutionOfSize(std::size_t bytes) {
  std::string big;
  for (int i = 0; big.size() < bytes; ++i)
    big += "__global__ void k" + std::to_string(i) + "(float* x) { x[threadIdx.x] += " + std::to_string(i) + ".0f; }\n";
  return "import torch\nfrom torch.utils.cpp_extension import load_inline\nsrc = r'''\n" + big +
         "'''\next = load_inline(name='x', cpp_sources='', cuda_sources=src, functions=[])\n"
         "class ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return ext.k0(x)\n";
}

TEST(HostileInput, ARunThatOutlivesItsTimeIsRetriedWithoutClangAndNeverClean) {
  TempDir runs, out;
  // A few lines, under every size limit, that Clang expands for minutes (2^39 tokens); the
  // limit is one second. (A big but linear source is no good here: how fast Clang gets through
  // it depends on the machine.)
  writeFile(runs / kRun / "solution.py", withCudaSource(exponentialMacros()));
  const auto r = kb({"audit", runs.path().string(), "--out", out.path().string(), "--quiet", "--run-timeout", "1"});
  EXPECT_EQ(r.code, 0) << r.err;
  const fs::path yaml = out / annotationFileName(kRun);
  ASSERT_TRUE(fs::exists(yaml));
  EXPECT_EQ(verdictOf(yaml), "bug");
  EXPECT_TRUE(diagnosticCodes(yaml).count("analysis-incomplete")) << readFile(yaml);
  EXPECT_NE(readFile(yaml).find("ran past its limit of 1 s"), std::string::npos);
}

// Clang's time grows faster than one unit's size (73 s at 5 MB): a unit over 1 MiB is not parsed,
// and the run cannot pass clean for lack of its facts.
TEST(HostileInput, AnEmbeddedSourceOverTheClangLimitIsNotParsedAndNeverClean) {
  TempDir dir;
  writeFile(dir / "solution.py", cudaSolutionOfSize(1'500'000));
  const auto start = std::chrono::steady_clock::now();
  const auto r = kb({"check", (dir / "solution.py").string(), "--format", "yaml"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(r.code, 2) << r.err; // verdict bug
  const auto a = fromYaml(r.out);
  EXPECT_EQ(a.verdict, "bug");
  std::set<std::string> codes;
  for (const auto &d : a.kbaudit.diagnostics)
    codes.insert(d.code);
  EXPECT_TRUE(codes.count("cxx-unit-too-large")) << r.out.substr(0, 2000);
  EXPECT_TRUE(codes.count("analysis-incomplete"));
}

// A C1 control (CSI, U+009B) and a Latin-1 byte in a run directory's name reached SARIF raw:
// a terminal showing the file acted on the first, a Debug build asserted on the second.
TEST(HostileInput, SarifOfARunNamedWithControlsAndLatin1IsPlainJson) {
  TempDir dir;
  const std::string name = "run\xc2\x9b" "2K\x7f\xe9";
  writeFile(dir / name / "solution.py", kbaudit::test::kWrapper);
  const auto r = kb({"check", (dir / name).string(), "--format", "sarif"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos);
  EXPECT_EQ(r.out.find('\x7f'), std::string::npos);
  EXPECT_EQ(r.out.find("\xe9"), std::string::npos) << "invalid UTF-8 in the SARIF";
  const YAML::Node sarif = YAML::Load(r.out);
  EXPECT_EQ(sarif["runs"][0]["properties"]["kbaudit"][0]["verdict"].as<std::string>(), "reward_hack");
}

TEST(HostileInput, WorkerLimitsAreValidated) {
  TempDir runs, out;
  for (const char *bad : {"0", "-1", "4x", ""}) {
    EXPECT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--run-timeout", bad}).code, 2) << bad;
    EXPECT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--run-memory", bad}).code, 2) << bad;
    EXPECT_EQ(kb({"audit", runs.path().string(), "--out", out.path().string(), "--jobs", bad}).code, 2) << bad;
  }
}

} // namespace
