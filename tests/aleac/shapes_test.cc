// The verifier's shape order and joins (vm/verifier_shapes.h) on the shapes
// no compiled program makes but a hand-made module may: tuples and closures
// whose parts differ, and native signatures with tuple, Option and union
// parameters applied to what fits them and what does not.
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/aleac/builder.h"
#include "vm/native_signature.h"
#include "vm/verifier_shapes.h"

namespace alea::vm::aleac_testing {
namespace {

using verifier::NativeArgument;
using verifier::Shape;
using verifier::ShapeKind;
using verifier::Shapes;

class ShapesTest : public ::testing::Test {
 protected:
  ShapesTest() : module_(Hello()), shapes_(module_) {
    option_ = shapes_.OfType(kOption);
    none_ = shapes_.Intern({ShapeKind::kNullary, 0, {}});
  }
  uint32_t Tuple(std::vector<uint32_t> fields) {
    return shapes_.Intern({ShapeKind::kTuple, 0, std::move(fields)});
  }
  uint32_t Fn(std::vector<uint32_t> params_then_result) {
    return shapes_.Intern({ShapeKind::kFunction, 0, std::move(params_then_result)});
  }
  std::optional<uint32_t> Apply(const char* signature, std::vector<NativeArgument> args,
                                std::string* error) {
    absl::StatusOr<NativeSignature> sig = ParseNativeSignature(signature);
    EXPECT_TRUE(sig.ok()) << signature << ": " << sig.status();
    return verifier::ApplySignature(shapes_, *sig, args, error);
  }

  Module module_;
  Shapes shapes_;
  uint32_t option_ = 0;
  uint32_t none_ = 0;  // the shared `None`
};

TEST_F(ShapesTest, TuplesOrderFieldByField) {
  const uint32_t narrow = Tuple({Shapes::kStr, none_});
  const uint32_t wide = Tuple({Shapes::kStr, option_});
  EXPECT_TRUE(shapes_.Leq(narrow, wide));
  EXPECT_FALSE(shapes_.Leq(wide, narrow));
  EXPECT_FALSE(shapes_.Leq(Tuple({Shapes::kStr}), wide));  // another length
  EXPECT_EQ(shapes_.Join(narrow, wide), wide);
  EXPECT_EQ(shapes_.Join(wide, narrow), wide);
  EXPECT_EQ(shapes_.Join(Tuple({Shapes::kStr, Shapes::kPlain}), wide), std::nullopt);
  EXPECT_EQ(shapes_.Fields(narrow, -1), (std::vector<uint32_t>{Shapes::kStr, none_}));
  EXPECT_EQ(shapes_.Fields(none_, 0), std::vector<uint32_t>{});
  EXPECT_EQ(shapes_.Fields(none_, 1), std::nullopt);
}

TEST_F(ShapesTest, ClosuresTakeWiderAndGiveNarrower) {
  // fn(Option) -> None stands where fn(None) -> Option is wanted, not back.
  const uint32_t good = Fn({option_, none_});
  const uint32_t wanted = Fn({none_, option_});
  EXPECT_TRUE(shapes_.Leq(good, wanted));
  EXPECT_FALSE(shapes_.Leq(wanted, good));
  EXPECT_FALSE(shapes_.Leq(Fn({none_}), wanted));  // another arity
  EXPECT_FALSE(shapes_.Leq(good, Shapes::kStr));
}

TEST_F(ShapesTest, SignaturesWithTuplesOptionsAndUnions) {
  std::string error;
  const uint32_t pair = Tuple({Shapes::kPlain, Shapes::kStr});
  EXPECT_EQ(Apply("((Int, Str)) -> Int", {{.shape = pair, .in_reference_register = true}}, &error),
            Shapes::kPlain);
  EXPECT_EQ(Apply("((Int, Str)) -> Int", {{.shape = Tuple({Shapes::kStr})}}, &error), std::nullopt);
  EXPECT_EQ(
      Apply("(Option(Int)) -> Int", {{.shape = option_, .in_reference_register = true}}, &error),
      Shapes::kPlain);
  EXPECT_EQ(
      Apply("(Option(Int)) -> Int", {{.shape = none_, .in_reference_register = true}}, &error),
      Shapes::kPlain);
  EXPECT_EQ(Apply("(Option(Int)) -> Int", {{.shape = pair, .in_reference_register = true}}, &error),
            std::nullopt);
  EXPECT_EQ(
      Apply("(Int | Str) -> Int", {{.shape = Shapes::kStr, .in_reference_register = true}}, &error),
      Shapes::kPlain);
  EXPECT_EQ(Apply("(Int) -> Int", {}, &error), std::nullopt);
  EXPECT_EQ(error, "it takes 1 arguments, not 0");
  // A result the arguments do not determine.
  EXPECT_EQ(Apply("(Int) -> _", {{.shape = Shapes::kPlain}}, &error), std::nullopt);
  EXPECT_EQ(error, "its result's type is not determined");
  EXPECT_EQ(Apply("(Int) -> [a]", {{.shape = Shapes::kPlain}}, &error), std::nullopt);
  EXPECT_EQ(error, "its result's `a` is not determined by its arguments");
}

}  // namespace
}  // namespace alea::vm::aleac_testing
