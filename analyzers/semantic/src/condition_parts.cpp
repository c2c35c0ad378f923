#include "kbaudit/semantic/condition_parts.h"

#include "kbaudit/python/frontend.h"
#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <array>

namespace kbaudit::semantic {

namespace {

using pytext::startsWith;
using pytext::trim;

/// Calls `visit(i)` for each index of `text` that is Python code rather than the inside or
/// the opening quote of a string literal, or a comment; `visit` may move `i` on.
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
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') // a comment runs to the end of its line
        ++i;
    } else {
      visit(i);
    }
  }
}

/// Top-level pieces of `text` split at `sep` (outside brackets, strings and comments).
std::vector<std::string_view> splitTopLevel(std::string_view text, std::string_view sep) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  forEachCodeChar(text, [&](std::size_t &i) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (depth == 0 && text.substr(i, sep.size()) == sep) {
      out.push_back(trim(text.substr(start, i - start)));
      start = i + sep.size();
      i = start - 1;
    }
  });
  out.push_back(trim(text.substr(start)));
  return out;
}

/// `(inner)` where the parentheses enclose the whole text.
bool wrapped(std::string_view t) {
  if (t.size() < 2 || t.front() != '(' || t.back() != ')')
    return false;
  int depth = 0;
  bool whole = true;
  forEachCodeChar(t, [&](std::size_t &i) {
    depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
    if (depth == 0 && i + 1 < t.size())
      whole = false;
  });
  return whole;
}

/// A whitespace character a Python keyword operator may stand between.
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\'; }

/// `text` with every run of blanks (and line continuations) outside strings turned into one
/// space, so that ` is\n  not ` splits like ` is not `.
std::string normaliseBlanks(std::string_view text) {
  std::string out;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '#') { // keep the comment's line break so the parser sees it end
      while (i < text.size() && text[i] != '\n')
        ++i;
      out += ' ';
      continue;
    }
    if (c == '"' || c == '\'')
      quote = c;
    if (isBlank(c)) {
      if (out.empty() || out.back() != ' ')
        out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

/// A comparison found in the text, its sides not yet parsed.
struct RawComparison {
  std::string left, right;
  std::string_view op;
  bool negated;
};

void collect(std::string_view cond, bool negated, std::vector<RawComparison> &out, int depth) {
  cond = trim(cond);
  if (cond.empty() || depth > 16)
    return;
  for (std::string_view word : {" or ", " and "}) {
    const std::vector<std::string_view> parts = splitTopLevel(cond, word);
    if (parts.size() > 1) {
      for (std::string_view p : parts)
        collect(p, negated, out, depth + 1);
      return;
    }
  }
  if (startsWith(cond, "not ") || startsWith(cond, "not(")) {
    collect(cond.substr(3), !negated, out, depth + 1);
    return;
  }
  if (wrapped(cond)) {
    collect(cond.substr(1, cond.size() - 2), negated, out, depth + 1);
    return;
  }
  struct Op {
    std::string_view spelled, name;
    bool negates;
  };
  static constexpr std::array<Op, 6> kOps = {{{" is not ", "is not", true},
                                               {" not in ", "not in", true},
                                               {" is ", "is", false},
                                               {" in ", "in", false},
                                               {"==", "==", false},
                                               {"!=", "!=", true}}};
  for (const Op &op : kOps) {
    const std::vector<std::string_view> sides = splitTopLevel(cond, op.spelled);
    if (sides.size() != 2)
      continue;
    out.push_back(RawComparison{std::string(sides[0]), std::string(sides[1]), op.name, negated != op.negates});
    return;
  }
}

/// Each of `sources` parsed as an expression of its own, in one run of the front end: one
/// assignment per source, each parenthesised on lines of its own so that a trailing comment or
/// a line break inside it cannot end the statement early. A source that does not parse (or
/// spills into its neighbours) gets an empty operand.
std::vector<Operand> parseOperands(const std::vector<std::string_view> &sources) {
  std::string program;
  std::vector<LineRange> spans;
  unsigned line = 1;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::string text = "__kbaudit_expr" + std::to_string(i) + " = (\n" + std::string(sources[i]) + "\n)\n";
    const auto lines = static_cast<unsigned>(std::count(text.begin(), text.end(), '\n'));
    spans.push_back({line, line + lines - 1});
    line += lines;
    program += text;
  }
  py::PythonFacts facts = py::analyze(program);
  std::vector<Operand> out(sources.size());
  std::vector<bool> broken(sources.size(), false);
  for (const Diagnostic &d : facts.diagnostics)
    for (std::size_t i = 0; i < spans.size(); ++i)
      broken[i] = broken[i] || !d.lines.valid() || spans[i].overlaps(d.lines);
  for (py::Assignment &a : facts.assignments) {
    for (std::size_t i = 0; i < spans.size(); ++i)
      if (!broken[i] && a.function.empty() && a.target == "__kbaudit_expr" + std::to_string(i) &&
          spans[i].contains(a.lines.begin) && spans[i].contains(a.lines.end))
        out[i].value = std::move(a.value);
  }
  for (py::Call &c : facts.calls)
    for (std::size_t i = 0; i < spans.size(); ++i)
      if (!broken[i] && spans[i].contains(c.lines.begin))
        out[i].calls.push_back(std::move(c));
  return out;
}

} // namespace

Operand operandOf(std::string_view source) { return std::move(parseOperands({source}).front()); }

std::vector<ConditionComparison> conditionComparisons(std::string_view condition) {
  std::vector<RawComparison> raw;
  collect(normaliseBlanks(condition), false, raw, 0);
  std::vector<std::string_view> sides;
  for (const RawComparison &r : raw) {
    sides.push_back(r.left);
    sides.push_back(r.right);
  }
  std::vector<Operand> operands = parseOperands(sides);
  std::vector<ConditionComparison> out;
  for (std::size_t i = 0; i < raw.size(); ++i)
    out.push_back(ConditionComparison{std::move(operands[2 * i]), std::move(operands[2 * i + 1]), std::string(raw[i].op),
                                      raw[i].negated});
  return out;
}

} // namespace kbaudit::semantic
