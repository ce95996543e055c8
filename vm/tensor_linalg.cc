// `cholesky`, `solve_triangular`, `solve`, `det` and `inv` (vm/tensor_ops.h):
// NumPy's and SciPy's shape rules and errors around kernels/linalg.h, whose
// products run on the JIT's matmul when there is one (the reference's bits).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "vm/jit/jit.h"
#include "vm/kernels/linalg.h"
#include "vm/kernels/matmul.h"
#include "vm/tensor_format.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

// As tensor_ops.cc's MatMul: the reference's cost per multiply-add, against
// ThreadPool::MinRange.
constexpr double kMatMulReferenceNs = 2.0;

// The products of the blocked kernels: the JIT's matmul on the VM's
// threads, else the reference kernel on blocks of rows; the same bits.
class Products {
 public:
  explicit Products(TensorContext& cx)
      : cx_(cx), use_jit_(cx.jit() != nullptr && cx.jit()->available()) {}
  void operator()(int64_t m, int64_t k, int64_t n, const float* a, const float* b,
                  float* out) const {
    if (use_jit_) {
      jit::Jit::KernelTimer timer(*cx_.jit());
      ThreadPool* pool = cx_.pool();
      if (cx_.jit()->MatMulF32(m, k, n, a, b, out, pool)) return;
    }
    const int64_t min_rows =
        ThreadPool::MinRange(kMatMulReferenceNs * static_cast<double>(std::max<int64_t>(1, n * k)));
    cx_.ForRanges(m, 1, min_rows, [&](int, int64_t begin, int64_t end) {
      kernels::MatMul(DType::kF32, end - begin, k, n, a + begin * k, b, out + begin * n);
    });
  }

 private:
  TensorContext& cx_;
  bool use_jit_;
};

// The matrices of x: `count` of them, n x n each.
struct Square {
  int64_t n, count;
};

// x as square matrices: its last two axes equal; leading axes are a batch
// when `batched`, else there must be none.
std::optional<Square> SquareOf(TensorContext& cx, const Object* x, const char* name, bool batched) {
  if (DTypeOf(x) != DType::kF32) {
    cx.Fail(RuntimeErrorId::kBadCall,
            absl::StrCat("`", name, "` of a ", DTypeName(DTypeOf(x)), " tensor"));
    return std::nullopt;
  }
  const absl::Span<const int64_t> shape = ShapeOf(x);
  const size_t rank = shape.size();
  if (rank < 2 || shape[rank - 1] != shape[rank - 2] || (!batched && rank != 2)) {
    cx.Fail(batched ? RuntimeErrorId::kLinalgSquare : RuntimeErrorId::kLinalgMatrix, name,
            ShapeString(shape));
    return std::nullopt;
  }
  int64_t count = 1;
  for (size_t d = 0; d + 2 < rank; ++d) count *= shape[d];
  return Square{shape[rank - 1], count};
}

// Which pivot failed, in the messages: "3", or "3 of matrix 2" in a batch.
std::string PivotName(int64_t pivot, int64_t matrix, int64_t count) {
  return count > 1 ? absl::StrCat(pivot, " of matrix ", matrix) : absl::StrCat(pivot);
}

// For solve and solve_triangular: b is (n,) or (n, k); its columns, or
// nullopt after recording kLinalgRhs.
std::optional<int64_t> RhsColumns(TensorContext& cx, const char* name, const Object* a,
                                  const Object* b) {
  const absl::Span<const int64_t> sb = ShapeOf(b);
  const int64_t n = ShapeOf(a)[0];
  if (DTypeOf(b) != DType::kF32) {
    cx.Fail(RuntimeErrorId::kBadCall,
            absl::StrCat("`", name, "` of a ", DTypeName(DTypeOf(b)), " right-hand side"));
    return std::nullopt;
  }
  if (sb.empty() || sb.size() > 2 || sb[0] != n) {
    cx.Fail(RuntimeErrorId::kLinalgRhs, name, ShapeString(ShapeOf(a)), ShapeString(sb));
    return std::nullopt;
  }
  return sb.size() == 1 ? 1 : sb[1];
}

