// VectorEmitter (codegen.h): the f32 vector code shared by the JIT's kernel
// families, on the AVX2+FMA path (ymm, 8 lanes, masks as all-ones vectors)
// and the AVX-512F path (zmm, 16 lanes, masks in k registers).
//
// Choices that keep every operation bitwise equal to the reference:
// - Arithmetic is the IEEE instruction with a as the first source, one
//   rounding each; x86 then propagates the first source's NaN (quieted),
//   which is the rule elementwise_ops.def pins.
// - Max/Min are two compares and a blend, never vmaxps/vminps (those return
//   the second source on NaN and on equal zeros).
// - Only AVX-512F instructions on zmm: its bitwise ops are the integer
//   vpandd/vpord/vpxord/vpandnd (vandps and friends on zmm need AVX512DQ).
// - Constants live in the function's local constant pool, full width, so a
//   step that is emitted twice (body and tail) reads the same memory instead
//   of materializing a register per use.
#include "vm/jit/codegen.h"

#include <asmjit/x86.h>

#include <bit>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/functional/function_ref.h"
#include "vm/kernels/elementwise.h"

namespace alea::vm::jit::codegen {
namespace {

using kernels::BinaryOp;
using kernels::UnaryOp;

// Tail masks, loaded rather than computed so that the kernels need nothing
// beyond AVX2 (or AVX-512F). Both are constant-initialized: no static
// initializer runs at start-up.
// 8 dwords read at &kAvx2TailMask[8 - rem] have exactly rem leading all-ones lanes.
alignas(64) constexpr int32_t kAvx2TailMask[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
                                                   0,  0,  0,  0,  0,  0,  0,  0};
// kAvx512TailMask[rem] has the low rem bits set.
alignas(64) constexpr uint16_t kAvx512TailMask[17] = {
    0x0000, 0x0001, 0x0003, 0x0007, 0x000f, 0x001f, 0x003f, 0x007f, 0x00ff,
    0x01ff, 0x03ff, 0x07ff, 0x0fff, 0x1fff, 0x3fff, 0x7fff, 0xffff};

asmjit::Imm Pred(x86::VCmpImm p) { return asmjit::Imm(static_cast<int>(p)); }

// C++'s comparison operators as vcmpps predicates: ordered and quiet, but
// != is unordered (true when either side is NaN).
x86::VCmpImm ComparePredicate(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEq:
      return x86::VCmpImm::kEQ_OQ;
    case BinaryOp::kNe:
      return x86::VCmpImm::kNEQ_UQ;
    case BinaryOp::kLt:
      return x86::VCmpImm::kLT_OQ;
    case BinaryOp::kLe:
      return x86::VCmpImm::kLE_OQ;
    case BinaryOp::kGt:
      return x86::VCmpImm::kGT_OQ;
    default:
      return x86::VCmpImm::kGE_OQ;
  }
}

bool SameReg(const x86::Vec& a, const asmjit::Operand_& b) { return b.isReg() && b.id() == a.id(); }

}  // namespace

VectorEmitter::VectorEmitter(x86::Compiler& cc, bool avx512)
    : cc_(cc), avx512_(avx512), width_(avx512 ? 16 : 8) {}

x86::Vec VectorEmitter::NewVec() {
  return avx512_ ? x86::Vec(cc_.newZmmPs()) : x86::Vec(cc_.newYmmPs());
}

x86::Mem VectorEmitter::Const(uint32_t bits) {
  auto it = consts_.find(bits);
  if (it != consts_.end()) return it->second;
  uint32_t lanes[16];
  for (uint32_t& lane : lanes) lane = bits;
  const size_t size = static_cast<size_t>(width_) * sizeof(uint32_t);
  x86::Mem m = cc_.newConst(asmjit::ConstPoolScope::kLocal, lanes, size);
  m.setSize(static_cast<uint32_t>(size));
  consts_.emplace(bits, m);
  return m;
}

x86::Mem VectorEmitter::ConstF(float value) { return Const(std::bit_cast<uint32_t>(value)); }

x86::Vec VectorEmitter::ConstReg(uint32_t bits) {
  x86::Vec v = NewVec();
  cc_.vmovups(v, Const(bits));
  return v;
}

