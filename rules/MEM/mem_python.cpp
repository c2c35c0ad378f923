#include "mem_python.h"

#include "forward_entry.h"
#include "semantic_names.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace kbaudit::rules::mem {

using namespace pytext;

namespace {

/// Calls `visit(i)` for each index of `text` that is Python code rather than the inside or
/// the opening quote of a string literal (backslash escapes honoured); `visit` may move `i`
/// on, and stops the walk by returning false. Comment stripping, bracket depth and top-level
/// splitting all need the same view of where strings are.
template <class Visit> void forEachCodeChar(std::string_view text, Visit visit) {
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (!visit(i)) {
      return;
    }
  }
}

/// The line without a trailing `# comment` (a '#' outside string literals).
std::string_view stripComment(std::string_view line) {
  std::size_t end = line.size();
  forEachCodeChar(line, [&](std::size_t &i) {
    if (line[i] != '#')
      return true;
    end = i;
    return false;
  });
  return line.substr(0, end);
}

/// The first identifier of an expression ("state" in `state[3]["c_kv"]`).
std::string_view headName(std::string_view e) {
  e = trim(e);
  while (!e.empty() && (e.front() == '(' || e.front() == '*'))
    e = trim(e.substr(1));
  std::size_t n = 0;
  while (n < e.size() && isIdentChar(e[n]))
    ++n;
  return e.substr(0, n);
}

/// Methods that return a view or an alias of their receiver.
bool isViewMethod(std::string_view m) {
  static constexpr std::array<std::string_view, 22> kViews = {
      "view",    "reshape",  "view_as",    "flatten", "unflatten", "squeeze", "unsqueeze", "transpose",
      "permute", "t",        "expand",     "expand_as", "narrow",  "select",  "contiguous", "detach",
      "split",   "chunk",    "unbind",     "as_strided", "movedim", "swapaxes"};
  return std::find(kViews.begin(), kViews.end(), m) != kViews.end();
}

/// `x.T`, `x.mT`, `x.data`: the same storage (unlike `x.shape` or `x.dtype`).
bool isViewAttribute(const py::Expr &e) {
  if (e.kind != py::ExprKind::Attribute)
    return false;
  const std::string_view t = e.text;
  const std::string_view last = lastSegment(t);
  for (std::string_view a : {"T", "mT", "H", "mH", "data", "real", "imag"})
    if (last == a)
      return true;
  return false;
}

/// `state[3]["c_kv"]`: an item of a container or a slice of a tensor, not of its metadata
/// (`x.shape[0]`).
bool isItemOf(const py::Expr &e) {
  if (e.kind != py::ExprKind::Subscript)
    return false;
  const std::string_view t = trim(e.text);
  return t.find('[') == headName(t).size();
}

} // namespace

std::vector<std::string> splitTopLevel(std::string_view text, std::string_view sep) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  forEachCodeChar(text, [&](std::size_t &i) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (depth == 0 && text.substr(i, sep.size()) == sep) {
      // Word separators (" and ") must stand alone; punctuation (",") always splits.
      out.emplace_back(trim(text.substr(start, i - start)));
      start = i + sep.size();
      i = start - 1;
    }
    return true;
  });
  out.emplace_back(trim(text.substr(start)));
  return out;
}

std::set<std::string> reachableFunctions(const Facts &f) {
  std::set<std::string> out = reachableFromForward(f);
  if (out.empty())
    for (const py::Function &fn : f.python.functions)
      if (!fn.className.empty())
        out.insert(fn.qualname);
  return out;
}

std::vector<std::string> inputParams(const py::Function &fn) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < fn.params.size(); ++i) {
    const std::string &p = fn.params[i];
    if (i == 0 && !fn.className.empty() && (p == "self" || p == "cls"))
      continue;
    out.push_back(p);
  }
  return out;
}

std::set<std::string> inputNames(const py::PythonFacts &facts, const py::Function &fn) {
  const std::vector<std::string> params = inputParams(fn);
  std::set<std::string> names(params.begin(), params.end());
  for (int round = 0; round < 4; ++round) {
    bool grew = false;
    for (const py::Assignment &a : facts.assignments) {
      if (a.function != fn.qualname || a.kind != py::Assignment::TargetKind::Name || a.op != "=" ||
          names.count(a.target))
        continue;
      const py::Expr &v = a.value;
      bool part = false;
      if (v.kind == py::ExprKind::Name || isItemOf(v) || isViewAttribute(v)) {
        part = names.count(std::string(headName(v.text))) > 0;
      } else if (v.kind == py::ExprKind::Call) {
        // x.view(...) / x.contiguous(): the receiver's storage under another name.
        const std::string_view callee = v.resolved.empty() ? std::string_view(v.text) : std::string_view(v.resolved);
        const auto dot = callee.rfind('.');
        part = dot != std::string_view::npos && isViewMethod(callee.substr(dot + 1)) &&
               names.count(std::string(headName(v.text))) > 0;
      } else if (v.kind == py::ExprKind::Tuple) {
        for (const py::Expr &e : v.elements)
          part |= (e.kind == py::ExprKind::Name || isItemOf(e) || isViewAttribute(e)) &&
                  names.count(std::string(headName(e.text))) > 0;
      }
      if (part) {
        names.insert(a.target);
        grew = true;
      }
    }
    if (!grew)
      break;
  }
  return names;
}

