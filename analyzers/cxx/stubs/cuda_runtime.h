// kbaudit stub: the CUDA runtime API, vector types and device intrinsics (what
// cuda_runtime.h and the headers it pulls in declare), kept to the names solutions use.
#pragma once
#include <kbaudit/cuda_attrs.h>
#include <kbaudit/std.h>
#ifdef __CUDA__
#include "__clang_cuda_builtin_vars.h"
#endif

// ---- vector types ------------------------------------------------------------------
#define KB_VECTOR(T, N, A4)                                                               \
  struct N##1 { T x; };                                                                  \
  struct __attribute__((aligned(sizeof(T) * 2))) N##2 { T x, y; };                       \
  struct N##3 { T x, y, z; };                                                            \
  struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };                            \
  KB_HD inline N##1 make_##N##1(T x) { return N##1{x}; }                                 \
  KB_HD inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }                         \
  KB_HD inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }                 \
  KB_HD inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
KB_VECTOR(signed char, char, 4)
KB_VECTOR(unsigned char, uchar, 4)
KB_VECTOR(short, short, 8)
KB_VECTOR(unsigned short, ushort, 8)
KB_VECTOR(int, int, 16)
KB_VECTOR(unsigned int, uint, 16)
KB_VECTOR(long, long, 16)
KB_VECTOR(unsigned long, ulong, 16)
KB_VECTOR(long long, longlong, 16)
KB_VECTOR(unsigned long long, ulonglong, 16)
KB_VECTOR(float, float, 16)
KB_VECTOR(double, double, 16)
#undef KB_VECTOR
struct dim3 {
  unsigned int x, y, z;
  KB_HD constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  KB_HD constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  KB_HD constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ---- runtime types -----------------------------------------------------------------
enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101, cudaErrorInvalidResourceHandle = 400, cudaErrorNotReady = 600,
  cudaErrorLaunchFailure = 719, cudaErrorNotSupported = 801, cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef void (*cudaHostFn_t)(void *);
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
enum cudaLimit {
  cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
  cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10, cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12, cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14, cudaFuncAttributeClusterSchedulingPolicyPreference = 15
};
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1, cudaSharedMemBankSizeEightByte = 2 };
enum cudaSharedCarveout { cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100, cudaSharedmemCarveoutMaxL1 = 0 };
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrL2CacheSize = 38, cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxPersistingL2CacheSize = 108, cudaDevAttrMaxAccessPolicyWindowSize = 109,
  cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxGridDimX = 5, cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrConcurrentKernels = 31, cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83,
  cudaDevAttrCooperativeLaunch = 95, cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrClusterLaunch = 120
};
enum cudaAccessProperty { cudaAccessPropertyNormal = 0, cudaAccessPropertyStreaming = 1, cudaAccessPropertyPersisting = 2 };
struct cudaAccessPolicyWindow {
  void *base_ptr;
  size_t num_bytes;
  float hitRatio;
  enum cudaAccessProperty hitProp;
  enum cudaAccessProperty missProp;
};
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2, cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4, cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6, cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8, cudaLaunchAttributeMemSyncDomainMap = 9, cudaLaunchAttributeMemSyncDomain = 10
};
union cudaLaunchAttributeValue {
  char pad[64];
  struct cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  int syncPolicy;
  struct { unsigned int x, y, z; } clusterDim;
  int clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  int priority;
};
struct cudaLaunchAttribute {
  enum cudaLaunchAttributeID id;
  char pad[8 - sizeof(enum cudaLaunchAttributeID)];
  union cudaLaunchAttributeValue val;
};
typedef enum cudaLaunchAttributeID cudaStreamAttrID;
typedef enum cudaLaunchAttributeID cudaKernelNodeAttrID;
typedef union cudaLaunchAttributeValue cudaStreamAttrValue;
typedef union cudaLaunchAttributeValue cudaKernelNodeAttrValue;
constexpr cudaStreamAttrID cudaStreamAttributeAccessPolicyWindow = cudaLaunchAttributeAccessPolicyWindow;
constexpr cudaStreamAttrID cudaStreamAttributeSynchronizationPolicy = cudaLaunchAttributeSynchronizationPolicy;
constexpr cudaStreamAttrID cudaStreamAttributePriority = cudaLaunchAttributePriority;
constexpr cudaKernelNodeAttrID cudaKernelNodeAttributeAccessPolicyWindow = cudaLaunchAttributeAccessPolicyWindow;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1, cudaStreamCaptureModeRelaxed = 2 };
enum cudaStreamCaptureStatus { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1, cudaStreamCaptureStatusInvalidated = 2 };
enum cudaGraphInstantiateFlags { cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2, cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8 };
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerMultiprocessor, sharedMemPerBlockOptin;
  size_t totalConstMem, memPitch, textureAlignment;
  int regsPerBlock, regsPerMultiprocessor, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
  int clockRate, memoryClockRate, memoryBusWidth, multiProcessorCount, maxThreadsPerMultiProcessor;
  int major, minor, l2CacheSize, persistingL2CacheMaxSize, accessPolicyMaxWindowSize;
  int concurrentKernels, cooperativeLaunch, maxBlocksPerMultiProcessor, integrated, canMapHostMemory;
  int computeMode, asyncEngineCount, unifiedAddressing, managedMemory, pciBusID, pciDeviceID;
};
struct cudaFuncAttributes { size_t sharedSizeBytes, constSizeBytes, localSizeBytes; int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, maxDynamicSharedSizeBytes; };
struct cudaPointerAttributes { int type; int device; void *devicePointer; void *hostPointer; };
constexpr unsigned int cudaStreamDefault = 0;
constexpr unsigned int cudaStreamNonBlocking = 1;
constexpr unsigned int cudaEventDefault = 0;
constexpr unsigned int cudaEventBlockingSync = 1;
constexpr unsigned int cudaEventDisableTiming = 2;
constexpr unsigned int cudaEventInterprocess = 4;
constexpr unsigned int cudaHostAllocDefault = 0;
constexpr unsigned int cudaHostAllocPortable = 1;
constexpr unsigned int cudaHostAllocMapped = 2;
constexpr unsigned int cudaHostRegisterDefault = 0;
constexpr unsigned int cudaMemAttachGlobal = 1;
constexpr int cudaCpuDeviceId = -1;
extern cudaStream_t const cudaStreamLegacy;
extern cudaStream_t const cudaStreamPerThread;

