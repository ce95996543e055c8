// The tensor JIT's whole-sequence f32 reductions (jit.h ReduceF32): sum,
// prod, max and min of in[0..n) in exactly the order of kernels/reduce.h, so
// that the result is the reference's bits whatever the ISA path; and the
// map-sums of var's, logsumexp's and softmax's second passes (jit.h
// MapSumF32): each loaded vector is mapped ((x - c)^2, or exp(x - c) with
// math_f32.cc's exp, optionally stored) before the sum's fold, in registers.
//
// The reference's 16 lane accumulators are one zmm (AVX-512) or two ymm
// (AVX2: lanes 0-7 and 8-15). Every chunk of kReduceChunk elements starts on
// a fresh identity vector; since kReduceChunk is a multiple of 16, element
// c + 16 * k + j of a chunk starting at c always lands in lane j, so one
// vector step per 16 elements is exactly the reference's inner loop.
//
// A lane's accumulation within a chunk is one dependent chain (splitting it
// would reassociate it), so a single chunk runs at one fold per op latency
// (3-4 cycles), well below memory bandwidth. Different chunks, though, are independent until
// their results combine: whole chunks are therefore reduced kGroup at a
// time, side by side, each with its own accumulators (kGroup streams
// kReduceChunk apart), and their results combined left to right afterwards.
// Chunks that do not fill a group, and the partial last chunk, go one at a
// time.
//
// The partial last vector of the last chunk contributes only its first
// n % 16 lanes: on AVX-512 the op itself is masked (the other lanes keep
// their accumulators), on AVX2 the masked-off lanes are replaced by the
// identity, which passes every accumulator through unchanged (acc + -0.0 is
// acc, the Max/Min rules keep acc against -inf/+inf or when acc is NaN).
//
// The tree and the chunk combine run on whole vectors, with the partner lanes
// shuffled into place; only lane 0 is meaningful and the others compute
// garbage that is never read (IEEE exceptions are masked, so that is free).
// Every step puts reduce.h's left operand (the accumulator, lane j, the
// running result) first, which decides the NaN that a sum propagates when
// several meet: x86 returns the first source's NaN, quieted. Both paths
// therefore agree on it; the compiled reference need not, since the compiler
// may commute `+` (reduce_jit_test.cc compares sums' NaNs as "a NaN", as
// tests/vm/kernels/reduce_test.cc does).
//
// Max/Min follow elementwise_ops.def's select rule, never vmaxps/vminps alone
// (they return the second source on NaN and on equal zeros): take x only
// where acc is not NaN and !(acc >= x) (Min: !(acc <= x)), i.e. the
// unordered "not greater-or-equal" predicate, which is also true when x is
// NaN. That is two compares and a blend per step, so max/min first make a
// NaN-free pass over each group (or single chunk): vmaxps(x, acc) is exactly
// the rule while neither operand is NaN (acc first on ties, as the rule), and
// a running max of |x|'s bits tells whether a NaN went by; if one did, the
// group is reduced again with the rule. Data without NaNs is thus read once
// at the speed of a sum; data with one is read twice where it has one.
//
// On the AVX-512 path a 64-byte load from an address that is not 64-byte
// aligned spans two cache lines every time, which nearly halves the speed of
// a stream from memory. Inputs that are not aligned (views; tensors are)
// take a copy of the loops that loads each zmm as two 32-byte halves.
#include "vm/kernels/reduce.h"

#include <asmjit/x86.h>

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "vm/jit/codegen.h"
#include "vm/jit/jit.h"

