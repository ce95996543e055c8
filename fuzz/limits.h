// What every fuzz target runs a program under: few instructions, a small
// heap, shallow calls, no files, one thread, output thrown away. A fuzzer
// looks for crashes, leaks and hangs, not for programs that finish, so the
// limits are what make an endless or enormous program end quickly — with an
// error status, which is a correct outcome.
#ifndef ALEA_FUZZ_LIMITS_H_
#define ALEA_FUZZ_LIMITS_H_

#include <cstdint>

#include "stdlib/natives.h"
#include "vm/bytecode.h"
#include "vm/vm.h"

namespace alea::fuzz {

inline vm::Limits RunLimits() {
  vm::Limits limits;
  limits.max_instructions = 50'000;
  // The instruction budget counts instructions, not tensor elements: one
  // instruction on a tensor of 2^20 elements, in a loop of 50,000 turns, is
  // minutes under ASan (a golden program, mutated, timed out at 8 MiB). A
  // 2 MiB heap keeps each tensor under 2^19 elements.
  limits.max_heap_bytes = 2 << 20;
  limits.max_call_depth = 200;
  limits.max_native_nesting = 20;
  limits.files.mode = vm::FileAccess::Mode::kNone;
  return limits;
}

// A machine as `alea run` sets one up, under RunLimits.
inline void Configure(vm::Vm& machine) {
  machine.AddNatives(stdlib::Natives());
  machine.SetThreads(1);
  machine.SetOutput([](absl::string_view) {});
}

}  // namespace alea::fuzz

#endif  // ALEA_FUZZ_LIMITS_H_
