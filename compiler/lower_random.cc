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

}  // namespace

int FunctionCompiler::SiteState(const Expr& site, Span at, int dst) {
  int r = dst >= 0 ? dst : Alloc(true);
  auto it = sites_.find(&site);
  if (ambient_ < 0 || it == sites_.end()) {
    // The type checker reports sites outside an ambient scope; keep going.
    pc_.Unsupported("a random site outside `uses rng`", at);
    return r;
  }
  if (it->second > UINT16_MAX) {
    pc_.Error(lang::DiagId::kFunctionTooLarge, at, fn_.name, "more than 65,536 random sites");
    return r;
  }
  Emit(Instr::ABC(Op::SITE, r, ambient_, static_cast<uint16_t>(it->second)), at);
  return r;
}

void FunctionCompiler::With(const Expr& e, Dest dest) {
  int r = Target(dest, e.type);
  int mark = top_;
  int state = Alloc(true);
  IntoReg(*e.lhs, state);
  Emit(Instr::ABC(Op::CONSUME, state, 0, 0), e.span);
  int saved = ambient_;
  ambient_ = state;
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
