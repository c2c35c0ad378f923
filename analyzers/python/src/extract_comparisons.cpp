// A branch test's comparisons as structure (py::Comparison), read off the syntax tree while it
// is at hand: rules that ask "is an input's identity compared with stored state" get each side
// summarised like any other expression, instead of splitting the test's text and parsing the
// pieces again.

#include "extractor.h"

#include <algorithm>

namespace kbaudit::py {

using ts::K;

namespace {

// A test with more `and`/`or`/`not`/parentheses than this is not written by hand; past it the
// list is marked truncated rather than silently short.
constexpr size_t kMaxTestNodes = 4096;
constexpr size_t kMaxComparisons = 256;

} // namespace

void Extractor::comparisons(TSNode test, const Frame &f, Branch &b, size_t branchIndex) {
  struct Item {
    TSNode node;
    bool underNot;
  };
  llvm::SmallVector<Item, 16> stack{{test, false}};
  size_t visited = 0;
  while (!stack.empty()) {
    if (++visited > kMaxTestNodes || b.comparisons.size() >= kMaxComparisons) {
      b.comparisonsTruncated = true;
      return;
    }
    const Item item = stack.pop_back_val();
    const TSNode n = item.node;
    switch (ts::kind(n)) {
    case K::ParenthesizedExpression: {
      ts::Children kids = ts::namedChildren(n); // comments are not among them
      if (kids.size() == 1)
        stack.push_back({kids[0], item.underNot});
      break;
    }
    case K::BooleanOperator: // pushed right first: the left side is read first
      stack.push_back({ts::field(n, ts::F::Right), item.underNot});
      stack.push_back({ts::field(n, ts::F::Left), item.underNot});
      break;
    case K::NotOperator:
      stack.push_back({ts::field(n, ts::F::Argument), !item.underNot});
      break;
    case K::NamedExpression: // `(m := a is b)` tests what it binds
      stack.push_back({ts::field(n, ts::F::Value), item.underNot});
      break;
    case K::ComparisonOperator: {
      // Operands and operator tokens alternate; comments may sit between them.
      TSNode prev{};
      llvm::StringRef op;
      for (TSNode c : ts::children(n)) {
        if (ts::kind(c) == K::Comment)
          continue;
        if (!ts_node_is_named(c)) {
          op = ts::tokenType(c);
          continue;
        }
        if (!ts::isNull(prev) && !op.empty()) {
          if (b.comparisons.size() >= kMaxComparisons) {
            b.comparisonsTruncated = true;
            return;
          }
          Comparison cmp;
          cmp.left.value = summarize(prev, f);
          cmp.right.value = summarize(c, f);
          cmp.op = op.str();
          cmp.underNot = item.underNot;
          cmp.lines = ts::lines(n);
          const size_t index = b.comparisons.size();
          pendingOperands_.push_back({branchIndex, index, false, ts::startByte(prev), ts::endByte(prev)});
          pendingOperands_.push_back({branchIndex, index, true, ts::startByte(c), ts::endByte(c)});
          b.comparisons.push_back(std::move(cmp));
        }
        prev = c;
        op = {};
      }
      break;
    }
    default:
      break; // anything else is a truth value of its own, not a comparison of the test
    }
  }
}

void Extractor::attachOperandCalls() {
  for (const PendingOperand &p : pendingOperands_) {
    Branch &b = out_.branches[p.branch];
    Operand &side = p.right ? b.comparisons[p.comparison].right : b.comparisons[p.comparison].left;
    for (size_t i = 0; i < out_.calls.size(); ++i)
      if (callBytes_[i].first >= p.begin && callBytes_[i].second <= p.end && out_.calls[i].function == b.function)
        side.calls.push_back(out_.calls[i]);
  }
  pendingOperands_.clear();
}

} // namespace kbaudit::py