// ---- runtime API ---------------------------------------------------------------------
// Permissive: every call type-checks whatever the argument types (pointer casts, enums,
// templates of kernels), which is all a static audit needs.
// Parameters by value, as the real API's are: a constexpr local passed from a lambda
// without captures must not be odr-used.
#define KB_CUDART(name) template <class... A> KB_HD cudaError_t name(A...) { return cudaSuccess; }
KB_CUDART(cudaMalloc) KB_CUDART(cudaMallocAsync) KB_CUDART(cudaMallocManaged) KB_CUDART(cudaMallocHost)
KB_CUDART(cudaMallocPitch) KB_CUDART(cudaMallocFromPoolAsync) KB_CUDART(cudaHostAlloc) KB_CUDART(cudaFree)
KB_CUDART(cudaFreeAsync) KB_CUDART(cudaFreeHost) KB_CUDART(cudaHostRegister) KB_CUDART(cudaHostUnregister)
KB_CUDART(cudaHostGetDevicePointer) KB_CUDART(cudaMemcpy) KB_CUDART(cudaMemcpyAsync) KB_CUDART(cudaMemcpy2D)
KB_CUDART(cudaMemcpy2DAsync) KB_CUDART(cudaMemcpyPeer) KB_CUDART(cudaMemcpyPeerAsync) KB_CUDART(cudaMemset)
KB_CUDART(cudaMemsetAsync) KB_CUDART(cudaMemset2D) KB_CUDART(cudaMemset2DAsync) KB_CUDART(cudaMemcpyToSymbol)
KB_CUDART(cudaMemcpyToSymbolAsync) KB_CUDART(cudaMemcpyFromSymbol) KB_CUDART(cudaMemcpyFromSymbolAsync)
KB_CUDART(cudaGetSymbolAddress) KB_CUDART(cudaGetSymbolSize) KB_CUDART(cudaMemPrefetchAsync) KB_CUDART(cudaMemAdvise)
KB_CUDART(cudaMemGetInfo) KB_CUDART(cudaMemPoolCreate) KB_CUDART(cudaMemPoolSetAttribute) KB_CUDART(cudaDeviceGetDefaultMemPool)
KB_CUDART(cudaPointerGetAttributes) KB_CUDART(cudaDeviceSynchronize) KB_CUDART(cudaDeviceReset) KB_CUDART(cudaThreadSynchronize)
KB_CUDART(cudaGetDevice) KB_CUDART(cudaSetDevice) KB_CUDART(cudaGetDeviceCount) KB_CUDART(cudaGetDeviceProperties)
KB_CUDART(cudaDeviceGetAttribute) KB_CUDART(cudaDeviceSetLimit) KB_CUDART(cudaDeviceGetLimit) KB_CUDART(cudaDeviceSetCacheConfig)
KB_CUDART(cudaDeviceSetSharedMemConfig) KB_CUDART(cudaCtxResetPersistingL2Cache) KB_CUDART(cudaDeviceGetStreamPriorityRange)
KB_CUDART(cudaDeviceCanAccessPeer) KB_CUDART(cudaDeviceEnablePeerAccess) KB_CUDART(cudaDriverGetVersion) KB_CUDART(cudaRuntimeGetVersion)
KB_CUDART(cudaFuncSetAttribute) KB_CUDART(cudaFuncGetAttributes) KB_CUDART(cudaFuncSetCacheConfig) KB_CUDART(cudaFuncSetSharedMemConfig)
KB_CUDART(cudaOccupancyMaxActiveBlocksPerMultiprocessor) KB_CUDART(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)
KB_CUDART(cudaOccupancyMaxPotentialBlockSize) KB_CUDART(cudaOccupancyAvailableDynamicSMemPerBlock) KB_CUDART(cudaOccupancyMaxActiveClusters)
KB_CUDART(cudaLaunchKernel) KB_CUDART(cudaLaunchCooperativeKernel) KB_CUDART(cudaLaunchCooperativeKernelMultiDevice)
KB_CUDART(cudaLaunchKernelEx) KB_CUDART(cudaLaunchKernelExC) KB_CUDART(cudaLaunchHostFunc)
KB_CUDART(cudaStreamCreate) KB_CUDART(cudaStreamCreateWithFlags) KB_CUDART(cudaStreamCreateWithPriority) KB_CUDART(cudaStreamDestroy)
KB_CUDART(cudaStreamSynchronize) KB_CUDART(cudaStreamQuery) KB_CUDART(cudaStreamWaitEvent) KB_CUDART(cudaStreamSetAttribute)
KB_CUDART(cudaStreamGetAttribute) KB_CUDART(cudaStreamGetPriority) KB_CUDART(cudaStreamGetFlags) KB_CUDART(cudaStreamAddCallback)
KB_CUDART(cudaStreamBeginCapture) KB_CUDART(cudaStreamEndCapture) KB_CUDART(cudaStreamIsCapturing) KB_CUDART(cudaStreamGetCaptureInfo)
KB_CUDART(cudaStreamAttachMemAsync) KB_CUDART(cudaThreadExchangeStreamCaptureMode)
KB_CUDART(cudaEventCreate) KB_CUDART(cudaEventCreateWithFlags) KB_CUDART(cudaEventRecord) KB_CUDART(cudaEventRecordWithFlags)
KB_CUDART(cudaEventSynchronize) KB_CUDART(cudaEventElapsedTime) KB_CUDART(cudaEventDestroy) KB_CUDART(cudaEventQuery)
KB_CUDART(cudaGraphCreate) KB_CUDART(cudaGraphInstantiate) KB_CUDART(cudaGraphInstantiateWithFlags) KB_CUDART(cudaGraphLaunch)
KB_CUDART(cudaGraphUpload) KB_CUDART(cudaGraphExecDestroy) KB_CUDART(cudaGraphDestroy) KB_CUDART(cudaGraphExecUpdate)
KB_CUDART(cudaGraphAddKernelNode) KB_CUDART(cudaGraphAddMemcpyNode) KB_CUDART(cudaGraphKernelNodeSetAttribute)
KB_CUDART(cudaGraphKernelNodeSetParams) KB_CUDART(cudaGraphExecKernelNodeSetParams) KB_CUDART(cudaGraphGetNodes)
KB_CUDART(cudaIpcGetMemHandle) KB_CUDART(cudaIpcOpenMemHandle) KB_CUDART(cudaProfilerStart) KB_CUDART(cudaProfilerStop)
KB_CUDART(cudaGetFuncBySymbol) KB_CUDART(cudaGetDriverEntryPoint) KB_CUDART(cudaSetDeviceFlags) KB_CUDART(cudaChooseDevice)
#undef KB_CUDART
KB_HD cudaError_t cudaGetLastError();
KB_HD cudaError_t cudaPeekAtLastError();
KB_HD const char *cudaGetErrorString(cudaError_t);
KB_HD const char *cudaGetErrorName(cudaError_t);
#ifdef __CUDA__
// Clang lowers `k<<<g, b, s, st>>>(...)` to a call of one of these.
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
extern "C" cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
#endif

