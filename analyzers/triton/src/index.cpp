#include "index.h"

#include <algorithm>

namespace kbaudit::triton::detail {

namespace {
const std::vector<const py::Call *> kNoCalls;
const std::vector<const py::Assignment *> kNoAssignments;

bool isPlainBinding(const py::Assignment &a) {
  return a.kind == py::Assignment::TargetKind::Name && (a.op == "=" || a.op == ":=");
}

/// `text` is `prefix` followed (after blanks) by an opening parenthesis.
bool callStarts(std::string_view text, std::string_view prefix) {
  if (prefix.empty() || !text.starts_with(prefix))
    return false;
  for (size_t i = prefix.size(); i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '(')
      return true;
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' && ch != '\\')
      return false;
  }
  return false;
}
} // namespace

Index::Index(const py::PythonFacts &facts) : py_(facts) {
  for (const auto &c : facts.calls)
    calls_[c.function].push_back(&c);
  for (const auto &a : facts.assignments)
    assignments_[a.function].push_back(&a);
}

const std::vector<const py::Call *> &Index::callsIn(std::string_view function) const {
  auto it = calls_.find(function);
  return it == calls_.end() ? kNoCalls : it->second;
}

const std::vector<const py::Assignment *> &Index::assignmentsIn(std::string_view function) const {
  auto it = assignments_.find(function);
  return it == assignments_.end() ? kNoAssignments : it->second;
}

/// Every argument of `c` is written in `text` after the callee: tells `tl.dot(a, b)`
/// nested in `tl.dot(z, tl.dot(a, b))` on the same line from the outer call.
bool argumentsFit(const py::Call &c, std::string_view text) {
  std::string_view rest = text.substr(std::min(text.size(), c.callee.size()));
  for (const auto &a : c.args)
    if (rest.find(a.value.text) == std::string_view::npos)
      return false;
  return true;
}

const py::Call *Index::callForText(std::string_view text, LineRange lines, std::string_view function) const {
  const py::Call *best = nullptr;
  bool bestFits = false;
  for (const py::Call *c : callsIn(function)) {
    if (lines.valid() && (c->lines.begin < lines.begin || c->lines.end > lines.end))
      continue;
    if (!callStarts(text, c->callee))
      continue;
    bool fits = argumentsFit(*c, text);
    if (!best || c->callee.size() > best->callee.size() ||
        (c->callee.size() == best->callee.size() && fits && !bestFits)) {
      best = c;
      bestFits = fits;
    }
  }
  return best;
}

const py::Call *Index::callFor(const py::Expr &e, std::string_view function) const {
  if (e.kind != py::ExprKind::Call)
    return nullptr;
  return callForText(e.text, e.lines, function);
}

const py::Assignment *Index::bindingBefore(std::string_view function, std::string_view name, unsigned line,
                                           bool moduleFallback) const {
  const py::Assignment *before = nullptr, *last = nullptr;
  for (const py::Assignment *a : assignmentsIn(function)) {
    if (!isPlainBinding(*a) || a->target != name)
      continue;
    if (a->lines.begin < line && (!before || a->lines.begin >= before->lines.begin))
      before = a;
    if (!last || a->lines.begin >= last->lines.begin)
      last = a;
  }
  if (before)
    return before;
  if (last)
    return last;
  if (!moduleFallback || function.empty())
    return nullptr;
  // The def runs after the module body: the module's last binding is the one it sees.
  return bindingBefore("", name, ~0u, false);
}

std::vector<const py::Assignment *> Index::bindingsOf(std::string_view function, std::string_view name) const {
  std::vector<const py::Assignment *> out;
  for (const py::Assignment *a : assignmentsIn(function))
    if (isPlainBinding(*a) && a->target == name)
      out.push_back(a);
  return out;
}

std::vector<const py::Call *> Index::callersOf(const py::Function &f) const {
  std::vector<const py::Call *> out;
  for (const auto &c : py_.calls) {
    if (!c.launchedKernel.empty())
      continue;
    bool direct = f.className.empty() ? c.receiver.empty() && c.callee == f.name
                                      : c.method == f.name && (c.receiver == "self" || c.receiver == f.className);
    if (direct)
      out.push_back(&c);
  }
  return out;
}

const py::Expr *argumentFor(const std::vector<py::Argument> &args, unsigned index, std::string_view name) {
  unsigned positional = 0;
  bool shifted = false; // positionals after `*xs` land at an unknown index
  for (const auto &a : args) {
    if (a.keyword == "*")
      shifted = true;
    else if (a.keyword.empty()) {
      if (!shifted && positional++ == index)
        return &a.value;
    } else if (a.keyword == name) {
      return &a.value;
    }
  }
  return nullptr;
}

bool isTritonName(std::string_view resolved) {
  return resolved.starts_with("triton.") && resolved.find_first_of("([") == std::string_view::npos;
}

std::string_view lastSegment(std::string_view dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

} // namespace kbaudit::triton::detail
