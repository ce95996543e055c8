// Calls (direct, closures, tail calls), operators and builtins. Every overload
// is resolved in the specialization being compiled: Expr::builtin when the
// type checker fixed it, else ResolveOverload on the substituted site type.
#include <cassert>
#include <limits>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "compiler/internal.h"
#include "lang/ast_walk.h"
#include "vm/native_signature.h"

namespace alea::compiler {

namespace types = lang::types;
using lang::BuiltinId;
using vm::Instr;
using vm::Op;

bool SafeToBorrow(const Expr& e, absl::Span<const Expr* const> later) {
  if (e.kind != Expr::Kind::kName || e.name_kind != lang::NameKind::kLocal) return true;
  for (const Expr* l : later) {
    if (l == nullptr) continue;
    std::vector<const Expr*> uses;
    UsesOf(*l, e.binding, uses);
    if (!uses.empty()) return false;
  }
  return true;
}

namespace {

const Type* Elem(const Type* array) { return types::Resolve(array)->args[0]; }

}  // namespace

std::optional<int64_t> SmallIntConstant(const Expr& e) {
  std::optional<int64_t> v;
  if (e.kind == Expr::Kind::kInt) v = e.int_value;
  if (e.kind == Expr::Kind::kUnary && e.unary_op == lang::UnaryOp::kNeg && e.lhs != nullptr &&
      e.lhs->kind == Expr::Kind::kInt) {
    v = -e.lhs->int_value;
  }
  if (v && *v >= INT16_MIN && *v <= INT16_MAX) return v;
  return std::nullopt;
}

const Expr* TransposeArgument(const Expr& e) {
  if (e.kind != Expr::Kind::kCall || e.builtin != static_cast<int>(BuiltinId::kTranspose) ||
      e.lhs == nullptr || e.lhs->kind != Expr::Kind::kName ||
      e.lhs->name_kind != lang::NameKind::kBuiltin || e.args.size() != 1 ||
      !e.args[0].name.empty()) {
    return nullptr;
  }
  return e.args[0].value.get();
}

bool FunctionCompiler::NativeOwnsFirst(std::string_view name) {
  static constexpr std::string_view kOwning[] = {
#define ALEA_NATIVE(name, arity, signature, semantics)
#define ALEA_NATIVE_OWNING(name, arity, signature, semantics) #name,
#include "vm/natives.def"
#undef ALEA_NATIVE
#undef ALEA_NATIVE_OWNING
  };
  for (std::string_view n : kOwning) {
    if (n == name) return true;
  }
  return false;
}

std::optional<BuiltinId> FunctionCompiler::Resolve(const Expr& e, const std::string& name,
                                                   std::vector<int>* param_of_arg) {
  const Type* site = types::Resolve(T(e.site_type));
  std::vector<const Type*> args(site->args.begin(), site->args.end());
  std::vector<std::string> names(args.size());
  for (size_t i = 0; i < e.args.size() && i < names.size(); ++i) names[i] = e.args[i].name;
  std::optional<BuiltinId> id;
  lang::ArgMapping mapping;
  if (e.builtin >= 0) {
    id = static_cast<BuiltinId>(e.builtin);
    std::string detail;
    // A sampler at an ambient site gets its state implicitly: parameter 0.
    lang::MapArguments(lang::GetBuiltin(*id), names, e.ambient_site ? 1 : 0, &mapping, &detail);
  } else if (auto r = lang::ResolveOverload(name, args, names, pc_.store_)) {
    id = r->id;
    mapping = std::move(r->mapping);
  } else {
    pc_.Unsupported(absl::StrCat(Quoted(name), " at ", Quoted(types::ToString(site))), e.span);
    return std::nullopt;
  }
  if (param_of_arg != nullptr) *param_of_arg = mapping.param_of_arg;
  return id;
}

bool FunctionCompiler::ReadsRegister(const Expr& e, int reg) {
  bool reads = false;
  lang::WalkExpr(e, [&](const Expr& use) {
    if (reads || use.kind != Expr::Kind::kName || use.name_kind != lang::NameKind::kLocal ||
        use.binding == nullptr) {
      return;
    }
    // Locals bound inside `e` have no register yet: they are not `reg`.
    auto it = vars_.find(KeyOfUse(use));
    if (it == vars_.end()) it = vars_.find(VarKey(use.binding, ""));
    reads = it != vars_.end() && it->second == reg;
  });
  return reads;
}

bool FunctionCompiler::IsIntoSafe(const Expr& e) {
  // Each of these reads its operands (into temporaries, or in their own
  // registers) before its one instruction writes the destination. `&&` and
  // `||` write it before reading their right side.
  switch (e.kind) {
    case Expr::Kind::kInt:
    case Expr::Kind::kFloat:
    case Expr::Kind::kBool:
    case Expr::Kind::kUnit:
    case Expr::Kind::kName:
    case Expr::Kind::kUnary:
      return true;
    case Expr::Kind::kBinary:
      return e.binary_op != lang::BinaryOp::kAnd && e.binary_op != lang::BinaryOp::kOr;
    default:
      return false;
  }
}

void FunctionCompiler::Call(const Expr& e, Dest dest) {
  const Expr& callee = *e.lhs;
  std::vector<const Expr*> args;
  for (const lang::Arg& arg : e.args) args.push_back(arg.value.get());
  bool direct = callee.kind == Expr::Kind::kName;
  if (direct && callee.name_kind == lang::NameKind::kConstructor) {
    return Construct(e, *callee.ctor, args, dest);
  }
  if (direct && callee.name_kind == lang::NameKind::kBuiltin) {
    if (TryFused(e, dest)) return;
    std::vector<int> param_of_arg;
    std::optional<BuiltinId> id = Resolve(e, callee.name, &param_of_arg);
    if (!id) return Into(e, dest);
    int r = Target(dest, e.type);
    int mark = top_;
    if ((*id == BuiltinId::kGrad || *id == BuiltinId::kValueAndGrad) && args.size() == 1 &&
        args[0]->kind == Expr::Kind::kName && args[0]->name_kind == lang::NameKind::kFunction &&
        !args[0]->fn->uses_rng) {
      // `grad(f)` of a named function: a wrapper that names f itself, so
      // the closure is LOADFN's, made once (a training loop's `grad(loss)`
      // allocates nothing per step).
      std::vector<const Type*> type_args;
      for (const Type* a : args[0]->type_args) type_args.push_back(T(a));
      const int f = pc_.FunctionInstance(args[0]->fn, std::move(type_args));
      const int wrapper = pc_.GradWrapper(*id, types::Resolve(T(e.site_type)), e.span, f);
      Emit(Instr::ABC(Op::LOADFN, r, static_cast<uint16_t>(wrapper), 0), e.span);
      Done(dest, r);
      SetTop(mark);
      return;
    }
    if (*id == BuiltinId::kRng) {  // a fresh explicit state: the site's own
      int state = SiteState(e, e.span);
      Move(r, state, true);
      Done(dest, r);
      SetTop(mark);
      return;
    }
    if (ScalarDraw(e, *id, args, param_of_arg, dest)) return;
    const bool consumes = ConsumesTensorOperands(*id);
    const bool owns_first = OwnsFirstOperand(*id);
    // A reduction along an axis of `transpose(x)` reduces x along the
    // mirrored axis instead (t_reduce_axis_t): `transpose` cannot fail (but
    // for memory) nor be observed, so evaluating x in its place keeps the
    // order, and no transposed copy is made.
    const std::optional<vm::kernels::ReduceOp> reduction = ReductionOf(*id);
    bool reduce_transposed = false;
    if (reduction && !e.ambient_site) {
      bool has_axis = false;
      for (size_t i = 0; i < args.size(); ++i) has_axis |= param_of_arg[i] == 1;
      for (size_t i = 0; i < args.size() && has_axis; ++i) {
        if (param_of_arg[i] != 0) continue;
        if (const Expr* inner = TransposeArgument(*args[i])) {
          args[i] = inner;
          reduce_transposed = true;
        }
      }
    }
    std::vector<Operand> operands;
    for (size_t i = 0; i < args.size(); ++i) {
      bool borrow = true;
      for (size_t j = i + 1; j < args.size() && borrow; ++j) {
        borrow = SafeToBorrow(*args[i], {args[j]});
      }
      const bool consumable = consumes || (owns_first && param_of_arg[i] == 0);
      operands.push_back(consumable ? EvalConsumable(*args[i], borrow) : Eval(*args[i], borrow));
    }
    // Registers and types per parameter, in the builtin's order; a defaulted
    // parameter gets its default value, or -1 for `none` (absent).
    const lang::Builtin& builtin = lang::GetBuiltin(*id);
    const Type* site = types::Resolve(T(e.site_type));
    size_t num_params = builtin.is_function ? builtin.params.size() : args.size();
    std::vector<int> regs(num_params, -1);
    std::vector<Type*> param_types(num_params, const_cast<Type*>(pc_.Unit()));
    uint32_t owned = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      regs[param_of_arg[i]] = operands[i].reg;
      param_types[param_of_arg[i]] = const_cast<Type*>(site->args[i]);
      if (operands[i].owned && IsRefReg(operands[i].reg)) owned |= 1u << param_of_arg[i];
    }
    int site_state = -1;
    if (e.ambient_site && num_params > 0) regs[0] = site_state = SiteState(e, e.span);
    std::vector<int> default_refs;  // Str defaults, released after the call
    for (size_t p = 0; p < num_params; ++p) {
      if (regs[p] >= 0) continue;
      regs[p] = LoadDefault(builtin.params[p]);
      if (regs[p] >= 0 && IsRefReg(regs[p])) default_refs.push_back(regs[p]);
    }
    const Type* by_param =
        pc_.store_.Function(std::move(param_types), const_cast<Type*>(site->result));
    uint32_t consumed = 0;
    if (reduce_transposed) {
      CallNative("t_reduce_axis_t",
                 {NativeArg::Reg(regs[0]), NativeArg::Imm(static_cast<int64_t>(*reduction)),
                  NativeArg::Reg(regs[1])},
                 true, r, e.span);
    } else if (!ApplyBuiltin(*id, by_param, regs, r, e.span, owned, &consumed)) {
      pc_.Unsupported(Quoted(callee.name), callee.span);
    }
    for (size_t i = operands.size(); i-- > 0;) {
      if ((consumed & (1u << param_of_arg[i])) == 0) Free(operands[i]);
    }
    if (site_state >= 0) Release(site_state);
    for (int d : default_refs) Release(d);
    Done(dest, r);
    SetTop(mark);
    return;
  }

