#pragma once

// The graded entry point as one function with its suite's calling convention: which of its
// parameters carry the grader's inputs and which is the preallocated output it must write.
// RUB009 (inputs the entry never reads), MEM006 (an output it never writes) and RUB015 (a
// result computed from part of the input) all start here, so they agree on the convention.

#include "kbaudit/facts.h"

#include <optional>
#include <string>
#include <vector>

namespace kbaudit::semantic {

enum class EntryConvention {
  Module,       ///< KernelBench `ModelNew.forward(self, ...)`, KernelBench-Hard / v3 `Model.forward`
  CustomKernel, ///< GPU MODE / kernelbot `custom_kernel(data)`: inputs (and often the output) in `data`
  OutputKernel, ///< pygpubench `kernel(output, *inputs)`: writes into `output`, returns nothing
};

struct GradedEntry {
  const py::Function *function = nullptr;
  EntryConvention convention = EntryConvention::Module;
  /// Parameters the grader fills with inputs, in order: not `self`, not `*args`/`**kwargs`,
  /// not declared with a default (optional configuration), not the output buffer.
  std::vector<std::string> inputs;
  /// OutputKernel: the output parameter; "" for the other conventions.
  std::string output;
};

/// The conventional graded entry the inventory started from (`ModelNew`/`Model` `.forward` or
/// `.__call__`, module-level `custom_kernel`, module-level `kernel` with an output and at
/// least one input); nullopt for other entries (decode-style public methods, a class's forward
/// found by fallback) and for a `kernel` that is itself a JIT kernel (`@triton.jit def kernel`).
std::optional<GradedEntry> gradedEntry(const Facts &facts);

/// A decorator of `fn` replaces it with a function that never calls it: a decorator of this
/// file whose wrapper (the def it, or the def it returns, builds around the decorated function)
/// calls something else (`@implemented_by(_impl)`, a wrapper that runs `_impl(self, *args)`).
/// The body of `fn` is then not what the harness calls. A pass-through decorator, or one whose
/// wrapper calls the decorated function, does not replace it.
bool replacedByDecorator(const py::PythonFacts &facts, const py::Function &fn);

/// The reference's function the grader compares `entry` with: the same method of the
/// reference's model class (Module), module-level `ref_kernel` (CustomKernel); nullptr when
/// the reference has none, and for OutputKernel (no reference layout is known for it).
const py::Function *referenceEntry(const GradedEntry &entry, const py::PythonFacts &reference,
                                   const std::string &referenceModelClass);

/// An input of the graded entry its body never reads as a value.
struct UnreadInput {
  std::string parameter;
  std::size_t position = 0; ///< index among GradedEntry::inputs
  /// The reference entry's parameter at the same position, when a reference entry is known
  /// (it reads it: a parameter the reference ignores too is not reported).
  std::string referenceParameter;
};

/// Inputs of `entry` never read: not in Function::reads, or mentioned only as a `del`
/// target (Function::onlyDeleted). Nothing when the body reads through locals()/vars()/
/// eval/exec. With `reference` (the reference's entry for the same convention), inputs are
/// matched by position among the inputs and one the reference's entry does not read either
/// (an argument the problem passes but never uses) is not reported.
std::vector<UnreadInput> unreadEntryInputs(const GradedEntry &entry, const py::Function *reference);

} // namespace kbaudit::semantic
