// Warp-synchronous code without the _sync intrinsics: `volatile` shared memory read and written
// by the lanes of a warp in turn, relying on the warp executing each statement together
// (`if (tid < 32) { vs[tid] += vs[tid + 16]; vs[tid] += vs[tid + 8]; ... }`). The runner runs a
// warp's lanes one after another, so after every statement that assigns through a volatile
// variable each lane waits for the rest of its warp at that statement (__cudacpu_lockstep: the
// lanes that reach it while the others wait elsewhere or have exited), which gives every lane
// the values the others wrote in the previous step, as lockstep execution does. Lanes within a
// statement run in lane order: a lane reads what higher lanes are about to overwrite, as on a GPU.

#include "passes.h"

#include <set>

namespace kbaudit::cudacpu {

namespace {

bool assigns(const Token &t) {
  return t.kind == TokenKind::Punct &&
         (t.text == "=" || t.text == "+=" || t.text == "-=" || t.text == "*=" || t.text == "/=" || t.text == "|=" ||
          t.text == "&=" || t.text == "^=" || t.text == "<<=" || t.text == ">>=" || t.text == "++" || t.text == "--");
}

} // namespace

unsigned insertLocksteps(PassContext &ctx) {
  const std::vector<Token> &tokens = ctx.tokens;
  // The names declared volatile: `volatile T *name`, `volatile T name[...]`, parameters too.
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].isIdentifier("volatile"))
      continue;
    for (std::size_t k = i + 1; k < tokens.size() && k < i + 12; ++k) {
      const Token &t = tokens[k];
      if (t.is(";") || t.is("{") || t.is("(") || t.is(")") || t.is(","))
        break;
      if (t.kind == TokenKind::Identifier && k + 1 < tokens.size() &&
          (tokens[k + 1].is("=") || tokens[k + 1].is("[") || tokens[k + 1].is(";") || tokens[k + 1].is(",") ||
           tokens[k + 1].is(")"))) {
        names.insert(t.text);
        break;
      }
    }
  }
  if (names.empty())
    return 0;
  unsigned count = 0;
  int parens = 0;
  bool inDirective = false;
  std::size_t statementStart = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token &t = tokens[i];
    if (t.startsLine)
      inDirective = t.is("#");
    if (inDirective)
      continue;
    if (t.is("("))
      ++parens;
    else if (t.is(")"))
      --parens;
    if (t.is("{") || t.is("}")) {
      statementStart = i + 1;
      continue;
    }
    if (!t.is(";") || parens > 0) // a for header's ;
      continue;
    bool writesVolatile = false;
    for (std::size_t k = statementStart; k + 1 < i && !writesVolatile; ++k)
      if (tokens[k].kind == TokenKind::Identifier && names.count(tokens[k].text) && !(k > 0 && (tokens[k - 1].is(".") || tokens[k - 1].is("->"))))
        for (std::size_t m = k + 1; m < i; ++m)
          if (assigns(tokens[m])) {
            writesVolatile = true;
            break;
          }
    // A declaration (`volatile float *vs = smem;`) writes no shared memory.
    if (writesVolatile && !tokens[statementStart].isIdentifier("volatile")) {
      ctx.edits.push_back(Edit{t.end(), 0, " __cudacpu_lockstep();"});
      ++count;
    }
    statementStart = i + 1;
  }
  return count;
}

} // namespace kbaudit::cudacpu