  if (direct && callee.name_kind == lang::NameKind::kFunction && callee.fn != nullptr &&
      callee.fn->is_extern) {
    return ExternCall(e, *callee.fn, args, dest);
  }

  // A `uses rng` callee takes its ambient stream (this site's state) last.
  const bool pass_state = direct && callee.name_kind == lang::NameKind::kFunction &&
                          callee.fn != nullptr && callee.fn->uses_rng;
  std::vector<bool> refs;
  for (const Expr* arg : args) refs.push_back(Ref(arg->type));
  if (pass_state) refs.push_back(true);
  if (refs.empty()) refs.push_back(Ref(e.type));  // the result's register
  int mark = top_;
  if (direct && callee.name_kind == lang::NameKind::kFunction) {
    std::vector<const Type*> type_args;
    for (const Type* a : callee.type_args) type_args.push_back(T(a));
    int f = pc_.FunctionInstance(callee.fn, std::move(type_args));
    if (!dest.tail) WindowAtResult(dest.reg, refs[0], Ref(e.type));
    int base = AllocWindow(refs);
    uint16_t n = static_cast<uint16_t>(args.size() + (pass_state ? 1 : 0));
    // A self tail call is a loop: the arguments become the parameters (same
    // types, so the same register classes) and control restarts at the top,
    // skipping the frame replacement a TAILCALL does; the backward jump still
    // checks the interrupt flag. A parameter passed on in its own position
    // (`n` in `loop(i + 1, n, acc)`) is already where it belongs: a plain one
    // always, a reference at its last use (it would be moved out and back).
    bool self_loop = dest.tail && f == self_index_;
    // An unboxed parameter (unboxed_states.cc) takes the loop's new state
    // as words: those of an unboxed variable (loop_words), or the box of
    // any other state, its words read at the top (PEEK) as on entry.
    auto unboxed_param = [&](size_t i) {
      return self_loop && i < unboxed_params_.size() && unboxed_params_[i] != nullptr;
    };
    std::vector<bool> in_place(n, false);
    std::vector<int> loop_words(n, -1);
    for (size_t i = 0; self_loop && i < args.size(); ++i) {
      const Expr& a = *args[i];
      const bool same = a.kind == Expr::Kind::kName && a.name_kind == lang::NameKind::kLocal &&
                        VarReg(a) == static_cast<int>(i);
      // A parameter passed on in its own position: its box (consumed or
      // not) and words stay.
      in_place[i] = same && (!Ref(a.type) || last_uses_.contains(&a) ||
                             (unboxed_param(i) && a.binding == unboxed_params_[i]));
    }
    // A plain argument goes straight into its parameter's register when
    // nothing evaluated after it reads that register: `acc + i * i % 7` into
    // acc's, `i + 1` through a temporary, since the later argument reads i.
    std::vector<bool> direct(n, false);
    for (size_t i = 0; self_loop && i < args.size(); ++i) {
      const int reg = static_cast<int>(i);
      if (in_place[i] || unboxed_param(i) || IsRefReg(reg)) continue;
      bool later_reads = !IsIntoSafe(*args[i]) && ReadsRegister(*args[i], reg);
      for (size_t j = i + 1; j < args.size() && !later_reads; ++j) {
        later_reads = ReadsRegister(*args[j], reg);
      }
      direct[i] = !later_reads;
    }
    for (size_t i = 0; i < args.size(); ++i) {
      if (in_place[i]) continue;
      int window_mark = top_;
      if (unboxed_param(i) && UnboxedPair(*args[i]) >= 0) {
        // An unboxed local (never a parameter: unboxed_states.cc): its
        // words are copied at the jump, nothing else touching them.
        loop_words[i] = UnboxedPair(*args[i]);
        continue;
      }
      IntoReg(*args[i], direct[i] ? static_cast<int>(i) : base + static_cast<int>(i));
      SetTop(window_mark);
    }
    // The callee's ambient stream: this site's state, as words when the
    // call is this function's own loop (its PEEKed pair takes them).
    int loop_ambient = -1;
    if (pass_state && self_loop && ambient_entry_ >= 0) {
      loop_ambient = SiteWords(e, e.span);
    } else if (pass_state) {
      SiteState(e, e.span, base + static_cast<int>(args.size()));
    }
    if (dest.tail) {
      for (int r = 0; r < base; ++r) {
        if (IsRefReg(r) && !(r < n && in_place[r])) Release(r);
      }
      if (self_loop) {
        for (int i = 0; i < n; ++i) {
          if (in_place[i] || direct[i]) continue;
          if (loop_ambient >= 0 && i == static_cast<int>(args.size())) {
            // The box was released above; the words go on.
            Move(ambient_entry_, loop_ambient, false);
            Move(ambient_entry_ + 1, loop_ambient + 1, false);
            continue;
          }
          if (loop_words[i] >= 0) {  // the box was released above; the words go on
            const int pair = pairs_[unboxed_params_[i]];
            Move(pair, loop_words[i], false);
            Move(pair + 1, loop_words[i] + 1, false);
            continue;
          }
          Move(i, base + i, IsRefReg(base + i));
          if (unboxed_param(i)) {
            Emit(Instr::ABC(Op::PEEK, pairs_[unboxed_params_[i]], static_cast<uint16_t>(i), 0));
          }
        }
        EmitLoopJump(e.span);
      } else {
        Emit(Instr::ABC(Op::TAILCALL, base, static_cast<uint16_t>(f), n), e.span);
      }
    } else {
      Emit(Instr::ABC(Op::CALL, base, static_cast<uint16_t>(f), n), e.span);
      int res = FixResult(base, e.type);
      Move(dest.reg, res, Ref(e.type));
    }
    SetTop(mark);
    return;
  }

