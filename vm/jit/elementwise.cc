// The tensor JIT's elementwise kernels (jit.h). Each kernel is one asmjit
// x86::Compiler function built on codegen::VectorEmitter: a main loop over
// full vectors (8 lanes of ymm on the AVX2 path, 16 of zmm on the AVX-512
// path) and one masked step for the last n % width elements, so there is no
// scalar tail whose semantics could drift from the vector body.
//
// Bitwise equality with kernels/elementwise.cc, op by op (the instructions
// are VectorEmitter's, codegen.cc):
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
// - Exp Log Tanh Sigmoid: vm/jit/math_f32.cc, the operation order of
//   kernels/math_f32.cc instruction for instruction (vfmadd exactly where the
//   reference calls std::fma, integer lane ops on the bits for the exponent
//   handling, each `?:` a compare and a blend over all lanes), so that both
//   ISA paths give the reference's bits for every input.
// Masked-off lanes of the tail are loaded as zeros (AVX-512 zero-masking,
// vmaskmovps) and never stored; loads and stores of those lanes cannot fault.
#include "vm/kernels/elementwise.h"

#include <asmjit/x86.h>

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "vm/jit/codegen.h"
#include "vm/jit/jit.h"

namespace alea::vm::jit {
namespace {

using codegen::VectorEmitter;
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

bool Supported(const Request& r) {
  switch (r.kind) {
    case Kind::kBinary:
      return VectorEmitter::SupportsBinary(static_cast<BinaryOp>(r.op));
    case Kind::kCompare:
      return kernels::IsComparison(static_cast<BinaryOp>(r.op));
    case Kind::kUnary:
      return r.layout == Layout::kVectorVector &&
             VectorEmitter::SupportsUnary(static_cast<UnaryOp>(r.op));
  }
  return false;
}

// The kernel's body: a, b the operand pointers (b unused for unary), out, n.
void EmitBody(x86::Compiler& cc, const Request& r, const x86::Gp& a, const x86::Gp& b,
              const x86::Gp& out, const x86::Gp& n) {
  VectorEmitter e(cc, r.avx512);
  if (r.kind == Kind::kUnary) {
    e.Loop(n, [&](bool tail) {
      x86::Vec x = e.NewVec();
      e.Load(x, e.Elem(a), tail);
      e.Unary(static_cast<UnaryOp>(r.op), x, x);
      e.Store(e.Elem(out), x, tail);
    });
    return;
  }
  // Broadcast scalars once, before the loop.
  x86::Vec sa;
  x86::Vec sb;
  if (r.layout == Layout::kScalarVector) {
    sa = e.NewVec();
    e.Broadcast(sa, x86::dword_ptr(a));
  } else if (r.layout == Layout::kVectorScalar) {
    sb = e.NewVec();
    e.Broadcast(sb, x86::dword_ptr(b));
  }
  e.Loop(n, [&](bool tail) {
    x86::Vec va = sa;
    x86::Vec vb = sb;
    if (r.layout != Layout::kScalarVector) {
      va = e.NewVec();
      e.Load(va, e.Elem(a), tail);
    }
    if (r.layout != Layout::kVectorScalar) {
      vb = e.NewVec();
      e.Load(vb, e.Elem(b), tail);
    }
    if (r.kind == Kind::kCompare) {
      e.StoreBoolBytes(out, e.CompareOp(static_cast<BinaryOp>(r.op), va, vb), tail);
      return;
    }
    x86::Vec y = e.NewVec();
    e.Binary(static_cast<BinaryOp>(r.op), y, va, vb);
    e.Store(e.Elem(out), y, tail);
  });
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
                                    EmitBody(cc, r, a, b, out, n);
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
