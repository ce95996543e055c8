#include "tooling/session_text.h"

#include <algorithm>

namespace alea::tooling {

void SessionText::AppendUser(std::string_view text, lang::FileId file, uint32_t offset) {
  uint32_t begin = static_cast<uint32_t>(text_.size());
  text_.append(text);
  uint32_t end = static_cast<uint32_t>(text_.size());
  placed_.push_back(Placed{begin, end, true, lang::Span{file, offset, offset}});
}

void SessionText::AppendGlue(std::string_view text, lang::Span blame) {
  uint32_t begin = static_cast<uint32_t>(text_.size());
  text_.append(text);
  placed_.push_back(Placed{begin, static_cast<uint32_t>(text_.size()), false, blame});
}

void SessionText::Append(const std::vector<Piece>& pieces) {
  for (const Piece& piece : pieces) {
    if (piece.user) {
      AppendUser(piece.text, piece.origin.file, piece.origin.begin);
    } else {
      AppendGlue(piece.text, piece.origin);
    }
  }
}

lang::Span SessionText::Remap(lang::FileId session, lang::Span span) const {
  if (span.file != session) return span;
  // The piece holding span.begin; a span that starts exactly at the end of
  // the text (an "expected `}`" at end of file) belongs to the last piece.
  auto it = std::upper_bound(placed_.begin(), placed_.end(), span.begin,
                             [](uint32_t offset, const Placed& p) { return offset < p.end; });
  if (it == placed_.end()) {
    if (placed_.empty()) return span;
    it = placed_.end() - 1;
  }
  if (!it->user) return it->origin;
  uint32_t begin = it->origin.begin + (span.begin - it->begin);
  // A span running past its piece (into glue) is cut at the piece's end.
  uint32_t end_in_text = std::min(std::max(span.end, span.begin), it->end);
  uint32_t end = it->origin.begin + (end_in_text - it->begin);
  if (end <= begin) end = begin + 1;
  return lang::Span{it->origin.file, begin, end};
}

std::string SessionText::Render(const lang::SourceManager& sources, lang::FileId session,
                                const lang::Diagnostics& diags, lang::FileId current) const {
  std::string out;
  for (lang::Diagnostic d : diags.all()) {
    if (d.span) d.span = Remap(session, *d.span);
    if (d.severity == lang::Severity::Warning && (!d.span || d.span->file != current)) continue;
    for (lang::DiagNote& note : d.notes) {
      if (note.span) note.span = Remap(session, *note.span);
    }
    out += lang::Render(sources, d);
  }
  return out;
}

}  // namespace alea::tooling
