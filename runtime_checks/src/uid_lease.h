#pragma once

// An unprivileged uid of its own for one probe run, when kbaudit runs as root.

#include <filesystem>
#include <set>
#include <string>

namespace kbaudit::runtime::detail {

/// A uid of its own for one probe, held for the probe's lifetime: the end-of-run sweep kills
/// every process of that uid, so two probes running at once (threads of one `audit`, or two
/// kbaudit processes on one machine) must never share one. Each uid in [61000, 65000) is
/// claimed with an exclusive lock on /tmp/kbaudit-uid-locks/<uid> (released when the process
/// ends, whatever happens), and a uid that still owns processes is passed over.
class UidLease {
public:
  static constexpr const char *kLockDir = "/tmp/kbaudit-uid-locks";

  UidLease();
  ~UidLease();
  UidLease(const UidLease &) = delete;
  UidLease &operator=(const UidLease &) = delete;
  unsigned uid() const { return uid_; } ///< 0 when none could be claimed

private:
  static constexpr unsigned kFirst = 61000, kCount = 4000;
  static std::set<unsigned> uidsWithProcesses();
  int fd_ = -1;
  unsigned uid_ = 0;
};

/// The first directory above `path` (lexically: a venv's bin/python is a symlink, and its
/// site-packages lie beside it) that other users cannot search, or "" when there is none.
std::string firstClosedAncestor(const std::filesystem::path &path);

} // namespace kbaudit::runtime::detail
