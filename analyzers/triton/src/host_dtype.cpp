// The dtype of a host tensor handed to a kernel, from the casts and factories that made it.
//
// Best effort and deliberately narrow: only a chain of calls on one tensor is followed
// (`x.half().contiguous()`), through names bound in the same function, `self.` attributes
// written in any method of the class, and parameters back to direct callers. Anything
// else (an operator, a torch op, a container) stops the walk with "unknown".

#include "dtypes.h"
#include "identifiers.h"
#include "passes.h"

#include <array>

namespace kbaudit::triton::detail {

namespace {
constexpr unsigned kMaxDepth = 8;

// Methods that keep the dtype of their receiver.
constexpr std::array<std::string_view, 28> kKeepDtype = {
    "contiguous", "clone",   "detach",     "t",          "transpose", "permute",   "view",
    "reshape",    "expand",  "expand_as",  "cuda",       "cpu",       "flatten",   "squeeze",
    "unsqueeze",  "narrow",  "view_as",    "reshape_as", "as_strided", "requires_grad_",
    "to",         "pin_memory", "repeat",  "select",     "unflatten", "movedim",   "chunk",
    "split"};

bool keepsDtype(std::string_view method) {
  for (std::string_view m : kKeepDtype)
    if (m == method)
      return true;
  return false;
}

class Walker {
public:
  explicit Walker(const Index &index) : index_(index) {}

  std::optional<HostDtype> expr(const py::Expr &e, std::string_view function, unsigned depth) {
    if (depth > kMaxDepth)
      return std::nullopt;
    switch (e.kind) {
    case py::ExprKind::Call:
      if (const py::Call *c = index_.callFor(e, function))
        return call(*c, depth);
      return std::nullopt;
    case py::ExprKind::Name:
      return name(e.text, function, e.lines.begin, depth);
    case py::ExprKind::Attribute:
      return attribute(e.text, function, depth);
    default:
      return std::nullopt;
    }
  }

private:
  std::optional<HostDtype> found(const py::Call &c, const py::Expr &dtype, std::string written) {
    HostDtype h;
    h.target = dtypeOf(index_, dtype, c.function);
    h.target.written = std::move(written);
    if (h.target.dtype.empty())
      return std::nullopt;
    h.function = c.function;
    h.lines = c.lines;
    return h;
  }

  std::optional<HostDtype> call(const py::Call &c, unsigned depth) {
    if (!c.receiver.empty() && c.launchedKernel.empty()) {
      std::string byMethod = hostCastMethodDtype(c.method);
      if (!byMethod.empty() && c.args.empty())
        return HostDtype{DtypeRef{"." + c.method + "()", byMethod}, c.function, c.lines};
      if (c.method == "to" || c.method == "type") {
        // .to(torch.X) / .to(device, torch.X) / .to(dtype=torch.X) / .type(torch.X)
        for (const auto &arg : c.args)
          if ((arg.keyword.empty() || arg.keyword == "dtype") && !canonicalDtype(arg.value.resolved).empty())
            return found(c, arg.value, arg.value.text);
        if (const py::Argument *d = c.keywordArg("dtype"))
          if (auto h = found(c, d->value, d->value.text))
            return h;
      }
    }
    // torch factories and *_like constructors with an explicit dtype.
    if (c.resolved.starts_with("torch.") && c.receiver.find('(') == std::string::npos) {
      if (const py::Argument *d = c.keywordArg("dtype"))
        return found(c, d->value, d->value.text);
      if (c.method.ends_with("_like")) // torch.empty_like(x): the dtype of x
        if (const py::Expr *like = argumentFor(c.args, 0, "input"))
          return expr(*like, c.function, depth + 1);
    }
    if (c.receiver.empty() || !keepsDtype(c.method))
      return std::nullopt;
    return receiver(c, depth);
  }

  std::optional<HostDtype> receiver(const py::Call &c, unsigned depth) {
    const std::string &r = c.receiver;
    if (!r.empty() && r.back() == ')') {
      if (const py::Call *inner = index_.callForText(r, c.lines, c.function))
        return call(*inner, depth + 1);
      return std::nullopt;
    }
    if (isIdentifier(r))
      return name(r, c.function, c.lines.begin, depth + 1);
    if (r.starts_with("self."))
      return attribute(r, c.function, depth + 1);
    return std::nullopt;
  }

  std::optional<HostDtype> name(const std::string &n, std::string_view function, unsigned line, unsigned depth) {
    if (const py::Assignment *b = index_.bindingBefore(function, n, line, false))
      return expr(b->value, b->function, depth + 1);
    const py::Function *f = index_.py().findFunction(function);
    if (!f)
      return std::nullopt;
    // A parameter: ask the direct callers what they pass.
    unsigned offset = !f->className.empty() && !f->params.empty() && f->params[0] == "self" ? 1 : 0;
    for (unsigned i = offset; i < f->params.size(); ++i) {
      if (f->params[i] != n)
        continue;
      for (const py::Call *caller : index_.callersOf(*f))
        if (const py::Expr *arg = argumentFor(caller->args, i - offset, n))
          if (auto h = expr(*arg, caller->function, depth + 1))
            return h;
    }
    return std::nullopt;
  }

  std::optional<HostDtype> attribute(const std::string &text, std::string_view function, unsigned depth) {
    if (!text.starts_with("self."))
      return std::nullopt;
    const py::Function *f = index_.py().findFunction(function);
    if (!f || f->className.empty())
      return std::nullopt;
    // Methods of the same class: qualnames sharing the prefix up to the method name.
    std::string prefix(function.substr(0, function.rfind('.') + 1));
    for (const auto &a : index_.py().assignments)
      if (a.target == text && a.op == "=" && a.function.starts_with(prefix))
        if (auto h = expr(a.value, a.function, depth + 1))
          return h;
    return std::nullopt;
  }

  const Index &index_;
};
} // namespace

std::optional<HostDtype> hostDtypeOf(const Index &index, const py::Expr &e, std::string_view function) {
  return Walker(index).expr(e, function, 0);
}

} // namespace kbaudit::triton::detail
