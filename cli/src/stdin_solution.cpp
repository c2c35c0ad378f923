#include "stdin_solution.h"

#include <cstdlib>
#include <fstream>
#include <istream>
#include <vector>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

// The same limit SourceFile applies to a solution on disk; past it, stdin is not read further.
constexpr std::size_t kMaxBytes = 16u << 20;

void replaceAll(std::string &s, const std::string &from, const std::string &to) {
  if (from.empty())
    return;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

} // namespace

std::optional<StdinSolution> StdinSolution::read(std::istream &in, std::string &error) {
  std::string bytes;
  std::vector<char> buffer(1 << 16);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    bytes.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > kMaxBytes) {
      error = "stdin holds more than " + std::to_string(kMaxBytes) + " bytes; kbaudit reads solutions up to that";
      return std::nullopt;
    }
  }
  std::string pattern = (fs::temp_directory_path() / "kbaudit-stdin-XXXXXX").string();
  if (!mkdtemp(pattern.data())) {
    error = "cannot create a temporary directory for stdin under " + fs::temp_directory_path().string();
    return std::nullopt;
  }
  StdinSolution s;
  s.dir_ = pattern;
  s.solution_ = s.dir_ / "solution.py";
  std::ofstream out(s.solution_, std::ios::binary);
  out << bytes;
  out.close();
  if (!out) {
    error = "cannot write stdin to a temporary file";
    return std::nullopt; // the destructor of `s` removes the directory
  }
  return s;
}

StdinSolution::StdinSolution(StdinSolution &&other) noexcept
    : dir_(std::move(other.dir_)), solution_(std::move(other.solution_)) {
  other.dir_.clear();
}

StdinSolution &StdinSolution::operator=(StdinSolution &&other) noexcept {
  std::swap(dir_, other.dir_); // `other` removes what this held
  std::swap(solution_, other.solution_);
  return *this;
}

StdinSolution::~StdinSolution() {
  if (dir_.empty())
    return;
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void replacePath(annotations::Annotation &a, const std::string &from, const std::string &to) {
  const auto fix = [&](std::string &s) { replaceAll(s, from, to); };
  fix(a.summary);
  fix(a.implication);
  for (rules::Finding &f : a.kbaudit.findings)
    fix(f.message);
  for (rules::SkippedRule &s : a.kbaudit.skipped)
    fix(s.reason);
  for (Diagnostic &d : a.kbaudit.diagnostics) {
    fix(d.message);
    fix(d.file);
  }
  if (a.kbaudit.runtime) {
    runtime::RuntimeReport &r = *a.kbaudit.runtime;
    fix(r.reason);
    for (std::string &n : r.notes)
      fix(n);
    for (std::string &n : r.isolation)
      fix(n);
    for (runtime::ProbeOutcome &p : r.probes)
      fix(p.reason);
    for (runtime::RuntimeEvent &e : r.events)
      fix(e.detail);
  }
}

} // namespace kbaudit::cli
