// Kernel launches. The callee is found backwards from `<<<` (a name, qualified, with template
// arguments, a parenthesised expression or an element of an array of kernels), the
// configuration up to the matching `>>>`, the arguments in the parentheses after it. Only the
// pieces between them are replaced, so the edits other passes make inside the configuration
// and the arguments stay valid.

#include "passes.h"

namespace kbaudit::cudacpu {

namespace {

/// The index of the first token of the callee that ends just before `launch` (the `<<<`), or
/// tokens.size() when there is none.
std::size_t calleeStart(const std::vector<Token> &tokens, std::size_t launch) {
  if (launch == 0)
    return tokens.size();
  std::size_t i = launch - 1;
  std::size_t start = tokens.size();
  for (;;) {
    const Token &t = tokens[i];
    if (t.is(">") || t.is(">>")) { // template arguments: back to the matching `<`
      int depth = 0;
      std::size_t j = i + 1;
      while (j-- > 0) {
        const Token &u = tokens[j];
        if (u.is(">"))
          ++depth;
        else if (u.is(">>"))
          depth += 2;
        else if (u.is("<"))
          --depth;
        else if (u.is("<<"))
          depth -= 2;
        else if (u.is(";") || u.is("{") || u.is("}"))
          return tokens.size();
        if (depth <= 0)
          break;
        if (j == 0)
          return tokens.size();
      }
      if (j == 0 || tokens[j - 1].kind != TokenKind::Identifier)
        return tokens.size();
      i = j - 1;
      start = i;
    } else if (t.is(")") || t.is("]")) { // a parenthesised callee or an array element
      const std::string_view open = t.is(")") ? "(" : "[";
      const std::string_view close = t.text;
      int depth = 0;
      std::size_t j = i + 1;
      while (j-- > 0) {
        if (tokens[j].is(close))
          ++depth;
        else if (tokens[j].is(open) && --depth == 0)
          break;
        if (j == 0)
          return tokens.size();
      }
      start = j;
      if (t.is(")"))
        return start; // (expr)<<<...>>>
      if (j == 0)
        return tokens.size();
      i = j - 1;
      continue;
    } else if (t.kind == TokenKind::Identifier) {
      start = i;
    } else {
      return start;
    }
    // A qualifier before it: `ns::k`, `::k`, `Outer<T>::k`, `obj.k` is not a kernel.
    if (start >= 2 && tokens[start - 1].is("::") &&
        (tokens[start - 2].kind == TokenKind::Identifier || tokens[start - 2].is(">"))) {
      i = start - 2;
      continue;
    }
    if (start >= 1 && tokens[start - 1].is("::")) {
      return start - 1;
    }
    if (start >= 1 && tokens[start - 1].isIdentifier("template"))
      return start; // `template k<...>` never starts a launch; leave the keyword outside
    return start;
  }
}

std::string quoted(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t')
      c = ' ';
    if (c == '"' || c == '\\')
      out += '\\';
    if (!(c == ' ' && !out.empty() && out.back() == ' '))
      out += c;
  }
  return out;
}

} // namespace

unsigned rewriteLaunches(PassContext &ctx) {
  const std::vector<Token> &tokens = ctx.tokens;
  unsigned count = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].is("<<<"))
      continue;
    const std::size_t close = matching(tokens, i);
    const std::size_t start = calleeStart(tokens, i);
    if (close >= tokens.size() || start >= tokens.size() || close + 1 >= tokens.size() || !tokens[close + 1].is("(")) {
      ctx.notes.push_back("line " + std::to_string(tokens[i].line) + ": a `<<<` that is not a kernel launch the "
                          "translator understands was left as it is");
      continue;
    }
    const std::size_t argsClose = matching(tokens, close + 1);
    if (argsClose >= tokens.size()) {
      ctx.notes.push_back("line " + std::to_string(tokens[i].line) + ": a kernel launch without its closing `)`");
      continue;
    }
    const std::string_view callee =
        ctx.source.substr(tokens[start].offset, tokens[i - 1].end() - tokens[start].offset);
    const bool noArguments = argsClose == close + 2;
    ctx.edits.push_back(Edit{tokens[start].offset, tokens[i].end() - tokens[start].offset,
                             "::cudacpu::launch(\"" + quoted(callee) + "\", ::cudacpu::LaunchConfig("});
    ctx.edits.push_back(Edit{tokens[close].offset, tokens[close + 1].end() - tokens[close].offset,
                             "), [&](auto... cudacpu_arg) { " + std::string(callee) + "(cudacpu_arg...); }" +
                                 (noArguments ? "" : ", ")});
    ++count;
    i = close;
  }
  return count;
}

} // namespace kbaudit::cudacpu
