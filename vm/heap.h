// Reference-counted heap with a byte budget. There are no cycles (no mutation,
// no recursive values), so reference counting frees everything.
#ifndef ALEA_VM_HEAP_H_
#define ALEA_VM_HEAP_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vm/dtype.h"
#include "vm/random/keys.h"
#include "vm/value.h"

namespace alea::vm {

class Heap {
 public:
  // max_bytes == 0 means unlimited.
  explicit Heap(uint64_t max_bytes) : max_bytes_(max_bytes) {}
  ~Heap();
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;

  // Each returns nullptr when the budget (or the system) refuses; the caller
  // reports the error. Slots are zeroed; masks are zeroed (no references).
  Object* NewStr(uint64_t length);
  Object* NewStr(absl::string_view text);
  Object* NewTuple(uint64_t fields);
  Object* NewArray(uint64_t length, bool elements_are_refs);
  Object* NewClosure(uint32_t function, uint64_t captures);
  // Array `o`, whose only reference the caller holds, grown to `length` (at
  // least its length) elements, the new ones zeroed for the caller to fill.
  // Growth past the
  // spare slots reallocates with the capacity doubled, so n pushes cost O(n)
  // in all. Returns the array, which may have moved, or nullptr when the
  // budget or the system refuses (then `o` is unchanged).
  Object* ResizeArray(Object* o, uint64_t length);
  // `xs` (owned) as an array of `length` elements the caller may write (the
  // new ones null, elements_are_refs set to `refs`): xs itself, resized,
  // when it holds the only reference, else a copy (its elements retained)
  // and xs released. nullptr when memory is refused (xs released).
  Object* WritableArray(Object* xs, uint64_t length, bool refs);
  // A tensor (vm/tensor.h) of `shape` whose elements are NOT initialized,
  // 64-byte aligned. Also nullptr for a shape ElementCount rejects.
  Object* NewTensor(DType dtype, absl::Span<const int64_t> shape);
  // NewTensor for the instruction site `site` (>= 1; docs/decisions.md "The JIT
  // and fusion": a site keeps its output buffer between executions): the
  // tensor this site made last time, if it has died since and has this dtype
  // and shape, is reused (not an allocation); otherwise a new one that will be
  // parked at the site when it dies. Parked tensors count against the budget
  // but not in bytes_live(); they are given up before the budget refuses
  // anything.
  Object* NewTensorAt(uint32_t site, DType dtype, absl::Span<const int64_t> shape);
  // A tensor of `shape` viewing `data`, the host's memory (TensorHead::host_view):
  // never written, never freed here; the host keeps it alive and unchanged
  // while the tensor lives. Only its header counts against the budget.
  Object* NewTensorView(DType dtype, absl::Span<const int64_t> shape, const void* data);
  // A tensor of `shape` whose elements are `data`, inside `base`'s elements
  // (TensorHead::kViewOfTensor): it holds a reference to `base`, released
  // when it dies. Only its header counts against the budget.
  Object* NewTensorViewOf(Object* base, DType dtype, absl::Span<const int64_t> shape,
                          const void* data);
  // Frees every parked tensor (they count against the budget, not as live
  // bytes): when the sites go away (a new module) or the budget needs room.
  void DropParked();
  // A RandState (vm/randstate.h) holding `state`, unconsumed, with no
  // creation site (as the host makes one; opcodes then record theirs).
  Object* NewRandState(const random::RandState& state);
  // The shared object of a constructor without fields of tag `tag`
  // (LOADTAG): made once per heap, never freed (its count starts too high to
  // reach zero), not counted against the budget. Null when the system
  // refuses the memory.
  Object* Nullary(uint16_t tag) {
    if (tag < nullary_.size() && nullary_[tag] != nullptr) return nullary_[tag];
    return MakeNullary(tag);
  }

  // Drops one reference; frees the object and, iteratively, everything only
  // it kept alive, so a chain a million levels deep needs no C stack.
  void Release(Object* o) {
    if (--o->refcount == 0) Free(o);
  }
  void ReleaseValue(Value v) { Release(AsObject(v)); }

