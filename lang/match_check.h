// `match` checks that need no types: arms that can never run, and matches that
// miss some value (reported with an example of a value no arm covers).
#ifndef ALEA_LANG_MATCH_CHECK_H_
#define ALEA_LANG_MATCH_CHECK_H_

#include "lang/ast.h"
#include "lang/diagnostics.h"

namespace alea::lang {

// Reports kNonExhaustiveMatch errors and kUnreachableArm warnings for every
// `match` in the module.
void CheckMatches(const Module& module, Diagnostics& diags);

}  // namespace alea::lang

#endif  // ALEA_LANG_MATCH_CHECK_H_