// ---- device intrinsics ---------------------------------------------------------------
KB_D void __syncthreads();
KB_D int __syncthreads_count(int);
KB_D int __syncthreads_and(int);
KB_D int __syncthreads_or(int);
KB_D void __syncwarp(unsigned = 0xffffffffu);
KB_D void __threadfence();
KB_D void __threadfence_block();
KB_D void __threadfence_system();
KB_D void __trap();
KB_D void __brkpt();
KB_D void __nanosleep(unsigned);
KB_D long long clock64();
KB_D unsigned long long __globaltimer();
KB_D unsigned __activemask();
KB_D unsigned __ballot_sync(unsigned, int);
KB_D int __any_sync(unsigned, int);
KB_D int __all_sync(unsigned, int);
template <class T> KB_D unsigned __match_any_sync(unsigned, T);
template <class T> KB_D T __shfl_sync(unsigned, T, int, int = 32);
template <class T> KB_D T __shfl_up_sync(unsigned, T, unsigned, int = 32);
template <class T> KB_D T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <class T> KB_D T __shfl_xor_sync(unsigned, T, int, int = 32);
template <class T> KB_D T __reduce_add_sync(unsigned, T);
template <class T> KB_D T __reduce_max_sync(unsigned, T);
template <class T> KB_D T __reduce_min_sync(unsigned, T);
template <class T> KB_D T __ldg(const T *);
template <class T> KB_D T __ldcg(const T *);
template <class T> KB_D T __ldca(const T *);
template <class T> KB_D T __ldcs(const T *);
template <class T> KB_D T __ldlu(const T *);
template <class T> KB_D T __ldcv(const T *);
template <class T> KB_D void __stcg(T *, T);
template <class T> KB_D void __stcs(T *, T);
template <class T> KB_D void __stwb(T *, T);
template <class T> KB_D void __stwt(T *, T);
#define KB_ATOMIC(name) template <class T, class... U> KB_D T name(T *, U...);
KB_ATOMIC(atomicAdd) KB_ATOMIC(atomicSub) KB_ATOMIC(atomicExch) KB_ATOMIC(atomicMin) KB_ATOMIC(atomicMax)
KB_ATOMIC(atomicInc) KB_ATOMIC(atomicDec) KB_ATOMIC(atomicCAS) KB_ATOMIC(atomicAnd) KB_ATOMIC(atomicOr)
KB_ATOMIC(atomicXor) KB_ATOMIC(atomicAdd_block) KB_ATOMIC(atomicAdd_system) KB_ATOMIC(atomicMax_block)
KB_ATOMIC(atomicCAS_block) KB_ATOMIC(atomicExch_block)
#undef KB_ATOMIC
KB_D int __popc(unsigned);
KB_D int __popcll(unsigned long long);
KB_D int __clz(int);
KB_D int __clzll(long long);
KB_D int __ffs(int);
KB_D int __ffsll(long long);
KB_D unsigned __brev(unsigned);
KB_D unsigned __byte_perm(unsigned, unsigned, unsigned);
KB_D unsigned __funnelshift_l(unsigned, unsigned, unsigned);
KB_D unsigned __funnelshift_r(unsigned, unsigned, unsigned);
KB_D int __mul24(int, int);
KB_D unsigned __umul24(unsigned, unsigned);
KB_D int __mulhi(int, int);
KB_D unsigned __umulhi(unsigned, unsigned);
KB_D unsigned long long __umul64hi(unsigned long long, unsigned long long);
KB_D unsigned __sad(int, int, unsigned);
KB_D unsigned __vabsdiffu4(unsigned, unsigned);
KB_D int __dp4a(int, int, int);
KB_D unsigned __dp4a(unsigned, unsigned, unsigned);
KB_D float __fdividef(float, float);
KB_D float __expf(float);
KB_D float __exp10f(float);
KB_D float __logf(float);
KB_D float __log2f(float);
KB_D float __log10f(float);
KB_D float __powf(float, float);
KB_D float __sinf(float);
KB_D float __cosf(float);
KB_D float __tanf(float);
KB_D float __tanhf(float);
KB_D float tanhf_approx(float);
KB_D int __dp2a_lo(int, int, int);
KB_D int __dp2a_hi(int, int, int);
KB_D unsigned __dp2a_lo(unsigned, unsigned, unsigned);
KB_D unsigned __dp2a_hi(unsigned, unsigned, unsigned);
KB_D unsigned __vadd2(unsigned, unsigned);
KB_D unsigned __vsub2(unsigned, unsigned);
KB_D unsigned __vmaxu2(unsigned, unsigned);
KB_D unsigned __vcmpgtu4(unsigned, unsigned);
KB_D unsigned __reduce_or_sync(unsigned, unsigned);
KB_D void __sincosf(float, float *, float *);
KB_D float __saturatef(float);
KB_D float __fsqrt_rn(float);
KB_D float __frsqrt_rn(float);
KB_D float __frcp_rn(float);
KB_D float __fmaf_rn(float, float, float);
KB_D float __fmaf_rz(float, float, float);
KB_D float __fmaf_ieee_rn(float, float, float);
KB_D float __fmul_rn(float, float);
KB_D float __fmul_rz(float, float);
KB_D float __fadd_rn(float, float);
KB_D float __fadd_rz(float, float);
KB_D float __fsub_rn(float, float);
KB_D float __fdiv_rn(float, float);
KB_D double __dadd_rn(double, double);
KB_D double __dmul_rn(double, double);
KB_D double __fma_rn(double, double, double);
KB_D float __int_as_float(int);
KB_D int __float_as_int(float);
KB_D float __uint_as_float(unsigned);
KB_D unsigned __float_as_uint(float);
KB_D long long __double_as_longlong(double);
KB_D double __longlong_as_double(long long);
KB_D int __float2int_rn(float);
KB_D int __float2int_rz(float);
KB_D int __float2int_rd(float);
KB_D int __float2int_ru(float);
KB_D unsigned __float2uint_rn(float);
KB_D unsigned __float2uint_rz(float);
KB_D long long __float2ll_rn(float);
KB_D float __int2float_rn(int);
KB_D float __uint2float_rn(unsigned);
KB_D float __ll2float_rn(long long);
KB_D float __double2float_rn(double);
KB_D float __double2float_rz(double);
KB_D int __double2int_rn(double);
KB_D double __hiloint2double(int, int);
KB_D int __double2hiint(double);
KB_D int __double2loint(double);
KB_D size_t __cvta_generic_to_shared(const void *);
KB_D size_t __cvta_generic_to_global(const void *);
KB_D void *__cvta_shared_to_generic(size_t);
KB_D unsigned __isShared(const void *);
KB_D unsigned __isGlobal(const void *);
KB_D float exp10f(float);
KB_D float rcbrtf(float);
KB_D float sinpif(float);
KB_D float cospif(float);
KB_D void sincospif(float, float *, float *);
KB_D float fdividef(float, float);
KB_D float saturate(float);
KB_D float normf(int, const float *);
KB_D float rnormf(int, const float *);
KB_D int __vimax_s32_relu(int, int);
template <class A, class B> KB_HD constexpr auto min(A a, B b) -> decltype(a < b ? a : b) { return a < b ? a : b; }
template <class A, class B> KB_HD constexpr auto max(A a, B b) -> decltype(a < b ? a : b) { return a < b ? b : a; }
KB_D unsigned int __nvvm_get_smem_pointer(void *);
KB_D int __prof_trigger(int);
