#include "expr_names.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <forward_list>

namespace kbaudit::py {

using ts::F;
using ts::K;

namespace {

// A deeper expression or more names than this are unusual in a solution; past them the reader is
// told the list is a prefix rather than handed a list that looks complete.
constexpr unsigned kMaxDepth = 128;
constexpr std::size_t kMaxNames = 1024;

class Collector {
public:
  Collector(llvm::StringRef src, ReadNames &out) : src_(src), out_(out) {}

  void walk(TSNode n, unsigned depth) {
    if (ts::isNull(n) || out_.truncated)
      return;
    if (depth > kMaxDepth) {
      out_.truncated = true;
      return;
    }
    switch (ts::kind(n)) {
    case K::Identifier:
      if (!isBound(ts::text(n, src_)))
        add(ts::text(n, src_));
      return;
    case K::Attribute:
      if (addChain(n))
        return;
      walk(ts::field(n, F::Object), depth + 1); // the attribute's own name is read from the object
      return;
    case K::KeywordArgument:
      walk(ts::field(n, F::Value), depth + 1); // the keyword is a parameter name, not a read
      return;
    case K::Comment:
      return;
    case K::String:
      // Only an f-string's interpolations read names; the literal text never does.
      for (TSNode c : ts::namedChildren(n))
        if (ts::kind(c) == K::Interpolation)
          walk(ts::field(c, F::Expression), depth + 1);
      return;
    case K::Lambda:
      walkScope(ts::field(n, F::Parameters), ts::field(n, F::Body), depth);
      return;
    case K::ListComprehension:
    case K::SetComprehension:
    case K::DictionaryComprehension:
    case K::GeneratorExpression:
      walkComprehension(n, depth);
      return;
    default:
      for (TSNode c : ts::namedChildren(n))
        walk(c, depth + 1);
    }
  }

  /// The names found, as the strings ReadNames holds.
  void finish() {
    out_.names.reserve(names_.size());
    for (llvm::StringRef name : names_)
      out_.names.push_back(name.str());
  }

private:
  // Names are pieces of the source (an identifier, a chain written without spaces) or of
  // `spelled_`, and become strings once, at the end: the walk copies no string per name.
  void add(llvm::StringRef name) {
    if (name.empty() || llvm::is_contained(names_, name))
      return;
    if (names_.size() >= kMaxNames) {
      out_.truncated = true;
      return;
    }
    names_.push_back(name);
  }

  /// For a dotted chain `a.b.c`: "a", "a.b", "a.b.c", unless `a` is a parameter of an enclosing
  /// lambda or comprehension (then only what the chain's root reads, which is nothing outside).
  /// False when `n` is not a chain of names.
  bool addChain(TSNode n) {
    llvm::SmallVector<llvm::StringRef, 8> attrs; // outermost first
    TSNode cur = n;
    while (ts::kind(cur) == K::Attribute) {
      attrs.push_back(ts::text(ts::field(cur, F::AttributeF), src_));
      cur = ts::field(cur, F::Object);
    }
    if (ts::kind(cur) != K::Identifier)
      return false;
    const llvm::StringRef head = ts::text(cur, src_);
    if (isBound(head))
      return true;
    std::size_t length = head.size();
    for (llvm::StringRef a : attrs)
      length += 1 + a.size();
    // Written as the chain spells it (`a.b.c`, no space or comment between the links): its
    // prefixes are pieces of the source. Otherwise spell it once, here.
    llvm::StringRef chain = ts::text(n, src_);
    if (chain.size() != length) {
      std::string &spelled = spelled_.emplace_front(head.str());
      for (auto it = attrs.rbegin(); it != attrs.rend(); ++it) {
        spelled += '.';
        spelled += *it;
      }
      chain = spelled;
    }
    std::size_t at = head.size();
    add(chain.take_front(at));
    for (auto it = attrs.rbegin(); it != attrs.rend(); ++it) {
      at += 1 + it->size();
      add(chain.take_front(at));
    }
    return true;
  }

