// Lowering of expressions: literals, variables, tuples, arrays, blocks, `if`,
// short-circuit conditions and lambdas. Calls, operators and builtins are in
// lower_call.cc, patterns in lower_match.cc.
//
// Ownership: Into(e, dest) leaves an owned value in dest (a reference
// register owns one reference). A variable read into a register is moved at
// its last use and copied (retained) otherwise; Eval may instead borrow the
// variable's own register when the caller reads it before anything else runs.
// Temporaries are released or moved before their register is popped, so a
// free reference register is always null.
#include "absl/strings/str_cat.h"
#include "compiler/internal.h"

namespace alea::compiler {

namespace types = lang::types;
using vm::Instr;
using vm::Op;

const Type* FunctionCompiler::T(const Type* t) { return pc_.Concrete(t, subst_); }

bool FunctionCompiler::Ref(const Type* t) { return pc_.IsRef(T(t)); }

int FunctionCompiler::Target(Dest dest, const Type* type) {
  return dest.tail ? Alloc(Ref(type)) : dest.reg;
}

void FunctionCompiler::Done(Dest dest, int reg) {
  if (dest.tail) Return(reg);
}

void FunctionCompiler::CompileFunction(const std::vector<lang::Param>& params, const Expr& body,
                                       const std::vector<std::pair<VarKey, bool>>& captures,
                                       bool uses_rng,
                                       const std::vector<const Type*>& capture_types) {
  std::vector<const Type*> param_types;
  for (const lang::Param& param : params) param_types.push_back(T(param.pattern->type));
  if (uses_rng) param_types.push_back(pc_.RandStateType());
  SetSignature(param_types, T(body.type));
  for (const Type* c : capture_types) fn_.capture_types.push_back(pc_.TypeDescOf(T(c)));
  std::vector<bool> refs;
  for (const lang::Param& param : params) refs.push_back(Ref(param.pattern->type));
  if (uses_rng) refs.push_back(true);
  AllocWindow(refs);

  fn_.num_params = static_cast<uint16_t>(refs.size());
  fn_.num_captures = static_cast<uint16_t>(captures.size());
  for (size_t i = 0; i < captures.size(); ++i) {
    int r = Alloc(captures[i].second);
    Emit(Instr::ABC(Op::GETCAP, r, static_cast<uint16_t>(i), 0));
    vars_[captures[i].first] = r;
    if (captures[i].second) fn_.reference_captures.push_back(static_cast<uint16_t>(i));
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const Pattern& p = *params[i].pattern;
    if (p.kind == Pattern::Kind::kVar) {
      vars_[VarKey(&p, "")] = static_cast<int>(i);
    } else if (p.kind == Pattern::Kind::kTuple || p.kind == Pattern::Kind::kCtor ||
               p.kind == Pattern::Kind::kRecord) {
      Destructure(p, static_cast<int>(i), T(p.type));
    }
  }
  ComputeLastUses(body, last_uses_);
  lang::NumberSites(body, sites_);
  // Unboxed parameters: their words, read without consuming the box (a
  // path may never consume it); a self tail call jumps past these reads.
  FindUnboxedStates(params, body);
  for (size_t i = 0; i < unboxed_params_.size(); ++i) {
    if (unboxed_params_[i] == nullptr) continue;
    const int pair = AllocWindow({false, false});
    Emit(Instr::ABC(Op::PEEK, pair, static_cast<uint16_t>(i), 0));
    pairs_[unboxed_params_[i]] = pair;
  }
  if (uses_rng) {
    // The ambient stream's words; its box (the last parameter) is never
    // consumed here: sites only read it.
    ambient_ = ambient_entry_ = AllocWindow({false, false});
    Emit(Instr::ABC(Op::PEEK, ambient_, static_cast<uint16_t>(params.size()), 0));
  }
  loop_start_ = static_cast<int>(fn_.code.size());
  Tail(body);
}

void FunctionCompiler::Into(const Expr& e, Dest dest) {
  if (pc_.failed()) {
    if (dest.tail) Return(Alloc(false));
    return;
  }
  switch (e.kind) {
    case Expr::Kind::kInt: {
      int r = Target(dest, e.type);
      LoadInt(r, e.int_value);
      return Done(dest, r);
    }
    case Expr::Kind::kFloat: {
      int r = Target(dest, e.type);
      LoadFloat(r, e.float_value);
      return Done(dest, r);
    }
    case Expr::Kind::kBool:
    case Expr::Kind::kUnit: {
      int r = Target(dest, e.type);
      LoadInt(r, e.kind == Expr::Kind::kBool && e.bool_value ? 1 : 0);
      return Done(dest, r);
    }
    case Expr::Kind::kStr: {
      int r = Target(dest, e.type);
      Emit(Instr::ABC(Op::LOADS, r, pc_.String(e.str_value), 0), e.span);
      return Done(dest, r);
    }
    case Expr::Kind::kName: {
      // A variable in tail position is returned from its own register (a
      // reference at its last use: RET takes the variable's reference).
      if (dest.tail && e.name_kind == lang::NameKind::kLocal && UnboxedPair(e) < 0) {
        const int v = VarReg(e);
        if (v >= 0 && (!Ref(e.type) || last_uses_.contains(&e))) return Return(v);
      }
      int r = Target(dest, e.type);
      Name(e, r);
      return Done(dest, r);
    }
    case Expr::Kind::kTuple:
    case Expr::Kind::kArray: {
      int r = Target(dest, e.type);
      int mark = top_;
      std::vector<const Expr*> elements;
      for (const lang::ExprPtr& element : e.elements) elements.push_back(element.get());
      std::vector<bool> refs;
      for (const Expr* element : elements) refs.push_back(Ref(element->type));
      int base = AllocWindow(refs);
      ArgsInto(elements, base);
      const Type* t = T(e.type);
      if (e.kind == Expr::Kind::kTuple) {
        Emit(Instr::ABC(Op::TUPLE, r, base, pc_.TypeDescOf(t)), e.span);
      } else {
        bool elem_ref = pc_.IsRef(types::Resolve(t)->args[0]);
        Emit(Instr::ABC(Op::ARRAY, r, base, static_cast<uint16_t>(elements.size()),
                        elem_ref ? 1 : 0),
             e.span);
      }
      SetTop(mark);
      return Done(dest, r);
    }
    case Expr::Kind::kUnary:
      return Unary(e, dest);
    case Expr::Kind::kBinary:
      return Binary(e, dest);
    case Expr::Kind::kCall:
      return Call(e, dest);
    case Expr::Kind::kIndex:
      return IndexExpr(e, dest);
    case Expr::Kind::kSlice:
      return SliceExpr(e, dest);
    case Expr::Kind::kSubscript:
      return SubscriptExpr(e, dest);
    case Expr::Kind::kWith:
      return With(e, dest);
    case Expr::Kind::kRecord:
      return Record(e, dest);
    case Expr::Kind::kField:
      return FieldRead(e, dest);
    case Expr::Kind::kLambda: {
      int r = Target(dest, e.type);
      Lambda(e, r);
      return Done(dest, r);
    }
    case Expr::Kind::kIf:
      return If(e, dest);
    case Expr::Kind::kMatch:
      return Match(e, dest);
    case Expr::Kind::kBlock:
      return Block(e, dest);
  }
}

void FunctionCompiler::ArgsInto(const std::vector<const Expr*>& args, int first) {
  for (size_t i = 0; i < args.size(); ++i) {
    int mark = top_;
    IntoReg(*args[i], first + static_cast<int>(i));
    SetTop(mark);
  }
}

FunctionCompiler::Operand FunctionCompiler::Eval(const Expr& e, bool borrow_ok) {
  // An unboxed state is never borrowed: its use is a fresh box (Name).
  if (e.kind == Expr::Kind::kName && e.name_kind == lang::NameKind::kLocal && UnboxedPair(e) < 0) {
    int r = VarReg(e);
    if (r >= 0 && (borrow_ok || !Ref(e.type))) return Operand{r, false};
  }
  int t = Alloc(Ref(e.type));
  IntoReg(e, t);
  return Operand{t, true};
}

void FunctionCompiler::Free(const Operand& o) {
  if (o.owned && IsRefReg(o.reg)) Release(o.reg);
}

VarKey FunctionCompiler::KeyOfUse(const Expr& e) {
  const Pattern* p = e.binding;
  if (p->scheme == nullptr || p->scheme->vars.empty()) return VarKey(p, "");
  std::vector<const Type*> args;
  for (const Type* a : e.type_args) args.push_back(T(a));
  return VarKey(p, pc_.KeyOf(args));
}

int FunctionCompiler::VarReg(const Expr& e) {
  if (e.name_kind != lang::NameKind::kLocal || e.binding == nullptr) return -1;
  // An unboxed local has no register of its own (a parameter keeps its box's).
  if (pairs_.contains(e.binding) && !vars_.contains(VarKey(e.binding, ""))) return -1;
  auto it = vars_.find(KeyOfUse(e));
  // A variable of a polymorphic destructuring `let` has one instance.
  if (it == vars_.end()) it = vars_.find(VarKey(e.binding, ""));
  if (it == vars_.end()) {
    pc_.Unsupported(absl::StrCat("this use of ", Quoted(e.name)), e.span);
    return -1;
  }
  return it->second;
}

void FunctionCompiler::Name(const Expr& e, int dst) {
  switch (e.name_kind) {
    case lang::NameKind::kLocal: {
      if (const int pair = UnboxedPair(e); pair >= 0) {
        // A state kept unboxed, used where a box is needed (a tensor
        // sampler, `split_n`, a call): a fresh one, which that use consumes.
        TakeBox(e, Op::NOP, e.span);
        Emit(Instr::ABC(Op::BOX, dst, pair, static_cast<uint16_t>(Op::NOP)), e.span);
        return;
      }
      int r = VarReg(e);
      if (r < 0) return;
      if (!Ref(e.type)) {
        Move(dst, r, false);
      } else if (last_uses_.contains(&e)) {
        Move(dst, r, true);
      } else {
        Emit(Instr::ABC(Op::COPY, dst, r, 0));
      }
      return;
    }
    case lang::NameKind::kTopLet: {
      std::vector<const Type*> args;
      for (const Type* a : e.type_args) args.push_back(T(a));
      int g = pc_.GlobalInstance(e.binding, std::move(args));
      Emit(Instr::ABC(Op::LOADG, dst, static_cast<uint16_t>(g), 0, Ref(e.type) ? 1 : 0));
      return;
    }
    case lang::NameKind::kFunction: {
      std::vector<const Type*> args;
      for (const Type* a : e.type_args) args.push_back(T(a));
      if (e.fn->uses_rng) pc_.Unsupported("`uses rng`", e.span);
      int f = pc_.FunctionInstance(e.fn, std::move(args));
      Emit(Instr::ABC(Op::LOADFN, dst, static_cast<uint16_t>(f), 0));
      return;
    }
    case lang::NameKind::kBuiltin:
      BuiltinValue(e, dst);
      return;
    case lang::NameKind::kConstructor:
      CtorValue(e, dst);
      return;
    case lang::NameKind::kUnresolved:
      pc_.Unsupported(Quoted(e.name), e.span);
      return;
  }
}

void FunctionCompiler::Block(const Expr& e, Dest dest) {
  int mark = top_;
  std::vector<const Expr*> rest;
  for (size_t i = 0; i < e.stmts.size(); ++i) {
    const lang::Stmt& stmt = e.stmts[i];
    if (!stmt.expr) continue;
    if (stmt.kind == lang::Stmt::Kind::kLet) {
      rest.clear();
      for (size_t j = i + 1; j < e.stmts.size(); ++j) {
        if (e.stmts[j].expr) rest.push_back(e.stmts[j].expr.get());
      }
      if (e.result) rest.push_back(e.result.get());
      LetStmt(stmt, rest);
    } else {
      int m = top_;
      int t = Alloc(Ref(stmt.expr->type));
      IntoReg(*stmt.expr, t);
      if (IsRefReg(t)) Release(t);
      SetTop(m);
    }
  }
  if (e.result) {
    Into(*e.result, dest);
  } else {
    int r = Target(dest, e.type);
    LoadInt(r, 0);
    Done(dest, r);
  }
  if (!dest.tail) ReleaseRange(mark, top_, -1);
  SetTop(mark);
}

void FunctionCompiler::LetStmt(const lang::Stmt& stmt, const std::vector<const Expr*>& rest) {
  const Pattern& p = *stmt.pattern;
  const Expr& value = *stmt.expr;
  if (p.kind == Pattern::Kind::kVar && p.scheme != nullptr && !p.scheme->vars.empty()) {
    // A polymorphic let: one value per instantiation its scope uses (or one,
    // for its effects, when it is unused).
    std::vector<const Expr*> uses;
    for (const Expr* r : rest) UsesOf(*r, &p, uses);
    std::vector<std::vector<const Type*>> instances;
    absl::flat_hash_set<std::string> seen;
    for (const Expr* use : uses) {
      std::vector<const Type*> args;
      for (const Type* a : use->type_args) args.push_back(T(a));
      if (seen.insert(pc_.KeyOf(args)).second) instances.push_back(std::move(args));
    }
    if (instances.empty()) {
      if (MakesNoEffects(value)) return;
      instances.emplace_back(p.scheme->vars.size(), pc_.Unit());
    }
    for (const std::vector<const Type*>& args : instances) {
      Subst saved = subst_;
      for (size_t i = 0; i < p.scheme->vars.size() && i < args.size(); ++i) {
        subst_[types::Resolve(p.scheme->vars[i])] = args[i];
      }
      int r = Alloc(Ref(value.type));
      IntoReg(value, r);
      subst_ = std::move(saved);
      vars_[VarKey(&p, pc_.KeyOf(args))] = r;
    }
    return;
  }
  if (UnboxedLet(p, value)) return;
  switch (p.kind) {
    case Pattern::Kind::kVar: {
      int r = Alloc(Ref(value.type));
      IntoReg(value, r);
      vars_[VarKey(&p, "")] = r;
      return;
    }
    case Pattern::Kind::kTuple:
    case Pattern::Kind::kCtor:
    case Pattern::Kind::kRecord: {
      // A variable at its last use is moved into a temporary, released
      // right after its fields are bound: a field then held once (an
      // array a loop carries in a tuple) can be updated in place, not
      // copied, by PUSH and the natives that reuse their argument. Only
      // worth its MOVE and RELEASE when such a field is bound.
      const bool move = value.kind == Expr::Kind::kName && last_uses_.contains(&value) &&
                        BindsUpdatable(p, T(value.type));
      Operand o = Eval(value, /*borrow_ok=*/!move);
      Destructure(p, o.reg, T(value.type));
      Free(o);
      return;
    }
    default: {  // `let _ = e;`
      int m = top_;
      int t = Alloc(Ref(value.type));
      IntoReg(value, t);
      if (IsRefReg(t)) Release(t);
      SetTop(m);
      return;
    }
  }
}

void FunctionCompiler::If(const Expr& e, Dest dest) {
  Label else_label, end;
  // A site: its state is made before the branch, so both arms see it; the
  // condition still draws from the enclosing stream.
  const int outer_ambient = ambient_;
  const int site_state = sites_.contains(&e) ? SiteWords(e, e.span) : -1;
  Branch(*e.rhs, false, else_label);
  if (site_state >= 0) ambient_ = site_state;
  int mark = top_;
  Into(*e.then_branch, dest);
  SetTop(mark);
  if (!dest.tail) EmitJump(Op::JMP, 0, 0, end);
  Bind(else_label);
  if (e.else_branch) {
    Into(*e.else_branch, dest);
  } else {
    int r = Target(dest, e.type);
    LoadInt(r, 0);
    Done(dest, r);
  }
  SetTop(mark);
  Bind(end);
  ambient_ = outer_ambient;
}

namespace {

// A comparison that the fused Int branches can test: its opcode when true.
struct Fused {
  Op op;
  bool swap;
};

std::optional<Fused> FusedFor(lang::BinaryOp op, bool when_true) {
  using lang::BinaryOp;
  // `a OP b` when true; when false, the negation (`!(a < b)` is `b <= a`).
  switch (op) {
    case BinaryOp::kLt:
      return when_true ? Fused{Op::JLT_I, false} : Fused{Op::JLE_I, true};
    case BinaryOp::kLe:
      return when_true ? Fused{Op::JLE_I, false} : Fused{Op::JLT_I, true};
    case BinaryOp::kGt:
      return when_true ? Fused{Op::JLT_I, true} : Fused{Op::JLE_I, false};
    case BinaryOp::kGe:
      return when_true ? Fused{Op::JLE_I, true} : Fused{Op::JLT_I, false};
    case BinaryOp::kEq:
      return Fused{when_true ? Op::JEQ_I : Op::JNE_I, false};
    case BinaryOp::kNe:
      return Fused{when_true ? Op::JNE_I : Op::JEQ_I, false};
    default:
      return std::nullopt;
  }
}

// The test of an Int against a constant on its right, jumping when
// `R OP k` is jump_if: its opcode.
Op ConstantBranch(lang::BinaryOp op, bool jump_if) {
  using lang::BinaryOp;
  switch (op) {
    case BinaryOp::kLt:
      return jump_if ? Op::JLTK_I : Op::JGEK_I;
    case BinaryOp::kLe:
      return jump_if ? Op::JLEK_I : Op::JGTK_I;
    case BinaryOp::kGt:
      return jump_if ? Op::JGTK_I : Op::JLEK_I;
    case BinaryOp::kGe:
      return jump_if ? Op::JGEK_I : Op::JLTK_I;
    case BinaryOp::kEq:
      return jump_if ? Op::JEQK_I : Op::JNEK_I;
    default:  // kNe
      return jump_if ? Op::JNEK_I : Op::JEQK_I;
  }
}

// `k OP x` as `x OP' k`.
lang::BinaryOp Mirrored(lang::BinaryOp op) {
  using lang::BinaryOp;
  switch (op) {
    case BinaryOp::kLt:
      return BinaryOp::kGt;
    case BinaryOp::kLe:
      return BinaryOp::kGe;
    case BinaryOp::kGt:
      return BinaryOp::kLt;
    case BinaryOp::kGe:
      return BinaryOp::kLe;
    default:  // == and != are symmetric
      return op;
  }
}

}  // namespace

void FunctionCompiler::Branch(const Expr& e, bool jump_if, Label& label) {
  if (e.kind == Expr::Kind::kUnary && e.unary_op == lang::UnaryOp::kNot) {
    return Branch(*e.lhs, !jump_if, label);
  }
  if (e.kind == Expr::Kind::kBool) {
    if (e.bool_value == jump_if) EmitJump(Op::JMP, 0, 0, label);
    return;
  }
  if (e.kind == Expr::Kind::kBinary) {
    lang::BinaryOp op = e.binary_op;
    if (op == lang::BinaryOp::kAnd || op == lang::BinaryOp::kOr) {
      // Jumping when `a && b` is false, or when `a || b` is true: either
      // operand decides; otherwise the first operand skips the second.
      bool decisive = op == lang::BinaryOp::kOr;
      if (jump_if == decisive) {
        Branch(*e.lhs, jump_if, label);
        Branch(*e.rhs, jump_if, label);
      } else {
        Label skip;
        Branch(*e.lhs, decisive, skip);
        Branch(*e.rhs, jump_if, label);
        Bind(skip);
      }
      return;
    }
    const Type* operand = T(e.lhs->type);
    types::Kind k = types::Resolve(operand)->kind;
    bool scalar = k == types::Kind::kInt || k == types::Kind::kBool ||
                  (k == types::Kind::kTuple && types::Resolve(operand)->args.empty());
    std::optional<Fused> fused = FusedFor(op, jump_if);
    // An Int against a small constant on either side: one instruction that
    // holds the constant (a literal has no effect to keep in order).
    if (k == types::Kind::kInt && fused) {
      const std::optional<int64_t> right = SmallIntConstant(*e.rhs);
      const std::optional<int64_t> left = right ? std::nullopt : SmallIntConstant(*e.lhs);
      if (right || left) {
        int mark = top_;
        Operand x = Eval(right ? *e.lhs : *e.rhs, true);
        const int64_t constant = right ? *right : *left;
        EmitJump(ConstantBranch(right ? op : Mirrored(op), jump_if), x.reg,
                 static_cast<uint16_t>(static_cast<int16_t>(constant)), label);
        SetTop(mark);
        return;
      }
    }
    if (scalar && fused) {
      int mark = top_;
      Operand a = Eval(*e.lhs, true);
      Operand b = Eval(*e.rhs, true);
      if (fused->swap) std::swap(a, b);
      EmitJump(fused->op, a.reg, b.reg, label);
      SetTop(mark);
      return;
    }
  }
  // A Bool variable is tested in its own register.
  int mark = top_;
  Operand t = Eval(e, true);
  EmitJump(jump_if ? Op::JMPIF : Op::JMPIFNOT, t.reg, 0, label);
  SetTop(mark);
}

void FunctionCompiler::Lambda(const Expr& e, int dst) {
  std::vector<std::pair<VarKey, bool>> captures;
  std::vector<const Type*> capture_types;
  absl::flat_hash_set<VarKey> seen;
  for (const Expr* use : FreeVariables(e)) {
    VarKey key = KeyOfUse(*use);
    if (!vars_.contains(key)) key = VarKey(use->binding, "");
    if (seen.insert(key).second) {
      captures.emplace_back(key, Ref(use->type));
      capture_types.push_back(T(use->type));
    }
  }
  int index = pc_.NewFunctionSlot();
  {
    FunctionCompiler body(pc_, subst_, "lambda");
    body.CompileFunction(e.params, *e.body, captures, /*uses_rng=*/false, capture_types);
    pc_.SetFunction(index, body.Finish());
  }
  if (captures.empty()) {
    Emit(Instr::ABC(Op::LOADFN, dst, static_cast<uint16_t>(index), 0));
    return;
  }
  int mark = top_;
  std::vector<bool> refs;
  for (const auto& [key, ref] : captures) refs.push_back(ref);
  int base = AllocWindow(refs);
  for (size_t i = 0; i < captures.size(); ++i) {
    auto it = vars_.find(captures[i].first);
    int src = it != vars_.end() ? it->second : -1;
    if (src < 0) {
      pc_.Unsupported("this capture", e.span);
      continue;
    }
    int to = base + static_cast<int>(i);
    if (captures[i].second) {
      Emit(Instr::ABC(Op::COPY, to, src, 0));
    } else {
      Move(to, src, false);
    }
  }
  Emit(Instr::ABC(Op::CLOSURE, base, static_cast<uint16_t>(index),
                  static_cast<uint16_t>(captures.size())),
       e.span);
  Move(dst, base, true);
  SetTop(mark);
}

}  // namespace alea::compiler
