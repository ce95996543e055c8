// Expressions and blocks: precedence climbing over the levels of
// docs/language.md "Expressions", lowest first: lambda, `||`, `&&`,
// comparisons (not associative), `+ -`, `* / % @`, unary `- !`, postfix
// call/index/slice, primaries.
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "lang/parser.h"
#include "lang/parser_impl.h"

namespace alea::lang::internal {
namespace {

constexpr int kComparisonLevel = 2;
constexpr int kUnaryLevel = 5;
// A chain of binary operators or postfix calls (`1 + 2 + ... + 9`) nests the
// tree one level per link but is no harder to read: it costs a nesting level
// per this many links, so long flat chains stay legal while the tree's depth
// stays bounded (by about kLinksPerLevel * kMaxNesting).
constexpr int kLinksPerLevel = 8;

std::optional<BinaryOp> BinaryOpAt(TokenKind kind, int level) {
  switch (level) {
    case 0:
      if (kind == TokenKind::kPipePipe) return BinaryOp::kOr;
      break;
    case 1:
      if (kind == TokenKind::kAmpAmp) return BinaryOp::kAnd;
      break;
    case kComparisonLevel:
      switch (kind) {
        case TokenKind::kEqEq:
          return BinaryOp::kEq;
        case TokenKind::kNotEq:
          return BinaryOp::kNe;
        case TokenKind::kLt:
          return BinaryOp::kLt;
        case TokenKind::kLe:
          return BinaryOp::kLe;
        case TokenKind::kGt:
          return BinaryOp::kGt;
        case TokenKind::kGe:
          return BinaryOp::kGe;
        default:
          break;
      }
      break;
    case 3:
      if (kind == TokenKind::kPlus) return BinaryOp::kAdd;
      if (kind == TokenKind::kMinus) return BinaryOp::kSub;
      break;
    case 4:
      if (kind == TokenKind::kStar) return BinaryOp::kMul;
      if (kind == TokenKind::kSlash) return BinaryOp::kDiv;
      if (kind == TokenKind::kPercent) return BinaryOp::kRem;
      if (kind == TokenKind::kAt) return BinaryOp::kMatMul;
      break;
    default:
      break;
  }
  return std::nullopt;
}

// A binary operator that cannot begin an expression, so after a block-like
// statement it continues that expression rather than starting a new one.
bool ContinuesBlockLike(TokenKind kind) {
  if (kind == TokenKind::kMinus || kind == TokenKind::kPipePipe) return false;
  for (int level = 0; level < kUnaryLevel; ++level) {
    if (BinaryOpAt(kind, level)) return true;
  }
  return false;
}

// Sets Parser::no_record_ for a scope and restores it after.
class NoRecordScope {
 public:
  NoRecordScope(const char*& slot, const char* value) : slot_(slot), saved_(slot) { slot = value; }
  ~NoRecordScope() { slot_ = saved_; }
  NoRecordScope(const NoRecordScope&) = delete;
  NoRecordScope& operator=(const NoRecordScope&) = delete;

 private:
  const char*& slot_;
  const char* saved_;
};

}  // namespace

ExprPtr Parser::NewExpr(Expr::Kind kind, Span span) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = span;
  return e;
}

ExprPtr Parser::Placeholder() {
  Span at = Cur().span;
  return NewExpr(Expr::Kind::kUnit, Span{at.file, at.begin, at.begin});
}

ExprPtr Parser::ParseExpr() {
  DepthGuard guard(this);
  if (!guard.ok()) return Placeholder();
  return ParseBinary(0, nullptr);
}

