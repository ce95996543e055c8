// Every line of vm/grad_rules.def against central finite differences: the
// gradient `grad` computes at a few points, beside (f(x + h) - f(x - h)) /
// 2h of the same function run forward — the rules checked by evaluation,
// not by themselves. A rule added to the table without a case here fails
// RulesHaveCases.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "alea/compiler.h"
#include "alea/vm.h"
#include "gtest/gtest.h"
#include "tests/embed/embed_testing.h"

namespace alea {
namespace {

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
  };
  return *cases;
}

std::vector<std::string> RuleNames() {
  return {
#define ALEA_GRAD_OP(name, dx, dy) #name,
#define ALEA_GRAD_NATIVE(name, dx, dy) #name,
#include "vm/grad_rules.def"
#undef ALEA_GRAD_OP
#undef ALEA_GRAD_NATIVE
  };
}

TEST(GradRules, RulesHaveCases) {
  for (const std::string& name : RuleNames()) {
    EXPECT_TRUE(Cases().contains(name)) << "vm/grad_rules.def's " << name << " has no case here";
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

}  // namespace
}  // namespace alea
