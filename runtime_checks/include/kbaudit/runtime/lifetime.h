#pragma once

// Process lifetime: nothing kbaudit starts outlives it. A killed `kbaudit audit` must not leave
// its workers analysing, a probe's sandboxed Python running or a private copy of a solution in
// $TMPDIR. Three layers, because no one of them covers every way a process ends:
//  - a child asks the kernel for a signal when its parent dies (PR_SET_PDEATHSIG), so a worker
//    and a sandboxed interpreter end with the process that started them, kill -9 included;
//  - a process that is told to end (SIGTERM, SIGINT, SIGHUP, or a worker's parent-death SIGTERM)
//    first kills the process groups it registered and removes the directories it registered,
//    with async-signal-safe calls only;
//  - private directories carry their owner's pid in their name, and the next start removes the
//    ones whose owner is gone (what a kill -9 of the owner itself leaves behind).

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string_view>

namespace kbaudit::runtime::lifetime {

/// In a child right after fork (async-signal-safe): the kernel sends `sig` when the thread that
/// forked it ends, and the child exits at once (status 1) when `parent` is already gone.
/// `parent` 0 skips that check (a child in its own PID namespace cannot see its parent).
/// Must be called again after a change of uid (the kernel clears the request then).
void dieWithParent(pid_t parent, int sig);

/// SIGTERM, SIGINT and SIGHUP first run cleanUpNow(), then end the process with the same
/// signal. Forked children inherit the handlers (a sandboxed child resets them before exec).
void cleanUpOnTermination();

/// Kills every registered process group (and, for a group run under its own uid, every process
/// of that uid) and removes every registered directory. Async-signal-safe.
void cleanUpNow();

/// A sandboxed child's process group, killed by cleanUpNow() while registered. `uid` != 0: the
/// group runs under a uid of its own, whose every process is killed too (it may have left the
/// group with setsid).
class GuardedGroup {
public:
  GuardedGroup(pid_t group, uid_t uid);
  ~GuardedGroup();
  GuardedGroup(const GuardedGroup &) = delete;
  GuardedGroup &operator=(const GuardedGroup &) = delete;

private:
  int slot_ = -1;
};

/// A private directory, removed by cleanUpNow() while registered.
class GuardedDir {
public:
  explicit GuardedDir(const std::filesystem::path &dir);
  ~GuardedDir();
  GuardedDir(const GuardedDir &) = delete;
  GuardedDir &operator=(const GuardedDir &) = delete;

private:
  int slot_ = -1;
};

/// mkdtemp of `<tmp>/<prefix>-<pid>-XXXXXX` (mode 0700): the pid names the owner for
/// removeStaleDirs. nullopt when it cannot be made.
std::optional<std::filesystem::path> makeOwnedDir(std::string_view prefix,
                                                  const std::filesystem::path &tmp = std::filesystem::temp_directory_path());

/// Removes the `<prefix>-<pid>-*` directories in `tmp` that this euid owns and whose owner
/// process is gone (no such pid, or a process started after the directory last changed, i.e.
/// the pid was reused). Returns how many were removed.
unsigned removeStaleDirs(std::string_view prefix,
                         const std::filesystem::path &tmp = std::filesystem::temp_directory_path());

/// Removes `path` and everything below it without following symbolic links, also where the
/// tree's owner took away its own write or search permission. Async-signal-safe; true when
/// `path` is gone afterwards.
bool removeTree(const char *path);

} // namespace kbaudit::runtime::lifetime
