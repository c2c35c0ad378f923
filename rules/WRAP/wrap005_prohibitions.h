#pragma once

// WRAP005's reading of a problem's forbidden list: what each entry names (a module, a decorator,
// a dotted API name, a bare name, a C++ name), normalised to what the Python resolver and the
// C++ front end produce, and the other spellings of the same operation (the ATen name of a
// torch op, the tensor method of the same name).

#include "kbaudit/problems/problem_context.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::rules::wrap005 {

// How a forbidden entry is matched. problem.yaml mixes import patterns, decorators, dotted
// API names, bare module or function names; overlays add resolved dotted and C++ names.
enum class Kind {
  Module,    ///< "import triton", "from reference", a forbidden library: the module or below
  Decorator, ///< "@triton.jit"
  Dotted,    ///< "torch.topk", "F.linear", "Tensor.sort", "fla.ops.kda": the name or below
  Bare,      ///< "flashinfer", "chunk_kda": a module head or an imported function's name
  Cxx,       ///< "at::topk", "thrust::sort"
};

struct Prohibition {
  std::string written; ///< as the problem states it
  Kind kind = Kind::Dotted;
  std::string name;     ///< normalised: module, resolved dotted name, bare name or C++ name
  bool curated = false; ///< from the suite overlay only, not problem.yaml
};

/// Every entry the problem forbids: problem.yaml's list, then the suite overlay's ops and
/// libraries, and torch.compile / torch.jit when the overlay forbids compiling.
std::vector<Prohibition> prohibitions(const problems::ProblemContext &p);

/// `name` is `prefix` or below it (`torch.topk.out` under `torch.topk`), segments split by `sep`.
bool isUnder(std::string_view name, std::string_view prefix, std::string_view sep = ".");

/// `s` cut at every `sep` (empty pieces kept).
std::vector<std::string> split(std::string_view s, std::string_view sep);

/// The ATen names a torch-level name also goes by in embedded C++ (`torch.topk` is `at::topk`,
/// `at::Tensor::topk` and `torch::topk`); none for a name below a submodule.
std::vector<std::string> cxxEquivalents(std::string_view dotted);

/// The tensor method with the op's name: `torch.X` and `Tensor.X` (not `F.X`, which is no method).
std::string tensorMethodOf(std::string_view dotted);

/// Methods Python lists (or other builtins) also have: on an unknown receiver they say little.
bool builtinContainerMethod(std::string_view m);

} // namespace kbaudit::rules::wrap005
