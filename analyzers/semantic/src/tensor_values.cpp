#include "kbaudit/semantic/tensor_values.h"

#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/expr_structure.h"
#include "kbaudit/semantic/python_text.h"

namespace kbaudit::semantic {

using pytext::startsWith;

TensorValues::TensorValues(const Facts &facts) : py_(facts.python) {
  for (const py::Import &i : py_.imports)
    imported_.insert(i.boundName.substr(0, i.boundName.find('.')));
  reachable_.insert(facts.kernels.reachableFunctions.begin(), facts.kernels.reachableFunctions.end());
  reachable_.insert(facts.kernels.entryPoints.begin(), facts.kernels.entryPoints.end());
}

bool TensorValues::isParam(const std::string &name, const std::string &function) const {
  const py::Function *fn = py_.findFunction(function);
  if (!fn)
    return false;
  for (const std::string &p : fn->params)
    if (p == name && p != "self" && p != "cls")
      return true;
  return false;
}

// What a value expression evaluates to, as far as tensors go.
TensorKind TensorValues::valueKind(const py::Expr &v, const std::string &function, unsigned depth) const {
  switch (v.kind) {
  case py::ExprKind::List:
  case py::ExprKind::Tuple:
  case py::ExprKind::Set:
  case py::ExprKind::Dict:
  case py::ExprKind::String:
  case py::ExprKind::Number:
    return TensorKind::NotTensor;
  case py::ExprKind::Call: {
    std::string_view callee = v.resolved;
    for (std::string_view builtin : {"list", "sorted", "dict", "set", "tuple", "range", "zip", "enumerate"})
      if (callee == builtin)
        return TensorKind::NotTensor;
    if (startsWith(callee, "torch.nn.functional."))
      return TensorKind::Tensor;
    // torch namespaces that build modules, devices, streams and dtypes, not tensors.
    for (std::string_view other :
         {"torch.utils.", "torch.cuda.", "torch.backends.", "torch.library.", "torch.nn.", "torch.device",
          "torch.Generator", "torch.finfo", "torch.iinfo", "torch.Size", "torch.dtype", "numpy.", "triton.Config"})
      if (startsWith(callee, other))
        return TensorKind::NotTensor;
    if (startsWith(callee, "torch.") || startsWith(callee, "triton."))
      return TensorKind::Tensor;
    // A method on a tensor (`x.float()`, `x.view(...)`) yields a tensor.
    if (callee.find('.') != std::string_view::npos)
      return receiverKind(std::string(rootName(v)), function, depth + 1);
    return TensorKind::Unknown;
  }
  case py::ExprKind::Subscript:
  case py::ExprKind::Name:
  case py::ExprKind::Attribute:
    return receiverKind(std::string(rootName(v)), function, depth + 1);
  case py::ExprKind::Other:
    // Comprehensions and generators build containers, not tensors.
    return isComprehension(py_, v, function) ? TensorKind::NotTensor : TensorKind::Unknown;
  default:
    return TensorKind::Unknown;
  }
}

TensorKind TensorValues::receiverKind(const std::string &receiver, const std::string &function, unsigned depth) const {
  if (depth > 4 || receiver.empty())
    return TensorKind::Unknown;
  // An expression (`x[:, :k]`, `x.view(-1)`): its head decides.
  std::string head = receiver.substr(0, receiver.find_first_of("[.("));
  if (head.empty()) {
    if (receiver.front() == '[' || receiver.front() == '{')
      return TensorKind::NotTensor;
    return TensorKind::Unknown;
  }
  if (head == "self") {
    std::string attr = receiver.size() > 5 ? receiver.substr(5) : "";
    attr = attr.substr(0, attr.find_first_of("[.("));
    return selfAttributeKind(attr, depth);
  }
  if (imported_.count(head))
    return TensorKind::Unknown;
  if (isParam(head, function))
    return reachable_.count(function) ? TensorKind::Tensor : TensorKind::Unknown;
  TensorKind found = TensorKind::Unknown;
  for (const py::Assignment &a : py_.assignments)
    if (a.kind == py::Assignment::TargetKind::Name && a.target == head && a.function == function && a.op == "=") {
      TensorKind k = valueKind(a.value, function, depth + 1);
      if (k != TensorKind::Unknown)
        found = k; // the last classifiable binding wins
    }
  return found;
}

TensorKind TensorValues::selfAttributeKind(const std::string &attr, unsigned depth) const {
  if (attr.empty())
    return TensorKind::Unknown;
  for (const py::Assignment &a : py_.assignments)
    if (a.kind == py::Assignment::TargetKind::SelfAttribute && a.target == "self." + attr && a.op == "=")
      if (TensorKind k = valueKind(a.value, a.function, depth + 1); k != TensorKind::Unknown)
        return k;
  return TensorKind::Unknown;
}

} // namespace kbaudit::semantic
