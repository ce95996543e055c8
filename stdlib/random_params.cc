// Samplers with tensor parameters (rand_NAME__tensor, with a shape, and
// rand_NAME__like, the parameters' broadcast shape): JAX's array parameters.
// Every sampler here is elementwise: element i of a draw depends on (key, i)
// and its own parameters only, which is what makes its Float form
// partitionable. So a draw with tensor parameters is the Float form's, run
// by runs of elements whose parameters are the same (a parameter that
// repeats along the last axes gives long runs), bit for bit what JAX draws
// with arrays of those values. The samplers and their parameters come from
// one table below.
#include <cstdint>
#include <cstring>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "stdlib/natives.h"
#include "stdlib/random_args.h"
#include "stdlib/random_checks.h"
#include "vm/print.h"
#include "vm/random/continuous.h"
#include "vm/random/discrete.h"
#include "vm/random/gamma.h"
#include "vm/random_draw.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"

namespace alea::stdlib {

using vm::Value;
using vm::random::DrawKernels;
using vm::random::Key;

namespace {

constexpr int kMaxParams = 3;

// Elements [start, start + count) of the draw with parameters p (f32, as
// JAX holds an f32 array's elements), into out (f32 or i32).
using Fill = void (*)(Key k, const float* p, uint64_t start, uint64_t count, void* out,
                      const DrawKernels& batch);
// OkStatus, or the error for an invalid parameter tuple (the Float form's).
using Check = absl::Status (*)(vm::NativeContext& ctx, const float* p);

struct Sampler {
  const char* name;
  int params;
  const char* param_names[kMaxParams];
  vm::DType dtype;
  Fill fill;
  Check check;  // nullptr: every value is drawn (JAX's NaN or inf included)
  double ns;    // a run's cost per element, for ThreadPool::MinRange
};

float* F(void* out) { return static_cast<float*>(out); }
int32_t* I(void* out) { return static_cast<int32_t*>(out); }

const Sampler kLognormal{"lognormal",
                         1,
                         {"sigma"},
                         vm::DType::kF32,
                         [](Key k, const float* p, uint64_t s, uint64_t n, void* o,
                            const DrawKernels&) { vm::random::Lognormal(k, p[0], s, n, F(o)); },
                         nullptr,
                         60};
const Sampler kPareto{"pareto",
                      1,
                      {"b"},
                      vm::DType::kF32,
                      [](Key k, const float* p, uint64_t s, uint64_t n, void* o,
                         const DrawKernels&) { vm::random::Pareto(k, p[0], s, n, F(o)); },
                      nullptr,
                      40};
const Sampler kRayleigh{"rayleigh",
                        1,
                        {"scale"},
                        vm::DType::kF32,
                        [](Key k, const float* p, uint64_t s, uint64_t n, void* o,
                           const DrawKernels&) { vm::random::Rayleigh(k, p[0], s, n, F(o)); },
                        nullptr,
                        40};
const Sampler kWald{"wald",
                    1,
                    {"mean"},
                    vm::DType::kF32,
                    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels&) {
                      vm::random::Wald(k, p[0], s, n, F(o));
                    },
                    nullptr,
                    100};
const Sampler kWeibullMin{
    "weibull_min",
    2,
    {"scale", "concentration"},
    vm::DType::kF32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels&) {
      vm::random::WeibullMin(k, p[0], p[1], s, n, F(o));
    },
    nullptr,
    60};
const Sampler kDoubleSidedMaxwell{
    "double_sided_maxwell",
    2,
    {"loc", "scale"},
    vm::DType::kF32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels&) {
      vm::random::DoubleSidedMaxwell(k, p[0], p[1], s, n, F(o));
    },
    nullptr,
    200};
const Sampler kTriangular{
    "triangular",
    3,
    {"left", "mode", "right"},
    vm::DType::kF32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels&) {
      vm::random::Triangular(k, p[0], p[1], p[2], s, n, F(o));
    },
    nullptr,
    40};
const Sampler kTruncatedNormal{
    "truncated_normal",
    2,
    {"lower", "upper"},
    vm::DType::kF32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels&) {
      vm::random::TruncatedNormal(k, p[0], p[1], s, n, F(o));
    },
    nullptr,
    100};
const Sampler kGamma{"gamma",
                     1,
                     {"a"},
                     vm::DType::kF32,
                     [](Key k, const float* p, uint64_t s, uint64_t n, void* o,
                        const DrawKernels& b) { vm::random::Gamma(k, p[0], s, n, F(o), b); },
                     nullptr,
                     80};
