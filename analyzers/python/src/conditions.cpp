#include "conditions.h"

#include <llvm/ADT/STLExtras.h>

#include <algorithm>
#include <bitset>

namespace kbaudit::py {

using ts::K;

namespace {

constexpr size_t kMaxConditionNodes = 4096;

llvm::StringRef lastSegment(llvm::StringRef dotted) {
  size_t dot = dotted.rfind('.');
  return dot == llvm::StringRef::npos ? dotted : dotted.drop_front(dot + 1);
}

bool startsWithName(llvm::StringRef dotted, llvm::StringRef prefix) {
  return dotted == prefix || (dotted.startswith(prefix) && dotted.size() > prefix.size() &&
                              dotted[prefix.size()] == '.');
}

class Analyzer {
public:
  Analyzer(const ConditionContext &ctx, Resolver &resolver, llvm::StringRef src)
      : ctx_(ctx), resolver_(resolver), src_(src) {}

  ConditionSummary run(TSNode test) {
    mainGuard_ = ctx_.moduleLevel && isMainGuard(test);
    llvm::SmallVector<TSNode, 32> stack{test};
    size_t visited = 0;
    while (!stack.empty() && visited++ < kMaxConditionNodes) {
      TSNode n = stack.pop_back_val();
      visit(n, stack);
    }
    ConditionSummary s;
    for (size_t i = 0; i < tags_.size(); ++i)
      if (tags_[i])
        s.tags.push_back(static_cast<ConditionTag>(i));
    s.calls = std::move(calls_);
    s.names = std::move(names_);
    return s;
  }

private:
  const ConditionContext &ctx_;
  Resolver &resolver_;
  llvm::StringRef src_;
  std::bitset<16> tags_;
  std::vector<std::string> calls_, names_;
  bool mainGuard_ = false;

  void tag(ConditionTag t) { tags_.set(static_cast<size_t>(t)); }

  static void addUnique(std::vector<std::string> &v, std::string s) {
    if (!llvm::is_contained(v, s))
      v.push_back(std::move(s));
  }

  bool isMainGuard(TSNode test) const {
    TSNode t = ts::unparen(test);
    if (ts::kind(t) != K::ComparisonOperator)
      return false;
    ts::Children ops = ts::namedChildren(t);
    if (ops.size() != 2)
      return false;
    llvm::StringRef a = ts::text(ops[0], src_), b = ts::text(ops[1], src_);
    auto isMain = [](llvm::StringRef s) { return s == "\"__main__\"" || s == "'__main__'"; };
    return (a == "__name__" && isMain(b)) || (b == "__name__" && isMain(a));
  }

  void checkResolved(llvm::StringRef r) {
    if (startsWithName(r, "os.environ") || startsWithName(r, "os.getenv") || startsWithName(r, "os.putenv"))
      tag(ConditionTag::Environment);
    if (startsWithName(r, "inspect") || startsWithName(r, "traceback") || startsWithName(r, "sys._getframe") ||
        startsWithName(r, "sys.argv") || startsWithName(r, "sys.orig_argv"))
      tag(ConditionTag::CallerFrame);
    if (startsWithName(r, "torch.cuda") || startsWithName(r, "torch.version.cuda") ||
        startsWithName(r, "torch.version.hip"))
      tag(ConditionTag::Device);
  }

  void checkAttribute(llvm::StringRef attr) {
    if (attr == "shape" || attr == "ndim")
      tag(ConditionTag::Shape);
    else if (attr == "dtype")
      tag(ConditionTag::Dtype);
    else if (attr == "device" || attr == "is_cuda" || attr == "is_cpu")
      tag(ConditionTag::Device);
    else if (attr == "_version")
      tag(ConditionTag::Version);
  }

  void checkMethod(llvm::StringRef m, bool builtin) {
    static const llvm::StringRef shape[] = {"size", "numel", "dim", "stride", "nelement", "is_contiguous"};
    static const llvm::StringRef magnitude[] = {"abs",  "max",    "amax",     "min",      "amin",    "norm",
                                                "mean", "sum",    "std",      "var",      "item",    "isnan",
                                                "isinf", "isfinite", "allclose", "isclose", "any",    "all",
                                                "equal", "count_nonzero", "nan_to_num"};
    static const llvm::StringRef device[] = {"is_available", "get_device_capability", "get_device_name",
                                             "device_count", "get_device_properties", "current_device",
                                             "get_arch_list"};
    if (builtin && m == "len") {
      tag(ConditionTag::Shape);
      return;
    }
    if (builtin && m == "id") {
      tag(ConditionTag::Identity);
      return;
    }
    if (llvm::is_contained(shape, m))
      tag(ConditionTag::Shape);
    // Builtin max/min/abs/any/all on Python numbers are shape arithmetic, not data tests.
    if (llvm::is_contained(magnitude, m) && !builtin)
      tag(ConditionTag::Magnitude);
    if (m == "data_ptr")
      tag(ConditionTag::Pointer);
    if (llvm::is_contained(device, m))
      tag(ConditionTag::Device);
    if (m == "is_floating_point" || m == "is_complex")
      tag(ConditionTag::Dtype);
  }

