#include "kbaudit/annotations/run_id.h"

namespace kbaudit::annotations {
// Placeholder until the parser lands.
RunId RunId::parse(std::string_view text, const std::vector<std::string> &) {
  RunId id;
  id.text = std::string(text);
  return id;
}
} // namespace kbaudit::annotations
