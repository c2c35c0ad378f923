// Suite overlays: curated, per-problem policy shipped as data under problems/<suite>/.

#include "embedded_overlays.h"
#include "kbaudit/problems/problem_context.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace kbaudit::problems {

namespace {

std::vector<std::string> strings(const YAML::Node &node) {
  std::vector<std::string> out;
  if (node && node.IsSequence())
    for (const auto &item : node)
      if (item.IsScalar())
        out.push_back(item.as<std::string>());
  return out;
}

std::optional<OpClass> opClassNamed(std::string_view name) {
  for (OpClass c : {OpClass::Matmul, OpClass::Conv, OpClass::Attention, OpClass::Scan, OpClass::Reduction,
                    OpClass::Sort, OpClass::Elementwise})
    if (name == opClassName(c))
      return c;
  return std::nullopt;
}

struct Overlay {
  std::string problem;
  SuitePolicy policy;
};

// Parsed once; a malformed overlay is a build-time mistake that the overlay test catches,
// so here it is skipped rather than failing every audit.
const std::vector<Overlay> &overlays() {
  static const std::vector<Overlay> all = [] {
    std::vector<Overlay> out;
    for (const EmbeddedFile &file : embeddedOverlays()) {
      if (file.path.empty())
        continue;
      try {
        const YAML::Node root = YAML::Load(std::string(file.content));
        Overlay o;
        o.problem = root["problem"].as<std::string>("");
        o.policy.suite = root["suite"].as<std::string>("");
        o.policy.file = std::string(file.path);
        o.policy.promise = root["promise"].as<std::string>("");
        o.policy.requiredInstructions = strings(root["requires"]);
        o.policy.forbiddenOps = strings(root["forbidden_ops"]);
        o.policy.forbiddenLibraries = strings(root["forbidden_libraries"]);
        for (const std::string &name : strings(root["allowed_library_ops"]))
          if (auto c = opClassNamed(name))
            o.policy.allowedLibraryOps.push_back(*c);
        o.policy.compileForbidden = root["compile_forbidden"].as<bool>(false);
        if (!o.problem.empty())
          out.push_back(std::move(o));
      } catch (const YAML::Exception &) {
      }
    }
    return out;
  }();
  return all;
}

} // namespace

bool SuitePolicy::demands(std::string_view instructionClass) const {
  return std::find(requiredInstructions.begin(), requiredInstructions.end(), instructionClass) !=
         requiredInstructions.end();
}

bool SuitePolicy::allowsLibrary(OpClass c) const {
  return std::find(allowedLibraryOps.begin(), allowedLibraryOps.end(), c) != allowedLibraryOps.end();
}

std::optional<SuitePolicy> findPolicy(std::string_view problemName, std::string_view) {
  for (const Overlay &o : overlays())
    if (o.problem == problemName)
      return o.policy;
  return std::nullopt;
}

} // namespace kbaudit::problems
