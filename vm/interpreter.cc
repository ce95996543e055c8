// The dispatch loop: one label per opcode of opcodes.def, threaded with
// computed goto where the compiler has it (GCC and Clang), a switch otherwise.
//
// No object with a destructor may live in a handler's scope: a computed goto
// out of it would skip the destructor. Such work goes to out-of-line helpers.
//
// Hot state lives in locals: `pc`, `R` (the frame's registers) and `fp`.
// Anything that can grow the register or frame stack, or call out (natives,
// slow paths), goes through SAVE()/RELOAD(), which re-derive them.
#include <cmath>
#include <cstring>

#include "absl/base/optimization.h"
#include "vm/compare.h"
#include "vm/kernels/elementwise.h"
#include "vm/print.h"
#include "vm/random/keys.h"
#include "vm/random/scalar.h"
#include "vm/random/unboxed.h"
#include "vm/randstate.h"
#include "vm/vm.h"

#if defined(__GNUC__) && !defined(ALEA_VM_SWITCH_DISPATCH)
#define ALEA_COMPUTED_GOTO 1
#endif

namespace alea::vm {

bool Vm::Execute(Value* result) {
  return tape_ != nullptr ? Run<true>(result) : Run<false>(result);
}

// The dispatch loop, twice: as it is, and with a tape recording (kTape),
// where every instruction first goes through TapeStep (interpreter_grad.cc).
template <bool kTape>
bool Vm::Run(Value* result) {
#ifdef ALEA_COMPUTED_GOTO
  static const void* const kLabels[] = {
#define ALEA_OP(name, format, operands, semantics) &&op_##name,
#include "vm/opcodes.def"
#undef ALEA_OP
  };
#endif

  Frame* fp = frames_ + depth_ - 1;
  const Instr* pc = fp->pc;
  Value* R = stack_ + fp->base;
  const Value* const K = module_->constants.data();
  const FuncInfo* const funcs = funcs_.data();
  const TypeDesc* const types = module_->types.data();
  uint64_t count = 0;
  Instr ins;

  // Instruction counting is one increment of a register-resident local per
  // dispatch, folded into instructions_ only when the loop calls out.
#define SAVE()                                      \
  do {                                              \
    fp->pc = pc;                                    \
    depth_ = static_cast<size_t>(fp - frames_) + 1; \
    instructions_ += count;                         \
    count = 0;                                      \
  } while (0)
#define RELOAD()               \
  do {                         \
    fp = frames_ + depth_ - 1; \
    R = stack_ + fp->base;     \
  } while (0)
#define RAISE(...)      \
  do {                  \
    SAVE();             \
    Raise(__VA_ARGS__); \
    goto fail;          \
  } while (0)
#define A ins.a
#define B ins.b
#define C ins.c
#define RA R[ins.a]
#define RB R[ins.b]
#define RC R[ins.c]

  // With a tape, TapeStep sees each instruction first; kDone means it ran
  // the whole instruction, so the loop goes on with the next one.
#define TAPE_STEP(next)                                                        \
  do {                                                                         \
    if constexpr (kTape) {                                                     \
      SAVE();                                                                  \
      const TapeOutcome tape_outcome = TapeStep(ins);                          \
      RELOAD();                                                                \
      if (ABSL_PREDICT_FALSE(tape_outcome == TapeOutcome::kFailed)) goto fail; \
      if (tape_outcome == TapeOutcome::kDone) {                                \
        pc = fp->pc;                                                           \
        next;                                                                  \
      }                                                                        \
    }                                                                          \
  } while (0)

#ifdef ALEA_COMPUTED_GOTO
#define CASE(name) op_##name:
#define DISPATCH()                               \
  do {                                           \
    ins = *pc++;                                 \
    ++count;                                     \
    TAPE_STEP(goto tape_next);                   \
    goto* kLabels[static_cast<uint8_t>(ins.op)]; \
  } while (0)
  DISPATCH();
tape_next:
  __attribute__((unused));
  DISPATCH();
#else
#define CASE(name) case Op::name:
#define DISPATCH() continue
  for (;;) {
    ins = *pc++;
    ++count;
    TAPE_STEP(continue);
    switch (ins.op) {
#endif

  // ---- Constants and moves ----
  CASE(NOP) { DISPATCH(); }
  CASE(LOADI) {
    RA = static_cast<Value>(static_cast<int64_t>(ins.sbx()));
    DISPATCH();
  }
  CASE(LOADK) {
    RA = K[B];
    DISPATCH();
  }
  CASE(LOADS) {
    Value s = strings_[B];
    Retain(s);
    RA = s;
    DISPATCH();
  }
  CASE(LOADFN) {
    Object* c = LoadFnClosure(B);
    if (c == nullptr) {
      SAVE();
      RaiseOutOfMemory();
      goto fail;
    }
    RA = FromObject(c);
    DISPATCH();
  }
  CASE(LOADG) {
    Value v = globals_[B];
    if (global_is_ref_[B]) {
      // The verifier knows a reference global's shape, not whether it is set.
      if (ABSL_PREDICT_FALSE(v == 0)) RAISE(RuntimeErrorId::kGlobalUnset, module_->globals[B].name);
      Retain(v);
    }
    RA = v;
    DISPATCH();
  }
  CASE(STOREG) {
    Value old = globals_[B];
    globals_[B] = RA;
    if (global_is_ref_[B]) {
      RA = 0;
      if (old != 0) heap_.ReleaseValue(old);
    }
    DISPATCH();
  }
  CASE(MOVE) {
    Value v = RB;
    if (ins.x) RB = 0;
    RA = v;
    DISPATCH();
  }
  CASE(COPY) {
    Value v = RB;
    if (v != 0 && fp->fn->is_ref[B]) Retain(v);
    RA = v;
    DISPATCH();
  }
  CASE(RELEASE) {
    Value v = RA;
    RA = 0;
    if (v != 0) heap_.ReleaseValue(v);
    DISPATCH();
  }

  // ---- Int ----
  CASE(ADD_I) {
    int64_t r;
    if (ABSL_PREDICT_FALSE(__builtin_add_overflow(AsInt(RB), AsInt(RC), &r))) {
      RAISE(RuntimeErrorId::kOverflowAdd, AsInt(RB), AsInt(RC));
    }
    RA = FromInt(r);
    DISPATCH();
  }
  CASE(SUB_I) {
    int64_t r;
    if (ABSL_PREDICT_FALSE(__builtin_sub_overflow(AsInt(RB), AsInt(RC), &r))) {
      RAISE(RuntimeErrorId::kOverflowSub, AsInt(RB), AsInt(RC));
    }
    RA = FromInt(r);
    DISPATCH();
  }
  CASE(MUL_I) {
    int64_t r;
    if (ABSL_PREDICT_FALSE(__builtin_mul_overflow(AsInt(RB), AsInt(RC), &r))) {
      RAISE(RuntimeErrorId::kOverflowMul, AsInt(RB), AsInt(RC));
    }
    RA = FromInt(r);
    DISPATCH();
  }
  CASE(DIV_I) {
    const int64_t x = AsInt(RB), y = AsInt(RC);
    if (ABSL_PREDICT_FALSE(y == 0)) RAISE(RuntimeErrorId::kDivisionByZero);
    if (ABSL_PREDICT_FALSE(y == -1 && x == INT64_MIN)) RAISE(RuntimeErrorId::kOverflowDiv);
    RA = FromInt(x / y);
    DISPATCH();
  }
  CASE(REM_I) {
    const int64_t x = AsInt(RB), y = AsInt(RC);
    if (ABSL_PREDICT_FALSE(y == 0)) RAISE(RuntimeErrorId::kDivisionByZero);
    // x % -1 is 0 for every x; x86 would trap on INT64_MIN % -1.
    RA = FromInt(y == -1 ? 0 : x % y);
    DISPATCH();
  }
  CASE(ADDK_I) {
    int64_t r;
    if (ABSL_PREDICT_FALSE(__builtin_add_overflow(AsInt(RB), int64_t{ins.sc()}, &r))) {
      // x = 1: the source said `x - k`, so the message says so too.
      if (ins.x) RAISE(RuntimeErrorId::kOverflowSub, AsInt(RB), -int64_t{ins.sc()});
      RAISE(RuntimeErrorId::kOverflowAdd, AsInt(RB), ins.sc());
    }
    RA = FromInt(r);
    DISPATCH();
  }
  // The constant forms: `x * k`, `x / k` and `x % k` with a literal k in
  // [-32768, 32767] save a LOADI per use (a loop's `% 7`). k = 0 is left to
  // DIV_I/REM_I, so these never divide by zero.
  CASE(MULK_I) {
    int64_t r;
    if (ABSL_PREDICT_FALSE(__builtin_mul_overflow(AsInt(RB), int64_t{ins.sc()}, &r))) {
      RAISE(RuntimeErrorId::kOverflowMul, AsInt(RB), ins.sc());
    }
    RA = FromInt(r);
    DISPATCH();
  }
  CASE(DIVK_I) {
    const int64_t x = AsInt(RB), y = ins.sc();
    if (ABSL_PREDICT_FALSE(y == -1 && x == INT64_MIN)) RAISE(RuntimeErrorId::kOverflowDiv);
    RA = FromInt(x / y);
    DISPATCH();
  }
  CASE(REMK_I) {
    const int64_t y = ins.sc();
    // x % -1 is 0 for every x; x86 would trap on INT64_MIN % -1.
    RA = FromInt(y == -1 ? 0 : AsInt(RB) % y);
    DISPATCH();
  }
  CASE(NEG_I) {
    int64_t r;
    if (ABSL_PREDICT_FALSE(__builtin_sub_overflow(int64_t{0}, AsInt(RB), &r))) {
      RAISE(RuntimeErrorId::kOverflowNeg, AsInt(RB));
    }
    RA = FromInt(r);
    DISPATCH();
  }
  CASE(EQ_I) {
    RA = FromBool(RB == RC);
    DISPATCH();
  }
  CASE(NE_I) {
    RA = FromBool(RB != RC);
    DISPATCH();
  }
  CASE(LT_I) {
    RA = FromBool(AsInt(RB) < AsInt(RC));
    DISPATCH();
  }
  CASE(LE_I) {
    RA = FromBool(AsInt(RB) <= AsInt(RC));
    DISPATCH();
  }

  // ---- Float ----
  CASE(ADD_F) {
    RA = FromFloat(AsFloat(RB) + AsFloat(RC));
    DISPATCH();
  }
  CASE(SUB_F) {
    RA = FromFloat(AsFloat(RB) - AsFloat(RC));
    DISPATCH();
  }
  CASE(MUL_F) {
    RA = FromFloat(AsFloat(RB) * AsFloat(RC));
    DISPATCH();
  }
  CASE(DIV_F) {
    RA = FromFloat(AsFloat(RB) / AsFloat(RC));
    DISPATCH();
  }
  CASE(REM_F) {
    RA = FromFloat(std::fmod(AsFloat(RB), AsFloat(RC)));
    DISPATCH();
  }
  CASE(NEG_F) {
    RA = FromFloat(-AsFloat(RB));
    DISPATCH();
  }
  CASE(EQ_F) {
    RA = FromBool(AsFloat(RB) == AsFloat(RC));
    DISPATCH();
  }
  CASE(NE_F) {
    RA = FromBool(AsFloat(RB) != AsFloat(RC));
    DISPATCH();
  }
  CASE(LT_F) {
    RA = FromBool(AsFloat(RB) < AsFloat(RC));
    DISPATCH();
  }
  CASE(LE_F) {
    RA = FromBool(AsFloat(RB) <= AsFloat(RC));
    DISPATCH();
  }

  // ---- Conversions ----
  CASE(I2F) {
    RA = FromFloat(static_cast<double>(AsInt(RB)));
    DISPATCH();
  }
  CASE(F2I) {
    const double d = AsFloat(RB);
    if (ABSL_PREDICT_FALSE(std::isnan(d))) RAISE(RuntimeErrorId::kIntOfNaN);
    // [-2^63, 2^63): exactly the doubles whose truncation fits an Int.
    if (ABSL_PREDICT_FALSE(!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))) {
      RAISE(RuntimeErrorId::kIntOutOfRange, FormatFloat(d));
    }
    RA = FromInt(static_cast<int64_t>(d));
    DISPATCH();
  }

  // ---- Bool ----
  CASE(NOT) {
    RA = FromBool(RB == 0);
    DISPATCH();
  }

  // ---- Values of any type ----
  CASE(CONCAT_S) {
    const Object* x = AsObject(RB);
    const Object* y = AsObject(RC);
    Object* s = heap_.NewStr(x->length + y->length);
    if (ABSL_PREDICT_FALSE(s == nullptr)) {
      SAVE();
      RaiseOutOfMemory();
      goto fail;
    }
    if (x->length) std::memcpy(Chars(s), Chars(x), x->length);
    if (y->length) std::memcpy(Chars(s) + x->length, Chars(y), y->length);
    RA = FromObject(s);
    DISPATCH();
  }
  CASE(EQ_V) {
    RA = FromBool(Compare(RB, R[B + 1], C, *module_, false) == Order::kEqual);
    DISPATCH();
  }
  CASE(LT_V) {
    RA = FromBool(Compare(RB, R[B + 1], C, *module_, false) == Order::kLess);
    DISPATCH();
  }
  CASE(LE_V) {
    const Order o = Compare(RB, R[B + 1], C, *module_, false);
    RA = FromBool(o == Order::kLess || o == Order::kEqual);
    DISPATCH();
  }

  // ---- Control ----
  // A backward jump closes a loop (a self tail call's JMP, or its test
  // repeated at the back edge: compiler/emit.cc EmitLoopJump), so it polls
  // for an interrupt or the instruction limit.
#define JUMP(offset)                                                                         \
  do {                                                                                       \
    const int32_t jump_offset = (offset);                                                    \
    if (jump_offset < 0 && ABSL_PREDICT_FALSE(interrupt_.load(std::memory_order_relaxed) ||  \
                                              instructions_ + count > instruction_limit_)) { \
      SAVE(); /* at the jump: an error names the loop's call */                              \
      if (!Poll()) goto fail;                                                                \
    }                                                                                        \
    pc += jump_offset;                                                                       \
  } while (0)
  CASE(JMP) {
    JUMP(ins.sbx());
    DISPATCH();
  }
  CASE(JMPIF) {
    if (RA != 0) JUMP(ins.sbx());
    DISPATCH();
  }
  CASE(JMPIFNOT) {
    if (RA == 0) JUMP(ins.sbx());
    DISPATCH();
  }
  CASE(JLT_I) {
    if (AsInt(RA) < AsInt(RB)) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JLE_I) {
    if (AsInt(RA) <= AsInt(RB)) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JEQ_I) {
    if (RA == RB) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JNE_I) {
    if (RA != RB) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JLTK_I) {
    if (AsInt(RA) < int64_t{static_cast<int16_t>(B)}) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JLEK_I) {
    if (AsInt(RA) <= int64_t{static_cast<int16_t>(B)}) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JGTK_I) {
    if (AsInt(RA) > int64_t{static_cast<int16_t>(B)}) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JGEK_I) {
    if (AsInt(RA) >= int64_t{static_cast<int16_t>(B)}) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JEQK_I) {
    if (AsInt(RA) == int64_t{static_cast<int16_t>(B)}) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(JNEK_I) {
    if (AsInt(RA) != int64_t{static_cast<int16_t>(B)}) JUMP(ins.sc());
    DISPATCH();
  }

  // ---- Calls ----
  CASE(CALL) {
    const FuncInfo* callee = funcs + B;
    const size_t base = static_cast<size_t>(R - stack_) + A;
    if (ABSL_PREDICT_FALSE(fp + 1 == frames_ + frame_capacity_ ||
                           base + callee->num_registers + 1 > stack_capacity_ ||
                           interrupt_.load(std::memory_order_relaxed) ||
                           instructions_ + count > instruction_limit_)) {
      SAVE();
      if (!PrepareCall(base + callee->num_registers + 1)) goto fail;
      RELOAD();
    }
    Value* nr = stack_ + base;
    for (uint32_t i = C; i < callee->num_registers; ++i) nr[i] = 0;
    fp->pc = pc;
    ++fp;
    fp->fn = callee;
    fp->base = base;
    fp->closure = nullptr;
    fp->boundary = false;
    fp->tail_calls = 0;
    R = nr;
    pc = callee->code;
    ++calls_;
    DISPATCH();
  }
  CASE(CALLC) {
    Object* closure = AsObject(RB);
    const FuncInfo* callee = funcs + closure->function;
    if (ABSL_PREDICT_FALSE(C != callee->num_params)) {
      RAISE(RuntimeErrorId::kBadCall, "a closure called with the wrong number of arguments");
    }
    const size_t base = static_cast<size_t>(R - stack_) + A;
    if (ABSL_PREDICT_FALSE(fp + 1 == frames_ + frame_capacity_ ||
                           base + callee->num_registers + 1 > stack_capacity_ ||
                           interrupt_.load(std::memory_order_relaxed) ||
                           instructions_ + count > instruction_limit_)) {
      SAVE();
      if (!PrepareCall(base + callee->num_registers + 1)) goto fail;
      RELOAD();
    }
    // The frame keeps the closure alive even if the caller's register is
    // reused (or the closure was passed to itself and released).
    ++closure->refcount;
    Value* nr = stack_ + base;
    for (uint32_t i = C; i < callee->num_registers; ++i) nr[i] = 0;
    fp->pc = pc;
    ++fp;
    fp->fn = callee;
    fp->base = base;
    fp->closure = closure;
    fp->boundary = false;
    fp->tail_calls = 0;
    R = nr;
    pc = callee->code;
    ++calls_;
    DISPATCH();
  }
  CASE(CALLN) {
    SAVE();
    Value v;
    const bool ok = CallNative(B, A, &v);
    RELOAD();
    if (ABSL_PREDICT_FALSE(!ok)) goto fail;
    RA = v;
    DISPATCH();
  }
  CASE(TAILCALL) {
    const FuncInfo* callee = funcs + B;
    const FuncInfo* self = fp->fn;
    if (ABSL_PREDICT_FALSE(fp->base + callee->num_registers + 1 > stack_capacity_ ||
                           interrupt_.load(std::memory_order_relaxed) ||
                           instructions_ + count > instruction_limit_)) {
      SAVE();
      if (!PrepareCall(fp->base + callee->num_registers + 1)) goto fail;
      RELOAD();
    }
    if (self->num_refs != 0) ReleaseFrameRefs(R, self, A, C);
    if (A != 0) {
      for (uint32_t i = 0; i < C; ++i) R[i] = R[A + i];
    }
    const uint32_t top =
        callee->num_registers > self->num_registers ? callee->num_registers : self->num_registers;
    for (uint32_t i = C; i < top; ++i) R[i] = 0;
    if (fp->closure != nullptr) {
      heap_.Release(fp->closure);
      fp->closure = nullptr;
    }
    fp->fn = callee;
    ++fp->tail_calls;
    pc = callee->code;
    ++calls_;
    DISPATCH();
  }
  CASE(TAILCALLC) {
    Object* closure = AsObject(RB);
    const FuncInfo* callee = funcs + closure->function;
    const FuncInfo* self = fp->fn;
    if (ABSL_PREDICT_FALSE(C != callee->num_params)) {
      RAISE(RuntimeErrorId::kBadCall, "a closure called with the wrong number of arguments");
    }
    if (ABSL_PREDICT_FALSE(fp->base + callee->num_registers + 1 > stack_capacity_ ||
                           interrupt_.load(std::memory_order_relaxed) ||
                           instructions_ + count > instruction_limit_)) {
      SAVE();
      if (!PrepareCall(fp->base + callee->num_registers + 1)) goto fail;
      RELOAD();
    }
    RB = 0;  // moved into the frame
    if (self->num_refs != 0) ReleaseFrameRefs(R, self, A, C);
    if (A != 0) {
      for (uint32_t i = 0; i < C; ++i) R[i] = R[A + i];
    }
    const uint32_t top =
        callee->num_registers > self->num_registers ? callee->num_registers : self->num_registers;
    for (uint32_t i = C; i < top; ++i) R[i] = 0;
    if (fp->closure != nullptr) heap_.Release(fp->closure);
    fp->closure = closure;
    fp->fn = callee;
    ++fp->tail_calls;
    pc = callee->code;
    ++calls_;
    DISPATCH();
  }
  CASE(RET) {
    const Value v = RA;
    const FuncInfo* self = fp->fn;
    if (self->num_refs != 0) ReleaseFrameRefs(R, self, A, 1);
    for (uint32_t i = 0; i < self->num_registers; ++i) R[i] = 0;
    if (fp->closure != nullptr) heap_.Release(fp->closure);
    if (ABSL_PREDICT_FALSE(fp->boundary)) {
      last_result_is_ref_ = self->returns_ref;
      depth_ = static_cast<size_t>(fp - frames_);
      instructions_ += count;
      *result = v;
      return true;
    }
    R[0] = v;
    --fp;
    R = stack_ + fp->base;
    pc = fp->pc;
    DISPATCH();
  }

  // ---- Closures, tuples, arrays ----
  CASE(CLOSURE) {
    const uint8_t* capture_is_ref = funcs[B].capture_is_ref.data();
    Object* c = heap_.NewClosure(B, C);
    if (ABSL_PREDICT_FALSE(c == nullptr)) {
      // R(a) may hold a plain capture in a reference register: clear the
      // plain ones so that unwinding releases only references.
      for (uint32_t i = 0; i < C; ++i) {
        if (!capture_is_ref[i]) R[A + i] = 0;
      }
      SAVE();
      RaiseOutOfMemory();
      goto fail;
    }
    Value* slots = Slots(c);
    uint8_t* mask = Mask(c);
    for (uint32_t i = 0; i < C; ++i) {
      slots[i] = R[A + i];
      mask[i] = capture_is_ref[i];
      R[A + i] = 0;
    }
    RA = FromObject(c);
    DISPATCH();
  }
  CASE(GETCAP) {
    const Object* c = fp->closure;
    Value v = Slots(c)[B];
    if (Mask(c)[B]) Retain(v);
    RA = v;
    DISPATCH();
  }
  CASE(TUPLE) {
    const std::vector<uint8_t>& field_refs = tuple_masks_[C];
    const uint32_t n = static_cast<uint32_t>(field_refs.size());
    Object* t = heap_.NewTuple(n);
    if (ABSL_PREDICT_FALSE(t == nullptr)) {
      SAVE();
      RaiseOutOfMemory();
      goto fail;
    }
    t->tag = tuple_tags_[C];
    Value* slots = Slots(t);
    uint8_t* mask = Mask(t);
    for (uint32_t i = 0; i < n; ++i) {
      slots[i] = R[B + i];
      if (field_refs[i]) {
        mask[i] = 1;
        R[B + i] = 0;
      }
    }
    RA = FromObject(t);
    DISPATCH();
  }
  CASE(FIELD) {
    const Object* t = AsObject(RB);
    Value v = Slots(t)[C];
    if (Mask(t)[C]) Retain(v);
    RA = v;
    DISPATCH();
  }
  CASE(ARRAY) {
    Object* arr = heap_.NewArray(C, ins.x != 0);
    if (ABSL_PREDICT_FALSE(arr == nullptr)) {
      SAVE();
      RaiseOutOfMemory();
      goto fail;
    }
    Value* slots = Slots(arr);
    for (uint32_t i = 0; i < C; ++i) slots[i] = R[B + i];
    if (ins.x) {
      for (uint32_t i = 0; i < C; ++i) R[B + i] = 0;
    }
    RA = FromObject(arr);
    DISPATCH();
  }
  CASE(PUSH) {
    Object* xs = AsObject(RB);
    const Value v = RC;
    RB = 0;  // consumed: by the result, or released on failure
    if (ABSL_PREDICT_TRUE(xs->refcount == 1 && xs->spare != 0)) {
      Slots(xs)[xs->length] = v;
      ++xs->length;
      --xs->spare;
      xs->elements_are_refs = ins.x;
    } else {
      xs = heap_.WritableArray(xs, xs->length + 1, ins.x != 0);
      if (ABSL_PREDICT_FALSE(xs == nullptr)) {
        SAVE();
        RaiseOutOfMemory();
        goto fail;
      }
      Slots(xs)[xs->length - 1] = v;
    }
    if (ins.x) Retain(v);
    RA = FromObject(xs);
    DISPATCH();
  }
  CASE(INDEX) {
    const Object* arr = AsObject(RB);
    const int64_t i = AsInt(RC);
    if (ABSL_PREDICT_FALSE(static_cast<uint64_t>(i) >= arr->length)) {
      RAISE(RuntimeErrorId::kIndexOutOfBounds, i, arr->length);
    }
    Value v = Slots(arr)[i];
    if (arr->elements_are_refs) Retain(v);
    RA = v;
    DISPATCH();
  }
  CASE(LEN) {
    RA = FromInt(static_cast<int64_t>(AsObject(RB)->length));
    DISPATCH();
  }
  CASE(LOADTAG) {
    Object* o = heap_.Nullary(B);
    if (ABSL_PREDICT_FALSE(o == nullptr)) {
      SAVE();
      RaiseOutOfMemory();
      goto fail;
    }
    RA = FromObject(o);
    DISPATCH();
  }
  CASE(JNTAG) {
    if (AsObject(RA)->tag != B) JUMP(ins.sc());
    DISPATCH();
  }
  CASE(SWITCH) {
    // The table's JMP for this tag is taken here, not dispatched: one
    // indirect jump, from this handler's own site, lands in the arm.
    const uint32_t tag = AsObject(RA)->tag;
    const Instr* entry = pc + (tag < B ? tag : B - 1);
    pc = entry + 1 + entry->sbx();
    DISPATCH();
  }

  // ---- Tensors (interpreter_tensors.cc) ----
  // The running instruction's output-buffer site (pc is one past it).
#define SITE() (fp->fn->first_site + static_cast<uint32_t>(pc - 1 - fp->fn->code))
#define ALEA_BINARY(name, opcode, spelling, semantics)                                     \
  CASE(opcode) {                                                                           \
    SAVE();                                                                                \
    if (!TensorBinary(static_cast<uint8_t>(kernels::BinaryOp::k##name), ins, R, SITE())) { \
      goto fail;                                                                           \
    }                                                                                      \
    DISPATCH();                                                                            \
  }
#define ALEA_UNARY(name, opcode, spelling, semantics)                                    \
  CASE(opcode) {                                                                         \
    SAVE();                                                                              \
    if (!TensorUnary(static_cast<uint8_t>(kernels::UnaryOp::k##name), ins, R, SITE())) { \
      goto fail;                                                                         \
    }                                                                                    \
    DISPATCH();                                                                          \
  }
#include "vm/kernels/elementwise_ops.def"
#undef ALEA_BINARY
#undef ALEA_UNARY
  CASE(FUSED_T) {
    SAVE();
    switch (TensorFused(ins, R)) {
      case FusedOutcome::kDone:
        break;  // the JMP that follows skips the unfused block
      case FusedOutcome::kNotFused:
        ++pc;  // skip the JMP: the unfused block computes R(a)
        break;
      case FusedOutcome::kFailed:
        goto fail;
    }
    DISPATCH();
  }
  CASE(SCALAR_T) {
    SAVE();
    if (!TensorScalar(ins, R, SITE())) goto fail;
    DISPATCH();
  }

  // ---- Random states (interpreter_random.cc) ----
  // One out-of-line body for all: each allocates, which costs more than the
  // call. Nothing there grows the stacks or calls out, so no RELOAD.
#define ALEA_RANDOM_CASE(name)        \
  CASE(name) {                        \
    SAVE();                           \
    if (!RandomOp(ins, R)) goto fail; \
    DISPATCH();                       \
  }
  ALEA_RANDOM_CASE(KEY)
  ALEA_RANDOM_CASE(SPLIT)
  ALEA_RANDOM_CASE(SPLITN)
  ALEA_RANDOM_CASE(FOLDIN)
  ALEA_RANDOM_CASE(NEXT)
  ALEA_RANDOM_CASE(CONSUME)
  ALEA_RANDOM_CASE(BITS)
  ALEA_RANDOM_CASE(UNIFORM)
  ALEA_RANDOM_CASE(NORMAL)
  ALEA_RANDOM_CASE(BERNOULLI)
  ALEA_RANDOM_CASE(RANDINT)
  ALEA_RANDOM_CASE(EXPONENTIAL)
  ALEA_RANDOM_CASE(CATEGORICAL)
  ALEA_RANDOM_CASE(PERMUTATION)
  ALEA_RANDOM_CASE(DROPOUT)
#undef ALEA_RANDOM_CASE
#define ALEA_UNBOXED_CASE(name)              \
  CASE(name) {                               \
    SAVE();                                  \
    if (!UnboxedRandomOp(ins, R)) goto fail; \
    DISPATCH();                              \
  }
  ALEA_UNBOXED_CASE(UNBOX)
  ALEA_UNBOXED_CASE(TAKE)
  ALEA_UNBOXED_CASE(BOX)
  ALEA_UNBOXED_CASE(NEXT_U)
  ALEA_UNBOXED_CASE(FOLDIN_U)
  ALEA_UNBOXED_CASE(SITE)
#undef ALEA_UNBOXED_CASE
  // Unboxed states that cannot fail: the hash and the draw, nothing else.
  CASE(PEEK) {
    random::Pack(StateOf(AsObject(RB)), R + A);
    DISPATCH();
  }
  CASE(SPLIT_U) {
    const auto [first, second] = random::Split(random::Unpack(R + B));
    random::Pack(first, R + A);
    random::Pack(second, R + A + 2);
    DISPATCH();
  }
  CASE(UNIFORM_S) {
    RA = FromFloat(random::UniformScalar(random::EffectiveKey(random::Unpack(R + B)),
                                         AsFloat(R[B + 2]), AsFloat(R[B + 3])));
    DISPATCH();
  }
  CASE(NORMAL_S) {
    RA = FromFloat(random::NormalScalar(random::EffectiveKey(random::Unpack(R + B))));
    DISPATCH();
  }
  CASE(EXPONENTIAL_S) {
    RA = FromFloat(random::ExponentialScalar(random::EffectiveKey(random::Unpack(R + B))));
    DISPATCH();
  }
  CASE(BERNOULLI_S) {
    RA = FromBool(
        random::BernoulliScalar(random::EffectiveKey(random::Unpack(R + B)), AsFloat(R[B + 2])));
    DISPATCH();
  }
  CASE(RANDINT_S) {
    RA = FromInt(random::RandIntScalar(random::EffectiveKey(random::Unpack(R + B)), AsInt(R[B + 2]),
                                       AsInt(R[B + 3])));
    DISPATCH();
  }

  // ---- Differentiation ----
  CASE(GRAD) {
    SAVE();
    const bool ok = GradCall(ins);
    RELOAD();
    if (ABSL_PREDICT_FALSE(!ok)) goto fail;
    DISPATCH();
  }

  // ---- Output ----
  CASE(PRINT) {
    if (out_.empty()) out_since_ = SteadySeconds();
    AppendValue(&out_, RA, B, *module_, flush_lines_ ? PlotStyleFor(1) : PlotStyle{});
    out_.push_back('\n');
    if (flush_lines_ || out_.size() >= (1 << 16) || SteadySeconds() - out_since_ >= 0.1) {
      FlushOutput();
    }
    DISPATCH();
  }
  CASE(STR) {
    Object* s = StrOf(RB, C);
    if (ABSL_PREDICT_FALSE(s == nullptr)) {
      SAVE();
      RaiseOutOfMemory();
      goto fail;
    }
    RA = FromObject(s);
    DISPATCH();
  }

#ifndef ALEA_COMPUTED_GOTO
}  // switch
}  // for
#endif

fail :
    // State was saved by whoever jumped here; the failing instruction is pc - 1.
    Locate(fp->fn, fp->pc - 1);
Unwind();
(void)types;
return false;

#undef SAVE
#undef SITE
#undef RELOAD
#undef RAISE
#undef A
#undef B
#undef C
#undef RA
#undef RB
#undef RC
#undef CASE
#undef DISPATCH
#undef TAPE_STEP
}

template bool Vm::Run<false>(Value* result);
template bool Vm::Run<true>(Value* result);

}  // namespace alea::vm
