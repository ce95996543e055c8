// Fused elementwise programs (jit.h FusedF32): one pass over the elements
// that loads each leaf once per vector, evaluates the program's nodes in
// order in registers, and stores the last node. Every node is the same
// VectorEmitter operation the single-op kernels use, each rounded once to
// f32, so the result is bitwise the unfused chain's (an f32 temporary in
// memory and one in a register hold the same bits).
#include <asmjit/x86.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/bytecode.h"
#include "vm/jit/codegen.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"

namespace alea::vm::jit {
namespace {

using kernels::BinaryOp;
using kernels::UnaryOp;

bool Supported(const FusedProgram& p) {
  const size_t leaves = p.leaves.size();
  if (leaves == 0 || leaves > static_cast<size_t>(Jit::kMaxFusedLeaves) || p.nodes.empty() ||
      p.nodes.size() > static_cast<size_t>(Jit::kMaxFusedNodes)) {
    return false;
  }
  for (size_t j = 0; j < p.nodes.size(); ++j) {
    const FusedNode& node = p.nodes[j];
    const size_t defined = leaves + j;  // values a node may read
    if (node.a >= defined || (!node.unary && node.b >= defined)) return false;
    if (node.unary ? !codegen::VectorEmitter::SupportsUnary(static_cast<UnaryOp>(node.op))
                   : !codegen::VectorEmitter::SupportsBinary(static_cast<BinaryOp>(node.op))) {
      return false;
    }
  }
  return true;
}

// The cache key: the layout of each leaf and the node list (registers and
// leaf kinds do not change the code).
std::string Key(const FusedProgram& p, uint32_t scalar_leaves) {
  std::string key = absl::StrCat("fused:", p.leaves.size(), ":", scalar_leaves, ":");
  for (const FusedNode& node : p.nodes) {
    absl::StrAppend(&key, node.unary ? "u" : "b", node.op, ",", node.a, ",", node.b, ";");
  }
  return key;
}

void* Compile(asmjit::JitRuntime& runtime, const FusedProgram& p, uint32_t scalar_leaves,
              bool avx512, bool inject_error) {
  const asmjit::FuncSignatureT<void, const float* const*, float*, int64_t> signature;
  return codegen::CompileFunction(
      runtime, signature, avx512, inject_error, [&](x86::Compiler& cc, asmjit::FuncNode* fn) {
        x86::Gp inputs = cc.newGpq("inputs");
        x86::Gp out = cc.newGpq("out");
        x86::Gp n = cc.newGpq("n");
        fn->setArg(0, inputs);
        fn->setArg(1, out);
        fn->setArg(2, n);
        codegen::VectorEmitter e(cc, avx512);
        const size_t leaves = p.leaves.size();
        // Scalars are broadcast once; vector leaves keep their base pointer.
        std::vector<x86::Gp> base(leaves);
        std::vector<x86::Vec> scalar(leaves);
        for (size_t l = 0; l < leaves; ++l) {
          base[l] = cc.newGpq();
          cc.mov(base[l], x86::ptr(inputs, static_cast<int32_t>(l * sizeof(void*))));
          if (scalar_leaves & (1u << l)) {
            scalar[l] = e.NewVec();
            e.Broadcast(scalar[l], x86::dword_ptr(base[l]));
          }
        }
        e.Loop(n, [&](bool tail) {
          std::vector<x86::Vec> values(leaves + p.nodes.size());
          for (size_t l = 0; l < leaves; ++l) {
            if (scalar_leaves & (1u << l)) {
              values[l] = scalar[l];
            } else {
              values[l] = e.NewVec();
              e.Load(values[l], e.Elem(base[l]), tail);
            }
          }
          for (size_t j = 0; j < p.nodes.size(); ++j) {
            const FusedNode& node = p.nodes[j];
            x86::Vec dst = e.NewVec();
            if (node.unary) {
              e.Unary(static_cast<UnaryOp>(node.op), dst, values[node.a]);
            } else {
              e.Binary(static_cast<BinaryOp>(node.op), dst, values[node.a], values[node.b]);
            }
            values[leaves + j] = dst;
          }
          e.Store(e.Elem(out), values.back(), tail);
        });
      });
}

}  // namespace

FusedF32Fn Jit::FusedF32(const FusedProgram& program, uint32_t scalar_leaves, Isa isa) {
  if (!Supported(program)) return nullptr;
  return reinterpret_cast<FusedF32Fn>(
      Cached(Key(program, scalar_leaves), isa, [&](bool avx512, bool inject_error) {
        return Compile(impl().runtime, program, scalar_leaves, avx512, inject_error);
      }));
}

}  // namespace alea::vm::jit
