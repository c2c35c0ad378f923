#include "kbaudit/source/source_encoding.h"
#include "kbaudit/source/utf8.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <map>

#include <iconv.h>

namespace kbaudit {

namespace {

/// encodings.normalize_encoding, then lower-case: runs of other characters than letters,
/// digits and '.' become one '_'.
std::string normalize(std::string_view name) {
  std::string out;
  bool pendingUnderscore = false;
  for (char c : name) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.';
    if (!keep) {
      pendingUnderscore = !out.empty();
      continue;
    }
    if (pendingUnderscore)
      out += '_';
    pendingUnderscore = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

/// CPython's encodings/aliases.py for the codecs a source file can use, plus how iconv names them.
/// Codecs CPython refuses for source (utf_16, utf_32: not ASCII-compatible; rot13, hex, base64,
/// zlib, punycode: not text codecs) are deliberately absent, so they are reported unknown.
struct Codec {
  std::string python;
  std::string iconv; ///< "": decoded here (UTF-8 family, the escape codecs)
};

const std::map<std::string, Codec> &codecTable() {
  static const std::map<std::string, Codec> table = [] {
    std::map<std::string, Codec> t;
    const auto add = [&](const Codec &c, std::initializer_list<const char *> aliases) {
      t.emplace(c.python, c);
      for (const char *a : aliases)
        t.emplace(a, c);
    };
    add({"utf_8", ""}, {"u8", "utf", "utf8", "utf8_ucs2", "utf8_ucs4", "cp65001"});
    add({"utf_8_sig", ""}, {});
    add({"unicode_escape", ""}, {});
    add({"raw_unicode_escape", ""}, {});
    add({"utf_7", "UTF-7"}, {"u7", "utf7", "unicode_1_1_utf_7"});
    add({"ascii", "ASCII"}, {"646", "ansi_x3.4_1968", "ansi_x3_4_1968", "ansi_x3.4_1986", "cp367", "csascii",
                             "ibm367", "iso646_us", "iso_646.irv_1991", "iso_ir_6", "us", "us_ascii"});
    add({"latin_1", "ISO-8859-1"}, {"8859", "cp819", "csisolatin1", "ibm819", "iso8859", "iso8859_1", "iso_8859_1",
                                    "iso_8859_1_1987", "iso_ir_100", "l1", "latin", "latin1"});
    add({"cp1252", "CP1252"}, {"windows_1252", "1252"});
    add({"cp1250", "CP1250"}, {"windows_1250", "1250"});
    add({"cp1251", "CP1251"}, {"windows_1251", "1251"});
    add({"cp437", "CP437"}, {"437", "ibm437"});
    add({"cp850", "CP850"}, {"850", "ibm850"});
    add({"cp037", "CP037"}, {"ibm037", "ibm039"});
    add({"cp500", "CP500"}, {"ibm500", "ebcdic_cp_be", "ebcdic_cp_ch"});
    add({"shift_jis", "SHIFT_JIS"}, {"csshiftjis", "shiftjis", "sjis", "s_jis"});
    add({"cp932", "CP932"}, {"932", "ms932", "mskanji", "ms_kanji"});
    add({"euc_jp", "EUC-JP"}, {"eucjp", "ujis", "u_jis"});
    add({"euc_kr", "EUC-KR"}, {"euckr", "korean", "ksc5601", "ks_c_5601", "ks_c_5601_1987", "ksx1001", "ks_x_1001"});
    add({"gb2312", "GB2312"}, {"chinese", "csiso58gb231280", "euc_cn", "euccn", "eucgb2312_cn", "gb2312_1980",
                               "gb2312_80", "iso_ir_58"});
    add({"gbk", "GBK"}, {"936", "cp936", "ms936"});
    add({"gb18030", "GB18030"}, {"gb18030_2000"});
    add({"big5", "BIG5"}, {"big5_tw", "csbig5"});
    add({"big5hkscs", "BIG5-HKSCS"}, {"big5_hkscs", "hkscs"});
    add({"koi8_r", "KOI8-R"}, {"cskoi8r"});
    add({"koi8_u", "KOI8-U"}, {});
    add({"mac_roman", "MACINTOSH"}, {"macroman", "macintosh"});
    add({"iso2022_jp", "ISO-2022-JP"}, {"csiso2022jp", "iso2022jp", "iso_2022_jp"});
    for (int n : {2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16}) {
      const Codec c{"iso8859_" + std::to_string(n), "ISO-8859-" + std::to_string(n)};
      t.emplace(c.python, c);
      t.emplace("iso_8859_" + std::to_string(n), c);
      t.emplace("iso8859" + std::to_string(n), c);
    }
    return t;
  }();
  return table;
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// `count` hex digits at s[i..]; nullopt when there are fewer.
std::optional<std::uint32_t> hexRun(std::string_view s, std::size_t i, std::size_t count) {
  if (i + count > s.size())
    return std::nullopt;
  std::uint32_t v = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const int d = hexDigit(s[i + k]);
    if (d < 0)
      return std::nullopt;
    v = v * 16 + static_cast<std::uint32_t>(d);
  }
  return v;
}

/// Python's `unicode_escape` (raw = false) and `raw_unicode_escape` (raw = true) decoders:
/// bytes are Latin-1, backslash escapes are decoded. Returns "" in `error` on success.
std::string decodeEscapes(std::string_view s, bool raw, std::string &error) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c != '\\' || i + 1 >= s.size()) {
      utf8Append(out, c);
      ++i;
      continue;
    }
    if (raw) {
      // Only \u and \U are escapes, and only after an odd run of backslashes.
      std::size_t run = 0;
      while (i + run < s.size() && s[i + run] == '\\')
        ++run;
      const std::size_t after = i + run;
      const bool escape = run % 2 == 1 && after < s.size() && (s[after] == 'u' || s[after] == 'U');
      out.append(run - (escape ? 1 : 0), '\\');
      i = after;
      if (!escape)
        continue;
      const std::size_t digits = s[after] == 'u' ? 4 : 8;
      const auto v = hexRun(s, after + 1, digits);
      if (!v || *v > 0x10FFFF) {
        error = "truncated or invalid \\" + std::string(1, s[after]) + " escape at byte " + std::to_string(after - 1);
        return {};
      }
      utf8Append(out, *v);
      i = after + 1 + digits;
      continue;
    }
    const char e = s[i + 1];
    std::size_t next = i + 2;
    switch (e) {
    case '\n': break; // line continuation: both bytes vanish
    case '\\': out += '\\'; break;
    case '\'': out += '\''; break;
    case '"': out += '"'; break;
    case 'a': out += '\a'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case 't': out += '\t'; break;
    case 'v': out += '\v'; break;
    case 'x':
    case 'u':
    case 'U': {
      const std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      const auto v = hexRun(s, i + 2, digits);
      if (!v || *v > 0x10FFFF) {
        error = "truncated or invalid \\" + std::string(1, e) + " escape at byte " + std::to_string(i);
        return {};
      }
      utf8Append(out, *v);
      next = i + 2 + digits;
      break;
    }
    case 'N':
      error = "a \\N{...} named escape at byte " + std::to_string(i) + " (kbaudit does not decode names)";
      return {};
    default:
      if (e >= '0' && e <= '7') {
        std::uint32_t v = 0;
        std::size_t k = i + 1;
        while (k < s.size() && k < i + 4 && s[k] >= '0' && s[k] <= '7')
          v = v * 8 + static_cast<std::uint32_t>(s[k++] - '0');
        utf8Append(out, v);
        next = k;
      } else {
        // Unknown escapes stay as written (Python warns and keeps them).
        out += '\\';
        next = i + 1;
      }
    }
    i = next;
  }
  return out;
}

