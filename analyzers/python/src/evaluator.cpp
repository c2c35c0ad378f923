#include "evaluator.h"

#include "formatting.h"
#include "string_literal.h"
#include "string_value_ops.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>

namespace kbaudit::py {

using ts::K;

namespace {

constexpr unsigned kMaxEvalDepth = 64;
// Folding `"x" * n` or huge joins must not turn a small file into gigabytes.
constexpr size_t kMaxFoldedBytes = 16u << 20;
constexpr size_t kMaxSeqItems = 4096;
constexpr size_t kMaxSpine = 100000;

ValuePtr makeStr(StringValue s) {
  auto v = std::make_shared<Value>();
  v->kind = Value::Kind::Str;
  v->str = std::move(s);
  return v;
}

ValuePtr makeNum(double d, bool isInt) {
  auto v = std::make_shared<Value>();
  v->kind = Value::Kind::Num;
  v->num = d;
  v->isInt = isInt;
  return v;
}

ValuePtr parseNumber(llvm::StringRef text) {
  std::string s;
  for (char c : text)
    if (c != '_')
      s.push_back(c);
  if (s.empty() || s.back() == 'j' || s.back() == 'J')
    return unknownValue(); // imaginary
  if (s.back() == 'l' || s.back() == 'L')
    s.pop_back(); // Python 2 long
  llvm::StringRef r(s);
  auto asInt = [&](llvm::StringRef digits, unsigned radix) -> ValuePtr {
    unsigned long long u = 0;
    if (digits.getAsInteger(radix, u))
      return unknownValue();
    return makeNum(static_cast<double>(u), true);
  };
  if (r.size() > 2 && r[0] == '0') {
    char p = static_cast<char>(llvm::toLower(r[1]));
    if (p == 'x')
      return asInt(r.drop_front(2), 16);
    if (p == 'o')
      return asInt(r.drop_front(2), 8);
    if (p == 'b')
      return asInt(r.drop_front(2), 2);
  }
  if (r.find_first_of(".eE") == llvm::StringRef::npos)
    return asInt(r, 10);
  char *end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size())
    return unknownValue();
  return makeNum(d, false);
}

bool isIntegral(const Value &v) { return v.isNum() && v.isInt; }

double pyFloorMod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0 && ((m < 0) != (b < 0)))
    m += b;
  return m;
}

ValuePtr numeric(llvm::StringRef op, const Value &a, const Value &b) {
  auto num = [](const Value &v) { return v.kind == Value::Kind::Bool ? (v.boolean ? 1.0 : 0.0) : v.num; };
  auto isNumLike = [](const Value &v) { return v.isNum() || v.kind == Value::Kind::Bool; };
  if (!isNumLike(a) || !isNumLike(b))
    return unknownValue();
  double x = num(a), y = num(b);
  bool ints = (a.isInt || a.kind == Value::Kind::Bool) && (b.isInt || b.kind == Value::Kind::Bool);
  if (op == "+")
    return makeNum(x + y, ints);
  if (op == "-")
    return makeNum(x - y, ints);
  if (op == "*")
    return makeNum(x * y, ints);
  if (op == "/")
    return y == 0 ? unknownValue() : makeNum(x / y, false);
  if (op == "//")
    return y == 0 ? unknownValue() : makeNum(std::floor(x / y), ints);
  if (op == "%")
    return y == 0 ? unknownValue() : makeNum(pyFloorMod(x, y), ints);
  if (op == "**") {
    double p = std::pow(x, y);
    return std::isfinite(p) ? makeNum(p, ints && y >= 0) : unknownValue();
  }
  if (!ints || std::fabs(x) > 9e15 || std::fabs(y) > 9e15)
    return unknownValue();
  long long i = static_cast<long long>(x), j = static_cast<long long>(y);
  if (op == "<<")
    return j < 0 || j > 52 ? unknownValue() : makeNum(static_cast<double>(i * (1LL << j)), true);
  if (op == ">>")
    return j < 0 ? unknownValue() : makeNum(static_cast<double>(j > 62 ? (i < 0 ? -1 : 0) : (i >> j)), true);
  if (op == "&")
    return makeNum(static_cast<double>(i & j), true);
  if (op == "|")
    return makeNum(static_cast<double>(i | j), true);
  if (op == "^")
    return makeNum(static_cast<double>(i ^ j), true);
  return unknownValue();
}

} // namespace

ValuePtr unknownValue() {
  static const ValuePtr u = std::make_shared<Value>();
  return u;
}

