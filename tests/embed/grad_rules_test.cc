// Every line of vm/grad_rules.def against central finite differences: the
// gradient `grad` computes at a few points, beside (f(x + h) - f(x - h)) /
// 2h of the same function run forward — the rules checked by evaluation,
// not by themselves. A rule added to the table without a case here fails
// RulesHaveCases.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "alea/compiler.h"
#include "alea/vm.h"
#include "gtest/gtest.h"
#include "tests/embed/embed_testing.h"
#include "tests/embed/grad_tensor_cases.h"

namespace alea {
namespace {

using grad_testing::TensorCases;

// One rule: the Alea expression in x and y that exercises it, and points
// (x, y) where it is differentiable.
struct RuleCase {
  std::string expr;
  std::vector<std::pair<double, double>> points;
};

const std::map<std::string, RuleCase>& Cases() {
  static const auto* cases = new std::map<std::string, RuleCase>{
      {"ADD_F", {"x + y", {{1.5, -2.0}}}},
      {"SUB_F", {"x - y", {{1.5, -2.0}}}},
      {"MUL_F", {"x * y", {{1.5, -2.0}, {0.0, 3.0}}}},
      {"DIV_F", {"x / y", {{1.5, -2.0}, {-3.0, 0.25}}}},
      {"REM_F", {"x % y", {{7.5, 2.0}, {-7.5, 2.0}}}},
      {"NEG_F", {"-x * y", {{1.5, 2.0}}}},
      {"exp", {"exp(x) * y", {{0.5, 1.0}, {-2.0, 3.0}}}},
      {"log", {"log(x) * y", {{0.5, 1.0}, {3.0, 2.0}}}},
      {"sqrt", {"sqrt(x) * y", {{0.5, 1.0}, {9.0, 2.0}}}},
      {"abs_f", {"abs(x) * y", {{0.5, 1.0}, {-3.0, 2.0}}}},
      {"f_sin", {"sin(x) * y", {{0.5, 1.0}}}},
      {"f_cos", {"cos(x) * y", {{0.5, 1.0}}}},
      {"f_tan", {"tan(x) * y", {{0.5, 1.0}}}},
      {"f_asin", {"asin(x) * y", {{0.5, 1.0}, {-0.3, 2.0}}}},
      {"f_acos", {"acos(x) * y", {{0.5, 1.0}, {-0.3, 2.0}}}},
      {"f_atan", {"atan(x) * y", {{0.5, 1.0}, {-3.0, 2.0}}}},
      {"f_sinh", {"sinh(x) * y", {{0.5, 1.0}}}},
      {"f_cosh", {"cosh(x) * y", {{0.5, 1.0}}}},
      {"f_tanh", {"tanh(x) * y", {{0.5, 1.0}, {-1.5, 2.0}}}},
      {"f_sigmoid", {"sigmoid(x) * y", {{0.5, 1.0}, {-1.5, 2.0}}}},
      {"f_relu", {"relu(x) * y", {{0.5, 1.0}, {-1.5, 2.0}}}},
      {"f_erf", {"erf(x) * y", {{0.5, 1.0}, {-1.5, 2.0}}}},
      {"f_erfc", {"erfc(x) * y", {{0.5, 1.0}, {-1.5, 2.0}}}},
      {"f_log1p", {"log1p(x) * y", {{0.5, 1.0}, {-0.5, 2.0}}}},
      {"f_expm1", {"expm1(x) * y", {{0.5, 1.0}, {-1.5, 2.0}}}},
      {"f_atan2", {"atan2(x, y)", {{0.5, 1.0}, {-1.5, -2.0}}}},
      {"f_hypot", {"hypot(x, y)", {{0.5, 1.0}, {-1.5, -2.0}}}},
      {"f_pow", {"pow(x, y)", {{1.5, 2.5}, {0.5, -1.5}}}},
      {"max_f", {"max(x, y) * 3.0", {{0.5, 1.0}, {2.0, -1.0}}}},
      {"min_f", {"min(x, y) * 3.0", {{0.5, 1.0}, {2.0, -1.0}}}},
      {"f_lgamma", {"lgamma(x) * y", {{0.5, 1.0}, {3.5, 2.0}, {-1.5, 1.0}, {25.0, 1.0}}}},
  };
  return *cases;
}

std::vector<std::string> RuleNames() {
  return {
#define ALEA_GRAD_OP(name, dx, dy) #name,
#define ALEA_GRAD_NATIVE(name, dx, dy) #name,
#define ALEA_GRAD_TENSOR_OP(name) #name,
#define ALEA_GRAD_TENSOR_NATIVE(name) #name,
#include "vm/grad_rules.def"
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_NATIVE
#undef ALEA_GRAD_TENSOR_OP
#undef ALEA_GRAD_TENSOR_NATIVE
  };
}

TEST(GradRules, RulesHaveCases) {
  for (const std::string& name : RuleNames()) {
    // DROPOUT has a test of its own (DropoutGradientIsTheForwardMask).
    EXPECT_TRUE(Cases().contains(name) || TensorCases().contains(name) || name == "DROPOUT")
        << "vm/grad_rules.def's " << name << " has no case here";
  }
}

TEST(GradRules, MatchCentralDifferences) {
  std::string source;
  int k = 0;
  for (const auto& [name, c] : Cases()) {
    absl::StrAppend(&source, "fn f", k, "(x: Float, y: Float) -> Float = ", c.expr, "\n", "fn g", k,
                    "(x: Float, y: Float) -> (Float, Float) = grad(|(x, y): (Float, ", "Float)| ",
                    c.expr, ")((x, y))\n");
    ++k;
  }
  StatusOr<Module> module = Compile(source, "grad_rules.alea");
  ASSERT_TRUE(module.ok()) << module.status();
  Vm vm;
  ASSERT_TRUE(vm.Load(*module).ok());
  const Signature forward{{Type::kFloat, Type::kFloat}, Type::kFloat};
  const Signature backward{{Type::kFloat, Type::kFloat}, Type::Tuple({Type::kFloat, Type::kFloat})};
  k = 0;
  for (const auto& [name, c] : Cases()) {
    Function f = embed_testing::FindOk(vm, absl::StrCat("f", k), forward);
    Function g = embed_testing::FindOk(vm, absl::StrCat("g", k), backward);
    ++k;
    auto at = [&](double x, double y) {
      StatusOr<Value> v = vm.Call(f, {Value::Float(x), Value::Float(y)});
      EXPECT_TRUE(v.ok()) << v.status();
      return v.ok() ? v->AsFloat() : NAN;
    };
    for (auto [x, y] : c.points) {
      StatusOr<Value> grad = vm.Call(g, {Value::Float(x), Value::Float(y)});
      ASSERT_TRUE(grad.ok()) << name << ": " << grad.status();
      const double dx = grad->AsTuple()[0].AsFloat();
      const double dy = grad->AsTuple()[1].AsFloat();
      const double hx = 1e-6 * std::max(1.0, std::abs(x));
      const double hy = 1e-6 * std::max(1.0, std::abs(y));
      const double fdx = (at(x + hx, y) - at(x - hx, y)) / (2 * hx);
      const double fdy = (at(x, y + hy) - at(x, y - hy)) / (2 * hy);
      EXPECT_NEAR(dx, fdx, 1e-6 * std::max(1.0, std::abs(fdx))) << name << " d/dx at " << x;
      EXPECT_NEAR(dy, fdy, 1e-6 * std::max(1.0, std::abs(fdy))) << name << " d/dy at " << y;
    }
  }
}

// The tensor rules in f32 against central differences of the double
// loss: each element of t and u moved by h, the loss computed again.
TEST(GradRules, TensorRulesMatchCentralDifferences) {
  std::string source;
  int k = 0;
  for (const auto& [name, c] : TensorCases()) {
    absl::StrAppend(&source, "fn g", k,
                    "(t: Tensor, u: Tensor) -> (Tensor, Tensor) = grad(|(t, u): ",
                    "(Tensor, Tensor)| ", c.expr, ")((t, u))\n");
    ++k;
  }
  StatusOr<Module> module = Compile(source, "grad_tensor_rules.alea");
  ASSERT_TRUE(module.ok()) << module.status();
  const Signature backward{{Type::kTensor, Type::kTensor},
                           Type::Tuple({Type::kTensor, Type::kTensor})};
  for (bool jit : {true, false}) {
    VmOptions options;
    options.jit = jit;
    Vm vm(options);
    ASSERT_TRUE(vm.Load(*module).ok());
    k = 0;
    for (const auto& [name, c] : TensorCases()) {
      Function g = embed_testing::FindOk(vm, absl::StrCat("g", k), backward);
      ++k;
      // Values away from the kinks (relu and abs at 0.6) and inside log's
      // and sqrt's domains.
      auto values = [](const std::vector<int64_t>& shape, double start) {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        std::vector<double> v;
        for (int64_t i = 0; i < n; ++i) v.push_back(start + 0.37 * static_cast<double>(i));
        return v;
      };
      std::vector<double> t = values(c.t_shape, 0.25), u = values(c.u_shape, 0.5);
      auto floats = [](const std::vector<double>& v) {
        return std::vector<float>(v.begin(), v.end());
      };
      // The loss of the f32-rounded inputs, as Alea sees them.
      for (double& x : t) x = static_cast<float>(x);
      for (double& x : u) x = static_cast<float>(x);
      StatusOr<Value> grad =
          vm.Call(g, {Tensor::Copy(floats(t), c.t_shape), Tensor::Copy(floats(u), c.u_shape)});
      ASSERT_TRUE(grad.ok()) << name << ": " << grad.status();
      for (int which = 0; which < 2; ++which) {
        std::vector<double>& v = which == 0 ? t : u;
        std::span<const float> got = grad->AsTuple()[which].AsTensor().floats();
        ASSERT_EQ(got.size(), v.size()) << name;
        for (size_t i = 0; i < v.size(); ++i) {
          const double keep = v[i];
          const double h = 1e-6 * std::max(1.0, std::abs(keep));
          v[i] = keep + h;
          const double up = c.loss(t, u);
          v[i] = keep - h;
          const double down = c.loss(t, u);
          v[i] = keep;
          const double want = (up - down) / (2 * h);
          EXPECT_NEAR(got[i], want, 1e-4 * std::max(1.0, std::abs(want)))
              << name << (which == 0 ? " d/dt[" : " d/du[") << i << "]" << (jit ? "" : " --no-jit");
        }
      }
    }
  }
}

// Dropout's gradient is its mask: the loss is linear in t, so moving one
// element by 1 changes the loss by exactly that element's gradient (the
// forward pass, run again, is the reference).
TEST(GradRules, DropoutGradientIsTheForwardMask) {
  StatusOr<Module> module = Compile(R"(
fn f(t: Tensor, u: Tensor) -> Float = item(sum(dropout(key(3), t, 0.25) * u))
fn g(t: Tensor, u: Tensor) -> Tensor = grad(f)(t, u)
)",
                                    "dropout.alea");
  ASSERT_TRUE(module.ok()) << module.status();
  Vm vm;
  ASSERT_TRUE(vm.Load(*module).ok());
  Function f = embed_testing::FindOk(vm, "f", {{Type::kTensor, Type::kTensor}, Type::kFloat});
  Function g = embed_testing::FindOk(vm, "g", {{Type::kTensor, Type::kTensor}, Type::kTensor});
  std::vector<float> t(16, 0.0f), u;
  for (int i = 0; i < 16; ++i) u.push_back(0.5f + 0.25f * static_cast<float>(i));
  StatusOr<Value> grad = vm.Call(g, {Tensor::Copy(t, {16}), Tensor::Copy(u, {16})});
  ASSERT_TRUE(grad.ok()) << grad.status();
  std::span<const float> got = grad->AsTensor().floats();
  int kept = 0;
  for (int i = 0; i < 16; ++i) {
    std::vector<float> moved = t;
    moved[static_cast<size_t>(i)] = 1.0f;
    StatusOr<Value> up = vm.Call(f, {Tensor::Copy(moved, {16}), Tensor::Copy(u, {16})});
    ASSERT_TRUE(up.ok()) << up.status();
    EXPECT_NEAR(got[static_cast<size_t>(i)], up->AsFloat(), 1e-6) << i;
    kept += got[static_cast<size_t>(i)] != 0.0f;
  }
  EXPECT_GT(kept, 4);  // a mask, not all zeros nor all kept
  EXPECT_LT(kept, 16);
}

}  // namespace
}  // namespace alea
