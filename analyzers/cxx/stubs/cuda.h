// kbaudit stub: cuda.h — the driver API (module loading, cuLaunchKernel, tensor maps).
#pragma once
#include <cuda_runtime.h>
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_FOUND = 500 } CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUlinkState_st *CUlinkState;
typedef struct alignas(64) CUtensorMap_st { unsigned long long opaque[16]; } CUtensorMap;
typedef enum CUlimit_enum { CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_MALLOC_HEAP_SIZE = 2, CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 6 } CUlimit;
typedef enum CUfunction_attribute_enum { CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8 } CUfunction_attribute;
typedef enum CUtensorMapDataType_enum {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0, CU_TENSOR_MAP_DATA_TYPE_UINT16, CU_TENSOR_MAP_DATA_TYPE_UINT32,
  CU_TENSOR_MAP_DATA_TYPE_INT32, CU_TENSOR_MAP_DATA_TYPE_UINT64, CU_TENSOR_MAP_DATA_TYPE_INT64,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ
} CUtensorMapDataType;
typedef enum CUtensorMapInterleave_enum { CU_TENSOR_MAP_INTERLEAVE_NONE = 0 } CUtensorMapInterleave;
typedef enum CUtensorMapSwizzle_enum { CU_TENSOR_MAP_SWIZZLE_NONE = 0, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B } CUtensorMapSwizzle;
typedef enum CUtensorMapL2promotion_enum { CU_TENSOR_MAP_L2_PROMOTION_NONE = 0, CU_TENSOR_MAP_L2_PROMOTION_L2_64B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B } CUtensorMapL2promotion;
typedef enum CUtensorMapFloatOOBfill_enum { CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA } CUtensorMapFloatOOBfill;
#define KB_CU(name) template <class... A> CUresult name(A...) { return CUDA_SUCCESS; }
KB_CU(cuInit) KB_CU(cuDeviceGet) KB_CU(cuDeviceGetAttribute) KB_CU(cuCtxGetCurrent) KB_CU(cuCtxSetCurrent)
KB_CU(cuCtxCreate) KB_CU(cuCtxSynchronize) KB_CU(cuCtxSetLimit) KB_CU(cuCtxGetLimit) KB_CU(cuCtxResetPersistingL2Cache)
KB_CU(cuDevicePrimaryCtxRetain) KB_CU(cuModuleLoad) KB_CU(cuModuleLoadData) KB_CU(cuModuleLoadDataEx)
KB_CU(cuModuleGetFunction) KB_CU(cuModuleGetGlobal) KB_CU(cuModuleUnload) KB_CU(cuLibraryLoadData) KB_CU(cuLibraryGetKernel)
KB_CU(cuLaunchKernel) KB_CU(cuLaunchKernelEx) KB_CU(cuLaunchCooperativeKernel) KB_CU(cuFuncSetAttribute)
KB_CU(cuFuncGetAttribute) KB_CU(cuTensorMapEncodeTiled) KB_CU(cuTensorMapEncodeIm2col) KB_CU(cuGetErrorString)
KB_CU(cuGetErrorName) KB_CU(cuMemAlloc) KB_CU(cuMemFree) KB_CU(cuMemcpyHtoD) KB_CU(cuMemcpyDtoH) KB_CU(cuMemcpy)
KB_CU(cuMemsetD8) KB_CU(cuStreamCreate) KB_CU(cuStreamSynchronize) KB_CU(cuStreamSetAttribute) KB_CU(cuStreamGetAttribute)
KB_CU(cuStreamBeginCapture) KB_CU(cuStreamEndCapture) KB_CU(cuStreamWaitEvent) KB_CU(cuEventCreate) KB_CU(cuEventRecord)
KB_CU(cuGraphInstantiate) KB_CU(cuGraphLaunch) KB_CU(cuDriverGetVersion) KB_CU(cuGetProcAddress) KB_CU(cuLinkCreate)
KB_CU(cuLinkAddData) KB_CU(cuLinkComplete) KB_CU(cuPointerGetAttribute)
#undef KB_CU
// nvrtc (nvrtc.h maps here): runtime compilation of further CUDA source.
typedef struct _nvrtcProgram *nvrtcProgram;
typedef enum { NVRTC_SUCCESS = 0 } nvrtcResult;
#define KB_NVRTC(name) template <class... A> nvrtcResult name(A...) { return NVRTC_SUCCESS; }
KB_NVRTC(nvrtcCreateProgram) KB_NVRTC(nvrtcCompileProgram) KB_NVRTC(nvrtcGetPTX) KB_NVRTC(nvrtcGetPTXSize)
KB_NVRTC(nvrtcGetCUBIN) KB_NVRTC(nvrtcGetCUBINSize) KB_NVRTC(nvrtcGetProgramLog) KB_NVRTC(nvrtcGetProgramLogSize)
KB_NVRTC(nvrtcDestroyProgram) KB_NVRTC(nvrtcAddNameExpression) KB_NVRTC(nvrtcGetLoweredName)
#undef KB_NVRTC
const char *nvrtcGetErrorString(nvrtcResult);
