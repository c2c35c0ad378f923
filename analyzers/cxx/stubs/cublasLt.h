// kbaudit stub: cublasLt.h.
#pragma once
#include <cublas_v2.h>
typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct cublasLtMatmulDescOpaque_t *cublasLtMatmulDesc_t;
typedef struct cublasLtMatrixLayoutOpaque_t *cublasLtMatrixLayout_t;
typedef struct cublasLtMatmulPreferenceOpaque_t *cublasLtMatmulPreference_t;
typedef struct cublasLtMatrixTransformDescOpaque_t *cublasLtMatrixTransformDesc_t;
typedef struct { unsigned long long data[8]; } cublasLtMatmulAlgo_t;
typedef struct {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
} cublasLtMatmulHeuristicResult_t;
typedef enum {
  CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0, CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1, CUBLASLT_MATMUL_DESC_POINTER_MODE = 2,
  CUBLASLT_MATMUL_DESC_TRANSA = 3, CUBLASLT_MATMUL_DESC_TRANSB = 4, CUBLASLT_MATMUL_DESC_TRANSC = 5,
  CUBLASLT_MATMUL_DESC_FILL_MODE = 6, CUBLASLT_MATMUL_DESC_EPILOGUE = 7, CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
  CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE = 10, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 11,
  CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 12, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER = 17,
  CUBLASLT_MATMUL_DESC_B_SCALE_POINTER = 18, CUBLASLT_MATMUL_DESC_C_SCALE_POINTER = 19,
  CUBLASLT_MATMUL_DESC_D_SCALE_POINTER = 20, CUBLASLT_MATMUL_DESC_AMAX_D_POINTER = 21,
  CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26, CUBLASLT_MATMUL_DESC_FAST_ACCUM = 25,
  CUBLASLT_MATMUL_DESC_A_SCALE_MODE = 31, CUBLASLT_MATMUL_DESC_B_SCALE_MODE = 32
} cublasLtMatmulDescAttributes_t;
typedef enum {
  CUBLASLT_MATRIX_LAYOUT_TYPE = 0, CUBLASLT_MATRIX_LAYOUT_ORDER = 1, CUBLASLT_MATRIX_LAYOUT_ROWS = 2,
  CUBLASLT_MATRIX_LAYOUT_COLS = 3, CUBLASLT_MATRIX_LAYOUT_LD = 4, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6
} cublasLtMatrixLayoutAttribute_t;
typedef enum { CUBLASLT_ORDER_COL = 0, CUBLASLT_ORDER_ROW = 1, CUBLASLT_ORDER_COL32 = 2 } cublasLtOrder_t;
typedef enum {
  CUBLASLT_EPILOGUE_DEFAULT = 1, CUBLASLT_EPILOGUE_RELU = 2, CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_RELU_BIAS = 6, CUBLASLT_EPILOGUE_GELU = 32, CUBLASLT_EPILOGUE_GELU_BIAS = 36,
  CUBLASLT_EPILOGUE_GELU_AUX = 160, CUBLASLT_EPILOGUE_GELU_AUX_BIAS = 164
} cublasLtEpilogue_t;
typedef enum {
  CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8
} cublasLtMatmulPreferenceAttributes_t;
#define KB_CUBLASLT(name) template <class... A> cublasStatus_t name(A...) { return CUBLAS_STATUS_SUCCESS; }
KB_CUBLASLT(cublasLtCreate) KB_CUBLASLT(cublasLtDestroy) KB_CUBLASLT(cublasLtMatmul) KB_CUBLASLT(cublasLtMatmulDescCreate)
KB_CUBLASLT(cublasLtMatmulDescDestroy) KB_CUBLASLT(cublasLtMatmulDescSetAttribute) KB_CUBLASLT(cublasLtMatmulDescGetAttribute)
KB_CUBLASLT(cublasLtMatrixLayoutCreate) KB_CUBLASLT(cublasLtMatrixLayoutDestroy) KB_CUBLASLT(cublasLtMatrixLayoutSetAttribute)
KB_CUBLASLT(cublasLtMatmulPreferenceCreate) KB_CUBLASLT(cublasLtMatmulPreferenceDestroy)
KB_CUBLASLT(cublasLtMatmulPreferenceSetAttribute) KB_CUBLASLT(cublasLtMatmulAlgoGetHeuristic)
KB_CUBLASLT(cublasLtMatrixTransform) KB_CUBLASLT(cublasLtMatrixTransformDescCreate)
#undef KB_CUBLASLT
