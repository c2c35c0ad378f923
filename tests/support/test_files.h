#pragma once

// Small helpers for tests that need files on disk: a self-deleting temp dir and
// whole-file read/write.

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace kbaudit::test {

class TempDir {
public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("kbaudit_test_" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::filesystem::path &path() const { return path_; }
  std::filesystem::path operator/(const std::string &rel) const { return path_ / rel; }

private:
  std::filesystem::path path_;
};

inline void writeFile(const std::filesystem::path &p, const std::string &bytes) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

inline std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs a shell command and returns its exit status (not the raw wait status).
inline int runCommand(const std::string &cmd) {
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace kbaudit::test
