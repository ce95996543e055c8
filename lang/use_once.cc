// The use-once check as a forward data-flow over the AST in evaluation order.
//
// The abstract state is the set of tracked variables consumed so far, each
// with where and by what (for the note). A variable is a binding Pattern (a
// kVar of a `let`, a parameter or a match arm), so shadowing needs no work: a
// new binding of a name is a new key. Branches (`if` arms, `match` arms) start
// from the same state and are joined by union: a use after the branch is an
// error when any arm consumed the variable. `&&`/`||` need no special case:
// their right operand either runs after the left one or not at all, and the
// union of "ran" and "did not run" is the sequential result.
//
// The state is never copied: consumptions only add records, so an arm's are
// the records added since a mark, taken out before the next arm and put back
// at the join. A branch costs what its arms consume, and a long function of
// `if`s stays linear however many states it has consumed before them.
//
// Every occurrence of a tracked variable consumes it, except as a direct
// argument of `print`/`str` (and inside a tuple or array literal, block or
// branch whose value only goes there) and as an expression statement whose
// value is dropped: the types leave a state no other use (no operator,
// equality or index takes one), so "used" and "consumed" coincide elsewhere.
#include "lang/use_once.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "lang/types.h"

namespace alea::lang {
namespace {

// Whether values of type `t` are tracked: a RandState, or a tuple, record or
// variant holding one at any depth. Arrays are not (the VM checks their
// elements at run time), nor are functions (no closure holds a state:
// capturing one is an error).
bool HoldsState(const types::Type* t, int depth = 0) {
  if (t == nullptr || depth > types::kMaxTypeDepth) return false;
  t = types::Resolve(t);
  if (t->kind == types::Kind::kRandState) return true;
  if (t->kind == types::Kind::kNamed &&
      (t->def->holds >> static_cast<unsigned>(types::Kind::kRandState)) & 1) {
    return true;
  }
  if (t->kind != types::Kind::kTuple && t->kind != types::Kind::kNamed) return false;
  for (const types::Type* part : t->args) {
    if (HoldsState(part, depth + 1)) return true;
  }
  return false;
}

bool IsRandState(const types::Type* t) {
  return t != nullptr && types::Resolve(t)->kind == types::Kind::kRandState;
}

// What the context of an expression does with its value: only looks at it
// (`print`, a dropped statement value), or consumes it — and then the note
// that names the consumer if a later use is an error.
struct Use {
  bool consumes = false;
  DiagId note = DiagId::kNoteConsumedBy;
  std::string what;        // the note's `$0`, when it has one
  bool recursive = false;  // an argument of the function's call of itself (a loop)
};

Use Look() { return Use{}; }
Use Consume(DiagId note, std::string what = "") { return Use{true, note, std::move(what)}; }

struct Consumed {
  Span at;
  DiagId note;
  std::string what;
  bool recursive = false;
};

// Consumptions taken out of the state: an arm's, until its branch joins.
using Records = std::vector<std::pair<const Pattern*, Consumed>>;

class UseOnceChecker {
 public:
  explicit UseOnceChecker(Diagnostics& diags) : diags_(diags) {}

  void CheckFn(const FnDecl& fn) {
    Reset();
    fn_ = &fn;
    for (const Param& p : fn.params) {
      if (p.pattern) Bind(*p.pattern);
    }
    if (fn.body) Visit(*fn.body, Consume(DiagId::kNoteConsumedByReturn, fn.name));
  }

  void CheckTopLet(const TopLet& let) {
    Reset();
    fn_ = nullptr;
    if (let.value) Visit(*let.value, Consume(DiagId::kNoteConsumedBy, "let"));
  }

 private:
  void Reset() {
    vars_.clear();
    consumed_.clear();
    added_.clear();
    closure_ = 0;
  }

  // Registers the tracked variables a pattern binds, owned by the current
  // closure (0: the function body itself).
  void Bind(const Pattern& p) {
    if (p.kind == Pattern::Kind::kVar && HoldsState(p.type)) vars_[&p] = closure_;
    for (const PatternPtr& element : p.elements) {
      if (element) Bind(*element);
    }
  }

