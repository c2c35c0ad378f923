// kbaudit stub: CUDA's declaration specifiers. Attributes when Clang parses CUDA, nothing
// when a C++ source (load_inline cpp_sources) includes a CUDA header.
#pragma once
#ifdef __CUDA__
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define KB_D __attribute__((device))
#define KB_HD __attribute__((host, device))
#else
#define __global__
#define __device__
#define __host__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define KB_D
#define KB_HD
#endif
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __inline__ inline
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __cluster_dims__(...)
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __location__(a) __attribute__((a))
#define CUDART_CB
#define CUDARTAPI
#define CUDAAPI
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 4
#define __CUDACC_VER_BUILD__ 0
#define CUDART_VERSION 12040
#define CUDA_VERSION 12040
#endif
