#include "skipped_branches.h"

#include <algorithm>

namespace kbaudit::cxx {

namespace {

bool within(const std::vector<LineRange> &ranges, const LineRange &lines) {
  return lines.valid() &&
         std::any_of(ranges.begin(), ranges.end(), [&](const LineRange &r) { return r.contains(lines.begin); });
}

/// Moves the facts of `from` that lie in `ranges` (and not in `already`, kept by an earlier
/// variant) to `to`.
template <class T>
void take(std::vector<T> &to, std::vector<T> &from, const std::vector<LineRange> &ranges,
          const std::vector<LineRange> &already) {
  for (T &f : from)
    if (within(ranges, f.lines) && !within(already, f.lines))
      to.push_back(std::move(f));
}

} // namespace

std::vector<std::vector<std::string>> branchVariants(const FrontendOptions &options, std::string_view text) {
  std::vector<std::vector<std::string>> out;
  // A variant costs a parse: only the views the unit's own conditionals can tell apart.
  const auto mentions = [&](std::string_view macro) { return text.find(macro) != std::string_view::npos; };
  // nvcc compiles with the host's GNU compiler: no Clang identity macros, nvcc's own defined.
  if (mentions("__clang") || mentions("__NVCC__") || mentions("__CUDACC_VER"))
    out.push_back({"-U__clang__", "-U__clang_major__", "-U__clang_minor__", "-U__clang_patchlevel__",
                   "-U__clang_version__", "-D__NVCC__", "-D__CUDACC_VER_MAJOR__=13", "-D__CUDACC_VER_MINOR__=0"});
  // The other side of `#ifdef __CUDA_ARCH__`: the host pass if the first parse saw the device's.
  if (mentions("__CUDA_ARCH__"))
    out.push_back(options.cudaArch != 0 ? std::vector<std::string>{"-U__CUDA_ARCH__"}
                                        : std::vector<std::string>{"-D__CUDA_ARCH__=900"});
  return out;
}

void addSkippedBranchFacts(UnitResult &primary, const Unit &unit, const FrontendOptions &options) {
  if (primary.skippedLines.empty() || !options.parseSkippedBranches)
    return;
  std::vector<LineRange> covered; // skipped lines some variant has already read
  for (const std::vector<std::string> &args : branchVariants(options, unit.text)) {
    FrontendOptions variant = options;
    variant.extraArgs.insert(variant.extraArgs.end(), args.begin(), args.end());
    variant.parseSkippedBranches = false;
    if (std::find(args.begin(), args.end(), "-U__CUDA_ARCH__") != args.end())
      variant.cudaArch = 0; // leave it undefined rather than defining and undefining it
    UnitResult alt = parseUnit(unit, variant);
    // Lines the first parse skipped and this one read.
    std::vector<LineRange> read;
    for (const LineRange &r : primary.skippedLines)
      for (unsigned l = r.begin; l <= r.end; ++l)
        if (!within(alt.skippedLines, LineRange{l, l}) && !within(covered, LineRange{l, l}))
          read.push_back(LineRange{l, l});
    if (read.empty())
      continue;
    CxxFacts &to = primary.facts;
    CxxFacts &from = alt.facts;
    take(to.functions, from.functions, read, {});
    take(to.launches, from.launches, read, {});
    take(to.exports, from.exports, read, {});
    take(to.calls, from.calls, read, {});
    take(to.callGraph, from.callGraph, read, {});
    take(to.references, from.references, read, {});
    take(to.numericTypes, from.numericTypes, read, {});
    take(to.ptx, from.ptx, read, {});
    take(to.statics, from.statics, read, {});
    take(to.includes, from.includes, read, {});
    covered.insert(covered.end(), read.begin(), read.end());
    ++primary.facts.parses.front().branchVariants;
  }
}

} // namespace kbaudit::cxx
