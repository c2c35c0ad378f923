// A branch test as a boolean formula (Branch::cond): `not`, `and`, `or` over atoms, each atom
// an expression summary or a two-operand comparison. The semantic layer evaluates it under what
// the harness is known to do (inputs that do not require grad, a module in training mode) to
// tell which arm the graded call takes.

#include "extractor.h"

namespace kbaudit::py {

using ts::K;

namespace {
// A test is short; a formula past this many nodes is cut at an opaque atom.
constexpr size_t kMaxCondNodes = 48;
} // namespace

int Extractor::conditionNode(TSNode n, const Frame &f, std::vector<CondNode> &out, unsigned depth) {
  n = ts::unparen(n);
  const int index = static_cast<int>(out.size());
  out.emplace_back();
  const bool budget = out.size() < kMaxCondNodes && depth < 16;
  switch (budget ? ts::kind(n) : K::Other) {
  case K::NotOperator: {
    out[index].op = CondNode::Op::Not;
    const int kid = conditionNode(ts::field(n, ts::F::Argument), f, out, depth + 1);
    out[index].kids.push_back(kid);
    return index;
  }
  case K::BooleanOperator: {
    const llvm::StringRef op = ts::tokenType(ts::field(n, ts::F::Operator));
    out[index].op = op == "and" ? CondNode::Op::And : CondNode::Op::Or;
    for (TSNode side : {ts::field(n, ts::F::Left), ts::field(n, ts::F::Right)}) {
      const int kid = conditionNode(side, f, out, depth + 1);
      out[index].kids.push_back(kid);
    }
    return index;
  }
  case K::NamedExpression:
    out.pop_back();
    return conditionNode(ts::field(n, ts::F::Value), f, out, depth + 1);
  case K::ComparisonOperator: {
    ts::Children operands = ts::namedChildren(n);
    out[index].atom = summarize(n, f);
    if (operands.size() == 2) {
      // The operator is what lies between the operands ("is not", "not in", "=="), spaces collapsed.
      const llvm::StringRef between = src_.slice(ts::endByte(operands[0]), ts::startByte(operands[1]));
      llvm::SmallVector<llvm::StringRef, 4> words;
      between.split(words, ' ', -1, /*KeepEmpty=*/false);
      std::string op;
      for (llvm::StringRef word : words)
        if (!(word = word.trim()).empty())
          op += (op.empty() ? "" : " ") + word.str();
      out[index].compareOp = std::move(op);
      out[index].left = summarize(operands[0], f);
      out[index].right = summarize(operands[1], f);
    }
    return index;
  }
  default:
    out[index].atom = summarize(n, f);
    return index;
  }
}

} // namespace kbaudit::py
