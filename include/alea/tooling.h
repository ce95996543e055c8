// What Alea's own tools need beyond the C API (alea/alea.h), as Lua's `lua.c`
// needs a little beyond `lua.h`: choices and counters of the VM that a host
// has no use for, and the diagnostics a command line prints itself. Not a
// stable interface for hosts: it changes with the tools.
#ifndef ALEA_TOOLING_H_
#define ALEA_TOOLING_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "alea/alea.h"

namespace alea::tooling {

// The widest vectors the JIT may use: AVX-512 where the machine has it (the
// default) or AVX2 (`alea run --isa`). Results are the same either way.
void SetAvx512(alea_vm* vm, bool enabled);

// Whether runs time themselves and their JIT kernels (`--stats`): a clock
// read per kernel.
void SetKernelTiming(alea_vm* vm, bool enabled);

// The counters `--stats` prints.
struct RunStats {
  uint64_t instructions = 0;
  uint64_t calls = 0;
  uint64_t allocations = 0;
  uint64_t peak_heap_bytes = 0;
  uint64_t jit_kernels = 0;
  uint64_t jit_compile_nanos = 0;
  uint64_t jit_kernel_nanos = 0;
  uint64_t run_nanos = 0;
  uint64_t bytes_copied = 0;
};
RunStats Stats(const alea_vm* vm);

// What a tool shows of a program, with the diagnostics met on the way
// (rendered, warnings included) and whether it could be shown.
struct Shown {
  bool ok = false;
  std::string text;         // for stdout
  std::string diagnostics;  // for stderr
};
// `alea check FILE`: the front end alone (parse, types, use-once).
Shown Check(std::string_view file);
// `alea dis --desugar`: FILE with its implicit random states made explicit,
// as Alea source, the session stream seeded with `seed`.
Shown Desugar(std::string_view file, int64_t seed);
// `alea dis`: the bytecode of a module.
std::string Disassemble(const alea_module* module);

// The threads of this machine: `--threads`' default.
int HardwareThreads();

// Diagnostics of the command line, rendered: FILE has no `main`; `--seed N` given
// to a main that draws from no ambient stream.
std::string NoMainError(std::string_view file);
// `alea build`'s: FILE cannot be written, for a reason (strerror's).
std::string CannotWriteError(std::string_view file, std::string_view why);
std::string SeedUnusedWarning(int64_t seed);

}  // namespace alea::tooling

#endif  // ALEA_TOOLING_H_