ExprPtr Parser::ParseBinary(int level, ExprPtr lhs) {
  if (level == kUnaryLevel) return lhs ? std::move(lhs) : ParseUnary();
  lhs = ParseBinary(level + 1, std::move(lhs));
  int links = 0;
  int added = 0;
  bool chained = false;
  while (std::optional<BinaryOp> op = BinaryOpAt(Cur().kind, level)) {
    if (Peek(1).kind == TokenKind::kAssign && Peek(1).span.begin == Cur().span.end &&
        level >= 3) {  // `x += 1`
      Error(DiagId::kNoCompoundAssign, Cur().span.To(Peek(1).span), Spelling(*op),
            lhs->kind == Expr::Kind::kName ? lhs->name : std::string("x"));
      break;
    }
    if (links++ % kLinksPerLevel == 0) {
      ++added;
      if (!Deepen()) break;
    }
    if (level == kComparisonLevel && links > 1 && !chained) {
      chained = true;
      Complain(DiagId::kChainedComparison, Cur().span);
    }
    Advance();
    ExprPtr rhs = ParseBinary(level + 1, nullptr);
    ExprPtr e = NewExpr(Expr::Kind::kBinary, lhs->span.To(rhs->span));
    e->binary_op = *op;
    e->lhs = std::move(lhs);
    e->rhs = std::move(rhs);
    lhs = std::move(e);
  }
  Shallow(added);
  return lhs;
}

ExprPtr Parser::ParseUnary() {
  if (At(TokenKind::kMinus) || At(TokenKind::kBang)) {
    DepthGuard guard(this);
    if (!guard.ok()) return Placeholder();
    const Token& op = Advance();
    ExprPtr operand = ParseUnary();
    ExprPtr e = NewExpr(Expr::Kind::kUnary, op.span.To(operand->span));
    e->unary_op = op.kind == TokenKind::kMinus ? UnaryOp::kNeg : UnaryOp::kNot;
    e->lhs = std::move(operand);
    return e;
  }
  return ParsePostfix(ParsePrimary());
}

ExprPtr Parser::ParsePostfix(ExprPtr e) {
  int links = 0;
  int added = 0;
  while (At(TokenKind::kLParen) || At(TokenKind::kLBracket) || At(TokenKind::kDot)) {
    if (links++ % kLinksPerLevel == 0) {
      ++added;
      if (!Deepen()) break;
    }
    if (At(TokenKind::kDot)) {
      Advance();
      if (!At(TokenKind::kIdent)) {
        Error(DiagId::kExpectedFieldName, Cur().span, Describe(Cur()));
        break;
      }
      ExprPtr field = NewExpr(Expr::Kind::kField, e->span);
      field->name = Advance().text;
      field->lhs = std::move(e);
      e = std::move(field);
    } else if (At(TokenKind::kLParen)) {
      ExprPtr call = NewExpr(Expr::Kind::kCall, e->span);
      call->lhs = std::move(e);
      ParseArgs(*call);
      e = std::move(call);
    } else {
      ParseIndex(e);
    }
    e->span = e->span.To(PrevSpan());
  }
  Shallow(added);
  return e;
}

void Parser::ParseArgs(Expr& call) {
  NoRecordScope free(no_record_, nullptr);
  const Token& open = Advance();
  bool named_seen = false;
  while (!At(TokenKind::kRParen) && !At(TokenKind::kEof)) {
    Arg arg;
    if (At(TokenKind::kIdent) && Peek(1).kind == TokenKind::kColon) {
      arg.name_span = Cur().span;
      arg.name = Advance().text;
      Advance();
      named_seen = true;
    } else if (named_seen) {
      Complain(DiagId::kPositionalAfterNamed, Cur().span);
    }
    arg.value = ParseExpr();
    call.args.push_back(std::move(arg));
    if (panic_) break;
    if (Eat(TokenKind::kComma)) continue;
    if (!At(TokenKind::kRParen)) {
      ErrorInList("`,` or `)`", open);
      break;
    }
  }
  if (panic_) {
    SkipToClose(TokenKind::kRParen);
  } else {
    ExpectClose(TokenKind::kRParen, open);
  }
}

