// Helpers the embedding tests share.
#ifndef ALEA_TESTS_EMBED_EMBED_TESTING_H_
#define ALEA_TESTS_EMBED_EMBED_TESTING_H_

#include <string_view>

#include "alea/vm.h"
#include "gtest/gtest.h"

namespace alea::embed_testing {

// The function `name` of `vm`'s module with `signature`; a look-up failure
// fails the test (and gives an empty Function, which Call refuses).
inline Function FindOk(const Vm& vm, std::string_view name, const Signature& signature) {
  alea::StatusOr<Function> f = vm.Find(name, signature);
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? *f : Function();
}

}  // namespace alea::embed_testing

#endif  // ALEA_TESTS_EMBED_EMBED_TESTING_H_
