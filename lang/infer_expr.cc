// Inference of expressions, patterns, blocks and lambdas.
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lang/checker.h"

namespace alea::lang {
namespace {

using types::Kind;
using types::Type;

// 1: an Int literal (possibly negated), 2: a Float literal; for defaulting.
uint8_t LiteralKind(const Expr& e) {
  const Expr* x = &e;
  if (x->kind == Expr::Kind::kUnary && x->unary_op == UnaryOp::kNeg && x->lhs) x = x->lhs.get();
  if (x->kind == Expr::Kind::kInt) return 1;
  if (x->kind == Expr::Kind::kFloat) return 2;
  return 0;
}

std::string Plural(size_t n, const char* what) {
  return absl::StrCat(n, " ", what, n == 1 ? "" : "s");
}

// Whether the parts a node kind needs are there. After a syntax error the
// parser fills gaps with placeholders, but a missing child must never crash
// the checker.
bool Complete(const Expr& e) {
  auto all = [](const std::vector<ExprPtr>& xs) {
    for (const ExprPtr& x : xs) {
      if (!x) return false;
    }
    return true;
  };
  switch (e.kind) {
    case Expr::Kind::kTuple:
    case Expr::Kind::kArray:
      return all(e.elements);
    case Expr::Kind::kUnary:
      return e.lhs != nullptr;
    case Expr::Kind::kBinary:
    case Expr::Kind::kIndex:
      return e.lhs && e.rhs;
    case Expr::Kind::kCall:
      for (const Arg& a : e.args) {
        if (!a.value) return false;
      }
      return e.lhs != nullptr;
    case Expr::Kind::kSlice:
      return e.lhs != nullptr;
    case Expr::Kind::kSubscript:
      return e.lhs != nullptr && all(e.elements);
    case Expr::Kind::kIf:
      return e.rhs && e.then_branch;
    case Expr::Kind::kMatch:
      return e.lhs != nullptr;
    case Expr::Kind::kWith:
      return e.lhs && e.body;
    case Expr::Kind::kRecord:
      for (const Arg& a : e.args) {
        if (!a.value) return false;
      }
      return true;
    case Expr::Kind::kField:
      return e.lhs != nullptr;
    default:
      return true;
  }
}

}  // namespace

Type* Checker::Infer(Expr& e) {
  if (!Complete(e)) {
    e.type = store_->Error();
    return store_->Error();
  }
  Type* t = nullptr;
  switch (e.kind) {
    case Expr::Kind::kInt:
      t = Prim(Kind::kInt, e.span, absl::StrCat("the literal `", Text(e.span), "`"));
      break;
    case Expr::Kind::kFloat:
      t = Prim(Kind::kFloat, e.span, absl::StrCat("the literal `", Text(e.span), "`"));
      break;
    case Expr::Kind::kBool:
      t = Prim(Kind::kBool, e.span, absl::StrCat("the literal `", Text(e.span), "`"));
      break;
    case Expr::Kind::kStr:
      t = Prim(Kind::kStr, e.span, "the string literal");
      break;
    case Expr::Kind::kUnit:
      t = store_->Tuple({}, At(e.span, "`()`"));
      break;
    case Expr::Kind::kName:
      t = InferName(e, false);
      break;
    case Expr::Kind::kTuple: {
      std::vector<Type*> elements;
      for (ExprPtr& x : e.elements) elements.push_back(Infer(*x));
      t = store_->Tuple(std::move(elements), At(e.span, "the tuple"));
      break;
    }
    case Expr::Kind::kArray: {
      Type* element = nullptr;
      for (ExprPtr& x : e.elements) {
        Type* xt = Infer(*x);
        if (element == nullptr) {
          element = xt;
        } else {
          Expect(element, xt, x->span);
        }
      }
      if (element == nullptr) element = Fresh("the empty array", e.span);
      t = store_->Array(element, At(e.span, "the array literal"));
      break;
    }
    case Expr::Kind::kUnary: {
      Type* operand = Infer(*e.lhs);
      if (e.unary_op == UnaryOp::kNot) {
        Expect(Prim(Kind::kBool, e.span, "the operand of `!`"), operand, e.lhs->span);
        t = Prim(Kind::kBool, e.span, "the result of `!`");
        e.builtin = static_cast<int>(BuiltinId::kNot);
        e.site_type = store_->Function({operand}, t);
      } else {
        t = UseOverloaded("u-", &e, e.span, {operand}, {""}, {LiteralKind(*e.lhs)}, 0);
      }
      break;
    }
    case Expr::Kind::kBinary: {
      Type* lhs = Infer(*e.lhs);
      Type* rhs = Infer(*e.rhs);
      if (e.binary_op == BinaryOp::kAnd || e.binary_op == BinaryOp::kOr) {
        std::string why = absl::StrCat("the operands of `", Spelling(e.binary_op), "`");
        Expect(Prim(Kind::kBool, e.lhs->span, why), lhs, e.lhs->span);
        Expect(Prim(Kind::kBool, e.rhs->span, why), rhs, e.rhs->span);
        t = Prim(Kind::kBool, e.span, absl::StrCat("the result of `", Spelling(e.binary_op), "`"));
      } else {
        t = UseOverloaded(Spelling(e.binary_op), &e, e.span, {lhs, rhs}, {"", ""},
                          {LiteralKind(*e.lhs), LiteralKind(*e.rhs)}, 0);
      }
      break;
    }
    case Expr::Kind::kCall:
      t = InferCall(e);
      break;
    case Expr::Kind::kIndex: {
      Type* lhs = Infer(*e.lhs);
      Type* index = Infer(*e.rhs);
      t = UseOverloaded("[]", &e, e.span, {lhs, index}, {"", ""}, {0, LiteralKind(*e.rhs)}, 0);
      break;
    }
    case Expr::Kind::kSlice: {
      Type* lhs = Infer(*e.lhs);
      Type* lo = e.rhs ? Infer(*e.rhs) : Prim(Kind::kInt, e.span, "the omitted slice bound");
      Type* hi = e.third ? Infer(*e.third) : Prim(Kind::kInt, e.span, "the omitted slice bound");
      t = UseOverloaded("[:]", &e, e.span, {lhs, lo, hi}, {"", "", ""}, {0, 0, 0}, 0);
      break;
    }
    case Expr::Kind::kSubscript:
      t = InferSubscript(e);
      break;
    case Expr::Kind::kLambda:
      t = InferLambda(e);
      break;
    case Expr::Kind::kIf: {
      Type* cond = Infer(*e.rhs);
      ExpectCondition(cond, *e.rhs, "an `if` condition");
      Type* then_t = Infer(*e.then_branch);
      if (e.else_branch) {
        Type* else_t = Infer(*e.else_branch);
        Span span = e.else_branch->span;
        if (e.else_branch->kind == Expr::Kind::kBlock && e.else_branch->result) {
          span = e.else_branch->result->span;
        }
        Expect(then_t, else_t, span);
        t = then_t;
      } else {
        types::Trail trail;
        Type* unit = store_->Tuple({}, At(e.span, "an `if` without `else`"));
        if (!types::Unify(unit, then_t, &trail, nullptr)) {
          trail.Undo(0);
          diags_.Report(DiagId::kIfWithoutElse, e.then_branch->span, types::ToString(then_t));
        }
        t = unit;
      }
      break;
    }
    case Expr::Kind::kMatch:
      t = InferMatch(e);
      break;
    case Expr::Kind::kBlock:
      t = InferBlock(e);
      break;
    case Expr::Kind::kWith:
      t = InferWith(e);
      break;
    case Expr::Kind::kRecord:
      t = InferRecord(e);
      break;
    case Expr::Kind::kField:
      t = InferField(e);
      break;
  }
  if (t == nullptr) t = store_->Error();
  e.type = t;
  return t;
}

void Checker::ExpectCondition(Type* t, const Expr& cond, const std::string& what) {
  const Type* r = types::Resolve(t);
  if (r->kind == Kind::kTensor) {
    diags_.Report(DiagId::kTensorCondition, cond.span, what, types::ToString(r));
    return;
  }
  Expect(Prim(Kind::kBool, cond.span, what), t, cond.span);
}

Type* Checker::InferName(Expr& e, bool callee) {
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
    if (it->name != e.name) continue;
    e.name_kind = NameKind::kLocal;
    e.binding = it->pattern;
    if (it->scheme != nullptr) return Instantiate(it->scheme, e.span, &e.type_args);
    return it->mono;
  }
  if (TopItem* item = LookupTop(e.name)) {
    if (item->fn != nullptr) {
      e.name_kind = NameKind::kFunction;
      e.fn = item->fn;
      if (!callee && item->fn->uses_rng) {
        diags_.Report(DiagId::kUsesRngAsValue, e.span, e.name)
            .Note(item->fn->uses_rng_span, DiagId::kNoteUsesRngDeclared, e.name);
      }
    } else {
      e.name_kind = NameKind::kTopLet;
      e.binding = item->var;
    }
    if (item->in_progress || item->scheme == nullptr) {
      recursive_uses_.push_back(&e);
      return item->mono != nullptr ? item->mono : store_->Error();
    }
    return Instantiate(item->scheme, e.span, &e.type_args);
  }
  if (const types::Ctor* c = LookupCtor(e.name)) {
    e.name_kind = NameKind::kConstructor;
    e.ctor = c;
    return CtorValue(*c, e.span);
  }
  if (const types::TypeDef* def = LookupType(e.name); def != nullptr && def->is_record) {
    diags_.Report(DiagId::kRecordAsCall, e.span, e.name,
                  absl::StrCat(absl::StrJoin(def->ctors[0].field_names, ": ..., "),
                               def->ctors[0].field_names.empty() ? "" : ": ..."));
    return store_->Error();
  }
  absl::Span<const BuiltinId> overloads = BuiltinOverloads(e.name);
  if (!overloads.empty()) {
    e.name_kind = NameKind::kBuiltin;
    if (callee) return nullptr;
    return BuiltinValue(e, overloads);
  }
  if (!e.name.empty() && absl::ascii_isupper(e.name[0])) {
    Diagnostic& d = diags_.Report(DiagId::kUnknownConstructor, e.span, e.name);
    SuggestCtor(d, e.name);
    return store_->Error();
  }
  Diagnostic& d = diags_.Report(DiagId::kUnknownName, e.span, e.name);
  if (e.name == "null" || e.name == "nil" || e.name == "undefined") {
    d.Help(DiagId::kHelpNoNull, e.name);
    return store_->Error();
  }
  SuggestName(d, e.name);
  return store_->Error();
}

