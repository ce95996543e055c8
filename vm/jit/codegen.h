// The JIT's code generation toolkit, shared by the kernel families in
// vm/jit/*.cc (elementwise, fused, math, reduce, matmul). Internal: only
// vm/jit/*.cc include it, so asmjit's headers stay out of every other file.
//
// CompileFunction wraps one asmjit x86::Compiler function (validation on,
// AVX prologue, the first error kept, any error -> nullptr). VectorEmitter
// emits f32 vector code for one ISA path — ymm (8 lanes, AVX2+FMA) or zmm
// (16 lanes, AVX-512F) — with the loop skeleton, masked tails, constants and
// the elementwise operations, each bitwise equal to kernels/elementwise.cc
// and kernels/math_f32.cc.
#ifndef ALEA_VM_JIT_CODEGEN_H_
#define ALEA_VM_JIT_CODEGEN_H_

#include <asmjit/x86.h>

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"

namespace alea::vm::jit {

namespace x86 = asmjit::x86;

// The state behind a Jit: what the CPU offers, the code memory, the cache.
struct Jit::Impl {
  explicit Impl(const Options& options);

  bool avx2 = false;           // AVX2 + FMA: the JIT's baseline
  bool avx512 = false;         // AVX-512F as well
  asmjit::JitRuntime runtime;  // owns the code of every kernel below
  // Key (kernel family, op chain, layout class, ISA) -> kernel, or nullptr
  // for a request that failed (not retried).
  absl::flat_hash_map<std::string, void*> kernels;
  // MatMulF32's packed panels, and per thread range its own A block,
  // scratch tile and (column split) B block (matmul.cc): grown on demand and
  // kept, so that a steady-state loop allocates nothing.
  std::unique_ptr<float[]> matmul_buffer;
  int64_t matmul_buffer_floats = 0;
};

namespace codegen {

// Compiles one function with `signature`. `emit_body` creates the argument
// registers, binds them with fn->setArg and emits the body; the epilogue is
// added here. `avx512` enables zmm16-31 and the k registers. With
// `inject_error` one invalid instruction is emitted first (a test hook: it
// must give nullptr). Returns the code, or nullptr on any asmjit error.
void* CompileFunction(asmjit::JitRuntime& runtime, const asmjit::FuncSignature& signature,
                      bool avx512, bool inject_error,
                      absl::FunctionRef<void(x86::Compiler& cc, asmjit::FuncNode* fn)> emit_body);

// Rounding to an integral value: the immediate of vroundps / vrndscaleps
// (with the precision exception suppressed).
enum class RoundMode : uint8_t { kNearestEven = 0, kFloor = 1, kCeil = 2, kTrunc = 3 };

// A lane mask: a k register on the AVX-512 path, a vector of all-ones /
// all-zeros lanes on the AVX2 path.
struct Mask {
  x86::KReg k;
  x86::Vec v;
};

// f32 vector code for one ISA path. Every vector is a ymm (AVX2) or zmm
// (AVX-512) virtual register; asmjit allocates the physical ones.
class VectorEmitter {
 public:
  VectorEmitter(x86::Compiler& cc, bool avx512);

  x86::Compiler& cc() { return cc_; }
  bool avx512() const { return avx512_; }
  int width() const { return width_; }  // lanes per vector: 8 or 16

  x86::Vec NewVec();
  // A vector with `bits` in every lane, as a memory operand in the function's
  // constant pool (one per distinct pattern): usable as the last source of
  // most instructions without a register.
  x86::Mem Const(uint32_t bits);
  x86::Mem ConstF(float value);
  // The same, loaded into a new register (for operands that must be one).
  x86::Vec ConstReg(uint32_t bits);
  // A vector whose lane l holds lanes[l] (width entries are read), as
  // Const(): one pool entry per distinct content.
  x86::Mem ConstLanes(const uint32_t* lanes);

