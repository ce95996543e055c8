// The front end in one call: load a program with its imports, parse, check
// `match`es, infer and check types, then check that no RandState is used
// twice (lang/use_once.h). `alea check`, `alea run` and the REPL
// all go through here, so they report the same diagnostics.
#ifndef ALEA_LANG_FRONT_END_H_
#define ALEA_LANG_FRONT_END_H_

#include <optional>
#include <string>

#include "lang/diagnostics.h"
#include "lang/program.h"
#include "lang/source.h"

namespace alea::lang {

// Front-end settings where a tool differs from `alea check`.
struct CheckOptions {
  // The REPL keeps each top-level `let`'s value itself and checks a state's
  // use when it is consumed, so a session `let` may hold a RandState (a
  // file's may not: docs/language.md "Program shape").
  bool states_in_top_lets = false;
};

// The checked program, or nullopt when any error was reported into `diags`
// (warnings alone do not fail).
std::optional<Program> CheckProgram(const std::string& root_path, SourceManager& sources,
                                    Diagnostics& diags);

// The same for a program whose root file is already in `sources` (source text
// a host hands over: include/alea/compiler.h).
std::optional<Program> CheckProgramFrom(FileId root, SourceManager& sources, Diagnostics& diags,
                                        const CheckOptions& options = {});

}  // namespace alea::lang

#endif  // ALEA_LANG_FRONT_END_H_
