#include "kbaudit/semantic/graded_path.h"


namespace kbaudit::semantic {
namespace {

const py::Branch *armTest(const py::PythonFacts &py, const py::Stmt &ifStmt, int arm) {
  if (ifStmt.branch < 0 || arm < 0)
    return nullptr;
  const std::size_t i = static_cast<std::size_t>(ifStmt.branch + arm);
  return i < py.branches.size() ? &py.branches[i] : nullptr;
}

std::string blockedBy(const py::Branch &b, const ConditionReading &r, bool wanted) {
  return "under `" + (wanted ? b.condition : "not (" + b.condition + ")") + "`, which is " +
         (wanted ? "false" : "true") + " when the harness calls" + (r.why.empty() ? "" : " (" + r.why + ")");
}

} // namespace

GradedPath::GradedPath(const ForwardReach &reach, const HarnessView &harness)
    : reach_(reach), harness_(harness), solution_(solutionView(reach.python(), reach.inputNames())) {
  const py::PythonFacts &py = reach.python();
  for (const std::string &e : reach.entries()) {
    roots_.insert(e);
    // The harness builds the module: its constructor runs too.
    if (const auto dot = e.rfind('.'); dot != std::string::npos)
      roots_.insert(e.substr(0, dot) + ".__init__");
  }
  for (const py::Call &c : py.calls) {
    if (std::string callee = reach.localCallee(c); !callee.empty())
      callers_[callee].push_back(&c);
    // `Fn.apply(x)` runs the autograd Function's forward.
    if (c.method == "apply" && !c.receiver.empty())
      if (const py::Function *f = py.findFunction(c.receiver + ".forward"))
        callers_[f->qualname].push_back(&c);
    for (const py::Argument &a : c.args)
      if (std::string cb = reach.resolveCallable(a.value, c.function); !cb.empty())
        callers_[cb].push_back(&c);
  }
}

bool GradedPath::runs(const std::string &qualname) const {
  if (roots_.count(qualname))
    return true;
  if (auto it = memo_.find(qualname); it != memo_.end())
    return it->second;
  if (!active_.insert(qualname).second)
    return false; // a cycle: this path adds nothing
  bool result = true;
  if (auto it = callers_.find(qualname); it != callers_.end()) {
    result = false;
    for (const py::Call *c : it->second)
      if ((c->stmt < 0 || statement(c->stmt).runs) && runs(c->function)) {
        result = true;
        break;
      }
  } else if (const auto dot = qualname.rfind('.'); dot != std::string::npos && !reach_.python().findFunction(qualname)) {
    result = true;
  } else if (dot != std::string::npos) {
    // A nested def runs when the def holding it runs (what calls it is not seen).
    const std::string outer = qualname.substr(0, dot);
    if (reach_.python().findFunction(outer))
      result = runs(outer);
  }
  active_.erase(qualname);
  memo_[qualname] = result;
  return result;
}

Feasibility GradedPath::statement(int stmt) const {
  const py::PythonFacts &py = reach_.python();
  Feasibility out;
  int child = stmt;
  while (child >= 0 && static_cast<std::size_t>(child) < py.statements.size()) {
    const py::Stmt &c = py.statements[static_cast<std::size_t>(child)];
    const int p = c.parent;
    if (p < 0)
      break;
    const py::Stmt &parent = py.statements[static_cast<std::size_t>(p)];
    if (parent.kind == py::StmtKind::Def || parent.kind == py::StmtKind::Class)
      break;
    // The block of `parent` that holds `child`.
    const py::StmtBlock *in = nullptr;
    for (const py::StmtBlock &b : parent.blocks)
      for (int s : b.statements)
        if (s == child)
          in = &b;
    if (in && parent.kind == py::StmtKind::If) {
      // Every earlier arm's test must be able to fail, and this arm's to hold.
      for (const py::StmtBlock &b : parent.blocks) {
        if (&b == in)
          break;
        if (const py::Branch *t = armTest(py, parent, b.arm)) {
          const ConditionReading r = readCondition(*t, harness_, solution_);
          if (r.outcome == Outcome::True)
            return Feasibility{false, false, blockedBy(*t, r, false)};
        }
      }
      if (in->role != py::StmtBlock::Role::Else)
        if (const py::Branch *t = armTest(py, parent, in->arm)) {
          const ConditionReading r = readCondition(*t, harness_, solution_);
          if (r.outcome == Outcome::False)
            return Feasibility{false, false, blockedBy(*t, r, true)};
        }
    } else if (in && parent.kind == py::StmtKind::While && parent.branch >= 0 &&
               static_cast<std::size_t>(parent.branch) < py.branches.size() && in->role == py::StmtBlock::Role::Body) {
      const py::Branch &t = py.branches[static_cast<std::size_t>(parent.branch)];
      const ConditionReading r = readCondition(t, harness_, solution_);
      if (r.outcome == Outcome::False)
        return Feasibility{false, false, blockedBy(t, r, true)};
    } else if (in && parent.kind == py::StmtKind::Try && in->role == py::StmtBlock::Role::Except) {
      out.onlyOnException = true;
    }
    child = p;
  }
  return out;
}

bool GradedPath::runs(const py::Call &c) const {
  if (!runs(c.function))
    return false;
  return c.stmt < 0 || statement(c.stmt).runs;
}

std::string GradedPath::whyNot(const py::Call &c) const { return whyNot(c, 0); }

std::string GradedPath::whyNot(const py::Call &c, int depth) const {
  if (c.stmt >= 0) {
    const Feasibility f = statement(c.stmt);
    if (!f.runs)
      return f.why;
  }
  if (!runs(c.function)) {
    // The first caller's reason: the kernel's helper runs only where that caller does.
    if (auto it = callers_.find(c.function); it != callers_.end())
      for (const py::Call *caller : it->second)
        if (std::string why = depth < 4 ? whyNot(*caller, depth + 1) : std::string(); !why.empty())
          return "through `" + c.function + "`, called " + why;
    return "in `" + c.function + "`, which nothing that runs when the harness calls reaches";
  }
  return {};
}

} // namespace kbaudit::semantic
