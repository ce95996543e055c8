// What the natives check at run time because loading does not: a tensor's
// dtype (the verifier tracks tensors, not their dtypes), the meaning of a
// plain value (a dtype, a subscript's item kinds), and the size of scratch
// space a program's shapes ask for (heap scratch within the budget, where a
// std::vector would abort the process). Each is a clean run-time error, never
// a misread. The modules are hand-built (native_program.h): the type checker
// keeps source programs from these calls.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/vm/native_program.h"
#include "vm/dtype.h"

namespace alea::vm {
namespace {

using testing::Arr;
using testing::Bool;
using testing::DT;
using testing::Flt;
using testing::Int;
using testing::Key;
using testing::Program;
using testing::Str;
using testing::TempFile;
using testing::V;

// 0, 1, ..., n - 1 as `dtype` (bool: false, true, true...), reshaped to
// `shape` when one is given.
V Seq(Program& p, DType dtype, int64_t n, std::vector<int64_t> shape = {}) {
  V x = p.Call("t_arange", {Int(0), Int(n), DT(DType::kF32)});
  if (dtype != DType::kF32) x = p.Call("t_cast", {x, DT(dtype)});
  if (shape.empty()) return x;
  std::vector<V> dims;
  for (int64_t d : shape) dims.push_back(Int(d));
  return p.Call("t_reshape", {x, Arr(dims)});
}

const char* const kBadCall = "error: internal error: ";

TEST(NativeChecks, SoftmaxOfAnotherDType) {
  for (DType dtype : {DType::kBool, DType::kI32, DType::kU32}) {
    Program p;
    p.Call("t_softmax", {Seq(p, dtype, 5), Int(0)});
    EXPECT_EQ(p.Run(), std::string(kBadCall) + "`softmax` of a tensor of dtype " +
                           (dtype == DType::kBool  ? "bool"
                            : dtype == DType::kI32 ? "i32"
                                                   : "u32"));
  }
  Program p;
  p.Print(p.Call("t_softmax", {Seq(p, DType::kF32, 2), Int(0)}), p.Tensor());
  EXPECT_EQ(p.Run(), "[0.26894143 0.7310586 ]\n");
}

TEST(NativeChecks, CsvDTypes) {
  TempFile file("checks.csv");
  auto load = [&](DType dtype_or_not, int64_t raw = -1) {
    Program p;
    p.Call("write_text", {Str(file.path()), Str("1,2\n3,4\n")}, false);
    const V dtype = raw >= 0 ? Int(raw) : DT(dtype_or_not);
    p.Print(p.Call("t_load_csv", {Str(file.path()), dtype, Int(0), Str(",")}), p.Tensor());
    return p.Run();
  };
  EXPECT_EQ(load(DType::kI32), "[[1 2]\n [3 4]]\n");
  // A bool tensor has a byte an element, the parsed fields four.
  EXPECT_EQ(load(DType::kBool), std::string(kBadCall) + "`load_csv` of dtype bool");
  EXPECT_EQ(load(DType::kF32, 4), std::string(kBadCall) + "a tensor native got an unknown dtype");
  EXPECT_EQ(load(DType::kF32, 256), std::string(kBadCall) + "a tensor native got an unknown dtype");

  Program p;
  p.Call("t_save_csv", {Str(file.path()), Seq(p, DType::kBool, 3), Str(",")}, false);
  EXPECT_EQ(p.Run(), std::string(kBadCall) + "`save_csv` of a tensor of dtype bool");
}

// x[items] of a 2 x 3 f32 tensor with the spec words and argument 2 given.
std::string Subscript(std::vector<int64_t> spec, bool index_tensor, V other = Int(0)) {
  Program p;
  V x = Seq(p, DType::kF32, 6, {2, 3});
  std::vector<V> words;
  for (int64_t w : spec) words.push_back(Int(w));
  V idx = index_tensor ? Seq(p, DType::kI32, 2) : std::move(other);
  p.Print(p.Call("t_subscript", {x, Arr(words), idx}), p.Tensor());
  return p.Run();
}

TEST(NativeChecks, SubscriptSpec) {
  // Kinds 0 (Int), 1 (slice) and 2 (the index tensor): {kind, i or a, b, s}.
  EXPECT_EQ(Subscript({0, 1, 0, 0, 1, 0, 3, 2}, false), "[3. 5.]\n");
  EXPECT_EQ(Subscript({1, 0, 2, 1, 2, 0, 0, 0}, true), "[[0. 1.]\n [3. 4.]]\n");
  const std::string unknown = std::string(kBadCall) + "a subscript item of an unknown kind";
  EXPECT_EQ(Subscript({3, 0, 0, 0}, false), unknown);
  EXPECT_EQ(Subscript({-1, 0, 0, 0}, false), unknown);
  EXPECT_EQ(Subscript({258, 0, 0, 0}, true), unknown);  // 2 modulo 256
  // A kind-2 item reads argument 2, which must then hold a tensor.
  const std::string not_tensor =
      std::string(kBadCall) + "a subscript's index tensor is not a tensor";
  EXPECT_EQ(Subscript({2, 0, 0, 0}, false, Int(0)), not_tensor);
  EXPECT_EQ(Subscript({2, 0, 0, 0}, false, Int(12345)), not_tensor);
  // A reference that is no tensor the verifier refuses before the native runs.
  EXPECT_EQ(Subscript({2, 0, 0, 0}, false, Str("not a tensor")),
            "error: malformed module: function 0 `main` pc 16: CALLN calls native `t_subscript`: "
            "argument 3 is Str, which does not fit its parameter");
  EXPECT_EQ(Subscript({2, 0, 0, 0}, false, Arr({Int(0)})),
            "error: malformed module: function 0 `main` pc 17: CALLN calls native `t_subscript`: "
            "argument 3 is [a plain value], which does not fit its parameter");
  EXPECT_EQ(Subscript({2, 0, 0, 0, 2, 0, 0, 0}, true),
            std::string(kBadCall) + "a subscript with two index tensors");
}

// One call of a sampler native on key(0) and `args` (built in p).
struct SamplerCase {
  const char* native;
  std::vector<V> (*args)(Program& p);
  const char* message;  // after "internal error: "
};

TEST(NativeChecks, SamplerParameterDTypes) {
  const SamplerCase cases[] = {
      {"rand_multinomial",
       [](Program& p) -> std::vector<V> {
         return {Int(3), Seq(p, DType::kBool, 3), Int(0)};
       },
       "`multinomial` with `p` of dtype bool"},
      {"rand_choice",
       [](Program& p) -> std::vector<V> {
         return {Int(3), Arr({Int(2)}), Bool(true), Seq(p, DType::kBool, 3)};
       },
       "`choice` with `p` of dtype bool"},
      {"rand_choice",
       [](Program& p) -> std::vector<V> {
         return {Seq(p, DType::kBool, 3), Arr({Int(2)}), Bool(false), Seq(p, DType::kU32, 3)};
       },
       "`choice` with `p` of dtype u32"},
      {"rand_choice_scalar",
       [](Program& p) -> std::vector<V> {
         return {Int(3), Bool(false), Seq(p, DType::kI32, 3)};
       },
       "`choice` with `p` of dtype i32"},
      {"rand_choice_scalar",
       [](Program& p) -> std::vector<V> {
         return {Seq(p, DType::kBool, 3), Bool(true), Int(0)};
       },
       "`choice` with `xs` of dtype bool"},
      {"rand_multivariate_normal",
       [](Program& p) -> std::vector<V> {
         return {Seq(p, DType::kI32, 2), Seq(p, DType::kF32, 4, {2, 2}), Int(0)};
       },
       "`multivariate_normal` with `mean` of dtype i32"},
      {"rand_multivariate_normal",
       [](Program& p) -> std::vector<V> {
         return {Seq(p, DType::kF32, 2), Seq(p, DType::kBool, 4, {2, 2}), Int(0)};
       },
       "`multivariate_normal` with `cov` of dtype bool"},
      {"rand_gamma__like", [](Program& p) -> std::vector<V> { return {Seq(p, DType::kBool, 4)}; },
       "`gamma` with `a` of dtype bool"},
      {"rand_beta__like",
       [](Program& p) -> std::vector<V> {
         return {Seq(p, DType::kF32, 4), Seq(p, DType::kU32, 4)};
       },
       "`beta` with `b` of dtype u32"},
      {"rand_dirichlet",
       [](Program& p) -> std::vector<V> {
         return {Seq(p, DType::kBool, 3), Arr({Int(2)})};
       },
       "`dirichlet` with `alpha` of dtype bool"},
      {"rand_dirichlet__like",
       [](Program& p) -> std::vector<V> { return {Seq(p, DType::kI32, 3)}; },
       "`dirichlet` with `alpha` of dtype i32"},
      {"rand_lognormal__tensor",
       [](Program& p) -> std::vector<V> {
         return {Seq(p, DType::kBool, 4), Arr({Int(4)})};
       },
       "`lognormal` with `sigma` of dtype bool"},
      {"rand_weibull_min__like",
       [](Program& p) -> std::vector<V> {
         return {Seq(p, DType::kF32, 4), Seq(p, DType::kBool, 4)};
       },
       "`weibull_min` with `concentration` of dtype bool"},
      {"rand_poisson__like", [](Program& p) -> std::vector<V> { return {Seq(p, DType::kU32, 4)}; },
       "`poisson` with `lam` of dtype u32"},
  };
  for (const SamplerCase& c : cases) {
    Program p;
    std::vector<V> args = {Key(0)};
    for (V& v : c.args(p)) args.push_back(std::move(v));
    // The scalar forms return a plain value, in a plain register.
    const bool scalar = std::string_view(c.native).ends_with("_scalar");
    p.Call(c.native, std::move(args), /*result_is_ref=*/!scalar);
    EXPECT_EQ(p.Run(), std::string(kBadCall) + c.message) << c.native;
  }
}

Limits Budget(uint64_t bytes) {
  Limits limits;
  limits.max_heap_bytes = bytes;
  return limits;
}

TEST(NativeChecks, ScratchOfShapesWithinTheBudget) {
  // Operands of 16 MB of f32 in a heap of 256 MB; their broadcast has 2^44
  // elements.
  constexpr int64_t kSide = int64_t{1} << 22;
  const std::string budget = "error: out of memory budget";
  {
    Program p;
    p.Call("rand_lognormal__tensor",
           {Key(0), Seq(p, DType::kF32, 1), Arr({Int(kSide), Int(kSide)})});
    EXPECT_EQ(p.Run(Budget(256 << 20)), budget);
  }
  {
    Program p;
    p.Call("rand_weibull_min__like", {Key(0), Seq(p, DType::kF32, kSide, {kSide, 1}),
                                      Seq(p, DType::kF32, kSide, {1, kSide})});
    EXPECT_EQ(p.Run(Budget(256 << 20)), budget);
  }
  {
    Program p;
    p.Call("rand_beta__like", {Key(0), Seq(p, DType::kF32, kSide, {kSide, 1}),
                               Seq(p, DType::kF32, kSide, {1, kSide})});
    EXPECT_EQ(p.Run(Budget(256 << 20)), budget);
  }
  {
    // alpha's rows do not repeat over this batch, so they are expanded to
    // it: an invalid batch shape is refused before.
    Program p;
    p.Call("rand_dirichlet", {Key(0), Seq(p, DType::kF32, 6, {2, 1, 3}), Arr({Int(2), Int(-1)})});
    EXPECT_EQ(p.Run(), "error: invalid shape (2, -1, 3)");
  }
  {
    // choice of rows with no elements: the result has no bytes for any
    // number of draws, but the drawn indices do.
    Program p;
    p.Call("rand_choice", {Key(0), Seq(p, DType::kF32, 0, {3, 0}), Arr({Int(int64_t{1} << 40)}),
                           Bool(true), Int(0)});
    EXPECT_EQ(p.Run(Budget(256 << 20)), budget);
  }
  // Within the budget, the same broadcasts draw.
  Program p;
  p.Print(p.Call("t_shape", {p.Call("rand_beta__like", {Key(0), Seq(p, DType::kF32, 3, {3, 1}),
                                                        Seq(p, DType::kF32, 2, {1, 2})})}),
          p.b.Array(p.b.Int()));
  p.Print(p.Call("t_shape", {p.Call("rand_dirichlet", {Key(0), Seq(p, DType::kF32, 6, {2, 1, 3}),
                                                       Arr({Int(2), Int(4)})})}),
          p.b.Array(p.b.Int()));
  EXPECT_EQ(p.Run(Budget(256 << 20)), "[3, 2]\n[2, 4, 3]\n");
}

// permutation's sort rows (8 bytes an element) are heap scratch: they count
// against the budget beside the result (4 bytes an element).
TEST(NativeChecks, PermutationScratchWithinTheBudget) {
  constexpr int64_t kN = 1000000;
  const std::string budget = "error: out of memory budget";
  {
    // choice without replacement: a prefix of permutation(n).
    Program p;
    p.Call("rand_choice", {Key(0), Int(kN), Arr({Int(1)}), Bool(false), Int(0)});
    EXPECT_EQ(p.Run(Budget(10 << 20)), budget);
    Program q;
    q.Print(q.Call("t_shape",
                   {q.Call("rand_choice", {Key(0), Int(kN), Arr({Int(1)}), Bool(false), Int(0)})}),
            q.b.Array(q.b.Int()));
    EXPECT_EQ(q.Run(Budget(16 << 20)), "[1]\n");
  }
  {
    // shuffle: the array (8 bytes an element) and its copy, the order and
    // the sort's rows.
    Program p;
    p.Call("rand_shuffle", {Key(0), p.Call("range1", {Int(kN)})});
    EXPECT_EQ(p.Run(Budget(18 << 20)), budget);
    Program q;
    q.Print(q.Call("sum_i", {q.Call("rand_shuffle", {Key(0), q.Call("range1", {Int(kN)})})}, false),
            q.b.Int());
    EXPECT_EQ(q.Run(Budget(24 << 20)), "499999500000\n");
  }
}

}  // namespace
}  // namespace alea::vm
