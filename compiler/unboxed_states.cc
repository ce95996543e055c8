// Which RandState variables of a function live unboxed, in two plain
// registers (vm/opcodes.def "Unboxed states"; docs/decisions.md "Unboxed
// random states"). A variable qualifies when the compiler sees its every use
// and each is one it can serve from the words:
//
//   - the explicit state of a random builtin (`split`, `next`, `fold_in`,
//     `split_n`, every sampler): the op consumes it there, and an op that
//     needs a box gets a fresh one that it consumes at once, so no box ever
//     outlives its use and no note could tell the difference;
//   - an argument of a call of this very function (the same instance), in
//     a parameter position that is unboxed too: a tail call then passes the
//     words back to the loop's top, another call a fresh box.
//
// The variables are `let (a, b) = split(x)` and `next(x)` components, `let
// a = fold_in(x, i)` and `let a = key(n)` (whose states are new), and
// parameters. A parameter's box comes from the caller and is consumed
// lazily, as it would be boxed: the function keeps it in its register and
// TAKEs it at the first op that consumes the state, so a state that a path
// never consumes stays unconsumed. That is why a parameter may only be passed
// on in its own position of a tail call (the loop): anywhere else its box
// would have to travel with the words. Everything else (printing a state,
// storing it, returning it, `with`, a match) keeps the variable boxed, with
// the run-time checks and notes as they are.
#include "compiler/internal.h"
#include "lang/ast_walk.h"

