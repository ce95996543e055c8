// Host functions and values that Alea code declares with `extern fn` and
// `extern let` (include/alea/vm.h RegisterFunction, RegisterValue).
#include <string>
#include <vector>

#include "alea/compiler.h"
#include "alea/vm.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace alea {
namespace {

using ::testing::HasSubstr;

// Compiles `source` and loads it into `vm`.
alea::Status CompileAndLoad(Vm& vm, const std::string& source) {
  alea::StatusOr<Module> m = Compile(source, "host.alea");
  if (!m.ok()) return m.status();
  return vm.Load(*m);
}

// Calls the `() -> result` function `name`.
alea::StatusOr<Value> CallNoArgs(Vm& vm, std::string_view name, Type result) {
  alea::StatusOr<Function> f = vm.Find(name, {{}, result});
  if (!f.ok()) return f.status();
  return vm.Call(*f, {});
}

void RegisterTwice(Vm& vm) {
  vm.RegisterFunction("twice", {{Type::kInt}, Type::kInt},
                      [](HostCall& call) -> alea::StatusOr<Value> {
                        return Value::Int(2 * call.args()[0].AsInt());
                      });
}

TEST(HostFunctions, CalledWithTheirArguments) {
  Vm vm;
  RegisterTwice(vm);
  vm.RegisterFunction("label", {{Type::kStr, Type::kFloat}, Type::kStr}, [](HostCall& call) {
    return alea::StatusOr<Value>(
        Value::Str(call.args()[0].AsStr() + "=" + std::to_string(call.args()[1].AsFloat())));
  });
  ASSERT_TRUE(CompileAndLoad(vm, R"(
extern fn twice(x: Int) -> Int
extern fn label(name: Str, x: Float) -> Str
fn go() -> Int = twice(20) + twice(1)
fn name() -> Str = label("x", 0.5)
)")
                  .ok());
  alea::StatusOr<Value> r = CallNoArgs(vm, "go", Type::kInt);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 42);
  r = CallNoArgs(vm, "name", Type::kStr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsStr(), "x=0.500000");
}

TEST(HostFunctions, TensorsInAndOut) {
  Vm vm;
  vm.RegisterFunction("reverse", {{Type::kTensor}, Type::kTensor}, [](HostCall& call) {
    std::span<const float> in = call.args()[0].AsTensor().floats();
    std::vector<float> out(in.rbegin(), in.rend());
    return alea::StatusOr<Value>(Tensor::Copy(std::move(out), {static_cast<int64_t>(in.size())}));
  });
  ASSERT_TRUE(CompileAndLoad(vm, R"(
extern fn reverse(x: Tensor) -> Tensor
fn go() -> Tensor = reverse(arange(4, f32)) * 2.0
)")
                  .ok());
  alea::StatusOr<Value> r = CallNoArgs(vm, "go", Type::kTensor);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->AsTensor().floats(), ::testing::ElementsAre(6.0f, 4.0f, 2.0f, 0.0f));
}

// A primitive that keeps a buffer per call site: each place in the source
// that calls it counts its own calls, across Calls of the Vm, until a Load.
TEST(HostFunctions, StatePerCallSite) {
  Vm vm;
  std::vector<uint32_t> sites;
  vm.RegisterFunction("tick", {{}, Type::kInt}, [&](HostCall& call) {
    int64_t& count = call.State<int64_t>();
    ++count;
    sites.push_back(call.site());
    return alea::StatusOr<Value>(Value::Int(count));
  });
  const std::string source = R"(
extern fn tick() -> Int
fn a() -> Int = tick()
fn b() -> Int = tick() * 100 + tick()
fn c() -> Int = fold(range(3), 0, |acc, _| acc + tick())
)";
  ASSERT_TRUE(CompileAndLoad(vm, source).ok());
  EXPECT_EQ(CallNoArgs(vm, "a", Type::kInt)->AsInt(), 1);
  EXPECT_EQ(CallNoArgs(vm, "a", Type::kInt)->AsInt(), 2);
  EXPECT_EQ(CallNoArgs(vm, "b", Type::kInt)->AsInt(), 101);  // two sites, one call each
  EXPECT_EQ(CallNoArgs(vm, "b", Type::kInt)->AsInt(), 202);
  EXPECT_EQ(CallNoArgs(vm, "a", Type::kInt)->AsInt(), 3);
  EXPECT_EQ(CallNoArgs(vm, "c", Type::kInt)->AsInt(), 1 + 2 + 3);  // one site in the lambda
  ASSERT_EQ(sites.size(), 10u);
  EXPECT_EQ(sites[0], sites[1]);
  EXPECT_NE(sites[2], sites[3]);
  EXPECT_NE(sites[0], sites[2]);
  // A new Load starts every site afresh.
  ASSERT_TRUE(CompileAndLoad(vm, source).ok());
  EXPECT_EQ(CallNoArgs(vm, "a", Type::kInt)->AsInt(), 1);
}