namespace alea::vm::jit {
namespace {

using kernels::ReduceOp;

// 16 dwords read at &kAvx2TailMask[16 - rem] have exactly rem leading
// all-ones lanes: the first 8 are the mask of lanes 0-7, the next 8 of lanes
// 8-15. Constant-initialized, so no static initializer runs at start-up.
alignas(64) constexpr int32_t kAvx2TailMask[32] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                   -1, -1, -1, -1, -1, 0,  0,  0,  0,  0,  0,
                                                   0,  0,  0,  0,  0,  0,  0,  0,  0,  0};
// kAvx512TailMask[rem] has the low rem bits set.
alignas(64) constexpr uint16_t kAvx512TailMask[17] = {
    0x0000, 0x0001, 0x0003, 0x0007, 0x000f, 0x001f, 0x003f, 0x007f, 0x00ff,
    0x01ff, 0x03ff, 0x07ff, 0x0fff, 0x1fff, 0x3fff, 0x7fff, 0xffff};
// +inf's bits in 16 lanes: |x|'s bits above them are a NaN's.
alignas(64) constexpr uint32_t kInfBits[16] = {0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u,
                                               0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u,
                                               0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u,
                                               0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u};

constexpr uint32_t kMinusZero = 0x80000000u;
constexpr uint32_t kOne = 0x3f800000u;
constexpr uint32_t kMinusInf = 0xff800000u;
constexpr uint32_t kPlusInf = 0x7f800000u;
constexpr uint32_t kAbsMask = 0x7fffffffu;

// Whole chunks reduced side by side (see the top of the file). Four hide the
// latency of the longest fold and still leave AVX2 enough of its 16
// registers.
constexpr int kGroup = 4;
constexpr int64_t kChunkBytes = kernels::kReduceChunk * 4;
constexpr int kVectorBytes = kernels::kReduceLanes * 4;

asmjit::Imm Pred(x86::VCmpImm p) { return asmjit::Imm(static_cast<int>(p)); }

// The 16 lane accumulators of one chunk: one zmm, or two ymm (lanes 0-7 in
// lo, 8-15 in hi).
struct Lanes {
  x86::Vec lo, hi;
};

// How a pass folds each vector: the reference's rule, or (max/min only) the
// NaN-free shortcut that also records whether a NaN went by.
enum class Mode : uint8_t { kExact, kNanFree };

// A map-sum's map, or none (a plain reduction).
struct MapSpec {
  bool on = false;
  MapSum map = MapSum::kSquaredDeviation;
};

class ReduceEmitter {
 public:
  ReduceEmitter(x86::Compiler& cc, ReduceOp op, bool avx512, MapSpec map = {})
      : cc_(cc),
        op_(op),
        avx512_(avx512),
        select_(op == ReduceOp::kMax || op == ReduceOp::kMin),
        map_(map),
        math_(cc, avx512) {}

  // With a map: the constant c (lane 0 of an xmm) and the output pointer.
  void SetMapOperands(const x86::Xmm& c, const x86::Gp& in, const x86::Gp& out) {
    c_ = NewVec();
    if (avx512_) {
      cc_.vbroadcastss(c_.zmm(), c);
    } else {
      cc_.vbroadcastss(c_.ymm(), c);
    }
    if (map_.map == MapSum::kExpShiftedStore) {
      // out - in: the store of the vector at [p + off] goes to [p + delta + off].
      delta_ = cc_.newGpq("delta");
      cc_.mov(delta_, out);
      cc_.sub(delta_, in);
    }
  }

  // Returns the register holding the result in lane 0 (n <= 0: +0.0, the
  // reference's empty sum; the other ops are never asked for n == 0).
  x86::Xmm Emit(const x86::Gp& in, const x86::Gp& n) {
    identity_ = Splat(op_ == ReduceOp::kSum    ? kMinusZero
                      : op_ == ReduceOp::kProd ? kOne
                      : op_ == ReduceOp::kMax  ? kMinusInf
                                               : kPlusInf);
    if (select_) {
      abs_mask_ = Splat(kAbsMask);
      nan_seen_ = NewVec();
    }
    x86::Vec result = NewVec();
    asmjit::Label run = cc_.newLabel();
    asmjit::Label done = cc_.newLabel();
    // The first chunk combines with the identity, which gives that chunk's
    // result bit for bit (see the top of the file), so every chunk takes the
    // same path.
    Copy(result, identity_);
    cc_.test(n, n);
    cc_.jg(run);
    // Empty: +0.0 in lane 0.
    if (avx512_) {
      cc_.vpxord(result, result, result);
    } else {
      cc_.vxorps(result, result, result);
    }
    cc_.jmp(done);
    cc_.bind(run);
    if (avx512_) {
      // Two copies of the loops: zmm loads, or two halves (see the top).
      asmjit::Label unaligned = cc_.newLabel();
      cc_.test(in, kVectorBytes - 1);
      cc_.jnz(unaligned);
      EmitChunks(in, n, result, /*split_loads=*/false);
      cc_.jmp(done);
      cc_.bind(unaligned);
      EmitChunks(in, n, result, /*split_loads=*/true);
    } else {
      EmitChunks(in, n, result, /*split_loads=*/false);
    }
    cc_.bind(done);
    return result.xmm();
  }

