#include "kbaudit/semantic/input_view.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_reads.h"

namespace kbaudit::semantic {

bool isViewOfParam(const py::Expr &e, std::string_view param) {
  if (isName(e, param))
    return true;
  if (rootName(e) != param || !reads(e, param))
    return false;
  return isViewOf(e, param);
}

} // namespace kbaudit::semantic
