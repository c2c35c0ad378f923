#include "output_lock.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace kbaudit::cli {

std::optional<OutputLock> OutputLock::acquire(const std::filesystem::path &dir, std::string &error) {
  const std::filesystem::path path = dir / ".kbaudit.lock";
  // O_CLOEXEC: the probes' sandboxed interpreter must not inherit (and so hold) the lock.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    error = "cannot open " + path.string() + ": " + std::strerror(errno);
    return std::nullopt;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char holder[32] = {};
    const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
    ::close(fd);
    error = err == EWOULDBLOCK ? "another kbaudit audit is writing into " + dir.string() +
                                     (n > 0 ? " (pid " + std::string(holder, static_cast<std::size_t>(n)) + ")" : "") +
                                     "; wait for it or choose another --out"
                               : "cannot lock " + path.string() + ": " + std::strerror(err);
    return std::nullopt;
  }
  // The holder's pid, for the message a second audit prints.
  const std::string pid = std::to_string(::getpid());
  if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // Only the message loses the pid; the lock holds.
  }
  return OutputLock(fd);
}

OutputLock::~OutputLock() {
  if (fd_ >= 0)
    ::close(fd_);
}

} // namespace kbaudit::cli