const Sampler kLogGamma{"loggamma",
                        1,
                        {"a"},
                        vm::DType::kF32,
                        [](Key k, const float* p, uint64_t s, uint64_t n, void* o,
                           const DrawKernels& b) { vm::random::LogGamma(k, p[0], s, n, F(o), b); },
                        nullptr,
                        80};
const Sampler kChiSquare{
    "chisquare",
    1,
    {"df"},
    vm::DType::kF32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels& b) {
      vm::random::ChiSquare(k, p[0], s, n, F(o), b);
    },
    nullptr,
    80};
const Sampler kStudentT{"t",
                        1,
                        {"df"},
                        vm::DType::kF32,
                        [](Key k, const float* p, uint64_t s, uint64_t n, void* o,
                           const DrawKernels& b) { vm::random::StudentT(k, p[0], s, n, F(o), b); },
                        nullptr,
                        150};
const Sampler kF{"f",
                 2,
                 {"dfnum", "dfden"},
                 vm::DType::kF32,
                 [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels& b) {
                   vm::random::FDist(k, p[0], p[1], s, n, F(o), b);
                 },
                 nullptr,
                 200};
const Sampler kBeta{"beta",
                    2,
                    {"a", "b"},
                    vm::DType::kF32,
                    [](Key k, const float* p, uint64_t s, uint64_t n, void* o,
                       const DrawKernels& b) { vm::random::Beta(k, p[0], p[1], s, n, F(o), b); },
                    nullptr,
                    200};
const Sampler kGeneralizedNormal{
    "generalized_normal",
    1,
    {"p"},
    vm::DType::kF32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels& b) {
      vm::random::GeneralizedNormal(k, p[0], s, n, F(o), b);
    },
    nullptr,
    150};
const Sampler kPoisson{
    "poisson",
    1,
    {"lam"},
    vm::DType::kI32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels& b) {
      vm::random::Poisson(k, p[0], s, n, I(o), b);
    },
    [](vm::NativeContext& ctx, const float* p) { return CheckPoissonRate(ctx, p[0]); },
    100};
const Sampler kBinomial{
    "binomial",
    2,
    {"n", "p"},
    vm::DType::kF32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels& b) {
      vm::random::Binomial(k, p[0], p[1], s, n, F(o), b);
    },
    [](vm::NativeContext& ctx, const float* p) { return CheckBinomial(ctx, p[0], p[1]); },
    150};
const Sampler kGeometric{
    "geometric",
    1,
    {"p"},
    vm::DType::kI32,
    [](Key k, const float* p, uint64_t s, uint64_t n, void* o, const DrawKernels& b) {
      vm::random::Geometric(k, p[0], s, n, I(o), b);
    },
    [](vm::NativeContext& ctx, const float* p) { return CheckGeometric(ctx, p[0]); },
    40};

// Whether elements a and b of the expanded parameters are the same bits.
bool SameParams(const float* const* p, int params, int64_t a, int64_t b) {
  for (int q = 0; q < params; ++q) {
    if (std::memcmp(p[q] + a, p[q] + b, sizeof(float)) != 0) return false;
  }
  return true;
}

