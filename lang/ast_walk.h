// Visiting every sub-expression of an expression, for passes that look at a
// few kinds of node and ignore the rest. The walk keeps its own stack, so a
// long operator chain (`1 + 1 + ... + 1`, a left-deep tree) cannot overflow
// the C stack.
#ifndef ALEA_LANG_AST_WALK_H_
#define ALEA_LANG_AST_WALK_H_

#include <vector>

#include "lang/ast.h"

namespace alea::lang {

// Calls f on each direct child expression of e, in source order.
template <typename F>
void ForEachChild(const Expr& e, F&& f) {
  auto visit = [&f](const ExprPtr& child) {
    if (child) f(*child);
  };
  switch (e.kind) {
    case Expr::Kind::kMatch:
      visit(e.lhs);
      for (const MatchArm& arm : e.arms) {
        visit(arm.guard);
        visit(arm.body);
      }
      return;
    case Expr::Kind::kIf:
      visit(e.rhs);
      visit(e.then_branch);
      visit(e.else_branch);
      return;
    case Expr::Kind::kBlock:
      for (const Stmt& stmt : e.stmts) visit(stmt.expr);
      visit(e.result);
      return;
    default:
      visit(e.lhs);
      visit(e.rhs);
      visit(e.third);
      for (const ExprPtr& element : e.elements) visit(element);
      for (const Arg& arg : e.args) visit(arg.value);
      visit(e.body);
      return;
  }
}

// Calls f on e and every expression inside it, parents before children.
template <typename F>
void WalkExpr(const Expr& root, F&& f) {
  std::vector<const Expr*> pending{&root};
  std::vector<const Expr*> children;
  while (!pending.empty()) {
    const Expr* e = pending.back();
    pending.pop_back();
    f(*e);
    children.clear();
    ForEachChild(*e, [&children](const Expr& child) { children.push_back(&child); });
    pending.insert(pending.end(), children.rbegin(), children.rend());
  }
}

}  // namespace alea::lang

#endif  // ALEA_LANG_AST_WALK_H_
