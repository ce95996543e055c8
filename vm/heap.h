// Reference-counted heap with a byte budget. There are no cycles (no mutation,
// no recursive values), so reference counting frees everything.
#ifndef ALEA_VM_HEAP_H_
#define ALEA_VM_HEAP_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "vm/value.h"

namespace alea::vm {

class Heap {
 public:
  // max_bytes == 0 means unlimited.
  explicit Heap(uint64_t max_bytes) : max_bytes_(max_bytes) {}
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;

  // Each returns nullptr when the budget (or the system) refuses; the caller
  // reports the error. Slots are zeroed; masks are zeroed (no references).
  Object* NewStr(uint64_t length);
  Object* NewStr(absl::string_view text);
  Object* NewTuple(uint64_t fields);
  Object* NewArray(uint64_t length, bool elements_are_refs);
  Object* NewClosure(uint32_t function, uint64_t captures);

  // Drops one reference; frees the object and, iteratively, everything only
  // it kept alive, so a chain a million levels deep needs no C stack.
  void Release(Object* o) {
    if (--o->refcount == 0) Free(o);
  }
  void ReleaseValue(Value v) { Release(AsObject(v)); }

  uint64_t bytes_live() const { return bytes_live_; }
  uint64_t peak_bytes() const { return peak_bytes_; }
  uint64_t allocations() const { return allocations_; }
  uint64_t max_bytes() const { return max_bytes_; }
  // Why the last allocation failed: true when the budget refused, false when
  // the system did.
  bool last_failure_was_budget() const { return last_failure_was_budget_; }
  uint64_t last_failed_bytes() const { return last_failed_bytes_; }

  static uint64_t SizeOf(const Object* o);

 private:
  Object* Allocate(ObjKind kind, uint64_t length, uint64_t payload_bytes);
  void Free(Object* o);

  uint64_t max_bytes_;
  uint64_t bytes_live_ = 0;
  uint64_t peak_bytes_ = 0;
  uint64_t allocations_ = 0;
  bool last_failure_was_budget_ = false;
  uint64_t last_failed_bytes_ = 0;
  std::vector<Object*> worklist_;  // kept between calls to avoid reallocating
};

}  // namespace alea::vm

#endif  // ALEA_VM_HEAP_H_
