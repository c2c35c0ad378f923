#include "names.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>

namespace kbaudit::cxx::names {

namespace {

using llvm::StringRef;

bool anyArgContains(llvm::ArrayRef<std::string> args, StringRef needle) {
  return llvm::any_of(args, [&](const std::string &a) { return StringRef(a).contains(needle); });
}

bool startsWithAny(StringRef s, std::initializer_list<StringRef> prefixes) {
  return llvm::any_of(prefixes, [&](StringRef p) { return s.startswith(p); });
}

bool isOneOf(StringRef s, std::initializer_list<StringRef> names) {
  return llvm::is_contained(names, s);
}

/// Tensor metadata, allocation and view operations: they do no arithmetic on the data.
bool isAtenMeta(StringRef op) {
  static const StringRef kMeta[] = {
      "accessor", "as_strided", "chunk", "const_data_ptr", "contiguous", "cpu", "cuda",
      "data", "data_ptr", "defined", "detach", "device", "dim", "dtype", "element_size",
      "empty", "empty_like", "empty_strided", "expand", "expand_as", "fill_", "flatten",
      "from_blob", "full", "full_like", "generic_packed_accessor", "get_device", "is_contiguous",
      "is_cuda", "is_floating_point", "is_same_size", "item", "layout", "mutable_data_ptr",
      "narrow", "nbytes", "ndimension", "new_empty", "new_full", "new_ones", "new_zeros",
      "numel", "ones", "ones_like", "options", "packed_accessor32", "packed_accessor64",
      "permute", "requires_grad", "reshape", "reshape_as", "resize_", "scalar_type", "select",
      "set_", "size", "sizes", "slice", "split", "squeeze", "storage", "storage_offset",
      "stride", "strides", "suggest_memory_format", "sym_size", "sym_sizes", "t", "tensor",
      "transpose", "type", "unbind", "unsafeGetTensorImpl", "unsqueeze", "view", "view_as",
      "zero_", "zeros", "zeros_like", "arange", "device_of", "dtype_", "requires_grad_",
      "is_non_overlapping_and_dense", "TensorOptions", "scalarType", "toDouble", "toFloat",
      "toLong", "toInt", "to_string", "_version", "use_count", "is_alias_of", "is_same",
      "empty_cuda", "empty_cpu", "empty_strided_cuda", "get", "defined", "is_meta", "is_cpu",
      "itemsize", "record_stream",
  };
  return llvm::is_contained(kMeta, op);
}

StringRef lastComponent(StringRef q) {
  const size_t pos = q.rfind("::");
  return pos == StringRef::npos ? q : q.substr(pos + 2);
}

/// Running a CUTLASS device-level operator (`gemm_op(args)`, `gemm.run()`); layouts,
/// strides, status strings and can_implement checks are bookkeeping.
bool isCutlassRun(StringRef q) {
  if (!q.contains("::device::"))
    return false;
  return isOneOf(lastComponent(q), {"run", "operator()", "initialize"});
}

std::optional<CallCategory> classifyTorchCuda(StringRef rest) {
  // rest: what follows "at::cuda::" / "c10::cuda::" / "torch::cuda::"
  if (rest.startswith("CUDAGraph"))
    return CallCategory::Graph;
  if (rest.startswith("CUDAEvent"))
    return CallCategory::Event;
  if (rest.startswith("CUDACachingAllocator"))
    return CallCategory::Memory;
  if (isOneOf(rest, {"synchronize", "device_synchronize", "stream_synchronize",
                     "CUDAStream::synchronize"}))
    return CallCategory::Sync;
  if (rest.startswith("getCurrentCUDABlasLtHandle"))
    return CallCategory::CublasLt;
  if (rest.startswith("getCurrentCUDABlasHandle") || rest.startswith("blas::"))
    return CallCategory::Cublas;
  if (rest.contains("Stream"))
    return CallCategory::Stream;
  return CallCategory::Runtime;
}

std::optional<CallCategory> classifyTorch(StringRef q) {
  for (StringRef ns : {"at::cuda::", "c10::cuda::", "torch::cuda::"})
    if (q.startswith(ns))
      return classifyTorchCuda(q.drop_front(ns.size()));
  if (q.startswith("c10::detail::") || q.startswith("torch::Library") ||
      q.startswith("c10::Half") || q.startswith("c10::BFloat16") || q.startswith("c10::Float8") ||
      q.startswith("c10::ArrayRef") || q.startswith("c10::optional"))
    return std::nullopt;
  if (q.startswith("at::native::getCudnnHandle"))
    return CallCategory::Cudnn;
  StringRef op = lastComponent(q);
  for (StringRef cls : {"at::Tensor::", "at::TensorBase::", "torch::Tensor::"})
    if (q.startswith(cls)) {
      op = q.drop_front(cls.size());
      if (op == "operator=" || op == "operator[]")
        return CallCategory::AtenMeta; // assignment and indexing move no data through a kernel
      if (op.startswith("operator"))
        return CallCategory::Aten; // a + b, a * b on tensors
      return isAtenMeta(op) ? CallCategory::AtenMeta : CallCategory::Aten;
    }
  // Methods of other c10 value classes (TensorOptions, Device, Scalar) only describe.
  if (q.startswith("c10::") && q.drop_front(5).contains("::"))
    return CallCategory::AtenMeta;
  if (op.startswith("operator"))
    return CallCategory::Aten;
  return isAtenMeta(op) ? CallCategory::AtenMeta : CallCategory::Aten;
}

} // namespace

std::optional<CallCategory> classifyCall(StringRef callee, llvm::ArrayRef<std::string> args) {
  StringRef q = callee;
  q.consume_front("::");
  if (q.empty())
    return std::nullopt;
  if (q.contains("kbaudit_dispatch::"))
    return CallCategory::Dispatch;
  if (isOneOf(q, {"std::thread", "std::jthread", "std::async", "pthread_create",
                  "std::thread::thread", "std::jthread::jthread"}))
    return CallCategory::Thread;
  if (isOneOf(q, {"cudaLaunchKernel", "cudaLaunchCooperativeKernel",
                  "cudaLaunchCooperativeKernelMultiDevice", "cudaLaunchKernelEx",
                  "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
                  "cuLaunchCooperativeKernel"}))
    return CallCategory::Launch;
  if (isOneOf(q, {"cudaCtxResetPersistingL2Cache", "cuCtxResetPersistingL2Cache"}))
    return CallCategory::L2;
  if (isOneOf(q, {"cudaDeviceSetLimit", "cudaDeviceGetLimit", "cuCtxSetLimit", "cuCtxGetLimit"}))
    return anyArgContains(args, "PersistingL2") ? CallCategory::L2 : CallCategory::Runtime;
  if (isOneOf(q, {"cudaStreamSetAttribute", "cudaStreamGetAttribute", "cuStreamSetAttribute",
                  "cuStreamGetAttribute", "cudaGraphKernelNodeSetAttribute",
                  "cuGraphKernelNodeSetAttribute"}))
    return anyArgContains(args, "AccessPolicyWindow")
               ? CallCategory::L2
               : (q.contains("Graph") ? CallCategory::Graph : CallCategory::Stream);
  if (startsWithAny(q, {"cudaGraph", "cuGraph", "cudaStreamBeginCapture", "cudaStreamEndCapture",
                        "cudaStreamIsCapturing", "cudaStreamGetCaptureInfo", "cuStreamBeginCapture",
                        "cuStreamEndCapture", "cudaThreadExchangeStreamCaptureMode"}))
    return CallCategory::Graph;
  if (startsWithAny(q, {"cudaEvent", "cuEvent", "cudaStreamWaitEvent", "cuStreamWaitEvent"}))
    return CallCategory::Event;
  if (isOneOf(q, {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaThreadSynchronize",
                  "cuCtxSynchronize", "cuStreamSynchronize"}))
    return CallCategory::Sync;
  if (startsWithAny(q, {"cudaStream", "cuStream", "cudaDeviceGetStreamPriorityRange"}))
    return CallCategory::Stream;
  if (startsWithAny(q, {"cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemset", "cudaMemPrefetch",
                        "cudaMemAdvise", "cudaHostAlloc", "cudaHostRegister", "cudaHostUnregister",
                        "cudaMemPool", "cuMem"}))
    return CallCategory::Memory;
  if (q.startswith("cublasLt"))
    return CallCategory::CublasLt;
  if (q.startswith("cublas"))
    return CallCategory::Cublas;
  if (q.startswith("cudnn"))
    return CallCategory::Cudnn;
  if (q.startswith("nvcuda::wmma::") || q.startswith("wmma::"))
    return CallCategory::Wmma;
  if (q.startswith("cutlass::"))
    return isCutlassRun(q) ? std::optional(CallCategory::Cutlass) : std::nullopt;
  if (q.startswith("cute::"))
    return isOneOf(lastComponent(q), {"gemm", "copy", "copy_if", "axpby", "cooperative_gemm",
                                      "cooperative_copy"})
               ? std::optional(CallCategory::Cute)
               : std::nullopt;
  if (q.startswith("cub::Device") || q.startswith("thrust::"))
    return CallCategory::Cub;
  if (startsWithAny(q, {"at::", "torch::", "c10::"}))
    return classifyTorch(q);
  if (q.startswith("nvrtc"))
    return CallCategory::Runtime;
  // CUDA runtime (cudaX) and driver (cuX) API: a lower-case prefix, then an upper-case letter.
  for (StringRef p : {"cuda", "cu"})
    if (q.size() > p.size() && q.startswith(p) && (q[p.size()] >= 'A' && q[p.size()] <= 'Z') && !q.contains("::"))
      return CallCategory::Runtime;
  return std::nullopt;
}

std::optional<CallCategory> classifyReference(StringRef q) {
  q.consume_front("::");
  StringRef name = lastComponent(q);
  if (name.contains("PersistingL2") || name.contains("AccessPolicyWindow") ||
      name.startswith("cudaAccessProperty") || name.startswith("CU_ACCESS_PROPERTY") ||
      isOneOf(name, {"accessPolicyWindow", "persistingL2CacheMaxSize",
                     "accessPolicyMaxWindowSize"}) ||
      (q.startswith("cudaAccessPolicyWindow::") || q.startswith("CUaccessPolicyWindow")))
    return CallCategory::L2;
  if (isOneOf(name, {"cudaStreamNonBlocking", "cudaStreamPerThread", "cudaStreamLegacy",
                     "CU_STREAM_NON_BLOCKING"}))
    return CallCategory::Stream;
  if (name.startswith("cudaStreamCaptureMode") || name.startswith("cudaGraphInstantiateFlag") ||
      name.startswith("CU_STREAM_CAPTURE_MODE"))
    return CallCategory::Graph;
  if (name.startswith("cudaEventDisableTiming") || name.startswith("cudaEventBlockingSync") ||
      name.startswith("cudaEventInterprocess"))
    return CallCategory::Event;
  return std::nullopt;
}

std::optional<NumericType> numericTypeOfName(StringRef q) {
  q.consume_front("::");
  for (StringRef ns : {"at::", "c10::", "cute::", "cutlass::"})
    if (q.startswith(ns) && !q.drop_front(ns.size()).contains("::")) {
      const StringRef n = q.drop_front(ns.size());
      if (isOneOf(n, {"Half", "half_t"}))
        return NumericType::Half;
      if (isOneOf(n, {"BFloat16", "bfloat16_t"}))
        return NumericType::BFloat16;
      if (isOneOf(n, {"Float8_e4m3fn", "Float8_e4m3fnuz", "float_e4m3_t"}))
        return NumericType::Fp8E4M3;
      if (isOneOf(n, {"Float8_e5m2", "Float8_e5m2fnuz", "float_e5m2_t"}))
        return NumericType::Fp8E5M2;
      if (isOneOf(n, {"float_e2m3_t", "float_e3m2_t"}))
        return NumericType::Fp6;
      if (isOneOf(n, {"float_e2m1_t", "Float4_e2m1fn_x2"}))
        return NumericType::Fp4;
      if (n == "tfloat32_t")
        return NumericType::Tf32;
      if (isOneOf(n, {"int4b_t", "uint4b_t"}))
        return NumericType::Int4;
      return std::nullopt;
    }
  if (isOneOf(q, {"nvcuda::wmma::precision::tf32", "cutlass::arch::OpMultiplyAddFastF32"}))
    return NumericType::Tf32;
  if (isOneOf(q, {"nvcuda::wmma::experimental::precision::s4",
                  "nvcuda::wmma::experimental::precision::u4"}))
    return NumericType::Int4;
  if (q == "cutlass::arch::OpMultiplyAddFastF16")
    return NumericType::Half;
  if (q == "cutlass::arch::OpMultiplyAddFastBF16")
    return NumericType::BFloat16;
  if (q.contains("::"))
    return std::nullopt;
  return llvm::StringSwitch<std::optional<NumericType>>(q)
      .Cases("__half", "half", "__half_raw", NumericType::Half)
      .Cases("__half2", "half2", "__half2_raw", NumericType::Half2)
      .Cases("__nv_bfloat16", "nv_bfloat16", "__nv_bfloat16_raw", NumericType::BFloat16)
      .Cases("__nv_bfloat162", "nv_bfloat162", "__nv_bfloat162_raw", NumericType::BFloat162)
      .Cases("__nv_fp8_e4m3", "__nv_fp8x2_e4m3", "__nv_fp8x4_e4m3", NumericType::Fp8E4M3)
      .Cases("__nv_fp8_e5m2", "__nv_fp8x2_e5m2", "__nv_fp8x4_e5m2", NumericType::Fp8E5M2)
      .Cases("__nv_fp8_storage_t", "__nv_fp8x2_storage_t", "__nv_fp8x4_storage_t", NumericType::Fp8)
      .Cases("__nv_fp6_e2m3", "__nv_fp6_e3m2", "__nv_fp6x2_e2m3", "__nv_fp6x2_e3m2", NumericType::Fp6)
      .Cases("__nv_fp4_e2m1", "__nv_fp4x2_e2m1", "__nv_fp4x4_e2m1", "__nv_fp4_storage_t", NumericType::Fp4)
      .Default(std::nullopt);
}

bool isPrecisionTag(StringRef q) {
  q.consume_front("::");
  return q.startswith("nvcuda::wmma::precision::") ||
         q.startswith("nvcuda::wmma::experimental::precision::") ||
         q.startswith("cutlass::arch::OpMultiplyAddFast");
}

std::optional<NumericType> numericConstant(StringRef q) {
  q.consume_front("::");
  const StringRef name = lastComponent(q);
  const bool torchNs = startsWithAny(q, {"at::", "c10::", "torch::"});
  if (torchNs) {
    const std::optional<NumericType> t = llvm::StringSwitch<std::optional<NumericType>>(name)
        .Cases("kHalf", "kFloat16", "Half", NumericType::Half)
        .Cases("kBFloat16", "BFloat16", NumericType::BFloat16)
        .Cases("kFloat8_e4m3fn", "kFloat8_e4m3fnuz", "Float8_e4m3fn", "Float8_e4m3fnuz",
               NumericType::Fp8E4M3)
        .Cases("kFloat8_e5m2", "kFloat8_e5m2fnuz", "Float8_e5m2", "Float8_e5m2fnuz",
               NumericType::Fp8E5M2)
        .Cases("kChar", "kInt8", "Char", "QInt8", NumericType::Int8)
        .Default(std::nullopt);
    // Only the dtype constants and ScalarType enumerators, not c10::Half the class.
    if (t && (name.startswith("k") || q.contains("ScalarType::")))
      return t;
    return std::nullopt;
  }
  return llvm::StringSwitch<std::optional<NumericType>>(name)
      .Cases("CUDA_R_16F", "CUDA_C_16F", "CUBLAS_COMPUTE_16F", "CUBLAS_COMPUTE_32F_FAST_16F",
             NumericType::Half)
      .Cases("CUDNN_DATA_HALF", "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION", "CUBLASLT_COMPUTE_16F",
             NumericType::Half)
      .Cases("CUDA_R_16BF", "CUDA_C_16BF", "CUBLAS_COMPUTE_32F_FAST_16BF", "CUDNN_DATA_BFLOAT16",
             NumericType::BFloat16)
      .Cases("CUDA_R_8F_E4M3", "CUDNN_DATA_FP8_E4M3", NumericType::Fp8E4M3)
      .Cases("CUDA_R_8F_E5M2", "CUDNN_DATA_FP8_E5M2", NumericType::Fp8E5M2)
      .Cases("CUBLAS_COMPUTE_32F_FAST_TF32", "CUBLAS_TF32_TENSOR_OP_MATH", NumericType::Tf32)
      .Cases("CUDA_R_8I", "CUDA_R_8U", "CUBLAS_COMPUTE_32I", "CUDNN_DATA_INT8", NumericType::Int8)
      .Cases("CUDA_R_4I", "CUDA_R_4U", NumericType::Int4)
      .Case("CUDA_R_4F_E2M1", NumericType::Fp4)
      .Default(std::nullopt);
}

std::optional<NamedConversion> namedConversion(StringRef q, llvm::ArrayRef<std::string> args) {
  q.consume_front("::");
  const StringRef name = lastComponent(q);
  if (name == "__float_to_tf32")
    return NamedConversion{NumericType::Tf32, ConversionDirection::Narrowing};
  if (name.startswith("__nv_cvt_")) {
    NumericType t = NumericType::Fp8;
    if (anyArgContains(args, "E4M3"))
      t = NumericType::Fp8E4M3;
    else if (anyArgContains(args, "E5M2"))
      t = NumericType::Fp8E5M2;
    if (name.contains("fp4"))
      t = NumericType::Fp4;
    else if (name.contains("fp6"))
      t = NumericType::Fp6;
    const size_t to = name.find("_to_");
    const bool narrowing = to != StringRef::npos && name.substr(to).contains("fp");
    return NamedConversion{t, narrowing ? ConversionDirection::Narrowing
                                        : ConversionDirection::Widening};
  }
  return std::nullopt;
}

bool isDataMovementIntrinsic(StringRef name) {
  return startsWithAny(name, {"__shfl", "__ld", "__st", "__ballot", "__any", "__all", "__match",
                              "__reduce", "__activemask"});
}

std::optional<StreamKind> streamKindOfText(StringRef text) {
  text = text.trim();
  if (text.empty() || isOneOf(text, {"0", "0L", "0u", "nullptr", "NULL", "(cudaStream_t)0",
                                      "cudaStreamLegacy", "cudaStreamDefault",
                                      "static_cast<cudaStream_t>(0)", "(cudaStream_t)nullptr"}))
    return StreamKind::Default;
  if (text.contains("cudaStreamPerThread"))
    return StreamKind::PerThread;
  if (text.contains("getDefaultCUDAStream"))
    return StreamKind::Default;
  if (text.contains("getCurrentCUDAStream") || text.contains("getCurrentStream"))
    return StreamKind::Current;
  if (text.contains("getStreamFromPool") || text.contains("cudaStreamCreate"))
    return StreamKind::Other;
  return std::nullopt;
}

std::string displayName(StringRef q) {
  const size_t pos = q.find("kbaudit_dispatch::");
  if (pos != StringRef::npos)
    return q.substr(pos + StringRef("kbaudit_dispatch::").size()).str();
  return q.str();
}

bool isContainerType(StringRef q) {
  q.consume_front("::");
  return isOneOf(q, {"std::unordered_map", "std::map", "std::multimap", "std::unordered_set",
                     "std::set", "std::vector", "std::array", "std::list", "std::deque",
                     "std::pair", "std::tuple", "std::optional", "c10::optional",
                     "std::unordered_multimap"});
}

bool isSmartPointer(StringRef q) {
  q.consume_front("::");
  return isOneOf(q, {"std::unique_ptr", "std::shared_ptr", "std::weak_ptr", "c10::intrusive_ptr"});
}

bool isDataPtrMethod(StringRef m) {
  return isOneOf(m, {"data_ptr", "const_data_ptr", "mutable_data_ptr", "unsafeGetTensorImpl",
                     "storage"});
}

bool isShapeMethod(StringRef m) {
  return isOneOf(m, {"sizes", "size", "numel", "sym_sizes", "sym_size", "strides", "stride",
                     "dim", "ndimension"});
}

std::optional<ExportVia> exportBinding(StringRef q) {
  q.consume_front("::");
  if (isOneOf(q, {"pybind11::module_::def", "pybind11::module::def"}))
    return ExportVia::Pybind;
  if (q == "torch::Library::def")
    return ExportVia::TorchLibraryDef;
  if (q == "torch::Library::impl")
    return ExportVia::TorchLibraryImpl;
  return std::nullopt;
}

} // namespace kbaudit::cxx::names
