#pragma once

// `audit --shard K/N`: which runs one of N machines audits. A run belongs to shard
// fnv1a64(run id) mod N (0-based; K is 1-based), so the split depends only on the run id and N:
// every run is in exactly one shard, and adding or removing runs never moves the others.
// Changing this function would split a sweep differently between kbaudit versions, so it is
// pinned by tests (docs/scaling.md gives a Python equivalent).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kbaudit::cli {

struct Shard {
  unsigned index = 1; ///< K, 1-based
  unsigned count = 1; ///< N
};

/// 64-bit FNV-1a over the bytes of `text`.
std::uint64_t fnv1a64(std::string_view text);

/// Parses "K/N" (decimal digits only, 1 <= K <= N). nullopt with `error` set otherwise.
std::optional<Shard> parseShard(std::string_view text, std::string &error);

/// The 0-based shard, among `count` (>= 1), that `runId` belongs to.
unsigned shardOf(std::string_view runId, unsigned count);

/// Whether `runId` is audited by `shard`.
inline bool inShard(std::string_view runId, const Shard &shard) {
  return shardOf(runId, shard.count) == shard.index - 1;
}

/// "K/N".
std::string toString(const Shard &shard);

} // namespace kbaudit::cli
