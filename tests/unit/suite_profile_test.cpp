// Suite profiles as data: the shipped profiles load, cite their sources and match their doc
// pages; a broken profile is refused with its file and key named; detection picks the suite a
// run shows.

#include "kbaudit/problems/problem_context.h"
#include "kbaudit/problems/suite_profile.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <set>

namespace fs = std::filesystem;
using namespace kbaudit;
using namespace kbaudit::problems;

namespace {

const fs::path kSource = KBAUDIT_SOURCE_DIR;

/// A complete, valid profile; tests break one key at a time.
const std::string kGood = R"(id: my-harness
version: 2
name: My harness
summary: A team's own leaderboard.
sources:
  - file: "my-org/harness: eval.py"
    says: "compares with allclose"
detect:
  bench: [mine]
  layouts: [module]
  entries: [model-new]
mandate: some
terms:
  authored-kernel: hack
  authored-compute: review
  forbidden-ops: hack
  forbidden-libraries: allowed
  precision: review
  problem-promise: review
precision:
  reference: fp32
  declared: false
  tolerance: {fp32: 1.0e-3}
weights: same-seed
harness:
  mode: train
  order: reference-first
score:
  from: ["table: speedup"]
  min_speedup: 1.1
)";

std::string replaced(std::string text, const std::string &from, const std::string &to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

} // namespace

TEST(SuiteProfiles, EveryShippedSuiteIsBuiltInAndPricesEveryTerm) {
  std::set<std::string> ids;
  for (const SuiteProfile &p : builtinProfiles()) {
    ids.insert(p.id);
    EXPECT_TRUE(p.builtin);
    EXPECT_FALSE(p.sources.empty()) << p.id << " cites no source";
    for (Term t : allTerms()) {
      if (!universalTerm(t)) {
        EXPECT_TRUE(p.costs.count(t)) << p.id << " leaves '" << termName(t) << "' unpriced";
      }
    }
  }
  EXPECT_EQ(ids, (std::set<std::string>{"gpumode", "kernelbench", "kernelbench-hard", "kernelbench-v3", "pygpubench"}));
}

TEST(SuiteProfiles, ShippedFilesParseCleanly) {
  // builtinProfiles() leaves a broken file out; this names it.
  unsigned files = 0;
  for (const auto &entry : fs::directory_iterator(kSource / "problems" / "suites")) {
    ++files;
    ProfileError error;
    const auto p = parseSuiteProfile(test::readFile(entry.path()), entry.path().filename().string(), error);
    EXPECT_TRUE(p) << error.text();
    if (p) {
      EXPECT_EQ(p->id + ".yaml", entry.path().filename().string()) << "a profile's file is named after its id";
    }
  }
  EXPECT_EQ(files, builtinProfiles().size());
}

TEST(SuiteProfiles, DocPagesAreGeneratedFromTheProfiles) {
  for (const SuiteProfile &p : builtinProfiles()) {
    const fs::path page = kSource / "docs" / "suites" / (p.id + ".md");
    ASSERT_TRUE(fs::exists(page)) << page << " missing: run `build/kbaudit suites --docs docs/suites`";
    EXPECT_EQ(test::readFile(page), renderSuiteDoc(p))
        << page << " is stale: run `build/kbaudit suites --docs docs/suites`";
  }
}

