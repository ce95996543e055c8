#include "vm/bytecode.h"

#include <algorithm>

#include "vm/kernels/elementwise.h"
#include "vm/runtime_error.h"

namespace alea::vm {
namespace {

constexpr OpInfo kOpInfos[] = {
#define ALEA_OP(name, format, operands, semantics) {#name, OpFormat::format, operands, semantics},
#include "vm/opcodes.def"
#undef ALEA_OP
};

constexpr RuntimeErrorFormat kErrorFormats[] = {
#define ALEA_RUNTIME_ERROR(id, message, help) {message, help},
#include "vm/runtime_errors.def"
#undef ALEA_RUNTIME_ERROR
};

}  // namespace

const OpInfo& InfoOf(Op op) { return kOpInfos[static_cast<int>(op)]; }

bool IsDraw(Op op) {
  switch (op) {
    case Op::BITS:
    case Op::UNIFORM:
    case Op::NORMAL:
    case Op::BERNOULLI:
    case Op::RANDINT:
    case Op::EXPONENTIAL:
    case Op::CATEGORICAL:
    case Op::PERMUTATION:
    case Op::DROPOUT:
    case Op::UNIFORM_S:
    case Op::NORMAL_S:
    case Op::BERNOULLI_S:
    case Op::RANDINT_S:
    case Op::EXPONENTIAL_S:
      return true;
    default:
      return false;
  }
}

const RuntimeErrorFormat& FormatOf(RuntimeErrorId id) {
  return kErrorFormats[static_cast<int>(id)];
}

std::optional<std::vector<bool>> FusedValueMasks(const FusedProgram& p) {
  if (p.leaves.empty() || p.nodes.empty()) return std::nullopt;
  std::vector<bool> is_mask;
  for (const FusedLeaf& leaf : p.leaves) {
    if (leaf.kind > FusedLeaf::Kind::kBool) return std::nullopt;
    if (leaf.transposed && (leaf.kind != FusedLeaf::Kind::kTensor || leaf.moved)) {
      return std::nullopt;
    }
    is_mask.push_back(leaf.kind == FusedLeaf::Kind::kBool);
  }
  for (const FusedNode& node : p.nodes) {
    const size_t defined = is_mask.size();
    auto value = [&](uint16_t v, bool mask) { return v < defined && is_mask[v] == mask; };
    bool ok = false, mask = false;
    if (node.where) {
      ok = !node.unary && value(node.a, true) && value(node.b, false) && value(node.c, false);
    } else if (node.unary) {
      ok = node.op < kernels::kNumUnaryOps && value(node.a, false);
    } else {
      ok = node.op < kernels::kNumBinaryOps && value(node.a, false) && value(node.b, false);
      mask = ok && kernels::IsComparison(static_cast<kernels::BinaryOp>(node.op));
    }
    if (!ok) return std::nullopt;
    is_mask.push_back(mask);
  }
  if (is_mask.back()) return std::nullopt;
  return is_mask;
}

SourceLocation LocationAt(const Function& fn, uint32_t pc) {
  auto it = std::upper_bound(fn.lines.begin(), fn.lines.end(), pc,
                             [](uint32_t p, const LineEntry& e) { return p < e.pc; });
  return it == fn.lines.begin() ? SourceLocation{} : std::prev(it)->location;
}

}  // namespace alea::vm
