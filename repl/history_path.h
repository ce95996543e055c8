// Where the REPL keeps its history: $ALEA_HISTORY if set, else
// $XDG_STATE_HOME/alea/history, else ~/.local/state/alea/history.
#ifndef ALEA_REPL_HISTORY_PATH_H_
#define ALEA_REPL_HISTORY_PATH_H_

#include <string>

namespace alea::repl {

// The path (its directory is not created here), or "" when no environment
// variable gives one.
std::string HistoryPath();

}  // namespace alea::repl

#endif  // ALEA_REPL_HISTORY_PATH_H_
