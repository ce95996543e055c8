// The parser's internals, shared by parser.cc (items, statements, patterns,
// types, recovery) and parser_expr.cc (expressions). Not a public interface.
#ifndef ALEA_LANG_PARSER_IMPL_H_
#define ALEA_LANG_PARSER_IMPL_H_

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/ast.h"
#include "lang/diagnostics.h"
#include "lang/lexer.h"
#include "lang/source.h"
#include "lang/token.h"

namespace alea::lang::internal {

class Parser {
 public:
  Parser(const SourceManager& sources, FileId file, Diagnostics& diags);

  Module ParseModule();
  ExprPtr ParseWholeExpression();

 private:
  friend class DepthGuard;

  // ---- Tokens ----
  const Token& Cur() const { return Peek(0); }
  const Token& Peek(size_t ahead) const;  // lexes on demand
  bool At(TokenKind kind) const { return Cur().kind == kind; }
  const Token& Advance();  // never moves past the final kEof
  bool Eat(TokenKind kind);
  Span PrevSpan() const;  // the last consumed token's
  bool PrevIs(TokenKind kind) const { return pos_ > 0 && tokens_[pos_ - 1].kind == kind; }
  // `fn`, `import` (and `let` where `with_let`) starting a line: where the
  // next item most likely begins after a missing `}`.
  bool AtItemStart(bool with_let) const;

  // ---- Errors ----
  // A syntax error that leaves the parser lost: it reports unless an error is
  // already being recovered from (so one mistake gives one message), and
  // starts recovery. Null when suppressed.
  template <typename... Args>
  Diagnostic* Error(DiagId id, Span span, const Args&... args) {
    if (panic_ || bailed_ || Cur().kind == TokenKind::kError) {
      // At a character the lexer rejected, the lexer's message is the one.
      panic_ = true;
      return nullptr;
    }
    panic_ = true;
    return &diags_.Report(id, span, args...);
  }
  // An error after which parsing goes on as if the input were right.
  template <typename... Args>
  Diagnostic* Complain(DiagId id, Span span, const Args&... args) {
    if (panic_ || bailed_) return nullptr;
    return &diags_.Report(id, span, args...);
  }
  std::string Describe(const Token& token) const;  // "`;`", "end of file"
  std::string TextOf(
      Span span) const;  // std::string: absl::Substitute takes no std::string_view here
  // "expected <what>, found <current token>".
  Diagnostic* ErrorExpected(std::string_view what);
  bool Expect(TokenKind kind);
  // Expects a closing delimiter; when it is missing, notes where `open` was.
  bool ExpectClose(TokenKind close, const Token& open);
  // "expected <what>, found ..." inside a list that `open` began, with a
  // note pointing at `open` when the error is far from it.
  void ErrorInList(std::string_view what, const Token& open);
  // After an error inside a delimited list: skips to its `close` (consumed,
  // and recovery ends) or to a point where an enclosing construct may go on.
  void SkipToClose(TokenKind close);
  void SyncStatement();
  void SyncArm();
  void SyncItem();
  // Warns about a comment that follows an operand and reads as an
  // expression (`n // 2`): C's and Python's floor division, not a comment.
  void WarnCommentsThatReadAsDivision();
  // After `let`: `mut x` is another language's; say so and read on.
  void SkipMut();

  // ---- Items (parser.cc) ----
  void ParseImport(Module& module);
  // `extern_span`: the `extern` before `fn`, for a host function declaration.
  void ParseFn(Module& module, std::optional<Span> extern_span = std::nullopt);
  void ParseTopLet(Module& module);
  void ParseExtern(Module& module);
  void ParseExternSignature(FnDecl& fn);
  void ParseExternLet(Module& module, Span start);
  void ParseParams(std::vector<Param>& params, TokenKind close);
  PatternPtr ParsePattern(bool in_match);
  // After a constructor or record type's name: `(p, ...)` or `{ f: p, .. }`.
  void ParseCtorPattern(Pattern& pattern, bool in_match);

  // ---- Types (parser_types.cc) ----
  TypeAnnPtr ParseType();
  void ParseTypeDecl(Module& module);

  // ---- Expressions (parser_expr.cc) ----
  ExprPtr ParseExpr();
  // Operators from `level` up (0: `||` ... 4: `* / % @`); a given `lhs` is an
  // operand already parsed (a block-like statement continued by an operator).
  ExprPtr ParseBinary(int level, ExprPtr lhs);
  ExprPtr ParseUnary();
  ExprPtr ParsePostfix(ExprPtr callee);
  ExprPtr ParsePrimary();
  ExprPtr ParseParenthesized();
  ExprPtr ParseArray();
  ExprPtr ParseBlock();
  ExprPtr ParseIf();
  ExprPtr ParseMatch();
  ExprPtr ParseWith();
  ExprPtr ParseLambda();
  // After another language's loop keyword: its head and its `{ }` body.
  void SkipLoop();
  // After a record type's name (current: `{`): `{ f: x, g, ..base }`.
  ExprPtr ParseRecordLiteral(ExprPtr name);
  // Whether the tokens from the current `{` on read as a record literal's
  // fields (`{ f:`, `{ f,`, `{ ..`), not a block.
  bool AtRecordBody() const;
  void ParseArgs(Expr& call);
  void ParseIndex(ExprPtr& expr);
  bool AtBlockLike() const;
  // A block-like expression in statement or arm-body position: `if`, `match`,
  // `with` or `{}`, continued only by a binary operator that cannot start an
  // expression (as in Rust, `{ if c { a } else { b } (x) }` is two statements).
  ExprPtr ParseBlockLikeStatement();
  ExprPtr NewExpr(Expr::Kind kind, Span span);
  ExprPtr Placeholder();  // stands for a missing expression

  // ---- Nesting ----
  // Counts one more level; false (after reporting once and abandoning the
  // parse) past kMaxNesting.
  bool Deepen();
  void Shallow(int levels) { depth_ -= levels; }

  const SourceManager& sources_;
  FileId file_;
  Diagnostics& diags_;
  // Lexed lazily so that messages come out in source order; a deque keeps
  // references to tokens valid as it grows.
  mutable Lexer lexer_;
  mutable std::deque<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool panic_ = false;   // an error is being recovered from
  bool bailed_ = false;  // too deep: the rest of the input is ignored
  // Parsing an `if` condition, a `match` scrutinee or a `with` state, where
  // (as in Rust) `Name {` starts the block, not a record literal; what is
  // in parentheses, brackets or braces inside them is free again.
  const char* no_record_ = nullptr;  // how messages name the place
};

// Holds one nesting level for a scope.
class DepthGuard {
 public:
  explicit DepthGuard(Parser* parser) : parser_(parser), ok_(parser->Deepen()) {}
  ~DepthGuard() { parser_->Shallow(1); }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
  bool ok() const { return ok_; }

 private:
  Parser* parser_;
  bool ok_;
};

}  // namespace alea::lang::internal

#endif  // ALEA_LANG_PARSER_IMPL_H_
