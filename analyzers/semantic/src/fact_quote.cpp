#include "kbaudit/semantic/fact_quote.h"

#include "kbaudit/semantic/expr_query.h"

namespace kbaudit::semantic {

namespace {

// One quoting rule for every spelling: the expression quote's.
std::string quoteSpelling(const std::string &spelling, std::size_t max) {
  py::Expr e;
  e.text = spelling;
  return quote(e, max);
}

} // namespace

std::string quote(const triton::DotArg &a, std::size_t max) { return quoteSpelling(a.text, max); }
std::string quote(const triton::DotOperand &op, std::size_t max) { return quoteSpelling(op.text, max); }
std::string quote(const py::Decorator &d, std::size_t max) { return quoteSpelling(d.text, max); }
std::string quote(const py::NameRef &r, std::size_t max) { return quoteSpelling(r.text, max); }

std::string quote(const cxx::PtxInstruction &p) {
  std::string out = p.opcode;
  for (const std::string &m : p.modifiers)
    out += "." + m;
  return out;
}

const std::string &describe(const CompiledEvidence &ce) { return ce.text; }
const std::string &describe(const CompiledMma &m) { return m.text; }

} // namespace kbaudit::semantic
