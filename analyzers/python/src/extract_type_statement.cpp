// `type(obj).attr = value` at the start of a statement: tree-sitter-python reads it as a
// `type` alias statement (`type <name> = <value>`) whose "name" is `(obj).attr`, so no
// assignment would be recorded for one of the plainest ways to patch a library's class
// (`type(torch.cuda.Event()).elapsed_time = f`). A real alias names an identifier or a
// generic; anything else after `type` is this misreading, and is recorded as the assignment
// it is.

#include "computed_target.h"
#include "extractor.h"

namespace kbaudit::py {

using ts::K;

void Extractor::typeStatement(TSNode n, const Frame &f) {
  ts::Children kids = ts::namedChildren(n);
  if (kids.size() != 2 || ts::kind(kids[0]) != K::Type || ts::kind(kids[1]) != K::Type)
    return;
  ts::Children left = ts::namedChildren(kids[0]);
  ts::Children right = ts::namedChildren(kids[1]);
  if (left.size() != 1 || right.size() != 1)
    return;
  TSNode chain = left[0];
  const K k = ts::kind(chain);
  if (k != K::Attribute && k != K::Subscript)
    return; // `type X = ...`, `type X[T] = ...`: a real alias
  // The head of the chain is the parenthesised argument of `type(...)`.
  TSNode head = chain;
  for (unsigned guard = 0; guard < 256; ++guard) {
    const K hk = ts::kind(head);
    if (hk == K::Attribute)
      head = ts::field(head, ts::F::Object);
    else if (hk == K::Subscript)
      head = ts::field(head, ts::F::Value);
    else if (hk == K::Call)
      head = ts::field(head, ts::F::Function);
    else
      break;
  }
  if (ts::kind(head) != K::ParenthesizedExpression)
    return;
  Assignment a;
  a.kind = k == K::Attribute ? Assignment::TargetKind::Attribute : Assignment::TargetKind::Subscript;
  a.target = ts::truncated("type" + text(chain).str());
  a.resolved = a.target;
  a.op = "=";
  a.value = summarize(right[0], f);
  a.function = f.function.str();
  a.lines = ts::lines(n);
  ComputedTargets(table_, resolver_, eval_, src_).describeTypeTarget(chain, head, f.scope, a);
  out_.assignments.push_back(std::move(a));
  ownAssignment(out_.assignments.size() - 1);
}

} // namespace kbaudit::py