  // The loop skeleton over n elements (n <= 0: nothing): step(false) for
  // each full vector at element index(), then step(true) once for the last
  // n % width elements, with the tail mask set (Load/Store honour it;
  // masked-off lanes load as +0.0f and are never stored, and cannot fault).
  void Loop(const x86::Gp& n, absl::FunctionRef<void(bool tail)> step);
  const x86::Gp& index() const { return i_; }  // valid inside step
  // The lanes the tail step covers (its loads and stores honour it already),
  // for a kernel that keeps per-lane state across steps: valid in that step.
  Mask TailMask() const { return Mask{tail_k_, tail_v_}; }
  const x86::Gp& remaining() const { return rem_; }  // n - index(), inside the tail step
  // [base + index() * 4]: the current vector of a contiguous f32 operand.
  x86::Mem Elem(const x86::Gp& base) const { return x86::ptr(base, i_, 2); }
  // Loop with `unroll` vectors per main-loop step, for kernels whose per-vector
  // work is a long dependency chain (several independent chains let the core
  // overlap them): step(unroll, false) while at least unroll * width elements
  // remain, then step(1, false) per remaining full vector, then step(1, true)
  // once for the last n % width elements with the tail mask set. Vector v of
  // a step starts at element index() + v * width.
  void LoopUnrolled(const x86::Gp& n, int unroll,
                    absl::FunctionRef<void(int vectors, bool tail)> step);
  // Vector v of the current step of a contiguous 32-bit operand.
  x86::Mem Elem(const x86::Gp& base, int vector) const {
    return x86::ptr(base, i_, 2, vector * width_ * 4);
  }
  void Load(const x86::Vec& dst, const x86::Mem& m, bool tail);
  void Store(const x86::Mem& m, const x86::Vec& v, bool tail);
  void Broadcast(const x86::Vec& dst, const x86::Mem& scalar);  // one f32 to every lane

  // Elementwise f32 operations, bitwise equal to the reference. dst may be
  // one of the operands. Binary: + - * / max min atan2 hypot pow (not
  // comparisons).
  static bool SupportsBinary(kernels::BinaryOp op);
  static bool SupportsUnary(kernels::UnaryOp op);
  void Binary(kernels::BinaryOp op, const x86::Vec& dst, const x86::Vec& a, const x86::Vec& b);
  void Unary(kernels::UnaryOp op, const x86::Vec& dst, const x86::Vec& x);

