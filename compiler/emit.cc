// Registers, instructions, labels and the line table of one function.
//
// Registers are allocated like a stack (params first, then locals and
// temporaries), but each register index keeps one class for the whole
// function, plain or reference, so Function::reference_registers holds at
// every pc: an allocation skips an index of the other class.
#include <bit>
#include <cstring>

#include "compiler/internal.h"

namespace alea::compiler {

FunctionCompiler::FunctionCompiler(ProgramCompiler& pc, Subst subst, std::string name)
    : pc_(pc), subst_(std::move(subst)) {
  fn_.name = std::move(name);
}

int FunctionCompiler::Alloc(bool ref) {
  int8_t cls = ref ? 1 : 0;
  for (;;) {
    if (top_ >= kMaxRegisters) {
      too_large_ = true;
      top_ = 0;  // keep indexes in range; the function is reported and dropped
    }
    if (static_cast<size_t>(top_) >= classes_.size()) classes_.push_back(-1);
    if (classes_[top_] == -1 || classes_[top_] == cls) {
      classes_[top_] = cls;
      return top_++;
    }
    ++top_;
  }
}

void FunctionCompiler::WindowAtResult(int dst, bool first_slot_ref, bool result_ref) {
  const int8_t cls = result_ref ? 1 : 0;
  if (dst >= 0 && dst == top_ - 1 && classes_[dst] == cls && first_slot_ref == result_ref) {
    SetTop(dst);
  }
}

int FunctionCompiler::AllocWindow(const std::vector<bool>& refs) {
  for (int base = top_;; ++base) {
    if (base + static_cast<int>(refs.size()) >= kMaxRegisters) {
      too_large_ = true;
      base = 0;
      top_ = 0;
    }
    bool fits = true;
    for (size_t k = 0; k < refs.size() && fits; ++k) {
      size_t r = base + k;
      if (r < classes_.size() && classes_[r] != -1 && classes_[r] != (refs[k] ? 1 : 0)) {
        fits = false;
      }
    }
    if (!fits) continue;
    for (size_t k = 0; k < refs.size(); ++k) {
      size_t r = base + k;
      while (r >= classes_.size()) classes_.push_back(-1);
      classes_[r] = refs[k] ? 1 : 0;
    }
    top_ = base + static_cast<int>(refs.size());
    return base;
  }
}

int FunctionCompiler::Emit(vm::Instr instr, std::optional<Span> at) {
  int pc = static_cast<int>(fn_.code.size());
  fn_.code.push_back(instr);
  if (at) {
    vm::SourceLocation loc = pc_.Locate(*at);
    bool same = !fn_.lines.empty() && fn_.lines.back().location.file == loc.file &&
                fn_.lines.back().location.line == loc.line &&
                fn_.lines.back().location.column == loc.column &&
                fn_.lines.back().location.length == loc.length;
    if (!same) fn_.lines.push_back(vm::LineEntry{static_cast<uint32_t>(pc), loc});
  }
  return pc;
}

void FunctionCompiler::EmitJump(vm::Op op, int a, int b, Label& label, std::optional<Span> at) {
  int pc = Emit(vm::Instr::ABC(op, static_cast<uint16_t>(a), static_cast<uint16_t>(b), 0), at);
  label.patches.push_back(pc);
  unbound_jumps_[pc] = &label;
}

namespace {

// A jump whose only effect is the jump: a copy of it may stand anywhere.
bool IsTestAndBranch(vm::Op op) {
  switch (op) {
    case vm::Op::JMPIF:
    case vm::Op::JMPIFNOT:
    case vm::Op::JLT_I:
    case vm::Op::JLE_I:
    case vm::Op::JEQ_I:
    case vm::Op::JNE_I:
    case vm::Op::JLTK_I:
    case vm::Op::JLEK_I:
    case vm::Op::JGTK_I:
    case vm::Op::JGEK_I:
    case vm::Op::JEQK_I:
    case vm::Op::JNEK_I:
    case vm::Op::JNTAG:
      return true;
    default:
      return false;
  }
}

bool HasLongOffset(vm::Op op) {
  return op == vm::Op::JMP || op == vm::Op::JMPIF || op == vm::Op::JMPIFNOT;
}

}  // namespace

void FunctionCompiler::SetJumpTarget(int pc, int target) {
  vm::Instr& in = fn_.code[pc];
  const int32_t offset = target - (pc + 1);
  if (HasLongOffset(in.op)) {
    in = vm::Instr::AsBx(in.op, in.a, offset);
    return;
  }
  // The fused compare-and-branch forms: a 16-bit offset.
  if (offset > INT16_MAX || offset < INT16_MIN) too_large_ = true;
  in.c = static_cast<uint16_t>(static_cast<int16_t>(offset));
}

void FunctionCompiler::EmitLoopJump(Span at) {
  // Loop rotation by jump threading: when the loop starts with a test (the
  // `if` of `if i == n { acc } else { loop(...) }`), the back edge repeats
  // that test, jumping where it jumps, and only falls through to a jump to
  // the instruction after it: one dispatch per iteration instead of two.
  int target = loop_start_;
  if (loop_start_ < static_cast<int>(fn_.code.size()) &&
      IsTestAndBranch(fn_.code[loop_start_].op)) {
    const vm::Instr head = fn_.code[loop_start_];
    const int pc = Emit(head, at);
    if (auto it = unbound_jumps_.find(loop_start_); it != unbound_jumps_.end()) {
      it->second->patches.push_back(pc);
      unbound_jumps_[pc] = it->second;
    } else {
      const int32_t offset = HasLongOffset(head.op) ? head.sbx() : head.sc();
      SetJumpTarget(pc, loop_start_ + 1 + offset);
    }
    target = loop_start_ + 1;
  }
  Emit(vm::Instr::AsBx(vm::Op::JMP, 0, target - (static_cast<int32_t>(fn_.code.size()) + 1)), at);
}

void FunctionCompiler::Bind(Label& label) {
  label.pc = static_cast<int>(fn_.code.size());
  for (int pc : label.patches) {
    SetJumpTarget(pc, label.pc);
    unbound_jumps_.erase(pc);
  }
  label.patches.clear();
}

void FunctionCompiler::Release(int r) { Emit(vm::Instr::ABC(vm::Op::RELEASE, r, 0, 0)); }

void FunctionCompiler::Move(int dst, int src, bool ref) {
  if (dst == src) return;
  Emit(vm::Instr::ABC(vm::Op::MOVE, dst, src, 0, ref ? 1 : 0));
}

void FunctionCompiler::LoadInt(int dst, int64_t value) {
  if (value >= INT32_MIN && value <= INT32_MAX) {
    Emit(vm::Instr::AsBx(vm::Op::LOADI, dst, static_cast<int32_t>(value)));
  } else {
    Emit(vm::Instr::ABC(vm::Op::LOADK, dst, pc_.Constant(static_cast<uint64_t>(value)), 0));
  }
}

void FunctionCompiler::LoadFloat(int dst, double value) {
  Emit(vm::Instr::ABC(vm::Op::LOADK, dst, pc_.Constant(std::bit_cast<uint64_t>(value)), 0));
}

void FunctionCompiler::ReleaseRange(int from, int to, int except) {
  for (int r = from; r < to; ++r) {
    if (classes_[r] == 1 && r != except) Release(r);
  }
}

int FunctionCompiler::FixResult(int window, const Type* result_type) {
  bool ref = Ref(result_type);
  if ((classes_[window] == 1) == ref) return window;
  int r = Alloc(ref);
  Move(r, window, ref);
  // A plain value left in a reference register would be released by error
  // unwinding: make it null.
  if (classes_[window] == 1) LoadInt(window, 0);
  return r;
}

void FunctionCompiler::Return(int reg) {
  // RET releases the frame's other references itself (every reference
  // register but R(a)), so no RELEASE precedes it.
  Emit(vm::Instr::ABC(vm::Op::RET, reg, 0, 0));
}

void FunctionCompiler::SetSignature(const std::vector<const Type*>& params, const Type* result) {
  fn_.param_types.clear();
  for (const Type* p : params) fn_.param_types.push_back(pc_.TypeDescOf(p));
  fn_.result_type = pc_.TypeDescOf(result);
}

vm::Function FunctionCompiler::Finish() {
  if (too_large_) {
    pc_.Error(lang::DiagId::kFunctionTooLarge, std::nullopt, fn_.name,
              "more than 65,535 registers or a branch over 32,767 instructions");
  }
  fn_.num_registers = static_cast<uint16_t>(classes_.size());
  fn_.reference_registers.clear();
  for (size_t r = 0; r < classes_.size(); ++r) {
    if (classes_[r] == 1) fn_.reference_registers.push_back(static_cast<uint16_t>(r));
  }
  return std::move(fn_);
}

vm::SourceLocation ProgramCompiler::Locate(Span span) {
  vm::SourceLocation loc;
  if (span.file >= sources_.size()) return loc;
  const lang::SourceFile& file = sources_.file(span.file);
  lang::LineCol at = file.Locate(span.begin);
  loc.file = span.file;
  loc.line = at.line;
  loc.column = at.column;
  std::string_view line = file.Line(at.line);
  uint32_t line_end = static_cast<uint32_t>(line.size()) + 1;  // a column past the text
  uint32_t end_column = at.column + (span.end > span.begin ? span.end - span.begin : 1);
  if (end_column > line_end) end_column = std::max(line_end, at.column + 1);
  loc.length = end_column - at.column;
  return loc;
}

}  // namespace alea::compiler
