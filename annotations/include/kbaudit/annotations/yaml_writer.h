#pragma once

#include "kbaudit/annotations/annotation.h"

#include <filesystem>
#include <string>

namespace kbaudit::annotations {

/// The annotation as a YAML document: schema fields in schema order, then `kbaudit:`.
/// Quote texts are block literals that load back byte-for-byte (indentation indicator
/// when the first line starts with a space, `-`/`+` chomping for the final newline(s),
/// and a double-quoted scalar for text a block literal cannot hold, such as `\r`).
std::string toYaml(const Annotation &a);

/// Reads an annotation written by toYaml or by a human (the schema fields and, when
/// present, the kbaudit block's findings). Throws std::runtime_error on malformed input.
Annotation fromYaml(const std::string &yaml);

/// Writes `content` to `path` through a temporary file in the same directory and a
/// rename, so readers never see a half-written file. Returns false and sets `error`.
bool writeFileAtomically(const std::filesystem::path &path, const std::string &content,
                         std::string &error);

/// Removes the temporary files an interrupted writer (a SIGKILLed audit) left in `dir`; only
/// safe while no other writer uses `dir` (audit holds the output directory's lock). Returns
/// how many it removed.
std::size_t removeStaleTempFiles(const std::filesystem::path &dir);

} // namespace kbaudit::annotations
