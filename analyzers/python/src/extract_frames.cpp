// FrameAttribute facts: attributes of interpreter frames, tracebacks and generators used on
// any object. A solution that reaches its caller's namespace does it through these names
// (`sys._getframe(1).f_locals`, `inspect.currentframe().f_back.f_globals`), and the chains
// rarely start at an import, so NameRefs do not show them.

#include "extractor.h"

#include <llvm/ADT/STLExtras.h>

namespace kbaudit::py {

using ts::K;

namespace {

// The interpreter's own attribute names (frame, traceback, generator and coroutine objects).
constexpr llvm::StringRef kFrameAttributes[] = {"f_back",  "f_builtins", "f_code",   "f_globals", "f_lasti",
                                                "f_lineno", "f_locals",  "f_trace",  "tb_frame",  "tb_next",
                                                "gi_frame", "cr_frame",  "ag_frame"};

} // namespace

void Extractor::frameAttributes(TSNode top, const Frame &f, TSNode written) {
  const bool anyWritten = !ts::isNull(written);
  TSNode cur = ts::unparen(top);
  for (unsigned guard = 0; ts::kind(cur) == K::Attribute && guard < 1024; ++guard) {
    TSNode attr = ts::field(cur, ts::F::AttributeF);
    TSNode obj = ts::field(cur, ts::F::Object);
    if (llvm::is_contained(kFrameAttributes, text(attr))) {
      FrameAttribute fa;
      fa.attribute = text(attr).str();
      fa.object = ts::truncated(text(obj));
      fa.resolved = resolver_.resolve(cur, f.scope).resolved;
      fa.written = anyWritten && ts::key(ts::unparen(written)) == ts::key(cur);
      fa.function = f.function.str();
      fa.lines = ts::lines(cur);
      out_.frameAttributes.push_back(std::move(fa));
    }
    cur = ts::unparen(obj);
  }
}

} // namespace kbaudit::py
