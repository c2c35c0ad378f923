#include "run_fingerprint.h"

#include "runs.h"

#include "kbaudit/source/sha256.h"
#include "kbaudit/source/source_file.h"


#include <algorithm>
#include <map>
#include <variant>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

// Files of one run hashed by content up to this much in all; past it (a run directory holding
// checkpoints) by size and modification time, which a change of content also changes.
constexpr std::size_t kMaxHashedBytes = 64u << 20;
constexpr std::size_t kMaxRunFiles = 256;

class Hasher {
public:
  /// A field, length-prefixed so that no two different sequences of fields hash alike.
  void field(std::string_view name, std::string_view value) {
    for (std::string_view part : {name, value}) {
      const std::string size = std::to_string(part.size()) + ":";
      sha_.update(size).update(part);
    }
  }

  void file(const fs::path &path, std::size_t &budget) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      field(path.filename().string(), "<absent>");
      return;
    }
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      field(path.filename().string(), "<link> " + fs::read_symlink(path, ec).string());
      if (::stat(path.c_str(), &st) != 0)
        return;
    }
    if (!S_ISREG(st.st_mode)) {
      field(path.filename().string(), "<not a regular file>");
      return;
    }
    if (static_cast<std::size_t>(st.st_size) <= budget) {
      std::variant<std::string, Diagnostic> bytes = readRegularFile(path, budget);
      if (const auto *text = std::get_if<std::string>(&bytes)) {
        budget -= text->size();
        field(path.filename().string(), *text);
        return;
      }
    }
    field(path.filename().string(), "<size " + std::to_string(st.st_size) + " mtime " +
                                        std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + ">");
  }

  std::string hex() { return sha_.finalHex(); }

private:
  Sha256 sha_;
};

/// What a file many runs share (a problem's) holds, as a digest, read and hashed once per process.
const std::string &sharedFileDigest(const fs::path &path) {
  static std::map<fs::path, std::string> digests;
  auto it = digests.find(path);
  if (it == digests.end()) {
    Hasher h;
    std::size_t budget = kMaxHashedBytes;
    h.file(path, budget);
    it = digests.emplace(path, h.hex()).first;
  }
  return it->second;
}

std::string rowText(const Evaluation &e) {
  const auto num = [](const std::optional<double> &v) { return v ? std::to_string(*v) : std::string("-"); };
  return e.table.string() + "|" + std::to_string(e.row) + "|" + e.model + "|" + e.harness + "|" + e.gpu + "|" +
         e.effort + "|" + e.level + "|" + e.problem + "|" + e.precision + "|" + num(e.atol) + "|" + num(e.rtol) + "|" +
         (e.correct ? (*e.correct ? "1" : "0") : "-") + "|" + num(e.speedup) + "|" + e.suite + "|" +
         num(e.peakFraction) + "|" + e.solutionPath + "|" + e.unusable;
}

} // namespace

std::string buildIdentity() {
  std::string id = version();
  struct stat st {};
  // The executable by its path first: under valgrind /proc/self/exe itself is the tool, whose
  // identity would miss every cached result of the binary it runs. A rebuilt binary's old path
  // reads "... (deleted)": then the running image's own inode.
  char exe[4096];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0)
    exe[n] = '\0';
  if ((n > 0 && ::stat(exe, &st) == 0) || ::stat("/proc/self/exe", &st) == 0)
    id += " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
          std::to_string(st.st_mtim.tv_nsec);
  return id;
}

std::string runFingerprint(const RunTarget &run, const std::string &optionsKey, const fs::path *problem) {
  Hasher h;
  std::size_t budget = kMaxHashedBytes;
  h.field("options", optionsKey);
  h.field("run", run.id);
  std::error_code ec;
  // Canonical, so `runs/x` and `/abs/runs/x` (or `./runs/x`) are one run, not a re-audit.
  const fs::path solution = fs::weakly_canonical(fs::absolute(run.solution, ec), ec);
  h.field("solution", (ec ? run.solution : solution).string());
  if (!run.explicitFile && !run.evaluation && run.solution.parent_path() == run.dir && fs::is_directory(run.dir, ec)) {
    // A run directory: the solution, its sidecars, meta.json and result.json all count.
    std::vector<fs::path> files;
    for (fs::directory_iterator it(run.dir, ec), end; it != end && !ec && files.size() < kMaxRunFiles; it.increment(ec))
      files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const fs::path &f : files)
      h.file(f, budget);
  } else {
    h.file(run.solution, budget);
    for (const char *name : {"meta.json", "result.json"})
      h.file(run.dir / name, budget);
  }
  if (run.evaluation)
    h.field("row", rowText(*run.evaluation));
  if (problem) {
    // A level file is its own reference; a directory holds reference.py (problems::loadProblem).
    const bool levelFile = fs::is_regular_file(*problem, ec);
    const fs::path dir = levelFile ? problem->parent_path() : *problem;
    h.field("problem", fs::weakly_canonical(dir, ec).string());
    h.field("problem.yaml", sharedFileDigest(dir / "problem.yaml"));
    h.field("reference", sharedFileDigest(levelFile ? *problem : dir / "reference.py"));
    fs::path up = dir;
    for (int level = 0; level < 2 && !up.empty(); ++level) {
      up = up.parent_path();
      h.field("problem_baselines.json", sharedFileDigest(up / "problem_baselines.json"));
    }
  }
  return h.hex();
}

} // namespace kbaudit::cli
