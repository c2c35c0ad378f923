#include "kbaudit/semantic/sample_gates.h"

#include "kbaudit/semantic/magnitude_decision.h"

namespace kbaudit::semantic {
namespace {

std::string at(std::string_view function, unsigned line) { return std::string(function) + "@" + std::to_string(line); }

} // namespace

SampleGates::SampleGates(const Facts &facts, const std::set<std::string> &functions) {
  for (const InputSample &s : inputSamples(facts, functions))
    add(s);
  if (!samples_.empty())
    propagate(facts, functions);
}

void SampleGates::add(const InputSample &s) {
  auto [it, inserted] = samples_.emplace(at(s.function, s.lines.begin), s);
  if (!inserted && static_cast<int>(s.strength) > static_cast<int>(it->second.strength))
    it->second = s;
}

const InputSample *SampleGates::sampleOn(const std::string &function, LineRange lines) const {
  for (unsigned n = lines.begin; lines.valid() && n <= lines.end; ++n)
    if (auto it = samples_.find(at(function, n)); it != samples_.end())
      return &it->second;
  return nullptr;
}

void SampleGates::propagate(const Facts &facts, const std::set<std::string> &functions) {
  for (int round = 0; round < 4; ++round) {
    bool grew = false;
    for (const py::Assignment &a : facts.python.assignments) {
      if (!functions.count(a.function) || !carriesDecision(a.value))
        continue;
      if (a.kind != py::Assignment::TargetKind::Name && a.kind != py::Assignment::TargetKind::SelfAttribute)
        continue;
      const InputSample *s = sampleOn(a.function, a.lines);
      if (!s)
        if (const auto *read = derived_.readBy(a.function, a.value))
          s = &read->second;
      if (s && derived_.bind(a.function, a.target, InputSample(*s)))
        grew = true;
    }
    if (!grew)
      break;
  }
}

std::optional<InputSample> SampleGates::gateOf(const py::Branch &b) const {
  if (const InputSample *s = sampleOn(b.function, b.lines))
    return *s;
  if (const auto *read = derived_.readAmong(b.function, b.names))
    return read->second;
  return std::nullopt;
}

} // namespace kbaudit::semantic
