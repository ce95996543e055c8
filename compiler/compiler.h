// The compiler: a checked program (lang::CheckProgram's output) in, a
// vm::Module out. It monomorphizes (each polymorphic function, local or
// top-level `let` is compiled once per distinct instantiation reached from
// `main` and the top-level lets), resolves every overload per specialization,
// and lowers to the typed register bytecode of vm/opcodes.def with reference
// maps, last-use moves, proper tail calls and a line table.
//
// Every construct the type checker accepts compiles; the error "... is not
// supported by `alea run` yet" remains only as a guard.
#ifndef ALEA_COMPILER_COMPILER_H_
#define ALEA_COMPILER_COMPILER_H_

#include "absl/status/statusor.h"
#include "lang/diagnostics.h"
#include "lang/program.h"
#include "lang/source.h"
#include "vm/bytecode.h"

namespace alea::compiler {

struct CompileOptions {
  // Also compile every monomorphic top-level function of the root file, reached
  // from `main` or not, and list them in Module::exports, so that a host can
  // call them by name (include/alea/compiler.h). Off for `alea run` and
  // `alea dis`, whose modules stay exactly what `main` needs.
  bool export_functions = false;
  // With export_functions, the imported files' functions too (the REPL's
  // `:dis` of a function from a `:load`ed file).
  bool export_imported = false;
  // Whether a host application provides `extern fn`s and `extern let`s.
  // `alea run` has none: a use of one is then a compile error at its
  // declaration (an unused declaration is fine).
  bool has_host = true;
};

// Compiles `program`. Errors (unsupported features, limits such as the
// 65,535 registers of a function) are reported into `diags` and make the
// result an error status whose message says how many there were. A program
// whose root file has no `main` compiles with Module::main == -1 (`alea dis`
// can still show it; `alea run` reports it).
absl::StatusOr<vm::Module> Compile(const lang::Program& program, const lang::SourceManager& sources,
                                   lang::Diagnostics& diags, const CompileOptions& options = {});

}  // namespace alea::compiler

#endif  // ALEA_COMPILER_COMPILER_H_
