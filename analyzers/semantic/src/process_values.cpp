#include "kbaudit/semantic/process_values.h"

#include "kbaudit/semantic/def_use.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic {

using namespace pytext;

namespace {

// Names are followed this many bindings deep: `fd = _fd()` inside `_fd`'s own `x = ...` is
// as far as a descriptor is usually passed around before it is written to.
constexpr int kMaxDepth = 4;

bool within(LineRange outer, LineRange inner) {
  return outer.valid() && inner.valid() && outer.begin <= inner.begin && inner.end <= outer.end;
}

bool isEnvironmentName(std::string_view r) {
  return startsWith(r, "os.environ") || r == "os.getenv" || r == "os.getenvb" || startsWith(r, "posix.environ");
}

/// The expression's own text contains `written` (a callee or name as written), and the fact
/// sits on its lines in the same function: the fact is part of this expression.
bool partOf(const py::Expr &e, std::string_view function, std::string_view factFunction, LineRange factLines,
            std::string_view written) {
  return factFunction == function && within(e.lines, factLines) && !written.empty() &&
         e.text.find(written) != std::string::npos;
}

/// `fds[1]` -> `fds`; `self.fd` stays.
std::string subscriptHead(std::string_view text) {
  const auto bracket = text.find('[');
  return std::string(trim(bracket == std::string_view::npos ? text : text.substr(0, bracket)));
}

constexpr std::array<std::string_view, 12> kOwnDescriptorCalls = {
    "os.open", "os.pipe", "os.pipe2", "os.dup", "os.openpty", "os.memfd_create", "os.eventfd",
    "socket.socket", "socket.socketpair", "tempfile.mkstemp", "pty.openpty", "os.posix_openpt"};

bool among(std::string_view s, const auto &set) { return std::find(set.begin(), set.end(), s) != set.end(); }

Descriptor merge(const std::vector<Descriptor> &all) {
  if (all.empty())
    return {};
  // An environment-supplied number on any binding is what the harness hands down.
  for (const Descriptor &d : all)
    if (d.source == DescriptorSource::Environment)
      return d;
  for (const Descriptor &d : all)
    if (d.source != all.front().source || d.number != all.front().number)
      return {};
  return all.front();
}

Descriptor descriptorAt(const py::PythonFacts &py, const py::Expr &e, std::string_view function, int depth);

Descriptor fromBindings(const py::PythonFacts &py, const std::string &name, std::string_view function, int depth) {
  std::vector<Descriptor> all;
  for (const py::Assignment *a : bindingsOf(py, name, function))
    if (a->op == "=" || a->op == ":=")
      all.push_back(descriptorAt(py, a->value, a->function, depth + 1));
  return merge(all);
}

Descriptor literal(long n) {
  if (n == 1)
    return {DescriptorSource::Stdout, 1};
  if (n == 2)
    return {DescriptorSource::Stderr, 2};
  return {DescriptorSource::Literal, n};
}

Descriptor descriptorAt(const py::PythonFacts &py, const py::Expr &e, std::string_view function, int depth) {
  if (depth > kMaxDepth)
    return {};
  if (e.number && (e.kind == py::ExprKind::Number || e.kind == py::ExprKind::Name) && *e.number >= 0)
    return literal(static_cast<long>(*e.number));
  if (readsEnvironment(py, e, function))
    return {DescriptorSource::Environment, -1};
  switch (e.kind) {
  case py::ExprKind::Call: {
    if (among(e.resolved, kOwnDescriptorCalls))
      return {DescriptorSource::Own, -1};
    if (endsWith(e.resolved, ".fileno")) {
      const std::string_view owner = std::string_view(e.resolved).substr(0, e.resolved.size() - 7);
      if (owner == "sys.stdout" || owner == "sys.__stdout__")
        return {DescriptorSource::Stdout, 1};
      if (owner == "sys.stderr" || owner == "sys.__stderr__")
        return {DescriptorSource::Stderr, 2};
      return {DescriptorSource::Own, -1};
    }
    return {};
  }
  case py::ExprKind::Name:
  case py::ExprKind::Attribute:
    return fromBindings(py, e.text, function, depth);
  case py::ExprKind::Subscript:
    return fromBindings(py, subscriptHead(e.text), function, depth);
  default:
    return {};
  }
}

bool envAt(const py::PythonFacts &py, const py::Expr &e, std::string_view function, int depth) {
  if (depth > kMaxDepth)
    return false;
  if (isEnvironmentName(e.resolved))
    return true;
  if (e.kind == py::ExprKind::Name || e.kind == py::ExprKind::Attribute) {
    for (const py::Assignment *a : bindingsOf(py, e.text, function))
      if ((a->op == "=" || a->op == ":=") && envAt(py, a->value, a->function, depth + 1))
        return true;
    return false;
  }
  for (const py::NameRef &r : py.nameRefs)
    if (isEnvironmentName(r.resolved) && partOf(e, function, r.function, r.lines, r.text))
      return true;
  return false;
}

void addParts(const py::PythonFacts &py, const py::Expr &e, std::string_view function, int depth, PathParts &out);

/// False when the call behind `e` is not among the facts.
bool callParts(const py::PythonFacts &py, const py::Expr &e, std::string_view function, int depth, PathParts &out) {
  if (startsWith(e.resolved, "tempfile.")) {
    out.ownLocation = true;
    return true;
  }
  // The call fact behind this expression: its arguments are the path's pieces.
  for (const py::Call &c : py.calls)
    if (c.function == function && c.resolved == e.resolved && c.lines.begin == e.lines.begin &&
        within(e.lines, c.lines) && partOf(e, function, c.function, c.lines, c.callee)) {
      for (const py::Argument &a : c.args)
        if (a.keyword.empty() || a.keyword == "*")
          addParts(py, a.value, function, depth + 1, out);
      return true;
    }
  return false;
}

void environmentPart(const py::PythonFacts &py, const py::Expr &e, std::string_view function, PathParts &out) {
  // The variable's name and default are not pieces of the path, but say what it is for.
  out.environment = true;
  for (const py::StringConstant &s : py.strings)
    if (s.function == function && within(e.lines, s.lines) && e.text.find(s.value.value) != std::string::npos)
      out.environmentKeys.push_back(s.value.value);
}

void addParts(const py::PythonFacts &py, const py::Expr &e, std::string_view function, int depth, PathParts &out) {
  if (depth > kMaxDepth)
    return;
  if (mentionsName(e.text, "__file__"))
    out.ownLocation = true;
  if (e.string) {
    out.parts.push_back(e.string->value);
    return;
  }
  if (isEnvironmentName(e.resolved)) {
    environmentPart(py, e, function, out);
    return;
  }
  switch (e.kind) {
  case py::ExprKind::Name:
  case py::ExprKind::Attribute: {
    const std::vector<const py::Assignment *> defs = bindingsOf(py, e.text, function);
    for (const py::Assignment *a : defs)
      if (a->op == "=" || a->op == ":=")
        addParts(py, a->value, a->function, depth + 1, out);
    if (defs.empty() && startsWith(e.resolved, "tempfile."))
      out.ownLocation = true;
    return;
  }
  case py::ExprKind::Call:
    if (!callParts(py, e, function, depth, out) && readsEnvironment(py, e, function))
      environmentPart(py, e, function, out);
    return;
  default:
    if (readsEnvironment(py, e, function)) {
      environmentPart(py, e, function, out);
      return;
    }
    // `Path(__file__).parent / "x"`, `d + "/x"`: the string constants written inside it.
    for (const py::StringConstant &s : py.strings)
      if (!s.docstring && s.function == function && within(e.lines, s.lines))
        out.parts.push_back(s.value.value);
    for (const py::Call &c : py.calls)
      if (startsWith(c.resolved, "tempfile.") && partOf(e, function, c.function, c.lines, c.callee))
        out.ownLocation = true;
    return;
  }
}

ProcessTarget mergeTargets(const std::vector<ProcessTarget> &all) {
  if (all.empty())
    return ProcessTarget::Unknown;
  for (ProcessTarget t : all)
    if (t != all.front())
      return ProcessTarget::Unknown;
  return all.front();
}

ProcessTarget targetAt(const py::PythonFacts &py, const py::Expr &e, std::string_view function, int depth) {
  if (depth > kMaxDepth)
    return ProcessTarget::Unknown;
  if (e.number && (e.kind == py::ExprKind::Number || e.kind == py::ExprKind::UnaryOp ||
                   e.kind == py::ExprKind::Name))
    return *e.number <= 0 ? ProcessTarget::Group : ProcessTarget::Unknown;
  const auto named = [](std::string_view r) {
    if (r == "os.getppid")
      return ProcessTarget::Parent;
    if (r == "os.getpid")
      return ProcessTarget::Self;
    if (r == "os.getpgid" || r == "os.getpgrp")
      return ProcessTarget::Group;
    return ProcessTarget::Unknown;
  };
  switch (e.kind) {
  case py::ExprKind::Call:
    return named(e.resolved);
  case py::ExprKind::UnaryOp:
    // `-pid` names the process group `pid` leads.
    return startsWith(trim(e.text), "-") ? ProcessTarget::Group : ProcessTarget::Unknown;
  case py::ExprKind::Name:
  case py::ExprKind::Attribute: {
    std::vector<ProcessTarget> all;
    for (const py::Assignment *a : bindingsOf(py, e.text, function))
      if (a->op == "=" || a->op == ":=")
        all.push_back(targetAt(py, a->value, a->function, depth + 1));
    return mergeTargets(all);
  }
  default:
    for (const py::Call &c : py.calls)
      if (named(c.resolved) != ProcessTarget::Unknown && partOf(e, function, c.function, c.lines, c.callee))
        return named(c.resolved);
    return ProcessTarget::Unknown;
  }
}

} // namespace

bool opensDescriptor(std::string_view resolved) { return among(resolved, kOwnDescriptorCalls); }

Descriptor descriptorOf(const py::PythonFacts &py, const py::Expr &e, std::string_view function) {
  return descriptorAt(py, e, function, 0);
}

bool readsEnvironment(const py::PythonFacts &py, const py::Expr &e, std::string_view function) {
  return envAt(py, e, function, 0);
}

ProcessTarget processTargetOf(const py::PythonFacts &py, const py::Expr &e, std::string_view function) {
  return targetAt(py, e, function, 0);
}

PathParts pathPartsOf(const py::PythonFacts &py, const py::Expr &e, std::string_view function) {
  PathParts out;
  addParts(py, e, function, 0, out);
  return out;
}

} // namespace kbaudit::semantic
