// Tuples and arrays across the embedding boundary: arguments, results (a
// step that returns its output and the next RandState, the way Alea code
// threads a state), host functions and `extern let`s; a tensor's dtype,
// an element's type and use-once are checked inside them as at the top.
#include <algorithm>
#include <string>
#include <vector>

#include "alea/compiler.h"
#include "alea/vm.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/embed/embed_testing.h"

namespace alea {
namespace {

using ::testing::HasSubstr;

constexpr char kSource[] = R"(fn swap(p: (Int, Str)) -> (Str, Int) {
  let (a, b) = p;
  (b, a)
}
fn nested(p: ((Int, Float), Bool)) -> Float {
  let ((i, x), flag) = p;
  if flag { float(i) + x } else { x }
}
fn step(s: RandState) -> (Tensor, RandState) {
  let (now, later) = split(s);
  (uniform(now, [3]), later)
}
fn third(s: RandState) -> Tensor {
  let (_, s1) = step(s);
  let (_, s2) = step(s1);
  let (x, _) = step(s2);
  x
}
fn sum_all(xs: [Tensor]) -> Float = fold(xs, 0.0, |acc, x| acc + item(sum(x)))
fn draws(s: RandState, n: Int) -> [Tensor] = map(split_n(s, n), |k| uniform(k, [2]))
fn lengths(words: [Str]) -> [(Str, Int)] = map(words, |w| (w, len(w)))
fn ints(p: (Tensor(i32), Int)) -> Int {
  let (_, n) = p;
  n
}
)";

class EmbedContainers : public ::testing::Test {
 protected:
  void SetUp() override {
    alea::StatusOr<Module> m = Compile(kSource, "tuples.alea");
    ASSERT_TRUE(m.ok()) << m.status();
    ASSERT_TRUE(vm_.Load(*m).ok());
  }
  Function Get(std::string_view name, const Signature& sig) {
    return embed_testing::FindOk(vm_, name, sig);
  }
  Vm vm_;
};

TEST_F(EmbedContainers, InAndOut) {
  Function swap =
      Get("swap", {{Type::Tuple({Type::kInt, Type::kStr})}, Type::Tuple({Type::kStr, Type::kInt})});
  alea::StatusOr<Value> r = vm_.Call(swap, {Value::Tuple({Value::Int(7), Value::Str("seven")})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->type(), Type::Tuple({Type::kStr, Type::kInt}));
  ASSERT_EQ(r->AsTuple().size(), 2u);
  EXPECT_EQ(r->AsTuple()[0].AsStr(), "seven");
  EXPECT_EQ(r->AsTuple()[1].AsInt(), 7);

  Type inner = Type::Tuple({Type::kInt, Type::kFloat});
  Function nested = Get("nested", {{Type::Tuple({inner, Type::kBool})}, Type::kFloat});
  r = vm_.Call(
      nested,
      {Value::Tuple({Value::Tuple({Value::Int(2), Value::Float(0.5)}), Value::Bool(true)})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 2.5);
  EXPECT_EQ(TypeName(nested.signature().params[0]), "((Int, Float), Bool)");
}

TEST_F(EmbedContainers, AStateThreadedThroughTheHostDrawsWhatAleaDraws) {
  Function step = Get("step", {{Type::kRandState}, Type::Tuple({Type::kTensor, Type::kRandState})});
  Value state = RandState::FromSeed(42);
  std::vector<float> last;
  for (int i = 0; i < 3; ++i) {
    alea::StatusOr<Value> r = vm_.Call(step, {state});
    ASSERT_TRUE(r.ok()) << r.status();
    std::span<const float> x = r->AsTuple()[0].AsTensor().floats();
    last.assign(x.begin(), x.end());
    state = r->AsTuple()[1];
    EXPECT_FALSE(state.AsRandState().consumed());
  }
  alea::StatusOr<Value> want =
      vm_.Call(Get("third", {{Type::kRandState}, Type::kTensor}), {RandState::FromSeed(42)});
  ASSERT_TRUE(want.ok()) << want.status();
  std::span<const float> expected = want->AsTensor().floats();
  EXPECT_EQ(last, std::vector<float>(expected.begin(), expected.end()));
}

TEST_F(EmbedContainers, ElementsAreCheckedAsArgumentsAre) {
  Function swap =
      Get("swap", {{Type::Tuple({Type::kInt, Type::kStr})}, Type::Tuple({Type::kStr, Type::kInt})});
  alea::StatusOr<Value> r =
      vm_.Call(swap, {Value::Tuple({Value::Int(1), Value::Str("a"), Value::Int(2)})});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "argument 1 is (Int, Str, Int), (Int, Str) was expected (calling `swap`)");

  Function ints = Get("ints", {{Type::Tuple({Type::kTensor, Type::kInt})}, Type::kInt});
  r = vm_.Call(ints, {Value::Tuple({Tensor::Copy({1}, {1}), Value::Int(3)})});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("element 1 of argument 1 is Tensor(f32), Tensor(i32) was expected"));

  // A state inside a tuple is consumed like one passed alone.
  Function step = Get("step", {{Type::kRandState}, Type::Tuple({Type::kTensor, Type::kRandState})});
  Value used = RandState::FromSeed(1);
  ASSERT_TRUE(vm_.Call(step, {used}).ok());
  Function third = Get("third", {{Type::kRandState}, Type::kTensor});
  r = vm_.Call(third, {used});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kAborted);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("RandState is used twice"));
  // The VM stays usable after each refusal.
  EXPECT_TRUE(vm_.Call(step, {RandState::FromSeed(2)}).ok());
}

