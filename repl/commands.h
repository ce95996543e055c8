// The subcommands of `alea`, one function each, and the table that lists them.
#ifndef ALEA_REPL_COMMANDS_H_
#define ALEA_REPL_COMMANDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "alea/alea.h"
#include "repl/command_line.h"

namespace alea::repl {

int RunCheck(const std::vector<std::string>& args);
int RunRun(const std::vector<std::string>& args);
int RunDis(const std::vector<std::string>& args);
int RunBuild(const std::vector<std::string>& args);  // build_command.cc
int RunDoc(const std::vector<std::string>& args);    // doc_command.cc
int RunRepl(const std::vector<std::string>& args);   // repl_command.cc

// FILE (source or a module) compiled with `options`, warnings and errors
// printed on stderr; nullptr after an error (program_file.cc).
alea_module* OpenProgramFile(const std::string& file, alea_compile_options options);

// Every subcommand, in the order `alea --help` lists them.
const std::vector<Subcommand>& Subcommands();

}  // namespace alea::repl

#endif  // ALEA_REPL_COMMANDS_H_
