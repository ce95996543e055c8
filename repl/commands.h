// The subcommands of `alea`, one function each, and the table that lists them.
#ifndef ALEA_REPL_COMMANDS_H_
#define ALEA_REPL_COMMANDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "lang/source.h"
#include "repl/command_line.h"
#include "vm/bytecode.h"

namespace alea::repl {

int RunCheck(const std::vector<std::string>& args);
int RunRun(const std::vector<std::string>& args);
int RunDis(const std::vector<std::string>& args);
int RunBuild(const std::vector<std::string>& args);  // build_command.cc
int RunDoc(const std::vector<std::string>& args);    // doc_command.cc
int RunRepl(const std::vector<std::string>& args);   // repl_command.cc

// Loads, checks and compiles FILE, printing diagnostics on stderr; false on
// any error (run_command.cc). `has_host`: compiler::CompileOptions's (false
// for `alea run`, which provides no `extern`s).
// `export_functions`: CompileOptions's (modules that hosts may load).
bool CompileFile(const std::string& file, lang::SourceManager& sources, vm::Module& module,
                 bool has_host = true, bool export_functions = false);

// FILE as source (CompileFile) or as a module file `alea build` wrote
// (program_file.cc), its sources added to `sources` for error messages.
// Diagnostics are printed; false on any error.
// With `code_offsets`, a module is not verified here: the caller's Vm::Load
// verifies it (with these offsets for its errors), and only once.
bool LoadProgramFile(const std::string& file, lang::SourceManager& sources, vm::Module& module,
                     bool has_host = true, std::vector<uint64_t>* code_offsets = nullptr);
// A Vm::Load error for FILE, in the layout of every diagnostic.
void ReportLoadError(const std::string& file, absl::string_view message);

// Every subcommand, in the order `alea --help` lists them.
const std::vector<Subcommand>& Subcommands();

}  // namespace alea::repl

#endif  // ALEA_REPL_COMMANDS_H_