  // A closure: any other callee expression, evaluated before the arguments.
  uint16_t n = static_cast<uint16_t>(args.size());
  if (dest.tail) {
    int c = Alloc(true);
    IntoReg(callee, c);
    int base = AllocWindow(refs);
    ArgsInto(args, base);
    ReleaseRange(0, base, c);
    Emit(Instr::ABC(Op::TAILCALLC, base, c, n), e.span);
    SetTop(mark);
    return;
  }
  bool borrow = true;
  for (const Expr* arg : args) borrow = borrow && SafeToBorrow(callee, {arg});
  Operand c = Eval(callee, borrow);
  // (The callee is then a variable's register, below the result's.)
  if (!c.owned && c.reg != dest.reg) WindowAtResult(dest.reg, refs[0], Ref(e.type));
  int base = AllocWindow(refs);
  ArgsInto(args, base);
  Emit(Instr::ABC(Op::CALLC, base, c.reg, n), e.span);
  int res = FixResult(base, e.type);
  Move(dest.reg, res, Ref(e.type));
  Free(c);
  SetTop(mark);
}

bool FunctionCompiler::MatMulOfTransposed(const Expr& e, int r) {
  const Expr* lhs_t = TransposeArgument(*e.lhs);
  const Expr* rhs_t = TransposeArgument(*e.rhs);
  if (lhs_t == nullptr && rhs_t == nullptr) return false;
  // `transpose` cannot fail (but for memory) nor be observed, so skipping it
  // keeps the evaluation order: its operand, then the other side.
  const Expr& lhs = lhs_t != nullptr ? *lhs_t : *e.lhs;
  const Expr& rhs = rhs_t != nullptr ? *rhs_t : *e.rhs;
  Operand a = Eval(lhs, SafeToBorrow(lhs, {&rhs}));
  Operand b = Eval(rhs, true);
  const int64_t transposed = (lhs_t != nullptr ? 1 : 0) | (rhs_t != nullptr ? 2 : 0);
  CallNative("t_matmul_t",
             {NativeArg::Reg(a.reg), NativeArg::Reg(b.reg), NativeArg::Imm(transposed)}, true, r,
             e.span);
  Free(b);
  Free(a);
  return true;
}

