// `:stats` counts what the session ran, the time spent in JIT kernels
// included (it once always showed 0.000 ms there).
#include <cstdio>
#include <memory>

#include "alea/alea.h"
#include "alea/tooling.h"
#include "gtest/gtest.h"

namespace alea::tooling {
namespace {

TEST(SessionStats, CountsTimeInJitKernels) {
  alea_vm* vm = alea_vm_new(nullptr);  // the JIT on
  auto session = std::make_unique<Session>(vm, 0);
  testing::internal::CaptureStdout();
  // Large enough that a kernel call takes measurable time.
  session->Eval("let big = exp(ones([1000000]) * 0.5)");
  session->Eval("item(sum(tanh(big)))");
  std::fflush(stdout);
  std::string out = testing::internal::GetCapturedStdout();
  const RunStats stats = Stats(vm);
  session.reset();
  alea_vm_free(vm);
  if (stats.jit_kernels == 0) GTEST_SKIP() << "no JIT on this CPU";
  EXPECT_GT(stats.jit_kernel_nanos, 0u) << out;
  EXPECT_GT(stats.instructions, 0u);
}

}  // namespace
}  // namespace alea::tooling
