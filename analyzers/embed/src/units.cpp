#include "kbaudit/embed/units.h"

#include <map>
#include <utility>

namespace kbaudit::embed {

namespace {

bool isLoadInline(const EmbeddedSource &s) {
  return s.origin == Origin::LoadInlineCpp || s.origin == Origin::LoadInlineCuda;
}

void append(Unit &u, const EmbeddedSource &s, int index) {
  if (!u.sources.empty())
    u.text += '\n';
  u.sources.push_back(index);
  u.text += s.text;
  unsigned line = 1;
  u.origins.push_back({index, line});
  for (char c : s.text)
    if (c == '\n')
      u.origins.push_back({index, ++line});
}

} // namespace

Unit unitOf(const EmbeddedSource &source, int index) {
  Unit u;
  u.cuda = source.language == embed::Language::Cuda;
  u.torchPrelude = isLoadInline(source);
  append(u, source, index);
  return u;
}

std::vector<Unit> planUnits(const std::vector<EmbeddedSource> &sources) {
  std::vector<Unit> units;
  std::map<std::pair<int, Origin>, size_t> joined; // (module, origin) -> unit
  for (size_t i = 0; i < sources.size(); ++i) {
    const EmbeddedSource &s = sources[i];
    const int index = static_cast<int>(i);
    if (!isLoadInline(s) || s.module < 0) {
      units.push_back(unitOf(s, index));
      continue;
    }
    const auto key = std::make_pair(s.module, s.origin);
    const auto it = joined.find(key);
    if (it == joined.end()) {
      joined.emplace(key, units.size());
      units.push_back(unitOf(s, index));
    } else {
      append(units[it->second], s, index);
    }
  }
  return units;
}

} // namespace kbaudit::embed