bool reboundBefore(const py::PythonFacts &facts, const py::Function &fn, std::string_view name, unsigned line) {
  for (const py::Assignment &a : facts.assignments)
    if (a.function == fn.qualname && a.kind == py::Assignment::TargetKind::Name && a.target == name &&
        (line == 0 || a.lines.begin < line))
      return true;
  return false;
}

std::vector<Statement> returns(const py::PythonFacts &facts, const py::Function &fn) {
  std::vector<Statement> out;
  for (const py::Return &r : facts.returns) {
    if (r.function != fn.qualname)
      continue;
    // The value as one line: each source line without its comment, trimmed, a trailing
    // backslash dropped, joined by a space.
    Statement s;
    s.lines = r.lines;
    std::string_view rest = r.value.text;
    for (bool first = true;; first = false) {
      const std::size_t nl = rest.find('\n');
      if (!first) {
        if (!s.text.empty() && s.text.back() == '\\')
          s.text.pop_back();
        s.text += " ";
      }
      s.text += trim(stripComment(rest.substr(0, nl)));
      if (nl == std::string_view::npos)
        break;
      rest.remove_prefix(nl + 1);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> returnedItems(std::string_view returned) {
  std::string_view r = trim(returned);
  // An enclosing pair of parentheses or brackets around the whole value.
  if (r.size() >= 2 && (r.front() == '(' || r.front() == '[')) {
    int depth = 0;
    bool wraps = true;
    for (std::size_t i = 0; i < r.size(); ++i) {
      depth += r[i] == '(' || r[i] == '[' ? 1 : r[i] == ')' || r[i] == ']' ? -1 : 0;
      if (depth == 0 && i + 1 < r.size()) {
        wraps = false;
        break;
      }
    }
    if (wraps)
      r = r.substr(1, r.size() - 2);
  }
  std::vector<std::string> out;
  for (std::string &item : splitTopLevel(r, ","))
    if (!item.empty())
      out.push_back(std::move(item));
  return out;
}

bool within(LineRange inner, LineRange outer) {
  return inner.begin >= outer.begin && inner.begin <= outer.end && outer.begin != 0;
}

BranchBlocks blocksOf(const py::Branch &b) {
  BranchBlocks out;
  if (b.arms.empty())
    return out;
  const py::BranchArm &arm = b.arms.front();
  out.body = arm.body;
  out.inlineBody = arm.body.begin <= arm.test.end; // `if c: stmt`
  // The else block, when the next arm is the else (not a later elif).
  if (b.arms.size() > 1 && b.arms[1].kind == "else")
    out.orelse = b.arms[1].body;
  return out;
}

namespace {

void collectComparisons(std::string_view cond, bool negated, std::vector<Comparison> &out, int depth = 0) {
  cond = trim(cond);
  if (cond.empty() || depth > 8)
    return;
  for (std::string_view word : {" or ", " and "}) {
    const std::vector<std::string> parts = splitTopLevel(cond, word);
    if (parts.size() > 1) {
      for (const std::string &p : parts)
        collectComparisons(p, negated, out, depth + 1);
      return;
    }
  }
  if (startsWith(cond, "not ") || startsWith(cond, "not(")) {
    collectComparisons(cond.substr(3), !negated, out, depth + 1);
    return;
  }
  if (cond.front() == '(' && cond.back() == ')' && returnedItems(cond).size() == 1 &&
      returnedItems(cond).front().size() + 2 == cond.size()) {
    collectComparisons(cond.substr(1, cond.size() - 2), negated, out, depth + 1);
    return;
  }
  struct Op {
    std::string_view text;
    std::string_view name;
    bool negates;
  };
  static constexpr std::array<Op, 6> kOps = {{{" is not ", "is not", true},
                                               {" not in ", "not in", true},
                                               {" is ", "is", false},
                                               {" in ", "in", false},
                                               {"==", "==", false},
                                               {"!=", "!=", true}}};
  for (const Op &op : kOps) {
    const std::vector<std::string> sides = splitTopLevel(cond, op.text);
    if (sides.size() != 2)
      continue;
    out.push_back(Comparison{sides[0], std::string(op.name), sides[1], negated != op.negates});
    return;
  }
}

} // namespace

std::vector<Comparison> comparisons(std::string_view condition) {
  std::vector<Comparison> out;
  collectComparisons(condition, false, out);
  return out;
}

std::vector<KeyLocal> keyLocals(const py::PythonFacts &facts, const py::Function &fn,
                                const std::set<std::string> &inputs) {
  std::vector<KeyLocal> out;
  for (const py::Assignment &a : facts.assignments) {
    if (a.function != fn.qualname || a.kind != py::Assignment::TargetKind::Name || inputs.count(a.target))
      continue;
    std::vector<KeyKind> kinds = keyKindsOf(a.value.text, false, inputs, out, identityFunctions(facts));
    if (kinds.empty())
      continue;
    out.push_back(KeyLocal{a.target, std::move(kinds)});
  }
  return out;
}

std::set<std::string> identityFunctions(const py::PythonFacts &facts) {
  // A weak reference to a tensor is equal and hashes as its referent does: by identity.
  std::set<std::string> out = {"id", "weakref.ref"};
  for (const py::Import &i : facts.imports) {
    if (i.target == "weakref.ref")
      out.insert(i.boundName);
    else if (i.target == "weakref")
      out.insert(i.boundName + ".ref");
  }
  for (const py::Assignment &a : facts.assignments)
    if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name && a.value.kind == py::ExprKind::Name &&
        a.value.resolved == "id")
      out.insert(a.target);
  return out;
}

bool isBareInputKey(std::string_view side, const std::set<std::string> &inputs) {
  const auto trim = [](std::string_view t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '('))
      t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == ')' || t.back() == ','))
      t.remove_suffix(1);
    return t;
  };
  side = trim(side);
  for (std::size_t start = 0; start <= side.size();) {
    const std::size_t comma = side.find(',', start);
    const std::string_view item = trim(side.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (inputs.count(std::string(item)))
      return true;
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return false;
}

std::vector<KeyKind> keyKindsOf(std::string_view side, bool identityOperator, const std::set<std::string> &inputs,
                                const std::vector<KeyLocal> &locals, const std::set<std::string> &identityFns) {
  std::vector<KeyKind> kinds;
  const auto add = [&](KeyKind k) {
    if (std::find(kinds.begin(), kinds.end(), k) == kinds.end())
      kinds.push_back(k);
  };
  bool readsInput = false;
  for (const std::string &n : inputs)
    readsInput |= mentionsName(side, n);
  if (readsInput) {
    if (side.find("data_ptr") != std::string_view::npos || side.find("untyped_storage") != std::string_view::npos)
      add(KeyKind::Pointer);
    if (side.find("_version") != std::string_view::npos)
      add(KeyKind::Version);
    for (const std::string &fn : identityFns)
      if (side.find(fn + "(") != std::string_view::npos && mentionsName(side, fn))
        add(KeyKind::Identity);
    // A tensor hashes by identity: `hash(x)` of an input is its id (not `hash(x.shape)`).
    for (const std::string &n : inputs)
      if (side.find("hash(" + n + ")") != std::string_view::npos)
        add(KeyKind::Identity);
    if (side.find(".shape") != std::string_view::npos || side.find(".size(") != std::string_view::npos ||
        side.find(".numel(") != std::string_view::npos)
      add(KeyKind::Shape);
    if (identityOperator && kinds.empty())
      add(KeyKind::Identity);
  }
  for (const KeyLocal &l : locals)
    if (mentionsName(side, l.name))
      for (KeyKind k : l.kinds)
        add(k);
  return kinds;
}

bool isStoredState(std::string_view side, const py::PythonFacts &facts) {
  if (mentionsName(side, "self"))
    return true;
  const std::string head(headName(side));
  if (head.empty())
    return false;
  for (const py::Assignment &a : facts.assignments)
    if (a.function.empty() && a.kind == py::Assignment::TargetKind::Name && a.target == head &&
        (a.value.kind == py::ExprKind::None || a.value.kind == py::ExprKind::Dict ||
         a.value.kind == py::ExprKind::List || a.value.kind == py::ExprKind::Call))
      return true;
  return false;
}

bool isInertCall(const py::Call &c) {
  if (!c.launchedKernel.empty())
    return false;
  static constexpr std::array<std::string_view, 56> kInert = {
      "clone",      "detach",   "view",        "view_as",   "reshape",     "contiguous", "to",
      "t",          "transpose", "permute",    "squeeze",   "unsqueeze",   "expand",     "expand_as",
      "narrow",     "flatten",  "float",       "half",      "bfloat16",    "cpu",        "cuda",
      "item",       "size",     "dim",         "numel",     "data_ptr",    "stride",     "is_contiguous",
      "get",        "getattr",  "len",         "isinstance", "hasattr",    "id",         "tuple",
      "list",       "int",      "bool",        "max",       "min",         "range",      "zip",
      "enumerate",  "type",     "items",       "keys",      "values",      "copy_",      "empty",
      "empty_like", "new_empty", "zeros_like", "record_stream", "print",   "synchronize", "current_stream"};
  const std::string_view m = c.method.empty() ? std::string_view(c.callee) : std::string_view(c.method);
  return std::find(kInert.begin(), kInert.end(), m) != kInert.end();
}

std::vector<const py::Call *> callsOn(const py::PythonFacts &facts, std::string_view fn, LineRange lines) {
  std::vector<const py::Call *> out;
  const std::string prefix = std::string(fn) + ".";
  for (const py::Call &c : facts.calls)
    if ((c.function == fn || startsWith(c.function, prefix)) && c.lines.begin >= lines.begin &&
        c.lines.begin <= lines.end)
      out.push_back(&c);
  return out;
}

} // namespace kbaudit::rules::mem
