// Embedding Alea: source text in, an alea::Module out (docs/decisions.md
// "Embedding": the compiler's public entry point, apart from the VM).
//
//   alea::StatusOr<alea::Module> m = alea::Compile("fn twice(x: Int) -> Int = 2 * x\n");
//   if (!m.ok()) std::cerr << m.status().message();  // the diagnostics
#ifndef ALEA_COMPILER_H_
#define ALEA_COMPILER_H_

#include <functional>
#include <optional>
#include <string>
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

// The text of a file an `import` names (its path as the import resolves it:
// relative to the importing file's directory), or nullopt when there is none
// ("No such file or directory" in the diagnostic): a host serves imports from
// memory, an archive or a database instead of the file system.
using ImportReader = std::function<std::optional<std::string>(std::string_view path)>;
StatusOr<Module> Compile(std::string_view source, std::string_view file_name, ImportReader imports);

}  // namespace alea

#endif  // ALEA_COMPILER_H_
