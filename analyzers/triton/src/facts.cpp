#include "kbaudit/triton/facts.h"

namespace kbaudit::triton {

const Kernel *TritonFacts::findKernel(std::string_view qualname) const {
  for (const auto &k : kernels)
    if (k.qualname == qualname)
      return &k;
  return nullptr;
}

const char *workKindName(WorkKind k) {
  switch (k) {
  case WorkKind::Matmul: return "matmul";
  case WorkKind::Reduction: return "reduction";
  case WorkKind::LoopReduction: return "loop-reduction";
  case WorkKind::Scan: return "scan";
  case WorkKind::Sort: return "sort";
  case WorkKind::Atomic: return "atomic";
  case WorkKind::Elementwise: return "elementwise";
  case WorkKind::Copy: return "copy";
  case WorkKind::Empty: return "empty";
  }
  return "?";
}

const char *opKindName(OpKind k) {
  switch (k) {
  case OpKind::Dot: return "dot";
  case OpKind::Reduction: return "reduction";
  case OpKind::Scan: return "scan";
  case OpKind::Sort: return "sort";
  case OpKind::Atomic: return "atomic";
  case OpKind::Memory: return "memory";
  case OpKind::Index: return "index";
  case OpKind::Creation: return "creation";
  case OpKind::Shape: return "shape";
  case OpKind::Cast: return "cast";
  case OpKind::Loop: return "loop";
  case OpKind::Libdevice: return "libdevice";
  case OpKind::Elementwise: return "elementwise";
  case OpKind::Debug: return "debug";
  }
  return "?";
}

const char *dtypeSourceName(DtypeSource s) {
  switch (s) {
  case DtypeSource::Unknown: return "unknown";
  case DtypeSource::KernelCast: return "kernel-cast";
  case DtypeSource::Constructor: return "constructor";
  case DtypeSource::DotResult: return "dot-result";
  case DtypeSource::HostCast: return "host-cast";
  case DtypeSource::Format: return "format";
  }
  return "?";
}

} // namespace kbaudit::triton
