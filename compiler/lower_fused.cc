// Fused elementwise chains (issue 6; docs/decisions.md "Fusion"). The root
// of a tree of f32 elementwise ops such as `relu(x * w + b)` compiles to
//
//   <leaves into registers, in evaluation order>
//   FUSED_T  dst, program      ; one pass when the JIT can, then the JMP
//   JMP      end
//   <the unfused ops on the same registers>   ; the meaning, and the fallback
//   end:
//
// so fusion can never change a result, an error or its location: FUSED_T
// declines whatever it does not handle and the block runs. Fusing defers the
// ops after the leaves, so a leaf after the first must be one whose
// evaluation cannot be observed (a name or a literal): an op that fails
// before a later leaf prints would otherwise print nothing.
#include "absl/types/span.h"
#include "compiler/internal.h"
#include "vm/kernels/elementwise.h"

namespace alea::compiler {

namespace types = lang::types;
using lang::BuiltinId;
using vm::Instr;
using vm::Op;

namespace {

static_assert(static_cast<int>(Op::GE_T) - static_cast<int>(Op::ADD_T) ==
                  static_cast<int>(vm::kernels::BinaryOp::kGe),
              "typed opcodes follow elementwise_ops.def");
static_assert(static_cast<int>(Op::RELU_T) - static_cast<int>(Op::NEG_T) ==
                  static_cast<int>(vm::kernels::UnaryOp::kRelu),
              "typed opcodes follow elementwise_ops.def");

bool IsTensorF32(const Type* t) {
  t = types::Resolve(t);
  if (t->kind != types::Kind::kTensor) return false;
  const Type* d = types::Resolve(t->args[0]);
  return d->kind == types::Kind::kDTypeConst && d->dtype == types::DType::kF32;
}

// A leaf whose evaluation nothing can observe, so it may move after ops.
bool Unobservable(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kName:
    case Expr::Kind::kInt:
    case Expr::Kind::kFloat:
      return true;
    case Expr::Kind::kUnary:  // `-1.0`: a folded literal
      return e.unary_op == lang::UnaryOp::kNeg &&
             (e.lhs->kind == Expr::Kind::kInt || e.lhs->kind == Expr::Kind::kFloat);
    default:
      return false;
  }
}

// The operands of a fusable node, in evaluation order.
std::vector<const Expr*> OperandsOf(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kBinary:
      return {e.lhs.get(), e.rhs.get()};
    case Expr::Kind::kUnary:
      return {e.lhs.get()};
    default: {
      std::vector<const Expr*> args;
      for (const lang::Arg& a : e.args) args.push_back(a.value.get());
      return args;
    }
  }
}

// A tree being collected: leaves and nodes numbered separately, joined at
// the end (leaves first, as FusedProgram wants).
struct Tree {
  struct Ref {
    bool node;
    uint16_t index;
  };
  struct Node {
    vm::FusedNode op;  // a, b filled from refs at the end
    Ref a, b;
    BuiltinId id;
    const Expr* expr;
  };
  std::vector<const Expr*> leaves;
  std::vector<Node> nodes;
  bool ok = true;
};

}  // namespace

std::optional<BuiltinId> FunctionCompiler::FusableOp(const Expr& e) {
  if (!IsTensorF32(T(e.type))) return std::nullopt;
  std::optional<BuiltinId> id;
  switch (e.kind) {
    case Expr::Kind::kBinary:
      switch (e.binary_op) {
        case lang::BinaryOp::kAdd:
        case lang::BinaryOp::kSub:
        case lang::BinaryOp::kMul:
        case lang::BinaryOp::kDiv:
          id = Resolve(e, lang::Spelling(e.binary_op), nullptr);
          break;
        default:
          return std::nullopt;
      }
      break;
    case Expr::Kind::kUnary:
      if (e.unary_op != lang::UnaryOp::kNeg) return std::nullopt;
      id = Resolve(e, "u-", nullptr);
      break;
    case Expr::Kind::kCall: {
      const Expr& callee = *e.lhs;
      if (callee.kind != Expr::Kind::kName || callee.name_kind != lang::NameKind::kBuiltin ||
          e.ambient_site) {
        return std::nullopt;
      }
      for (const lang::Arg& a : e.args) {
        if (!a.name.empty()) return std::nullopt;  // keep argument order = parameter order
      }
      std::vector<int> param_of_arg;
      id = Resolve(e, callee.name, &param_of_arg);
      for (size_t i = 0; i < param_of_arg.size(); ++i) {
        if (param_of_arg[i] != static_cast<int>(i)) return std::nullopt;
      }
      break;
    }
    default:
      return std::nullopt;
  }
  if (!id || !ElementwiseNode(*id)) return std::nullopt;
  return id;
}

