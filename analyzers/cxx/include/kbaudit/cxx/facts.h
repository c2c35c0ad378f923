#pragma once

// The C++/CUDA facts: what the Clang front end extracts from the embedded sources.
// Plain structs, no Clang types. Every fact carries `source` (index into
// EmbedFacts::sources, i.e. into the vector handed to analyzeSources) and `lines`, already
// mapped to solution.py (or to the sidecar named by EmbeddedSource::file); a range whose
// embedded lines have no known origin is {0, 0}.
//
// Naming: `function` fields hold the qualified name of the enclosing C++ function
// ("launch_gemm", "ns::Runner::run"), "" at namespace scope. Lambdas are functions of
// their own, named "<enclosing>::lambda#N" (N counts lambdas of that function, from 1).
// Qualified names are as Clang prints them after resolution: `torch::mm` resolves to
// "at::mm", `x.matmul(y)` on a tensor to "at::Tensor::matmul"; the `spelled` fields keep
// what the source wrote.

#include "kbaudit/source/line_range.h"

#include <string>
#include <vector>

namespace kbaudit::cxx {

// ---------------------------------------------------------------------------------------
// Functions and kernels

enum class FunctionKind {
  Host,       ///< no CUDA attribute (or __host__ only)
  Device,     ///< __device__
  Global,     ///< __global__: a kernel
  HostDevice, ///< __host__ __device__
};

/// What a device function's own body does (callees are not folded in: the kernel
/// inventory walks the call graph). Filled for __global__, __device__ and __host__ __device__
/// definitions; `analyzed` stays false for host functions and declarations.
struct DeviceWork {
  bool analyzed = false;
  /// The body holds a parse error (a recovery expression, an invalid declaration, or an
  /// error line inside it): the summary may miss work.
  bool bodyErrors = false;
  /// Inside a for/while/do loop, a value variable (not an integer or pointer: indices and
  /// strides do not count) declared outside that loop is updated from itself
  /// (`acc += x[i]`, `s = s + v`, `m = fmaxf(m, v)`, `sdata[tid] += sdata[tid + s]`); an
  /// element indexed by the loop's own induction variable (`out[i] += b[i]` in a
  /// grid-stride loop) is element-wise work, not an accumulation.
  bool loopAccumulate = false;
  /// Such an update adds a product of two memory reads at different indices
  /// (`acc += A[row * K + k] * B[k * N + col]`, `acc = fmaf(As[ty][k], Bs[k][tx], acc)`,
  /// reads through locals initialised from them): a hand-written GEMM/convolution loop.
  /// A product at the same index (`s += x[i] * x[i]`, `d += a[i] * b[i]`) is a reduction.
  bool loopProduct = false;
  bool atomics = false;      ///< atomicAdd/atomicMax/atomicCAS/... (also atomic_ref fetch_*)
  bool barrier = false;      ///< __syncthreads*, __syncwarp, cooperative-groups sync
  bool shuffle = false;      ///< __shfl_*_sync, __reduce_*_sync, cooperative-groups shfl/reduce
  bool sharedMemory = false; ///< declares a __shared__ variable (static or extern)
  /// Computes on values: arithmetic or comparisons on floating-point / vector / class /
  /// dependent types, or a math intrinsic returning one (`expf`, `__hmul`, `fmaxf`).
  /// Integer index arithmetic and plain loads/stores do not count.
  bool compute = false;
};

struct CxxFunction {
  std::string name;          ///< unqualified ("gemm_kernel")
  std::string qualifiedName; ///< "ns::gemm_kernel"; call-graph node name
  FunctionKind kind = FunctionKind::Host;
  bool definition = false;   ///< has a body here (declarations are kept for cross-source links)
  bool templated = false;    ///< a function template (`template<int BM> __global__ ...`)
  std::string templateParams;///< "int BM, typename T" as written, "" when not a template
  bool externC = false;      ///< extern "C" (cupy RawKernel / cuModuleGetFunction lookups)
  bool lambda = false;       ///< a lambda body (its own call-graph node)
  std::vector<std::string> parameterTypes; ///< as written ("const half *", "torch::Tensor")
  int source = -1;
  LineRange lines;           ///< the whole declaration or definition
  /// The same lines in the embedded source's own text (EmbeddedSource::text), which a source
  /// built on one Python line (escaped newlines, pieces) spreads over many.
  LineRange sourceLines;
  DeviceWork work;           ///< device definitions only: what the body itself does

