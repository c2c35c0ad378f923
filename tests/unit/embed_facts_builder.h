#pragma once

// Hand-built Python facts for the embed analyzer's unit tests, so they do not depend on
// the tree-sitter front end: each helper builds one fact the way the front end would.

#include "kbaudit/python/facts.h"

#include <string>
#include <utility>
#include <vector>

namespace kbaudit::embedtest {

inline LineRange at(unsigned begin, unsigned end = 0) { return {begin, end ? end : begin}; }

/// A folded string whose lines start on consecutive solution lines from `firstLine`.
inline py::StringValue folded(std::string value, unsigned firstLine, bool complete = true) {
  py::StringValue v;
  unsigned lines = 0;
  for (std::size_t i = 0; i < value.size(); ++i)
    if (value[i] == '\n')
      ++lines;
  if (!value.empty() && value.back() != '\n')
    ++lines;
  for (unsigned i = 0; i < lines; ++i)
    v.lineOrigins.push_back(firstLine + i);
  v.value = std::move(value);
  v.complete = complete;
  return v;
}

inline py::Expr literal(std::string value, unsigned firstLine, bool complete = true) {
  py::Expr e;
  e.kind = py::ExprKind::String;
  e.text = "\"...\"";
  e.string = folded(std::move(value), firstLine, complete);
  e.lines = at(firstLine);
  return e;
}

/// A Name as an argument: the front end copies what it is bound to into the summary.
inline py::Expr name(std::string text, unsigned line, const py::Expr &bound = {}) {
  py::Expr e;
  e.kind = py::ExprKind::Name;
  e.text = e.resolved = std::move(text);
  e.string = bound.string;
  e.elements = bound.elements;
  e.lines = at(line);
  return e;
}

inline py::Expr list(std::vector<py::Expr> items, unsigned line) {
  py::Expr e;
  e.kind = py::ExprKind::List;
  e.text = "[...]";
  e.elements = std::move(items);
  e.lines = at(line);
  return e;
}

inline py::Expr none(unsigned line) {
  py::Expr e;
  e.kind = py::ExprKind::None;
  e.text = "None";
  e.lines = at(line);
  return e;
}

/// A call used as a value; `text` is the call as written, e.g. "_build()".
inline py::Expr callExpr(std::string text, std::string resolved, LineRange lines) {
  py::Expr e;
  e.kind = py::ExprKind::Call;
  e.text = std::move(text);
  e.resolved = std::move(resolved);
  e.lines = lines;
  return e;
}

inline py::Argument pos(py::Expr v) { return py::Argument{"", std::move(v)}; }
inline py::Argument kw(std::string k, py::Expr v) { return py::Argument{std::move(k), std::move(v)}; }

inline py::Call call(std::string callee, std::string resolved, std::vector<py::Argument> args,
                     LineRange lines, std::string function = "") {
  py::Call c;
  c.callee = callee;
  c.resolved = std::move(resolved);
  const auto dot = callee.rfind('.');
  c.method = dot == std::string::npos ? callee : callee.substr(dot + 1);
  c.receiver = dot == std::string::npos ? "" : callee.substr(0, dot);
  c.args = std::move(args);
  c.function = std::move(function);
  c.lines = lines;
  return c;
}

inline py::Assignment assign(std::string target, py::Expr value, LineRange lines,
                             std::string function = "") {
  py::Assignment a;
  a.kind = target.rfind("self.", 0) == 0 ? py::Assignment::TargetKind::SelfAttribute
                                         : py::Assignment::TargetKind::Name;
  a.target = a.resolved = std::move(target);
  a.op = "=";
  a.value = std::move(value);
  a.function = std::move(function);
  a.lines = lines;
  return a;
}

inline py::Import import(std::string bound, std::string target, std::string function = "") {
  py::Import i;
  i.boundName = std::move(bound);
  i.target = std::move(target);
  i.fromImport = true;
  i.function = std::move(function);
  i.lines = at(1);
  return i;
}

inline py::Function def(std::string qualname, LineRange lines, std::string className = "") {
  py::Function f;
  const auto dot = qualname.rfind('.');
  f.name = dot == std::string::npos ? qualname : qualname.substr(dot + 1);
  f.qualname = std::move(qualname);
  f.className = std::move(className);
  f.lines = lines;
  return f;
}

inline py::StringConstant constant(std::string value, unsigned line, std::string function = "") {
  return py::StringConstant{folded(std::move(value), line), false, std::move(function), at(line)};
}

inline constexpr const char *kLoadInline = "torch.utils.cpp_extension.load_inline";
inline constexpr const char *kLoad = "torch.utils.cpp_extension.load";

} // namespace kbaudit::embedtest
