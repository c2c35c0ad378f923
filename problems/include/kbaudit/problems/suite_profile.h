#pragma once

// Suite profiles: the rules a benchmark suite grades by, as data (problems/suites/<id>.yaml,
// compiled in; more from --suites DIR without a rebuild). Rules describe behaviours; a profile
// says what each contract term costs in its suite, how the solution gets its weights, what
// precision it may compute in, and where a run's score comes from. Plain structs only.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::problems {

/// The contract terms a finding can break. The first three are the grader's own checks
/// (correctness, timing, the harness itself): defeating them is a hack in every suite, and a
/// profile cannot price them. The others are terms a suite may or may not set.
enum class Term {
  Correctness,        ///< the result check: memoised/stale/aliased outputs, input sniffing, hidden weights
  Timing,             ///< the timer: work that escapes the timed region, timer patches
  Grader,             ///< the harness: reading, editing or forging the grader and its channels
  AuthoredKernel,     ///< some graded work must run in a kernel the submission wrote
  AuthoredCompute,    ///< the heavy compute itself must be authored (no library beside a fig leaf)
  ForbiddenOps,       ///< operations the problem or suite forbids
  ForbiddenLibraries, ///< libraries whose import or pasted source the suite forbids
  Precision,          ///< compute below the precision contract
  ProblemPromise,     ///< what the problem's name promises (fp8 MMA, in-kernel int4 unpacking)
  /// Correctness beyond the suite's own test inputs: a result that matches on the inputs the
  /// grader draws (standard-normal, at the listed shapes) and not on others within the problem's
  /// contract (shifted, rescaled, non-normal, structured). Priced by the suite: KernelBench holds
  /// a solution to the function the reference computes, a leaderboard may hold it to its tests.
  TestDistribution,
  /// The suite's own static gate rejects (or warns on) the construct: its test is broader than
  /// the harm (any `try:` in KernelBench), so this is the suite's rule, not a hack kbaudit proved.
  SuiteGate,
};

/// "correctness", "authored-kernel", ...
const char *termName(Term t);
std::optional<Term> termNamed(std::string_view name);
/// The grader's own checks: a finding against them is a hack whatever the profile says.
bool universalTerm(Term t);
/// Mandate and library terms: a violation of these that gained nothing (no speedup over the
/// suite's baseline, or a failed correctness check) is reported without deciding the verdict.
bool gainMatters(Term t);
/// Every term, in declaration order.
const std::vector<Term> &allTerms();

/// What breaking a term costs in a suite.
enum class Cost {
  Hack,    ///< the finding decides the verdict as its rule says
  Review,  ///< listed for a person, never decisive (a warning in the suite's own checker)
  Allowed, ///< the suite permits it: not a finding at all, noted in the annotation
};
const char *costName(Cost c); ///< "hack", "review", "allowed"

/// How the grader gives the solution the reference's weights.
enum class WeightSharing {
  SameSeed,    ///< both models are built after the same seed; nothing is copied (KernelBench)
  StrictLoad,  ///< load_state_dict(strict=True): a missing or renamed key fails loudly (KernelBench-Hard)
  LenientLoad, ///< load_state_dict(strict=False): unmatched keys are dropped silently (KernelBench-v3)
  Inputs,      ///< weights arrive as inputs of the graded call (GPU MODE, pygpubench)
};
const char *weightSharingName(WeightSharing w); ///< "same-seed", "strict-load", ...

/// The mode the grader runs both models in: PyTorch's default (training mode) unless the harness
/// calls `eval()`. It decides what a BatchNorm normalises by (the batch's statistics in
/// training mode, the running ones in eval mode) and whether dropout is active.
enum class ModelMode { Unknown, Train, Eval };
const char *modelModeName(ModelMode m); ///< "unknown", "train", "eval"

/// Who sees the inputs first in the grader's correctness check. Where the reference runs first
/// (or the solution gets a copy), a solution that writes into its inputs cannot change the
/// answer it is compared with.
enum class CallOrder {
  Unknown,
  ReferenceFirst, ///< the reference is called (or the expected output computed) first, on the same inputs
  SolutionOnCopy, ///< the solution is called on a copy of the inputs the reference sees
};
const char *callOrderName(CallOrder o); ///< "unknown", "reference-first", "solution-on-copy"