  bool isKernel() const { return kind == FunctionKind::Global; }
  bool onDevice() const { return kind != FunctionKind::Host; }
};

enum class LaunchApi {
  TripleChevron,           ///< kernel<<<grid, block, smem, stream>>>(...)
  CudaLaunchKernel,        ///< cudaLaunchKernel((void*)kernel, ...)
  CudaLaunchCooperative,   ///< cudaLaunchCooperativeKernel(...)
  CudaLaunchKernelEx,      ///< cudaLaunchKernelEx(&config, kernel, ...)
  CuLaunchKernel,          ///< driver API cuLaunchKernel(CUfunction, ...): kernel unknown
};

/// Which stream a launch (or stream-taking call) goes to; side streams escape the
/// harness's timing and synchronisation.
enum class StreamKind {
  Default,  ///< no stream argument, 0, nullptr, cudaStreamLegacy
  Current,  ///< the stream torch is using (at::cuda::getCurrentCUDAStream(), directly or
            ///< through a local initialised from it)
  PerThread,///< cudaStreamPerThread
  Other,    ///< anything else: a created stream, a pool stream, a parameter
};

struct KernelLaunch {
  std::string kernel;     ///< qualified kernel name, "" when not known (cuLaunchKernel)
  std::string spelled;    ///< callee as written ("gemm_kernel<128, 64>")
  LaunchApi api = LaunchApi::TripleChevron;
  std::string grid;       ///< launch configuration as written, "" when defaulted
  std::string block;
  std::string sharedMem;
  std::string stream;
  StreamKind streamKind = StreamKind::Default;
  std::string function;   ///< enclosing function (the launcher)
  /// The kernel is a __global__ function declared in the parsed sources. False when no
  /// declaration was parsed (it lives in a missing header; a cuLaunchKernel handle). A
  /// launch whose statement did not parse is recovered from the tokens either way.
  bool resolved = true;
  int source = -1;
  LineRange lines;
  /// Byte offset in its unit: the order of launches and calls that share a solution.py line
  /// (a unit written as one escaped string literal maps every line to one).
  unsigned offset = 0;
};

// ---------------------------------------------------------------------------------------
// Exports and the kernel work summary

enum class ExportVia {
  Pybind,         ///< PYBIND11_MODULE: m.def("name", &fn)
  TorchLibraryDef,///< TORCH_LIBRARY: m.def("name(Tensor a) -> Tensor", &fn) or m.def(name, fn)
  TorchLibraryImpl,///< TORCH_LIBRARY(_IMPL): m.impl("name", &fn)
  FunctionsList,  ///< load_inline(functions=[...]): torch generates the binding
};

/// A function Python can call, with what it does transitively through host helpers
/// (lambdas it defines, AT_DISPATCH bodies, functions in other sources of the same module).
struct ExportedFunction {
  std::string name;      ///< the Python-visible name ("forward")
  std::string target;    ///< call-graph node it binds ("forward_cuda"; "PYBIND11_MODULE::lambda#1")
  ExportVia via = ExportVia::Pybind;
  int source = -1;       ///< where the binding is (for FunctionsList: where the target is defined)
  LineRange lines;
  /// The target's definition was found in one of the module's sources.
  bool defined = false;
  /// Kernels launched transitively (distinct qualified names; "" stands for an unknown
  /// cuLaunchKernel target), with the launches as indices into CxxFacts::launches.
  std::vector<std::string> kernels;
  std::vector<int> launches;
  /// Library work reached transitively: indices into CxxFacts::calls whose category is a
  /// library doing compute (Aten, Cublas, CublasLt, Cudnn, Cutlass, Cute, Cub).
  std::vector<int> libraryCalls;
  /// Every call reached (any category), as indices into CxxFacts::calls.
  std::vector<int> calls;
  /// Call-graph nodes reached from `target` (target included).
  std::vector<std::string> reached;
  /// Functions reached that are called but defined in no parsed source and not a known
  /// API: work may hide there (a missing header, a separately compiled object).
  std::vector<std::string> undefinedCallees;