x86::Mem VectorEmitter::ConstLanes(const uint32_t* lanes) {
  const size_t size = static_cast<size_t>(width_) * sizeof(uint32_t);
  std::string content(reinterpret_cast<const char*>(lanes), size);
  auto it = lane_consts_.find(content);
  if (it != lane_consts_.end()) return it->second;
  x86::Mem m = cc_.newConst(asmjit::ConstPoolScope::kLocal, lanes, size);
  m.setSize(static_cast<uint32_t>(size));
  lane_consts_.emplace(std::move(content), m);
  return m;
}

void VectorEmitter::LoopUnrolled(const x86::Gp& n, int unroll,
                                 absl::FunctionRef<void(int vectors, bool tail)> step) {
  i_ = cc_.newGpq("i");
  rem_ = cc_.newGpq("rem");
  asmjit::Label single = cc_.newLabel();
  asmjit::Label single_loop = cc_.newLabel();
  asmjit::Label tail = cc_.newLabel();
  asmjit::Label done = cc_.newLabel();
  cc_.xor_(i_, i_);
  cc_.mov(rem_, n);
  if (unroll > 1) {
    const int block = unroll * width_;
    asmjit::Label big = cc_.newLabel();
    cc_.cmp(rem_, block);
    cc_.jl(single);
    cc_.bind(big);
    step(unroll, /*tail=*/false);
    cc_.add(i_, block);
    cc_.mov(rem_, n);
    cc_.sub(rem_, i_);
    cc_.cmp(rem_, block);
    cc_.jge(big);
  }
  cc_.bind(single);
  cc_.cmp(rem_, width_);
  cc_.jl(tail);
  cc_.bind(single_loop);
  step(1, /*tail=*/false);
  cc_.add(i_, width_);
  cc_.mov(rem_, n);
  cc_.sub(rem_, i_);
  cc_.cmp(rem_, width_);
  cc_.jge(single_loop);
  cc_.bind(tail);
  cc_.test(rem_, rem_);
  cc_.jle(done);  // also n <= 0
  SetTailMask();
  step(1, /*tail=*/true);
  cc_.bind(done);
}

void VectorEmitter::Loop(const x86::Gp& n, absl::FunctionRef<void(bool tail)> step) {
  i_ = cc_.newGpq("i");
  rem_ = cc_.newGpq("rem");
  asmjit::Label loop = cc_.newLabel();
  asmjit::Label tail = cc_.newLabel();
  asmjit::Label done = cc_.newLabel();
  cc_.xor_(i_, i_);
  cc_.mov(rem_, n);
  cc_.cmp(rem_, width_);
  cc_.jl(tail);
  cc_.bind(loop);
  step(/*tail=*/false);
  cc_.add(i_, width_);
  cc_.mov(rem_, n);
  cc_.sub(rem_, i_);
  cc_.cmp(rem_, width_);
  cc_.jge(loop);
  cc_.bind(tail);
  cc_.test(rem_, rem_);
  cc_.jle(done);  // also n <= 0
  SetTailMask();
  step(/*tail=*/true);
  cc_.bind(done);
}

void VectorEmitter::SetTailMask() {
  x86::Gp table = cc_.newGpq("mask_table");
  if (avx512_) {
    tail_k_ = cc_.newKw("tail");
    cc_.mov(table, reinterpret_cast<uint64_t>(kAvx512TailMask));
    cc_.kmovw(tail_k_, x86::word_ptr(table, rem_, 1));
  } else {
    tail_v_ = cc_.newYmm("tail");
    x86::Gp neg = cc_.newGpq();
    cc_.mov(table, reinterpret_cast<uint64_t>(kAvx2TailMask + 8));
    cc_.mov(neg, rem_);
    cc_.neg(neg);
    cc_.vmovdqu(tail_v_, x86::ptr(table, neg, 2));
  }
}

// Software prefetch distances (bytes ahead of the access) for the main-loop
// loads and stores. The hardware prefetchers stop at each 4 KiB page, so a
// kernel whose per-vector work takes tens of cycles (tanh, sin, atan2) waited
// for DRAM at every page of a large operand: tanh over 10^7 f32 took 14 ms on
// one core, 0.67 ns per element in cache plus 0.4 of memory, not overlapped.
// Prefetching across the boundary overlaps the two (7 ms); 2 KiB for loads
// and 1 KiB for the destination (prefetchw, so the line arrives writable)
// were the best of 1-8 KiB. A prefetch never faults, so reading past the end
// of a buffer is harmless; on CPUs without PRFCHW, prefetchw is a NOP.
constexpr int kLoadPrefetchBytes = 2048;
constexpr int kStorePrefetchBytes = 1024;

