#include "vm/bytecode.h"

#include "vm/runtime_error.h"

namespace alea::vm {
namespace {

constexpr OpInfo kOpInfos[] = {
#define ALEA_OP(name, format, semantics) {#name, OpFormat::format, semantics},
#include "vm/opcodes.def"
#undef ALEA_OP
};

constexpr RuntimeErrorFormat kErrorFormats[] = {
#define ALEA_RUNTIME_ERROR(id, message, help) {message, help},
#include "vm/runtime_errors.def"
#undef ALEA_RUNTIME_ERROR
};

}  // namespace

const OpInfo& InfoOf(Op op) { return kOpInfos[static_cast<int>(op)]; }

const RuntimeErrorFormat& FormatOf(RuntimeErrorId id) {
  return kErrorFormats[static_cast<int>(id)];
}

}  // namespace alea::vm
