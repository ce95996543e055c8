#include "lang/grad.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "lang/ast_walk.h"
#include "lang/checker.h"
#include "lang/types.h"

namespace alea::lang {

// grad(f): (P, A...) -> P; value_and_grad(f): (P, A...) -> (R, P), for f of
// type (P, A...) -> R. Which P and R are allowed is CheckGrads', once the
// types are known: a lambda's parameters are often typed by the call that
// follows (`grad(|x| x * x)(3.0)`).
types::Type* Checker::InferGradCall(Expr& call, Expr& callee, const Builtin& b,
                                    types::Type* f_type) {
  const Expr& f = *call.args[0].value;
  const bool named = f.kind == Expr::Kind::kName && f.name_kind == NameKind::kFunction;
  if (!named && f.kind != Expr::Kind::kLambda) {
    diags_.Report(DiagId::kGradNeedsFunction, f.span, callee.name);
    return store_->Error();
  }
  types::Type* t = types::Resolve(f_type);
  if (t->kind == types::Kind::kError) return store_->Error();
  if (t->kind != types::Kind::kFunction || t->args.empty()) {
    diags_.Report(DiagId::kGradNoParams, f.span, callee.name);
    return store_->Error();
  }
  types::Origin origin = At(call.span, absl::StrCat("`", callee.name, "`"));
  types::Type* gradient = t->args[0];
  types::Type* result =
      b.id == BuiltinId::kGrad ? gradient : store_->Tuple({t->result, gradient}, origin);
  types::Type* fn = store_->Function(t->args, result, origin);
  call.builtin = static_cast<int>(b.id);
  call.site_type = store_->Function({f_type}, fn);
  callee.type = call.site_type;
  return fn;
}

namespace {

// What the first parameter of a differentiated function may hold: every
// leaf a Float or an f32 tensor (differentiated), an Int, Bool, Str, unit or
// another tensor (given back unchanged); never a RandState or a function.
// The first offending kind, or kError when all is well.
types::Kind Offending(const types::Type* t, int depth = 0) {
  t = types::Resolve(t);
  if (depth > types::kMaxTypeDepth) return types::Kind::kError;
  switch (t->kind) {
    case types::Kind::kRandState:
    case types::Kind::kFunction:
      return t->kind;
    case types::Kind::kTensor:
      // f32: differentiated; another dtype: given back unchanged.
      return types::Kind::kError;
    case types::Kind::kNamed: {
      for (types::Kind k : {types::Kind::kRandState, types::Kind::kFunction}) {
        if ((t->def->holds >> static_cast<unsigned>(k)) & 1) return k;
      }
      // The fields over the type's arguments: the arguments are what vary.
      for (const types::Type* arg : t->args) {
        if (types::Kind k = Offending(arg, depth + 1); k != types::Kind::kError) return k;
      }
      return types::Kind::kError;
    }
    case types::Kind::kTuple:
    case types::Kind::kArray:
      for (const types::Type* part : t->args) {
        if (types::Kind k = Offending(part, depth + 1); k != types::Kind::kError) return k;
      }
      return types::Kind::kError;
    default:
      return types::Kind::kError;
  }
}

}  // namespace

std::optional<GradProblem> GradTypeProblem(const types::Type* f_type, bool generic) {
  const types::Type* f = types::Resolve(f_type);
  if (f->kind != types::Kind::kFunction || f->args.empty()) return std::nullopt;
  const types::Type* param = f->args[0];
  switch (Offending(param)) {
    case types::Kind::kRandState:
      return GradProblem{DiagId::kGradStateParam, types::ToString(param)};
    case types::Kind::kFunction:
      return GradProblem{DiagId::kGradFunctionParam, types::ToString(param)};
    default:
      break;
  }
  const types::Type* result = types::Resolve(f->result);
  bool fits = result->kind == types::Kind::kFloat || result->kind == types::Kind::kError ||
              (result->kind == types::Kind::kVar && generic);
  if (result->kind == types::Kind::kTensor) {
    const types::Type* d = types::Resolve(result->args[0]);
    fits = d->kind == types::Kind::kDTypeConst ? d->dtype == types::DType::kF32 : generic;
  }
  if (!fits) {
    return GradProblem{DiagId::kGradResult, types::ToString(result)};
  }
  return std::nullopt;
}

namespace {

class GradChecker {
 public:
  GradChecker(const Module& module, Diagnostics& diags) : module_(module), diags_(diags) {}

  void Run() {
    for (const auto& fn : module_.fns) {
      if (fn->body) Walk(*fn->body);
    }
    for (const auto& let : module_.lets) {
      if (let->value) Walk(*let->value);
    }
  }

 private:
  void Walk(const Expr& root) {
    WalkExpr(root, [&](const Expr& e) {
      if (IsGradCall(e)) Check(e);
    });
  }

  static bool IsGradCall(const Expr& e) {
    return e.kind == Expr::Kind::kCall && (e.builtin == static_cast<int>(BuiltinId::kGrad) ||
                                           e.builtin == static_cast<int>(BuiltinId::kValueAndGrad));
  }

  void Check(const Expr& call) {
    const std::string& name = call.lhs->name;
    const Expr& f = *call.args[0].value;
    const types::Type* site = types::Resolve(call.site_type);
    const types::Type* ft = types::Resolve(site->args[0]);
    if (ft->kind != types::Kind::kFunction || ft->args.empty()) return;
    if (std::optional<GradProblem> problem = GradTypeProblem(ft, /*generic=*/true)) {
      diags_.Report(problem->id, f.span, name, problem->type);
      return;
    }
    if (CallsGrad(f)) diags_.Report(DiagId::kNestedGrad, f.span, name);
  }

  // Whether running `f` (a named function or a lambda) may reach a `grad`
  // through the bodies of the named functions it calls. A closure it is
  // given is the VM's to catch.
  bool CallsGrad(const Expr& f) {
    if (f.kind == Expr::Kind::kLambda) return f.body && Reaches(*f.body);
    return f.fn != nullptr && Reaches(*f.fn);
  }
  bool Reaches(const FnDecl& fn) {
    auto [it, fresh] = reaches_.try_emplace(&fn, false);
    if (!fresh || !fn.body) return it->second;  // seen, or in progress (a cycle adds nothing)
    bool found = Reaches(*fn.body);
    reaches_[&fn] = found;
    return found;
  }
  bool Reaches(const Expr& body) {
    bool found = false;
    std::vector<const FnDecl*> callees;
    WalkExpr(body, [&](const Expr& e) {
      if (IsGradCall(e)) found = true;
      if (e.kind == Expr::Kind::kName && e.name_kind == NameKind::kFunction && e.fn != nullptr) {
        callees.push_back(e.fn);
      }
    });
    for (const FnDecl* callee : callees) found = found || Reaches(*callee);
    return found;
  }

  const Module& module_;
  Diagnostics& diags_;
  absl::flat_hash_map<const FnDecl*, bool> reaches_;
};

}  // namespace

void CheckGrads(const Module& module, Diagnostics& diags) { GradChecker(module, diags).Run(); }

}  // namespace alea::lang
