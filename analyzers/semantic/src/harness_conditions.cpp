#include "kbaudit/semantic/harness_conditions.h"

#include <algorithm>

namespace kbaudit::semantic {
namespace {

bool lastLinkIs(const py::Expr &e, std::string_view name) {
  return !e.chain.empty() && e.chain.back().kind == py::ChainLink::Kind::Attribute && e.chain.back().name == name;
}

bool isConstantString(const py::Expr &e, std::string_view value) {
  return e.string && e.string->complete && e.string->value == value;
}

bool readsState(const py::Expr &e, const SolutionView &s) {
  return std::any_of(e.names.begin(), e.names.end(), [&](const std::string &n) { return s.writtenState.count(n) > 0; });
}

ConditionReading known(bool value, std::string why) {
  return ConditionReading{value ? Outcome::True : Outcome::False, false, std::move(why)};
}

ConditionReading readComparison(const py::CondNode &n, const HarnessView &h, const SolutionView &s) {
  const std::string &op = n.compareOp;
  // `x.device.type == "cuda"`: the harness's inputs live on the GPU.
  if (op == "==" || op == "!=") {
    for (const auto *pair : {&n.left, &n.right}) {
      const py::Expr &side = *pair;
      const py::Expr &other = pair == &n.left ? n.right : n.left;
      if (lastLinkIs(side, "type") && side.chain.size() >= 2 && s.inputs.count(side.root) &&
          side.chain[side.chain.size() - 2].name == "device" && isConstantString(other, "cuda"))
        return known((op == "==") == h.cuda, "the harness passes CUDA tensors");
    }
  }
  if (readsState(n.left, s) || readsState(n.right, s))
    return ConditionReading{Outcome::Unknown, true, {}};
  return {};
}

ConditionReading readAtom(const py::CondNode &n, const HarnessView &h, const SolutionView &s) {
  if (!n.compareOp.empty())
    return readComparison(n, h, s);
  const py::Expr &e = n.atom;
  if (e.kind == py::ExprKind::Bool)
    return known(e.text == "True", {});
  if (e.kind == py::ExprKind::Call) {
    if (e.resolved == "torch.is_grad_enabled")
      return known(h.gradEnabled, "the harness calls under torch.no_grad()");
    if (e.resolved == "torch.cuda.is_available")
      return known(h.cuda, "the harness runs on CUDA");
    if (e.resolved == "torch.is_inference_mode_enabled")
      return known(false, "the harness does not enter inference mode");
  }
  if (e.kind == py::ExprKind::Attribute && !e.root.empty()) {
    const bool input = s.inputs.count(e.root) > 0;
    if (input && lastLinkIs(e, "requires_grad") && e.chain.size() == 1)
      return known(h.inputsRequireGrad, "inputs from get_inputs() do not require grad");
    if (input && lastLinkIs(e, "is_cuda") && e.chain.size() == 1)
      return known(h.cuda, "the harness passes CUDA tensors");
    if (e.root == "self" && e.chain.size() == 1 && lastLinkIs(e, "training")) {
      if (s.evalInConstructor)
        return known(false, "its constructor calls eval(), so `self.training` is False");
      return known(h.training, h.training ? "the harness never calls eval(): the module is in training mode"
                                          : "the harness calls eval()");
    }
  }
  if (readsState(e, s))
    return ConditionReading{Outcome::Unknown, true, {}};
  return {};
}

ConditionReading readNode(const std::vector<py::CondNode> &cond, int i, const HarnessView &h, const SolutionView &s) {
  if (i < 0 || static_cast<std::size_t>(i) >= cond.size())
    return {};
  const py::CondNode &n = cond[static_cast<std::size_t>(i)];
  switch (n.op) {
  case py::CondNode::Op::Atom:
    return readAtom(n, h, s);
  case py::CondNode::Op::Not: {
    ConditionReading r = readNode(cond, n.kids.empty() ? -1 : n.kids[0], h, s);
    r.outcome = negate(r.outcome);
    return r;
  }
  case py::CondNode::Op::And:
  case py::CondNode::Op::Or: {
    // Three-valued: a known False decides `and`, a known True decides `or`.
    const Outcome decides = n.op == py::CondNode::Op::And ? Outcome::False : Outcome::True;
    ConditionReading out{n.op == py::CondNode::Op::And ? Outcome::True : Outcome::False, false, {}};
    for (int k : n.kids) {
      ConditionReading r = readNode(cond, k, h, s);
      out.state = out.state || r.state;
      if (r.outcome == decides)
        return ConditionReading{decides, out.state, r.why};
      if (r.outcome == Outcome::Unknown)
        out.outcome = Outcome::Unknown;
      else if (out.why.empty())
        out.why = r.why;
    }
    return out;
  }
  }
  return {};
}

} // namespace

Outcome negate(Outcome o) {
  return o == Outcome::True ? Outcome::False : o == Outcome::False ? Outcome::True : Outcome::Unknown;
}

SolutionView solutionView(const py::PythonFacts &facts, const std::set<std::string> &inputs) {
  SolutionView v;
  v.inputs = inputs;
  std::set<std::string, std::less<>> moduleNames;
  for (const py::Assignment &a : facts.assignments)
    if (a.kind == py::Assignment::TargetKind::Name && a.function.empty())
      moduleNames.insert(a.target);
  for (const py::Assignment &a : facts.assignments) {
    if (a.kind == py::Assignment::TargetKind::SelfAttribute)
      v.writtenState.insert(a.target);
    else if (a.kind == py::Assignment::TargetKind::Name && !a.function.empty() && moduleNames.count(a.target))
      v.writtenState.insert(a.target);
  }
  for (const py::Call &c : facts.calls) {
    if (!c.function.ends_with(".__init__") || c.receiver != "self")
      continue;
    const py::Argument *mode = c.positionalArg(0);
    if (c.method == "eval" || (c.method == "train" && mode && mode->value.kind == py::ExprKind::Bool &&
                               mode->value.text == "False"))
      v.evalInConstructor = true;
  }
  return v;
}

ConditionReading readCondition(const py::Branch &b, const HarnessView &harness, const SolutionView &solution) {
  if (b.cond.empty())
    return {};
  return readNode(b.cond, 0, harness, solution);
}

} // namespace kbaudit::semantic
