// `grad` and `value_and_grad` in the front end (docs/language.md
// "Differentiation"): the checks that need the program's types resolved —
// what the first parameter may hold, the result, nesting — run after type
// inference. Their typing rule is Checker::InferGradCall (grad.cc).
#ifndef ALEA_LANG_GRAD_H_
#define ALEA_LANG_GRAD_H_

#include <optional>

#include "lang/ast.h"
#include "lang/diagnostics.h"
#include "lang/types.h"

namespace alea::lang {

void CheckGrads(const Module& module, Diagnostics& diags);

// Why a function of type `f` cannot be differentiated: the diagnostic and
// the type it names. `generic`: whether types not known yet (a variable of
// a generic function's instance) pass; the compiler asks again with every
// type known.
struct GradProblem {
  DiagId id;
  std::string type;
};
std::optional<GradProblem> GradTypeProblem(const types::Type* f, bool generic);

}  // namespace alea::lang

#endif  // ALEA_LANG_GRAD_H_
