#pragma once

// Run directories in the audit corpus store a solution's sidecar files appended to
// solution.py, each after a banner:
//
//   # ==================================================================
//   # ===== sidecar: kernels.cu (63037 bytes, loaded by solution.py) =====
//   # ==================================================================
//   <blank line>
//   <the file's bytes>
//
// The appended C++ is not Python, so the front end must see only the part before the
// first banner, and load(sources=["kernels.cu"]) must find the file in the bundle.

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::embed {

struct BundledFile {
  std::string name;       ///< as the banner names it: "kernels.cu"
  std::string text;
  unsigned firstLine = 0; ///< solution.py line holding line 1 of `text`
};

struct Bundle {
  /// Bytes of the solution that are Python: everything before the first banner (all of it
  /// when there is none). A prefix, so Python line numbers are unchanged.
  std::size_t pythonBytes = 0;
  std::vector<BundledFile> files;
};

Bundle splitBundle(std::string_view solutionText);

} // namespace kbaudit::embed
