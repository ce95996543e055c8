#include "vm/float_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace alea::vm {
namespace {

// Where the digit generation may stop, as NumPy's Dragon4 CutoffMode says:
// counted in digits after the decimal point, or after the first digit.
enum class Cutoff { kFraction, kTotal };

// A decimal digit sequence: value = 0.d1 d2 ... dn * 10^(exp10 + 1), i.e.
// d1 has weight 10^exp10. No trailing zeros; "0" for zero.
struct Digits {
  std::string digits;
  int exp10 = 0;
};

// Little-endian base-10 big integer, enough for the exact value of any
// float32 (at most ~110 significant digits); simple beats fast here.
using BigDec = std::vector<uint8_t>;

void MulSmall(BigDec* n, uint64_t factor) {
  uint64_t carry = 0;
  for (uint8_t& d : *n) {
    uint64_t t = d * factor + carry;
    d = static_cast<uint8_t>(t % 10);
    carry = t / 10;
  }
  while (carry != 0) {
    n->push_back(static_cast<uint8_t>(carry % 10));
    carry /= 10;
  }
}

// base^exp, multiplying in chunks that keep every product within 64 bits.
BigDec Power(uint64_t base, int exp) {
  BigDec n = {1};
  const int chunk = base == 2 ? 30 : 13;  // 2^30 and 5^13 fit in 32 bits
  while (exp > 0) {
    int k = std::min(exp, chunk);
    uint64_t f = 1;
    for (int i = 0; i < k; ++i) f *= base;
    MulSmall(&n, f);
    exp -= k;
  }
  return n;
}

// `factor * scale` as big-endian ASCII digits, left-padded with zeros to `width`.
std::string ToPadded(BigDec n, uint64_t factor, size_t width) {
  MulSmall(&n, factor);
  while (n.size() > 1 && n.back() == 0) n.pop_back();
  std::string s(width - std::min(width, n.size()), '0');
  for (size_t i = n.size(); i-- > 0;) s.push_back(static_cast<char>('0' + n[i]));
  return s;
}

// Compares the first k+1 digits of a and b (equal-length strings).
int ComparePrefix(const std::string& a, const std::string& b, size_t k) {
  return a.compare(0, k + 1, b, 0, k + 1);
}

bool AllZeroFrom(const std::string& s, size_t i) {
  return std::all_of(s.begin() + std::min(i, s.size()), s.end(), [](char c) { return c == '0'; });
}

// Sign of (the digits of v after index k) - (half a unit at index k).
int CompareRestWithHalf(const std::string& v, size_t k) {
  if (k + 1 >= v.size()) return -1;
  if (v[k + 1] != '5') return v[k + 1] < '5' ? -1 : 1;
  return AllZeroFrom(v, k + 2) ? 0 : 1;
}

// NumPy's Dragon4 in unique mode for |x|: digits are generated from the most
// significant one until the truncated or the rounded-up value lies inside the
// rounding interval of x (bounds included for an even mantissa), or until the
// cutoff digit; digits before the min_digits position never stop it. The last
// digit then rounds to nearest with ties to even on the exact value. Indices
// below are into equal-width decimal strings of low bound, value and high
// bound, all scaled by the same power of ten.
Digits GenerateDigits(float x, Cutoff mode, int precision, int min_digits) {
  const uint32_t bits = std::bit_cast<uint32_t>(x) & 0x7fffffffu;
  const uint32_t biased = bits >> 23;
  const uint32_t fraction = bits & 0x7fffffu;
  if (bits == 0) return {"0", 0};
  const uint64_t mantissa = biased == 0 ? fraction : (fraction | 0x800000u);
  const int e = biased == 0 ? -149 : static_cast<int>(biased) - 150;
  // At a power of two the float below is half as far away as the one above.
  const bool unequal = fraction == 0 && biased > 1;
  // In units of 2^(e-2): the value and both rounding bounds are integers.
  const uint64_t v4 = 4 * mantissa;
  const uint64_t hi4 = v4 + 2;
  const uint64_t lo4 = v4 - (unequal ? 1 : 2);
  // A bound is itself acceptable when reading it back (round half to even)
  // gives x, i.e. when x's mantissa is even; NumPy 1.24 agrees (checked
  // against it on every float32 in [2^29, 2^29 + 2^18)).
  const bool inclusive = mantissa % 2 == 0;
  const int q = e - 2;
  const BigDec scale = q >= 0 ? Power(2, q) : Power(5, -q);
  const int shift10 = q >= 0 ? 0 : -q;  // value = integer * 10^-shift10
  // One spare leading zero so that rounding up never needs a longer string.
  const size_t width = ToPadded(scale, hi4, 0).size() + 1;
  const std::string v = ToPadded(scale, v4, width);
  const std::string hi = ToPadded(scale, hi4, width);
  const std::string lo = ToPadded(scale, lo4, width);
  const int n = static_cast<int>(width);
  // Digit index i has weight 10^(n - 1 - i - shift10).
  auto index_of_weight = [&](int w) { return n - 1 - shift10 - w; };
  const int first = static_cast<int>(v.find_first_not_of('0'));
  const int kNone = 1 << 30;
  int cutoff = kNone;
  int min_index = -1;
  if (precision >= 0) {
    cutoff = mode == Cutoff::kFraction ? index_of_weight(-precision) : first + precision;
  }
  if (min_digits >= 0) {
    min_index = mode == Cutoff::kFraction ? index_of_weight(-min_digits) : first + min_digits;
  }
  int k = first;
  bool low = false;
  bool high = false;
  if (cutoff < 1) return {"0", 0};  // rounds to zero at the cutoff digit
  if (cutoff < first) {
    // Everything printable is above the first digit: round the whole value.
    k = cutoff;
  } else {
    for (;; ++k) {
      int cl = ComparePrefix(v, lo, k);
      low = cl > 0 || (cl == 0 && inclusive && AllZeroFrom(lo, k + 1));
      // trunc + unit < hi: add one at index k to the truncation.
      std::string up = v.substr(0, k + 1);
      int j = k;
      while (up[j] == '9') up[j--] = '0';
      ++up[j];
      int c = ComparePrefix(up, hi, k);
      high = c < 0 || (c == 0 && (inclusive || !AllZeroFrom(hi, k + 1)));
      if (((low || high) && k >= min_index) || k == cutoff || k == n - 1) break;
    }
  }
  bool round_down = low;
  if (low == high) {
    int c = CompareRestWithHalf(v, k);
    round_down = c < 0 || (c == 0 && (v[k] - '0') % 2 == 0);
  }
  std::string kept = v.substr(0, k + 1);
  if (!round_down) {
    int j = k;
    while (kept[j] == '9') kept[j--] = '0';
    ++kept[j];
  }
  const size_t lead = kept.find_first_not_of('0');
  if (lead == std::string::npos) return {"0", 0};
  Digits out;
  out.exp10 = n - 1 - static_cast<int>(lead) - shift10;
  out.digits = kept.substr(lead);
  while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
  return out;
}

// The trailing steps shared by both notations: trims or pads the fraction.
void FinishFraction(std::string* s, int* fraction_digits, int min_digits, FloatTrim trim) {
  if (trim != FloatTrim::kDptZeros && *fraction_digits == 0) s->push_back('.');
  if (trim == FloatTrim::kLeaveOneZero && *fraction_digits == 0) {
    s->push_back('0');
    ++*fraction_digits;
  } else if (trim == FloatTrim::kKeep) {
    while (*fraction_digits < min_digits) {
      s->push_back('0');
      ++*fraction_digits;
    }
  }
}

}  // namespace

