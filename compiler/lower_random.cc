// Random states: the key/split/... builtins and the samplers as their own
// opcodes (vm/opcodes.def "Random states"), and the ambient stream of
// `uses rng` functions and `with` blocks. An ambient stream is a register
// (a `uses rng` function's extra last parameter, or the state a `with`
// consumed); site i of its scope (lang/rng_sites.h) gets SITE(ambient, i),
// which is fold_in(k, n + i) for an ambient (k, n): what threading `next`
// through the scope would give, without the chain.
#include "compiler/internal.h"

namespace alea::compiler {

using lang::BuiltinId;
using vm::Instr;
using vm::Op;

namespace {

std::optional<Op> SamplerOp(BuiltinId id) {
  switch (id) {
    case BuiltinId::kBits:
      return Op::BITS;
    case BuiltinId::kUniform:
      return Op::UNIFORM;
    case BuiltinId::kNormal:
      return Op::NORMAL;
    case BuiltinId::kBernoulli:
      return Op::BERNOULLI;
    case BuiltinId::kRandint:
      return Op::RANDINT;
    case BuiltinId::kExponential:
      return Op::EXPONENTIAL;
    case BuiltinId::kCategorical:
      return Op::CATEGORICAL;
    case BuiltinId::kPermutation:
      return Op::PERMUTATION;
    case BuiltinId::kDropout:
      return Op::DROPOUT;
    case BuiltinId::kUniformScalar:
      return Op::UNIFORM_S;
    case BuiltinId::kNormalScalar:
      return Op::NORMAL_S;
    case BuiltinId::kBernoulliScalar:
      return Op::BERNOULLI_S;
    case BuiltinId::kRandintScalar:
      return Op::RANDINT_S;
    case BuiltinId::kExponentialScalar:
      return Op::EXPONENTIAL_S;
    default:
      return std::nullopt;
  }
}

// A scalar sampler's opcode (its state unboxed).
std::optional<Op> ScalarSamplerOp(BuiltinId id) {
  switch (id) {
    case BuiltinId::kUniformScalar:
      return Op::UNIFORM_S;
    case BuiltinId::kNormalScalar:
      return Op::NORMAL_S;
    case BuiltinId::kBernoulliScalar:
      return Op::BERNOULLI_S;
    case BuiltinId::kRandintScalar:
      return Op::RANDINT_S;
    case BuiltinId::kExponentialScalar:
      return Op::EXPONENTIAL_S;
    default:
      return std::nullopt;
  }
}

}  // namespace

int FunctionCompiler::UnboxedPair(const Expr& e) {
  if (e.kind != Expr::Kind::kName || e.name_kind != lang::NameKind::kLocal ||
      e.binding == nullptr) {
    return -1;
  }
  auto it = pairs_.find(e.binding);
  return it == pairs_.end() ? -1 : it->second;
}

void FunctionCompiler::TakeBox(const Expr& e, Op consumer, Span at) {
  for (size_t i = 0; i < unboxed_params_.size(); ++i) {
    if (unboxed_params_[i] != nullptr && unboxed_params_[i] == e.binding) {
      Emit(Instr::ABC(Op::TAKE, static_cast<uint16_t>(i), static_cast<uint16_t>(consumer), 0), at);
    }
  }
}

void FunctionCompiler::StateWords(const Expr* site, const Expr* state, const Operand* boxed,
                                  int dst, Op consumer, Span at) {
  if (site != nullptr) {
    auto it = sites_.find(site);
    if (ambient_ < 0 || it == sites_.end()) {
      pc_.Unsupported("a random site outside `uses rng`", at);
      return;
    }
    if (it->second > UINT16_MAX) {
      pc_.Error(lang::DiagId::kFunctionTooLarge, at, fn_.name, "more than 65,536 random sites");
      return;
    }
    Emit(Instr::ABC(Op::SITE, dst, ambient_, static_cast<uint16_t>(it->second)), at);
    return;
  }
  if (boxed != nullptr) {
    Emit(Instr::ABC(Op::UNBOX, dst, boxed->reg, static_cast<uint16_t>(consumer)), at);
    return;
  }
  const int pair = UnboxedPair(*state);
  TakeBox(*state, consumer, at);
  if (pair != dst) {
    Move(dst, pair, false);
    Move(dst + 1, pair + 1, false);
  }
}

bool FunctionCompiler::ScalarDraw(const Expr& e, BuiltinId id, const std::vector<const Expr*>& args,
                                  const std::vector<int>& param_of_arg, Dest dest) {
  const std::optional<Op> op = ScalarSamplerOp(id);
  if (!op) return false;
  const lang::Builtin& builtin = lang::GetBuiltin(id);
  const int r = Target(dest, e.type);
  const int mark = top_;
  // The arguments in source order: a boxed state first (consumed only at
  // the draw, as the boxed samplers do, after the other arguments ran),
  // the parameters into the window after the two state words.
  const Expr* state = e.ambient_site ? nullptr : StateArgument(e, param_of_arg);
  std::optional<Operand> boxed;
  if (state != nullptr && UnboxedPair(*state) < 0) {
    std::vector<const Expr*> later;
    for (const Expr* a : args) {
      if (a != state) later.push_back(a);
    }
    boxed = Eval(*state, SafeToBorrow(*state, later));
  }
  std::vector<bool> classes(2 + builtin.params.size() - 1, false);
  const int window = AllocWindow(classes);
  std::vector<bool> given(builtin.params.size(), false);
  for (size_t i = 0; i < args.size(); ++i) {
    const int p = param_of_arg[i];
    if (p == 0) continue;
    given[p] = true;
    int m = top_;
    IntoReg(*args[i], window + 1 + p);
    SetTop(m);
  }
  for (size_t p = 1; p < builtin.params.size(); ++p) {
    if (given[p]) continue;
    int m = top_;
    const int d = LoadDefault(builtin.params[p]);
    if (d >= 0) Move(window + 1 + static_cast<int>(p), d, false);
    SetTop(m);
  }
  StateWords(e.ambient_site ? &e : nullptr, state, boxed ? &*boxed : nullptr, window, *op, e.span);
  if (boxed) Free(*boxed);
  Emit(Instr::ABC(*op, r, window, static_cast<uint16_t>(classes.size())), e.span);
  SetTop(mark);
  Done(dest, r);
  return true;
}

bool FunctionCompiler::UnboxedLet(const Pattern& p, const Expr& value) {
  std::vector<int> map;
  if (value.kind != Expr::Kind::kCall || value.builtin < 0) return false;
  const BuiltinId called = static_cast<BuiltinId>(value.builtin);
  if (p.kind == Pattern::Kind::kVar && unboxed_vars_.contains(&p) && called == BuiltinId::kKey &&
      !value.args.empty()) {
    // key(n)'s words are n itself (its high and low halves), counter 0.
    const int pair = AllocWindow({false, false});
    IntoReg(*value.args[0].value, pair);
    LoadInt(pair + 1, 0);
    pairs_[&p] = pair;
    return true;
  }
  const std::optional<BuiltinId> id = StateBuiltin(value, &map);
  if (!id) return false;
  const Expr* state = StateArgument(value, map);
  if (state == nullptr) return false;
  const bool unboxed_input = UnboxedPair(*state) >= 0;
  if (p.kind == Pattern::Kind::kVar && *id == BuiltinId::kFoldIn && unboxed_vars_.contains(&p)) {
    const Expr* data = nullptr;
    for (size_t i = 0; i < map.size(); ++i) {
      if (map[i] == 1) data = value.args[i].value.get();
    }
    if (data == nullptr) return false;
    // The state (when boxed) and the data in source order, the state
    // consumed at the fold, after the data ran (as FOLDIN does).
    std::optional<Operand> boxed;
    if (!unboxed_input) boxed = Eval(*state, SafeToBorrow(*state, {data}));
    const int pair = AllocWindow({false, false});
    const int mark = top_;
    const int input = AllocWindow({false, false});
    const int d = Alloc(false);
    IntoReg(*data, d);
    StateWords(nullptr, state, boxed ? &*boxed : nullptr, input, Op::FOLDIN, value.span);
    if (boxed) Free(*boxed);
    Emit(Instr::ABC(Op::FOLDIN_U, pair, input, d), value.span);
    SetTop(mark);
    pairs_[&p] = pair;
    return true;
  }
  const bool splits = *id == BuiltinId::kSplit || *id == BuiltinId::kNext;
  if (!splits || p.kind != Pattern::Kind::kTuple || p.elements.size() != 2) return false;
  bool any = unboxed_input;
  for (const lang::PatternPtr& part : p.elements) any |= unboxed_vars_.contains(part.get());
  if (!any) return false;
  const Op consumer = *id == BuiltinId::kSplit ? Op::SPLIT : Op::NEXT;
  std::optional<Operand> boxed;
  if (!unboxed_input) boxed = Eval(*state, true);
  const int quad = AllocWindow({false, false, false, false});
  StateWords(nullptr, state, boxed ? &*boxed : nullptr, quad, consumer, value.span);
  if (boxed) Free(*boxed);
  Emit(Instr::ABC(*id == BuiltinId::kSplit ? Op::SPLIT_U : Op::NEXT_U, quad, quad, 0), value.span);
  for (size_t i = 0; i < 2; ++i) {
    const Pattern& part = *p.elements[i];
    if (part.kind != Pattern::Kind::kVar) continue;
    const int words = quad + 2 * static_cast<int>(i);
    if (unboxed_vars_.contains(&part)) {
      pairs_[&part] = words;
    } else {
      const int r = Alloc(true);
      Emit(Instr::ABC(Op::BOX, r, words, static_cast<uint16_t>(consumer)), value.span);
      vars_[VarKey(&part, "")] = r;
    }
  }
  return true;
}

int FunctionCompiler::SiteWords(const Expr& site, Span at) {
  const int pair = AllocWindow({false, false});
  StateWords(&site, nullptr, nullptr, pair, Op::SITE, at);
  return pair;
}

int FunctionCompiler::SiteState(const Expr& site, Span at, int dst) {
  // A box for the consumers that take one (a tensor sampler, `rng()`, a
  // call of another `uses rng` function): made from the site's words.
  int r = dst >= 0 ? dst : Alloc(true);
  const int mark = top_;
  const int pair = SiteWords(site, at);
  Emit(Instr::ABC(Op::BOX, r, pair, static_cast<uint16_t>(Op::SITE)), at);
  SetTop(mark);
  return r;
}

void FunctionCompiler::With(const Expr& e, Dest dest) {
  int r = Target(dest, e.type);
  int mark = top_;
  int state = Alloc(true);
  IntoReg(*e.lhs, state);
  Emit(Instr::ABC(Op::CONSUME, state, 0, 0), e.span);
  // The block's sites read the stream's words (the box stays, released after).
  const int words = AllocWindow({false, false});
  Emit(Instr::ABC(Op::PEEK, words, state, 0), e.span);
  int saved = ambient_;
  ambient_ = words;
  if (dest.tail) {
    Tail(*e.body);
  } else {
    IntoReg(*e.body, r);
    Release(state);
  }
  ambient_ = saved;
  SetTop(mark);
}

bool FunctionCompiler::ApplyRandomBuiltin(BuiltinId id, const std::vector<int>& args, int dst,
                                          Span at) {
  auto arg = [&](size_t i) { return i < args.size() ? args[i] : -1; };
  switch (id) {
    case BuiltinId::kKey:
      Emit(Instr::ABC(Op::KEY, dst, arg(0), 0), at);
      return true;
    case BuiltinId::kSplit:
      Emit(Instr::ABC(Op::SPLIT, dst, arg(0), 0), at);
      return true;
    case BuiltinId::kNext:
      Emit(Instr::ABC(Op::NEXT, dst, arg(0), 0), at);
      return true;
    case BuiltinId::kSplitN:
      Emit(Instr::ABC(Op::SPLITN, dst, arg(0), arg(1)), at);
      return true;
    case BuiltinId::kFoldIn:
      Emit(Instr::ABC(Op::FOLDIN, dst, arg(0), arg(1)), at);
      return true;
    default:
      break;
  }
  std::optional<Op> op = SamplerOp(id);
  if (!op) return false;
  // The window: the state and the other arguments, borrowed (references
  // copied in and released after, as for natives).
  int mark = top_;
  std::vector<NativeArg> window;
  for (int a : args) window.push_back(NativeArg::Reg(a));
  int base = BorrowedWindow({}, window);
  Emit(Instr::ABC(*op, dst, base, static_cast<uint16_t>(args.size())), at);
  ReleaseRange(base, base + static_cast<int>(args.size()), -1);
  SetTop(mark);
  return true;
}

}  // namespace alea::compiler
