// How the REPL shows a value with its type: `- : Int = 3`, `val x : Str =
// "a"`, and a tensor's shape after its type (`- : Tensor(f32) [2, 3] =`, the
// tensor on the next lines, since NumPy's layout needs its own lines).
#ifndef ALEA_TOOLING_VALUE_TEXT_H_
#define ALEA_TOOLING_VALUE_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "vm/bytecode.h"
#include "vm/value.h"

namespace alea::tooling {

// `head : type = value` and a newline. `head` is `-` or `val x`; `type` the
// checker's spelling. Strs are quoted (as inside a container), so that
// `"1"` and `1` look different; everything else prints as `print` prints it.
std::string ResultText(absl::string_view head, absl::string_view type, vm::Value value,
                       const vm::ExportType& result, const vm::Module& module);

}  // namespace alea::tooling

#endif  // ALEA_TOOLING_VALUE_TEXT_H_
