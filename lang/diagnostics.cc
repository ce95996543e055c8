#include "lang/diagnostics.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace alea::lang {
namespace {

constexpr DiagSpec kSpecs[] = {
#define ALEA_DIAG(id, severity, message, help) {Severity::severity, message, help},
#include "lang/diagnostics.def"
#undef ALEA_DIAG
};

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

std::string Header(const SourceManager& sources, std::optional<Span> span) {
  if (!span) return "alea: ";
  const SourceFile& file = sources.file(span->file);
  LineCol at = file.Locate(span->begin);
  return absl::StrCat(file.path(), ":", at.line, ":", at.column, ": ");
}

// The quoted source line and a caret under the span (`^~~~` when it is longer
// than one byte and stays on the line). Tabs in the source are repeated in
// the padding so the caret lines up in any terminal.
std::string Excerpt(const SourceManager& sources, Span span) {
  const SourceFile& file = sources.file(span.file);
  LineCol at = file.Locate(span.begin);
  std::string_view line = file.Line(at.line);
  std::string out = absl::StrFormat("%5d | %s\n      | ", at.line, line);
  for (uint32_t i = 0; i + 1 < at.column && i < line.size(); ++i) {
    out += line[i] == '\t' ? '\t' : ' ';
  }
  out += '^';
  uint32_t end_column = at.column + (span.end > span.begin ? span.end - span.begin : 1);
  uint32_t line_end_column = static_cast<uint32_t>(line.size()) + 1;
  for (uint32_t c = at.column + 1; c < end_column && c < line_end_column; ++c) out += '~';
  out += '\n';
  return out;
}

}  // namespace

const DiagSpec& SpecOf(DiagId id) { return kSpecs[static_cast<size_t>(id)]; }

std::string Render(const SourceManager& sources, const Diagnostic& d) {
  std::string out =
      absl::StrCat(Header(sources, d.span), SeverityName(d.severity), ": ", d.message, "\n");
  if (d.span) out += Excerpt(sources, *d.span);
  for (const DiagNote& note : d.notes) {
    absl::StrAppend(&out, note.span ? Header(sources, note.span) : "", "note: ", note.message,
                    "\n");
  }
  for (const std::string& help : d.helps) absl::StrAppend(&out, "help: ", help, "\n");
  return out;
}

std::string RenderAll(const SourceManager& sources, const Diagnostics& diagnostics,
                      int max_errors) {
  std::string out;
  int errors = 0;
  for (const Diagnostic& d : diagnostics.all()) {
    if (d.severity == Severity::Error && ++errors > max_errors) continue;
    if (errors > max_errors) continue;
    out += Render(sources, d);
  }
  if (errors > max_errors) {
    absl::StrAppend(&out, "alea: error: ", errors - max_errors, " more errors not shown\n");
  }
  return out;
}

}  // namespace alea::lang
