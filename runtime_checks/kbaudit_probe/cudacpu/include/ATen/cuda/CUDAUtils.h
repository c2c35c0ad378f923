// ATen/cuda/CUDAUtils.h on the CPU runner: CPU tensors behind the CUDA API (cudacpu/aten.h).
#pragma once
#include <cudacpu/aten.h>
