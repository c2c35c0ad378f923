#include "kbaudit/semantic/sampled_key.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_expr_scan.h"

namespace kbaudit::semantic {

namespace {

/// The inputs `e` reads as free names (never ones spelled only inside a literal or comment).
std::set<std::string> readInputs(const py::Expr &e, const std::set<std::string> &inputs) {
  std::set<std::string> out;
  for (const std::string &n : inputs)
    if (reads(e, n))
      out.insert(n);
  return out;
}

} // namespace

std::string constantSampleOf(const py::Expr &e, const std::set<std::string> &inputs) {
  const std::set<std::string> read = readInputs(e, inputs);
  return read.empty() ? std::string() : pyexpr::constantIndexSample(e.text, read);
}

std::string wholeReductionOf(const py::Expr &e, const std::set<std::string> &inputs) {
  const std::set<std::string> read = readInputs(e, inputs);
  return read.empty() ? std::string() : pyexpr::wholeTensorReduction(e.text, read);
}

} // namespace kbaudit::semantic
