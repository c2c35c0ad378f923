// Which containment this machine allows, and the plan for one child: the namespaces it gets,
// the filesystem view it is pivoted into (or the Landlock ruleset that stands in for it), and
// the seccomp program. Also the child's own steps that are not about mounts: mapping its ids
// into its user namespace and the last lock-down before exec.

#include "containment.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

namespace kbaudit::runtime::detail {

namespace fs = std::filesystem;

namespace {

// What the child always sees read-only: the system's programs, libraries and configuration
// (/bin, /lib and friends are symlinks into /usr on a merged-/usr system, and are recreated as
// such). Nothing else of the host's filesystem is there unless the request's view names it.
constexpr const char *kSystemPaths[] = {"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
// The devices every program expects; the GPU's are added where they exist.
constexpr const char *kDevices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};

constexpr int kNamespaceFlags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS;

std::string errnoText(int e) { return std::strerror(e); }

/// The GPU's device nodes (/dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm, ...) and the
/// nvidia-caps folder, where present.
std::vector<std::string> gpuDevices() {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it("/dev", ec), end; it != end && !ec; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("nvidia", 0) == 0)
      out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Mount flags a read-only remount of a bind of `path` must keep: in a user namespace the
/// kernel refuses to clear flags it locked on the original mount.
unsigned long lockedFlags(const std::string &path) {
  struct statvfs st {};
  if (::statvfs(path.c_str(), &st) != 0)
    return MS_NOSUID | MS_NODEV;
  unsigned long flags = st.f_flag & (ST_RDONLY | ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_SYNCHRONOUS | ST_NOATIME |
                                     ST_NODIRATIME);
  if (st.f_flag & ST_RELATIME)
    flags |= MS_RELATIME;
  return flags;
}

std::string absoluteNormal(const fs::path &p) { return fs::absolute(p).lexically_normal().string(); }

bool under(const std::string &path, const std::string &dir) {
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

bool underSystem(const std::string &path) {
  return std::any_of(std::begin(kSystemPaths), std::end(kSystemPaths), [&](const char *s) { return under(path, s); });
}

/// Builds the mount steps of a namespace view under `stage`.
class ViewBuilder {
public:
  explicit ViewBuilder(std::string stage) : stage_(std::move(stage)) {}
  std::vector<MountStep> steps;

  void tmpfs(const std::string &at, const std::string &options, unsigned long flags) {
    dir(at);
    steps.push_back({MountStep::Kind::Tmpfs, stage_ + at, options, flags});
  }
  void symlink(const std::string &at, const std::string &target) {
    steps.push_back({MountStep::Kind::Symlink, stage_ + at, target, 0});
  }
  void proc(const std::string &at) {
    dir(at);
    steps.push_back({MountStep::Kind::Proc, stage_ + at, "", 0});
  }
  /// `host` bound at `at` (a file or a folder), read-only or writable; the folders above it
  /// are created first. Returns false when `host` does not exist.
  bool bind(const std::string &at, const std::string &host, bool writable, bool device = false) {
    struct stat st {};
    if (::stat(host.c_str(), &st) != 0)
      return false;
    ancestors(at);
    if (S_ISDIR(st.st_mode))
      dir(at);
    else
      steps.push_back({MountStep::Kind::File, stage_ + at, "", 0});
    // Recursive: in a user namespace the kernel refuses a bind that would leave out mounts below
    // the source (/sys/fs/cgroup under /sys; a container's /etc/hosts). Devices keep what they are.
    steps.push_back({MountStep::Kind::Bind, stage_ + at, host, MS_REC});
    if (device)
      return true;
    const unsigned long keep = lockedFlags(host) | MS_NOSUID | MS_NODEV;
    MountStep restrict{MountStep::Kind::ReadOnly, stage_ + at, "",
                       writable ? keep & ~static_cast<unsigned long>(MS_RDONLY) : keep | MS_RDONLY};
    restrict.attrSet = kAttrNosuid | kAttrNodev | (writable ? 0 : kAttrRdonly);
    steps.push_back(restrict);
    return true;
  }
  /// A host path as the child should see it: at the path as given (through symlinks) and, where
  /// that differs, at its real path too, so code that resolves links finds the same files.
  void view(const std::string &path, bool writable) {
    if (underSystem(path))
      return; // already there, read-only
    if (!bind(path, path, writable))
      return;
    std::error_code ec;
    const std::string real = fs::canonical(path, ec).string();
    if (!ec && real != path && !underSystem(real))
      bind(real, real, writable);
  }
  void dir(const std::string &at) {
    if (made_.insert(at).second)
      steps.push_back({MountStep::Kind::Dir, stage_ + at, "", 0});
  }

private:
  void ancestors(const std::string &at) {
    for (std::size_t slash = at.find('/', 1); slash != std::string::npos; slash = at.find('/', slash + 1))
      dir(at.substr(0, slash));
  }
  std::string stage_;
  std::set<std::string> made_;
};

} // namespace

std::vector<MountStep> viewSteps(const std::string &stage, const std::vector<std::string> &readOnly,
                                 const std::vector<std::string> &writable, const std::vector<std::string> &devices) {
  ViewBuilder b(stage);
  b.steps.push_back({MountStep::Kind::Tmpfs, stage, "mode=0755,size=16m", MS_NOSUID | MS_NODEV});
  // Private /tmp and /dev/shm first: view paths under /tmp get their mount points there.
  b.tmpfs("/tmp", "mode=1777,size=512m", MS_NOSUID | MS_NODEV);
  b.tmpfs("/dev", "mode=0755,size=64k", MS_NOSUID);
  b.tmpfs("/dev/shm", "mode=1777,size=512m", MS_NOSUID | MS_NODEV);
  b.symlink("/dev/fd", "/proc/self/fd");
  b.symlink("/dev/stdin", "/proc/self/fd/0");
  b.symlink("/dev/stdout", "/proc/self/fd/1");
  b.symlink("/dev/stderr", "/proc/self/fd/2");
  for (const std::string &dev : devices)
    b.bind(dev, dev, true, true);
  b.proc("/proc");
  b.bind("/sys", "/sys", false);
  for (const char *sys : kSystemPaths) {
    struct stat st {};
    if (::lstat(sys, &st) != 0)
      continue;
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      b.symlink(sys, fs::read_symlink(sys, ec).string());
    } else if (S_ISDIR(st.st_mode)) {
      b.bind(sys, sys, false);
    }
  }
  for (const std::string &p : readOnly)
    b.view(p, false);
  for (const std::string &p : writable)
    b.view(p, true);
  return std::move(b.steps);
}

namespace {

struct Detected {
  Mode mode = Mode::SeccompOnly;
  std::string whyNoNamespaces;
  int landlock = 0;
  bool seccomp = false; ///< the kernel has seccomp filters (PR_GET_SECCOMP answers)
};

/// Tries, in a throwaway child, what a sandboxed child will need: the namespaces (with a user
/// namespace when not root) and the view's skeleton (the system directories, /sys, the devices,
/// private /tmp and /dev/shm, a fresh /proc, pivot_root), as a run would build it.
std::string namespacesRefused() {
  const bool root = ::geteuid() == 0;
  std::string stage = (fs::temp_directory_path() / "kbaudit-nscheck-XXXXXX").string();
  if (!::mkdtemp(stage.data()))
    return "cannot create a directory to test mounts in: " + errnoText(errno);
  ContainmentPlan plan;
  plan.userNamespace = !root;
  plan.uidMap = std::to_string(::geteuid()) + " " + std::to_string(::geteuid()) + " 1\n";
  plan.gidMap = std::to_string(::getegid()) + " " + std::to_string(::getegid()) + " 1\n";
  plan.stage = stage;
  plan.oldRoot = stage + "/.old-root";
  std::vector<std::string> devices(std::begin(kDevices), std::end(kDevices));
  plan.steps = viewSteps(stage, {}, {}, devices);
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    ::rmdir(stage.c_str());
    return "pipe: " + errnoText(errno);
  }
  const int flags = kNamespaceFlags | (root ? 0 : CLONE_NEWUSER);
  const pid_t pid = static_cast<pid_t>(::syscall(SYS_clone, flags | SIGCHLD, nullptr, nullptr, nullptr, nullptr));
  if (pid == 0) {
    const char *step = "";
    if ((plan.userNamespace && mapUser(plan, &step) != 0) || enterView(plan, &step) != 0) {
      const char *why = std::strerror(errno);
      (void)!::write(report[1], step, std::strlen(step));
      (void)!::write(report[1], ": ", 2);
      (void)!::write(report[1], why, std::strlen(why));
      ::_exit(1);
    }
    ::_exit(0);
  }
  const int cloneErrno = errno;
  ::close(report[1]);
  std::string failed;
  char buf[256];
  for (ssize_t n; pid > 0 && (n = ::read(report[0], buf, sizeof buf)) > 0;)
    failed.append(buf, static_cast<std::size_t>(n));
  ::close(report[0]);
  int status = 0;
  const bool reaped = pid > 0 && ::waitpid(pid, &status, 0) == pid;
  ::rmdir(stage.c_str());
  if (pid < 0)
    return std::string("clone(") + (root ? "" : "CLONE_NEWUSER | ") +
           "CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS) failed: " + errnoText(cloneErrno);
  if (!reaped || !WIFEXITED(status))
    return "the namespace test child did not exit normally";
  if (WEXITSTATUS(status) != 0)
    return "building the filesystem view failed (" + (failed.empty() ? std::string("no reason given") : failed) + ")";
  return "";
}

const Detected &detected() {
  static const Detected d = [] {
    Detected out;
    out.whyNoNamespaces = namespacesRefused();
    out.landlock = landlockAbi();
    out.seccomp = ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
    out.mode = out.whyNoNamespaces.empty() ? Mode::Namespaces : out.landlock > 0 ? Mode::Landlock : Mode::SeccompOnly;
    return out;
  }();
  return d;
}

std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &i : items)
    out += (out.empty() ? "" : ", ") + i;
  return out.empty() ? "nothing" : out;
}

