#pragma once

namespace kbaudit {

/// 1-indexed, inclusive line range in a file. `begin == 0` means "no location".
struct LineRange {
  unsigned begin = 0;
  unsigned end = 0;

  bool valid() const { return begin != 0 && end >= begin; }
  bool contains(unsigned line) const { return valid() && line >= begin && line <= end; }
  bool overlaps(const LineRange &o) const {
    return valid() && o.valid() && begin <= o.end && o.begin <= end;
  }
  friend bool operator==(const LineRange &, const LineRange &) = default;
};

} // namespace kbaudit
