// The interface between the VM and native functions (stdlib/, hosts).
#ifndef ALEA_VM_NATIVE_H_
#define ALEA_VM_NATIVE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vm/bytecode.h"
#include "vm/files.h"
#include "vm/heap.h"
#include "vm/random/keys.h"
#include "vm/runtime_error.h"
#include "vm/value.h"

namespace alea::vm {

class Vm;
class NativeContext;
class TensorContext;
namespace jit {
class Jit;
}

// A native's arguments are borrowed (args[0..arity)); its result is owned.
// On failure it returns the Status that NativeContext::Fail, OutOfMemory or a
// failed Call gave it, after releasing what it allocated.
using NativeFn = absl::StatusOr<Value> (*)(NativeContext& ctx, const Value* args);

struct NativeEntry {
  const char* name;  // as in vm/natives.def; "extern NAME" for a host's `extern fn`
  int arity;         // <= kMaxNativeArity
  NativeFn fn;
  // What NativeContext::data() returns to `fn`: a host function's own state
  // (the standard library has none).
  const void* data = nullptr;
  // vm/natives.def ALEA_NATIVE_OWNING: args[0] is moved in (owned), and its
  // register is cleared before the call.
  bool owns_first = false;
  // What it relies on its arguments being (vm/native_signature.h), for the
  // verifier: a native of natives.def has its line's; another (a test's) needs
  // one to be called, a host's `extern fn` has the module's declaration.
  const char* signature = nullptr;
};

class NativeContext {
 public:
  Heap& heap();
  // What the program may do with files (Limits::files).
  const FileAccess& files() const;
  // The most a file native may read: what the heap limit still allows (the
  // file's bytes become a Str or a tensor), or kMaxReadBytes without one.
  uint64_t MaxReadBytes() const;
  const Module& module() const;
  // NativeEntry::data of the native being called.
  const void* data() const { return data_; }
  // This CALLN instruction, as a number unique in the loaded module (the
  // output-buffer site of tensors()): a host keeps per-call-site state by it.
  uint32_t site() const;
  // A TensorContext for this call: the VM's JIT (when it may be used) and
  // this call site's output buffer (Heap::NewTensorAt).
  TensorContext tensors();

  // From the calling function's register map: whether argument i (0-based)
  // and the result hold references.
  bool arg_is_reference(int i) const;
  bool result_is_reference() const;
  // A `type` argument (an Int holding a T index); out-of-range indexes (only
  // malformed bytecode has them) read as Int.
  const TypeDesc& type(Value index) const;
  uint32_t type_index(Value index) const;

  // Calls closure `f` (borrowed) on `args`, which are moved in: retain a
  // borrowed reference before passing it. On failure the error is recorded
  // and every argument has been released.
  absl::StatusOr<Value> Call(Value f, absl::Span<const Value> args);

  // Carrying derivatives (vm/grad_rules.def ALEA_GRAD_CARRY_NATIVE): while
  // `grad` records, a native that passes Floats on (into its result, or to
  // the closure it calls) says where each went, by node; when nothing
  // records, these read 0 and do nothing, at the cost of a test.
  bool recording() const;
  // The node of Float argument i, and of slot i of a container.
  uint32_t ArgNode(int i) const;
  uint32_t SlotNode(const Object* o, uint64_t i) const;
  void SetSlotNode(Object* o, uint64_t i, uint32_t node);
  // The nodes of n slots of `from` from `first` become those of `to` from `at`.
  void CarrySlots(const Object* from, uint64_t first, Object* to, uint64_t at, uint64_t n);
  // The node of the native's Float result.
  void SetResultNode(uint32_t node) { result_node_ = node; }
  // Call, with the nodes of its arguments; CallResultNode() is then the
  // node of the Float it returned.
  absl::StatusOr<Value> Call(Value f, absl::Span<const Value> args,
                             absl::Span<const uint32_t> nodes);
  uint32_t CallResultNode() const;
  // A node for the sum of two nodes' Floats (either may be 0), for w times
  // a node's Float, and for the product of Floats xv and yv of nodes x, y.
  uint32_t SumNode(uint32_t x, uint32_t y);
  uint32_t ScaledNode(uint32_t x, double w);
  uint32_t ProductNode(uint32_t x, uint32_t y, double xv, double yv);

  // `progress`'s bar for step i of n (Vm::Progress).
  void Progress(int64_t i, int64_t n);

  // Records a run-time error, located at the CALLN, and returns the Status to
  // return.
  template <typename... Args>
  absl::Status Fail(RuntimeErrorId id, const Args&... args) {
    return Fail(MakeRuntimeError(id, args...));
  }
  absl::Status Fail(RuntimeError error);
  absl::Status OutOfMemory();  // after the Heap refused an allocation
  // After a vm/tensor_ops.h function failed: its error, or out of memory.
  absl::Status Fail(TensorContext& cx);

  // A sampler native's RandState argument: the counter-0 key it draws with
  // (vm/random/keys.h EffectiveKey), after the use-once check (a consumed
  // state is the error "a RandState is used twice", with its notes). Call
  // ConsumeState once nothing else can fail, so that a failing call leaves
  // the state unconsumed, as the sampler opcodes do.
  absl::StatusOr<random::Key> StateKey(Value state);
  void ConsumeState(Value state);
  // Allocation that reports the error itself.
  absl::StatusOr<Object*> NewArray(uint64_t length, bool elements_are_refs);
  absl::StatusOr<Object*> NewTuple(uint64_t fields);
  absl::StatusOr<Object*> NewStr(absl::string_view text);

 private:
  friend class Vm;
  NativeContext(Vm* vm, uint16_t a, const void* data) : vm_(vm), a_(a), data_(data) {}
  Vm* vm_;
  uint16_t a_;  // the CALLN's result register; arguments follow it
  const void* data_;
  uint32_t result_node_ = 0;
};

}  // namespace alea::vm

#endif  // ALEA_VM_NATIVE_H_
