// Split-precision emulation in CUDA and Triton kernels (split_precision.h).

#include "kbaudit/semantic/split_precision.h"

#include "kbaudit/semantic/python_text.h"

#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace kbaudit::semantic {
namespace {

/// The identifiers a Triton cast's source spelling names (the cast fact carries no tree).
std::vector<std::string> identifiers(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    if (!pytext::isIdentChar(text[i]) || (text[i] >= '0' && text[i] <= '9')) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && pytext::isIdentChar(text[i]))
      ++i;
    out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

} // namespace

std::set<int> splitPrecisionSources(const cxx::CxxFacts &cxx) {
  std::set<std::tuple<int, unsigned, int>> narrowing, widening; // source, line, family
  const auto family = [](cxx::NumericType t) {
    return t == cxx::NumericType::Half2       ? static_cast<int>(cxx::NumericType::Half)
           : t == cxx::NumericType::BFloat162 ? static_cast<int>(cxx::NumericType::BFloat16)
                                              : static_cast<int>(t);
  };
  for (const cxx::NumericUse &u : cxx.numericTypes) {
    if (!u.inDevice || u.kind != cxx::NumericUseKind::Conversion)
      continue;
    auto key = std::make_tuple(u.source, u.lines.begin, family(u.type));
    if (u.direction == cxx::ConversionDirection::Narrowing)
      narrowing.insert(key);
    else if (u.direction == cxx::ConversionDirection::Widening)
      widening.insert(key);
  }
  std::set<int> out;
  for (const auto &key : narrowing)
    if (widening.count(key))
      out.insert(std::get<0>(key));
  return out;
}

namespace {

/// Whether one kernel computes a rounding residual, given its casts (in file order) and its name assignments.
bool splitIn(const std::vector<const triton::Cast *> &casts, const std::vector<const py::Assignment *> &own,
             const std::function<bool(std::string_view)> &narrow) {
  std::set<std::string> widened; // names bound to a cast back to a wide type
  for (const triton::Cast *c : casts)
    if (!narrow(c->target.dtype))
      for (const py::Assignment *a : own)
        if (a->lines.overlaps(c->lines))
          widened.insert(a->target);
  for (const triton::Cast *c : casts) {
    if (!narrow(c->target.dtype) || c->source.find('-') == std::string::npos)
      continue;
    if (c->source.find(".to(") != std::string::npos || c->source.find("cast(") != std::string::npos)
      return true;
    for (const std::string &name : identifiers(c->source))
      if (widened.count(name))
        return true;
  }
  return false;
}

} // namespace

std::vector<bool> tritonSplitPrecisionByKernel(const Facts &f, const std::function<bool(std::string_view)> &narrow) {
  const std::vector<triton::Kernel> &kernels = f.triton.kernels;
  std::vector<std::vector<const triton::Cast *>> casts(kernels.size());
  for (const triton::Cast &c : f.triton.casts)
    if (c.kernel < kernels.size())
      casts[c.kernel].push_back(&c);
  std::unordered_map<std::string_view, std::vector<const py::Assignment *>> own;
  for (const py::Assignment &a : f.python.assignments)
    if (a.kind == py::Assignment::TargetKind::Name)
      own[a.function].push_back(&a);
  static const std::vector<const py::Assignment *> kNone;
  std::vector<bool> out(kernels.size());
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    const auto it = own.find(kernels[k].qualname);
    out[k] = splitIn(casts[k], it == own.end() ? kNone : it->second, narrow);
  }
  return out;
}

} // namespace kbaudit::semantic
