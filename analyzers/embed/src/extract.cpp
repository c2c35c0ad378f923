#include "kbaudit/embed/embedded_source.h"

namespace kbaudit::embed {
// Placeholder until the extractor lands.
EmbedFacts extract(const py::PythonFacts &, const std::filesystem::path &) { return {}; }
const char *originName(Origin) { return "load_inline cuda_sources"; }
} // namespace kbaudit::embed