std::string decodeIconv(std::string_view s, const char *from, std::string &error) {
  iconv_t cd = ::iconv_open("UTF-8", from);
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    error = std::string("this system's iconv has no ") + from + " decoder";
    return {};
  }
  std::string out;
  std::string buffer(4096, '\0');
  char *in = const_cast<char *>(s.data());
  std::size_t inLeft = s.size();
  for (;;) {
    char *dst = buffer.data();
    std::size_t dstLeft = buffer.size();
    const std::size_t rc = ::iconv(cd, inLeft ? &in : nullptr, &inLeft, &dst, &dstLeft);
    out.append(buffer.data(), buffer.size() - dstLeft);
    if (rc != static_cast<std::size_t>(-1)) {
      if (inLeft == 0) {
        // Flush the shift state (UTF-7, ISO-2022) once everything is consumed.
        dst = buffer.data();
        dstLeft = buffer.size();
        ::iconv(cd, nullptr, nullptr, &dst, &dstLeft);
        out.append(buffer.data(), buffer.size() - dstLeft);
        break;
      }
      continue;
    }
    if (errno == E2BIG)
      continue;
    error = std::string(errno == EILSEQ ? "bytes invalid in " : "bytes cut short in ") + from + " at offset " +
            std::to_string(s.size() - inLeft);
    out.clear();
    break;
  }
  ::iconv_close(cd);
  return out;
}

