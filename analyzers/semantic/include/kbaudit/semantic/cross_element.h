#pragma once

// Whether code combines values across elements: a reduction (a sum, a mean, a norm, a
// softmax denominator, a normalization layer's statistics), a contraction (a matmul, a
// convolution, attention, pooling), or only element-wise math, views, allocation and host
// bookkeeping. A normalization's output depends on a statistic of many input elements; a
// graded path with no cross-element work anywhere cannot compute it (WRAP008), whatever the
// test inputs happen to make it look like.

#include "kbaudit/facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic::cross {

enum class Kind {
  None,        ///< element-wise math, allocation, views, dtype/device moves, metadata, host helpers
  Statistic,   ///< a reduction over elements: sum/mean/var/norm/max, softmax, a normalization layer, a scan
  Contraction, ///< matmul, convolution, attention, pooling, sorting: combines elements by other means
  Unknown,     ///< a call kbaudit cannot classify
};

/// "reduction", "contraction", "element-wise", "unclassified".
const char *kindName(Kind k);

/// A torch function, tensor method or ATen op by its last name segment ("mean", "layer_norm",
/// "matmul", "view"); Unknown when not in the vocabulary.
Kind ofOpName(std::string_view name);
/// A `torch.nn` module class by its resolved name ("torch.nn.LayerNorm"); Unknown when not known.
Kind ofModuleClass(std::string_view resolved);
/// A scan op (cumsum, cumprod, cummax, cummin, logcumsumexp) by its last name segment.
bool isScan(std::string_view name);
/// The op or module normalizes with batch statistics (BatchNorm): whether those or the stored
/// running statistics are used depends on the module's train/eval mode, which the grader sets.
bool batchStatistics(std::string_view nameOrClass);

/// One Python call of `py`, classified by its callee: a torch function, a tensor method, an nn
/// module stored on `self`, a builtin or host helper. Calls of the file's own functions,
/// classes and methods are None with `own` set (their bodies are judged where they are).
Kind ofCall(const py::PythonFacts &py, const py::Call &call, bool *own = nullptr);

/// One place on a path that is not plain element-wise work.
struct Site {
  Kind kind = Kind::Unknown;
  std::string what; ///< "torch.mean", "self.ln (torch.nn.LayerNorm)", "kernel _rms (reduction)"
  std::string function;
  LineRange lines;
  bool usesBatchStatistics = false;
  /// A scan (cumsum, cumprod, ...): a Statistic whose result is a running value per element.
  bool scan = false;
};

/// What the graded entry point's reached path does across elements.
struct GradedPath {
  bool entryFound = false;
  /// Python calls and operators on the path, and C++ library calls in the extensions it
  /// calls, that are not element-wise (Kind::None sites are not listed).
  std::vector<Site> sites;
  /// Authored kernels forward reaches whose work is known to be element-wise or a copy, with
  /// the line forward launches them from (the kernel's own lines when no launch is seen).
  std::vector<Site> pointwiseKernels;
  /// Authored kernels forward reaches doing other (or unclassified) work, as sites.
  std::vector<Site> otherKernels;
  /// Authored kernels no static path reaches that combine elements (a dynamic path may).
  std::vector<Site> unreachedReducingKernels;
  /// Local modules the file imports: code kbaudit cannot see.
  std::vector<std::string> unseenModules;
};

GradedPath gradedPath(const Facts &facts);

/// The cross-element operations of the reference's model (`reference`: the reference module's
/// facts; `modelClass`: its model's class, "" for none): calls in the methods other than
/// `__init__` of its classes (the model and the blocks it is built from) and in the module
/// functions they call.
std::vector<Site> referenceSites(const py::PythonFacts &reference, const std::string &modelClass);

} // namespace kbaudit::semantic::cross