 private:
  // All of in[0..n), n > 0, combined into result's lane 0.
  void EmitChunks(const x86::Gp& in, const x86::Gp& n, const x86::Vec& result, bool split_loads) {
    split_loads_ = split_loads;
    x86::Gp c = cc_.newGpq("chunk_start");  // element index of the current chunk
    x86::Gp p = cc_.newGpq("p");
    x86::Gp end = cc_.newGpq("end");
    x86::Gp len = cc_.newGpq("len");
    x86::Gp t = cc_.newGpq("t");
    asmjit::Label group_loop = cc_.newLabel();
    asmjit::Label group_tree = cc_.newLabel();
    asmjit::Label singles = cc_.newLabel();
    asmjit::Label chunk_loop = cc_.newLabel();
    asmjit::Label chunk_tree = cc_.newLabel();
    asmjit::Label done = cc_.newLabel();
    cc_.xor_(c, c);

    // Groups of kGroup whole chunks while they last (t: n rounded down to
    // whole groups).
    cc_.bind(group_loop);
    cc_.mov(t, n);
    cc_.and_(t, -(kGroup * kernels::kReduceChunk));
    cc_.cmp(c, t);
    cc_.jae(singles);
    Lanes group[kGroup];
    for (Lanes& lanes : group) lanes = NewLanes();
    cc_.lea(p, x86::ptr(in, c, 2));
    cc_.lea(end, x86::ptr(p, kChunkBytes));
    if (select_) {
      Pass(group, kGroup, p, end, nullptr, Mode::kNanFree);
      JumpIfNoNan(group_tree);
      cc_.lea(p, x86::ptr(in, c, 2));
    }
    Pass(group, kGroup, p, end, nullptr, Mode::kExact);
    cc_.bind(group_tree);
    // Left to right, as the reference combines chunks.
    for (const Lanes& lanes : group) {
      Tree(lanes);
      Fold(result, lanes.lo);
    }
    cc_.add(c, kGroup * kernels::kReduceChunk);
    cc_.jmp(group_loop);

    // The remaining chunks one at a time; only the last can be partial.
    cc_.bind(singles);
    cc_.cmp(c, n);
    cc_.jge(done);
    cc_.bind(chunk_loop);
    Lanes lanes = NewLanes();
    // len = min(kReduceChunk, n - c); end = p + (len & ~15); len &= 15.
    cc_.mov(len, n);
    cc_.sub(len, c);
    cc_.mov(t, kernels::kReduceChunk);
    cc_.cmp(len, t);
    cc_.cmovg(len, t);
    cc_.lea(p, x86::ptr(in, c, 2));
    cc_.mov(end, len);
    cc_.and_(end, -kernels::kReduceLanes);
    cc_.lea(end, x86::ptr(p, end, 2));
    cc_.and_(len, kernels::kReduceLanes - 1);
    if (select_) {
      Pass(&lanes, 1, p, end, &len, Mode::kNanFree);
      JumpIfNoNan(chunk_tree);
      cc_.lea(p, x86::ptr(in, c, 2));
    }
    Pass(&lanes, 1, p, end, &len, Mode::kExact);
    cc_.bind(chunk_tree);
    Tree(lanes);
    Fold(result, lanes.lo);
    cc_.add(c, kernels::kReduceChunk);
    cc_.cmp(c, n);
    cc_.jl(chunk_loop);
    cc_.bind(done);
  }

