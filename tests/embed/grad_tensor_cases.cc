// The tensor rules' cases for grad_rules_test.cc: for each line of
// vm/grad_rules.def's tensor rules, a loss written in Alea over two tensors
// and the same loss in double precision, the reference the gradients are
// checked against by central differences.
#include "tests/embed/grad_tensor_cases.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace alea::grad_testing {
namespace {

// Σ f(t_ij, u_j) over t of shape [rows, cols] and u of [cols] (u broadcast
// along the rows), or of [rows, cols] too.
std::function<double(const std::vector<double>&, const std::vector<double>&)> Elementwise(
    std::function<double(double, double)> f) {
  return [f](const std::vector<double>& t, const std::vector<double>& u) {
    double sum = 0;
    for (size_t i = 0; i < t.size(); ++i) sum += f(t[i], u[i % u.size()]);
    return sum;
  };
}

// sum(t) * sum(u): a Float from each tensor, multiplied.
double SumTimesSum(const std::vector<double>& t, const std::vector<double>& u) {
  double st = 0, su = 0;
  for (double x : t) st += x;
  for (double x : u) su += x;
  return st * su;
}

// Small dense linear algebra in double, the reference for the matrix
// rules: matrices row-major, n x n.
using Matrix = std::vector<double>;

// The 3 x 3 matrix the linear algebra cases use: t's rows and u, plus 2 I
// (well conditioned).
Matrix Square(const std::vector<double>& t, const std::vector<double>& u) {
  Matrix m(t.begin(), t.end());
  m.insert(m.end(), u.begin(), u.end());
  for (int i = 0; i < 3; ++i) m[i * 4] += 2;
  return m;
}
constexpr const char* kSquare = "(concat([t, reshape(u, [1, 3])]) + eye(3) * 2.0)";

// x solving a x = b (b: n x k), by Gaussian elimination with pivoting.
Matrix SolveRef(Matrix a, Matrix b, int n, int k) {
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r) {
      if (std::abs(a[r * n + c]) > std::abs(a[p * n + c])) p = r;
    }
    for (int j = 0; j < n; ++j) std::swap(a[c * n + j], a[p * n + j]);
    for (int j = 0; j < k; ++j) std::swap(b[c * k + j], b[p * k + j]);
    for (int r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / a[c * n + c];
      for (int j = c; j < n; ++j) a[r * n + j] -= f * a[c * n + j];
      for (int j = 0; j < k; ++j) b[r * k + j] -= f * b[c * k + j];
    }
  }
  Matrix x(static_cast<size_t>(n * k));
  for (int r = n - 1; r >= 0; --r) {
    for (int j = 0; j < k; ++j) {
      double v = b[r * k + j];
      for (int c = r + 1; c < n; ++c) v -= a[r * n + c] * x[c * k + j];
      x[r * k + j] = v / a[r * n + r];
    }
  }
  return x;
}

double DetRef(Matrix a, int n) {
  double det = 1;
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r) {
      if (std::abs(a[r * n + c]) > std::abs(a[p * n + c])) p = r;
    }
    if (p != c) {
      for (int j = 0; j < n; ++j) std::swap(a[c * n + j], a[p * n + j]);
      det = -det;
    }
    det *= a[c * n + c];
    for (int r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / a[c * n + c];
      for (int j = c; j < n; ++j) a[r * n + j] -= f * a[c * n + j];
    }
  }
  return det;
}

// Σ m_ij w_ij with weights 1 + i - 0.5 j (every element counts
// differently), over an r x c matrix.
double Weighted(const Matrix& m, int rows, int cols) {
  double s = 0;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) s += m[i * cols + j] * (1 + i - 0.5 * j);
  }
  return s;
}
constexpr const char* kWeights3 = "tensor([[1.0, 0.5, 0.0], [2.0, 1.5, 1.0], [3.0, 2.5, 2.0]])";

// The weights the update and sort cases multiply a [2, 3] result by: every
// element counts differently.
#define W23 "tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])"
double W(int i, int j) { return 1 + 3 * i + j; }

}  // namespace

