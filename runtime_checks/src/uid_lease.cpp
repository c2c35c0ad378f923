// The probe's unprivileged uid and its lease (uid_lease.h).

#include "uid_lease.h"

#include <atomic>
#include <cctype>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kbaudit::runtime::detail {

namespace fs = std::filesystem;

UidLease::UidLease() {
  static std::atomic<unsigned> counter{0};
  // Our own directory, not someone's symlink or folder: root-owned, 0700.
  ::mkdir(kLockDir, 0700);
  struct stat dir {};
  if (::lstat(kLockDir, &dir) != 0 || !S_ISDIR(dir.st_mode) || dir.st_uid != ::geteuid() || (dir.st_mode & 077))
    return;
  const std::set<unsigned> busy = uidsWithProcesses();
  const unsigned start = (static_cast<unsigned>(::getpid()) * 131u + counter++) % kCount;
  for (unsigned i = 0; i < kCount; ++i) {
    const unsigned candidate = kFirst + (start + i) % kCount;
    if (busy.count(candidate))
      continue;
    const std::string path = std::string(kLockDir) + "/" + std::to_string(candidate);
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
      continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      fd_ = fd;
      uid_ = candidate;
      return;
    }
    ::close(fd);
  }
}

UidLease::~UidLease() {
  if (fd_ >= 0)
    ::close(fd_);
}

std::set<unsigned> UidLease::uidsWithProcesses() {
  std::set<unsigned> out;
  std::error_code ec;
  for (fs::directory_iterator it("/proc", ec), end; it != end && !ec; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    struct stat st {};
    if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) && ::stat(it->path().c_str(), &st) == 0 &&
        st.st_uid >= kFirst && st.st_uid < kFirst + kCount)
      out.insert(st.st_uid);
  }
  return out;
}

std::string firstClosedAncestor(const fs::path &path) {
  const fs::path absolute = fs::absolute(path).lexically_normal();
  for (fs::path dir = absolute.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && !(st.st_mode & S_IXOTH))
      return dir.string();
    if (dir == dir.root_path())
      break;
  }
  return "";
}

} // namespace kbaudit::runtime::detail