  // Single IEEE operations, a as the first source. An `asmjit::Operand_`
  // source is a register or a memory operand (a Const()); dst may alias any
  // register operand.
  void Add(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void Sub(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void Mul(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void Div(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void Copy(const x86::Vec& dst, const asmjit::Operand_& src);

  // Lane masks and selects, for comparisons and the `?:` of the math
  // functions (both ISA paths).
  Mask Compare(x86::VCmpImm predicate, const x86::Vec& a, const asmjit::Operand_& b);
  Mask CompareOp(kernels::BinaryOp comparison, const x86::Vec& a, const x86::Vec& b);
  Mask IsNaN(const x86::Vec& x);  // x != x
  Mask Or(const Mask& a, const Mask& b);
  Mask And(const Mask& a, const Mask& b);
  // dst = mask ? if_true : if_false, lane by lane (dst may alias either).
  void Select(const x86::Vec& dst, const Mask& mask, const asmjit::Operand_& if_true,
              const x86::Vec& if_false);
  // Bool bytes (0 or 1) of a mask at [out + index()], width bytes (tail: the
  // remaining ones). `vector` v > 0 (LoopUnrolled, never in the tail step)
  // stores at [out + index() + v * width].
  void StoreBoolBytes(const x86::Gp& out, const Mask& mask, bool tail, int vector = 0);
  // The mask of bool bytes at [base + index()] (a lane is true where its byte
  // is nonzero, as the reference's `mask ? a : b`): width bytes, or in the
  // tail step the remaining ones, never a byte past them.
  Mask LoadBoolBytes(const x86::Gp& base, bool tail);
  // A mask whose every lane is the truth of the one byte at [p] (a one-element
  // bool operand).
  Mask BroadcastBoolByte(const x86::Gp& p);

  // Integer lane operations on the f32 bits (the math functions' exponent
  // handling): dst = a + b, a - b (32-bit lanes), shifts by an immediate,
  // bitwise and/or/xor/andnot (andnot: ~a & b), float <-> int32 conversions
  // (cvt: round to nearest even; cvtt: truncate).
  void AddI32(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void SubI32(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void ShiftLeftI32(const x86::Vec& dst, const x86::Vec& a, int bits);
  void ShiftRightLogicalI32(const x86::Vec& dst, const x86::Vec& a, int bits);
  void ShiftRightArithmeticI32(const x86::Vec& dst, const x86::Vec& a, int bits);
  void AndBits(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void OrBits(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void XorBits(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void AndNotBits(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void ConvertToI32(const x86::Vec& dst, const x86::Vec& a);    // vcvtps2dq
  void TruncateToI32(const x86::Vec& dst, const x86::Vec& a);   // vcvttps2dq
  void ConvertFromI32(const x86::Vec& dst, const x86::Vec& a);  // vcvtdq2ps
  // dst = a rounded to an integral value by `mode` (vroundps on ymm,
  // vrndscaleps on zmm): exact, as std::floor/ceil/trunc/nearbyint.
  void RoundToIntegral(const x86::Vec& dst, const x86::Vec& a, RoundMode mode);
  // Integer-domain bitwise ops (vpxor/vpor, vpxord/vpord on zmm), for integer
  // code such as the random kernels' Threefry rounds.
  void XorI32(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  void OrI32(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b);
  // dst = a rotated left by `bits` (1..31) in each 32-bit lane: vprold on
  // AVX-512; on AVX2 one vpshufb for multiples of 8, else two shifts and an or.
  void RotateLeftI32(const x86::Vec& dst, const x86::Vec& a, int bits);
  // The low 32 bits of a general-purpose register in every lane.
  void BroadcastI32(const x86::Vec& dst, const x86::Gp& src);
  // dst = a * b + c with one rounding (vfmadd: the reference's std::fma).
  // b and c may be registers or Const()s; dst may alias any register operand.
  void Fma(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b,
           const asmjit::Operand_& c);
  // dst = -(a * b) + c with one rounding (vfnmadd): the reference's
  // std::fma(-a, b, c), which it equals bit for bit (negation is exact and
  // the product's sign is symmetric).
  void Fnma(const x86::Vec& dst, const x86::Vec& a, const asmjit::Operand_& b,
            const asmjit::Operand_& c);

 private:
  void SetTailMask();
  void SelectRule(const x86::Vec& dst, const x86::Vec& a, const x86::Vec& b, x86::VCmpImm pred);
  // The three-operand FMA forms behind Fma/Fnma: `forms` holds the 132, 213
  // and 231 instruction ids.
  void FmaForms(const asmjit::InstId (&forms)[3], const x86::Vec& dst, const x86::Vec& a,
                const asmjit::Operand_& b, const asmjit::Operand_& c);

  x86::Compiler& cc_;
  const bool avx512_;
  const int width_;
  x86::Gp i_, rem_;
  x86::KReg tail_k_;  // AVX-512 tail mask
  x86::Ymm tail_v_;   // AVX2 tail mask
  absl::flat_hash_map<uint32_t, x86::Mem> consts_;
  absl::flat_hash_map<std::string, x86::Mem> lane_consts_;  // ConstLanes, by content
};

// The math functions of kernels/math_f32.h as vector code, one instruction
// per operation of the reference (vm/jit/math_f32.cc). dst may alias x.
void EmitExpF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitLogF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitTanhF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitSigmoidF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
// For the random kernels (random.cc): exponential's log1p, normal's erfinv.
void EmitLog1pF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitErfinvF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
// kernels/math_f32_basic.cc (vm/jit/math_f32_basic.cc): FloorF32, CeilF32,
// RoundF32 and TruncF32 by mode; SignF32, Expm1F32, SinhF32, CoshF32.
void EmitRoundToIntegralF32(VectorEmitter& e, RoundMode mode, const x86::Vec& dst,
                            const x86::Vec& x);
void EmitSignF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitExpm1F32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitSinhF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitCoshF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
// kernels/math_f32_special.cc (vm/jit/math_f32_special.cc): ErfF32, ErfcF32.
void EmitErfF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitErfcF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
// kernels/math_f32_trig.cc (vm/jit/math_f32_trig.cc): SinF32, CosF32, TanF32,
// AtanF32, AsinF32, AcosF32.
void EmitSinF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitCosF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitTanF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitAtanF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitAsinF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
void EmitAcosF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
// Binary: Atan2F32(y, x) and HypotF32(x, y). dst may alias either operand.
void EmitAtan2F32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& y, const x86::Vec& x);
void EmitHypotF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x, const x86::Vec& y);
// kernels/math_f32_lgamma.cc (vm/jit/math_f32_lgamma.cc): LgammaF32.
void EmitLgammaF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x);
// kernels/math_f32_pow.cc (vm/jit/math_f32_pow.cc): PowF32(x, y).
void EmitPowF32(VectorEmitter& e, const x86::Vec& dst, const x86::Vec& x, const x86::Vec& y);

}  // namespace codegen
}  // namespace alea::vm::jit

#endif  // ALEA_VM_JIT_CODEGEN_H_
