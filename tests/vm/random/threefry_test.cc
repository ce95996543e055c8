#include "vm/random/threefry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "tests/vm/random/vectors.h"

namespace alea::vm::random {
namespace {

using testing::ReadLines;

struct KatLine {
  int rounds;
  uint32_t x0, x1, k0, k1, y0, y1;
};

// Every threefry2x32 line of Random123's kat_vectors: `name rounds ctr ctr key key out out`.
std::vector<KatLine> Threefry2x32Kat() {
  std::vector<KatLine> out;
  for (const std::string& line : ReadLines("random123_kat.txt")) {
    std::istringstream in(line);
    std::string name;
    in >> name;
    if (name != "threefry2x32") continue;
    KatLine k;
    in >> k.rounds >> std::hex >> k.x0 >> k.x1 >> k.k0 >> k.k1 >> k.y0 >> k.y1;
    EXPECT_FALSE(in.fail()) << line;
    out.push_back(k);
  }
  return out;
}

TEST(Threefry, Random123KnownAnswers20Rounds) {
  int checked = 0;
  for (const KatLine& k : Threefry2x32Kat()) {
    if (k.rounds != 20) continue;
    const auto [y0, y1] = Threefry2x32(k.k0, k.k1, k.x0, k.x1);
    EXPECT_EQ(y0, k.y0) << std::hex << "ctr " << k.x0 << " " << k.x1;
    EXPECT_EQ(y1, k.y1) << std::hex << "ctr " << k.x0 << " " << k.x1;
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

// The 13- and 32-round lines check the round and key-injection structure
// beyond the 20 rounds Alea uses.
TEST(Threefry, Random123KnownAnswersOtherRounds) {
  int checked = 0;
  for (const KatLine& k : Threefry2x32Kat()) {
    if (k.rounds == 20) continue;
    const auto [y0, y1] = Threefry2x32Rounds(k.rounds, k.k0, k.k1, k.x0, k.x1);
    EXPECT_EQ(y0, k.y0) << k.rounds << " rounds";
    EXPECT_EQ(y1, k.y1) << k.rounds << " rounds";
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

// JAX's own binding of the same vectors (tests/random_impl_test.py, group B of sources.txt):
// `threefry2x32_p key=K0,K1 ctr=X0,X1 -> Y0,Y1`, in hex.
TEST(Threefry, JaxPrimitiveVectors) {
  int checked = 0;
  for (const char* key : {"00000000,00000000", "FFFFFFFF,FFFFFFFF", "13198A2E,03707344"}) {
    const std::string prefix = std::string("threefry2x32_p key=") + key;
    for (const std::string& line : ReadLines("sources.txt")) {
      if (line.rfind(prefix, 0) != 0) continue;
      uint32_t w[6];
      ASSERT_EQ(std::sscanf(line.c_str(), "threefry2x32_p key=%x,%x ctr=%x,%x -> %x,%x", &w[0],
                            &w[1], &w[2], &w[3], &w[4], &w[5]),
                6)
          << line;
      const auto [y0, y1] = Threefry2x32(w[0], w[1], w[2], w[3]);
      EXPECT_EQ(y0, w[4]) << line;
      EXPECT_EQ(y1, w[5]) << line;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}

TEST(Threefry, BlockMatchesScalar) {
  std::vector<uint32_t> x0(37), x1(37), y0(37), y1(37);
  for (uint32_t i = 0; i < 37; ++i) {
    x0[i] = i * 2654435761u;
    x1[i] = ~i;
  }
  Threefry2x32Block(0x13198a2e, 0x03707344, x0.data(), x1.data(), y0.data(), y1.data(), 37);
  for (size_t i = 0; i < 37; ++i) {
    const auto [a, b] = Threefry2x32(0x13198a2e, 0x03707344, x0[i], x1[i]);
    EXPECT_EQ(y0[i], a);
    EXPECT_EQ(y1[i], b);
  }
  // In place, and zero counters (nothing written).
  Threefry2x32Block(1, 2, x0.data(), x1.data(), x0.data(), x1.data(), 37);
  EXPECT_EQ(x0[5], Threefry2x32(1, 2, 5 * 2654435761u, ~5u).first);
  Threefry2x32Block(1, 2, nullptr, nullptr, nullptr, nullptr, 0);
}

}  // namespace
}  // namespace alea::vm::random
