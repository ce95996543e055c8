// The tensor opcodes' out-of-line bodies: operand ownership (opcodes.def: x
// bits say which operands are moved in) around vm/tensor_ops.h.
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/tensor_ops.h"
#include "vm/vm.h"

namespace alea::vm {

jit::Jit* Vm::TensorJit() {
  if (!jit_enabled_) return nullptr;
  if (jit_ == nullptr) {
    jit::Options options;
    options.pretend_no_avx512 = !jit_avx512_;
    jit_ = std::make_unique<jit::Jit>(options);
    jit_->set_timing(kernel_timing_);
  }
  return jit_->available() ? jit_.get() : nullptr;
}

TensorContext Vm::Tensors(uint32_t site) {
  TensorContext cx(heap_, TensorJit(), &pool_);
  cx.set_site(site);
  return cx;
}

void Vm::RaiseTensorFailure(TensorContext& cx) {
  if (cx.out_of_memory()) {
    RaiseOutOfMemory();
  } else {
    SetError(cx.TakeError());
  }
}

bool Vm::TensorBinary(uint8_t op, Instr ins, Value* r, uint32_t site) {
  // A moved operand leaves its register before the call, so the register is
  // null if the operation fails (unwinding must not release it again).
  TensorArg a{AsObject(r[ins.b]), (ins.x & 1) != 0};
  TensorArg b{AsObject(r[ins.c]), (ins.x & 2) != 0};
  // Both moved and the same object (`x * x`: a copy and the last use) means
  // two references, so neither is reusable, and each is released once.
  if (a.owned) r[ins.b] = 0;
  if (b.owned) r[ins.c] = 0;
  TensorContext cx = Tensors(site);
  Object* out = Binary(cx, static_cast<kernels::BinaryOp>(op), a, b);
  if (out == nullptr) {
    RaiseTensorFailure(cx);
    return false;
  }
  r[ins.a] = FromObject(out);
  return true;
}

bool Vm::TensorUnary(uint8_t op, Instr ins, Value* r, uint32_t site) {
  TensorArg x{AsObject(r[ins.b]), (ins.x & 1) != 0};
  if (x.owned) r[ins.b] = 0;
  TensorContext cx = Tensors(site);
  Object* out = Unary(cx, static_cast<kernels::UnaryOp>(op), x);
  if (out == nullptr) {
    RaiseTensorFailure(cx);
    return false;
  }
  r[ins.a] = FromObject(out);
  return true;
}

bool Vm::TensorScalar(Instr ins, Value* r, uint32_t site) {
  TensorContext cx = Tensors(site);
  if (ins.c > static_cast<uint16_t>(DType::kBool)) {
    Raise(RuntimeErrorId::kBadCall, "SCALAR_T with an unknown dtype");
    return false;
  }
  Object* out = FromScalar(cx, static_cast<DType>(ins.c), r[ins.b], ins.x != 0);
  if (out == nullptr) {
    RaiseTensorFailure(cx);
    return false;
  }
  r[ins.a] = FromObject(out);
  return true;
}

Vm::FusedOutcome Vm::TensorFused(Instr ins, Value* r) {
  jit::Jit* jit = TensorJit();
  if (jit == nullptr) return FusedOutcome::kNotFused;
  TensorContext cx(heap_, jit, &pool_);
  Value result = 0;
  // Site numbers: one per fused program (each program has one FUSED_T).
  if (!RunFused(cx, module_->fused[ins.b], fused_kernels_[ins.b], uint32_t{ins.b} + 1, r,
                &result)) {
    return FusedOutcome::kNotFused;
  }
  r[ins.a] = result;
  return FusedOutcome::kDone;
}

}  // namespace alea::vm