// `x[i]` and `x[a:b]` keep their own nodes (arrays, strings and tensors
// take them); several items or a step make a kSubscript (tensors only).
void Parser::ParseIndex(ExprPtr& e) {
  NoRecordScope free(no_record_, nullptr);
  const Token& open = Advance();
  std::vector<ExprPtr> items;
  bool has_step = false;
  while (!panic_) {
    const Span item_span = Cur().span;
    ExprPtr start;
    if (!At(TokenKind::kColon)) start = ParseExpr();
    if (!panic_ && Eat(TokenKind::kColon)) {
      ExprPtr slice = NewExpr(Expr::Kind::kSlice, item_span);
      slice->rhs = std::move(start);
      if (!At(TokenKind::kRBracket) && !At(TokenKind::kComma) && !At(TokenKind::kColon)) {
        slice->third = ParseExpr();
      }
      if (!panic_ && Eat(TokenKind::kColon)) {
        has_step = true;
        if (!At(TokenKind::kRBracket) && !At(TokenKind::kComma)) slice->body = ParseExpr();
      }
      items.push_back(std::move(slice));
    } else {
      items.push_back(std::move(start));
    }
    if (panic_ || !Eat(TokenKind::kComma)) break;
  }
  ExprPtr index;
  if (items.size() == 1 && !has_step && items[0] && items[0]->kind == Expr::Kind::kSlice &&
      items[0]->lhs == nullptr) {
    index = std::move(items[0]);
    index->span = e->span;
  } else if (items.size() == 1 && !has_step) {
    index = NewExpr(Expr::Kind::kIndex, e->span);
    index->rhs = std::move(items[0]);
  } else {
    index = NewExpr(Expr::Kind::kSubscript, e->span);
    index->elements = std::move(items);
  }
  index->lhs = std::move(e);
  e = std::move(index);
  if (panic_) {
    SkipToClose(TokenKind::kRBracket);
  } else {
    ExpectClose(TokenKind::kRBracket, open);
  }
}

ExprPtr Parser::ParsePrimary() {
  const Token& token = Cur();
  switch (token.kind) {
    case TokenKind::kInt: {
      ExprPtr e = NewExpr(Expr::Kind::kInt, Advance().span);
      e->int_value = token.int_value;
      return e;
    }
    case TokenKind::kFloat: {
      ExprPtr e = NewExpr(Expr::Kind::kFloat, Advance().span);
      e->float_value = token.float_value;
      return e;
    }
    case TokenKind::kStr: {
      ExprPtr e = NewExpr(Expr::Kind::kStr, Advance().span);
      e->str_value = token.text;
      return e;
    }
    case TokenKind::kTrue:
    case TokenKind::kFalse: {
      ExprPtr e = NewExpr(Expr::Kind::kBool, Advance().span);
      e->bool_value = token.kind == TokenKind::kTrue;
      return e;
    }
    case TokenKind::kIdent: {
      // Other languages' statements, where they cannot be Alea (`for x in`,
      // `while c {`, `return x`): say what Alea does instead.
      const TokenKind next = Peek(1).kind;
      const bool operand_follows =
          next == TokenKind::kIdent || next == TokenKind::kInt || next == TokenKind::kFloat ||
          next == TokenKind::kStr || next == TokenKind::kLParen || next == TokenKind::kLBracket ||
          next == TokenKind::kTrue || next == TokenKind::kFalse || next == TokenKind::kBang;
      if (((token.text == "for" || token.text == "while") &&
           (operand_follows || next == TokenKind::kLBrace)) ||
          (token.text == "loop" && next == TokenKind::kLBrace)) {
        Complain(DiagId::kNoLoops, token.span, token.text);
        SkipLoop();
        return Placeholder();
      }
      if (token.text == "return" && (operand_follows || next == TokenKind::kMinus)) {
        // Read on as if it were not there: `return x` is `x`.
        Complain(DiagId::kNoReturn, Advance().span);
        return ParseExpr();
      }
      ExprPtr e = NewExpr(Expr::Kind::kName, Advance().span);
      e->name = token.text;
      if (At(TokenKind::kLBrace) && absl::ascii_isupper(e->name[0])) {
        if (no_record_ == nullptr) return ParseRecordLiteral(std::move(e));
        if (AtRecordBody()) {
          Complain(DiagId::kRecordInCondition, e->span, no_record_, e->name);
          return ParseRecordLiteral(std::move(e));
        }
      }
      return e;
    }
    case TokenKind::kLParen:
      return ParseParenthesized();
    case TokenKind::kLBracket:
      return ParseArray();
    case TokenKind::kLBrace:
      return ParseBlock();
    case TokenKind::kIf:
      return ParseIf();
    case TokenKind::kMatch:
      return ParseMatch();
    case TokenKind::kWith:
      return ParseWith();
    case TokenKind::kPipe:
    case TokenKind::kPipePipe:
      return ParseLambda();
    case TokenKind::kElse:
      Error(DiagId::kElseWithoutIf, token.span);
      return Placeholder();
    default:
      ErrorExpected("an expression");
      return Placeholder();
  }
}

