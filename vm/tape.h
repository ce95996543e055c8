// The tape of a `grad` call (docs/decisions.md "Differentiation"): what the
// interpreter records while the differentiated function runs (Vm::Run with
// kTape), then replays backward. A Float that carries a derivative is a
// node; a register's node is its shadow (Vm::shadow_), and a Float kept in
// a tuple, array, record, variant or closure has its node here, by object
// and slot. Each node but the leaves (the first argument's Floats) was made
// by one operation of vm/grad_rules.def, recorded with its operands' values
// and its result's, which are all its rule reads. Node 0 is "no derivative".
#ifndef ALEA_VM_TAPE_H_
#define ALEA_VM_TAPE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "vm/bytecode.h"
#include "vm/heap.h"

namespace alea::vm {

// The rules of vm/grad_rules.def, and kZero (the result carries nothing).
enum class GradRule : uint8_t {
  kNone,  // not differentiable: a tracked operand is an error
  kZero,
#define ALEA_GRAD_OP(op, dx, dy) kOp_##op,
#define ALEA_GRAD_NATIVE(name, dx, dy) kNative_##name,
#include "vm/grad_rules.def"
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_NATIVE
};
GradRule GradRuleOfOp(Op op);
GradRule GradRuleOfNative(std::string_view name);

class Tape {
 public:
  // Forgets everything recorded, releasing the objects it kept; the
  // capacity stays for the next call of the same `grad` site.
  void Reset(Heap& heap);

  uint32_t NewLeaf();
  // A node made by `rule` from nodes in0, in1 (0: a constant operand) with
  // operand values x, y and result z.
  uint32_t Record(GradRule rule, uint32_t in0, uint32_t in1, double x, double y, double z);

  // The node of slot `slot` of `object` (0 when it carries none). Setting a
  // nonzero one retains the object until Reset, so that its address cannot
  // be reused by another object while the tape refers to it.
  uint32_t Slot(const Object* object, uint32_t slot) const;
  void SetSlot(Object* object, uint32_t slot, uint32_t node);
  bool Tracks(const Object* object) const { return slots_.contains(object); }

  // Runs the rules backward from `result` (adjoint 1); nodes no path
  // reaches keep a zero adjoint and pass nothing on (JAX's symbolic zeros).
  void Backward(uint32_t result);
  double Adjoint(uint32_t node) const { return node < adjoints_.size() ? adjoints_[node] : 0.0; }

  // Between the interpreter and Vm::Invoke: the node of the value a
  // boundary RET returned, and of the argument 0 of the next Invoke.
  uint32_t boundary_node = 0;
  uint32_t first_arg_node = 0;

 private:
  struct Entry {
    GradRule rule;
    uint32_t in0, in1;
    double x, y, z;
  };
  uint32_t nodes_ = 0;
  // entries_[k] made node made_[k]; leaves have none.
  std::vector<Entry> entries_;
  std::vector<uint32_t> made_;
  absl::flat_hash_map<const Object*, std::vector<uint32_t>> slots_;
  std::vector<Object*> kept_;
  std::vector<double> adjoints_;
  std::vector<uint8_t> reached_;
};

}  // namespace alea::vm

#endif  // ALEA_VM_TAPE_H_
