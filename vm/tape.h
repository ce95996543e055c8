// The tape of a `grad` call (docs/decisions.md "Differentiation"): what the
// interpreter records while the differentiated function runs (Vm::Run with
// kTape), then replays backward. A Float that carries a derivative is a
// node; a register's node is its shadow (Vm::shadow_), and a Float kept in
// a tuple, array, record, variant or closure has its node here, by object
// and slot; an f32 tensor's node is its slot 0 here. Each node but the
// leaves (the first argument's Floats and f32 tensors) was made by one
// operation of vm/grad_rules.def, recorded with what its rule reads: the
// operands' and result's values (Floats), or the tensors themselves, kept.
// Node 0 is "no derivative".
#ifndef ALEA_VM_TAPE_H_
#define ALEA_VM_TAPE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "vm/bytecode.h"
#include "vm/heap.h"

namespace alea::vm {

class TensorContext;
struct TapeTemps;  // vm/tape_tensors.cc

// The rules of vm/grad_rules.def, and kZero (the result carries nothing).
enum class GradRule : uint8_t {
  kNone,  // not differentiable: a tracked operand is an error
  kZero,
  kCarry,  // ALEA_GRAD_CARRY_NATIVE: the native says where its Floats went
#define ALEA_GRAD_OP(op, dx, dy) kOp_##op,
#define ALEA_GRAD_NATIVE(name, dx, dy) kNative_##name,
#define ALEA_GRAD_TENSOR_OP(op) kTensorOp_##op,
#define ALEA_GRAD_TENSOR_NATIVE(name) kTensorNative_##name,
#include "vm/grad_rules.def"
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_NATIVE
#undef ALEA_GRAD_TENSOR_OP
#undef ALEA_GRAD_TENSOR_NATIVE
};
GradRule GradRuleOfOp(Op op);
GradRule GradRuleOfNative(std::string_view name);
// Whether `rule` is one of the tensor rules (vm/tape_tensors.cc).
bool IsTensorRule(GradRule rule);
// Whether `rule` is `set` or `add_at` of a tensor, in any index form
// (Tape::UpdateStep), and whether it is `set`.
bool IsUpdateRule(GradRule rule);
bool IsSetRule(GradRule rule);

class Tape {
 public:
  // Forgets everything recorded, releasing the objects it kept; the
  // capacity stays for the next call of the same `grad` site.
  void Reset(Heap& heap);

  uint32_t NewLeaf(bool tensor);
  // A Float node made by `rule` from nodes in0, in1 (0: a constant operand)
  // with operand values x, y and result z.
  uint32_t Record(GradRule rule, uint32_t in0, uint32_t in1, double x, double y, double z);
  // A node made by a tensor rule: operands a, b and result `out` (any may
  // be null: a Float's side), kept until Reset; `aux` is the rule's own
  // number (a reduction's op, an axis). The node is a tensor's unless
  // `float_result` (t_item).
  uint32_t RecordTensor(GradRule rule, uint32_t in0, uint32_t in1, Object* a, Object* b,
                        Object* out, int64_t aux, int64_t aux2, bool float_result,
                        Object* c = nullptr);

  // Another entry for the node RecordTensor made last: an operation of
  // several operands records one entry per operand, each passing on its
  // share of the same adjoint.
  void RecordTensorPart(GradRule rule, uint32_t in0, Object* a, Object* b, int64_t aux,
                        int64_t aux2);

  // The node of slot `slot` of `object` (0 when it carries none). Setting a
  // nonzero one retains the object until Reset, so that its address cannot
  // be reused by another object while the tape refers to it, nor its
  // elements be overwritten in place (its count stays above one).
  uint32_t Slot(const Object* object, uint32_t slot) const;
  void SetSlot(Object* object, uint32_t slot, uint32_t node);
  bool Tracks(const Object* object) const { return slots_.contains(object); }
  // A tensor that carries a derivative (a container holding Floats that do
  // is Tracked, not this).
  bool TracksTensor(const Object* object) const;
  // Keeps `object` alive until Reset.
  void Keep(Object* object);

  // Runs the rules backward from `result`, whose adjoint is 1 (a tensor
  // result: ones of its shape); nodes no path reaches keep a zero adjoint and
  // pass nothing on (JAX's symbolic zeros). False when a tensor step failed
  // (cx says why).
  bool Backward(uint32_t result, const Object* result_tensor, TensorContext& cx);
  double Adjoint(uint32_t node) const { return node < adjoints_.size() ? adjoints_[node] : 0.0; }
  // A tensor node's adjoint (borrowed), or null when nothing reached it.
  Object* TensorAdjoint(uint32_t node) const {
    return node < tensor_adjoints_.size() ? tensor_adjoints_[node] : nullptr;
  }

  // Output-buffer sites (Heap::NewTensorAt) for the backward pass's tensors:
  // the k-th tensor it makes in a call takes site base + k, so a training
  // loop's next step reuses this step's dead buffers instead of allocating.
  // Sites are given after a call that wanted more than it had.
  uint32_t NextSite() {
    ++sites_wanted_;
    const uint32_t k = site_next_++;
    return k < site_count_ ? site_base_ + k : 0;
  }
  uint32_t sites_wanted() const { return sites_wanted_; }
  uint32_t sites_reserved() const { return site_count_; }
  void SetSites(uint32_t base, uint32_t count) {
    site_base_ = base;
    site_count_ = count;
  }

  // Between the interpreter and Vm::Invoke: the node of the value a
  // boundary RET returned, and those of the next Invoke's arguments (GRAD's
  // first one, or what a carrying native passes to the closure it calls).
  uint32_t boundary_node = 0;
  std::vector<uint32_t> call_nodes;

 private:
  struct Entry {
    GradRule rule;
    uint32_t in0, in1;
    double x, y, z;
    Object* a;
    Object* b;
    Object* out;
    int64_t aux, aux2;
    Object* c;  // a third operand (a subscript's index tensor)
  };
  // One tensor rule's step (tape_tensors.cc): adds to the operands' adjoints.
  bool TensorStep(const Entry& e, uint32_t out, TensorContext& cx);
  // TensorStep of `set` and `add_at` (t: the step's temporaries).
  bool UpdateStep(const Entry& e, const Object* g, TensorContext& cx, TapeTemps& t);
  // TensorStep of `@` and linear algebra (tape_matrices.cc).
  bool MatrixStep(const Entry& e, const Object* g, TensorContext& cx, TapeTemps& t);
  bool AddTensorAdjoint(uint32_t node, Object* d, TensorContext& cx);  // takes d
  bool SeedTensor(uint32_t node, const Object* result, TensorContext& cx);
  // `cx` making its next tensor at NextSite().
  TensorContext& Sited(TensorContext& cx);
  void ReleaseAdjoints(Heap& heap);

  uint32_t nodes_ = 0;
  std::vector<uint8_t> is_tensor_;  // per node
  // entries_[k] made node made_[k]; leaves have none.
  std::vector<Entry> entries_;
  std::vector<uint32_t> made_;
  absl::flat_hash_map<const Object*, std::vector<uint32_t>> slots_;
  std::vector<Object*> kept_;
  std::vector<double> adjoints_;
  std::vector<Object*> tensor_adjoints_;  // owned
  std::vector<uint8_t> reached_;
  Heap* heap_ = nullptr;  // of the last Reset, for the adjoints' release
  uint32_t site_base_ = 0, site_count_ = 0, site_next_ = 0, sites_wanted_ = 0;
};

}  // namespace alea::vm

#endif  // ALEA_VM_TAPE_H_
