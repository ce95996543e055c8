// include/alea/tooling.h: what Alea's own tools need beyond the C API — the
// VM's choices and counters, reached through its handle, the front end
// alone (check, desugar) and the disassembler.
#include "alea/tooling.h"

#include <optional>
#include <string>

#include "embed/capi_internal.h"
#include "lang/desugar.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "vm/disassembler.h"
#include "vm/thread_pool.h"

namespace alea::tooling {

void SetAvx512(alea_vm* vm, bool enabled) { capi::InternalVm(vm).SetJitAvx512(enabled); }

void SetKernelTiming(alea_vm* vm, bool enabled) { capi::InternalVm(vm).SetKernelTiming(enabled); }

RunStats Stats(const alea_vm* vm) {
  const vm::Stats s = capi::InternalVm(const_cast<alea_vm*>(vm)).stats();
  RunStats out;
  out.instructions = s.instructions;
  out.calls = s.calls;
  out.allocations = s.allocations;
  out.peak_heap_bytes = s.peak_heap_bytes;
  out.jit_kernels = s.jit_kernels;
  out.jit_compile_nanos = s.jit_compile_nanos;
  out.jit_kernel_nanos = s.jit_kernel_nanos;
  out.run_nanos = s.run_nanos;
  out.bytes_copied = s.bytes_copied;
  return out;
}

Shown Check(std::string_view file) {
  lang::SourceManager sources;
  lang::Diagnostics diags;
  const bool ok = lang::CheckProgram(std::string(file), sources, diags).has_value();
  return Shown{ok, "", lang::RenderAll(sources, diags)};
}

Shown Desugar(std::string_view file, int64_t seed) {
  lang::SourceManager sources;
  lang::Diagnostics diags;
  // The front end alone: the rewrite reads the checked tree, not bytecode.
  std::optional<lang::Program> program = lang::CheckProgram(std::string(file), sources, diags);
  Shown shown{program.has_value(), "", lang::RenderAll(sources, diags)};
  if (program) {
    lang::DesugarOptions options;
    options.seed = seed;
    options.sources = &sources;
    shown.text = lang::DesugarProgram(*program, options);
  }
  return shown;
}

std::string Disassemble(const alea_module* module) { return vm::Disassemble(module->data.module); }

int HardwareThreads() { return vm::ThreadPool::HardwareThreads(); }

namespace {

// A diagnostic of no source place, rendered as Alea renders every one.
template <typename... Args>
std::string Rendered(lang::DiagId id, const Args&... args) {
  lang::SourceManager none;
  lang::Diagnostics diags;
  diags.Report(id, std::nullopt, args...);
  return lang::RenderAll(none, diags);
}

}  // namespace

std::string NoMainError(std::string_view file) {
  return Rendered(lang::DiagId::kNoMain, std::string(file));
}

std::string CannotWriteError(std::string_view file, std::string_view why) {
  return Rendered(lang::DiagId::kCannotWriteFile, std::string(file), std::string(why));
}

std::string SeedUnusedWarning(int64_t seed) {
  return Rendered(lang::DiagId::kSeedUnused, std::to_string(seed));
}

}  // namespace alea::tooling
