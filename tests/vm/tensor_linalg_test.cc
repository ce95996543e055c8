// vm/tensor_ops.h's Cholesky, SolveTriangular, Solve, Det and Inv
// (tensor_linalg.cc): shapes, batches, empty matrices, every error and its
// message, nothing leaked on any path, and the same bits with the JIT's
// matmul on several threads as with the reference kernels alone.
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "tests/vm/tensor_search_testing.h"
#include "vm/jit/jit.h"
#include "vm/thread_pool.h"

namespace alea::vm {
namespace {

class TensorLinalg : public testing::TensorSearchTest {
 protected:
  // x x^T / n + I for a random x: symmetric positive definite.
  Object* Spd(int64_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    std::vector<float> x(static_cast<size_t>(n * n)), a(x.size());
    for (float& v : x) v = normal(rng);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < n; ++p) s += double{x[i * n + p]} * x[j * n + p];
        a[i * n + j] = static_cast<float>(s / static_cast<double>(n) + (i == j ? 1 : 0));
      }
    }
    return F32({n, n}, a);
  }
};

TEST_F(TensorLinalg, CholeskyOfOneAndOfABatch) {
  Object* a = F32({2, 2}, {4, 2, 2, 5});
  Object* l = Cholesky(cx_, a);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(Values<float>(l), (std::vector<float>{2, 0, 1, 2}));
  Object* batch = F32({2, 1, 2, 2}, {4, 2, 2, 5, 9, 0, 0, 1});
  Object* lb = Cholesky(cx_, batch);
  ASSERT_NE(lb, nullptr);
  EXPECT_EQ(Shape(lb), (std::vector<int64_t>{2, 1, 2, 2}));
  EXPECT_EQ(Values<float>(lb), (std::vector<float>{2, 0, 1, 2, 3, 0, 0, 1}));
  Object* none = F32({0, 0}, {});
  Object* empty = Cholesky(cx_, none);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(Shape(empty), (std::vector<int64_t>{0, 0}));
  Release({a, l, batch, lb, none, empty});
}

TEST_F(TensorLinalg, Errors) {
  Object* not_pd = F32({2, 2}, {1, 2, 2, 1});
  EXPECT_EQ(Message(Cholesky(cx_, not_pd)),
            "`cholesky`: the matrix is not positive definite (pivot 1 is -3.0)");
  Object* batch = F32({2, 2, 2}, {1, 0, 0, 1, 1, 2, 2, 1});
  EXPECT_EQ(Message(Cholesky(cx_, batch)),
            "`cholesky`: the matrix is not positive definite (pivot 1 of matrix 1 is -3.0)");
  Object* wide = F32({2, 3}, std::vector<float>(6, 1.0f));
  EXPECT_EQ(Error(Det(cx_, wide)),
            "`det` needs square matrices, not shape (2, 3) | the last two axes must have the "
            "same length; axes before them are a batch");
  Object* vec = F32({4}, std::vector<float>(4, 1.0f));
  EXPECT_EQ(Message(Inv(cx_, vec)), "`inv` needs square matrices, not shape (4,)");
  Object* cube = F32({1, 2, 2}, {1, 0, 0, 1});
  EXPECT_EQ(Message(Solve(cx_, cube, vec)), "`solve` needs a square matrix, not shape (1, 2, 2)");
  Object* singular = F32({2, 2}, {1, 2, 2, 4});
  Object* b2 = F32({2}, {1, 2});
  EXPECT_EQ(Error(Solve(cx_, singular, b2)),
            "`solve`: the matrix is singular | LU with partial pivoting finds no nonzero pivot "
            "in column 1, as NumPy's `LinAlgError`; `det` of the matrix is 0");
  EXPECT_EQ(Message(Inv(cx_, singular)), "`inv`: the matrix is singular");
  EXPECT_EQ(Message(Solve(cx_, singular, vec)), "`solve`: shapes (2, 2) and (4,) do not match");
  Object* scalar = F32({}, {1});
  EXPECT_EQ(Message(SolveTriangular(cx_, singular, scalar, true)),
            "`solve_triangular`: shapes (2, 2) and () do not match");
  Object* zero_diag = F32({2, 2}, {1, 0, 5, 0});
  EXPECT_EQ(Error(SolveTriangular(cx_, zero_diag, b2, true)),
            "`solve_triangular`: the matrix is singular | diagonal element 1 is 0");
  // The diagonal belongs to either triangle.
  EXPECT_EQ(Message(SolveTriangular(cx_, zero_diag, b2, false)),
            "`solve_triangular`: the matrix is singular");
  Object* det = Det(cx_, singular);
  ASSERT_NE(det, nullptr);
  EXPECT_EQ(Values<float>(det), (std::vector<float>{0.0f}));
  Release({not_pd, batch, wide, vec, cube, singular, b2, scalar, zero_diag, det});
}

TEST_F(TensorLinalg, ShapesOfResults) {
  Object* a = F32({3, 3}, {2, 0, 0, 1, 3, 0, 1, 1, 4});
  Object* v = F32({3}, {2, 4, 6});
  Object* m = F32({3, 2}, {2, 0, 4, 0, 6, 0});
  Object* x = SolveTriangular(cx_, a, v, true);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(Values<float>(x), (std::vector<float>{1, 1, 1}));
  Object* y = Solve(cx_, a, m);
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(Shape(y), (std::vector<int64_t>{3, 2}));
  Object* d = Det(cx_, a);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(Shape(d), (std::vector<int64_t>{}));
  EXPECT_EQ(Values<float>(d), (std::vector<float>{24}));
  Object* empties = F32({3, 0, 0}, {});
  Object* dets = Det(cx_, empties);
  ASSERT_NE(dets, nullptr);
  EXPECT_EQ(Values<float>(dets), (std::vector<float>{1, 1, 1}));
  Object* none = F32({0, 0}, {});
  Object* nb = F32({0, 5}, {});
  Object* s0 = Solve(cx_, none, nb);
  ASSERT_NE(s0, nullptr);
  EXPECT_EQ(Shape(s0), (std::vector<int64_t>{0, 5}));
  Release({a, v, m, x, y, d, empties, dets, none, nb, s0});
}

TEST_F(TensorLinalg, JitAndThreadsGiveTheReferenceBits) {
  auto jit = std::make_unique<jit::Jit>();
  if (!jit->available()) GTEST_SKIP() << "no AVX2+FMA: the JIT is off";
  ThreadPool pool(3);
  TensorContext fast(heap_, jit.get(), &pool);
  Object* a = Spd(260, 5);
  Object* b = Spd(260, 6);  // any well-conditioned right-hand sides
  const auto same = [&](Object* want, Object* got) {
    ASSERT_NE(want, nullptr);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(Values<uint32_t>(want), Values<uint32_t>(got));
    Release({want, got});
  };
  same(Cholesky(cx_, a), Cholesky(fast, a));
  same(Solve(cx_, a, b), Solve(fast, a, b));
  same(Inv(cx_, a), Inv(fast, a));
  same(Det(cx_, a), Det(fast, a));
  same(SolveTriangular(cx_, a, b, false), SolveTriangular(fast, a, b, false));
  Release({a, b});
}

}  // namespace
}  // namespace alea::vm
