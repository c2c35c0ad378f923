#include "kbaudit/kernels/extension_build.h"

#include <algorithm>
#include <set>

namespace kbaudit::kernels {

const char *buildOutcomeName(BuildOutcome o) {
  switch (o) {
  case BuildOutcome::Builds: return "builds";
  case BuildOutcome::Fails: return "fails";
  case BuildOutcome::NoModule: return "no-module";
  case BuildOutcome::Unknown: return "unknown";
  }
  return "unknown";
}

namespace {

struct ModuleSources {
  std::vector<int> cpp, cuda;
};

bool inList(const std::vector<int> &v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

/// A header that declares the CUDA execution-space keywords for a host compiler.
bool includesCudaRuntime(const cxx::CxxFacts &cxx, const std::vector<int> &sources) {
  for (const cxx::Include &i : cxx.includes)
    if (inList(sources, i.source) &&
        (i.spelled.find("cuda_runtime") != std::string::npos || i.spelled.find("cuda.h") != std::string::npos ||
         i.spelled.find("cuda_fp16") != std::string::npos || i.spelled.find("cuda_bf16") != std::string::npos))
      return true;
  return false;
}

ExtensionBuild judge(int m, const embed::ExtensionModule &mod, const ModuleSources &src, const cxx::CxxFacts &cxx,
                     bool cppParsedWithoutErrors, bool allParsedWithoutErrors) {
  ExtensionBuild b;
  b.module = m;
  b.lines = mod.lines;
  const std::vector<int> all = [&] {
    std::vector<int> v = src.cpp;
    v.insert(v.end(), src.cuda.begin(), src.cuda.end());
    return v;
  }();
  // CUDA code handed to the host compiler: a triple-chevron launch, or a kernel or device
  // function with no header that would declare the keywords.
  for (const cxx::KernelLaunch &l : cxx.launches)
    if (inList(src.cpp, l.source) && l.api == cxx::LaunchApi::TripleChevron) {
      b.outcome = BuildOutcome::Fails;
      b.reason = "cpp_sources holds a `<<<...>>>` launch (line " + std::to_string(l.lines.begin) +
                 "), which the host compiler that builds main.cpp cannot parse";
      return b;
    }
  if (!includesCudaRuntime(cxx, src.cpp))
    for (const cxx::CxxFunction &f : cxx.functions)
      if (inList(src.cpp, f.source) && f.definition && f.onDevice()) {
        b.outcome = BuildOutcome::Fails;
        b.reason = "cpp_sources defines device code (`" + f.name + "`, line " + std::to_string(f.lines.begin) +
                   ") that the host compiler building main.cpp cannot compile";
        return b;
      }
  std::vector<const cxx::ExportedFunction *> pybind;
  for (const cxx::ExportedFunction &e : cxx.exports)
    if (inList(all, e.source) && e.via == cxx::ExportVia::Pybind)
      pybind.push_back(&e);
  const bool ownModuleInCpp =
      std::any_of(pybind.begin(), pybind.end(), [&](const auto *e) { return inList(src.cpp, e->source); });
  const bool ownModuleInCuda =
      std::any_of(pybind.begin(), pybind.end(), [&](const auto *e) { return inList(src.cuda, e->source); });
  if (mod.functionsGiven) {
    if (ownModuleInCpp) {
      b.outcome = BuildOutcome::Fails;
      b.reason = "cpp_sources has its own PYBIND11_MODULE and functions= makes load_inline append a second "
                 "one to main.cpp: the module init is defined twice";
      return b;
    }
    if (ownModuleInCuda) {
      b.outcome = BuildOutcome::Fails;
      b.reason = "cuda_sources defines a PYBIND11_MODULE while functions= makes load_inline generate another "
                 "in main.cpp: the two objects both define the module init and do not link";
      return b;
    }
    // Each bound function must be declared in cpp_sources: main.cpp sees nothing of cuda.cu.
    // A cpp source Clang parsed with errors may hold a declaration it lost: no verdict then.
    for (const std::string &fn : cppParsedWithoutErrors ? mod.functions : std::vector<std::string>{}) {
      const bool declared = std::any_of(cxx.functions.begin(), cxx.functions.end(), [&](const cxx::CxxFunction &f) {
        return inList(src.cpp, f.source) && f.name == fn && !f.onDevice();
      });
      if (declared)
        continue;
      const bool kernel = std::any_of(cxx.functions.begin(), cxx.functions.end(), [&](const cxx::CxxFunction &f) {
        return inList(src.cuda, f.source) && f.name == fn && f.isKernel();
      });
      b.outcome = BuildOutcome::Fails;
      b.reason = "functions= names `" + fn + "`, which cpp_sources never declares" +
                 (kernel ? " (it is a __global__ kernel in cuda_sources, which cannot be bound to Python)" : "") +
                 ": the binding load_inline generates in main.cpp does not compile";
      return b;
    }
  } else if (allParsedWithoutErrors && pybind.empty() &&
             std::none_of(cxx.exports.begin(), cxx.exports.end(), [&](const cxx::ExportedFunction &e) {
               return inList(all, e.source) && (e.via == cxx::ExportVia::TorchLibraryDef ||
                                                e.via == cxx::ExportVia::TorchLibraryImpl);
             })) {
    b.outcome = BuildOutcome::NoModule;
    b.reason = "no functions= and no PYBIND11_MODULE in its sources: the library builds but defines no module "
               "init, so importing it fails";
    return b;
  }
  b.outcome = BuildOutcome::Builds;
  return b;
}

} // namespace

std::vector<ExtensionBuild> predictBuilds(const embed::EmbedFacts &embedded, const cxx::CxxFacts &cxx) {
  std::vector<ModuleSources> sources(embedded.modules.size());
  std::vector<bool> complete(embedded.modules.size(), true);
  for (std::size_t i = 0; i < embedded.sources.size(); ++i) {
    const embed::EmbeddedSource &s = embedded.sources[i];
    if (s.module < 0 || static_cast<std::size_t>(s.module) >= sources.size())
      continue;
    if (!s.complete)
      complete[static_cast<std::size_t>(s.module)] = false;
    if (s.origin == embed::Origin::LoadInlineCpp)
      sources[static_cast<std::size_t>(s.module)].cpp.push_back(static_cast<int>(i));
    else if (s.origin == embed::Origin::LoadInlineCuda)
      sources[static_cast<std::size_t>(s.module)].cuda.push_back(static_cast<int>(i));
  }
  // A unit Clang could not parse cleanly may hide declarations: no verdict on its module.
  std::set<int> unclean, withErrors;
  for (const cxx::ParseReport &r : cxx.parses) {
    if (!r.parsed || r.crashed || r.tooLarge)
      unclean.insert(r.sources.begin(), r.sources.end());
    if (r.errors > 0)
      withErrors.insert(r.sources.begin(), r.sources.end());
  }
  std::vector<ExtensionBuild> out;
  for (std::size_t m = 0; m < embedded.modules.size(); ++m) {
    const embed::ExtensionModule &mod = embedded.modules[m];
    const ModuleSources &src = sources[m];
    const bool seen = std::none_of(src.cpp.begin(), src.cpp.end(), [&](int s) { return unclean.count(s) > 0; }) &&
                      std::none_of(src.cuda.begin(), src.cuda.end(), [&](int s) { return unclean.count(s) > 0; });
    if (mod.builder != embed::ExtensionModule::Builder::LoadInline || !mod.sourcesComplete || !complete[m] || !seen) {
      out.push_back(ExtensionBuild{static_cast<int>(m), BuildOutcome::Unknown, {}, mod.lines});
      continue;
    }
    const bool cppClean =
        std::none_of(src.cpp.begin(), src.cpp.end(), [&](int s) { return withErrors.count(s) > 0; });
    const bool allClean =
        cppClean && std::none_of(src.cuda.begin(), src.cuda.end(), [&](int s) { return withErrors.count(s) > 0; });
    // What a unit with errors lost (a PYBIND11_MODULE, a declaration) is not evidence of absence.
    out.push_back(judge(static_cast<int>(m), mod, src, cxx, cppClean, allClean));
  }
  return out;
}

} // namespace kbaudit::kernels
