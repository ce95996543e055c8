// Choices drawn from a fuzzer's bytes, front to back: a fuzzer that flips a
// byte changes one choice, and an input that runs out reads zeros, so every
// input means something. (libFuzzer's FuzzedDataProvider does this too, but
// it is a clang header and these targets also build with g++.)
#ifndef ALEA_FUZZ_FUZZ_INPUT_H_
#define ALEA_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace alea::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool Bool() { return (Byte() & 1) != 0; }
  // A number in [0, n), n >= 1.
  uint32_t Below(uint32_t n) {
    const uint32_t v = n <= 256 ? Byte() : (uint32_t{Byte()} << 8 | Byte());
    return v % n;
  }
  uint64_t U64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | Byte();
    return v;
  }
  // Small numbers mostly, the edges of int64 sometimes.
  int64_t Int() {
    switch (Byte() % 4) {
      case 0:
        return static_cast<int8_t>(Byte());
      case 1:
        return static_cast<int64_t>(U64());
      case 2:
        return Bool() ? INT64_MIN : INT64_MAX;
      default:
        return static_cast<int16_t>(Byte() << 8 | Byte());
    }
  }
  double Float() {
    const uint64_t bits = U64();
    if (Bool()) return static_cast<double>(static_cast<int8_t>(bits)) / 4;  // plain values
    double d;
    std::memcpy(&d, &bits, sizeof d);  // any bits: NaNs, infinities, subnormals
    return d;
  }
  std::string Str() {
    const size_t n = Below(12);
    std::string s;
    for (size_t i = 0; i < n; ++i) s += static_cast<char>(Byte());
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace alea::fuzz

#endif  // ALEA_FUZZ_FUZZ_INPUT_H_
