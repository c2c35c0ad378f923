#include "kbaudit/semantic/exact_size_test.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace kbaudit::semantic {

using namespace pytext;

namespace {

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

bool mentionsShape(std::string_view text) {
  for (std::string_view s : {".shape", ".size(", ".numel(", "len(", ".ndim", ".dim("})
    if (text.find(s) != std::string_view::npos)
      return true;
  return false;
}

/// `lhs == 4096`, `(M, N) == (4096, 4096)`, `n in (4096, 8192)`: the side that is not the
/// constant, when the constant holds a large size.
std::optional<ExactSizeTest> exactTest(std::string_view clause) {
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
      if (std::none_of(ints->begin(), ints->end(), [](long v) { return v >= kLargeProblemSize; }))
        continue;
      if (subject.find('%') != std::string_view::npos || subject.find("//") != std::string_view::npos)
        continue; // alignment arithmetic, not a size
      ExactSizeTest t;
      t.subject = std::string(trim(subject));
      t.clause = std::string(trim(clause));
      t.subjectReadsShape = mentionsShape(subject);
      std::string_view s = unwrap(subject);
      while (!s.empty()) {
        const size_t comma = s.find(',');
        const std::string_view item = trim(s.substr(0, comma));
        s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
        if (!item.empty())
          t.items.emplace_back(item);
      }
      return t;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace

std::vector<ExactSizeTest> exactSizeTests(std::string_view condition) {
  std::vector<ExactSizeTest> out;
  for (std::string_view clause : clauses(condition))
    if (std::optional<ExactSizeTest> t = exactTest(clause))
      out.push_back(std::move(*t));
  return out;
}

std::vector<ExactSizeTest> exactSizeTests(const py::Expr &e) {
  if (e.kind != py::ExprKind::Comparison && e.kind != py::ExprKind::BoolOp && e.kind != py::ExprKind::UnaryOp)
    return {};
  return exactSizeTests(std::string_view(e.text));
}

} // namespace kbaudit::semantic
