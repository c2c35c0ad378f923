// Which suite's rules judge a run. The strongest signal wins: what the user asked for, then what
// the run says about itself (its metadata's bench, being a row of an evaluation table), then the
// problem it was graded against (marker files of a suite's tree, the problem's layout), and last
// the shape of the solution's entry point.

#include "kbaudit/problems/suite_profile.h"

#include <algorithm>
#include <cctype>

namespace kbaudit::problems {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

template <typename T> bool contains(const std::vector<T> &v, const T &x) { return std::find(v.begin(), v.end(), x) != v.end(); }

/// A marker file or folder beside the problem or in one of its three nearest parents.
bool hasMarker(const fs::path &problemPath, const std::vector<std::string> &markers) {
  if (problemPath.empty() || markers.empty())
    return false;
  std::error_code ec;
  fs::path dir = fs::is_directory(problemPath, ec) ? problemPath : problemPath.parent_path();
  for (int level = 0; level < 4 && !dir.empty(); ++level, dir = dir.parent_path()) {
    for (const std::string &m : markers)
      if (fs::exists(dir / m, ec))
        return true;
    if (dir == dir.parent_path())
      break;
  }
  return false;
}

SuiteDetection found(const SuiteProfile &p, std::string reason) { return SuiteDetection{&p, std::move(reason), {}}; }

} // namespace

SuiteDetection detectSuite(const ProfileSet &set, const SuiteSignals &s) {
  if (!s.requested.empty()) {
    if (const SuiteProfile *p = set.find(s.requested))
      return found(*p, "requested by " + (s.requestedBy.empty() ? std::string("--suite") : s.requestedBy));
    std::string ids;
    for (const SuiteProfile &p : set.profiles)
      ids += (ids.empty() ? "" : ", ") + p.id;
    return SuiteDetection{nullptr, {}, "no suite profile '" + s.requested + "' (known: " + ids + ")"};
  }
  if (set.profiles.empty())
    return {};
  if (!s.bench.empty()) {
    const std::string bench = lower(s.bench);
    for (const SuiteProfile &p : set.profiles)
      for (const std::string &b : p.detect.bench)
        if (lower(b) == bench)
          return found(p, "the run's metadata names bench '" + s.bench + "'");
  }
  if (s.table)
    for (const SuiteProfile &p : set.profiles)
      if (p.detect.table)
        return found(p, "the run is a row of an evaluation table");
  for (const SuiteProfile &p : set.profiles)
    if (hasMarker(s.problemPath, p.detect.markers))
      return found(p, "the problem's tree holds a marker of this suite");
  if (s.layout != ProblemLayout::None) {
    const SuiteProfile *byLayout = nullptr;
    for (const SuiteProfile &p : set.profiles) {
      if (!contains(p.detect.layouts, s.layout))
        continue;
      if (contains(p.detect.entries, s.entry))
        return found(p, std::string("problem layout ") + layoutName(s.layout) + " with entry " + entryShapeName(s.entry));
      if (!byLayout)
        byLayout = &p;
    }
    if (byLayout)
      return found(*byLayout, std::string("problem layout ") + layoutName(s.layout));
  }
  if (s.entry != EntryShape::Unknown)
    for (const SuiteProfile &p : set.profiles)
      if (contains(p.detect.entries, s.entry))
        return found(p, std::string("the solution's entry point is ") + entryShapeName(s.entry));
  if (const SuiteProfile *hard = set.find("kernelbench-hard"))
    return found(*hard, "nothing identifies the suite; KernelBench-Hard's contract is the default");
  return found(set.profiles.front(), "nothing identifies the suite; the first profile is the default");
}

} // namespace kbaudit::problems