void FunctionCompiler::Binary(const Expr& e, Dest dest) {
  if (e.binary_op == lang::BinaryOp::kAnd || e.binary_op == lang::BinaryOp::kOr) {
    int r = Target(dest, e.type);
    Label is_false, end;
    Branch(e, false, is_false);
    LoadInt(r, 1);
    EmitJump(Op::JMP, 0, 0, end);
    Bind(is_false);
    LoadInt(r, 0);
    Bind(end);
    return Done(dest, r);
  }
  if (TryFused(e, dest)) return;
  std::optional<BuiltinId> id = Resolve(e, lang::Spelling(e.binary_op), nullptr);
  if (!id) return Into(e, dest);
  int r = Target(dest, e.type);
  int mark = top_;
  // `x + k` and `x - k` with a small constant: one instruction.
  const std::optional<int64_t> constant = SmallIntConstant(*e.rhs);
  if ((*id == BuiltinId::kAddInt || *id == BuiltinId::kSubInt) && constant) {
    int64_t k = *id == BuiltinId::kAddInt ? *constant : -*constant;
    if (k >= INT16_MIN && k <= INT16_MAX) {
      Operand a = Eval(*e.lhs, true);
      // x = 1: written `x - k` (so an overflow can be reported as a `-`).
      Emit(Instr::ABC(Op::ADDK_I, r, a.reg, static_cast<uint16_t>(static_cast<int16_t>(k)),
                      *id == BuiltinId::kSubInt ? 1 : 0),
           e.span);
      SetTop(mark);
      return Done(dest, r);
    }
  }
  // `x * k`, `x / k` and `x % k` likewise (k != 0 for the last two: a zero
  // divisor keeps DIV_I/REM_I and its run-time error).
  if ((*id == BuiltinId::kMulInt || *id == BuiltinId::kDivInt || *id == BuiltinId::kRemInt) &&
      constant && (*id == BuiltinId::kMulInt || *constant != 0)) {
    const Op op = *id == BuiltinId::kMulInt   ? Op::MULK_I
                  : *id == BuiltinId::kDivInt ? Op::DIVK_I
                                              : Op::REMK_I;
    Operand a = Eval(*e.lhs, true);
    Emit(Instr::ABC(op, r, a.reg, static_cast<uint16_t>(static_cast<int16_t>(*constant))), e.span);
    SetTop(mark);
    return Done(dest, r);
  }
  if (*id == BuiltinId::kMatMul && MatMulOfTransposed(e, r)) {
    SetTop(mark);
    return Done(dest, r);
  }
  const bool consumes = ConsumesTensorOperands(*id);
  const bool borrow_lhs = SafeToBorrow(*e.lhs, {e.rhs.get()});
  Operand a = consumes ? EvalConsumable(*e.lhs, borrow_lhs) : Eval(*e.lhs, borrow_lhs);
  Operand b = consumes ? EvalConsumable(*e.rhs, true) : Eval(*e.rhs, true);
  uint32_t owned = (a.owned && IsRefReg(a.reg) ? 1u : 0u) | (b.owned && IsRefReg(b.reg) ? 2u : 0u);
  uint32_t consumed = 0;
  if (!ApplyBuiltin(*id, T(e.site_type), {a.reg, b.reg}, r, e.span, owned, &consumed)) {
    pc_.Unsupported(absl::StrCat(Quoted(lang::Spelling(e.binary_op)), " on ",
                                 Quoted(types::ToString(T(e.lhs->type)))),
                    e.span);
  }
  if ((consumed & 2) == 0) Free(b);
  if ((consumed & 1) == 0) Free(a);
  Done(dest, r);
  SetTop(mark);
}

