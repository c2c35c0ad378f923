#pragma once

// UTF-8 decoding and encoding shared by everything that checks or rewrites text from input
// (source files, terminal output): one definition of what a valid sequence is.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kbaudit {

/// Length of the valid UTF-8 sequence at s[i], with its code point in `cp`; 0 when it is invalid
/// (overlong forms, surrogates, code points above U+10FFFF, truncated sequences).
std::size_t utf8Decode(std::string_view s, std::size_t i, std::uint32_t &cp);

/// Appends `cp` as UTF-8; a lone surrogate, which has no UTF-8 form, becomes U+FFFD.
void utf8Append(std::string &out, std::uint32_t cp);

} // namespace kbaudit