  bool launchesKernel() const { return !launches.empty(); }
  bool callsLibrary() const { return !libraryCalls.empty(); }
};

// ---------------------------------------------------------------------------------------
// Calls

enum class CallCategory {
  Aten,       ///< torch/ATen compute ops: at::matmul, torch::mm, x.matmul(y), at::conv2d, x.to(kHalf)
  AtenMeta,   ///< tensor metadata, allocation, views: empty, size, data_ptr, contiguous, view
  Dispatch,   ///< AT_DISPATCH_* (the callee names the macro; its types are in the name)
  Cublas,     ///< cublas*, excluding cublasLt
  CublasLt,   ///< cublasLt*
  Cudnn,      ///< cudnn*
  Cutlass,    ///< running a CUTLASS device-level operator: gemm_op(args), gemm.run(), initialize
  Cute,       ///< CuTe algorithms (cute::gemm, cute::copy, axpby); layout algebra is not recorded
  Cub,        ///< device-wide CUB / Thrust algorithms (cub::DeviceRadixSort::SortPairs, thrust::sort)
  Wmma,       ///< nvcuda::wmma::* (load/mma/store_matrix_sync)
  Stream,     ///< stream creation, priority, guards, at::cuda::getStreamFromPool, ...
  Event,      ///< cudaEvent*
  Graph,      ///< cudaGraph*, cudaStreamBeginCapture/EndCapture, at::cuda::CUDAGraph
  L2,         ///< persisting-L2 control: cudaStreamSetAttribute(accessPolicyWindow),
              ///< cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize), cudaCtxResetPersistingL2Cache
  Memory,     ///< cudaMalloc*, cudaMemcpy*, cudaMemset*, cudaFree*
  Sync,       ///< cudaDeviceSynchronize, cudaStreamSynchronize, torch::cuda::synchronize
  Thread,     ///< std::thread / std::jthread construction, std::async
  Launch,     ///< launch APIs (also in CxxFacts::launches)
  Runtime,    ///< other CUDA runtime / driver API (cudaGetLastError, cudaFuncSetAttribute, ...)
  Unresolved, ///< a callee whose declaration was not found (parse error recovery)
};

struct CxxCall {
  std::string callee;   ///< qualified, resolved ("at::matmul", "at::Tensor::matmul", "std::thread")
  std::string spelled;  ///< as written ("torch::mm", "a.matmul", "std::thread")
  CallCategory category = CallCategory::Runtime;
  std::string function; ///< enclosing function
  bool inDevice = false;///< inside a __global__/__device__ function (or a lambda in one)
  bool member = false;  ///< a method call on an object (`x.matmul(y)`)
  bool construction = false; ///< an object construction (`std::thread t(fn)`)
  /// Arguments as written (each clipped to 160 bytes), so rules can read enum arguments
  /// (`CUBLAS_COMPUTE_32F_FAST_TF32`, `cudaLimitPersistingL2CacheSize`) and stream arguments.
  std::vector<std::string> arguments;
  /// False when the call was recovered from a parse error or lexically (the callee's
  /// declaration is missing); `callee` is then the name as written.
  bool resolved = true;
  /// Inside an arm of an `if` whose test reads a mutable static (`if (!g_exec) { ... }`): a
  /// first-call arm, so the call does not run on every call.
  bool underStateTest = false;
  int source = -1;
  LineRange lines;
  unsigned offset = 0; ///< byte offset in its unit (see KernelLaunch::offset)
};

/// An edge of the call graph (also lambdas defined in a function, and kernels launched).
struct CallEdge {
  std::string caller;
  std::string callee;
  int source = -1;
  LineRange lines;
};

/// A reference to an API constant or field that configures behaviour without being a call
/// (`attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting`,
/// `cudaStreamNonBlocking`, `prop.persistingL2CacheMaxSize`), or a CUTLASS/CuTe class
/// template a declaration instantiates (`using Gemm = cutlass::gemm::device::GemmUniversal<...>`,
/// category Cutlass/Cute).
struct ApiReference {
  std::string name;     ///< qualified ("cudaAccessPropertyPersisting", "cudaAccessPolicyWindow::hitProp")
  CallCategory category = CallCategory::Runtime;
  std::string function;
  int source = -1;
  LineRange lines;
};

// ---------------------------------------------------------------------------------------
// Numeric types

enum class NumericType {
  Half,     ///< __half, half, c10::Half, cutlass::half_t, at::kHalf, CUDA_R_16F
  Half2,    ///< __half2
  BFloat16, ///< __nv_bfloat16, c10::BFloat16, cutlass::bfloat16_t, at::kBFloat16, CUDA_R_16BF
  BFloat162,///< __nv_bfloat162
  Fp8E4M3,  ///< __nv_fp8_e4m3 (and x2/x4), c10::Float8_e4m3fn, cutlass::float_e4m3_t
  Fp8E5M2,  ///< __nv_fp8_e5m2 (and x2/x4), c10::Float8_e5m2, cutlass::float_e5m2_t
  Fp8,      ///< fp8 storage / interpretation-parameterised (__nv_fp8_storage_t)
  Fp6,      ///< __nv_fp6_*
  Fp4,      ///< __nv_fp4_* (e2m1)
  Tf32,     ///< wmma::precision::tf32, cutlass::tfloat32_t, __float_to_tf32, *_FAST_TF32
  Int8,     ///< int8 paths named by library constants (CUDA_R_8I, CUBLAS_COMPUTE_32I, at::kChar);
            ///< int8_t variables are not recorded (too common to mean int8 compute)
  Int4,     ///< wmma::experimental::precision::s4/u4, cutlass::int4b_t
};

enum class NumericUseKind {
  Declaration,   ///< a variable, parameter, field or return type (pointers/arrays included)
  TypeAlias,     ///< `using T = __half;`, `typedef __nv_bfloat16 bf16;`
  Cast,          ///< a cast to (or, Widening, from) the type; also `__nv_fp8_e4m3 q(x)` constructions
  Conversion,    ///< a conversion intrinsic (__float2half_rn, __float2bfloat16, __nv_cvt_float_to_fp8)
  Arithmetic,    ///< an intrinsic computing in the type (__hmul, __hfma2, __hadd)
  TemplateArgument, ///< x.data_ptr<at::Half>(), wmma::fragment<matrix_a, 16, 16, 16, half, row_major>
  Precision,     ///< a wmma precision tag used as fragment element type (wmma::precision::tf32)
  LibraryConstant, ///< at::kHalf, torch::kBFloat16, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_TF32
};

/// Whether a use converts to the type from a wider one (fp32 -> fp16 is Narrowing) or back.
enum class ConversionDirection { None, Narrowing, Widening };

struct NumericUse {
  NumericType type = NumericType::Half;
  NumericUseKind kind = NumericUseKind::Declaration;
  std::string spelling;  ///< the type or function as resolved ("__half", "__float2half_rn",
                         ///< "nvcuda::wmma::precision::tf32", "CUBLAS_COMPUTE_32F_FAST_TF32")
  ConversionDirection direction = ConversionDirection::None;
  std::string function;
  bool inDevice = false;
  int source = -1;
  LineRange lines;
};

// ---------------------------------------------------------------------------------------
// Inline PTX

/// One instruction of an `asm` statement. The asm string is the one Clang sees after
/// preprocessing and literal concatenation, so instructions built from macros are included.
struct PtxInstruction {
  std::string text;     ///< opcode with all modifiers: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  std::string opcode;   ///< first component: "mma", "wgmma", "cvt", "ldmatrix", "cp"
  std::vector<std::string> modifiers; ///< the dot components after the opcode, in order, without dots
  /// The modifiers that are PTX types, in order (f32, f16, bf16, tf32, e4m3, s8, b16, ...):
  /// for mma that is D, A, B, C; for cvt destination then source.
  std::vector<std::string> types;
  std::string operands; ///< as written, whitespace collapsed, no ';' ("{%0,%1}, [%2]")
  std::string guard;    ///< predicate guard ("@p", "@!p"), "" when none
  int statement = -1;   ///< which asm statement (numbered across all CxxFacts::ptx from 0); groups instructions
  bool isVolatile = false;
  std::string function;
  bool inDevice = false;
  int source = -1;
  LineRange lines;      ///< the asm statement
};

// ---------------------------------------------------------------------------------------
// Mutable state in host code

enum class StaticStorage {
  Global,      ///< a non-const variable at namespace scope
  StaticLocal, ///< `static` inside a function
  StaticMember,///< a static data member
  Device,      ///< a __device__ / __managed__ global (device memory that survives calls)
};

/// Mutable state that outlives a call: candidates for caching outputs across calls.
struct MutableStatic {
  std::string name;       ///< qualified
  std::string type;       ///< as Clang prints it ("std::unordered_map<void *, at::Tensor>")
  StaticStorage storage = StaticStorage::Global;
  std::string function;   ///< for StaticLocal: the function holding it
  bool threadLocal = false;
  bool pointer = false;   ///< a raw pointer (or array of pointers)
  bool container = false; ///< a std map/set/vector/array/list/deque/pair/tuple/optional
  bool holdsTensor = false; ///< the type mentions at::Tensor
  /// The source writes it after initialisation (assignment, ++, a mutating member call,
  /// operator[] on a container).
  bool written = false;
  /// Its key (what it is indexed, looked up, compared or assigned with) reads `data_ptr()`,
  /// directly or through a local initialised from it: a cache keyed by tensor addresses.
  bool keyedByDataPtr = false;
  /// Its key reads tensor shapes (`sizes()`, `size(i)`, `numel()`).
  bool keyedByShape = false;
  int source = -1;
  LineRange lines;        ///< the declaration
};

// ---------------------------------------------------------------------------------------
// Includes and the parse report

enum class IncludeResolution {
  Stub,    ///< one of kbaudit's bundled stub headers
  Builtin, ///< Clang's own resource headers (stddef.h, __clang_cuda_builtin_vars.h, ...)
  Real,    ///< a header from an include directory the caller supplied
  Missing, ///< not known: mapped to an empty file so parsing continues
};

struct Include {
  std::string spelled;  ///< "cutlass/gemm/device/gemm.h"
  bool angled = false;
  IncludeResolution resolution = IncludeResolution::Missing;
  int source = -1;
  LineRange lines;
};

/// A parse error (warnings are only counted).
struct ParseDiagnostic {
  std::string message;
  int source = -1;
  unsigned embeddedLine = 0;///< 1-indexed line in the source text (0: not in the source)
  LineRange lines;
};

/// One Clang run. Sources of the same load_inline module and kind (the strings of a
/// cuda_sources list) are joined into one translation unit, as torch does.
struct ParseReport {
  std::vector<int> sources; ///< indices of the sources joined into this unit
  bool cuda = true;         ///< parsed as CUDA (else as C++)
  bool parsed = false;      ///< Clang ran to the end (false: driver failure or crash)
  bool crashed = false;     ///< Clang crashed; facts from this unit are missing
  bool tooLarge = false;    ///< not parsed: larger than FrontendOptions::maxUnitBytes
  std::size_t limitBytes = 0; ///< the limit a tooLarge unit was over (readers need not know the options)
  /// Variant parses that read code this unit's preprocessor branches hid from the first parse
  /// (nvcc's view without __clang__, __CUDA_ARCH__ toggled).
  unsigned branchVariants = 0;
  std::size_t bytes = 0;    ///< size of the unit's text
  unsigned errors = 0;
  unsigned warnings = 0;
  /// Clang stopped at a fatal error (a precompiled prelude it could not read, ...): what
  /// follows in the unit was not parsed at all.
  bool fatal = false;
  /// Clang's resource headers (stddef.h, the CUDA builtins) were not found where kbaudit looked:
  /// every `size_t` was an unknown type, so the unit was not read as written.
  bool resourcesMissing = false;
  /// The first errors (up to 8), mapped to solution.py lines.
  std::vector<ParseDiagnostic> firstErrors;
  /// How much survived: top-level declarations in the unit, and how many of them Clang
  /// marked invalid; function definitions and those whose body holds an error.
  unsigned declarations = 0;
  unsigned invalidDeclarations = 0;
  unsigned functionDefinitions = 0;
  unsigned functionsWithErrors = 0;
  /// Facts recovered lexically because the AST lost them (unresolved kernel launches and
  /// library calls in statements that did not parse).
  unsigned lexicallyRecovered = 0;
  /// Function template instantiations not made: the same template with the same type
  /// arguments (values aside) was instantiated already, and resolves every call alike.
  unsigned repeatedInstantiations = 0;
  double milliseconds = 0;

  bool clean() const { return parsed && errors == 0; }
};

struct CxxFacts {
  std::vector<CxxFunction> functions;
  std::vector<KernelLaunch> launches;
  std::vector<ExportedFunction> exports;
  std::vector<CxxCall> calls;
  std::vector<CallEdge> callGraph;
  std::vector<ApiReference> references;
  std::vector<NumericUse> numericTypes;
  std::vector<PtxInstruction> ptx;
  std::vector<MutableStatic> statics;
  std::vector<Include> includes;
  std::vector<ParseReport> parses;
};

const char *functionKindName(FunctionKind k);
const char *launchApiName(LaunchApi a);
const char *streamKindName(StreamKind s);
const char *exportViaName(ExportVia v);
const char *callCategoryName(CallCategory c);
const char *numericTypeName(NumericType t);
const char *numericUseKindName(NumericUseKind k);
const char *staticStorageName(StaticStorage s);
const char *includeResolutionName(IncludeResolution r);

/// Aten, Cublas, CublasLt, Cudnn, Cutlass, Cute, Cub: a library doing the compute.
bool isLibraryCompute(CallCategory c);

} // namespace kbaudit::cxx
