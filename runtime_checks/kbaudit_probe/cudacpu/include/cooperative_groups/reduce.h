// cooperative_groups/reduce.h on the CPU runner (cudacpu/cooperative_groups.h has reduce and the scans).
#pragma once
#include <cooperative_groups.h>
