// __shared__ declarations. The threads of a block run as fibers of one OS thread and blocks run
// one after another, so a static variable is exactly one instance per block: `__shared__`
// becomes `static`. Dynamic shared memory (`extern __shared__ T name[];`, one buffer per launch
// whatever the declared type) becomes a constant pointer to the runtime's buffer.

#include "passes.h"

namespace kbaudit::cudacpu {

namespace {

bool isStorageWord(const Token &t) {
  return t.isIdentifier("static") || t.isIdentifier("extern") || t.isIdentifier("volatile") ||
         t.isIdentifier("__device__") || t.isIdentifier("const");
}

/// Skips `__align__(...)`, `alignas(...)`, `__attribute__((...))`, `__declspec(...)` at `i`;
/// returns the index after them.
std::size_t skipAttributes(const std::vector<Token> &tokens, std::size_t i, std::size_t end) {
  while (i < end && (tokens[i].isIdentifier("__align__") || tokens[i].isIdentifier("alignas") ||
                     tokens[i].isIdentifier("__attribute__") || tokens[i].isIdentifier("__declspec"))) {
    if (i + 1 < end && tokens[i + 1].is("(")) {
      const std::size_t close = matching(tokens, i + 1);
      i = close < end ? close + 1 : end;
    } else {
      ++i;
    }
  }
  return i;
}

/// After a static `__shared__` declaration's `;`, a registration of each variable it declares
/// (cudacpu::SharedRegistration: a cooperative launch keeps a copy of it per block).
void registerDeclared(PassContext &ctx, std::size_t from) {
  const std::vector<Token> &tokens = ctx.tokens;
  std::size_t semi = from;
  while (semi < tokens.size() && !tokens[semi].is(";") && !tokens[semi].is("{") && !tokens[semi].is("}"))
    ++semi;
  if (semi >= tokens.size() || !tokens[semi].is(";"))
    return;
  std::vector<std::string> names;
  int depth = 0;
  std::string lastIdentifier, beforeBracket;
  auto finish = [&] {
    const std::string name = !beforeBracket.empty() ? beforeBracket : lastIdentifier;
    if (!name.empty())
      names.push_back(name);
    lastIdentifier.clear();
    beforeBracket.clear();
  };
  for (std::size_t k = skipAttributes(tokens, from, semi); k < semi; ++k) {
    const Token &t = tokens[k];
    if (t.is("(") || t.is("[") || t.is("<") || t.is("{")) {
      if (depth == 0 && t.is("[") && beforeBracket.empty())
        beforeBracket = lastIdentifier;
      ++depth;
    } else if (t.is(")") || t.is("]") || t.is(">") || t.is("}")) {
      --depth;
    } else if (t.is(">>")) {
      depth -= 2;
    } else if (depth == 0 && t.is(",")) {
      finish();
    } else if (depth == 0 && t.kind == TokenKind::Identifier && !t.isIdentifier("__align__") &&
               !t.isIdentifier("alignas")) {
      lastIdentifier = std::string(t.text);
    }
  }
  finish();
  std::string text;
  for (const std::string &name : names)
    text += " static ::cudacpu::SharedRegistration cudacpu_shared_" + std::to_string(tokens[semi].offset) + "_" + name +
            "(&" + name + ", sizeof(" + name + "));";
  if (!text.empty())
    ctx.edits.push_back(Edit{tokens[semi].end(), 0, text});
}

} // namespace

unsigned rewriteShared(PassContext &ctx) {
  const std::vector<Token> &tokens = ctx.tokens;
  unsigned count = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].isIdentifier("__shared__"))
      continue;
    // The declaration's specifiers around it.
    std::size_t first = i;
    while (first > 0 && isStorageWord(tokens[first - 1]))
      --first;
    bool isExtern = false, isStatic = false;
    for (std::size_t k = first; k < i; ++k) {
      isExtern |= tokens[k].isIdentifier("extern");
      isStatic |= tokens[k].isIdentifier("static");
    }
    std::size_t after = i + 1;
    while (after < tokens.size() && isStorageWord(tokens[after])) {
      isExtern |= tokens[after].isIdentifier("extern");
      isStatic |= tokens[after].isIdentifier("static");
      ++after;
    }
    if (!isExtern) {
      ctx.edits.push_back(Edit{tokens[i].offset, tokens[i].text.size(), isStatic ? "" : "static"});
      ++count;
      registerDeclared(ctx, after);
      continue;
    }
    // extern __shared__ [attributes] TYPE NAME [] [attributes] ;
    std::size_t semi = after;
    while (semi < tokens.size() && !tokens[semi].is(";") && !tokens[semi].is("{") && !tokens[semi].is("}"))
      ++semi;
    if (semi >= tokens.size() || !tokens[semi].is(";")) {
      ctx.notes.push_back("line " + std::to_string(tokens[i].line) + ": an extern __shared__ declaration the "
                          "translator does not understand was left as it is");
      continue;
    }
    std::size_t bracket = after;
    while (bracket < semi && !tokens[bracket].is("["))
      bracket = tokens[bracket].is("(") ? std::min(matching(tokens, bracket), semi) + 1 : bracket + 1;
    const std::size_t typeStart = skipAttributes(tokens, after, semi);
    if (bracket >= semi || bracket == 0 || tokens[bracket - 1].kind != TokenKind::Identifier ||
        bracket - 1 <= typeStart) {
      ctx.notes.push_back("line " + std::to_string(tokens[i].line) + ": an extern __shared__ declaration without "
                          "`name[]` was left as it is");
      continue;
    }
    std::string type;
    for (std::size_t k = first; k < bracket - 1; ++k) {
      if (k == i || tokens[k].isIdentifier("extern") || tokens[k].isIdentifier("static") ||
          tokens[k].isIdentifier("__device__") || (k >= after && k < typeStart))
        continue;
      if (!type.empty())
        type += ' ';
      type += tokens[k].text;
    }
    const std::string name(tokens[bracket - 1].text);
    ctx.edits.push_back(Edit{tokens[first].offset, tokens[semi].end() - tokens[first].offset,
                             type + " *const " + name + " = reinterpret_cast<" + type +
                                 " *>(::cudacpu::dynamicShared());"});
    ++count;
    i = semi;
  }
  return count;
}

} // namespace kbaudit::cudacpu