ValuePtr limitedValue() {
  static const ValuePtr u = [] {
    auto v = std::make_shared<Value>();
    v->limited = true;
    return v;
  }();
  return u;
}

namespace {

/// Whether `v` lacks something because a limit was hit: a limited unknown, or a string that is.
bool limits(const Value &v) { return v.limited || (v.isStr() && v.str.limited); }

} // namespace

ValuePtr Evaluator::eval(TSNode n, int scope, unsigned depth) {
  if (ts::isNull(n))
    return unknownValue();
  if (depth > kMaxEvalDepth) {
    truncated_ = true;
    return limitedValue();
  }
  ts::NodeKey k = ts::key(n);
  auto it = memo_.find(k);
  if (it != memo_.end())
    return it->second;
  bool outer = truncated_;
  truncated_ = false;
  ValuePtr v = compute(n, scope, depth);
  // A result cut short by the depth limit or a binding cycle may differ when the same node
  // is reached on a shorter path: do not pin it.
  if (!truncated_)
    memo_.try_emplace(k, v);
  truncated_ = truncated_ || outer;
  return v;
}

ValuePtr Evaluator::compute(TSNode n, int scope, unsigned depth) {
  switch (ts::kind(n)) {
  case K::String:
    return evalString(n, scope, depth);
  case K::ConcatenatedString: {
    StringValue acc;
    for (TSNode part : ts::namedChildren(n)) {
      if (ts::kind(part) != K::String)
        continue;
      consume(part);
      ValuePtr v = eval(part, scope, depth + 1);
      if (v->isStr())
        sv::append(acc, v->str);
      else
        acc.complete = false;
      acc.limited = acc.limited || v->limited;
    }
    return makeStr(std::move(acc));
  }
  case K::Integer:
  case K::Float:
    return parseNumber(ts::text(n, src_));
  case K::True:
  case K::False: {
    auto v = std::make_shared<Value>();
    v->kind = Value::Kind::Bool;
    v->boolean = ts::kind(n) == K::True;
    return v;
  }
  case K::None: {
    auto v = std::make_shared<Value>();
    v->kind = Value::Kind::NoneV;
    return v;
  }
  case K::ParenthesizedExpression: {
    ts::Children inner = ts::namedChildren(n);
    if (inner.size() != 1)
      return unknownValue();
    consume(inner[0]);
    return eval(inner[0], scope, depth + 1);
  }
  case K::Identifier:
    return evalName(ts::text(n, src_), scope, ts::startByte(n), depth);
  case K::BinaryOperator: {
    // Fold the left spine iteratively: `"l1\n" + "l2\n" + ... ` over hundreds of lines
    // nests that deep, and must not hit the depth limit.
    llvm::SmallVector<TSNode, 16> spine;
    TSNode cur = n;
    while (ts::kind(cur) == K::BinaryOperator && spine.size() < kMaxSpine) {
      spine.push_back(cur);
      cur = ts::field(cur, ts::F::Left);
    }
    ValuePtr acc = eval(cur, scope, depth + 1);
    // The spine limit cut the chain: its leftmost part was never evaluated.
    if (ts::kind(cur) == K::BinaryOperator)
      acc = limitedValue();
    // String `+` steps append in place: copying the accumulated value at every step
    // would be quadratic in the length of the chain.
    std::optional<StringValue> text;
    for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
      TSNode step = *it;
      TSNode l = ts::field(step, ts::F::Left), r = ts::field(step, ts::F::Right);
      llvm::StringRef op = ts::tokenType(ts::field(step, ts::F::Operator));
      ValuePtr rv = eval(r, scope, depth + 1);
      bool stringPlus = op == "+" && (text || acc->isStr()) &&
                        (rv->isStr() || rv->kind == Value::Kind::Unknown);
      if (stringPlus) {
        if (!text)
          text = acc->str;
        if (rv->isStr() && text->value.size() + rv->str.value.size() <= kMaxFoldedBytes) {
          sv::append(*text, rv->str);
        } else {
          text->complete = false;
          text->limited = text->limited || rv->isStr() || rv->limited;
        }
        consume(l);
        consume(r);
        continue;
      }
      if (text) {
        acc = makeStr(std::move(*text));
        text.reset();
      }
      acc = combine(op, acc, rv, depth);
      if (acc->isStr()) {
        consume(l);
        consume(r);
        if (op == "%" && ts::kind(ts::unparen(r)) == K::Tuple)
          for (TSNode item : ts::namedChildren(ts::unparen(r)))
            consume(item);
      }
    }
    return text ? makeStr(std::move(*text)) : acc;
  }
  case K::UnaryOperator: {
    llvm::StringRef op = ts::tokenType(ts::field(n, ts::F::Operator));
    ValuePtr a = eval(ts::field(n, ts::F::Argument), scope, depth + 1);
    if (!a->isNum())
      return unknownValue();
    if (op == "-")
      return makeNum(-a->num, a->isInt);
    if (op == "+")
      return a;
    if (op == "~" && a->isInt)
      return makeNum(-a->num - 1, true);
    return unknownValue();
  }
  case K::List:
  case K::Tuple:
  case K::Set:
  case K::ExpressionList: {
    auto v = std::make_shared<Value>();
    v->kind = Value::Kind::Seq;
    for (TSNode item : ts::namedChildren(n)) {
      if (v->items.size() >= kMaxSeqItems) {
        v->truncated = true;
        break;
      }
      bool splat = ts::kind(item) == K::ListSplat;
      v->items.push_back({item, scope, splat});
    }
    return v;
  }
  case K::Call:
    return evalCall(n, scope, depth);
  case K::ConditionalExpression: {
    // `a if c else b`: a constant condition picks its side. Otherwise either side may be what
    // runs, and neither is followed: a limit of kbaudit's, not a run-time value, so a source
    // chosen this way counts as unseen.
    ts::Children parts = ts::namedChildren(n);
    if (parts.size() != 3)
      return limitedValue();
    ValuePtr c = eval(parts[1], scope, depth + 1);
    std::optional<bool> truth;
    if (c->kind == Value::Kind::Bool)
      truth = c->boolean;
    else if (c->isNum())
      truth = c->num != 0;
    else if (c->kind == Value::Kind::NoneV)
      truth = false;
    else if (c->isStr() && c->str.complete)
      truth = !c->str.value.empty();
    if (!truth)
      return limitedValue();
    consume(parts[*truth ? 0 : 2]);
    return eval(parts[*truth ? 0 : 2], scope, depth + 1);
  }
  default:
    return unknownValue();
  }
}

