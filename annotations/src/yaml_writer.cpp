#include "kbaudit/annotations/yaml_writer.h"

#include <stdexcept>

namespace kbaudit::annotations {
// Placeholder until the writer lands.
std::string toYaml(const Annotation &a) { return "run_id: " + a.runId + "\n"; }
Annotation fromYaml(const std::string &) { throw std::runtime_error("not implemented"); }
bool writeFileAtomically(const std::filesystem::path &, const std::string &, std::string &error) {
  error = "not implemented";
  return false;
}
} // namespace kbaudit::annotations
