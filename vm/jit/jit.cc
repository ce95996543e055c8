// The Jit object (jit.h): CPU probing, the kernel cache, and one asmjit
// function wrapper (codegen.h) shared by every kernel family. The families
// live beside it: elementwise.cc, fused.cc, math_f32.cc, reduce.cc, matmul.cc.
#include "vm/jit/jit.h"

#include <asmjit/x86.h>

#include <chrono>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "vm/jit/codegen.h"

namespace alea::vm::jit {
namespace {

// asmjit reports errors to a handler, and Compiler::finalize() may return
// Ok after one: keep the first, and treat any as a failed kernel.
class FirstError : public asmjit::ErrorHandler {
 public:
  void handleError(asmjit::Error err, const char* /*message*/,
                   asmjit::BaseEmitter* /*origin*/) override {
    if (first == asmjit::kErrorOk) first = err;
  }
  asmjit::Error first = asmjit::kErrorOk;
};

}  // namespace

namespace codegen {

void* CompileFunction(asmjit::JitRuntime& runtime, const asmjit::FuncSignature& signature,
                      bool avx512, bool inject_error,
                      absl::FunctionRef<void(x86::Compiler& cc, asmjit::FuncNode* fn)> emit_body) {
  FirstError errors;
  asmjit::CodeHolder code;
  code.init(runtime.environment());
  code.setErrorHandler(&errors);
  x86::Compiler cc(&code);
  // Validation is off by default: without it an invalid instruction could be
  // encoded silently instead of failing the kernel.
  cc.addDiagnosticOptions(asmjit::DiagnosticOptions::kValidateIntermediate |
                          asmjit::DiagnosticOptions::kValidateAssembler);
  asmjit::FuncNode* fn = cc.addFunc(signature);
  if (fn == nullptr || errors.first != asmjit::kErrorOk) return nullptr;
  fn->frame().setAvxEnabled();
  fn->frame().setAvxCleanup();                 // vzeroupper before returning to SSE code
  if (avx512) fn->frame().setAvx512Enabled();  // zmm16-31 and k registers
  if (inject_error) {
    // An operand combination no instruction has: validation must reject it.
    cc.emit(x86::Inst::kIdVaddps, cc.newYmmPs(), cc.newGpq(), asmjit::Imm(1));
  }
  emit_body(cc, fn);
  cc.endFunc();
  const asmjit::Error finalized = cc.finalize();
  if (errors.first != asmjit::kErrorOk || finalized != asmjit::kErrorOk) return nullptr;
  void* kernel = nullptr;
  if (runtime.add(&kernel, &code) != asmjit::kErrorOk) return nullptr;
  return kernel;
}

}  // namespace codegen

Jit::Impl::Impl(const Options& options) {
  const asmjit::CpuInfo& cpu = asmjit::CpuInfo::host();
  using F = asmjit::CpuFeatures::X86;
  avx2 = !options.pretend_no_avx2 && cpu.hasFeature(F::kAVX2) && cpu.hasFeature(F::kFMA);
  avx512 = avx2 && !options.pretend_no_avx512 && cpu.hasFeature(F::kAVX512_F);
}

Jit::Jit(Options options) : options_(options) {}
Jit::~Jit() = default;

Jit::Impl& Jit::impl() {
  if (impl_ == nullptr) impl_ = std::make_unique<Impl>(options_);
  return *impl_;
}

namespace {
int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

Jit::KernelTimer::KernelTimer(Jit& jit) : jit_(jit), start_(jit.timing_ ? NowNanos() : 0) {}
Jit::KernelTimer::~KernelTimer() {
  if (jit_.timing_) jit_.stats_.kernel_nanos += NowNanos() - start_;
}

bool Jit::available() { return impl().avx2; }
bool Jit::has_avx512() { return impl().avx512; }

void* Jit::Cached(const std::string& key, Isa isa,
                  absl::FunctionRef<void*(bool avx512, bool inject_error)> compile) {
  Impl& state = impl();
  if (!state.avx2) return nullptr;
  const bool avx512 = isa == Isa::kAvx512 || (isa == Isa::kAuto && state.avx512);
  if (avx512 && !state.avx512) return nullptr;
  auto [it, inserted] = state.kernels.try_emplace(absl::StrCat(key, avx512 ? "/512" : "/256"));
  if (!inserted) return it->second;
  const auto start = std::chrono::steady_clock::now();
  void* kernel = compile(avx512, options_.inject_asmjit_error);
  stats_.compile_nanos +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  ++(kernel != nullptr ? stats_.kernels_compiled : stats_.compile_failures);
  it->second = kernel;
  return kernel;
}

}  // namespace alea::vm::jit
