// Fused elementwise chains (docs/decisions.md "The JIT and fusion"). The root
// of a tree of f32 elementwise ops, comparisons and `where`, such as
// `relu(x * w + b)` or `where(x > 0.0, x, x * 0.01)`, compiles to
//
//   <leaves into registers, in evaluation order>
//   FUSED_T  dst, program      ; one pass when the JIT can, then the JMP
//   JMP      end
//   <the unfused ops on the same registers>   ; the meaning, and the fallback
//   end:
//   <release the leaves the unfused ops would not have consumed>
//
// so fusion can never change a result, an error or its location: FUSED_T
// declines whatever it does not handle and the block runs. An f32
// `transpose(x)` leaf is x itself, marked transposed: the pass reads it in
// place, and the block starts with the transpose the pass skipped. Fusing defers the
// ops after the leaves, so a leaf after the first must be one whose
// evaluation cannot be observed (a name or a literal): an op that fails
// before a later leaf prints would otherwise print nothing.
//
// Ownership follows the unfused ops: an elementwise op or comparison
// consumes an owned tensor operand (its typed opcode takes it by move),
// `where` (the t_where native) only borrows. So a leaf is `moved` exactly
// when its parent consumes and it is owned; every other owned leaf is
// released after the block, on both paths.
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

// The `where` overloads that can give a Tensor(f32) (kWhereInts gives i32).
bool IsWhere(BuiltinId id) {
  switch (id) {
    case BuiltinId::kWhere:
    case BuiltinId::kWhereTensorInt:
    case BuiltinId::kWhereIntTensor:
    case BuiltinId::kWhereTensorFloat:
    case BuiltinId::kWhereFloatTensor:
    case BuiltinId::kWhereFloats:
      return true;
    default:
      return false;
  }
}

std::optional<vm::kernels::BinaryOp> ComparisonOf(lang::BinaryOp op) {
  switch (op) {
    case lang::BinaryOp::kEq:
      return vm::kernels::BinaryOp::kEq;
    case lang::BinaryOp::kNe:
      return vm::kernels::BinaryOp::kNe;
    case lang::BinaryOp::kLt:
      return vm::kernels::BinaryOp::kLt;
    case lang::BinaryOp::kLe:
      return vm::kernels::BinaryOp::kLe;
    case lang::BinaryOp::kGt:
      return vm::kernels::BinaryOp::kGt;
    case lang::BinaryOp::kGe:
      return vm::kernels::BinaryOp::kGe;
    default:
      return std::nullopt;
  }
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
  struct Leaf {
    const Expr* expr;
    bool mask;      // a Tensor(bool) in a `where`'s mask position
    bool consumed;  // its parent's unfused op takes an owned operand by move
    // `transpose(expr)` (vm::FusedLeaf::transposed): the call, for the
    // unfused block's transpose; else null.
    const Expr* transpose;
  };
  struct Node {
    vm::FusedNode op;  // a, b, c filled from refs at the end
    Ref operands[3];   // `square`: twice the same
    int arity;
    bool consumes;  // an elementwise op or comparison (not `where`)
    BuiltinId id;   // the builtin of the unfused code (a part, for `clip`)
    const Expr* expr;
    const Type* site;  // id's site type
  };
  std::vector<Leaf> leaves;
  std::vector<Node> nodes;
  bool ok = true;
  bool has_scalar = false;
  bool has_where = false;
  bool has_transposed = false;
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
  if (!id ||
      (!ElementwiseNode(*id) && !IsWhere(*id) && *id != BuiltinId::kSquare && !IsClip(*id))) {
    return std::nullopt;
  }
  return id;
}