// args: the state, the parameter tensors, and (with_shape) the shape.
absl::StatusOr<Value> DrawWithParams(vm::NativeContext& ctx, const Value* args,
                                     const Sampler& sampler, bool with_shape) {
  absl::StatusOr<Key> key = ctx.StateKey(args[0]);
  if (!key.ok()) return key.status();
  const int params = sampler.params;
  const vm::Object* tensors[kMaxParams] = {};
  for (int q = 0; q < params; ++q) {
    tensors[q] = vm::AsObject(args[1 + q]);
    if (absl::Status s = CheckF32(ctx, sampler.name, sampler.param_names[q], tensors[q]); !s.ok()) {
      return s;
    }
  }
  // The draws' shape: the given one, which every parameter must broadcast
  // to (JAX's broadcast_to), or the parameters' broadcast shape.
  vm::Shape shape;
  if (with_shape) {
    shape = vm::ShapeFromIntArray(args[1 + params]);
    for (int q = 0; q < params; ++q) {
      vm::Shape joined;
      const absl::Span<const int64_t> own = vm::ShapeOf(tensors[q]);
      if (!vm::BroadcastShapes({shape, own}, &joined) || joined != shape) {
        return ctx.Fail(vm::RuntimeErrorId::kParameterShape, sampler.name, sampler.param_names[q],
                        vm::ShapeString(own), vm::ShapeString(shape));
      }
    }
  } else {
    shape = vm::Shape(vm::ShapeOf(tensors[0]).begin(), vm::ShapeOf(tensors[0]).end());
    for (int q = 1; q < params; ++q) {
      vm::Shape joined;
      if (!vm::BroadcastShapes({shape, vm::ShapeOf(tensors[q])}, &joined)) {
        return ctx.Fail(vm::RuntimeErrorId::kBroadcast, sampler.name, vm::ShapeString(shape),
                        vm::ShapeString(vm::ShapeOf(tensors[q])));
      }
      shape = joined;
    }
  }
  const int64_t n = vm::ElementCount(sampler.dtype, shape);
  vm::TensorContext cx = ctx.tensors();
  ScratchTensors scratch(cx.heap());
  const float* p[kMaxParams] = {};
  if (n > 0) {
    for (int q = 0; q < params; ++q) {
      p[q] = Expanded(cx, tensors[q], shape, scratch);
      if (p[q] == nullptr) return ctx.Fail(cx);
    }
  }
  if (sampler.check != nullptr) {
    for (int64_t i = 0; i < n; ++i) {
      if (i > 0 && SameParams(p, params, i - 1, i)) continue;
      float tuple[kMaxParams];
      for (int q = 0; q < params; ++q) tuple[q] = p[q][i];
      if (absl::Status s = sampler.check(ctx, tuple); !s.ok()) return s;
    }
  }
  vm::Object* out = cx.New(sampler.dtype, shape);
  if (out == nullptr) return ctx.Fail(cx);
  char* y = static_cast<char*>(vm::DataOf(out));
  const vm::JitDrawKernels kernels(cx);
  cx.ForRanges(static_cast<int64_t>(out->length), 64, vm::ThreadPool::MinRange(sampler.ns),
               [&](int, int64_t begin, int64_t end) {
                 for (int64_t run = begin; run < end;) {
                   int64_t stop = run + 1;
                   while (stop < end && SameParams(p, params, run, stop)) ++stop;
                   float tuple[kMaxParams];
                   for (int q = 0; q < params; ++q) tuple[q] = p[q][run];
                   sampler.fill(*key, tuple, static_cast<uint64_t>(run),
                                static_cast<uint64_t>(stop - run), y + run * 4, kernels);
                   run = stop;
                 }
               });
  ctx.ConsumeState(args[0]);
  return vm::FromObject(out);
}

}  // namespace

#define ALEA_TENSOR_PARAMS(name, sampler)                                                         \
  absl::StatusOr<Value> Native_rand_##name##__tensor(vm::NativeContext& ctx, const Value* args) { \
    return DrawWithParams(ctx, args, sampler, true);                                              \
  }
#define ALEA_TENSOR_PARAMS_LIKE(name, sampler)                                                  \
  ALEA_TENSOR_PARAMS(name, sampler)                                                             \
  absl::StatusOr<Value> Native_rand_##name##__like(vm::NativeContext& ctx, const Value* args) { \
    return DrawWithParams(ctx, args, sampler, false);                                           \
  }

ALEA_TENSOR_PARAMS_LIKE(lognormal, kLognormal)
ALEA_TENSOR_PARAMS_LIKE(pareto, kPareto)
ALEA_TENSOR_PARAMS_LIKE(rayleigh, kRayleigh)
ALEA_TENSOR_PARAMS_LIKE(wald, kWald)
ALEA_TENSOR_PARAMS_LIKE(weibull_min, kWeibullMin)
ALEA_TENSOR_PARAMS_LIKE(double_sided_maxwell, kDoubleSidedMaxwell)
ALEA_TENSOR_PARAMS_LIKE(triangular, kTriangular)
ALEA_TENSOR_PARAMS_LIKE(truncated_normal, kTruncatedNormal)
ALEA_TENSOR_PARAMS(gamma, kGamma)  // rand_gamma__like: random_gamma.cc
ALEA_TENSOR_PARAMS_LIKE(loggamma, kLogGamma)
ALEA_TENSOR_PARAMS_LIKE(chisquare, kChiSquare)
ALEA_TENSOR_PARAMS_LIKE(t, kStudentT)
ALEA_TENSOR_PARAMS_LIKE(f, kF)
ALEA_TENSOR_PARAMS(beta, kBeta)  // rand_beta__like: random_gamma.cc
ALEA_TENSOR_PARAMS_LIKE(generalized_normal, kGeneralizedNormal)
ALEA_TENSOR_PARAMS_LIKE(poisson, kPoisson)
ALEA_TENSOR_PARAMS_LIKE(binomial, kBinomial)
ALEA_TENSOR_PARAMS_LIKE(geometric, kGeometric)

#undef ALEA_TENSOR_PARAMS_LIKE
#undef ALEA_TENSOR_PARAMS

}  // namespace alea::stdlib
