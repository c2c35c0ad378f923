// Included first by every unit the translator writes (kbaudit cuda-translate): the CUDA
// language on the CPU. The execution-space and memory-space keywords become plain C++
// (__shared__ variables become statics: the threads of a block are fibers of one OS thread and
// blocks run one after another, so one instance per declaration is one per block); the
// builtin variables, intrinsics, types and runtime API come from the headers below.
#pragma once

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cudacpu/runtime.h"
#include "cudacpu/fp16.h"
#include "cudacpu/fp8.h"
#include "cudacpu/intrinsics.h"
#include "cudacpu/api.h"
#include "cudacpu/ptx.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__
#define __inline_hint__
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __maxnreg__(...)
#define __constant__
#define __managed__
#define __shared__ static
#define __grid_constant__
#define __builtin_assume(x) ((void)0)
#define __assume(x) ((void)0)
#define __CUDACPU__ 1
// The translator renames the user's __CUDA_ARCH__, __CUDACC__ and __NVCC__ to these, so
// torch's own headers never see a CUDA compiler while the kernels see an sm_90 device.
#define __CUDACPU_ARCH__ 900
#define __CUDACPU_CUDACC__ 1
#ifndef CUDART_VERSION
#define CUDART_VERSION 12080
#endif
#ifndef CUDA_VERSION
#define CUDA_VERSION 12080
#endif

// With torch on the include path (an extension's build), its CUDA API and the tracking of CPU
// storages for the launches' guards, whichever headers the unit includes itself.
#if __has_include(<ATen/ATen.h>) && !defined(CUDACPU_NO_ATEN)
#include "cudacpu/aten.h"
#endif
