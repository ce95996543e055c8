#include "embed/runtime_diagnostic.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

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

// At most this many frames are shown: the innermost and the outermost half.
constexpr size_t kMaxFramesShown = 16;

std::string FunctionText(const std::string& name) {
  if (name == "lambda") return "a lambda";
  if (name == "<init>") return "the top-level `let`s";
  return absl::StrCat("`", name, "`");
}

// What a merged frame stands for: a recursion through one call, and the
// frames that tail calls replaced (so they cannot be shown).
std::string FrameDetails(const vm::CallFrame& frame) {
  std::string text;
  if (frame.repeats > 1) absl::StrAppend(&text, ", ", frame.repeats, " frames deep in this call");
  if (frame.tail_calls == 1) absl::StrAppend(&text, ", entered by a tail call (1 frame not shown)");
  if (frame.tail_calls > 1) {
    absl::StrAppend(&text, ", entered by tail calls (", frame.tail_calls, " frames not shown)");
  }
  return text;
}

}  // namespace

void ReportRuntimeError(const lang::SourceManager& sources, const vm::RuntimeError& error,
                        lang::Diagnostics& diags) {
  lang::Diagnostic& d = diags.Report(lang::DiagId::kRuntimeError, SpanOf(sources, error.location),
                                     error.message, error.help);
  for (const auto& [location, text] : error.notes) {
    d.Note(SpanOf(sources, location), lang::DiagId::kRuntimeNote, text);
  }
  // The call chain, when there is more to it than the one frame the error
  // already locates.
  const std::vector<vm::CallFrame>& chain = error.chain;
  if (chain.empty() || (chain.size() == 1 && chain[0].repeats == 1 && chain[0].tail_calls == 0)) {
    return;
  }
  const size_t shown = std::min(chain.size(), kMaxFramesShown);
  for (size_t i = 0; i < chain.size(); ++i) {
    if (i == shown / 2 && chain.size() > shown) {
      uint64_t elided = 0;
      for (size_t j = i; j < chain.size() - shown / 2; ++j) elided += chain[j].repeats;
      d.Note(std::nullopt, lang::DiagId::kRuntimeFramesElided, elided);
      i = chain.size() - shown / 2 - 1;
      continue;
    }
    d.Note(SpanOf(sources, chain[i].location), lang::DiagId::kRuntimeFrame,
           FunctionText(chain[i].function), FrameDetails(chain[i]));
  }
}

}  // namespace alea::embed
