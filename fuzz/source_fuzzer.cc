// Source text, as `alea run` takes it: the front end (with its diagnostics
// rendered), the compiler, the verifier (Vm::Load), then `main` under
// RunLimits, with a run-time error rendered against the source as `alea run`
// shows it. Any outcome but a crash, a leak or a hang is correct.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "compiler/compiler.h"
#include "embed/runtime_diagnostic.h"
#include "fuzz/limits.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "lang/source.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alea;
  // A directory that does not exist: the input's imports find nothing (the
  // fuzzer explores this file's text, not the machine's files).
  const std::string path = "/nonexistent-alea-fuzz/input.alea";
  lang::SourceManager sources;
  sources.Provide(path, std::string(reinterpret_cast<const char*>(data), size));
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgram(path, sources, diags);
  absl::StatusOr<vm::Module> module = absl::InvalidArgumentError("not checked");
  if (program.has_value()) {
    module = compiler::Compile(*program, sources, diags, {.has_host = false});
  }
  if (module.ok() && module->main >= 0) {
    vm::Vm machine(fuzz::RunLimits());
    fuzz::Configure(machine);
    if (machine.Load(*module).ok() && !machine.RunMain({"arg"}, 7).ok() &&
        machine.last_error() != nullptr) {
      embed::ReportRuntimeError(sources, *machine.last_error(), diags);
    }
  }
  (void)lang::RenderAll(sources, diags);
  return 0;
}
