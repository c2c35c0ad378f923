// problem.yaml and reference.py that kbaudit cannot read as written become diagnostics on the
// ProblemContext (and so in every annotation audited against the problem), never silence.

#include "kbaudit/problems/problem_context.h"

#include "cli_run.h"
#include "sample_solutions.h"
#include "test_files.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>

namespace fs = std::filesystem;
using namespace kbaudit;
using kbaudit::problems::loadProblem;
using kbaudit::problems::ProblemContext;
using kbaudit::test::TempDir;
using kbaudit::test::writeFile;

namespace {

constexpr const char *kReference = R"(import torch


class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(64, 64), torch.randn(64, 64)]
)";

/// A problem directory with this problem.yaml and a good reference.py (or the one given).
struct Problem {
  TempDir dir;
  explicit Problem(const std::string &yaml, const std::string &reference = kReference) {
    writeFile(dir / "p/problem.yaml", yaml);
    writeFile(dir / "p/reference.py", reference);
  }
  fs::path path() const { return dir / "p"; }
  ProblemContext load() const { return loadProblem(path()); }
};

const Diagnostic *find(const ProblemContext &p, const std::string &code) {
  for (const Diagnostic &d : p.diagnostics)
    if (d.code == code)
      return &d;
  return nullptr;
}

std::string codes(const ProblemContext &p) {
  std::string out;
  for (const Diagnostic &d : p.diagnostics)
    out += d.code + " (" + d.file + ":" + std::to_string(d.lines.begin) + ": " + d.message + ")\n";
  return out;
}

TEST(ProblemDiagnostics, ScalarForbiddenIsAOneEntryListAndNoted) {
  const ProblemContext p = Problem("name: p\nprecision: fp32\nforbidden: \"torch.matmul\"\n").load();
  EXPECT_EQ(p.forbidden, std::vector<std::string>{"torch.matmul"});
  const Diagnostic *d = find(p, "problem-yaml-coerced");
  ASSERT_NE(d, nullptr) << codes(p);
  EXPECT_EQ(d->severity, Diagnostic::Severity::Note);
  EXPECT_EQ(d->file, "problem.yaml");
  EXPECT_EQ(d->lines.begin, 3u);
  EXPECT_EQ(p.diagnostics.size(), 1u) << codes(p);
  // Unquoted, it is still a string.
  EXPECT_EQ(Problem("forbidden: torch.mm\n").load().forbidden, std::vector<std::string>{"torch.mm"});
}

TEST(ProblemDiagnostics, ForbiddenOfTheWrongTypeIsAWarningAndIgnored) {
  for (const char *yaml : {"forbidden: 42\n", "forbidden: true\n", "forbidden: {torch.matmul: yes}\n",
                           "forbidden: 1.5e3\n"}) {
    const ProblemContext p = Problem(yaml).load();
    EXPECT_TRUE(p.forbidden.empty()) << yaml;
    const Diagnostic *d = find(p, "problem-yaml-type");
    ASSERT_NE(d, nullptr) << yaml << codes(p);
    EXPECT_EQ(d->severity, Diagnostic::Severity::Warning);
    EXPECT_NE(d->message.find("`forbidden` should be a list of strings"), std::string::npos) << d->message;
    EXPECT_EQ(d->lines.begin, 1u);
  }
  // A quoted number is a string, as YAML reads it.
  EXPECT_EQ(Problem("forbidden: \"42\"\n").load().forbidden, std::vector<std::string>{"42"});
  // An empty key is no list at all, and says nothing.
  EXPECT_TRUE(Problem("forbidden:\nname: p\n").load().diagnostics.empty());
}

TEST(ProblemDiagnostics, BadEntriesOfTheForbiddenListAreDroppedOneByOne) {
  const ProblemContext p =
      Problem("forbidden:\n  - torch.mm\n  - {a: b}\n  - 7\n  - [x]\n  - \"\"\n  - \"torch.bmm\"\n").load();
  EXPECT_EQ(p.forbidden, (std::vector<std::string>{"torch.mm", "torch.bmm"}));
  std::vector<unsigned> lines;
  for (const Diagnostic &d : p.diagnostics) {
    EXPECT_EQ(d.code, "problem-yaml-type");
    lines.push_back(d.lines.begin);
  }
  EXPECT_EQ(lines, (std::vector<unsigned>{3, 4, 5, 6})) << codes(p);
}

TEST(ProblemDiagnostics, ScalarKeysAndToleranceOfTheWrongShape) {
  const ProblemContext p = Problem("name: [a, b]\nprecision: {dtype: fp8}\nregime: memory\n"
                                   "tolerance:\n  float32: 1.0e-4\n  bfloat16: loose\n")
                               .load();
  EXPECT_EQ(p.name, "p"); // the directory name, as without a name
  EXPECT_EQ(p.precision, "");
  EXPECT_EQ(p.regime, "memory");
  EXPECT_EQ(p.tolerance, (std::map<std::string, double>{{"float32", 1.0e-4}})) << "not bfloat16 = 0";
  ASSERT_EQ(p.diagnostics.size(), 3u) << codes(p);
  EXPECT_NE(p.diagnostics[0].message.find("`name` should be a string, not a list"), std::string::npos);
  EXPECT_NE(p.diagnostics[1].message.find("`precision` should be a string, not a mapping"), std::string::npos);
  EXPECT_NE(p.diagnostics[2].message.find("`tolerance` of `bfloat16` should be a number"), std::string::npos);
  EXPECT_EQ(p.diagnostics[2].lines.begin, 6u);
  EXPECT_NE(find(Problem("tolerance: 0.01\n").load(), "problem-yaml-type"), nullptr);
}

