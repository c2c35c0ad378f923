#pragma once

// What made an annotation, as one SHA-256: the kbaudit build, the options that change an
// annotation, the run's files, its table row and its problem's files. A killed or repeated
// `kbaudit audit` into the same folder keeps every annotation whose fingerprint still matches
// and audits only the runs that are missing or stale.

#include "eval_table.h"

#include <filesystem>
#include <string>

namespace kbaudit::cli {

struct RunTarget;

/// This kbaudit build: its version and its executable's size and modification time (a rebuilt
/// binary, whose rules may differ under the same version, is another build).
std::string buildIdentity();

/// Hex SHA-256 over `optionsKey` (AuditOptions::fingerprintKey), the run's id and files (a run
/// directory's regular files; a file-style run's solution), its table row, and the files of
/// the problem at `problem`, a directory or a level file (problem.yaml, the reference,
/// problem_baselines.json one and two folders up).
std::string runFingerprint(const RunTarget &run, const std::string &optionsKey, const std::filesystem::path *problem);

} // namespace kbaudit::cli
