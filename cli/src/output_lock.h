#pragma once

// One audit at a time per output directory: two audits writing into one --out would mix
// annotations made with different options, and one's cleanup of stale temp files could remove
// the other's file in flight. The lock is a POSIX record lock on `.kbaudit.lock` in the
// directory (which also records the owner's pid): held by the audit process alone, never by its
// workers, and released by the kernel when that process ends however it ends, so a killed
// audit's lock is taken over by the next one.

#include <filesystem>
#include <optional>
#include <string>

namespace kbaudit::cli {

class OutputLock {
public:
  /// Takes the lock without waiting; nullopt (with `error` saying who holds it) when another
  /// process has it.
  static std::optional<OutputLock> acquire(const std::filesystem::path &dir, std::string &error);

  OutputLock(OutputLock &&other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  OutputLock &operator=(OutputLock &&) = delete;
  OutputLock(const OutputLock &) = delete;
  ~OutputLock();

private:
  explicit OutputLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

} // namespace kbaudit::cli