  // Folds `count` chunks side by side from the identity: chunk k's whole
  // vectors from p + k * kChunkBytes while p < end (p advances), then, with
  // `rem` (count 1 only), the rem (0..15) elements at p.
  void Pass(const Lanes* lanes, int count, const x86::Gp& p, const x86::Gp& end, const x86::Gp* rem,
            Mode mode) {
    for (int k = 0; k < count; ++k) {
      Copy(lanes[k].lo, identity_);
      if (!avx512_) Copy(lanes[k].hi, identity_);
    }
    if (mode == Mode::kNanFree) {
      if (avx512_) {
        cc_.vpxord(nan_seen_, nan_seen_, nan_seen_);
      } else {
        cc_.vpxor(nan_seen_, nan_seen_, nan_seen_);
      }
    }
    asmjit::Label loop = cc_.newLabel();
    asmjit::Label after = cc_.newLabel();
    cc_.cmp(p, end);
    cc_.jae(after);
    cc_.bind(loop);
    for (int k = 0; k < count; ++k) FoldVector(lanes[k], p, k * kChunkBytes, mode);
    EndStep();
    cc_.add(p, kVectorBytes);
    cc_.cmp(p, end);
    cc_.jb(loop);
    cc_.bind(after);
    if (rem != nullptr) {
      asmjit::Label no_tail = cc_.newLabel();
      cc_.test(*rem, *rem);
      cc_.jz(no_tail);
      FoldTail(lanes[0], p, *rem, mode);
      EndStep();
      cc_.bind(no_tail);
    }
  }

  x86::Vec NewVec() { return avx512_ ? x86::Vec(cc_.newZmmPs()) : x86::Vec(cc_.newYmmPs()); }

  Lanes NewLanes() { return Lanes{NewVec(), avx512_ ? x86::Vec() : NewVec()}; }

  // A vector of the 32-bit pattern `bits` in every lane.
  x86::Vec Splat(uint32_t bits) {
    x86::Vec v = NewVec();
    x86::Gp t = cc_.newGpd();
    cc_.mov(t, bits);
    if (avx512_) {
      cc_.vpbroadcastd(v, t);
    } else {
      x86::Xmm x = cc_.newXmm();
      cc_.vmovd(x, t);
      cc_.vpbroadcastd(v, x);
    }
    return v;
  }

  void Copy(const x86::Vec& dst, const x86::Vec& src) { cc_.vmovaps(dst, src); }

  // A map-sum's map of x, in place: x - c, then its square or exp, as
  // kernels/reduce_f32.cc computes each element; stored at [p + delta + off]
  // (`tail`: the AVX-512 lanes of k, or the AVX2 lanes of a vector mask).
  void Map(const x86::Vec& x, const x86::Gp& p, int32_t off, const x86::KReg* tail_k = nullptr,
           const x86::Vec* tail_v = nullptr) {
    math_.Sub(x, x, c_);
    if (map_.map == MapSum::kSquaredDeviation) {
      math_.Mul(x, x, x);
      return;
    }
    codegen::EmitExpF32(math_, x, x);
    if (map_.map != MapSum::kExpShiftedStore) return;
    const x86::Mem dst =
        avx512_ ? x86::zmmword_ptr(p, delta_, 0, off) : x86::ymmword_ptr(p, delta_, 0, off);
    if (tail_k != nullptr) {
      cc_.k(*tail_k).vmovups(dst, x);
    } else if (tail_v != nullptr) {
      cc_.vmaskmovps(dst, *tail_v, x);
    } else {
      cc_.vmovups(dst, x);
    }
  }

