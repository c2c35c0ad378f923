#pragma once

// Watching processes from a test: whether one is gone (a zombie nobody reaps counts as gone: it
// runs nothing), which ones carry a marker in their command line, and waiting with a generous
// bound for a condition instead of sleeping a fixed time.

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

namespace kbaudit::test {

inline bool processGone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    return true;
  const std::size_t close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] == 'Z' || line[close + 2] == 'X';
}

/// Live processes (not zombies) whose command line contains `marker`, other than this one.
inline std::vector<pid_t> processesWith(const std::string &marker) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc", ec), end; it != end && !ec; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::ifstream in(it->path() / "cmdline", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const pid_t pid = static_cast<pid_t>(std::stol(name));
    if (ss.str().find(marker) != std::string::npos && pid != ::getpid() && !processGone(pid))
      out.push_back(pid);
  }
  return out;
}

/// Polls `done` until it holds or `limit` passes; whether it held.
inline bool waitFor(const std::function<bool()> &done, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

} // namespace kbaudit::test
