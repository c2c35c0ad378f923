// Prepares the private copy a probe runs in, starts probe.py in the sandbox, and turns its
// answer (or its absence) into a RuntimeReport.

#include "embedded_probe.h"
#include "kbaudit/runtime/probe.h"

#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>
#include <yaml-cpp/yaml.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace kbaudit::runtime {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxCopiedFile = 16u << 20;
constexpr const char *kAnswerTag = "KBAUDIT-ANSWER ";

std::string readAll(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string sha256(const std::string &bytes) {
  llvm::SHA256 h;
  h.update(llvm::StringRef(bytes));
  std::string out;
  for (uint8_t b : h.final())
    out += "0123456789abcdef"[b >> 4], out += "0123456789abcdef"[b & 15];
  return out;
}

/// Regular files of `from` (not following links, to depth 2, each below 16 MiB) into `to`.
void copyTree(const fs::path &from, const fs::path &to, unsigned depth = 0) {
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
      out[it->path().filename().string()] = sha256(readAll(it->path()));
  return out;
}

void chownTree(const fs::path &root, unsigned uid) {
  std::error_code ec;
  (void)!::lchown(root.c_str(), uid, uid);
  for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec; it.increment(ec))
    (void)!::lchown(it->path().c_str(), uid, uid);
}

std::string nonce() {
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 4; ++i) {
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", rd());
    s += buf;
  }
  return s;
}

/// One uid per concurrent probe, so the end-of-run sweep only kills this probe's processes.
unsigned nextUid() {
  static std::atomic<unsigned> counter{0};
  return 61000 + (counter++ % 1000);
}

bool cudaPresent() {
  std::error_code ec;
  return fs::exists("/dev/nvidia0", ec) || fs::exists("/dev/nvidiactl", ec);
}

std::string describeExit(const SandboxResult &r) {
  if (r.timedOut)
    return "the probe ran past its " + std::to_string(r.elapsed.count() / 1000) + " s limit and was killed";
  if (r.signal)
    return "the probe was killed by signal " + std::to_string(r.signal);
  return "the probe exited with code " + std::to_string(r.exitCode) + " without answering";
}

} // namespace

bool parseAnswer(const std::string &framed, const std::string &expectedNonce, RuntimeReport &report,
                 std::string &why) {
  if (framed.rfind(kAnswerTag, 0) != 0) {
    why = framed.empty() ? "no answer on the private pipe" : "the answer pipe held something other than an answer";
    return false;
  }
  const std::size_t eol = framed.find('\n');
  std::istringstream header(framed.substr(0, eol));
  std::string tag, gotNonce;
  std::size_t length = 0;
  header >> tag >> gotNonce >> length;
  if (eol == std::string::npos || gotNonce != expectedNonce) {
    why = "the answer does not carry this run's nonce (forged)";
    return false;
  }
  if (framed.size() - eol - 1 != length) {
    why = "the answer's length does not match its frame (a second or truncated answer)";
    return false;
  }
  try {
    const YAML::Node root = YAML::Load(framed.substr(eol + 1));
    if (root["nonce"].as<std::string>("") != expectedNonce) {
      why = "the answer's body does not carry this run's nonce (forged)";
      return false;
    }
    report.device = root["device"].as<std::string>("");
    report.torchVersion = root["torch"].as<std::string>("");
    if (const YAML::Node seeds = root["seeds"]; seeds && seeds.IsSequence())
      for (const auto &s : seeds)
        report.seeds.push_back(s.as<int>(0));
    if (const YAML::Node err = root["setup_error"]; err && err.IsScalar())
      report.reason = "could not load the solution or the reference: " + err.as<std::string>();
    if (const YAML::Node probes = root["probes"]; probes && probes.IsSequence())
      for (const auto &p : probes) {
        ProbeOutcome o;
        o.name = p["name"].as<std::string>("");
        o.status = p["status"].as<std::string>("");
        o.rule = p["rule"].as<std::string>("");
        o.reason = p["reason"].as<std::string>("");
        if (const YAML::Node nums = p["numbers"]; nums && nums.IsMap())
          for (const auto &kv : nums)
            o.numbers[kv.first.as<std::string>()] = kv.second.as<double>(0.0);
        report.probes.push_back(std::move(o));
      }
    if (const YAML::Node events = root["events"]; events && events.IsSequence())
      for (const auto &e : events)
        report.events.push_back({e["kind"].as<std::string>(""), e["detail"].as<std::string>("")});
  } catch (const YAML::Exception &e) {
    why = std::string("the answer is not valid JSON: ") + e.what();
    return false;
  }
  return true;
}

