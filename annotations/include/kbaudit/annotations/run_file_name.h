#pragma once

// Run ids come from directory names, which may hold any byte but '/' and NUL; annotation
// file names must be safe and distinct. The mapping is injective: `run a`, `run:a` and `run_a`
// get three files, and `score`/`report` read the id back from the name.

#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::annotations {

/// `<encoded id>.yaml`: bytes of [A-Za-z0-9._-] kept, every other byte (and a leading '.', so
/// no annotation is a hidden file) as %XX. An encoding longer than a file name may be keeps
/// a prefix and appends `~` and 16 hex digits of the id's SHA-256; such a file is matched by
/// the run_id written inside it.
std::string annotationFileName(std::string_view runId);

/// The run id a file name stem (the name without `.yaml`) encodes; nullopt for a stem that is
/// not an encoding (a hashed long name, or a file someone else named).
std::optional<std::string> runIdFromFileStem(std::string_view stem);

} // namespace kbaudit::annotations
