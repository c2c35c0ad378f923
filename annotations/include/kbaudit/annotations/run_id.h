#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::annotations {

/// `<YYYYMMDD>_<HHMMSS>_<harness>_<model>_<problem>`, e.g.
/// `20260610_101744_codex_gpt-5.5_05_topk_bitonic`. The problem is the trailing `NN_name`;
/// the harness is the first word after the time; the model is what lies between (it may
/// itself hold `_`, `.`, `-`).
struct RunId {
  std::string text;
  std::string date;    ///< "20260610"
  std::string time;    ///< "101744"
  std::string harness; ///< "codex"
  std::string model;   ///< "gpt-5.5"
  std::string problem; ///< "05_topk_bitonic"
  bool valid = false;  ///< false: `text` does not follow the pattern; other fields empty

  /// When `knownProblems` is given, a problem name from it that ends the id wins over the
  /// generic `NN_` split (needed when a problem name itself holds `_NN_`).
  static RunId parse(std::string_view text, const std::vector<std::string> &knownProblems = {});
};

} // namespace kbaudit::annotations
