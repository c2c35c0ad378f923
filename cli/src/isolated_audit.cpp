#include "isolated_audit.h"

#include "worker_pool.h"

#include "kbaudit/annotations/yaml_writer.h"

#include <chrono>

namespace kbaudit::cli {

annotations::Annotation auditIsolated(const RunTarget &target, const AuditOptions &options) {
  if (options.runtime)
    return auditRun(target, options);
  std::optional<annotations::Annotation> result;
  std::string failure;
  WorkerLimits limits;
  if (options.compile) // a cold compile brings its own time limit; the worker's must not cut it short
    limits.wall += std::chrono::seconds(static_cast<long>(options.compile->timeoutSeconds));
  runInWorkers(
      1, 1, limits, [&](std::size_t) { return annotations::toYaml(auditRun(target, options)); },
      [&](std::size_t, WorkerOutcome o) {
        if (o.status == WorkerOutcome::Status::Ok) {
          try {
            result = annotations::fromYaml(o.payload);
          } catch (const std::exception &e) {
            failure = std::string("internal error: the worker's annotation did not load back: ") + e.what();
          }
        } else {
          failure = o.reason;
        }
      });
  if (result)
    return *result;
  return unauditableRun(target, options, failure);
}

} // namespace kbaudit::cli
