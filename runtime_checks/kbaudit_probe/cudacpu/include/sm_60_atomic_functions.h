// CUDA's sm_60_atomic_functions.h on the CPU runner: the runtime prelude has what it declares.
#pragma once
#include <cudacpu/prelude.h>
