// Static liveness over the AST of one function, in evaluation order: a use of
// a variable is its last use when no path from it reads the variable again.
// Such a use may move the reference out of the variable's register instead of
// copying (retaining) it, so refcount 1 really means unique. Registers of
// variables are still released at the end of their scope: releasing a moved
// (null) register does nothing, so a branch that does not use a variable
// frees it there.
#include <algorithm>

#include "compiler/internal.h"
#include "lang/ast_walk.h"

namespace alea::compiler {
namespace {

using Live = absl::flat_hash_set<const Pattern*>;

void Union(Live& into, const Live& other) { into.insert(other.begin(), other.end()); }

void AddPatterns(const Pattern& p, absl::flat_hash_set<const Pattern*>& out) {
  out.insert(&p);
  for (const lang::PatternPtr& element : p.elements) AddPatterns(*element, out);
}

bool IsLocalUse(const Expr& e) {
  return e.kind == Expr::Kind::kName && e.name_kind == lang::NameKind::kLocal &&
         e.binding != nullptr;
}

class Walker {
 public:
  explicit Walker(absl::flat_hash_set<const Expr*>& out) : out_(out) {}

  // On entry `live` holds what is live after `e`; on exit, what is live before it.
  void Walk(const Expr& e, Live& live) {
    switch (e.kind) {
      case Expr::Kind::kName:
        if (IsLocalUse(e)) {
          if (!live.contains(e.binding)) out_.insert(&e);
          live.insert(e.binding);
        }
        return;
      case Expr::Kind::kIf: {
        Live then_live = live;
        Walk(*e.then_branch, then_live);
        if (e.else_branch) Walk(*e.else_branch, live);
        Union(live, then_live);
        Walk(*e.rhs, live);
        return;
      }
      case Expr::Kind::kMatch: {
        // Arm i runs its pattern test, then its guard, then its body; a failed
        // test or guard goes on to arm i + 1.
        Live next = live;
        for (size_t i = e.arms.size(); i-- > 0;) {
          const lang::MatchArm& arm = e.arms[i];
          Live body = live;
          Walk(*arm.body, body);
          if (arm.guard) {
            Union(body, next);
            Walk(*arm.guard, body);
          }
          Union(next, body);
        }
        live = std::move(next);
        Walk(*e.lhs, live);
        return;
      }
      case Expr::Kind::kBlock:
        if (e.result) Walk(*e.result, live);
        for (size_t i = e.stmts.size(); i-- > 0;) {
          const lang::Stmt& stmt = e.stmts[i];
          if (!stmt.expr) continue;
          if (stmt.kind == lang::Stmt::Kind::kLet && stmt.pattern &&
              stmt.pattern->scheme != nullptr && !stmt.pattern->scheme->vars.empty()) {
            // A polymorphic let's value is evaluated once per instance: none
            // of its reads may move.
            lang::WalkExpr(*stmt.expr, [&](const Expr& use) {
              if (IsLocalUse(use)) live.insert(use.binding);
            });
          }
          Walk(*stmt.expr, live);
        }
        return;
      case Expr::Kind::kLambda: {
        // The body is a function of its own; creating the closure copies
        // the captured variables (never moves them).
        Live inner;
        Walk(*e.body, inner);
        for (const Expr* use : FreeVariables(e)) live.insert(use->binding);
        return;
      }
      case Expr::Kind::kBinary:
        if (e.binary_op == lang::BinaryOp::kAnd || e.binary_op == lang::BinaryOp::kOr) {
          Live rhs = live;
          Walk(*e.rhs, rhs);
          Union(live, rhs);
          Walk(*e.lhs, live);
          return;
        }
        break;
      default:
        break;
    }
    std::vector<const Expr*> children;
    lang::ForEachChild(e, [&](const Expr& child) { children.push_back(&child); });
    for (size_t i = children.size(); i-- > 0;) Walk(*children[i], live);
  }

 private:
  absl::flat_hash_set<const Expr*>& out_;
};

}  // namespace

void ComputeLastUses(const Expr& body, absl::flat_hash_set<const Expr*>& out) {
  Walker walker(out);
  Live live;
  walker.Walk(body, live);
}

std::vector<const Expr*> FreeVariables(const Expr& lambda) {
  absl::flat_hash_set<const Pattern*> bound;
  for (const lang::Param& param : lambda.params) AddPatterns(*param.pattern, bound);
  std::vector<const Expr*> uses;
  lang::WalkExpr(*lambda.body, [&](const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::kLambda:
        for (const lang::Param& param : e.params) AddPatterns(*param.pattern, bound);
        break;
      case Expr::Kind::kBlock:
        for (const lang::Stmt& stmt : e.stmts) {
          if (stmt.pattern) AddPatterns(*stmt.pattern, bound);
        }
        break;
      case Expr::Kind::kMatch:
        for (const lang::MatchArm& arm : e.arms) AddPatterns(*arm.pattern, bound);
        break;
      default:
        if (IsLocalUse(e)) uses.push_back(&e);
        break;
    }
  });
  std::vector<const Expr*> free;
  for (const Expr* use : uses) {
    if (bound.contains(use->binding)) continue;
    free.push_back(use);
  }
  return free;
}

void UsesOf(const Expr& e, const Pattern* binding, std::vector<const Expr*>& out) {
  lang::WalkExpr(e, [&](const Expr& use) {
    if (IsLocalUse(use) && use.binding == binding) out.push_back(&use);
  });
}

bool MakesNoEffects(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kInt:
    case Expr::Kind::kFloat:
    case Expr::Kind::kBool:
    case Expr::Kind::kStr:
    case Expr::Kind::kUnit:
    case Expr::Kind::kName:
    case Expr::Kind::kLambda:  // making a closure runs none of its body
      return true;
    case Expr::Kind::kTuple:
    case Expr::Kind::kArray:
      return std::all_of(e.elements.begin(), e.elements.end(),
                         [](const lang::ExprPtr& element) { return MakesNoEffects(*element); });
    default:
      return false;
  }
}

}  // namespace alea::compiler
