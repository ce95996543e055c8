// Records and variants: constructor calls (TUPLE with the constructor's
// type, LOADTAG for one without fields), record literals and `..base`
// copies, field reads, and constructors used as values.
#include "absl/strings/str_cat.h"
#include "compiler/internal.h"

namespace alea::compiler {

namespace types = lang::types;
using vm::Instr;
using vm::Op;

void FunctionCompiler::Construct(const Expr& e, const types::Ctor& c,
                                 const std::vector<const Expr*>& args, Dest dest) {
  int r = Target(dest, e.type);
  int mark = top_;
  const Type* t = T(e.type);
  std::vector<const Type*> fields = pc_.FieldTypesOf(t, c);
  if (fields.empty()) {
    Emit(Instr::ABC(Op::LOADTAG, r, static_cast<uint16_t>(c.tag), 0), e.span);
  } else {
    std::vector<bool> refs;
    for (const Type* f : fields) refs.push_back(pc_.IsRef(f));
    int base = AllocWindow(refs);
    ArgsInto(args, base);
    Emit(Instr::ABC(Op::TUPLE, r, base, pc_.CaseDescOf(t, c)), e.span);
  }
  SetTop(mark);
  Done(dest, r);
}

void FunctionCompiler::Record(const Expr& e, Dest dest) {
  const types::Ctor& c = *e.ctor;
  int r = Target(dest, e.type);
  int mark = top_;
  const Type* t = T(e.type);
  std::vector<const Type*> fields = pc_.FieldTypesOf(t, c);
  std::vector<bool> refs;
  for (const Type* f : fields) refs.push_back(pc_.IsRef(f));
  int base = AllocWindow(refs);
  // In the order written (evaluation is left to right), each into its slot.
  std::vector<bool> given(fields.size(), false);
  for (const lang::Arg& arg : e.args) {
    int i = c.FieldIndex(arg.name);
    int arg_mark = top_;
    IntoReg(*arg.value, base + i);
    SetTop(arg_mark);
    given[i] = true;
  }
  if (e.body) {
    // `..base`: the fields not written are copied from it.
    Operand from = Eval(*e.body, /*borrow_ok=*/true);
    for (size_t i = 0; i < fields.size(); ++i) {
      if (!given[i]) {
        Emit(Instr::ABC(Op::FIELD, base + static_cast<int>(i), from.reg, static_cast<uint16_t>(i)));
      }
    }
    Free(from);
  }
  Emit(Instr::ABC(Op::TUPLE, r, base, pc_.CaseDescOf(t, c)), e.span);
  SetTop(mark);
  Done(dest, r);
}

void FunctionCompiler::FieldRead(const Expr& e, Dest dest) {
  int r = Target(dest, e.type);
  int mark = top_;
  Operand record = Eval(*e.lhs, /*borrow_ok=*/true);
  Emit(Instr::ABC(Op::FIELD, r, record.reg, static_cast<uint16_t>(e.field)), e.span);
  Free(record);
  SetTop(mark);
  Done(dest, r);
}

void FunctionCompiler::CtorValue(const Expr& e, int dst) {
  const types::Ctor& c = *e.ctor;
  const Type* t = types::Resolve(T(e.type));
  if (c.fields.empty()) {
    Emit(Instr::ABC(Op::LOADTAG, dst, static_cast<uint16_t>(c.tag), 0), e.span);
    return;
  }
  Emit(Instr::ABC(Op::LOADFN, dst, static_cast<uint16_t>(pc_.CtorWrapper(c, t)), 0));
}

int ProgramCompiler::CtorWrapper(const types::Ctor& c, const Type* type) {
  type = types::Resolve(type);
  std::string key = absl::StrCat("constructor ", c.name, "|", Key(type));
  auto it = wrappers_.find(key);
  if (it != wrappers_.end()) return it->second;
  int index = NewFunctionSlot();
  wrappers_.emplace(key, index);
  FunctionCompiler w(*this, {}, c.name);
  std::vector<bool> refs;
  for (const Type* a : type->args) refs.push_back(IsRef(a));
  int base = w.AllocWindow(refs);
  w.fn_.num_params = static_cast<uint16_t>(refs.size());
  w.SetSignature({type->args.begin(), type->args.end()}, type->result);
  int r = w.Alloc(true);
  w.Emit(Instr::ABC(Op::TUPLE, r, base, CaseDescOf(type->result, c)));
  w.Return(r);
  SetFunction(index, w.Finish());
  return index;
}

}  // namespace alea::compiler
