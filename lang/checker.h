// The type checker's internal state, shared by typecheck.cc (names, top
// level, generalization), infer_expr.cc (expressions and patterns) and
// overloads.cc (builtins, overload constraints, defaulting). Not a public
// header: use lang/typecheck.h.
#ifndef ALEA_LANG_CHECKER_H_
#define ALEA_LANG_CHECKER_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "lang/ast.h"
#include "lang/builtins.h"
#include "lang/diagnostics.h"
#include "lang/program.h"
#include "lang/source.h"
#include "lang/suggest.h"
#include "lang/types.h"

namespace alea::lang {

class Checker {
 public:
  Checker(Program& program, const SourceManager& sources, Diagnostics& diags);
  bool Run();
  bool states_in_top_lets_ = false;  // TypeCheck's flag

  // ---- Everything below is internal to the checker's .cc files. ----

  // A top-level definition: a function, or one variable of a top-level let.
  struct TopItem {
    FnDecl* fn = nullptr;
    TopLet* let = nullptr;
    Pattern* var = nullptr;  // the let's kVar pattern (null for a let binding no name)
    int module = 0;
    types::Type* mono = nullptr;  // while its SCC is inferred
    types::Scheme* scheme = nullptr;
    bool in_progress = false;
  };
  struct Local {
    std::string name;
    types::Type* mono = nullptr;      // lambda/fn parameters, match bindings
    types::Scheme* scheme = nullptr;  // let-bound (generalized)
    Pattern* pattern = nullptr;
  };

  // typecheck.cc
  void CollectTopLevel();
  void CheckSccs();
  void InferScc(const std::vector<int>& scc);
  // `main` of the root module with one parameter and no annotation on it.
  bool IsMainWithArgs(const TopItem& item) const;
  void CheckMain();
  TopItem* LookupTop(const std::string& name);
  // The modules whose top-level names (and types) module m sees: itself,
  // then those it imports directly (Program::visible).
  std::vector<int> VisibleModules(int m) const;
  // Quantifies the variables of `types` above the current level (and those
  // connected to them through pending constraints) into one shared scheme
  // per type; ambiguous constraints are defaulted.
  std::vector<types::Scheme*> Generalize(const std::vector<types::Type*>& types);
  types::Type* Instantiate(types::Scheme* scheme, Span span, std::vector<const types::Type*>* args);
  // `reason`: what a note about the type says it comes from.
  types::Type* FromAnnotation(const TypeAnn& ann, const std::string& reason = "the annotation");
  void SuggestName(Diagnostic& d, const std::string& name);

  // Errors.
  // Unifies and reports a mismatch at `span`.
  bool Expect(types::Type* expected, types::Type* found, Span span);
  void ReportUnifyFailure(Span span, types::Type* expected, types::Type* found,
                          const types::UnifyFailure& failure);
  void AddOriginNotes(Diagnostic& d, types::Printer& printer, const types::Type* t);

  // infer_types.cc: declared types, constructors, records, fields.
  // Makes a TypeDef of every declaration (and the prelude's) and the
  // per-module tables of visible type and constructor names, then reads the
  // field types.
  void CollectTypes();
  const types::TypeDef* LookupType(const std::string& name) const;
  const types::Ctor* LookupCtor(const std::string& name) const;
  // `def` applied to fresh variables (a constructor's or record's type at a use).
  types::Type* FreshInstance(const types::TypeDef& def, Span span, const std::string& reason);
  // The type of constructor `c` used as a value: its type, or a function
  // from its fields to it.
  types::Type* CtorValue(const types::Ctor& c, Span span);
  types::Type* InferRecord(Expr& e);
  types::Type* InferField(Expr& e);
  void BindCtorPattern(Pattern& p, types::Type* t, bool refutable_ok, std::vector<Local>& out);
  // A user type named in an annotation (or a declaration's parameter); null
  // when `ann` names none.
  types::Type* NamedFromAnnotation(const TypeAnn& ann, const types::Origin& origin,
                                   const std::string& reason);
  void SuggestCtor(Diagnostic& d, const std::string& name);
  void ReportUnknownField(Span at, const types::Ctor& c, const std::string& name);
  // `name { ... }` where `name` is no record type: a variant, a variant's
  // constructor or nothing known; `variant_help` says what to do with a variant.
  void ReportNotARecord(Span at, const std::string& name, const char* variant_help);
  // Declarations being read: their parameters by name.
  const std::vector<std::pair<std::string, types::Type*>>* decl_params_ = nullptr;
  const TypeDecl* decl_ = nullptr;
  // Per module: the visible type and constructor names (its own, its
  // imports', then the prelude's).
  std::vector<absl::flat_hash_map<std::string, const types::TypeDef*>> visible_types_;
  std::vector<absl::flat_hash_map<std::string, const types::Ctor*>> visible_ctors_;

