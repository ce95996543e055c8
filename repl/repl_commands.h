// The REPL's `:commands`, in one table: name, argument synopsis, help line,
// handler. `:help` prints the table, completion reads its names.
#ifndef ALEA_REPL_REPL_COMMANDS_H_
#define ALEA_REPL_REPL_COMMANDS_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "alea/tooling.h"

namespace alea::repl {

struct ReplCommand {
  const char* name;      // without the colon
  const char* synopsis;  // the argument, or ""
  const char* help;      // one line
  // Runs the command on its argument (trimmed); false ends the session.
  bool (*run)(tooling::Session& session, absl::string_view arg);
};

const std::vector<ReplCommand>& ReplCommands();

// Runs a line that starts with `:`; false when the session should end. An
// unknown command is an error that lists the known ones.
bool RunReplCommand(tooling::Session& session, absl::string_view line);

}  // namespace alea::repl

#endif  // ALEA_REPL_REPL_COMMANDS_H_
