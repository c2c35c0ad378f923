#include "result_cache.h"

#include "run_fingerprint.h"

#include "kbaudit/source/sha256.h"
#include "kbaudit/source/atomic_write.h"
#include "kbaudit/annotations/yaml_writer.h"
#include "kbaudit/source/data_file.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string_view>
#include <system_error>
#include <variant>

namespace kbaudit::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "kbaudit-result-cache 1";
// An annotation is a few KiB; one past this is not ours.
constexpr std::size_t kMaxEntryBytes = 64u << 20;

bool isFingerprint(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool isVerdict(std::string_view s) {
  return !s.empty() && s.size() < 64 && std::all_of(s.begin(), s.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
}

/// The value of the header line `name value` at `pos`, advancing `pos` past it.
std::optional<std::string_view> headerLine(std::string_view text, std::size_t &pos, std::string_view name) {
  const std::size_t end = text.find('\n', pos);
  if (end == std::string_view::npos)
    return std::nullopt;
  std::string_view line = text.substr(pos, end - pos);
  pos = end + 1;
  if (line.size() <= name.size() || line.substr(0, name.size()) != name || line[name.size()] != ' ')
    return std::nullopt;
  return line.substr(name.size() + 1);
}

} // namespace

std::optional<ResultCache> ResultCache::open(const fs::path &dir, std::string &error) {
  std::error_code ec;
  const bool existed = fs::is_directory(dir, ec);
  if (!existed) {
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir, ec)) {
      error = "cannot create " + dir.string() + (ec ? ": " + ec.message() : std::string());
      return std::nullopt;
    }
  }
  if (!existed || !fs::exists(dir / "CACHEDIR.TAG", ec)) {
    // https://bford.info/cachedir/ : backup tools skip the folder; git ignores it wherever it is.
    std::string ignored;
    source::writeFileAtomically(dir / "CACHEDIR.TAG",
                                      "Signature: 8a477f597d28d172789f06886806bc55\n"
                                      "# This file is a cache directory tag created by kbaudit.\n",
                                      ignored);
    source::writeFileAtomically(dir / ".gitignore", "# Created by kbaudit.\n*\n", ignored);
  }
  return ResultCache(dir);
}

fs::path ResultCache::entryPath(const std::string &fingerprint) const {
  return dir_ / "v1" / fingerprint.substr(0, 2) / fingerprint;
}

std::optional<CachedResult> ResultCache::load(const std::string &fingerprint, const std::string &runId) const {
  if (!isFingerprint(fingerprint))
    return std::nullopt;
  std::variant<std::string, std::string> read = data::readText(entryPath(fingerprint), kMaxEntryBytes);
  if (read.index() != 0)
    return std::nullopt; // absent or unreadable: a miss
  const std::string_view text = std::get<0>(read);
  std::size_t pos = text.find('\n');
  if (pos == std::string_view::npos || text.substr(0, pos) != kMagic)
    return std::nullopt;
  ++pos;
  const auto fp = headerLine(text, pos, "fingerprint");
  const auto run = headerLine(text, pos, "run");
  const auto verdict = headerLine(text, pos, "verdict");
  const auto open = headerLine(text, pos, "open");
  const auto size = headerLine(text, pos, "size");
  const auto sum = headerLine(text, pos, "sha256");
  if (!fp || !run || !verdict || !open || !size || !sum || *fp != fingerprint || *run != sha256Hex(runId) ||
      !isVerdict(*verdict) || (*open != "0" && *open != "1") || pos >= text.size() || text[pos] != '\n')
    return std::nullopt;
  ++pos;
  std::size_t bytes = 0;
  const auto [end, ec] = std::from_chars(size->data(), size->data() + size->size(), bytes);
  if (ec != std::errc() || end != size->data() + size->size() || bytes != text.size() - pos)
    return std::nullopt;
  const std::string_view yaml = text.substr(pos);
  if (*sum != sha256Hex(yaml))
    return std::nullopt;
  return CachedResult{std::string(*verdict), *open == "1", std::string(yaml)};
}

bool ResultCache::store(const std::string &fingerprint, const std::string &runId, const CachedResult &result) const {
  if (!isFingerprint(fingerprint) || !isVerdict(result.verdict))
    return false;
  std::string entry;
  entry.reserve(result.yaml.size() + 400);
  entry.append(kMagic).append("\nfingerprint ").append(fingerprint);
  entry.append("\nrun ").append(sha256Hex(runId));
  entry.append("\nverdict ").append(result.verdict);
  entry.append("\nopen ").append(result.openFindings ? "1" : "0");
  entry.append("\nsize ").append(std::to_string(result.yaml.size()));
  entry.append("\nsha256 ").append(sha256Hex(result.yaml)).append("\n\n");
  entry.append(result.yaml);
  std::string error;
  return source::writeFileAtomically(entryPath(fingerprint), entry, error);
}

fs::path defaultResultCacheDir() {
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x == '/')
    return fs::path(x) / "kbaudit";
  if (const char *h = std::getenv("HOME"); h && *h)
    return fs::path(h) / ".cache" / "kbaudit";
  return {};
}

} // namespace kbaudit::cli
