#pragma once

// Editing a StringValue while keeping lineOrigins exact. The invariant: a value line's
// origin is the solution.py line of the first character placed on it, so every append
// says which source line its characters come from, and operations that move text around
// (slice, replace, dedent) carry each character's origin along.

#include "kbaudit/python/facts.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::py::sv {

/// Appends characters that all come from source line `line`.
void appendText(StringValue &out, llvm::StringRef text, unsigned line);
/// Standard base64 (padding and whitespace allowed, as base64.b64decode accepts); nullopt on
/// invalid input.
std::optional<std::string> decodeBase64(llvm::StringRef text);
/// Hex digits in pairs (whitespace allowed between bytes, as bytes.fromhex accepts).
std::optional<std::string> decodeHex(llvm::StringRef text);
void appendChar(StringValue &out, char c, unsigned line);
/// Concatenation: the lines of `tail` keep their own origins; its first line merges into
/// the last line of `out` unless `out` ends a line. `complete` is and-ed.
void append(StringValue &out, const StringValue &tail);
/// Appends src[begin, end) with each character's origin.
void appendRange(StringValue &out, const StringValue &src, size_t begin, size_t end);

/// Walks a value front to back answering "which source line is offset i on"; offsets must
/// not decrease, so a whole scan costs O(n).
class OriginCursor {
public:
  explicit OriginCursor(const StringValue &s) : s_(s) {}
  unsigned originAt(size_t offset);

private:
  const StringValue &s_;
  size_t pos_ = 0;
  size_t line_ = 0;
};

StringValue slice(const StringValue &s, size_t begin, size_t end);
/// str.replace with a static needle; `replacement` == nullopt means the replacement is not
/// static: matches are dropped and the result is incomplete. Inserted text takes the origin
/// of the match it replaces.
StringValue replaceAll(const StringValue &s, llvm::StringRef needle,
                       const std::optional<StringValue> &replacement);
/// textwrap.dedent: same lines, common leading whitespace removed.
StringValue dedent(const StringValue &s);
enum class StripSide { Both, Left, Right };
StringValue strip(const StringValue &s, StripSide side, std::optional<llvm::StringRef> chars);
/// Repeats `s` `times` times; a result over `maxBytes` is left out (empty, incomplete).
StringValue repeat(const StringValue &s, long long times, size_t maxBytes);

/// Number of value lines as lineOrigins counts them.
size_t lineCount(llvm::StringRef value);

} // namespace kbaudit::py::sv
