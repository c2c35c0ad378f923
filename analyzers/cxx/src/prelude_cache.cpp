#include "prelude_cache.h"

#include "kbaudit/source/atomic_write.h"
#include "kbaudit/source/sha256.h"

#include "stub_headers.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/Support/xxhash.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>


namespace kbaudit::cxx::prelude_cache {

namespace fs = std::filesystem;

namespace {

// Bump when the layout of an entry or what goes into a key changes.
constexpr std::string_view kMagic = "kbaudit-prelude-pch 2\n"; // 2: no deferred-diagnostics list
// A precompiled prelude is a few MB; anything far larger under a key's name is not one.
constexpr std::uintmax_t kMaxBytes = 256u << 20;
constexpr size_t kHeader = kMagic.size() + 64 + 1 + 2 * sizeof(uint64_t);

void put64(std::string &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xff);
}

uint64_t get64(const std::string &in, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

fs::path entryPath(const fs::path &dir, const std::string &key) { return dir / key.substr(0, 2) / key; }

} // namespace

fs::path defaultDir() {
  if (const char *c = std::getenv("KBAUDIT_PRELUDE_CACHE"); c && *c)
    return std::string_view(c) == "off" ? fs::path() : fs::path(c);
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return fs::path(x) / "kbaudit" / "prelude";
  if (const char *h = std::getenv("HOME"); h && *h)
    return fs::path(h) / ".cache" / "kbaudit" / "prelude";
  return {};
}

std::string key(const std::vector<std::string> &args, const std::string &preludeSource) {
  Sha256 hash;
  const auto add = [&](std::string_view part) {
    hash.update(part).update(std::string_view("\0", 1)); // separators: no two splits of a text hash alike
  };
  add(kMagic);
  add(LLVM_VERSION_STRING);
  add(std::to_string(args.size()));
  for (const std::string &a : args)
    add(a);
  add(preludeSource);
  // The stubs (about 220 KB) by a 64-bit checksum each: SHA-256 over their text was 10 M
  // instructions, as much as loading the entry.
  for (const stubs::Header &h : stubs::allHeaders()) {
    add(h.name);
    add(std::to_string(h.text.size()) + ":" + std::to_string(llvm::xxHash64(h.text)));
  }
  return hash.finalHex();
}

std::optional<std::string> load(const fs::path &dir, const std::string &key) {
  if (dir.empty() || key.size() != 64)
    return std::nullopt;
  std::error_code ec;
  const fs::path path = entryPath(dir, key);
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec || size < kHeader || size > kMaxBytes || !fs::is_regular_file(path, ec))
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string entry(static_cast<size_t>(size), '\0');
  if (!in.read(entry.data(), static_cast<std::streamsize>(size)) || in.gcount() != static_cast<std::streamsize>(size))
    return std::nullopt;
  // magic, key, '\n', payload length, payload checksum, payload
  if (entry.compare(0, kMagic.size(), kMagic) != 0 || entry.compare(kMagic.size(), 64, key) != 0 ||
      entry[kMagic.size() + 64] != '\n')
    return std::nullopt;
  const uint64_t length = get64(entry, kMagic.size() + 65);
  const uint64_t checksum = get64(entry, kMagic.size() + 73);
  if (length != size - kHeader)
    return std::nullopt;
  if (length == 0 || llvm::xxHash64(llvm::StringRef(entry).substr(kHeader)) != checksum)
    return std::nullopt;
  entry.erase(0, kHeader);
  return entry;
}

bool store(const fs::path &dir, const std::string &key, const std::string &pch) {
  if (dir.empty() || key.size() != 64 || pch.empty())
    return false;
  try {
    std::string entry(kMagic);
    entry += key;
    entry += '\n';
    put64(entry, pch.size());
    put64(entry, llvm::xxHash64(pch));
    entry += pch;
    std::string error; // a cache that cannot be written is only slower
    return source::writeFileAtomically(entryPath(dir, key), entry, error);
  } catch (const std::exception &) {
    return false;
  }
}

} // namespace kbaudit::cxx::prelude_cache