// `()`, `(e)` or a tuple `(a, b, ...)`.
ExprPtr Parser::ParseParenthesized() {
  NoRecordScope free(no_record_, nullptr);
  const Token& open = Advance();
  if (Eat(TokenKind::kRParen)) return NewExpr(Expr::Kind::kUnit, open.span.To(PrevSpan()));
  ExprPtr tuple = NewExpr(Expr::Kind::kTuple, open.span);
  bool trailing_comma = false;
  while (!At(TokenKind::kRParen) && !At(TokenKind::kEof)) {
    tuple->elements.push_back(ParseExpr());
    if (panic_) break;
    trailing_comma = Eat(TokenKind::kComma);
    if (!trailing_comma && !At(TokenKind::kRParen)) {
      ErrorInList(tuple->elements.size() == 1 ? "`)`" : "`,` or `)`", open);
      break;
    }
  }
  if (panic_) {
    SkipToClose(TokenKind::kRParen);
  } else {
    ExpectClose(TokenKind::kRParen, open);
  }
  tuple->span = open.span.To(PrevSpan());
  if (tuple->elements.size() == 1) {
    if (trailing_comma) {
      Complain(DiagId::kOneTuple, tuple->span, TextOf(tuple->elements[0]->span));
    }
    // `(a + b)` spans its parentheses, so `(a + b) * c` covers all it says.
    ExprPtr inner = std::move(tuple->elements[0]);
    inner->span = tuple->span;
    return inner;
  }
  if (tuple->elements.empty()) tuple->kind = Expr::Kind::kUnit;  // only after an error
  return tuple;
}

ExprPtr Parser::ParseArray() {
  NoRecordScope free(no_record_, nullptr);
  const Token& open = Advance();
  ExprPtr array = NewExpr(Expr::Kind::kArray, open.span);
  while (!At(TokenKind::kRBracket) && !At(TokenKind::kEof)) {
    array->elements.push_back(ParseExpr());
    if (panic_) break;
    if (Eat(TokenKind::kComma)) continue;
    if (!At(TokenKind::kRBracket)) {
      ErrorInList("`,` or `]`", open);
      break;
    }
  }
  if (panic_) {
    SkipToClose(TokenKind::kRBracket);
  } else {
    ExpectClose(TokenKind::kRBracket, open);
  }
  array->span = open.span.To(PrevSpan());
  return array;
}

bool Parser::AtBlockLike() const {
  return At(TokenKind::kLBrace) || At(TokenKind::kIf) || At(TokenKind::kMatch) ||
         At(TokenKind::kWith);
}

ExprPtr Parser::ParseBlockLikeStatement() {
  DepthGuard guard(this);
  if (!guard.ok()) return Placeholder();
  ExprPtr e = ParsePrimary();
  if (ContinuesBlockLike(Cur().kind)) return ParseBinary(0, std::move(e));
  return e;
}

