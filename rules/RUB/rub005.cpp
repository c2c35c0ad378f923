// RUB005 shape-gated-numerics: forward tests for exact problem sizes (`M == 16384`,
// `(M, N, K) == (4096, 4096, 4096)`, `n in (4096, 8192)`) and the sides of that dispatch
// compute at different precision, so the checker's shapes can take the exact path while
// the benchmark's shapes take the cheap one.
//
// Shape dispatch is everywhere in honest solutions (tile sizes, split-K, a GEMV for
// M == 1): it stays quiet unless one side casts to a lower dtype (or runs a tf32 dot) that
// the other side does not use. Thresholds (`M <= 32`) and small constants (`D == 128`) are
// left alone: the suspicious form is equality with a large, specific size.

#include "all_checks.h"
#include "forward_entry.h"
#include "semantic_names.h"
#include "rub_branch_work.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

namespace kbaudit::rules {
namespace {

using namespace pytext;
using namespace rub;

/// Sizes below this are head dims, group sizes and tile widths, not problem sizes.
constexpr long kLargeSize = 512;

/// The outer bracket at s[0] closes at the last character (not `(a) == (b)`).
bool enclosed(std::string_view s) {
  if (s.size() < 2 || (s.front() != '(' && s.front() != '[' && s.front() != '{'))
    return false;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '[' || s[i] == '{')
      ++depth;
    else if (s[i] == ')' || s[i] == ']' || s[i] == '}')
      if (--depth == 0)
        return i + 1 == s.size();
  }
  return false;
}

std::string_view unwrap(std::string_view s) {
  s = trim(s);
  while (enclosed(s))
    s = trim(s.substr(1, s.size() - 2));
  return s;
}

/// The integers of a literal int or a tuple/list/set of them; nullopt for anything else.
std::optional<std::vector<long>> intLiterals(std::string_view s) {
  s = unwrap(s);
  std::vector<long> out;
  while (!s.empty()) {
    const size_t comma = s.find(',');
    std::string_view item = trim(s.substr(0, comma));
    s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
    if (item.empty())
      continue;
    std::string digits;
    for (char c : item) {
      if (c == '_')
        continue;
      if (!std::isdigit(static_cast<unsigned char>(c)))
        return std::nullopt;
      digits += c;
    }
    if (digits.empty() || digits.size() > 12)
      return std::nullopt;
    out.push_back(std::stol(digits));
  }
  if (out.empty())
    return std::nullopt;
  return out;
}

/// Splits a condition into its `and` / `or` clauses at top level.
std::vector<std::string_view> clauses(std::string_view cond) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < cond.size(); ++i) {
    const char c = cond[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (depth == 0 && c == ' ') {
      for (std::string_view op : {" and ", " or "})
        if (cond.substr(i, op.size()) == op) {
          out.push_back(cond.substr(start, i - start));
          start = i + op.size();
          i = start - 1;
          break;
        }
    }
  }
  out.push_back(cond.substr(start));
  return out;
}

/// `lhs == 4096`, `(M, N) == (4096, 4096)`, `n in (4096, 8192)`: the side that is not the
/// constant, when the constant holds a large size.
struct ExactTest {
  std::string subject;
  std::string text;
};

std::optional<ExactTest> exactTest(std::string_view clause) {
  clause = unwrap(clause);
  if (startsWith(clause, "not "))
    clause = unwrap(clause.substr(4));
  for (std::string_view op : {"==", "!=", " not in ", " in "}) {
    const size_t at = clause.find(op);
    if (at == std::string_view::npos)
      continue;
    const std::string_view lhs = clause.substr(0, at), rhs = clause.substr(at + op.size());
    for (auto [constant, subject] : {std::pair{rhs, lhs}, std::pair{lhs, rhs}}) {
      const std::optional<std::vector<long>> ints = intLiterals(constant);
      if (!ints || intLiterals(subject))
        continue;
      if (std::none_of(ints->begin(), ints->end(), [](long v) { return v >= kLargeSize; }))
        continue;
      if (subject.find('%') != std::string_view::npos || subject.find("//") != std::string_view::npos)
        continue; // alignment arithmetic, not a size
      return ExactTest{std::string(trim(subject)), std::string(trim(clause))};
    }
    return std::nullopt;
  }
  return std::nullopt;
}

bool mentionsShape(std::string_view text) {
  for (std::string_view s : {".shape", ".size(", ".numel(", "len(", ".ndim", ".dim("})
    if (text.find(s) != std::string_view::npos)
      return true;
  return false;
}

class Rub005 final : public Check {
public:
  std::string_view id() const override { return "RUB005"; }