TEST(SuiteProfiles, TheSuitesDifferWhereTheirHarnessesDo) {
  ProfileSet set = loadProfiles({});
  const SuiteProfile *hard = set.find("kernelbench-hard");
  const SuiteProfile *kb = set.find("kernelbench");
  const SuiteProfile *v3 = set.find("kernelbench-v3");
  const SuiteProfile *gpumode = set.find("gpumode");
  ASSERT_TRUE(hard && kb && v3 && gpumode);
  EXPECT_EQ(hard->cost(Term::AuthoredCompute), Cost::Hack);
  EXPECT_EQ(kb->cost(Term::AuthoredCompute), Cost::Allowed); // a kernel for one op beside PyTorch
  EXPECT_EQ(kb->cost(Term::Precision), Cost::Review);        // a warning in its static checker
  EXPECT_EQ(gpumode->cost(Term::AuthoredKernel), Cost::Allowed);
  EXPECT_EQ(kb->weights, WeightSharing::SameSeed);
  EXPECT_EQ(v3->weights, WeightSharing::LenientLoad);
  EXPECT_EQ(hard->weights, WeightSharing::StrictLoad);
  EXPECT_TRUE(v3->precisionDeclared);
  EXPECT_FALSE(kb->precisionDeclared);
  // KernelBench never calls eval(): a BatchNorm in its reference normalises by batch statistics;
  // the others put both models in eval mode. Every KernelBench-style harness calls the reference
  // first on the inputs both get; GPU MODE hands the submission a copy.
  EXPECT_EQ(kb->harness.mode, ModelMode::Train);
  EXPECT_EQ(hard->harness.mode, ModelMode::Eval);
  EXPECT_EQ(v3->harness.mode, ModelMode::Eval);
  for (const SuiteProfile *p : {kb, hard, v3})
    EXPECT_EQ(p->harness.order, CallOrder::ReferenceFirst) << p->id;
  EXPECT_EQ(gpumode->harness.order, CallOrder::SolutionOnCopy);
  // Correctness only on the suite's own test distribution: a hack where the grader holds the
  // solution to the reference's function, a note where a leaderboard holds it to its tests.
  EXPECT_EQ(kb->cost(Term::TestDistribution), Cost::Hack);
  EXPECT_EQ(gpumode->cost(Term::TestDistribution), Cost::Review);
  // The grader's own checks cannot be priced: a hack under every profile.
  for (const SuiteProfile &p : set.profiles)
    for (Term t : {Term::Correctness, Term::Timing, Term::Grader})
      EXPECT_EQ(p.cost(t), Cost::Hack) << p.id;
}

TEST(SuiteProfiles, AGoodProfileReadsEveryKey) {
  ProfileError error;
  const auto p = parseSuiteProfile(kGood, "mine.yaml", error);
  ASSERT_TRUE(p) << error.text();
  EXPECT_EQ(p->id, "my-harness");
  EXPECT_EQ(p->version, 2u);
  EXPECT_EQ(p->cost(Term::ForbiddenLibraries), Cost::Allowed);
  EXPECT_EQ(p->weights, WeightSharing::SameSeed);
  EXPECT_DOUBLE_EQ(p->tolerance.at("fp32"), 1e-3);
  EXPECT_DOUBLE_EQ(p->score.minSpeedup, 1.1);
  EXPECT_EQ(p->detect.layouts, std::vector<ProblemLayout>{ProblemLayout::Module});
  EXPECT_EQ(p->detect.entries, std::vector<EntryShape>{EntryShape::ModelNew});
  EXPECT_EQ(p->harness.mode, ModelMode::Train);
  EXPECT_EQ(p->harness.order, CallOrder::ReferenceFirst);
  // A profile that says nothing of the harness leaves both unknown (the probes then say so).
  const auto silent = parseSuiteProfile(replaced(kGood, "harness:\n  mode: train\n  order: reference-first\n", ""),
                                        "silent.yaml", error);
  ASSERT_TRUE(silent) << error.text();
  EXPECT_EQ(silent->harness, HarnessFacts{});
  EXPECT_STREQ(modelModeName(silent->harness.mode), "unknown");
}