  // The 16 elements at [p + offset] into one chunk's 16 lanes.
  void FoldVector(const Lanes& lanes, const x86::Gp& p, int64_t offset, Mode mode) {
    const int32_t off = static_cast<int32_t>(offset);
    if (map_.on) {
      if (!avx512_) {
        for (int half = 0; half < 2; ++half) {
          x86::Vec x = Load(x86::ymmword_ptr(p, off + half * 32));
          Map(x, p, off + half * 32);
          Fold(half == 0 ? lanes.lo : lanes.hi, x);
        }
        return;
      }
      x86::Vec x = NewVec();
      if (split_loads_) {
        cc_.vbroadcastf64x4(x, x86::ymmword_ptr(p, off));
        cc_.vinsertf64x4(x, x, x86::ymmword_ptr(p, off + 32), 1);
      } else {
        cc_.vmovups(x, x86::zmmword_ptr(p, off));
      }
      Map(x, p, off);
      Fold(lanes.lo, x);
      return;
    }
    if (!avx512_) {
      FoldAs(mode, lanes.lo, Load(x86::ymmword_ptr(p, off)));
      FoldAs(mode, lanes.hi, Load(x86::ymmword_ptr(p, off + 32)));
    } else if (split_loads_) {
      x86::Vec x = NewVec();
      cc_.vbroadcastf64x4(x, x86::ymmword_ptr(p, off));
      cc_.vinsertf64x4(x, x, x86::ymmword_ptr(p, off + 32), 1);
      FoldAs(mode, lanes.lo, x);
    } else if (!select_) {
      Fold(lanes.lo, x86::zmmword_ptr(p, off));  // the load folds into the add or mul
    } else {
      FoldAs(mode, lanes.lo, Load(x86::zmmword_ptr(p, off)));
    }
  }

  x86::Vec Load(const x86::Mem& m) {
    x86::Vec v = NewVec();
    cc_.vmovups(v, m);
    return v;
  }

  void FoldAs(Mode mode, const x86::Vec& acc, const x86::Vec& x, const x86::KReg* tail = nullptr) {
    if (mode == Mode::kExact) {
      Fold(acc, x, tail);
    } else {
      FoldNanFree(acc, x, tail);
    }
  }

  // acc = acc op x with the reference's rule (x a register or, for sums, in
  // memory); on the AVX-512 path only the lanes of `tail` when it is given.
  template <typename Operand>
  void Fold(const x86::Vec& acc, const Operand& x, const x86::KReg* tail = nullptr) {
    if (!select_) {
      const asmjit::InstId id =
          op_ == ReduceOp::kProd ? x86::Inst::kIdVmulps : x86::Inst::kIdVaddps;
      if (tail != nullptr) {
        cc_.k(*tail).emit(id, acc, acc, x);
      } else {
        cc_.emit(id, acc, acc, x);
      }
      return;
    }
    // take x = !isnan(acc) && !(acc >= x) (Max) / !(acc <= x) (Min).
    const x86::VCmpImm not_kept =
        op_ == ReduceOp::kMax ? x86::VCmpImm::kNGE_UQ : x86::VCmpImm::kNLE_UQ;
    if (avx512_) {
      x86::KReg ordered = cc_.newKw();
      x86::KReg take = cc_.newKw();
      // Two independent compares and a kand: a shorter chain through acc than
      // a compare masked by the other.
      cc_.vcmpps(ordered, acc, acc, Pred(x86::VCmpImm::kORD_Q));
      cc_.vcmpps(take, acc, x, Pred(not_kept));
      cc_.kandw(take, take, ordered);
      // (A compare masked by the tail would do, but asmjit's allocator then
      // treats its k destination as an input and spills it.)
      if (tail != nullptr) cc_.kandw(take, take, *tail);
      cc_.k(take).vmovaps(acc, x);
    } else {
      x86::Vec take = NewVec();
      x86::Vec ordered = NewVec();
      cc_.vcmpps(ordered, acc, acc, Pred(x86::VCmpImm::kORD_Q));
      cc_.vcmpps(take, acc, x, Pred(not_kept));
      cc_.vandps(take, take, ordered);
      cc_.vblendvps(acc, acc, x, take);  // the mask's sign bits select x
    }
  }

