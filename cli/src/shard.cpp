#include "kbaudit/cli/shard.h"

#include <charconv>
#include <limits>

namespace kbaudit::cli {

std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

namespace {

/// A non-empty run of decimal digits that fits in `unsigned`; nothing else (no sign, no spaces).
std::optional<unsigned> parseCount(std::string_view s) {
  if (s.empty() || s.size() > 10)
    return std::nullopt;
  for (const char c : s)
    if (c < '0' || c > '9')
      return std::nullopt;
  unsigned long long v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v > std::numeric_limits<unsigned>::max())
    return std::nullopt;
  return static_cast<unsigned>(v);
}

} // namespace

std::optional<Shard> parseShard(std::string_view text, std::string &error) {
  const std::string shown(text);
  const auto slash = text.find('/');
  const std::optional<unsigned> k = slash == std::string_view::npos ? std::nullopt : parseCount(text.substr(0, slash));
  const std::optional<unsigned> n =
      slash == std::string_view::npos ? std::nullopt : parseCount(text.substr(slash + 1));
  if (!k || !n) {
    error = "--shard takes K/N, two whole numbers (e.g. 2/8), not '" + shown + "'";
    return std::nullopt;
  }
  if (*n == 0 || *k == 0 || *k > *n) {
    error = "--shard " + shown + ": K/N needs 1 <= K <= N (shards are numbered from 1)";
    return std::nullopt;
  }
  return Shard{*k, *n};
}

unsigned shardOf(std::string_view runId, unsigned count) {
  return count <= 1 ? 0 : static_cast<unsigned>(fnv1a64(runId) % count);
}

std::string toString(const Shard &shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

} // namespace kbaudit::cli
