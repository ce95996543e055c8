// The tensor JIT: x86-64 kernels generated with asmjit (AVX2+FMA, or AVX-512
// where the CPU has it) that compute exactly the bits of the reference
// kernels in vm/kernels/ (docs/decisions.md "The JIT and fusion"). This header is
// the whole interface: asmjit types stay inside vm/jit/*.cc.
//
// One Jit per Vm (kernel caches belong to a VM instance, never to a module or
// to the process). A Jit is not thread-safe; construction is cheap (no code
// memory, no CPU probe until the first request), so a Vm can create it
// lazily on its first tensor op.
//
// Every request may return nullptr: the CPU lacks AVX2+FMA (or the requested
// ISA), the op is not compiled by the JIT (yet), or asmjit reported an error.
// The caller then runs the reference kernel; a JIT failure is never fatal.
// A failed request is cached like a success, so it is not retried.
#ifndef ALEA_VM_JIT_JIT_H_
#define ALEA_VM_JIT_JIT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/functional/function_ref.h"
#include "vm/bytecode.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/reduce.h"

namespace alea::vm {
class ThreadPool;
}

namespace alea::vm::jit {

// The instruction set a kernel is generated for. kAuto picks the widest the
// CPU (and the Options) allow; the explicit ones exist so that tests can run
// both paths on one machine and compare them.
enum class Isa : uint8_t { kAuto, kAvx2, kAvx512 };

// Layout classes of an elementwise operation's operands, all over n elements
// of a contiguous output. "Vector" is a contiguous run of n f32; "Scalar" is
// one f32 broadcast to every element (a stride-0 operand after the
// reference's axis merging). Anything else (general strides) is not a
// layout class of this step: the caller uses the reference kernel.
enum class Layout : uint8_t {
  kVectorVector,  // out[i] = a[i] op b[i]
  kVectorScalar,  // out[i] = a[i] op b[0]
  kScalarVector,  // out[i] = a[0] op b[i]
};

// out[i] = a op b for i < n, f32 -> f32 (Add Sub Mul Div Max Min).
using BinaryF32Fn = void (*)(const float* a, const float* b, float* out, int64_t n);
// out[i] = a cmp b as a bool byte (0 or 1), f32 -> bool (Eq Ne Lt Le Gt Ge).
using CompareF32Fn = void (*)(const float* a, const float* b, uint8_t* out, int64_t n);
// out[i] = op(in[i]), f32 -> f32 (every UnaryOp: Neg Exp Log Tanh Sqrt Abs Sigmoid Relu).
using UnaryF32Fn = void (*)(const float* in, float* out, int64_t n);

// A fused program (vm/bytecode.h FusedProgram) over n elements: inputs[l] is
// leaf l's first element (f32, or bool bytes for a kBool leaf, passed through
// the same pointer array); a leaf whose bit is set in `scalar_leaves` is one
// element broadcast to every element, any other a contiguous run of n.
using FusedF32Fn = void (*)(const float* const* inputs, float* out, int64_t n);
// The reduction `op` (kSum, kProd, kMax or kMin) of in[0..n) in the order of
// kernels/reduce.h (chunks, 16 lanes, tree, chunks left to right).
using ReduceF32Fn = float (*)(const float* in, int64_t n);
// The sum, in kernels/reduce.h's order, of a map of in[0..n) with the
// constant c, for the passes of var, logsumexp and softmax
// (kernels/reduce.h): the map's values are exactly the reference's.
enum class MapSum : uint8_t {
  kSquaredDeviation,  // (x - c) * (x - c)
  kExpShifted,        // exp(x - c)
  kExpShiftedStore,   // exp(x - c), each also written to out[i] (out may equal in)
};
using MapSumF32Fn = float (*)(const float* in, int64_t n, float c, float* out);

// Random kernels (vm/jit/random.cc): Threefry-2x32/20 in SIMD lanes fused
// with one transform of vm/random/samplers.h, bitwise equal to it. Element j
// of a call hashes the counter (hi, lo + j) under the key (k0, k1) — the
// caller keeps lo + n <= 2^32, splitting a range where the low word would
// wrap — and xors the two output words into 32 random bits, which become:
enum class RandomKernel : uint8_t {
  kBits,         // out: u32, the bits themselves (random::Bits)
  kUniform,      // out: f32, max(lo, u * scale + lo), two roundings (random::Uniform)
  kNormal,       // out: f32, sqrt(2) * erfinv(uniform(nextafter(-1, 0), 1)) (random::Normal)
  kExponential,  // out: f32, -log1p(-u) (random::Exponential)
  kBernoulli,    // out: bool bytes, u < p (random::Bernoulli)
  kDropout,      // out: f32, u < p ? x[j] / p : 0, p = keep (random::Dropout, 0 < rate < 1)
  kGumbel,       // out: f32, -log(-log(uniform(FLT_MIN, 1))) (random::Gumbel)
  // Gumbel-max over x[0..n) (random::Categorical's scan): value j = gumbel_j
  // + x[j]; per lane l the first largest value and its index j, as f32 at
  // out[l], as i32 at out[16 + l], and out[32 + l] nonzero if any value of
  // the lane was NaN. Lanes past the vector width are not written.
  kCategorical,
};
struct RandomParams {
  uint32_t k0 = 0, k1 = 0;   // the counter-0 key (random::EffectiveKey)
  uint32_t hi = 0;           // the counter's high word, one for the whole call
  uint32_t lo = 0;           // the counter's low word at element 0
  float lo_bound = 0.0f;     // kUniform: lo
  float scale = 1.0f;        // kUniform: hi - lo, rounded to f32 as the reference does
  float p = 0.0f;            // kBernoulli: p; kDropout: keep = f32(1 - rate)
  const float* x = nullptr;  // kDropout: the input, element j at x[j] (may equal out);
                             // kCategorical: the logits
};
// u is BitsToUnitFloat(bits): the top 23 bits as a mantissa in [1, 2), minus 1.
using RandomFn = void (*)(const RandomParams* params, void* out, int64_t n);

// Keyed random kernels (vm/jit/random.cc): Threefry-2x32/20 with a key and
// a counter per element, for samplers whose every element hashes its own
// chain of keys (JAX's _gamma_one splits each element's key several times a
// draw). Element j hashes the counter (c0[j], c1[j]) under the key (k0[j],
// k1[j]), as random::Threefry2x32, and the two output words become:
enum class KeyedKernel : uint8_t {
  kWords,   // y0[j], y1[j]: both words (with counter (0, i): random::SplitKey(key, i))
  kBits,    // y0[j]: word0 ^ word1 (with counter (0, 0): element 0 of bits(key))
  kNormal,  // y0[j] as f32: random::Normal's transform of those bits
};
// Each y may equal any input array exactly (every input vector is loaded
// before the outputs at its index are stored); other overlaps are undefined.
struct KeyedParams {
  const uint32_t* k0 = nullptr;
  const uint32_t* k1 = nullptr;
  const uint32_t* c0 = nullptr;
  const uint32_t* c1 = nullptr;
  uint32_t* y0 = nullptr;
  uint32_t* y1 = nullptr;  // kWords only
};
using KeyedFn = void (*)(const KeyedParams* params, int64_t n);

// Aliasing: `out` may equal `a` or `b` (or `in`) exactly, as the reference
// allows (every vector is loaded before the store at the same index); any
// other overlap is undefined. n <= 0 writes nothing.

struct Options {
  // Test hooks: behave as if the CPU lacked AVX2+FMA (every request fails)
  // or AVX-512F (kAuto picks AVX2, kAvx512 fails).
  bool pretend_no_avx2 = false;
  bool pretend_no_avx512 = false;
  // Test hook: emit one invalid instruction into every kernel, to check that
  // an asmjit error gives nullptr (and no crash).
  bool inject_asmjit_error = false;
};

struct JitStats {
  int64_t kernels_compiled = 0;  // successful compilations
  int64_t compile_failures = 0;  // asmjit errors (unsupported requests not counted)
  int64_t compile_nanos = 0;     // wall time spent generating code
  int64_t kernel_nanos = 0;      // wall time inside kernels (only while timing is on)
};

class Jit {
 public:
  explicit Jit(Options options = {});
  ~Jit();
  Jit(const Jit&) = delete;
  Jit& operator=(const Jit&) = delete;

