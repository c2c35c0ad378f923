#include "formatting.h"

#include "string_value_ops.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace kbaudit::py::fmt {
namespace {

std::string intStr(double v) {
  if (std::fabs(v) < 9.2e18)
    return std::to_string(static_cast<long long>(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// Python's repr(float): shortest round-trip digits, fixed notation for 1e-4 <= |v| < 1e16,
// otherwise scientific with a two-digit exponent; integral values keep a ".0".
std::string floatRepr(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  if (v == 0)
    return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  // sci: [-]d[.ddd]e[+-]XX
  bool neg = sci[0] == '-';
  if (neg)
    sci.erase(0, 1);
  size_t epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  int exp = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (char c : mant)
    if (c != '.')
      digits.push_back(c);
  std::string out;
  if (exp >= -5 && exp < 16) {
    if (exp >= 0) {
      if (digits.size() <= static_cast<size_t>(exp) + 1) {
        out = digits + std::string(static_cast<size_t>(exp) + 1 - digits.size(), '0') + ".0";
      } else {
        out = digits.substr(0, static_cast<size_t>(exp) + 1) + "." +
              digits.substr(static_cast<size_t>(exp) + 1);
      }
    } else {
      out = "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1)
      out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    out += e;
  }
  return neg ? "-" + out : out;
}

std::string reprStr(llvm::StringRef s) {
  bool useDouble = s.contains('\'') && !s.contains('"');
  char q = useDouble ? '"' : '\'';
  std::string out(1, q);
  for (unsigned char c : s) {
    switch (c) {
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c == static_cast<unsigned char>(q)) {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += q;
  return out;
}

struct Spec {
  char fill = ' ';
  char align = 0; // '<' '>' '^' '='
  char sign = '-';
  bool alt = false;
  bool zero = false;
  int width = -1;
  int precision = -1;
  char type = 0;
};

std::optional<Spec> parseSpec(llvm::StringRef s) {
  Spec sp;
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (s.size() >= 2 && isAlign(s[1])) {
    sp.fill = s[0];
    sp.align = s[1];
    s = s.drop_front(2);
  } else if (!s.empty() && isAlign(s[0])) {
    sp.align = s[0];
    s = s.drop_front();
  }
  if (!s.empty() && (s[0] == '+' || s[0] == '-' || s[0] == ' ')) {
    sp.sign = s[0];
    s = s.drop_front();
  }
  if (!s.empty() && s[0] == '#') {
    sp.alt = true;
    s = s.drop_front();
  }
  if (!s.empty() && s[0] == '0') {
    sp.zero = true;
    s = s.drop_front();
  }
  size_t n = 0;
  while (n < s.size() && llvm::isDigit(s[n]))
    ++n;
  if (n > 0) {
    if (s.take_front(n).getAsInteger(10, sp.width) || sp.width > 4096)
      return std::nullopt;
    s = s.drop_front(n);
  }
  if (!s.empty() && (s[0] == ',' || s[0] == '_'))
    return std::nullopt; // digit grouping: not worth emulating
  if (!s.empty() && s[0] == '.') {
    s = s.drop_front();
    n = 0;
    while (n < s.size() && llvm::isDigit(s[n]))
      ++n;
    if (n == 0 || s.take_front(n).getAsInteger(10, sp.precision) || sp.precision > 100)
      return std::nullopt;
    s = s.drop_front(n);
  }
  if (s.size() > 1)
    return std::nullopt;
  if (s.size() == 1)
    sp.type = s[0];
  return sp;
}

std::string pad(std::string body, const Spec &sp, char defaultAlign) {
  if (sp.width < 0 || body.size() >= static_cast<size_t>(sp.width))
    return body;
  size_t missing = static_cast<size_t>(sp.width) - body.size();
  char align = sp.align ? sp.align : defaultAlign;
  char fill = sp.fill;
  if (!sp.align && sp.zero) {
    align = '=';
    fill = '0';
  }
  switch (align) {
  case '<':
    return body + std::string(missing, fill);
  case '^':
    return std::string(missing / 2, fill) + body + std::string(missing - missing / 2, fill);
  case '=': {
    size_t signLen = (!body.empty() && (body[0] == '-' || body[0] == '+' || body[0] == ' ')) ? 1 : 0;
    if (body.size() > signLen + 1 && body[signLen] == '0' &&
        (body[signLen + 1] == 'x' || body[signLen + 1] == 'X' || body[signLen + 1] == 'o' ||
         body[signLen + 1] == 'b'))
      signLen += 2;
    return body.substr(0, signLen) + std::string(missing, fill) + body.substr(signLen);
  }
  default:
    return std::string(missing, fill) + body;
  }
}

std::string withSign(std::string digits, bool negative, char sign) {
  if (negative)
    return "-" + digits;
  if (sign == '+')
    return "+" + digits;
  if (sign == ' ')
    return " " + digits;
  return digits;
}

std::optional<std::string> formatNumber(double v, bool isInt, const Spec &sp) {
  char type = sp.type;
  bool neg = std::signbit(v) && !(isInt && v == 0);
  double a = std::fabs(v);
  char buf[512];
  std::string digits;
  if (type == 0 && isInt)
    type = 'd';
  switch (type) {
  case 'd':
  case 'n':
    if (!isInt)
      return std::nullopt;
    digits = intStr(a);
    break;
  case 'x':
  case 'X':
  case 'o':
  case 'b': {
    if (!isInt || a > 1.8e19)
      return std::nullopt;
    unsigned long long u = static_cast<unsigned long long>(a);
    if (type == 'b') {
      do {
        digits.insert(digits.begin(), static_cast<char>('0' + (u & 1)));
        u >>= 1;
      } while (u);
    } else {
      std::snprintf(buf, sizeof buf, type == 'x' ? "%llx" : type == 'X' ? "%llX" : "%llo", u);
      digits = buf;
    }
    if (sp.alt)
      digits = std::string("0") + (type == 'X' ? 'X' : type) + digits;
    break;
  }
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case '%': {
    int prec = sp.precision < 0 ? 6 : sp.precision;
    double x = type == '%' ? a * 100 : a;
    char t = type == '%' ? 'f' : type;
    char f[16];
    std::snprintf(f, sizeof f, "%%%s.%d%c", sp.alt ? "#" : "", prec, t);
    std::snprintf(buf, sizeof buf, f, x);
    digits = buf;
    if (type == '%')
      digits += '%';
    break;
  }
  case 0: // float without type: repr, or general format with the given precision
    if (sp.precision < 0) {
      digits = floatRepr(a);
    } else {
      std::snprintf(buf, sizeof buf, "%.*g", std::max(sp.precision, 1), a);
      digits = buf;
    }
    break;
  default:
    return std::nullopt;
  }
  return pad(withSign(digits, neg, sp.sign), sp, '>');
}

} // namespace

std::optional<std::string> pyStr(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Str:
    return v.str.value;
  case Value::Kind::Num:
    return v.isInt ? intStr(v.num) : floatRepr(v.num);
  case Value::Kind::Bool:
    return std::string(v.boolean ? "True" : "False");
  case Value::Kind::NoneV:
    return std::string("None");
  default:
    return std::nullopt;
  }
}

std::optional<std::string> formatSpec(const Value &v, llvm::StringRef spec) {
  if (spec.empty())
    return pyStr(v);
  auto sp = parseSpec(spec);
  if (!sp)
    return std::nullopt;
  switch (v.kind) {
  case Value::Kind::Str: {
    if (sp->type != 0 && sp->type != 's')
      return std::nullopt;
    std::string s = v.str.value;
    if (sp->precision >= 0 && s.size() > static_cast<size_t>(sp->precision))
      s.resize(static_cast<size_t>(sp->precision));
    return pad(s, *sp, '<');
  }
  case Value::Kind::Num:
    return formatNumber(v.num, v.isInt, *sp);
  case Value::Kind::Bool:
    if (sp->type == 0 || sp->type == 's')
      return pad(v.boolean ? "True" : "False", *sp, '<');
    return formatNumber(v.boolean ? 1 : 0, true, *sp);
  default:
    return std::nullopt;
  }
}

bool appendFormatted(StringValue &out, const Value *v, llvm::StringRef spec, char conversion,
                     unsigned line) {
  if (!v || v->kind == Value::Kind::Unknown || v->kind == Value::Kind::Seq)
    return false;
  if (conversion == 'r' || conversion == 'a') {
    if (!v->isStr()) {
      auto s = pyStr(*v);
      if (!s)
        return false;
      Value asStr;
      asStr.kind = Value::Kind::Str;
      asStr.str.value = *s;
      auto f = formatSpec(asStr, spec);
      if (!f)
        return false;
      sv::appendText(out, *f, line);
      return true;
    }
    Value quoted;
    quoted.kind = Value::Kind::Str;
    quoted.str.value = reprStr(v->str.value);
    auto f = formatSpec(quoted, spec);
    if (!f)
      return false;
    sv::appendText(out, *f, line);
    if (!v->str.complete)
      out.complete = false;
    out.limited = out.limited || v->str.limited;
    return true;
  }
  if (v->isStr() && spec.empty()) {
    sv::append(out, v->str);
    return true;
  }
  Value src = *v;
  if (conversion == 's' && !v->isStr()) {
    auto s = pyStr(*v);
    if (!s)
      return false;
    src = Value{};
    src.kind = Value::Kind::Str;
    src.str.value = *s;
  }
  auto f = formatSpec(src, spec);
  if (!f)
    return false;
  sv::appendText(out, *f, line);
  if (v->isStr() && !v->str.complete)
    out.complete = false;
  if (v->isStr())
    out.limited = out.limited || v->str.limited;
  return true;
}

StringValue percent(const StringValue &tmpl, const std::vector<const Value *> &args) {
  StringValue out;
  out.complete = tmpl.complete;
  out.limited = tmpl.limited;
  llvm::StringRef t(tmpl.value);
  sv::OriginCursor cur(tmpl);
  size_t next = 0;
  size_t i = 0;
  while (i < t.size()) {
    size_t pct = t.find('%', i);
    if (pct == llvm::StringRef::npos) {
      sv::appendRange(out, tmpl, i, t.size());
      break;
    }
    sv::appendRange(out, tmpl, i, pct);
    unsigned line = cur.originAt(pct);
    size_t j = pct + 1;
    if (j < t.size() && t[j] == '%') {
      sv::appendText(out, "%", line);
      i = j + 1;
      continue;
    }
    if (j < t.size() && t[j] == '(') { // mapping keys need a dict operand: not folded
      size_t close = t.find(')', j);
      out.complete = false;
      j = close == llvm::StringRef::npos ? t.size() : close + 1;
    }
    // flags, width, precision, length, conversion
    size_t specBegin = j;
    while (j < t.size() && llvm::StringRef("-+ #0").contains(t[j]))
      ++j;
    bool starWidth = false;
    while (j < t.size() && (llvm::isDigit(t[j]) || t[j] == '*')) {
      starWidth |= t[j] == '*';
      ++j;
    }
    if (j < t.size() && t[j] == '.') {
      ++j;
      while (j < t.size() && (llvm::isDigit(t[j]) || t[j] == '*')) {
        starWidth |= t[j] == '*';
        ++j;
      }
    }
    while (j < t.size() && llvm::StringRef("hlL").contains(t[j]))
      ++j;
    if (j >= t.size()) {
      out.complete = false;
      break;
    }
    char type = t[j];
    std::string flags = t.slice(specBegin, j).str();
    flags.erase(std::remove_if(flags.begin(), flags.end(), [](char c) { return c == 'h' || c == 'l' || c == 'L'; }),
                flags.end());
    i = j + 1;
    if (starWidth || next >= args.size()) {
      out.complete = false;
      ++next;
      continue;
    }
    const Value *a = args[next++];
    if (!a || a->kind == Value::Kind::Unknown || a->kind == Value::Kind::Seq) {
      out.complete = false;
      continue;
    }
    char buf[512];
    std::string piece;
    switch (type) {
    case 's':
    case 'r':
    case 'a': {
      std::optional<std::string> s;
      if (type != 's' && a->isStr())
        s = reprStr(a->str.value);
      else
        s = pyStr(*a);
      if (!s) {
        out.complete = false;
        continue;
      }
      if (flags.empty() && type == 's' && a->isStr()) {
        sv::append(out, a->str); // keep the argument's own line origins
        continue;
      }
      std::string f = "%" + flags + "s";
      std::snprintf(buf, sizeof buf, f.c_str(), s->c_str());
      piece = buf;
      if (s->size() >= sizeof buf - 1)
        piece = *s;
      break;
    }
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'c': {
      double v = a->kind == Value::Kind::Bool ? (a->boolean ? 1 : 0) : a->num;
      if (a->kind != Value::Kind::Num && a->kind != Value::Kind::Bool) {
        out.complete = false;
        continue;
      }
      std::string f = "%" + flags + "ll" + (type == 'i' || type == 'u' ? 'd' : type == 'c' ? 'd' : type);
      if (type == 'c') {
        piece = std::string(1, static_cast<char>(static_cast<long long>(v)));
        break;
      }
      std::snprintf(buf, sizeof buf, f.c_str(), static_cast<long long>(std::trunc(v)));
      piece = buf;
      break;
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      if (a->kind != Value::Kind::Num && a->kind != Value::Kind::Bool) {
        out.complete = false;
        continue;
      }
      double v = a->kind == Value::Kind::Bool ? (a->boolean ? 1 : 0) : a->num;
      std::string f = "%" + flags + type;
      std::snprintf(buf, sizeof buf, f.c_str(), v);
      piece = buf;
      break;
    }
    default:
      out.complete = false;
      continue;
    }
    sv::appendText(out, piece, line);
  }
  if (next < args.size())
    out.complete = false; // Python would raise "not all arguments converted"
  return out;
}

StringValue braces(const StringValue &tmpl, const std::vector<const Value *> &positional,
                   const std::map<std::string, const Value *, std::less<>> &keywords) {
  StringValue out;
  out.complete = tmpl.complete;
  out.limited = tmpl.limited;
  llvm::StringRef t(tmpl.value);
  sv::OriginCursor cur(tmpl);
  size_t autoIndex = 0;
  size_t i = 0;
  size_t chunk = 0; // start of pending literal text
  while (i < t.size()) {
    char c = t[i];
    if (c != '{' && c != '}') {
      ++i;
      continue;
    }
    sv::appendRange(out, tmpl, chunk, i);
    unsigned line = cur.originAt(i);
    if (i + 1 < t.size() && t[i + 1] == c) { // "{{" / "}}"
      sv::appendText(out, llvm::StringRef(&t.data()[i], 1), line);
      i += 2;
      chunk = i;
      continue;
    }
    if (c == '}') { // stray '}' is a ValueError in Python; keep it verbatim
      sv::appendText(out, "}", line);
      ++i;
      chunk = i;
      continue;
    }
    // Find the matching '}' allowing one level of nesting inside the spec.
    size_t j = i + 1;
    int depth = 1;
    while (j < t.size() && depth > 0) {
      if (t[j] == '{')
        ++depth;
      else if (t[j] == '}')
        --depth;
      if (depth > 0)
        ++j;
    }
    if (j >= t.size()) {
      out.complete = false;
      sv::appendRange(out, tmpl, i, t.size());
      return out;
    }
    llvm::StringRef field = t.slice(i + 1, j);
    i = j + 1;
    chunk = i;
    llvm::StringRef spec;
    size_t colon = field.find(':');
    if (colon != llvm::StringRef::npos) {
      spec = field.drop_front(colon + 1);
      field = field.take_front(colon);
    }
    char conversion = 0;
    size_t bang = field.find('!');
    if (bang != llvm::StringRef::npos) {
      conversion = bang + 1 < field.size() ? field[bang + 1] : 0;
      field = field.take_front(bang);
    }
    const Value *v = nullptr;
    bool resolvable = !spec.contains('{');
    if (field.empty()) {
      if (autoIndex < positional.size())
        v = positional[autoIndex];
      ++autoIndex;
    } else if (llvm::all_of(field, llvm::isDigit)) {
      size_t idx = 0;
      if (!field.getAsInteger(10, idx) && idx < positional.size())
        v = positional[idx];
    } else if (field.find_first_of(".[") == llvm::StringRef::npos) {
      auto it = keywords.find(field);
      if (it != keywords.end())
        v = it->second;
    }
    if (!resolvable || !appendFormatted(out, v, spec, conversion, line))
      out.complete = false;
  }
  sv::appendRange(out, tmpl, chunk, t.size());
  return out;
}

} // namespace kbaudit::py::fmt
