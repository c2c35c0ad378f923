#include "lexical.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringRef.h>

namespace kbaudit::cxx::lexical {

namespace {

using clang::tok::TokenKind;

struct Tok {
  TokenKind kind;
  unsigned offset;
  unsigned length;
  bool startOfLine;
  llvm::StringRef text;
};

std::vector<Tok> tokenize(const clang::SourceManager &sm, const clang::LangOptions &lang,
                          llvm::ArrayRef<std::pair<unsigned, unsigned>> skipped) {
  const clang::FileID main = sm.getMainFileID();
  const llvm::StringRef buffer = sm.getBufferData(main);
  clang::Lexer lexer(sm.getLocForStartOfFile(main), lang, buffer.begin(), buffer.begin(),
                     buffer.end());
  std::vector<Tok> out;
  clang::Token t;
  bool inDirective = false;
  while (true) {
    lexer.LexFromRawLexer(t);
    if (t.is(clang::tok::eof))
      break;
    const unsigned offset = sm.getFileOffset(t.getLocation());
    if (t.isAtStartOfLine())
      inDirective = t.is(clang::tok::hash);
    if (inDirective)
      continue;
    if (llvm::any_of(skipped, [&](const auto &r) { return offset >= r.first && offset < r.second; }))
      continue;
    out.push_back({t.getKind(), offset, t.getLength(), t.isAtStartOfLine(),
                   buffer.substr(offset, t.getLength())});
  }
  return out;
}

/// Index just past the token closing the bracket opened at `open` (same kind of bracket
/// nesting only), or `toks.size()` when unbalanced.
size_t matching(const std::vector<Tok> &toks, size_t open, TokenKind l, TokenKind r) {
  int depth = 0;
  for (size_t i = open; i < toks.size(); ++i) {
    if (toks[i].kind == l)
      ++depth;
    else if (toks[i].kind == r && --depth == 0)
      return i + 1;
  }
  return toks.size();
}

/// Splits the tokens in [begin, end) at top-level commas, returning the source text of each part.
std::vector<std::string> splitArgs(const std::vector<Tok> &toks, size_t begin, size_t end,
                                   llvm::StringRef buffer) {
  std::vector<std::string> out;
  if (begin >= end)
    return out;
  int depth = 0;
  size_t partBegin = begin;
  const auto flush = [&](size_t partEnd) {
    if (partEnd > partBegin) {
      const unsigned from = toks[partBegin].offset;
      const unsigned to = toks[partEnd - 1].offset + toks[partEnd - 1].length;
      out.push_back(buffer.slice(from, to).str());
    }
  };
  for (size_t i = begin; i < end; ++i) {
    switch (toks[i].kind) {
    case clang::tok::l_paren: case clang::tok::l_brace: case clang::tok::l_square: ++depth; break;
    case clang::tok::r_paren: case clang::tok::r_brace: case clang::tok::r_square: --depth; break;
    case clang::tok::comma:
      if (depth == 0) {
        flush(i);
        partBegin = i + 1;
      }
      break;
    default: break;
    }
  }
  flush(end);
  return out;
}

bool isIdentifier(const Tok &t) { return t.kind == clang::tok::raw_identifier; }

/// A name right after one of these is an expression, not a declaration (`return f(x)`).
bool isExpressionKeyword(llvm::StringRef s) {
  static const llvm::StringRef kKeywords[] = {"return", "co_return", "else",   "do",
                                              "case",   "throw",     "new",    "delete",
                                              "sizeof", "decltype",  "co_await", "co_yield"};
  return llvm::is_contained(kKeywords, s);
}

} // namespace

std::vector<Occurrence> scan(const clang::SourceManager &sm, const clang::LangOptions &lang,
                             llvm::ArrayRef<std::pair<unsigned, unsigned>> skipped) {
  const std::vector<Tok> toks = tokenize(sm, lang, skipped);
  const llvm::StringRef buffer = sm.getBufferData(sm.getMainFileID());
  std::vector<Occurrence> out;
  for (size_t i = 0; i < toks.size(); ++i) {
    const bool leadingScope = toks[i].kind == clang::tok::coloncolon && i + 1 < toks.size() &&
                              isIdentifier(toks[i + 1]);
    if (!isIdentifier(toks[i]) && !leadingScope)
      continue;
    if (i > 0) {
      const Tok &prev = toks[i - 1];
      // Inside a qualified name we already passed, a member access, or a declaration.
      if (prev.kind == clang::tok::coloncolon || prev.kind == clang::tok::period ||
          prev.kind == clang::tok::arrow)
        continue;
      if (isIdentifier(prev) && !isExpressionKeyword(prev.text))
        continue;
    }
    Occurrence occ;
    occ.offset = toks[i].offset;
    size_t j = i;
    if (leadingScope) {
      occ.name = "::";
      ++j;
    }
    occ.name += toks[j].text.str();
    ++j;
    while (j + 1 < toks.size() && toks[j].kind == clang::tok::coloncolon && isIdentifier(toks[j + 1])) {
      occ.name += "::" + toks[j + 1].text.str();
      j += 2;
    }
    size_t next = j;
    if (next < toks.size() && toks[next].kind == clang::tok::less) {
      // Template arguments only matter for launches: `k<128><<<...>>>`.
      const size_t close = matching(toks, next, clang::tok::less, clang::tok::greater);
      if (close < toks.size() && (toks[close].kind == clang::tok::lesslessless ||
                                  toks[close].kind == clang::tok::lessless)) {
        occ.templateArgs = buffer.slice(toks[next].offset, toks[close - 1].offset + 1).str();
        next = close;
      }
    }
    if (next >= toks.size())
      break;
    // In C++ mode `<<<` lexes as `<<` `<` (a launch in a cpp_sources string, which nvcc
    // would reject, is still what the author meant).
    const auto adjacent = [&](size_t at, TokenKind a, TokenKind b) {
      return at + 1 < toks.size() && toks[at].kind == a && toks[at + 1].kind == b &&
             toks[at].offset + toks[at].length == toks[at + 1].offset;
    };
    const size_t openWidth = toks[next].kind == clang::tok::lesslessless ? 1
                             : adjacent(next, clang::tok::lessless, clang::tok::less) ? 2
                                                                                       : 0;
    if (openWidth) {
      size_t close = next + openWidth;
      size_t closeWidth = 0;
      for (; close < toks.size(); ++close) {
        if (toks[close].kind == clang::tok::greatergreatergreater) {
          closeWidth = 1;
          break;
        }
        if (adjacent(close, clang::tok::greatergreater, clang::tok::greater)) {
          closeWidth = 2;
          break;
        }
      }
      if (!closeWidth)
        continue;
      occ.launch = true;
      occ.config = splitArgs(toks, next + openWidth, close, buffer);
      next = close + closeWidth;
    }
    if (next >= toks.size() || toks[next].kind != clang::tok::l_paren)
      continue;
    const size_t end = matching(toks, next, clang::tok::l_paren, clang::tok::r_paren);
    occ.args = splitArgs(toks, next + 1, end > 0 ? end - 1 : end, buffer);
    occ.endOffset = end <= toks.size() && end > 0 ? toks[end - 1].offset + 1 : occ.offset;
    out.push_back(std::move(occ));
    i = j - 1; // arguments are scanned too: calls nest
  }
  return out;
}

} // namespace kbaudit::cxx::lexical
