// LoopBinding facts: `for TARGET in ITERABLE` statements and comprehension clauses bind
// names from the iterable the way an assignment does; rules that follow a value into the
// names it reaches (`for obj in gc.get_objects(): obj.copy_(...)`) need those bindings.

#include "extractor.h"

namespace kbaudit::py {

using ts::K;

namespace {

/// The plain names a loop target binds: `x`, `k, v`, `(i, (a, b))`, `*rest`. Attribute and
/// subscript targets bind no name.
void targetNames(TSNode t, llvm::StringRef src, std::vector<std::string> &out, unsigned depth = 0) {
  t = ts::unparen(t);
  if (ts::isNull(t) || depth > 32)
    return;
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
    return;
  }
}

} // namespace

void Extractor::loopBinding(TSNode target, TSNode iterable, TSNode whole, bool comprehension, const Frame &f) {
  LoopBinding b;
  targetNames(target, src_, b.targets);
  if (b.targets.empty() || ts::isNull(iterable))
    return;
  b.iterable = summarize(iterable, f);
  b.comprehension = comprehension;
  b.function = f.function.str();
  b.lines = ts::lines(whole);
  out_.loopBindings.push_back(std::move(b));
}

void Extractor::comprehension(TSNode n, const Frame &f, unsigned depth) {
  for (TSNode c : ts::namedChildren(n))
    if (ts::tokenType(c) == "for_in_clause")
      loopBinding(ts::field(c, ts::F::Left), ts::field(c, ts::F::Right), n, /*comprehension=*/true, f);
  visitChildren(n, f, depth);
}

} // namespace kbaudit::py