  // Whether kernels can be had at all (AVX2+FMA present and not disabled),
  // and whether the AVX-512 path can.
  bool available();
  bool has_avx512();

  // The compiled kernel, or nullptr (see above). Ops outside each function's
  // list give nullptr.
  BinaryF32Fn BinaryF32(kernels::BinaryOp op, Layout layout, Isa isa = Isa::kAuto);
  CompareF32Fn CompareF32(kernels::BinaryOp op, Layout layout, Isa isa = Isa::kAuto);
  UnaryF32Fn UnaryF32(kernels::UnaryOp op, Isa isa = Isa::kAuto);
  // Programs with at most kMaxFusedLeaves leaves and kMaxFusedNodes nodes:
  // f32 arithmetic and unary ops, comparisons to masks, `where` on a mask;
  // an ill-typed program gives nullptr.
  static constexpr int kMaxFusedLeaves = 16;
  static constexpr int kMaxFusedNodes = 64;
  FusedF32Fn FusedF32(const FusedProgram& program, uint32_t scalar_leaves, Isa isa = Isa::kAuto);
  ReduceF32Fn ReduceF32(kernels::ReduceOp op, Isa isa = Isa::kAuto);
  MapSumF32Fn MapSumF32(MapSum map, Isa isa = Isa::kAuto);
  // out[m, n] = a[m, k] @ b[k, n] (contiguous row-major, out aliases
  // neither) with kernels/matmul.h's FMA chain per output. False when the
  // JIT cannot (nothing written): the caller runs the reference kernel.
  // With a pool, blocks of rows and columns (never of k) run on its threads;
  // the result is the same bits for any thread count.
  bool MatMulF32(int64_t m, int64_t k, int64_t n, const float* a, const float* b, float* out,
                 ThreadPool* pool = nullptr, Isa isa = Isa::kAuto);
  // The same product with either operand stored transposed (`transposed`:
  // a given as the row-major [k, m] of its transpose, b as [n, k]), read in
  // place while packing: `x @ transpose(y)` needs no copy of y. The same
  // bits as the product of the copied operands.
  struct MatMulOperand {
    const float* data;
    bool transposed;
  };
  bool MatMulF32(int64_t m, int64_t k, int64_t n, MatMulOperand a, MatMulOperand b, float* out,
                 ThreadPool* pool = nullptr, Isa isa = Isa::kAuto);
  // The random kernel (see RandomKernel), or nullptr.
  RandomFn Random(RandomKernel kernel, Isa isa = Isa::kAuto);
  // The keyed random kernel (see KeyedKernel), or nullptr.
  KeyedFn Keyed(KeyedKernel kernel, Isa isa = Isa::kAuto);