void VectorEmitter::Load(const x86::Vec& dst, const x86::Mem& m, bool tail) {
  if (!tail) {
    x86::Mem ahead = m;
    ahead.addOffset(kLoadPrefetchBytes);
    cc_.prefetcht0(ahead);
    cc_.vmovups(dst, m);
  } else if (avx512_) {
    cc_.k(tail_k_).z().vmovups(dst, m);
  } else {
    cc_.vmaskmovps(dst, tail_v_, m);
  }
}

void VectorEmitter::Store(const x86::Mem& m, const x86::Vec& v, bool tail) {
  if (!tail) {
    x86::Mem ahead = m;
    ahead.addOffset(kStorePrefetchBytes);
    cc_.prefetchw(ahead);
    cc_.vmovups(m, v);
  } else if (avx512_) {
    cc_.k(tail_k_).vmovups(m, v);
  } else {
    cc_.vmaskmovps(m, tail_v_, v);
  }
}

void VectorEmitter::Broadcast(const x86::Vec& dst, const x86::Mem& scalar) {
  x86::Mem m = scalar;
  m.setSize(4);
  cc_.vbroadcastss(dst, m);
}

bool VectorEmitter::SupportsBinary(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kMax:
    case BinaryOp::kMin:
    case BinaryOp::kAtan2:
    case BinaryOp::kHypot:
    case BinaryOp::kPow:
      return true;
    default:
      return false;
  }
}

bool VectorEmitter::SupportsUnary(UnaryOp op) {
  switch (op) {
    case UnaryOp::kNeg:
    case UnaryOp::kExp:
    case UnaryOp::kLog:
    case UnaryOp::kTanh:
    case UnaryOp::kSqrt:
    case UnaryOp::kAbs:
    case UnaryOp::kSigmoid:
    case UnaryOp::kFloor:
    case UnaryOp::kCeil:
    case UnaryOp::kRound:
    case UnaryOp::kTrunc:
    case UnaryOp::kSign:
    case UnaryOp::kExpm1:
    case UnaryOp::kLog1p:
    case UnaryOp::kSinh:
    case UnaryOp::kCosh:
    case UnaryOp::kErf:
    case UnaryOp::kErfc:
    case UnaryOp::kSin:
    case UnaryOp::kCos:
    case UnaryOp::kTan:
    case UnaryOp::kAtan:
    case UnaryOp::kAsin:
    case UnaryOp::kAcos:
    case UnaryOp::kLgamma:
    case UnaryOp::kRelu:
      return true;
  }
  return false;
}

// dst = (a pred b || isnan(a)) ? a : b: the Max rule with GE, Min with LE.
void VectorEmitter::SelectRule(const x86::Vec& dst, const x86::Vec& a, const x86::Vec& b,
                               x86::VCmpImm pred) {
  Select(dst, Or(Compare(pred, a, b), IsNaN(a)), a, b);
}

void VectorEmitter::Binary(BinaryOp op, const x86::Vec& dst, const x86::Vec& a, const x86::Vec& b) {
  switch (op) {
    case BinaryOp::kAdd:
      Add(dst, a, b);
      return;
    case BinaryOp::kSub:
      Sub(dst, a, b);
      return;
    case BinaryOp::kMul:
      Mul(dst, a, b);
      return;
    case BinaryOp::kDiv:
      Div(dst, a, b);
      return;
    case BinaryOp::kMax:
      SelectRule(dst, a, b, x86::VCmpImm::kGE_OQ);
      return;
    case BinaryOp::kMin:
      SelectRule(dst, a, b, x86::VCmpImm::kLE_OQ);
      return;
    case BinaryOp::kAtan2:
      EmitAtan2F32(*this, dst, a, b);
      return;
    case BinaryOp::kHypot:
      EmitHypotF32(*this, dst, a, b);
      return;
    case BinaryOp::kPow:
      EmitPowF32(*this, dst, a, b);
      return;
    default:
      return;  // not reached: callers check SupportsBinary
  }
}

