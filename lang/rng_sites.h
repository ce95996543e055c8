// The static numbering of ambient random-state sites (docs/language.md
// "Implicit random states (`uses rng`)"): the one definition that both the
// compiler (which gives site i the state fold_in(ambient, i)) and `alea dis
// --desugar` (which threads `next`) follow, so they cannot disagree.
//
// A site is a call with Expr::ambient_site (a sampler without its state,
// `rng()`, a call of a `uses rng` function), or an `if`/`match` whose arms
// contain sites: that counts as one site, and each arm numbers its own sites
// from 0, drawing from the `if`'s site state. Sites are numbered in
// evaluation order (arguments before their call, a condition before its
// `if`) within their scope: a `uses rng` body, a `with` body, or an arm.
// Match guards are conditions: their sites belong to the enclosing scope
// (after the scrutinee's, in arm order, before the match's own), so a guard
// that fails cannot hand the next arm the states it drew.
#ifndef ALEA_LANG_RNG_SITES_H_
#define ALEA_LANG_RNG_SITES_H_

#include "absl/container/flat_hash_map.h"
#include "lang/ast.h"

namespace alea::lang {

// Site expression -> its index within its scope.
using SiteNumbers = absl::flat_hash_map<const Expr*, int>;

// Numbers every site in `body` (a function, lambda or top-level let's value),
// including those of `with` blocks and lambdas nested in it. Sites outside
// any ambient scope (a type error already reported) are numbered too.
void NumberSites(const Expr& body, SiteNumbers& out);

}  // namespace alea::lang

#endif  // ALEA_LANG_RNG_SITES_H_
