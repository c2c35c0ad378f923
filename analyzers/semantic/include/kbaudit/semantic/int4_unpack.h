#pragma once

// Whether code unpacks packed int4 values (shifts by four, masks with 0xF, bit-field PTX), for
// PREC004's question of where an int4 problem's weights are unpacked: inside a kernel, or once
// on the host with the 16-bit result kept.

#include "kbaudit/facts.h"

#include <string_view>

namespace kbaudit::semantic {

/// `text` contains one of `>> 4`, `>>4`, `& 0xF`, `&0xF`, `& 0xf`, `&0xf`, `& 15`,
/// `bitwise_and`, `bitwise_right_shift`, `lop3`, `prmt` (plain substrings, comments and string
/// literals included).
/// Why: these are the operations that split a byte into its two nibbles.
bool mentionsUnpack(std::string_view text);

/// `k` has valid lines and solution.py's text of those lines (clipped to the file) mentionsUnpack.
/// The lines are read from solution.py even for a kernel in a sidecar source.
/// Why: unpacking inside the authored kernel is what an int4 problem promises.
bool kernelMentionsUnpack(const Facts &f, const kernels::Kernel &k);

} // namespace kbaudit::semantic
