// The program model the Python front end publishes (py::Stmt, Branch::cond, Call::receiverCall):
// statements nest as the code does, facts point back at the statement that evaluates them, and
// calls come in evaluation order.

#include "python_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace kbaudit::py {
namespace {

using testing::src;

const Stmt &stmtOf(const PythonFacts &f, const Call &c) {
  EXPECT_GE(c.stmt, 0) << c.callee;
  return f.statements.at(static_cast<size_t>(c.stmt));
}

const Call &call(const PythonFacts &f, std::string_view callee) {
  for (const Call &c : f.calls)
    if (c.callee == callee)
      return c;
  ADD_FAILURE() << "no call " << callee;
  static const Call none;
  return none;
}

TEST(PythonStatements, WithBlockHoldsItsBodyAndTheItemsCall) {
  const PythonFacts f = analyze(src(R"PY(
import torch
class M(torch.nn.Module):
    def forward(self, x):
        with torch.cuda.stream(self.s):
            y = torch.relu(x)
            return y
        return x
)PY"));
  const Call &item = call(f, "torch.cuda.stream");
  const Stmt &with = stmtOf(f, item);
  ASSERT_EQ(with.kind, StmtKind::With);
  ASSERT_EQ(with.items.size(), 1u);
  EXPECT_EQ(f.calls.at(static_cast<size_t>(with.items[0].call)).callee, "torch.cuda.stream");
  const Stmt &inner = stmtOf(f, call(f, "torch.relu"));
  ASSERT_GE(inner.parent, 0);
  EXPECT_EQ(&f.statements.at(static_cast<size_t>(inner.parent)), &with);
  ASSERT_EQ(with.blocks.size(), 1u);
  EXPECT_EQ(with.blocks[0].statements.size(), 2u); // the assignment and the return inside
  const Function *fn = f.findFunction("M.forward");
  ASSERT_NE(fn, nullptr);
  ASSERT_GE(fn->stmt, 0);
  const Stmt &def = f.statements.at(static_cast<size_t>(fn->stmt));
  EXPECT_EQ(def.kind, StmtKind::Def);
  EXPECT_EQ(def.def, "M.forward");
  ASSERT_FALSE(def.blocks.empty());
  EXPECT_EQ(def.blocks[0].role, StmtBlock::Role::Body);
  EXPECT_EQ(def.blocks[0].statements.size(), 2u); // the with and the last return
}

TEST(PythonStatements, IfArmsAndHandlersKeepTheirRolesAndLinks) {
  const PythonFacts f = analyze(src(R"PY(
def f(x):
    if x.requires_grad:
        a()
    elif x.is_cuda:
        b()
    else:
        c()
    try:
        d()
    except ValueError:
        e()
    finally:
        g()
)PY"));
  const Stmt &ifs = f.statements.at(static_cast<size_t>(stmtOf(f, call(f, "a")).parent));
  ASSERT_EQ(ifs.kind, StmtKind::If);
  ASSERT_EQ(ifs.blocks.size(), 3u);
  EXPECT_EQ(ifs.blocks[0].role, StmtBlock::Role::Then);
  EXPECT_EQ(ifs.blocks[1].role, StmtBlock::Role::Elif);
  EXPECT_EQ(ifs.blocks[2].role, StmtBlock::Role::Else);
  EXPECT_EQ(ifs.blocks[1].arm, 1);
  ASSERT_GE(ifs.branch, 0);
  EXPECT_EQ(f.branches.at(static_cast<size_t>(ifs.branch)).condition, "x.requires_grad");
  EXPECT_EQ(f.branches.at(static_cast<size_t>(ifs.branch + 1)).condition, "x.is_cuda");
  const Stmt &tr = f.statements.at(static_cast<size_t>(stmtOf(f, call(f, "d")).parent));
  ASSERT_EQ(tr.kind, StmtKind::Try);
  ASSERT_EQ(tr.blocks.size(), 3u);
  EXPECT_EQ(tr.blocks[1].role, StmtBlock::Role::Except);
  ASSERT_GE(tr.blocks[1].handler, 0);
  EXPECT_EQ(f.tryHandlers.at(static_cast<size_t>(tr.blocks[1].handler)).exceptionTypes.at(0), "ValueError");
  EXPECT_EQ(tr.blocks[2].role, StmtBlock::Role::Finally);
}

TEST(PythonStatements, CallsInEvaluationOrderAndTheirReceiverCall) {
  const PythonFacts f = analyze(src(R"PY(
import torch
def f(s):
    torch.cuda.current_stream().wait_stream(g(h(s)))
)PY"));
  const Stmt &st = stmtOf(f, call(f, "h"));
  std::vector<std::string> order;
  for (int i : st.calls)
    order.push_back(f.calls.at(static_cast<size_t>(i)).callee);
  // h before g (its argument); the receiver's call before the method called on its result.
  const auto pos = [&](std::string_view c) { return std::find(order.begin(), order.end(), c) - order.begin(); };
  EXPECT_LT(pos("h"), pos("g"));
  EXPECT_LT(pos("torch.cuda.current_stream"), pos("torch.cuda.current_stream().wait_stream"));
  const Call &wait = call(f, "torch.cuda.current_stream().wait_stream");
  ASSERT_GE(wait.receiverCall, 0);
  EXPECT_EQ(f.calls.at(static_cast<size_t>(wait.receiverCall)).resolved, "torch.cuda.current_stream");
}

TEST(PythonStatements, BranchTestAsAFormula) {
  const PythonFacts f = analyze(src(R"PY(
def f(self, x):
    if not x.requires_grad and (self.graph is None or torch.is_grad_enabled()):
        pass
)PY"));
  ASSERT_FALSE(f.branches.empty());
  const std::vector<CondNode> &c = f.branches[0].cond;
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].op, CondNode::Op::And);
  ASSERT_EQ(c[0].kids.size(), 2u);
  const CondNode &notNode = c.at(static_cast<size_t>(c[0].kids[0]));
  EXPECT_EQ(notNode.op, CondNode::Op::Not);
  EXPECT_EQ(c.at(static_cast<size_t>(notNode.kids.at(0))).atom.text, "x.requires_grad");
  const CondNode &orNode = c.at(static_cast<size_t>(c[0].kids[1]));
  EXPECT_EQ(orNode.op, CondNode::Op::Or);
  const CondNode &is = c.at(static_cast<size_t>(orNode.kids.at(0)));
  EXPECT_EQ(is.compareOp, "is");
  EXPECT_EQ(is.left.text, "self.graph");
  EXPECT_EQ(is.right.kind, ExprKind::None);
}

TEST(PythonStatements, DelegatingDefKeepsTheHelperBodyApart) {
  const PythonFacts f = analyze(src(R"PY(
def _impl(self, x):
    return x * 2
class M:
    def forward(self, x):
        return _impl(self, x)
)PY"));
  const Function *fn = f.findFunction("M.forward");
  ASSERT_NE(fn, nullptr);
  const Stmt &def = f.statements.at(static_cast<size_t>(fn->stmt));
  ASSERT_EQ(def.blocks.size(), 2u);
  EXPECT_EQ(def.blocks[0].role, StmtBlock::Role::Body);
  EXPECT_EQ(def.blocks[1].role, StmtBlock::Role::Inlined);
}

} // namespace
} // namespace kbaudit::py