  const JitStats& stats() const { return stats_; }

  // Whether callers time their kernel calls (KernelTimer): on for
  // `alea run --stats`, off otherwise (two clock reads per call).
  void set_timing(bool on) { timing_ = on; }
  // Adds the time until its destruction to stats().kernel_nanos when timing
  // is on; wrap each kernel call (or a loop of calls) in one.
  class KernelTimer {
   public:
    explicit KernelTimer(Jit& jit);
    ~KernelTimer();
    KernelTimer(const KernelTimer&) = delete;
    KernelTimer& operator=(const KernelTimer&) = delete;

   private:
    Jit& jit_;
    int64_t start_;
  };

  // For the kernel families in vm/jit/*.cc: the kernel cached under `key`
  // for the ISA that `isa` resolves to, generated by compile(avx512,
  // inject_error) on first use (timed, counted); nullptr when the JIT or
  // that ISA is unavailable, or compile failed. `key` names the family, op
  // chain and layout; the ISA is added here.
  void* Cached(const std::string& key, Isa isa,
               absl::FunctionRef<void*(bool avx512, bool inject_error)> compile);

 private:
  struct Impl;  // asmjit runtime and the kernel cache (codegen.h)
  Impl& impl();

  Options options_;
  JitStats stats_;
  bool timing_ = false;
  std::unique_ptr<Impl> impl_;  // created by the first request
};

}  // namespace alea::vm::jit

#endif  // ALEA_VM_JIT_JIT_H_
