// The tensor JIT's random kernels (jit.h, RandomKernel): Threefry-2x32/20 in
// 32-bit SIMD lanes fused with the sampler transforms of random/samplers.cc,
// one pass, everything in registers.
//
// Structure of a kernel (one asmjit function per kernel and ISA):
// - Entry: the key schedule is computed once in general-purpose registers
//   from params (ks2 = k0 ^ k1 ^ parity; x0's start hi + ks0, which is the
//   same for every element; lo + ks1; the five x1 injections ks[(s+1)%3] + s)
//   and broadcast: into registers on AVX-512 (the allocator spills what does
//   not fit), onto the stack on AVX2 (16 ymm are too few; the rounds read
//   them as memory operands, which fold into the integer adds). The lane
//   counter base is lo + ks1 + lane index.
// - Loop (VectorEmitter::LoopUnrolled): each step runs `unroll` independent
//   Threefry chains, one vector each, round by round across the vectors:
//   a chain is ~75 dependent operations, and interleaving 8-12 lets the
//   out-of-order core keep every vector pipe busy. Then one vector at a time
//   for the remaining full vectors, then one masked step for the last
//   n % width elements (masked stores and loads, so nothing is touched past
//   n; the counters of masked-off lanes are computed and dropped).
// - Counters: element j hashes (hi, lo + j). Step's vector v holds elements
//   index + v * width + lane, so x1 = (lo + ks1 + lane) + index + v * width in
//   wrapping u32 lanes, which is lo + j + ks1 exactly as the reference's
//   x1 += ks[1] (u32 addition is associative and commutative mod 2^32).
//
// Bitwise equality with random/samplers.cc:
// - Bits: Threefry is integer arithmetic mod 2^32 (vpaddd, vprold or
//   shift/shift/or or a byte shuffle for the rotations, vpxor); the same
//   rounds, rotations and injections as random/threefry.cc give the same
//   words, and bits = word0 ^ word1.
// - u = BitsToUnitFloat: (bits >> 9) | 0x3f800000 as an integer, then one
//   vsubps of 1.0f: the reference's bit_cast and f32 subtraction.
// - Uniform: vmulps u * scale then vaddps + lo, two roundings as the
//   reference (no FMA). MaxF32(lo, y): an unordered compare of y with lo
//   picks the reference's NaN, whose bits are std::nanf("")'s, read at code
//   generation on this same platform; otherwise `lo > y ? lo : y` as an
//   ordered compare and a blend (equal zeros give y, as the reference).
// - Normal: Uniform with the reference's constants (lo = nextafter(-1, 0),
//   scale = f32(1 - lo) computed in f32 here as the reference computes it),
//   then EmitErfinvF32 (math_f32.cc, instruction for instruction equal to
//   kernels::ErfinvF32) and one vmulps by f32(sqrt 2). The reference writes
//   the uniform values to memory and transforms them in a second pass; a
//   float round-trips through memory unchanged, so doing both in registers
//   gives the same bits.
// - Exponential: Uniform(0, 1) is u itself (u * 1 and u + 0 are exact, and
//   max(0, u) is u for u in [0, 1)), so -Log1pF32(-u) with negation as a sign
//   flip and EmitLog1pF32 for Log1pF32.
// - Gumbel: Uniform with lo = FLT_MIN and scale = f32(1 - FLT_MIN), then
//   -LogF32(-LogF32(y)) with EmitLogF32 and sign flips, as random::Gumbel.
//   Categorical and choice without replacement draw their Gumbel noise here.
// - Bernoulli: the ordered compare u < p (false for a NaN p), 0/1 bytes.
// - Dropout: q = x / keep (vdivps) in every lane, then an ordered u < keep
//   blends q with +0.0f. Division has no side effect the reference could
//   observe, so computing it for dropped lanes changes nothing. x is loaded
//   before out is stored at the same index, so out may alias x.
#include <asmjit/x86.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/jit/codegen.h"
#include "vm/jit/jit.h"

