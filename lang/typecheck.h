// The type checker: Hindley–Milner inference with let-polymorphism, statically
// resolved overloads (lang/builtins.def), and the checks of ambient random
// contexts (`uses rng`, `with`).
//
// What it leaves on the AST for the compiler (which monomorphizes):
//   - every Expr and Pattern has its `type`; variables quantified in a scheme
//     stay as (generic) type variables, to be substituted per specialization;
//   - FnDecl::scheme and let-bound Pattern::scheme: the type schemes, with the
//     overload constraints their specializations must resolve;
//   - Expr::type_args at each use of a polymorphic name, Expr::builtin and
//     Expr::site_type at each operator/builtin use, Expr::ambient_site.
// Type variables that are in no scheme (an unused `[]`, say) are unconstrained:
// any type works for them, e.g. `()`.
#ifndef ALEA_LANG_TYPECHECK_H_
#define ALEA_LANG_TYPECHECK_H_

#include "lang/diagnostics.h"
#include "lang/program.h"
#include "lang/source.h"

namespace alea::lang {

// Annotates the AST in place; reports every error into `diags`; returns false
// on error. The types live in a store that every module of `program` shares
// (Module::types).
// `states_in_top_lets`: allow a top-level `let` to hold a RandState (the
// REPL: lang/front_end.h CheckOptions).
bool TypeCheck(Program& program, const SourceManager& sources, Diagnostics& diags,
               bool states_in_top_lets = false);

}  // namespace alea::lang

#endif  // ALEA_LANG_TYPECHECK_H_
