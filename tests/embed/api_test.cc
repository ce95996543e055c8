// The embedding API's values, look-ups and error statuses (include/alea/).
#include <cstring>
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
using ::testing::StartsWith;

constexpr char kSource[] = R"(let offset = 0.5

fn add(a: Int, b: Int) -> Int = a + b
fn half(x: Float) -> Float = x / 2.0 + offset - offset
fn negate(b: Bool) -> Bool = !b
fn greet(name: Str) -> Str = "hello, " + name
fn say(x: Int) = print(x)
fn scale(x: Tensor, k: Float) -> Tensor = x * k
fn ident(x: Tensor) -> Tensor = x
fn bump(x: Tensor) -> Tensor = x + 1.0
fn total(x: Tensor) -> Float = item(sum(x))
fn draw(s: RandState) -> Tensor = normal(s, [4])
fn fork(s: RandState) -> RandState = fold_in(s, 7)
fn noisy(x: Tensor) -> Tensor uses rng = x + normal(shape(x)) * 0.0
fn ints(x: Tensor(i32)) -> Tensor(i32) = x
fn apply(f: (Int) -> Int, x: Int) -> Int = f(x)
fn div(a: Int, b: Int) -> Int = a / b
fn generic(x) = x
)";

// A Vm with kSource loaded.
class EmbedApi : public ::testing::Test {
 protected:
  void SetUp() override {
    alea::StatusOr<Module> m = Compile(kSource, "api.alea");
    ASSERT_TRUE(m.ok()) << m.status();
    module_ = *m;
    ASSERT_TRUE(vm_.Load(module_).ok());
  }
  Function Get(std::string_view name, const Signature& sig) {
    return embed_testing::FindOk(vm_, name, sig);
  }
  Module module_;
  Vm vm_;
};