Type* Checker::InferCall(Expr& e) {
  Expr& callee = *e.lhs;
  Type* ct = nullptr;
  const FnDecl* fn = nullptr;
  if (callee.kind == Expr::Kind::kName) {
    ct = InferName(callee, true);
    if (ct == nullptr) {
      Type* t = InferBuiltinCall(e, callee, BuiltinOverloads(callee.name));
      return t;
    }
    callee.type = ct;
    fn = callee.fn;
  } else {
    ct = Infer(callee);
  }
  std::string name = callee.kind == Expr::Kind::kName ? callee.name : "this function";
  std::vector<Type*> args;
  for (Arg& arg : e.args) {
    if (!arg.name.empty()) {
      diags_.Report(DiagId::kNamedArgToFunction, arg.name_span, name, arg.name);
    }
    args.push_back(Infer(*arg.value));
  }
  if (fn != nullptr && fn->uses_rng) CheckSite(e, fn->name, false, fn);
  if (callee.kind == Expr::Kind::kName && callee.name_kind == NameKind::kConstructor &&
      callee.ctor->fields.empty()) {
    diags_.Report(DiagId::kCtorArity, e.span, callee.name, "no fields",
                  absl::StrCat(args.size(), args.size() == 1 ? " was" : " were"));
    return ct;
  }
  Type* f = types::Resolve(ct);
  if (f->kind == Kind::kError) return store_->Error();
  if (f->kind == Kind::kVar) {
    Type* result = Fresh("the result of the call", e.span);
    Expect(ct, store_->Function(args, result, At(e.span, "the call")), e.span);
    return result;
  }
  if (f->kind != Kind::kFunction) {
    diags_.Report(DiagId::kNotAFunction, callee.span, types::ToString(f));
    return store_->Error();
  }
  if (f->args.size() != args.size()) {
    diags_.Report(DiagId::kWrongArgCount, e.span, name, Plural(f->args.size(), "argument"),
                  absl::StrCat(args.size(), args.size() == 1 ? " was" : " were"));
    return f->result;
  }
  for (size_t i = 0; i < args.size(); ++i) Expect(f->args[i], args[i], e.args[i].value->span);
  return f->result;
}

