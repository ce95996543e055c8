// The signatures of vm/natives.def: every line parses, with as many
// parameters as its arity, and the language's forms mean what they say.
#include "vm/native_signature.h"

#include <string>

#include "gtest/gtest.h"

namespace alea::vm {
namespace {

TEST(NativeSignatures, EveryNativeHasOneOfItsArity) {
  int count = 0;
#define ALEA_NATIVE(name, arity, signature, semantics)                     \
  {                                                                        \
    absl::StatusOr<NativeSignature> sig = ParseNativeSignature(signature); \
    ASSERT_TRUE(sig.ok()) << #name << ": " << sig.status().message();      \
    EXPECT_EQ(sig->params.size(), static_cast<size_t>(arity)) << #name;    \
    EXPECT_NE(SignatureOfNative(#name), nullptr) << #name;                 \
    ++count;                                                               \
  }
#include "vm/natives.def"
#undef ALEA_NATIVE
  EXPECT_GT(count, 200);
}

TEST(NativeSignatures, Forms) {
  absl::StatusOr<NativeSignature> sig =
      ParseNativeSignature("([a], fn(a) -> b, type b, dtype d, Int | Tensor(_), (Int...)) -> [b]");
  ASSERT_TRUE(sig.ok()) << sig.status().message();
  ASSERT_EQ(sig->params.size(), 6u);
  EXPECT_EQ(sig->params[0].type.kind, SigType::Kind::kArray);
  EXPECT_EQ(sig->params[0].type.children[0].kind, SigType::Kind::kVar);
  EXPECT_EQ(sig->params[1].type.kind, SigType::Kind::kFunction);
  EXPECT_EQ(sig->params[1].type.children.size(), 2u);
  EXPECT_EQ(sig->params[2].kind, SigParam::Kind::kType);
  EXPECT_EQ(sig->params[2].var, "b");
  EXPECT_EQ(sig->params[3].kind, SigParam::Kind::kDType);
  EXPECT_EQ(sig->params[4].type.kind, SigType::Kind::kUnion);
  EXPECT_EQ(sig->params[5].type.kind, SigType::Kind::kIntTuple);
  EXPECT_EQ(sig->result.kind, SigType::Kind::kArray);
  EXPECT_TRUE(NativeParamIsFunction("map", 1));
  EXPECT_FALSE(NativeParamIsFunction("fold", 1));  // its initial value: kept, not only called
  EXPECT_TRUE(NativeParamIsFunction("fold", 2));
}

TEST(NativeSignatures, ErrorsNameTheColumn) {
  EXPECT_EQ(ParseNativeSignature("(Int) Int").status().message(), "column 7: expected `->`");
  EXPECT_EQ(ParseNativeSignature("(Nat) -> Int").status().message(),
            "column 2: unknown type `Nat`");
  EXPECT_EQ(ParseNativeSignature("((Int)) -> Int").status().message(),
            "column 7: expected a tuple of two or more types");
}

}  // namespace
}  // namespace alea::vm