bool FunctionCompiler::TryFused(const Expr& root, Dest dest) {
  Tree tree;
  bool has_scalar = false;
  // Post-order, operands left to right: the unfused evaluation order.
  // Collection stops at the program limits (vm::jit::Jit::kMaxFused*), so a
  // long chain that cannot fuse costs O(limit) per node, not O(chain).
  constexpr size_t kMaxLeaves = 16, kMaxNodes = 64;
  int depth = 0;
  auto collect = [&](auto& self, const Expr& e) -> Tree::Ref {
    if (!tree.ok || ++depth + tree.nodes.size() > kMaxNodes || tree.leaves.size() >= kMaxLeaves) {
      tree.ok = false;
      return {};
    }
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth};
    std::optional<BuiltinId> id = FusableOp(e);
    if (!id) {
      const types::Kind kind = types::Resolve(T(e.type))->kind;
      if (kind != types::Kind::kTensor) has_scalar = true;
      if (!tree.leaves.empty() && !Unobservable(e)) tree.ok = false;
      tree.leaves.push_back(&e);
      return {false, static_cast<uint16_t>(tree.leaves.size() - 1)};
    }
    std::vector<const Expr*> operands = OperandsOf(e);
    Tree::Node node{*ElementwiseNode(*id), {}, {}, *id, &e};
    node.a = self(self, *operands[0]);
    if (!node.op.unary) node.b = self(self, *operands[1]);
    tree.nodes.push_back(node);
    return {true, static_cast<uint16_t>(tree.nodes.size() - 1)};
  };
  if (!FusableOp(root)) return false;
  collect(collect, root);
  // One node without a scalar gains nothing over its typed opcode.
  if (!tree.ok || (tree.nodes.size() < 2 && !has_scalar)) {
    return false;
  }

  int r = Target(dest, root.type);
  int mark = top_;
  // The leaves, as the unfused code would evaluate them.
  vm::FusedProgram program;
  std::vector<Operand> operands;
  for (size_t l = 0; l < tree.leaves.size(); ++l) {
    const Expr& leaf = *tree.leaves[l];
    const absl::Span<const Expr* const> later = absl::MakeConstSpan(tree.leaves).subspan(l + 1);
    const bool borrow = SafeToBorrow(leaf, later);
    const types::Kind kind = types::Resolve(T(leaf.type))->kind;
    Operand o = kind == types::Kind::kTensor ? EvalConsumable(leaf, borrow) : Eval(leaf, borrow);
    operands.push_back(o);
    vm::FusedLeaf fl;
    fl.reg = static_cast<uint16_t>(o.reg);
    fl.kind = kind == types::Kind::kTensor  ? vm::FusedLeaf::Kind::kTensor
              : kind == types::Kind::kFloat ? vm::FusedLeaf::Kind::kFloat
                                            : vm::FusedLeaf::Kind::kInt;
    fl.moved = kind == types::Kind::kTensor && o.owned && IsRefReg(o.reg);
    program.leaves.push_back(fl);
  }
  const uint16_t leaves = static_cast<uint16_t>(tree.leaves.size());
  auto number = [&](Tree::Ref ref) {
    return static_cast<uint16_t>(ref.node ? leaves + ref.index : ref.index);
  };
  for (const Tree::Node& node : tree.nodes) {
    vm::FusedNode n = node.op;
    n.a = number(node.a);
    n.b = node.op.unary ? 0 : number(node.b);
    program.nodes.push_back(n);
  }
  const size_t index = pc_.module_.fused.size();
  pc_.module_.fused.push_back(std::move(program));
  Emit(Instr::ABC(Op::FUSED_T, static_cast<uint16_t>(r), static_cast<uint16_t>(index), 0),
       root.span);
  Label end;
  EmitJump(Op::JMP, 0, 0, end, root.span);

  // The unfused block: each node as its own typed opcode, into temporaries
  // that the next node consumes, the last into r.
  std::vector<int> node_regs(tree.nodes.size(), -1);
  auto reg_of = [&](Tree::Ref ref) {
    return ref.node ? node_regs[ref.index] : operands[ref.index].reg;
  };
  auto owned_of = [&](Tree::Ref ref) {
    return ref.node || (operands[ref.index].owned && IsRefReg(operands[ref.index].reg));
  };
  for (size_t j = 0; j < tree.nodes.size(); ++j) {
    const Tree::Node& node = tree.nodes[j];
    const int dst = j + 1 == tree.nodes.size() ? r : Alloc(true);
    node_regs[j] = dst;
    std::vector<int> args = {reg_of(node.a)};
    uint32_t owned = owned_of(node.a) ? 1u : 0u;
    if (!node.op.unary) {
      args.push_back(reg_of(node.b));
      if (owned_of(node.b)) owned |= 2u;
    }
    uint32_t consumed = 0;
    ApplyBuiltin(node.id, T(node.expr->site_type), args, dst, node.expr->span, owned, &consumed);
    // An elementwise op consumes every owned tensor operand; a node's
    // temporary that it did not would leak.
    if (node.a.node && (consumed & 1) == 0) Release(reg_of(node.a));
    if (!node.op.unary && node.b.node && (consumed & 2) == 0) Release(reg_of(node.b));
  }
  Bind(end);
  // Leaves that were borrowed or are scalars: as after an unfused op.
  for (size_t l = operands.size(); l-- > 0;) {
    if (!pc_.module_.fused[index].leaves[l].moved) Free(operands[l]);
  }
  Done(dest, r);
  SetTop(mark);
  return true;
}

}  // namespace alea::compiler
