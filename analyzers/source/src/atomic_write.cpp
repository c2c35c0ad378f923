#include "kbaudit/source/atomic_write.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace kbaudit::source {

namespace {

constexpr std::string_view kTempPrefix = ".kbaudit-tmp.";

// pid + per-process counter: unique across concurrent kbaudit processes and across threads of
// one. Not derived from the target's name, so a target name near the file-name limit still
// has a temp name that fits.
std::filesystem::path tempPathFor(const std::filesystem::path &path) {
  static std::atomic<unsigned long> counter{0};
  const std::string name = std::string(kTempPrefix) + std::to_string(::getpid()) + "." + std::to_string(counter++);
  return path.parent_path() / name;
}

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string describe(const std::string &what, const std::filesystem::path &p, int err) {
  return what + " " + p.string() + ": " + std::strerror(err);
}

} // namespace

bool writeFileAtomically(const std::filesystem::path &path, const std::string &content,
                         std::string &error) {
  if (path.filename().empty()) {
    error = "cannot write " + path.string() + ": not a file name";
    return false;
  }
  std::error_code ec;
  if (const auto parent = path.parent_path(); !parent.empty()) {
    std::filesystem::create_directories(parent, ec);
    if (ec) {
      error = "cannot create directory " + parent.string() + ": " + ec.message();
      return false;
    }
  }

  const std::filesystem::path temp = tempPathFor(path);
  // O_EXCL: never write through a stale temp file (or a link planted in its place).
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    error = describe("cannot create", temp, errno);
    return false;
  }
  // fsync before rename: otherwise a crash can leave the new name pointing at empty data.
  bool ok = writeAll(fd, content) && ::fsync(fd) == 0;
  int err = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(temp.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(temp.c_str());
    error = describe("cannot write", path, err);
  }
  return ok;
}

std::size_t removeStaleTempFiles(const std::filesystem::path &dir) {
  std::size_t removed = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    // Today's temp names, and those of earlier versions (`.<name>.yaml.tmp.<pid>.<n>`).
    const bool ours = name.rfind(kTempPrefix, 0) == 0 ||
                      (name.size() > 1 && name[0] == '.' && name.find(".yaml.tmp.") != std::string::npos);
    std::error_code rmEc;
    if (ours && it->is_regular_file(rmEc) && std::filesystem::remove(it->path(), rmEc))
      ++removed;
  }
  return removed;
}

} // namespace kbaudit::source
