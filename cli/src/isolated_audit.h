#pragma once

// One input audited in a worker process, as `audit` audits each run: what `check` and
// `baseline` use, so a front end that crashes, hangs or runs out of memory on one file gives a
// `bug` annotation with the reason instead of a dead process.

#include "runs.h"

namespace kbaudit::cli {

/// The annotation of `target`; with --runtime the run stays in this process (the probes
/// already run sandboxed, and the annotation's runtime block does not survive the YAML round
/// trip the worker's answer takes).
annotations::Annotation auditIsolated(const RunTarget &target, const AuditOptions &options);

} // namespace kbaudit::cli
