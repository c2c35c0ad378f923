#pragma once

// Reading problem.yaml into a ProblemContext. Type errors are diagnostics, not silence: a
// `forbidden:` that is one string is read as a one-entry list (and noted), a number or a
// mapping where a string or list belongs is a warning and the key is ignored.

#include "kbaudit/problems/problem_context.h"

#include <filesystem>

namespace kbaudit::problems {

void readProblemYaml(ProblemContext &ctx, const std::filesystem::path &yamlPath);

} // namespace kbaudit::problems
