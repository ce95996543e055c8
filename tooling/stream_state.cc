#include "tooling/stream_state.h"

#include <limits>

#include "absl/strings/str_cat.h"

namespace alea::tooling {
namespace {

// An Int literal for any int64: the lexer reads digits up to 2^63 - 1, so the
// most negative value is written as a difference.
std::string IntLiteral(int64_t n) {
  if (n == std::numeric_limits<int64_t>::min()) return "(-9223372036854775807 - 1)";
  if (n < 0) return absl::StrCat("(", n, ")");
  return absl::StrCat(n);
}

}  // namespace

std::string WithStreamState(int64_t seed, int64_t index) {
  return absl::StrCat("with fold_in(key(", IntLiteral(seed), "), ", IntLiteral(index), ") { ");
}

}  // namespace alea::tooling
