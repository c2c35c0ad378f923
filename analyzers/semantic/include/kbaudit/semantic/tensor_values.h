#pragma once

// Whether a Python value is a tensor, as far as the file shows: the receiver of a method call
// (`x.topk(k)`, `self.w.sort()`, `h.view(-1).max()`), followed through its parameter, its
// bindings in the function and, for `self.attr`, the attribute's bindings in any method. WRAP005
// asks it before reading `x.topk(k)` as the forbidden `torch.topk`: a list's `sort` is none.

#include "kbaudit/facts.h"

#include <set>
#include <string>
#include <string_view>

namespace kbaudit::semantic {

enum class TensorKind { Tensor, NotTensor, Unknown };

class TensorValues {
public:
  explicit TensorValues(const Facts &facts);

  /// The receiver as the call fact spells it (`x`, `x[:, :k]`, `self.w`, `h.view(-1)`) in
  /// `function`: its head name decides. A parameter of a function forward reaches is a tensor;
  /// a name bound to a literal, a container builtin, a comprehension or a non-tensor torch
  /// namespace (torch.cuda., torch.nn., torch.device, ...) is not; a torch or triton call, an
  /// F. op or a method on a tensor is. The last binding that says either way wins; an imported
  /// name is Unknown.
  TensorKind ofReceiver(const std::string &receiver, const std::string &function) const {
    return receiverKind(receiver, function, 0);
  }
  /// The same reading of a value expression bound in `function`.
  TensorKind ofValue(const py::Expr &v, const std::string &function) const { return valueKind(v, function, 0); }

private:
  bool isParam(const std::string &name, const std::string &function) const;
  TensorKind valueKind(const py::Expr &v, const std::string &function, unsigned depth) const;
  TensorKind receiverKind(const std::string &receiver, const std::string &function, unsigned depth) const;
  TensorKind selfAttributeKind(const std::string &attr, unsigned depth) const;

  const py::PythonFacts &py_;
  std::set<std::string> imported_;  ///< the head names imports bind
  std::set<std::string> reachable_; ///< functions forward reaches, and the entry points
};

} // namespace kbaudit::semantic
