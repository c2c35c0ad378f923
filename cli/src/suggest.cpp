#include "suggest.h"

#include <llvm/ADT/StringRef.h>

namespace kbaudit::cli {

std::string closestMatch(std::string_view word, const std::vector<std::string> &candidates) {
  const llvm::StringRef w(word.data(), word.size());
  const unsigned limit = word.size() <= 4 ? 1 : 2;
  std::string best;
  unsigned bestDistance = limit + 1;
  for (const std::string &c : candidates) {
    const unsigned d = w.edit_distance(c, /*AllowReplacements=*/true, /*MaxEditDistance=*/limit + 1);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return bestDistance <= limit && best != word ? best : std::string();
}

std::string didYouMean(std::string_view word, const std::vector<std::string> &candidates) {
  const std::string match = closestMatch(word, candidates);
  return match.empty() ? std::string() : " (did you mean '" + match + "'?)";
}

} // namespace kbaudit::cli
