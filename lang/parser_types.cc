// Types as written: annotations (`Int`, `[a]`, `(Int) -> Float`,
// `Tree(Int)`) and `type` declarations of records and variants.
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "lang/parser_impl.h"

namespace alea::lang::internal {
namespace {

bool IsUpper(const std::string& name) { return !name.empty() && absl::ascii_isupper(name[0]); }

std::string Capitalized(std::string name) {
  if (!name.empty()) name[0] = absl::ascii_toupper(name[0]);
  return name;
}

}  // namespace

// ---- Types ------------------------------------------------------------------

TypeAnnPtr Parser::ParseType() {
  auto type = std::make_unique<TypeAnn>();
  type->kind = TypeAnn::Kind::kTuple;
  type->span = Cur().span;
  DepthGuard guard(this);
  if (!guard.ok()) return type;
  Span start = Cur().span;
  switch (Cur().kind) {
    case TokenKind::kIdent: {
      type->kind = TypeAnn::Kind::kName;
      type->name = Advance().text;
      if (At(TokenKind::kLParen)) {
        const Token& open = Advance();
        while (!At(TokenKind::kRParen) && !At(TokenKind::kEof) && !panic_) {
          type->args.push_back(ParseType());
          if (!Eat(TokenKind::kComma) && !At(TokenKind::kRParen)) ErrorInList("`,` or `)`", open);
        }
        if (panic_) {
          SkipToClose(TokenKind::kRParen);
        } else {
          ExpectClose(TokenKind::kRParen, open);
        }
      }
      type->span = start.To(PrevSpan());
      if (At(TokenKind::kArrow)) {
        // `Int -> Int`: say how to write it, and read it as `(Int) -> Int`.
        Complain(DiagId::kFunctionTypeParens, type->span, TextOf(type->span));
        Advance();
        auto fn = std::make_unique<TypeAnn>();
        fn->kind = TypeAnn::Kind::kFunction;
        fn->args.push_back(std::move(type));
        fn->element = ParseType();
        fn->span = start.To(PrevSpan());
        return fn;
      }
      return type;
    }
    case TokenKind::kLParen: {
      const Token& open = Advance();
      bool trailing_comma = false;
      while (!At(TokenKind::kRParen) && !At(TokenKind::kEof) && !panic_) {
        type->args.push_back(ParseType());
        trailing_comma = Eat(TokenKind::kComma);
        if (!trailing_comma && !At(TokenKind::kRParen)) ErrorInList("`,` or `)`", open);
      }
      if (panic_) {
        SkipToClose(TokenKind::kRParen);
      } else {
        ExpectClose(TokenKind::kRParen, open);
      }
      if (Eat(TokenKind::kArrow)) {
        type->kind = TypeAnn::Kind::kFunction;
        type->element = ParseType();
      } else if (type->args.size() == 1) {
        if (trailing_comma) {
          Complain(DiagId::kOneTuple, start.To(PrevSpan()), TextOf(type->args[0]->span));
        }
        return std::move(type->args[0]);
      }
      type->span = start.To(PrevSpan());
      return type;
    }
    case TokenKind::kLBracket: {
      const Token& open = Advance();
      type->kind = TypeAnn::Kind::kArray;
      type->element = ParseType();
      if (!panic_) ExpectClose(TokenKind::kRBracket, open);
      type->span = start.To(PrevSpan());
      return type;
    }
    default:
      ErrorExpected("a type");
      return type;
  }
}

// ---- Declarations -----------------------------------------------------------

// `type Name(a, b) = { f: T, ... }` or `type Name(a) = A(T, ...) | B | ...`
// (a leading `|` is allowed, for one constructor a line).
void Parser::ParseTypeDecl(Module& module) {
  auto decl = std::make_unique<TypeDecl>();
  Span start = Advance().span;
  if (!At(TokenKind::kIdent)) {
    ErrorExpected("a type name");
    return;
  }
  decl->name_span = Cur().span;
  decl->name = Advance().text;
  if (!IsUpper(decl->name)) {
    Complain(DiagId::kTypeNameCase, decl->name_span, decl->name, Capitalized(decl->name));
  }
  if (At(TokenKind::kLParen)) {
    const Token& open = Advance();
    while (!At(TokenKind::kRParen) && !At(TokenKind::kEof) && !panic_) {
      if (!At(TokenKind::kIdent)) {
        ErrorInList("a type parameter", open);
        break;
      }
      if (IsUpper(Cur().text)) Complain(DiagId::kTypeParamCase, Cur().span, Cur().text);
      decl->param_spans.push_back(Cur().span);
      decl->params.push_back(Advance().text);
      if (!Eat(TokenKind::kComma) && !At(TokenKind::kRParen)) ErrorInList("`,` or `)`", open);
    }
    if (panic_) {
      SkipToClose(TokenKind::kRParen);
    } else {
      ExpectClose(TokenKind::kRParen, open);
    }
  }
  if (!Expect(TokenKind::kAssign)) return;
  if (At(TokenKind::kLBrace)) {
    decl->is_record = true;
    const Token& open = Advance();
    while (!At(TokenKind::kRBrace) && !At(TokenKind::kEof) && !panic_) {
      if (!At(TokenKind::kIdent)) {
        ErrorInList("a field name", open);
        break;
      }
      FieldDecl field;
      field.span = Cur().span;
      field.name = Advance().text;
      if (!Expect(TokenKind::kColon)) break;
      field.type = ParseType();
      decl->fields.push_back(std::move(field));
      if (!Eat(TokenKind::kComma) && !At(TokenKind::kRBrace)) ErrorInList("`,` or `}`", open);
    }
    if (panic_) {
      SkipToClose(TokenKind::kRBrace);
    } else {
      ExpectClose(TokenKind::kRBrace, open);
    }
  } else {
    Eat(TokenKind::kPipe);
    do {
      if (!At(TokenKind::kIdent)) {
        ErrorExpected(decl->ctors.empty() ? "`{` or a constructor name" : "a constructor name");
        break;
      }
      CtorDecl ctor;
      ctor.span = Cur().span;
      ctor.name = Advance().text;
      if (!IsUpper(ctor.name)) {
        Complain(DiagId::kCtorNameCase, ctor.span, ctor.name, Capitalized(ctor.name));
      }
      if (At(TokenKind::kLParen)) {
        const Token& open = Advance();
        while (!At(TokenKind::kRParen) && !At(TokenKind::kEof) && !panic_) {
          ctor.fields.push_back(ParseType());
          if (!Eat(TokenKind::kComma) && !At(TokenKind::kRParen)) ErrorInList("`,` or `)`", open);
        }
        if (panic_) {
          SkipToClose(TokenKind::kRParen);
        } else {
          ExpectClose(TokenKind::kRParen, open);
        }
      }
      decl->ctors.push_back(std::move(ctor));
    } while (!panic_ && Eat(TokenKind::kPipe));
  }
  decl->span = start.To(PrevSpan());
  Eat(TokenKind::kSemicolon);
  module.type_decls.push_back(std::move(decl));
}

}  // namespace alea::lang::internal
