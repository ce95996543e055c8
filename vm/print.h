// The text of values, exactly as docs/language.md "Printing" says; shared by PRINT,
// STR and the natives.
#ifndef ALEA_VM_PRINT_H_
#define ALEA_VM_PRINT_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "vm/bytecode.h"
#include "vm/value.h"

namespace alea::vm {

// Python's repr of a double: shortest round-trip digits, fixed notation when
// the decimal exponent is in [-4, 16), otherwise `d.ddde+XX`.
void AppendFloat(std::string* out, double d);
std::string FormatFloat(double d);

// Appends `v` of type T(type). A Str at top level is raw; inside a container
// it is quoted with `\"`, `\\`, `\n` and `\t` escaped (other bytes are copied
// as they are). Iterative: any nesting depth is safe.
// A Plot at top level is its drawing (vm/plot.h RenderText) in `plot`'s
// width and colours, without a final newline; inside a container, `<plot>`.
struct PlotStyle {
  int width = 80;
  bool color = false;
};
void AppendValue(std::string* out, Value v, uint32_t type, const Module& module,
                 const PlotStyle& plot = {});

// How a plot is drawn on file descriptor `fd`: a terminal's width and
// colours, else 80 columns of plain text.
PlotStyle PlotStyleFor(int fd);
// The columns of the terminal `fd` is (80 when it does not say), or 0 when
// `fd` is no terminal: what plots and `progress`'s bar are sized by.
int TerminalColumns(int fd);

// Appends `s` in double quotes with `\"`, `\\`, `\n` and `\t` escaped: how a
// Str prints inside a container (and how `alea dis` shows string constants).
void AppendQuoted(std::string* out, absl::string_view s);

}  // namespace alea::vm

#endif  // ALEA_VM_PRINT_H_
