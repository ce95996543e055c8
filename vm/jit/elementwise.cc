// The tensor JIT's elementwise kernels (jit.h). Each kernel is one asmjit
// x86::Compiler function: a main loop over full vectors (8 lanes of ymm on
// the AVX2 path, 16 of zmm on the AVX-512 path) and one masked step for the
// last n % width elements, so there is no scalar tail whose semantics could
// drift from the vector body.
//
// Bitwise equality with kernels/elementwise.cc, op by op:
// - Add Sub Mul Div Sqrt: the IEEE instruction with a as the first source,
//   one rounding each, no FMA (the reference builds with -ffp-contract=off).
//   x86 propagates the first source's NaN (quieted) when both are NaN, as the
//   reference's scalar and vector code do.
// - Max/Min: `(a >= b || isnan(a)) ? a : b` (<= for Min) as two compares and a
//   blend, never vmaxps/vminps (they return the second source on NaN and on
//   equal zeros): the result is a's or b's bits, NaN payloads included.
// - Relu: the Max rule with b = +0.0f. Neg/Abs: xor/and of the sign bit.
// - Comparisons: the ordered quiet predicates for == < <= > >=, the
//   unordered one for != (NaN != x is true), as C++'s operators.
// Masked-off lanes of the tail are loaded as zeros (AVX-512 zero-masking,
// vmaskmovps) and never stored; loads and stores of those lanes cannot fault.
//
// exp/log/tanh/sigmoid (not here yet): they will be emitted from the operation
// order written next to each function in kernels/math_f32.cc, instruction for
// instruction: vfmadd231ps exactly where the reference calls std::fma, plain
// vmulps/vaddps elsewhere in the same association, integer ops on the bits
// (vpsrld/vpslld/vpaddd) for the exponent handling, and each `?:` of the
// reference as a compare plus a blend computed over all lanes (the reference
// has no data-dependent branches), so that both ISA paths reproduce it.
#include "vm/kernels/elementwise.h"

#include <asmjit/x86.h>

#include <array>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "vm/jit/codegen.h"
#include "vm/jit/jit.h"

namespace alea::vm::jit {
namespace {

using kernels::BinaryOp;
using kernels::UnaryOp;

enum class Kind : uint8_t { kBinary, kCompare, kUnary };

// A kernel request once the ISA is resolved.
struct Request {
  Kind kind;
  uint8_t op;  // BinaryOp or UnaryOp, by kind
  Layout layout;
  bool avx512;
  bool inject_error;
};

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

// Emits the body of one kernel into `cc` (inside its function).
class KernelEmitter {
 public:
  KernelEmitter(x86::Compiler& cc, const Request& r) : cc_(cc), r_(r), width_(r.avx512 ? 16 : 8) {}

  // a, b: the operand pointers (b unused for unary), out, n: the count.
  void Emit(const x86::Gp& a, const x86::Gp& b, const x86::Gp& out, const x86::Gp& n) {
    a_ = a;
    b_ = b;
    out_ = out;
    // Broadcast scalars once, before the loop.
    if (r_.kind != Kind::kUnary) {
      if (r_.layout == Layout::kScalarVector) {
        sa_ = NewVec();
        cc_.vbroadcastss(sa_, x86::dword_ptr(a_));
      } else if (r_.layout == Layout::kVectorScalar) {
        sb_ = NewVec();
        cc_.vbroadcastss(sb_, x86::dword_ptr(b_));
      }
    }
    EmitConstants();

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
    Step(/*tail=*/false);
    cc_.add(i_, width_);
    cc_.mov(rem_, n);
    cc_.sub(rem_, i_);
    cc_.cmp(rem_, width_);
    cc_.jge(loop);
    cc_.bind(tail);
    cc_.test(rem_, rem_);
    cc_.jle(done);  // also n <= 0
    SetTailMask();
    Step(/*tail=*/true);
    cc_.bind(done);
  }

 private:
  x86::Vec NewVec() { return r_.avx512 ? x86::Vec(cc_.newZmmPs()) : x86::Vec(cc_.newYmmPs()); }

