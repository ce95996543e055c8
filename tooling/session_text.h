// The REPL session as one synthesized source file, and the way back from it.
//
// Every input the user typed is kept as its own file (`<input N>`) in a
// SourceManager; the session program is built from pieces that are either
// copies of the user's text or short synthesized glue (the wrapper that turns
// an expression into a function, a `with` around a random line). Diagnostics
// and run-time errors that the front end, compiler or VM place in the
// synthesized file are moved back onto the user's own input, so that they
// read `<input 3>:1:5: error: ...` and never show the glue.
#ifndef ALEA_TOOLING_SESSION_TEXT_H_
#define ALEA_TOOLING_SESSION_TEXT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostics.h"
#include "lang/source.h"

namespace alea::tooling {

// A run of session text: the user's (file and offset say where it came from)
// or synthesized (spans in it are blamed on `blame`).
struct Piece {
  std::string text;
  bool user = false;
  lang::Span origin;  // user: where text starts in its input file; glue: what to blame
};

// Builds the session file's text and remembers where each user piece went.
class SessionText {
 public:
  void AppendUser(std::string_view text, lang::FileId file, uint32_t offset);
  void AppendGlue(std::string_view text, lang::Span blame);
  void Append(const std::vector<Piece>& pieces);

  const std::string& text() const { return text_; }

  // `span` moved off the session file `session` onto the input it came from;
  // other spans are returned unchanged.
  lang::Span Remap(lang::FileId session, lang::Span span) const;
  // Renders `diags` with every span remapped (RenderAll's layout, one after
  // another). Warnings are shown only when they are about input `current`:
  // the session is checked again after every input, and a warning about an
  // earlier definition was shown when it was typed.
  std::string Render(const lang::SourceManager& sources, lang::FileId session,
                     const lang::Diagnostics& diags, lang::FileId current) const;

 private:
  struct Placed {
    uint32_t begin = 0;  // in text_
    uint32_t end = 0;
    bool user = false;
    lang::Span origin;
  };
  std::string text_;
  std::vector<Placed> placed_;
};

}  // namespace alea::tooling

#endif  // ALEA_TOOLING_SESSION_TEXT_H_
