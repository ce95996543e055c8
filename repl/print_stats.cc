#include "repl/print_stats.h"

#include <cstdio>

namespace alea::repl {

void PrintStats(const tooling::RunStats& s) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "stats: %llu instructions, %llu calls, %llu allocations, peak heap %llu bytes, "
               "%llu JIT kernels compiled in %.3f ms, %.3f ms in JIT kernels\n",
               static_cast<unsigned long long>(s.instructions),
               static_cast<unsigned long long>(s.calls),
               static_cast<unsigned long long>(s.allocations),
               static_cast<unsigned long long>(s.peak_heap_bytes),
               static_cast<unsigned long long>(s.jit_kernels), s.jit_compile_nanos / 1e6,
               s.jit_kernel_nanos / 1e6);
  // Where the rest of the time went, and the copies a program may not see
  // in its source (docs/decisions.md "The JIT and fusion").
  const uint64_t outside = s.run_nanos > s.jit_kernel_nanos ? s.run_nanos - s.jit_kernel_nanos : 0;
  std::fprintf(stderr, "stats: %.3f ms running, %.3f ms outside JIT kernels, %llu bytes copied\n",
               s.run_nanos / 1e6, outside / 1e6, static_cast<unsigned long long>(s.bytes_copied));
  std::fflush(stderr);
}

}  // namespace alea::repl
