// Tokens: what the lexer hands the parser.
//
// Every kind comes from the one table below, so the enum, the names used in
// tests and the wording in "expected `)`, found `;`" cannot drift apart.
#ifndef ALEA_LANG_TOKEN_H_
#define ALEA_LANG_TOKEN_H_

#include <cstdint>
#include <string>

#include "lang/source.h"

namespace alea::lang {

// X(kind, spelling): the spelling is how messages name the token. Keywords are
// the run kFn..kFalse; their text is the spelling without its backquotes.
#define ALEA_TOKENS(X)           \
  X(kEof, "end of file")         \
  X(kError, "invalid character") \
  X(kInt, "integer literal")     \
  X(kFloat, "float literal")     \
  X(kStr, "string literal")      \
  X(kIdent, "identifier")        \
  X(kUnderscore, "`_`")          \
  X(kFn, "`fn`")                 \
  X(kLet, "`let`")               \
  X(kIf, "`if`")                 \
  X(kElse, "`else`")             \
  X(kMatch, "`match`")           \
  X(kWith, "`with`")             \
  X(kUses, "`uses`")             \
  X(kImport, "`import`")         \
  X(kExtern, "`extern`")         \
  X(kType, "`type`")             \
  X(kTrue, "`true`")             \
  X(kFalse, "`false`")           \
  X(kLParen, "`(`")              \
  X(kRParen, "`)`")              \
  X(kLBracket, "`[`")            \
  X(kRBracket, "`]`")            \
  X(kLBrace, "`{`")              \
  X(kRBrace, "`}`")              \
  X(kComma, "`,`")               \
  X(kSemicolon, "`;`")           \
  X(kColon, "`:`")               \
  X(kDot, "`.`")                 \
  X(kDotDot, "`..`")             \
  X(kArrow, "`->`")              \
  X(kFatArrow, "`=>`")           \
  X(kAssign, "`=`")              \
  X(kPipe, "`|`")                \
  X(kPipePipe, "`||`")           \
  X(kAmpAmp, "`&&`")             \
  X(kBang, "`!`")                \
  X(kPlus, "`+`")                \
  X(kMinus, "`-`")               \
  X(kStar, "`*`")                \
  X(kSlash, "`/`")               \
  X(kPercent, "`%`")             \
  X(kAt, "`@`")                  \
  X(kEqEq, "`==`")               \
  X(kNotEq, "`!=`")              \
  X(kLt, "`<`")                  \
  X(kLe, "`<=`")                 \
  X(kGt, "`>`")                  \
  X(kGe, "`>=`")

enum class TokenKind : uint8_t {
#define ALEA_TOKEN_ENUM(kind, spelling) kind,
  ALEA_TOKENS(ALEA_TOKEN_ENUM)
#undef ALEA_TOKEN_ENUM
};

inline constexpr TokenKind kFirstKeyword = TokenKind::kFn;
inline constexpr TokenKind kLastKeyword = TokenKind::kFalse;

// How messages name a kind: "`(`", "identifier", "end of file".
inline const char* Spelling(TokenKind kind) {
  static constexpr const char* kSpellings[] = {
#define ALEA_TOKEN_SPELLING(kind, spelling) spelling,
      ALEA_TOKENS(ALEA_TOKEN_SPELLING)
#undef ALEA_TOKEN_SPELLING
  };
  return kSpellings[static_cast<size_t>(kind)];
}

// The enumerator's name ("kLParen"), for tests and debugging dumps.
inline const char* KindName(TokenKind kind) {
  static constexpr const char* kNames[] = {
#define ALEA_TOKEN_NAME(kind, spelling) #kind,
      ALEA_TOKENS(ALEA_TOKEN_NAME)
#undef ALEA_TOKEN_NAME
  };
  return kNames[static_cast<size_t>(kind)];
}

struct Token {
  TokenKind kind = TokenKind::kEof;
  Span span;
  // First token on its line: the parser resynchronizes at a `fn`, `let` or
  // `import` that starts a line, since that is where the next item usually is.
  bool at_line_start = false;
  int64_t int_value = 0;   // kInt (0 after an error)
  double float_value = 0;  // kFloat
  std::string text;        // kIdent: the name; kStr: the decoded contents
  // A string literal missing its closing quote: it took the rest of the line,
  // so the parser stays quiet until it has resynchronized.
  bool unterminated = false;
};

}  // namespace alea::lang

#endif  // ALEA_LANG_TOKEN_H_
