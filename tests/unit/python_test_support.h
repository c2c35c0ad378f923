#pragma once

// Helpers shared by the python_*_test.cpp files: fixtures are inline strings, facts are
// looked up by what a rule would search for.

#include "kbaudit/python/frontend.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::py::testing {

/// Fixture text written as a raw string that starts with a newline: the newline is
/// dropped so the first fixture line is line 1.
inline std::string src(std::string_view s) {
  if (!s.empty() && s.front() == '\n')
    s.remove_prefix(1);
  return std::string(s);
}

inline std::vector<const Call *> callsTo(const PythonFacts &f, std::string_view resolved) {
  std::vector<const Call *> out;
  for (const auto &c : f.calls)
    if (c.resolved == resolved)
      out.push_back(&c);
  return out;
}

inline const Call *callTo(const PythonFacts &f, std::string_view resolved, size_t nth = 0) {
  auto all = callsTo(f, resolved);
  return nth < all.size() ? all[nth] : nullptr;
}

inline std::vector<const Assignment *> assignmentsTo(const PythonFacts &f, std::string_view target) {
  std::vector<const Assignment *> out;
  for (const auto &a : f.assignments)
    if (a.target == target)
      out.push_back(&a);
  return out;
}

inline const Assignment *assignmentTo(const PythonFacts &f, std::string_view target, size_t nth = 0) {
  auto all = assignmentsTo(f, target);
  return nth < all.size() ? all[nth] : nullptr;
}

/// The value of the first assignment to `target` (an empty Expr, and a test failure, when none).
inline const Expr &valueOf(const PythonFacts &f, std::string_view target) {
  const Assignment *a = assignmentTo(f, target);
  EXPECT_NE(a, nullptr) << target;
  static const Expr none;
  return a ? a->value : none;
}

/// `source` (one expression, possibly over several lines, with comments) summarised as the value
/// of an assignment of its own; kind Other and no names when it does not parse as one.
inline Expr exprOf(std::string_view source) {
  const PythonFacts f = analyze("__kbaudit_expr = (\n" + std::string(source) + "\n)\n");
  if (!f.diagnostics.empty())
    return Expr{};
  const Assignment *a = assignmentTo(f, "__kbaudit_expr");
  return a ? a->value : Expr{};
}

inline const Import *importOf(const PythonFacts &f, std::string_view boundName) {
  for (const auto &i : f.imports)
    if (i.boundName == boundName)
      return &i;
  return nullptr;
}

inline std::vector<const StringConstant *> stringsWithValue(const PythonFacts &f, std::string_view value) {
  std::vector<const StringConstant *> out;
  for (const auto &s : f.strings)
    if (s.value.value == value)
      out.push_back(&s);
  return out;
}

inline const Branch *branchAt(const PythonFacts &f, unsigned line) {
  for (const auto &b : f.branches)
    if (b.lines.begin == line)
      return &b;
  return nullptr;
}

inline std::vector<const Return *> returnsIn(const PythonFacts &f, std::string_view function) {
  std::vector<const Return *> out;
  for (const auto &r : f.returns)
    if (r.function == function)
      out.push_back(&r);
  return out;
}

inline bool hasTag(const Branch &b, ConditionTag t) {
  for (auto x : b.tags)
    if (x == t)
      return true;
  return false;
}

inline std::vector<unsigned> lines(std::initializer_list<unsigned> l) { return std::vector<unsigned>(l); }

} // namespace kbaudit::py::testing
