#include "tree.h"

#include <llvm/ADT/DenseMap.h>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

namespace kbaudit::py::ts {
namespace {

struct KindName {
  K kind;
  const char *name;
};

constexpr KindName kKindNames[] = {
    {K::Error, "ERROR"},
    {K::Module, "module"},
    {K::Block, "block"},
    {K::Comment, "comment"},
    {K::ExpressionStatement, "expression_statement"},
    {K::ImportStatement, "import_statement"},
    {K::ImportFromStatement, "import_from_statement"},
    {K::FutureImportStatement, "future_import_statement"},
    {K::AliasedImport, "aliased_import"},
    {K::DottedName, "dotted_name"},
    {K::RelativeImport, "relative_import"},
    {K::ImportPrefix, "import_prefix"},
    {K::WildcardImport, "wildcard_import"},
    {K::FunctionDefinition, "function_definition"},
    {K::ClassDefinition, "class_definition"},
    {K::DecoratedDefinition, "decorated_definition"},
    {K::Decorator, "decorator"},
    {K::Parameters, "parameters"},
    {K::LambdaParameters, "lambda_parameters"},
    {K::DefaultParameter, "default_parameter"},
    {K::TypedParameter, "typed_parameter"},
    {K::TypedDefaultParameter, "typed_default_parameter"},
    {K::ListSplatPattern, "list_splat_pattern"},
    {K::DictionarySplatPattern, "dictionary_splat_pattern"},
    {K::IfStatement, "if_statement"},
    {K::ElifClause, "elif_clause"},
    {K::ElseClause, "else_clause"},
    {K::WhileStatement, "while_statement"},
    {K::ForStatement, "for_statement"},
    {K::TryStatement, "try_statement"},
    {K::ExceptClause, "except_clause"},
    {K::ExceptGroupClause, "except_group_clause"},
    {K::FinallyClause, "finally_clause"},
    {K::WithStatement, "with_statement"},
    {K::WithClause, "with_clause"},
    {K::WithItem, "with_item"},
    {K::MatchStatement, "match_statement"},
    {K::CaseClause, "case_clause"},
    {K::AssertStatement, "assert_statement"},
    {K::RaiseStatement, "raise_statement"},
    {K::ReturnStatement, "return_statement"},
    {K::GlobalStatement, "global_statement"},
    {K::NonlocalStatement, "nonlocal_statement"},
    {K::DeleteStatement, "delete_statement"},
    {K::PassStatement, "pass_statement"},
    {K::BreakStatement, "break_statement"},
    {K::ContinueStatement, "continue_statement"},
    {K::Assignment, "assignment"},
    {K::AugmentedAssignment, "augmented_assignment"},
    {K::NamedExpression, "named_expression"},
    {K::Identifier, "identifier"},
    {K::Attribute, "attribute"},
    {K::Call, "call"},
    {K::ArgumentList, "argument_list"},
    {K::KeywordArgument, "keyword_argument"},
    {K::ListSplat, "list_splat"},
    {K::DictionarySplat, "dictionary_splat"},
    {K::Subscript, "subscript"},
    {K::Slice, "slice"},
    {K::String, "string"},
    {K::StringStart, "string_start"},
    {K::StringContent, "string_content"},
    {K::StringEnd, "string_end"},
    {K::Interpolation, "interpolation"},
    {K::FormatSpecifier, "format_specifier"},
    {K::FormatExpression, "format_expression"},
    {K::TypeConversion, "type_conversion"},
    {K::ConcatenatedString, "concatenated_string"},
    {K::Integer, "integer"},
    {K::Float, "float"},
    {K::True, "true"},
    {K::False, "false"},
    {K::None, "none"},
    {K::Ellipsis, "ellipsis"},
    {K::List, "list"},
    {K::Tuple, "tuple"},
    {K::Set, "set"},
    {K::Dictionary, "dictionary"},
    {K::Pair, "pair"},
    {K::ParenthesizedExpression, "parenthesized_expression"},
    {K::ExpressionList, "expression_list"},
    {K::PatternList, "pattern_list"},
    {K::TuplePattern, "tuple_pattern"},
    {K::ListPattern, "list_pattern"},
    {K::BinaryOperator, "binary_operator"},
    {K::UnaryOperator, "unary_operator"},
    {K::NotOperator, "not_operator"},
    {K::ComparisonOperator, "comparison_operator"},
    {K::BooleanOperator, "boolean_operator"},
    {K::ConditionalExpression, "conditional_expression"},
    {K::Lambda, "lambda"},
    {K::Await, "await"},
    {K::AsPattern, "as_pattern"},
    {K::AsPatternTarget, "as_pattern_target"},
    {K::GeneratorExpression, "generator_expression"},
    {K::ListComprehension, "list_comprehension"},
    {K::SetComprehension, "set_comprehension"},
    {K::DictionaryComprehension, "dictionary_comprehension"},
    {K::Type, "type"},
};

constexpr std::array<const char *, static_cast<size_t>(F::Count_)> kFieldNames = {
    "name", "value", "left", "right", "operator", "function", "arguments", "object", "attribute",
    "body", "condition", "consequence", "alternative", "parameters", "superclasses", "definition",
    "subject", "module_name", "alias", "expression", "format_specifier", "type_conversion",
    "subscript", "argument", "type", "return_type"};

// The field ids by F, read by field(); set by fillKinds() before kindsReady.
std::array<TSFieldId, static_cast<size_t>(F::Count_)> gFields{};

void buildTables(std::array<K, 0x10000> &kinds) {
  const TSLanguage *lang = tree_sitter_python();
  uint32_t count = std::min<uint32_t>(ts_language_symbol_count(lang), 0xFFFF);
  kinds[static_cast<TSSymbol>(-1)] = K::Error; // ts_builtin_sym_error
  // Map by name rather than by ts_language_symbol_for_name: aliased symbols (e.g. the
  // soft keywords surfacing as `identifier`) have distinct ids with the same name.
  for (uint32_t s = 0; s < count; ++s) {
    if (ts_language_symbol_type(lang, static_cast<TSSymbol>(s)) != TSSymbolTypeRegular)
      continue;
    llvm::StringRef name = ts_language_symbol_name(lang, static_cast<TSSymbol>(s));
    for (const auto &kn : kKindNames)
      if (name == kn.name) {
        kinds[s] = kn.kind;
        break;
      }
  }
  for (size_t i = 0; i < kFieldNames.size(); ++i)
    gFields[i] = ts_language_field_id_for_name(lang, kFieldNames[i],
                                               static_cast<uint32_t>(std::char_traits<char>::length(kFieldNames[i])));
}

// One cursor per thread, reset for every child listing: creating a cursor allocates.
struct CursorHolder {
  TSTreeCursor cursor;
  bool live = false;
  ~CursorHolder() {
    if (live)
      ts_tree_cursor_delete(&cursor);
  }
  TSTreeCursor &at(TSNode n) {
    if (!live) {
      cursor = ts_tree_cursor_new(n);
      live = true;
    } else {
      ts_tree_cursor_reset(&cursor, n);
    }
    return cursor;
  }
};

thread_local CursorHolder tlCursor;

// Up to this many named children, listed by index (60 corpus runs: 3,427.0 M instructions by
// cursor only, 3,403.2 M up to 2, 3,399.1 M up to 4, 3,396.8 M up to 8; 4 keeps the quadratic
// term small on nodes the corpus does not have).
constexpr uint32_t kIndexedUpTo = 4;

template <bool NamedOnly, typename Out> void listChildren(TSNode n, Out &out) {
  if constexpr (NamedOnly) {
    // A node with a few named children (most of them: calls' argument lists, attributes,
    // binary operators) lists faster by index than by cursor: a cursor step costs several
    // hundred instructions through the grammar's hidden supertype nodes, and indexing is linear
    // in the index only, so it stays cheap while the count is small.
    const uint32_t count = ts_node_named_child_count(n);
    if (count <= kIndexedUpTo) {
      for (uint32_t i = 0; i < count; ++i) {
        TSNode child = ts_node_named_child(n, i);
        if (kind(child) != K::Comment)
          out.push_back(child);
      }
      return;
    }
  }
  TSTreeCursor &c = tlCursor.at(n);
  if (!ts_tree_cursor_goto_first_child(&c))
    return;
  do {
    TSNode child = ts_tree_cursor_current_node(&c);
    if constexpr (NamedOnly) {
      if (!ts_node_is_named(child) || kind(child) == K::Comment)
        continue;
    }
    out.push_back(child);
  } while (ts_tree_cursor_goto_next_sibling(&c));
}

thread_local NodeMemo::Impl *tlMemo = nullptr;

} // namespace

struct NodeMemo::Impl {
  explicit Impl(const TSTree *t) : tree(t) {}

