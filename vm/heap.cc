#include "vm/heap.h"

#include <cstdlib>
#include <cstring>
#include <limits>

namespace alea::vm {
namespace {

// Sizes beyond this are refused before any arithmetic can overflow.
constexpr uint64_t kMaxObjectBytes = uint64_t{1} << 48;

uint64_t PayloadBytes(ObjKind kind, uint64_t length) {
  switch (kind) {
    case ObjKind::kStr:
      return length;
    case ObjKind::kArray:
      return length * sizeof(Value);
    case ObjKind::kTuple:
    case ObjKind::kClosure:
      return length * (sizeof(Value) + 1);
  }
  return 0;
}

}  // namespace

uint64_t Heap::SizeOf(const Object* o) { return sizeof(Object) + PayloadBytes(o->kind, o->length); }

Object* Heap::Allocate(ObjKind kind, uint64_t length, uint64_t payload_bytes) {
  if (length > kMaxObjectBytes / 16) {
    last_failure_was_budget_ = max_bytes_ != 0;
    last_failed_bytes_ = std::numeric_limits<uint64_t>::max();
    return nullptr;
  }
  uint64_t bytes = sizeof(Object) + payload_bytes;
  if (max_bytes_ != 0 && bytes_live_ + bytes > max_bytes_) {
    last_failure_was_budget_ = true;
    last_failed_bytes_ = bytes;
    return nullptr;
  }
  // calloc: zeroed slots are null references and masks that own nothing.
  auto* o = static_cast<Object*>(std::calloc(1, bytes));
  if (o == nullptr) {
    last_failure_was_budget_ = false;
    last_failed_bytes_ = bytes;
    return nullptr;
  }
  o->refcount = 1;
  o->kind = kind;
  o->length = length;
  bytes_live_ += bytes;
  if (bytes_live_ > peak_bytes_) peak_bytes_ = bytes_live_;
  ++allocations_;
  return o;
}

Object* Heap::NewStr(uint64_t length) {
  return Allocate(ObjKind::kStr, length, PayloadBytes(ObjKind::kStr, length));
}

Object* Heap::NewStr(absl::string_view text) {
  Object* o = NewStr(text.size());
  if (o != nullptr && !text.empty()) std::memcpy(Chars(o), text.data(), text.size());
  return o;
}

Object* Heap::NewTuple(uint64_t fields) {
  return Allocate(ObjKind::kTuple, fields, PayloadBytes(ObjKind::kTuple, fields));
}

Object* Heap::NewArray(uint64_t length, bool elements_are_refs) {
  Object* o = Allocate(ObjKind::kArray, length, PayloadBytes(ObjKind::kArray, length));
  if (o != nullptr) o->elements_are_refs = elements_are_refs ? 1 : 0;
  return o;
}

Object* Heap::NewClosure(uint32_t function, uint64_t captures) {
  Object* o = Allocate(ObjKind::kClosure, captures, PayloadBytes(ObjKind::kClosure, captures));
  if (o != nullptr) o->function = function;
  return o;
}

void Heap::Free(Object* root) {
  // Re-entrant use (a Free inside a Free) cannot happen: nothing here calls out.
  worklist_.push_back(root);
  while (!worklist_.empty()) {
    Object* o = worklist_.back();
    worklist_.pop_back();
    if (o->kind != ObjKind::kStr) {
      Value* slots = Slots(o);
      const bool all_refs = o->kind == ObjKind::kArray && o->elements_are_refs;
      const bool some_refs = o->kind != ObjKind::kArray;
      if (all_refs) {
        for (uint64_t i = 0; i < o->length; ++i) {
          Object* child = AsObject(slots[i]);
          if (child != nullptr && --child->refcount == 0) worklist_.push_back(child);
        }
      } else if (some_refs) {
        const uint8_t* mask = Mask(o);
        for (uint64_t i = 0; i < o->length; ++i) {
          if (!mask[i]) continue;
          Object* child = AsObject(slots[i]);
          if (child != nullptr && --child->refcount == 0) worklist_.push_back(child);
        }
      }
    }
    bytes_live_ -= SizeOf(o);
    std::free(o);
  }
  // A huge one-off worklist should not pin memory for the VM's lifetime.
  if (worklist_.capacity() > 4096) std::vector<Object*>().swap(worklist_);
}

}  // namespace alea::vm
