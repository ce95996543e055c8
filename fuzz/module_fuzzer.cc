// `.aleac` bytes, as `alea run` and alea::Module::FromBytes take them:
// decoded, verified (Vm::Load), then `main` run under RunLimits, and every
// exported function called with no arguments when it takes none. A module
// the verifier accepts must not crash the VM, whatever its bytes: that is
// the verifier's whole promise (docs/aleac.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/limits.h"
#include "vm/module_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alea;
  absl::StatusOr<vm::ModuleFile> decoded =
      vm::DecodeModule(std::string(reinterpret_cast<const char*>(data), size));
  if (!decoded.ok()) return 0;
  // Encoding what was decoded never fails, and decodes again.
  const std::string again = vm::EncodeModule(decoded->module, decoded->sources);
  if (!vm::DecodeModule(again).ok()) __builtin_trap();
  vm::Vm machine(fuzz::RunLimits());
  fuzz::Configure(machine);
  if (!machine.Load(decoded->module, decoded->code_offsets).ok()) return 0;
  // main (which computes the globals first), or only the globals; then the
  // exports that take nothing, as a host would call them. A global left
  // unset by a failed init is a run-time error where it is read.
  if (decoded->module.main >= 0) {
    (void)machine.RunMain({}, 3);
  } else if (!machine.RunInit().ok()) {
    return 0;
  }
  for (const vm::Export& e : decoded->module.exports) {
    if (!e.params.empty() || e.uses_rng) continue;
    vm::Value result = 0;
    bool is_ref = false;
    if (machine.Call(e.function, {}, &result, &is_ref).ok() && is_ref) {
      machine.heap().ReleaseValue(result);
    }
  }
  return 0;
}
