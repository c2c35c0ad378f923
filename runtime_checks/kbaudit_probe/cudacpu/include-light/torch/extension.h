// torch/extension.h in the CPU runner's light build: torch's tensor API (torch/types.h: ATen,
// the factories, the operator library) and the binding of cudacpu/bind.h, without pybind11 and
// the rest of torch (a build that needs them falls back to the real header).
#pragma once
#include <cudacpu/prelude.h>
#include <torch/types.h>
#include <cudacpu/bind.h>
