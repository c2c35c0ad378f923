#include "kbaudit/semantic/int4_unpack.h"

namespace kbaudit::semantic {

bool mentionsUnpack(std::string_view text) {
  for (std::string_view op : {">> 4", ">>4", "& 0xF", "&0xF", "& 0xf", "&0xf", "& 15", "bitwise_and", "bitwise_right_shift",
                              "lop3", "prmt"})
    if (text.find(op) != std::string_view::npos)
      return true;
  return false;
}

bool kernelMentionsUnpack(const Facts &f, const kernels::Kernel &k) {
  return k.lines.valid() && mentionsUnpack(f.source.lines(k.lines.begin, k.lines.end));
}

} // namespace kbaudit::semantic
