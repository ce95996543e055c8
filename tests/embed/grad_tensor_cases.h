// The tensor rules' cases of grad_rules_test.cc (grad_tensor_cases.cc).
#ifndef ALEA_TESTS_EMBED_GRAD_TENSOR_CASES_H_
#define ALEA_TESTS_EMBED_GRAD_TENSOR_CASES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace alea::grad_testing {

// A tensor rule: a loss of t (shape t_shape) and u (u_shape) written in
// Alea, and the same loss in double precision (the reference evaluator).
struct TensorCase {
  std::string expr;
  std::vector<int64_t> t_shape, u_shape;
  std::function<double(const std::vector<double>&, const std::vector<double>&)> loss;
};

// By rule name (a name with a suffix after a space is another case of
// the same rule).
const std::map<std::string, TensorCase>& TensorCases();

}  // namespace alea::grad_testing

#endif  // ALEA_TESTS_EMBED_GRAD_TENSOR_CASES_H_
