#pragma once

// The Triton facts: what the `@triton.jit` kernels of a solution.py do, derived from the
// Python facts alone (no text is re-parsed). Rules read these to ask "does this kernel do
// the work", "at which precision does this tl.dot run", "which library sort is used".
//
// Conventions:
// - Lines are 1-indexed solution.py lines, as in the Python facts.
// - `kernel` fields are indices into TritonFacts::kernels.
// - Dtypes are reported twice: `written` (source text, "tl.bfloat16", "c_ptr.dtype.element_ty")
//   and `dtype` (canonical name, see canonical dtype names below, "" when not inferable).
//   Canonical names are shared by Triton and torch spellings: "fp16", "bf16", "fp32", "fp64",
//   "fp8e4m3" (tl.float8e4nv, torch.float8_e4m3fn), "fp8e4m3fnuz" (tl.float8e4b8),
//   "fp8e5m2" (tl.float8e5), "fp8e5m2fnuz" (tl.float8e5b16), "fp8e4b15", "fp4e2m1"
//   (dot_scaled "e2m1"), "int1", "int8", "int16", "int32", "int64", "uint8", "uint16",
//   "uint32", "uint64".
// - Everything marked "best effort" is a static guess; an empty value means "unknown",
//   never "absent".

#include "kbaudit/python/facts.h"
#include "kbaudit/source/line_range.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::triton {

enum class Constexpr {
  No,      ///< the signature carries no constexpr annotation for this parameter
  Yes,     ///< annotated `tl.constexpr` / `constexpr` / "tl.constexpr", or used where Triton requires one
  Unknown, ///< the signature mentions constexpr but the parameter's own line cannot be told
};

struct Param {
  std::string name;  ///< as in the signature, without annotation ("BLOCK", "*args")
  Constexpr constexprState = Constexpr::No; ///< whether Triton treats it as a compile-time value
  /// Why constexprState is Yes: "annotation" (its signature line carries the annotation)
  /// or "shape-use" (passed to tl.arange / tl.zeros / tl.full / tl.static_range / a
  /// reshape, which only accept compile-time values). Empty otherwise.
  std::string constexprEvidence;
};

struct Autotune {
  LineRange lines;           ///< the @triton.autotune decorator
  std::string configsText;   ///< the `configs=` argument as written
  /// Number of triton.Config entries when `configs` is a list literal or a name bound to
  /// one; nullopt when it is built at runtime (a helper call, a comprehension).
  std::optional<unsigned> configCount;
  std::vector<std::string> keys; ///< the `key=` names when they fold to strings
};

/// Work a kernel does, from the library calls and loops inside it (and inside the
/// @triton.jit helpers it calls, transitively).
struct Work {
  bool matmul = false;    ///< tl.dot / tl.dot_scaled
  bool reduction = false; ///< tl.sum/max/min/reduce/argmax/argmin/xor_sum (call or tensor method)
  bool scan = false;      ///< tl.cumsum/cumprod/associative_scan
  bool sort = false;      ///< tl.sort/topk/histogram/gather/flip
  bool atomic = false;    ///< tl.atomic_*
  /// A loop (`range`/`tl.range`/`tl.static_range` call, or a `while`) followed by a tl.load
  /// and by an accumulator update: a variable assigned before the loop header and updated
  /// after it from its own value (`acc += ...`, `m = tl.maximum(m, ...)`), pointer
  /// advances excluded. Best effort: the front end gives no `for` body range, so "inside
  /// the loop" means "after the header line" for `for` loops (while loops use the body).
  bool loopReduction = false;
  bool loads = false;     ///< tl.load / block-pointer or descriptor loads
  bool stores = false;    ///< tl.store / descriptor stores
  /// Values are transformed: casts, math/elementwise library calls, or a store whose value
  /// is not a plain loaded value. False for a pure copy.
  bool compute = false;
  /// None of matmul/reduction/scan/sort/atomic/loopReduction: the kernel maps elements to
  /// elements (or copies). This is what "the kernel only does the epilogue" looks like.
  bool elementwiseOnly = false;
  /// elementwiseOnly and no compute: loads and stores only. A store converts to the
  /// destination's element type implicitly, so a "copy" may still change the dtype.
  bool copyOnly = false;

  friend bool operator==(const Work &, const Work &) = default;
};

/// One-word summary of Work, strongest first.
enum class WorkKind { Matmul, Reduction, LoopReduction, Scan, Sort, Atomic, Elementwise, Copy, Empty };

