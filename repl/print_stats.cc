#include "repl/print_stats.h"

#include <cstdio>

namespace alea::repl {

void PrintStats(const vm::Stats& s) {
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
  std::fflush(stderr);
}

}  // namespace alea::repl
