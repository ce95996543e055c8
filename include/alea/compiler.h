// Embedding Alea: source text in, an alea::Module out (docs/decisions.md
// "Embedding": the compiler's public entry point, apart from the VM).
//
//   StatusOr<alea::Module> m = alea::Compile("fn twice(x: Int) -> Int = 2 * x\n");
//   if (!m.ok()) std::cerr << m.status().message();  // the diagnostics
#ifndef ALEA_COMPILER_H_
#define ALEA_COMPILER_H_

#include <string_view>

#include "alea/vm.h"

namespace alea {

// Checks and compiles `source` (the root file; `import`s are read relative to
// `file_name`'s directory) with every non-generic top-level function of it
// callable by name; `main` is not required. On error the status is
// kInvalidArgument and its message the diagnostics exactly as `alea run`
// prints them: "file:line:col: error: ..." with the source line and a caret.
// The module keeps the source, so that run-time errors show it too.
StatusOr<Module> Compile(std::string_view source, std::string_view file_name = "<source>");

}  // namespace alea

#endif  // ALEA_COMPILER_H_