ValuePtr Evaluator::evalString(TSNode n, int scope, unsigned depth) {
  StringValue s = decodeString(n, src_, [&](TSNode interp, StringValue &out, unsigned line) {
    TSNode e = ts::field(interp, ts::F::Expression);
    if (ts::isNull(e))
      return false;
    for (TSNode c : ts::children(interp))
      if (!ts_node_is_named(c) && ts::tokenType(c) == "=")
        return false; // f"{x=}" prints the expression text too
    char conversion = 0;
    TSNode conv = ts::field(interp, ts::F::TypeConversion);
    if (!ts::isNull(conv)) {
      llvm::StringRef ct = ts::text(conv, src_);
      conversion = ct.empty() ? 0 : ct.back();
    }
    llvm::StringRef spec;
    TSNode specNode = ts::field(interp, ts::F::FormatSpecifier);
    if (!ts::isNull(specNode)) {
      for (TSNode c : ts::namedChildren(specNode))
        if (ts::kind(c) == K::FormatExpression)
          return false; // nested replacement fields: f"{x:{width}}"
      spec = ts::text(specNode, src_);
      spec.consume_front(":");
    }
    ValuePtr v = eval(e, scope, depth + 1);
    if (limits(*v))
      out.limited = true;
    if (!fmt::appendFormatted(out, v.get(), spec, conversion, line))
      return false;
    consume(e); // f"{'literal'}": the literal is part of this string
    return true;
  });
  return makeStr(std::move(s));
}

ValuePtr Evaluator::evalName(llvm::StringRef name, int scope, uint32_t pos, unsigned depth) {
  const Binding *b = table_.lookup(name, scope, pos, [](const Binding &) { return true; });
  if (!b)
    return unknownValue();
  return evalBinding(*b, name, depth + 1);
}

ValuePtr Evaluator::evalBinding(const Binding &b, llvm::StringRef name, unsigned depth) {
  if (b.kind != Binding::Kind::Value && b.kind != Binding::Kind::Augmented)
    return unknownValue();
  if (depth > kMaxEvalDepth) {
    truncated_ = true;
    return limitedValue();
  }
  auto memo = bindingMemo_.find(&b);
  if (memo != bindingMemo_.end())
    return memo->second;
  if (!inProgress_.insert(&b).second) {
    truncated_ = true;
    return unknownValue();
  }
  bool outer = truncated_;
  truncated_ = false;
  ValuePtr r;
  if (b.kind == Binding::Kind::Value) {
    r = eval(b.value, b.scope, depth + 1);
  } else {
    ValuePtr prev = evalName(name, b.scope, b.stmtStart, depth + 1);
    ValuePtr rhs = eval(b.value, b.scope, depth + 1);
    r = combine(b.op, prev, rhs, depth);
  }
  inProgress_.erase(&b);
  if (!truncated_)
    bindingMemo_.emplace(&b, r);
  truncated_ = truncated_ || outer;
  return r;
}

