#include "embed/runtime_diagnostic.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace alea::embed {
namespace {

// The span of a VM location (line, column, length) in the loaded sources; none
// when it is unknown.
std::optional<lang::Span> SpanOf(const lang::SourceManager& sources,
                                 const vm::SourceLocation& loc) {
  if (loc.line == 0 || loc.file >= sources.size()) return std::nullopt;
  const lang::SourceFile& file = sources.file(loc.file);
  std::string_view line = file.Line(loc.line);
  uint32_t begin = static_cast<uint32_t>(line.data() - file.text().data()) + loc.column - 1;
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
