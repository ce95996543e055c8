// Loading a program: the root file, then every file it imports (relative to
// the importing file), each parsed once however often it is imported.
#ifndef ALEA_LANG_LOADER_H_
#define ALEA_LANG_LOADER_H_

#include <optional>
#include <string>

#include "lang/diagnostics.h"
#include "lang/program.h"
#include "lang/source.h"

namespace alea::lang {

// Reports unreadable files, syntax errors, import cycles (naming both ends) and
// top-level names defined twice (naming both places). Returns the program even
// when there were errors, so later checks can still report what they find in
// the files that did parse; returns nullopt only when the root cannot be read.
std::optional<Program> LoadProgram(const std::string& root_path, SourceManager& sources,
                                   Diagnostics& diags);

// Loads a program whose root is already in `sources` (the REPL, tests).
Program LoadProgramFrom(FileId root, SourceManager& sources, Diagnostics& diags);

}  // namespace alea::lang

#endif  // ALEA_LANG_LOADER_H_