Type* Checker::ParamType(Param& param, const std::string& fallback_reason) {
  if (param.type) return FromAnnotation(*param.type);
  Span span = param.pattern ? param.pattern->span : Span{};
  std::string reason = fallback_reason;
  if (param.pattern && param.pattern->kind == Pattern::Kind::kVar) {
    reason = absl::StrCat("the parameter `", param.pattern->name, "`");
  } else if (reason.empty()) {
    reason = "the parameter";
  }
  return Fresh(reason, span);
}

void Checker::BindPattern(Pattern& p, Type* t, bool literals, std::vector<Local>& out) {
  p.type = t;
  switch (p.kind) {
    case Pattern::Kind::kWildcard:
      return;
    case Pattern::Kind::kVar:
      out.push_back(Local{p.name, t, nullptr, &p});
      return;
    case Pattern::Kind::kInt:
      Expect(t, Prim(Kind::kInt, p.span, "the pattern"), p.span);
      return;
    case Pattern::Kind::kBool:
      Expect(t, Prim(Kind::kBool, p.span, "the pattern"), p.span);
      return;
    case Pattern::Kind::kStr:
      Expect(t, Prim(Kind::kStr, p.span, "the pattern"), p.span);
      return;
    case Pattern::Kind::kCtor:
    case Pattern::Kind::kRecord:
      BindCtorPattern(p, t, literals, out);
      return;
    case Pattern::Kind::kTuple: {
      Type* r = types::Resolve(t);
      std::vector<Type*> parts;
      if (r->kind == Kind::kTuple && r->args.size() == p.elements.size()) {
        parts = r->args;
      } else {
        for (size_t i = 0; i < p.elements.size(); ++i) {
          parts.push_back(Fresh("the tuple pattern", p.elements[i]->span));
        }
        Type* tuple = store_->Tuple(parts, At(p.span, "the tuple pattern"));
        if (!Expect(t, tuple, p.span)) {
          for (Type*& part : parts) part = store_->Error();
        }
      }
      for (size_t i = 0; i < p.elements.size(); ++i) {
        BindPattern(*p.elements[i], parts[i], literals, out);
      }
      return;
    }
  }
}