  // Max/min of NaN-free lanes: vmaxps(x, acc) is `x > acc ? x : acc`, which
  // is the select rule whenever neither is NaN (equal zeros keep acc). It
  // differs when x is NaN, so nan_seen_ keeps the largest |x| bits, and a
  // pass that saw a NaN is redone exactly (JumpIfNoNan).
  void FoldNanFree(const x86::Vec& acc, const x86::Vec& x, const x86::KReg* tail = nullptr) {
    x86::Vec magnitude = NewVec();
    if (avx512_) {
      if (tail != nullptr) {
        if (op_ == ReduceOp::kMax) {
          cc_.k(*tail).vmaxps(acc, x, acc);
        } else {
          cc_.k(*tail).vminps(acc, x, acc);
        }
      } else if (op_ == ReduceOp::kMax) {
        cc_.vmaxps(acc, x, acc);
      } else {
        cc_.vminps(acc, x, acc);
      }
      cc_.vpandd(magnitude, x, abs_mask_);
    } else {
      if (op_ == ReduceOp::kMax) {
        cc_.vmaxps(acc, x, acc);
      } else {
        cc_.vminps(acc, x, acc);
      }
      cc_.vpand(magnitude, x, abs_mask_);
    }
    // Magnitudes are non-negative as int32, so the signed max orders them.
    // They are combined within the step first: one max per step into
    // nan_seen_ keeps that loop-carried chain short.
    if (step_max_.isValid()) {
      cc_.vpmaxsd(step_max_, step_max_, magnitude);
    } else {
      step_max_ = magnitude;
    }
  }

  // After the FoldNanFree calls of one step (and of the tail).
  void EndStep() {
    if (!step_max_.isValid()) return;
    cc_.vpmaxsd(nan_seen_, nan_seen_, step_max_);
    step_max_ = x86::Vec();
  }

  // Continues at `clean` if the NaN-free pass saw no NaN, else falls through.
  void JumpIfNoNan(const asmjit::Label& clean) {
    x86::Gp tbl = cc_.newGpq("inf_bits");
    cc_.mov(tbl, reinterpret_cast<uint64_t>(kInfBits));
    if (avx512_) {
      x86::KReg nan = cc_.newKw();
      cc_.vpcmpgtd(nan, nan_seen_, x86::zmmword_ptr(tbl));
      cc_.kortestw(nan, nan);
    } else {
      x86::Vec nan = NewVec();
      cc_.vpcmpgtd(nan, nan_seen_, x86::ymmword_ptr(tbl));
      cc_.vptest(nan, nan);
    }
    cc_.jz(clean);
  }

  // Folds the rem (1..15) elements at p into lanes 0..rem-1; loads of the
  // other lanes are masked, so they cannot fault past the end.
  void FoldTail(const Lanes& lanes, const x86::Gp& p, const x86::Gp& rem, Mode mode) {
    x86::Gp tbl = cc_.newGpq("mask_table");
    if (avx512_) {
      x86::KReg k = cc_.newKw("tail");
      cc_.mov(tbl, reinterpret_cast<uint64_t>(kAvx512TailMask));
      cc_.kmovw(k, x86::word_ptr(tbl, rem, 1));
      x86::Vec x = NewVec();
      cc_.k(k).z().vmovups(x, x86::zmmword_ptr(p));  // masked-off lanes: +0.0, not NaN
      if (map_.on) Map(x, p, 0, &k);                 // the masked-off lanes' values are never used
      FoldAs(mode, lanes.lo, x, &k);
      return;
    }
    x86::Gp neg = cc_.newGpq();
    cc_.mov(tbl, reinterpret_cast<uint64_t>(kAvx2TailMask + 16));
    cc_.mov(neg, rem);
    cc_.neg(neg);
    const x86::Vec* halves[2] = {&lanes.lo, &lanes.hi};
    for (int half = 0; half < 2; ++half) {
      x86::Vec mask = NewVec();
      x86::Vec x = NewVec();
      cc_.vmovdqu(mask, x86::ptr(tbl, neg, 2, half * 32));
      cc_.vmaskmovps(x, mask, x86::ymmword_ptr(p, half * 32));
      if (map_.on) Map(x, p, half * 32, nullptr, &mask);
      cc_.vblendvps(x, identity_, x, mask);  // the identity where masked off
      FoldAs(mode, *halves[half], x);
    }
  }

