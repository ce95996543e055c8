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
#include "vm/kernels/transpose.h"
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

// Whether the fused pass reads tensor leaf `t` transposed: the program says
// so and there are axes to reverse (rank 0 and 1 read as they are).
bool Transposed(const FusedLeaf& leaf, const Object* t) {
  return leaf.transposed && RankOf(t) >= 2;
}

using LeafPointers = std::array<const float*, jit::Jit::kMaxFusedLeaves>;

// A fused pass with transposed leaves, each the result's shape read through
// reversed axes: the result is [c, middle..., a], such a leaf's tensor x is
// [a, reversed middle..., c], and the result's run (j, m, i = 0..a) reads x
// at (i, m, j): one element per row of x. So the pass goes by tiles: for a
// block of j and a width of i, each transposed leaf's elements are gathered
// into a scratch tile (reading along x's rows, a cache line at a time),
// and the kernel runs on the tile's rows as on any leaf, the other leaves
// pointed at the same runs of the result by `advance`. Tiles of up to
// kTileElements elements per leaf stay in L1; units of work (a middle index
// and a block of j) may run on threads. When the runs of a tile are
// contiguous in the result (no middle axes, the whole width, and no row or
// column leaf whose segment would end inside), it is one kernel call.
template <typename Advance>
void RunTransposedTiles(TensorContext& cx, const FusedProgram& program, const Value* regs,
                        absl::Span<const int64_t> shape, int64_t row, int64_t min_range,
                        const LeafPointers& inputs, const Advance& advance, jit::FusedF32Fn kernel,
                        float* data) {
  constexpr int64_t kMaxWidth = 256, kTileElements = 8192, kMinBlock = 32;
  const size_t rank = shape.size();
  const int64_t c = shape[0];
  const int64_t a = shape[rank - 1];
  const absl::Span<const int64_t> middle = shape.subspan(1, rank - 2);  // the result's
  int64_t mid_count = 1;
  for (int64_t d : middle) mid_count *= d;
  const int64_t a_stride = mid_count * c;  // x: one step along its first axis
  const int64_t c_stride = mid_count * a;  // the result: one step along its first axis
  // The result's middle axis d steps by the product of the axes after it,
  // times a; x holds the middle axes reversed, so there it steps by the
  // product of the middle axes before it, times c.
  absl::InlinedVector<int64_t, 8> step_out(middle.size()), step_in(middle.size());
  for (int64_t d = static_cast<int64_t>(middle.size()), s = a; d-- > 0;) {
    step_out[d] = s;
    s *= middle[d];
  }
  for (size_t d = 0, s = c; d < middle.size(); ++d) {
    step_in[d] = static_cast<int64_t>(s);
    s *= static_cast<size_t>(middle[d]);
  }
  const int64_t width = std::min(a, kMaxWidth);
  const int64_t block = std::max(kMinBlock, kTileElements / width / 16 * 16);
  const int64_t blocks = (c + block - 1) / block;
  const bool merge = row == 0 && mid_count == 1 && width == a;
  absl::InlinedVector<size_t, jit::Jit::kMaxFusedLeaves> transposed;
  for (size_t l = 0; l < program.leaves.size(); ++l) {
    const FusedLeaf& leaf = program.leaves[l];
    if (IsTensorLeaf(leaf) && Transposed(leaf, AsObject(regs[leaf.reg]))) transposed.push_back(l);
  }
  auto run = [&](int, int64_t first, int64_t last) {
    std::vector<float> scratch(transposed.size() * static_cast<size_t>(block * width));
    LeafPointers at;
    for (int64_t unit = first; unit < last; ++unit) {
      // The unit's middle index, last axis fastest, as offsets in each.
      int64_t m = unit / blocks, m_out = 0, m_in = 0;
      for (size_t d = middle.size(); d-- > 0;) {
        const int64_t digit = m % middle[d];
        m /= middle[d];
        m_out += digit * step_out[d];
        m_in += digit * step_in[d];
      }
      const int64_t j0 = unit % blocks * block;
      const int64_t height = std::min(block, c - j0);
      for (int64_t i0 = 0; i0 < a; i0 += width) {
        const int64_t w = std::min(width, a - i0);
        for (size_t t = 0; t < transposed.size(); ++t) {
          kernels::TransposeBlock(inputs[transposed[t]] + i0 * a_stride + m_in + j0, a_stride, w,
                                  height, scratch.data() + t * static_cast<size_t>(block * width),
                                  w);
        }
        const int64_t runs = merge ? 1 : height;
        const int64_t length = merge ? height * w : w;
        for (int64_t j = 0; j < runs; ++j) {
          const int64_t start = (j0 + j) * c_stride + m_out + i0;
          at = inputs;
          advance(at, start);
          for (size_t t = 0; t < transposed.size(); ++t) {
            at[transposed[t]] = scratch.data() + t * static_cast<size_t>(block * width) + j * w;
          }
          kernel(at.data(), data + start, length);
        }
      }
    }
  };
  cx.ForRanges(mid_count * blocks, 1, std::max<int64_t>(1, min_range / (block * a)), run);
}

}  // namespace

