#pragma once

// Name tables: which qualified names are APIs the rules care about, which types and
// constants are reduced-precision numerics. Pure string logic, no Clang, so the tables can
// grow without recompiling the Clang TUs.

#include "kbaudit/cxx/facts.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>

namespace kbaudit::cxx::names {

/// Category of a call to `callee` (qualified, leading "::" allowed); `args` are the
/// arguments as written, needed where the category depends on them (an L2 access policy
/// set through the generic cudaStreamSetAttribute). nullopt: not an API kbaudit tracks.
std::optional<CallCategory> classifyCall(llvm::StringRef callee,
                                         llvm::ArrayRef<std::string> args = {});

/// Category of a reference to an API constant or field (cudaAccessPropertyPersisting,
/// cudaAccessPolicyWindow::hitProp, cudaStreamNonBlocking); nullopt when not tracked.
std::optional<CallCategory> classifyReference(llvm::StringRef qualified);

/// The numeric type a type name denotes ("__half", "c10::BFloat16", "cutlass::tfloat32_t").
std::optional<NumericType> numericTypeOfName(llvm::StringRef qualified);
/// Types that select a math mode rather than hold values (wmma::precision::tf32,
/// cutlass::arch::OpMultiplyAddFastF16): recorded as NumericUseKind::Precision.
bool isPrecisionTag(llvm::StringRef qualified);

/// The numeric type a library constant selects (at::kHalf, CUDA_R_16BF, CUBLAS_COMPUTE_32F_FAST_TF32).
std::optional<NumericType> numericConstant(llvm::StringRef qualified);

struct NamedConversion {
  NumericType type;
  ConversionDirection direction;
};
/// Conversions whose signature does not show the narrow type (__float_to_tf32 returns
/// float; the fp8 cvt intrinsics take the format as an argument).
std::optional<NamedConversion> namedConversion(llvm::StringRef qualified,
                                               llvm::ArrayRef<std::string> args);
/// Intrinsics that move values without computing (shuffles, cached loads): their
/// half-typed signatures are not conversions or arithmetic.
bool isDataMovementIntrinsic(llvm::StringRef name);

/// The stream an expression names, judged from its text; nullopt when the text alone
/// does not tell (a variable: the caller follows its initialiser).
std::optional<StreamKind> streamKindOfText(llvm::StringRef text);

/// The callee as shown in facts: kbaudit's stub-internal namespaces are dropped
/// ("at::kbaudit_dispatch::AT_DISPATCH_FLOATING_TYPES" -> "AT_DISPATCH_FLOATING_TYPES").
std::string displayName(llvm::StringRef qualified);

bool isContainerType(llvm::StringRef qualifiedRecord);
bool isSmartPointer(llvm::StringRef qualifiedRecord);
/// Tensor methods yielding the address of the data (a cache keyed by them is keyed by
/// identity, not by contents).
bool isDataPtrMethod(llvm::StringRef method);
/// Tensor methods yielding shape information.
bool isShapeMethod(llvm::StringRef method);

/// Export binding methods: pybind11::module_::def, torch::Library::def / impl.
std::optional<ExportVia> exportBinding(llvm::StringRef qualifiedMethod);

} // namespace kbaudit::cxx::names
