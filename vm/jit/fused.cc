// Fused elementwise programs (jit.h FusedF32): one pass over the elements
// that loads each leaf once per vector, evaluates the program's nodes in
// order in registers, and stores the last node. Every node is the same
// VectorEmitter operation the single-op kernels use, each rounded once to
// f32, so the result is bitwise the unfused chain's (an f32 temporary in
// memory and one in a register hold the same bits). Mask values (bool
// leaves, comparisons) live as codegen::Mask; `where` is a Select, which
// moves its operands' bits unchanged as the reference does. A bool leaf's
// inputs[] pointer is its first byte (tensor_fused.cc).
#include <asmjit/x86.h>

#include <cstdint>
#include <optional>
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

// The program's value types (bytecode.h FusedValueMasks: a program may come
// from elsewhere than a verified module, e.g. a test) when it is within the
// limits and every op is one the emitter has; nullopt otherwise.
std::optional<std::vector<bool>> ValueTypes(const FusedProgram& p) {
  if (p.leaves.size() > static_cast<size_t>(Jit::kMaxFusedLeaves) ||
      p.nodes.size() > static_cast<size_t>(Jit::kMaxFusedNodes)) {
    return std::nullopt;
  }
  std::optional<std::vector<bool>> is_mask = FusedValueMasks(p);
  if (!is_mask) return std::nullopt;
  for (const FusedNode& node : p.nodes) {
    if (node.where) continue;
    const bool ok =
        node.unary ? codegen::VectorEmitter::SupportsUnary(static_cast<UnaryOp>(node.op))
                   : kernels::IsComparison(static_cast<BinaryOp>(node.op)) ||
                         codegen::VectorEmitter::SupportsBinary(static_cast<BinaryOp>(node.op));
    if (!ok) return std::nullopt;
  }
  return is_mask;
}

// The cache key: the layout and type of each leaf and the node list
// (registers and the kind of an f32 leaf do not change the code).
std::string Key(const FusedProgram& p, uint32_t scalar_leaves) {
  std::string key = absl::StrCat("fused:", p.leaves.size(), ":", scalar_leaves, ":");
  for (const FusedLeaf& leaf : p.leaves) key += leaf.kind == FusedLeaf::Kind::kBool ? 'm' : 'f';
  key += ':';
  for (const FusedNode& node : p.nodes) {
    const char* kind = node.where ? "w" : node.unary ? "u" : "b";
    absl::StrAppend(&key, kind, node.op, ",", node.a, ",", node.b, ",", node.c, ";");
  }
  return key;
}

// A value in registers: v for an f32, m for a mask.
struct Value {
  x86::Vec v;
  codegen::Mask m;
};

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
        std::vector<Value> scalar(leaves);
        for (size_t l = 0; l < leaves; ++l) {
          base[l] = cc.newGpq();
          cc.mov(base[l], x86::ptr(inputs, static_cast<int32_t>(l * sizeof(void*))));
          if ((scalar_leaves & (1u << l)) == 0) continue;
          if (p.leaves[l].kind == FusedLeaf::Kind::kBool) {
            scalar[l].m = e.BroadcastBoolByte(base[l]);
          } else {
            scalar[l].v = e.NewVec();
            e.Broadcast(scalar[l].v, x86::dword_ptr(base[l]));
          }
        }
        e.Loop(n, [&](bool tail) {
          std::vector<Value> values(leaves + p.nodes.size());
          for (size_t l = 0; l < leaves; ++l) {
            if (scalar_leaves & (1u << l)) {
              values[l] = scalar[l];
            } else if (p.leaves[l].kind == FusedLeaf::Kind::kBool) {
              values[l].m = e.LoadBoolBytes(base[l], tail);
            } else {
              values[l].v = e.NewVec();
              e.Load(values[l].v, e.Elem(base[l]), tail);
            }
          }
          for (size_t j = 0; j < p.nodes.size(); ++j) {
            const FusedNode& node = p.nodes[j];
            Value& dst = values[leaves + j];
            if (node.where) {
              dst.v = e.NewVec();
              e.Select(dst.v, values[node.a].m, values[node.b].v, values[node.c].v);
            } else if (node.unary) {
              dst.v = e.NewVec();
              e.Unary(static_cast<UnaryOp>(node.op), dst.v, values[node.a].v);
            } else if (kernels::IsComparison(static_cast<BinaryOp>(node.op))) {
              dst.m =
                  e.CompareOp(static_cast<BinaryOp>(node.op), values[node.a].v, values[node.b].v);
            } else {
              dst.v = e.NewVec();
              e.Binary(static_cast<BinaryOp>(node.op), dst.v, values[node.a].v, values[node.b].v);
            }
          }
          e.Store(e.Elem(out), values.back().v, tail);
        });
      });
}

}  // namespace

FusedF32Fn Jit::FusedF32(const FusedProgram& program, uint32_t scalar_leaves, Isa isa) {
  if (!ValueTypes(program)) return nullptr;
  return reinterpret_cast<FusedF32Fn>(
      Cached(Key(program, scalar_leaves), isa, [&](bool avx512, bool inject_error) {
        return Compile(impl().runtime, program, scalar_leaves, avx512, inject_error);
      }));
}

}  // namespace alea::vm::jit