void VectorEmitter::Unary(UnaryOp op, const x86::Vec& dst, const x86::Vec& x) {
  switch (op) {
    case UnaryOp::kNeg:
      XorBits(dst, x, Const(0x80000000u));
      return;
    case UnaryOp::kAbs:
      AndBits(dst, x, Const(0x7fffffffu));
      return;
    case UnaryOp::kSqrt:
      cc_.vsqrtps(dst, x);
      return;
    case UnaryOp::kRelu: {
      // The Max rule with b = +0.0f (the blend needs b in a register).
      SelectRule(dst, x, ConstReg(0), x86::VCmpImm::kGE_OQ);
      return;
    }
    case UnaryOp::kExp:
      EmitExpF32(*this, dst, x);
      return;
    case UnaryOp::kLog:
      EmitLogF32(*this, dst, x);
      return;
    case UnaryOp::kTanh:
      EmitTanhF32(*this, dst, x);
      return;
    case UnaryOp::kSigmoid:
      EmitSigmoidF32(*this, dst, x);
      return;
    case UnaryOp::kFloor:
      EmitRoundToIntegralF32(*this, RoundMode::kFloor, dst, x);
      return;
    case UnaryOp::kCeil:
      EmitRoundToIntegralF32(*this, RoundMode::kCeil, dst, x);
      return;
    case UnaryOp::kRound:
      EmitRoundToIntegralF32(*this, RoundMode::kNearestEven, dst, x);
      return;
    case UnaryOp::kTrunc:
      EmitRoundToIntegralF32(*this, RoundMode::kTrunc, dst, x);
      return;
    case UnaryOp::kSign:
      EmitSignF32(*this, dst, x);
      return;
    case UnaryOp::kExpm1:
      EmitExpm1F32(*this, dst, x);
      return;
    case UnaryOp::kLog1p:
      EmitLog1pF32(*this, dst, x);
      return;
    case UnaryOp::kSinh:
      EmitSinhF32(*this, dst, x);
      return;
    case UnaryOp::kCosh:
      EmitCoshF32(*this, dst, x);
      return;
    case UnaryOp::kErf:
      EmitErfF32(*this, dst, x);
      return;
    case UnaryOp::kErfc:
      EmitErfcF32(*this, dst, x);
      return;
    case UnaryOp::kSin:
      EmitSinF32(*this, dst, x);
      return;
    case UnaryOp::kCos:
      EmitCosF32(*this, dst, x);
      return;
    case UnaryOp::kTan:
      EmitTanF32(*this, dst, x);
      return;
    case UnaryOp::kAtan:
      EmitAtanF32(*this, dst, x);
      return;
    case UnaryOp::kAsin:
      EmitAsinF32(*this, dst, x);
      return;
    case UnaryOp::kAcos:
      EmitAcosF32(*this, dst, x);
      return;
    case UnaryOp::kLgamma:
      EmitLgammaF32(*this, dst, x);
      return;
  }
}

void VectorEmitter::Add(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(x86::Inst::kIdVaddps, dst, a, b);
}
void VectorEmitter::Sub(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(x86::Inst::kIdVsubps, dst, a, b);
}
void VectorEmitter::Mul(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(x86::Inst::kIdVmulps, dst, a, b);
}
void VectorEmitter::Div(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(x86::Inst::kIdVdivps, dst, a, b);
}
void VectorEmitter::Copy(const x86::Vec& dst, const asmjit::Operand_& src) {
  if (SameReg(dst, src)) return;
  cc_.emit(x86::Inst::kIdVmovups, dst, src);
}

Mask VectorEmitter::Compare(x86::VCmpImm predicate, const x86::Vec& a, const asmjit::Operand_& b) {
  Mask m;
  if (avx512_) {
    m.k = cc_.newKw();
    cc_.emit(x86::Inst::kIdVcmpps, m.k, a, b, Pred(predicate));
  } else {
    m.v = NewVec();
    cc_.emit(x86::Inst::kIdVcmpps, m.v, a, b, Pred(predicate));
  }
  return m;
}

Mask VectorEmitter::CompareOp(BinaryOp comparison, const x86::Vec& a, const x86::Vec& b) {
  return Compare(ComparePredicate(comparison), a, b);
}

