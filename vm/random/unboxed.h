// An unboxed RandState in two plain registers (opcodes.def "Unboxed
// states"): r[0] = k0 << 32 | k1, r[1] = n.
#ifndef ALEA_VM_RANDOM_UNBOXED_H_
#define ALEA_VM_RANDOM_UNBOXED_H_

#include <cstdint>

#include "vm/random/keys.h"

namespace alea::vm::random {

inline RandState Unpack(const uint64_t* r) {
  return RandState{Key{static_cast<uint32_t>(r[0] >> 32), static_cast<uint32_t>(r[0])},
                   static_cast<uint32_t>(r[1])};
}

inline void Pack(const RandState& s, uint64_t* r) {
  r[0] = uint64_t{s.key.k0} << 32 | s.key.k1;
  r[1] = s.n;
}

}  // namespace alea::vm::random

#endif  // ALEA_VM_RANDOM_UNBOXED_H_
