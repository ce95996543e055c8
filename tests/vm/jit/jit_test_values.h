// What the JIT tests share: f32 bit patterns that stress kernels (NaN
// payloads, signalling NaNs, infinities, signed zeros, subnormals,
// extremes), sentinels for "wrote past the end", and the ISA parameter.
#ifndef ALEA_TESTS_VM_JIT_JIT_TEST_VALUES_H_
#define ALEA_TESTS_VM_JIT_JIT_TEST_VALUES_H_

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>

#include "vm/jit/jit.h"

namespace alea::vm::jit::testing_values {

inline uint32_t Bits(float x) { return std::bit_cast<uint32_t>(x); }
inline float FromBits(uint32_t b) { return std::bit_cast<float>(b); }

// A signalling NaN no kernel produces: found after an output, it was not written.
inline constexpr uint32_t kSentinelBits = 0x7fbadbadu;

inline constexpr uint32_t kSpecial[] = {
    0x00000000, 0x80000000,                          // +-0
    0x7f800000, 0xff800000,                          // +-inf
    0x7fc00000, 0xffc00000, 0x7fc12345, 0xffd54321,  // quiet NaNs, payloads
    0x7f800001, 0xff812345, 0x7fbfffff,              // signalling NaNs
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff,  // subnormals
    0x00400000, 0x00800000, 0x80800000,              // subnormal, +-FLT_MIN
    0x7f7fffff, 0xff7fffff,                          // +-FLT_MAX
    0x3f800000, 0xbf800000, 0x40000000, 0x3f000000,  // 1 -1 2 0.5
};

inline const char* Name(Isa isa) { return isa == Isa::kAvx512 ? "avx512" : "avx2"; }

// For INSTANTIATE_TEST_SUITE_P(Isas, Suite, kBothIsas, IsaParamName).
inline const auto kBothIsas = ::testing::Values(Isa::kAvx2, Isa::kAvx512);
inline std::string IsaParamName(const ::testing::TestParamInfo<Isa>& info) {
  return Name(info.param);
}

}  // namespace alea::vm::jit::testing_values

#endif  // ALEA_TESTS_VM_JIT_JIT_TEST_VALUES_H_