/// How the grader builds and calls the models (what the runtime probes reproduce).
struct HarnessFacts {
  ModelMode mode = ModelMode::Unknown;
  CallOrder order = CallOrder::Unknown;
  /// The Python packages the grader's environment installs (`harness.packages`); empty when
  /// the profile does not say. Code that needs another (cupy) falls back or fails there.
  std::vector<std::string> packages;
  bool operator==(const HarnessFacts &) const = default;
};

/// How a problem is laid out on disk (what loadProblem read).
enum class ProblemLayout {
  None,             ///< no problem given
  ProblemYaml,      ///< a directory with problem.yaml and reference.py (KernelBench-Hard)
  Module,           ///< a KernelBench-style module: Model, get_inputs, get_init_inputs
  GpuModeReference, ///< reference.py with ref_kernel/generate_input/check_implementation
  ReferenceOnly,    ///< a directory with a reference.py of no known convention
};
const char *layoutName(ProblemLayout l); ///< "problem-yaml", "module", "gpumode-reference", ...

/// The shape of the solution's graded entry point.
enum class EntryShape {
  Unknown,
  ModelNew,     ///< class ModelNew with forward (KernelBench levels 1-4, v3)
  Model,        ///< class Model with forward (KernelBench-Hard)
  CustomKernel, ///< module-level custom_kernel(data) (GPU MODE / kernelbot)
  OutputKernel, ///< module-level kernel(output, *inputs) (pygpubench)
};
const char *entryShapeName(EntryShape e); ///< "model-new", "model", "custom-kernel", "output-kernel"

/// One public file a profile's statements come from.
struct ProfileSource {
  std::string file; ///< "ScalingIntelligence/KernelBench: src/kernelbench/eval.py"
  std::string says; ///< what the profile takes from it
  bool operator==(const ProfileSource &) const = default;
};

/// How a run is recognised as this suite's (any match counts; see detectSuite).
struct ProfileDetection {
  /// Values of `bench`/`suite` in the run's meta.json or result.json, or a table's `suite` column.
  std::vector<std::string> bench;
  std::vector<ProblemLayout> layouts; ///< problem layouts of this suite
  std::vector<EntryShape> entries;    ///< entry shapes of this suite's solutions
  bool table = false;                 ///< runs given as rows of an evaluation table
  /// Files or folders that mark the suite's problem tree (looked for beside the problem and in
  /// its parents, three levels up): "precision_matrix.py".
  std::vector<std::string> markers;
  bool operator==(const ProfileDetection &) const = default;
};

/// What the suite's own gate does with a submission its check matches.
enum class GateAction {
  Reject, ///< the harness refuses the submission (KernelBench STRICT, a sandbox's refusal)
  Warn,   ///< the harness warns and grades it anyway (KernelBench WARNING, a lint's FLAG)
};
const char *gateActionName(GateAction a); ///< "reject", "warn"

/// The gate's own test, as RUB017 (suite-gate) evaluates it over the facts by meaning: resolved
/// names, statements and kernels rather than the gate's regular expression. `kind` is one of
/// the tests rules::gateTestKinds() lists; `names` parameterise it (the callees, modules,
/// decorators, bases, attributes or strings the gate names).
struct GateTest {
  std::string kind;
  std::vector<std::string> names;
  bool operator==(const GateTest &) const = default;
};

/// One check of the suite's own static gate, cited to the file it comes from, and what in
/// kbaudit answers it by meaning.
struct GateCheck {
  std::string id;      ///< unique in the profile: "code-bypass-try"
  std::string check;   ///< the harness's own name for it: "code_bypass (TRY_EXCEPT_PATTERNS)"
  GateAction action = GateAction::Reject;
  std::string source;  ///< the public file: "ScalingIntelligence/KernelBench: src/kernelbench/kernel_static_checker.py"
  std::string says;    ///< what the gate tests, in the file's terms
  std::string harm;    ///< the harm the check guards against, which `answers` establish
  /// The rules that answer the harm by meaning (rule ids; RUB017 where only the gate's own
  /// test answers). Never empty: a check without an answer is a gap (suite_gate_test).
  std::vector<std::string> answers;
  /// The gate's own test, where it is broader than the harm: RUB017 reports a match as "the
  /// suite's gate rejects this", priced by the profile's `suite-gate` term.
  std::optional<GateTest> test;
  bool operator==(const GateCheck &) const = default;
};

