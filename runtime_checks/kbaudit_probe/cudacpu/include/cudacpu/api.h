// The CUDA runtime API a torch extension's host code calls, on the CPU: device memory is host
// memory (cudaMalloc maps a buffer whose end touches a guard page, and tracks it so launches
// give kernels guarded copies), copies are memcpy, streams and events exist and are ordered
// (everything runs at the call), and the device is an H100 (sm_90, 132 SMs), as the probe's
// Python side reports (kbaudit_probe/cpu_mapping.py).
#pragma once

#include "cudacpu/runtime.h"

#include <chrono>
#include <cstddef>
#include <cstring>
#include <new>

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101,
  cudaErrorNotReady = 600,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};
typedef cudaError_t cudaError;
enum CUresult { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_SUPPORTED = 801 };

struct CUstream_st {
  int priority = 0;
};
typedef CUstream_st *cudaStream_t;
typedef CUstream_st *CUstream;
struct CUevent_st {
  double at = -1;
};
typedef CUevent_st *cudaEvent_t;
typedef CUevent_st *CUevent;

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 16,
};
enum cudaFuncCache { cudaFuncCachePreferNone, cudaFuncCachePreferShared, cudaFuncCachePreferL1, cudaFuncCachePreferEqual };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault, cudaSharedMemBankSizeFourByte, cudaSharedMemBankSizeEightByte };
#define cudaSharedmemCarveoutMaxShared 100
#define cudaSharedmemCarveoutMaxL1 0
#define cudaSharedmemCarveoutDefault -1

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
};

struct cudaDeviceProp {
  char name[256] = "NVIDIA H100 80GB HBM3 (kbaudit CPU mapping)";
  size_t totalGlobalMem = 80ull << 30;
  size_t sharedMemPerBlock = 49152;
  int regsPerBlock = 65536;
  int warpSize = 32;
  size_t memPitch = 2147483647;
  int maxThreadsPerBlock = 1024;
  int maxThreadsDim[3] = {1024, 1024, 64};
  int maxGridSize[3] = {2147483647, 65535, 65535};
  int clockRate = 1980000;
  size_t totalConstMem = 65536;
  int major = 9;
  int minor = 0;
  size_t textureAlignment = 512;
  int deviceOverlap = 1;
  int multiProcessorCount = 132;
  int kernelExecTimeoutEnabled = 0;
  int integrated = 0;
  int canMapHostMemory = 1;
  int computeMode = 0;
  int concurrentKernels = 1;
  int ECCEnabled = 1;
  int pciBusID = 0;
  int pciDeviceID = 0;
  int memoryClockRate = 2619000;
  int memoryBusWidth = 5120;
  int l2CacheSize = 50 << 20;
  int persistingL2CacheMaxSize = 0;
  int maxThreadsPerMultiProcessor = 2048;
  int streamPrioritiesSupported = 1;
  int globalL1CacheSupported = 1;
  int localL1CacheSupported = 1;
  size_t sharedMemPerMultiprocessor = 233472;
  int regsPerMultiprocessor = 65536;
  int managedMemory = 1;
  int isMultiGpuBoard = 0;
  int cooperativeLaunch = 1;
  size_t sharedMemPerBlockOptin = 232448;
  int maxBlocksPerMultiProcessor = 32;
  int unifiedAddressing = 1;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes = 0;
  size_t constSizeBytes = 0;
  size_t localSizeBytes = 0;
  int maxThreadsPerBlock = 1024;
  int numRegs = 32;
  int ptxVersion = 90;
  int binaryVersion = 90;
  int cacheModeCA = 0;
  int maxDynamicSharedSizeBytes = 49152;
  int preferredShmemCarveout = -1;
};

struct cudaPointerAttributes {
  int type = 2; // cudaMemoryTypeDevice
  int device = 0;
  void *devicePointer = nullptr;
  void *hostPointer = nullptr;
};