bool RunFused(TensorContext& cx, const FusedProgram& program, FusedKernelCache& cache,
              uint32_t site, Value* regs, Value* result) {
  jit::Jit* jit = cx.jit();
  const size_t leaves = program.leaves.size();
  if (jit == nullptr || leaves > static_cast<size_t>(jit::Jit::kMaxFusedLeaves)) return false;

  // The result's shape is the broadcast of every tensor leaf: each node's
  // operands are a subset of them, so if all broadcast, every node does.
  // A transposed leaf (rank >= 2) is read as its axes reversed: its shape
  // here is the reversed one.
  std::array<Shape, jit::Jit::kMaxFusedLeaves> leaf_shapes;
  bool any_transposed = false;
  Shape shape;
  for (size_t l = 0; l < leaves; ++l) {
    const FusedLeaf& leaf = program.leaves[l];
    if (!IsTensorLeaf(leaf)) continue;
    const Object* t = AsObject(regs[leaf.reg]);
    const DType want = leaf.kind == FusedLeaf::Kind::kBool ? DType::kBool : DType::kF32;
    if (DTypeOf(t) != want) return false;
    const absl::Span<const int64_t> own = ShapeOf(t);
    if (Transposed(leaf, t)) {
      leaf_shapes[l].assign(own.rbegin(), own.rend());
      any_transposed = true;
    } else {
      leaf_shapes[l].assign(own.begin(), own.end());
    }
    Shape joined;
    if (!BroadcastShapes({shape, leaf_shapes[l]}, &joined)) return false;
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
  for (size_t l = 0; l < leaves; ++l) {
    if (IsTensorLeaf(program.leaves[l])) shapes.push_back(leaf_shapes[l]);
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
    // A transposed leaf is read a tile at a time, of the result's shape.
    if (Transposed(leaf, t) && layout[l] != SegmentLayout::kFull) return false;
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
  // Nor a tensor a transposed leaf reads: its tiles read other indices.
  auto read_transposed = [&](const Object* t) {
    for (const FusedLeaf& leaf : program.leaves) {
      if (IsTensorLeaf(leaf) && AsObject(regs[leaf.reg]) == t && Transposed(leaf, t)) return true;
    }
    return false;
  };
  Object* out = nullptr;
  for (size_t l = 0; l < leaves && out == nullptr; ++l) {
    const FusedLeaf& leaf = program.leaves[l];
    if (leaf.kind != FusedLeaf::Kind::kTensor || !leaf.moved) continue;
    Object* t = AsObject(regs[leaf.reg]);
    if (IsReusable(t) && ShapeOf(t) == absl::MakeConstSpan(shape) && !read_transposed(t)) out = t;
  }
  const bool in_place = out != nullptr;
  if (!in_place) {
    out = cx.heap().NewTensorAt(site, DType::kF32, shape);
    if (out == nullptr) return false;  // the block reports running out of memory
  }
  float* data = static_cast<float*>(DataOf(out));

  // The kernel and every pointer are ready: ranges of elements (or of whole
  // rows, or of transposed tiles) may run on the pool's threads, each
  // writing its own part of `out` (in place, each part reads its own part
  // of the leaf it overwrites). advance(at, start) points each leaf at a
  // run of the result starting at element `start` that stays in one
  // segment: full leaves advance with the element, rows with its place in
  // the row, columns with the segment (an element per segment), by floats
  // or (bool leaves) bytes; scalars stay.
  auto advance = [&](std::array<const float*, jit::Jit::kMaxFusedLeaves>& at, int64_t start) {
    for (size_t l = 0; l < leaves; ++l) {
      int64_t offset;
      if (layout[l] == SegmentLayout::kFull) {
        offset = start;
      } else if (layout[l] == SegmentLayout::kRow) {
        offset = start % row;
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
  if (any_transposed) {
    RunTransposedTiles(cx, program, regs, shape, row, min_range, inputs, advance, kernel, data);
  } else if (row == 0) {
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
