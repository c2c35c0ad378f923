// Clang's raw lexer in CUDA mode: `<<<` and `>>>` are single tokens there, and every branch of
// a conditional and every macro body is lexed (a launch inside a #define is rewritten where it
// is written).

#include "token.h"

#include <clang/Basic/FileManager.h>
#include <clang/Basic/LangOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/TokenKinds.h>
#include <clang/Lex/Lexer.h>

namespace kbaudit::cudacpu {

namespace {

clang::LangOptions cudaLanguage() {
  clang::LangOptions lo;
  lo.CPlusPlus = lo.CPlusPlus11 = lo.CPlusPlus14 = lo.CPlusPlus17 = true;
  lo.CUDA = true;
  lo.Bool = true;
  lo.LineComment = true;
  lo.Digraphs = true;
  return lo;
}

TokenKind kindOf(clang::tok::TokenKind k) {
  switch (k) {
  case clang::tok::raw_identifier:
    return TokenKind::Identifier;
  case clang::tok::numeric_constant:
    return TokenKind::Number;
  case clang::tok::string_literal:
  case clang::tok::wide_string_literal:
  case clang::tok::utf8_string_literal:
  case clang::tok::utf16_string_literal:
  case clang::tok::utf32_string_literal:
    return TokenKind::String;
  case clang::tok::char_constant:
  case clang::tok::wide_char_constant:
  case clang::tok::utf8_char_constant:
  case clang::tok::utf16_char_constant:
  case clang::tok::utf32_char_constant:
    return TokenKind::Char;
  default:
    return clang::tok::getPunctuatorSpelling(k) ? TokenKind::Punct : TokenKind::Other;
  }
}

} // namespace

std::vector<Token> lex(std::string_view source, std::size_t &stoppedAt) {
  std::vector<Token> out;
  stoppedAt = source.size();
  // Clang's lexer reads up to a terminating NUL: lex a copy that has one.
  const std::string text(source);
  clang::SourceManagerForFile files("cuda.cu", text);
  clang::SourceManager &sm = files.get();
  const clang::LangOptions lo = cudaLanguage();
  const clang::FileID fid = sm.getMainFileID();
  const llvm::StringRef buffer = sm.getBufferData(fid);
  clang::Lexer lexer(sm.getLocForStartOfFile(fid), lo, buffer.begin(), buffer.begin(), buffer.end());
  lexer.SetCommentRetentionState(false);
  clang::Token tok;
  for (;;) {
    lexer.LexFromRawLexer(tok);
    if (tok.is(clang::tok::eof))
      break;
    const std::size_t offset = sm.getFileOffset(tok.getLocation());
    if (tok.is(clang::tok::unknown)) {
      // A stray character (a backslash, an unterminated quote): keep going past it.
      const llvm::StringRef spelling(buffer.data() + offset, tok.getLength());
      if (spelling.startswith("\"") || spelling.startswith("'")) {
        stoppedAt = offset;
        break;
      }
    }
    Token t;
    t.kind = kindOf(tok.getKind());
    t.offset = offset;
    t.text = source.substr(offset, tok.getLength());
    t.line = sm.getLineNumber(fid, static_cast<unsigned>(offset));
    t.startsLine = tok.isAtStartOfLine();
    out.push_back(t);
  }
  return out;
}

std::size_t matching(const std::vector<Token> &tokens, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < tokens.size(); ++i) {
    const Token &t = tokens[i];
    if (t.kind != TokenKind::Punct)
      continue;
    if (t.text == "(" || t.text == "[" || t.text == "{" || t.text == "<<<")
      ++depth;
    else if (t.text == ")" || t.text == "]" || t.text == "}" || t.text == ">>>") {
      if (--depth == 0)
        return i;
      if (depth < 0)
        return tokens.size();
    }
  }
  return tokens.size();
}

} // namespace kbaudit::cudacpu