const std::map<std::string, TensorCase>& TensorCases() {
  static const auto* cases = new std::map<std::string, TensorCase>{
      {"ADD_T",
       {"item(sum(t + u))", {2, 3}, {3}, Elementwise([](double a, double b) { return a + b; })}},
      {"SUB_T", {"item(sum((t - u) * t))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return (a - b) * a;
                 })}},
      {"MUL_T", {"item(sum(t * u * t))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return a * b * a;
                 })}},
      {"DIV_T",
       {"item(sum(t / u))", {2, 3}, {3}, Elementwise([](double a, double b) { return a / b; })}},
      {"NEG_T", {"item(sum(-t * u))", {2, 3}, {2, 3}, Elementwise([](double a, double b) {
                   return -a * b;
                 })}},
      {"EXP_T", {"item(sum(exp(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::exp(a) * b;
                 })}},
      {"LOG_T", {"item(sum(log(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::log(a) * b;
                 })}},
      {"TANH_T", {"item(sum(tanh(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::tanh(a) * b;
                  })}},
      {"SQRT_T", {"item(sum(sqrt(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::sqrt(a) * b;
                  })}},
      {"SIGMOID_T", {"item(sum(sigmoid(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                       return b / (1 + std::exp(-a));
                     })}},
      {"RELU_T", {"item(sum(relu(t - 0.6) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::max(a - 0.6, 0.0) * b;
                  })}},
      {"ABS_T", {"item(sum(abs(t - 0.6) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::abs(a - 0.6) * b;
                 })}},
      {"SCALAR_T", {"item(sum(t * item(sum(u))))", {2, 3}, {3}, SumTimesSum}},
      {"t_item", {"item(sum(t)) * item(sum(u))", {2, 3}, {3}, SumTimesSum}},
      {"t_matmul",
       {"item(sum((t @ u) * tensor([[1.0, 3.0], [2.0, 4.0]]))) + "
        "item(sum((t @ u[:, 1]) * tensor([1.0, -1.0]))) + item(sum(t[1] @ u)) + "
        "item(t[0] @ t[1])",
        {2, 3},
        {3, 2},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
              double d = 0;
              for (int k = 0; k < 3; ++k) d += t[i * 3 + k] * u[k * 2 + j];
              s += d * (1 + i + 2 * j);  // weights: every output counts differently
            }
          }
          // A matrix times a vector, a vector times a matrix, two vectors.
          for (int i = 0; i < 2; ++i) {
            for (int k = 0; k < 3; ++k) s += t[i * 3 + k] * u[k * 2 + 1] * (i == 0 ? 1 : -1);
          }
          for (int j = 0; j < 2; ++j) {
            for (int k = 0; k < 3; ++k) s += t[3 + k] * u[k * 2 + j];
          }
          for (int k = 0; k < 3; ++k) s += t[k] * t[3 + k];
          return s;
        }}},
      {"t_matmul_t",
       {"item(sum((t @ transpose(u)) * tensor([[1.0, 3.0], [2.0, 4.0]]))) + "
        "item(sum((transpose(t) @ u) * tensor([[1.0, 0.5, 2.0], [3.0, 1.5, 0.5], [2.5, 1.0, "
        "1.0]])))",
        {2, 3},
        {2, 3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          const double w1[2][2] = {{1, 3}, {2, 4}};
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
              double d = 0;
              for (int k = 0; k < 3; ++k) d += t[i * 3 + k] * u[j * 3 + k];
              s += d * w1[i][j];
            }
          }
          const double w2[3][3] = {{1, 0.5, 2}, {3, 1.5, 0.5}, {2.5, 1, 1}};
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              double d = 0;
              for (int k = 0; k < 2; ++k) d += t[k * 3 + i] * u[k * 3 + j];
              s += d * w2[i][j];
            }
          }
          return s;
        }}},
      {"t_reduce_axis logsumexp",
       {"item(sum(logsumexp(t, axis: 1) * tensor([1.0, 2.0]))) + item(logsumexp(u))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int i = 0; i < 2; ++i) {
            double e = 0;
            for (int j = 0; j < 3; ++j) e += std::exp(t[i * 3 + j]);
            s += std::log(e) * (1 + i);
          }
          double e = 0;
          for (double x : u) e += std::exp(x);
          return s + std::log(e);
        }}},
      {"t_reduce_axis max",
       {"item(sum(max(t, axis: 0) * u)) + item(min(u * u))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int j = 0; j < 3; ++j) s += std::max(t[j], t[3 + j]) * u[j];
          double m = u[0] * u[0];
          for (double x : u) m = std::min(m, x * x);
          return s + m;
        }}},
      {"t_reshape",
       {"item(sum(reshape(t, [3, 2]) * tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))) + "
        "item(sum(reshape(u, [3, 1]) * tensor([[1.0], [-2.0], [0.5]])))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int i = 0; i < 6; ++i) s += t[i] * (i + 1);
          return s + u[0] - 2 * u[1] + 0.5 * u[2];
        }}},
      {"t_transpose",
       {"item(sum(transpose(t) * tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))) + "
        "item(sum(transpose(u) * u))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          // transpose(t)[j][i] = t[i][j], weighted by 1 + 2j + i.
          double s = 0;
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 3; ++j) s += t[i * 3 + j] * (1 + 2 * j + i);
          }
          for (double x : u) s += x * x;
          return s;
        }}},
      {"t_reduce",
       {"item(mean(t * t)) + item(sum(u * u * u))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double st = 0, su = 0;
          for (double x : t) st += x * x;
          for (double x : u) su += x * x * x;
          return st / 6 + su;
        }}},
      {"EXPM1_T", {"item(sum(expm1(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                     return std::expm1(a) * b;
                   })}},
      {"LOG1P_T", {"item(sum(log1p(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                     return std::log1p(a) * b;
                   })}},
      {"SINH_T", {"item(sum(sinh(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::sinh(a) * b;
                  })}},
      {"COSH_T", {"item(sum(cosh(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::cosh(a) * b;
                  })}},
      {"ERF_T", {"item(sum(erf(t - 1.0) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::erf(a - 1.0) * b;
                 })}},
      {"ERFC_T", {"item(sum(erfc(t - 1.0) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::erfc(a - 1.0) * b;
                  })}},
      {"SIN_T", {"item(sum(sin(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::sin(a) * b;
                 })}},
      {"COS_T", {"item(sum(cos(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::cos(a) * b;
                 })}},
      {"TAN_T", {"item(sum(tan(t * 0.5) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::tan(a * 0.5) * b;
                 })}},
      {"ATAN_T", {"item(sum(atan(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::atan(a) * b;
                  })}},
      {"ASIN_T", {"item(sum(asin(t * 0.4) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::asin(a * 0.4) * b;
                  })}},
      {"ACOS_T", {"item(sum(acos(t * 0.4) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                    return std::acos(a * 0.4) * b;
                  })}},
      {"MAX_T",
       {"item(sum(maximum(t, u) * maximum(t, u)))",
        {2, 3},
        {3},
        Elementwise([](double a, double b) { return std::max(a, b) * std::max(a, b); })}},
      {"MIN_T",
       {"item(sum(minimum(t, u) * (t + 1.0)))", {2, 3}, {3}, Elementwise([](double a, double b) {
          return std::min(a, b) * (a + 1.0);
        })}},
      {"POW_T", {"item(sum(pow(t, u)))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::pow(a, b);
                 })}},
      {"ATAN2_T", {"item(sum(atan2(t - 1.0, u)))", {2, 3}, {3}, Elementwise([](double a, double b) {
                     return std::atan2(a - 1.0, b);
                   })}},
      {"HYPOT_T", {"item(sum(hypot(t, u)))", {2, 3}, {3}, Elementwise([](double a, double b) {
                     return std::hypot(a, b);
                   })}},
      {"REM_T", {"item(sum((t % u) * t))", {2, 3}, {3}, Elementwise([](double a, double b) {
                   return std::fmod(a, b) * a;
                 })}},
      {"t_softmax",
       {"item(sum(softmax(t, axis: 1) * tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]))) + "
        "item(sum(softmax(u) * u))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          const double w[6] = {1, 2, 3, -1, 0.5, 2};
          double s = 0;
          for (int i = 0; i < 2; ++i) {
            double e = 0;
            for (int j = 0; j < 3; ++j) e += std::exp(t[i * 3 + j]);
            for (int j = 0; j < 3; ++j) s += std::exp(t[i * 3 + j]) / e * w[i * 3 + j];
          }
          double e = 0;
          for (double x : u) e += std::exp(x);
          for (double x : u) s += std::exp(x) / e * x;
          return s;
        }}},
      {"t_where",
       {"item(sum(where(t > 1.0, t * t, u)))", {2, 3}, {3}, Elementwise([](double a, double b) {
          return a > 1.0 ? a * a : b;
        })}},
      {"t_concat",
       {"item(sum(concat([t, reshape(u, [1, 3])]) * tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], "
        "[7.0, 8.0, 9.0]]))) + item(sum(concat([t, t * t], axis: 1) * tensor([[1.0, 2.0, 3.0, "
        "4.0, 5.0, 6.0], [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]])))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int i = 0; i < 6; ++i) s += t[i] * (i + 1);
          for (int j = 0; j < 3; ++j) s += u[j] * (7 + j);
          const double w[2][6] = {{1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1}};
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 3; ++j) {
              const double x = t[i * 3 + j];
              s += x * w[i][j] + x * x * w[i][3 + j];
            }
          }
          return s;
        }}},
      {"t_stack",
       {"item(sum(stack([u, u * u], axis: 1) * tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))) + "
        "item(sum(stack([t, t]) * t))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int j = 0; j < 3; ++j) s += u[j] * (1 + 2 * j) + u[j] * u[j] * (2 + 2 * j);
          for (double x : t) s += 2 * x * x;
          return s;
        }}},
      {"t_index",
       {"item(sum(t[1] * u)) + item(sum(t[0] * t[0]))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int j = 0; j < 3; ++j) s += t[3 + j] * u[j] + t[j] * t[j];
          return s;
        }}},
      {"t_slice",
       {"item(sum(u[1:3] * u[1:3])) + item(sum(t[1:9] * 3.0))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          return u[1] * u[1] + u[2] * u[2] + 3 * (t[3] + t[4] + t[5]);
        }}},
      {"t_take",
       {"item(sum(take(t, tensor([2, 0, 2]), axis: 1) * tensor([[1.0, 2.0, 3.0], [4.0, 5.0, "
        "6.0]]))) + item(sum(take(u, tensor([1, 1]))))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          const int idx[3] = {2, 0, 2};
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 3; ++j) s += t[i * 3 + idx[j]] * (1 + 3 * i + j);
          }
          return s + 2 * u[1];
        }}},
      {"t_reduce_axis_t",
       {"item(sum(max(transpose(t), axis: 1) * u)) + item(sum(sum(transpose(t), axis: 0)))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int j = 0; j < 3; ++j) s += std::max(t[j], t[3 + j]) * u[j];
          for (double x : t) s += x;
          return s;
        }}},
      {"t_reduce_ddof",
       {"item(var(t)) + item(std(u, ddof: 1))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          auto var = [](const std::vector<double>& v, int ddof) {
            double m = 0, s = 0;
            for (double x : v) m += x / static_cast<double>(v.size());
            for (double x : v) s += (x - m) * (x - m);
            return s / static_cast<double>(static_cast<int>(v.size()) - ddof);
          };
          return var(t, 0) + std::sqrt(var(u, 1));
        }}},
      {"t_reduce_ddof_axis",
       {"item(sum(std(t, axis: 0) * u)) + item(sum(var(t, axis: 1, ddof: 1)))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int j = 0; j < 3; ++j) {
            const double m = (t[j] + t[3 + j]) / 2;
            s += std::sqrt(((t[j] - m) * (t[j] - m) + (t[3 + j] - m) * (t[3 + j] - m)) / 2) * u[j];
          }
          for (int i = 0; i < 2; ++i) {
            const double m = (t[i * 3] + t[i * 3 + 1] + t[i * 3 + 2]) / 3;
            double v = 0;
            for (int j = 0; j < 3; ++j) v += (t[i * 3 + j] - m) * (t[i * 3 + j] - m);
            s += v / 2;
          }
          return s;
        }}},
      {"LGAMMA_T", {"item(sum(lgamma(t) * u))", {2, 3}, {3}, Elementwise([](double a, double b) {
                      return std::lgamma(a) * b;
                    })}},
      {"t_cast",
       {"item(sum(cast(t, f32) * u)) + item(sum(cast(cast(u, i32), f32)))",
        {2, 3},
        {3},
        Elementwise([](double a, double b) { return a * b; })}},
      {"t_roll",
       {"item(sum(roll(t, 2) * tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>&) {
          double s = 0;
          for (int i = 0; i < 6; ++i) s += t[(i + 4) % 6] * (i + 1);  // out[i] = t[i - 2]
          return s;
        }}},
      {"t_roll_axis",
       {"item(sum(roll(t, -1, axis: 1) * tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>&) {
          double s = 0;
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 3; ++j) s += t[i * 3 + (j + 1) % 3] * (i * 3 + j + 1);
          }
          return s;
        }}},
      {"t_cumsum",
       {"item(sum(cumsum(t) * tensor([1.0, -2.0, 3.0, 0.5, 1.5, -1.0])))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>&) {
          const double w[6] = {1, -2, 3, 0.5, 1.5, -1};
          double s = 0, run = 0;
          for (int i = 0; i < 6; ++i) s += (run += t[i]) * w[i];
          return s;
        }}},
      {"t_cumsum_axis",
       {"item(sum(cumsum(t, axis: 0) * t))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>&) {
          double s = 0;
          for (int j = 0; j < 3; ++j) s += t[j] * t[j] + (t[j] + t[3 + j]) * t[3 + j];
          return s;
        }}},
      {"t_subscript",
       {"item(sum(t[:, 1] * u[0:2])) + item(sum(t[1, tensor([2, 0, 2])] * u)) + "
        "item(sum(t[0:2:1, 2]))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = t[1] * u[0] + t[4] * u[1];
          s += t[5] * u[0] + t[3] * u[1] + t[5] * u[2];
          return s + t[2] + t[5];
        }}},
      {"t_mask_select",
       {"item(sum(t[t > 1.0] * t[t > 1.0]))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>&) {
          double s = 0;
          for (double x : t) s += x > 1.0 ? x * x : 0.0;
          return s;
        }}},
      {"t_sort",
       {"item(sum(sort(u * tensor([1.0, -1.0, 0.5])) * tensor([1.0, 2.0, 3.0])))",
        {2, 3},
        {3},
        [](const std::vector<double>&, const std::vector<double>& u) {
          std::vector<double> v = {u[0], -u[1], 0.5 * u[2]};
          std::sort(v.begin(), v.end());
          return v[0] + 2 * v[1] + 3 * v[2];
        }}},
      {"t_inv",
       {absl::StrCat("item(sum(inv(", kSquare, ") * ", kWeights3, "))"),
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          Matrix eye = {1, 0, 0, 0, 1, 0, 0, 0, 1};
          return Weighted(SolveRef(Square(t, u), eye, 3, 3), 3, 3);
        }}},
      {"t_det",
       {absl::StrCat("item(det(", kSquare, "))"),
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          return DetRef(Square(t, u), 3);
        }}},
      {"t_solve",
       {absl::StrCat("item(sum(solve(", kSquare, ", u) * tensor([1.0, -2.0, 0.5]))) + ",
                     "item(sum(solve(", kSquare, ", transpose(t)) * transpose(t)))"),
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          const Matrix x = SolveRef(Square(t, u), u, 3, 1);
          double s = x[0] - 2 * x[1] + 0.5 * x[2];
          const Matrix tt = {t[0], t[3], t[1], t[4], t[2], t[5]};
          const Matrix y = SolveRef(Square(t, u), tt, 3, 2);
          for (int i = 0; i < 6; ++i) s += y[i] * tt[i];
          return s;
        }}},
      {"t_solve_triangular",
       {absl::StrCat("item(sum(solve_triangular(", kSquare,
                     ", u) * tensor([1.0, -2.0, 0.5]))) + item(sum(solve_triangular(", kSquare,
                     ", transpose(t), lower: false) * transpose(t)))"),
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          // Only the triangle named is read: the other half as zeros.
          const Matrix a = Square(t, u);
          Matrix lower(9, 0.0), upper(9, 0.0);
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) (j <= i ? lower : upper)[i * 3 + j] = a[i * 3 + j];
            upper[i * 3 + i] = a[i * 3 + i];
          }
          const Matrix x = SolveRef(lower, u, 3, 1);
          double s = x[0] - 2 * x[1] + 0.5 * x[2];
          const Matrix tt = {t[0], t[3], t[1], t[4], t[2], t[5]};
          const Matrix y = SolveRef(upper, tt, 3, 2);
          for (int i = 0; i < 6; ++i) s += y[i] * tt[i];
          return s;
        }}},
      {"t_cholesky",
       {absl::StrCat("item(sum(cholesky(", kSquare, " @ transpose(", kSquare, ")) * ", kWeights3,
                     "))"),
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          const Matrix m = Square(t, u);
          Matrix a(9, 0.0), l(9, 0.0);
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              for (int k = 0; k < 3; ++k) a[i * 3 + j] += m[i * 3 + k] * m[j * 3 + k];
            }
          }
          for (int j = 0; j < 3; ++j) {
            double d = a[j * 3 + j];
            for (int k = 0; k < j; ++k) d -= l[j * 3 + k] * l[j * 3 + k];
            l[j * 3 + j] = std::sqrt(d);
            for (int i = j + 1; i < 3; ++i) {
              double v = a[i * 3 + j];
              for (int k = 0; k < j; ++k) v -= l[i * 3 + k] * l[j * 3 + k];
              l[i * 3 + j] = v / l[j * 3 + j];
            }
          }
          return Weighted(l, 3, 3);
        }}},
      {"t_reduce prod",
       {"item(prod(t)) + item(sum(prod(t, axis: 0) * u)) + "
        "item(prod(t * tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]])))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double all = 1, zeroed = 1, s = 0;
          for (size_t i = 0; i < t.size(); ++i) {
            all *= t[i];
            zeroed *= i == 1 ? 0.0 : t[i];
          }
          for (int j = 0; j < 3; ++j) s += t[j] * t[3 + j] * u[j];
          return all + s + zeroed;
        }}},
      {"t_sort axis",
       {"item(sum(sort(t * tensor([[1.0, -1.0, 0.5], [-0.5, 2.0, -2.0]]), axis: 0) * " W23 ")) + "
        "item(sum(sort(t * tensor([[1.0, -1.0, 0.5], [-0.5, 2.0, -2.0]]), axis: 1) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>&) {
          const double m[6] = {1, -1, 0.5, -0.5, 2, -2};
          double v[6];
          for (int i = 0; i < 6; ++i) v[i] = t[i] * m[i];
          double s = 0;
          for (int j = 0; j < 3; ++j) {
            s += std::min(v[j], v[3 + j]) * W(0, j) + std::max(v[j], v[3 + j]) * W(1, j);
          }
          for (int i = 0; i < 2; ++i) {
            std::vector<double> row(v + i * 3, v + i * 3 + 3);
            std::sort(row.begin(), row.end());
            for (int j = 0; j < 3; ++j) s += row[j] * W(i, j);
          }
          return s;
        }}},
      {"t_set_int",
       {"item(sum(set(t, 1, u * u) * " W23 ")) + item(sum(set(t, 2, u[0] * 5.0, axis: 1) * " W23
        "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int j = 0; j < 3; ++j) s += t[j] * W(0, j) + u[j] * u[j] * W(1, j);
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) s += t[i * 3 + j] * W(i, j);
            s += 5 * u[0] * W(i, 2);
          }
          return s;
        }}},
      {"t_set_tuple",
       {"item(sum(set(t, (0, 1), item(u[2]) * 3.0) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int i = 0; i < 6; ++i) s += (i == 1 ? 3 * u[2] : t[i]) * W(i / 3, i % 3);
          return s;
        }}},
      {"t_set_take",
       {"item(sum(set(t, tensor([2, 0, 2]), reshape(u, [1, 3]) * 2.0, axis: 1) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          // Column 2 is written twice: the second write (u2) stays.
          double s = 0;
          for (int i = 0; i < 2; ++i) {
            s += 2 * u[1] * W(i, 0) + t[i * 3 + 1] * W(i, 1) + 2 * u[2] * W(i, 2);
          }
          return s;
        }}},
      {"t_set_mask",
       {"item(sum(set(t, t > 1.0, u[1] * 2.0) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int i = 0; i < 6; ++i) {
            s += (t[i] > 1.0 ? 2 * u[1] : t[i]) * W(i / 3, i % 3);
          }
          return s;
        }}},
      {"t_add_at_int",
       {"item(sum(add_at(t, 0, u * t[1]) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int i = 0; i < 6; ++i) s += t[i] * W(i / 3, i % 3);
          for (int j = 0; j < 3; ++j) s += u[j] * t[3 + j] * W(0, j);
          return s;
        }}},
      {"t_add_at_tuple",
       {"item(sum(add_at(t, (1, 2), item(u[0]) * item(u[1])) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = u[0] * u[1] * W(1, 2);
          for (int i = 0; i < 6; ++i) s += t[i] * W(i / 3, i % 3);
          return s;
        }}},
      {"t_add_at_take",
       {"item(sum(add_at(t, tensor([1, 1, 0]), reshape(u, [1, 3]), axis: 1) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          // A repeated index accumulates: column 1 gets u0 + u1.
          double s = 0;
          for (int i = 0; i < 6; ++i) s += t[i] * W(i / 3, i % 3);
          for (int i = 0; i < 2; ++i) s += (u[0] + u[1]) * W(i, 1) + u[2] * W(i, 0);
          return s;
        }}},
      {"t_add_at_mask",
       {"item(sum(add_at(t, t < 1.0, u[2]) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int i = 0; i < 6; ++i) {
            s += (t[i] + (t[i] < 1.0 ? u[2] : 0.0)) * W(i / 3, i % 3);
          }
          return s;
        }}},
      {"t_matmul batch",
       {"item(sum(reshape(t, [2, 1, 3]) @ transpose(t))) + "
        "item(sum((stack([t, t * t]) @ reshape(u, [3, 1])) * tensor([[[1.0], [2.0]], [[3.0], "
        "[4.0]]]))) + item(sum(stack([t, t]) @ stack([transpose(t), transpose(t) * u[0]])))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          auto row = [&](int i, int k) { return t[i * 3 + k]; };
          double s = 0;
          // [2, 1, 3] @ [3, 2]: row i of t times t^T.
          for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
              for (int k = 0; k < 3; ++k) s += row(i, k) * row(j, k);
            }
          }
          // [2, 2, 3] @ [3, 1], weighted 1..4.
          for (int b = 0; b < 2; ++b) {
            for (int i = 0; i < 2; ++i) {
              double d = 0;
              for (int k = 0; k < 3; ++k) d += (b == 0 ? row(i, k) : row(i, k) * row(i, k)) * u[k];
              s += d * (1 + 2 * b + i);
            }
          }
          // [2, 2, 3] @ [2, 3, 2]: t t^T, then t (u0 t^T).
          for (int b = 0; b < 2; ++b) {
            for (int i = 0; i < 2; ++i) {
              for (int j = 0; j < 2; ++j) {
                for (int k = 0; k < 3; ++k) s += row(i, k) * row(j, k) * (b == 0 ? 1 : u[0]);
              }
            }
          }
          return s;
        }}},
      {"t_inv batch",
       {absl::StrCat("item(sum(inv(stack([", kSquare, ", ", kSquare, " * 1.5])) * stack([",
                     kWeights3, ", ", kWeights3, " * -1.0]))) + item(sum(det(stack([", kSquare,
                     ", ", kSquare, " @ ", kSquare, "]))))"),
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          const Matrix m = Square(t, u);
          Matrix eye = {1, 0, 0, 0, 1, 0, 0, 0, 1};
          Matrix m15 = m, mm(9, 0.0);
          for (double& x : m15) x *= 1.5;
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              for (int k = 0; k < 3; ++k) mm[i * 3 + j] += m[i * 3 + k] * m[k * 3 + j];
            }
          }
          return Weighted(SolveRef(m, eye, 3, 3), 3, 3) - Weighted(SolveRef(m15, eye, 3, 3), 3, 3) +
                 DetRef(m, 3) + DetRef(mm, 3);
        }}},
      {"t_cumprod",
       {"item(sum(cumprod(t * tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]])) * tensor([1.0, -2.0, "
        "3.0, 0.5, 1.5, -1.0]))) + item(sum(cumprod(u) * u))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          const double w[6] = {1, -2, 3, 0.5, 1.5, -1};
          double s = 0, run = 1;
          for (int i = 0; i < 6; ++i) s += (run *= (i == 1 ? 0.0 : t[i])) * w[i];
          run = 1;
          for (int i = 0; i < 3; ++i) s += (run *= u[i]) * u[i];
          return s;
        }}},
      {"t_cumprod_axis",
       {"item(sum(cumprod(t, axis: 1) * " W23 ")) + item(sum(cumprod(t, axis: 0) * " W23 "))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>&) {
          double s = 0;
          for (int i = 0; i < 2; ++i) {
            double run = 1;
            for (int j = 0; j < 3; ++j) s += (run *= t[i * 3 + j]) * W(i, j);
          }
          for (int j = 0; j < 3; ++j) s += t[j] * W(0, j) + t[j] * t[3 + j] * W(1, j);
          return s;
        }}},
      {"t_tensor",
       {"item(sum(tensor([[item(t[0, 1]), item(u[2]) * item(t[1, 0])]]) * tensor([[2.0, 3.0]])))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          return 2 * t[1] + 3 * u[2] * t[3];
        }}},
      {"t_bincount_weights",
       {"item(sum(bincount(tensor([0, 2, 2]), 3, weights: u * u) * tensor([1.0, 10.0, 100.0])))",
        {2, 3},
        {3},
        [](const std::vector<double>&, const std::vector<double>& u) {
          return u[0] * u[0] + 100 * (u[1] * u[1] + u[2] * u[2]);
        }}},
      {"t_full_f",
       {"item(sum(full([2, 3], item(u[1]) * 2.0) * t))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (double x : t) s += 2 * u[1] * x;
          return s;
        }}},
      {"t_linspace",
       {"item(sum(linspace(item(u[0]), item(u[2]) * 3.0, 4) * tensor([1.0, 2.0, 3.0, 4.0])))",
        {2, 3},
        {3},
        [](const std::vector<double>&, const std::vector<double>& u) {
          const double a = u[0], b = 3 * u[2];
          double s = 0;
          for (int i = 0; i < 4; ++i) s += (a + (b - a) * i / 3.0) * (i + 1);
          return s;
        }}},
      {"t_reduce_axis",
       {"item(sum(mean(t * t, axis: 0) * u)) + item(sum(sum(t, axis: 1)))",
        {2, 3},
        {3},
        [](const std::vector<double>& t, const std::vector<double>& u) {
          double s = 0;
          for (int j = 0; j < 3; ++j) {
            s += (t[j] * t[j] + t[3 + j] * t[3 + j]) / 2 * u[j];
          }
          for (double x : t) s += x;
          return s;
        }}},
  };
  return *cases;
}

#undef W23

}  // namespace alea::grad_testing
