// vm/utf8.h: which byte sequences are one well-formed character.
#include "vm/utf8.h"

#include <gtest/gtest.h>

#include <string_view>

namespace alea::vm {
namespace {

using namespace std::string_view_literals;

TEST(Utf8Test, LengthsOfWellFormedCharacters) {
  EXPECT_EQ(Utf8SequenceLength("a", 0), 1u);
  EXPECT_EQ(Utf8SequenceLength("\0"sv, 0), 1u);
  EXPECT_EQ(Utf8SequenceLength("\xc3\xa9", 0), 2u);          // é
  EXPECT_EQ(Utf8SequenceLength("\xe2\x82\xac", 0), 3u);      // €
  EXPECT_EQ(Utf8SequenceLength("\xf0\x9f\x8e\xb2", 0), 4u);  // a die, U+1F3B2
  EXPECT_EQ(Utf8SequenceLength("\xf4\x8f\xbf\xbf", 0), 4u);  // U+10FFFF
  EXPECT_EQ(Utf8SequenceLength("\xed\x9f\xbf", 0), 3u);      // U+D7FF, below the surrogates
}

TEST(Utf8Test, CodePointsOfWellFormedCharacters) {
  EXPECT_EQ(Utf8CodePoint("a", 0, 1), U'a');
  EXPECT_EQ(Utf8CodePoint("x\xc3\xa9", 1, 2), U'\u00e9');
  EXPECT_EQ(Utf8CodePoint("\xe2\x82\xac", 0, 3), U'\u20ac');
  EXPECT_EQ(Utf8CodePoint("\xf0\x9f\x8e\xb2", 0, 4), U'\U0001F3B2');
  EXPECT_EQ(Utf8CodePoint("\xf4\x8f\xbf\xbf", 0, 4), U'\U0010FFFF');
  EXPECT_EQ(Utf8CodePoint("\xef\xbf\xbe", 0, 3), char32_t{0xFFFE});
}

TEST(Utf8Test, IllFormedSequencesStartNoCharacter) {
  EXPECT_EQ(Utf8SequenceLength("\x80", 0), 0u);              // a lone continuation byte
  EXPECT_EQ(Utf8SequenceLength("\xe9 ", 0), 0u);             // Latin-1 é
  EXPECT_EQ(Utf8SequenceLength("\xc3", 0), 0u);              // cut short
  EXPECT_EQ(Utf8SequenceLength("\xe2\x82", 0), 0u);          // cut short
  EXPECT_EQ(Utf8SequenceLength("\xc0\xaf", 0), 0u);          // overlong '/'
  EXPECT_EQ(Utf8SequenceLength("\xe0\x80\xaf", 0), 0u);      // overlong '/'
  EXPECT_EQ(Utf8SequenceLength("\xf0\x80\x80\xaf", 0), 0u);  // overlong '/'
  EXPECT_EQ(Utf8SequenceLength("\xed\xa0\x80", 0), 0u);      // a surrogate, U+D800
  EXPECT_EQ(Utf8SequenceLength("\xf4\x90\x80\x80", 0), 0u);  // past U+10FFFF
  EXPECT_EQ(Utf8SequenceLength("\xf5\x80\x80\x80", 0), 0u);
  EXPECT_EQ(Utf8SequenceLength("\xff", 0), 0u);
  EXPECT_EQ(Utf8SequenceLength("\xc3\x28", 0), 0u);  // second byte no continuation
}

TEST(Utf8Test, FirstInvalidByte) {
  EXPECT_EQ(FirstInvalidUtf8(""), 0u);
  EXPECT_EQ(FirstInvalidUtf8("caf\xc3\xa9"), 5u);  // all of it
  EXPECT_EQ(FirstInvalidUtf8("caf\xe9"), 3u);
  EXPECT_EQ(FirstInvalidUtf8("\xe2\x82\xac\xe2\x82"), 3u);
  EXPECT_EQ(FirstInvalidUtf8("a\0\xff"sv), 2u);
}

}  // namespace
}  // namespace alea::vm
