// The profiles kbaudit ships, compiled in from problems/suites/*.yaml, and those a user adds
// from folders of their own (no rebuild).

#include "compiled_suites.h"
#include "kbaudit/problems/suite_profile.h"
#include "kbaudit/source/data_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace kbaudit::problems {

namespace fs = std::filesystem;

namespace {

// A profile is a page of YAML; anything far larger is not one and is refused before parsing.
constexpr std::uintmax_t kMaxProfileBytes = 1 << 20;

void sortById(std::vector<SuiteProfile> &profiles) {
  std::sort(profiles.begin(), profiles.end(), [](const SuiteProfile &a, const SuiteProfile &b) { return a.id < b.id; });
}

} // namespace

const std::vector<SuiteProfile> &builtinProfiles() {
  // Parsed from the embedded YAML at build time (suites_gen.cpp, which fails the build on a
  // broken profile): yaml-cpp took about 14 M instructions at every start.
  static const std::vector<SuiteProfile> all = [] {
    std::vector<SuiteProfile> out = compiledSuiteProfiles();
    sortById(out);
    return out;
  }();
  return all;
}

const SuiteProfile *ProfileSet::find(std::string_view id) const {
  for (const SuiteProfile &p : profiles)
    if (p.id == id)
      return &p;
  return nullptr;
}

ProfileSet loadProfiles(const std::vector<fs::path> &userDirs) {
  ProfileSet set;
  set.profiles = builtinProfiles();
  for (const fs::path &dir : userDirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      set.errors.push_back({dir.string(), {}, "not a directory of suite profiles"});
      continue;
    }
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
      if (it->path().extension() == ".yaml" || it->path().extension() == ".yml")
        files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const fs::path &file : files) {
      // A regular file (a FIFO would block), within the size limit.
      std::variant<std::string, std::string> text = data::readText(file, kMaxProfileBytes);
      if (const std::string *why = std::get_if<1>(&text)) {
        set.errors.push_back({file.string(), {}, *why});
        continue;
      }
      ProfileError error;
      std::optional<SuiteProfile> p = parseSuiteProfile(std::get<0>(text), file.string(), error);
      if (!p) {
        set.errors.push_back(std::move(error));
        continue;
      }
      // A user's profile with a shipped id replaces the shipped one: that is how a team adapts
      // a suite's terms to its own leaderboard.
      std::erase_if(set.profiles, [&](const SuiteProfile &q) { return q.id == p->id; });
      set.profiles.push_back(std::move(*p));
    }
  }
  sortById(set.profiles);
  return set;
}

} // namespace kbaudit::problems
