#pragma once

// Thin helpers over tree-sitter nodes: node kinds as an enum (one table lookup instead of
// strcmp), field access by precomputed id, and child lists built with a cursor, because
// ts_node_child(i) and ts_node_next_sibling are linear in the number of siblings and
// would make wide modules quadratic.

#include "kbaudit/source/line_range.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <tree_sitter/api.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

extern "C" const TSLanguage *tree_sitter_python();

namespace kbaudit::py::ts {

enum class K : uint8_t {
  Other,
  Error,
  Module,
  Block,
  Comment,
  // statements
  ExpressionStatement,
  ImportStatement,
  ImportFromStatement,
  FutureImportStatement,
  AliasedImport,
  DottedName,
  RelativeImport,
  ImportPrefix,
  WildcardImport,
  FunctionDefinition,
  ClassDefinition,
  DecoratedDefinition,
  Decorator,
  Parameters,
  LambdaParameters,
  DefaultParameter,
  TypedParameter,
  TypedDefaultParameter,
  ListSplatPattern,
  DictionarySplatPattern,
  IfStatement,
  ElifClause,
  ElseClause,
  WhileStatement,
  ForStatement,
  TryStatement,
  ExceptClause,
  ExceptGroupClause,
  FinallyClause,
  WithStatement,
  WithClause,
  WithItem,
  MatchStatement,
  CaseClause,
  AssertStatement,
  RaiseStatement,
  ReturnStatement,
  GlobalStatement,
  NonlocalStatement,
  DeleteStatement,
  PassStatement,
  BreakStatement,
  ContinueStatement,
  // expressions
  Assignment,
  AugmentedAssignment,
  NamedExpression,
  Identifier,
  Attribute,
  Call,
  ArgumentList,
  KeywordArgument,
  ListSplat,
  DictionarySplat,
  Subscript,
  Slice,
  String,
  StringStart,
  StringContent,
  StringEnd,
  Interpolation,
  FormatSpecifier,
  FormatExpression,
  TypeConversion,
  ConcatenatedString,
  Integer,
  Float,
  True,
  False,
  None,
  Ellipsis,
  List,
  Tuple,
  Set,
  Dictionary,
  Pair,
  ParenthesizedExpression,
  ExpressionList,
  PatternList,
  TuplePattern,
  ListPattern,
  BinaryOperator,
  UnaryOperator,
  NotOperator,
  ComparisonOperator,
  BooleanOperator,
  ConditionalExpression,
  Lambda,
  Await,
  AsPattern,
  AsPatternTarget,
  GeneratorExpression,
  ListComprehension,
  SetComprehension,
  DictionaryComprehension,
  Type,
  Count_
};

namespace detail {
// Indexed by every TSSymbol value: no bounds test, and ts_builtin_sym_error (the 0xFFFF of an
// ERROR node) holds K::Error. Filled once by fillKinds() before `kindsReady` is set; kind() is
// called about a million times per 60 corpus solutions, so it reads the table inline rather than
// through a function-local static's guard.
extern std::array<K, 0x10000> kinds;
extern std::atomic<bool> kindsReady;
void fillKinds();
} // namespace detail

// Every helper accepts a null node (an absent field in an ERROR-recovered tree): the
// tree-sitter accessors dereference it. The test is tree-sitter's own ts_node_is_null (`id == 0`)
// written inline: it runs a few million times per 60 corpus solutions, each a call otherwise.
inline bool isNull(TSNode n) { return n.id == nullptr; }

/// Kind of a node; anonymous tokens ("is", "+", "(") are K::Other, use tokenType() for those.
inline K kind(TSNode n) {
  if (isNull(n))
    return K::Other;
  if (!detail::kindsReady.load(std::memory_order_acquire))
    detail::fillKinds();
  return detail::kinds[ts_node_symbol(n)];
}
/// The grammar's type name, for anonymous tokens such as operators ("is not", "+=").
inline std::string_view tokenType(TSNode n) { return isNull(n) ? std::string_view() : ts_node_type(n); }

enum class F : uint8_t {
  Name, Value, Left, Right, Operator, Function, Arguments, Object, AttributeF, Body,
  Condition, Consequence, Alternative, Parameters, Superclasses, Definition, Subject,
  ModuleName, Alias, Expression, FormatSpecifier, TypeConversion, Subscript, Argument,
  Type, ReturnType, Count_
};
TSNode field(TSNode n, F f);

inline uint32_t startByte(TSNode n) { return isNull(n) ? 0 : ts_node_start_byte(n); }
inline uint32_t endByte(TSNode n) { return isNull(n) ? 0 : ts_node_end_byte(n); }
inline unsigned firstLine(TSNode n) { return isNull(n) ? 0 : ts_node_start_point(n).row + 1; }
inline unsigned lastLine(TSNode n) {
  if (isNull(n))
    return 0;
  // A node ending at column 0 (a block swallowing the newline) really ends on the line before.
  TSPoint e = ts_node_end_point(n);
  TSPoint s = ts_node_start_point(n);
  if (e.column == 0 && e.row > s.row)
    return e.row;
  return e.row + 1;
}
inline LineRange lines(TSNode n) { return LineRange{firstLine(n), lastLine(n)}; }
inline LineRange span(TSNode a, TSNode b) { return LineRange{firstLine(a), lastLine(b)}; }

/// A key identifying a node within one tree, usable in hash maps (span + symbol).
struct NodeKey {
  uint32_t start = 0, end = 0;
  uint16_t symbol = 0;
  friend bool operator==(const NodeKey &, const NodeKey &) = default;
};
inline NodeKey key(TSNode n) { return {startByte(n), endByte(n), isNull(n) ? uint16_t(0) : ts_node_symbol(n)}; }
struct NodeKeyHash {
  size_t operator()(const NodeKey &k) const {
    return (static_cast<size_t>(k.start) * 0x9E3779B97F4A7C15ull) ^ (static_cast<size_t>(k.end) << 17) ^
           k.symbol;
  }
};

/// NodeKey as an llvm::DenseMap key: no allocation per entry, unlike std::unordered_map's nodes.
/// The empty and tombstone keys end at bytes 2^32 - 1 and 2^32 - 2: only a 4 GiB file has them.
struct NodeKeyInfo {
  static NodeKey getEmptyKey() { return {~uint32_t(0), ~uint32_t(0), 0}; }
  static NodeKey getTombstoneKey() { return {~uint32_t(0) - 1, ~uint32_t(0) - 1, 0}; }
  static unsigned getHashValue(const NodeKey &k) { return static_cast<unsigned>(NodeKeyHash()(k) >> 7); }
  static bool isEqual(const NodeKey &a, const NodeKey &b) { return a == b; }
};

using Children = llvm::SmallVector<TSNode, 8>;
/// All children (named and anonymous) in order.
Children children(TSNode n);
/// Named children in order, without comments.
Children namedChildren(TSNode n);

/// While one lives, children(), namedChildren() and field() of `tree`'s nodes on this thread
/// remember their answers: the front end's walkers (the extractor, each def's reads, each
/// summarised expression's names, the evaluator) list the same nodes again and again, and a
/// tree-sitter cursor step costs hundreds of instructions. The tree must outlive it (it keys on
/// node ids, which are addresses inside the tree); one per thread at a time, innermost wins.
class NodeMemo {
public:
  explicit NodeMemo(const TSTree *tree);
  ~NodeMemo();
  NodeMemo(const NodeMemo &) = delete;
  NodeMemo &operator=(const NodeMemo &) = delete;

  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
  Impl *outer_; ///< the memo this one hides, restored when it ends
};

/// Source text of a node.
inline llvm::StringRef text(TSNode n, llvm::StringRef src) {
  if (isNull(n))
    return {};
  uint32_t b = startByte(n), e = endByte(n);
  if (b > src.size() || e > src.size() || e < b)
    return {};
  return src.slice(b, e);
}

/// Truncates to at most `max` bytes without splitting a UTF-8 sequence.
std::string truncated(llvm::StringRef s, size_t max = 512);

/// Strips enclosing parentheses: `((x))` -> `x`.
TSNode unparenSlow(TSNode n, unsigned limit);
inline TSNode unparen(TSNode n, unsigned limit = 64) {
  // Most nodes asked about are not parenthesised: answer those without a call.
  return kind(n) == K::ParenthesizedExpression ? unparenSlow(n, limit) : n;
}

} // namespace kbaudit::py::ts
