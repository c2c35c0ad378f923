// cooperative_groups.h on the CPU runner.
#pragma once
#include <cudacpu/prelude.h>
#include <cudacpu/cooperative_groups.h>
