#include "kbaudit/semantic/input_view.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_expr_scan.h"

namespace kbaudit::semantic {

bool isViewOfParam(const py::Expr &e, std::string_view param) {
  if (isName(e, param))
    return true;
  if (rootName(e) != param || !reads(e, param))
    return false;
  return pyexpr::isViewOf(e.text, param);
}

} // namespace kbaudit::semantic