TEST_F(EmbedContainers, Arrays) {
  Function sum_all = Get("sum_all", {{Type::Array(Type::kTensor)}, Type::kFloat});
  alea::StatusOr<Value> r = vm_.Call(
      sum_all, {Value::Array(Type::kTensor, {Tensor::Copy({1, 2}, {2}), Tensor::Copy({3}, {1})})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 6.0);
  r = vm_.Call(sum_all, {Value::Array(Type::kTensor, {})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 0.0);

  Function draws = Get("draws", {{Type::kRandState, Type::kInt}, Type::Array(Type::kTensor)});
  r = vm_.Call(draws, {RandState::FromSeed(3), Value::Int(4)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->type(), Type::Array(Type::kTensor));
  ASSERT_EQ(r->AsArray().size(), 4u);
  EXPECT_NE(r->AsArray()[0].AsTensor().floats()[0], r->AsArray()[1].AsTensor().floats()[0]);

  Type pair = Type::Tuple({Type::kStr, Type::kInt});
  Function lengths = Get("lengths", {{Type::Array(Type::kStr)}, Type::Array(pair)});
  EXPECT_EQ(SignatureString(lengths.signature()), "([Str]) -> [(Str, Int)]");
  r = vm_.Call(lengths, {Value::Array(Type::kStr, {Value::Str("ab"), Value::Str("xyz")})});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->AsArray().size(), 2u);
  EXPECT_EQ(r->AsArray()[1].AsTuple()[0].AsStr(), "xyz");
  EXPECT_EQ(r->AsArray()[1].AsTuple()[1].AsInt(), 3);

  // Every element must have the array's type.
  r = vm_.Call(lengths, {Value::Array(Type::kStr, {Value::Str("ab"), Value::Int(1)})});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "element 2 of argument 1 is Int, Str was expected (calling `lengths`)");
  r = vm_.Call(lengths, {Value::Array(Type::kInt, {})});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "argument 1 is [Int], [Str] was expected (calling `lengths`)");
}

TEST(EmbedContainerHosts, HostFunctionsAndValues) {
  Vm vm;
  vm.RegisterFunction("minmax", {{Type::kTensor}, Type::Tuple({Type::kFloat, Type::kFloat})},
                      [](HostCall& call) -> alea::StatusOr<Value> {
                        std::span<const float> x = call.args()[0].AsTensor().floats();
                        float lo = x[0], hi = x[0];
                        for (float v : x) {
                          lo = std::min(lo, v);
                          hi = std::max(hi, v);
                        }
                        return Value::Tuple({Value::Float(lo), Value::Float(hi)});
                      });
  vm.RegisterFunction("label", {{Type::Tuple({Type::kStr, Type::kInt})}, Type::kStr},
                      [](HostCall& call) -> alea::StatusOr<Value> {
                        const std::vector<Value>& p = call.args()[0].AsTuple();
                        return Value::Str(p[0].AsStr() + "#" + std::to_string(p[1].AsInt()));
                      });
  vm.RegisterFunction("range", {{Type::kInt}, Type::Array(Type::kInt)},
                      [](HostCall& call) -> alea::StatusOr<Value> {
                        std::vector<Value> out;
                        for (int64_t i = 0; i < call.args()[0].AsInt(); ++i) {
                          out.push_back(Value::Int(i));
                        }
                        return Value::Array(Type::kInt, std::move(out));
                      });
  vm.RegisterValue("names", Value::Array(Type::kStr, {Value::Str("a"), Value::Str("bc")}));
  vm.RegisterValue("config", Value::Tuple({Value::Str("run"), Tensor::Copy({2, 4}, {2})}));
  alea::StatusOr<Module> m = Compile(R"(
extern fn minmax(x: Tensor) -> (Float, Float)
extern fn label(p: (Str, Int)) -> Str
extern let config: (Str, Tensor)
extern fn range(n: Int) -> [Int]
extern let names: [Str]
fn total() -> Int = fold(range(4), 0, |a, b| a + b) + len(names[1])
fn spread() -> Float {
  let (name, x) = config;
  let (lo, hi) = minmax(x * 10.0);
  hi - lo
}
fn tag() -> Str = label(("run", 3))
)",
                                     "hosts.alea");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(vm.Load(*m).ok());
  alea::StatusOr<Function> spread = vm.Find("spread", {{}, Type::kFloat});
  ASSERT_TRUE(spread.ok()) << spread.status();
  alea::StatusOr<Value> r = vm.Call(*spread, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 20.0);
  alea::StatusOr<Function> tag = vm.Find("tag", {{}, Type::kStr});
  ASSERT_TRUE(tag.ok()) << tag.status();
  r = vm.Call(*tag, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsStr(), "run#3");
  alea::StatusOr<Function> total = vm.Find("total", {{}, Type::kInt});
  ASSERT_TRUE(total.ok()) << total.status();
  r = vm.Call(*total, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 6 + 2);

  // A result of another shape is the located run-time error.
  vm.RegisterFunction("minmax", {{Type::kTensor}, Type::Tuple({Type::kFloat, Type::kFloat})},
                      [](HostCall&) -> alea::StatusOr<Value> {
                        return Value::Tuple({Value::Float(1), Value::Int(2)});
                      });
  ASSERT_TRUE(vm.Load(*m).ok());
  spread = vm.Find("spread", {{}, Type::kFloat});
  r = vm.Call(*spread, {});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kAborted);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("(Float, Int)"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("(Float, Float)"));
}

}  // namespace
}  // namespace alea