/// Writes `text` to `path` (in the child: system calls only).
int writeFileRaw(const char *path, const std::string &text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int e = errno;
  ::close(fd);
  errno = e;
  return n == static_cast<ssize_t>(text.size()) ? 0 : -1;
}

} // namespace

Mode availableMode(Containment ceiling) {
  const Detected &d = detected();
  Mode m = d.mode;
  if (ceiling == Containment::Landlock && m == Mode::Namespaces)
    m = d.landlock > 0 ? Mode::Landlock : Mode::SeccompOnly;
  if (ceiling == Containment::SeccompOnly)
    m = Mode::SeccompOnly;
  return m;
}

ContainmentPlan planContainment(const SandboxRequest &req) {
  ContainmentPlan plan;
  plan.mode = availableMode(req.containment);
  const Detected &d = detected();
  const bool root = ::geteuid() == 0;
  FilesystemView view = req.view ? *req.view : FilesystemView{{}, {req.workdir}};
  std::vector<std::string> readOnly, writable;
  for (const fs::path &p : view.readOnly)
    readOnly.push_back(absoluteNormal(p));
  for (const fs::path &p : view.writable)
    writable.push_back(absoluteNormal(p));
  std::vector<std::string> devices(std::begin(kDevices), std::end(kDevices));
  for (const std::string &g : gpuDevices())
    devices.push_back(g);

  if (plan.mode == Mode::Namespaces) {
    std::string stage = (fs::temp_directory_path() / "kbaudit-root-XXXXXX").string();
    if (!::mkdtemp(stage.data())) {
      plan.notes.push_back("namespaces not used: cannot create the staging directory: " + errnoText(errno));
      plan.mode = d.landlock > 0 ? Mode::Landlock : Mode::SeccompOnly;
    } else {
      plan.stage = stage;
    }
  }
  if (plan.mode == Mode::Namespaces) {
    plan.cloneFlags = kNamespaceFlags | (root ? 0 : CLONE_NEWUSER);
    plan.userNamespace = !root;
    plan.uidMap = std::to_string(::geteuid()) + " " + std::to_string(::geteuid()) + " 1\n";
    plan.gidMap = std::to_string(::getegid()) + " " + std::to_string(::getegid()) + " 1\n";
    plan.oldRoot = plan.stage + "/.old-root";
    plan.steps = viewSteps(plan.stage, readOnly, writable, devices);
    plan.seccomp = seccompProgram(true);
    plan.notes.push_back(std::string("own mount, PID, IPC, network and UTS namespaces") +
                         (root ? "" : " (in a user namespace, as kbaudit's own user)"));
    std::vector<std::string> shown;
    std::copy_if(readOnly.begin(), readOnly.end(), std::back_inserter(shown), [](const std::string &p) { return !underSystem(p); });
    plan.notes.push_back("filesystem view: /usr, /etc and " + joined(shown) + " read-only; " + joined(writable) +
                         " writable; private /tmp and /dev/shm (tmpfs, 512 MiB each), a fresh /proc, /sys read-only, "
                         "/dev with " + joined(devices) + " only");
  } else if (plan.mode == Mode::Landlock) {
    std::vector<std::string> ro(std::begin(kSystemPaths), std::end(kSystemPaths));
    ro.push_back("/proc");
    ro.push_back("/sys");
    std::vector<std::string> rw = writable;
    for (const std::string &p : readOnly) {
      ro.push_back(p);
      std::error_code ec;
      if (const fs::path real = fs::canonical(p, ec); !ec && real.string() != p)
        ro.push_back(real.string());
    }
    std::string why;
    plan.landlockRuleset = landlockRuleset(d.landlock, ro, rw, devices, why);
    if (plan.landlockRuleset < 0) {
      plan.notes.push_back("Landlock not applied: " + why);
      plan.mode = Mode::SeccompOnly;
    } else {
      std::vector<std::string> readable = readOnly;
      readable.insert(readable.end(), writable.begin(), writable.end());
      plan.notes.push_back("Landlock ABI " + std::to_string(d.landlock) + ": reads limited to the system directories, "
                           "/proc, /sys and " + joined(readable) + "; writes to " + joined(writable) +
                           " and the usual devices; no /tmp or /dev/shm" +
                           (d.landlock >= 4 ? "; TCP bind and connect refused" : "") +
                           (d.landlock >= 6 ? "; abstract unix sockets and signals scoped to the sandbox"
                                            : "; signals to other processes of this uid are not scoped (ABI < 6)"));
    }
    plan.seccomp = seccompProgram(false);
  } else {
    plan.seccomp = seccompProgram(false);
  }
  if (!d.seccomp)
    plan.seccomp.clear(); // a kernel without seccomp: the notes say so, the run still goes on
  if (plan.mode != Mode::Namespaces) {
    const std::string why = req.containment != Containment::Strongest ? "a weaker containment was requested"
                                                                      : "namespaces are refused here: " + d.whyNoNamespaces;
    plan.notes.push_back("no private namespaces (" + why + "): the child is in the host's network, mount and PID "
                         "namespaces (it sees the host's processes); " + std::string(plan.seccomp.empty()
                                                               ? "nothing refuses its sockets"
                                                               : "sockets of every family are refused by the seccomp filter"));
    if (plan.mode == Mode::SeccompOnly)
      plan.notes.push_back("no filesystem containment: " + std::string(d.landlock > 0 || req.containment ==
                                                                            Containment::SeccompOnly
                                                                            ? "only the seccomp filter was requested"
                                                                            : "this kernel offers no Landlock") +
                           "; the child can read and write whatever its uid can");
  }
  plan.notes.push_back(plan.seccomp.empty()
                           ? std::string(d.seccomp ? "no seccomp filter: kbaudit has none for this architecture"
                                                   : "no seccomp filter: this kernel has no seccomp")
                           : std::string("seccomp: ptrace, process_vm_*, keyrings, io_uring, bpf, mount and namespace "
                                         "calls refused; ") +
                                 (plan.mode == Mode::Namespaces ? "sockets only of the families the network namespace "
                                                                  "scopes (unix, inet, inet6, netlink)"
                                                                : "socket() refused for every family"));
  return plan;
}

