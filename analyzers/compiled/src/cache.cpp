#include "cache.h"

#include "kbaudit/source/atomic_write.h"
#include "kbaudit/source/sha256.h"

#include <fstream>
#include <sstream>

namespace kbaudit::compiled {

namespace fs = std::filesystem;

namespace {

constexpr const char *kMagic = "kbaudit-compile-cache 1";

void section(std::ostream &out, const char *name, const std::string &body) {
  out << "section " << name << ' ' << body.size() << '\n' << body << '\n';
}

} // namespace

std::string cacheKey(const std::vector<std::string> &parts) {
  Sha256 hasher;
  for (const std::string &p : parts)
    hasher.update(std::to_string(p.size()) + ":").update(p);
  return hasher.finalHex();
}

fs::path CompileCache::pathOf(const std::string &key) const { return dir_ / key.substr(0, 2) / (key + ".entry"); }

std::optional<CacheEntry> CompileCache::load(const std::string &key) const {
  if (!enabled() || key.size() < 8)
    return std::nullopt;
  std::ifstream in(pathOf(key), std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string line;
  if (!std::getline(in, line) || line != kMagic)
    return std::nullopt;
  CacheEntry e;
  bool haveStatus = false;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word == "status") {
      std::string name;
      words >> name;
      const std::optional<UnitStatus> s = unitStatusFromName(name);
      if (!s)
        return std::nullopt;
      e.status = *s;
      haveStatus = true;
    } else if (word == "seconds") {
      words >> e.seconds;
    } else if (word == "section") {
      std::string name;
      std::size_t size = 0;
      if (!(words >> name >> size) || size > (256u << 20))
        return std::nullopt;
      std::string body(size, '\0');
      if (!in.read(body.data(), static_cast<std::streamsize>(size)) || in.get() != '\n')
        return std::nullopt;
      if (name == "why")
        e.why = std::move(body);
      else if (name == "log")
        e.log = std::move(body);
      else if (name == "ptx")
        e.ptx = std::move(body);
      else if (name == "ptxas")
        e.ptxasLog = std::move(body);
      else if (name == "ptxas-error")
        e.ptxasError = std::move(body);
    } else if (word == "end") {
      return haveStatus ? std::optional<CacheEntry>(std::move(e)) : std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt; // truncated: no end marker
}

bool CompileCache::store(const std::string &key, const CacheEntry &e) const {
  if (!enabled() || key.size() < 8)
    return false;
  std::ostringstream out;
  out << kMagic << '\n' << "status " << unitStatusName(e.status) << '\n' << "seconds " << e.seconds << '\n';
  section(out, "why", e.why);
  section(out, "log", e.log);
  section(out, "ptx", e.ptx);
  section(out, "ptxas", e.ptxasLog);
  section(out, "ptxas-error", e.ptxasError);
  out << "end\n";
  std::string error; // a cache that cannot be written is only slower
  return source::writeFileAtomically(pathOf(key), out.str(), error);
}

} // namespace kbaudit::compiled
