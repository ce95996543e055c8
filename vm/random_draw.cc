#include "vm/random_draw.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

#include "vm/random/continuous.h"
#include "vm/random/samplers.h"
#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

using jit::RandomKernel;

// Ranges start on 64-element boundaries, so two threads never write one
// cache line (bool results are bytes).
constexpr int64_t kAlign = 64;
int ElementBytes(RandomKernel kind) { return kind == RandomKernel::kBernoulli ? 1 : 4; }

// Elements [begin, end) on the reference sampler.
void Reference(RandomKernel kind, const DrawArgs& a, char* out, uint64_t begin, uint64_t end) {
  const uint64_t n = end - begin;
  char* at = out + begin * ElementBytes(kind);
  switch (kind) {
    case RandomKernel::kBits:
      random::Bits(a.key, begin, n, reinterpret_cast<uint32_t*>(at));
      break;
    case RandomKernel::kUniform:
      random::Uniform(a.key, begin, n, a.lo, a.hi, reinterpret_cast<float*>(at));
      break;
    case RandomKernel::kNormal:
      random::Normal(a.key, begin, n, reinterpret_cast<float*>(at));
      break;
    case RandomKernel::kExponential:
      random::Exponential(a.key, begin, n, reinterpret_cast<float*>(at));
      break;
    case RandomKernel::kBernoulli:
      random::Bernoulli(a.key, a.p, begin, n, reinterpret_cast<uint8_t*>(at));
      break;
    case RandomKernel::kDropout:
      random::Dropout(a.key, a.rate, a.x + begin, begin, n, reinterpret_cast<float*>(at));
      break;
    case RandomKernel::kGumbel:
      random::Gumbel(a.key, begin, n, reinterpret_cast<float*>(at));
      break;
    case RandomKernel::kCategorical:  // not a fill (JitDrawKernels::CategoricalRow)
      break;
  }
}

// Elements [begin, end) on the JIT kernel, element i at out[i - begin]: one
// call per run of counters with the same high word (the kernel adds to the
// low word only).
void Jitted(jit::RandomFn fn, RandomKernel kind, const DrawArgs& a, char* out, uint64_t begin,
            uint64_t end) {
  jit::RandomParams p;
  p.k0 = a.key.k0;
  p.k1 = a.key.k1;
  p.lo_bound = a.lo;
  p.scale = a.hi - a.lo;  // in f32, as random::Uniform computes it
  p.p = kind == RandomKernel::kDropout ? static_cast<float>(1.0 - a.rate) : a.p;
  for (uint64_t i = begin; i < end;) {
    const uint64_t stop = std::min(end, ((i >> 32) + 1) << 32);
    p.hi = static_cast<uint32_t>(i >> 32);
    p.lo = static_cast<uint32_t>(i);
    p.x = a.x == nullptr ? nullptr : a.x + i;
    fn(&p, out + (i - begin) * ElementBytes(kind), static_cast<int64_t>(stop - i));
    i = stop;
  }
}

}  // namespace

void FillDraw(TensorContext& cx, RandomKernel kind, const DrawArgs& args, void* out,
              uint64_t count) {
  // Flax's dropout draws nothing at rate 0 or 1; the reference has those
  // cases, the kernel only the drawing one.
  const bool draws = kind != RandomKernel::kDropout || (args.rate != 0.0 && args.rate != 1.0);
  jit::RandomFn fn = cx.jit() != nullptr && draws ? cx.jit()->Random(kind) : nullptr;
  char* bytes = static_cast<char*>(out);
  auto body = [&](int /*range*/, int64_t begin, int64_t end) {
    const auto b = static_cast<uint64_t>(begin), e = static_cast<uint64_t>(end);
    if (fn != nullptr) {
      Jitted(fn, kind, args, bytes + b * ElementBytes(kind), b, e);
    } else {
      Reference(kind, args, bytes, b, e);
    }
  };
  const auto n = static_cast<int64_t>(count);
  const int64_t min_range = ThreadPool::MinRange(fn != nullptr ? kJitDrawNs : kReferenceDrawNs);
  std::optional<jit::Jit::KernelTimer> timer;
  if (fn != nullptr) timer.emplace(*cx.jit());
  cx.ForRanges(n, kAlign, min_range, body);
}

namespace {

jit::RandomFn RandomOf(jit::Jit* jit, RandomKernel kind) {
  return jit != nullptr ? jit->Random(kind) : nullptr;
}

// Elements [start, start + n) of the draw `fn` makes with its defaults (a
// uniform on [0, 1)).
void RunDefault(jit::RandomFn fn, RandomKernel kind, random::Key k, uint64_t start, uint64_t n,
                void* out) {
  DrawArgs args;
  args.key = k;
  Jitted(fn, kind, args, static_cast<char*>(out), start, start + n);
}

}  // namespace

