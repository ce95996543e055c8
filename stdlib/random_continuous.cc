// Continuous distributions (rand_* natives) around vm/random/continuous.h.
#include <cstdint>

#include "absl/status/statusor.h"
#include "stdlib/natives.h"
#include "stdlib/random_args.h"
#include "vm/random/continuous.h"

namespace alea::stdlib {

using vm::Value;

absl::StatusOr<Value> Native_rand_gumbel(vm::NativeContext& ctx, const Value* args) {
  return DrawTensor<float>(ctx, args[0], args[1], vm::DType::kF32, vm::kReferenceDrawNs,
                           vm::random::Gumbel);
}

absl::StatusOr<Value> Native_rand_gumbel_scalar(vm::NativeContext& ctx, const Value* args) {
  return DrawScalar(ctx, args[0],
                    [](vm::random::Key k) { return vm::FromFloat(vm::random::GumbelScalar(k)); });
}

// ---- Transformations of uniform and normal draws ----
// A Float parameter of a tensor form is rounded to f32 first, as JAX rounds a
// Python float beside an f32 draw. The `_default` natives are the overloads
// that leave out the parameter a JAX signature defaults before the shape.

namespace {

float F32Arg(Value v) { return static_cast<float>(vm::AsFloat(v)); }

// A draw without parameters, in both forms.
template <typename Fill>
absl::StatusOr<Value> PlainDraw(vm::NativeContext& ctx, const Value* args, Fill fill) {
  return DrawTensor<float>(ctx, args[0], args[1], vm::DType::kF32, vm::kReferenceDrawNs, fill);
}

template <typename Draw>
absl::StatusOr<Value> FloatDraw(vm::NativeContext& ctx, Value state, Draw draw) {
  return DrawScalar(ctx, state, [&](vm::random::Key k) { return vm::FromFloat(draw(k)); });
}

// One parameter before the shape (lognormal, pareto, rayleigh, wald).
template <typename Fill>
absl::StatusOr<Value> OneParamDraw(vm::NativeContext& ctx, Value state, float p, Value shape,
                                   Fill fill) {
  return DrawTensor<float>(ctx, state, shape, vm::DType::kF32, vm::kReferenceDrawNs,
                           [&](vm::random::Key k, uint64_t start, uint64_t count, float* out) {
                             fill(k, p, start, count, out);
                           });
}

}  // namespace

absl::StatusOr<Value> Native_rand_cauchy(vm::NativeContext& ctx, const Value* args) {
  return PlainDraw(ctx, args, vm::random::Cauchy);
}

absl::StatusOr<Value> Native_rand_cauchy_scalar(vm::NativeContext& ctx, const Value* args) {
  return FloatDraw(ctx, args[0], vm::random::CauchyScalar);
}

absl::StatusOr<Value> Native_rand_laplace(vm::NativeContext& ctx, const Value* args) {
  return PlainDraw(ctx, args, vm::random::Laplace);
}

absl::StatusOr<Value> Native_rand_laplace_scalar(vm::NativeContext& ctx, const Value* args) {
  return FloatDraw(ctx, args[0], vm::random::LaplaceScalar);
}

absl::StatusOr<Value> Native_rand_logistic(vm::NativeContext& ctx, const Value* args) {
  return PlainDraw(ctx, args, vm::random::Logistic);
}

absl::StatusOr<Value> Native_rand_logistic_scalar(vm::NativeContext& ctx, const Value* args) {
  return FloatDraw(ctx, args[0], vm::random::LogisticScalar);
}

absl::StatusOr<Value> Native_rand_lognormal(vm::NativeContext& ctx, const Value* args) {
  return OneParamDraw(ctx, args[0], F32Arg(args[1]), args[2], vm::random::Lognormal);
}

absl::StatusOr<Value> Native_rand_lognormal_default(vm::NativeContext& ctx, const Value* args) {
  return OneParamDraw(ctx, args[0], 1.0f, args[1], vm::random::Lognormal);
}

absl::StatusOr<Value> Native_rand_lognormal_scalar(vm::NativeContext& ctx, const Value* args) {
  const double sigma = vm::AsFloat(args[1]);
  return FloatDraw(ctx, args[0],
                   [sigma](vm::random::Key k) { return vm::random::LognormalScalar(k, sigma); });
}

absl::StatusOr<Value> Native_rand_maxwell(vm::NativeContext& ctx, const Value* args) {
  return PlainDraw(ctx, args, vm::random::Maxwell);
}

absl::StatusOr<Value> Native_rand_maxwell_scalar(vm::NativeContext& ctx, const Value* args) {
  return FloatDraw(ctx, args[0], vm::random::MaxwellScalar);
}

absl::StatusOr<Value> Native_rand_double_sided_maxwell(vm::NativeContext& ctx, const Value* args) {
  const float loc = F32Arg(args[1]);
  const float scale = F32Arg(args[2]);
  return DrawTensor<float>(ctx, args[0], args[3], vm::DType::kF32, vm::kReferenceDrawNs,
                           [&](vm::random::Key k, uint64_t start, uint64_t count, float* out) {
                             vm::random::DoubleSidedMaxwell(k, loc, scale, start, count, out);
                           });
}

absl::StatusOr<Value> Native_rand_double_sided_maxwell_scalar(vm::NativeContext& ctx,
                                                              const Value* args) {
  const double loc = vm::AsFloat(args[1]);
  const double scale = vm::AsFloat(args[2]);
  return FloatDraw(ctx, args[0], [&](vm::random::Key k) {
    return vm::random::DoubleSidedMaxwellScalar(k, loc, scale);
  });
}

absl::StatusOr<Value> Native_rand_pareto(vm::NativeContext& ctx, const Value* args) {
  return OneParamDraw(ctx, args[0], F32Arg(args[1]), args[2], vm::random::Pareto);
}

absl::StatusOr<Value> Native_rand_pareto_scalar(vm::NativeContext& ctx, const Value* args) {
  const double b = vm::AsFloat(args[1]);
  return FloatDraw(ctx, args[0], [b](vm::random::Key k) { return vm::random::ParetoScalar(k, b); });
}

absl::StatusOr<Value> Native_rand_rayleigh(vm::NativeContext& ctx, const Value* args) {
  return OneParamDraw(ctx, args[0], F32Arg(args[1]), args[2], vm::random::Rayleigh);
}

absl::StatusOr<Value> Native_rand_rayleigh_default(vm::NativeContext& ctx, const Value* args) {
  return OneParamDraw(ctx, args[0], 1.0f, args[1], vm::random::Rayleigh);
}

absl::StatusOr<Value> Native_rand_rayleigh_scalar(vm::NativeContext& ctx, const Value* args) {
  const double scale = vm::AsFloat(args[1]);
  return FloatDraw(ctx, args[0],
                   [scale](vm::random::Key k) { return vm::random::RayleighScalar(k, scale); });
}

absl::StatusOr<Value> Native_rand_triangular(vm::NativeContext& ctx, const Value* args) {
  const float left = F32Arg(args[1]);
  const float mode = F32Arg(args[2]);
  const float right = F32Arg(args[3]);
  return DrawTensor<float>(ctx, args[0], args[4], vm::DType::kF32, vm::kReferenceDrawNs,
                           [&](vm::random::Key k, uint64_t start, uint64_t count, float* out) {
                             vm::random::Triangular(k, left, mode, right, start, count, out);
                           });
}

absl::StatusOr<Value> Native_rand_triangular_scalar(vm::NativeContext& ctx, const Value* args) {
  const double left = vm::AsFloat(args[1]);
  const double mode = vm::AsFloat(args[2]);
  const double right = vm::AsFloat(args[3]);
  return FloatDraw(ctx, args[0], [&](vm::random::Key k) {
    return vm::random::TriangularScalar(k, left, mode, right);
  });
}

absl::StatusOr<Value> Native_rand_truncated_normal(vm::NativeContext& ctx, const Value* args) {
  const float lower = F32Arg(args[1]);
  const float upper = F32Arg(args[2]);
  return DrawTensor<float>(ctx, args[0], args[3], vm::DType::kF32, vm::kReferenceDrawNs,
                           [&](vm::random::Key k, uint64_t start, uint64_t count, float* out) {
                             vm::random::TruncatedNormal(k, lower, upper, start, count, out);
                           });
}

absl::StatusOr<Value> Native_rand_truncated_normal_scalar(vm::NativeContext& ctx,
                                                          const Value* args) {
  const double lower = vm::AsFloat(args[1]);
  const double upper = vm::AsFloat(args[2]);
  return FloatDraw(ctx, args[0], [&](vm::random::Key k) {
    return vm::random::TruncatedNormalScalar(k, lower, upper);
  });
}

absl::StatusOr<Value> Native_rand_wald(vm::NativeContext& ctx, const Value* args) {
  return OneParamDraw(ctx, args[0], F32Arg(args[1]), args[2], vm::random::Wald);
}

absl::StatusOr<Value> Native_rand_wald_scalar(vm::NativeContext& ctx, const Value* args) {
  const double mean = vm::AsFloat(args[1]);
  return FloatDraw(ctx, args[0],
                   [mean](vm::random::Key k) { return vm::random::WaldScalar(k, mean); });
}

absl::StatusOr<Value> Native_rand_weibull_min(vm::NativeContext& ctx, const Value* args) {
  const float scale = F32Arg(args[1]);
  const float concentration = F32Arg(args[2]);
  return DrawTensor<float>(ctx, args[0], args[3], vm::DType::kF32, vm::kReferenceDrawNs,
                           [&](vm::random::Key k, uint64_t start, uint64_t count, float* out) {
                             vm::random::WeibullMin(k, scale, concentration, start, count, out);
                           });
}

absl::StatusOr<Value> Native_rand_weibull_min_scalar(vm::NativeContext& ctx, const Value* args) {
  const double scale = vm::AsFloat(args[1]);
  const double concentration = vm::AsFloat(args[2]);
  return FloatDraw(ctx, args[0], [&](vm::random::Key k) {
    return vm::random::WeibullMinScalar(k, scale, concentration);
  });
}

absl::StatusOr<Value> Native_rand_rademacher(vm::NativeContext& ctx, const Value* args) {
  return DrawTensor<int32_t>(ctx, args[0], args[1], vm::DType::kI32, vm::kReferenceDrawNs,
                             vm::random::Rademacher);
}

absl::StatusOr<Value> Native_rand_rademacher_scalar(vm::NativeContext& ctx, const Value* args) {
  return DrawScalar(ctx, args[0],
                    [](vm::random::Key k) { return vm::FromInt(vm::random::RademacherScalar(k)); });
}

}  // namespace alea::stdlib