namespace alea::compiler {

namespace types = lang::types;
using lang::BuiltinId;

namespace {

bool IsStateType(const Type* t) { return types::Resolve(t)->kind == types::Kind::kRandState; }

// The builtins whose parameter 0 is a state they consume.
bool ConsumesState(BuiltinId id) {
  switch (id) {
    case BuiltinId::kSplit:
    case BuiltinId::kNext:
    case BuiltinId::kFoldIn:
    case BuiltinId::kSplitN:
      return true;
    default:
      return lang::GetBuiltin(id).sampler();
  }
}

// The expressions in tail position of a function body: what `Tail` lowers
// with dest.tail (lower_expr.cc), the calls among them become jumps or
// TAILCALLs.
void CollectTails(const Expr& e, absl::flat_hash_set<const Expr*>& out) {
  out.insert(&e);
  switch (e.kind) {
    case Expr::Kind::kIf:
      if (e.then_branch) CollectTails(*e.then_branch, out);
      if (e.else_branch) CollectTails(*e.else_branch, out);
      return;
    case Expr::Kind::kBlock:
      if (e.result) CollectTails(*e.result, out);
      return;
    case Expr::Kind::kMatch:
      for (const lang::MatchArm& arm : e.arms) CollectTails(*arm.body, out);
      return;
    case Expr::Kind::kWith:
      if (e.body) CollectTails(*e.body, out);
      return;
    default:
      return;
  }
}

}  // namespace

std::optional<BuiltinId> FunctionCompiler::StateBuiltin(const Expr& e,
                                                        std::vector<int>* param_of_arg) {
  if (e.kind != Expr::Kind::kCall || e.ambient_site) return std::nullopt;
  const Expr& callee = *e.lhs;
  if (callee.kind != Expr::Kind::kName || callee.name_kind != lang::NameKind::kBuiltin) {
    return std::nullopt;
  }
  if (e.builtin < 0 || !ConsumesState(static_cast<BuiltinId>(e.builtin))) return std::nullopt;
  return Resolve(e, callee.name, param_of_arg);
}

const Expr* FunctionCompiler::StateArgument(const Expr& e, const std::vector<int>& param_of_arg) {
  for (size_t i = 0; i < param_of_arg.size() && i < e.args.size(); ++i) {
    if (param_of_arg[i] == 0) return e.args[i].value.get();
  }
  return nullptr;
}

bool FunctionCompiler::IsSelfCall(const Expr& e) {
  if (e.kind != Expr::Kind::kCall || self_index_ < 0) return false;
  const Expr& callee = *e.lhs;
  if (callee.kind != Expr::Kind::kName || callee.name_kind != lang::NameKind::kFunction ||
      callee.fn == nullptr || callee.fn->is_extern || callee.fn->uses_rng) {
    return false;
  }
  std::vector<const Type*> type_args;
  for (const Type* a : callee.type_args) type_args.push_back(T(a));
  return pc_.FunctionInstance(callee.fn, std::move(type_args)) == self_index_;
}

void FunctionCompiler::FindUnboxedStates(const std::vector<lang::Param>& params, const Expr& body) {
  // The candidates, and for a parameter its position.
  absl::flat_hash_map<const Pattern*, int> param_index;
  absl::flat_hash_set<const Pattern*> candidates;
  std::vector<const Pattern*> param_patterns(params.size(), nullptr);
  for (size_t i = 0; i < params.size(); ++i) {
    const Pattern& p = *params[i].pattern;
    if (p.kind == Pattern::Kind::kVar && IsStateType(T(p.type))) {
      candidates.insert(&p);
      param_index[&p] = static_cast<int>(i);
      param_patterns[i] = &p;
    }
  }
  absl::flat_hash_set<const Expr*> tails;
  CollectTails(body, tails);
  // Each use of a candidate: the state of a random builtin (-1), a self
  // call's argument i (i), a self tail call's (i + kTail), or anything
  // else (kEscape).
  constexpr int kEscape = -2, kTail = 1 << 16;
  absl::flat_hash_map<const Pattern*, std::vector<int>> uses;
  absl::flat_hash_set<const Expr*> served;  // uses already classified
  lang::WalkExpr(body, [&](const Expr& e) {
    if (e.kind == Expr::Kind::kBlock) {
      for (const lang::Stmt& stmt : e.stmts) {
        if (stmt.kind != lang::Stmt::Kind::kLet || !stmt.expr) continue;
        const Pattern& p = *stmt.pattern;
        std::vector<int> map;
        const std::optional<BuiltinId> id = StateBuiltin(*stmt.expr, &map);
        const bool splits = id == BuiltinId::kSplit || id == BuiltinId::kNext;
        if (p.kind == Pattern::Kind::kVar && IsStateType(T(p.type)) &&
            (id == BuiltinId::kFoldIn ||
             (stmt.expr->kind == Expr::Kind::kCall && stmt.expr->builtin >= 0 &&
              static_cast<BuiltinId>(stmt.expr->builtin) == BuiltinId::kKey))) {
          candidates.insert(&p);
        } else if (p.kind == Pattern::Kind::kTuple && p.elements.size() == 2 && splits) {
          for (const lang::PatternPtr& part : p.elements) {
            if (part->kind == Pattern::Kind::kVar) candidates.insert(part.get());
          }
        }
      }
    }
    if (e.kind == Expr::Kind::kLambda) {
      // A lambda cannot capture a state (the checker says so); if one
      // names a candidate anyway, that candidate stays boxed.
      lang::WalkExpr(*e.body, [&](const Expr& inner) {
        if (inner.kind == Expr::Kind::kName && inner.binding != nullptr) {
          served.insert(&inner);
          uses[inner.binding].push_back(kEscape);
        }
      });
      return;
    }
    if (e.kind != Expr::Kind::kCall) return;
    std::vector<int> map;
    if (StateBuiltin(e, &map)) {
      const Expr* state = StateArgument(e, map);
      if (state != nullptr && state->kind == Expr::Kind::kName && state->binding != nullptr) {
        served.insert(state);
        uses[state->binding].push_back(-1);
      }
    } else if (IsSelfCall(e)) {
      for (size_t i = 0; i < e.args.size(); ++i) {
        const Expr& a = *e.args[i].value;
        if (a.kind != Expr::Kind::kName || a.binding == nullptr) continue;
        served.insert(&a);
        uses[a.binding].push_back(static_cast<int>(i) + (tails.contains(&e) ? kTail : 0));
      }
    }
  });
  lang::WalkExpr(body, [&](const Expr& e) {
    if (e.kind == Expr::Kind::kName && e.name_kind == lang::NameKind::kLocal &&
        e.binding != nullptr && !served.contains(&e)) {
      uses[e.binding].push_back(kEscape);
    }
  });
  // Drop what does not qualify until nothing changes: a self call's
  // argument needs its parameter unboxed, which may itself be dropped.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = candidates.begin(); it != candidates.end();) {
      const Pattern* v = *it;
      const auto param = param_index.find(v);
      bool ok = true;
      for (int use : uses[v]) {
        if (use == -1) continue;
        if (use == kEscape) {
          ok = false;
          break;
        }
        const bool tail = use >= kTail;
        const int position = tail ? use - kTail : use;
        const Pattern* target = static_cast<size_t>(position) < param_patterns.size()
                                    ? param_patterns[position]
                                    : nullptr;
        if (target == nullptr || !candidates.contains(target) ||
            (param != param_index.end() && (!tail || position != param->second))) {
          ok = false;
          break;
        }
      }
      if (ok) {
        ++it;
      } else {
        candidates.erase(it++);
        changed = true;
      }
    }
  }
  unboxed_vars_ = std::move(candidates);
  unboxed_params_.assign(params.size(), nullptr);
  for (size_t i = 0; i < params.size(); ++i) {
    if (param_patterns[i] != nullptr && unboxed_vars_.contains(param_patterns[i])) {
      unboxed_params_[i] = param_patterns[i];
    }
  }
}

}  // namespace alea::compiler