  void run(const CheckContext &ctx, FindingSink &sink) const override {
    const Facts &f = ctx.facts;
    if (!forwardFound(f, sink))
      return;
    const std::set<std::string> reachable = reachableFromForward(f);
    const std::map<std::string, std::string> decisions = exactDecisions(f, reachable);
    for (const py::Branch &b : f.python.branches) {
      if (!reachable.count(b.function) || (b.kind != "if" && b.kind != "elif"))
        continue;
      std::optional<std::string> gate = exactGate(f, b.condition, b.function);
      if (!gate)
        for (const std::string &n : b.names)
          if (auto it = decisions.find(scopeKey(b.function, n)); it != decisions.end())
            gate = it->second + " (through " + n + ")";
      if (!gate)
        continue;
      reportDifference(ctx, b, *gate, sink);
    }
  }

private:
  static std::string scopeKey(std::string_view function, std::string_view name) {
    if (startsWith(name, "self."))
      return classOf(function) + "#" + std::string(name);
    return std::string(function) + ":" + std::string(name);
  }

  /// Whether `subject` (a name, attribute, tuple of them or expression) holds a size:
  /// it reads a shape, or every name in it is a shape-derived local, a parameter of a
  /// helper, or a self attribute set in __init__ (the constructor's size arguments).
  static bool isSize(const Facts &f, std::string_view subject, const std::string &function) {
    if (mentionsShape(subject))
      return true;
    std::string_view s = unwrap(subject);
    bool any = false;
    while (!s.empty()) {
      const size_t comma = s.find(',');
      const std::string_view item = trim(s.substr(0, comma));
      s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
      if (item.empty())
        continue;
      if (!sizeName(f, item, function))
        return false;
      any = true;
    }
    return any;
  }

  static bool sizeName(const Facts &f, std::string_view name, const std::string &function) {
    for (char c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
        return false;
    if (startsWith(name, "self.")) {
      const std::string init = classOf(function) + ".__init__";
      for (const py::Assignment &a : f.python.assignments)
        if (a.function == init && a.target == name)
          return true;
      return false;
    }
    for (const py::Assignment &a : f.python.assignments)
      if (a.function == function && a.kind == py::Assignment::TargetKind::Name && a.target == name &&
          (mentionsShape(a.value.text) || a.value.text.find("self.") != std::string::npos))
        return true;
    if (const py::Function *fn = f.python.findFunction(function); fn && fn->name != "forward")
      return std::find(fn->params.begin(), fn->params.end(), name) != fn->params.end();
    return false;
  }

  static std::optional<std::string> exactGate(const Facts &f, std::string_view condition, const std::string &function) {
    for (std::string_view clause : clauses(condition))
      if (std::optional<ExactTest> t = exactTest(clause); t && isSize(f, t->subject, function))
        return t->text;
    return std::nullopt;
  }

  /// Names assigned an exact-size test (`use_fp8 = M == 16384`), keyed by scope.
  static std::map<std::string, std::string> exactDecisions(const Facts &f, const std::set<std::string> &reachable) {
    std::map<std::string, std::string> out;
    for (const py::Assignment &a : f.python.assignments) {
      if (!reachable.count(a.function) && a.function.find("__init__") == std::string::npos)
        continue;
      if (a.value.kind != py::ExprKind::Comparison && a.value.kind != py::ExprKind::BoolOp)
        continue;
      if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
        continue;
      if (std::optional<std::string> g = exactGate(f, a.value.text, a.function))
        out.emplace(scopeKey(a.function, a.target), *g);
    }
    return out;
  }

  static bool reportDifference(const CheckContext &ctx, const py::Branch &b, const std::string &gate,
                               FindingSink &sink) {
    const std::vector<LineRange> arms = armsOf(ctx.facts, b);
    if (arms.size() < 2)
      return false;
    const ArmWork gated = workIn(ctx.facts, b.function, arms.front());
    for (size_t i = 1; i < arms.size(); ++i) {
      const ArmWork other = workIn(ctx.facts, b.function, arms[i]);
      std::vector<DtypeUse> lower = lowerIn(gated, other, ctx.problem);
      std::string side = "the block under the test (" + lineText(arms.front()) + ")";
      if (lower.empty()) {
        lower = lowerIn(other, gated, ctx.problem);
        side = "the path taken otherwise (" + (arms[i].valid() ? lineText(arms[i]) : std::string("skipping the block")) + ")";
      }
      if (lower.empty())
        continue;
      std::string difference;
      std::set<std::string> seen;
      for (const DtypeUse &d : lower)
        if (seen.size() < 3 && seen.insert(d.note).second)
          difference += (difference.empty() ? "" : "; ") + d.note;
      difference = side + " " + difference + ", the other side does not";
      const unsigned bits = precisionBits(lower.front().dtype);
      // Without a contract only a cast to 8 bits or fewer is unambiguous: a bf16 side may
      // be the problem's own precision.
      const bool clear = ctx.problem ? !ctx.problem->contractDtype().empty() : bits <= 8;
      sink.report(b.lines, {{"condition", gate}, {"difference", difference}},
                  "dispatch at " + lineText(b.lines) + " on `" + b.condition + "`",
                  clear ? std::nullopt : std::optional<Confidence>(Confidence::Low));
      return true;
    }
    return false;
  }
};

} // namespace

std::unique_ptr<Check> makeRub005() { return std::make_unique<Rub005>(); }

} // namespace kbaudit::rules