  // Recursion is bounded: the parser caps the tree's depth (about 2,048
  // nodes, docs/decisions.md "Syntax").
  void Visit(const Expr& e, const Use& use) {
    switch (e.kind) {
      case Expr::Kind::kInt:
      case Expr::Kind::kFloat:
      case Expr::Kind::kBool:
      case Expr::Kind::kStr:
      case Expr::Kind::kUnit:
        return;
      case Expr::Kind::kName:
        if (e.name_kind == NameKind::kLocal && e.binding != nullptr) UseVar(e, use);
        return;
      case Expr::Kind::kTuple:
      case Expr::Kind::kArray: {
        // An aggregate whose value is only looked at (`print((s, t))`) does
        // not consume its parts either.
        Use part = use.consumes
                       ? Consume(e.kind == Expr::Kind::kTuple ? DiagId::kNoteConsumedByTuple
                                                              : DiagId::kNoteConsumedByArray)
                       : Look();
        for (const ExprPtr& element : e.elements) VisitIf(element, part);
        return;
      }
      case Expr::Kind::kUnary:
        VisitIf(e.lhs, Consume(DiagId::kNoteConsumedBy, Spelling(e.unary_op)));
        return;
      case Expr::Kind::kBinary: {
        Use operand = Consume(DiagId::kNoteConsumedBy, Spelling(e.binary_op));
        VisitIf(e.lhs, operand);
        VisitIf(e.rhs, operand);
        return;
      }
      case Expr::Kind::kCall:
        VisitCall(e);
        return;
      case Expr::Kind::kIndex:
      case Expr::Kind::kSlice:
        // Indexing reads an array or tensor and consumes neither; an element
        // taken out is a fresh, untracked value until it is bound to a name.
        VisitIf(e.lhs, Look());
        VisitIf(e.rhs, Look());
        VisitIf(e.third, Look());
        VisitIf(e.body, Look());  // a kSubscript's slice item's step
        return;
      case Expr::Kind::kSubscript:
        VisitIf(e.lhs, Look());
        for (const ExprPtr& item : e.elements) VisitIf(item, Look());
        return;
      case Expr::Kind::kLambda:
        VisitLambda(e);
        return;
      case Expr::Kind::kIf:
        VisitIf(e.rhs, Look());
        VisitBranches(e, use);
        return;
      case Expr::Kind::kMatch:
        VisitMatch(e, use);
        return;
      case Expr::Kind::kBlock:
        for (const Stmt& stmt : e.stmts) {
          if (stmt.kind == Stmt::Kind::kLet) {
            VisitIf(stmt.expr, Consume(DiagId::kNoteConsumedBy, "let"));
            if (stmt.pattern) Bind(*stmt.pattern);
          } else {
            // `s;` evaluates `s` and drops it: dropping is allowed and
            // consumes nothing.
            VisitIf(stmt.expr, Look());
          }
        }
        VisitIf(e.result, use);
        return;
      case Expr::Kind::kWith:
        VisitIf(e.lhs, Consume(DiagId::kNoteConsumedBy, "with"));
        VisitIf(e.body, use);
        return;
      case Expr::Kind::kRecord: {
        Use part = use.consumes ? Consume(DiagId::kNoteConsumedByRecord, e.name) : Look();
        for (const Arg& a : e.args) VisitIf(a.value, part);
        VisitIf(e.body, part);
        return;
      }
      case Expr::Kind::kField:
        // Reading a field takes the value apart: the rest of it is gone.
        VisitIf(e.lhs, Consume(DiagId::kNoteConsumedBy, "." + e.name));
        return;
    }
  }

  void VisitIf(const ExprPtr& e, const Use& use) {
    if (e) Visit(*e, use);
  }

  void VisitCall(const Expr& call) {
    // The callee is a function value: never tracked, and calling it does
    // not consume it.
    VisitIf(call.lhs, Look());
    Use arg = Consume(DiagId::kNoteConsumedByCallValue);
    if (call.lhs && call.lhs->kind == Expr::Kind::kName) {
      const Expr& callee = *call.lhs;
      if (callee.name_kind == NameKind::kBuiltin) {
        // `print` and `str` show a state without consuming it (docs/language.md
        // "The use-once rule").
        bool looks = callee.name == "print" || callee.name == "str";
        arg = looks ? Look() : Consume(DiagId::kNoteConsumedBy, callee.name);
      } else {
        arg = Consume(DiagId::kNoteConsumedByCall, callee.name);
        arg.recursive = fn_ != nullptr && callee.fn == fn_;
      }
    }
    for (const Arg& a : call.args) VisitIf(a.value, arg);
  }

  // `if`: both arms start from the state after the condition; an absent
  // `else` consumes nothing, so the then-arm's state is already the union.
  void VisitBranches(const Expr& e, const Use& use) {
    if (!e.else_branch) {
      VisitIf(e.then_branch, use);
      return;
    }
    size_t mark = added_.size();
    VisitIf(e.then_branch, use);
    Records then_arm = TakeSince(mark);
    VisitIf(e.else_branch, use);
    PutBack(then_arm);  // last: the then-arm's record wins, for the note
  }

  // `match`: the scrutinee is consumed (its parts, if a pattern binds them,
  // are new variables). Arms are tried in order, so arm k starts from the
  // state after every earlier arm's guard (a guard that failed still ran),
  // but not after an earlier arm's body.
  void VisitMatch(const Expr& e, const Use& use) {
    VisitIf(e.lhs, Consume(DiagId::kNoteConsumedBy, "match"));
    std::vector<Records> bodies;
    for (const MatchArm& arm : e.arms) {
      if (arm.pattern) Bind(*arm.pattern);
      VisitIf(arm.guard, Look());
      size_t mark = added_.size();
      VisitIf(arm.body, use);
      bodies.push_back(TakeSince(mark));
    }
    // In reverse, so the earliest arm's record wins, for the note.
    for (auto it = bodies.rbegin(); it != bodies.rend(); ++it) PutBack(*it);
  }

