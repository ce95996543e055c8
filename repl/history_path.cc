#include "repl/history_path.h"

#include <cstdlib>

namespace alea::repl {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

}  // namespace

std::string HistoryPath() {
  if (std::string path = Env("ALEA_HISTORY"); !path.empty()) return path;
  if (std::string state = Env("XDG_STATE_HOME"); !state.empty()) return state + "/alea/history";
  if (std::string home = Env("HOME"); !home.empty()) return home + "/.local/state/alea/history";
  return "";
}

}  // namespace alea::repl
