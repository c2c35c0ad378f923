#include "expr_summary.h"

#include "expr_names.h"

namespace kbaudit::py {

using ts::K;

namespace {
// Lists of lists of names are plausible (`sources=[[A, B]]`); deeper nesting is not worth
// copying into every fact.
constexpr unsigned kMaxElementDepth = 6;

ExprKind kindOf(K k) {
  switch (k) {
  case K::String:
  case K::ConcatenatedString:
    return ExprKind::String;
  case K::Integer:
  case K::Float:
    return ExprKind::Number;
  case K::True:
  case K::False:
    return ExprKind::Bool;
  case K::None:
    return ExprKind::None;
  case K::Identifier:
    return ExprKind::Name;
  case K::Attribute:
    return ExprKind::Attribute;
  case K::Call:
    return ExprKind::Call;
  case K::List:
    return ExprKind::List;
  case K::Tuple:
  case K::ExpressionList:
    return ExprKind::Tuple;
  case K::Set:
    return ExprKind::Set;
  case K::Dictionary:
    return ExprKind::Dict;
  case K::Subscript:
    return ExprKind::Subscript;
  case K::BinaryOperator:
    return ExprKind::BinaryOp;
  case K::UnaryOperator:
  case K::NotOperator:
    return ExprKind::UnaryOp;
  case K::ComparisonOperator:
    return ExprKind::Comparison;
  case K::BooleanOperator:
    return ExprKind::BoolOp;
  case K::ConditionalExpression:
    return ExprKind::Conditional;
  case K::Lambda:
    return ExprKind::Lambda;
  default:
    return ExprKind::Other;
  }
}
} // namespace

Expr ExprSummarizer::summarize(TSNode node, int scope, unsigned depth) {
  Expr e;
  if (ts::isNull(node))
    return e;
  TSNode n = ts::unparen(node);
  K k = ts::kind(n);
  e.kind = kindOf(k);
  e.text = ts::truncated(ts::text(n, src_));
  e.lines = ts::lines(n);
  ReadNames read = readNames(n, src_);
  e.names = std::move(read.names);
  e.namesTruncated = read.truncated;
  e.root = std::move(read.root);
  e.chain = std::move(read.chain);
  if (k == K::Identifier || k == K::Attribute) {
    e.resolved = resolver_.resolve(n, scope).resolved;
  } else if (k == K::Call) {
    e.resolved = resolver_.resolve(ts::field(n, ts::F::Function), scope).resolved;
  }
  ValuePtr v = eval_.eval(n, scope);
  e.limited = v->limited;
  switch (v->kind) {
  case Value::Kind::Str:
    e.string = v->str;
    break;
  case Value::Kind::Num:
    e.number = v->num;
    break;
  case Value::Kind::Seq:
    if (depth < kMaxElementDepth && (k == K::Identifier || k == K::List || k == K::Tuple || k == K::Set ||
                                      k == K::ExpressionList || k == K::BinaryOperator)) {
      e.elements.reserve(v->items.size());
      // A `*rest` item summarises as written, kind Other: its contents are unknown.
      for (const SeqItem &item : v->items)
        e.elements.push_back(summarize(item.node, item.scope, depth + 1));
      // Items past the evaluator's limit are unknown, not absent: an element that folds to
      // nothing says so to every reader of the list (an embedded source list reports it).
      if (v->truncated) {
        Expr rest;
        rest.limited = true;
        rest.text = "<items past the first " + std::to_string(v->items.size()) + ", not evaluated>";
        rest.lines = e.lines;
        e.elements.push_back(std::move(rest));
      }
    }
    break;
  default:
    break;
  }
  return e;
}

} // namespace kbaudit::py