  uint64_t bytes_live() const { return bytes_live_; }
  uint64_t peak_bytes() const { return peak_bytes_; }
  uint64_t allocations() const { return allocations_; }
  // Bytes of tensor elements copied only to change their layout (transpose,
  // slices, reshape, concat...: TensorContext::CountCopy), for `--stats`.
  uint64_t bytes_copied() const { return bytes_copied_; }
  void CountCopy(uint64_t bytes) { bytes_copied_ += bytes; }
  uint64_t max_bytes() const { return max_bytes_; }
  // Why the last allocation failed: true when the budget refused, false when
  // the system did.
  bool last_failure_was_budget() const { return last_failure_was_budget_; }
  uint64_t last_failed_bytes() const { return last_failed_bytes_; }

  static uint64_t SizeOf(const Object* o);

 private:
  Object* Allocate(ObjKind kind, uint64_t length, uint64_t payload_bytes);
  // The accounting every allocation shares: a refusal (by the budget or the
  // system) recorded for the error report, the budget test, and a success.
  std::nullptr_t Refuse(uint64_t bytes, bool by_budget);
  // Gives up the parked tensors when only they stand in the way.
  bool WithinBudget(uint64_t bytes);
  void Count(uint64_t bytes);
  void Free(Object* o);
  void KeepSpare(void* block, uint64_t bytes);

  // Small tuples and closures, which a functional program makes and drops
  // by the million (a tree's nodes, a map's closures), are recycled through
  // free lists, one per 16-byte size class, instead of malloc and free: a
  // freed block is linked through its first word and handed out again,
  // zeroed, for the next object of its class. Arrays (which grow by
  // realloc), strings and tensors are not. The lists hold at most what was
  // once live; freed blocks leave bytes_live_ as before. Under
  // AddressSanitizer every block goes back to free, so a use after free is
  // still caught.
  static constexpr uint64_t kPoolGranule = 16;
  static constexpr uint64_t kMaxPooledBytes = 128;
  // The free list an object of this kind and size uses, or -1.
  static int PoolClass(ObjKind kind, uint64_t bytes) {
#if defined(__SANITIZE_ADDRESS__)
    (void)kind;
    (void)bytes;
    return -1;
#else
    if ((kind != ObjKind::kTuple && kind != ObjKind::kClosure) || bytes > kMaxPooledBytes) {
      return -1;
    }
    return static_cast<int>((bytes + kPoolGranule - 1) / kPoolGranule) - 1;
#endif
  }
  static size_t PoolBlockBytes(int size_class) {
    return static_cast<size_t>(size_class + 1) * kPoolGranule;
  }
  std::array<Object*, kMaxPooledBytes / kPoolGranule> pool_{};
  // Blocks are carved from slabs of kSlabBytes (malloc'd, freed with the
  // heap): a fresh small object costs a pop, not a malloc.
  static constexpr size_t kSlabBytes = size_t{64} << 10;
  std::vector<void*> slabs_;
  void RefillPool(int size_class);

  uint64_t max_bytes_;
  uint64_t bytes_live_ = 0;
  uint64_t peak_bytes_ = 0;
  uint64_t allocations_ = 0;
  uint64_t bytes_copied_ = 0;
  bool last_failure_was_budget_ = false;
  uint64_t last_failed_bytes_ = 0;
  std::vector<Object*> worklist_;  // kept between calls to avoid reallocating
  Object* MakeNullary(uint16_t tag);
  std::vector<Object*> nullary_;  // by tag

  // Large tensor blocks freed recently, kept for the next tensor of the same
  // size: a loop that makes a new big tensor per step would otherwise have
  // glibc return the memory to the system and fault it back in every time
  // (measured: 10x slower on 4 MB tensors). Not counted in bytes_live_.
  struct SpareBlock {
    uint64_t bytes;
    void* block;
  };
  std::vector<SpareBlock> spare_blocks_;  // oldest first
  uint64_t spare_bytes_ = 0;
  std::vector<Object*> parked_;  // by site: a dead tensor the site made, or null
  size_t parked_count_ = 0;
  uint64_t parked_bytes_ = 0;  // not in bytes_live_: no value refers to them
  // A parked tensor's bytes back to live (before it is reused or freed).
  void Unpark(Object* o);
};

}  // namespace alea::vm

#endif  // ALEA_VM_HEAP_H_
