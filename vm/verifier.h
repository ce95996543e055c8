// The verifier: everything a module must satisfy before a Vm runs it, so
// that a module from bytes (a `.aleac` file, a host's buffer) cannot make the
// VM misbehave whatever it holds (docs/aleac.md "What loading verifies").
//
// It checks every table (types, globals, exports, natives by name and
// signature) and every instruction: each operand as opcodes.def's operand
// kinds say, jump targets, and then, by a forward data-flow pass over each
// function, what every register holds at every instruction: a plain value or
// a reference, null or not, and of which shape (a Str, a tuple, record or
// variant with its fields, an array of what, a closure taking and returning
// what, a tensor, a RandState). So no instruction or native ever reads a
// plain value as a pointer, a null, a field or capture that is not there, a
// tag outside a SWITCH table, or an object of the wrong kind; references
// are moved and released as owned, so counts stay exact. What it leaves to
// run time, because checking there costs nothing: a tensor's dtype, and the
// range of plain values (indexes, dtype numbers, counts).
#ifndef ALEA_VM_VERIFIER_H_
#define ALEA_VM_VERIFIER_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vm/bytecode.h"
#include "vm/native_signature.h"

namespace alea::vm {

struct VerifyOptions {
  // Of a decoded file (module_file.h ModuleFile::code_offsets): errors then
  // name the instruction's byte offset too.
  absl::Span<const uint64_t> code_offsets;
  // The signatures of natives a host added besides vm/natives.def's and the
  // module's `extern` functions (Vm::AddNatives with NativeEntry::signature);
  // nullptr for a name it does not know.
  std::function<const NativeSignature*(absl::string_view)> host_natives;
};

// Verifies `module`; its natives are those of vm/natives.def (by their
// signatures), the `extern` functions it declares (by Module::externs) and
// the host's. An error is InvalidArgument "malformed module: WHERE: RULE",
// WHERE naming the table entry or the function and instruction.
absl::Status VerifyModule(const Module& module, const VerifyOptions& options = {});

}  // namespace alea::vm

#endif  // ALEA_VM_VERIFIER_H_
