// kbaudit stub: cudnn.h.
#pragma once
#include <cublas_v2.h>
typedef struct cudnnContext *cudnnHandle_t;
typedef struct cudnnTensorStruct *cudnnTensorDescriptor_t;
typedef struct cudnnFilterStruct *cudnnFilterDescriptor_t;
typedef struct cudnnConvolutionStruct *cudnnConvolutionDescriptor_t;
typedef struct cudnnActivationStruct *cudnnActivationDescriptor_t;
typedef struct cudnnPoolingStruct *cudnnPoolingDescriptor_t;
typedef void *cudnnBackendDescriptor_t;
typedef enum { CUDNN_STATUS_SUCCESS = 0, CUDNN_STATUS_NOT_INITIALIZED = 1, CUDNN_STATUS_BAD_PARAM = 3, CUDNN_STATUS_NOT_SUPPORTED = 9 } cudnnStatus_t;
typedef enum {
  CUDNN_DATA_FLOAT = 0, CUDNN_DATA_DOUBLE = 1, CUDNN_DATA_HALF = 2, CUDNN_DATA_INT8 = 3, CUDNN_DATA_INT32 = 4,
  CUDNN_DATA_UINT8 = 6, CUDNN_DATA_BFLOAT16 = 9, CUDNN_DATA_INT64 = 10, CUDNN_DATA_FP8_E4M3 = 12, CUDNN_DATA_FP8_E5M2 = 13
} cudnnDataType_t;
typedef enum { CUDNN_TENSOR_NCHW = 0, CUDNN_TENSOR_NHWC = 1, CUDNN_TENSOR_NCHW_VECT_C = 2 } cudnnTensorFormat_t;
typedef enum { CUDNN_DEFAULT_MATH = 0, CUDNN_TENSOR_OP_MATH = 1, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION = 2, CUDNN_FMA_MATH = 3 } cudnnMathType_t;
typedef enum { CUDNN_CONVOLUTION = 0, CUDNN_CROSS_CORRELATION = 1 } cudnnConvolutionMode_t;
typedef enum {
  CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM = 0, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM = 1,
  CUDNN_CONVOLUTION_FWD_ALGO_GEMM = 2, CUDNN_CONVOLUTION_FWD_ALGO_DIRECT = 3, CUDNN_CONVOLUTION_FWD_ALGO_FFT = 4,
  CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING = 5, CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD = 6,
  CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED = 7
} cudnnConvolutionFwdAlgo_t;
typedef struct { cudnnConvolutionFwdAlgo_t algo; cudnnStatus_t status; float time; size_t memory; cudnnMathType_t mathType; } cudnnConvolutionFwdAlgoPerf_t;
typedef enum { CUDNN_ACTIVATION_SIGMOID = 0, CUDNN_ACTIVATION_RELU = 1, CUDNN_ACTIVATION_TANH = 2, CUDNN_ACTIVATION_IDENTITY = 5 } cudnnActivationMode_t;
typedef enum { CUDNN_POOLING_MAX = 0, CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING = 1 } cudnnPoolingMode_t;
typedef enum { CUDNN_NOT_PROPAGATE_NAN = 0, CUDNN_PROPAGATE_NAN = 1 } cudnnNanPropagation_t;
typedef enum { CUDNN_SOFTMAX_FAST = 0, CUDNN_SOFTMAX_ACCURATE = 1, CUDNN_SOFTMAX_LOG = 2 } cudnnSoftmaxAlgorithm_t;
typedef enum { CUDNN_SOFTMAX_MODE_INSTANCE = 0, CUDNN_SOFTMAX_MODE_CHANNEL = 1 } cudnnSoftmaxMode_t;
#define KB_CUDNN(name) template <class... A> cudnnStatus_t name(A...) { return CUDNN_STATUS_SUCCESS; }
KB_CUDNN(cudnnCreate) KB_CUDNN(cudnnDestroy) KB_CUDNN(cudnnSetStream) KB_CUDNN(cudnnCreateTensorDescriptor)
KB_CUDNN(cudnnSetTensor4dDescriptor) KB_CUDNN(cudnnSetTensorNdDescriptor) KB_CUDNN(cudnnDestroyTensorDescriptor)
KB_CUDNN(cudnnCreateFilterDescriptor) KB_CUDNN(cudnnSetFilter4dDescriptor) KB_CUDNN(cudnnDestroyFilterDescriptor)
KB_CUDNN(cudnnCreateConvolutionDescriptor) KB_CUDNN(cudnnSetConvolution2dDescriptor) KB_CUDNN(cudnnSetConvolutionNdDescriptor)
KB_CUDNN(cudnnSetConvolutionMathType) KB_CUDNN(cudnnSetConvolutionGroupCount) KB_CUDNN(cudnnDestroyConvolutionDescriptor)
KB_CUDNN(cudnnGetConvolutionForwardAlgorithm_v7) KB_CUDNN(cudnnFindConvolutionForwardAlgorithm)
KB_CUDNN(cudnnGetConvolutionForwardWorkspaceSize) KB_CUDNN(cudnnConvolutionForward) KB_CUDNN(cudnnConvolutionBiasActivationForward)
KB_CUDNN(cudnnAddTensor) KB_CUDNN(cudnnActivationForward) KB_CUDNN(cudnnCreateActivationDescriptor) KB_CUDNN(cudnnSetActivationDescriptor)
KB_CUDNN(cudnnSoftmaxForward) KB_CUDNN(cudnnPoolingForward) KB_CUDNN(cudnnCreatePoolingDescriptor) KB_CUDNN(cudnnSetPooling2dDescriptor)
KB_CUDNN(cudnnBatchNormalizationForwardInference) KB_CUDNN(cudnnNormalizationForwardInference)
KB_CUDNN(cudnnBackendCreateDescriptor) KB_CUDNN(cudnnBackendSetAttribute) KB_CUDNN(cudnnBackendFinalize) KB_CUDNN(cudnnBackendExecute)
#undef KB_CUDNN
const char *cudnnGetErrorString(cudnnStatus_t);
size_t cudnnGetVersion();