TEST(ProblemDiagnostics, UnknownPrecisionAndMisspeltKeysAreWarned) {
  const ProblemContext p = Problem("precison: fp8_e4m3\nforbiden: [torch.matmul]\nprecision: fp8x\n"
                                   "flops_formula: 2*M*N*K\nsota: {name: x}\n")
                               .load();
  EXPECT_TRUE(p.forbidden.empty());
  ASSERT_EQ(p.diagnostics.size(), 3u) << codes(p); // flops_formula and sota are someone else's keys
  EXPECT_EQ(p.diagnostics[0].code, "problem-yaml-value");
  EXPECT_NE(p.diagnostics[0].message.find("fp8x"), std::string::npos);
  EXPECT_EQ(p.diagnostics[1].code, "problem-yaml-key");
  EXPECT_NE(p.diagnostics[1].message.find("did you mean `precision`"), std::string::npos);
  EXPECT_NE(p.diagnostics[2].message.find("did you mean `forbidden`"), std::string::npos);
  EXPECT_EQ(p.diagnostics[2].lines.begin, 2u);
}

TEST(ProblemDiagnostics, ReferenceThatDoesNotParseIsAWarning) {
  const ProblemContext p = Problem("name: p\n", "import torch\nclass Model(torch.nn.Module:\n"
                                                "    def forward(self, x):\n        return x @ x\n")
                               .load();
  const Diagnostic *d = find(p, "reference-syntax-error");
  ASSERT_NE(d, nullptr) << codes(p);
  EXPECT_EQ(d->severity, Diagnostic::Severity::Warning);
  EXPECT_EQ(d->file, "reference.py");
  EXPECT_EQ(d->lines.begin, 2u);
  EXPECT_NE(d->message.find("reference.py does not parse"), std::string::npos) << d->message;
  EXPECT_TRUE(p.reference.found); // what parsed is still summarised

  // Not Python at all: no reference, and said so.
  const ProblemContext binary = Problem("name: p\n", std::string("\x7f" "ELF\0\0", 6)).load();
  EXPECT_FALSE(binary.reference.found);
  EXPECT_NE(find(binary, "reference-binary-file"), nullptr) << codes(binary);
  EXPECT_NE(find(Problem("name: p\n", "").load(), "reference-empty-file"), nullptr);
  const ProblemContext noModel = Problem("name: p\n", "import torch\nx = 1\n").load();
  ASSERT_NE(find(noModel, "reference-no-entry"), nullptr) << codes(noModel);
  EXPECT_EQ(find(noModel, "reference-no-entry")->severity, Diagnostic::Severity::Note);
}

TEST(ProblemDiagnostics, ScalarForbiddenStillFiresWrap005AndTheAnnotationCarriesTheNote) {
  const Problem problem("name: p\nprecision: fp32\nforbidden: \"torch.matmul\"\n");
  TempDir run;
  // The forbidden op itself (kWrapper multiplies with `@`).
  writeFile(run / "solution.py",
            "import torch\n\n\nclass ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n"
            "        return torch.matmul(a, b)\n");
  const auto r = kbaudit::test::kb(
      {"check", (run / "solution.py").string(), "--problem", problem.path().string(), "--format", "yaml"});
  ASSERT_EQ(r.code, cli::kExitFlagged) << r.err;
  const YAML::Node y = YAML::Load(r.out);
  bool wrap005 = false, note = false;
  for (const auto &f : y["kbaudit"]["findings"])
    wrap005 |= f["rule"].as<std::string>() == "WRAP005";
  for (const auto &d : y["kbaudit"]["diagnostics"])
    note |= d["code"].as<std::string>() == "problem-yaml-coerced" && d["file"].as<std::string>() == "problem.yaml";
  EXPECT_TRUE(wrap005) << r.out;
  EXPECT_TRUE(note) << r.out;
}

TEST(ProblemDiagnostics, ProblemCommandPrintsThem) {
  const Problem problem("name: \"p\x1b[2K\"\nforbidden: 42\n");
  const auto r = kbaudit::test::kb({"problem", problem.path().string()});
  EXPECT_EQ(r.code, cli::kExitClean);
  EXPECT_NE(r.out.find("diagnostic:     problem.yaml:2: warning: problem-yaml-type: `forbidden` should be a list"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("problem:        p\\x1b[2K\n"), std::string::npos) << r.out;
}

// The checks must not cry wolf: every shipped and corpus problem reads without a diagnostic.
TEST(ProblemDiagnostics, WellFormedProblemsHaveNone) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "problems"))
    dirs.push_back(e.path());
  if (const char *corpus = std::getenv("KBAUDIT_CORPUS"))
    for (fs::recursive_directory_iterator it(fs::path(corpus) / "problems", ec), end; it != end && !ec;
         it.increment(ec))
      if (it->path().filename() == "problem.yaml")
        dirs.push_back(it->path().parent_path());
  for (const fs::path &dir : dirs) {
    const ProblemContext p = loadProblem(dir);
    EXPECT_TRUE(p.diagnostics.empty()) << dir << "\n" << codes(p);
  }
}

} // namespace
