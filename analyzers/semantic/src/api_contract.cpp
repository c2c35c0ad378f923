#include "kbaudit/semantic/api_contract.h"

#include "kbaudit/semantic/python_text.h"

#include <algorithm>

namespace kbaudit::semantic {
namespace {

bool isPublicApi(const py::Function &f) {
  const std::string_view leaf = pytext::lastSegment(f.qualname);
  if (leaf.empty() || leaf.front() == '_' || leaf == "get_inputs" || leaf == "get_init_inputs")
    return false;
  // Nested helpers ("run.<inner>") are not API; methods of nested classes neither.
  const std::size_t dots = static_cast<std::size_t>(std::count(f.qualname.begin(), f.qualname.end(), '.'));
  return f.className.empty() ? dots == 0 : dots == 1;
}

bool reads(const py::Function &f, const std::string &name) {
  return std::binary_search(f.reads.begin(), f.reads.end(), name);
}

/// The solution's function standing for `ref`: same qualname, or the same method of the
/// solution's graded class when the model class is renamed (`Model` -> `ModelNew`).
const py::Function *counterpart(const py::PythonFacts &solution, const py::Function &ref,
                                const std::string &modelClass) {
  if (const py::Function *f = solution.findFunction(ref.qualname))
    return f;
  if (ref.className.empty() || ref.className != modelClass)
    return nullptr;
  const std::string method(pytext::lastSegment(ref.qualname));
  for (const char *cls : {"ModelNew", "Model"})
    if (const py::Function *f = solution.findFunction(std::string(cls) + "." + method))
      return f;
  return nullptr;
}

} // namespace

std::vector<ApiPair> redefinedReferenceApi(const py::PythonFacts &solution, const py::PythonFacts &reference,
                                           const std::string &referenceModelClass) {
  std::vector<ApiPair> out;
  for (const py::Function &ref : reference.functions)
    if (isPublicApi(ref))
      if (const py::Function *sol = counterpart(solution, ref, referenceModelClass))
        out.push_back({sol, &ref});
  return out;
}

std::vector<IgnoredInput> ignoredInputs(const py::PythonFacts &solution, const py::PythonFacts &reference,
                                        const std::string &referenceModelClass) {
  std::vector<IgnoredInput> out;
  for (const ApiPair &api : redefinedReferenceApi(solution, reference, referenceModelClass)) {
    const py::Function &ref = *api.reference;
    const py::Function *sol = api.solution;
    if (ref.opaqueReads || sol->opaqueReads)
      continue;
    const bool method = !ref.className.empty();
    for (std::size_t i = method ? 1 : 0; i < ref.params.size(); ++i) {
      const std::string &p = ref.params[i];
      // An optional input (declared with a default) configures the call (a device, a
      // tuning knob); the reference computes the same values without it.
      const bool optional =
          std::find(ref.defaultedParams.begin(), ref.defaultedParams.end(), p) != ref.defaultedParams.end();
      if (p.empty() || p.front() == '*' || optional || !reads(ref, p))
        continue;
      const bool declared = std::find(sol->params.begin(), sol->params.end(), p) != sol->params.end();
      if (declared && !reads(*sol, p))
        out.push_back({sol, &ref, p});
    }
  }
  return out;
}

} // namespace kbaudit::semantic
