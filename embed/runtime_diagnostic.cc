#include "embed/runtime_diagnostic.h"

#include <cstdint>
#include <optional>

namespace alea::embed {
namespace {

// The span of a VM location (line, column, length) in the loaded sources; none
// when it is unknown.
std::optional<lang::Span> SpanOf(const lang::SourceManager& sources,
                                 const vm::SourceLocation& loc) {
  if (loc.line == 0 || loc.file >= sources.size()) return std::nullopt;
  uint32_t begin = sources.file(loc.file).Offset({loc.line, loc.column});
  return lang::Span{loc.file, begin, begin + (loc.length > 0 ? loc.length : 1)};
}

}  // namespace

void ReportRuntimeError(const lang::SourceManager& sources, const vm::RuntimeError& error,
                        lang::Diagnostics& diags) {
  lang::Diagnostic& d = diags.Report(lang::DiagId::kRuntimeError, SpanOf(sources, error.location),
                                     error.message, error.help);
  for (const auto& [location, text] : error.notes) {
    d.Note(SpanOf(sources, location), lang::DiagId::kRuntimeNote, text);
  }
}

}  // namespace alea::embed
