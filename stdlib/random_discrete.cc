// Discrete distributions (rand_* natives) around vm/random/discrete.h:
// poisson, binomial, geometric and multinomial. Each checks its state (the
// use-once rule) first, then its parameters: where JAX gives NaN or -1
// elements for an invalid one, these stop with a run-time error.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "stdlib/natives.h"
#include "stdlib/random_args.h"
#include "stdlib/random_checks.h"
#include "stdlib/random_weights.h"
#include "vm/print.h"
#include "vm/random/discrete.h"
#include "vm/random_draw.h"

namespace alea::stdlib {

using vm::Value;

namespace {

// Costs per element on one thread, for ThreadPool::MinRange (10^7 draws
// timed as vm/random_draw.h's): poisson at rate 3 about 13 ns on the JIT's
// kernels (110 without), binomial 100 to 200 across its two samplers,
// geometric 4 (32 without). A split needs only the order of magnitude.
constexpr double kPoissonNs = 30.0;
constexpr double kBinomialNs = 150.0;
constexpr double kGeometricNs = 15.0;

absl::Status ParameterError(vm::NativeContext& ctx, const char* name, const char* param,
                            double value, const char* rule) {
  return ctx.Fail(vm::RuntimeErrorId::kRandomParameter, name, param, vm::FormatFloat(value), rule);
}

// lam as JAX takes it (float32), after the state's use-once check.
absl::StatusOr<float> PoissonRate(vm::NativeContext& ctx, Value state, Value lam) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(state);
  if (!key.ok()) return key.status();
  const double x = vm::AsFloat(lam);
  if (absl::Status s = CheckPoissonRate(ctx, x); !s.ok()) return s;
  return static_cast<float>(x);
}

absl::Status BinomialParameters(vm::NativeContext& ctx, Value state, double n, double p) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(state);
  if (!key.ok()) return key.status();
  return CheckBinomial(ctx, n, p);
}

absl::Status GeometricParameter(vm::NativeContext& ctx, Value state, double p) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(state);
  if (!key.ok()) return key.status();
  return CheckGeometric(ctx, p);
}

}  // namespace

// A negative, NaN or infinite rate: JAX gives -1 elements, or a loop that
// never ends.
absl::Status CheckPoissonRate(vm::NativeContext& ctx, double lam) {
  if (lam >= 0.0 && std::isfinite(lam)) return absl::OkStatus();
  return ParameterError(ctx, "poisson", "lam", lam,
                        "the rate (the mean) must be finite and 0 or more");
}

// n >= 0 (+inf allowed: JAX gives +inf) and 0 <= p <= 1; JAX gives NaN
// elements otherwise.
absl::Status CheckBinomial(vm::NativeContext& ctx, double n, double p) {
  if (!(n >= 0.0)) {
    return ParameterError(ctx, "binomial", "n", n, "the number of trials must be 0 or more");
  }
  if (!(p >= 0.0 && p <= 1.0)) {
    return ParameterError(ctx, "binomial", "p", p, "a probability is in [0, 1]");
  }
  return absl::OkStatus();
}

// 0 < p <= 1: JAX gives garbage above 1 and a saturated count at 0.
absl::Status CheckGeometric(vm::NativeContext& ctx, double p) {
  if (p > 0.0 && p <= 1.0) return absl::OkStatus();
  return ParameterError(ctx, "geometric", "p", p,
                        "the probability of success is in (0, 1]: with 0 no trial succeeds");
}

absl::StatusOr<Value> Native_rand_poisson(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<float> lam = PoissonRate(ctx, args[0], args[1]);
  if (!lam.ok()) return lam.status();
  vm::TensorContext cx = ctx.tensors();
  const vm::JitDrawKernels kernels(cx);
  return DrawTensor<int32_t>(
      ctx, args[0], args[2], vm::DType::kI32, kPoissonNs,
      [lam = *lam, &kernels](vm::random::Key k, uint64_t start, uint64_t count, int32_t* out) {
        vm::random::Poisson(k, lam, start, count, out, kernels);
      });
}

absl::StatusOr<Value> Native_rand_poisson_scalar(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<float> lam = PoissonRate(ctx, args[0], args[1]);
  if (!lam.ok()) return lam.status();
  return DrawScalar(ctx, args[0], [lam = *lam](vm::random::Key k) {
    return vm::FromInt(vm::random::PoissonScalar(k, lam));
  });
}