  /// A name or attribute chain that is read (not called).
  void chain(TSNode n, llvm::SmallVectorImpl<TSNode> &stack) {
    // Walk to the head, checking attribute names on the way.
    TSNode cur = n;
    llvm::StringRef firstAttr; // attribute directly on the head
    while (ts::kind(cur) == K::Attribute) {
      firstAttr = ts::text(ts::field(cur, ts::F::AttributeF), src_);
      checkAttribute(firstAttr);
      cur = ts::field(cur, ts::F::Object);
    }
    if (ts::kind(cur) != K::Identifier) {
      stack.push_back(cur); // a call or subscript underneath: analyse it on its own
      return;
    }
    Resolution r = resolver_.resolve(n, ctx_.scope);
    addUnique(names_, r.resolved);
    checkResolved(r.resolved);
    llvm::StringRef head = ts::text(cur, src_);
    if (!ctx_.selfName.empty() && head == ctx_.selfName && cur.id != n.id) {
      tag(ConditionTag::Attribute);
      if (ctx_.classIncrements && ctx_.classIncrements->contains(firstAttr))
        tag(ConditionTag::CallCounter);
    }
    if (head == "__main__" && !mainGuard_)
      tag(ConditionTag::CallerFrame);
    if (!r.throughImport && cur.id == n.id && ctx_.moduleIncrements && ctx_.moduleIncrements->contains(head))
      tag(ConditionTag::CallCounter);
  }

  void visit(TSNode n, llvm::SmallVectorImpl<TSNode> &stack) {
    switch (ts::kind(n)) {
    case K::Identifier:
    case K::Attribute:
      chain(n, stack);
      return;
    case K::Call: {
      TSNode fn = ts::field(n, ts::F::Function);
      Resolution r = resolver_.resolve(fn, ctx_.scope);
      addUnique(calls_, r.resolved);
      checkResolved(r.resolved);
      // Push in reverse so the receiver and then the arguments are visited in source order.
      ts::Children args = ts::namedChildren(ts::field(n, ts::F::Arguments));
      for (auto it = args.rbegin(); it != args.rend(); ++it)
        stack.push_back(ts::kind(*it) == K::KeywordArgument ? ts::field(*it, ts::F::Value) : *it);
      if (ts::kind(fn) == K::Attribute) {
        checkMethod(ts::text(ts::field(fn, ts::F::AttributeF), src_), false);
        // The receiver is a value read (`x` in `x.abs()`), unless it is a module path
        // (`torch` in `torch.isnan(x)`), which the resolved callee already names.
        TSNode obj = ts::field(fn, ts::F::Object);
        Resolution ro = resolver_.resolve(obj, ctx_.scope);
        if (!(ro.pure && ro.throughImport))
          stack.push_back(obj);
      } else if (ts::kind(fn) == K::Identifier) {
        checkMethod(lastSegment(r.resolved), isBuiltinCall(r, ts::text(fn, src_)));
      } else {
        stack.push_back(fn);
      }
      return;
    }
    case K::ComparisonOperator: {
      ts::Children kids = ts::children(n);
      for (auto it = kids.rbegin(); it != kids.rend(); ++it)
        if (ts_node_is_named(*it))
          stack.push_back(*it);
      TSNode prev{};
      for (size_t i = 0; i < kids.size(); ++i) {
        TSNode c = kids[i];
        if (ts_node_is_named(c)) {
          prev = c;
          continue;
        }
        llvm::StringRef op = ts::tokenType(c);
        if ((op == "is" || op == "is not") && !ts::isNull(prev) && i + 1 < kids.size() &&
            !isSingletonOperand(prev, src_) && !isSingletonOperand(kids[i + 1], src_))
          tag(ConditionTag::Identity);
      }
      return;
    }
    case K::String: {
      llvm::StringRef t = ts::text(n, src_);
      if (t.contains("__main__") && !mainGuard_)
        tag(ConditionTag::CallerFrame);
      ts::Children kids = ts::namedChildren(n);
      for (auto it = kids.rbegin(); it != kids.rend(); ++it)
        if (ts::kind(*it) == K::Interpolation)
          stack.push_back(ts::field(*it, ts::F::Expression));
      return;
    }
    case K::KeywordArgument:
      stack.push_back(ts::field(n, ts::F::Value));
      return;
    case K::Lambda:
      stack.push_back(ts::field(n, ts::F::Body));
      return;
    default: {
      ts::Children kids = ts::namedChildren(n);
      for (auto it = kids.rbegin(); it != kids.rend(); ++it)
        stack.push_back(*it);
    }
    }
  }
};

} // namespace

bool isSingletonOperand(TSNode n, llvm::StringRef src) {
  n = ts::unparen(n);
  switch (ts::kind(n)) {
  case K::None:
  case K::True:
  case K::False:
  case K::Ellipsis:
    return true;
  case K::Identifier: {
    llvm::StringRef t = ts::text(n, src);
    return t == "NotImplemented" || t == "None" || t == "True" || t == "False";
  }
  default:
    return false;
  }
}

ConditionSummary analyzeCondition(TSNode test, const ConditionContext &ctx, Resolver &resolver, llvm::StringRef src) {
  if (ts::isNull(test))
    return {};
  return Analyzer(ctx, resolver, src).run(test);
}

} // namespace kbaudit::py
