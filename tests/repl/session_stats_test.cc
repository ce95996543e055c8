// `:stats` counts what the session ran, the time spent in JIT kernels
// included (it once always showed 0.000 ms there).
#include <cstdio>

#include "gtest/gtest.h"
#include "repl/session.h"

namespace alea::repl {
namespace {

TEST(SessionStats, CountsTimeInJitKernels) {
  Session session(SessionOptions{.jit = true});
  testing::internal::CaptureStdout();
  // Large enough that a kernel call takes measurable time.
  session.Eval("let big = exp(ones([1000000]) * 0.5)");
  session.Eval("item(sum(tanh(big)))");
  std::fflush(stdout);
  std::string out = testing::internal::GetCapturedStdout();
  const vm::Stats stats = session.machine().stats();
  if (stats.jit_kernels == 0) GTEST_SKIP() << "no JIT on this CPU";
  EXPECT_GT(stats.jit_kernel_nanos, 0u) << out;
  EXPECT_GT(stats.instructions, 0u);
}

}  // namespace
}  // namespace alea::repl
