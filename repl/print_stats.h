// The VM's counters as `alea run --stats` prints them (and the REPL's `:stats`).
#ifndef ALEA_REPL_PRINT_STATS_H_
#define ALEA_REPL_PRINT_STATS_H_

#include "alea/tooling.h"

namespace alea::repl {

// One `stats: ...` line on stderr, so that stdout stays the program's output.
void PrintStats(const tooling::RunStats& stats);

}  // namespace alea::repl

#endif  // ALEA_REPL_PRINT_STATS_H_