bool FunctionCompiler::TryFused(const Expr& root, Dest dest) {
  if (!FusableOp(root)) return false;
  Tree tree;
  // A comparison of f32 operands (a tensor and a tensor or a scalar): the
  // builtin, when `e` can be a mask node.
  auto fusable_comparison = [&](const Expr& e) -> std::optional<BuiltinId> {
    if (e.kind != Expr::Kind::kBinary || !ComparisonOf(e.binary_op)) return std::nullopt;
    bool tensor = false;
    for (const Expr* operand : {e.lhs.get(), e.rhs.get()}) {
      const Type* t = types::Resolve(T(operand->type));
      if (IsTensorF32(t)) {
        tensor = true;
      } else if (t->kind != types::Kind::kInt && t->kind != types::Kind::kFloat) {
        return std::nullopt;  // a Tensor of another dtype
      }
    }
    if (!tensor) return std::nullopt;
    std::optional<BuiltinId> id = Resolve(e, lang::Spelling(e.binary_op), nullptr);
    if (!id || !ConsumesTensorOperands(*id)) return std::nullopt;
    return id;
  };
  // Post-order, operands left to right: the unfused evaluation order. `mask`:
  // e is a `where`'s first operand. `consumed`: e's parent consumes an owned
  // operand. Collection stops at the program limits (vm::jit::Jit::kMaxFused*),
  // so a long chain that cannot fuse costs O(limit) per node, not O(chain).
  constexpr size_t kMaxLeaves = 16, kMaxNodes = 64;
  int depth = 0;
  auto collect = [&](auto& self, const Expr& e, bool mask, bool consumed) -> Tree::Ref {
    if (!tree.ok || ++depth + tree.nodes.size() > kMaxNodes || tree.leaves.size() >= kMaxLeaves) {
      tree.ok = false;
      return {};
    }
    struct Leave {
      int& depth;
      ~Leave() { --depth; }
    } leave{depth};
    Tree::Node node{};
    std::optional<BuiltinId> id = mask ? fusable_comparison(e) : FusableOp(e);
    if (!id) {
      const types::Kind kind = types::Resolve(T(e.type))->kind;
      if (kind != types::Kind::kTensor) {
        if (mask) tree.ok = false;  // not reached: a mask is a Tensor(bool)
        tree.has_scalar = true;
      }
      // An f32 `transpose(x)` is the leaf x, read through reversed axes in
      // place by the fused pass rather than copied first.
      const Expr* inner = mask ? nullptr : TransposeArgument(e);
      if (inner != nullptr && !IsTensorF32(T(inner->type))) inner = nullptr;
      const Expr& leaf = inner != nullptr ? *inner : e;
      if (!tree.leaves.empty() && !Unobservable(leaf)) tree.ok = false;
      tree.leaves.push_back({&leaf, mask, consumed, inner != nullptr ? &e : nullptr});
      tree.has_transposed = tree.has_transposed || inner != nullptr;
      return {false, static_cast<uint16_t>(tree.leaves.size() - 1)};
    }
    node.id = *id;
    node.expr = &e;
    node.site = T(e.site_type);
    std::vector<const Expr*> operands = OperandsOf(e);
    if (*id == BuiltinId::kSquare || IsClip(*id)) {
      // Compositions: the operands once each, in evaluation order, then
      // square's one MUL of its operand by itself, or clip's two parts.
      std::vector<Tree::Ref> refs;
      for (const Expr* operand : operands) refs.push_back(self(self, *operand, false, true));
      if (!tree.ok) return {};
      node.consumes = true;
      node.arity = 2;
      if (*id == BuiltinId::kSquare) {
        node.op = *ElementwiseNode(BuiltinId::kMulTensor);
        node.operands[0] = node.operands[1] = refs[0];
        tree.nodes.push_back(node);
        return {true, static_cast<uint16_t>(tree.nodes.size() - 1)};
      }
      const std::vector<ClipPart> parts = ClipParts(node.site);
      Tree::Ref last = refs[0];
      for (size_t p = 0; p < parts.size(); ++p) {
        node.id = parts[p].id;
        node.site = parts[p].site;
        node.op = *ElementwiseNode(parts[p].id);
        node.operands[0] = refs[p + 1];  // the bound first, as ClipParts says
        node.operands[1] = last;
        tree.nodes.push_back(node);
        last = {true, static_cast<uint16_t>(tree.nodes.size() - 1)};
      }
      return last;
    }
    if (mask) {
      node.op.op = static_cast<uint8_t>(*ComparisonOf(e.binary_op));
      node.arity = 2;
      node.consumes = true;
    } else if (IsWhere(*id)) {
      node.op.where = true;
      node.arity = 3;
      node.consumes = false;
      tree.has_where = true;
    } else {
      node.op = *ElementwiseNode(*id);
      node.arity = node.op.unary ? 1 : 2;
      node.consumes = true;
    }
    if (operands.size() != static_cast<size_t>(node.arity)) {
      tree.ok = false;  // not reached: the builtins' arities
      return {};
    }
    for (int k = 0; k < node.arity; ++k) {
      node.operands[k] = self(self, *operands[k], node.op.where && k == 0, node.consumes);
    }
    tree.nodes.push_back(node);
    return {true, static_cast<uint16_t>(tree.nodes.size() - 1)};
  };
  collect(collect, root, false, false);
  if (tree.nodes.size() > kMaxNodes) tree.ok = false;  // a `clip` adds two at once
  // One elementwise node without a scalar gains nothing over its typed
  // opcode; `where` has no other JIT path, nor a transposed read.
  if (!tree.ok ||
      (tree.nodes.size() < 2 && !tree.has_scalar && !tree.has_where && !tree.has_transposed)) {
    return false;
  }

  int r = Target(dest, root.type);
  int mark = top_;
  // The leaves, as the unfused code would evaluate them.
  vm::FusedProgram program;
  std::vector<Operand> operands;
  for (size_t l = 0; l < tree.leaves.size(); ++l) {
    const Tree::Leaf& leaf = tree.leaves[l];
    const Expr& e = *leaf.expr;
    std::vector<const Expr*> later;
    for (size_t k = l + 1; k < tree.leaves.size(); ++k) later.push_back(tree.leaves[k].expr);
    const bool borrow = SafeToBorrow(e, later);
    const types::Kind kind = types::Resolve(T(e.type))->kind;
    const bool tensor = kind == types::Kind::kTensor;
    // Only a consuming parent can take a variable's last use by move (not
    // of a transposed leaf: its parent takes the unfused block's transpose).
    const bool transposed = leaf.transpose != nullptr;
    Operand o =
        tensor && leaf.consumed && !transposed ? EvalConsumable(e, borrow) : Eval(e, borrow);
    operands.push_back(o);
    vm::FusedLeaf fl;
    fl.reg = static_cast<uint16_t>(o.reg);
    fl.kind = leaf.mask                     ? vm::FusedLeaf::Kind::kBool
              : tensor                      ? vm::FusedLeaf::Kind::kTensor
              : kind == types::Kind::kFloat ? vm::FusedLeaf::Kind::kFloat
                                            : vm::FusedLeaf::Kind::kInt;
    fl.moved = tensor && leaf.consumed && !transposed && o.owned && IsRefReg(o.reg);
    fl.transposed = transposed;
    program.leaves.push_back(fl);
  }
  const uint16_t leaves = static_cast<uint16_t>(tree.leaves.size());
  auto number = [&](Tree::Ref ref) {
    return static_cast<uint16_t>(ref.node ? leaves + ref.index : ref.index);
  };
  for (const Tree::Node& node : tree.nodes) {
    vm::FusedNode n = node.op;
    n.a = number(node.operands[0]);
    n.b = node.arity >= 2 ? number(node.operands[1]) : 0;
    n.c = node.arity >= 3 ? number(node.operands[2]) : 0;
    program.nodes.push_back(n);
  }
  const size_t index = pc_.module_.fused.size();
  pc_.module_.fused.push_back(program);
  Emit(Instr::ABC(Op::FUSED_T, static_cast<uint16_t>(r), static_cast<uint16_t>(index), 0),
       root.span);
  Label end;
  EmitJump(Op::JMP, 0, 0, end, root.span);

  // The unfused block: first the transposes of transposed leaves, then each
  // node as its own typed opcode or native, into temporaries that the next
  // node consumes or borrows, the last into r. Every temporary is consumed
  // or released exactly once, by or right after its parent.
  std::vector<int> leaf_regs;
  for (size_t l = 0; l < tree.leaves.size(); ++l) {
    leaf_regs.push_back(operands[l].reg);
    if (const Expr* call = tree.leaves[l].transpose) {
      leaf_regs[l] = Alloc(true);
      CallNative("t_transpose", {NativeArg::Reg(operands[l].reg)}, true, leaf_regs[l], call->span);
    }
  }
  std::vector<int> node_regs(tree.nodes.size(), -1);
  auto reg_of = [&](Tree::Ref ref) {
    return ref.node ? node_regs[ref.index] : leaf_regs[ref.index];
  };
  auto temporary = [&](Tree::Ref ref) {
    return ref.node || tree.leaves[ref.index].transpose != nullptr;
  };
  auto same = [](Tree::Ref x, Tree::Ref y) { return x.node == y.node && x.index == y.index; };
  for (size_t j = 0; j < tree.nodes.size(); ++j) {
    const Tree::Node& node = tree.nodes[j];
    const int dst = j + 1 == tree.nodes.size() ? r : Alloc(true);
    node_regs[j] = dst;
    std::vector<int> args;
    uint32_t owned = 0;
    for (int k = 0; k < node.arity; ++k) {
      const Tree::Ref ref = node.operands[k];
      args.push_back(reg_of(ref));
      // What the op may take by move: exactly the leaves marked moved.
      if (node.consumes && (temporary(ref) || program.leaves[ref.index].moved)) owned |= 1u << k;
    }
    uint32_t consumed = 0;
    ApplyBuiltin(node.id, node.site, args, dst, node.expr->span, owned, &consumed);
    // A temporary is released once when no operand slot holding it took it
    // (`square` holds its operand twice and takes it by the first).
    for (int k = 0; k < node.arity; ++k) {
      const Tree::Ref ref = node.operands[k];
      if (!temporary(ref)) continue;
      bool taken = false, earlier = false;
      for (int j = 0; j < node.arity; ++j) {
        if (same(node.operands[j], ref)) {
          taken = taken || (consumed & (1u << j)) != 0;
          earlier = earlier || j < k;
        }
      }
      if (!taken && !earlier) Release(args[k]);
    }
  }
  Bind(end);
  // Leaves the unfused ops did not consume (borrowed by `where`, or
  // borrowed variables, or scalars): freed as after an unfused op.
  for (size_t l = operands.size(); l-- > 0;) {
    if (!program.leaves[l].moved) Free(operands[l]);
  }
  Done(dest, r);
  SetTop(mark);
  return true;
}

}  // namespace alea::compiler