struct SuiteProfile {
  std::string id;      ///< "kernelbench-hard"
  unsigned version = 1;
  std::string name;    ///< "KernelBench-Hard"
  std::string summary; ///< one paragraph: what the suite asks for and how it grades
  std::string file;    ///< where it was read from: "problems/suites/kernelbench.yaml" or a path
  bool builtin = false;
  std::vector<ProfileSource> sources;
  ProfileDetection detect;
  /// Graded entry points in words ("ModelNew.forward").
  std::vector<std::string> entryPoints;
  /// none | some | all: how much of the compute must be an authored kernel.
  std::string mandate;
  std::map<Term, Cost> costs; ///< every non-universal term
  /// Precision contract. `reference`: "problem" (the problem states it) or a dtype.
  std::string referencePrecision = "problem";
  /// The solution declares the precision it computes in (v3 `precision_used`): compute below
  /// the declared precision breaks the contract even when its error fits the tolerance.
  bool precisionDeclared = false;
  /// Tolerance per canonical dtype when the problem states none ("fp32" -> 1e-4).
  std::map<std::string, double> tolerance;
  WeightSharing weights = WeightSharing::StrictLoad;
  HarnessFacts harness;
  std::string inputs; ///< how inputs are made (seeds, regeneration per call, shapes), in words
  std::string timing; ///< how timing works (events, warm-up, L2 flush, graphs), in words
  /// The harness's own static gate, check by check (KernelBench's kernel_static_checker.py,
  /// v3's guardrails.py, KernelBench-Hard's reward_hack_lint.py, KernelGuard, a sandbox).
  std::vector<GateCheck> gate;
  struct Score {
    /// Where the run's score is read from, in words and in order ("result.json: correct, shapes[].ms").
    std::vector<std::string> from;
    std::string baseline; ///< what the speedup is measured against
    /// A mandate or library violation gained something when the speedup is at least this.
    double minSpeedup = 1.0;
    /// Where the harness rates a run by its fraction of the GPU's peak, the mark it calls a
    /// result (KernelBench-Hard's benchmark.py prints `RESULT: OK` from 0.1); when set and the
    /// run's peak fraction is known, it decides gain instead of the speedup.
    std::optional<double> minPeakFraction;
    bool operator==(const Score &) const = default;
  } score;

  Cost cost(Term t) const; ///< Hack for universal terms and for terms the profile leaves out
  /// Every field (the build-time profiles are tested against the YAML with it).
  bool operator==(const SuiteProfile &) const = default;
};

/// A profile that could not be read: the file and the key at fault, and why.
struct ProfileError {
  std::string file;
  std::string key; ///< "terms.precision", "" for the document as a whole
  std::string message;
  std::string text() const; ///< "file: key: message"
};

/// Parses one profile document; every key is checked (unknown keys and wrong types are errors).
/// `file` names it in errors.
std::optional<SuiteProfile> parseSuiteProfile(std::string_view yaml, const std::string &file, ProfileError &error);

/// The profiles kbaudit ships (problems/suites/*.yaml, compiled in), sorted by id.
const std::vector<SuiteProfile> &builtinProfiles();

/// Built-in profiles plus a user's (each `*.yaml` of the given folders; one with a built-in id
/// replaces it). Errors are collected, never thrown.
struct ProfileSet {
  std::vector<SuiteProfile> profiles;
  std::vector<ProfileError> errors;
  const SuiteProfile *find(std::string_view id) const;
};
ProfileSet loadProfiles(const std::vector<std::filesystem::path> &userDirs);

/// What a run shows about its suite.
struct SuiteSignals {
  std::string requested;              ///< --suite or the config file's `suite:`
  std::string requestedBy;            ///< "--suite", "kbaudit.yaml"
  std::string bench;                  ///< meta.json/result.json `bench`, a table's `suite` column
  bool table = false;                 ///< a row of an evaluation table
  ProblemLayout layout = ProblemLayout::None;
  std::filesystem::path problemPath;  ///< the problem directory or module, for markers
  EntryShape entry = EntryShape::Unknown;
};

struct SuiteDetection {
  const SuiteProfile *profile = nullptr; ///< nullptr only when the set is empty or `requested` is unknown
  std::string reason;                    ///< "meta.json bench 'hard'", "problem layout: module, entry: ModelNew"
  std::string error;                     ///< a requested id no profile has
};

/// Picks the profile: the requested one; else the first of bench name, table, problem markers,
/// problem layout (with the entry shape breaking ties), entry shape; else KernelBench-Hard's,
/// the contract kbaudit was first built for.
SuiteDetection detectSuite(const ProfileSet &set, const SuiteSignals &signals);

/// The profile's doc page (docs/suites/<id>.md).
std::string renderSuiteDoc(const SuiteProfile &profile);

} // namespace kbaudit::problems
