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

/// The Python value splits bytes into nibbles: it calls or reads `bitwise_and` /
/// `bitwise_right_shift` (from its names, so a string literal or a comment naming them does not
/// count), or its spelling holds one of the operator forms of mentionsUnpack (`>> 4`, `& 0xF`,
/// `& 15`) and it is not a string (a CUDA source holding `>> 4` computes nothing here): the
/// expression summary carries no operator tree.
/// Why: PREC004 asks it of the values a module stores on itself.
bool unpacksNibbles(const py::Expr &e);

/// `k` has valid lines and solution.py's text of those lines (clipped to the file) mentionsUnpack.
/// The lines are read from solution.py even for a kernel in a sidecar source.
/// Why: unpacking inside the authored kernel is what an int4 problem promises.
bool kernelMentionsUnpack(const Facts &f, const kernels::Kernel &k);

} // namespace kbaudit::semantic