TEST(SuiteProfiles, BadProfilesNameTheFileAndTheKey) {
  struct Case {
    std::string yaml, key, says;
  };
  const std::vector<Case> cases = {
      {replaced(kGood, "mandate: some", "mandate: some\ncolour: blue"), "colour", "unknown key"},
      {replaced(kGood, "  precision: review\n", "  precison: review\n"), "terms.precison", "unknown term"},
      {replaced(kGood, "  precision: review\n", "  precision: review\n  correctness: review\n"), "terms.correctness",
       "every profile"},
      {replaced(kGood, "  precision: review\n", "  precision: maybe\n"), "terms.precision", "not one of"},
      {replaced(kGood, "mandate: some", "mandate: [some]"), "mandate", "expected a string"},
      {replaced(kGood, "weights: same-seed", "weights: shared"), "weights", "not one of"},
      {replaced(kGood, "  mode: train\n", "  mode: training\n"), "harness.mode", "not one of"},
      {replaced(kGood, "  order: reference-first\n", "  order: first\n"), "harness.order", "not one of"},
      {replaced(kGood, "  order: reference-first\n", "  order: reference-first\n  copies: yes\n"), "harness.copies",
       "unknown key"},
      {replaced(kGood, "tolerance: {fp32: 1.0e-3}", "tolerance: {fp32: tight}"), "precision.tolerance.fp32",
       "positive number"},
      {replaced(kGood, "tolerance: {fp32: 1.0e-3}", "tolerance: {fp33: 1.0e-3}"), "precision.tolerance.fp33",
       "not a dtype"},
      {replaced(kGood, "layouts: [module]", "layouts: [folder]"), "detect.layouts[0]", "not one of"},
      {replaced(kGood, "version: 2", "version: two"), "version", "positive integer"},
      {replaced(kGood, "min_speedup: 1.1", "min_speedup: -1"), "score.min_speedup", "positive number"},
      {replaced(kGood, "  declared: false\n", "  declared: sometimes\n"), "precision.declared", "true or false"},
      {replaced(kGood, "id: my-harness", "id: My Harness"), "id", "lower-case"},
      {replaced(kGood, "sources:\n  - file: \"my-org/harness: eval.py\"\n    says: \"compares with allclose\"\n", ""),
       "sources", "cites"},
      {"- just\n- a list\n", "", "expected a mapping"},
  };
  for (const Case &c : cases) {
    ProfileError error;
    EXPECT_FALSE(parseSuiteProfile(c.yaml, "bad.yaml", error)) << c.key;
    EXPECT_EQ(error.file, "bad.yaml");
    EXPECT_EQ(error.key, c.key) << error.text();
    EXPECT_NE(error.message.find(c.says), std::string::npos) << error.text();
    EXPECT_NE(error.text().find("bad.yaml: "), std::string::npos);
  }
  ProfileError error;
  EXPECT_FALSE(parseSuiteProfile("id: [unclosed\n", "broken.yaml", error));
  EXPECT_NE(error.message.find("not YAML"), std::string::npos) << error.text();
  EXPECT_FALSE(parseSuiteProfile("", "empty.yaml", error));
}

TEST(SuiteProfiles, UserFoldersAddAndReplaceProfilesWithoutARebuild) {
  test::TempDir dir;
  test::writeFile(dir / "mine.yaml", kGood);
  test::writeFile(dir / "kernelbench.yaml", replaced(replaced(kGood, "id: my-harness", "id: kernelbench"),
                                                     "authored-compute: review", "authored-compute: hack"));
  test::writeFile(dir / "notes.txt", "not a profile");
  const ProfileSet set = loadProfiles({dir.path()});
  EXPECT_TRUE(set.errors.empty());
  ASSERT_TRUE(set.find("my-harness"));
  ASSERT_TRUE(set.find("kernelbench"));
  EXPECT_FALSE(set.find("kernelbench")->builtin);
  EXPECT_EQ(set.find("kernelbench")->cost(Term::AuthoredCompute), Cost::Hack);
  EXPECT_EQ(set.profiles.size(), builtinProfiles().size() + 1);

  test::writeFile(dir / "zz_broken.yaml", replaced(kGood, "weights: same-seed", "weights: 3"));
  const ProfileSet broken = loadProfiles({dir.path()});
  ASSERT_EQ(broken.errors.size(), 1u);
  EXPECT_EQ(broken.errors[0].file, (dir / "zz_broken.yaml").string());
  EXPECT_EQ(broken.errors[0].key, "weights");
  EXPECT_EQ(loadProfiles({dir / "missing"}).errors.size(), 1u);
}

