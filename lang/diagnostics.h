// Diagnostics: every error, warning and note Alea prints, in GCC/Clang's layout
//
//   file:line:col: error: message
//       8 |   source line
//         |   ^~~~
//   file:line:col: note: message
//   help: advice
//
// Messages come from one table (diagnostics.def) so wording stays consistent
// and every message can be found and tested in one place.
#ifndef ALEA_LANG_DIAGNOSTICS_H_
#define ALEA_LANG_DIAGNOSTICS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/substitute.h"
#include "lang/source.h"

namespace alea::lang {

enum class Severity : uint8_t { Error, Warning, Note };

enum class DiagId : uint16_t {
#define ALEA_DIAG(id, severity, message, help) id,
#include "lang/diagnostics.def"
#undef ALEA_DIAG
};

struct DiagSpec {
  Severity severity;
  const char* message;
  const char* help;
};
const DiagSpec& SpecOf(DiagId id);

struct DiagNote {
  std::optional<Span> span;  // a note without a span prints as "note: ..."
  std::string message;
};

struct Diagnostic {
  DiagId id;
  Severity severity;
  std::optional<Span> span;  // absent only for errors about no particular source
  std::string message;
  std::vector<DiagNote> notes;
  std::vector<std::string> helps;

  // Notes and helps use table entries too (a Note entry's message, or any
  // entry's help), so that all wording lives in diagnostics.def.
  template <typename... Args>
  Diagnostic& Note(std::optional<Span> at, DiagId note, const Args&... args) {
    notes.push_back(DiagNote{at, absl::Substitute(SpecOf(note).message, args...)});
    return *this;
  }
  template <typename... Args>
  Diagnostic& Help(DiagId entry, const Args&... args) {
    helps.push_back(absl::Substitute(SpecOf(entry).help, args...));
    return *this;
  }
};

class Diagnostics {
 public:
  // Reports `id` at `span`; the table's message and help are formatted with args.
  template <typename... Args>
  Diagnostic& Report(DiagId id, std::optional<Span> span, const Args&... args) {
    const DiagSpec& spec = SpecOf(id);
    Diagnostic d{id, spec.severity, span, absl::Substitute(spec.message, args...), {}, {}};
    std::string help = absl::Substitute(spec.help, args...);
    if (!help.empty()) d.helps.push_back(std::move(help));
    if (spec.severity == Severity::Error) ++error_count_;
    all_.push_back(std::move(d));
    return all_.back();
  }

  const std::vector<Diagnostic>& all() const { return all_; }
  int error_count() const { return error_count_; }
  bool has_errors() const { return error_count_ > 0; }
  void Clear() {
    all_.clear();
    error_count_ = 0;
  }

 private:
  // A deque would keep references stable; callers finish with one Diagnostic&
  // before reporting the next, so a vector is enough.
  std::vector<Diagnostic> all_;
  int error_count_ = 0;
};

// Formats one diagnostic in the layout above (ends with a newline).
std::string Render(const SourceManager& sources, const Diagnostic& diagnostic);

// Formats them all, in report order, at most `max_errors` errors (then a line
// saying how many were left out).
std::string RenderAll(const SourceManager& sources, const Diagnostics& diagnostics,
                      int max_errors = 50);

}  // namespace alea::lang

#endif  // ALEA_LANG_DIAGNOSTICS_H_
