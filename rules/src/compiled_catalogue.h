#pragma once

// The rule catalogue as catalogue_gen.cpp wrote it at build time from the embedded rule YAML
// (generated/compiledCatalogue.cpp): the rules' metadata without their examples, in the order
// of embeddedRuleYaml().

#include "kbaudit/rules/rule_meta.h"

#include <vector>

namespace kbaudit::rules {

std::vector<RuleMeta> compiledCatalogue();

} // namespace kbaudit::rules
