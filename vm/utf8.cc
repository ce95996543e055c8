// Well-formed UTF-8: see utf8.h.
#include "vm/utf8.h"

namespace alea::vm {

size_t Utf8SequenceLength(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length;
  // The second byte's range is narrower after some leads: E0 and F0 would
  // otherwise allow overlong forms, ED the surrogates, F4 code points past
  // U+10FFFF.
  unsigned char lo = 0x80, hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) lo = 0xA0;
    if (lead == 0xED) hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

char32_t Utf8CodePoint(std::string_view text, size_t i, size_t length) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (length <= 1) return lead;
  // The lead keeps 7 - length bits, each following byte 6.
  char32_t code = lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k)
    code = code << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  return code;
}

size_t FirstInvalidUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) return i;
    i += n;
  }
  return i;
}

}  // namespace alea::vm
