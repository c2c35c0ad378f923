// CUDA's cuda_fp16.h on the CPU runner: the runtime prelude has what it declares.
#pragma once
#include <cudacpu/prelude.h>
