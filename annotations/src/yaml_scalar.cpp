#include "yaml_scalar.h"

#include "kbaudit/source/utf8.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace kbaudit::annotations::yaml {

namespace {

constexpr char32_t kIllFormed = 0xFFFFFFFF;

struct CodePoint {
  char32_t value;
  std::size_t length;
};

// Strict decoding (no overlong forms, surrogates or values past U+10FFFF): anything laxer would
// pass bytes into a block literal that a conforming reader rejects.
CodePoint decode(std::string_view s, std::size_t i) {
  std::uint32_t value = 0;
  const std::size_t length = utf8Decode(s, i, value);
  return length ? CodePoint{value, length} : CodePoint{kIllFormed, 1};
}

// YAML's c-printable, narrowed by what YAML 1.1 readers treat as line breaks (NEL, U+2028,
// U+2029) and by the BOM, which a reader may strip: none of these survive unescaped.
bool printableInBlock(char32_t c) {
  if (c == '\t' || c == '\n')
    return true;
  if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F))
    return false;
  if (c == 0x2028 || c == 0x2029 || c == 0xFEFF || c == 0xFFFE || c == 0xFFFF)
    return false;
  return c <= 0x10FFFF;
}

void appendHexEscape(std::string &out, char32_t c) {
  static constexpr std::array<char, 16> kHex = {'0', '1', '2', '3', '4', '5', '6', '7',
                                                '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};
  const int digits = c <= 0xFF ? 2 : c <= 0xFFFF ? 4 : 8;
  out += '\\';
  out += digits == 2 ? 'x' : digits == 4 ? 'u' : 'U';
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
    out += kHex[(c >> shift) & 0xF];
}

bool isAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// YAML 1.1 resolves these (in any case) to booleans or null.
bool isReservedWord(std::string_view s) {
  static constexpr std::array<std::string_view, 9> kWords = {"y",   "n",     "yes", "no",  "true",
                                                             "false", "on", "off", "null"};
  if (s.size() > 5)
    return false;
  std::string lower(s);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; });
  return std::find(kWords.begin(), kWords.end(), lower) != kWords.end();
}

// Deliberately broad: anything a 1.1 or 1.2 resolver might read as an int, float or timestamp
// (`0x1F`, `1e5`, `1_000`, `2026-04-27`, `0.1.0`) is quoted rather than risked.
bool looksNumeric(std::string_view s) {
  static constexpr std::string_view kNumberChars = "0123456789abcdefABCDEF_.+-xXoO";
  return !s.empty() && s[0] >= '0' && s[0] <= '9' &&
         s.find_first_not_of(kNumberChars) == std::string_view::npos;
}

std::string blockLiteral(std::string_view value, unsigned keyIndent, bool &keeps) {
  const std::size_t lastText = value.find_last_not_of('\n');
  const std::size_t trailingBreaks =
      lastText == std::string_view::npos ? value.size() : value.size() - lastText - 1;
  // Clip keeps exactly one final break, and only after some content.
  const char *chomp = trailingBreaks == 0                                       ? "-"
                      : trailingBreaks == 1 && lastText != std::string_view::npos ? ""
                                                                                  : "+";
  keeps = *chomp == '+';

  // A reader infers the content indentation from the first non-empty line; if that line starts
  // with a blank, the inferred indentation would swallow it, so state it explicitly.
  const std::size_t firstText = value.find_first_not_of('\n');
  const bool needsIndicator =
      firstText != std::string_view::npos && (value[firstText] == ' ' || value[firstText] == '\t');

  std::string out = " |";
  if (needsIndicator)
    out += '2';
  out += chomp;
  out += '\n';
  const std::string indent(keyIndent + 2, ' ');
  std::size_t start = 0;
  while (start < value.size()) {
    std::size_t end = value.find('\n', start);
    if (end == std::string_view::npos)
      end = value.size();
    // Empty lines carry no indentation so that the file has no trailing whitespace of its own.
    if (end > start) {
      out += indent;
      out.append(value.substr(start, end - start));
    }
    out += '\n';
    start = end + 1;
  }
  return out;
}

} // namespace

std::string doubleQuoted(std::string_view value) {
  std::string out = "\"";
  out.reserve(value.size() + 2);
  for (std::size_t i = 0; i < value.size();) {
    const CodePoint cp = decode(value, i);
    switch (cp.value) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    case kIllFormed: out += "\xEF\xBF\xBD"; break;
    default:
      if (printableInBlock(cp.value))
        out.append(value.substr(i, cp.length));
      else
        appendHexEscape(out, cp.value);
    }
    i += cp.length;
  }
  out += '"';
  return out;
}

bool isSafePlain(std::string_view value) {
  if (value.empty() || !isAsciiAlnum(value[0]))
    return false;
  const bool charsOk = std::all_of(value.begin(), value.end(), [](char c) {
    return isAsciiAlnum(c) || c == '_' || c == '.' || c == '-' || c == '/' || c == '+';
  });
  return charsOk && !isReservedWord(value) && !looksNumeric(value);
}

bool fitsBlockLiteral(std::string_view value) {
  if (value.empty())
    return false;
  for (std::size_t i = 0; i < value.size();) {
    const CodePoint cp = decode(value, i);
    if (cp.value == kIllFormed || !printableInBlock(cp.value))
      return false;
    i += cp.length;
  }
  return true;
}

RenderedScalar renderScalar(std::string_view value, ScalarStyle style, unsigned keyIndent) {
  RenderedScalar r;
  bool block = false;
  switch (style) {
  case ScalarStyle::Plain:
    r.text = ' ' + (isSafePlain(value) ? std::string(value) : doubleQuoted(value)) + '\n';
    return r;
  case ScalarStyle::Quoted: break;
  case ScalarStyle::Block: block = fitsBlockLiteral(value); break;
  case ScalarStyle::Multiline:
    block = value.find('\n') != std::string_view::npos && fitsBlockLiteral(value);
    break;
  }
  if (block)
    r.text = blockLiteral(value, keyIndent, r.keepsTrailingLines);
  else
    r.text = ' ' + doubleQuoted(value) + '\n';
  return r;
}

} // namespace kbaudit::annotations::yaml