void FunctionCompiler::Unary(const Expr& e, Dest dest) {
  if (TryFused(e, dest)) return;
  bool neg = e.unary_op == lang::UnaryOp::kNeg;
  std::optional<BuiltinId> id = Resolve(e, neg ? "u-" : "!", nullptr);
  if (!id) return Into(e, dest);
  int r = Target(dest, e.type);
  // A negative literal is folded (it cannot overflow: literals are at most 2^63 - 1).
  if (*id == BuiltinId::kNegInt && e.lhs->kind == Expr::Kind::kInt) {
    LoadInt(r, -e.lhs->int_value);
    return Done(dest, r);
  }
  if (*id == BuiltinId::kNegFloat && e.lhs->kind == Expr::Kind::kFloat) {
    LoadFloat(r, -e.lhs->float_value);
    return Done(dest, r);
  }
  int mark = top_;
  Operand a = ConsumesTensorOperands(*id) ? EvalConsumable(*e.lhs, true) : Eval(*e.lhs, true);
  uint32_t consumed = 0;
  if (!ApplyBuiltin(*id, T(e.site_type), {a.reg}, r, e.span, a.owned && IsRefReg(a.reg) ? 1u : 0u,
                    &consumed)) {
    pc_.Unsupported(
        absl::StrCat(neg ? "`-`" : "`!`", " on ", Quoted(types::ToString(T(e.lhs->type)))), e.span);
  }
  if (consumed == 0) Free(a);
  Done(dest, r);
  SetTop(mark);
}

void FunctionCompiler::IndexExpr(const Expr& e, Dest dest) {
  std::optional<BuiltinId> id = Resolve(e, "[]", nullptr);
  if (!id) return Into(e, dest);
  int r = Target(dest, e.type);
  int mark = top_;
  Operand a = Eval(*e.lhs, SafeToBorrow(*e.lhs, {e.rhs.get()}));
  Operand b = Eval(*e.rhs, true);
  if (!ApplyBuiltin(*id, T(e.site_type), {a.reg, b.reg}, r, e.span)) {
    pc_.Unsupported("tensor indexing", e.span);
  }
  Free(b);
  Free(a);
  Done(dest, r);
  SetTop(mark);
}

void FunctionCompiler::SliceExpr(const Expr& e, Dest dest) {
  std::optional<BuiltinId> id = Resolve(e, "[:]", nullptr);
  if (!id) return Into(e, dest);
  int r = Target(dest, e.type);
  int mark = top_;
  Operand xs = Eval(*e.lhs, SafeToBorrow(*e.lhs, {e.rhs.get(), e.third.get()}));
  // An omitted bound is the start or the end (the end clamps to the length).
  auto bound = [&](const lang::ExprPtr& b, int64_t omitted) {
    if (b) return Eval(*b, true);
    Operand o{Alloc(false), true};
    LoadInt(o.reg, omitted);
    return o;
  };
  Operand lo = bound(e.rhs, 0);
  Operand hi = bound(e.third, INT64_MAX);
  if (!ApplyBuiltin(*id, T(e.site_type), {xs.reg, lo.reg, hi.reg}, r, e.span)) {
    pc_.Unsupported("tensor slicing", e.span);
  }
  Free(hi);
  Free(lo);
  Free(xs);
  Done(dest, r);
  SetTop(mark);
}