TEST(HostFunctions, UsedAsAValue) {
  Vm vm;
  RegisterTwice(vm);
  ASSERT_TRUE(CompileAndLoad(vm, R"(
extern fn twice(x: Int) -> Int
fn go() -> Int = fold(map([1, 2, 3], twice), 0, |a, b| a + b)
)")
                  .ok());
  alea::StatusOr<Value> r = CallNoArgs(vm, "go", Type::kInt);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 12);
}

TEST(HostFunctions, ErrorsBecomeAleaDiagnostics) {
  Vm vm;
  vm.RegisterFunction("check", {{Type::kInt}, Type::kInt},
                      [](HostCall& call) -> alea::StatusOr<Value> {
                        if (call.args()[0].AsInt() < 0)
                          return alea::Status(alea::StatusCode::kOutOfRange, "negative input");
                        return call.args()[0];
                      });
  vm.RegisterFunction("wrong", {{}, Type::kInt},
                      [](HostCall&) { return alea::StatusOr<Value>(Value::Str("not an Int")); });
  ASSERT_TRUE(CompileAndLoad(vm, R"(
extern fn check(x: Int) -> Int
extern fn wrong() -> Int
fn go(x: Int) -> Int = 1 + check(x)
fn bad() -> Int = wrong()
)")
                  .ok());
  alea::StatusOr<Function> go = vm.Find("go", {{Type::kInt}, Type::kInt});
  ASSERT_TRUE(go.ok());
  alea::StatusOr<Value> r = vm.Call(*go, {Value::Int(-1)});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kAborted);
  EXPECT_THAT(r.status().message(),
              HasSubstr("host.alea:4:28: error: host function `check` failed: negative input"));
  r = CallNoArgs(vm, "bad", Type::kInt);
  EXPECT_EQ(r.status().code(), alea::StatusCode::kAborted);
  EXPECT_THAT(r.status().message(), HasSubstr("host function `wrong` returned a Str, not the "
                                              "declared Int"));
  // The Vm is still usable.
  r = vm.Call(*go, {Value::Int(2)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 3);
}

TEST(HostFunctions, LoadChecksTheDeclarations) {
  const std::string source = "extern fn twice(x: Int) -> Int\nfn go() -> Int = twice(2)\n";
  Vm missing;
  alea::Status s = CompileAndLoad(missing, source);
  EXPECT_EQ(s.code(), alea::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr("declares `extern fn twice` and the host provides no such"));

  Vm other_type;
  other_type.RegisterFunction("twice", {{Type::kFloat}, Type::kInt},
                              [](HostCall&) { return alea::StatusOr<Value>(Value::Int(0)); });
  s = CompileAndLoad(other_type, source);
  EXPECT_EQ(s.code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("`extern fn twice` is declared (Int) -> Int, the host "
                                     "registered (Float) -> Int"));
  // Registering again replaces the function, arity included.
  RegisterTwice(other_type);
  EXPECT_TRUE(CompileAndLoad(other_type, source).ok());
  EXPECT_EQ(CallNoArgs(other_type, "go", Type::kInt)->AsInt(), 4);

  Vm function;
  RegisterTwice(function);
  s = CompileAndLoad(function,
                     "extern fn twice(f: (Int) -> Int) -> Int\nfn go() -> Int = twice(|x| x)\n");
  EXPECT_EQ(s.code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("cannot cross to the host"));
}