  // A vector of the 32-bit pattern `bits` in every lane.
  x86::Vec Splat(uint32_t bits) {
    x86::Vec v = NewVec();
    x86::Gp t = cc_.newGpd();
    cc_.mov(t, bits);
    if (r_.avx512) {
      cc_.vpbroadcastd(v, t);
    } else {
      x86::Xmm x = cc_.newXmm();
      cc_.vmovd(x, t);
      cc_.vpbroadcastd(v, x);
    }
    return v;
  }

  void EmitConstants() {
    if (r_.kind == Kind::kUnary) {
      switch (static_cast<UnaryOp>(r_.op)) {
        case UnaryOp::kNeg:
          const_ = Splat(0x80000000u);
          break;
        case UnaryOp::kAbs:
          const_ = Splat(0x7fffffffu);
          break;
        case UnaryOp::kRelu:
          const_ = Splat(0);  // +0.0f, the Max rule's b
          break;
        default:
          break;
      }
    } else if (r_.kind == Kind::kCompare) {
      const_ = r_.avx512 ? Splat(1) : x86::Vec();  // the bool byte's dword before narrowing
    }
  }

  x86::Mem Elem(const x86::Gp& base) { return x86::ptr(base, i_, 2); }

  void SetTailMask() {
    x86::Gp tbl = cc_.newGpq("mask_table");
    if (r_.avx512) {
      k_ = cc_.newKw("tail");
      cc_.mov(tbl, reinterpret_cast<uint64_t>(kAvx512TailMask));
      cc_.kmovw(k_, x86::word_ptr(tbl, rem_, 1));
    } else {
      vmask_ = cc_.newYmm("tail");
      x86::Gp neg = cc_.newGpq();
      cc_.mov(tbl, reinterpret_cast<uint64_t>(kAvx2TailMask + 8));
      cc_.mov(neg, rem_);
      cc_.neg(neg);
      cc_.vmovdqu(vmask_, x86::ptr(tbl, neg, 2));
    }
  }

  void Load(const x86::Vec& dst, const x86::Mem& m, bool tail) {
    if (!tail) {
      cc_.vmovups(dst, m);
    } else if (r_.avx512) {
      cc_.k(k_).z().vmovups(dst, m);
    } else {
      cc_.vmaskmovps(dst, vmask_, m);
    }
  }

  void Store(const x86::Mem& m, const x86::Vec& v, bool tail) {
    if (!tail) {
      cc_.vmovups(m, v);
    } else if (r_.avx512) {
      cc_.k(k_).vmovups(m, v);
    } else {
      cc_.vmaskmovps(m, vmask_, v);
    }
  }

  // One vector of elements at index i (masked to rem elements when `tail`).
  void Step(bool tail) {
    if (r_.kind == Kind::kUnary) {
      x86::Vec x = NewVec();
      Load(x, Elem(a_), tail);
      x86::Vec y = NewVec();
      EmitUnary(static_cast<UnaryOp>(r_.op), y, x);
      Store(Elem(out_), y, tail);
      return;
    }
    x86::Vec va = sa_;
    x86::Vec vb = sb_;
    if (r_.layout != Layout::kScalarVector) {
      va = NewVec();
      Load(va, Elem(a_), tail);
    }
    if (r_.layout != Layout::kVectorScalar) {
      vb = NewVec();
      Load(vb, Elem(b_), tail);
    }
    if (r_.kind == Kind::kCompare) {
      EmitCompare(static_cast<BinaryOp>(r_.op), va, vb, tail);
      return;
    }
    x86::Vec y = NewVec();
    EmitBinary(static_cast<BinaryOp>(r_.op), y, va, vb);
    Store(Elem(out_), y, tail);
  }