std::vector<ValuePtr> Evaluator::itemValues(const Value &seq, unsigned depth) {
  std::vector<ValuePtr> out;
  out.reserve(seq.items.size());
  for (const SeqItem &item : seq.items)
    out.push_back(item.splat ? nullptr : eval(item.node, item.scope, depth + 1));
  return out;
}

ValuePtr Evaluator::combine(llvm::StringRef op, const ValuePtr &l, const ValuePtr &r, unsigned depth) {
  if (op == "+") {
    if (l->isStr() && r->isStr()) {
      if (l->str.value.size() + r->str.value.size() > kMaxFoldedBytes)
        return limitedValue();
      StringValue s = l->str;
      sv::append(s, r->str);
      return makeStr(std::move(s));
    }
    if (l->isStr() && r->kind == Value::Kind::Unknown) {
      StringValue s = l->str;
      s.complete = false;
      s.limited = s.limited || r->limited;
      return makeStr(std::move(s));
    }
    if (r->isStr() && l->kind == Value::Kind::Unknown) {
      StringValue s = r->str;
      s.complete = false;
      s.limited = s.limited || l->limited;
      return makeStr(std::move(s));
    }
    if (l->kind == Value::Kind::Seq && r->kind == Value::Kind::Seq) {
      auto v = std::make_shared<Value>(*l);
      v->truncated = l->truncated || r->truncated;
      for (const SeqItem &i : r->items)
        if (v->items.size() < kMaxSeqItems)
          v->items.push_back(i);
        else
          v->truncated = true;
      return v;
    }
    return numeric(op, *l, *r);
  }
  if (op == "*") {
    const Value *s = l->isStr() ? l.get() : r->isStr() ? r.get() : nullptr;
    const Value *n = s == l.get() ? r.get() : l.get();
    if (s && isIntegral(*n))
      return makeStr(sv::repeat(s->str, static_cast<long long>(n->num), kMaxFoldedBytes));
    if (s && n->kind == Value::Kind::Unknown) {
      StringValue out;
      out.complete = false;
      out.limited = n->limited;
      return makeStr(std::move(out));
    }
    const Value *q = l->kind == Value::Kind::Seq ? l.get() : r->kind == Value::Kind::Seq ? r.get() : nullptr;
    const Value *c = q == l.get() ? r.get() : l.get();
    if (q && isIntegral(*c)) {
      auto v = std::make_shared<Value>();
      v->kind = Value::Kind::Seq;
      v->truncated = q->truncated;
      for (long long i = 0; i < static_cast<long long>(c->num); ++i) {
        if (v->items.size() >= kMaxSeqItems) {
          v->truncated = v->truncated || !q->items.empty();
          break;
        }
        for (const SeqItem &item : q->items)
          v->items.push_back(item);
      }
      return v;
    }
    return numeric(op, *l, *r);
  }
  if (op == "%" && l->isStr()) {
    std::vector<ValuePtr> keep;
    std::vector<const Value *> args;
    if (r->kind == Value::Kind::Seq) {
      keep = itemValues(*r, depth);
      for (const ValuePtr &v : keep)
        args.push_back(v.get());
    } else {
      args.push_back(r->kind == Value::Kind::Unknown ? nullptr : r.get());
    }
    StringValue out = fmt::percent(l->str, args);
    for (const ValuePtr &a : keep)
      out.limited = out.limited || (a && limits(*a));
    out.limited = out.limited || r->limited;
    return makeStr(std::move(out));
  }
  return numeric(op, *l, *r);
}