void FunctionCompiler::BuiltinValue(const Expr& e, int dst) {
  const Type* site = types::Resolve(T(e.site_type));
  std::optional<BuiltinId> id;
  if (e.builtin >= 0) {
    id = static_cast<BuiltinId>(e.builtin);
  } else if (site->kind == types::Kind::kFunction) {
    std::vector<const Type*> args(site->args.begin(), site->args.end());
    std::vector<std::string> names(args.size());
    if (auto r = lang::ResolveOverload(e.name, args, names, pc_.store_)) id = r->id;
  }
  if (site->kind == types::Kind::kDType) {  // `f32`, `i32`...: the dtype's number
    LoadInt(dst, static_cast<int64_t>(StaticDType(site)));
    return;
  }
  if (site->kind == types::Kind::kFloat && id) {  // the Float constants
    switch (*id) {
      case BuiltinId::kPi:
        return LoadFloat(dst, 3.141592653589793);
      case BuiltinId::kInf:
        return LoadFloat(dst, std::numeric_limits<double>::infinity());
      case BuiltinId::kNan:
        return LoadFloat(dst, std::numeric_limits<double>::quiet_NaN());
      default:
        break;
    }
  }
  if (!id || site->kind != types::Kind::kFunction) {
    pc_.Unsupported(absl::StrCat(Quoted(e.name), " as a value"), e.span);
    return;
  }
  int f = pc_.BuiltinWrapper(*id, site, e.span);
  if (f < 0) return;
  Emit(Instr::ABC(Op::LOADFN, dst, static_cast<uint16_t>(f), 0));
}

