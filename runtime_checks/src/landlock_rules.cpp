// The sandbox's fallback where namespaces are refused: a Landlock ruleset (Linux 5.13+), built
// in kbaudit before the fork and applied by the child before exec. Every filesystem access
// this kernel's ABI can govern is handled, so what no rule grants is denied: the child reads
// and executes the system directories and its view, writes only its writable paths and a few
// devices, and cannot read or write anything else (/tmp, /dev/shm, other runs, home folders).
// ABI 4 adds TCP bind/connect (denied: no rule grants any port), ABI 6 scopes abstract unix
// sockets and signals to the sandbox. Path-named unix sockets are not governed by Landlock
// here: the seccomp filter refuses socket() itself outside a network namespace.
//
// The constants are defined here because the build machine's <linux/landlock.h> may predate
// the running kernel's ABI.

#include "containment.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

namespace kbaudit::runtime::detail {

namespace {

constexpr std::uint32_t kCreateRulesetVersion = 1u << 0;
constexpr int kRulePathBeneath = 1;

// Filesystem rights, by the ABI that introduced them.
constexpr std::uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2, kReadDir = 1ull << 3;
constexpr std::uint64_t kAbi1All = (1ull << 13) - 1; // execute .. make_sym
constexpr std::uint64_t kRefer = 1ull << 13;          // ABI 2
constexpr std::uint64_t kTruncate = 1ull << 14;       // ABI 3
constexpr std::uint64_t kIoctlDev = 1ull << 15;       // ABI 5
// Network rights (ABI 4) and scopes (ABI 6).
constexpr std::uint64_t kBindTcp = 1ull << 0, kConnectTcp = 1ull << 1;
constexpr std::uint64_t kScopeAbstractUnix = 1ull << 0, kScopeSignal = 1ull << 1;

struct RulesetAttr {
  std::uint64_t handledFs;
  std::uint64_t handledNet;
  std::uint64_t scoped;
};

struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowedAccess;
  std::int32_t parentFd;
};

std::uint64_t handledFs(int abi) {
  std::uint64_t fs = kAbi1All;
  if (abi >= 2)
    fs |= kRefer;
  if (abi >= 3)
    fs |= kTruncate;
  if (abi >= 5)
    fs |= kIoctlDev;
  return fs;
}

/// Rights for a file (not a directory): Landlock refuses directory rights on a file rule.
std::uint64_t fileRights(std::uint64_t rights) { return rights & (kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev); }

bool addRule(int ruleset, const std::string &path, std::uint64_t rights, std::string &why) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT; // a system directory this machine lacks (/lib32) needs no rule
  struct stat st {};
  const bool dir = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
  PathBeneathAttr attr{dir ? rights : fileRights(rights), fd};
  const long rc = ::syscall(__NR_landlock_add_rule, ruleset, kRulePathBeneath, &attr, 0);
  const int err = errno;
  ::close(fd);
  if (rc != 0) {
    why = "landlock_add_rule(" + path + "): " + std::strerror(err);
    return false;
  }
  return true;
}

} // namespace

int landlockAbi() {
  const long abi = ::syscall(__NR_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  return abi > 0 ? static_cast<int>(abi) : 0;
}

int landlockRuleset(int abi, const std::vector<std::string> &readOnly, const std::vector<std::string> &writable,
                    const std::vector<std::string> &devices, std::string &why) {
  const std::uint64_t fs = handledFs(abi);
  RulesetAttr attr{fs, abi >= 4 ? (kBindTcp | kConnectTcp) : 0, abi >= 6 ? (kScopeAbstractUnix | kScopeSignal) : 0};
  const std::size_t size = abi >= 6 ? sizeof(RulesetAttr) : abi >= 4 ? 2 * sizeof(std::uint64_t) : sizeof(std::uint64_t);
  const long ruleset = ::syscall(__NR_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) {
    why = std::string("landlock_create_ruleset: ") + std::strerror(errno);
    return -1;
  }
  const int fd = static_cast<int>(ruleset);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  bool ok = true;
  for (const std::string &p : readOnly)
    ok = ok && addRule(fd, p, kExecute | kReadFile | kReadDir, why);
  for (const std::string &p : writable)
    ok = ok && addRule(fd, p, fs, why);
  for (const std::string &p : devices)
    ok = ok && addRule(fd, p, kReadFile | kWriteFile | (fs & (kTruncate | kIoctlDev)), why);
  if (!ok) {
    ::close(fd);
    return -1;
  }
  return fd;
}

int landlockRestrict(int ruleset) { return static_cast<int>(::syscall(__NR_landlock_restrict_self, ruleset, 0)); }

} // namespace kbaudit::runtime::detail