ValuePtr Evaluator::evalCall(TSNode n, int scope, unsigned depth) {
  TSNode fn = ts::field(n, ts::F::Function);
  TSNode argsNode = ts::field(n, ts::F::Arguments);
  ts::Children args;
  if (ts::kind(argsNode) == K::ArgumentList)
    args = ts::namedChildren(argsNode);
  else if (!ts::isNull(argsNode))
    args.push_back(argsNode); // f(x for x in y)
  if (ts::kind(fn) == K::Attribute) {
    llvm::StringRef method = ts::text(ts::field(fn, ts::F::AttributeF), src_);
    ValuePtr r = evalMethod(ts::field(fn, ts::F::Object), method, args, scope, depth);
    if (r->kind != Value::Kind::Unknown)
      return r;
  }
  if (ts::kind(fn) != K::Identifier && ts::kind(fn) != K::Attribute)
    return unknownValue();
  if (args.size() != 1 || ts::kind(args[0]) == K::KeywordArgument || ts::kind(args[0]) == K::ListSplat ||
      ts::kind(args[0]) == K::DictionarySplat)
    return unknownValue();
  Resolution res = resolver_.resolve(fn, scope);
  if (isBuiltinCall(res, "str")) {
    ValuePtr v = eval(args[0], scope, depth + 1);
    if (v->isStr()) {
      consume(args[0]);
      return v;
    }
    auto s = fmt::pyStr(*v);
    if (!s)
      return unknownValue();
    StringValue out;
    sv::appendText(out, *s, ts::firstLine(args[0]));
    return makeStr(std::move(out));
  }
  // Sources shipped encoded (`base64.b64decode("...")`, `bytes.fromhex("...")`): the same text,
  // decoded; the decoded text sits on the encoded literal's lines.
  if (res.resolved == "base64.b64decode" || res.resolved == "base64.standard_b64decode" ||
      res.resolved == "binascii.a2b_base64" || res.resolved == "bytes.fromhex" ||
      res.resolved == "binascii.unhexlify" || res.resolved == "binascii.a2b_hex") {
    ValuePtr v = eval(args[0], scope, depth + 1);
    if (!v->isStr() || !v->str.complete)
      return unknownValue();
    const bool hex = res.resolved == "bytes.fromhex" || res.resolved == "binascii.unhexlify" ||
                     res.resolved == "binascii.a2b_hex";
    const std::optional<std::string> decoded = hex ? sv::decodeHex(v->str.value) : sv::decodeBase64(v->str.value);
    if (!decoded)
      return unknownValue();
    consume(args[0]);
    StringValue out;
    sv::appendText(out, *decoded, ts::firstLine(args[0]));
    return makeStr(std::move(out));
  }
  if (res.resolved == "textwrap.dedent") {
    ValuePtr v = eval(args[0], scope, depth + 1);
    if (!v->isStr())
      return unknownValue();
    consume(args[0]);
    return makeStr(sv::dedent(v->str));
  }
  return unknownValue();
}

