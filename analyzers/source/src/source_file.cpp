#include "kbaudit/source/source_file.h"

#include "kbaudit/source/sha256.h"
#include "kbaudit/source/source_encoding.h"
#include "kbaudit/source/utf8.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kbaudit {

namespace {

// Solutions are a few hundred KiB at most (the corpus's largest is 123 KB); anything far larger
// is not a solution and would only cost the batch: the Python front end's time and memory grow
// with the number of statements (2 MiB of `x = 1` costs about 5 s and 650 MB, 15 MB took 38 s
// and 4.7 GB), so past this a file is `too-large` at once.
constexpr std::size_t kMaxBytes = 2u << 20;

Diagnostic error(std::string code, std::string message) {
  return Diagnostic{Diagnostic::Severity::Error, std::move(code), std::move(message), {}, {}};
}

std::size_t utf8SequenceLength(std::string_view s, std::size_t i) {
  std::uint32_t cp = 0;
  return utf8Decode(s, i, cp);
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

namespace {

const char *kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

} // namespace

std::variant<std::string, Diagnostic> readRegularFile(const std::filesystem::path &path, std::size_t maxBytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. Only a
  // regular file is read, and never more than maxBytes + 1 bytes of it, so neither a FIFO nor a
  // link to /dev/zero can stall or flood the audit.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return error("unreadable", "cannot open " + path.string() + ": " + std::strerror(errno));
  struct stat st {};
  const bool examined = ::fstat(fd, &st) == 0;
  if (!examined || !S_ISREG(st.st_mode)) {
    const std::string what = examined ? kindOf(st.st_mode) : "impossible to examine";
    ::close(fd);
    return error("not-a-regular-file", path.string() + " is " + what + "; kbaudit reads only regular files");
  }
  if (static_cast<std::size_t>(st.st_size) > maxBytes) {
    ::close(fd);
    return error("too-large", path.string() + " is " + std::to_string(st.st_size) + " bytes; kbaudit reads files up to " +
                                  std::to_string(maxBytes) + " bytes");
  }
  std::string bytes;
  bytes.resize(static_cast<std::size_t>(st.st_size) + 1);
  std::size_t have = 0;
  for (;;) {
    if (have == bytes.size()) {
      if (bytes.size() > maxBytes)
        break; // grew while read: the check below refuses it
      bytes.resize(std::min(maxBytes + 1, bytes.size() * 2 + 4096));
    }
    const ssize_t n = ::read(fd, bytes.data() + have, bytes.size() - have);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return error("unreadable", "cannot read " + path.string() + ": " + std::strerror(err));
    }
    if (n == 0)
      break;
    have += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (have > maxBytes)
    return error("too-large", path.string() + " holds more than " + std::to_string(maxBytes) +
                                  " bytes; kbaudit reads files up to that size");
  bytes.resize(have);
  return bytes;
}

SourceFile SourceFile::load(const std::filesystem::path &path) {
  auto read = readRegularFile(path, kMaxBytes);
  if (auto *d = std::get_if<Diagnostic>(&read)) {
    SourceFile f;
    f.name_ = path.filename().string();
    f.diagnostics_.push_back(std::move(*d));
    f.finish();
    return f;
  }
  return fromBytes(std::move(std::get<std::string>(read)), path.filename().string());
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
  f.sha256_ = sha256Hex(bytes);

  // A UTF-8 byte-order mark is no content: Python skips it, so a file of a BOM (and
  // whitespace) is as empty as one of nothing.
  const bool bom = bytes.compare(0, 3, "\xEF\xBB\xBF") == 0;
  if (bytes.find_first_not_of(" \t\r\n\f\v", bom ? 3 : 0) == std::string::npos) {
    f.diagnostics_.push_back(error("empty-file", bytes.empty() ? f.name_ + " is empty (0 bytes)"
                                                 : bom         ? f.name_ + " holds only a byte-order mark" +
                                                                     (bytes.size() > 3 ? " and whitespace" : "")
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

  // PEP 263: Python decodes the file with the codec its first lines declare before anything else
  // reads it, so a hack re-encoded in UTF-7 or unicode_escape is the same program.
  const SourceDecoding decoding = decodePythonSource(bytes);
  if (!decoding.error.empty()) {
    f.diagnostics_.push_back(error("source-encoding", decoding.error));
    f.finish();
    return f;
  }
  if (decoding.utf8) {
    bytes = *decoding.utf8;
    f.diagnostics_.push_back(Diagnostic{Diagnostic::Severity::Note, "source-encoding",
                                        "decoded from `" + decoding.declared + "` (" + decoding.codec +
                                            ") as line " + std::to_string(decoding.line) +
                                            " declares; line numbers are those of the decoded text",
                                        f.name_, LineRange{decoding.line, decoding.line}});
  } else if (decoding.bomBytes) {
    bytes.erase(0, decoding.bomBytes);
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

  // Valid text (nearly every file) is kept as read; only past the first invalid byte is the
  // text rebuilt with replacements. Copying every sequence was 1% of a cold audit.
  std::size_t valid = 0;
  while (valid < bytes.size()) {
    if (static_cast<unsigned char>(bytes[valid]) < 0x80) {
      ++valid;
      continue;
    }
    const std::size_t n = utf8SequenceLength(bytes, valid);
    if (n == 0)
      break;
    valid += n;
  }
  if (valid == bytes.size()) {
    f.text_ = std::move(bytes);
    f.finish();
    return f;
  }
  std::string text = bytes.substr(0, valid);
  std::size_t invalid = 0;
  unsigned firstBadLine = 0, line = 1 + static_cast<unsigned>(std::count(text.begin(), text.end(), '\n'));
  for (std::size_t i = valid; i < bytes.size();) {
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
  const std::string_view text(text_);
  for (std::size_t nl = text.find('\n'); nl != std::string_view::npos && nl + 1 < text.size();
       nl = text.find('\n', nl + 1))
    lineStarts_.push_back(nl + 1);
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
