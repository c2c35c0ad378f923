#pragma once

// Untrusted data files (evaluation tables, meta.json, result.json, problem.yaml, annotations,
// baselines, kbaudit.yaml) read within bounds. The JSON and YAML parsers kbaudit uses recurse
// once per nesting level, so a file nested 50,000 levels deep overflows the stack before they
// can refuse it: nesting is measured here first, on the text, without recursion. Every refusal
// is a sentence naming what is wrong, for the diagnostic of the file it came from.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace kbaudit::data {

/// Nesting a data file kbaudit reads may have. Real ones nest a handful of levels (a table row
/// is one object; problem.yaml two); this is far beyond that and far below what the parsers'
/// recursion survives on any stack.
inline constexpr unsigned kMaxNesting = 64;

/// The text of `path` when it is a regular file of at most `maxBytes` bytes, with a UTF-8
/// byte-order mark removed; otherwise why not ("is a FIFO; ...", "is 300000000 bytes; ...",
/// "cannot open ..."). Never blocks on a FIFO and never reads more than maxBytes + 1 bytes.
std::variant<std::string, std::string> readText(const std::filesystem::path &path, std::size_t maxBytes);

/// Why the JSON text nests deeper than `maxDepth` arrays/objects ("nested deeper than 64
/// levels (line 3)"), or nullopt. Brackets inside strings do not count.
std::optional<std::string> jsonTooDeep(std::string_view text, unsigned maxDepth = kMaxNesting);

/// Why the YAML text nests deeper than `maxDepth` (flow `[`/`{` inside quotes excluded; block
/// levels counted by indentation and by the `- `/`? ` indicators that open a level on the same
/// line), or nullopt. An over-estimate for odd layouts, never an under-estimate.
std::optional<std::string> yamlTooDeep(std::string_view text, unsigned maxDepth = kMaxNesting);

/// Byte offset of the first byte that is not part of valid UTF-8, or npos.
std::size_t invalidUtf8At(std::string_view text);

/// 1-based line of byte `offset` in `text`.
unsigned lineAt(std::string_view text, std::size_t offset);

} // namespace kbaudit::data