std::string_view probeScript() {
  for (const EmbeddedFile &f : embeddedProbe())
    if (f.path.ends_with("probe.py"))
      return f.content;
  return {};
}

RuntimeReport runProbes(const fs::path &solution, const problems::ProblemContext &problem,
                        const ProbeOptions &options) {
  RuntimeReport report;
  std::error_code ec;
  const fs::path solutionFile = fs::is_directory(solution, ec) ? solution / "solution.py" : solution;
  if (!fs::is_regular_file(solutionFile, ec)) {
    report.reason = "no solution file at " + solutionFile.string();
    return report;
  }
  if (!problem.reference.found) {
    report.reason = "the problem has no reference.py to compare against";
    return report;
  }
  if (!fs::exists(options.python, ec)) {
    report.reason = "no Python interpreter at " + options.python.string();
    return report;
  }

  std::string tmpl = (fs::temp_directory_path() / "kbaudit-probe-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) {
    report.reason = "cannot create a private directory";
    return report;
  }
  const fs::path root(tmpl);
  const fs::path runDir = root / "run", problemDir = root / "problem";
  // Sidecars live next to a solution.py; a `<run>_solution.py` in a flat folder has none.
  if (solutionFile.filename() == "solution.py")
    copyTree(solutionFile.parent_path(), runDir);
  fs::create_directories(runDir, ec);
  fs::copy_file(solutionFile, runDir / "solution.py", fs::copy_options::overwrite_existing, ec);
  copyTree(problem.dir, problemDir, 2);
  fs::create_directories(root / "tmp", ec);
  {
    std::ofstream(root / "probe.py", std::ios::binary) << probeScript();
  }
  const auto gradersBefore = hashFiles(problemDir);

  SandboxRequest req;
  const std::string secret = nonce();
  req.stdinData = secret + "\n";
  req.workdir = root;
  req.uid = ::geteuid() == 0 ? nextUid() : 0;
  if (req.uid)
    chownTree(root, req.uid);
  req.limits = options.limits;
  const bool cuda = options.device == "cuda" || (options.device == "auto" && cudaPresent());
  if (cuda)
    req.limits.addressSpaceBytes = 0; // the CUDA driver reserves far more address space than it uses
  std::string seeds;
  for (int s : options.seeds)
    seeds += (seeds.empty() ? "" : ",") + std::to_string(s);
  req.argv = {options.python.string(), "-I", "-B", (root / "probe.py").string(), "--run", runDir.string(),
              "--problem", problemDir.string(), "--device", options.device, "--seeds", seeds,
              "--answer-fd", std::to_string(req.answerFd)};
  req.env = {{"PATH", "/usr/bin:/bin"},          {"HOME", root.string()},
             {"TMPDIR", (root / "tmp").string()}, {"LANG", "C.UTF-8"},
             {"OMP_NUM_THREADS", "1"},            {"MKL_NUM_THREADS", "1"},
             {"PYTHONHASHSEED", "0"},             {"TRITON_CACHE_DIR", (root / "tmp" / "triton").string()},
             {"TORCH_EXTENSIONS_DIR", (root / "tmp" / "torch_extensions").string()}};
  if (const char *v = std::getenv("CUDA_VISIBLE_DEVICES"))
    req.env["CUDA_VISIBLE_DEVICES"] = v;

  const SandboxResult run = runSandboxed(req);
  report.isolation = run.isolation;
  report.seconds = static_cast<double>(run.elapsed.count()) / 1000.0;
  std::string why;
  if (!run.started) {
    report.reason = "the probe could not be started: " + run.startError;
  } else if (parseAnswer(run.answer, secret, report, why)) {
    report.outcome = "ran";
  } else {
    report.outcome = "aborted";
    report.reason = describeExit(run) + (why.empty() ? "" : "; " + why);
    if (!run.stderrTail.empty())
      report.reason += "; stderr ends: " + run.stderrTail.substr(run.stderrTail.size() > 400 ? run.stderrTail.size() - 400 : 0);
  }
  // Grader files the solution changed in its private copy.
  const auto gradersAfter = hashFiles(problemDir);
  for (const auto &[name, hash] : gradersBefore) {
    const auto it = gradersAfter.find(name);
    if (it == gradersAfter.end())
      report.events.push_back({"grader-changed", name + " was deleted"});
    else if (it->second != hash)
      report.events.push_back({"grader-changed", name + " was modified"});
  }
  for (const auto &[name, hash] : gradersAfter)
    if (!gradersBefore.count(name))
      report.events.push_back({"grader-changed", name + " was created in the problem directory"});
  fs::remove_all(root, ec);
  return report;
}

} // namespace kbaudit::runtime
