// The lexer: source text to tokens.
//
// It never stops at an error: each bad character, escape or literal is
// reported and skipped or replaced by a best guess (an unexpected character
// becomes a kError token, which the parser skips without a second message),
// so one mistake never hides the next.
#ifndef ALEA_LANG_LEXER_H_
#define ALEA_LANG_LEXER_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/diagnostics.h"
#include "lang/source.h"
#include "lang/token.h"

namespace alea::lang {

// All tokens of a file; the last one is the only kEof.
std::vector<Token> Lex(const SourceManager& sources, FileId file, Diagnostics& diags);

// Tokens one at a time, so the parser's and the lexer's messages come out in
// source order.
class Lexer {
 public:
  Lexer(const SourceManager& sources, FileId file, Diagnostics& diags);
  // The next token; kEof (again and again) at the end.
  Token Next();
  // The `//` comments that follow an operand on its line (`x // 2`): where
  // someone may have meant a division. Spans start after the `//`.
  const std::vector<Span>& comments_after_operands() const { return comments_after_operands_; }

 private:
  char At(size_t i) const;
  Span SpanFrom(size_t begin) const;
  void SkipWhitespaceAndComments();
  Token& Push(TokenKind kind, size_t begin);
  std::pair<std::string, size_t> Printable(size_t i) const;
  void LexOne();
  void LexIdentifier();
  void LexNumber();
  void LexString();

  FileId file_;
  std::string_view text_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  uint32_t last_end_ = 0;
  bool at_line_start_ = true;
  TokenKind last_kind_ = TokenKind::kEof;  // of the token before the current one
  std::vector<Span> comments_after_operands_;
  Token token_;
};

}  // namespace alea::lang

#endif  // ALEA_LANG_LEXER_H_
