// Continuous distributions (rand_* natives) around vm/random/continuous.h.
#include <array>
#include <cfloat>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "absl/status/statusor.h"
#include "stdlib/natives.h"
#include "stdlib/random_args.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/random/continuous.h"
#include "vm/random_draw.h"

namespace alea::stdlib {

using vm::Value;

absl::StatusOr<Value> Native_rand_gumbel(vm::NativeContext& ctx, const Value* args) {
  // On the JIT's Gumbel kernel where there is one (FillDraw), the same bits.
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(args[0]);
  if (!key.ok()) return key.status();
  vm::TensorContext cx = ctx.tensors();
  vm::Object* out = cx.New(vm::DType::kF32, vm::ShapeFromIntArray(args[1]));
  if (out == nullptr) return ctx.Fail(cx);
  vm::DrawArgs draw;
  draw.key = *key;
  vm::FillDraw(cx, vm::jit::RandomKernel::kGumbel, draw, vm::ElementsOf<float>(out), out->length);
  ctx.ConsumeState(args[0]);
  return vm::FromObject(out);
}

absl::StatusOr<Value> Native_rand_gumbel_scalar(vm::NativeContext& ctx, const Value* args) {
  return DrawScalar(ctx, args[0],
                    [](vm::random::Key k) { return vm::FromFloat(vm::random::GumbelScalar(k)); });
}

// ---- Transformations of uniform and normal draws ----
// A Float parameter of a tensor form is rounded to f32 first, as JAX rounds a
// Python float beside an f32 draw. The `__default` natives are the overloads
// that leave out the parameter a JAX signature defaults before the shape.

namespace {

using vm::kernels::UnaryOp;

float F32Arg(Value v) { return static_cast<float>(vm::AsFloat(v)); }

// The JIT's elementwise kernels as an F32Math, the reference kernels where
// the JIT has none (the same bits). They are looked up here, before the
// ranges run on the pool's threads, because a Jit is not thread-safe.
class JitMath final : public vm::random::F32Math {
 public:
  JitMath(vm::jit::Jit* jit, std::initializer_list<UnaryOp> ops, bool pow) {
    if (jit == nullptr) return;
    for (UnaryOp op : ops) unary_[static_cast<size_t>(op)] = jit->UnaryF32(op);
    if (pow) pow_ = jit->BinaryF32(vm::kernels::BinaryOp::kPow, vm::jit::Layout::kVectorScalar);
  }
  void Unary(UnaryOp op, float* x, uint64_t n) const override {
    const vm::jit::UnaryF32Fn fn = unary_[static_cast<size_t>(op)];
    if (fn == nullptr) return F32Math::Unary(op, x, n);
    fn(x, x, static_cast<int64_t>(n));
  }
  void PowScalar(float* x, float y, uint64_t n) const override {
    if (pow_ == nullptr) return F32Math::PowScalar(x, y, n);
    pow_(x, &y, x, static_cast<int64_t>(n));
  }

