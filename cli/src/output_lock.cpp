#include "output_lock.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace kbaudit::cli {

namespace {

/// A POSIX record lock over the whole file. Unlike flock, it belongs to this process alone: a
/// forked worker does not inherit it, so a worker that outlives a killed audit cannot keep the
/// next audit out, and the kernel releases it the moment its owner dies, so the lock of a dead
/// owner is always free to take over.
struct flock wholeFile(short type) {
  struct flock fl {};
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = 0;
  fl.l_len = 0;
  return fl;
}

} // namespace

std::optional<OutputLock> OutputLock::acquire(const std::filesystem::path &dir, std::string &error) {
  const std::filesystem::path path = dir / ".kbaudit.lock";
  // O_CLOEXEC: the probes' sandboxed interpreter must not inherit the descriptor. This is the
  // only descriptor of the file the process opens: closing another would drop a POSIX lock.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    error = "cannot open " + path.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  struct flock fl = wholeFile(F_WRLCK);
  if (::fcntl(fd, F_SETLK, &fl) != 0) {
    const int err = errno;
    // The kernel names the live owner; the file's own record may be a dead one's.
    struct flock holder = wholeFile(F_WRLCK);
    const bool known = (err == EAGAIN || err == EACCES) && ::fcntl(fd, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK;
    ::close(fd);
    error = err == EAGAIN || err == EACCES
                ? "another kbaudit audit is writing into " + dir.string() +
                      (known ? " (pid " + std::to_string(holder.l_pid) + ")" : "") +
                      "; wait for it or choose another --out"
                : "cannot lock " + path.string() + ": " + std::strerror(err);
    return std::nullopt;
  }
  // The owner's pid, for a person looking at the folder; the lock itself is the kernel's.
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // Only the record loses the pid; the lock holds.
  }
  return OutputLock(fd);
}

OutputLock::~OutputLock() {
  if (fd_ >= 0)
    ::close(fd_);
}

} // namespace kbaudit::cli