  // dst = (a pred b || isnan(a)) ? a : b: the Max rule with GE, Min with LE.
  void EmitSelectRule(const x86::Vec& dst, const x86::Vec& a, const x86::Vec& b,
                      x86::VCmpImm pred) {
    if (r_.avx512) {
      x86::KReg keep = cc_.newKw();
      x86::KReg nan = cc_.newKw();
      cc_.vcmpps(keep, a, b, Pred(pred));
      cc_.vcmpps(nan, a, a, Pred(x86::VCmpImm::kUNORD_Q));
      cc_.korw(keep, keep, nan);
      cc_.k(keep).vblendmps(dst, b, a);  // the mask selects a
    } else {
      x86::Vec keep = NewVec();
      x86::Vec nan = NewVec();
      cc_.vcmpps(keep, a, b, Pred(pred));
      cc_.vcmpps(nan, a, a, Pred(x86::VCmpImm::kUNORD_Q));
      cc_.vorps(keep, keep, nan);
      cc_.vblendvps(dst, b, a, keep);  // the mask's sign bits select a
    }
  }

  void EmitBinary(BinaryOp op, const x86::Vec& dst, const x86::Vec& a, const x86::Vec& b) {
    switch (op) {
      case BinaryOp::kAdd:
        cc_.vaddps(dst, a, b);
        return;
      case BinaryOp::kSub:
        cc_.vsubps(dst, a, b);
        return;
      case BinaryOp::kMul:
        cc_.vmulps(dst, a, b);
        return;
      case BinaryOp::kDiv:
        cc_.vdivps(dst, a, b);
        return;
      case BinaryOp::kMax:
        EmitSelectRule(dst, a, b, x86::VCmpImm::kGE_OQ);
        return;
      case BinaryOp::kMin:
        EmitSelectRule(dst, a, b, x86::VCmpImm::kLE_OQ);
        return;
      default:
        return;  // not reached: Compile() only accepts the ops above
    }
  }

  void EmitUnary(UnaryOp op, const x86::Vec& dst, const x86::Vec& x) {
    switch (op) {
      case UnaryOp::kNeg:
        if (r_.avx512) {
          cc_.vpxord(dst, x, const_);  // vxorps on zmm needs AVX512DQ
        } else {
          cc_.vxorps(dst, x, const_);
        }
        return;
      case UnaryOp::kAbs:
        if (r_.avx512) {
          cc_.vpandd(dst, x, const_);
        } else {
          cc_.vandps(dst, x, const_);
        }
        return;
      case UnaryOp::kSqrt:
        cc_.vsqrtps(dst, x);
        return;
      case UnaryOp::kRelu:
        EmitSelectRule(dst, x, const_, x86::VCmpImm::kGE_OQ);
        return;
      default:
        return;  // not reached
    }
  }

  // Bool bytes: 0 or 1 per element, n bytes written.
  void EmitCompare(BinaryOp op, const x86::Vec& a, const x86::Vec& b, bool tail) {
    const x86::Mem dst = x86::ptr(out_, i_);
    if (r_.avx512) {
      x86::KReg k = cc_.newKw();
      cc_.vcmpps(k, a, b, Pred(ComparePredicate(op)));
      x86::Vec ones = NewVec();
      cc_.k(k).z().vmovdqa32(ones, const_);  // 1 where true, 0 elsewhere
      x86::Mem m = x86::xmmword_ptr(out_, i_);
      if (tail) {
        cc_.k(k_).vpmovdb(m, ones);
      } else {
        cc_.vpmovdb(m, ones);
      }
      return;
    }
    // AVX2: all-ones lanes -> 1, then narrow 8 dwords to 8 bytes.
    x86::Ymm m = cc_.newYmm();
    cc_.vcmpps(m, a, b, Pred(ComparePredicate(op)));
    cc_.vpsrld(m, m, 31);
    x86::Xmm hi = cc_.newXmm();
    x86::Xmm bytes = cc_.newXmm();
    cc_.vextracti128(hi, m, 1);
    cc_.vpackusdw(bytes, m.xmm(), hi);
    cc_.vpackuswb(bytes, bytes, bytes);
    if (!tail) {
      cc_.vmovq(x86::qword_ptr(out_, i_), bytes);
      return;
    }
    // rem < 8 bytes, one at a time (there is no masked byte store in AVX2).
    x86::Gp word = cc_.newGpq();
    x86::Gp p = cc_.newGpq();
    cc_.vmovq(word, bytes);
    cc_.lea(p, dst);
    asmjit::Label next = cc_.newLabel();
    cc_.bind(next);
    cc_.mov(x86::byte_ptr(p), word.r8());
    cc_.shr(word, 8);
    cc_.inc(p);
    cc_.dec(rem_);
    cc_.jnz(next);
  }