void Checker::InferLet(Stmt& stmt) {
  ++level_;
  Type* value = stmt.expr ? Infer(*stmt.expr) : store_->Error();
  Type* t = value;
  if (stmt.type) {
    t = FromAnnotation(*stmt.type);
    Expect(t, value, stmt.expr ? stmt.expr->span : stmt.span);
  }
  std::vector<Local> bound;
  if (stmt.pattern) BindPattern(*stmt.pattern, t, false, bound);
  --level_;
  std::vector<Type*> ts;
  for (const Local& l : bound) ts.push_back(l.mono);
  std::vector<types::Scheme*> schemes = Generalize(ts);
  for (size_t i = 0; i < bound.size(); ++i) {
    bound[i].pattern->scheme = schemes[i];
    locals_.push_back(Local{bound[i].name, nullptr, schemes[i], bound[i].pattern});
  }
}

Type* Checker::InferBlock(Expr& e) {
  size_t mark = locals_.size();
  for (Stmt& stmt : e.stmts) {
    if (stmt.kind == Stmt::Kind::kLet) {
      InferLet(stmt);
    } else if (stmt.expr) {
      Infer(*stmt.expr);
    }
  }
  Type* t = e.result ? Infer(*e.result)
                     : store_->Tuple({}, At(e.span, "the block, which ends without a value,"));
  locals_.resize(mark);
  return t;
}

