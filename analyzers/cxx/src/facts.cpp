#include "kbaudit/cxx/facts.h"

namespace kbaudit::cxx {

const char *functionKindName(FunctionKind k) {
  switch (k) {
  case FunctionKind::Host: return "host";
  case FunctionKind::Device: return "device";
  case FunctionKind::Global: return "global";
  case FunctionKind::HostDevice: return "host_device";
  }
  return "?";
}

const char *launchApiName(LaunchApi a) {
  switch (a) {
  case LaunchApi::TripleChevron: return "<<<>>>";
  case LaunchApi::CudaLaunchKernel: return "cudaLaunchKernel";
  case LaunchApi::CudaLaunchCooperative: return "cudaLaunchCooperativeKernel";
  case LaunchApi::CudaLaunchKernelEx: return "cudaLaunchKernelEx";
  case LaunchApi::CuLaunchKernel: return "cuLaunchKernel";
  }
  return "?";
}

const char *streamKindName(StreamKind s) {
  switch (s) {
  case StreamKind::Default: return "default";
  case StreamKind::Current: return "current";
  case StreamKind::PerThread: return "per_thread";
  case StreamKind::Other: return "other";
  }
  return "?";
}

const char *exportViaName(ExportVia v) {
  switch (v) {
  case ExportVia::Pybind: return "pybind";
  case ExportVia::TorchLibraryDef: return "torch_library_def";
  case ExportVia::TorchLibraryImpl: return "torch_library_impl";
  case ExportVia::FunctionsList: return "functions_list";
  }
  return "?";
}

const char *callCategoryName(CallCategory c) {
  switch (c) {
  case CallCategory::Aten: return "aten";
  case CallCategory::AtenMeta: return "aten_meta";
  case CallCategory::Dispatch: return "dispatch";
  case CallCategory::Cublas: return "cublas";
  case CallCategory::CublasLt: return "cublaslt";
  case CallCategory::Cudnn: return "cudnn";
  case CallCategory::Cutlass: return "cutlass";
  case CallCategory::Cute: return "cute";
  case CallCategory::Cub: return "cub";
  case CallCategory::Wmma: return "wmma";
  case CallCategory::Stream: return "stream";
  case CallCategory::Event: return "event";
  case CallCategory::Graph: return "graph";
  case CallCategory::L2: return "l2";
  case CallCategory::Memory: return "memory";
  case CallCategory::Sync: return "sync";
  case CallCategory::Thread: return "thread";
  case CallCategory::Launch: return "launch";
  case CallCategory::Runtime: return "runtime";
  case CallCategory::Unresolved: return "unresolved";
  }
  return "?";
}

const char *numericTypeName(NumericType t) {
  switch (t) {
  case NumericType::Half: return "f16";
  case NumericType::Half2: return "f16x2";
  case NumericType::BFloat16: return "bf16";
  case NumericType::BFloat162: return "bf16x2";
  case NumericType::Fp8E4M3: return "e4m3";
  case NumericType::Fp8E5M2: return "e5m2";
  case NumericType::Fp8: return "fp8";
  case NumericType::Fp6: return "fp6";
  case NumericType::Fp4: return "fp4";
  case NumericType::Tf32: return "tf32";
  case NumericType::Int8: return "int8";
  case NumericType::Int4: return "int4";
  }
  return "?";
}

const char *numericUseKindName(NumericUseKind k) {
  switch (k) {
  case NumericUseKind::Declaration: return "declaration";
  case NumericUseKind::TypeAlias: return "type_alias";
  case NumericUseKind::Cast: return "cast";
  case NumericUseKind::Conversion: return "conversion";
  case NumericUseKind::Arithmetic: return "arithmetic";
  case NumericUseKind::TemplateArgument: return "template_argument";
  case NumericUseKind::Precision: return "precision";
  case NumericUseKind::LibraryConstant: return "library_constant";
  }
  return "?";
}

const char *staticStorageName(StaticStorage s) {
  switch (s) {
  case StaticStorage::Global: return "global";
  case StaticStorage::StaticLocal: return "static_local";
  case StaticStorage::StaticMember: return "static_member";
  case StaticStorage::Device: return "device";
  }
  return "?";
}

const char *includeResolutionName(IncludeResolution r) {
  switch (r) {
  case IncludeResolution::Stub: return "stub";
  case IncludeResolution::Builtin: return "builtin";
  case IncludeResolution::Real: return "real";
  case IncludeResolution::Missing: return "missing";
  }
  return "?";
}

bool isLibraryCompute(CallCategory c) {
  switch (c) {
  case CallCategory::Aten:
  case CallCategory::Cublas:
  case CallCategory::CublasLt:
  case CallCategory::Cudnn:
  case CallCategory::Cutlass:
  case CallCategory::Cute:
  case CallCategory::Cub:
    return true;
  default:
    return false;
  }
}

} // namespace kbaudit::cxx