  // infer_expr.cc
  types::Type* Infer(Expr& e);
  types::Type* InferName(Expr& e, bool callee);
  types::Type* InferCall(Expr& e);
  types::Type* InferBlock(Expr& e);
  types::Type* InferLambda(Expr& e);
  types::Type* InferSubscript(Expr& e);
  types::Type* InferMatch(Expr& e);
  types::Type* InferWith(Expr& e);
  // A condition (`if`, a guard) of type `t`: a Bool, or an error that says
  // how to get one from a tensor.
  void ExpectCondition(types::Type* t, const Expr& cond, const std::string& what);
  // Binds the variables of `p` (monomorphically) to parts of `t`; `locals`
  // receives them. `literals` allows int/bool patterns (match).
  void BindPattern(Pattern& p, types::Type* t, bool literals, std::vector<Local>& out);
  void InferLet(Stmt& stmt);
  types::Type* ParamType(Param& param, const std::string& fallback_reason);

  // overloads.cc
  // A use of the overloaded `name` at `site` (a function type for a call).
  types::Type* UseOverloaded(const std::string& name, Expr* expr, Span span,
                             std::vector<types::Type*> args, std::vector<std::string> names,
                             std::vector<uint8_t> literals, int skip);
  types::Type* InferBuiltinCall(Expr& call, Expr& callee, absl::Span<const BuiltinId> overloads);
  types::Type* BuiltinValue(Expr& e, absl::Span<const BuiltinId> overloads);
  // grad.cc: `grad(f)` and `value_and_grad(f)`, f's type already inferred.
  types::Type* InferGradCall(Expr& call, Expr& callee, const Builtin& b, types::Type* f_type);
  // Tries to resolve `c`; true when it is settled (resolved, or failed and reported).
  bool TrySolve(types::Constraint& c, bool defaulting);
  // Tries the pending constraints of levels >= min_level until none resolves.
  void SolvePending(int min_level = 0);
  void ReportNoOverload(const types::Constraint& c);
  // `names`: the call's argument names as written ("" for a positional one).
  void ReportArgMapError(Span span, const Builtin& b, ArgMapError error, const std::string& detail,
                         absl::Span<const std::string> names, int skip);
  void DefaultConstraint(types::Constraint& c);
  bool CheckSite(Expr& site, const std::string& what, bool is_rng_call, const FnDecl* fn);

  // Helpers.
  types::Type* Fresh(std::string reason, std::optional<Span> span);
  types::Origin At(Span span, std::string reason) { return types::Origin{span, std::move(reason)}; }
  std::string Text(Span span) const;
  types::Type* Prim(types::Kind kind, Span span, std::string reason) {
    return store_->Prim(kind, At(span, std::move(reason)));
  }

  Program& program_;
  const SourceManager& sources_;
  Diagnostics& diags_;
  std::shared_ptr<types::TypeStore> store_holder_;
  types::TypeStore* store_;
  int level_ = 1;

  std::vector<TopItem> items_;
  // Per module: its visible top-level names (itself and direct imports).
  std::vector<absl::flat_hash_map<std::string, int>> visible_;
  int module_ = 0;  // the module being checked
  std::vector<Local> locals_;
  std::vector<types::Constraint> pending_;
  // kName uses of items of the SCC being inferred: their type_args are the
  // SCC's own variables, filled once it is generalized.
  std::vector<Expr*> recursive_uses_;

  // Ambient random contexts.
  bool ambient_ = false;            // inside a `uses rng` body or a `with` block
  bool lambda_in_ambient_ = false;  // inside a lambda inside such a context
};

}  // namespace alea::lang

#endif  // ALEA_LANG_CHECKER_H_