std::string FormatF32Positional(float x, int precision, int min_digits, FloatTrim trim,
                                int pad_left, int pad_right) {
  const Digits d = GenerateDigits(x, Cutoff::kFraction, precision, min_digits);
  const bool negative = std::signbit(x);
  std::string s = negative ? "-" : "";
  int whole = 0;
  int fraction_digits = 0;
  const int ndigits = static_cast<int>(d.digits.size());
  if (d.exp10 >= 0) {
    for (int i = 0; i <= d.exp10; ++i) s.push_back(i < ndigits ? d.digits[i] : '0');
    whole = d.exp10 + 1;
    if (ndigits > whole) {
      s.push_back('.');
      s.append(d.digits, whole, std::string::npos);
      fraction_digits = ndigits - whole;
    }
  } else {
    s += "0.";
    s.append(-d.exp10 - 1, '0');
    s += d.digits;
    whole = 1;
    fraction_digits = -d.exp10 - 1 + ndigits;
  }
  // Zero is "0" with no fraction: keep the shape the other cases have.
  if (d.digits == "0") fraction_digits = 0;
  FinishFraction(&s, &fraction_digits, min_digits, trim);
  if (pad_right > fraction_digits) {
    int count = pad_right - fraction_digits;
    if (trim == FloatTrim::kDptZeros && fraction_digits == 0) ++count;  // the missing '.'
    s.append(count, ' ');
  }
  const int left = whole + (negative ? 1 : 0);
  if (pad_left > left) s.insert(0, pad_left - left, ' ');
  return s;
}

std::string FormatF32Scientific(float x, int precision, int min_digits, FloatTrim trim,
                                int pad_left, int exp_digits) {
  const Digits d = GenerateDigits(x, Cutoff::kTotal, precision, min_digits);
  const bool negative = std::signbit(x);
  std::string s = negative ? "-" : "";
  s.push_back(d.digits[0]);
  int fraction_digits = static_cast<int>(d.digits.size()) - 1;
  if (fraction_digits > 0) {
    s.push_back('.');
    s.append(d.digits, 1, std::string::npos);
  }
  FinishFraction(&s, &fraction_digits, min_digits, trim);
  const int exp = d.digits == "0" ? 0 : d.exp10;
  s.push_back('e');
  s.push_back(exp < 0 ? '-' : '+');
  std::string e = std::to_string(exp < 0 ? -exp : exp);
  const int width = std::max(exp_digits, 2);
  if (static_cast<int>(e.size()) < width) e.insert(0, width - e.size(), '0');
  s += e;
  const int left = 1 + (negative ? 1 : 0);
  if (pad_left > left) s.insert(0, pad_left - left, ' ');
  return s;
}

}  // namespace alea::vm
