#include "kbaudit/source/source_file.h"

#include <llvm/Support/SHA256.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>

namespace kbaudit {

namespace {

// Solutions are a few hundred KiB at most; anything far larger is not a solution and
// would only slow a batch down.
constexpr std::size_t kMaxBytes = 16u << 20;

Diagnostic error(std::string code, std::string message) {
  return Diagnostic{Diagnostic::Severity::Error, std::move(code), std::move(message), {}, {}};
}

/// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is invalid
/// (overlong forms, surrogates and code points above U+10FFFF are invalid).
std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80)
    return 1;
  std::size_t n;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) { n = 3; lo = 0xA0; }
  else if (c == 0xED) { n = 3; hi = 0x9F; }
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) { n = 4; lo = 0x90; }
  else if (c == 0xF4) { n = 4; hi = 0x8F; }
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else return 0;
  if (i + n > s.size())
    return 0;
  if (b(i + 1) < lo || b(i + 1) > hi)
    return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF)
      return 0;
  return n;
}

} // namespace

const char *severityName(Diagnostic::Severity s) {
  switch (s) {
  case Diagnostic::Severity::Note: return "note";
  case Diagnostic::Severity::Warning: return "warning";
  case Diagnostic::Severity::Error: return "error";
  }
  return "error";
}

SourceFile SourceFile::load(const std::filesystem::path &path) {
  std::error_code ec;
  const std::string display = path.filename().string();
  if (std::filesystem::is_directory(path, ec)) {
    SourceFile f;
    f.name_ = display;
    f.diagnostics_.push_back(error("unreadable", path.string() + " is a directory, not a file"));
    f.finish();
    return f;
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxBytes) {
    SourceFile f;
    f.name_ = display;
    f.byteSize_ = size;
    f.diagnostics_.push_back(error("too-large", path.string() + " is " + std::to_string(size) +
                                                    " bytes; kbaudit reads solutions up to " +
                                                    std::to_string(kMaxBytes) + " bytes"));
    f.finish();
    return f;
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes;
  if (in)
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    SourceFile f;
    f.name_ = display;
    f.diagnostics_.push_back(error("unreadable", "cannot read " + path.string()));
    f.finish();
    return f;
  }
  return fromBytes(std::move(bytes), display);
}

std::size_t normalizeNewlines(std::string &bytes) {
  if (bytes.find('\r') == std::string::npos)
    return 0;
  std::size_t loneCr = 0;
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != '\r') {
      out += bytes[i];
    } else if (i + 1 < bytes.size() && bytes[i + 1] == '\n') {
      out += '\n';
      ++i;
    } else {
      out += '\n';
      ++loneCr;
    }
  }
  bytes = std::move(out);
  return loneCr;
}

SourceFile SourceFile::fromBytes(std::string bytes, std::string displayName) {
  SourceFile f;
  f.name_ = std::move(displayName);
  f.byteSize_ = bytes.size();
  {
    llvm::SHA256 hasher;
    hasher.update(llvm::StringRef(bytes));
    f.sha256_ = llvm::toHex(hasher.final(), /*LowerCase=*/true);
  }

  if (bytes.find_first_not_of(" \t\r\n\f\v") == std::string::npos) {
    f.diagnostics_.push_back(error("empty-file", bytes.empty()
                                                     ? f.name_ + " is empty (0 bytes)"
                                                     : f.name_ + " holds only whitespace"));
    f.finish();
    return f;
  }
  // A NUL byte never occurs in Python source that an interpreter accepts; its presence
  // means a binary file (an archive, a pickle, a compiled module) was submitted.
  if (auto nul = bytes.find('\0'); nul != std::string::npos) {
    f.diagnostics_.push_back(error("binary-file", f.name_ + " is binary (NUL byte at offset " +
                                                      std::to_string(nul) + "), not Python source"));
    f.finish();
    return f;
  }

  // Python reads source with universal newlines: CRLF and a lone CR end a line just as LF does,
  // inside string literals too. Every front end sees the text as Python does, so a file whose
  // lines end in lone CRs (one physical line to a naive reader) is analysed line by line.
  // CR and LF never occur inside a multi-byte UTF-8 sequence, so this can run on the bytes.
  if (const std::size_t loneCr = normalizeNewlines(bytes); loneCr > 0)
    f.diagnostics_.push_back(Diagnostic{Diagnostic::Severity::Note, "line-endings",
                                        std::to_string(loneCr) + " line(s) end in a lone CR; read as newlines, as "
                                                                 "Python reads them",
                                        f.name_, LineRange{}});

  std::string text;
  text.reserve(bytes.size());
  std::size_t invalid = 0;
  unsigned firstBadLine = 0, line = 1;
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t n = utf8SequenceLength(bytes, i);
    if (n == 0) {
      if (invalid++ == 0)
        firstBadLine = line;
      text += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (bytes[i] == '\n')
      ++line;
    text.append(bytes, i, n);
    i += n;
  }
  if (invalid) {
    // Python would refuse such a file, but a hack hidden behind one stray byte must still
    // be seen, so analysis continues on the repaired text.
    f.diagnostics_.push_back(Diagnostic{
        Diagnostic::Severity::Warning, "invalid-utf8",
        std::to_string(invalid) + " byte(s) are not valid UTF-8 (first on line " +
            std::to_string(firstBadLine) + "); analysed with U+FFFD in their place",
        f.name_, LineRange{firstBadLine, firstBadLine}});
  }
  f.text_ = std::move(text);
  f.finish();
  return f;
}

void SourceFile::finish() {
  for (Diagnostic &d : diagnostics_)
    if (d.file.empty())
      d.file = name_;
  lineStarts_.clear();
  if (text_.empty())
    return;
  lineStarts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n' && i + 1 < text_.size())
      lineStarts_.push_back(i + 1);
}

std::string_view SourceFile::line(unsigned n) const {
  if (n == 0 || n > lineStarts_.size())
    return {};
  const std::size_t begin = lineStarts_[n - 1];
  std::size_t end = n < lineStarts_.size() ? lineStarts_[n] : text_.size();
  if (end > begin && text_[end - 1] == '\n')
    --end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::string SourceFile::lines(unsigned begin, unsigned end) const {
  std::string out;
  for (unsigned n = std::max(begin, 1u); n <= end && n <= lineCount(); ++n) {
    out += line(n);
    out += '\n';
  }
  return out;
}

unsigned SourceFile::lineOfOffset(std::size_t offset) const {
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  return static_cast<unsigned>(std::distance(lineStarts_.begin(), it));
}

} // namespace kbaudit