namespace cudacpu::detail {
inline cudaError_t &lastError() {
  static cudaError_t e = cudaSuccess;
  return e;
}
inline cudaError_t noteError(cudaError_t e) {
  if (e != cudaSuccess)
    lastError() = e;
  return e;
}
/// The error a refused launch left (runtime.h records it by name).
inline cudaError_t takeLaunchError() {
  if (!g_lastErrorName)
    return cudaSuccess;
  const std::string n = g_lastErrorName;
  g_lastErrorName = nullptr;
  if (n == "cudaErrorInvalidConfiguration")
    return cudaErrorInvalidConfiguration;
  if (n == "cudaErrorInvalidValue")
    return cudaErrorInvalidValue;
  return cudaErrorLaunchFailure;
}

/// Device memory: the end of each buffer touches a guard page, and the buffer is tracked so a
/// launch guards it like a tensor's storage.
struct DeviceBuffer {
  void *region;
  std::size_t mapped;
};
inline std::map<const void *, DeviceBuffer> &deviceBuffers() {
  static std::map<const void *, DeviceBuffer> m;
  return m;
}
inline void *deviceAlloc(std::size_t bytes) {
  const std::size_t page = StackPool::page();
  const std::size_t padded = (std::max<std::size_t>(bytes, 1) + 255) & ~std::size_t{255};
  const std::size_t pages = (padded + page - 1) / page * page;
  void *m = ::mmap(nullptr, pages + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return nullptr;
  char *r = static_cast<char *>(m);
  ::mprotect(r + pages, page, PROT_NONE);
  char *data = r + pages - padded;
  std::memset(r, 0xff, pages); // a GPU's fresh memory holds whatever was there
  deviceBuffers()[data] = DeviceBuffer{m, pages + page};
  track(data, std::max<std::size_t>(bytes, 1), nullptr, nullptr);
  return data;
}
inline bool deviceFree(void *p) {
  auto &buffers = deviceBuffers();
  const auto it = buffers.find(p);
  if (it == buffers.end())
    return false;
  untrack(p);
  ::munmap(it->second.region, it->second.mapped);
  buffers.erase(it);
  return true;
}
inline double now() { return monotonicNow(); }
} // namespace cudacpu::detail

inline cudaError_t cudaGetLastError() {
  cudaError_t launch = cudacpu::detail::takeLaunchError();
  cudaError_t e = launch != cudaSuccess ? launch : cudacpu::detail::lastError();
  cudacpu::detail::lastError() = cudaSuccess;
  return e;
}
inline cudaError_t cudaPeekAtLastError() {
  if (cudacpu::detail::g_lastErrorName)
    return cudacpu::detail::noteError(cudacpu::detail::takeLaunchError());
  return cudacpu::detail::lastError();
}
inline const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorLaunchFailure: return "unspecified launch failure";
  case cudaErrorNotSupported: return "operation not supported";
  default: return "unknown error";
  }
}
inline const char *cudaGetErrorName(cudaError_t e) {
  switch (e) {
  case cudaSuccess: return "cudaSuccess";
  case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
  case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
  default: return "cudaErrorUnknown";
  }
}
inline CUresult cuGetErrorString(CUresult, const char **s) { *s = "no error"; return CUDA_SUCCESS; }
inline CUresult cuGetErrorName(CUresult, const char **s) { *s = "CUDA_SUCCESS"; return CUDA_SUCCESS; }

inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaThreadSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
inline cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return cudaSuccess; }
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) { *p = cudaDeviceProp{}; return cudaSuccess; }
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int) {
  const cudaDeviceProp p{};
  switch (a) {
  case cudaDevAttrMaxThreadsPerBlock: *v = 1024; break;
  case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: *v = 1024; break;
  case cudaDevAttrMaxBlockDimZ: *v = 64; break;
  case cudaDevAttrMaxGridDimX: *v = 2147483647; break;
  case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: *v = 65535; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *v = 49152; break;
  case cudaDevAttrWarpSize: *v = 32; break;
  case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
  case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = static_cast<int>(p.sharedMemPerMultiprocessor); break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = static_cast<int>(p.sharedMemPerBlockOptin); break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *v = 2048; break;
  case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; break;
  case cudaDevAttrClockRate: *v = p.clockRate; break;
  case cudaDevAttrMemoryClockRate: *v = p.memoryClockRate; break;
  case cudaDevAttrGlobalMemoryBusWidth: *v = p.memoryBusWidth; break;
  case cudaDevAttrMaxRegistersPerBlock: case cudaDevAttrMaxRegistersPerMultiprocessor: *v = 65536; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *v = 32; break;
  default: *v = 0; break;
  }
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
inline cudaError_t cudaMemGetInfo(size_t *free, size_t *total) { *free = *total = 80ull << 30; return cudaSuccess; }
inline cudaError_t cudaDriverGetVersion(int *v) { *v = 12080; return cudaSuccess; }
inline cudaError_t cudaRuntimeGetVersion(int *v) { *v = 12080; return cudaSuccess; }

template <class T> cudaError_t cudaMalloc(T **p, size_t bytes) {
  void *m = cudacpu::detail::deviceAlloc(bytes);
  if (!m)
    return cudacpu::detail::noteError(cudaErrorMemoryAllocation);
  *p = static_cast<T *>(m);
  return cudaSuccess;
}
template <class T> cudaError_t cudaMallocAsync(T **p, size_t bytes, cudaStream_t = nullptr) { return cudaMalloc(p, bytes); }
template <class T> cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned = 1) { return cudaMalloc(p, bytes); }
template <class T> cudaError_t cudaMallocHost(T **p, size_t bytes, unsigned = 0) {
  *p = static_cast<T *>(std::malloc(bytes ? bytes : 1));
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
template <class T> cudaError_t cudaHostAlloc(T **p, size_t bytes, unsigned = 0) { return cudaMallocHost(p, bytes); }
template <class T> cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t width, size_t height) {
  *pitch = (width + 511) & ~size_t{511};
  return cudaMalloc(p, *pitch * height);
}
inline cudaError_t cudaFree(void *p) {
  if (p && !cudacpu::detail::deviceFree(p))
    return cudacpu::detail::noteError(cudaErrorInvalidValue);
  return cudaSuccess;
}
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t = nullptr) { return cudaFree(p); }
inline cudaError_t cudaFreeHost(void *p) { std::free(p); return cudaSuccess; }
inline cudaError_t cudaHostRegister(void *, size_t, unsigned) { return cudaSuccess; }
inline cudaError_t cudaHostUnregister(void *) { return cudaSuccess; }
template <class T> cudaError_t cudaHostGetDevicePointer(T **d, void *h, unsigned) { *d = static_cast<T *>(h); return cudaSuccess; }
inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p) {
  a->devicePointer = const_cast<void *>(p);
  a->hostPointer = const_cast<void *>(p);
  return cudaSuccess;
}

inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind = cudaMemcpyDefault) {
  if (n)
    std::memmove(dst, src, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k = cudaMemcpyDefault, cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, n, k);
}
inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                cudaMemcpyKind = cudaMemcpyDefault) {
  for (size_t r = 0; r < height; ++r)
    std::memmove(static_cast<char *>(dst) + r * dpitch, static_cast<const char *>(src) + r * spitch, width);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                     cudaMemcpyKind k = cudaMemcpyDefault, cudaStream_t = nullptr) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, k);
}
inline cudaError_t cudaMemcpyPeer(void *dst, int, const void *src, int, size_t n) { return cudaMemcpy(dst, src, n); }
inline cudaError_t cudaMemcpyPeerAsync(void *dst, int, const void *src, int, size_t n, cudaStream_t = nullptr) {
  return cudaMemcpy(dst, src, n);
}
inline cudaError_t cudaMemset(void *p, int v, size_t n) {
  if (n)
    std::memset(p, v, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t = nullptr) { return cudaMemset(p, v, n); }
inline cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t width, size_t height) {
  for (size_t r = 0; r < height; ++r)
    std::memset(static_cast<char *>(p) + r * pitch, v, width);
  return cudaSuccess;
}
inline cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t width, size_t height, cudaStream_t = nullptr) {
  return cudaMemset2D(p, pitch, v, width, height);
}
template <class T>
cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t n, size_t offset = 0, cudaMemcpyKind = cudaMemcpyHostToDevice) {
  std::memcpy(reinterpret_cast<char *>(&symbol) + offset, src, n);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(T &symbol, const void *src, size_t n, size_t offset = 0, cudaMemcpyKind k = cudaMemcpyHostToDevice,
                                    cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, src, n, offset, k);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t n, size_t offset = 0, cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  std::memcpy(dst, reinterpret_cast<const char *>(&symbol) + offset, n);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t n, size_t offset = 0, cudaMemcpyKind k = cudaMemcpyDeviceToHost,
                                      cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(dst, symbol, n, offset, k);
}
template <class T> cudaError_t cudaGetSymbolAddress(void **p, T &symbol) { *p = &symbol; return cudaSuccess; }
template <class T> cudaError_t cudaGetSymbolSize(size_t *n, T &) { *n = sizeof(T); return cudaSuccess; }
inline cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t = nullptr) { return cudaSuccess; }

