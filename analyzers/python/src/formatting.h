#pragma once

// Python's string formatting on folded values: str(), format-spec mini-language, `%` and
// str.format. Anything not statically decidable (a runtime argument, `!r`, attribute
// lookups in fields) leaves its piece out and marks the result incomplete.

#include "value.h"

#include <llvm/ADT/StringRef.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kbaudit::py::fmt {

/// str(v) for a scalar value; nullopt for unknown or sequence values.
std::optional<std::string> pyStr(const Value &v);
/// format(v, spec); nullopt when unsupported.
std::optional<std::string> formatSpec(const Value &v, llvm::StringRef spec);
/// Inserts `v` formatted with `spec` (and `!s` conversion when `conversion` == 's') into
/// `out`: strings keep their origins, numbers get `line`. Returns false when not static.
bool appendFormatted(StringValue &out, const Value *v, llvm::StringRef spec, char conversion,
                     unsigned line);

/// `tmpl % args`. `args` holds one entry per tuple element (or one for a single value);
/// null entries are unknown.
StringValue percent(const StringValue &tmpl, const std::vector<const Value *> &args);
/// `tmpl.format(*positional, **keywords)`; null entries are unknown.
StringValue braces(const StringValue &tmpl, const std::vector<const Value *> &positional,
                   const std::map<std::string, const Value *, std::less<>> &keywords);

} // namespace kbaudit::py::fmt
