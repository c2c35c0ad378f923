// pybind11/pybind11.h in the CPU runner's light build: see torch/extension.h.
#pragma once
#include <torch/extension.h>