bool FunctionCompiler::ApplyBuiltin(BuiltinId id, const Type* site, const std::vector<int>& args,
                                    int dst, Span at, uint32_t owned, uint32_t* consumed) {
  site = types::Resolve(site);
  if (consumed != nullptr) *consumed = 0;
  auto abc = [&](Op op) {
    Emit(Instr::ABC(op, dst, args[0], args.size() > 1 ? args[1] : 0), at);
    return true;
  };
  // Comparisons: Floats; every other value that is no reference (Int, Bool,
  // unit, a dtype's number) is its register, compared as an integer; the
  // references by descriptor, on retained copies in a window of reference
  // registers (a plain value there would be released as a pointer).
  auto compare = [&](Op int_op, Op float_op, Op value_op, bool swap, bool negate) {
    const Type* operand = types::Resolve(site->args[0]);
    int a = args[swap ? 1 : 0], b = args[swap ? 0 : 1];
    if (operand->kind == types::Kind::kFloat) {
      Emit(Instr::ABC(float_op, dst, a, b), at);
    } else if (!pc_.IsRef(operand)) {
      Emit(Instr::ABC(int_op, dst, a, b), at);
    } else {
      int mark = top_;
      int pair = AllocWindow({true, true});
      Emit(Instr::ABC(Op::COPY, pair, a, 0));
      Emit(Instr::ABC(Op::COPY, pair + 1, b, 0));
      Emit(Instr::ABC(value_op, dst, pair, static_cast<uint16_t>(pc_.TypeDescOf(operand))), at);
      Release(pair);
      Release(pair + 1);
      SetTop(mark);
      if (negate) Emit(Instr::ABC(Op::NOT, dst, dst, 0));
    }
    return true;
  };
  // A native call on the arguments and trailing type descriptors.
  auto native = [&](const char* name, std::vector<const Type*> descs) {
    std::vector<NativeArg> native_args;
    for (size_t i = 0; i < args.size(); ++i) {
      native_args.push_back(NativeArg::Reg(args[i]));
      // A closure the native only calls (a `fn` parameter of its signature)
      // is passed uncounted: no native reuses or keeps a closure it was lent
      // (other references tell a native, by a count of 1, that it may write
      // into them). Not one it may keep or pass on, as fold's initial value:
      // that one it retains when its register says it is a reference.
      native_args.back().uncounted =
          args[i] >= 0 && i < site->args.size() &&
          types::Resolve(site->args[i])->kind == types::Kind::kFunction &&
          vm::NativeParamIsFunction(name, i);
    }
    // The arguments were evaluated by OwnsFirstOperand(id), before the native
    // was chosen; natives.def says what the native does. They must agree
    // (checked in the sanitizer build, which keeps asserts).
    assert(OwnsFirstOperand(id) == NativeOwnsFirst(name));
    if (NativeOwnsFirst(name) && (owned & 1) != 0) {
      native_args[0].moved = true;
      if (consumed != nullptr) *consumed |= 1;
    }
    for (const Type* d : descs) native_args.push_back(NativeArg::Imm(pc_.TypeDescOf(d)));
    CallNative(name, native_args, pc_.IsRef(site->result), dst, at);
    return true;
  };
  // A builtin that is a native on its arguments (builtins.def ALEA_BUILTIN_NATIVE).
  if (const std::string_view plain = lang::GetBuiltin(id).native; !plain.empty()) {
    return native(std::string(plain).c_str(), {});
  }
  switch (id) {
    case BuiltinId::kAddInt:
      return abc(Op::ADD_I);
    case BuiltinId::kSubInt:
      return abc(Op::SUB_I);
    case BuiltinId::kMulInt:
      return abc(Op::MUL_I);
    case BuiltinId::kDivInt:
      return abc(Op::DIV_I);
    case BuiltinId::kRemInt:
      return abc(Op::REM_I);
    case BuiltinId::kAddFloat:
      return abc(Op::ADD_F);
    case BuiltinId::kSubFloat:
      return abc(Op::SUB_F);
    case BuiltinId::kMulFloat:
      return abc(Op::MUL_F);
    case BuiltinId::kDivFloat:
      return abc(Op::DIV_F);
    case BuiltinId::kRemFloat:
      return abc(Op::REM_F);
    case BuiltinId::kAddStr:
      return abc(Op::CONCAT_S);
    case BuiltinId::kNegInt:
      return abc(Op::NEG_I);
    case BuiltinId::kNegFloat:
      return abc(Op::NEG_F);
    case BuiltinId::kNot:
      return abc(Op::NOT);
    case BuiltinId::kFloat:
      return abc(Op::I2F);
    case BuiltinId::kInt:
      return abc(Op::F2I);
    case BuiltinId::kEq:
      return compare(Op::EQ_I, Op::EQ_F, Op::EQ_V, false, false);
    case BuiltinId::kNe:
      // By descriptor there is only EQ_V: negate it.
      return compare(Op::NE_I, Op::NE_F, Op::EQ_V, false, pc_.IsRef(site->args[0]));
    case BuiltinId::kLt:
      return compare(Op::LT_I, Op::LT_F, Op::LT_V, false, false);
    case BuiltinId::kLe:
      return compare(Op::LE_I, Op::LE_F, Op::LE_V, false, false);
    case BuiltinId::kGt:
      return compare(Op::LT_I, Op::LT_F, Op::LT_V, true, false);
    case BuiltinId::kGe:
      return compare(Op::LE_I, Op::LE_F, Op::LE_V, true, false);
    case BuiltinId::kIndexArray:
      return abc(Op::INDEX);
    case BuiltinId::kLenArray:
      return abc(Op::LEN);
    case BuiltinId::kPrint:
      Emit(Instr::ABC(Op::PRINT, args[0], static_cast<uint16_t>(pc_.TypeDescOf(site->args[0])), 0),
           at);
      LoadInt(dst, 0);
      return true;
    case BuiltinId::kStr:
      Emit(Instr::ABC(Op::STR, dst, args[0], static_cast<uint16_t>(pc_.TypeDescOf(site->args[0]))),
           at);
      return true;
    case BuiltinId::kGrad:
    case BuiltinId::kValueAndGrad: {
      // A closure of the site's wrapper, capturing its own reference to f.
      const int wrapper = pc_.GradWrapper(id, site, at, -1);
      const int mark = top_;
      const int capture = AllocWindow({true});
      Emit(Instr::ABC(Op::COPY, capture, args[0], 0));
      Emit(Instr::ABC(Op::CLOSURE, capture, static_cast<uint16_t>(wrapper), 1), at);
      Move(dst, capture, true);
      SetTop(mark);
      return true;
    }
    case BuiltinId::kLenStr:
      return native("len_s", {});
    case BuiltinId::kRange1:
      return native("range1", {});
    case BuiltinId::kRange2:
      return native("range2", {});
    case BuiltinId::kMap:
      return native("map", {Elem(site->result)});
    case BuiltinId::kFilter:
      return native("filter", {Elem(site->args[0])});
    case BuiltinId::kFold:
      return native("fold", {});
    case BuiltinId::kZip:
      return native("zip", {Elem(site->args[0]), Elem(site->args[1])});
    case BuiltinId::kAppend:
      return native("append", {Elem(site->args[0])});
    case BuiltinId::kPush:
      // An owned array (a temporary or a last use) is appended to by PUSH.
      if ((owned & 1) != 0) {
        Emit(Instr::ABC(Op::PUSH, dst, args[0], args[1], pc_.IsRef(Elem(site->args[0])) ? 1 : 0),
             at);
        if (consumed != nullptr) *consumed |= 1;
        return true;
      }
      return native("push", {Elem(site->args[0])});
    case BuiltinId::kSet:
      return native("set", {Elem(site->args[0])});
    case BuiltinId::kGet:
      return native("get", {Elem(site->args[0])});
    case BuiltinId::kFind:
      return native("find", {Elem(site->args[0])});
    case BuiltinId::kEnumerate:
      return native("enumerate", {Elem(site->args[0])});
    case BuiltinId::kFlatMap:
      return native("flat_map", {Elem(site->result)});
    case BuiltinId::kTake:
      return native("take", {Elem(site->args[0])});
    case BuiltinId::kDrop:
      return native("drop", {Elem(site->args[0])});
    case BuiltinId::kSortBy:
      return native("sort_by", {types::Resolve(site->args[1])->result});
    case BuiltinId::kMinArray:
      return native("min_of", {Elem(site->args[0])});
    case BuiltinId::kMaxArray:
      return native("max_of", {Elem(site->args[0])});
    case BuiltinId::kSliceArray:
      return native("slice", {Elem(site->args[0])});
    case BuiltinId::kReverse:
      return native("reverse", {Elem(site->args[0])});
    case BuiltinId::kSort:
      return native("sort", {Elem(site->args[0])});
    case BuiltinId::kAny:
      return native("any", {});
    case BuiltinId::kAll:
      return native("all", {});
    case BuiltinId::kSumInts:
      return native("sum_i", {});
    case BuiltinId::kSumFloats:
      return native("sum_f", {});
    case BuiltinId::kAbsInt:
      return native("abs_i", {});
    case BuiltinId::kAbsFloat:
      return native("abs_f", {});
    case BuiltinId::kSqrtFloat:
      return native("sqrt", {});
    case BuiltinId::kExpFloat:
      return native("exp", {});
    case BuiltinId::kLogFloat:
      return native("log", {});
    case BuiltinId::kFloor:
      return native("floor", {});
    case BuiltinId::kCeil:
      return native("ceil", {});
    case BuiltinId::kClock:
      return native("clock", {});
    default:
      return ApplyRandomBuiltin(id, args, dst, at) ||
             ApplyTensorBuiltin(id, site, args, dst, at, owned, consumed);
  }
}