  // Removes the records added since `mark` from the state and returns them.
  Records TakeSince(size_t mark) {
    Records out;
    for (size_t i = mark; i < added_.size(); ++i) {
      auto node = consumed_.extract(added_[i]);
      out.emplace_back(added_[i], std::move(node.mapped()));
    }
    added_.resize(mark);
    return out;
  }

  // Adds records taken out of another arm (the union at a join); a variable
  // consumed in both gets the record put back.
  void PutBack(Records& records) {
    for (auto& [var, consumed] : records) {
      auto [it, inserted] = consumed_.try_emplace(var, std::move(consumed));
      if (inserted) {
        added_.push_back(var);
      } else {
        it->second = std::move(consumed);
      }
    }
  }

  // A lambda's body runs later, any number of times, so it may not refer to
  // a tracked variable of an enclosing scope at all (UseVar reports that
  // before it looks at the state); its own parameters are tracked within it,
  // fresh at each call as they are new keys.
  void VisitLambda(const Expr& e) {
    int saved_closure = closure_;
    closure_ = ++closures_;
    for (const Param& p : e.params) {
      if (p.pattern) Bind(*p.pattern);
    }
    VisitIf(e.body, Consume(DiagId::kNoteConsumedByLambdaReturn));
    closure_ = saved_closure;
  }

  void UseVar(const Expr& name, const Use& use) {
    const Pattern* var = name.binding;
    auto it = vars_.find(var);
    if (it == vars_.end()) return;  // not a state
    if (it->second != closure_) {
      if (captures_reported_.insert({closure_, var}).second) ReportCapture(name, *var);
      return;
    }
    if (!use.consumes) return;
    auto [at, inserted] =
        consumed_.try_emplace(var, Consumed{name.span, use.note, use.what, use.recursive});
    if (inserted) {
      added_.push_back(var);
      return;
    }
    // One error per variable, as rustc reports one per move: a third use
    // adds nothing the second did not say.
    if (reported_.insert(var).second) {
      ReportTwice(name, *var, at->second, use.recursive || at->second.recursive);
    }
  }

  void ReportTwice(const Expr& use, const Pattern& var, const Consumed& first, bool in_loop) {
    const types::Type* t = types::Resolve(var.type);
    if (t->kind == types::Kind::kNamed) {
      diags_.Report(DiagId::kStateRecordUsedTwice, use.span, var.name, types::ToString(t))
          .Note(first.at, first.note, first.what);
      return;
    }
    Diagnostic& d = IsRandState(var.type)
                        ? diags_.Report(DiagId::kStateUsedTwice, use.span, var.name)
                        : diags_.Report(DiagId::kStateTupleUsedTwice, use.span, var.name,
                                        types::ToString(var.type));
    d.Note(first.at, first.note, first.what);
    // Drawing from a state and passing the same state on to the next round:
    // the loop's way is `next`.
    if (in_loop && IsRandState(var.type)) {
      d.helps.clear();
      d.Help(DiagId::kHelpNextInLoop, var.name);
    }
  }

  void ReportCapture(const Expr& use, const Pattern& var) {
    Diagnostic& d = IsRandState(var.type)
                        ? diags_.Report(DiagId::kClosureCapturesState, use.span, var.name)
                        : diags_.Report(DiagId::kClosureCapturesStateTuple, use.span, var.name,
                                        types::ToString(var.type));
    d.Note(var.span, DiagId::kNoteStateBoundOutside, var.name);
  }

  Diagnostics& diags_;
  // Tracked variables in scope so far, with the closure that binds them.
  absl::flat_hash_map<const Pattern*, int> vars_;
  // The consumed variables on the current path, and their keys in the order
  // they were added (for TakeSince).
  absl::flat_hash_map<const Pattern*, Consumed> consumed_;
  std::vector<const Pattern*> added_;
  const FnDecl* fn_ = nullptr;  // the function being checked
  int closure_ = 0;             // the closure being checked; 0 is the function body
  int closures_ = 0;            // closures numbered so far
  absl::flat_hash_set<const Pattern*> reported_;
  absl::flat_hash_set<std::pair<int, const Pattern*>> captures_reported_;
};

}  // namespace

void CheckUseOnce(const Module& module, Diagnostics& diags) {
  UseOnceChecker checker(diags);
  for (const auto& fn : module.fns) {
    if (fn) checker.CheckFn(*fn);
  }
  for (const auto& let : module.lets) {
    if (let) checker.CheckTopLet(*let);
  }
}

}  // namespace alea::lang
