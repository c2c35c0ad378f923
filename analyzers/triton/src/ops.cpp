// triton.language operations called inside kernels, classified.

#include "passes.h"

#include <array>
#include <utility>

namespace kbaudit::triton::detail {

namespace {
using Entry = std::pair<std::string_view, OpKind>;

// Names from triton/language/__init__.py grouped by what they do to data. Names not
// listed are elementwise (math, comparisons, where, maximum, fma, ...).
constexpr std::array kOps = {
    Entry{"dot", OpKind::Dot},
    Entry{"dot_scaled", OpKind::Dot},
    Entry{"sum", OpKind::Reduction},
    Entry{"max", OpKind::Reduction},
    Entry{"min", OpKind::Reduction},
    Entry{"reduce", OpKind::Reduction},
    Entry{"argmax", OpKind::Reduction},
    Entry{"argmin", OpKind::Reduction},
    Entry{"xor_sum", OpKind::Reduction},
    Entry{"reduce_or", OpKind::Reduction},
    Entry{"cumsum", OpKind::Scan},
    Entry{"cumprod", OpKind::Scan},
    Entry{"associative_scan", OpKind::Scan},
    Entry{"sort", OpKind::Sort},
    Entry{"topk", OpKind::Sort},
    Entry{"histogram", OpKind::Sort},
    Entry{"gather", OpKind::Sort},
    Entry{"flip", OpKind::Sort},
    Entry{"load", OpKind::Memory},
    Entry{"store", OpKind::Memory},
    Entry{"make_block_ptr", OpKind::Memory},
    Entry{"advance", OpKind::Memory},
    Entry{"make_tensor_descriptor", OpKind::Memory},
    Entry{"load_tensor_descriptor", OpKind::Memory},
    Entry{"store_tensor_descriptor", OpKind::Memory},
    Entry{"_experimental_descriptor_load", OpKind::Memory},
    Entry{"_experimental_descriptor_store", OpKind::Memory},
    Entry{"program_id", OpKind::Index},
    Entry{"num_programs", OpKind::Index},
    Entry{"arange", OpKind::Index},
    Entry{"cdiv", OpKind::Index},
    Entry{"multiple_of", OpKind::Index},
    Entry{"max_contiguous", OpKind::Index},
    Entry{"max_constancy", OpKind::Index},
    Entry{"assume", OpKind::Index},
    Entry{"constexpr", OpKind::Index},
    Entry{"zeros", OpKind::Creation},
    Entry{"zeros_like", OpKind::Creation},
    Entry{"full", OpKind::Creation},
    Entry{"full_like", OpKind::Creation},
    Entry{"reshape", OpKind::Shape},
    Entry{"view", OpKind::Shape},
    Entry{"trans", OpKind::Shape},
    Entry{"permute", OpKind::Shape},
    Entry{"broadcast", OpKind::Shape},
    Entry{"broadcast_to", OpKind::Shape},
    Entry{"expand_dims", OpKind::Shape},
    Entry{"join", OpKind::Shape},
    Entry{"split", OpKind::Shape},
    Entry{"interleave", OpKind::Shape},
    Entry{"cat", OpKind::Shape},
    Entry{"ravel", OpKind::Shape},
    Entry{"cast", OpKind::Cast},
    Entry{"range", OpKind::Loop},
    Entry{"static_range", OpKind::Loop},
    Entry{"static_print", OpKind::Debug},
    Entry{"static_assert", OpKind::Debug},
    Entry{"device_print", OpKind::Debug},
    Entry{"device_assert", OpKind::Debug},
    Entry{"debug_barrier", OpKind::Debug},
};

// Tensor methods (triton.language.core.tensor) that are operations of their own; `.to`
// is a Cast fact instead, and descriptor objects add `.load` / `.store`.
constexpr std::array<std::string_view, 24> kMembers = {
    "sum",     "max",     "min",     "reduce",  "argmax",  "argmin",    "xor_sum", "cumsum",
    "cumprod", "associative_scan",   "sort",    "topk",    "histogram", "gather",  "flip",
    "reshape", "view",    "trans",   "permute", "broadcast_to",         "expand_dims", "split",
    "load",    "store"};

std::optional<OpKind> lookup(std::string_view name) {
  for (const auto &[n, k] : kOps)
    if (n == name)
      return k;
  return std::nullopt;
}
} // namespace

OpKind opKindOf(std::string_view resolved) {
  std::string_view name = lastSegment(resolved);
  if (name.starts_with("atomic_"))
    return OpKind::Atomic;
  // triton.language.extra.{cuda,hip}.libdevice / triton.language.extra.libdevice and the
  // older triton.language.math / libdevice aliases of the same CUDA math library.
  if (resolved.find(".extra.") != std::string_view::npos || resolved.find("libdevice.") != std::string_view::npos)
    return OpKind::Libdevice;
  if (auto k = lookup(name))
    return *k;
  return OpKind::Elementwise;
}

bool isTensorMemberOp(std::string_view method) {
  for (std::string_view m : kMembers)
    if (m == method)
      return true;
  return method.starts_with("atomic_");
}

void findOps(Analysis &a) {
  for (unsigned k = 0; k < a.out.kernels.size(); ++k) {
    for (const py::Call *c : a.index.callsIn(a.out.kernels[k].qualname)) {
      Op op;
      op.kernel = k;
      op.lines = c->lines;
      if (isTritonName(c->resolved) && c->resolved.starts_with("triton.language.")) {
        op.resolved = c->resolved;
        op.name = std::string(lastSegment(c->resolved));
      } else if (!c->receiver.empty() && !isTritonName(c->resolved) && isTensorMemberOp(c->method)) {
        op.resolved = "triton.language." + c->method;
        op.name = c->method;
        op.method = true;
      } else {
        continue;
      }
      op.kind = opKindOf(op.resolved);
      a.out.ops.push_back(std::move(op));
    }
  }
}

} // namespace kbaudit::triton::detail