  const TSTree *tree;
  // A listing is a stretch of `nodes`: the node's children, or its named ones.
  struct Stretch {
    uint32_t begin = 0, size = 0;
  };
  llvm::DenseMap<const void *, Stretch> all, named;
  // Keyed by the node id and the field in one word (ids are 8-byte aligned addresses, well
  // under 2^59), hashed by one multiplication: DenseMapInfo of a pair hashes both and combines,
  // and DenseMapInfo<uint64_t>'s `key * 37` leaves the low bits (the bucket) to the field alone.
  struct FieldKeyInfo {
    static uint64_t getEmptyKey() { return ~uint64_t(0); }
    static uint64_t getTombstoneKey() { return ~uint64_t(0) - 1; }
    static unsigned getHashValue(uint64_t k) { return static_cast<unsigned>((k * 0x9E3779B97F4A7C15ull) >> 32); }
    static bool isEqual(uint64_t a, uint64_t b) { return a == b; }
  };
  llvm::DenseMap<uint64_t, TSNode, FieldKeyInfo> fields;
  static uint64_t fieldKey(TSNode n, F f) {
    static_assert(static_cast<unsigned>(F::Count_) <= 32);
    return (static_cast<uint64_t>(reinterpret_cast<uintptr_t>(n.id)) << 2) | static_cast<uint64_t>(f);
  }
  std::vector<TSNode> nodes;

