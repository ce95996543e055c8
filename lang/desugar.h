// `alea dis --desugar`: a checked program with its implicit random states
// made explicit (docs/language.md "Implicit random states (`uses rng`)"),
// printed as valid Alea.
//
// The rewrite follows the site numbering of lang/rng_sites.h, the one the
// compiler follows too: a `uses rng` function takes its ambient stream as an
// extra last parameter, each scope with sites starts by threading `next`
// through its stream once per site (`let (site_0, rng_1) = next(rng_0);`),
// and each site uses its own state: a sampler gets it as its first argument,
// `rng()` becomes it, a `uses rng` call passes it last, and an `if`/`match`
// that is a site hands it to its arms as their stream. `with s { body }`
// becomes `{ let rng_0 = s; ...; body }`, and a `uses rng` `main` starts from
// `key(seed)`, as `alea run --seed N` runs it.
//
// Site i of a stream (k, n) is the i-th `next` of it, (fold_in(k, n + i), 0):
// exactly the state the compiler's SITE instruction gives it, so the output
// draws the same numbers as the original. Each state is consumed at most once
// (the use-once rule), except that a `match` arm whose guard holds sites
// starts its guard and its body from the same stream (see desugar.cc).
#ifndef ALEA_LANG_DESUGAR_H_
#define ALEA_LANG_DESUGAR_H_

#include <cstdint>
#include <string>

#include "lang/program.h"
#include "lang/source.h"

namespace alea::lang {

struct DesugarOptions {
  // The seed of the key a `uses rng` `main` runs with (`alea run --seed N`).
  int64_t seed = 0;
  // When given, names each file in a comment where several are printed.
  const SourceManager* sources = nullptr;
};

// The rewritten program as source text, ending with a newline. The program
// must have checked cleanly (lang/front_end.h). A program without `uses rng`
// or `with` prints as PrintModule prints its root file. Otherwise the root
// file is printed rewritten, with its imports, when no imported file needs
// rewriting; else every file is printed in dependency order as one file
// without imports (top-level names are unique across a program, so the
// result is one valid file).
std::string DesugarProgram(const Program& program, const DesugarOptions& options = {});

}  // namespace alea::lang

#endif  // ALEA_LANG_DESUGAR_H_