ExprPtr Parser::ParseBlock() {
  DepthGuard guard(this);
  if (!guard.ok()) return Placeholder();
  if (!At(TokenKind::kLBrace)) {
    ErrorExpected("`{`");
    return Placeholder();
  }
  NoRecordScope free(no_record_, nullptr);
  const Token& open = Advance();
  ExprPtr block = NewExpr(Expr::Kind::kBlock, open.span);
  while (true) {
    if (Eat(TokenKind::kRBrace)) break;
    if (At(TokenKind::kEof) || AtItemStart(/*with_let=*/false)) {
      ExpectClose(TokenKind::kRBrace, open);
      break;
    }
    size_t before = pos_;
    // Reporting a missing `;` consumes nothing, but the next round starts a
    // statement at the token that followed, so this round still progresses.
    bool progressed = block->result != nullptr;
    if (block->result) {
      // An expression ended without `;` and something other than `}` follows.
      ErrorExpected("`;` or `}`");
      block->stmts.push_back(
          Stmt{Stmt::Kind::kExpr, block->result->span, nullptr, nullptr, std::move(block->result)});
    } else if (At(TokenKind::kSemicolon)) {
      Advance();  // an empty statement
    } else if (At(TokenKind::kLet)) {
      Stmt stmt{Stmt::Kind::kLet, Advance().span, nullptr, nullptr, nullptr};
      SkipMut();
      stmt.pattern = ParsePattern(/*in_match=*/false);
      if (Eat(TokenKind::kColon)) stmt.type = ParseType();
      if (Expect(TokenKind::kAssign)) {
        stmt.expr = ParseExpr();
      } else {
        stmt.expr = Placeholder();
      }
      Expect(TokenKind::kSemicolon);
      stmt.span = stmt.span.To(PrevSpan());
      block->stmts.push_back(std::move(stmt));
    } else {
      bool block_like = AtBlockLike();
      ExprPtr e = block_like ? ParseBlockLikeStatement() : ParseExpr();
      bool ends_statement = block_like && e->kind != Expr::Kind::kBinary;
      if (Eat(TokenKind::kSemicolon) || (ends_statement && !At(TokenKind::kRBrace))) {
        block->stmts.push_back(
            Stmt{Stmt::Kind::kExpr, e->span.To(PrevSpan()), nullptr, nullptr, std::move(e)});
      } else {
        block->result = std::move(e);  // if `}` does not follow, reported next round
      }
    }
    if (panic_) {
      if (block->result) {
        block->stmts.push_back(Stmt{Stmt::Kind::kExpr, block->result->span, nullptr, nullptr,
                                    std::move(block->result)});
      }
      SyncStatement();
    }
    if (!progressed && pos_ == before && !At(TokenKind::kRBrace) && !At(TokenKind::kEof) &&
        !AtItemStart(false)) {
      Advance();  // every round makes progress
    }
  }
  block->span = open.span.To(PrevSpan());
  return block;
}

ExprPtr Parser::ParseIf() {
  DepthGuard guard(this);
  if (!guard.ok()) return Placeholder();
  Span start = Advance().span;
  ExprPtr e = NewExpr(Expr::Kind::kIf, start);
  {
    NoRecordScope head(no_record_, "an `if` condition");
    e->rhs = ParseExpr();
  }
  if (At(TokenKind::kAssign)) {
    // `if x = 1 {`: say so, and read on as if it were `==`.
    Complain(DiagId::kAssignInCondition, Cur().span);
    Advance();
    ExprPtr rhs = ParseBinary(kComparisonLevel + 1, nullptr);
    ExprPtr cond = NewExpr(Expr::Kind::kBinary, e->rhs->span.To(rhs->span));
    cond->binary_op = BinaryOp::kEq;
    cond->lhs = std::move(e->rhs);
    cond->rhs = std::move(rhs);
    e->rhs = std::move(cond);
  }
  e->then_branch = ParseBlock();
  if (Eat(TokenKind::kElse)) {
    if (At(TokenKind::kIf)) {
      e->else_branch = ParseIf();
    } else if (At(TokenKind::kLBrace)) {
      e->else_branch = ParseBlock();
    } else {
      ErrorExpected("`{` or `if`");
    }
  }
  e->span = start.To(PrevSpan());
  return e;
}

ExprPtr Parser::ParseMatch() {
  Span start = Advance().span;
  ExprPtr e = NewExpr(Expr::Kind::kMatch, start);
  {
    NoRecordScope head(no_record_, "a `match` scrutinee");
    e->lhs = ParseExpr();
  }
  if (!At(TokenKind::kLBrace)) {
    ErrorExpected("`{`");
    return e;
  }
  const Token& open = Advance();
  while (!At(TokenKind::kRBrace)) {
    if (At(TokenKind::kEof) || AtItemStart(/*with_let=*/true)) {
      ExpectClose(TokenKind::kRBrace, open);
      break;
    }
    size_t before = pos_;
    MatchArm arm;
    arm.span = Cur().span;
    arm.pattern = ParsePattern(/*in_match=*/true);
    if (!panic_ && Eat(TokenKind::kIf)) arm.guard = ParseExpr();
    if (!panic_ && !Eat(TokenKind::kFatArrow)) {
      Error(DiagId::kExpectedFatArrow, Cur().span, Describe(Cur()));
      // `=` and `->` are likely slips for `=>`: read on as if it were there.
      if (At(TokenKind::kAssign) || At(TokenKind::kArrow)) {
        Advance();
        panic_ = false;
      }
    }
    if (!panic_) {
      bool block_like = AtBlockLike();
      arm.body = block_like ? ParseBlockLikeStatement() : ParseExpr();
      bool ends_arm = block_like && arm.body->kind != Expr::Kind::kBinary;
      if (!Eat(TokenKind::kComma) && !At(TokenKind::kRBrace) && !ends_arm) {
        ErrorExpected("`,` or `}`");
      }
    } else {
      arm.body = Placeholder();
    }
    arm.span = arm.span.To(PrevSpan());
    e->arms.push_back(std::move(arm));
    SyncArm();
    if (pos_ == before && !At(TokenKind::kRBrace) && !At(TokenKind::kEof)) Advance();
  }
  Eat(TokenKind::kRBrace);
  e->span = start.To(PrevSpan());
  return e;
}

