// libFuzzer target: arbitrary bytes through every front end, the rules, verdict synthesis
// and the YAML writer, as `kbaudit check` would run them. Any crash, sanitizer report or
// hang is a bug: bad input must only ever become a diagnostic.

#include "kbaudit/annotations/synthesis.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/facts.h"
#include "kbaudit/rules/engine.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace kbaudit;
  const Facts facts = analyzeSource(SourceFile::fromBytes(std::string(reinterpret_cast<const char *>(data), size)));
  const rules::RuleResults results = rules::runRules(rules::CheckContext{facts, nullptr});
  annotations::RunInfo run;
  run.id = annotations::RunId::parse("20260101_000000_fuzz_model_01_problem");
  const annotations::Annotation a = annotations::synthesize(run, facts, results, nullptr, "fuzz");
  const std::string yaml = annotations::toYaml(a);
  // The writer's output must always load back.
  (void)annotations::fromYaml(yaml);
  return 0;
}