  template <bool NamedOnly> Children list(TSNode n) {
    auto [it, fresh] = (NamedOnly ? named : all).try_emplace(n.id);
    if (fresh) {
      const auto begin = static_cast<uint32_t>(nodes.size());
      listChildren<NamedOnly>(n, nodes);
      it->second = Stretch{begin, static_cast<uint32_t>(nodes.size()) - begin};
    }
    const TSNode *first = nodes.data() + it->second.begin;
    return Children(first, first + it->second.size);
  }
};

NodeMemo::NodeMemo(const TSTree *tree) : impl_(std::make_unique<Impl>(tree)), outer_(tlMemo) { tlMemo = impl_.get(); }

NodeMemo::~NodeMemo() { tlMemo = outer_; }

namespace {

template <bool NamedOnly> Children childrenOf(TSNode n) {
  Children out;
  if (isNull(n) || ts_node_child_count(n) == 0)
    return out;
  if (NodeMemo::Impl *memo = tlMemo; memo && memo->tree == n.tree)
    return memo->list<NamedOnly>(n);
  listChildren<NamedOnly>(n, out);
  return out;
}

} // namespace

namespace detail {

std::array<K, 0x10000> kinds{};
std::atomic<bool> kindsReady{false};

void fillKinds() {
  // Built once, by whichever thread asks first; the others wait on the static's guard.
  static const bool filled = [] {
    buildTables(kinds);
    return true;
  }();
  (void)filled;
  kindsReady.store(true, std::memory_order_release);
}

} // namespace detail

TSNode field(TSNode n, F f) {
  if (isNull(n))
    return n;
  if (!detail::kindsReady.load(std::memory_order_acquire))
    detail::fillKinds();
  TSFieldId id = gFields[static_cast<size_t>(f)];
  if (id == 0) {
    TSNode null{};
    return null;
  }
  if (NodeMemo::Impl *memo = tlMemo; memo && memo->tree == n.tree) {
    auto [it, fresh] = memo->fields.try_emplace(NodeMemo::Impl::fieldKey(n, f));
    if (fresh)
      it->second = ts_node_child_by_field_id(n, id);
    return it->second;
  }
  return ts_node_child_by_field_id(n, id);
}

Children children(TSNode n) { return childrenOf<false>(n); }
Children namedChildren(TSNode n) { return childrenOf<true>(n); }

std::string truncated(llvm::StringRef s, size_t max) {
  if (s.size() <= max)
    return s.str();
  size_t cut = max;
  // Back up over UTF-8 continuation bytes so the result stays valid.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
    --cut;
  return s.take_front(cut).str();
}

TSNode unparenSlow(TSNode n, unsigned limit) {
  while (limit-- > 0 && kind(n) == K::ParenthesizedExpression) {
    Children c = namedChildren(n);
    if (c.size() != 1)
      break;
    n = c[0];
  }
  return n;
}

} // namespace kbaudit::py::ts
