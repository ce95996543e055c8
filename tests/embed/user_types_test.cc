// Records and variants across the embedding boundary: Type::Named in
// signatures, Value::Record / Value::Make as arguments, results read back
// field by field, a recursive type round trip, host functions and `extern
// let`s of them, and the errors for a value that does not fit its type.
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

constexpr char kSource[] = R"(type Params = { mu: Float, sigma: Float }
type Shape = Circle(Float) | Rect(Float, Float) | Dot
type Tree = Leaf | Node(Tree, Int, Tree)
type Scaled = { x: Tensor, k: Int }
type Holder = { f: (Int) -> Int }
fn widen(p: Params) -> Params = Params { sigma: p.sigma * 2.0, ..p }
fn area(s: Shape) -> Float = match s { Circle(r) => 3.0 * r * r, Rect(w, h) => w * h, Dot => 0.0 }
fn shapes(n: Int) -> [Shape] = map(range(n), |i| if i % 2 == 0 { Dot } else { Circle(float(i)) })
fn tree_sum(t: Tree) -> Int = match t { Leaf => 0, Node(l, v, r) => tree_sum(l) + v + tree_sum(r) }
fn build(n: Int) -> Tree = if n == 0 { Leaf } else { Node(build(n - 1), n, Leaf) }
fn chain(n: Int, acc: Tree) -> Tree = if n == 0 { acc } else { chain(n - 1, Node(acc, n, Leaf)) }
fn half(o: Option(Int)) -> Result(Int, Str) = match o {
  Some(x) if x % 2 == 0 => Ok(x / 2),
  Some(_) => Err("odd"),
  None => Err("none"),
}
fn total(s: Scaled) -> Float = item(sum(s.x)) * float(s.k)
fn apply(h: Holder) -> Int = (h.f)(1)
)";

class EmbedUserTypes : public ::testing::Test {
 protected:
  void SetUp() override {
    alea::StatusOr<Module> m = Compile(kSource, "types.alea");
    ASSERT_TRUE(m.ok()) << m.status();
    ASSERT_TRUE(vm_.Load(*m).ok());
    // The module's string constants live as long as it is loaded.
    baseline_ = vm_.stats().heap_bytes_live;
  }
  Function Get(std::string_view name, const Signature& sig) {
    return embed_testing::FindOk(vm_, name, sig);
  }
  Vm vm_;
  uint64_t baseline_ = 0;
};

