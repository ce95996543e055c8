#include "lang/lexer.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/strings/str_format.h"

namespace alea::lang {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }

// The length of the well-formed UTF-8 sequence at text[i], or 0 if there is none.
size_t Utf8Length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  size_t length;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) lo = 0xA0;  // overlong
    if (lead == 0xED) hi = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) lo = 0x90;  // overlong
    if (lead == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

Lexer::Lexer(const SourceManager& sources, FileId file, Diagnostics& diags)
    : file_(file), text_(sources.file(file).text()), diags_(diags) {}

Token Lexer::Next() {
  SkipWhitespaceAndComments();
  if (pos_ >= text_.size()) {
    // At the end of the last token, so "found end of file" points just past
    // the code rather than at an empty line after it.
    token_ = Token{};
    token_.kind = TokenKind::kEof;
    token_.span = Span{file_, last_end_, last_end_};
    token_.at_line_start = true;
    return std::move(token_);
  }
  LexOne();
  last_end_ = token_.span.end;
  last_kind_ = token_.kind;
  return std::move(token_);
}

char Lexer::At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

Span Lexer::SpanFrom(size_t begin) const {
  return Span{file_, static_cast<uint32_t>(begin), static_cast<uint32_t>(pos_)};
}

void Lexer::SkipWhitespaceAndComments() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '\n') {
      at_line_start_ = true;
      ++pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '/' && At(pos_ + 1) == '/') {
      const size_t begin = pos_ + 2;
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      const bool after_operand =
          !at_line_start_ && (last_kind_ == TokenKind::kIdent || last_kind_ == TokenKind::kInt ||
                              last_kind_ == TokenKind::kFloat || last_kind_ == TokenKind::kRParen ||
                              last_kind_ == TokenKind::kRBracket);
      if (after_operand) {
        comments_after_operands_.push_back(
            Span{file_, static_cast<uint32_t>(begin), static_cast<uint32_t>(pos_)});
      }
    } else {
      break;
    }
  }
}

Token& Lexer::Push(TokenKind kind, size_t begin) {
  token_ = Token{};
  token_.kind = kind;
  token_.span = SpanFrom(begin);
  token_.at_line_start = at_line_start_;
  at_line_start_ = false;
  return token_;
}

// How a message shows the character at text_[i] (and how many bytes it has):
// printable ASCII as itself, a well-formed UTF-8 character whole, anything
// else as `\xNN` so the terminal shows something visible.
std::pair<std::string, size_t> Lexer::Printable(size_t i) const {
  unsigned char c = static_cast<unsigned char>(text_[i]);
  if (c >= 0x20 && c < 0x7F) return {std::string(1, static_cast<char>(c)), 1};
  if (size_t length = Utf8Length(text_, i); length > 0) {
    return {std::string(text_.substr(i, length)), length};
  }
  return {absl::StrFormat("\\x%02X", c), 1};
}

void Lexer::LexOne() {
  size_t begin = pos_;
  char c = text_[pos_];
  if (IsIdentStart(c)) return LexIdentifier();
  if (IsDigit(c)) return LexNumber();
  if (c == '"') return LexString();
  auto one = [&](TokenKind kind) {
    ++pos_;
    Push(kind, begin);
  };
  auto two = [&](char next, TokenKind pair, TokenKind single) {
    if (At(pos_ + 1) == next) {
      pos_ += 2;
      Push(pair, begin);
    } else {
      one(single);
    }
  };
  switch (c) {
    case '(':
      return one(TokenKind::kLParen);
    case ')':
      return one(TokenKind::kRParen);
    case '[':
      return one(TokenKind::kLBracket);
    case ']':
      return one(TokenKind::kRBracket);
    case '{':
      return one(TokenKind::kLBrace);
    case '}':
      return one(TokenKind::kRBrace);
    case ',':
      return one(TokenKind::kComma);
    case ';':
      return one(TokenKind::kSemicolon);
    case ':':
      return one(TokenKind::kColon);
    case '.':
      return two('.', TokenKind::kDotDot, TokenKind::kDot);
    case '+':
      return one(TokenKind::kPlus);
    case '*':
      return one(TokenKind::kStar);
    case '/':
      return one(TokenKind::kSlash);
    case '%':
      return one(TokenKind::kPercent);
    case '@':
      return one(TokenKind::kAt);
    case '-':
      return two('>', TokenKind::kArrow, TokenKind::kMinus);
    case '|':
      return two('|', TokenKind::kPipePipe, TokenKind::kPipe);
    case '!':
      return two('=', TokenKind::kNotEq, TokenKind::kBang);
    case '<':
      return two('=', TokenKind::kLe, TokenKind::kLt);
    case '>':
      return two('=', TokenKind::kGe, TokenKind::kGt);
    case '=':
      if (At(pos_ + 1) == '>') {
        pos_ += 2;
        Push(TokenKind::kFatArrow, begin);
        return;
      }
      return two('=', TokenKind::kEqEq, TokenKind::kAssign);
    case '&':
      if (At(pos_ + 1) == '&') {
        pos_ += 2;
        Push(TokenKind::kAmpAmp, begin);
        return;
      }
      break;
    default:
      break;
  }
  auto [shown, length] = Printable(pos_);
  pos_ += length;
  diags_.Report(DiagId::kUnexpectedCharacter, SpanFrom(begin), shown);
  // The parser skips this token without a message of its own.
  Push(TokenKind::kError, begin);
}

