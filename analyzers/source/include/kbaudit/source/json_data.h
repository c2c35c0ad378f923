#pragma once

// A JSON data file (an evaluation table, meta.json, result.json, problem_baselines.json) as the
// few questions kbaudit asks of it. llvm::json does the parsing, behind this header: its own
// header does not compile with clang 14 and libstdc++ 12 in C++20 mode (the fuzz build's), so it
// is included by one source file only, which that build compiles as C++17. Nesting is bounded
// (data::jsonTooDeep) before llvm::json, which recurses, sees the text.

#include "kbaudit/source/data_file.h"

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace kbaudit::data {

/// An object's members as (key, text) pairs: a string as it is, null as "", a boolean as
/// `true`/`false`, a number or a nested value as its JSON text.
using Members = std::vector<std::pair<std::string, std::string>>;

class Json {
public:
  /// The document in `text`, or why it is not one ("nested deeper than 64 levels ...", the
  /// parser's message).
  static std::variant<Json, std::string> parse(std::string_view text, unsigned maxDepth = kMaxNesting);

  Json(Json &&) noexcept;
  Json &operator=(Json &&) noexcept;
  ~Json();

  bool isObject() const;
  /// The members of the root object (empty when the root is not an object).
  Members members() const;
  /// Table rows: the objects of a root array, or of the first member (by key) of a root object
  /// that is an array whose first element is an object; non-object elements are skipped.
  /// nullopt when the document holds no such array.
  std::optional<std::vector<Members>> rows() const;

  /// Values along a path of object keys; nullopt when absent or of another type.
  std::optional<std::string> string(std::initializer_list<std::string_view> path) const;
  std::optional<double> number(std::initializer_list<std::string_view> path) const;
  std::optional<bool> boolean(std::initializer_list<std::string_view> path) const;
  /// The number under `key` of every element of the array at `path`; nullopt when the array is
  /// absent or empty or some element is not an object with a number there.
  std::optional<std::vector<double>> numbersIn(std::initializer_list<std::string_view> path, std::string_view key) const;

private:
  struct Impl;
  explicit Json(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace kbaudit::data
