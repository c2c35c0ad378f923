#pragma once

// The compiled facts: what nvcc makes of the embedded CUDA sources for the run's GPU
// architecture, read from the PTX it emits (`nvcc -ptx`) and from ptxas's resource report.
// The Clang front end says what the source names; these say what the compiler kept: a
// `__half` variable that never reaches an MMA emits none, a template nobody instantiates emits
// no kernel, a `wmma` fragment of `precision::tf32` emits `wmma.mma ... .tf32`.
//
// Plain structs, keyed by kernel name as the Clang front end names functions (qualified, no
// template arguments: "ns::gemm_kernel"). Dtypes use the canonical vocabulary of the problem
// context ("fp32", "fp16", "bf16", "tf32", "fp8e4m3", "fp8e5m2", "fp6e3m2", "fp6e2m3",
// "fp4e2m1", "int8", "uint8", "int4", "int1", "fp64", "int32").

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::compiled {

/// A tensor-core matrix multiply-accumulate instruction and how often the kernel's PTX holds it.
struct MmaUse {
  std::string instruction; ///< as emitted: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  std::string family;      ///< "mma", "wmma", "wgmma", "tcgen05"
  std::string a, b;        ///< operand dtypes ("fp16"); "" when the instruction does not name them
  std::string accumulator; ///< the D/C dtype ("fp32"); "" when not named (tcgen05)
  /// tcgen05 names only its kind (the instruction descriptor, a run-time value, picks the
  /// types): "f16" (fp16 or bf16), "tf32", "f8f6f4", "i8", "mxf8f6f4", ...; "" otherwise.
  std::string kind;
  unsigned count = 0;
};

/// A floating-point conversion (`cvt`): integer-to-integer conversions are not recorded.
struct ConversionUse {
  std::string instruction; ///< "cvt.rn.f16.f32", "cvt.rn.satfinite.e4m3x2.f32"
  std::string to, from;    ///< dtypes ("fp16" from "fp32")
  unsigned count = 0;
};

/// What one kernel's PTX does, with the `.func` device functions it calls folded in.
struct KernelCode {
  std::vector<MmaUse> mma;
  std::vector<ConversionUse> conversions;
  /// Floating-point arithmetic instructions by PTX type ("f32", "f16x2", "f16", "bf16x2",
  /// "bf16", "f64"): fma/mad and everything else (add, mul, min, max, ex2, rcp, ...) apart.
  std::map<std::string, unsigned> fma;
  std::map<std::string, unsigned> arithmetic;
  unsigned globalLoads = 0, globalStores = 0;
  unsigned sharedLoads = 0, sharedStores = 0;
  unsigned localLoads = 0, localStores = 0;
  unsigned asyncCopies = 0; ///< cp.async, cp.async.bulk (TMA)
  unsigned atomics = 0;     ///< atom.*, red.*
  unsigned barriers = 0;    ///< bar.*, barrier.*
  /// Bytes of `.shared` the PTX declares statically for it (dynamic shared memory is sized
  /// at launch and not counted).
  unsigned staticSharedBytes = 0;
  bool dynamicShared = false; ///< uses an `.extern .shared` array
  unsigned instructions = 0;  ///< all instructions

  /// Any floating-point or tensor-core arithmetic at all: a kernel without is a copy.
  bool computes() const { return !mma.empty() || !fma.empty() || !arithmetic.empty(); }
};

/// ptxas's resource report for one function (`ptxas -v`).
struct Resources {
  bool known = false;
  unsigned registers = 0;
  unsigned sharedBytes = 0; ///< static shared memory (smem)
  unsigned stackFrame = 0;  ///< per-thread local memory (stack frame)
  unsigned spillStores = 0, spillLoads = 0;
};

struct CompiledKernel {
  std::string mangled;    ///< the PTX entry name ("_Z9gemm_wmmaPKfS0_Pfiii")
  std::string demangled;  ///< the full signature ("gemm_wmma(float const*, ...)"), = mangled for extern "C"
  std::string name;       ///< qualified, without template arguments or parameters ("gemm_wmma")
  KernelCode code;
  Resources resources;
};

enum class UnitStatus {
  Compiled,      ///< nvcc emitted PTX; the kernels are read
  CompileError,  ///< nvcc rejected the source (the solution's own error, or a header kbaudit lacks)
  MissingHeader, ///< an #include nvcc could not find (CUTLASS, a sidecar header)
  TimedOut,      ///< the compiler ran past the time limit
  Failed,        ///< the compiler could not be run, was killed, or its output could not be read
  NoCompiler,    ///< no nvcc here
  TooLarge,      ///< not given to the compiler: larger than the limit
  NotDevice,     ///< nothing to compile for the GPU (C++ host sources, jiterator functors)
};

const char *unitStatusName(UnitStatus s); ///< "compiled", "compile-error", "missing-header", ...
std::optional<UnitStatus> unitStatusFromName(std::string_view name);

/// One translation unit (the strings of one load_inline cuda_sources list, a sidecar, a cupy
/// kernel), compiled or not, with why.
struct CompiledUnit {
  std::vector<int> sources; ///< indices into EmbedFacts::sources
  UnitStatus status = UnitStatus::Failed;
  std::string why;          ///< for anything but Compiled: the reason, one line
  /// The first compiler errors, each mapped to a solution.py line where it is known.
  struct Error {
    std::string message;
    int source = -1;
    unsigned line = 0; ///< solution.py (or sidecar) line, 0 when unknown
  };
  std::vector<Error> errors;
  std::string arch;         ///< "sm_90a"
  bool cached = false;      ///< read from the compile cache
  double seconds = 0;       ///< the cold compile's wall time (also for cached entries)
  std::string ptxasError;   ///< ptxas rejected the PTX (resources unknown), "" otherwise
  std::vector<CompiledKernel> kernels;
};

struct CompiledFacts {
  /// False when compilation was not asked for (`--compile` off): then there are no units and
  /// the rules rest on source facts alone.
  bool attempted = false;
  std::string arch;        ///< the architecture compiled for ("sm_90a")
  std::string archReason;  ///< where it came from ("problem.yaml hardware: H100", "default")
  std::string toolkit;     ///< "nvcc 13.0 (V13.0.88)", "" without nvcc
  std::vector<CompiledUnit> units;

  /// The unit holding embedded source `source`, nullptr when none.
  const CompiledUnit *unitOf(int source) const {
    for (const CompiledUnit &u : units)
      for (int s : u.sources)
        if (s == source)
          return &u;
    return nullptr;
  }
};

} // namespace kbaudit::compiled
