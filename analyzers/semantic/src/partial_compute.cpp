#include "kbaudit/semantic/partial_compute.h"

#include "entry_text.h"
#include "kbaudit/semantic/graded_scope.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <optional>
#include <utility>

namespace kbaudit::semantic {

using namespace entrytext;
using pytext::isIdentChar;
using pytext::startsWith;
using pytext::trim;

namespace {

// ---- expression text ------------------------------------------------------------------

/// Index of the bracket closing the one at `open` (any of `([{`), npos when unbalanced.
std::size_t closing(std::string_view t, std::size_t open) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = open; i < t.size(); ++i) {
    const char c = t[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

/// `t` split at `sep` outside brackets and strings (a `*` next to another `*` is `**`, no split).
std::vector<std::string_view> splitTop(std::string_view t, char sep) {
  std::vector<std::string_view> out;
  int depth = 0;
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'')
      quote = c;
    else if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (depth == 0 && c == sep) {
      if (sep == '*' && ((i + 1 < t.size() && t[i + 1] == '*') || (i > 0 && t[i - 1] == '*')))
        continue;
      out.push_back(trim(t.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(t.substr(start)));
  return out;
}

std::optional<double> literal(std::string_view t) {
  t = trim(t);
  while (!t.empty() && t.front() == '(' && closing(t, 0) == t.size() - 1)
    t = trim(t.substr(1, t.size() - 2));
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size())
    return std::nullopt;
  return v;
}

/// `n // 2`, `x.shape[0] / 4`, `n >> 1`, `int(n * 0.5)`: a fraction of a size. `n // 64 * 64`
/// (rounding to a multiple) is not.
bool isFraction(std::string_view t) {
  t = trim(t);
  for (const std::string_view op : {"//", ">>", "/"}) {
    for (std::size_t pos = t.find(op); pos != std::string_view::npos; pos = t.find(op, pos + op.size())) {
      if (op == "/" && ((pos + 1 < t.size() && t[pos + 1] == '/') || (pos > 0 && t[pos - 1] == '/')))
        continue;
      std::size_t j = pos + op.size();
      while (j < t.size() && t[j] == ' ')
        ++j;
      std::size_t k = j;
      while (k < t.size() && (std::isdigit(static_cast<unsigned char>(t[k])) || t[k] == '.'))
        ++k;
      const std::optional<double> d = literal(t.substr(j, k - j));
      const std::string_view after = trim(t.substr(k));
      if (d && *d >= (op == ">>" ? 1.0 : 2.0) && !startsWith(after, "*") && pos > 0)
        return true;
    }
  }
  if (startsWith(t, "int(") || startsWith(t, "round(") || startsWith(t, "math.floor(") || startsWith(t, "math.ceil(")) {
    const std::size_t open = t.find('(');
    for (std::string_view factor : splitTop(t.substr(open + 1, closing(t, open) - open - 1), '*'))
      if (const std::optional<double> d = literal(factor); d && *d > 0 && *d < 1)
        return true;
  }
  return false;
}

/// One index component keeps part of its dimension.
bool partialComponent(std::string_view c) {
  const std::vector<std::string_view> parts = splitTop(c, ':');
  if (parts.size() < 2)
    return false;
  const std::string_view start = parts[0], stop = parts[1];
  if (parts.size() == 3)
    if (const std::optional<double> step = literal(parts[2]); step && *step >= 2)
      return true;
  const std::optional<double> stopLit = literal(stop);
  const std::optional<double> startLit = literal(start);
  if (stopLit && *stopLit >= 1 && (start.empty() || startLit))
    return true;
  if (!stop.empty() && isFraction(stop) && (start.empty() || (startLit && *startLit == 0)))
    return true;
  return stop.empty() && isFraction(start);
}

/// The receiver of a method whose `.` is at `dot`: the primary expression just before it.
std::string_view receiverBefore(std::string_view t, std::size_t dot) {
  std::size_t i = dot;
  while (i > 0) {
    const char c = t[i - 1];
    if (c == ')' || c == ']') {
      int depth = 0;
      std::size_t j = i;
      while (j > 0) {
        const char d = t[j - 1];
        if (d == ')' || d == ']')
          ++depth;
        else if ((d == '(' || d == '[') && --depth == 0)
          break;
        --j;
      }
      if (j == 0)
        break;
      i = j - 1;
    } else if (isIdentChar(c) || c == '.') {
      --i;
    } else {
      break;
    }
  }
  return t.substr(i, dot - i);
}

bool hasReduction(std::string_view t) {
  for (const std::string_view r : {".sum(", "sum(", ".mean(", "mean(", ".nansum("})
    if (t.find(r) != std::string_view::npos)
      return true;
  return false;
}

/// Casts, copies, views and metadata: calls that do not compute a new value.
bool isInertMethod(std::string_view m) {
  static constexpr std::array<std::string_view, 33> kInert = {
      "float",      "half", "bfloat16",  "double",    "to",        "type",         "clone", "cpu",        "cuda",
      "contiguous", "size", "numel",     "dim",       "stride",    "data_ptr",     "item",  "len",        "int",
      "range",      "min",  "max",       "tolist",    "empty",     "empty_like",   "zeros", "zeros_like", "ones",
      "ones_like",  "full", "full_like", "new_empty", "new_zeros", "empty_strided"};
  return isViewMethod(m) || std::find(kInert.begin(), kInert.end(), m) != kInert.end();
}

/// A fresh allocation: its contents come from no input, whatever shape it borrows.
bool isAllocation(const py::Expr &e) {
  static constexpr std::array<std::string_view, 11> kAlloc = {"empty",     "empty_like", "zeros",        "zeros_like",
                                                              "ones",      "ones_like",  "full",         "full_like",
                                                              "new_empty", "new_zeros",  "empty_strided"};
  if (e.kind != py::ExprKind::Call)
    return false;
  const std::string_view m =
      pytext::lastSegment(e.resolved.empty() ? std::string_view(e.text) : std::string_view(e.resolved));
  return std::find(kAlloc.begin(), kAlloc.end(), m) != kAlloc.end();
}

} // namespace

std::string partialSlice(std::string_view text, const std::set<std::string> &inputs) {
  for (const std::string &name : inputs) {
    for (std::size_t pos = pytext::findIdentifier(text, name); pos != std::string_view::npos;
         pos = pytext::findIdentifier(text, name, pos + 1)) {
      if (pos > 0 && text[pos - 1] == '.')
        continue;
      std::size_t open = pos + name.size();
      // Through view-like calls: `x.view(-1)[::4]`, `x.flatten()[:64]`.
      while (open < text.size() && text[open] == '.') {
        std::size_t j = open + 1;
        while (j < text.size() && isIdentChar(text[j]))
          ++j;
        if (j >= text.size() || text[j] != '(' || !isInertMethod(text.substr(open + 1, j - open - 1)))
          break;
        const std::size_t close = closing(text, j);
        if (close == std::string_view::npos)
          break;
        open = close + 1;
      }
      if (open >= text.size() || text[open] != '[')
        continue;
      const std::size_t close = closing(text, open);
      if (close == std::string_view::npos)
        continue;
      for (std::string_view c : splitTop(text.substr(open + 1, close - open - 1), ','))
        if (partialComponent(c))
          return std::string(text.substr(pos, close + 1 - pos));
    }
  }
  return {};
}

std::string replicationIn(std::string_view t, const std::function<bool(std::string_view)> &isPart,
                          std::string *operand) {
  const auto found = [&](std::string_view construct, std::string_view op) {
    if (operand)
      *operand = std::string(trim(op));
    return std::string(construct);
  };
  // Methods on the replicated value.
  for (const std::string_view m :
       {".repeat(", ".tile(", ".expand(", ".expand_as(", ".repeat_interleave(", ".broadcast_to("})
    for (std::size_t pos = t.find(m); pos != std::string_view::npos; pos = t.find(m, pos + 1))
      if (const std::string_view recv = receiverBefore(t, pos); !recv.empty() && isPart(recv))
        return found(m, recv);
  // Functions taking it first, and concatenations of copies.
  for (std::size_t pos = 0; pos < t.size(); ++pos) {
    if (!isIdentChar(t[pos]) || (pos > 0 && isIdentChar(t[pos - 1])))
      continue;
    std::size_t j = pos;
    while (j < t.size() && isIdentChar(t[j]))
      ++j;
    if (j >= t.size() || t[j] != '(')
      continue;
    const std::string_view fn = t.substr(pos, j - pos);
    const std::size_t close = closing(t, j);
    if (close == std::string_view::npos)
      continue;
    std::size_t from = pos; // the dotted name as written: `torch.cat(`
    while (from > 0 && (isIdentChar(t[from - 1]) || t[from - 1] == '.'))
      --from;
    const std::vector<std::string_view> args = splitTop(t.substr(j + 1, close - j - 1), ',');
    const std::string_view first = args.empty() ? std::string_view{} : args[0];
    const bool dotted = pos > 0 && t[pos - 1] == '.';
    if ((fn == "tile" || fn == "broadcast_to" || fn == "repeat_interleave" || fn == "repeat") && dotted &&
        !first.empty() && isPart(first))
      return found(t.substr(from, j + 1 - from), first);
    const bool concat =
        fn == "cat" || fn == "concat" || fn == "concatenate" || fn == "stack" || fn == "hstack" || fn == "vstack";
    if (!concat || first.empty() || (first.front() != '[' && first.front() != '('))
      continue;
    const std::size_t listEnd = closing(first, 0);
    if (listEnd == std::string_view::npos)
      continue;
    const std::vector<std::string_view> items = splitTop(first.substr(1, listEnd - 1), ',');
    const std::string_view rest = trim(first.substr(listEnd + 1));
    if (startsWith(rest, "*") && !items.empty() && isPart(items[0]))
      return found(t.substr(from, j + 1 - from), items[0]); // `[y] * k`
    for (std::size_t a = 0; a < items.size(); ++a)
      for (std::size_t b = a + 1; b < items.size(); ++b)
        if (!items[a].empty() && items[a] == items[b] && isPart(items[a]))
          return found(t.substr(from, j + 1 - from), items[a]);
  }
  return {};
}

std::string rescaleIn(std::string_view text, const std::function<bool(std::string_view)> &isPartSum) {
  const std::vector<std::string_view> factors = splitTop(text, '*');
  if (factors.size() < 2)
    return {};
  for (std::string_view f : factors) {
    if (!isPartSum(f))
      continue;
    for (std::string_view g : factors) {
      if (g.data() == f.data())
        continue;
      const std::optional<double> d = literal(g);
      if ((d && *d > 1) || (!d && g.find('/') != std::string_view::npos))
        return std::string(f);
    }
  }
  return {};
}

// ---- the entry's data flow ----------------------------------------------------------------

namespace {

struct Part {
  LineRange slice;
  std::string sliceText;
  bool computed = false;
  bool reduced = false;
};

class PartialFlow {
public:
  PartialFlow(const Facts &facts, const GradedEntry &entry)
      : facts_(facts), py_(facts.python), fn_(*entry.function), assigns_(assignmentsIn(py_, fn_.qualname)),
        calls_(callsIn(py_, fn_.qualname)) {
    inputs_.insert(entry.inputs.begin(), entry.inputs.end());
    if (entry.convention == EntryConvention::CustomKernel)
      for (const py::Assignment *a : assigns_) // `a, b, c = data`: the inputs (and the output) are its items
        if (a->kind == py::Assignment::TargetKind::Name && !entry.inputs.empty() &&
            isStorageOf(a->value, {entry.inputs.front()})) {
          inputs_.insert(a->target);
          dataItems_.insert(a->target);
        }
    if (!entry.output.empty())
      output_ = entry.output;
    for (const py::Assignment *a : assigns_) // whole views of an input are the input
      if (a->kind == py::Assignment::TargetKind::Name && a->op == "=" && isStorageOf(a->value, inputs_) &&
          partialSlice(a->value.text, inputs_).empty())
        inputs_.insert(a->target);
  }

  std::vector<PartialComputation> run() {
    taintParts();
    std::vector<PartialComputation> out;
    for (const Site &s : sites()) {
      PartialComputation pc;
      pc.slice = s.part.slice;
      pc.sliceText = s.part.sliceText;
      pc.fill = s.lines;
      pc.fillText = s.construct;
      pc.rescale = s.rescale;
      pc.computed = s.part.computed;
      pc.reachesResult = reaches(s);
      out.push_back(std::move(pc));
    }
    return out;
  }

private:
  struct Site {
    LineRange lines;
    std::string construct;
    bool rescale = false;
    Part part;
    std::string target; ///< the Name it is assigned to, "" when it is returned or passed directly
    bool returned = false;
    const py::Call *writer = nullptr; ///< a call whose argument it is
  };

  const Facts &facts_;
  const py::PythonFacts &py_;
  const py::Function &fn_;
  std::vector<const py::Assignment *> assigns_;
  std::vector<const py::Call *> calls_;
  std::set<std::string> inputs_;
  /// custom_kernel: the items of `data`, one of which may be the output buffer a launch writes.
  std::set<std::string> dataItems_;
  std::string output_;
  std::map<std::string, Part> parts_;

  /// Calls of the statement on `lines` beyond casts, views and metadata: a computation.
  bool computes(const py::Expr &value, LineRange lines) const {
    if (value.kind == py::ExprKind::BinaryOp)
      return true;
    return std::any_of(calls_.begin(), calls_.end(), [&](const py::Call *c) {
      return scope::contains(lines, c->lines) && !isInertMethod(c->method) && c->callee != "len";
    });
  }

  std::set<std::string> partNames() const {
    std::set<std::string> out;
    for (const auto &[n, p] : parts_)
      out.insert(n);
    return out;
  }

  /// The part `text` carries: the first part name it uses, else a slice written in it.
  std::optional<Part> partOf(std::string_view text, LineRange lines) const {
    for (const auto &[n, p] : parts_)
      if (usesStorage(text, {n}))
        return p;
    const std::string s = partialSlice(text, inputs_);
    if (s.empty())
      return std::nullopt;
    return Part{lines, s, false, hasReduction(text)};
  }

  void merge(const std::string &name, Part p) {
    auto [it, fresh] = parts_.try_emplace(name, p);
    if (!fresh) {
      it->second.computed |= p.computed;
      it->second.reduced |= p.reduced;
    }
  }

  void taintParts() {
    for (int round = 0; round < 4; ++round) {
      const std::size_t before = parts_.size();
      for (const py::Assignment *a : assigns_) {
        if (a->kind != py::Assignment::TargetKind::Name || inputs_.count(a->target) || isAllocation(a->value))
          continue;
        std::optional<Part> p = partOf(a->value.text, a->lines);
        if (!p)
          continue;
        p->computed |= computes(a->value, a->lines);
        p->reduced |= hasReduction(a->value.text);
        merge(a->target, *p);
      }
      // Calls that write their arguments from a part: `k[grid](x[:h], y)`, `y.copy_(part)`.
      for (const py::Call *c : calls_) {
        std::optional<Part> p;
        for (const py::Argument &arg : c->args)
          if (!p)
            p = partOf(arg.value.text, c->lines);
        if (!p)
          continue;
        p->computed = true;
        if (!c->receiver.empty() && isInPlaceMethod(c->method) && !inputs_.count(std::string(headName(c->receiver))))
          merge(std::string(headName(c->receiver)), *p);
        const bool writer = !c->launchedKernel.empty() || c->keywordArg("out");
        for (const py::Argument &arg : c->args)
          if (writer && arg.value.kind == py::ExprKind::Name &&
              (!inputs_.count(arg.value.text) || dataItems_.count(arg.value.text)) && !partOf(arg.value.text, c->lines))
            merge(arg.value.text, *p);
      }
      if (parts_.size() == before && round > 0)
        break;
    }
  }

  /// Where a part is replicated or rescaled.
  std::vector<Site> sites() const {
    std::vector<Site> out;
    const std::set<std::string> names = partNames();
    const auto consider = [&](std::string_view text, LineRange lines, std::string target, bool returned,
                              const py::Call *writer) {
      std::string operand;
      std::string construct = replicationIn(
          text, [&](std::string_view op) { return partOf(op, lines).has_value(); }, &operand);
      bool rescale = false;
      if (construct.empty()) {
        operand = rescaleIn(text, [&](std::string_view f) {
          const std::optional<Part> p = partOf(f, lines);
          return p && (p->reduced || hasReduction(f));
        });
        if (operand.empty())
          return;
        construct = "* (a ratio)";
        rescale = true;
      }
      std::optional<Part> p = partOf(operand, lines);
      if (!p)
        return;
      // A call on the slice inside the operand itself (`k(x[:1]).expand(...)`) computes.
      p->computed |= !names.count(std::string(headName(operand))) && operand.find('(') != std::string::npos &&
                     !isStorageOf(operand, inputs_);
      out.push_back(Site{lines, construct, rescale, *p, std::move(target), returned, writer});
    };
    std::map<std::pair<std::string, std::string>, std::string> stored; // (tensor, part) -> first target
    for (const py::Assignment *a : assigns_) {
      // `total *= n / m` on a sum over a part.
      const std::optional<double> factor = literal(a->value.text);
      if (a->op == "*=" && a->kind == py::Assignment::TargetKind::Name && parts_.count(a->target) &&
          parts_.at(a->target).reduced &&
          ((factor && *factor > 1) || (!factor && a->value.text.find('/') != std::string::npos))) {
        out.push_back(Site{a->lines, "*= (a ratio)", true, parts_.at(a->target), a->target, false, nullptr});
        continue;
      }
      consider(a->value.text, a->lines, a->kind == py::Assignment::TargetKind::Name ? a->target : std::string{}, false,
               nullptr);
      // `out[h:] = out[:h]`: the rest of a tensor filled with a copy of its computed part.
      if (a->kind == py::Assignment::TargetKind::Subscript && parts_.count(std::string(headName(a->target))) &&
          std::string(headName(a->value.text)) == std::string(headName(a->target)) && isStorageOf(a->value, names))
        out.push_back(Site{a->lines, "a copy of its own part", false, parts_.at(std::string(headName(a->target))),
                           std::string(headName(a->target)), false, nullptr});
      // `out[:h] = y; out[h:] = y`: the same computed part stored into two places of a tensor.
      if (a->kind == py::Assignment::TargetKind::Subscript && a->op == "=" && a->value.kind == py::ExprKind::Name &&
          parts_.count(a->value.text)) {
        const auto key = std::make_pair(std::string(headName(a->target)), a->value.text);
        if (const auto it = stored.find(key); it == stored.end())
          stored.emplace(key, a->target);
        else if (it->second != a->target)
          out.push_back(
              Site{a->lines, "the same part stored twice", false, parts_.at(a->value.text), key.first, false, nullptr});
      }
    }
    for (const py::Return &r : py_.returns)
      if (r.function == fn_.qualname)
        consider(r.value.text, r.lines, {}, true, nullptr);
    for (const py::Call *c : calls_)
      for (const py::Argument &arg : c->args)
        consider(arg.value.text, c->lines, {}, false, c);
    // One site per statement.
    std::sort(out.begin(), out.end(), [](const Site &a, const Site &b) { return a.lines.begin < b.lines.begin; });
    out.erase(std::unique(out.begin(), out.end(), [](const Site &a, const Site &b) { return a.lines == b.lines; }),
              out.end());
    return out;
  }

  /// The filled value reaches a `return` of the entry or the output buffer it writes.
  bool reaches(const Site &s) const {
    if (s.returned)
      return true;
    std::set<std::string> filled;
    if (!s.target.empty())
      filled.insert(s.target);
    if (s.writer) { // the call writes the filled value into its receiver or its out=/launch args
      const py::Call &c = *s.writer;
      if (!c.receiver.empty() && isInPlaceMethod(c.method))
        filled.insert(std::string(headName(c.receiver)));
      for (const py::Argument &arg : c.args)
        if ((!c.launchedKernel.empty() || arg.keyword == "out") && arg.value.kind == py::ExprKind::Name)
          filled.insert(arg.value.text);
    }
    for (int round = 0; round < 4; ++round) {
      const std::size_t before = filled.size();
      for (const py::Assignment *a : assigns_)
        if (a->lines.begin >= s.lines.begin && usesStorage(a->value.text, filled))
          filled.insert(std::string(headName(a->target)));
      for (const py::Call *c : calls_) {
        if (c->lines.begin < s.lines.begin)
          continue;
        bool uses = false;
        for (const py::Argument &arg : c->args)
          uses |= usesStorage(arg.value.text, filled);
        if (uses && !c->receiver.empty() && isInPlaceMethod(c->method))
          filled.insert(std::string(headName(c->receiver)));
      }
      if (filled.size() == before)
        break;
    }
    if (!output_.empty() && filled.count(output_))
      return true;
    return std::any_of(py_.returns.begin(), py_.returns.end(), [&](const py::Return &r) {
      return r.function == fn_.qualname && r.lines.begin >= s.lines.begin && usesStorage(r.value.text, filled);
    });
  }
};

} // namespace

std::vector<PartialComputation> partialComputations(const Facts &facts, const GradedEntry &entry) {
  return PartialFlow(facts, entry).run();
}

} // namespace kbaudit::semantic