Mask VectorEmitter::IsNaN(const x86::Vec& x) { return Compare(x86::VCmpImm::kUNORD_Q, x, x); }

Mask VectorEmitter::Or(const Mask& a, const Mask& b) {
  Mask m;
  if (avx512_) {
    m.k = cc_.newKw();
    cc_.korw(m.k, a.k, b.k);
  } else {
    m.v = NewVec();
    cc_.vorps(m.v, a.v, b.v);
  }
  return m;
}

Mask VectorEmitter::And(const Mask& a, const Mask& b) {
  Mask m;
  if (avx512_) {
    m.k = cc_.newKw();
    cc_.kandw(m.k, a.k, b.k);
  } else {
    m.v = NewVec();
    cc_.vandps(m.v, a.v, b.v);
  }
  return m;
}

void VectorEmitter::Select(const x86::Vec& dst, const Mask& mask, const asmjit::Operand_& if_true,
                           const x86::Vec& if_false) {
  if (avx512_) {
    cc_.k(mask.k).emit(x86::Inst::kIdVblendmps, dst, if_false, if_true);  // k selects src2
  } else {
    // The mask's sign bits select the second source.
    cc_.emit(x86::Inst::kIdVblendvps, dst, if_false, if_true, mask.v);
  }
}

void VectorEmitter::StoreBoolBytes(const x86::Gp& out, const Mask& mask, bool tail, int vector) {
  const int offset = vector * width_;
  if (avx512_) {
    x86::Vec ones = NewVec();
    cc_.k(mask.k).z().vmovdqu32(ones, Const(1));  // 1 where true, 0 elsewhere
    x86::Mem m = x86::xmmword_ptr(out, i_, 0, offset);
    if (tail) {
      cc_.k(tail_k_).vpmovdb(m, ones);
    } else {
      cc_.vpmovdb(m, ones);
    }
    return;
  }
  // AVX2: all-ones lanes -> 1, then narrow 8 dwords to 8 bytes.
  x86::Ymm m = cc_.newYmm();
  cc_.vpsrld(m, mask.v, 31);
  x86::Xmm hi = cc_.newXmm();
  x86::Xmm bytes = cc_.newXmm();
  cc_.vextracti128(hi, m, 1);
  cc_.vpackusdw(bytes, m.xmm(), hi);
  cc_.vpackuswb(bytes, bytes, bytes);
  if (!tail) {
    cc_.vmovq(x86::qword_ptr(out, i_, 0, offset), bytes);
    return;
  }
  // rem < 8 bytes, one at a time (there is no masked byte store in AVX2);
  // counted on a copy so that remaining() stays valid for the rest of the step.
  x86::Gp word = cc_.newGpq();
  x86::Gp p = cc_.newGpq();
  x86::Gp count = cc_.newGpq();
  cc_.vmovq(word, bytes);
  cc_.lea(p, x86::ptr(out, i_));
  cc_.mov(count, rem_);
  asmjit::Label next = cc_.newLabel();
  cc_.bind(next);
  cc_.mov(x86::byte_ptr(p), word.r8());
  cc_.shr(word, 8);
  cc_.inc(p);
  cc_.dec(count);
  cc_.jnz(next);
}