Type* Checker::InferLambda(Expr& e) {
  bool saved_ambient = ambient_;
  bool saved_lambda = lambda_in_ambient_;
  lambda_in_ambient_ = ambient_ || lambda_in_ambient_;
  ambient_ = false;
  size_t mark = locals_.size();
  std::vector<Type*> params;
  for (Param& p : e.params) {
    Type* t = ParamType(p, "the lambda's parameter");
    params.push_back(t);
    if (p.pattern) BindPattern(*p.pattern, t, false, locals_);
  }
  Type* body = e.body ? Infer(*e.body) : store_->Error();
  locals_.resize(mark);
  ambient_ = saved_ambient;
  lambda_in_ambient_ = saved_lambda;
  return store_->Function(std::move(params), body, At(e.span, "the lambda"));
}

Type* Checker::InferMatch(Expr& e) {
  Type* scrutinee = Infer(*e.lhs);
  Type* result = nullptr;
  for (MatchArm& arm : e.arms) {
    size_t mark = locals_.size();
    if (arm.pattern) BindPattern(*arm.pattern, scrutinee, true, locals_);
    if (arm.guard) {
      Type* g = Infer(*arm.guard);
      ExpectCondition(g, *arm.guard, "a match guard");
    }
    if (arm.body) {
      Type* body = Infer(*arm.body);
      if (result == nullptr) {
        result = body;
      } else {
        Expect(result, body, arm.body->span);
      }
    }
    locals_.resize(mark);
  }
  return result != nullptr ? result : Fresh("the empty match", e.span);
}

Type* Checker::InferWith(Expr& e) {
  Type* state = Infer(*e.lhs);
  Expect(Prim(Kind::kRandState, e.lhs->span, "`with`, which takes a RandState,"), state,
         e.lhs->span);
  bool saved_ambient = ambient_;
  bool saved_lambda = lambda_in_ambient_;
  ambient_ = true;
  lambda_in_ambient_ = false;
  Type* t = e.body ? Infer(*e.body) : store_->Error();
  ambient_ = saved_ambient;
  lambda_in_ambient_ = saved_lambda;
  return t;
}

// `x[i, j]`, `m[:, idx]`, `x[a:b:s]`: a tensor of x's dtype (its rank is a
// run-time matter, as for every tensor). Items are Ints, slices with Int
// bounds and step, or one i32 tensor (a gather along its axis); a bool mask
// indexes alone, `x[mask]`, which the "[]" overloads take.
Type* Checker::InferSubscript(Expr& e) {
  Type* lhs = Infer(*e.lhs);
  const Type* seen = types::Resolve(lhs);
  if (seen->kind == Kind::kArray || seen->kind == Kind::kStr) {
    diags_.Report(DiagId::kSubscriptNeedsTensor, e.span, types::ToString(seen));
    return store_->Error();
  }
  Type* tensor =
      store_->Tensor(Fresh("the indexed tensor's dtype", e.lhs->span),
                     At(e.span, "indexing with several items or a step, which takes a tensor,"));
  if (!Expect(tensor, lhs, e.lhs->span)) return store_->Error();
  int index_tensors = 0;
  for (ExprPtr& item : e.elements) {
    if (item->kind == Expr::Kind::kSlice && item->lhs == nullptr) {
      for (ExprPtr* part : {&item->rhs, &item->third, &item->body}) {
        if (*part == nullptr) continue;
        Expect(Prim(Kind::kInt, (*part)->span, "a slice bound or step"), Infer(**part),
               (*part)->span);
      }
      continue;
    }
    Type* t = Infer(*item);
    if (types::Resolve(t)->kind == Kind::kTensor) {
      ++index_tensors;
      Expect(store_->Tensor(store_->DTypeConst(types::DType::kI32),
                            At(item->span,
                               "an index tensor beside other items (a bool mask "
                               "indexes alone, `x[mask]`)")),
             t, item->span);
    } else {
      Expect(Prim(Kind::kInt, item->span, "an index"), t, item->span);
    }
  }
  if (index_tensors > 1) diags_.Report(DiagId::kSubscriptTensors, e.span, index_tensors);
  return tensor;
}

}  // namespace alea::lang
