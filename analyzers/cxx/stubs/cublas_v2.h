// kbaudit stub: cublas_v2.h and library_types.h (cudaDataType, compute types, math modes).
#pragma once
#include <cuda_runtime.h>
typedef enum cudaDataType_t {
  CUDA_R_16F = 2, CUDA_C_16F = 6, CUDA_R_16BF = 14, CUDA_C_16BF = 15, CUDA_R_32F = 0, CUDA_C_32F = 4,
  CUDA_R_64F = 1, CUDA_C_64F = 5, CUDA_R_4I = 16, CUDA_R_4U = 18, CUDA_R_8I = 3, CUDA_C_8I = 7,
  CUDA_R_8U = 8, CUDA_R_16I = 20, CUDA_R_32I = 10, CUDA_R_32U = 12, CUDA_R_64I = 24,
  CUDA_R_8F_E4M3 = 28, CUDA_R_8F_E5M2 = 29, CUDA_R_4F_E2M1 = 33
} cudaDataType;
typedef enum libraryPropertyType_t { MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL } libraryPropertyType;
typedef struct cublasContext *cublasHandle_t;
typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1, CUBLAS_STATUS_ALLOC_FAILED = 3, CUBLAS_STATUS_INVALID_VALUE = 7, CUBLAS_STATUS_EXECUTION_FAILED = 13, CUBLAS_STATUS_NOT_SUPPORTED = 15 } cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1 } cublasFillMode_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum {
  CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3, CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;
typedef enum {
  CUBLAS_COMPUTE_16F = 64, CUBLAS_COMPUTE_16F_PEDANTIC = 65, CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69, CUBLAS_COMPUTE_32F_FAST_16F = 74, CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77, CUBLAS_COMPUTE_64F = 70, CUBLAS_COMPUTE_64F_PEDANTIC = 71,
  CUBLAS_COMPUTE_32I = 72, CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;
typedef enum {
  CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_ALGO0 = 0, CUBLAS_GEMM_ALGO1 = 1,
  CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99, CUBLAS_GEMM_ALGO0_TENSOR_OP = 100
} cublasGemmAlgo_t;
#define KB_CUBLAS(name) template <class... A> cublasStatus_t name(A...) { return CUBLAS_STATUS_SUCCESS; }
KB_CUBLAS(cublasCreate) KB_CUBLAS(cublasCreate_v2) KB_CUBLAS(cublasDestroy) KB_CUBLAS(cublasDestroy_v2)
KB_CUBLAS(cublasSetStream) KB_CUBLAS(cublasSetStream_v2) KB_CUBLAS(cublasGetStream) KB_CUBLAS(cublasSetMathMode)
KB_CUBLAS(cublasGetMathMode) KB_CUBLAS(cublasSetPointerMode) KB_CUBLAS(cublasSetWorkspace) KB_CUBLAS(cublasGetVersion)
KB_CUBLAS(cublasSgemm) KB_CUBLAS(cublasSgemm_v2) KB_CUBLAS(cublasDgemm) KB_CUBLAS(cublasHgemm) KB_CUBLAS(cublasCgemm)
KB_CUBLAS(cublasGemmEx) KB_CUBLAS(cublasSgemmEx) KB_CUBLAS(cublasGemmBatchedEx) KB_CUBLAS(cublasGemmStridedBatchedEx)
KB_CUBLAS(cublasSgemmStridedBatched) KB_CUBLAS(cublasHgemmStridedBatched) KB_CUBLAS(cublasDgemmStridedBatched)
KB_CUBLAS(cublasSgemmBatched) KB_CUBLAS(cublasHgemmBatched) KB_CUBLAS(cublasSgemv) KB_CUBLAS(cublasDgemv)
KB_CUBLAS(cublasSaxpy) KB_CUBLAS(cublasSdot) KB_CUBLAS(cublasSscal) KB_CUBLAS(cublasSnrm2) KB_CUBLAS(cublasSasum)
KB_CUBLAS(cublasIsamax) KB_CUBLAS(cublasScopy) KB_CUBLAS(cublasSger) KB_CUBLAS(cublasSsyrk) KB_CUBLAS(cublasStrsm)
KB_CUBLAS(cublasSgeam) KB_CUBLAS(cublasSdgmm) KB_CUBLAS(cublasSgetrfBatched)
#undef KB_CUBLAS
const char *cublasGetStatusString(cublasStatus_t);
const char *cublasGetStatusName(cublasStatus_t);