/// tokenize.py's cookie_re on one line: `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`.
std::optional<std::string> codingSpec(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t\f");
  if (i == std::string_view::npos || line[i] != '#')
    return std::nullopt;
  for (std::size_t at = line.find("coding", i); at != std::string_view::npos; at = line.find("coding", at + 1)) {
    std::size_t k = at + 6;
    if (k >= line.size() || (line[k] != ':' && line[k] != '='))
      continue;
    ++k;
    while (k < line.size() && (line[k] == ' ' || line[k] == '\t'))
      ++k;
    std::size_t end = k;
    while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '-' ||
                                 line[end] == '_' || line[end] == '.'))
      ++end;
    if (end > k)
      return std::string(line.substr(k, end - k));
  }
  return std::nullopt;
}

bool blankOrComment(std::string_view line) {
  const std::size_t i = line.find_first_not_of(" \t\f");
  return i == std::string_view::npos || line[i] == '#';
}

/// The first two lines, split as Python splits them (LF, CRLF or a lone CR ends a line).
std::array<std::string_view, 2> firstLines(std::string_view bytes) {
  std::array<std::string_view, 2> lines{};
  std::size_t start = 0;
  for (std::string_view &line : lines) {
    if (start >= bytes.size())
      break;
    const std::size_t end = bytes.find_first_of("\r\n", start);
    line = bytes.substr(start, (end == std::string_view::npos ? bytes.size() : end) - start);
    if (end == std::string_view::npos)
      break;
    start = end + (bytes[end] == '\r' && end + 1 < bytes.size() && bytes[end + 1] == '\n' ? 2 : 1);
  }
  return lines;
}

} // namespace

std::optional<std::string> pythonSourceCodec(std::string_view declared) {
  std::string name = normalize(declared);
  // tokenizer.c's get_normal_name folds these before the codec lookup.
  if (name == "utf_8" || name.rfind("utf_8_", 0) == 0)
    name = name == "utf_8_sig" ? "utf_8_sig" : "utf_8";
  else if (name == "latin_1" || name == "iso_8859_1" || name == "iso_latin_1" || name.rfind("latin_1_", 0) == 0 ||
           name.rfind("iso_8859_1_", 0) == 0 || name.rfind("iso_latin_1_", 0) == 0)
    name = "latin_1";
  const auto &table = codecTable();
  if (auto it = table.find(name); it != table.end())
    return it->second.python;
  return std::nullopt;
}

SourceDecoding decodePythonSource(std::string_view bytes) {
  SourceDecoding d;
  const bool bom = bytes.substr(0, 3) == "\xEF\xBB\xBF";
  if (bom) {
    d.bomBytes = 3;
    bytes.remove_prefix(3);
  }
  const auto lines = firstLines(bytes);
  std::optional<std::string> spec = codingSpec(lines[0]);
  d.line = spec ? 1 : 0;
  if (!spec && blankOrComment(lines[0]) && (spec = codingSpec(lines[1])))
    d.line = 2;
  if (!spec) {
    d.codec = "utf_8";
    return d;
  }
  d.declared = *spec;
  const std::optional<std::string> codec = pythonSourceCodec(*spec);
  if (!codec) {
    d.error = "line " + std::to_string(d.line) + " declares the coding `" + *spec +
              "`, which Python cannot decode source with (or kbaudit does not know): the file is not read";
    return d;
  }
  d.codec = *codec;
  if (bom && d.codec != "utf_8" && d.codec != "utf_8_sig") {
    d.error = "a UTF-8 byte-order mark with the coding `" + *spec + "` (Python rejects the file)";
    return d;
  }
  if (d.codec == "utf_8" || d.codec == "utf_8_sig") {
    if (d.codec == "utf_8_sig" && !bom && bytes.substr(0, 3) == "\xEF\xBB\xBF")
      d.bomBytes = 3;
    return d;
  }
  const Codec &c = codecTable().at(d.codec);
  std::string error;
  std::string text = !c.iconv.empty() ? decodeIconv(bytes, c.iconv.c_str(), error)
                             : decodeEscapes(bytes, d.codec == "raw_unicode_escape", error);
  if (!error.empty()) {
    d.error = "the file declares the coding `" + *spec + "` but does not decode with it: " + error;
    return d;
  }
  d.utf8 = std::move(text);
  return d;
}

} // namespace kbaudit
