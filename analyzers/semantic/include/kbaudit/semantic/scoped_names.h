#pragma once

// A table of names that hold something a rule follows (a sampled statistic, a replayed input,
// a frame), keyed by where each name lives, and the one answer to "which of them does this
// expression read, seen from this function". A `self.x` attribute is shared by the methods of its
// class; any other name is its function's, seen also from the functions nested in it (closures),
// and a module global (bound at module level, function "") from every function.

#include "kbaudit/python/facts.h"
#include "kbaudit/semantic/expr_query.h"
#include "kbaudit/semantic/python_text.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kbaudit::semantic {

/// Where a name bound in `function` lives: {class, "self.x"} for a self attribute, {function, name}
/// otherwise.
std::pair<std::string, std::string> nameHome(std::string_view function, std::string_view name);

/// A name living in `home` (nameHome's first) is seen from `function`.
bool seenFrom(std::string_view home, std::string_view name, std::string_view function);

template <typename T> class ScopedNames {
public:
  using Key = std::pair<std::string, std::string>; ///< nameHome: {where it lives, the name}
  using Entry = std::pair<const Key, T>;

  /// Binds `name` as seen in `function` to `value` unless it is bound already; true when bound now.
  bool bind(std::string_view function, std::string_view name, T value) {
    return entries_.emplace(nameHome(function, name), std::move(value)).second;
  }

  /// `name` exactly, seen from `function` (its own binding first), or nullptr.
  const Entry *find(std::string_view function, std::string_view name) const {
    if (auto it = entries_.find(nameHome(function, name)); it != entries_.end())
      return &*it;
    for (const Entry &entry : entries_)
      if (entry.first.second == name && seenFrom(entry.first.first, entry.first.second, function))
        return &entry;
    return nullptr;
  }

  /// The first bound name the expression reads, seen from `function`, with its value.
  const Entry *readBy(std::string_view function, const py::Expr &e) const {
    for (const auto &entry : entries_)
      if (seenFrom(entry.first.first, entry.first.second, function) && reads(e, entry.first.second))
        return &entry;
    return nullptr;
  }

  /// The first bound name a chain kept only as written mentions as a whole name
  /// (`Call::receiver`: `(x == x_ref).all` compares inside it), seen from `function`.
  const Entry *mentionedIn(std::string_view function, std::string_view written) const {
    for (const Entry &entry : entries_)
      if (seenFrom(entry.first.first, entry.first.second, function) &&
          pytext::mentionsName(written, entry.first.second))
        return &entry;
    return nullptr;
  }

  /// The first bound name among `read` (a branch's dotted names), or one they are attributes of.
  const Entry *readAmong(std::string_view function, const std::vector<std::string> &read) const {
    for (const Entry &entry : entries_)
      if (seenFrom(entry.first.first, entry.first.second, function))
        for (const std::string &n : read)
          if (n == entry.first.second || pytext::startsWith(n, entry.first.second + "."))
            return &entry;
    return nullptr;
  }

  bool empty() const { return entries_.empty(); }

private:
  std::map<Key, T> entries_;
};

} // namespace kbaudit::semantic
