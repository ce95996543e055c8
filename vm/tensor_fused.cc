// FUSED_T's one-pass path (tensor_ops.h RunFused). It only ever computes
// what the unfused block after FUSED_T would: it declines (returns false,
// touching nothing) whenever a layout, a shape, a dtype or an allocation is
// not the simple case, and lets that block run with its own errors and
// locations. Tensor leaves are Tensor(f32) values or Tensor(bool) masks
// (bytes); both follow the same layout rules, and the result is f32.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "vm/jit/jit.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

bool IsTensorLeaf(const FusedLeaf& leaf) {
  return leaf.kind == FusedLeaf::Kind::kTensor || leaf.kind == FusedLeaf::Kind::kBool;
}

// A fused pass's cost per element on one thread, per node: `a * b + c` (two
// nodes) costs 0.11 ns an element at 65536 (measured as tensor_ops.cc's
// costs); exp and friends cost more, so this splits no program too soon.
constexpr double kFusedNodeNs = 0.05;

int64_t MinRange(const FusedProgram& program) {
  const int64_t nodes = std::max<int64_t>(1, static_cast<int64_t>(program.nodes.size()));
  return ThreadPool::MinRange(kFusedNodeNs * static_cast<double>(nodes));
}

}  // namespace

bool RunFused(TensorContext& cx, const FusedProgram& program, FusedKernelCache& cache,
              uint32_t site, Value* regs, Value* result) {
  jit::Jit* jit = cx.jit();
  const size_t leaves = program.leaves.size();
  if (jit == nullptr || leaves > static_cast<size_t>(jit::Jit::kMaxFusedLeaves)) return false;

  // The result's shape is the broadcast of every tensor leaf: each node's
  // operands are a subset of them, so if all broadcast, every node does.
  Shape shape;
  for (const FusedLeaf& leaf : program.leaves) {
    if (!IsTensorLeaf(leaf)) continue;
    const Object* t = AsObject(regs[leaf.reg]);
    const DType want = leaf.kind == FusedLeaf::Kind::kBool ? DType::kBool : DType::kF32;
    if (DTypeOf(t) != want) return false;
    Shape joined;
    if (!BroadcastShapes({shape, ShapeOf(t)}, &joined)) return false;
    shape = std::move(joined);
  }
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n == 0) return false;  // nothing to compute: the block does it for free

  // Each tensor leaf is the result's shape (up to leading 1s), one element,
  // a row (the result's trailing axes, repeated) or a column (one element
  // per segment of the result, as `x - reshape(m, [n, 1])`), rows and
  // columns agreeing on one segment length (SegmentLayouts). Scalars and
  // columns are broadcast by the kernel: a column's element for a segment is
  // that call's scalar. A bool leaf's input is its first byte, passed as the
  // kernel's pointer type (the kernel reads it as bytes).
  absl::InlinedVector<absl::Span<const int64_t>, jit::Jit::kMaxFusedLeaves> shapes;
  for (const FusedLeaf& leaf : program.leaves) {
    if (IsTensorLeaf(leaf)) shapes.push_back(ShapeOf(AsObject(regs[leaf.reg])));
  }
  const std::optional<Segments> segments = SegmentLayouts(shapes, shape);
  if (!segments) return false;
  const int64_t row = segments->length;
  std::array<SegmentLayout, jit::Jit::kMaxFusedLeaves> layout{};
  std::array<int64_t, jit::Jit::kMaxFusedLeaves> column{};  // a column leaf's elements
  std::array<float, jit::Jit::kMaxFusedLeaves> scalars{};
  std::array<const float*, jit::Jit::kMaxFusedLeaves> inputs{};
  uint32_t scalar_leaves = 0;
  size_t tensor_leaf = 0;
  for (size_t l = 0; l < leaves; ++l) {
    const FusedLeaf& leaf = program.leaves[l];
    if (!IsTensorLeaf(leaf)) {
      // SCALAR_T's rounding: Int or Float to the nearest f32.
      const Value v = regs[leaf.reg];
      scalars[l] = leaf.kind == FusedLeaf::Kind::kFloat ? static_cast<float>(AsFloat(v))
                                                        : static_cast<float>(AsInt(v));
      inputs[l] = &scalars[l];
      layout[l] = SegmentLayout::kScalar;
      scalar_leaves |= 1u << l;
      continue;
    }
    const Object* t = AsObject(regs[leaf.reg]);
    inputs[l] = reinterpret_cast<const float*>(DataOf(t));
    layout[l] = segments->layouts[tensor_leaf++];
    if (layout[l] == SegmentLayout::kScalar || layout[l] == SegmentLayout::kColumn) {
      scalar_leaves |= 1u << l;
    }
    if (layout[l] == SegmentLayout::kColumn) column[l] = SizeOf(t);
  }

  if (!cache.looked_up || cache.scalar_leaves != scalar_leaves) {
    cache.kernel = reinterpret_cast<void*>(jit->FusedF32(program, scalar_leaves));
    cache.scalar_leaves = scalar_leaves;
    cache.looked_up = true;
  }
  auto kernel = reinterpret_cast<jit::FusedF32Fn>(cache.kernel);
  if (kernel == nullptr) return false;

  // The result: a moved f32 leaf we hold the only reference to, with the
  // result's exact shape (the kernel reads every input at an index before
  // writing that index), else a new tensor. Never a bool leaf: its elements
  // are bytes.
  Object* out = nullptr;
  for (size_t l = 0; l < leaves && out == nullptr; ++l) {
    const FusedLeaf& leaf = program.leaves[l];
    if (leaf.kind != FusedLeaf::Kind::kTensor || !leaf.moved) continue;
    Object* t = AsObject(regs[leaf.reg]);
    if (IsReusable(t) && ShapeOf(t) == absl::MakeConstSpan(shape)) out = t;
  }
  const bool in_place = out != nullptr;
  if (!in_place) {
    out = cx.heap().NewTensorAt(site, DType::kF32, shape);
    if (out == nullptr) return false;  // the block reports running out of memory
  }
  float* data = static_cast<float*>(DataOf(out));

  // The kernel and every pointer are ready: ranges of elements (or of whole
  // rows) may run on the pool's threads, each writing its own part of `out`
  // (in place, each part reads its own part of the leaf it overwrites).
  // Full leaves advance with the range (start: an element), columns with
  // the segment (an element per segment), by floats or (bool leaves) bytes;
  // rows and scalars stay.
  auto advance = [&](std::array<const float*, jit::Jit::kMaxFusedLeaves>& at, int64_t start) {
    for (size_t l = 0; l < leaves; ++l) {
      int64_t offset;
      if (layout[l] == SegmentLayout::kFull) {
        offset = start;
      } else if (layout[l] == SegmentLayout::kColumn) {
        offset = start / row % column[l];
      } else {
        continue;
      }
      if (program.leaves[l].kind == FusedLeaf::Kind::kBool) {
        const auto* bytes = reinterpret_cast<const uint8_t*>(inputs[l]);
        at[l] = reinterpret_cast<const float*>(bytes + offset);
      } else {
        at[l] = inputs[l] + offset;
      }
    }
  };
  const int64_t min_range = MinRange(program);
  jit::Jit::KernelTimer timer(*jit);
  if (row == 0) {
    auto run = [&](int, int64_t begin, int64_t end) {
      std::array<const float*, jit::Jit::kMaxFusedLeaves> at = inputs;
      advance(at, begin);
      kernel(at.data(), data + begin, end - begin);
    };
    // 64-element boundaries: whole cache lines of the output and bool leaves.
    cx.ForRanges(n, 64, min_range, run);
  } else {
    // One call per segment.
    auto run = [&](int, int64_t first, int64_t last) {
      std::array<const float*, jit::Jit::kMaxFusedLeaves> at = inputs;
      for (int64_t r = first; r < last; ++r) {
        advance(at, r * row);
        kernel(at.data(), data + r * row, row);
      }
    };
    cx.ForRanges(n / row, 1, std::max<int64_t>(1, min_range / row), run);
  }

  // Consume the moved leaves as the unfused block would have. A register
  // moved twice cannot happen (each move is a distinct last use), but the
  // same object may be reachable from two leaves (`x * x`): release each
  // register's reference once.
  for (const FusedLeaf& leaf : program.leaves) {
    if (!IsTensorLeaf(leaf) || !leaf.moved) continue;
    Object* t = AsObject(regs[leaf.reg]);
    regs[leaf.reg] = 0;
    if (t != out) cx.heap().Release(t);
  }
  *result = FromObject(out);
  return true;
}

}  // namespace alea::vm