// A new tensor with x's shape and elements.
Object* Copy(TensorContext& cx, const Object* x) {
  Object* out = cx.New(DTypeOf(x), ShapeOf(x));
  if (out != nullptr && SizeOf(x) > 0) {
    std::memcpy(DataOf(out), DataOf(x), static_cast<size_t>(SizeOf(x)) * sizeof(float));
  }
  return out;
}

}  // namespace

Object* Cholesky(TensorContext& cx, const Object* a) {
  const std::optional<Square> sq = SquareOf(cx, a, "cholesky", /*batched=*/true);
  if (!sq) return nullptr;
  Object* out = cx.New(DType::kF32, ShapeOf(a));
  if (out == nullptr || SizeOf(out) == 0) return out;
  const int64_t nn = sq->n * sq->n;
  Products products(cx);
  for (int64_t i = 0; i < sq->count; ++i) {
    const kernels::BadPivot bad = kernels::Cholesky(sq->n, ElementsOf<float>(a) + i * nn,
                                                    ElementsOf<float>(out) + i * nn, products);
    if (bad.index >= 0) {
      cx.heap().Release(out);
      return cx.Fail(RuntimeErrorId::kNotPositiveDefinite, PivotName(bad.index, i, sq->count),
                     FormatScalarF32(bad.value));
    }
  }
  return out;
}

Object* SolveTriangular(TensorContext& cx, const Object* a, const Object* b, bool lower) {
  if (!SquareOf(cx, a, "solve_triangular", /*batched=*/false)) return nullptr;
  const std::optional<int64_t> k = RhsColumns(cx, "solve_triangular", a, b);
  if (!k) return nullptr;
  Object* out = Copy(cx, b);
  if (out == nullptr || SizeOf(out) == 0) return out;
  Products products(cx);
  const kernels::BadPivot bad = kernels::SolveTriangular(ShapeOf(a)[0], ElementsOf<float>(a), lower,
                                                         *k, ElementsOf<float>(out), products);
  if (bad.index >= 0) {
    cx.heap().Release(out);
    return cx.Fail(RuntimeErrorId::kSingularTriangular, bad.index);
  }
  return out;
}

Object* Solve(TensorContext& cx, const Object* a, const Object* b) {
  if (!SquareOf(cx, a, "solve", /*batched=*/false)) return nullptr;
  const std::optional<int64_t> k = RhsColumns(cx, "solve", a, b);
  if (!k) return nullptr;
  Object* out = Copy(cx, b);
  if (out == nullptr || SizeOf(a) == 0) return out;
  Products products(cx);
  const kernels::BadPivot zero =
      kernels::Solve(ShapeOf(a)[0], ElementsOf<float>(a), *k, ElementsOf<float>(out), products);
  if (zero.index >= 0) {
    cx.heap().Release(out);
    return cx.Fail(RuntimeErrorId::kSingular, "solve", zero.index);
  }
  return out;
}

Object* Det(TensorContext& cx, const Object* a) {
  const std::optional<Square> sq = SquareOf(cx, a, "det", /*batched=*/true);
  if (!sq) return nullptr;
  const absl::Span<const int64_t> shape = ShapeOf(a);
  Object* out = cx.New(DType::kF32, shape.subspan(0, shape.size() - 2));
  if (out == nullptr) return nullptr;
  const int64_t nn = sq->n * sq->n;
  Products products(cx);
  for (int64_t i = 0; i < sq->count; ++i) {
    ElementsOf<float>(out)[i] = kernels::Det(sq->n, ElementsOf<float>(a) + i * nn, products);
  }
  return out;
}

Object* Inv(TensorContext& cx, const Object* a) {
  const std::optional<Square> sq = SquareOf(cx, a, "inv", /*batched=*/true);
  if (!sq) return nullptr;
  Object* out = cx.New(DType::kF32, ShapeOf(a));
  if (out == nullptr || SizeOf(out) == 0) return out;
  const int64_t nn = sq->n * sq->n;
  Products products(cx);
  for (int64_t i = 0; i < sq->count; ++i) {
    const kernels::BadPivot zero = kernels::Inv(sq->n, ElementsOf<float>(a) + i * nn,
                                                ElementsOf<float>(out) + i * nn, products);
    if (zero.index >= 0) {
      cx.heap().Release(out);
      return cx.Fail(RuntimeErrorId::kSingular, "inv", PivotName(zero.index, i, sq->count));
    }
  }
  return out;
}

}  // namespace alea::vm
