// Terminal columns of UTF-8 text (vm/text_width.h), what plots line up by.
#include "vm/text_width.h"

#include <string>

#include "gtest/gtest.h"

namespace alea::vm {
namespace {

TEST(TextWidth, OneColumnPerNarrowCharacter) {
  EXPECT_EQ(TextWidth(""), 0);
  EXPECT_EQ(TextWidth("hist"), 4);
  EXPECT_EQ(TextWidth("└──┬─"), 5);  // box drawing
  EXPECT_EQ(TextWidth("▁▂█⠿"), 4);   // blocks and braille
  EXPECT_EQ(TextWidth("µ σ²"), 4);
}

TEST(TextWidth, WideCharactersTakeTwo) {
  EXPECT_EQ(TextWidth("正态分布"), 8);
  EXPECT_EQ(TextWidth("한국어"), 6);
  EXPECT_EQ(TextWidth("ｘｙ"), 4);  // fullwidth forms
  EXPECT_EQ(TextWidth("a🎲b"), 4);
  EXPECT_EQ(TextWidth("𠀋"), 2);  // beyond the BMP
}

TEST(TextWidth, CombiningMarksTakeNone) {
  EXPECT_EQ(TextWidth("e\u0301"), 1);   // e + combining acute
  EXPECT_EQ(TextWidth("a\u200Bb"), 2);  // zero-width space
}

TEST(TextWidth, MalformedBytesCountOneEach) {
  EXPECT_EQ(TextWidth("\xff\xfe"), 2);
  EXPECT_EQ(TextWidth("\xe6\xad"), 2);  // a cut 3-byte sequence
  EXPECT_EQ(TextWidth("a\xe6x"), 3);    // a lead byte without its followers
  EXPECT_EQ(TextWidth("\x80\x80\x80"), 3);
}

TEST(FitWidth, TextThatFitsIsUnchanged) {
  EXPECT_EQ(FitWidth("title", 5), "title");
  EXPECT_EQ(FitWidth("正态", 4), "正态");
  EXPECT_EQ(FitWidth("", 0), "");
}

TEST(FitWidth, LongerTextEndsInAnEllipsis) {
  EXPECT_EQ(FitWidth("a long title", 6), "a lon…");
  EXPECT_EQ(TextWidth(FitWidth("a long title", 6)), 6);
  EXPECT_EQ(FitWidth("abc", 1), "…");
  EXPECT_EQ(FitWidth("abc", 0), "");
  EXPECT_EQ(FitWidth("abc", -3), "");
}

TEST(FitWidth, NeverSplitsACharacter) {
  // 4 columns: one wide character and the ellipsis, the second would
  // overflow.
  EXPECT_EQ(FitWidth("正态分布", 4), "正…");
  EXPECT_EQ(FitWidth("正态分布", 5), "正态…");
  EXPECT_EQ(FitWidth("e\u0301e\u0301e\u0301", 2), "e\u0301…");  // the mark stays
  EXPECT_EQ(FitWidth("▁▂▃▄", 3), "▁▂…");
}

}  // namespace
}  // namespace alea::vm
