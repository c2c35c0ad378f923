#pragma once

// What the tests over the real corpus share: where it is (KBAUDIT_CORPUS, ../shared/corpus as
// ctest sets it; read in place, never copied) and the skip they take without it.

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace kbaudit::test {

/// `$KBAUDIT_CORPUS/runs`, or an empty path when the corpus is not there.
inline std::filesystem::path corpusRuns() {
  const char *env = std::getenv("KBAUDIT_CORPUS");
  if (!env)
    return {};
  std::error_code ec;
  const std::filesystem::path runs = std::filesystem::path(env) / "runs";
  return std::filesystem::is_directory(runs, ec) ? runs : std::filesystem::path();
}

} // namespace kbaudit::test

#define REQUIRE_CORPUS(runs)                                                                                       \
  do {                                                                                                             \
    if ((runs).empty())                                                                                            \
      GTEST_SKIP() << "corpus not present (KBAUDIT_CORPUS)";                                                       \
  } while (false)
