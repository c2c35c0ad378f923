#pragma once

// The source as tokens (Clang's raw lexer in CUDA mode, tokens.cpp), in plain structs the
// rewriting passes share.

#include <string>
#include <string_view>
#include <vector>

namespace kbaudit::cudacpu {

enum class TokenKind { Identifier, Punct, String, Char, Number, Other };

struct Token {
  TokenKind kind = TokenKind::Other;
  std::string_view text; ///< the spelling, as in the source (a view into it)
  std::size_t offset = 0;
  unsigned line = 0;
  bool startsLine = false; ///< first token of its line (a preprocessor directive's `#`)

  bool is(std::string_view punct) const { return kind == TokenKind::Punct && text == punct; }
  bool isIdentifier(std::string_view name) const { return kind == TokenKind::Identifier && text == name; }
  std::size_t end() const { return offset + text.size(); }
};

/// The tokens of `source` (comments dropped). `stoppedAt` is the offset where lexing could not
/// go on (an unterminated literal), or source.size().
std::vector<Token> lex(std::string_view source, std::size_t &stoppedAt);

/// An edit of the source: replace [offset, offset + length) with `text`.
struct Edit {
  std::size_t offset = 0, length = 0;
  std::string text;
};

/// The index of the token closing the bracket opened at `open` ("(", "[", "{" or "<<<"), or
/// tokens.size() when it is not closed.
std::size_t matching(const std::vector<Token> &tokens, std::size_t open);

} // namespace kbaudit::cudacpu
