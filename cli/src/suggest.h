#pragma once

// "Did you mean": the closest of the known words to a mistyped one, as git and cargo suggest
// a command, so `kbaudit chekc` or `--selct` says what was probably meant.

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::cli {

/// The candidate nearest to `word` by edit distance (a swap of two letters counts as two), when
/// it is near enough to be a typo: at most 1 edit for words of up to 4 characters, 2 for longer
/// ones; "" otherwise. Ties go to the earlier candidate.
std::string closestMatch(std::string_view word, const std::vector<std::string> &candidates);

/// " (did you mean 'X'?)" for the closest match, "" when there is none.
std::string didYouMean(std::string_view word, const std::vector<std::string> &candidates);

} // namespace kbaudit::cli
