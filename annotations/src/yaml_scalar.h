#pragma once

// Scalar rendering for the annotation YAML. Done by hand rather than with YAML::Emitter because
// yaml-cpp 0.7 writes block literals that do not load back unchanged (no indentation indicator,
// no `-`/`+` chomping) and lets plain scalars through that YAML 1.1 readers turn into numbers
// or booleans.

#include <string>
#include <string_view>

namespace kbaudit::annotations::yaml {

enum class ScalarStyle {
  Plain,     ///< plain when unambiguous, else double-quoted (ids, names, enum words)
  Quoted,    ///< always double-quoted (captions, messages)
  Block,     ///< block literal when it can hold the text, else double-quoted (prose, code)
  Multiline, ///< block literal only for text with a line break, else double-quoted
};

struct RenderedScalar {
  /// What follows `key:` — " value\n", or " |<indicators>\n" and the content lines.
  std::string text;
  /// A `|+` literal: blank lines written after it would become part of its value.
  bool keepsTrailingLines = false;
};

/// `keyIndent` is the column of the key; block content goes two columns deeper.
RenderedScalar renderScalar(std::string_view value, ScalarStyle style, unsigned keyIndent);

/// `value` as one double-quoted line. Ill-formed UTF-8 becomes U+FFFD: a YAML stream must be
/// Unicode, so no scalar could carry those bytes.
std::string doubleQuoted(std::string_view value);

/// Whether a plain scalar holding `value` reads back as this exact string under both YAML 1.1
/// (PyYAML) and 1.2 (yaml-cpp) resolution.
bool isSafePlain(std::string_view value);

/// Whether a block literal can hold `value` byte-for-byte: printable Unicode, `\n` as the only
/// line break, and not empty.
bool fitsBlockLiteral(std::string_view value);

} // namespace kbaudit::annotations::yaml