struct Kernel {
  std::string name;          ///< the def's name: "matmul_kernel"
  std::string qualname;      ///< as in the Python facts: "ModelNew.kernel", "build.kernel"
  std::vector<Param> params; ///< in signature order
  LineRange lines;           ///< the whole def, decorators included
  std::vector<py::Decorator> decorators; ///< outermost first, as the Python facts give them
  std::optional<Autotune> autotune; ///< set when under @triton.autotune
  bool heuristics = false;   ///< under @triton.heuristics
  /// Launched with `k[grid](...)` somewhere in this file. Unlaunched jit functions are
  /// device helpers (see calledBy) or are launched from another module.
  bool launched = false;
  std::vector<unsigned> calls;    ///< jit functions of this file this one calls (indices)
  std::vector<unsigned> calledBy; ///< jit functions of this file that call this one
  Work work;                 ///< including the work of the helpers it calls
  WorkKind kind = WorkKind::Empty; ///< the strongest flag of `work`
};

struct Launch {
  std::string kernelText;         ///< the subscripted callee as written: "_kernel", "self.kernel"
  /// Resolved to a kernel of this file: by name, nearest scope first, or through a local
  /// alias (`k = _fast_kernel; k[grid](...)`) that names exactly one kernel.
  std::optional<unsigned> kernel;
  /// Every kernel the launch may start: `kernel` alone, or all kernels an alias may be
  /// bound to (`k = _a if cond else _b`). Empty for kernels imported from elsewhere.
  std::vector<unsigned> candidates;
  std::string grid;               ///< the subscript as written: "(triton.cdiv(n, B),)", "grid"
  std::string function;           ///< launching Python function's qualname ("" at module level)
  std::vector<py::Argument> args; ///< the launch arguments, as the Python facts summarise them
  LineRange lines;                ///< the launch call
};

/// A dtype expression as written and as understood.
struct DtypeRef {
  std::string written;  ///< "tl.bfloat16", "torch.float16", ".half()", "c_ptr.dtype.element_ty"
  std::string dtype;    ///< canonical name, "" when not inferable
};

/// A cast inside a kernel: `x.to(tl.X)`, `x.to(dtype=...)`, `tl.cast(x, tl.X)`.
struct Cast {
  unsigned kernel = 0;  ///< the kernel the cast is in
  std::string source;   ///< the value being cast, as written
  DtypeRef target;      ///< the dtype argument
  bool bitcast = false; ///< `.to(..., bitcast=True)` / `tl.cast(..., bitcast=True)`
  LineRange lines;      ///< the cast call
};

/// A host-side cast that produced a tensor handed to a kernel (best effort): `x.half()`,
/// `x.to(torch.bfloat16)`, `x.type(torch.float16)`, or a factory with `dtype=`.
struct HostCast {
  unsigned launch = 0;  ///< index into TritonFacts::launches
  DtypeRef target;      ///< ".half()", "torch.bfloat16" (a `dtype=` or `.to` argument)
  std::string function; ///< where the cast (or factory call) is
  LineRange lines;      ///< the cast (or factory) call
};

/// Where a tl.dot operand's dtype comes from (best effort).
enum class DtypeSource {
  Unknown,     ///< not inferable from the facts
  KernelCast,  ///< produced by a cast inside the kernel (`.to(tl.bfloat16)`, `tl.cast`)
  Constructor, ///< tl.zeros / tl.full with a dtype
  DotResult,   ///< the result of another tl.dot: its out_dtype, fp32 when not given
  HostCast,    ///< a load of a pointer param whose launch argument was cast on the host
  Format,      ///< tl.dot_scaled's format argument ("e4m3", "bf16", ...)
};

struct DotOperand {
  std::string text;          ///< as written in the dot call
  /// The value after looking through names bound inside the kernel, tl.trans / .T /
  /// reshape / permute / `x[None, :]`, and casts (the outermost one is `cast`): the load,
  /// constructor, inner dot or other expression the walk stopped at.
  std::string origin;
  LineRange originLines;     ///< where `origin` is written
  std::optional<Cast> cast;  ///< the kernel cast that produced the operand, if any
  bool loaded = false;       ///< traced to a tl.load (or a descriptor / block-pointer load)
  /// Kernel param the loaded pointer is built from (best effort: the first param mentioned
  /// in the pointer expression, following pointer variables, preferring one whose launch
  /// argument has an inferable dtype). Empty when not traced to a load of a param.
  std::string pointerParam;
  std::vector<HostCast> hostCasts; ///< per launch where pointerParam's argument was cast
  DtypeSource source = DtypeSource::Unknown; ///< how `dtype` was inferred
  /// The operand's dtype from `source`: the kernel cast, the constructor dtype, the inner
  /// dot's out_dtype, the host cast when every launch with an inferable argument agrees,
  /// or the format.
  std::string dtype;
};