absl::StatusOr<Value> Native_rand_binomial(vm::NativeContext& ctx, const Value* args) {
  const double n = vm::AsFloat(args[1]), p = vm::AsFloat(args[2]);
  if (absl::Status s = BinomialParameters(ctx, args[0], n, p); !s.ok()) return s;
  // As JAX converts them to the result's float32 (a valid double stays valid).
  const float n32 = static_cast<float>(n), p32 = static_cast<float>(p);
  vm::TensorContext cx = ctx.tensors();
  const vm::JitDrawKernels kernels(cx);
  return DrawTensor<float>(
      ctx, args[0], args[3], vm::DType::kF32, kBinomialNs,
      [n32, p32, &kernels](vm::random::Key k, uint64_t start, uint64_t count, float* out) {
        vm::random::Binomial(k, n32, p32, start, count, out, kernels);
      });
}

absl::StatusOr<Value> Native_rand_binomial_scalar(vm::NativeContext& ctx, const Value* args) {
  const double n = vm::AsFloat(args[1]), p = vm::AsFloat(args[2]);
  if (absl::Status s = BinomialParameters(ctx, args[0], n, p); !s.ok()) return s;
  return DrawScalar(ctx, args[0], [n, p](vm::random::Key k) {
    return vm::FromFloat(vm::random::BinomialScalar(k, n, p));
  });
}

absl::StatusOr<Value> Native_rand_geometric(vm::NativeContext& ctx, const Value* args) {
  const double p = vm::AsFloat(args[1]);
  if (absl::Status s = GeometricParameter(ctx, args[0], p); !s.ok()) return s;
  // A p that rounds to 0 in f32 would saturate every element.
  const float p32 = static_cast<float>(p);
  if (p32 == 0.0f) {
    return ParameterError(ctx, "geometric", "p", p,
                          "as f32 (JAX's dtype) the probability rounds to 0: no trial succeeds");
  }
  vm::TensorContext cx = ctx.tensors();
  const vm::JitDrawKernels kernels(cx);
  return DrawTensor<int32_t>(
      ctx, args[0], args[2], vm::DType::kI32, kGeometricNs,
      [p32, &kernels](vm::random::Key k, uint64_t start, uint64_t count, int32_t* out) {
        vm::random::Geometric(k, p32, start, count, out, kernels);
      });
}

absl::StatusOr<Value> Native_rand_geometric_scalar(vm::NativeContext& ctx, const Value* args) {
  const double p = vm::AsFloat(args[1]);
  if (absl::Status s = GeometricParameter(ctx, args[0], p); !s.ok()) return s;
  return DrawScalar(ctx, args[0], [p](vm::random::Key k) {
    return vm::FromInt(vm::random::GeometricScalar(k, p));
  });
}

absl::StatusOr<Value> Native_rand_multinomial(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(args[0]);
  if (!key.ok()) return key.status();
  const int64_t n = vm::AsInt(args[1]);
  if (n < 0) {
    return ctx.Fail(vm::RuntimeErrorId::kRandomParameter, "multinomial", "n", n,
                    "the number of trials must be 0 or more");
  }
  const vm::Object* p = vm::AsObject(args[2]);
  if (absl::Status s = CheckF32(ctx, "multinomial", "p", p); !s.ok()) return s;
  const absl::Span<const int64_t> p_shape = vm::ShapeOf(p);
  // JAX's shape is the whole result's, the categories last; absent (a plain
  // register: the builtin's `none`), it is p's.
  const vm::Shape shape = ctx.arg_is_reference(3) ? vm::ShapeFromIntArray(args[3])
                                                  : vm::Shape(p_shape.begin(), p_shape.end());
  if (p_shape.size() != 1 || shape.empty() || shape.back() != p_shape[0]) {
    return ctx.Fail(vm::RuntimeErrorId::kMultinomialShape, vm::ShapeString(shape),
                    vm::ShapeString(p_shape));
  }
  const int64_t classes = p_shape[0];
  const float* weights = vm::ElementsOf<float>(p);
  if (absl::Status s = CheckWeights(ctx, "multinomial", weights, classes); !s.ok()) return s;
  vm::TensorContext cx = ctx.tensors();
  vm::Object* out = cx.New(vm::DType::kF32, shape);
  if (out == nullptr) return ctx.Fail(cx);
  std::vector<float> ratios(static_cast<size_t>(classes));
  vm::random::MultinomialRatios(weights, classes, ratios.data());
  const int64_t rows = classes == 0 ? 0 : static_cast<int64_t>(out->length) / classes;
  const auto trials = static_cast<float>(n);  // as JAX converts it
  float* y = vm::ElementsOf<float>(out);
  const vm::JitDrawKernels kernels(cx);
  cx.ForRanges(rows, 1, vm::ThreadPool::MinRange(kBinomialNs * static_cast<double>(classes)),
               [&](int, int64_t begin, int64_t end) {
                 vm::random::Multinomial(
                     *key, trials, ratios.data(), classes, static_cast<uint64_t>(begin),
                     static_cast<uint64_t>(end - begin), y + begin * classes, kernels);
               });
  ctx.ConsumeState(args[0]);
  return vm::FromObject(out);
}

}  // namespace alea::stdlib
