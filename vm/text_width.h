// How many terminal columns UTF-8 text takes: what lines up text drawn
// beside a plot or under it (plot_text.cc) when it holds more than ASCII.
#ifndef ALEA_VM_TEXT_WIDTH_H_
#define ALEA_VM_TEXT_WIDTH_H_

#include <string>
#include <string_view>

namespace alea::vm {

// The columns `text` takes: two for a wide character (CJK, Hangul,
// fullwidth forms, most emoji), none for a combining mark or a zero-width
// character, one for any other code point. A malformed byte counts as one.
int TextWidth(std::string_view text);

// `text` cut to at most `columns` columns, ending in "…" when cut (never
// in the middle of a character).
std::string FitWidth(std::string_view text, int columns);

}  // namespace alea::vm

#endif  // ALEA_VM_TEXT_WIDTH_H_
