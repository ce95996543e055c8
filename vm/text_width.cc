#include "vm/text_width.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "vm/utf8.h"

namespace alea::vm {
namespace {

struct Range {
  char32_t lo, hi;
};

// Unicode's East Asian Wide and Fullwidth blocks, as terminals draw them
// (the major blocks; a terminal's own table may differ at the edges).
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F5},   {0x26FA, 0x26FD},
    {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},   {0x274C, 0x274C},
    {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},
    {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},
    {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
    {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
    {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},
    {0x16FE0, 0x16FE4}, {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004},
    {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
    {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF},
    {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

// Combining marks and zero-width characters: drawn on the one before.
constexpr Range kZero[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD},   {0x0610, 0x061A}, {0x064B, 0x065F},
    {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064},   {0x20D0, 0x20FF}, {0xFE00, 0xFE0F},
    {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

template <size_t N>
bool In(const Range (&table)[N], char32_t c) {
  const Range* it = std::upper_bound(std::begin(table), std::end(table), c,
                                     [](char32_t v, const Range& r) { return v < r.lo; });
  return it != std::begin(table) && c <= std::prev(it)->hi;
}

// The code point starting at text[i] and its length in bytes; a byte that
// starts no well-formed sequence is a code point of its own (its value,
// which no table holds, one column).
char32_t Decode(std::string_view text, size_t i, size_t* length) {
  const size_t n = Utf8SequenceLength(text, i);
  *length = n == 0 ? 1 : n;
  return n == 0 ? static_cast<unsigned char>(text[i]) : Utf8CodePoint(text, i, n);
}

int Columns(char32_t c) {
  if (In(kZero, c)) return 0;
  return In(kWide, c) ? 2 : 1;
}

}  // namespace

int TextWidth(std::string_view text) {
  int width = 0;
  for (size_t i = 0, n = 0; i < text.size(); i += n) width += Columns(Decode(text, i, &n));
  return width;
}

std::string FitWidth(std::string_view text, int columns) {
  if (TextWidth(text) <= columns) return std::string(text);
  if (columns <= 0) return std::string();
  // Room for the ellipsis, one column.
  int used = 0;
  size_t end = 0;
  for (size_t n = 0; end < text.size(); end += n) {
    const int w = Columns(Decode(text, end, &n));
    if (used + w > columns - 1) break;
    used += w;
  }
  return std::string(text.substr(0, end)) + "…";
}

}  // namespace alea::vm
