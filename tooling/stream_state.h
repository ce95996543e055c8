// The session random stream (docs/repl.md; docs/language.md "Implicit random
// states (`uses rng`)"): the REPL's top level is an ambient context whose
// state is key(seed); the i-th input with random sites runs as
// `with s_i { input }`, s_i the i-th `next` of the stream, fold_in(key(seed), i).
#ifndef ALEA_TOOLING_STREAM_STATE_H_
#define ALEA_TOOLING_STREAM_STATE_H_

#include <cstdint>
#include <string>

namespace alea::tooling {

// `with fold_in(key(SEED), INDEX) { `: the glue that opens input INDEX's
// ambient scope (closed by ` }`). Written as source so that `:desugar` and
// the compiler see exactly what docs/language.md says the line means.
std::string WithStreamState(int64_t seed, int64_t index);

}  // namespace alea::tooling

#endif  // ALEA_TOOLING_STREAM_STATE_H_
