// kbaudit stub: what nvcc makes implicit in every .cu file. Force-included when parsing CUDA.
#pragma once
#define __CUDACC__ 1
#define __NVCC__ 1
#include <cuda_runtime.h>
