// A VM run-time error as a diagnostic of its program's sources: the one
// rendering that `alea run` prints and alea::Vm's statuses carry.
#ifndef ALEA_EMBED_RUNTIME_DIAGNOSTIC_H_
#define ALEA_EMBED_RUNTIME_DIAGNOSTIC_H_

#include "lang/diagnostics.h"
#include "lang/source.h"
#include "vm/runtime_error.h"

namespace alea::embed {

// Reports `error` into `diags`: its message and help at its source location,
// then each note at its own (a location outside `sources` gives none).
void ReportRuntimeError(const lang::SourceManager& sources, const vm::RuntimeError& error,
                        lang::Diagnostics& diags);

}  // namespace alea::embed

#endif  // ALEA_EMBED_RUNTIME_DIAGNOSTIC_H_
