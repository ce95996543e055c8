// `progress`'s bar (vm/progress.h): what it draws, when, and how wide.
#include "vm/progress.h"

#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace alea::vm {
namespace {

// Columns a line takes: its code points, less the leading "\r" and a
// trailing newline.
int Columns(const std::string& line) {
  int n = 0;
  for (unsigned char c : line) n += (c & 0xC0) != 0x80 && c != '\r' && c != '\n';
  return n;
}

TEST(ProgressBar, DrawsTheFirstStepAndThrottlesTheRest) {
  ProgressBar bar;
  std::optional<std::string> first = bar.Update(0, 100, 10.0, 80);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->rfind("\r  1% |", 0), 0u) << *first;
  EXPECT_NE(first->find("| 1/100 [00:00<?, ? it/s]"), std::string::npos) << *first;
  EXPECT_FALSE(bar.Update(1, 100, 10.05, 80).has_value()) << "within a tenth of a second";
  std::optional<std::string> later = bar.Update(2, 100, 10.2, 80);
  ASSERT_TRUE(later.has_value());
  EXPECT_NE(later->find("  3% |"), std::string::npos) << *later;
}

TEST(ProgressBar, ShowsTheRateAndTheTimeLeft) {
  ProgressBar bar;
  bar.Update(0, 100, 0.0, 80);
  // 10 steps in 2 s after the first: 5 it/s, 89 steps left: 18 s.
  std::optional<std::string> line = bar.Update(10, 100, 2.0, 80);
  ASSERT_TRUE(line.has_value());
  EXPECT_NE(line->find("| 11/100 [00:02<00:18, 5.00 it/s]"), std::string::npos) << *line;
  // Slower than a step a second: seconds per step.
  ProgressBar slow;
  slow.Update(0, 10, 0.0, 80);
  line = slow.Update(1, 10, 4.0, 80);
  ASSERT_TRUE(line.has_value());
  EXPECT_NE(line->find("[00:04<00:32, 4.00 s/it]"), std::string::npos) << *line;
}

TEST(ProgressBar, TheLastStepIsAlwaysDrawnAndEndsTheLine) {
  ProgressBar bar;
  bar.Update(0, 3, 0.0, 80);
  EXPECT_FALSE(bar.Update(1, 3, 0.01, 80).has_value());
  std::optional<std::string> last = bar.Update(2, 3, 0.02, 80);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->back(), '\n');
  EXPECT_NE(last->find("100% |"), std::string::npos) << *last;
  EXPECT_EQ(last->find(' ', last->find('|') + 1), last->find("| 3/3") + 1)
      << "a full bar: " << *last;
}

TEST(ProgressBar, AnEarlierStepOrAnotherCountStartsANewBar) {
  ProgressBar bar;
  bar.Update(0, 10, 0.0, 80);
  bar.Update(5, 10, 1.0, 80);
  // Back to step 0, a moment later: drawn at once, timed from now.
  std::optional<std::string> again = bar.Update(0, 10, 1.01, 80);
  ASSERT_TRUE(again.has_value());
  EXPECT_NE(again->find("[00:00<?"), std::string::npos) << *again;
  std::optional<std::string> other = bar.Update(1, 20, 1.02, 80);
  ASSERT_TRUE(other.has_value()) << "another n";
}

TEST(ProgressBar, FillsTheWidthItIsGiven) {
  for (int width : {60, 80, 132}) {
    ProgressBar bar;
    std::optional<std::string> line = bar.Update(41, 100, 0.0, width);
    ASSERT_TRUE(line.has_value());
    EXPECT_EQ(Columns(*line), width - 1) << *line;
    // 42% of the bar's cells, the last one partly (an eighth block).
    EXPECT_NE(line->find("█"), std::string::npos);
  }
  // Too narrow for the text: the bar keeps 10 cells.
  ProgressBar narrow;
  std::optional<std::string> line = narrow.Update(0, 5, 0.0, 10);
  ASSERT_TRUE(line.has_value());
  const size_t open = line->find('|'), close = line->find('|', open + 1);
  EXPECT_EQ(Columns(line->substr(open + 1, close - open - 1)), 10) << *line;
}

TEST(ProgressBar, FormatsDurations) {
  EXPECT_EQ(FormatDuration(0), "00:00");
  EXPECT_EQ(FormatDuration(65.4), "01:05");
  EXPECT_EQ(FormatDuration(3725), "1:02:05");
  EXPECT_EQ(FormatDuration(-1), "?");
  EXPECT_EQ(FormatDuration(std::numeric_limits<double>::infinity()), "?");
}

}  // namespace
}  // namespace alea::vm
