#pragma once

// PEP 263: a `coding` declaration on line 1 or 2 of a Python file names the codec its bytes are
// in, and Python decodes the whole file with it before tokenizing. A file re-encoded in UTF-7 or
// `unicode_escape` runs exactly as before, but reads as different bytes; every front end must see
// the text Python sees.

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit {

struct SourceDecoding {
  /// The codec name as declared ("" when the file declares none; then it is UTF-8).
  std::string declared;
  /// The codec's Python name after normalisation ("utf_7", "iso8859_1", "utf_8", ...).
  std::string codec;
  /// 1-indexed line of the declaration (0: none).
  unsigned line = 0;
  /// The text as UTF-8, when the codec is not UTF-8 and decoding succeeded.
  std::optional<std::string> utf8;
  /// Why the file cannot be read as Python would ("" = fine): an unknown codec, one Python
  /// refuses for source (utf-16, rot13, ...), bytes invalid in the codec, a BOM contradicting it.
  std::string error;
  /// Bytes to drop from the front: a UTF-8 BOM (Python skips it).
  std::size_t bomBytes = 0;
};

/// Finds the declaration as CPython's tokenizer does (line 1, or line 2 when line 1 is a
/// comment or blank) and, for a codec other than UTF-8, decodes the bytes.
SourceDecoding decodePythonSource(std::string_view bytes);

/// The codec's canonical Python name, or nullopt when CPython cannot decode source with it.
std::optional<std::string> pythonSourceCodec(std::string_view declared);

} // namespace kbaudit
