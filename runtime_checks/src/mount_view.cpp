// The child's filesystem view, built inside its own mount namespace between fork and exec
// (system calls only): the planned steps under the staging directory, then pivot_root into it
// and the host's root detached, so no path leads back out (a chroot would leave one to a
// process with privileges in its namespace).

#include "containment.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace kbaudit::runtime::detail {

namespace {

// mount_setattr(2) (Linux 5.12), the same number on x86-64 and aarch64; defined here because the
// build machine's headers may predate it.
constexpr long kMountSetattr = 442;
constexpr unsigned kAtRecursive = 0x8000;
struct MountAttr {
  unsigned long long attrSet, attrClr, propagation, usernsFd;
};

int runStep(const MountStep &s) {
  switch (s.kind) {
  case MountStep::Kind::Dir:
    return ::mkdir(s.path.c_str(), 0755) == 0 || errno == EEXIST ? 0 : -1;
  case MountStep::Kind::File: {
    const int fd = ::open(s.path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
      return errno == EEXIST ? 0 : -1;
    ::close(fd);
    return 0;
  }
  case MountStep::Kind::Symlink:
    return ::symlink(s.source.c_str(), s.path.c_str()) == 0 || errno == EEXIST ? 0 : -1;
  case MountStep::Kind::Tmpfs:
    return ::mount("tmpfs", s.path.c_str(), "tmpfs", s.flags, s.source.c_str());
  case MountStep::Kind::Bind:
    return ::mount(s.source.c_str(), s.path.c_str(), nullptr, MS_BIND | s.flags, nullptr);
  case MountStep::Kind::ReadOnly: {
    // The bind and every mount below it; a remount reaches the top one only.
    MountAttr attr{s.attrSet, 0, 0, 0};
    if (s.attrSet && ::syscall(kMountSetattr, AT_FDCWD, s.path.c_str(), kAtRecursive, &attr, sizeof attr) == 0)
      return 0;
    return ::mount(nullptr, s.path.c_str(), nullptr, MS_REMOUNT | MS_BIND | s.flags, nullptr);
  }
  case MountStep::Kind::Proc:
    return ::mount("proc", s.path.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
  }
  return -1;
}

const char *stepName(MountStep::Kind k) {
  switch (k) {
  case MountStep::Kind::Dir:
    return "mkdir in the view";
  case MountStep::Kind::File:
    return "creating a mount point in the view";
  case MountStep::Kind::Symlink:
    return "symlink in the view";
  case MountStep::Kind::Tmpfs:
    return "mounting a tmpfs";
  case MountStep::Kind::Bind:
    return "bind mount";
  case MountStep::Kind::ReadOnly:
    return "read-only remount";
  case MountStep::Kind::Proc:
    return "mounting /proc";
  }
  return "mount step";
}

} // namespace

int enterView(const ContainmentPlan &plan, const char **step) {
  *step = "making the mount tree private";
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return -1;
  for (const MountStep &s : plan.steps) {
    *step = stepName(s.kind);
    if (runStep(s) != 0)
      return -1;
  }
  *step = "pivot_root";
  if (::mkdir(plan.oldRoot.c_str(), 0700) != 0 && errno != EEXIST)
    return -1;
  if (::syscall(SYS_pivot_root, plan.stage.c_str(), plan.oldRoot.c_str()) != 0)
    return -1;
  if (::chdir("/") != 0)
    return -1;
  *step = "detaching the host's root";
  if (::umount2("/.old-root", MNT_DETACH) != 0 || ::rmdir("/.old-root") != 0)
    return -1;
  // The view's own skeleton (the folders mount points were made in) is read-only too.
  *step = "read-only root";
  return ::mount(nullptr, "/", nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr);
}

} // namespace kbaudit::runtime::detail
