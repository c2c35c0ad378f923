#pragma once

// What a run was graded against: the problem's stated contract (problem.yaml), what its
// reference computes (reference.py or a KernelBench level file, read with the Python front
// end), and the curated policy of its suite (problems/<suite>/*.yaml, compiled in).
// Rules read this; it holds plain structs only.

#include "kbaudit/problems/suite_profile.h"
#include "kbaudit/python/dtype.h"
#include "kbaudit/python/facts.h"
#include "kbaudit/source/diagnostic.h"
#include "kbaudit/source/line_range.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::problems {

/// Heavy operation classes a reference is dominated by.
enum class OpClass { Matmul, Conv, Attention, Scan, Reduction, Sort, Elementwise };
const char *opClassName(OpClass c); ///< "matmul", "conv", ...

/// A dtype the reference creates, with where (canonical names as in the Triton facts:
/// "fp32", "bf16", "fp16", "fp8e4m3", "fp8e5m2", "int8", "int32", "int64", "uint8", ...).
struct DtypeUse {
  std::string dtype;
  std::string function; ///< "get_inputs", "Model.__init__", "Model.forward"
  LineRange lines;
};

/// What reference.py computes.
struct ReferenceSummary {
  bool found = false;
  std::filesystem::path path;
  std::string source;       ///< the file's text
  py::PythonFacts facts;    ///< the Python front end's facts for it
  std::string modelClass;   ///< "Model"
  std::string entry;        ///< qualname of its forward ("Model.forward"; `step` for decode problems)
  LineRange entryLines;
  /// Operation classes the entry point performs through torch, strongest first (matmul,
  /// conv, attention before scan/reduction/sort; elementwise only when nothing else).
  std::vector<OpClass> dominantOps;
  /// Floating and integer dtypes the inputs (get_inputs) and weights (__init__, buffers)
  /// are created with. Empty when the reference never names a dtype (fp32 by default).
  std::vector<DtypeUse> inputDtypes;
  std::vector<DtypeUse> weightDtypes;
  /// Docstrings of the module, the model class and its entry point (for reuse detection).
  std::vector<std::string> docstrings;
  /// The entry point writes into one of its inputs in place (the reference itself is in place).
  bool inPlace = false;
  /// A tolerance the reference module states itself (GPU MODE: the rtol/atol its
  /// `check_implementation` is built with, the looser of the two).
  std::optional<double> statedTolerance;

  /// GPU MODE / kernelbot convention: a module-level `ref_kernel(data)` and no model class.
  bool functionStyle() const { return modelClass.empty() && !entry.empty(); }

  bool dominatedBy(OpClass c) const;
};

/// Curated policy of one known problem (problems/<suite>/<problem>.yaml): what the problem's
/// name promises beyond problem.yaml, and extra forbidden operations and libraries.
struct SuitePolicy {
  std::string suite;   ///< "kernelbench-hard"
  std::string file;    ///< the overlay's path relative to the repository root
  std::string promise; ///< plain language: "a selection network (bitonic sort) written in the kernel"
  /// Instruction classes the problem requires the kernel to use: "fp8_mma" (fp8 tensor-core
  /// MMA), "int4_unpack_in_kernel", "selection_network", "compensated_summation".
  std::vector<std::string> requiredInstructions;
  /// Operations forbidden in addition to problem.yaml's list, as resolved dotted names
  /// ("triton.language.topk", "torch.Tensor.sort") or C++ names ("at::topk").
  std::vector<std::string> forbiddenOps;
  /// Libraries whose import or pasted source is forbidden ("fla", "flash_attn", "vllm").
  std::vector<std::string> forbiddenLibraries;
  /// Heavy operation classes the problem explicitly allows through torch (e.g. plain bf16
  /// matmul in a decode megakernel problem whose point is the fused int4 GEMV).
  std::vector<OpClass> allowedLibraryOps;
  bool compileForbidden = false; ///< torch.compile / torch.jit count as forbidden

  bool demands(std::string_view instructionClass) const;
  bool allowsLibrary(OpClass c) const;
};

/// KernelBench's default correctness tolerance (atol = rtol), used for problems given as a
/// KernelBench-style module, which state none.
inline constexpr double kKernelBenchTolerance = 1e-2;

