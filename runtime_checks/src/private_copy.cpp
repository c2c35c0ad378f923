// The private folders of a probe run (private_copy.h).

#include "private_copy.h"

#include "embedded_probe.h"

#include "kbaudit/source/sha256.h"

#include <llvm/ADT/StringRef.h>

#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace kbaudit::runtime::detail {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxCopiedFile = 16u << 20;

std::string readAll(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

void copyTree(const fs::path &from, const fs::path &to, unsigned depth) {
  std::error_code ec;
  fs::create_directories(to, ec);
  for (fs::directory_iterator it(from, ec), end; it != end && !ec; it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (fs::is_regular_file(st) && it->file_size(ec) <= kMaxCopiedFile)
      fs::copy_file(it->path(), to / it->path().filename(), fs::copy_options::overwrite_existing, ec);
    else if (fs::is_directory(st) && depth < 2 && it->path().filename().string().front() != '.')
      copyTree(it->path(), to / it->path().filename(), depth + 1);
  }
}

std::map<std::string, std::string> hashFiles(const fs::path &dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (it->is_regular_file(ec))
      out[it->path().filename().string()] = sha256Hex(readAll(it->path()));
  return out;
}

void chownTree(const fs::path &root, unsigned uid) {
  std::error_code ec;
  (void)!::lchown(root.c_str(), uid, uid);
  for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec))
    (void)!::lchown(it->path().c_str(), uid, uid);
}

void removeTree(const fs::path &root) {
  std::error_code ec;
  if (fs::remove_all(root, ec) != static_cast<std::uintmax_t>(-1) && !fs::exists(root, ec))
    return;
  ::chmod(root.c_str(), 0700);
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       it != end && !ec; it.increment(ec))
    if (it->is_directory(ec) && !it->is_symlink(ec))
      ::chmod(it->path().c_str(), 0700);
  fs::remove_all(root, ec);
}

void copyProblem(const problems::ProblemContext &problem, const fs::path &to) {
  std::error_code ec;
  // A KernelBench / v3 module problem is one file among its level's others: the probe reads it
  // as the problem's reference.py, and nothing else of that folder belongs to this problem.
  if (problem.reference.path.filename() != "reference.py" && fs::is_regular_file(problem.reference.path, ec)) {
    fs::create_directories(to, ec);
    fs::copy_file(problem.reference.path, to / "reference.py", fs::copy_options::overwrite_existing, ec);
  } else {
    copyTree(problem.dir, to, 2);
  }
}

void writePackage(const fs::path &root) {
  std::error_code ec;
  for (const EmbeddedFile &f : embeddedProbe()) {
    fs::create_directories((root / f.path).parent_path(), ec);
    std::ofstream(root / f.path, std::ios::binary) << f.content;
  }
}

} // namespace kbaudit::runtime::detail
