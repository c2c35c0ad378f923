// kbaudit stub: CUTLASS — numeric types, layouts, arch tags and the device-level GEMM
// operators (2.x Gemm/GemmUniversal, 3.x CollectiveBuilder + GemmUniversalAdapter).
#pragma once
#include <cuda_fp8.h>
#include <kbaudit/any_arg.h>
#define CUTLASS_HOST_DEVICE KB_HD inline
#define CUTLASS_DEVICE KB_D inline
#define CUTLASS_HOST inline
#define CUTLASS_PRAGMA_UNROLL _Pragma("unroll")
#define CUTLASS_PRAGMA_NO_UNROLL _Pragma("unroll 1")
#define CUTLASS_CHECK(status) ::cutlass::kb_check(status)
#define CUTLASS_ARCH_MMA_SM90_SUPPORTED 1
#define CUTLASS_ARCH_MMA_SM80_SUPPORTED 1
#define CUTLASS_ARCH_MMA_SM90A_SUPPORTED 1
#define CUTLASS_ARCH_MMA_SM100_SUPPORTED 1
#define CUTLASS_ARCH_MMA_SM100A_SUPPORTED 1
#define CUTLASS_ARCH_MMA_SM120_SUPPORTED 1
#define CUTLASS_ARCH_MMA_SM120A_SUPPORTED 1
#define CUTE_HOST_DEVICE KB_HD inline
#define CUTE_DEVICE KB_D inline
#define CUTE_HOST inline
#define CUTE_UNROLL _Pragma("unroll")
namespace cutlass {
enum class Status { kSuccess, kErrorMisalignedOperand, kErrorInvalidDataType, kErrorInvalidLayout, kErrorInvalidProblem, kErrorNotSupported, kErrorWorkspaceNull, kErrorInternal, kErrorArchMismatch, kErrorInsufficientDriver, kErrorMemoryAllocation, kInvalid };
inline const char *cutlassGetStatusString(Status) { return ""; }
template <class S> void kb_check(S) {}
enum class FloatRoundStyle { round_indeterminate, round_toward_zero, round_to_nearest, round_to_nearest_satfinite, round_toward_infinity, round_toward_neg_infinity, round_half_ulp_truncate, round_half_ulp_trunc_dntz };
enum class ComplexTransform { kNone, kConjugate };
#define KB_CUTLASS_NUMBER(N)                                                                 \
  struct N {                                                                                 \
    unsigned short storage;                                                                  \
    N() = default;                                                                           \
    template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>> KB_HD explicit N(T); \
    KB_HD explicit N(const __half &);                                                        \
    KB_HD explicit N(const __nv_bfloat16 &);                                                 \
    KB_HD operator float() const;                                                            \
    KB_HD static N bitcast(unsigned short);                                                  \
  };
KB_CUTLASS_NUMBER(half_t)
KB_CUTLASS_NUMBER(bfloat16_t)
KB_CUTLASS_NUMBER(tfloat32_t)
KB_CUTLASS_NUMBER(float_e4m3_t)
KB_CUTLASS_NUMBER(float_e5m2_t)
KB_CUTLASS_NUMBER(float_e2m1_t)
KB_CUTLASS_NUMBER(float_e2m3_t)
KB_CUTLASS_NUMBER(float_e3m2_t)
KB_CUTLASS_NUMBER(float_ue8m0_t)
KB_CUTLASS_NUMBER(int4b_t)
KB_CUTLASS_NUMBER(uint4b_t)
#undef KB_CUTLASS_NUMBER
template <class T> struct sizeof_bits { static constexpr int value = sizeof(T) * 8; };
template <class T = void> struct plus { template <class U> KB_HD U operator()(U a, U b) const { return a + b; } };
template <class T = void> struct multiplies { template <class U> KB_HD U operator()(U a, U b) const { return a * b; } };
template <class T = void> struct minus { template <class U> KB_HD U operator()(U a, U b) const { return a - b; } };
template <class T = void> struct divides { template <class U> KB_HD U operator()(U a, U b) const { return a / b; } };
template <class T = void> struct maximum { template <class U> KB_HD U operator()(U a, U b) const { return a < b ? b : a; } };
template <class T = void> struct minimum { template <class U> KB_HD U operator()(U a, U b) const { return a < b ? a : b; } };
template <class T = void> struct multiply_add {};
template <class T = void> struct epilogue_identity {};
template <> struct sizeof_bits<int4b_t> { static constexpr int value = 4; };
template <> struct sizeof_bits<uint4b_t> { static constexpr int value = 4; };
template <class T, int N, bool R = true> struct Array {
  T storage[N];
  KB_HD T &operator[](int i) { return storage[i]; }
  KB_HD const T &operator[](int i) const { return storage[i]; }
  KB_HD T *data() { return storage; }
  KB_HD static constexpr int size() { return N; }
  KB_HD void clear();
  KB_HD void fill(T);
};
template <class T, int N, int A = sizeof(T) * N> struct AlignedArray : Array<T, N> {};
template <class T, class S, FloatRoundStyle R = FloatRoundStyle::round_to_nearest> struct NumericConverter {
  KB_HD T operator()(const S &) const;
  KB_HD static T convert(const S &);
};
template <class T, class S, int N, FloatRoundStyle R = FloatRoundStyle::round_to_nearest> struct NumericArrayConverter {
  KB_HD Array<T, N> operator()(const Array<S, N> &) const;
  KB_HD static Array<T, N> convert(const Array<S, N> &);
};
template <class T> struct KernelHardwareInfo {
  int device_id = 0;
  int sm_count = 0;
  static int query_device_multiprocessor_count(int = 0);
};
struct KernelHardwareInfoBase {
  int device_id = 0;
  int sm_count = 0;
  static int query_device_multiprocessor_count(int = 0);
};
namespace layout {
struct RowMajor { KB_HD RowMajor(long long = 0); KB_HD static RowMajor packed(KB_ANY, KB_ANY); KB_HD long long stride(int = 0) const; };
struct ColumnMajor { KB_HD ColumnMajor(long long = 0); KB_HD static ColumnMajor packed(KB_ANY, KB_ANY); KB_HD long long stride(int = 0) const; };
struct TensorNHWC { KB_HD static TensorNHWC packed(KB_ANY); };
struct TensorNCHW {};
template <class L> struct LayoutTranspose { using type = L; };
} // namespace layout
namespace arch {
struct OpClassSimt {};
struct OpClassTensorOp {};
struct OpClassWmmaTensorOp {};
struct OpClassBlockScaledTensorOp {};
struct Sm50 {}; struct Sm60 {}; struct Sm61 {}; struct Sm70 {}; struct Sm75 {}; struct Sm80 {}; struct Sm86 {};
struct Sm89 {}; struct Sm90 {}; struct Sm100 {}; struct Sm120 {};
struct OpMultiplyAdd {};
struct OpMultiplyAddSaturate {};
struct OpMultiplyAddFastF16 {};
struct OpMultiplyAddFastBF16 {};
struct OpMultiplyAddFastF32 {};
struct OpMultiplyAddMixedInputUpcast {};
struct OpMultiplyAddComplex {};
} // namespace arch
struct MatrixCoord { KB_HD MatrixCoord(int = 0, int = 0); KB_HD int row() const; KB_HD int column() const; };
namespace gemm {
template <int M = 1, int N = 1, int K = 1> struct GemmShape {
  static constexpr int kM = M, kN = N, kK = K, kMN = M * N, kMNK = M * N * K, kCount = M * N * K;
};
struct GemmCoord {
  KB_HD GemmCoord();
  KB_HD GemmCoord(int, int, int);
  KB_HD int m() const; KB_HD int n() const; KB_HD int k() const;
  KB_HD int &m(); KB_HD int &n(); KB_HD int &k();
};
using BatchedGemmCoord = GemmCoord;
enum class GemmUniversalMode { kGemm, kGemmSplitKParallel, kBatched, kArray, kGrouped, kInvalid };
namespace threadblock {
template <int N = 1> struct GemmIdentityThreadblockSwizzle {};
struct GemmSplitKIdentityThreadblockSwizzle {};
struct GemmBatchedIdentityThreadblockSwizzle {};
template <int N = 1> struct GemmHorizontalThreadblockSwizzle {};
} // namespace threadblock
// Device-level operators: what host code constructs, configures and runs.
#define KB_CUTLASS_OPERATOR_BODY                                                             \
public:                                                                                      \
  struct Arguments {                                                                         \
    Arguments(KB_ANY16);                                                                     \
  };                                                                                         \
  struct Params {};                                                                          \
  using ElementA = float; using ElementB = float; using ElementC = float; using ElementD = float; \
  using ElementAccumulator = float; using LayoutA = layout::RowMajor; using LayoutB = layout::ColumnMajor; \
  using LayoutC = layout::RowMajor; using StrideA = long long; using StrideB = long long;   \
  using StrideC = long long; using StrideD = long long;                                      \
  static Status can_implement(const Arguments &);                                            \
  static size_t get_workspace_size(const Arguments &);                                       \
  Status initialize(const Arguments &, void * = nullptr, cudaStream_t = nullptr, void * = nullptr); \
  Status update(const Arguments &, void * = nullptr);                                        \
  Status run(cudaStream_t = nullptr, void * = nullptr, bool = false);                        \
  Status operator()(cudaStream_t = nullptr, void * = nullptr);                               \
  Status operator()(const Arguments &, void * = nullptr, cudaStream_t = nullptr, void * = nullptr);
namespace device {
template <class EA, class LA, class EB, class LB, class EC, class LC, class EAcc = EC,
          class OpClass = arch::OpClassSimt, class Arch = arch::Sm70, class TB = GemmShape<128, 128, 8>,
          class W = GemmShape<32, 64, 8>, class I = GemmShape<1, 1, 1>, class Epi = void, class Sw = void,
          int Stages = 2, int AlA = 1, int AlB = 1, bool SplitK = false, class Op = arch::OpMultiplyAdd,
          bool GA = false, bool GB = false, bool SD = false, class P = void>
class Gemm {
  KB_CUTLASS_OPERATOR_BODY
  using EpilogueOutputOp = Epi;
};
template <class EA, class LA, class EB, class LB, class EC, class LC, class EAcc = EC,
          class OpClass = arch::OpClassSimt, class Arch = arch::Sm70, class TB = GemmShape<128, 128, 8>,
          class W = GemmShape<32, 64, 8>, class I = GemmShape<1, 1, 1>, class Epi = void, class Sw = void,
          int Stages = 2, int AlA = 1, int AlB = 1, class Op = arch::OpMultiplyAdd,
          ComplexTransform TA = ComplexTransform::kNone, ComplexTransform TB_ = ComplexTransform::kNone,
          bool GA = false, bool GB = false, bool SD = false, class P = void>
class GemmUniversal {
  KB_CUTLASS_OPERATOR_BODY
  using EpilogueOutputOp = Epi;
};
template <class EA, class LA, class EB, class LB, class EC, class LC, class EAcc = EC,
          class OpClass = arch::OpClassSimt, class Arch = arch::Sm70, class TB = GemmShape<128, 128, 8>,
          class W = GemmShape<32, 64, 8>, class I = GemmShape<1, 1, 1>, class Epi = void, class Sw = void,
          int Stages = 2, int AlA = 1, int AlB = 1, class Op = arch::OpMultiplyAdd>
class GemmBatched {
  KB_CUTLASS_OPERATOR_BODY
  using EpilogueOutputOp = Epi;
};
template <class EA, class LA, class EB, class LB, class EC, class LC, class EAcc = EC,
          class OpClass = arch::OpClassSimt, class Arch = arch::Sm70, class TB = GemmShape<128, 128, 8>,
          class W = GemmShape<32, 64, 8>, class I = GemmShape<1, 1, 1>, class Epi = void, class Sw = void,
          int Stages = 2, int AlA = 1, int AlB = 1, class Op = arch::OpMultiplyAdd>
class GemmSplitKParallel {
  KB_CUTLASS_OPERATOR_BODY
  using EpilogueOutputOp = Epi;
};
template <class Kernel> class GemmUniversalAdapter {
  KB_CUTLASS_OPERATOR_BODY
  using GemmKernel = Kernel;
};
} // namespace device
namespace kernel {
template <class ProblemShape, class Mainloop, class Epilogue, class Tile = void, class Enable = void>
class GemmUniversal {
public:
  struct Arguments { Arguments(KB_ANY16); };
  using CollectiveMainloop = Mainloop;
  using CollectiveEpilogue = Epilogue;
  using StrideA = long long; using StrideB = long long; using StrideC = long long; using StrideD = long long;
};
} // namespace kernel
namespace collective {
struct StageCountAuto {};
template <int N> struct StageCount {};
template <int Bytes> struct StageCountAutoCarveout {};
struct KernelScheduleAuto {};
template <class Arch, class OpClass, class EA, class LA, int AlA, class EB, class LB, int AlB,
          class EAcc, class TileShape, class ClusterShape, class Stages, class Schedule, class Enable = void>
struct CollectiveBuilder {
  struct CollectiveOp { struct SharedStorage { char data[1]; }; };
};
} // namespace collective
struct KernelTmaWarpSpecialized {};
struct KernelTmaWarpSpecialized1SmSm100 {};
struct KernelTmaWarpSpecialized2SmSm100 {};
struct KernelScheduleSm90 {};
struct KernelCpAsyncWarpSpecialized {};
struct KernelTmaWarpSpecializedPingpong {};
struct KernelTmaWarpSpecializedCooperative {};
struct KernelTmaWarpSpecializedFP8FastAccum {};
struct KernelTmaWarpSpecializedPingpongFP8FastAccum {};
struct KernelTmaWarpSpecializedCooperativeFP8FastAccum {};
struct PersistentScheduler {};
struct StreamKScheduler {};
} // namespace gemm
namespace epilogue {
namespace thread {
struct ScaleType { enum Kind { Default, NoBetaScaling, OnlyAlphaScaling, PerChannelScaling, OnlyAlphaPerChannelScaling, Nothing }; };
#define KB_CUTLASS_EPILOGUE(NAME)                                                            \
  template <class EO, int N, class EAcc = EO, class EC = EAcc,                               \
            ScaleType::Kind S = ScaleType::Default, FloatRoundStyle R = FloatRoundStyle::round_to_nearest, \
            class ES = EO>                                                                   \
  class NAME {                                                                               \
  public:                                                                                    \
    using ElementOutput = EO;                                                                \
    using ElementAccumulator = EAcc;                                                         \
    using ElementCompute = EC;                                                               \
    struct Params { Params(KB_ANY16); };                                                   \
  };
KB_CUTLASS_EPILOGUE(LinearCombination)
KB_CUTLASS_EPILOGUE(LinearCombinationRelu)
KB_CUTLASS_EPILOGUE(LinearCombinationClamp)
KB_CUTLASS_EPILOGUE(LinearCombinationGELU)
KB_CUTLASS_EPILOGUE(LinearCombinationSilu)
#undef KB_CUTLASS_EPILOGUE
} // namespace thread
namespace collective {
struct EpilogueTileAuto {};
struct EpilogueScheduleAuto {};
template <class Arch, class OpClass, class TileShape, class ClusterShape, class EpiTile, class EAcc,
          class ECompute, class EC, class LC, int AlC, class ED, class LD, int AlD, class Schedule,
          class Fusion = void, class Enable = void>
struct CollectiveBuilder {
  struct CollectiveOp { struct SharedStorage { char data[1]; }; };
};
} // namespace collective
namespace fusion {
// Epilogue visitor trees: nodes are only named, never instantiated, by host code.
template <class... T> struct LinearCombination {};
template <class... T> struct LinCombPerRowBias {};
template <class... T> struct LinCombEltAct {};
template <class... T> struct ScaledLinCombPerRowBiasEltAct {};
template <class... T> struct Sm90EVT {};
template <class... T> struct Sm90TreeVisitor {};
template <template <class> class Fn, class EO, class EC = EO,
          FloatRoundStyle R = FloatRoundStyle::round_to_nearest, class Enable = void>
struct Sm90Compute {};
template <int Stages, class Tile, class E, class EC = E, class Stride = void, int Align = 1, bool Null = true>
struct Sm90RowBroadcast {};
template <int Stages, class Tile, class E, class EC = E, class Stride = void, int Align = 1, bool Null = true>
struct Sm90ColBroadcast {};
template <class... T> struct Sm90ScalarBroadcast {};
template <class... T> struct Sm90SrcFetch {};
struct Sm90AccFetch {};
template <class... T> struct Sm90AuxStore {};
template <class... T> struct Sm90AuxLoad {};
} // namespace fusion
struct TmaWarpSpecialized {};
struct TmaWarpSpecialized1Sm {};
struct TmaWarpSpecialized2Sm {};
struct TmaWarpSpecializedCooperative {};
struct NoSmemWarpSpecialized {};
} // namespace epilogue
template <class... A> KB_HD auto make_cute_packed_stride(A &&...) { return 0LL; }
} // namespace cutlass
#undef KB_CUTLASS_OPERATOR_BODY
#include <kbaudit/cute.h>
