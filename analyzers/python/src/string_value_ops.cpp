#include "string_value_ops.h"

namespace kbaudit::py::sv {

namespace {
bool opensLine(const StringValue &s) { return s.value.empty() || s.value.back() == '\n'; }
} // namespace

void appendChar(StringValue &out, char c, unsigned line) {
  if (opensLine(out))
    out.lineOrigins.push_back(line);
  out.value.push_back(c);
}

void appendText(StringValue &out, llvm::StringRef text, unsigned line) {
  while (!text.empty()) {
    if (opensLine(out))
      out.lineOrigins.push_back(line);
    size_t nl = text.find('\n');
    size_t take = nl == llvm::StringRef::npos ? text.size() : nl + 1;
    out.value.append(text.data(), take);
    text = text.drop_front(take);
  }
}

std::optional<std::string> decodeBase64(llvm::StringRef text) {
  auto digit = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  unsigned buffer = 0, bits = 0;
  bool padding = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
      continue;
    if (c == '=') {
      padding = true;
      continue;
    }
    const int d = digit(c);
    if (d < 0 || padding)
      return std::nullopt; // b64decode would reject it (or its validate=False default would drop it)
    buffer = (buffer << 6) | static_cast<unsigned>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

std::optional<std::string> decodeHex(llvm::StringRef text) {
  std::string out;
  int high = -1;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (high >= 0)
        return std::nullopt;
      continue;
    }
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v < 0)
      return std::nullopt;
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<char>(high * 16 + v));
      high = -1;
    }
  }
  if (high >= 0)
    return std::nullopt;
  return out;
}

void append(StringValue &out, const StringValue &tail) {
  if (!tail.complete)
    out.complete = false;
  out.limited = out.limited || tail.limited;
  if (tail.value.empty())
    return;
  size_t firstLine = 0;
  if (!opensLine(out))
    firstLine = 1; // tail's first line continues out's last line
  for (size_t i = firstLine; i < tail.lineOrigins.size(); ++i)
    out.lineOrigins.push_back(tail.lineOrigins[i]);
  out.value += tail.value;
}

unsigned OriginCursor::originAt(size_t offset) {
  const std::string &v = s_.value;
  offset = std::min(offset, v.size());
  if (offset < pos_) { // tolerate a step back by rescanning
    pos_ = 0;
    line_ = 0;
  }
  while (pos_ < offset) {
    if (v[pos_] == '\n')
      ++line_;
    ++pos_;
  }
  if (s_.lineOrigins.empty())
    return 0;
  return line_ < s_.lineOrigins.size() ? s_.lineOrigins[line_] : s_.lineOrigins.back();
}

void appendRange(StringValue &out, const StringValue &src, size_t begin, size_t end) {
  end = std::min(end, src.value.size());
  if (begin >= end)
    return;
  OriginCursor cur(src);
  size_t i = begin;
  while (i < end) {
    size_t nl = src.value.find('\n', i);
    size_t stop = nl == std::string::npos || nl >= end ? end : nl + 1;
    appendText(out, llvm::StringRef(src.value).slice(i, stop), cur.originAt(i));
    i = stop;
  }
}

StringValue slice(const StringValue &s, size_t begin, size_t end) {
  StringValue out;
  out.complete = s.complete;
  out.limited = s.limited;
  appendRange(out, s, begin, end);
  return out;
}

StringValue replaceAll(const StringValue &s, llvm::StringRef needle,
                       const std::optional<StringValue> &replacement) {
  StringValue out;
  out.complete = s.complete && replacement.has_value() && replacement->complete;
  out.limited = s.limited || (replacement && replacement->limited);
  if (needle.empty()) { // Python inserts between characters; never seen in practice
    out = s;
    out.complete = false;
    return out;
  }
  llvm::StringRef v(s.value);
  OriginCursor cur(s);
  size_t i = 0;
  while (true) {
    size_t hit = v.find(needle, i);
    if (hit == llvm::StringRef::npos)
      break;
    appendRange(out, s, i, hit);
    if (replacement) {
      // The replacement's own origins are where the replacement literal was written, but the
      // text now sits at the match: keep its lines' origins only when it spans several lines
      // (a multi-line snippet spliced in), else attribute it to the match's line.
      unsigned at = cur.originAt(hit);
      if (replacement->lineOrigins.size() > 1) {
        StringValue r = *replacement;
        r.lineOrigins[0] = at;
        append(out, r);
      } else {
        appendText(out, replacement->value, at);
      }
    }
    i = hit + needle.size();
  }
  appendRange(out, s, i, v.size());
  return out;
}

StringValue dedent(const StringValue &s) {
  llvm::StringRef v(s.value);
  // Common prefix of the leading whitespace of non-blank lines.
  std::optional<llvm::StringRef> margin;
  for (llvm::StringRef rest = v; !rest.empty();) {
    auto [line, tail] = rest.split('\n');
    rest = tail;
    llvm::StringRef body = line.ltrim(" \t");
    if (body.empty() || body == "\r")
      continue;
    llvm::StringRef indent = line.take_front(line.size() - body.size());
    if (!margin) {
      margin = indent;
    } else {
      size_t n = 0;
      while (n < margin->size() && n < indent.size() && (*margin)[n] == indent[n])
        ++n;
      margin = margin->take_front(n);
    }
  }
  StringValue out;
  out.complete = s.complete;
  out.limited = s.limited;
  size_t lineIdx = 0;
  size_t i = 0;
  while (i < v.size()) {
    size_t nl = v.find('\n', i);
    size_t stop = nl == llvm::StringRef::npos ? v.size() : nl + 1;
    llvm::StringRef line = v.slice(i, stop);
    unsigned origin = lineIdx < s.lineOrigins.size() ? s.lineOrigins[lineIdx] : 0;
    llvm::StringRef content = line.rtrim("\n");
    if (content.ltrim(" \t").empty() || content.ltrim(" \t") == "\r")
      line = line.drop_front(content.size()); // whitespace-only lines become bare newlines
    else if (margin)
      line = line.drop_front(margin->size());
    if (line.empty()) { // a whitespace-only last line without newline vanishes
      i = stop;
      ++lineIdx;
      continue;
    }
    appendText(out, line, origin);
    i = stop;
    ++lineIdx;
  }
  return out;
}

StringValue strip(const StringValue &s, StripSide side, std::optional<llvm::StringRef> chars) {
  llvm::StringRef set = chars ? *chars : llvm::StringRef(" \t\n\r\v\f");
  llvm::StringRef v(s.value);
  size_t b = 0, e = v.size();
  if (side != StripSide::Right)
    while (b < e && set.contains(v[b]))
      ++b;
  if (side != StripSide::Left)
    while (e > b && set.contains(v[e - 1]))
      --e;
  return slice(s, b, e);
}

StringValue repeat(const StringValue &s, long long times, size_t maxBytes) {
  StringValue out;
  out.complete = s.complete;
  out.limited = s.limited;
  if (times <= 0 || s.value.empty())
    return out;
  if (static_cast<double>(times) * static_cast<double>(s.value.size()) > static_cast<double>(maxBytes)) {
    out.complete = false; // "=" * 80 is a banner; "x" * 10**11 is not worth materialising
    out.limited = true;
    return out;
  }
  out.value.reserve(static_cast<size_t>(times) * s.value.size());
  for (long long i = 0; i < times; ++i)
    append(out, s);
  return out;
}

size_t lineCount(llvm::StringRef value) {
  if (value.empty())
    return 0;
  size_t n = value.count('\n');
  return value.back() == '\n' ? n : n + 1;
}

} // namespace kbaudit::py::sv
