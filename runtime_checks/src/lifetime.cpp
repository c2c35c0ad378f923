// Process lifetime (see lifetime.h). Everything reachable from a signal handler here uses only
// async-signal-safe calls: raw system calls, no allocation, no locks, no stdio.

#include "kbaudit/runtime/lifetime.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kbaudit::runtime::lifetime {

namespace fs = std::filesystem;

namespace {

// A worker runs one probe at a time and `check` a handful; 64 of each is far more than needed.
constexpr int kSlots = 64;
// Deeper trees than this are left for the next start's sweep to fail on too: a solution that
// nests directories this deep in its scratch space is not worth unbounded recursion here.
constexpr int kMaxTreeDepth = 128;

enum SlotState : int { Free = 0, Filling = 1, Active = 2 };

struct GroupSlot {
  std::atomic<int> state{Free};
  pid_t group = 0;
  uid_t uid = 0;
};

struct DirSlot {
  std::atomic<int> state{Free};
  char path[PATH_MAX] = {};
};

GroupSlot groups[kSlots];
DirSlot dirs[kSlots];
std::atomic<bool> cleaning{false};

template <typename Slot> int claim(Slot (&slots)[kSlots]) {
  for (int i = 0; i < kSlots; ++i) {
    int expected = Free;
    if (slots[i].state.compare_exchange_strong(expected, Filling))
      return i;
  }
  return -1;
}

/// Kills every process `uid` may signal, i.e. every process of that uid, from a child made with
/// a raw clone (no atfork handlers) that drops to the uid with raw calls (glibc's setuid would
/// try to signal the parent's other threads, which do not exist in the child).
void killEveryProcessOf(uid_t uid) {
  const long child = ::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (child == 0) {
    if (::syscall(SYS_setgroups, 0, nullptr) == 0 && ::syscall(SYS_setgid, uid) == 0 &&
        ::syscall(SYS_setuid, uid) == 0)
      ::kill(-1, SIGKILL);
    ::syscall(SYS_exit, 0);
  }
  if (child > 0)
    while (::waitpid(static_cast<pid_t>(child), nullptr, 0) < 0 && errno == EINTR) {
    }
}

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

bool isDotOrDotDot(const char *n) { return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')); }

bool removeAt(int parent, const char *name, int depth) {
  if (::unlinkat(parent, name, 0) == 0 || errno == ENOENT)
    return true;
  if (depth > kMaxTreeDepth)
    return false;
  // O_NOFOLLOW: a link the solution planted is unlinked above, never followed.
  const int fd = ::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return false;
  // Its owner may have taken away write or search permission (which stops a non-root remove);
  // fchmod on the opened directory itself, so a swapped-in link is never chmod-ed.
  ::fchmod(fd, 0700);
  // Entries removed while reading may shift the rest; read again until nothing is left.
  for (int pass = 0; pass < 64; ++pass) {
    bool any = false;
    ::lseek(fd, 0, SEEK_SET);
    alignas(8) char buf[2048];
    for (long n; (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
      for (long off = 0; off < n;) {
        const auto *d = reinterpret_cast<const LinuxDirent64 *>(buf + off);
        off += d->d_reclen;
        if (isDotOrDotDot(d->d_name))
          continue;
        any = true;
        removeAt(fd, d->d_name, depth + 1);
      }
    if (!any)
      break;
  }
  ::close(fd);
  return ::unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

void onTerminate(int sig) {
  const int saved = errno;
  cleanUpNow();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  sigset_t set;
  ::sigemptyset(&set);
  ::sigaddset(&set, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(sig); // ends the process as the signal would have
  errno = saved;
  ::_exit(128 + sig);
}

/// Seconds since the epoch at which process `pid` started; 0 when unknown.
std::time_t processStart(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    return 0;
  const std::size_t close = line.rfind(')'); // the command name may hold spaces and parentheses
  if (close == std::string::npos)
    return 0;
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  // After the name: state is field 3; starttime is field 22, in clock ticks since boot.
  for (int i = 3; i <= 22 && fields >> field; ++i) {
  }
  const unsigned long long ticks = std::strtoull(field.c_str(), nullptr, 10);
  std::ifstream procStat("/proc/stat");
  for (std::string key; procStat >> key;)
    if (key == "btime") {
      unsigned long long boot = 0;
      procStat >> boot;
      const long hz = ::sysconf(_SC_CLK_TCK);
      return hz > 0 ? static_cast<std::time_t>(boot + ticks / static_cast<unsigned long long>(hz)) : 0;
    }
  return 0;
}

/// Whether the process that made a directory last changed at `changed` may still run as `pid`.
bool ownerAlive(pid_t pid, std::time_t changed) {
  if (pid <= 0)
    return false;
  if (::kill(pid, 0) != 0 && errno == ESRCH)
    return false;
  const std::time_t started = processStart(pid);
  // A process started after the directory last changed cannot have made it: the pid was reused.
  return started == 0 || started <= changed + 2;
}

} // namespace

void dieWithParent(pid_t parent, int sig) {
  ::prctl(PR_SET_PDEATHSIG, sig);
  if (parent != 0 && ::getppid() != parent)
    ::_exit(1);
}

void cleanUpOnTermination() {
  struct sigaction sa {};
  sa.sa_handler = onTerminate;
  ::sigemptyset(&sa.sa_mask);
  for (int sig : {SIGTERM, SIGINT, SIGHUP})
    ::sigaddset(&sa.sa_mask, sig);
  for (int sig : {SIGTERM, SIGINT, SIGHUP})
    ::sigaction(sig, &sa, nullptr);
}

void cleanUpNow() {
  if (cleaning.exchange(true))
    return; // a second signal while the first cleans up: the first finishes the job
  for (GroupSlot &g : groups)
    if (g.state.load(std::memory_order_acquire) == Active) {
      ::kill(-g.group, SIGKILL);
      if (g.uid != 0)
        killEveryProcessOf(g.uid);
    }
  for (DirSlot &d : dirs)
    if (d.state.load(std::memory_order_acquire) == Active)
      removeTree(d.path);
  cleaning.store(false);
}

GuardedGroup::GuardedGroup(pid_t group, uid_t uid) : slot_(claim(groups)) {
  if (slot_ < 0)
    return;
  groups[slot_].group = group;
  groups[slot_].uid = uid;
  groups[slot_].state.store(Active, std::memory_order_release);
}

GuardedGroup::~GuardedGroup() {
  if (slot_ >= 0)
    groups[slot_].state.store(Free, std::memory_order_release);
}

GuardedDir::GuardedDir(const fs::path &dir) {
  std::error_code ec;
  const std::string path = fs::absolute(dir, ec).string();
  if (path.size() >= PATH_MAX || (slot_ = claim(dirs)) < 0)
    return;
  std::memcpy(dirs[slot_].path, path.c_str(), path.size() + 1);
  dirs[slot_].state.store(Active, std::memory_order_release);
}

GuardedDir::~GuardedDir() {
  if (slot_ >= 0)
    dirs[slot_].state.store(Free, std::memory_order_release);
}

bool removeTree(const char *path) {
  std::size_t len = std::strlen(path);
  if (len == 0 || len >= PATH_MAX)
    return false;
  char parent[PATH_MAX];
  std::memcpy(parent, path, len + 1);
  while (len > 1 && parent[len - 1] == '/')
    parent[--len] = '\0';
  char *slash = std::strrchr(parent, '/');
  const char *name = parent;
  int dirFd = AT_FDCWD;
  if (slash) {
    *slash = '\0';
    name = slash + 1;
    if (*name == '\0')
      return false; // "/": not a tree to remove
    dirFd = ::open(slash == parent ? "/" : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd < 0)
      return false;
  }
  const bool gone = removeAt(dirFd, name, 0);
  if (dirFd != AT_FDCWD)
    ::close(dirFd);
  return gone;
}

std::optional<fs::path> makeOwnedDir(std::string_view prefix, const fs::path &tmp) {
  std::string tmpl = (tmp / (std::string(prefix) + "-" + std::to_string(::getpid()) + "-XXXXXX")).string();
  if (!::mkdtemp(tmpl.data()))
    return std::nullopt;
  return fs::path(tmpl);
}

unsigned removeStaleDirs(std::string_view prefix, const fs::path &tmp) {
  unsigned removed = 0;
  const std::string start = std::string(prefix) + "-";
  std::error_code ec;
  for (fs::directory_iterator it(tmp, ec), end; it != end && !ec; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(start, 0) != 0)
      continue;
    // <prefix>-<pid>-XXXXXX; names without a pid (older kbaudit) have no owner to ask.
    const std::size_t dash = name.find('-', start.size());
    const std::string digits = name.substr(start.size(), dash == std::string::npos ? 0 : dash - start.size());
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
      continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      continue;
    // As root the probe's copy belongs to the probe's uid; otherwise only our own are ours.
    if (::geteuid() != 0 && st.st_uid != ::geteuid())
      continue;
    const pid_t owner = static_cast<pid_t>(std::strtol(digits.c_str(), nullptr, 10));
    if (owner == ::getpid() || ownerAlive(owner, st.st_mtime))
      continue;
    removed += removeTree(it->path().c_str());
  }
  return removed;
}

} // namespace kbaudit::runtime::lifetime
