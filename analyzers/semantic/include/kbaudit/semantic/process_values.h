#pragma once

// Where the small process-level values a solution hands to the OS come from: a file
// descriptor number (`os.write(fd, ...)`, `os.dup2(a, fd)`), a process id (`os.kill(pid, ...)`),
// a file path (`open(path, "w")`). RUB012 and RUB013 ask these to tell a channel the harness
// handed down (a number from the environment, the parent's pid) from the solution's own
// (a descriptor it opened, a child it started, a file in its cache directory).

#include "kbaudit/python/facts.h"

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::semantic {

enum class DescriptorSource {
  Unknown,     ///< nothing the facts can follow (a parameter, an attribute of an object)
  Literal,     ///< a number written in the code (`3`, a module constant bound to one)
  Environment, ///< a number read from the environment (`int(os.environ["FD"])`, os.getenv)
  Own,         ///< a descriptor the code opened itself (os.open, os.pipe, os.dup, socket, `f.fileno()`)
  Stdout,      ///< `sys.stdout.fileno()` (or the literal 1)
  Stderr,      ///< `sys.stderr.fileno()` (or the literal 2)
};

struct Descriptor {
  DescriptorSource source = DescriptorSource::Unknown;
  long number = -1; ///< the literal's value, 1/2 for stdout/stderr, -1 otherwise
};

/// The callee (resolved) returns a new descriptor of the caller's own: os.open, os.pipe,
/// os.dup, socket.socket, tempfile.mkstemp and kin.
bool opensDescriptor(std::string_view resolved);

/// Where the descriptor number `e`, read in `function`, comes from. Names are followed through
/// their bindings (the function's own and module-level ones, a few levels deep); a name with
/// several bindings is only as known as all of them agree.
Descriptor descriptorOf(const py::PythonFacts &py, const py::Expr &e, std::string_view function);

/// Some part of `e` (or of what a name in it is bound to) reads the environment:
/// `os.environ[...]`, `os.environ.get`, `os.getenv`.
bool readsEnvironment(const py::PythonFacts &py, const py::Expr &e, std::string_view function);

enum class ProcessTarget {
  Unknown, ///< a pid the facts cannot follow (a child's pid, a parameter)
  Self,    ///< os.getpid()
  Parent,  ///< os.getppid(): the process that started this one (the harness)
  Group,   ///< a process group: `os.killpg`, os.getpgid/os.getpgrp, pid 0 or a negative pid
};

/// Whom a pid expression in `function` names (for os.kill / os.killpg / os.pidfd_open).
ProcessTarget processTargetOf(const py::PythonFacts &py, const py::Expr &e, std::string_view function);

/// What the facts show of a file path expression: the folded string parts that make it up
/// (`os.path.join`, `pathlib.Path`, `/`, f-strings, names bound to any of these) and where its
/// directory comes from.
struct PathParts {
  std::vector<std::string> parts; ///< static pieces, in order ("..", "results.json")
  bool environment = false;       ///< a piece is read from the environment
  std::vector<std::string> environmentKeys; ///< the strings of those reads ("TRITON_CACHE_DIR", a default)
  bool ownLocation = false;       ///< it is built from `__file__`, a `tempfile` directory or the
                                  ///< user's cache directory: the solution's own place
};
PathParts pathPartsOf(const py::PythonFacts &py, const py::Expr &e, std::string_view function);

} // namespace kbaudit::semantic
