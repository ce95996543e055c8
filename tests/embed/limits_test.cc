// The embedding API's limits (heap, call depth, instruction budget,
// interruption) and several Vms on several threads at once.
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "alea/compiler.h"
#include "alea/vm.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/embed/embed_testing.h"

namespace alea {
namespace {

using ::testing::HasSubstr;

constexpr char kSource[] = R"(fn add(a: Int, b: Int) -> Int = a + b
fn spin(n: Int) -> Int = if n == 0 { 0 } else { spin(n) }
fn deep(n: Int) -> Int = if n == 0 { 0 } else { 1 + deep(n - 1) }
fn big(n: Int) -> Float = item(sum(ones([n])))
fn work(s: RandState, x: Tensor) -> Tensor {
  let (s1, s2) = split(s);
  let w = normal(s1, [64, 64]);
  tanh(x @ w + uniform(s2, [64])) * 0.5
}
)";

Module Compiled() {
  alea::StatusOr<Module> m = Compile(kSource, "limits.alea");
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Module();
}

// After a failed call the same Vm runs another one.
void ExpectUsable(Vm& vm) {
  alea::StatusOr<Value> r =
      vm.Call(embed_testing::FindOk(vm, "add", {{Type::kInt, Type::kInt}, Type::kInt}),
              {Value::Int(2), Value::Int(3)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 5);
}

TEST(EmbedLimits, InstructionBudgetStopsARunawayLoop) {
  Vm vm({.max_instructions = 1'000'000});
  ASSERT_TRUE(vm.Load(Compiled()).ok());
  Function spin = embed_testing::FindOk(vm, "spin", {{Type::kInt}, Type::kInt});
  alea::StatusOr<Value> r = vm.Call(spin, {Value::Int(1)});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("error: instruction budget exhausted: more than 1000000 instructions"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("limits.alea:2:"));
  ExpectUsable(vm);
  // The budget is per call: a second runaway is stopped the same way.
  EXPECT_EQ(vm.Call(spin, {Value::Int(1)}).status().code(), alea::StatusCode::kResourceExhausted);
  // And a bounded call within it runs.
  alea::StatusOr<Value> d =
      vm.Call(embed_testing::FindOk(vm, "deep", {{Type::kInt}, Type::kInt}), {Value::Int(1000)});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->AsInt(), 1000);
}

TEST(EmbedLimits, HeapBudget) {
  Vm vm({.max_heap_bytes = 1 << 20});
  ASSERT_TRUE(vm.Load(Compiled()).ok());
  Function big = embed_testing::FindOk(vm, "big", {{Type::kInt}, Type::kFloat});
  alea::StatusOr<Value> r = vm.Call(big, {Value::Int(1 << 22)});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("error: out of memory budget"));
  ExpectUsable(vm);
  r = vm.Call(big, {Value::Int(1000)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 1000.0);
}

TEST(EmbedLimits, CallDepth) {
  Vm vm({.max_call_depth = 1000});
  ASSERT_TRUE(vm.Load(Compiled()).ok());
  Function deep = embed_testing::FindOk(vm, "deep", {{Type::kInt}, Type::kInt});
  alea::StatusOr<Value> r = vm.Call(deep, {Value::Int(100'000)});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("error: stack overflow: more than 1000 nested calls"));
  ExpectUsable(vm);
  r = vm.Call(deep, {Value::Int(10)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 10);
}

TEST(EmbedLimits, InterruptFromAnotherThread) {
  Vm vm;
  ASSERT_TRUE(vm.Load(Compiled()).ok());
  Function spin = embed_testing::FindOk(vm, "spin", {{Type::kInt}, Type::kInt});
  std::thread timer([&vm] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    vm.Interrupt();
  });
  alea::StatusOr<Value> r = vm.Call(spin, {Value::Int(1)});
  timer.join();
  EXPECT_EQ(r.status().code(), alea::StatusCode::kCancelled);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("error: interrupted"));
  ExpectUsable(vm);
}

// The results of `work` for seeds 0..n-1 on one Vm, as raw bytes.
std::vector<std::vector<uint8_t>> RunWork(const Module& module, int first, int n) {
  Vm vm({.threads = 1});
  EXPECT_TRUE(vm.Load(module).ok());
  Function work =
      embed_testing::FindOk(vm, "work", {{Type::kRandState, Type::kTensor}, Type::kTensor});
  std::vector<float> x(8 * 64);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 17) * 0.125f - 1.0f;
  std::vector<std::vector<uint8_t>> out;
  for (int seed = first; seed < first + n; ++seed) {
    alea::StatusOr<Value> r =
        vm.Call(work, {RandState::FromSeed(seed), Tensor::View(x.data(), {8, 64})});
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) break;
    const Tensor& t = r->AsTensor();
    const auto* bytes = static_cast<const uint8_t*>(t.data());
    out.emplace_back(bytes, bytes + t.size() * 4);
  }
  return out;
}

TEST(EmbedThreads, FourVmsInParallelMatchOneThread) {
  const Module module = Compiled();  // shared by every Vm
  constexpr int kVms = 4;
  constexpr int kCalls = 20;
  std::vector<std::vector<std::vector<uint8_t>>> parallel(kVms);
  std::vector<std::thread> threads;
  for (int i = 0; i < kVms; ++i) {
    threads.emplace_back([&, i] { parallel[i] = RunWork(module, i * kCalls, kCalls); });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kVms; ++i) {
    EXPECT_EQ(parallel[i], RunWork(module, i * kCalls, kCalls)) << "vm " << i;
  }
}

}  // namespace
}  // namespace alea
