#pragma once

// The result of constant-folding one expression.

#include "kbaudit/python/facts.h"

#include <tree_sitter/api.h>

#include <memory>
#include <vector>

namespace kbaudit::py {

/// An element of a folded list/tuple, kept as its node so callers can both fold it and
/// summarise it as an Expr in the scope it was written in.
struct SeqItem {
  TSNode node;
  int scope = 0;
  bool splat = false; ///< `*rest`: contents unknown
};

struct Value {
  enum class Kind { Unknown, Str, Num, Bool, NoneV, Seq };
  Kind kind = Kind::Unknown;
  StringValue str;
  double num = 0;
  bool isInt = false;
  bool boolean = false;
  std::vector<SeqItem> items;
  /// A Seq whose items went past the evaluator's item limit: the items beyond it are missing,
  /// so a string built from this sequence is incomplete.
  bool truncated = false;
  /// An Unknown that is unknown because a limit of the evaluator was hit (depth, size, an
  /// expression form it does not fold), not because the value exists only at run time.
  bool limited = false;

  bool isStr() const { return kind == Kind::Str; }
  bool isNum() const { return kind == Kind::Num; }
};

using ValuePtr = std::shared_ptr<const Value>;

} // namespace kbaudit::py