ValuePtr Evaluator::evalMethod(TSNode receiver, llvm::StringRef method, const ts::Children &args, int scope,
                               unsigned depth) {
  static const llvm::StringRef kMethods[] = {"format", "join",  "replace", "strip",  "lstrip",
                                             "rstrip", "upper", "lower",   "encode", "decode"};
  if (!llvm::is_contained(kMethods, method))
    return unknownValue();
  ValuePtr rv = eval(receiver, scope, depth + 1);
  if (!rv->isStr())
    return rv->limited ? limitedValue() : unknownValue();
  auto positional = [&](size_t i) -> TSNode {
    size_t seen = 0;
    for (TSNode a : args) {
      K k = ts::kind(a);
      if (k == K::KeywordArgument || k == K::ListSplat || k == K::DictionarySplat)
        continue;
      if (seen++ == i)
        return a;
    }
    return TSNode{};
  };
  consume(receiver);

  if (method == "format") {
    std::vector<ValuePtr> keep;
    std::vector<const Value *> pos;
    std::map<std::string, const Value *, std::less<>> kw;
    bool splat = false;
    for (TSNode a : args) {
      K k = ts::kind(a);
      if (k == K::ListSplat || k == K::DictionarySplat) {
        splat = true;
        continue;
      }
      TSNode valueNode = k == K::KeywordArgument ? ts::field(a, ts::F::Value) : a;
      ValuePtr v = eval(valueNode, scope, depth + 1);
      consume(valueNode);
      keep.push_back(v);
      const Value *p = v->kind == Value::Kind::Unknown ? nullptr : v.get();
      if (k == K::KeywordArgument)
        kw[ts::text(ts::field(a, ts::F::Name), src_).str()] = p;
      else if (!splat) // positions after *args are unknown
        pos.push_back(p);
    }
    StringValue out = fmt::braces(rv->str, pos, kw);
    for (const ValuePtr &a : keep)
      out.limited = out.limited || limits(*a);
    if (splat)
      out.complete = false;
    return makeStr(std::move(out));
  }

  if (method == "join") {
    TSNode arg = positional(0);
    StringValue out;
    out.complete = rv->str.complete;
    ValuePtr av = ts::isNull(arg) ? unknownValue() : eval(arg, scope, depth + 1);
    if (av->kind != Value::Kind::Seq) {
      out.complete = false;
      return makeStr(std::move(out));
    }
    if (av->truncated) {
      out.complete = false; // pieces past the item limit are not in the result
      out.limited = true;
    }
    out.limited = out.limited || av->limited;
    TSNode literal = ts::unparen(arg);
    bool structural = ts::kind(literal) == K::List || ts::kind(literal) == K::Tuple;
    if (structural) {
      consume(arg);
      consume(literal);
    }
    std::vector<ValuePtr> items = itemValues(*av, depth);
    for (size_t i = 0; i < items.size(); ++i) {
      if (out.value.size() > kMaxFoldedBytes) {
        out.complete = false;
        out.limited = true;
        break;
      }
      if (i > 0)
        sv::append(out, rv->str);
      if (structural)
        consume(av->items[i].node);
      if (items[i] && items[i]->isStr())
        sv::append(out, items[i]->str);
      else
        out.complete = false;
      out.limited = out.limited || (items[i] && items[i]->limited);
    }
    return makeStr(std::move(out));
  }

  if (method == "replace") {
    TSNode a0 = positional(0), a1 = positional(1);
    if (ts::isNull(a0) || ts::isNull(a1))
      return unknownValue();
    ValuePtr needle = eval(a0, scope, depth + 1);
    ValuePtr repl = eval(a1, scope, depth + 1);
    consume(a0);
    consume(a1);
    if (!needle->isStr() || !needle->str.complete) {
      StringValue out = rv->str;
      out.complete = false;
      out.limited = out.limited || limits(*needle);
      return makeStr(std::move(out));
    }
    std::optional<StringValue> r;
    if (repl->isStr())
      r = repl->str;
    StringValue out = sv::replaceAll(rv->str, needle->str.value, r);
    if (!ts::isNull(positional(2)))
      out.complete = false; // a count limit: not emulated
    return makeStr(std::move(out));
  }

  if (method == "strip" || method == "lstrip" || method == "rstrip") {
    sv::StripSide side = method == "strip" ? sv::StripSide::Both
                         : method == "lstrip" ? sv::StripSide::Left
                                              : sv::StripSide::Right;
    TSNode a0 = positional(0);
    std::optional<llvm::StringRef> chars;
    ValuePtr cv;
    if (!ts::isNull(a0)) {
      cv = eval(a0, scope, depth + 1);
      if (!cv->isStr())
        return unknownValue();
      consume(a0);
      chars = llvm::StringRef(cv->str.value);
    }
    return makeStr(sv::strip(rv->str, side, chars));
  }

  if (method == "upper" || method == "lower") {
    StringValue out = rv->str;
    for (char &c : out.value)
      c = method == "upper" ? llvm::toUpper(c) : llvm::toLower(c);
    return makeStr(std::move(out));
  }

  // encode/decode: same text for our purposes.
  return rv;
}

bool Evaluator::literalRooted(TSNode n, unsigned depth) const {
  if (ts::isNull(n) || depth > 32)
    return false;
  switch (ts::kind(n)) {
  case K::String:
  case K::ConcatenatedString:
    return true;
  case K::ParenthesizedExpression:
    for (TSNode c : ts::namedChildren(n))
      if (literalRooted(c, depth + 1))
        return true;
    return false;
  case K::BinaryOperator:
    return literalRooted(ts::field(n, ts::F::Left), depth + 1) ||
           literalRooted(ts::field(n, ts::F::Right), depth + 1);
  case K::Call: {
    TSNode fn = ts::field(n, ts::F::Function);
    if (ts::kind(fn) == K::Attribute && literalRooted(ts::field(fn, ts::F::Object), depth + 1))
      return true;
    for (TSNode a : ts::namedChildren(ts::field(n, ts::F::Arguments)))
      if (literalRooted(a, depth + 1))
        return true;
    return false;
  }
  case K::List:
  case K::Tuple:
    for (TSNode c : ts::namedChildren(n))
      if (literalRooted(c, depth + 1))
        return true;
    return false;
  case K::KeywordArgument:
    return literalRooted(ts::field(n, ts::F::Value), depth + 1);
  default:
    return false;
  }
}

} // namespace kbaudit::py
