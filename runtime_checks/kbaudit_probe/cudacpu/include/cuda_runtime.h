// CUDA's cuda_runtime.h on the CPU runner: the runtime prelude has what it declares.
#pragma once
#include <cudacpu/prelude.h>
