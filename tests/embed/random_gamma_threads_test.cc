// The gamma family's natives on the VM's thread pool: each tensor draw,
// large enough to be split into ranges (stdlib/random_gamma.cc), is the same
// bytes on a Vm with 2 threads as on one with 1 (and with the JIT off), and
// its tensor-parameter forms run through the same pool.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "alea/compiler.h"
#include "alea/vm.h"
#include "gtest/gtest.h"
#include "tests/embed/embed_testing.h"

namespace alea {
namespace {

constexpr char kSource[] = R"(fn gamma_draw(s: RandState) -> Tensor = gamma(s, 0.8, [20011])
fn gamma_like(s: RandState) -> Tensor = gamma(s, linspace(0.05, 9.0, 20011))
fn loggamma_draw(s: RandState) -> Tensor = loggamma(s, 0.05, [20011])
fn chisquare_draw(s: RandState) -> Tensor = chisquare(s, 3.0, [20011])
fn f_draw(s: RandState) -> Tensor = f(s, 4.0, 9.0, [20011])
fn t_draw(s: RandState) -> Tensor = t(s, 2.5, [20011])
fn beta_draw(s: RandState) -> Tensor = beta(s, 2.0, 5.0, [20011])
fn beta_like(s: RandState) -> Tensor =
  beta(s, reshape(linspace(0.1, 4.0, 20000), [100, 200]), linspace(0.5, 3.0, 200))
fn dirichlet_draw(s: RandState) -> Tensor = dirichlet(s, tensor([0.3, 1.0, 2.0]), [50, 101])
fn dirichlet_like(s: RandState) -> Tensor =
  dirichlet(s, reshape(linspace(0.1, 3.0, 15000), [5000, 3]))
fn generalized_normal_draw(s: RandState) -> Tensor = generalized_normal(s, 1.3, [20011])
fn ball_draw(s: RandState) -> Tensor = ball(s, 3, 1.5, [7001])
fn ball_l2(s: RandState) -> Tensor = ball(s, 2, [7001])
)";

std::vector<uint8_t> Draw(Vm& vm, const std::string& name, int64_t seed) {
  Function f = embed_testing::FindOk(vm, name, {{Type::kRandState}, Type::kTensor});
  alea::StatusOr<Value> r = vm.Call(f, {RandState::FromSeed(seed)});
  EXPECT_TRUE(r.ok()) << name << ": " << r.status();
  if (!r.ok()) return {};
  const Tensor& t = r->AsTensor();
  const auto* bytes = static_cast<const uint8_t*>(t.data());
  return std::vector<uint8_t>(bytes, bytes + t.size() * 4);
}

TEST(RandomGammaThreads, TwoThreadsDrawTheBytesOfOne) {
  alea::StatusOr<Module> m = Compile(kSource, "gamma_threads.alea");
  ASSERT_TRUE(m.ok()) << m.status();
  Vm one({.threads = 1});
  Vm two({.threads = 2});
  Vm two_no_jit({.threads = 2, .jit = false});
  for (Vm* vm : {&one, &two, &two_no_jit}) ASSERT_TRUE(vm->Load(*m).ok());
  for (const std::string& name : m->function_names()) {
    for (int64_t seed : {0, 7}) {
      const std::vector<uint8_t> want = Draw(one, name, seed);
      ASSERT_GT(want.size(), 20000u) << name;
      EXPECT_EQ(Draw(two, name, seed), want) << name << " seed " << seed;
      EXPECT_EQ(Draw(two_no_jit, name, seed), want) << name << " seed " << seed;
    }
  }
}

}  // namespace
}  // namespace alea
