#include "lang/types.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lang/builtins.h"

namespace alea::lang::types {
namespace {

class TypesTest : public ::testing::Test {
 protected:
  Type* Int() { return store.Prim(Kind::kInt); }
  Type* Float() { return store.Prim(Kind::kFloat); }
  Type* Str() { return store.Prim(Kind::kStr); }
  Type* TensorOf(DType d) { return store.Tensor(store.DTypeConst(d)); }
  TypeStore store;
};

TEST_F(TypesTest, PrintsEveryKind) {
  Type* a = store.Var(0);
  Type* b = store.Var(0);
  Printer p;
  EXPECT_EQ(p.Print(store.Function({a, store.Array(b)}, store.Tuple({a, Str()}))),
            "(a, [b]) -> (a, Str)");
  EXPECT_EQ(ToString(store.Tuple({})), "()");
  EXPECT_EQ(ToString(TensorOf(DType::kF32)), "Tensor(f32)");
  EXPECT_EQ(ToString(store.DTypeOf(store.DTypeConst(DType::kI32))), "DType(i32)");
  EXPECT_EQ(ToString(store.Prim(Kind::kRandState)), "RandState");
  EXPECT_EQ(ToString(store.Function({Int()}, Int())), "(Int) -> Int");
  EXPECT_EQ(ToString(store.Function({store.Function({Int()}, Int())}, Float())),
            "((Int) -> Int) -> Float");
}

TEST_F(TypesTest, PrintsDTypeVariablesAsTheSignaturesWriteThem) {
  Type* n1 = store.Var(0, {}, kNumericDType);
  Type* n2 = store.Var(0, {}, kNumericDType);
  Type* d = store.Var(0, {}, kAnyDType);
  Printer p;
  EXPECT_EQ(p.Print(store.Function({store.Tensor(n1), store.Tensor(d)}, store.Tensor(n2))),
            "(Tensor(n), Tensor(d)) -> Tensor(n2)");
}

TEST_F(TypesTest, UnifiesThroughVariables) {
  Type* a = store.Var(1);
  Type* fa = store.Function({a}, a);
  Type* fi = store.Function({Int()}, store.Var(1));
  ASSERT_TRUE(Unify(fa, fi, nullptr, nullptr));
  EXPECT_EQ(ToString(fi), "(Int) -> Int");
  UnifyFailure failure;
  EXPECT_FALSE(Unify(store.Array(a), store.Array(Str()), nullptr, &failure));
  EXPECT_EQ(failure.reason, UnifyFailure::Reason::kMismatch);
  EXPECT_EQ(ToString(failure.expected), "Int");
  EXPECT_EQ(ToString(failure.found), "Str");
}

TEST_F(TypesTest, OccursCheckRejectsInfiniteTypes) {
  Type* a = store.Var(0);
  UnifyFailure failure;
  EXPECT_FALSE(Unify(a, store.Array(a), nullptr, &failure));
  EXPECT_EQ(failure.reason, UnifyFailure::Reason::kInfinite);
}

TEST_F(TypesTest, DeepTypesFailCleanly) {
  Type* t = Int();
  for (int i = 0; i < 10000; ++i) t = store.Array(t);
  UnifyFailure failure;
  EXPECT_FALSE(Unify(store.Var(0), t, nullptr, &failure));
  EXPECT_EQ(failure.reason, UnifyFailure::Reason::kTooDeep);
  std::string printed = ToString(t);
  EXPECT_LT(printed.size(), 500u);
}

TEST_F(TypesTest, TrailUndoesTrialUnification) {
  Type* a = store.Var(0);
  Type* b = store.Var(0);
  Trail trail;
  ASSERT_TRUE(Unify(store.Tuple({a, b}), store.Tuple({Int(), Str()}), &trail, nullptr));
  EXPECT_EQ(ToString(a), "Int");
  trail.Undo(0);
  EXPECT_EQ(Resolve(a), a);
  EXPECT_EQ(Resolve(b), b);
}

TEST_F(TypesTest, DTypeMasksRestrictVariables) {
  Type* n = store.Var(0, {}, kNumericDType);
  EXPECT_FALSE(Unify(store.Tensor(n), TensorOf(DType::kBool), nullptr, nullptr));
  EXPECT_FALSE(Unify(n, Int(), nullptr, nullptr));
  EXPECT_TRUE(Unify(store.Tensor(n), TensorOf(DType::kI32), nullptr, nullptr));
}

TEST_F(TypesTest, LevelsAreLoweredOnBinding) {
  Type* outer = store.Var(1);
  Type* inner = store.Var(3);
  ASSERT_TRUE(Unify(outer, store.Array(inner), nullptr, nullptr));
  EXPECT_EQ(inner->level, 1);
}

TEST_F(TypesTest, InstantiateCopiesOnlyGenericParts) {
  Type* g = store.Var(0);
  g->generic = true;
  Type* mono = store.Var(0);
  Type* scheme = store.Function({g, mono}, g);
  absl::flat_hash_map<Type*, Type*> subst;
  Type* inst = store.Instantiate(scheme, subst, 2, nullptr);
  ASSERT_NE(inst, scheme);
  EXPECT_NE(inst->args[0], g);
  EXPECT_EQ(inst->args[0], inst->result);
  EXPECT_EQ(inst->args[1], mono);
}

TEST(TypesBuiltinsTest, EverySignatureParses) {
  for (int i = 0; i < kBuiltinCount; ++i) {
    const Builtin& b = GetBuiltin(static_cast<BuiltinId>(i));
    if ((b.flags & kBuiltinOwnRule) != 0) {
      // Typed by the checker's own rule: one parameter `f`, no template.
      EXPECT_TRUE(b.is_function) << b.name;
      ASSERT_EQ(b.params.size(), 1u) << b.name;
      EXPECT_EQ(b.params[0].name, "f");
      continue;
    }
    EXPECT_NE(b.result, nullptr) << b.name;
  }
  EXPECT_EQ(GetBuiltin(BuiltinId::kUniform).params.size(), 4u);
  EXPECT_EQ(GetBuiltin(BuiltinId::kUniform).required, 2);
  EXPECT_TRUE(GetBuiltin(BuiltinId::kUniform).sampler());
  EXPECT_TRUE(GetBuiltin(BuiltinId::kMaxReduce).params[1].keyword_only);
  EXPECT_FALSE(GetBuiltin(BuiltinId::kDTypeF32).is_function);
  EXPECT_EQ(BuiltinOverloads("+").size(), 8u);
}

TEST(TypesBuiltinsTest, MapsNamedArguments) {
  const Builtin& uniform = GetBuiltin(BuiltinId::kUniform);
  ArgMapping m;
  std::string detail;
  std::vector<std::string> names = {"", "", "hi"};
  ASSERT_EQ(MapArguments(uniform, names, 0, &m, &detail), ArgMapError::kOk);
  EXPECT_EQ(m.param_of_arg, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(m.arg_of_param, (std::vector<int>{0, 1, -1, 2}));
  names = {"", "", "mid"};
  EXPECT_EQ(MapArguments(uniform, names, 0, &m, &detail), ArgMapError::kUnknownName);
  EXPECT_EQ(detail, "mid");
  names = {"", "", "lo", "lo"};
  EXPECT_EQ(MapArguments(uniform, names, 0, &m, &detail), ArgMapError::kDuplicate);
  names = {""};
  EXPECT_EQ(MapArguments(uniform, names, 0, &m, &detail), ArgMapError::kTooFew);
  EXPECT_EQ(detail, "shape");
  names = {""};  // the ambient form: the state is implicit
  EXPECT_EQ(MapArguments(uniform, names, 1, &m, &detail), ArgMapError::kOk);
  names = {"", ""};
  EXPECT_EQ(MapArguments(GetBuiltin(BuiltinId::kMaxReduce), names, 0, &m, &detail),
            ArgMapError::kKeywordOnly);
}

TEST(TypesBuiltinsTest, ResolvesOverloadsForConcreteTypes) {
  TypeStore store;
  Type* i = store.Prim(Kind::kInt);
  Type* f = store.Prim(Kind::kFloat);
  Type* t32 = store.Tensor(store.DTypeConst(DType::kF32));
  Type* ti = store.Tensor(store.DTypeConst(DType::kI32));
  std::vector<const Type*> args = {i, i};
  auto r = ResolveOverload("+", args, {}, store);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->id, BuiltinId::kAddInt);
  EXPECT_EQ(ToString(r->result), "Int");
  args = {t32, f};
  r = ResolveOverload("*", args, {}, store);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->id, BuiltinId::kMulTensorFloat);
  args = {ti, f};
  EXPECT_FALSE(ResolveOverload("*", args, {}, store).has_value());
  args = {i, f};
  EXPECT_FALSE(ResolveOverload("+", args, {}, store).has_value());
  args = {ti};
  r = ResolveOverload("item", args, {}, store);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(ToString(r->result), "Int");
  std::vector<std::string> names = {"", "axis"};
  args = {t32, i};
  r = ResolveOverload("max", args, names, store);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->id, BuiltinId::kMaxReduce);
  args = {t32, store.Tuple({})};
  EXPECT_FALSE(ResolveOverload("==", args, {}, store).has_value());
  args = {store.Array(store.Array(f))};
  r = ResolveOverload("tensor", args, {}, store);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(ToString(r->result), "Tensor(f32)");
  args = {store.Function({}, i), store.Function({}, i)};
  EXPECT_FALSE(ResolveOverload("==", args, {}, store).has_value());
  args = {store.Tuple({i, store.Prim(Kind::kStr)}), store.Tuple({i, store.Prim(Kind::kStr)})};
  r = ResolveOverload("<", args, {}, store);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->id, BuiltinId::kLt);
}

}  // namespace
}  // namespace alea::lang::types
