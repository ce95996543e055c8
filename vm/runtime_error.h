// Run-time errors: what a failing program reports (message, location, notes).
#ifndef ALEA_VM_RUNTIME_ERROR_H_
#define ALEA_VM_RUNTIME_ERROR_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/strings/substitute.h"
#include "vm/bytecode.h"

namespace alea::vm {

enum class RuntimeErrorId : uint8_t {
#define ALEA_RUNTIME_ERROR(id, message, help) id,
#include "vm/runtime_errors.def"
#undef ALEA_RUNTIME_ERROR
};

struct RuntimeErrorFormat {
  const char* message;
  const char* help;
};
const RuntimeErrorFormat& FormatOf(RuntimeErrorId id);

// A frame of a failing program's call chain: `function` (its name) was at
// `location` (for all but the innermost frame, the call it was making).
struct CallFrame {
  std::string function;
  SourceLocation location;
  uint64_t repeats = 1;     // consecutive identical frames (recursion at one call)
  uint64_t tail_calls = 0;  // tail calls that replaced this frame, so not shown
};

struct RuntimeError {
  RuntimeErrorId id = RuntimeErrorId::kBadCall;
  std::string message;
  SourceLocation location;  // of the failing instruction (line 0 when unknown)
  bool located = false;     // set by the innermost frame that saw the error
  std::vector<std::pair<SourceLocation, std::string>> notes;
  std::string help;  // empty when none
  // Innermost first; consecutive identical frames are merged into one.
  std::vector<CallFrame> chain;
};

template <typename... Args>
RuntimeError MakeRuntimeError(RuntimeErrorId id, const Args&... args) {
  const RuntimeErrorFormat& f = FormatOf(id);
  RuntimeError e;
  e.id = id;
  e.message = absl::Substitute(f.message, args...);
  if (f.help[0] != '\0') e.help = absl::Substitute(f.help, args...);
  return e;
}

}  // namespace alea::vm

#endif  // ALEA_VM_RUNTIME_ERROR_H_