Mask VectorEmitter::LoadBoolBytes(const x86::Gp& base, bool tail) {
  Mask mask;
  x86::Vec wide = NewVec();  // one zero-extended byte per dword lane
  if (avx512_) {
    // Masked-off bytes of the tail are not read (EVEX fault suppression).
    const x86::Mem m = x86::xmmword_ptr(base, i_);
    if (tail) {
      cc_.k(tail_k_).z().vpmovzxbd(wide, m);
    } else {
      cc_.vpmovzxbd(wide, m);
    }
    mask.k = cc_.newKw();
    cc_.vptestmd(mask.k, wide, wide);
    return mask;
  }
  if (!tail) {
    cc_.vpmovzxbd(wide, x86::qword_ptr(base, i_));
  } else {
    // rem < 8 bytes: there is no masked byte load in AVX2, and reading 8
    // could cross into an unmapped page, so the bytes are gathered into a
    // GP register, last first (the first ends up in the low byte).
    x86::Gp word = cc_.newGpq();
    x86::Gp byte = cc_.newGpq();
    x86::Gp p = cc_.newGpq();
    x86::Gp count = cc_.newGpq();
    cc_.xor_(word, word);
    cc_.lea(p, x86::ptr(base, i_));
    cc_.mov(count, rem_);
    asmjit::Label next = cc_.newLabel();
    cc_.bind(next);
    cc_.shl(word, 8);
    cc_.movzx(byte.r32(), x86::byte_ptr(p, count, 0, -1));
    cc_.or_(word, byte);
    cc_.dec(count);
    cc_.jnz(next);
    x86::Xmm bytes = cc_.newXmm();
    cc_.vmovq(bytes, word);
    cc_.vpmovzxbd(wide, bytes);
  }
  // Zero-extended bytes are >= 0, so "nonzero" is "greater than 0": all-ones
  // lanes where true.
  mask.v = NewVec();
  cc_.vpcmpgtd(mask.v, wide, Const(0));
  return mask;
}

Mask VectorEmitter::BroadcastBoolByte(const x86::Gp& p) {
  // 0 or all-ones: -(byte != 0).
  x86::Gp bits = cc_.newGpd();
  cc_.xor_(bits, bits);
  cc_.cmp(x86::byte_ptr(p), 0);
  cc_.setne(bits.r8());
  cc_.neg(bits);
  Mask mask;
  if (avx512_) {
    mask.k = cc_.newKw();
    cc_.kmovw(mask.k, bits);
  } else {
    mask.v = NewVec();
    cc_.vmovd(mask.v.xmm(), bits);
    cc_.vpbroadcastd(mask.v, mask.v.xmm());
  }
  return mask;
}

void VectorEmitter::AddI32(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(x86::Inst::kIdVpaddd, dst, a, b);
}
void VectorEmitter::SubI32(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(x86::Inst::kIdVpsubd, dst, a, b);
}
void VectorEmitter::ShiftLeftI32(const x86::Vec& dst, const x86::Vec& a, int bits) {
  cc_.vpslld(dst, a, bits);
}
void VectorEmitter::ShiftRightLogicalI32(const x86::Vec& dst, const x86::Vec& a, int bits) {
  cc_.vpsrld(dst, a, bits);
}
void VectorEmitter::ShiftRightArithmeticI32(const x86::Vec& dst, const x86::Vec& a, int bits) {
  cc_.vpsrad(dst, a, bits);
}
void VectorEmitter::AndBits(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(avx512_ ? x86::Inst::kIdVpandd : x86::Inst::kIdVandps, dst, a, b);
}
void VectorEmitter::OrBits(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(avx512_ ? x86::Inst::kIdVpord : x86::Inst::kIdVorps, dst, a, b);
}
void VectorEmitter::XorBits(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(avx512_ ? x86::Inst::kIdVpxord : x86::Inst::kIdVxorps, dst, a, b);
}
void VectorEmitter::AndNotBits(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(avx512_ ? x86::Inst::kIdVpandnd : x86::Inst::kIdVandnps, dst, a, b);
}
void VectorEmitter::ConvertToI32(const x86::Vec& dst, const x86::Vec& a) { cc_.vcvtps2dq(dst, a); }
void VectorEmitter::TruncateToI32(const x86::Vec& dst, const x86::Vec& a) {
  cc_.vcvttps2dq(dst, a);
}
void VectorEmitter::ConvertFromI32(const x86::Vec& dst, const x86::Vec& a) {
  cc_.vcvtdq2ps(dst, a);
}

void VectorEmitter::RoundToIntegral(const x86::Vec& dst, const x86::Vec& a, RoundMode mode) {
  // Bit 3 suppresses the precision exception; bit 2 clear takes the mode
  // from the immediate, not MXCSR; vrndscaleps's scale field (bits 7:4) is 0.
  const asmjit::Imm imm(static_cast<int>(mode) | 8);
  cc_.emit(avx512_ ? x86::Inst::kIdVrndscaleps : x86::Inst::kIdVroundps, dst, a, imm);
}

void VectorEmitter::XorI32(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(avx512_ ? x86::Inst::kIdVpxord : x86::Inst::kIdVpxor, dst, a, b);
}
void VectorEmitter::OrI32(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b) {
  cc_.emit(avx512_ ? x86::Inst::kIdVpord : x86::Inst::kIdVpor, dst, a, b);
}

