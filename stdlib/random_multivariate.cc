// `multivariate_normal` and `orthogonal` (rand_* natives) around
// vm/random/multivariate.h. Their batch shape is optional (the builtins'
// `none`: a plain Int 0 where an [Int] would be a reference).
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "stdlib/natives.h"
#include "stdlib/random_args.h"
#include "vm/random/multivariate.h"
#include "vm/tensor_format.h"

namespace alea::stdlib {

using vm::Value;

namespace {

// Costs on one thread, as vm/random_draw.h's: a normal element (reference),
// and a multiply-add of the products.
constexpr double kNormalNs = 59.0;
constexpr double kMultiplyAddNs = 2.0;

// The batch shape argument at `i`, or () when absent.
vm::Shape BatchShape(vm::NativeContext& ctx, const Value* args, int i) {
  return ctx.arg_is_reference(i) ? vm::ShapeFromIntArray(args[i]) : vm::Shape();
}

}  // namespace

absl::StatusOr<Value> Native_rand_multivariate_normal(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(args[0]);
  if (!key.ok()) return key.status();
  const vm::Object* mean = vm::AsObject(args[1]);
  const vm::Object* cov = vm::AsObject(args[2]);
  if (absl::Status s = CheckF32(ctx, "multivariate_normal", "mean", mean); !s.ok()) return s;
  if (absl::Status s = CheckF32(ctx, "multivariate_normal", "cov", cov); !s.ok()) return s;
  const absl::Span<const int64_t> ms = vm::ShapeOf(mean), cs = vm::ShapeOf(cov);
  if (ms.size() != 1 || cs.size() != 2 || cs[0] != ms[0] || cs[1] != ms[0]) {
    return ctx.Fail(vm::RuntimeErrorId::kMultivariateShapes, vm::ShapeString(ms),
                    vm::ShapeString(cs));
  }
  const int64_t n = ms[0];
  std::vector<float> lt(static_cast<size_t>(n * n));
  const vm::kernels::BadPivot bad =
      vm::random::CovarianceFactor(n, vm::ElementsOf<float>(cov), lt.data());
  if (bad.index >= 0) {
    return ctx.Fail(vm::RuntimeErrorId::kCovarianceNotPositiveDefinite, bad.index,
                    vm::FormatScalarF32(bad.value));
  }
  vm::Shape shape = BatchShape(ctx, args, 3);
  shape.push_back(n);
  vm::TensorContext cx = ctx.tensors();
  vm::Object* out = cx.New(vm::DType::kF32, shape);
  if (out == nullptr) return ctx.Fail(cx);
  const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(out->length) / n;
  const float* mu = vm::ElementsOf<float>(mean);
  float* y = vm::ElementsOf<float>(out);
  const double row_ns =
      static_cast<double>(n) * (kNormalNs + kMultiplyAddNs * static_cast<double>(n));
  cx.ForRanges(rows, 1, vm::ThreadPool::MinRange(row_ns), [&](int, int64_t begin, int64_t end) {
    vm::random::MultivariateNormal(*key, mu, lt.data(), n, static_cast<uint64_t>(begin),
                                   static_cast<uint64_t>(end - begin), y + begin * n);
  });
  ctx.ConsumeState(args[0]);
  return vm::FromObject(out);
}

absl::StatusOr<Value> Native_rand_orthogonal(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(args[0]);
  if (!key.ok()) return key.status();
  const int64_t n = vm::AsInt(args[1]);
  if (n < 0) {
    return ctx.Fail(vm::RuntimeErrorId::kRandomParameter, "orthogonal", "n", n,
                    "the matrices are n x n: n must be 0 or more");
  }
  vm::Shape shape = BatchShape(ctx, args, 2);
  shape.push_back(n);
  shape.push_back(n);
  vm::TensorContext cx = ctx.tensors();
  vm::Object* out = cx.New(vm::DType::kF32, shape);
  if (out == nullptr) return ctx.Fail(cx);
  const int64_t matrices = n == 0 ? 0 : static_cast<int64_t>(out->length) / (n * n);
  float* y = vm::ElementsOf<float>(out);
  const double nn = static_cast<double>(n) * static_cast<double>(n);
  const double matrix_ns = nn * kNormalNs + 4.0 * kMultiplyAddNs * nn * static_cast<double>(n);
  cx.ForRanges(matrices, 1, vm::ThreadPool::MinRange(matrix_ns),
               [&](int, int64_t begin, int64_t end) {
                 vm::random::Orthogonal(*key, n, static_cast<uint64_t>(begin),
                                        static_cast<uint64_t>(end - begin), y + begin * n * n);
               });
  ctx.ConsumeState(args[0]);
  return vm::FromObject(out);
}

}  // namespace alea::stdlib