// Streams and events: work runs when it is issued, so every stream is always idle.
inline cudaError_t cudaStreamCreate(cudaStream_t *s) { *s = new CUstream_st(); return cudaSuccess; }
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) { return cudaStreamCreate(s); }
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned, int p) {
  *s = new CUstream_st{p};
  return cudaSuccess;
}
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (s != cudaStreamLegacy && s != cudaStreamPerThread)
    delete s;
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned = 0) { return cudaSuccess; }
inline cudaError_t cudaStreamGetPriority(cudaStream_t s, int *p) { *p = s ? s->priority : 0; return cudaSuccess; }
inline cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new CUevent_st(); return cudaSuccess; }
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned) { return cudaEventCreate(e); }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = nullptr) { e->at = cudacpu::detail::now(); return cudaSuccess; }
inline cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s = nullptr, unsigned = 0) { return cudaEventRecord(e, s); }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = static_cast<float>((b->at - a->at) * 1e3);
  return cudaSuccess;
}

// Kernel attributes and occupancy: accepted; the answers are an H100's for a small kernel.
template <class F> cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) { return cudaSuccess; }
template <class F> cudaError_t cudaFuncSetCacheConfig(F, cudaFuncCache) { return cudaSuccess; }
template <class F> cudaError_t cudaFuncSetSharedMemConfig(F, cudaSharedMemConfig) { return cudaSuccess; }
template <class F> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F) { *a = cudaFuncAttributes{}; return cudaSuccess; }
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, F, int blockSize, size_t dynamicShared) {
  int byThreads = blockSize > 0 ? 2048 / blockSize : 0;
  int byShared = dynamicShared ? static_cast<int>(233472 / dynamicShared) : 32;
  *n = std::max(0, std::min({byThreads, byShared, 32}));
  return cudaSuccess;
}
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, F f, int blockSize, size_t dyn, unsigned) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, f, blockSize, dyn);
}
template <class F>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGrid, int *blockSize, F, size_t = 0, int limit = 0) {
  *blockSize = limit > 0 && limit < 1024 ? limit : 1024;
  *minGrid = 132 * (2048 / *blockSize);
  return cudaSuccess;
}

namespace cudacpu::detail {
template <class... P, std::size_t... I>
void launchFromArray(void (*kernel)(P...), dim3 grid, dim3 block, void **args, size_t shared, bool cooperative,
                     std::index_sequence<I...>) {
  cudacpu::LaunchConfig config(grid, block, shared);
  config.cooperative = cooperative;
  cudacpu::launch(cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel", config,
                  [kernel](auto... a) { kernel(a...); }, *static_cast<std::decay_t<P> *>(args[I])...);
}
} // namespace cudacpu::detail

/// cudaLaunchKernel(kernel, grid, block, args, shared, stream): args[i] points at argument i.
template <class... P>
cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void **args, size_t shared = 0, cudaStream_t = nullptr) {
  cudacpu::detail::launchFromArray(kernel, grid, block, args, shared, false, std::index_sequence_for<P...>{});
  return cudacpu::detail::takeLaunchError();
}

/// cudaLaunchCooperativeKernel: every block of the grid at once (so this_grid().sync() can meet).
template <class... P>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(P...), dim3 grid, dim3 block, void **args, size_t shared = 0,
                                        cudaStream_t = nullptr) {
  cudacpu::detail::launchFromArray(kernel, grid, block, args, shared, true, std::index_sequence_for<P...>{});
  return cudacpu::detail::takeLaunchError();
}