void VectorEmitter::RotateLeftI32(const x86::Vec& dst, const x86::Vec& a, int bits) {
  if (avx512_) {
    cc_.vprold(dst, a, bits);
    return;
  }
  if (bits % 8 == 0) {
    // A whole-byte rotation is a byte permutation within each dword: dst
    // byte b of dword d is source byte (b - bits / 8) mod 4 of d (vpshufb
    // indexes within each 128-bit half, which holds 4 whole dwords).
    const int bytes = bits / 8;
    uint32_t lanes[8];
    for (int d = 0; d < 8; ++d) {
      uint32_t word = 0;
      for (int b = 0; b < 4; ++b) {
        const uint32_t src = static_cast<uint32_t>((d % 4) * 4 + (b - bytes + 4) % 4);
        word |= src << (8 * b);
      }
      lanes[d] = word;
    }
    cc_.vpshufb(dst, a, ConstLanes(lanes));
    return;
  }
  // The left part first, so that dst may alias a.
  x86::Vec left = NewVec();
  cc_.vpslld(left, a, bits);
  cc_.vpsrld(dst, a, 32 - bits);
  cc_.vpor(dst, dst, left);
}

void VectorEmitter::BroadcastI32(const x86::Vec& dst, const x86::Gp& src) {
  if (avx512_) {
    cc_.vpbroadcastd(dst, src.r32());
    return;
  }
  cc_.vmovd(dst.xmm(), src.r32());
  cc_.vpbroadcastd(dst, dst.xmm());
}

// Picks the form whose destination is the operand dst already holds, so
// aliasing needs no copy; a memory operand can only be the last source.
// forms: {132: d = d*s3 + s2, 213: d = s2*d + s3, 231: d = s2*s3 + d}.
void VectorEmitter::FmaForms(const asmjit::InstId (&forms)[3], const x86::Vec& dst,
                             const x86::Vec& a, const asmjit::Operand_& b,
                             const asmjit::Operand_& c) {
  const asmjit::InstId f132 = forms[0];
  const asmjit::InstId f213 = forms[1];
  const asmjit::InstId f231 = forms[2];
  if (!b.isMem() && !c.isMem()) {
    if (SameReg(dst, a)) {
      cc_.emit(f213, dst, b, c);
    } else if (SameReg(dst, b)) {
      cc_.emit(f213, dst, a, c);
    } else if (SameReg(dst, c)) {
      cc_.emit(f231, dst, a, b);
    } else {
      cc_.vmovaps(dst, a);
      cc_.emit(f213, dst, b, c);
    }
  } else if (b.isMem() && !c.isMem()) {
    if (SameReg(dst, c)) {
      cc_.emit(f231, dst, a, b);
    } else {
      Copy(dst, a);
      cc_.emit(f132, dst, c, b);
    }
  } else if (!b.isMem()) {  // c in memory
    if (SameReg(dst, b)) {
      cc_.emit(f213, dst, a, c);
    } else {
      Copy(dst, a);
      cc_.emit(f213, dst, b, c);
    }
  } else {  // both in memory: one goes through a register
    if (SameReg(dst, a)) {
      x86::Vec t = NewVec();
      Copy(t, b);
      cc_.emit(f213, dst, t, c);
    } else {
      Copy(dst, c);
      cc_.emit(f231, dst, a, b);
    }
  }
}

void VectorEmitter::Fma(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b,
                        const asmjit::Operand_& c) {
  static constexpr asmjit::InstId kForms[3] = {x86::Inst::kIdVfmadd132ps, x86::Inst::kIdVfmadd213ps,
                                               x86::Inst::kIdVfmadd231ps};
  FmaForms(kForms, dst, a, b, c);
}

void VectorEmitter::Fnma(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b,
                         const asmjit::Operand_& c) {
  static constexpr asmjit::InstId kForms[3] = {
      x86::Inst::kIdVfnmadd132ps, x86::Inst::kIdVfnmadd213ps, x86::Inst::kIdVfnmadd231ps};
  FmaForms(kForms, dst, a, b, c);
}

}  // namespace alea::vm::jit::codegen
