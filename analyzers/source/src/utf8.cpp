#include "kbaudit/source/utf8.h"

// utfcpp (Debian's libutfcpp-dev, header-only) decides what a valid sequence is: overlong forms,
// surrogates, code points above U+10FFFF and truncated sequences are invalid.
#include <utf8cpp/utf8.h>

#include <iterator>

namespace kbaudit {

std::size_t utf8Decode(std::string_view s, std::size_t i, std::uint32_t &cp) {
  if (i >= s.size())
    return 0;
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) { // the common case, without the library's iterator dance
    cp = c;
    return 1;
  }
  std::string_view::const_iterator it = s.begin() + static_cast<std::ptrdiff_t>(i);
  try {
    cp = utf8::next(it, s.end());
  } catch (const utf8::exception &) {
    return 0;
  }
  return static_cast<std::size_t>(it - s.begin()) - i;
}

void utf8Append(std::string &out, std::uint32_t cp) {
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) // no UTF-8 form
    cp = 0xFFFD;
  utf8::append(cp, std::back_inserter(out));
}

} // namespace kbaudit