TEST_F(EmbedUserTypes, RecordsBothWays) {
  const Type params = Type::Named("Params");
  Function widen = Get("widen", {{params}, params});
  EXPECT_EQ(SignatureString(widen.signature()), "(Params) -> Params");
  // Fields by name, in any order.
  alea::StatusOr<Value> r = vm_.Call(
      widen, {Value::Record(params, {{"sigma", Value::Float(1.5)}, {"mu", Value::Float(-1.0)}})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->type(), params);
  EXPECT_EQ(r->constructor(), "Params");
  EXPECT_THAT(r->field_names(), ::testing::ElementsAre("mu", "sigma"));
  EXPECT_EQ(r->field("mu").AsFloat(), -1.0);
  EXPECT_EQ(r->field("sigma").AsFloat(), 3.0);
  EXPECT_EQ(r->field("nope").type(), Type(Type::kUnit));
}

TEST_F(EmbedUserTypes, VariantsBothWays) {
  const Type shape = Type::Named("Shape");
  Function area = Get("area", {{shape}, Type::kFloat});
  alea::StatusOr<Value> r =
      vm_.Call(area, {Value::Make(shape, "Rect", {Value::Float(2.0), Value::Float(3.0)})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 6.0);
  r = vm_.Call(area, {Value::Make(shape, "Dot", {})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 0.0);

  Function shapes = Get("shapes", {{Type::kInt}, Type::Array(shape)});
  r = vm_.Call(shapes, {Value::Int(3)});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->AsArray().size(), 3u);
  EXPECT_EQ(r->AsArray()[0].constructor(), "Dot");
  EXPECT_TRUE(r->AsArray()[0].fields().empty());
  EXPECT_EQ(r->AsArray()[1].constructor(), "Circle");
  EXPECT_EQ(r->AsArray()[1].fields()[0].AsFloat(), 1.0);
}

TEST_F(EmbedUserTypes, GenericPreludeTypes) {
  Function half = Get("half", {{Type::Named("Option(Int)")}, Type::Named("Result(Int, Str)")});
  alea::StatusOr<Value> r =
      vm_.Call(half, {Value::Make(Type::Named("Option(Int)"), "Some", {Value::Int(8)})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->constructor(), "Ok");
  EXPECT_EQ(r->fields()[0].AsInt(), 4);
  r = vm_.Call(half, {Value::Make(Type::Named("Option(Int)"), "None", {})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->constructor(), "Err");
  EXPECT_EQ(r->fields()[0].AsStr(), "none");
  // The signature names the instance: `Option(Float)` is another type.
  EXPECT_FALSE(
      vm_.Find("half", {{Type::Named("Option(Float)")}, Type::Named("Result(Int, Str)")}).ok());
}

TEST_F(EmbedUserTypes, RecursiveValuesRoundTrip) {
  const Type tree = Type::Named("Tree");
  Function build = Get("build", {{Type::kInt}, tree});
  Function sum = Get("tree_sum", {{tree}, Type::kInt});
  alea::StatusOr<Value> t = vm_.Call(build, {Value::Int(100)});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->constructor(), "Node");
  alea::StatusOr<Value> s = vm_.Call(sum, {*t});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->AsInt(), 5050);
}

TEST_F(EmbedUserTypes, TooDeepToCrossIsAnErrorNotACrash) {
  const Type tree = Type::Named("Tree");
  Function chain = Get("chain", {{Type::kInt, tree}, tree});
  alea::StatusOr<Value> r = vm_.Call(chain, {Value::Int(50'000), Value::Make(tree, "Leaf", {})});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("too deep to cross"));
  // The Vm is still usable, and its heap holds nothing of the calls.
  r = vm_.Call(chain, {Value::Int(3), Value::Make(tree, "Leaf", {})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(vm_.stats().heap_bytes_live, baseline_);
}

TEST_F(EmbedUserTypes, ValuesThatDoNotFitAreRefused) {
  const Type shape = Type::Named("Shape");
  const Type params = Type::Named("Params");
  Function area = Get("area", {{shape}, Type::kFloat});
  Function widen = Get("widen", {{params}, params});
  auto error = [&](const Function& f, Value v) {
    alea::StatusOr<Value> r = vm_.Call(f, {std::move(v)});
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(vm_.stats().heap_bytes_live, baseline_) << r.status();
    return std::string(r.status().message());
  };
  EXPECT_THAT(error(area, Value::Make(shape, "Square", {Value::Float(1.0)})),
              HasSubstr("argument 1 has constructor `Square`, which `Shape` does not have"));
  EXPECT_THAT(error(area, Value::Make(shape, "Circle", {})),
              HasSubstr("`Circle` takes 1 fields, not 0"));
  EXPECT_THAT(error(area, Value::Make(shape, "Circle", {Value::Int(1)})),
              HasSubstr("field 1 of `Circle` in argument 1 is Int, Float was expected"));
  EXPECT_THAT(error(widen, Value::Record(params, {{"mu", Value::Float(0.0)}})),
              HasSubstr("argument 1 has no field `sigma`"));
  EXPECT_THAT(error(widen, Value::Record(
                               params, {{"mu", Value::Float(0.0)}, {"sigma", Value::Str("wide")}})),
              HasSubstr("field `sigma` of argument 1 is Str, Float was expected"));
  EXPECT_THAT(error(widen, Value::Make(params, "Params", {Value::Float(0.0), Value::Float(1.0)})),
              HasSubstr("argument 1 is made as a variant, `Params` is a record"));
  // A value of another declared type is refused by name before anything else.
  EXPECT_THAT(error(area, Value::Make(Type::Named("Tree"), "Leaf", {})),
              HasSubstr("argument 1 is Tree, Shape was expected"));
  EXPECT_EQ(vm_.stats().heap_bytes_live, baseline_);
}

TEST_F(EmbedUserTypes, TensorFieldsHaveTheirDType) {
  const Type scaled = Type::Named("Scaled");
  Function total = Get("total", {{scaled}, Type::kFloat});
  std::vector<float> data = {1, 2, 3};
  alea::StatusOr<Value> r = vm_.Call(
      total,
      {Value::Record(scaled, {{"x", Tensor::View(data.data(), {3})}, {"k", Value::Int(2)}})});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsFloat(), 12.0);
}

TEST_F(EmbedUserTypes, AFunctionInsideCannotCross) {
  alea::StatusOr<Function> f = vm_.Find("apply", {{Type::Named("Holder")}, Type::kInt});
  ASSERT_FALSE(f.ok());
  EXPECT_THAT(f.status().message(), HasSubstr("takes or returns a function"));
}

TEST(EmbedUserTypesHost, HostFunctionsAndValuesOfDeclaredTypes) {
  constexpr char kHosted[] = R"(type Shape = Circle(Float) | Dot
extern fn grow(s: Shape) -> Shape
extern let start: Shape
fn main_value() -> Str = str(grow(grow(start)))
)";
  alea::StatusOr<Module> m = Compile(kHosted, "hosted.alea");
  ASSERT_TRUE(m.ok()) << m.status();
  Vm vm;
  const Type shape = Type::Named("Shape");
  vm.RegisterFunction("grow", {{shape}, shape}, [&](HostCall& call) -> alea::StatusOr<Value> {
    const Value& s = call.args()[0];
    if (s.constructor() == "Dot") return Value::Make(shape, "Circle", {Value::Float(1.0)});
    return Value::Make(shape, "Circle", {Value::Float(s.fields()[0].AsFloat() * 2.0)});
  });
  vm.RegisterValue("start", Value::Make(shape, "Dot", {}));
  ASSERT_TRUE(vm.Load(*m).ok());
  Function f = embed_testing::FindOk(vm, "main_value", {{}, Type::kStr});
  alea::StatusOr<Value> r = vm.Call(f, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->AsStr(), "Circle(2.0)");
}

}  // namespace
}  // namespace alea