void FunctionCompiler::ExternCall(const Expr& e, const lang::FnDecl& fn,
                                  const std::vector<const Expr*>& args, Dest dest) {
  int r = Target(dest, e.type);
  int mark = top_;
  std::vector<Operand> operands;
  std::vector<NativeArg> native_args;
  for (size_t i = 0; i < args.size(); ++i) {
    bool borrow = SafeToBorrow(*args[i], absl::MakeConstSpan(args).subspan(i + 1));
    operands.push_back(Eval(*args[i], borrow));
    native_args.push_back(NativeArg::Reg(operands.back().reg));
  }
  CallNative(pc_.ExternNative(fn).c_str(), native_args, Ref(e.type), r, e.span);
  for (size_t i = operands.size(); i-- > 0;) Free(operands[i]);
  Done(dest, r);
  SetTop(mark);
}

int FunctionCompiler::BorrowedWindow(const std::vector<bool>& lead,
                                     const std::vector<NativeArg>& args) {
  std::vector<bool> refs = lead;
  for (const NativeArg& a : args) refs.push_back(a.reg >= 0 && IsRefReg(a.reg) && !a.uncounted);
  int base = AllocWindow(refs);
  for (size_t i = 0; i < args.size(); ++i) {
    int to = base + static_cast<int>(lead.size() + i);
    if (args[i].reg < 0) {
      LoadInt(to, args[i].imm);
    } else if (IsRefReg(args[i].reg)) {
      if (args[i].moved) {
        Move(to, args[i].reg, true);
      } else if (args[i].uncounted) {
        Move(to, args[i].reg, false);
      } else {
        Emit(Instr::ABC(Op::COPY, to, args[i].reg, 0));
      }
    } else {
      Move(to, args[i].reg, false);
    }
  }
  return base;
}

bool FunctionCompiler::OwnsFirstOperand(BuiltinId id) {
  // Every overload of these: arrays' and tensors' (`set`, `add_at` of a tensor update it in
  // place when they hold it once).
  const std::string_view name = lang::GetBuiltin(id).name;
  return name == "append" || name == "push" || name == "set" || name == "add_at";
}

void FunctionCompiler::CallNative(const char* name, const std::vector<NativeArg>& args,
                                  bool result_ref, int dst, Span at) {
  int mark = top_;
  bool dst_is_arg = false;
  for (const NativeArg& a : args) dst_is_arg |= a.reg == dst;
  if (!dst_is_arg)
    WindowAtResult(dst, result_ref, result_ref);  // the window's first slot is the result's
  // Natives borrow: references are second ones, released after the call
  // (but uncounted closures).
  int base = BorrowedWindow({result_ref}, args);
  Emit(Instr::ABC(Op::CALLN, base, pc_.Native(name), static_cast<uint16_t>(args.size())), at);
  // An owning native's first argument register is null after the call.
  ReleaseRange(base + (NativeOwnsFirst(name) ? 2 : 1), base + 1 + static_cast<int>(args.size()),
               -1);
  Move(dst, base, result_ref);
  SetTop(mark);
}

}  // namespace alea::compiler
