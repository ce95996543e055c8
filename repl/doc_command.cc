// `alea doc [NAME]` and `alea doc --markdown`: the builtins' reference on the
// command line, and the generator of docs/builtins.md.
#include <cstdio>

#include "alea/tooling.h"
#include "repl/command_line.h"
#include "repl/commands.h"

namespace alea::repl {

int RunDoc(const std::vector<std::string>& args) {
  std::string name;
  bool markdown = false;
  bool operands_only = false;
  for (const std::string& arg : args) {
    if (!operands_only && arg == "--") {
      operands_only = true;
    } else if (!operands_only && arg == "--markdown") {
      markdown = true;
    } else if (!operands_only && arg.size() > 1 && arg[0] == '-' && arg != "-") {
      return UsageError("doc", "unknown option `" + arg + "`");
    } else if (!name.empty()) {
      return UsageError("doc", "more than one NAME: `" + name + "` and `" + arg + "`");
    } else {
      name = arg;
    }
  }
  if (markdown) {
    if (!name.empty()) return UsageError("doc", "--markdown takes no NAME");
    std::fputs(tooling::BuiltinReferenceMarkdown().c_str(), stdout);
    return kExitOk;
  }
  tooling::DocLookup doc = tooling::LookUpDoc(name);
  if (!doc.found) {
    std::fprintf(stderr, "alea: error: %s\nhelp: `alea doc` with no name lists every builtin\n",
                 doc.text.c_str());
    return kExitProgramError;
  }
  std::fputs(doc.text.c_str(), stdout);
  return kExitOk;
}

}  // namespace alea::repl