  bool isBound(llvm::StringRef name) const { return llvm::is_contained(bound_, name); }

  /// Every identifier a parameter list or a loop target binds (defaults are read outside).
  void bindTargets(TSNode n, std::vector<TSNode> &defaults) {
    if (ts::isNull(n))
      return;
    switch (ts::kind(n)) {
    case K::Identifier:
      bound_.push_back(ts::text(n, src_));
      return;
    case K::DefaultParameter:
    case K::TypedDefaultParameter:
      bindTargets(ts::field(n, F::Name), defaults);
      defaults.push_back(ts::field(n, F::Value));
      return;
    default:
      for (TSNode c : ts::namedChildren(n))
        bindTargets(c, defaults);
    }
  }

  void walkScope(TSNode parameters, TSNode body, unsigned depth) {
    const std::size_t mark = bound_.size();
    std::vector<TSNode> defaults;
    bindTargets(parameters, defaults);
    const llvm::SmallVector<llvm::StringRef, 8> inner(bound_.begin() + static_cast<std::ptrdiff_t>(mark),
                                                      bound_.end());
    bound_.resize(mark);
    for (TSNode d : defaults)
      walk(d, depth + 1);
    bound_.append(inner.begin(), inner.end());
    walk(body, depth + 1);
    bound_.resize(mark);
  }

  /// The first iterable is read outside the comprehension; its loop targets are bound in the
  /// rest (later iterables, conditions, the body).
  void walkComprehension(TSNode n, unsigned depth) {
    const std::size_t mark = bound_.size();
    bool first = true;
    std::vector<TSNode> rest;
    for (TSNode c : ts::namedChildren(n)) {
      if (ts::tokenType(c) != "for_in_clause") {
        rest.push_back(c);
        continue;
      }
      if (first)
        walk(ts::field(c, F::Right), depth + 1);
      else
        rest.push_back(ts::field(c, F::Right));
      first = false;
      std::vector<TSNode> unused;
      bindTargets(ts::field(c, F::Left), unused);
    }
    for (TSNode c : rest)
      walk(c, depth + 1);
    bound_.resize(mark);
  }

  llvm::StringRef src_;
  ReadNames &out_;
  llvm::SmallVector<llvm::StringRef, 16> names_;
  /// Chains not written as they are spelled; a list, as a name points into its strings (and,
  /// unlike std::deque, it allocates nothing while empty, as it nearly always is).
  std::forward_list<std::string> spelled_;
  llvm::SmallVector<llvm::StringRef, 8> bound_;
};

/// The root name of the chain `n` is and the links after it, outwards; an empty root (and no
/// links) when the chain starts at something else.
void chainOf(TSNode n, llvm::StringRef src, ReadNames &out) {
  std::vector<ChainLink> links; // innermost last while walking down
  for (unsigned i = 0; i < kMaxDepth && !ts::isNull(n); ++i) {
    n = ts::unparen(n);
    switch (ts::kind(n)) {
    case K::Identifier:
      out.root = ts::text(n, src).str();
      out.chain.assign(links.rbegin(), links.rend());
      return;
    case K::Attribute:
      links.push_back({ChainLink::Kind::Attribute, ts::text(ts::field(n, F::AttributeF), src).str()});
      n = ts::field(n, F::Object);
      break;
    case K::Subscript:
      links.push_back({ChainLink::Kind::Subscript, {}});
      n = ts::field(n, F::Value);
      break;
    case K::Call:
      links.push_back({ChainLink::Kind::Call, {}});
      n = ts::field(n, F::Function);
      break;
    default:
      return;
    }
  }
}

} // namespace

ReadNames readNames(TSNode n, llvm::StringRef src) {
  ReadNames out;
  Collector names(src, out);
  names.walk(n, 0);
  names.finish();
  chainOf(n, src, out);
  return out;
}

} // namespace kbaudit::py