  x86::Compiler& cc_;
  const Request r_;
  const int width_;
  x86::Gp a_, b_, out_, i_, rem_;
  x86::Vec sa_, sb_, const_;  // broadcast scalars; the op's constant
  x86::KReg k_;               // AVX-512 tail mask
  x86::Ymm vmask_;            // AVX2 tail mask
};

bool Supported(const Request& r) {
  switch (r.kind) {
    case Kind::kBinary:
      switch (static_cast<BinaryOp>(r.op)) {
        case BinaryOp::kAdd:
        case BinaryOp::kSub:
        case BinaryOp::kMul:
        case BinaryOp::kDiv:
        case BinaryOp::kMax:
        case BinaryOp::kMin:
          return true;
        default:
          return false;
      }
    case Kind::kCompare:
      return kernels::IsComparison(static_cast<BinaryOp>(r.op));
    case Kind::kUnary:
      switch (static_cast<UnaryOp>(r.op)) {
        case UnaryOp::kNeg:
        case UnaryOp::kAbs:
        case UnaryOp::kSqrt:
        case UnaryOp::kRelu:
          return r.layout == Layout::kVectorVector;
        default:
          return false;  // exp/log/tanh/sigmoid: see the note at the top
      }
  }
  return false;
}

void* Compile(asmjit::JitRuntime& runtime, const Request& r) {
  const asmjit::FuncSignature signature =
      r.kind == Kind::kUnary
          ? asmjit::FuncSignature(asmjit::FuncSignatureT<void, const float*, float*, int64_t>())
          : asmjit::FuncSignature(
                asmjit::FuncSignatureT<void, const float*, const float*, void*, int64_t>());
  return codegen::CompileFunction(runtime, signature, r.avx512, r.inject_error,
                                  [&](x86::Compiler& cc, asmjit::FuncNode* fn) {
                                    x86::Gp a = cc.newGpq("a");
                                    x86::Gp b = cc.newGpq("b");
                                    x86::Gp out = cc.newGpq("out");
                                    x86::Gp n = cc.newGpq("n");
                                    if (r.kind == Kind::kUnary) {
                                      fn->setArg(0, a);
                                      fn->setArg(1, out);
                                      fn->setArg(2, n);
                                    } else {
                                      fn->setArg(0, a);
                                      fn->setArg(1, b);
                                      fn->setArg(2, out);
                                      fn->setArg(3, n);
                                    }
                                    KernelEmitter(cc, r).Emit(a, b, out, n);
                                  });
}

void* Get(Jit& jit, asmjit::JitRuntime& runtime, Kind kind, int op, Layout layout, Isa isa) {
  Request r{kind, static_cast<uint8_t>(op), layout, false, false};
  if (!Supported(r)) return nullptr;
  const std::string key =
      absl::StrCat("ew:", static_cast<int>(kind), ":", op, ":", static_cast<int>(layout));
  return jit.Cached(key, isa, [&](bool avx512, bool inject_error) {
    r.avx512 = avx512;
    r.inject_error = inject_error;
    return Compile(runtime, r);
  });
}

}  // namespace

BinaryF32Fn Jit::BinaryF32(BinaryOp op, Layout layout, Isa isa) {
  return reinterpret_cast<BinaryF32Fn>(
      Get(*this, impl().runtime, Kind::kBinary, static_cast<int>(op), layout, isa));
}

CompareF32Fn Jit::CompareF32(BinaryOp op, Layout layout, Isa isa) {
  return reinterpret_cast<CompareF32Fn>(
      Get(*this, impl().runtime, Kind::kCompare, static_cast<int>(op), layout, isa));
}

UnaryF32Fn Jit::UnaryF32(UnaryOp op, Isa isa) {
  return reinterpret_cast<UnaryF32Fn>(
      Get(*this, impl().runtime, Kind::kUnary, static_cast<int>(op), Layout::kVectorVector, isa));
}

}  // namespace alea::vm::jit