TEST_F(EmbedApi, ScalarsAndStrings) {
  alea::StatusOr<Value> r =
      vm_.Call(Get("add", {{Type::kInt, Type::kInt}, Type::kInt}), {Value::Int(40), Value::Int(2)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->type(), Type::kInt);
  EXPECT_EQ(r->AsInt(), 42);

  r = vm_.Call(Get("half", {{Type::kFloat}, Type::kFloat}), {Value::Float(3.0)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 1.5);

  r = vm_.Call(Get("negate", {{Type::kBool}, Type::kBool}), {Value::Bool(false)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->AsBool());

  r = vm_.Call(Get("greet", {{Type::kStr}, Type::kStr}), {Value::Str("host")});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsStr(), "hello, host");
}

TEST_F(EmbedApi, PrintGoesToTheSink) {
  std::string out;
  vm_.SetOutput([&](std::string_view text) { out += text; });
  alea::StatusOr<Value> r = vm_.Call(Get("say", {{Type::kInt}, Type::kUnit}), {Value::Int(7)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->type(), Type::kUnit);
  EXPECT_EQ(out, "7\n");
}

TEST_F(EmbedApi, TensorViewsInAndCopiesOut) {
  const std::vector<float> host = {1, 2, 3, 4, 5, 6};
  const Tensor view = Tensor::View(host.data(), {2, 3});
  EXPECT_TRUE(view.is_view());
  alea::StatusOr<Value> r = vm_.Call(Get("scale", {{Type::kTensor, Type::kFloat}, Type::kTensor}),
                                     {view, Value::Float(2.0)});
  ASSERT_TRUE(r.ok()) << r.status();
  const Tensor& t = r->AsTensor();
  EXPECT_EQ(t.dtype(), DType::kF32);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(t.is_view());
  EXPECT_EQ(std::vector<float>(t.floats().begin(), t.floats().end()),
            (std::vector<float>{2, 4, 6, 8, 10, 12}));

  // The identity hands back the view's elements, copied out of host memory.
  r = vm_.Call(Get("ident", {{Type::kTensor}, Type::kTensor}), {view});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NE(r->AsTensor().data(), host.data());
  EXPECT_EQ(std::vector<float>(r->AsTensor().floats().begin(), r->AsTensor().floats().end()), host);

  // `x + 1.0` on its parameter's last use would run in place on an owned
  // tensor; a view must be left as it was.
  r = vm_.Call(Get("bump", {{Type::kTensor}, Type::kTensor}), {view});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(host, (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(r->AsTensor().floats()[5], 7.0f);

  // A result can go back in (as a view of the host-side copy).
  r = vm_.Call(Get("total", {{Type::kTensor}, Type::kFloat}), {r->AsTensor()});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 27.0);
}

TEST_F(EmbedApi, TensorViewIsNotCopiedIntoTheHeap) {
  std::vector<float> big(1 << 20, 1.0f);  // 4 MiB
  alea::StatusOr<Value> r = vm_.Call(Get("total", {{Type::kTensor}, Type::kFloat}),
                                     {Tensor::View(big.data(), {1 << 20})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 1 << 20);
  EXPECT_LT(vm_.stats().peak_heap_bytes, uint64_t{1} << 20);
}

TEST_F(EmbedApi, TensorDtypeIsChecked) {
  const float host[2] = {1, 2};
  alea::StatusOr<Value> r =
      vm_.Call(Get("ints", {{Type::kTensor}, Type::kTensor}), {Tensor::View(host, {2})});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("argument 1 is Tensor(f32), Tensor(i32) was expected"));
}

TEST_F(EmbedApi, TensorsOfEveryDType) {
  const Function ints = Get("ints", {{Type::kTensor}, Type::kTensor});
  const int32_t host[3] = {1, -2, 3};
  for (const Tensor& x : {Tensor::View(DType::kI32, host, sizeof host, {3}),
                          Tensor::Copy(DType::kI32, host, sizeof host, {3})}) {
    EXPECT_EQ(x.dtype(), DType::kI32);
    alea::StatusOr<Value> r = vm_.Call(ints, {x});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->AsTensor().dtype(), DType::kI32);
    EXPECT_EQ(r->AsTensor().shape(), std::vector<int64_t>{3});
    EXPECT_EQ(static_cast<const int32_t*>(r->AsTensor().data())[1], -2);
    EXPECT_TRUE(r->AsTensor().floats().empty());  // not f32
  }
  // A bool tensor's bytes are 0 or 1; a shape must match the bytes given.
  const unsigned char flags[2] = {1, 2};
  alea::StatusOr<Value> r = vm_.Call(ints, {Tensor::Copy(DType::kBool, flags, 2, {2})});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("element 1 of a bool tensor is 2, not 0 or 1"));
  r = vm_.Call(ints, {Tensor::View(DType::kI32, host, sizeof host, {2})});
  EXPECT_THAT(r.status().message(),
              HasSubstr("a tensor of shape (2,) and dtype i32 holds 8 bytes, not 12"));
}

TEST_F(EmbedApi, TensorShapeIsChecked) {
  const Function total = Get("total", {{Type::kTensor}, Type::kFloat});
  alea::StatusOr<Value> r = vm_.Call(total, {Tensor::Copy({1, 2, 3, 4}, {2, 3})});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_THAT(
      std::string(r.status().message()),
      HasSubstr("argument 1: a tensor of shape (2, 3) and dtype f32 holds 24 bytes, not 16"));
  r = vm_.Call(total, {Tensor::Copy({}, {-1, 0})});
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("argument 1: shape (-1, 0) is no tensor's"));
  // Past 2^63 elements: refused, not an overflow (UBSan would report one).
  r = vm_.Call(total, {Tensor::Copy({}, {1 << 30, 1 << 30, 1 << 30, 0})});
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("is no tensor's (an axis below 0, or 2^48 bytes or more)"));
}

TEST_F(EmbedApi, RandStates) {
  Function draw = Get("draw", {{Type::kRandState}, Type::kTensor});
  RandState s = RandState::FromSeed(42);
  EXPECT_FALSE(s.consumed());
  alea::StatusOr<Value> a = vm_.Call(draw, {s});
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(s.consumed());
  EXPECT_EQ(a->AsTensor().size(), 4);
  // The same seed draws the same numbers, in a fresh state.
  alea::StatusOr<Value> b = vm_.Call(draw, {RandState::FromSeed(42)});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(std::memcmp(a->AsTensor().data(), b->AsTensor().data(), 16), 0);

  // Use-once holds across the boundary: a copy is the same state.
  RandState copy = s;
  alea::StatusOr<Value> again = vm_.Call(draw, {copy});
  EXPECT_EQ(again.status().code(), alea::StatusCode::kAborted);
  EXPECT_THAT(std::string(again.status().message()),
              StartsWith("alea: error: a RandState is used twice"));

  // A returned state is fresh and usable.
  alea::StatusOr<Value> forked =
      vm_.Call(Get("fork", {{Type::kRandState}, Type::kRandState}), {RandState::FromSeed(1)});
  ASSERT_TRUE(forked.ok()) << forked.status();
  EXPECT_FALSE(forked->AsRandState().consumed());
  EXPECT_TRUE(vm_.Call(draw, {forked->AsRandState()}).ok());

  // `uses rng`: the ambient stream is a last RandState parameter.
  const float host[3] = {1, 2, 3};
  alea::StatusOr<Value> n =
      vm_.Call(Get("noisy", {{Type::kTensor, Type::kRandState}, Type::kTensor}),
               {Tensor::View(host, {3}), RandState::FromSeed(3)});
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(n->AsTensor().floats()[2], 3.0f);
}