void releasePlan(ContainmentPlan &plan) {
  if (!plan.stage.empty())
    ::rmdir(plan.stage.c_str()); // its tmpfs lived in the child's mount namespace only
  if (plan.landlockRuleset >= 0)
    ::close(plan.landlockRuleset);
  plan.stage.clear();
  plan.landlockRuleset = -1;
}

int mapUser(const ContainmentPlan &plan, const char **step) {
  // A process whose ids changed without an exec is not dumpable, which makes /proc/self root's:
  // the maps below could not be written. (exec resets this for the command anyway.)
  *step = "prctl(PR_SET_DUMPABLE)";
  if (::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0)
    return -1;
  *step = "setgroups";
  if (writeFileRaw("/proc/self/setgroups", "deny") != 0 && errno != ENOENT)
    return -1;
  *step = "uid_map";
  if (writeFileRaw("/proc/self/uid_map", plan.uidMap) != 0)
    return -1;
  *step = "gid_map";
  return writeFileRaw("/proc/self/gid_map", plan.gidMap);
}

int lockDown(const ContainmentPlan &plan, int landlockFd, const char **step) {
  *step = "prctl(PR_SET_NO_NEW_PRIVS)";
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
  if (landlockFd >= 0) {
    *step = "landlock_restrict_self";
    if (landlockRestrict(landlockFd) != 0)
      return -1;
    ::close(landlockFd);
  }
  if (!plan.seccomp.empty()) {
    *step = "seccomp";
    struct sock_fprog prog {
      static_cast<unsigned short>(plan.seccomp.size()), const_cast<sock_filter *>(plan.seccomp.data())
    };
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
      return -1;
  }
  return 0;
}

} // namespace kbaudit::runtime::detail