ExprPtr Parser::ParseWith() {
  Span start = Advance().span;
  ExprPtr e = NewExpr(Expr::Kind::kWith, start);
  {
    NoRecordScope head(no_record_, "a `with` state");
    e->lhs = ParseExpr();
  }
  e->body = ParseBlock();
  e->span = start.To(PrevSpan());
  return e;
}

ExprPtr Parser::ParseLambda() {
  DepthGuard guard(this);
  if (!guard.ok()) return Placeholder();
  Span start = Cur().span;
  ExprPtr e = NewExpr(Expr::Kind::kLambda, start);
  if (!Eat(TokenKind::kPipePipe)) ParseParams(e->params, TokenKind::kPipe);
  e->body = ParseExpr();
  e->span = start.To(PrevSpan());
  return e;
}

void Parser::SkipLoop() {
  int depth = 0;
  while (!At(TokenKind::kEof)) {
    TokenKind kind = Cur().kind;
    if (depth == 0 && (kind == TokenKind::kSemicolon || kind == TokenKind::kRBrace)) return;
    if (kind == TokenKind::kLParen || kind == TokenKind::kLBracket) ++depth;
    if ((kind == TokenKind::kRParen || kind == TokenKind::kRBracket) && depth > 0) --depth;
    if (depth == 0 && kind == TokenKind::kLBrace) {
      // The body: skipped whole.
      int braces = 0;
      do {
        if (At(TokenKind::kLBrace)) ++braces;
        if (At(TokenKind::kRBrace)) --braces;
        Advance();
      } while (braces > 0 && !At(TokenKind::kEof));
      return;
    }
    Advance();
  }
}

bool Parser::AtRecordBody() const {
  if (Peek(0).kind != TokenKind::kLBrace) return false;
  if (Peek(1).kind == TokenKind::kDotDot) return true;
  return Peek(1).kind == TokenKind::kIdent &&
         (Peek(2).kind == TokenKind::kColon || Peek(2).kind == TokenKind::kComma);
}

ExprPtr Parser::ParseRecordLiteral(ExprPtr name) {
  NoRecordScope free(no_record_, nullptr);
  ExprPtr e = NewExpr(Expr::Kind::kRecord, name->span);
  e->name = name->name;
  const Token& open = Advance();
  while (!At(TokenKind::kRBrace) && !At(TokenKind::kEof)) {
    if (At(TokenKind::kDotDot)) {
      Advance();
      e->body = ParseExpr();
      if (!panic_ && !At(TokenKind::kRBrace)) ErrorInList("`}` after the `..` record", open);
      break;
    }
    if (!At(TokenKind::kIdent)) {
      ErrorInList("a field name or `..`", open);
      break;
    }
    Arg field;
    field.name_span = Cur().span;
    field.name = Advance().text;
    if (Eat(TokenKind::kColon)) {
      field.value = ParseExpr();
    } else {
      // `Params { mu }` takes the variable `mu`.
      field.value = NewExpr(Expr::Kind::kName, field.name_span);
      field.value->name = field.name;
    }
    e->args.push_back(std::move(field));
    if (panic_) break;
    if (Eat(TokenKind::kComma)) continue;
    if (!At(TokenKind::kRBrace)) {
      ErrorInList("`,` or `}`", open);
      break;
    }
  }
  if (panic_) {
    SkipToClose(TokenKind::kRBrace);
  } else {
    ExpectClose(TokenKind::kRBrace, open);
  }
  e->span = e->span.To(PrevSpan());
  return e;
}

}  // namespace alea::lang::internal
