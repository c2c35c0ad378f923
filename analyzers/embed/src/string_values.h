#pragma once

// From argument summaries to the strings they hold: source arguments come as a string,
// a list/tuple of strings, or a name bound to either, and each string keeps the map from
// its lines to solution.py lines.

#include "facts_index.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::embed::detail {

/// The end of an `embed-limit` message: the source is partly unseen because of a limit of
/// kbaudit's own, not because it is computed at run time (which `embed-unresolved` says).
inline constexpr const char *kCutShort =
    " was cut short by a limit of kbaudit's evaluator (nesting depth, pieces or size it folds, or a "
    "conditional it cannot decide); that part of the source was not analysed";


struct CollectedStrings {
  /// Exprs whose `string` is set, in argument order.
  std::vector<const py::Expr *> strings;
  /// Parts that should hold a string but do not fold to one.
  std::vector<const py::Expr *> unresolved;
};

/// The strings an argument holds. `None`, empty lists and names bound only to those hold
/// none and are not unresolved.
CollectedStrings collectStrings(const py::Expr &e, const FactsIndex &index,
                                std::string_view function);

/// Number of lines of `text`; a trailing newline does not open a new line.
unsigned lineCount(std::string_view text);

/// One entry per line of `value`: its lineOrigins, padded with 0 (unknown) or cut to the
/// line count, so that consumers can index it without checking the front end's work.
std::vector<unsigned> lineMapOf(const py::StringValue &value);

/// 1..n, for text read from its own file.
std::vector<unsigned> identityLineMap(std::string_view text);

/// Whether text of unknown destination is C++/CUDA worth auditing.
bool looksLikeCxx(std::string_view text);
bool looksLikeCuda(std::string_view text);

/// True for the extensions of C++/CUDA sources and headers (.cu .cuh .cpp .cc .cxx .h .hpp).
bool hasCxxExtension(std::string_view path);
/// .cu / .cuh.
bool hasCudaExtension(std::string_view path);

/// The string values a list-of-names argument (`functions=`) holds, complete ones only.
std::vector<std::string> stringList(const py::Expr &e);

/// A string value that folded completely, or nothing.
std::optional<std::string> completeString(const py::Expr &e);

} // namespace kbaudit::embed::detail
