#include "string_literal.h"

#include "string_value_ops.h"
#include "tree.h"

#include <llvm/ADT/StringExtras.h>

namespace kbaudit::py {
namespace {

void appendUtf8(StringValue &out, uint32_t cp, unsigned line) {
  char buf[4];
  size_t n;
  if (cp < 0x80) {
    buf[0] = static_cast<char>(cp);
    n = 1;
  } else if (cp < 0x800) {
    buf[0] = static_cast<char>(0xC0 | (cp >> 6));
    buf[1] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    buf[0] = static_cast<char>(0xE0 | (cp >> 12));
    buf[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    cp = std::min<uint32_t>(cp, 0x10FFFF);
    buf[0] = static_cast<char>(0xF0 | (cp >> 18));
    buf[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 4;
  }
  sv::appendText(out, llvm::StringRef(buf, n), line);
}

/// Decodes src[b, e) of one literal; `row` is the 0-indexed source row at b and is
/// advanced past raw newlines.
void decodeSegment(StringValue &out, llvm::StringRef src, size_t b, size_t e, unsigned &row,
                   const LiteralPrefix &p) {
  auto hexValue = [&](size_t at, size_t digits, uint32_t &v) {
    if (at + digits > e)
      return false;
    v = 0;
    for (size_t k = 0; k < digits; ++k) {
      char c = src[at + k];
      if (!llvm::isHexDigit(c))
        return false;
      v = v * 16 + llvm::hexDigitValue(c);
    }
    return true;
  };
  // Characters that are not copied as they are (or, for '\\' in a raw literal, are copied one at
  // a time below anyway).
  auto special = [&](char c) { return c == '\r' || c == '\n' || c == '\\' || (p.format && (c == '{' || c == '}')); };
  size_t i = b;
  while (i < e) {
    char c = src[i];
    unsigned line = row + 1;
    // A run of plain characters goes in at once: what appendChar would do one by one (the run
    // holds no newline, so only its first character can open a line). Kernel sources are long.
    if (!special(c)) {
      size_t run = i + 1;
      while (run < e && !special(src[run]))
        ++run;
      sv::appendText(out, src.slice(i, run), line);
      i = run;
      continue;
    }
    if (c == '\r') { // universal newlines: CRLF and lone CR read as "\n"
      sv::appendChar(out, '\n', line);
      ++row;
      i += (i + 1 < e && src[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    if (c == '\n') {
      sv::appendChar(out, '\n', line);
      ++row;
      ++i;
      continue;
    }
    if (p.format && (c == '{' || c == '}') && i + 1 < e && src[i + 1] == c) {
      sv::appendChar(out, c, line);
      i += 2;
      continue;
    }
    if (c != '\\' || p.raw || i + 1 >= e) {
      sv::appendChar(out, c, line);
      ++i;
      continue;
    }
    char n = src[i + 1];
    size_t used = 2;
    switch (n) {
    case '\n':
      ++row; // line continuation inside the literal: contributes nothing
      break;
    case '\r':
      ++row;
      if (i + 2 < e && src[i + 2] == '\n')
        used = 3;
      break;
    case '\\': sv::appendChar(out, '\\', line); break;
    case '\'': sv::appendChar(out, '\'', line); break;
    case '"': sv::appendChar(out, '"', line); break;
    case 'a': sv::appendChar(out, '\a', line); break;
    case 'b': sv::appendChar(out, '\b', line); break;
    case 'f': sv::appendChar(out, '\f', line); break;
    case 'n': sv::appendChar(out, '\n', line); break;
    case 'r': sv::appendChar(out, '\r', line); break;
    case 't': sv::appendChar(out, '\t', line); break;
    case 'v': sv::appendChar(out, '\v', line); break;
    case 'x': {
      uint32_t v;
      if (hexValue(i + 2, 2, v)) {
        used = 4;
        if (p.bytes)
          sv::appendChar(out, static_cast<char>(v), line);
        else
          appendUtf8(out, v, line);
      } else {
        sv::appendText(out, src.slice(i, i + 2), line);
      }
      break;
    }
    case 'u':
    case 'U': {
      uint32_t v;
      size_t digits = n == 'u' ? 4 : 8;
      if (!p.bytes && hexValue(i + 2, digits, v)) {
        used = 2 + digits;
        appendUtf8(out, v, line);
      } else {
        sv::appendText(out, src.slice(i, i + 2), line);
      }
      break;
    }
    case 'N': {
      // Named unicode escapes need the Unicode name table: leave them out.
      size_t close = src.find('}', i);
      if (!p.bytes && i + 2 < e && src[i + 2] == '{' && close != llvm::StringRef::npos && close < e) {
        used = close + 1 - i;
        out.complete = false;
      } else {
        sv::appendText(out, src.slice(i, i + 2), line);
      }
      break;
    }
    default:
      if (n >= '0' && n <= '7') {
        uint32_t v = 0;
        size_t k = i + 1;
        while (k < e && k < i + 4 && src[k] >= '0' && src[k] <= '7')
          v = v * 8 + static_cast<uint32_t>(src[k++] - '0');
        used = k - i;
        if (p.bytes)
          sv::appendChar(out, static_cast<char>(v & 0xFF), line);
        else
          appendUtf8(out, v, line);
      } else {
        // Unknown escapes keep their backslash; a multi-byte character after it is
        // copied whole by the next iteration.
        sv::appendChar(out, '\\', line);
        used = 1;
      }
    }
    i += used;
  }
}

} // namespace

LiteralPrefix literalPrefix(TSNode stringNode, llvm::StringRef src) {
  LiteralPrefix p;
  TSNode start = ts_node_named_child_count(stringNode) > 0 ? ts_node_named_child(stringNode, 0) : TSNode{};
  if (ts_node_is_null(start) || ts::kind(start) != ts::K::StringStart)
    return p;
  for (char c : ts::text(start, src)) {
    switch (c) {
    case 'r': case 'R': p.raw = true; break;
    case 'b': case 'B': p.bytes = true; break;
    case 'f': case 'F': case 't': case 'T': p.format = true; break;
    default: break;
    }
  }
  return p;
}

StringValue decodeString(TSNode stringNode, llvm::StringRef src, InterpolationFolder fold) {
  StringValue out;
  ts::Children kids = ts::children(stringNode);
  if (kids.empty() || ts::kind(kids.front()) != ts::K::StringStart)
    return out;
  LiteralPrefix p = literalPrefix(stringNode, src);
  TSNode start = kids.front();
  size_t pos = ts::endByte(start);
  size_t end = ts::endByte(stringNode);
  if (ts::kind(kids.back()) == ts::K::StringEnd)
    end = ts::startByte(kids.back());
  end = std::min(end, src.size());
  unsigned row = ts_node_end_point(start).row;
  for (TSNode k : kids) {
    if (ts::kind(k) != ts::K::Interpolation)
      continue;
    size_t ib = ts::startByte(k);
    if (ib < pos || ib > end)
      continue;
    decodeSegment(out, src, pos, ib, row, p);
    if (!fold(k, out, row + 1))
      out.complete = false;
    pos = ts::endByte(k);
    row = ts_node_end_point(k).row;
  }
  if (pos < end)
    decodeSegment(out, src, pos, end, row, p);
  return out;
}

} // namespace kbaudit::py
