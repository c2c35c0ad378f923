#pragma once

#include "kbaudit/source/diagnostic.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kbaudit {

/// A solution file as checked text: the bytes were read, validated as UTF-8 (invalid
/// sequences replaced by U+FFFD, with a diagnostic), and indexed by line.
/// Rewrites CRLF and lone CR line endings as LF, in place; returns how many lone CRs there were.
std::size_t normalizeNewlines(std::string &bytes);

/// The bytes of `path` when it is a regular file of at most `maxBytes` bytes; otherwise an Error
/// diagnostic saying what it is (a FIFO, a device, a directory, too large, unreadable). Never
/// blocks on a FIFO and never reads more than maxBytes + 1 bytes.
std::variant<std::string, Diagnostic> readRegularFile(const std::filesystem::path &path, std::size_t maxBytes);

class SourceFile {
public:
  /// Reads and checks `path`. Never throws: problems become diagnostics, and an Error
  /// diagnostic (unreadable, empty, binary) leaves `analyzable()` false.
  static SourceFile load(const std::filesystem::path &path);
  /// Builds from bytes already in memory (fixtures, fuzzing, sidecars).
  static SourceFile fromBytes(std::string bytes, std::string displayName = "solution.py");

  const std::string &name() const { return name_; }
  /// The checked text (valid UTF-8), with CRLF and lone CR line endings read as LF, as Python's
  /// universal newlines read them.
  const std::string &text() const { return text_; }
  /// Hex SHA-256 of the raw bytes, so a baseline can name a submission by content.
  const std::string &sha256() const { return sha256_; }
  std::size_t byteSize() const { return byteSize_; }
  const std::vector<Diagnostic> &diagnostics() const { return diagnostics_; }
  bool analyzable() const { return !hasError(diagnostics_); }

  unsigned lineCount() const { return static_cast<unsigned>(lineStarts_.size()); }
  /// Text of 1-indexed line `n` without its terminator ("" when out of range).
  std::string_view line(unsigned n) const;
  /// Lines [begin, end] verbatim, each followed by '\n' (the quote format of annotations).
  std::string lines(unsigned begin, unsigned end) const;
  /// 1-indexed line holding byte `offset`.
  unsigned lineOfOffset(std::size_t offset) const;

private:
  /// Indexes lines and names the file in every diagnostic; every constructor path ends here.
  void finish();

  std::string name_;
  std::string text_;
  std::string sha256_;
  std::size_t byteSize_ = 0;
  std::vector<std::size_t> lineStarts_;
  std::vector<Diagnostic> diagnostics_;
};

} // namespace kbaudit
