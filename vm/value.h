// Register values and heap objects. A register is an untagged 64-bit slot;
// only the code that wrote it (and the function's reference map) knows whether
// it holds an Int, a Float's bits, a Bool, unit, or a pointer to an Object.
#ifndef ALEA_VM_VALUE_H_
#define ALEA_VM_VALUE_H_

#include <bit>
#include <cstdint>
#include <cstring>

#include "absl/strings/string_view.h"

namespace alea::vm {

using Value = uint64_t;

inline Value FromInt(int64_t i) { return static_cast<Value>(i); }
inline int64_t AsInt(Value v) { return static_cast<int64_t>(v); }
inline Value FromFloat(double d) { return std::bit_cast<Value>(d); }
inline double AsFloat(Value v) { return std::bit_cast<double>(v); }
inline Value FromBool(bool b) { return b ? 1 : 0; }

enum class ObjKind : uint8_t { kStr, kTuple, kArray, kClosure, kTensor, kRandState };

// Every object starts with this header. `length` counts bytes (Str), fields
// (Tuple), elements (Array and Tensor, vm/tensor.h) or captures (Closure); it
// is 0 for a RandState (vm/randstate.h). Records and variants are tuples with
// a tag. The payload follows the header in the same allocation;
// tuples and closures put one mask byte per slot after their slots, so releasing them needs no type
// descriptor.
struct Object {
  uint64_t refcount;
  ObjKind kind;
  uint8_t elements_are_refs;  // Array only
  uint16_t tag;               // Tuple only: a variant's constructor (0 for tuples and records)
  union {
    uint32_t function;  // Closure: the function index
    uint32_t spare;     // Array: slots allocated past `length` (Heap::ResizeArray)
  };
  uint64_t length;
};
static_assert(sizeof(Object) == 24);

inline Object* AsObject(Value v) { return reinterpret_cast<Object*>(static_cast<uintptr_t>(v)); }
inline Value FromObject(const Object* o) {
  return static_cast<Value>(reinterpret_cast<uintptr_t>(o));
}

// Payload accessors. Slots of tuples, arrays and closures are 8 bytes each.
inline Value* Slots(Object* o) { return reinterpret_cast<Value*>(o + 1); }
inline const Value* Slots(const Object* o) { return reinterpret_cast<const Value*>(o + 1); }
inline char* Chars(Object* o) { return reinterpret_cast<char*>(o + 1); }
inline const char* Chars(const Object* o) { return reinterpret_cast<const char*>(o + 1); }
inline absl::string_view StrView(const Object* o) { return absl::string_view(Chars(o), o->length); }
// Tuples and closures: one byte per slot, 1 when that slot holds a reference.
inline uint8_t* Mask(Object* o) { return reinterpret_cast<uint8_t*>(Slots(o) + o->length); }
inline const uint8_t* Mask(const Object* o) {
  return reinterpret_cast<const uint8_t*>(Slots(o) + o->length);
}
inline bool SlotIsRef(const Object* o, uint64_t i) {
  return o->kind == ObjKind::kArray ? o->elements_are_refs != 0 : Mask(o)[i] != 0;
}

inline void Retain(Value v) { ++AsObject(v)->refcount; }

}  // namespace alea::vm

#endif  // ALEA_VM_VALUE_H_