TEST_F(EmbedApi, FindChecksTheSignature) {
  alea::StatusOr<Function> f = vm_.Find("add", {{Type::kInt, Type::kFloat}, Type::kInt});
  EXPECT_EQ(f.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_EQ(f.status().message(),
            "function `add` has type (Int, Int) -> Int, not (Int, Float) -> Int");
  f = vm_.Find("add", {{Type::kInt, Type::kInt}, Type::kStr});
  EXPECT_EQ(f.status().code(), alea::StatusCode::kInvalidArgument);

  EXPECT_EQ(vm_.Find("nope", {{}, Type::kUnit}).status().code(), alea::StatusCode::kNotFound);
  // Generic functions have no one compiled instance to call.
  EXPECT_EQ(vm_.Find("generic", {{Type::kInt}, Type::kInt}).status().code(),
            alea::StatusCode::kNotFound);
  // Functions do not cross the boundary (yet); tuples and arrays do
  // (containers_test.cc).
  EXPECT_THAT(std::string(vm_.Find("apply", {{Type::kInt}, Type::kInt}).status().message()),
              HasSubstr("takes or returns a function, which cannot be passed to or from the host"));
}

TEST_F(EmbedApi, CallChecksTheArguments) {
  Function add = Get("add", {{Type::kInt, Type::kInt}, Type::kInt});
  EXPECT_EQ(vm_.Call(add, {Value::Int(1)}).status().code(), alea::StatusCode::kInvalidArgument);
  alea::StatusOr<Value> r = vm_.Call(add, {Value::Int(1), Value::Str("2")});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "argument 2 is Str, Int was expected (calling `add`)");
  // A Function of an earlier Load is refused, not run against another module.
  ASSERT_TRUE(vm_.Load(module_).ok());
  EXPECT_EQ(vm_.Call(add, {Value::Int(1), Value::Int(2)}).status().code(),
            alea::StatusCode::kFailedPrecondition);
}

TEST(EmbedCompile, ErrorCarriesTheDiagnostic) {
  alea::StatusOr<Module> m = Compile("fn f(value: Int) -> Int = valeu * 2\n", "bad.alea");
  EXPECT_EQ(m.status().code(), alea::StatusCode::kInvalidArgument);
  EXPECT_EQ(m.status().message(),
            "bad.alea:1:27: error: unknown name `valeu`\n"
            "    1 | fn f(value: Int) -> Int = valeu * 2\n"
            "      |                           ^~~~~\n"
            "help: did you mean `value`?\n");
}

TEST_F(EmbedApi, RuntimeErrorCarriesTheLocatedDiagnostic) {
  Function div = Get("div", {{Type::kInt, Type::kInt}, Type::kInt});
  alea::StatusOr<Value> r = vm_.Call(div, {Value::Int(1), Value::Int(0)});
  EXPECT_EQ(r.status().code(), alea::StatusCode::kAborted);
  EXPECT_EQ(r.status().message(),
            "api.alea:17:33: error: division by zero\n"
            "   17 | fn div(a: Int, b: Int) -> Int = a / b\n"
            "      |                                 ^~~~~\n");
  // The Vm is still usable.
  r = vm_.Call(div, {Value::Int(9), Value::Int(3)});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsInt(), 3);
}

TEST(EmbedModule, ListsItsFunctionsAndRefusesEmpty) {
  alea::StatusOr<Module> m = Compile("fn one() -> Int = 1\nfn id(x) = x\n");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->function_names(), std::vector<std::string>{"one"});
  Vm vm;
  EXPECT_EQ(vm.Load(Module()).code(), alea::StatusCode::kInvalidArgument);
  EXPECT_EQ(vm.Find("one", {{}, Type::kInt}).status().code(),
            alea::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace alea