/// An argument of tl.dot as written and folded.
struct DotArg {
  bool present = false; ///< the argument is passed (by keyword or position)
  std::string text;    ///< as written
  /// Folded value: the string for a string ("ieee"), "True"/"False" for a bool, the
  /// canonical dtype for a dtype ("fp32"), the number as written for a number, the
  /// resolved name otherwise. Names bound to constants (module or kernel scope) are
  /// followed. Empty when the value is only known at run time (a constexpr param).
  std::string folded;
};

struct Dot {
  unsigned kernel = 0;            ///< the kernel the call is in
  bool scaled = false;            ///< tl.dot_scaled
  std::string resolved;           ///< "triton.language.dot" or "triton.language.dot_scaled"
  std::vector<DotOperand> operands; ///< the two matrix operands (lhs, rhs)
  /// Triton 3 signature: dot(input, other, acc, input_precision, allow_tf32,
  /// max_num_imprecise_acc, out_dtype); positional arguments are mapped by that order.
  DotArg acc;                ///< `acc` (the accumulator the product is added to)
  DotArg inputPrecision;     ///< `input_precision`: "tf32", "tf32x3", "ieee", "bf16x3", ...
  DotArg allowTf32;          ///< `allow_tf32` (deprecated spelling of the same choice)
  DotArg outDtype;           ///< `out_dtype` (the accumulator type; fp32 when absent)
  DotArg maxNumImpreciseAcc; ///< `max_num_imprecise_acc` (fp8 accumulation shortcut)
  /// dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc, fast_math, out_dtype).
  DotArg lhsFormat, rhsFormat, fastMath; ///< `lhs_format`, `rhs_format`, `fast_math`
  /// The precision this dot asks for: the folded input_precision; else "tf32"/"ieee" from
  /// a folded allow_tf32; "default" when neither is given (Triton then uses tf32 for fp32
  /// operands unless TRITON_F32_DEFAULT says otherwise); "" when given but not foldable;
  /// "scaled" for tl.dot_scaled, whose precision is its operand formats.
  std::string precision;
  LineRange lines;           ///< the dot call
};

/// Coarse class of a tl.* library operation.
enum class OpKind {
  Dot,         ///< dot, dot_scaled
  Reduction,   ///< sum, max, min, reduce, argmax, argmin, xor_sum
  Scan,        ///< cumsum, cumprod, associative_scan
  Sort,        ///< sort, topk, histogram, gather, flip
  Atomic,      ///< atomic_add, atomic_cas, ...
  Memory,      ///< load, store, make_block_ptr, advance, descriptor load/store
  Index,       ///< program_id, num_programs, arange, multiple_of, max_contiguous, cdiv, ...
  Creation,    ///< zeros, full, zeros_like, full_like
  Shape,       ///< reshape, trans, permute, view, broadcast_to, expand_dims, join, split, ...
  Cast,        ///< cast (tensor `.to` is a Cast fact, not an op)
  Loop,        ///< range, static_range
  Libdevice,   ///< triton.language.extra.* / libdevice.*
  Elementwise, ///< every other op (math, where, maximum, exp, sigmoid, fma, ...)
  Debug,       ///< static_print, device_print, static_assert, device_assert, debug_barrier
};

/// A triton.language operation called inside a kernel.
struct Op {
  unsigned kernel = 0;    ///< the kernel the call is in
  /// Resolved name: "triton.language.sort", "triton.language.extra.cuda.libdevice.tanh".
  /// Tensor methods are reported under the same name (`x.sum(0)` -> "triton.language.sum").
  std::string resolved;
  std::string name;       ///< last segment: "sort", "tanh"
  OpKind kind = OpKind::Elementwise; ///< see OpKind
  bool method = false;    ///< written as a tensor method (`x.sum(0)`)
  LineRange lines;        ///< the call
};

struct TritonFacts {
  std::vector<Kernel> kernels;  ///< @triton.jit functions, in source order
  std::vector<Launch> launches; ///< `k[grid](...)` calls, in source order
  std::vector<Dot> dots;        ///< tl.dot / tl.dot_scaled calls inside kernels
  std::vector<Cast> casts;      ///< casts inside kernels
  std::vector<Op> ops;          ///< triton.language calls inside kernels (dots and tl.cast included)

  const Kernel *findKernel(std::string_view qualname) const;
};

const char *workKindName(WorkKind k);
const char *opKindName(OpKind k);
const char *dtypeSourceName(DtypeSource s);

} // namespace kbaudit::triton
