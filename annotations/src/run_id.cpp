#include "kbaudit/annotations/run_id.h"

#include <algorithm>
#include <cstddef>

namespace kbaudit::annotations {

namespace {

// Empty tokens are kept: model names such as `kinetic-0715_1m_` end in `_`, which leaves an
// empty token before the problem's `NN`.
std::vector<std::string_view> splitTokens(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t cut = text.find('_', start);
    if (cut == std::string_view::npos) {
      out.push_back(text.substr(start));
      return out;
    }
    out.push_back(text.substr(start, cut - start));
    start = cut + 1;
  }
}

bool allDigits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int number(std::string_view s) {
  int v = 0;
  for (char c : s)
    v = v * 10 + (c - '0');
  return v;
}

bool inRange(std::string_view digits, int lo, int hi) {
  const int v = number(digits);
  return v >= lo && v <= hi;
}

bool isDate(std::string_view s) {
  return s.size() == 8 && allDigits(s) && inRange(s.substr(4, 2), 1, 12) &&
         inRange(s.substr(6, 2), 1, 31);
}

bool isTime(std::string_view s) {
  return s.size() == 6 && allDigits(s) && inRange(s.substr(0, 2), 0, 23) &&
         inRange(s.substr(2, 2), 0, 59) && inRange(s.substr(4, 2), 0, 59);
}

std::string join(const std::vector<std::string_view> &tokens, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (i != from)
      out += '_';
    out += tokens[i];
  }
  return out;
}

// Index of the token where the problem starts, or 0 when no split fits. Tokens 0..2 are date,
// time and harness, so a usable split is always >= 4 (the model needs at least one token).
std::size_t knownProblemStart(std::string_view text, const std::vector<std::string_view> &tokens,
                              const std::vector<std::string> &knownProblems) {
  std::size_t best = 0;
  std::size_t bestLength = 0;
  for (const std::string &problem : knownProblems) {
    if (problem.empty() || problem.size() <= bestLength || problem.size() + 1 >= text.size() ||
        !text.ends_with(problem) || text[text.size() - problem.size() - 1] != '_')
      continue;
    const std::size_t start = tokens.size() - splitTokens(problem).size();
    if (start < 4 || (start == 4 && tokens[3].empty()))
      continue;
    best = start;
    bestLength = problem.size();
  }
  return best;
}

std::size_t genericProblemStart(const std::vector<std::string_view> &tokens) {
  for (std::size_t i = 4; i + 1 < tokens.size(); ++i) {
    if (tokens[i].size() != 2 || !allDigits(tokens[i]))
      continue;
    // An empty name token would mean the id ends in `_` or holds `__` after the number: that
    // `NN` belongs to the model, not to a problem directory name.
    const bool nameOk = std::none_of(tokens.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                     tokens.end(), [](std::string_view t) { return t.empty(); });
    if (nameOk && !(i == 4 && tokens[3].empty()))
      return i;
  }
  return 0;
}

} // namespace

RunId RunId::parse(std::string_view text, const std::vector<std::string> &knownProblems) {
  RunId id;
  id.text = std::string(text);
  const std::vector<std::string_view> tokens = splitTokens(text);
  // date, time, harness, model, NN, name
  if (tokens.size() < 6 || !isDate(tokens[0]) || !isTime(tokens[1]) || tokens[2].empty())
    return id;

  std::size_t start = knownProblemStart(text, tokens, knownProblems);
  if (start == 0)
    start = genericProblemStart(tokens);
  if (start == 0)
    return id;

  id.date = std::string(tokens[0]);
  id.time = std::string(tokens[1]);
  id.harness = std::string(tokens[2]);
  id.model = join(tokens, 3, start);
  id.problem = join(tokens, start, tokens.size());
  id.valid = true;
  return id;
}

} // namespace kbaudit::annotations