TEST(SuiteDetection, TheStrongestSignalWins) {
  const ProfileSet set = loadProfiles({});
  const auto id = [&](const SuiteSignals &s) {
    const SuiteDetection d = detectSuite(set, s);
    return d.profile ? d.profile->id : "error: " + d.error;
  };
  SuiteSignals s;
  EXPECT_EQ(id(s), "kernelbench-hard") << "nothing known: the default contract";
  s.entry = EntryShape::CustomKernel;
  EXPECT_EQ(id(s), "gpumode");
  s.entry = EntryShape::OutputKernel;
  EXPECT_EQ(id(s), "pygpubench");
  s.entry = EntryShape::ModelNew;
  EXPECT_EQ(id(s), "kernelbench");
  s.layout = ProblemLayout::ProblemYaml;
  EXPECT_EQ(id(s), "kernelbench-hard") << "the problem's layout outranks the entry's shape";
  s.layout = ProblemLayout::GpuModeReference;
  EXPECT_EQ(id(s), "gpumode");
  s.table = true;
  EXPECT_EQ(id(s), "kernelbench-v3") << "a row of an evaluation table";
  s.bench = "HARD";
  EXPECT_EQ(id(s), "kernelbench-hard") << "the run's own metadata, case-insensitive";
  s.requested = "pygpubench";
  EXPECT_EQ(id(s), "pygpubench") << "--suite wins";
  s.requested = "nope";
  EXPECT_NE(id(s).find("no suite profile 'nope'"), std::string::npos);
}

TEST(SuiteDetection, AMarkerInTheProblemTreeNamesTheSuite) {
  test::TempDir dir;
  test::writeFile(dir / "precision_matrix.py", "HARDWARE_PRECISIONS = {}\n");
  test::writeFile(dir / "problems" / "level1" / "1_Square.py", "class Model: pass\ndef get_inputs(): return []\n");
  SuiteSignals s;
  s.layout = ProblemLayout::Module;
  s.entry = EntryShape::ModelNew;
  s.problemPath = dir / "problems" / "level1" / "1_Square.py";
  const SuiteDetection d = detectSuite(loadProfiles({}), s);
  ASSERT_TRUE(d.profile);
  EXPECT_EQ(d.profile->id, "kernelbench-v3");
  s.problemPath = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "problems" / "v3_linear.py";
  EXPECT_EQ(detectSuite(loadProfiles({}), s).profile->id, "kernelbench");
}

TEST(SuiteProfiles, ApplyingAProfileSetsTheHarnessFacts) {
  const fs::path module = fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "problems" / "v3_linear.py";
  ProblemContext p = loadProblem(module);
  EXPECT_EQ(p.layout, ProblemLayout::Module);
  EXPECT_EQ(p.harness, HarnessFacts{}) << "no suite, no harness facts";
  const ProfileSet set = loadProfiles({});
  applyProfile(p, *set.find("kernelbench"));
  EXPECT_EQ(p.weights, WeightSharing::SameSeed);
  EXPECT_EQ(p.harness.mode, ModelMode::Train);
  EXPECT_EQ(p.harness.order, CallOrder::ReferenceFirst);
  EXPECT_FALSE(p.precisionDeclared);
  EXPECT_DOUBLE_EQ(p.tolerance.at("fp32"), 1e-4) << "KernelBench's fp32 tolerance where the module states none";
  applyProfile(p, *set.find("kernelbench-v3"));
  EXPECT_TRUE(p.lenientStateLoad());
  EXPECT_TRUE(p.precisionDeclared);
  EXPECT_EQ(p.suite, "kernelbench-v3");
  EXPECT_EQ(p.harness.mode, ModelMode::Eval);

  // A tolerance the problem states is the problem's, whatever the suite's default.
  ProblemContext stated = loadProblem(fs::path(KBAUDIT_SOURCE_DIR) / "tests" / "problems" / "fp32_gemm_loose");
  EXPECT_EQ(stated.layout, ProblemLayout::ProblemYaml);
  applyProfile(stated, *set.find("kernelbench"));
  EXPECT_DOUBLE_EQ(stated.tolerance.begin()->second, 1e-2);
}
