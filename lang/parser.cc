#include "lang/parser.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "lang/lexer.h"
#include "lang/parser_impl.h"

namespace alea::lang {
namespace internal {

Parser::Parser(const SourceManager& sources, FileId file, Diagnostics& diags)
    : sources_(sources), file_(file), diags_(diags), lexer_(sources, file, diags) {}

// ---- Tokens -----------------------------------------------------------------

const Token& Parser::Peek(size_t ahead) const {
  size_t at = pos_ + ahead;
  while (tokens_.size() <= at && (tokens_.empty() || tokens_.back().kind != TokenKind::kEof)) {
    tokens_.push_back(lexer_.Next());
  }
  return at < tokens_.size() ? tokens_[at] : tokens_.back();
}

const Token& Parser::Advance() {
  const Token& token = Cur();
  if (token.kind != TokenKind::kEof) ++pos_;
  if (token.unterminated) panic_ = true;  // the lexer has reported it
  return token;
}

bool Parser::Eat(TokenKind kind) {
  if (!At(kind)) return false;
  Advance();
  return true;
}

Span Parser::PrevSpan() const { return pos_ > 0 ? tokens_[pos_ - 1].span : Cur().span; }

bool Parser::AtItemStart(bool with_let) const {
  if (!Cur().at_line_start) return false;
  return At(TokenKind::kFn) || At(TokenKind::kImport) || At(TokenKind::kExtern) ||
         At(TokenKind::kType) || (with_let && At(TokenKind::kLet));
}

// ---- Errors -----------------------------------------------------------------

std::string Parser::TextOf(Span span) const {
  return std::string(sources_.file(file_).text().substr(span.begin, span.end - span.begin));
}

std::string Parser::Describe(const Token& token) const {
  switch (token.kind) {
    case TokenKind::kEof:
      return "end of file";
    case TokenKind::kStr:
      return "string literal";
    default: {
      std::string text = TextOf(token.span);
      if (text.size() > 24) return absl::StrCat("`", text.substr(0, 20), "...`");
      return absl::StrCat("`", text, "`");
    }
  }
}

Diagnostic* Parser::ErrorExpected(std::string_view what) {
  return Error(DiagId::kExpectedToken, Cur().span, std::string(what), Describe(Cur()));
}

bool Parser::Expect(TokenKind kind) {
  if (Eat(kind)) return true;
  ErrorExpected(Spelling(kind));
  return false;
}

bool Parser::ExpectClose(TokenKind close, const Token& open) {
  if (Eat(close)) return true;
  ErrorInList(Spelling(close), open);
  return false;
}

void Parser::ErrorInList(std::string_view what, const Token& open) {
  Diagnostic* d = ErrorExpected(what);
  // Only worth a note when the opener is not right next to the error.
  if (d && (At(TokenKind::kEof) || Cur().span.begin - open.span.end > 40 || Cur().at_line_start)) {
    d->Note(open.span, DiagId::kNoteUnclosed, TextOf(open.span));
  }
}

namespace {

bool IsOpener(TokenKind kind) {
  return kind == TokenKind::kLParen || kind == TokenKind::kLBracket || kind == TokenKind::kLBrace;
}
bool IsCloser(TokenKind kind) {
  return kind == TokenKind::kRParen || kind == TokenKind::kRBracket || kind == TokenKind::kRBrace;
}

}  // namespace

void Parser::SkipToClose(TokenKind close) {
  if (!panic_) return;
  int depth = 0;
  while (!At(TokenKind::kEof) && !AtItemStart(/*with_let=*/true)) {
    TokenKind kind = Cur().kind;
    if (depth == 0) {
      if (kind == close) {
        Advance();
        panic_ = false;
        return;
      }
      if (kind == TokenKind::kSemicolon || IsCloser(kind)) return;
    }
    if (IsOpener(kind)) ++depth;
    if (IsCloser(kind)) --depth;
    Advance();
  }
}

void Parser::SyncStatement() {
  if (!panic_ || bailed_) return;
  if (!PrevIs(TokenKind::kSemicolon)) {
    int depth = 0;
    while (!At(TokenKind::kEof) && !AtItemStart(/*with_let=*/true)) {
      TokenKind kind = Cur().kind;
      if (depth == 0) {
        if (kind == TokenKind::kSemicolon) {
          Advance();
          break;
        }
        if (kind == TokenKind::kRBrace) break;
        // A missing `;` is the likeliest mistake: a line that starts like a
        // statement probably is one.
        if (Cur().at_line_start && (kind == TokenKind::kIdent || kind == TokenKind::kIf ||
                                    kind == TokenKind::kMatch || kind == TokenKind::kWith)) {
          break;
        }
      }
      if (IsOpener(kind)) ++depth;
      // A stray `)` or `]` at the statement's own level is skipped.
      if (IsCloser(kind) && depth > 0) --depth;
      Advance();
    }
  }
  panic_ = false;
}

void Parser::SyncArm() {
  if (!panic_ || bailed_) return;
  int depth = 0;
  while (!At(TokenKind::kEof) && !AtItemStart(/*with_let=*/true)) {
    TokenKind kind = Cur().kind;
    if (depth == 0) {
      if (kind == TokenKind::kComma) {
        Advance();
        break;
      }
      if (kind == TokenKind::kRBrace) break;
      // Arms usually sit one to a line.
      if (Cur().at_line_start &&
          (kind == TokenKind::kIdent || kind == TokenKind::kInt || kind == TokenKind::kUnderscore ||
           kind == TokenKind::kMinus || kind == TokenKind::kTrue || kind == TokenKind::kFalse ||
           kind == TokenKind::kLParen)) {
        break;
      }
    }
    if (IsOpener(kind)) ++depth;
    if (IsCloser(kind) && depth > 0) --depth;
    Advance();
  }
  panic_ = false;
}

void Parser::SyncItem() {
  if (bailed_) return;
  while (!At(TokenKind::kEof) && !AtItemStart(/*with_let=*/true)) Advance();
  panic_ = false;
}

bool Parser::Deepen() {
  ++depth_;
  if (depth_ <= kMaxNesting) return true;
  if (!bailed_) {
    panic_ = false;
    Complain(DiagId::kNestingTooDeep, Cur().span, kMaxNesting);
    bailed_ = true;
    // Ignore the rest, unlexed: it cannot be parsed sensibly.
    Token eof;
    eof.kind = TokenKind::kEof;
    eof.span = Span{file_, Cur().span.begin, Cur().span.begin};
    eof.at_line_start = true;
    tokens_.push_back(std::move(eof));
    pos_ = tokens_.size() - 1;
  }
  return false;
}

// ---- Items ------------------------------------------------------------------

Module Parser::ParseModule() {
  Module module;
  module.file = file_;
  while (!At(TokenKind::kEof)) {
    if (panic_) {
      SyncItem();
      if (At(TokenKind::kEof)) break;
    }
    size_t before = pos_;
    switch (Cur().kind) {
      case TokenKind::kFn:
        ParseFn(module);
        break;
      case TokenKind::kLet:
        ParseTopLet(module);
        break;
      case TokenKind::kImport:
        ParseImport(module);
        break;
      case TokenKind::kExtern:
        ParseExtern(module);
        break;
      case TokenKind::kType:
        ParseTypeDecl(module);
        break;
      default:
        Error(DiagId::kExpectedItem, Cur().span, Describe(Cur()));
        break;
    }
    if (pos_ == before) Advance();  // every round makes progress
  }
  WarnCommentsThatReadAsDivision();
  return module;
}

void Parser::SkipMut() {
  if (At(TokenKind::kIdent) && Cur().text == "mut" && Peek(1).kind == TokenKind::kIdent) {
    Complain(DiagId::kNoLetMut, PrevSpan().To(Cur().span));
    Advance();  // and read on as a plain `let`
  }
}

void Parser::WarnCommentsThatReadAsDivision() {
  if (bailed_) return;
  const std::string_view text = sources_.file(file_).text();
  for (const Span& s : lexer_.comments_after_operands()) {
    std::string_view comment = text.substr(s.begin, s.end - s.begin);
    while (!comment.empty() && (comment.front() == ' ' || comment.front() == '\t')) {
      comment.remove_prefix(1);
    }
    while (!comment.empty() &&
           (comment.back() == ' ' || comment.back() == '\t' || comment.back() == '\r')) {
      comment.remove_suffix(1);
    }
    if (comment.empty() || comment.size() > 80) continue;
    // `// prints (1, 2)` parses as a call, but code does not put a space
    // between a function and its `(` or `[`: that is prose.
    bool spaced_call = false;
    for (size_t i = 0; i + 1 < comment.size() && !spaced_call; ++i) {
      const unsigned char c = static_cast<unsigned char>(comment[i]);
      if (!absl::ascii_isalnum(c) && c != '_') continue;
      size_t k = i + 1;
      if (comment[k] != ' ' && comment[k] != '\t') continue;
      while (k < comment.size() && (comment[k] == ' ' || comment[k] == '\t')) ++k;
      spaced_call = k < comment.size() && (comment[k] == '(' || comment[k] == '[');
    }
    if (spaced_call) continue;
    // Only a whole expression, and more than a word: prose never parses
    // (`// true mean 2`, `// d loss / d out`), and `x // note` is a note.
    SourceManager probe;
    FileId file = probe.Add("<comment>", std::string(comment));
    Diagnostics quiet;
    ExprPtr e = ParseExpression(probe, file, quiet);
    if (quiet.has_errors() || e == nullptr || e->kind == Expr::Kind::kName ||
        e->kind == Expr::Kind::kBool || e->kind == Expr::Kind::kStr) {
      continue;
    }
    diags_.Report(DiagId::kCommentLooksLikeDivision, Span{file_, s.begin - 2, s.end},
                  std::string(comment));
  }
}

ExprPtr Parser::ParseWholeExpression() {
  ExprPtr e = ParseExpr();
  if (!At(TokenKind::kEof)) ErrorExpected("end of file");
  return e;
}

void Parser::ParseImport(Module& module) {
  Import import;
  Span start = Advance().span;
  if (At(TokenKind::kStr)) {
    import.path_span = Cur().span;
    import.path = Advance().text;
  } else {
    ErrorExpected("a file name in double quotes");
  }
  import.span = start.To(PrevSpan());
  Eat(TokenKind::kSemicolon);
  module.imports.push_back(std::move(import));
}

void Parser::ParseFn(Module& module, std::optional<Span> extern_span) {
  auto fn = std::make_unique<FnDecl>();
  Span start = Advance().span;
  if (extern_span) {
    fn->is_extern = true;
    start = *extern_span;
  }
  if (At(TokenKind::kIdent)) {
    fn->name_span = Cur().span;
    fn->name = Advance().text;
  } else {
    ErrorExpected("a function name");
    return;
  }
  if (At(TokenKind::kLParen)) {
    ParseParams(fn->params, TokenKind::kRParen);
  } else {
    ErrorExpected(Spelling(TokenKind::kLParen));
    return;
  }
  if (Eat(TokenKind::kArrow)) fn->result = ParseType();
  if (At(TokenKind::kUses)) {
    Span uses = Advance().span;
    if (At(TokenKind::kIdent) && Cur().text == "rng") {
      fn->uses_rng = true;
      fn->uses_rng_span = uses.To(Advance().span);
    } else {
      Error(DiagId::kExpectedRng, Cur().span, Describe(Cur()));
    }
  }
  if (fn->is_extern) {
    ParseExternSignature(*fn);
  } else if (Eat(TokenKind::kAssign)) {
    fn->body = ParseExpr();
  } else if (At(TokenKind::kLBrace)) {
    fn->body = ParseBlock();
  } else {
    ErrorExpected(fn->result ? "`=` or `{`" : "`->`, `=` or `{`");
    fn->body = Placeholder();
  }
  fn->span = start.To(PrevSpan());
  Eat(TokenKind::kSemicolon);
  module.fns.push_back(std::move(fn));
}

// `extern fn name(x: T, ...) -> R` or `extern let name: T`: declarations the
// host application fills in (include/alea/vm.h). Every type is written out so
// that the host's registration can be checked against it when it loads.
void Parser::ParseExtern(Module& module) {
  Span start = Advance().span;
  if (At(TokenKind::kFn)) {
    ParseFn(module, start);
  } else if (At(TokenKind::kLet)) {
    ParseExternLet(module, start);
  } else {
    Error(DiagId::kExpectedExternItem, Cur().span, Describe(Cur()));
  }
}

// After an extern fn's parameters and result: every type is required, there
// is no `uses rng` and no body; a missing result is `()`.
void Parser::ParseExternSignature(FnDecl& fn) {
  for (const Param& param : fn.params) {
    if (param.type == nullptr && param.pattern != nullptr) {
      Error(DiagId::kExternNeedsType, param.pattern->span, "a parameter", fn.name);
    }
  }
  if (fn.uses_rng) Error(DiagId::kExternUsesRng, fn.uses_rng_span);
  if (fn.result == nullptr) {
    fn.result = std::make_unique<TypeAnn>();
    fn.result->kind = TypeAnn::Kind::kTuple;
    fn.result->span = Span{fn.name_span.file, PrevSpan().end, PrevSpan().end};
  }
  if (At(TokenKind::kAssign) || At(TokenKind::kLBrace)) {
    Error(DiagId::kExternHasBody, Cur().span);
    if (Eat(TokenKind::kAssign)) {
      ParseExpr();
    } else {
      ParseBlock();
    }
  }
}

void Parser::ParseExternLet(Module& module, Span start) {
  auto let = std::make_unique<TopLet>();
  let->is_extern = true;
  Advance();  // `let`
  let->pattern = ParsePattern(/*in_match=*/false);
  if (let->pattern->kind != Pattern::Kind::kVar) {
    Error(DiagId::kExternLetPattern, let->pattern->span);
  }
  if (Eat(TokenKind::kColon)) {
    let->type = ParseType();
  } else {
    Error(DiagId::kExternNeedsType, let->pattern->span, "the value",
          let->pattern->kind == Pattern::Kind::kVar ? let->pattern->name : "let");
  }
  if (At(TokenKind::kAssign)) {
    Error(DiagId::kExternLetHasValue, Cur().span);
    Advance();
    ParseExpr();
  }
  let->span = start.To(PrevSpan());
  Eat(TokenKind::kSemicolon);
  module.lets.push_back(std::move(let));
}

void Parser::ParseTopLet(Module& module) {
  auto let = std::make_unique<TopLet>();
  Span start = Advance().span;
  SkipMut();
  let->pattern = ParsePattern(/*in_match=*/false);
  if (Eat(TokenKind::kColon)) let->type = ParseType();
  if (Expect(TokenKind::kAssign)) {
    let->value = ParseExpr();
  } else {
    let->value = Placeholder();
  }
  let->span = start.To(PrevSpan());
  Eat(TokenKind::kSemicolon);
  module.lets.push_back(std::move(let));
}

// `(p: T, q, ...)` for functions, `|p: T, q|` for lambdas (the opener is current).
void Parser::ParseParams(std::vector<Param>& params, TokenKind close) {
  const Token& open = Advance();
  while (!At(close) && !At(TokenKind::kEof)) {
    Param param;
    param.pattern = ParsePattern(/*in_match=*/false);
    if (Eat(TokenKind::kColon)) param.type = ParseType();
    params.push_back(std::move(param));
    if (panic_) break;
    if (Eat(TokenKind::kComma)) continue;
    if (!At(close)) {
      ErrorInList(absl::StrCat("`,` or ", Spelling(close)), open);
      break;
    }
  }
  if (panic_) {
    SkipToClose(close);
  } else {
    ExpectClose(close, open);
  }
}

// ---- Patterns ---------------------------------------------------------------

PatternPtr Parser::ParsePattern(bool in_match) {
  auto pattern = std::make_unique<Pattern>();
  pattern->kind = Pattern::Kind::kWildcard;
  pattern->span = Cur().span;
  DepthGuard guard(this);
  if (!guard.ok()) return pattern;
  Span start = Cur().span;
  switch (Cur().kind) {
    case TokenKind::kUnderscore:
      Advance();
      return pattern;
    case TokenKind::kIdent:
      // An upper-case name is always a constructor (or a record type).
      if (absl::ascii_isupper(Cur().text[0])) {
        pattern->kind = Pattern::Kind::kCtor;
        pattern->name = Advance().text;
        ParseCtorPattern(*pattern, in_match);
        pattern->span = start.To(PrevSpan());
        return pattern;
      }
      pattern->kind = Pattern::Kind::kVar;
      pattern->name = Advance().text;
      return pattern;
    case TokenKind::kInt:
    case TokenKind::kMinus:
      if (At(TokenKind::kMinus) && Peek(1).kind != TokenKind::kInt) break;
      pattern->kind = Pattern::Kind::kInt;
      if (Eat(TokenKind::kMinus)) {
        // The magnitude is at most 2^63 - 1, so negating cannot overflow.
        pattern->int_value = -Advance().int_value;
      } else {
        pattern->int_value = Advance().int_value;
      }
      pattern->span = start.To(PrevSpan());
      if (!in_match) Complain(DiagId::kLiteralPattern, pattern->span, TextOf(pattern->span));
      return pattern;
    case TokenKind::kStr:
      pattern->kind = Pattern::Kind::kStr;
      pattern->str_value = Advance().text;
      if (!in_match) Complain(DiagId::kLiteralPattern, pattern->span, TextOf(pattern->span));
      return pattern;
    case TokenKind::kTrue:
    case TokenKind::kFalse:
      pattern->kind = Pattern::Kind::kBool;
      pattern->bool_value = Advance().kind == TokenKind::kTrue;
      if (!in_match) Complain(DiagId::kLiteralPattern, pattern->span, TextOf(pattern->span));
      return pattern;
    case TokenKind::kLParen: {
      const Token& open = Advance();
      pattern->kind = Pattern::Kind::kTuple;
      bool trailing_comma = false;
      while (!At(TokenKind::kRParen) && !At(TokenKind::kEof) && !panic_) {
        pattern->elements.push_back(ParsePattern(in_match));
        trailing_comma = Eat(TokenKind::kComma);
        if (!trailing_comma && !At(TokenKind::kRParen)) ErrorInList("`,` or `)`", open);
      }
      if (panic_) {
        SkipToClose(TokenKind::kRParen);
      } else {
        ExpectClose(TokenKind::kRParen, open);
      }
      if (pattern->elements.size() == 1) {
        if (trailing_comma) {
          Complain(DiagId::kOneTuple, start.To(PrevSpan()), TextOf(pattern->elements[0]->span));
        }
        return std::move(pattern->elements[0]);
      }
      pattern->span = start.To(PrevSpan());
      return pattern;
    }
    default:
      break;
  }
  ErrorExpected("a pattern");
  return pattern;
}

void Parser::ParseCtorPattern(Pattern& pattern, bool in_match) {
  if (At(TokenKind::kLParen)) {
    const Token& open = Advance();
    while (!At(TokenKind::kRParen) && !At(TokenKind::kEof) && !panic_) {
      pattern.elements.push_back(ParsePattern(in_match));
      if (!Eat(TokenKind::kComma) && !At(TokenKind::kRParen)) ErrorInList("`,` or `)`", open);
    }
    if (panic_) {
      SkipToClose(TokenKind::kRParen);
    } else {
      ExpectClose(TokenKind::kRParen, open);
    }
    return;
  }
  if (!At(TokenKind::kLBrace)) return;
  pattern.kind = Pattern::Kind::kRecord;
  const Token& open = Advance();
  while (!At(TokenKind::kRBrace) && !At(TokenKind::kEof) && !panic_) {
    if (At(TokenKind::kDotDot)) {
      Advance();
      pattern.rest = true;
      if (!At(TokenKind::kRBrace)) ErrorInList("`}` after `..`", open);
      break;
    }
    if (!At(TokenKind::kIdent)) {
      ErrorInList("a field name or `..`", open);
      break;
    }
    Span field_span = Cur().span;
    std::string field = Advance().text;
    PatternPtr sub;
    if (Eat(TokenKind::kColon)) {
      sub = ParsePattern(in_match);
    } else {
      // `{ mu }` binds the field to a variable of its name.
      sub = std::make_unique<Pattern>();
      sub->kind = Pattern::Kind::kVar;
      sub->span = field_span;
      sub->name = field;
    }
    pattern.field_names.push_back(std::move(field));
    pattern.field_spans.push_back(field_span);
    pattern.elements.push_back(std::move(sub));
    if (!Eat(TokenKind::kComma) && !At(TokenKind::kRBrace)) ErrorInList("`,` or `}`", open);
  }
  if (panic_) {
    SkipToClose(TokenKind::kRBrace);
  } else {
    ExpectClose(TokenKind::kRBrace, open);
  }
}

}  // namespace internal

Module Parse(const SourceManager& sources, FileId file, Diagnostics& diags) {
  return internal::Parser(sources, file, diags).ParseModule();
}

ExprPtr ParseExpression(const SourceManager& sources, FileId file, Diagnostics& diags) {
  return internal::Parser(sources, file, diags).ParseWholeExpression();
}

}  // namespace alea::lang
