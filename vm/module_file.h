// Modules as bytes: the `.aleac` file format that `alea build` writes and
// `alea run`, `alea dis` and hosts load (docs/aleac.md describes it byte by
// byte). Decoding checks the layout only (lengths, counts, enumerations,
// every read inside its section); what the module means is checked by
// vm/verifier.h when a Vm loads it.
#ifndef ALEA_VM_MODULE_FILE_H_
#define ALEA_VM_MODULE_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vm/bytecode.h"

namespace alea::vm {

// The first bytes of every module: how `alea run` tells one from source text.
inline constexpr char kModuleMagic[] =
    "\x89"
    "ALEAC\r\n";
inline constexpr size_t kModuleMagicSize = 8;
// Bumped whenever the layout changes; a module of another version is refused.
inline constexpr uint32_t kModuleFormatVersion = 2;

// A decoded module, and where its parts were in the bytes, so that the
// verifier's errors can name byte offsets too.
struct ModuleFile {
  Module module;
  // The source text of each of module.files (empty when the module was
  // written without it): run-time errors quote it as they do for source.
  std::vector<std::string> sources;
  // The byte offset of each function's first instruction (instruction pc is
  // at code_offsets[f] + 8 * pc), and of each type descriptor.
  std::vector<uint64_t> code_offsets;
  std::vector<uint64_t> type_offsets;
};

// Whether `bytes` starts as a module does.
bool LooksLikeModule(absl::string_view bytes);

// The module's bytes. `sources` (one per module.files, or empty) is stored
// beside it for error messages.
std::string EncodeModule(const Module& module, absl::Span<const std::string> sources);

// Parses a module. A malformed one is an InvalidArgument error
// "byte N: what is wrong" (N counted from the start of `bytes`); nothing is
// allocated by a size the bytes have not been checked to hold.
absl::StatusOr<ModuleFile> DecodeModule(absl::string_view bytes);

// The fingerprint of this build's instruction set and native table: a module
// records the one it was compiled against, and a module from a build whose
// opcode numbers or native ABI differ is refused.
uint64_t InstructionSetFingerprint();

}  // namespace alea::vm

#endif  // ALEA_VM_MODULE_FILE_H_