TEST(HostValues, ExternLetsTakeTheRegisteredValues) {
  Vm vm;
  vm.RegisterValue("scale", Value::Float(2.5));
  vm.RegisterValue("weights", Tensor::Copy({1, 2, 3}, {3}));
  vm.RegisterValue("seed_state", RandState::FromSeed(0));
  ASSERT_TRUE(CompileAndLoad(vm, R"(
extern let scale: Float
extern let weights: Tensor
extern let seed_state: RandState
let scaled = weights * scale
fn go() -> Float = item(sum(scaled))
fn draw() -> Tensor = uniform(seed_state, [2])
)")
                  .ok());
  alea::StatusOr<Value> r = CallNoArgs(vm, "go", Type::kFloat);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 15.0);
  // The same numbers as jax.random.uniform(key(0), (2,)).
  Vm reference;
  ASSERT_TRUE(CompileAndLoad(reference, "fn draw() -> Tensor = uniform(key(0), [2])\n").ok());
  alea::StatusOr<Value> want = CallNoArgs(reference, "draw", Type::kTensor);
  r = CallNoArgs(vm, "draw", Type::kTensor);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->AsTensor().floats(), ::testing::ElementsAreArray(want->AsTensor().floats()));
  // The state is consumed: a second draw from it is the VM's use-twice error.
  r = CallNoArgs(vm, "draw", Type::kTensor);
  EXPECT_EQ(r.status().code(), alea::StatusCode::kAborted);
  EXPECT_THAT(r.status().message(), HasSubstr("RandState is used twice"));
}

TEST(HostValues, LoadChecksThem) {
  Vm vm;
  alea::Status s = CompileAndLoad(vm, "extern let n: Int\nfn go() -> Int = n\n");
  EXPECT_EQ(s.code(), alea::StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr("`extern let n` and the host registered no such value"));
  vm.RegisterValue("n", Value::Float(1.0));
  s = CompileAndLoad(vm, "extern let n: Int\nfn go() -> Int = n\n");
  EXPECT_EQ(s.code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("`extern let n` is Float, Int was expected"));
  vm.RegisterValue("n", Value::Int(7));
  ASSERT_TRUE(CompileAndLoad(vm, "extern let n: Int\nfn go() -> Int = n * 6\n").ok());
  EXPECT_EQ(CallNoArgs(vm, "go", Type::kInt)->AsInt(), 42);
  vm.RegisterValue("t", Tensor::Copy({1}, {1}));
  s = CompileAndLoad(vm, "extern let t: Tensor(i32)\nfn go() -> Int = 1\n");
  EXPECT_EQ(s.code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("`extern let t` is Tensor(f32), Tensor(i32) was expected"));
}

TEST(Extern, DeclarationErrors) {
  struct Case {
    const char* source;
    const char* message;
  };
  const Case cases[] = {
      {"extern fn f(x) -> Int\n", "a parameter of `extern` `f` needs a type annotation"},
      {"extern fn f(x: Int) -> Int = x\n", "an `extern fn` has no body"},
      {"extern fn f(x: Int) -> Int { x }\n", "an `extern fn` has no body"},
      {"extern fn f(s: RandState) -> Int uses rng\n", "an `extern fn` cannot be `uses rng`"},
      {"extern let n: Int = 3\n", "an `extern let` has no value"},
      {"extern let n\n", "the value of `extern` `n` needs a type annotation"},
      {"extern let (a, b): (Int, Int)\n", "an `extern let` binds one name"},
      {"extern 3\n", "expected `fn` or `let` after `extern`, found `3`"},
      {"extern fn f(a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int)\n"
       "fn main() = f(1, 2, 3, 4, 5, 6, 7, 8, 9)\n",
       "`extern fn` `f` takes more than 8 parameters"},
      {"extern fn f(x: Int) -> Int\nfn main() = f(1.5)\n", "error: "},
  };
  for (const Case& c : cases) {
    alea::StatusOr<Module> m = Compile(c.source, "host.alea");
    EXPECT_EQ(m.status().code(), alea::StatusCode::kInvalidArgument) << c.source;
    EXPECT_THAT(m.status().message(), HasSubstr(c.message)) << c.source;
  }
}

}  // namespace
}  // namespace alea
