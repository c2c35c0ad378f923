// Loop facts: the names a `for` statement or a comprehension's `for ... in ...` clause binds
// to each item of an iterable (LoopBinding), so a rule can follow a collection into its items.

#include "extractor.h"

namespace kbaudit::py {

using ts::K;

namespace {

void targetNames(TSNode t, llvm::StringRef src, std::vector<std::string> &out, unsigned depth) {
  if (ts::isNull(t) || depth > 16)
    return;
  t = ts::unparen(t);
  switch (ts::kind(t)) {
  case K::Identifier:
    out.push_back(ts::text(t, src).str());
    return;
  case K::PatternList:
  case K::TuplePattern:
  case K::ListPattern:
  case K::ExpressionList:
  case K::Tuple:
  case K::List:
  case K::ListSplatPattern:
  case K::ListSplat:
    for (TSNode c : ts::namedChildren(t))
      targetNames(c, src, out, depth + 1);
    return;
  default:
    return; // `for self.i in ...`, `for a[k] in ...`: no name is bound
  }
}

} // namespace

void Extractor::loopBinding(TSNode left, TSNode right, TSNode whole, bool comprehension, const Frame &f) {
  LoopBinding b;
  targetNames(left, src_, b.targets, 0);
  if (b.targets.empty() || ts::isNull(right))
    return;
  b.iterable = summarize(right, f);
  b.comprehension = comprehension;
  b.function = f.function.str();
  b.lines = ts::lines(whole);
  out_.loops.push_back(std::move(b));
}

void Extractor::comprehensionLoops(TSNode n, const Frame &f) {
  for (TSNode c : ts::namedChildren(n))
    if (ts::tokenType(c) == "for_in_clause")
      loopBinding(ts::field(c, ts::F::Left), ts::field(c, ts::F::Right), n, true, f);
}

} // namespace kbaudit::py