  // lane[j] = lane[j] op lane[j + h] for h = 8, 4, 2, 1, into lanes.lo's
  // lane 0, with the reference's rule (the lanes may hold NaNs here only if
  // the exact pass ran, but the rule is right either way).
  void Tree(const Lanes& lanes) {
    const x86::Vec& acc = lanes.lo;
    x86::Vec t = NewVec();
    if (avx512_) {
      cc_.vshuff32x4(t, acc, acc, 0xee);  // 128-bit blocks 2, 3 -> 0, 1
      Fold(acc, t);
      cc_.vshuff32x4(t, acc, acc, 0x55);  // block 1 -> 0
      Fold(acc, t);
    } else {
      Fold(acc, lanes.hi);
      cc_.vperm2f128(t, acc, acc, 0x01);  // swap the 128-bit halves
      Fold(acc, t);
    }
    cc_.vpermilps(t, acc, 0xee);  // lanes 2, 3 -> 0, 1
    Fold(acc, t);
    cc_.vpermilps(t, acc, 0x55);  // lane 1 -> 0
    Fold(acc, t);
  }

  x86::Compiler& cc_;
  const ReduceOp op_;
  const bool avx512_;
  const bool select_;  // max/min: the NaN-free pass first
  const MapSpec map_;
  codegen::VectorEmitter math_;  // the map's arithmetic and exp
  x86::Vec c_;                   // the map's constant in every lane
  x86::Gp delta_;                // kExpShiftedStore: out - in
  bool split_loads_ = false;
  x86::Vec identity_, abs_mask_, nan_seen_;
  x86::Vec step_max_;  // FoldNanFree's magnitudes of the current step
};

void* Compile(asmjit::JitRuntime& runtime, ReduceOp op, bool avx512, bool inject_error) {
  const asmjit::FuncSignatureT<float, const float*, int64_t> signature;
  return codegen::CompileFunction(runtime, signature, avx512, inject_error,
                                  [&](x86::Compiler& cc, asmjit::FuncNode* fn) {
                                    x86::Gp in = cc.newGpq("in");
                                    x86::Gp n = cc.newGpq("n");
                                    fn->setArg(0, in);
                                    fn->setArg(1, n);
                                    x86::Xmm result = ReduceEmitter(cc, op, avx512).Emit(in, n);
                                    cc.ret(result);
                                  });
}

void* CompileMapSum(asmjit::JitRuntime& runtime, MapSum map, bool avx512, bool inject_error) {
  const asmjit::FuncSignatureT<float, const float*, int64_t, float, float*> signature;
  return codegen::CompileFunction(runtime, signature, avx512, inject_error,
                                  [&](x86::Compiler& cc, asmjit::FuncNode* fn) {
                                    x86::Gp in = cc.newGpq("in");
                                    x86::Gp n = cc.newGpq("n");
                                    x86::Xmm c = cc.newXmmSs("c");
                                    x86::Gp out = cc.newGpq("out");
                                    fn->setArg(0, in);
                                    fn->setArg(1, n);
                                    fn->setArg(2, c);
                                    fn->setArg(3, out);
                                    ReduceEmitter e(cc, ReduceOp::kSum, avx512, {true, map});
                                    e.SetMapOperands(c, in, out);
                                    cc.ret(e.Emit(in, n));
                                  });
}

}  // namespace

MapSumF32Fn Jit::MapSumF32(MapSum map, Isa isa) {
  asmjit::JitRuntime& runtime = impl().runtime;
  return reinterpret_cast<MapSumF32Fn>(Cached(
      absl::StrCat("mapsum:", static_cast<int>(map)), isa, [&](bool avx512, bool inject_error) {
        return CompileMapSum(runtime, map, avx512, inject_error);
      }));
}

ReduceF32Fn Jit::ReduceF32(ReduceOp op, Isa isa) {
  // Mean is the sum divided by n, done by the caller; argmax is not a fold.
  if (op != ReduceOp::kSum && op != ReduceOp::kProd && op != ReduceOp::kMax &&
      op != ReduceOp::kMin) {
    return nullptr;
  }
  asmjit::JitRuntime& runtime = impl().runtime;
  return reinterpret_cast<ReduceF32Fn>(Cached(
      absl::StrCat("reduce:", static_cast<int>(op)), isa,
      [&](bool avx512, bool inject_error) { return Compile(runtime, op, avx512, inject_error); }));
}

}  // namespace alea::vm::jit
