#pragma once

// The sandbox's containment (docs/security.md), in two halves: a plan made in kbaudit before
// the fork (it allocates: paths, mount steps, the seccomp program, the Landlock ruleset), and
// the steps the child takes between fork and exec, which only make system calls
// (async-signal-safe). Which containment a machine allows is found once per process, in a
// throwaway child, so a kernel or container that refuses namespaces degrades to Landlock (or
// to the seccomp filter alone) and says so instead of failing the run.

#include "kbaudit/runtime/sandbox.h"

#include <linux/filter.h>

#include <string>
#include <vector>

namespace kbaudit::runtime::detail {

enum class Mode { Namespaces, Landlock, SeccompOnly };

/// One step of building the child's filesystem view inside its own mount namespace; `path` is
/// the full path under the staging directory that becomes the new root.
struct MountStep {
  enum class Kind { Dir, File, Symlink, Bind, ReadOnly, Tmpfs, Proc } kind;
  std::string path;
  std::string source;      ///< Bind: the host path; Symlink: the link's target; Tmpfs: mount options
  unsigned long flags = 0; ///< Bind/ReadOnly/Tmpfs: mount flags (a read-only remount keeps the source's locked ones)
  /// ReadOnly: the MOUNT_ATTR_* flags mount_setattr(2) sets on the bind and every mount below it;
  /// where the kernel lacks it (before 5.12), the remount with `flags` covers the top one only.
  unsigned long long attrSet = 0;
};

inline constexpr unsigned long long kAttrRdonly = 0x1, kAttrNosuid = 0x2, kAttrNodev = 0x4;

/// The steps of a namespace view under `stage`: a tmpfs root, private /tmp, /dev and /dev/shm,
/// the devices, a fresh /proc, /sys and the system directories read-only, then the view's paths.
std::vector<MountStep> viewSteps(const std::string &stage, const std::vector<std::string> &readOnly,
                                 const std::vector<std::string> &writable, const std::vector<std::string> &devices);

struct ContainmentPlan {
  Mode mode = Mode::SeccompOnly;
  int cloneFlags = 0;     ///< namespaces to create (clone(2) flags), 0 outside Mode::Namespaces
  bool userNamespace = false;
  std::string uidMap, gidMap; ///< "<uid> <uid> 1": the user keeps its own ids inside its namespace
  std::string stage;          ///< the empty host directory the new root is built on
  std::string oldRoot;        ///< stage + "/.old-root", where pivot_root puts the host's root
  std::vector<MountStep> steps;
  std::vector<sock_filter> seccomp; ///< empty where this architecture has no filter here
  int landlockRuleset = -1;         ///< a ruleset descriptor (Mode::Landlock), closed by the child once applied
  std::vector<std::string> notes;   ///< what the child is confined to, in words, and what could not be done
};

/// What this machine allows, found once per process: the strongest mode not above `ceiling`.
Mode availableMode(Containment ceiling);

/// Everything the child will do, prepared in kbaudit (allocates; before the fork). `workdir`
/// is writable unless `view` says otherwise.
ContainmentPlan planContainment(const SandboxRequest &request);

/// Releases what the plan holds in kbaudit (the staging directory, the ruleset descriptor).
void releasePlan(ContainmentPlan &plan);

// ---- in the child, between fork and exec (system calls only) -----------------------------

/// Maps the user's ids into its new user namespace (Mode::Namespaces without root). Returns 0
/// or -1 with errno set and `*step` naming what failed.
int mapUser(const ContainmentPlan &plan, const char **step);

/// Builds the filesystem view and pivots into it (Mode::Namespaces).
int enterView(const ContainmentPlan &plan, const char **step);

/// After the uid drop, just before exec: no new privileges, the Landlock ruleset (the plan's,
/// at the descriptor number the child moved it to; -1 for none), the seccomp filter.
int lockDown(const ContainmentPlan &plan, int landlockFd, const char **step);

// ---- pieces, one file each ----------------------------------------------------------------

/// The seccomp program: syscalls that reach outside the sandbox or rearrange it (ptrace and
/// process_vm_*, keyrings, io_uring, bpf, mount and namespace calls, clone with namespace
/// flags), and socket() for every family where no network namespace stands between the child
/// and the host (with one, the families that namespace scopes: unix, inet, inet6, netlink).
std::vector<sock_filter> seccompProgram(bool networkNamespace);

/// The highest Landlock ABI the kernel offers (0: none).
int landlockAbi();

/// A Landlock ruleset for the view (read-only, writable) at `abi`; -1 with `why` when it cannot
/// be built.
int landlockRuleset(int abi, const std::vector<std::string> &readOnly, const std::vector<std::string> &writable,
                    const std::vector<std::string> &devices, std::string &why);

/// Applies a ruleset to the calling thread (system call only: safe in the child).
int landlockRestrict(int ruleset);

} // namespace kbaudit::runtime::detail