void Lexer::LexIdentifier() {
  size_t begin = pos_;
  while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
  std::string_view word = text_.substr(begin, pos_ - begin);
  if (word == "_") {
    Push(TokenKind::kUnderscore, begin);
    return;
  }
  for (int k = static_cast<int>(kFirstKeyword); k <= static_cast<int>(kLastKeyword); ++k) {
    std::string_view spelling = Spelling(static_cast<TokenKind>(k));
    spelling = spelling.substr(1, spelling.size() - 2);  // without the backquotes
    if (word == spelling) {
      Push(static_cast<TokenKind>(k), begin);
      return;
    }
  }
  Push(TokenKind::kIdent, begin).text = std::string(word);
}

void Lexer::LexNumber() {
  size_t begin = pos_;
  while (IsDigit(At(pos_))) ++pos_;
  bool is_float = false;
  const char* help = nullptr;  // set when the literal is malformed
  if (At(pos_) == '.' && IsDigit(At(pos_ + 1))) {
    is_float = true;
    ++pos_;
    while (IsDigit(At(pos_))) ++pos_;
  } else if (At(pos_) == '.' && At(pos_ + 1) != '.') {
    // `1.` reads as a float with its fraction forgotten: say how to write it.
    ++pos_;
    is_float = true;
    help = "write the fraction too, as in `1.0`";
  }
  if (!help && (At(pos_) == 'e' || At(pos_) == 'E')) {
    size_t digits = pos_ + 1;
    if (At(digits) == '+' || At(digits) == '-') ++digits;
    is_float = true;
    if (IsDigit(At(digits))) {
      pos_ = digits;
      while (IsDigit(At(pos_))) ++pos_;
    } else {
      pos_ = digits;
      help = "an exponent needs digits, as in `1e5` or `2.5e-3`";
    }
  }
  if (IsIdentChar(At(pos_))) {
    while (IsIdentChar(At(pos_))) ++pos_;
    if (!help) help = "a number cannot run into a name: separate them with a space or operator";
  }
  std::string_view literal = text_.substr(begin, pos_ - begin);
  if (help) {
    diags_.Report(DiagId::kMalformedFloat, SpanFrom(begin), std::string(literal), help);
    // A best guess keeps the parser going: the number's leading digits.
    Token& token = Push(is_float ? TokenKind::kFloat : TokenKind::kInt, begin);
    double value = 0;
    std::from_chars(literal.data(), literal.data() + literal.size(), value);
    token.float_value = value;
    return;
  }
  if (!is_float) {
    int64_t value = 0;
    bool too_large = false;
    for (char d : literal) {
      int digit = d - '0';
      if (value > (INT64_MAX - digit) / 10) {
        too_large = true;
        break;
      }
      value = value * 10 + digit;
    }
    if (too_large) {
      diags_.Report(DiagId::kIntLiteralTooLarge, SpanFrom(begin), std::string(literal));
      value = 0;
    }
    Push(TokenKind::kInt, begin).int_value = value;
    return;
  }
  double value = 0;
  auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves the value unspecified here; strtod tells overflow
    // (an error) from underflow (a tiny number rounds to 0, as in Python).
    std::string copy(literal);
    value = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(value)) {
      diags_.Report(DiagId::kFloatLiteralTooLarge, SpanFrom(begin), std::string(literal));
      value = 0;
    }
  }
  Push(TokenKind::kFloat, begin).float_value = value;
}

void Lexer::LexString() {
  size_t begin = pos_;
  ++pos_;  // the opening quote
  std::string value;
  bool unterminated = false;
  while (true) {
    if (pos_ >= text_.size() || text_[pos_] == '\n') {
      diags_.Report(DiagId::kUnterminatedString, SpanFrom(begin));
      unterminated = true;
      break;
    }
    char c = text_[pos_];
    if (c == '"') {
      ++pos_;
      break;
    }
    if (c != '\\') {
      value += c;
      ++pos_;
      continue;
    }
    char e = At(pos_ + 1);
    if (pos_ + 1 >= text_.size() || e == '\n') {
      ++pos_;  // the line ends inside the string: reported above next round
      continue;
    }
    switch (e) {
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case '"':
        value += '"';
        break;
      case '\\':
        value += '\\';
        break;
      default: {
        auto [shown, length] = Printable(pos_ + 1);
        size_t escape_begin = pos_;
        pos_ += 1 + length;
        diags_.Report(DiagId::kUnknownEscape, SpanFrom(escape_begin), shown);
        // Keep the character itself: the best guess at what was meant.
        value += text_.substr(escape_begin + 1, length);
        continue;
      }
    }
    pos_ += 2;
  }
  Token& token = Push(TokenKind::kStr, begin);
  token.text = std::move(value);
  token.unterminated = unterminated;
}

std::vector<Token> Lex(const SourceManager& sources, FileId file, Diagnostics& diags) {
  Lexer lexer(sources, file, diags);
  std::vector<Token> tokens;
  do {
    tokens.push_back(lexer.Next());
  } while (tokens.back().kind != TokenKind::kEof);
  return tokens;
}

}  // namespace alea::lang
