// The static use-once (affine) check of random states (docs/language.md
// "Random states", "The use-once rule"): a variable whose type holds a
// RandState (RandState itself, or a tuple containing one) may be consumed at
// most once on any execution path, and no closure may capture one.
//
// It runs on the program as written, after type inference (it reads the types
// on patterns and the name resolution on expressions), and before the `uses
// rng` rewrite: the ambient state is no variable, so it is not tracked here.
// What it cannot see — elements of state arrays, a state reaching polymorphic
// code through a type variable — the VM checks at run time.
#ifndef ALEA_LANG_USE_ONCE_H_
#define ALEA_LANG_USE_ONCE_H_

#include "lang/ast.h"
#include "lang/diagnostics.h"

namespace alea::lang {

// Reports kStateUsedTwice / kStateTupleUsedTwice and kClosureCapturesState /
// kClosureCapturesStateTuple for every function body, lambda body and
// top-level `let` of the module. The module must have type-checked cleanly.
void CheckUseOnce(const Module& module, Diagnostics& diags);

}  // namespace alea::lang

#endif  // ALEA_LANG_USE_ONCE_H_
