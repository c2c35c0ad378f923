#pragma once
// Where a kbaudit binary finds the two things it does not carry inside itself: the Python
// environment (torch, Triton) of the runtime probes and of torch-extension compiles, and Clang's
// resource headers (stddef.h, the CUDA builtins) the C++/CUDA front end parses with. Rule YAML,
// suite profiles, overlays, stub headers and the probe package are compiled in, so nothing else
// is looked up on disk.

#include <filesystem>

namespace kbaudit {

/// The probes' virtual environment (a directory holding bin/python), or empty when none exists:
/// `<dir of the executable>/../lib/kbaudit/venv` (an installed kbaudit; see docs/install.md),
/// else, only for a binary running from its own build tree, the source tree's `.venv` that
/// setup.sh creates. An installed binary never reaches into the tree it was built from.
std::filesystem::path probeVenv();

/// An installed kbaudit's copy of Clang's resource directory, `<dir of the executable>/../lib/
/// kbaudit/clang` (cmake/packaging.cmake installs it), when it holds the headers; empty
/// otherwise (a binary in its build tree uses the build machine's, analyzers/cxx).
std::filesystem::path installedClangResources();

/// The running executable (/proc/self/exe), or empty when it cannot be read.
std::filesystem::path selfExecutable();

} // namespace kbaudit
