// A small C++ host embedding Alea through the installed package
// (find_package(alea), target alea::alea): compile a script, call one of its
// functions on a host buffer, give it a host function with per-call-site
// state and a host value, survive a runaway script and a compile error.
// Its output is deterministic (examples/embed/expected.out): the random draws
// depend only on the seed, never on threads or the JIT.
#include <cstdio>
#include <string>
#include <vector>

#include "alea/compiler.h"
#include "alea/vm.h"

namespace {

// The script a host might ship or load from its configuration. Every
// non-generic top-level function is callable by name; no `main` is needed.
constexpr char kScript[] =
    R"(// Flax-style dropout (keep with probability 0.5, kept values scaled by 2),
// then a host-chosen gain. It also returns the state for the next call, so
// the host threads one RandState through its calls as Alea code would.
fn noisy_scale(s: RandState, x: Tensor, k: Float) -> (Tensor, RandState) {
  let (now, later) = split(s);
  (dropout(now, x, 0.5) * k, later)
}

// A bug a user might write: n never changes, so it never returns.
fn spin(n: Int) -> Int = if n == 0 { 0 } else { spin(n) }

fn add(a: Int, b: Int) -> Int = a + b

// A host primitive and a host value: declared here, provided by the host.
// `smooth` keeps a running average per place it is called from.
extern fn smooth(x: Float) -> Float
extern let gain: Float

fn track_speed(x: Float) -> Float = smooth(x) * gain
fn track_load(x: Float) -> Float = smooth(x) * gain
)";

// The state `smooth` keeps at each call site: an exponential moving average.
struct Average {
  bool started = false;
  double value = 0;
};

void PrintTensor(const alea::Tensor& t) {
  std::printf("[");
  const char* sep = "";
  for (float f : t.floats()) {
    std::printf("%s%g", sep, f);
    sep = ", ";
  }
  std::printf("]\n");
}

}  // namespace

int main() {
  // 1. Source to module. Errors are alea::Status values, never exceptions.
  alea::StatusOr<alea::Module> module = alea::Compile(kScript, "script.alea");
  if (!module.ok()) {
    std::fprintf(stderr, "%s\n", std::string(module.status().message()).c_str());
    return 1;
  }

  // 2. A VM with an instruction budget per call, so a script cannot hang the
  //    host. Loading also runs the module's top-level `let`s, if any.
  alea::Vm vm({.max_instructions = 1'000'000});
  //    The script's `extern`s are registered before loading, which checks
  //    them against their declarations. HostCall::State gives each call site
  //    of `smooth` its own Average, kept between calls.
  vm.RegisterFunction("smooth", {{alea::Type::kFloat}, alea::Type::kFloat},
                      [](alea::HostCall& call) -> alea::StatusOr<alea::Value> {
                        Average& avg = call.State<Average>();
                        const double x = call.args()[0].AsFloat();
                        avg.value = avg.started ? 0.5 * avg.value + 0.5 * x : x;
                        avg.started = true;
                        return alea::Value::Float(avg.value);
                      });
  vm.RegisterValue("gain", alea::Value::Float(2.0));
  if (alea::Status s = vm.Load(*module); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }

  // 3. Look a function up with the signature the host expects: a script whose
  //    types changed is refused here, not mid-call.
  const alea::Type tensor_and_state =
      alea::Type::Tuple({alea::Type::kTensor, alea::Type::kRandState});
  alea::StatusOr<alea::Function> noisy_scale = vm.Find(
      "noisy_scale",
      {{alea::Type::kRandState, alea::Type::kTensor, alea::Type::kFloat}, tensor_and_state});
  if (!noisy_scale.ok()) {
    std::fprintf(stderr, "%s\n", std::string(noisy_scale.status().message()).c_str());
    return 1;
  }

  // 4. Call it on the host's own buffer: Tensor::View reads it in place
  //    (zero-copy) and never writes it. The result is a tuple of a tensor the
  //    host owns and the next state. RandState::FromSeed(42) is the
  //    language's key(42): the same seed gives the same masks on every
  //    machine. Passing a state consumes it; passing it again would be the
  //    VM's "a RandState is used twice".
  std::vector<float> buffer = {1, 2, 3, 4, 5, 6, 7, 8};
  alea::Value state = alea::RandState::FromSeed(42);
  for (int step = 1; step <= 2; ++step) {
    alea::StatusOr<alea::Value> result = vm.Call(
        *noisy_scale, {state, alea::Tensor::View(buffer.data(), {8}), alea::Value::Float(10.0)});
    if (!result.ok()) {
      std::fprintf(stderr, "%s\n", std::string(result.status().message()).c_str());
      return 1;
    }
    std::printf("noisy_scale, step %d = ", step);
    PrintTensor(result->AsTuple()[0].AsTensor());
    state = result->AsTuple()[1];
  }
  std::printf("host buffer unchanged: %s\n", buffer[7] == 8 ? "yes" : "no");

  // 5. Script functions that call the host: each call site of `smooth` keeps
  //    its own average, so the two trackers do not mix.
  alea::StatusOr<alea::Function> speed =
      vm.Find("track_speed", {{alea::Type::kFloat}, alea::Type::kFloat});
  alea::StatusOr<alea::Function> load =
      vm.Find("track_load", {{alea::Type::kFloat}, alea::Type::kFloat});
  if (!speed.ok() || !load.ok()) {
    const alea::Status& s = speed.ok() ? load.status() : speed.status();
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::printf("\n");
  for (double x : {10.0, 20.0, 40.0}) {
    alea::StatusOr<alea::Value> v = vm.Call(*speed, {alea::Value::Float(x)});
    alea::StatusOr<alea::Value> w = vm.Call(*load, {alea::Value::Float(100.0 - x)});
    std::printf("track_speed(%g) = %g   track_load(%g) = %g\n", x, v.ok() ? v->AsFloat() : -1.0,
                100.0 - x, w.ok() ? w->AsFloat() : -1.0);
  }

  // 6. A runaway call is stopped by the budget with kResourceExhausted; its
  //    message is the diagnostic `alea run` would print, source line included.
  alea::StatusOr<alea::Function> spin = vm.Find("spin", {{alea::Type::kInt}, alea::Type::kInt});
  alea::StatusOr<alea::Function> add =
      vm.Find("add", {{alea::Type::kInt, alea::Type::kInt}, alea::Type::kInt});
  if (!spin.ok() || !add.ok()) {
    const alea::Status& s = spin.ok() ? add.status() : spin.status();
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  alea::StatusOr<alea::Value> runaway = vm.Call(*spin, {alea::Value::Int(1)});
  std::printf("\nspin(1): %s\n%s\n", alea::StatusCodeName(runaway.status().code()),
              std::string(runaway.status().message()).c_str());

  //    The same VM takes the next call: a failed call leaves nothing behind.
  alea::StatusOr<alea::Value> sum = vm.Call(*add, {alea::Value::Int(2), alea::Value::Int(3)});
  std::printf("after it, add(2, 3) = %lld\n", static_cast<long long>(sum.ok() ? sum->AsInt() : -1));

  // 7. A script with a type error: Compile returns kInvalidArgument with the
  //    diagnostics in GCC's file:line:col layout, ready to show to its author.
  alea::StatusOr<alea::Module> bad =
      alea::Compile("fn half(x: Int) -> Int = x / 2.0\n", "bad.alea");
  std::printf("\ncompiling bad.alea: %s\n%s\n", alea::StatusCodeName(bad.status().code()),
              std::string(bad.status().message()).c_str());
  return 0;
}
