#include "lang/rng_sites.h"

#include "lang/ast_walk.h"

namespace alea::lang {
namespace {

class Numberer {
 public:
  explicit Numberer(SiteNumbers& out) : out_(out) {}

  // Numbers the sites of `e` in the scope whose next free index is *next;
  // returns whether `e` holds a site of that scope. Recursion depth follows
  // the expression's nesting, which the parser bounds.
  bool Number(const Expr& e, int* next) {
    switch (e.kind) {
      case Expr::Kind::kLambda: {
        // Its own scope: sites in it are errors, `with` blocks in it are not.
        int inner = 0;
        Number(*e.body, &inner);
        return false;
      }
      case Expr::Kind::kWith: {
        bool has = e.lhs && Number(*e.lhs, next);
        int inner = 0;
        if (e.body) Number(*e.body, &inner);
        return has;
      }
      case Expr::Kind::kIf: {
        bool has = e.rhs && Number(*e.rhs, next);
        bool arms = Arm(e.then_branch.get(), nullptr);
        arms = Arm(e.else_branch.get(), nullptr) || arms;
        return Close(e, arms, next) || has;
      }
      case Expr::Kind::kMatch: {
        // Guards are conditions, like an `if`'s: a guard that draws and
        // fails must not hand the next arm the same states, so their sites
        // belong to the enclosing scope, in arm order.
        bool has = e.lhs && Number(*e.lhs, next);
        for (const MatchArm& arm : e.arms) {
          if (arm.guard) has = Number(*arm.guard, next) || has;
        }
        bool arms = false;
        for (const MatchArm& arm : e.arms) arms = Arm(arm.body.get(), nullptr) || arms;
        return Close(e, arms, next) || has;
      }
      default: {
        bool has = false;
        ForEachChild(e, [&](const Expr& child) { has = Number(child, next) || has; });
        if (e.kind == Expr::Kind::kCall && e.ambient_site) {
          out_[&e] = (*next)++;
          has = true;
        }
        return has;
      }
    }
  }

 private:
  // One arm (an `if` branch, or a match arm's body): its own scope.
  bool Arm(const Expr* first, const Expr* second) {
    int inner = 0;
    bool has = first != nullptr && Number(*first, &inner);
    if (second != nullptr) has = Number(*second, &inner) || has;
    return has;
  }

  // An `if`/`match` whose arms hold sites is itself one site, after those
  // of its condition or scrutinee.
  bool Close(const Expr& e, bool arms_have_sites, int* next) {
    if (!arms_have_sites) return false;
    out_[&e] = (*next)++;
    return true;
  }

  SiteNumbers& out_;
};

}  // namespace

void NumberSites(const Expr& body, SiteNumbers& out) {
  int next = 0;
  Numberer(out).Number(body, &next);
}

}  // namespace alea::lang