namespace alea::vm::jit {
namespace {

using codegen::Mask;
using codegen::VectorEmitter;
using Cmp = x86::VCmpImm;

constexpr uint32_t kParity = 0x1BD11BDA;  // random/threefry.cc's kParity
constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
constexpr int kRounds = 20;
constexpr uint32_t kSignBit = 0x80000000u;

// random::Normal's bounds and factor.
constexpr float kNormalLo = -0x1.fffffep-1f;
constexpr float kSqrt2 = 0x1.6a09e6p+0f;

struct Request {
  RandomKernel kernel;
  bool avx512;
  bool inject_error;
};

// Independent Threefry chains per main-loop step, measured with
// bench/random/jit_random_bench.cc on Zen 5: throughput keeps improving well
// past the point where the chains fill the register file (spilled state
// costs little next to the overlap gained), up to 12 zmm (8 for the long
// erfinv/log1p transforms, which bring their own independent work) and 8 ymm.
int Unroll(const Request& r) {
  if (!r.avx512) return 8;
  const bool long_transform = r.kernel == RandomKernel::kNormal ||
                              r.kernel == RandomKernel::kExponential ||
                              r.kernel == RandomKernel::kGumbel;
  return long_transform ? 8 : 12;
}

// The per-call key material as vector operands: registers on AVX-512,
// stack slots on AVX2 (see the top comment).
struct KeyOperands {
  asmjit::Operand x0_start;   // hi + ks0
  asmjit::Operand ks[3];      // ks0, ks1, ks2
  asmjit::Operand inject[5];  // x1's injection s = 1..5: ks[(s + 1) % 3] + s
  x86::Vec counter_base;      // lo + ks1 + lane
};

KeyOperands EmitKeySetup(VectorEmitter& e, const x86::Gp& params) {
  x86::Compiler& cc = e.cc();
  KeyOperands key;
  x86::Gp ks[3] = {cc.newGpd("ks0"), cc.newGpd("ks1"), cc.newGpd("ks2")};
  cc.mov(ks[0], x86::dword_ptr(params, offsetof(RandomParams, k0)));
  cc.mov(ks[1], x86::dword_ptr(params, offsetof(RandomParams, k1)));
  cc.mov(ks[2], ks[0]);
  cc.xor_(ks[2], ks[1]);
  cc.xor_(ks[2], kParity);
  x86::Gp word = cc.newGpd("word");

  // Stack slots on AVX2: x0_start, ks0..2, inject1..5.
  const int bytes = e.width() * 4;
  x86::Mem stack;
  if (!e.avx512()) stack = cc.newStack(static_cast<uint32_t>(bytes * 9), 32, "keys");
  int slot = 0;
  auto broadcast = [&](const x86::Gp& value) -> asmjit::Operand {
    x86::Vec v = e.NewVec();
    e.BroadcastI32(v, value);
    if (e.avx512()) return v;
    x86::Mem m = stack;
    m.addOffset(slot++ * bytes);
    m.setSize(static_cast<uint32_t>(bytes));
    cc.vmovups(m, v);
    return m;
  };

  cc.mov(word, x86::dword_ptr(params, offsetof(RandomParams, hi)));
  cc.add(word, ks[0]);
  key.x0_start = broadcast(word);
  for (int i = 0; i < 3; ++i) key.ks[i] = broadcast(ks[i]);
  for (int s = 1; s <= 5; ++s) {
    cc.mov(word, ks[(s + 1) % 3]);
    cc.add(word, s);
    key.inject[s - 1] = broadcast(word);
  }
  cc.mov(word, x86::dword_ptr(params, offsetof(RandomParams, lo)));
  cc.add(word, ks[1]);
  key.counter_base = e.NewVec();
  e.BroadcastI32(key.counter_base, word);
  uint32_t lanes[16];
  for (uint32_t l = 0; l < 16; ++l) lanes[l] = l;
  e.AddI32(key.counter_base, key.counter_base, e.ConstLanes(lanes));
  return key;
}

// bits[v] = word0 ^ word1 of Threefry2x32(k, hi, lo + j) for the `count`
// vectors of the current step.
void EmitThreefry(VectorEmitter& e, const KeyOperands& key, int count,
                  std::vector<x86::Vec>& bits) {
  std::vector<x86::Vec> x0(count), x1(count);
  // x1 = counter_base + index + v * width; x0 = x0_start, and round 0's
  // x0 += x1 folded into x0 = x1 + x0_start.
  x86::Vec index = e.NewVec();
  e.BroadcastI32(index, e.index());
  e.AddI32(index, index, key.counter_base);
  for (int v = 0; v < count; ++v) {
    x0[v] = e.NewVec();
    if (v == 0) {
      x1[v] = index;
    } else {
      x1[v] = e.NewVec();
      e.AddI32(x1[v], index, e.Const(static_cast<uint32_t>(v * e.width())));
    }
  }
  for (int r = 0; r < kRounds; ++r) {
    for (int v = 0; v < count; ++v) {
      if (r == 0) {
        e.AddI32(x0[v], x1[v], key.x0_start);
      } else {
        e.AddI32(x0[v], x0[v], x1[v]);
      }
    }
    for (int v = 0; v < count; ++v) e.RotateLeftI32(x1[v], x1[v], kRotations[r % 8]);
    for (int v = 0; v < count; ++v) e.XorI32(x1[v], x1[v], x0[v]);
    if (r % 4 == 3) {
      const int s = (r + 1) / 4;
      for (int v = 0; v < count; ++v) {
        e.AddI32(x0[v], x0[v], key.ks[s % 3]);
        e.AddI32(x1[v], x1[v], key.inject[s - 1]);
      }
    }
  }
  bits.resize(count);
  for (int v = 0; v < count; ++v) {
    e.XorI32(x0[v], x0[v], x1[v]);
    bits[v] = x0[v];
  }
}

// BitsToUnitFloat: (bits >> 9) | 1.0f's bits, minus 1.0f. dst may be bits.
void EmitUnitFloat(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& bits) {
  e.ShiftRightLogicalI32(dst, bits, 9);
  e.OrI32(dst, dst, e.Const(0x3f800000u));
  e.Sub(dst, dst, e.ConstF(1.0f));
}

// MaxF32(lo, u * scale + lo), the reference's Uniform on u. dst may be u.
void EmitUniform(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& u, const x86::Vec& lo,
                 const x86::Vec& scale, uint32_t nan_bits) {
  x86::Vec y = e.NewVec();
  e.Mul(y, u, scale);
  e.Add(y, y, lo);
  const Mask unordered = e.Compare(Cmp::kUNORD_Q, y, lo);  // isnan(lo) || isnan(y)
  e.Select(dst, e.Compare(Cmp::kGT_OQ, lo, y), lo, y);
  e.Select(dst, unordered, e.Const(nan_bits), dst);
}

void EmitBody(x86::Compiler& cc, const Request& r, const x86::Gp& params, const x86::Gp& out,
              const x86::Gp& n) {
  VectorEmitter e(cc, r.avx512);
  const KeyOperands key = EmitKeySetup(e, params);
  // std::nanf("") as the reference's MaxF32 produces it.
  const uint32_t nan_bits = std::bit_cast<uint32_t>(std::nanf(""));

  // The kernel's per-call operands, hoisted out of the loop.
  x86::Vec lo, scale, p, zero;
  x86::Gp x;
  switch (r.kernel) {
    case RandomKernel::kUniform:
      lo = e.NewVec();
      scale = e.NewVec();
      e.Broadcast(lo, x86::dword_ptr(params, offsetof(RandomParams, lo_bound)));
      e.Broadcast(scale, x86::dword_ptr(params, offsetof(RandomParams, scale)));
      break;
    case RandomKernel::kNormal: {
      // The reference's `hi - lo` in f32 with hi = 1.
      const float normal_scale = 1.0f - kNormalLo;
      lo = e.ConstReg(std::bit_cast<uint32_t>(kNormalLo));
      scale = e.ConstReg(std::bit_cast<uint32_t>(normal_scale));
      break;
    }
    case RandomKernel::kGumbel: {
      // random::Gumbel's Uniform(FLT_MIN, 1): its `hi - lo` in f32.
      const float gumbel_scale = 1.0f - FLT_MIN;
      lo = e.ConstReg(std::bit_cast<uint32_t>(FLT_MIN));
      scale = e.ConstReg(std::bit_cast<uint32_t>(gumbel_scale));
      break;
    }
    case RandomKernel::kBernoulli:
      p = e.NewVec();
      e.Broadcast(p, x86::dword_ptr(params, offsetof(RandomParams, p)));
      break;
    case RandomKernel::kDropout:
      p = e.NewVec();
      e.Broadcast(p, x86::dword_ptr(params, offsetof(RandomParams, p)));
      zero = e.ConstReg(0);
      x = cc.newGpq("x");
      cc.mov(x, x86::qword_ptr(params, offsetof(RandomParams, x)));
      break;
    default:
      break;
  }

  std::vector<x86::Vec> bits;
  e.LoopUnrolled(n, Unroll(r), [&](int count, bool tail) {
    EmitThreefry(e, key, count, bits);
    for (int v = 0; v < count; ++v) {
      const x86::Vec& b = bits[v];
      if (r.kernel == RandomKernel::kBits) {
        e.Store(e.Elem(out, v), b, tail);
        continue;
      }
      x86::Vec u = b;  // the unit float, in place of the bits
      EmitUnitFloat(e, u, b);
      switch (r.kernel) {
        case RandomKernel::kUniform:
          EmitUniform(e, u, u, lo, scale, nan_bits);
          e.Store(e.Elem(out, v), u, tail);
          break;
        case RandomKernel::kNormal:
          EmitUniform(e, u, u, lo, scale, nan_bits);
          codegen::EmitErfinvF32(e, u, u);
          // kSqrt2 * erfinv(..): the product commutes exactly (no NaN here).
          e.Mul(u, u, e.ConstF(kSqrt2));
          e.Store(e.Elem(out, v), u, tail);
          break;
        case RandomKernel::kExponential:
          e.XorBits(u, u, e.Const(kSignBit));
          codegen::EmitLog1pF32(e, u, u);
          e.XorBits(u, u, e.Const(kSignBit));
          e.Store(e.Elem(out, v), u, tail);
          break;
        case RandomKernel::kGumbel:
          EmitUniform(e, u, u, lo, scale, nan_bits);
          codegen::EmitLogF32(e, u, u);
          e.XorBits(u, u, e.Const(kSignBit));
          codegen::EmitLogF32(e, u, u);
          e.XorBits(u, u, e.Const(kSignBit));
          e.Store(e.Elem(out, v), u, tail);
          break;
        case RandomKernel::kBernoulli:
          e.StoreBoolBytes(out, e.Compare(Cmp::kLT_OQ, u, p), tail, v);
          break;
        case RandomKernel::kDropout: {
          x86::Vec q = e.NewVec();
          e.Load(q, e.Elem(x, v), tail);
          e.Div(q, q, p);
          e.Select(q, e.Compare(Cmp::kLT_OQ, u, p), q, zero);
          e.Store(e.Elem(out, v), q, tail);
          break;
        }
        default:
          break;
      }
    }
  });
}

// ---- Keyed kernels: a key and a counter per element ----
//
// The same rounds as EmitThreefry, but nothing is shared between lanes: each
// vector loads its keys and counters, computes its own key schedule (ks2 =
// k0 ^ k1 ^ parity) and injects k[(s + 1) % 3] + s as two adds. A chain
// keeps five vectors live (two words, three key words), so fewer chains are
// interleaved than in the counter kernels: 4 on AVX-512 (32 registers), 2
// on AVX2 (16).
void EmitKeyedBody(x86::Compiler& cc, KeyedKernel kernel, bool avx512, const x86::Gp& params,
                   const x86::Gp& n) {
  VectorEmitter e(cc, avx512);
  const x86::Gp k0 = cc.newGpq("k0"), k1 = cc.newGpq("k1"), c0 = cc.newGpq("c0"),
                c1 = cc.newGpq("c1"), y0 = cc.newGpq("y0"), y1 = cc.newGpq("y1");
  cc.mov(k0, x86::qword_ptr(params, offsetof(KeyedParams, k0)));
  cc.mov(k1, x86::qword_ptr(params, offsetof(KeyedParams, k1)));
  cc.mov(c0, x86::qword_ptr(params, offsetof(KeyedParams, c0)));
  cc.mov(c1, x86::qword_ptr(params, offsetof(KeyedParams, c1)));
  cc.mov(y0, x86::qword_ptr(params, offsetof(KeyedParams, y0)));
  cc.mov(y1, x86::qword_ptr(params, offsetof(KeyedParams, y1)));
  x86::Vec lo, scale;
  if (kernel == KeyedKernel::kNormal) {
    const float normal_scale = 1.0f - kNormalLo;
    lo = e.ConstReg(std::bit_cast<uint32_t>(kNormalLo));
    scale = e.ConstReg(std::bit_cast<uint32_t>(normal_scale));
  }
  const uint32_t nan_bits = std::bit_cast<uint32_t>(std::nanf(""));
  e.LoopUnrolled(n, avx512 ? 4 : 2, [&](int count, bool tail) {
    std::vector<x86::Vec> a(count), b(count), ks0(count), ks1(count), ks2(count);
    for (int v = 0; v < count; ++v) {
      a[v] = e.NewVec();
      b[v] = e.NewVec();
      ks0[v] = e.NewVec();
      ks1[v] = e.NewVec();
      ks2[v] = e.NewVec();
      e.Load(ks0[v], e.Elem(k0, v), tail);
      e.Load(ks1[v], e.Elem(k1, v), tail);
      e.Load(a[v], e.Elem(c0, v), tail);
      e.Load(b[v], e.Elem(c1, v), tail);
      e.XorI32(ks2[v], ks0[v], ks1[v]);
      e.XorI32(ks2[v], ks2[v], e.Const(kParity));
      e.AddI32(a[v], a[v], ks0[v]);
      e.AddI32(b[v], b[v], ks1[v]);
    }
    const std::vector<x86::Vec>* ks[3] = {&ks0, &ks1, &ks2};
    for (int r = 0; r < kRounds; ++r) {
      for (int v = 0; v < count; ++v) e.AddI32(a[v], a[v], b[v]);
      for (int v = 0; v < count; ++v) e.RotateLeftI32(b[v], b[v], kRotations[r % 8]);
      for (int v = 0; v < count; ++v) e.XorI32(b[v], b[v], a[v]);
      if (r % 4 == 3) {
        const int step = (r + 1) / 4;
        for (int v = 0; v < count; ++v) {
          e.AddI32(a[v], a[v], (*ks[step % 3])[v]);
          e.AddI32(b[v], b[v], (*ks[(step + 1) % 3])[v]);
          e.AddI32(b[v], b[v], e.Const(static_cast<uint32_t>(step)));
        }
      }
    }
    for (int v = 0; v < count; ++v) {
      if (kernel == KeyedKernel::kWords) {
        e.Store(e.Elem(y0, v), a[v], tail);
        e.Store(e.Elem(y1, v), b[v], tail);
        continue;
      }
      e.XorI32(a[v], a[v], b[v]);
      if (kernel == KeyedKernel::kNormal) {
        EmitUnitFloat(e, a[v], a[v]);
        EmitUniform(e, a[v], a[v], lo, scale, nan_bits);
        codegen::EmitErfinvF32(e, a[v], a[v]);
        e.Mul(a[v], a[v], e.ConstF(kSqrt2));
      }
      e.Store(e.Elem(y0, v), a[v], tail);
    }
  });
}

// kCategorical: the Gumbel kernel's values plus the logits, reduced into
// per-lane running maxima instead of stored. A lane takes a value only when
// it is strictly greater (an ordered compare: the lane's first maximum
// wins, as the reference's scan, and NaN never wins here: it only sets the
// lane's NaN flag, and the caller then runs the reference's scan, whose
// first-NaN rule this does not follow). The tail step's lanes past n are
// masked out of the comparison.
void EmitCategoricalBody(x86::Compiler& cc, bool avx512, const x86::Gp& params, const x86::Gp& out,
                         const x86::Gp& n) {
  VectorEmitter e(cc, avx512);
  const KeyOperands key = EmitKeySetup(e, params);
  const uint32_t nan_bits = std::bit_cast<uint32_t>(std::nanf(""));
  const float gumbel_scale = 1.0f - FLT_MIN;
  const x86::Vec lo = e.ConstReg(std::bit_cast<uint32_t>(FLT_MIN));
  const x86::Vec scale = e.ConstReg(std::bit_cast<uint32_t>(gumbel_scale));
  x86::Gp x = cc.newGpq("x");
  cc.mov(x, x86::qword_ptr(params, offsetof(RandomParams, x)));
  const x86::Vec best = e.NewVec(), best_index = e.NewVec(), nan = e.NewVec();
  e.Copy(best, e.Const(0xff800000u));  // -inf
  e.Copy(best_index, e.Const(0));
  e.Copy(nan, e.Const(0));
  uint32_t lanes[16];
  for (uint32_t l = 0; l < 16; ++l) lanes[l] = l;
  const x86::Mem lane_index = e.ConstLanes(lanes);
  std::vector<x86::Vec> bits;
  e.LoopUnrolled(n, 8, [&](int count, bool tail) {
    EmitThreefry(e, key, count, bits);
    x86::Vec index = e.NewVec();
    e.BroadcastI32(index, e.index());
    e.AddI32(index, index, lane_index);
    for (int v = 0; v < count; ++v) {
      x86::Vec u = bits[v];
      EmitUnitFloat(e, u, u);
      EmitUniform(e, u, u, lo, scale, nan_bits);
      codegen::EmitLogF32(e, u, u);
      e.XorBits(u, u, e.Const(kSignBit));
      codegen::EmitLogF32(e, u, u);
      e.XorBits(u, u, e.Const(kSignBit));
      x86::Vec logit = e.NewVec();
      e.Load(logit, e.Elem(x, v), tail);
      e.Add(u, u, logit);  // gumbel + x[j], the reference's order
      x86::Vec at = index;
      if (v > 0) {
        at = e.NewVec();
        e.AddI32(at, index, e.Const(static_cast<uint32_t>(v * e.width())));
      }
      Mask take = e.Compare(Cmp::kGT_OQ, u, best);
      Mask is_nan = e.IsNaN(u);
      if (tail) {
        take = e.And(take, e.TailMask());
        is_nan = e.And(is_nan, e.TailMask());
      }
      e.Select(best, take, u, best);
      e.Select(best_index, take, at, best_index);
      e.Select(nan, is_nan, e.Const(1), nan);
    }
  });
  const int bytes = e.width() * 4;
  cc.vmovups(x86::ptr(out, 0, static_cast<uint32_t>(bytes)), best);
  cc.vmovups(x86::ptr(out, 64, static_cast<uint32_t>(bytes)), best_index);
  cc.vmovups(x86::ptr(out, 128, static_cast<uint32_t>(bytes)), nan);
}

void* Compile(asmjit::JitRuntime& runtime, const Request& r) {
  const asmjit::FuncSignature signature =
      asmjit::FuncSignatureT<void, const void*, void*, int64_t>();
  return codegen::CompileFunction(runtime, signature, r.avx512, r.inject_error,
                                  [&](x86::Compiler& cc, asmjit::FuncNode* fn) {
                                    x86::Gp params = cc.newGpq("params");
                                    x86::Gp out = cc.newGpq("out");
                                    x86::Gp n = cc.newGpq("n");
                                    fn->setArg(0, params);
                                    fn->setArg(1, out);
                                    fn->setArg(2, n);
                                    if (r.kernel == RandomKernel::kCategorical) {
                                      EmitCategoricalBody(cc, r.avx512, params, out, n);
                                    } else {
                                      EmitBody(cc, r, params, out, n);
                                    }
                                  });
}

void* CompileKeyed(asmjit::JitRuntime& runtime, KeyedKernel kernel, bool avx512,
                   bool inject_error) {
  const asmjit::FuncSignature signature = asmjit::FuncSignatureT<void, const void*, int64_t>();
  return codegen::CompileFunction(runtime, signature, avx512, inject_error,
                                  [&](x86::Compiler& cc, asmjit::FuncNode* fn) {
                                    x86::Gp params = cc.newGpq("params");
                                    x86::Gp n = cc.newGpq("n");
                                    fn->setArg(0, params);
                                    fn->setArg(1, n);
                                    EmitKeyedBody(cc, kernel, avx512, params, n);
                                  });
}

}  // namespace

KeyedFn Jit::Keyed(KeyedKernel kernel, Isa isa) {
  if (static_cast<int>(kernel) > static_cast<int>(KeyedKernel::kNormal)) return nullptr;
  const std::string key = absl::StrCat("keyed:", static_cast<int>(kernel));
  asmjit::JitRuntime& runtime = impl().runtime;
  return reinterpret_cast<KeyedFn>(Cached(key, isa, [&](bool avx512, bool inject_error) {
    return CompileKeyed(runtime, kernel, avx512, inject_error);
  }));
}

RandomFn Jit::Random(RandomKernel kernel, Isa isa) {
  if (static_cast<int>(kernel) > static_cast<int>(RandomKernel::kCategorical)) return nullptr;
  const std::string key = absl::StrCat("random:", static_cast<int>(kernel));
  asmjit::JitRuntime& runtime = impl().runtime;
  return reinterpret_cast<RandomFn>(Cached(key, isa, [&](bool avx512, bool inject_error) {
    return Compile(runtime, Request{kernel, avx512, inject_error});
  }));
}

}  // namespace alea::vm::jit