struct ProblemContext {
  std::filesystem::path dir;
  std::string name;          ///< problem.yaml name, else the directory name ("01_fp8_gemm")
  std::string displayName;   ///< problem.yaml display_name
  std::string precision;     ///< problem.yaml precision as written ("fp8_e4m3", "int4_bf16", "fp32")
  std::string regime;        ///< "compute" / "memory" / "latency"
  std::map<std::string, double> tolerance;
  /// The tolerance was stated by the problem itself (problem.yaml, the reference's check, a
  /// table row), not filled in from a suite's default.
  bool toleranceStated = false;
  ProblemLayout layout = ProblemLayout::None;
  /// How the grader hands the solution the reference's weights: the layout's convention until a
  /// suite profile says (applyProfile). Under a lenient load reference parameters the solution
  /// lacks are dropped silently; under same-seed construction nothing is copied at all.
  WeightSharing weights = WeightSharing::StrictLoad;
  bool lenientStateLoad() const { return weights == WeightSharing::LenientLoad; }
  /// How the grader builds and calls the models (train or eval mode; who sees the inputs first):
  /// unknown until a suite profile says (applyProfile). The runtime probes reproduce it.
  HarnessFacts harness;
  /// The solution declares the precision it computes in (KernelBench-v3 `precision_used`):
  /// compute below `precision` breaks the contract even when its error fits the tolerance.
  bool precisionDeclared = false;
  /// The suite profile applied (its id and version), "" before applyProfile.
  std::string suite;
  unsigned suiteVersion = 0;
  std::vector<std::string> forbidden; ///< problem.yaml forbidden, as written
  std::vector<std::string> hardware;  ///< problem.yaml hardware, as written ("H100")
  ReferenceSummary reference;
  std::optional<SuitePolicy> policy;
  std::vector<Diagnostic> diagnostics;

  /// The contract's compute precision as a canonical dtype: "fp32", "fp16", "bf16",
  /// "fp8e4m3", "fp8e5m2", "int4", "int8"; "" when neither problem.yaml nor the reference
  /// says. `precision: int4_bf16` is "int4" (the low-precision operand defines the contract);
  /// the narrowest floating dtype the reference creates its inputs in defines it when problem.yaml
  /// is silent.
  std::string contractDtype() const;
  /// Forbidden operations from problem.yaml and the policy together.
  std::vector<std::string> allForbidden() const;
};

/// The dtype vocabulary (kbaudit/python/dtype.h), under the names rules and the problem
/// context have always used.
using dtype::canonicalDtype;
using dtype::dtypeBits;
using dtype::unitRoundoff;

/// Reads a problem directory (KernelBench-Hard layout: problem.yaml, reference.py, ...; GPU MODE
/// layout: reference.py with ref_kernel/generate_input/check_implementation beside task.yml) or
/// a KernelBench level file (`NN_Name.py` with Model/get_inputs/get_init_inputs).
/// Never throws; a missing or malformed file becomes a diagnostic.
ProblemContext loadProblem(const std::filesystem::path &dirOrFile);

/// Applies a suite profile's harness facts: how weights are shared, whether the solution declares
/// its precision, and the suite's tolerance where the problem states none.
void applyProfile(ProblemContext &problem, const SuiteProfile &profile);

/// Summarises a reference source (reference.py or a level file).
ReferenceSummary summarizeReference(std::string_view source, const std::filesystem::path &path = {});

/// The compiled-in policy for a problem name, if a suite overlay covers it.
std::optional<SuitePolicy> findPolicy(std::string_view problemName, std::string_view displayName = {});

/// Every problem name under `root` (to depth 3): directories holding problem.yaml or
/// reference.py, and KernelBench-style module files (`level1/36_RMSNorm_.py`: a `.py` that
/// defines `class Model` and `get_inputs`), by file stem. Run ids are split on these names,
/// which may end in `_`, hold `__` or carry no number (`gemm_bf16`).
std::vector<std::string> listProblemNames(const std::filesystem::path &root);

/// Finds `problem` under `root`: a directory `<bench>/<gpu>/<problem>/` (as in the corpus) or
/// flat `<problem>/`, or a KernelBench-style module `<level>/<problem>.py` (KernelBench-v3).
/// `bench`/`gpu` narrow the search when known. loadProblem reads either.
std::optional<std::filesystem::path> findProblemDir(const std::filesystem::path &root,
                                                    const std::string &problem,
                                                    const std::string &bench = {},
                                                    const std::string &gpu = {});

} // namespace kbaudit::problems
