#include "kbaudit/semantic/harness_conditions.h"
#include "kbaudit/semantic/expr_query.h"

#include <algorithm>
#include <map>
#include <optional>

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

/// The truth of a literal: True/False, None, a number.
std::optional<bool> literalTruth(const py::Expr &e) {
  if (std::optional<bool> b = boolLiteral(e))
    return b;
  if (e.kind == py::ExprKind::None)
    return false;
  if (e.kind == py::ExprKind::Number && e.number)
    return *e.number != 0;
  return std::nullopt;
}

ConditionReading readAtom(const py::CondNode &n, const HarnessView &h, const SolutionView &s, const std::string &fn,
                          int depth);

/// The value an atom names: a constructor's literal, or a local bound once.
const py::Expr *boundValue(const py::Expr &e, const SolutionView &s, const std::string &fn) {
  const std::string &name = e.resolved.empty() ? e.text : e.resolved;
  if (auto it = s.constants.find(name); it != s.constants.end())
    return &it->second;
  if (e.kind == py::ExprKind::Name)
    if (auto it = s.locals.find(fn + "\n" + name); it != s.locals.end())
      return &it->second;
  return nullptr;
}

ConditionReading readAtom(const py::CondNode &n, const HarnessView &h, const SolutionView &s, const std::string &fn,
                          int depth) {
  if (!n.compareOp.empty()) {
    // `self.graph is None` with a constant `self.graph`.
    if ((n.compareOp == "is" || n.compareOp == "is not") && n.right.kind == py::ExprKind::None)
      if (const py::Expr *v = boundValue(n.left, s, fn))
        if (v->kind == py::ExprKind::None || literalTruth(*v))
          return known((v->kind == py::ExprKind::None) == (n.compareOp == "is"), {});
    return readComparison(n, h, s);
  }
  const py::Expr &e = n.atom;
  if (depth < 4 && (e.kind == py::ExprKind::Name || e.kind == py::ExprKind::Attribute))
    if (const py::Expr *v = boundValue(e, s, fn)) {
      if (std::optional<bool> t = literalTruth(*v))
        return known(*t, {});
      py::CondNode bound;
      bound.atom = *v;
      return readAtom(bound, h, s, fn, depth + 1);
    }
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

ConditionReading readNode(const std::vector<py::CondNode> &cond, int i, const HarnessView &h, const SolutionView &s,
                          const std::string &fn) {
  if (i < 0 || static_cast<std::size_t>(i) >= cond.size())
    return {};
  const py::CondNode &n = cond[static_cast<std::size_t>(i)];
  switch (n.op) {
  case py::CondNode::Op::Atom:
    return readAtom(n, h, s, fn, 0);
  case py::CondNode::Op::Not: {
    ConditionReading r = readNode(cond, n.kids.empty() ? -1 : n.kids[0], h, s, fn);
    r.outcome = negate(r.outcome);
    return r;
  }
  case py::CondNode::Op::And:
  case py::CondNode::Op::Or: {
    // Three-valued: a known False decides `and`, a known True decides `or`.
    const Outcome decides = n.op == py::CondNode::Op::And ? Outcome::False : Outcome::True;
    ConditionReading out{n.op == py::CondNode::Op::And ? Outcome::True : Outcome::False, false, {}};
    for (int k : n.kids) {
      ConditionReading r = readNode(cond, k, h, s, fn);
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

bool entersEvalMode(const py::Call &c) {
  const py::Argument *mode = c.positionalArg(0);
  return c.method == "eval" || (c.method == "train" && mode && boolLiteral(mode->value) == false);
}

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
  std::map<std::string, int> selfWrites, localWrites;
  for (const py::Assignment &a : facts.assignments) {
    const bool constructor = a.function.ends_with(".__init__");
    if (a.kind == py::Assignment::TargetKind::SelfAttribute) {
      ++selfWrites[a.target];
      if (!constructor)
        v.writtenState.insert(a.target);
    } else if (a.kind == py::Assignment::TargetKind::Subscript && !constructor && a.target.starts_with("self.")) {
      // `self.graphs[key] = g` outside the constructor writes `self.graphs`.
      v.writtenState.insert(a.target.substr(0, a.target.find('[')));
    } else if (a.kind == py::Assignment::TargetKind::Name && !a.function.empty()) {
      ++localWrites[a.function + "\n" + a.target];
      if (moduleNames.count(a.target))
        v.writtenState.insert(a.target);
    }
  }
  for (const py::Assignment &a : facts.assignments) {
    if (a.kind == py::Assignment::TargetKind::SelfAttribute && a.function.ends_with(".__init__") &&
        selfWrites[a.target] == 1 && a.op == "=" && literalTruth(a.value))
      v.constants.emplace(a.target, a.value);
    if (a.kind == py::Assignment::TargetKind::SelfAttribute && a.function.ends_with(".__init__") &&
        selfWrites[a.target] == 1 && a.op == "=" && a.value.kind == py::ExprKind::None)
      v.constants.emplace(a.target, a.value);
    if (a.kind == py::Assignment::TargetKind::Name && !a.function.empty() && a.op == "=" &&
        localWrites[a.function + "\n" + a.target] == 1)
      v.locals.emplace(a.function + "\n" + a.target, a.value);
  }
  // A container the solution fills in place (`self.cache.setdefault(k, g)`) is state too.
  for (const py::Call &c : facts.calls)
    if (!c.function.ends_with(".__init__") && c.receiver.starts_with("self.") &&
        (c.method == "setdefault" || c.method == "update" || c.method == "append" || c.method == "__setitem__"))
      v.writtenState.insert(c.receiver);
  for (const py::Call &c : facts.calls) {
    if (!c.function.ends_with(".__init__") || c.receiver != "self")
      continue;
    if (entersEvalMode(c))
      v.evalInConstructor = true;
  }
  return v;
}

ConditionReading readCondition(const py::Branch &b, const HarnessView &harness, const SolutionView &solution) {
  if (b.cond.empty())
    return {};
  return readNode(b.cond, 0, harness, solution, b.function);
}

} // namespace kbaudit::semantic