 private:
  std::array<vm::jit::UnaryF32Fn, vm::kernels::kNumUnaryOps> unary_{};
  vm::jit::BinaryF32Fn pow_ = nullptr;
};

// A transformation drawn as its base sampler through FillDraw (the JIT's
// random kernel where there is one, on the pool's threads), then
// transform(math, x, n) over ranges of the result, with `ops` (and pow) on
// the JIT: many times faster than the reference kernel, the same bits.
// `ns_per_element`: the transform's cost without the JIT's elementwise
// kernels, for the ranges' size.
template <typename Transform>
absl::StatusOr<Value> DrawTransformed(vm::NativeContext& ctx, Value state, Value shape,
                                      vm::jit::RandomKernel base, vm::DrawArgs args,
                                      std::initializer_list<UnaryOp> ops, bool pow,
                                      double ns_per_element, Transform transform) {
  absl::StatusOr<vm::random::Key> key = ctx.StateKey(state);
  if (!key.ok()) return key.status();
  vm::TensorContext cx = ctx.tensors();
  vm::Object* out = cx.New(vm::DType::kF32, vm::ShapeFromIntArray(shape));
  if (out == nullptr) return ctx.Fail(cx);
  float* y = vm::ElementsOf<float>(out);
  args.key = *key;
  vm::FillDraw(cx, base, args, y, out->length);
  const JitMath math(cx.jit(), ops, pow);
  {
    std::optional<vm::jit::Jit::KernelTimer> timer;
    if (cx.jit() != nullptr) timer.emplace(*cx.jit());
    cx.ForRanges(static_cast<int64_t>(out->length), 64, vm::ThreadPool::MinRange(ns_per_element),
                 [&](int, int64_t begin, int64_t end) {
                   transform(math, y + begin, static_cast<uint64_t>(end - begin));
                 });
  }
  ctx.ConsumeState(state);
  return vm::FromObject(out);
}

vm::DrawArgs UniformArgs(float lo, float hi) {
  vm::DrawArgs args;
  args.lo = lo;
  args.hi = hi;
  return args;
}

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
  return DrawTransformed(ctx, args[0], args[1], vm::jit::RandomKernel::kUniform,
                         UniformArgs(FLT_EPSILON, 1.0f), {UnaryOp::kTan}, false,
                         vm::kReferenceDrawNs, vm::random::CauchyFromUniform);
}

absl::StatusOr<Value> Native_rand_cauchy_scalar(vm::NativeContext& ctx, const Value* args) {
  return FloatDraw(ctx, args[0], vm::random::CauchyScalar);
}

absl::StatusOr<Value> Native_rand_laplace(vm::NativeContext& ctx, const Value* args) {
  return DrawTransformed(ctx, args[0], args[1], vm::jit::RandomKernel::kUniform,
                         UniformArgs(-0x1.fffffep-1f, 1.0f), {UnaryOp::kLog1p}, false,
                         vm::kReferenceDrawNs, vm::random::LaplaceFromUniform);
}

absl::StatusOr<Value> Native_rand_laplace_scalar(vm::NativeContext& ctx, const Value* args) {
  return FloatDraw(ctx, args[0], vm::random::LaplaceScalar);
}

absl::StatusOr<Value> Native_rand_logistic(vm::NativeContext& ctx, const Value* args) {
  return DrawTransformed(ctx, args[0], args[1], vm::jit::RandomKernel::kUniform,
                         UniformArgs(FLT_EPSILON, 1.0f), {UnaryOp::kLog}, false,
                         vm::kReferenceDrawNs, vm::random::LogisticFromUniform);
}

absl::StatusOr<Value> Native_rand_logistic_scalar(vm::NativeContext& ctx, const Value* args) {
  return FloatDraw(ctx, args[0], vm::random::LogisticScalar);
}

namespace {

absl::StatusOr<Value> Lognormal(vm::NativeContext& ctx, Value state, float sigma, Value shape) {
  return DrawTransformed(ctx, state, shape, vm::jit::RandomKernel::kNormal, vm::DrawArgs(),
                         {UnaryOp::kExp}, false, vm::kReferenceDrawNs,
                         [sigma](const vm::random::F32Math& math, float* x, uint64_t n) {
                           vm::random::LognormalFromNormal(math, sigma, x, n);
                         });
}

}  // namespace

absl::StatusOr<Value> Native_rand_lognormal(vm::NativeContext& ctx, const Value* args) {
  return Lognormal(ctx, args[0], F32Arg(args[1]), args[2]);
}

absl::StatusOr<Value> Native_rand_lognormal__default(vm::NativeContext& ctx, const Value* args) {
  return Lognormal(ctx, args[0], 1.0f, args[1]);
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
  const float b = F32Arg(args[1]);
  return DrawTransformed(ctx, args[0], args[2], vm::jit::RandomKernel::kExponential, vm::DrawArgs(),
                         {UnaryOp::kExp}, false, vm::kReferenceDrawNs,
                         [b](const vm::random::F32Math& math, float* x, uint64_t n) {
                           vm::random::ParetoFromExponential(math, b, x, n);
                         });
}

absl::StatusOr<Value> Native_rand_pareto_scalar(vm::NativeContext& ctx, const Value* args) {
  const double b = vm::AsFloat(args[1]);
  return FloatDraw(ctx, args[0], [b](vm::random::Key k) { return vm::random::ParetoScalar(k, b); });
}

namespace {

absl::StatusOr<Value> Rayleigh(vm::NativeContext& ctx, Value state, float scale, Value shape) {
  return DrawTransformed(ctx, state, shape, vm::jit::RandomKernel::kUniform,
                         UniformArgs(0.0f, 1.0f), {UnaryOp::kLog}, false, vm::kReferenceDrawNs,
                         [scale](const vm::random::F32Math& math, float* x, uint64_t n) {
                           vm::random::RayleighFromUniform(math, scale, x, n);
                         });
}

}  // namespace

absl::StatusOr<Value> Native_rand_rayleigh(vm::NativeContext& ctx, const Value* args) {
  return Rayleigh(ctx, args[0], F32Arg(args[1]), args[2]);
}

absl::StatusOr<Value> Native_rand_rayleigh__default(vm::NativeContext& ctx, const Value* args) {
  return Rayleigh(ctx, args[0], 1.0f, args[1]);
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
  const auto [a, b] = vm::random::TruncatedNormalErfBounds(lower, upper);
  // erfinv has no elementwise JIT kernel: the transform runs the reference.
  return DrawTransformed(ctx, args[0], args[3], vm::jit::RandomKernel::kUniform, UniformArgs(a, b),
                         {}, false, vm::kReferenceDrawNs,
                         [&](const vm::random::F32Math&, float* x, uint64_t n) {
                           vm::random::TruncatedNormalFromUniform(lower, upper, x, n);
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
  return DrawTransformed(ctx, args[0], args[3], vm::jit::RandomKernel::kExponential, vm::DrawArgs(),
                         {}, true, vm::kReferenceDrawNs,
                         [&](const vm::random::F32Math& math, float* x, uint64_t n) {
                           vm::random::WeibullMinFromExponential(math, scale, concentration, x, n);
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
