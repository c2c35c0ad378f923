#include "summary.h"

#include "names.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace kbaudit::cxx {

namespace {

/// Facts link across the sources of one extension module; sources outside any module
/// (module -1) form one group.
int moduleOf(int source, const std::vector<embed::EmbeddedSource> &sources) {
  return source >= 0 && static_cast<size_t>(source) < sources.size() ? sources[source].module : -1;
}

struct ModuleGraph {
  std::map<std::string, std::set<std::string>> edges;
  std::set<std::string> defined;
};

std::map<int, ModuleGraph> graphs(const CxxFacts &facts,
                                  const std::vector<embed::EmbeddedSource> &sources) {
  std::map<int, ModuleGraph> out;
  for (const CallEdge &e : facts.callGraph)
    out[moduleOf(e.source, sources)].edges[e.caller].insert(e.callee);
  for (const CxxFunction &f : facts.functions)
    if (f.definition)
      out[moduleOf(f.source, sources)].defined.insert(f.qualifiedName);
  return out;
}

/// The host function `name` of `functions=` binds: torch generates `m.def("name", &name)`
/// at global scope, so a global definition wins; otherwise any function of that name.
const CxxFunction *findFunction(const CxxFacts &facts, const std::vector<embed::EmbeddedSource> &sources,
                                int module, const std::string &name) {
  const CxxFunction *best = nullptr;
  for (const CxxFunction &f : facts.functions) {
    if (f.lambda || f.kind == FunctionKind::Global || moduleOf(f.source, sources) != module)
      continue;
    if (f.qualifiedName != name && f.name != name)
      continue;
    const auto rank = [&](const CxxFunction &g) {
      return (g.qualifiedName == name ? 2 : 0) + (g.definition ? 1 : 0);
    };
    if (!best || rank(f) > rank(*best))
      best = &f;
  }
  return best;
}

void summarize(ExportedFunction &e, int module, const CxxFacts &facts, const ModuleGraph &graph,
               const std::vector<embed::EmbeddedSource> &sources) {
  std::set<std::string> reached{e.target};
  std::vector<std::string> todo{e.target};
  while (!todo.empty()) {
    const std::string f = todo.back();
    todo.pop_back();
    const auto it = graph.edges.find(f);
    if (it == graph.edges.end())
      continue;
    for (const std::string &callee : it->second)
      if (reached.insert(callee).second)
        todo.push_back(callee);
  }
  e.defined = graph.defined.count(e.target) > 0;
  e.reached.assign(reached.begin(), reached.end());
  for (size_t i = 0; i < facts.launches.size(); ++i) {
    const KernelLaunch &l = facts.launches[i];
    if (moduleOf(l.source, sources) != module || !reached.count(l.function))
      continue;
    e.launches.push_back(static_cast<int>(i));
    if (std::find(e.kernels.begin(), e.kernels.end(), l.kernel) == e.kernels.end())
      e.kernels.push_back(l.kernel);
  }
  std::set<std::string> kernels(e.kernels.begin(), e.kernels.end());
  for (size_t i = 0; i < facts.calls.size(); ++i) {
    const CxxCall &c = facts.calls[i];
    if (moduleOf(c.source, sources) != module || !reached.count(c.function))
      continue;
    e.calls.push_back(static_cast<int>(i));
    // Library calls inside reached kernels (wmma, CuTe) are the authored kernel's own work.
    if (isLibraryCompute(c.category) && !c.inDevice)
      e.libraryCalls.push_back(static_cast<int>(i));
  }
  for (const std::string &f : reached)
    if (!graph.defined.count(f) && !kernels.count(f) && !names::classifyCall(f))
      e.undefinedCallees.push_back(f);
}

} // namespace

void summarizeExports(CxxFacts &facts, const std::vector<embed::EmbeddedSource> &sources,
                      const FrontendOptions &options) {
  for (const auto &entry : options.functionsByModule) {
    // Not a structured binding: clang 14 (the fuzzing build) cannot capture one in a lambda.
    const int module = entry.first;
    for (const std::string &name : entry.second) {
      const bool bound = std::any_of(facts.exports.begin(), facts.exports.end(), [&](const ExportedFunction &e) {
        return e.name == name && moduleOf(e.source, sources) == module;
      });
      if (bound)
        continue;
      ExportedFunction e;
      e.name = name;
      e.target = name;
      e.via = ExportVia::FunctionsList;
      if (const CxxFunction *f = findFunction(facts, sources, module, name)) {
        e.target = f->qualifiedName;
        e.source = f->source;
        e.lines = f->lines;
      } else {
        // Not found: still an export; keep the module by pointing at one of its sources.
        for (size_t i = 0; i < sources.size(); ++i)
          if (sources[i].module == module) {
            e.source = static_cast<int>(i);
            break;
          }
      }
      facts.exports.push_back(std::move(e));
    }
  }
  const std::map<int, ModuleGraph> all = graphs(facts, sources);
  const ModuleGraph empty;
  for (ExportedFunction &e : facts.exports) {
    const int module = moduleOf(e.source, sources);
    const auto it = all.find(module);
    summarize(e, module, facts, it == all.end() ? empty : it->second, sources);
  }
}

} // namespace kbaudit::cxx