JitDrawKernels::JitDrawKernels(jit::Jit* jit)
    : bits_(RandomOf(jit, RandomKernel::kBits)),
      uniform_(RandomOf(jit, RandomKernel::kUniform)),
      gumbel_(RandomOf(jit, RandomKernel::kGumbel)),
      categorical_(RandomOf(jit, RandomKernel::kCategorical)) {
  if (jit != nullptr) {
    for (kernels::UnaryOp op :
         {kernels::UnaryOp::kLog, kernels::UnaryOp::kExp, kernels::UnaryOp::kLgamma}) {
      unary_[static_cast<size_t>(op)] = jit->UnaryF32(op);
    }
  }
  for (int what = 0; what < 3; ++what) {
    keyed_[what] = jit != nullptr ? jit->Keyed(static_cast<jit::KeyedKernel>(what)) : nullptr;
  }
  if (jit != nullptr && (fast() || gumbel_ != nullptr)) timer_.emplace(*jit);
}

// The two enums name the same kernels in the same order.
static_assert(
    static_cast<int>(random::KeyedDraw::kWords) == static_cast<int>(jit::KeyedKernel::kWords) &&
    static_cast<int>(random::KeyedDraw::kBits) == static_cast<int>(jit::KeyedKernel::kBits) &&
    static_cast<int>(random::KeyedDraw::kNormal) == static_cast<int>(jit::KeyedKernel::kNormal));

void JitDrawKernels::Keyed(random::KeyedDraw what, const random::KeyedInput& in, uint32_t* y0,
                           uint32_t* y1, size_t n) const {
  const jit::KeyedFn fn = keyed_[static_cast<int>(what)];
  if (fn == nullptr) return DrawKernels::Keyed(what, in, y0, y1, n);
  jit::KeyedParams p;
  p.k0 = in.k0;
  p.k1 = in.k1;
  p.c0 = in.c0;
  p.c1 = in.c1;
  p.y0 = y0;
  p.y1 = y1;
  fn(&p, static_cast<int64_t>(n));
}

void JitDrawKernels::Bits(random::Key k, uint64_t start, uint64_t n, uint32_t* out) const {
  if (bits_ == nullptr) return DrawKernels::Bits(k, start, n, out);
  RunDefault(bits_, RandomKernel::kBits, k, start, n, out);
}

void JitDrawKernels::Uniform(random::Key k, uint64_t start, uint64_t n, float* out) const {
  if (uniform_ == nullptr) return DrawKernels::Uniform(k, start, n, out);
  RunDefault(uniform_, RandomKernel::kUniform, k, start, n, out);
}

void JitDrawKernels::Gumbel(random::Key k, uint64_t start, uint64_t n, float* out) const {
  if (gumbel_ == nullptr) return DrawKernels::Gumbel(k, start, n, out);
  RunDefault(gumbel_, RandomKernel::kGumbel, k, start, n, out);
}

uint64_t JitDrawKernels::CategoricalRow(random::Key k, uint64_t start, const float* logits,
                                        uint64_t n) const {
  if (categorical_ == nullptr) return DrawKernels::CategoricalRow(k, start, logits, n);
  // One call per run of counters with the same high word; each gives its
  // lanes' first maxima, and the row's is the largest of all, the lowest
  // index among equals. A NaN anywhere: the reference's scan decides.
  jit::RandomParams p;
  p.k0 = k.k0;
  p.k1 = k.k1;
  const float minus_inf = -std::numeric_limits<float>::infinity();
  float best = minus_inf;
  uint64_t best_index = UINT64_MAX;
  for (uint64_t i = start; i < start + n;) {
    const uint64_t stop = std::min(start + n, ((i >> 32) + 1) << 32);
    p.hi = static_cast<uint32_t>(i >> 32);
    p.lo = static_cast<uint32_t>(i);
    p.x = logits + (i - start);
    union {
      float values[48];
      uint32_t words[48];
    } lanes;
    for (int l = 0; l < 16; ++l) {
      lanes.values[l] = -std::numeric_limits<float>::infinity();
      lanes.words[16 + l] = 0;
      lanes.words[32 + l] = 0;
    }
    categorical_(&p, lanes.values, static_cast<int64_t>(stop - i));
    for (int l = 0; l < 16; ++l) {
      if (lanes.words[32 + l] != 0) return DrawKernels::CategoricalRow(k, start, logits, n);
      const uint64_t index = (i - start) + lanes.words[16 + l];
      const float value = lanes.values[l];
      if (value > best || (value == best && index < best_index)) {
        best = value;
        best_index = index;
      }
    }
    i = stop;
  }
  // Every value -inf: none beats element 0, the scan's first.
  return best == minus_inf ? 0 : best_index;
}

void JitDrawKernels::Unary(kernels::UnaryOp op, const float* in, float* out, size_t n) const {
  const jit::UnaryF32Fn fn = unary_[static_cast<size_t>(op)];
  if (fn == nullptr) return DrawKernels::Unary(op, in, out, n);
  fn(in, out, static_cast<int64_t>(n));
}

}  // namespace alea::vm
