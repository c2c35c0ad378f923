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

} // namespace kbaudit::annotations
