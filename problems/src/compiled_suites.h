#pragma once

// The built-in suite profiles as suites_gen.cpp wrote them at build time from the embedded
// problems/suites/*.yaml (generated/compiledSuites.cpp), in the order of embeddedSuites().

#include "kbaudit/problems/suite_profile.h"

#include <vector>

namespace kbaudit::problems {

std::vector<SuiteProfile> compiledSuiteProfiles();

} // namespace kbaudit::problems
