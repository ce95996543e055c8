// The plots (vm/plot.h): round ticks and their labels, `hist`'s bins, the
// terminal drawing character for character, and the SVG's structure.
// GCC 12 reports a bogus -Wrestrict in std::string's assignment of literals
// at -O2 (GCC bug 105329): off for this file, which assigns many.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include "vm/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace alea::vm {
namespace {

using ::testing::DoubleEq;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMax = std::numeric_limits<double>::max();

using Kind = PlotSeries::Kind;

// ----- Ticks -----

TEST(Ticks, StepsOfTwoOverZeroToTen) {
  EXPECT_THAT(Ticks(0, 10, 5), ElementsAre(0, 2, 4, 6, 8, 10));
}

TEST(Ticks, FractionalStepsIncludeAnExactZero) {
  // 0.2 steps; each tick the double nearest its decimal, not k * 0.2.
  EXPECT_THAT(Ticks(-0.3, 0.7, 5), ElementsAre(-0.2, 0, 0.2, 0.4, 0.6));
  EXPECT_THAT(Ticks(0, 1, 5), ElementsAre(0, 0.2, 0.4, 0.6, 0.8, 1));
  const std::vector<double> ticks = Ticks(-0.3, 0.7, 5);
  EXPECT_FALSE(std::signbit(ticks[1]));
}

TEST(Ticks, ReachTheEndsOfTheRangeDespiteRounding) {
  // 0.3 / 0.1 is 2.9999999999999996.
  EXPECT_THAT(Ticks(0.1, 0.3, 2), ElementsAre(0.1, 0.2, 0.3));
}

TEST(Ticks, NegativeRanges) {
  EXPECT_THAT(Ticks(-10, -2, 5), ElementsAre(-10, -8, -6, -4, -2));
  EXPECT_THAT(Ticks(-7.5, -7.4, 5), ElementsAre(-7.5, -7.48, -7.46, -7.44, -7.42, -7.4));
}

TEST(Ticks, ChooseOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_THAT(Ticks(0, 7, 5), ElementsAre(0, 2, 4, 6));  // not 0..7 by 1
  EXPECT_THAT(Ticks(0, 3, 5), ElementsAre(0, 1, 2, 3));  // not 0..3 by 0.5
  EXPECT_THAT(Ticks(0, 100, 5), ElementsAre(0, 20, 40, 60, 80, 100));
  EXPECT_THAT(Ticks(3, 96, 5), ElementsAre(20, 40, 60, 80));  // inside the range only
  EXPECT_THAT(Ticks(0, 4, 4), ElementsAre(0, 1, 2, 3, 4));    // a tie: the finer step
}

TEST(Ticks, TinyMagnitudes) {
  EXPECT_THAT(Ticks(1e-7, 5e-7, 5), ElementsAre(DoubleEq(1e-7), DoubleEq(2e-7), DoubleEq(3e-7),
                                                DoubleEq(4e-7), DoubleEq(5e-7)));
  // Subnormal.
  EXPECT_THAT(Ticks(1e-310, 5e-310, 5).size(), 5u);
}

TEST(Ticks, HugeMagnitudes) {
  EXPECT_THAT(Ticks(1e6, 5e6, 5), ElementsAre(1e6, 2e6, 3e6, 4e6, 5e6));
  EXPECT_THAT(Ticks(1e9, 1.00001e9, 5),
              ElementsAre(1e9, 1.000002e9, 1.000004e9, 1.000006e9, 1.000008e9, 1.00001e9));
  // hi - lo overflows here.
  EXPECT_THAT(Ticks(-1e308, 1e308, 5),
              ElementsAre(DoubleEq(-1e308), DoubleEq(-5e307), 0, DoubleEq(5e307), DoubleEq(1e308)));
  for (double t : Ticks(-kMax, kMax, 5)) EXPECT_TRUE(std::isfinite(t));
}

TEST(Ticks, DegenerateArguments) {
  EXPECT_THAT(Ticks(3, 3, 5), ElementsAre(3));
  EXPECT_EQ(Ticks(5, 1, 5), Ticks(1, 5, 5));
  EXPECT_TRUE(Ticks(kNaN, 1, 5).empty());
  EXPECT_TRUE(Ticks(0, kInf, 5).empty());
  EXPECT_THAT(Ticks(0, 1, 0), ElementsAre(0, 1));  // at least two
  EXPECT_LE(Ticks(0, 1, 1'000'000).size(), 1000u);
  // A range below the doubles' resolution at its magnitude.
  for (double t : Ticks(1, std::nextafter(1.0, 2.0), 5)) {
    EXPECT_GE(t, 1);
    EXPECT_LE(t, std::nextafter(1.0, 2.0));
  }
}

TEST(Ticks, AreIncreasingEvenlySpacedAndInsideTheRange) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-10, 10);
  std::uniform_int_distribution<int> exponent(-12, 12);
  for (int trial = 0; trial < 2000; ++trial) {
    const double scale = std::pow(10.0, exponent(rng));
    double lo = mantissa(rng) * scale, hi = mantissa(rng) * scale;
    if (lo == hi) continue;
    if (lo > hi) std::swap(lo, hi);
    const std::vector<double> ticks = Ticks(lo, hi, 5);
    ASSERT_GE(ticks.size(), 2u) << lo << " " << hi;
    ASSERT_LE(ticks.size(), 11u) << lo << " " << hi;
    const double step = ticks[1] - ticks[0];
    for (size_t i = 0; i < ticks.size(); ++i) {
      EXPECT_GE(ticks[i], lo);
      EXPECT_LE(ticks[i], hi);
      if (i > 0) {
        EXPECT_NEAR(ticks[i] - ticks[i - 1], step, step * 1e-6);
      }
    }
  }
}

// ----- TickLabels -----

// The label of a lone tick on an axis whose ticks are `step` apart (one
// tick: the axis's notation is its own).
std::string TickLabel(double value, double step) {
  return TickLabels(std::vector<double>{value}, 0, step)[0];
}

TEST(TickLabel, AsManyDecimalsAsTheStepNeeds) {
  EXPECT_EQ(TickLabel(0.5, 0.5), "0.5");
  EXPECT_EQ(TickLabel(0.4, 0.2), "0.4");
  EXPECT_EQ(TickLabel(0.25, 0.05), "0.25");
  EXPECT_EQ(TickLabel(0.3, 0.05), "0.30");
  EXPECT_EQ(TickLabel(1.0, 0.2), "1.0");
  EXPECT_EQ(TickLabel(10, 5), "10");
  EXPECT_EQ(TickLabel(120, 20), "120");
  EXPECT_EQ(TickLabel(-3, 1), "-3");
  EXPECT_EQ(TickLabel(0.30000000000000004, 0.1), "0.3");
  // A step that is a power of ten a rounding error short of it.
  EXPECT_EQ(TickLabel(0.2, 0.09999999999999999), "0.2");
  EXPECT_EQ(TickLabel(0.00012, 0.00001), "0.00012");
}

TEST(TickLabel, ZeroHasNoSign) {
  EXPECT_EQ(TickLabel(0, 1), "0");
  EXPECT_EQ(TickLabel(-0.0, 1), "0");
  EXPECT_EQ(TickLabel(0, 0.2), "0.0");
  EXPECT_EQ(TickLabel(-0.0, 0.2), "0.0");
  EXPECT_EQ(TickLabel(-1e-17, 0.1), "0.0");  // a rounding error, not a value
  EXPECT_EQ(TickLabel(-0.04, 0.1), "0.0");
  EXPECT_EQ(TickLabel(0, 1e-5), "0");  // among 1e-05, 2e-05, ...
}

TEST(TickLabel, ScientificForHugeAndTinyValues) {
  EXPECT_EQ(TickLabel(1e6, 1e6), "1e+06");
  EXPECT_EQ(TickLabel(1.5e6, 5e5), "1.5e+06");
  EXPECT_EQ(TickLabel(-2e6, 5e5), "-2e+06");
  EXPECT_EQ(TickLabel(1.000002e9, 2000), "1.000002e+09");
  EXPECT_EQ(TickLabel(999999, 1), "999999");
  EXPECT_EQ(TickLabel(2e-5, 1e-5), "2e-05");
  EXPECT_EQ(TickLabel(1.5e-7, 5e-8), "1.5e-07");
  EXPECT_EQ(TickLabel(1e300, 5e299), "1e+300");
}

TEST(TickLabel, OddArguments) {
  EXPECT_EQ(TickLabel(kNaN, 1), "nan");
  EXPECT_EQ(TickLabel(kInf, 1), "inf");
  EXPECT_EQ(TickLabel(-kInf, 1), "-inf");
  EXPECT_EQ(TickLabel(2.5, 0), "2.5");
  EXPECT_EQ(TickLabel(2.5, kNaN), "2.5");
  EXPECT_EQ(TickLabel(3, -1), "3");  // the step's size counts
}

TEST(TickLabels, OneNotationPerAxis) {
  // 800000 alone would be plain; beside 1e+06 it is 8e+05.
  EXPECT_THAT(TickLabels(std::vector<double>{0, 2e5, 4e5, 6e5, 8e5, 1e6}, 0, 1e6),
              ElementsAre("0", "2e+05", "4e+05", "6e+05", "8e+05", "1e+06"));
  EXPECT_THAT(TickLabels(std::vector<double>{999000, 999500, 1e6, 1000500}, 999000, 1000500),
              ElementsAre("9.99e+05", "9.995e+05", "1e+06", "1.0005e+06"));
  EXPECT_THAT(TickLabels(std::vector<double>{-1e6, -5e5, 0, 5e5}, -1e6, 5e5),
              ElementsAre("-1e+06", "-5e+05", "0", "5e+05"));
  // Tiny ticks: scientific only when the largest is below 1e-4.
  EXPECT_THAT(TickLabels(std::vector<double>{0, 2e-5, 4e-5, 6e-5}, 0, 6e-5),
              ElementsAre("0", "2e-05", "4e-05", "6e-05"));
  EXPECT_THAT(TickLabels(std::vector<double>{0, 5e-5, 1e-4}, 0, 1e-4),
              ElementsAre("0", "0.00005", "0.00010"));
  EXPECT_THAT(TickLabels(std::vector<double>{0, 0.5, 1}, 0, 1), ElementsAre("0.0", "0.5", "1.0"));
}

TEST(TickLabels, ALoneTickTakesItsStepFromTheRange) {
  EXPECT_THAT(TickLabels(std::vector<double>{2}, 1.5, 2.5), ElementsAre("2"));
  EXPECT_THAT(TickLabels(std::vector<double>{0.25}, 0.21, 0.29), ElementsAre("0.25"));
  EXPECT_THAT(TickLabels(std::vector<double>{}, 0, 1), ElementsAre());
}

// Where the notation is the same the labels are: the other ticks of the
// axis change nothing else.
TEST(TickLabels, AgreeWithALoneTickInTheSameNotation) {
  for (double v : {0.0, 0.5, 3.0, 1e6, -7.25, 1.5e7}) {
    EXPECT_EQ(TickLabels(std::vector<double>{v, v + 0.25}, v, v + 0.25)[0], TickLabel(v, 0.25));
  }
}

// ----- SeriesColor -----

TEST(SeriesColor, TenColoursThenAgain) {
  EXPECT_STREQ(SeriesColor(0), "#1f77b4");
  EXPECT_STREQ(SeriesColor(1), "#ff7f0e");
  EXPECT_STREQ(SeriesColor(2), "#2ca02c");
  EXPECT_STREQ(SeriesColor(9), "#17becf");
  EXPECT_STREQ(SeriesColor(10), "#1f77b4");
  EXPECT_STREQ(SeriesColor(13), SeriesColor(3));
}

// ----- Histogram -----

TEST(PlotHistogram, EqualBinsOverTheRange) {
  const PlotSeries h = Histogram(std::vector<double>{1, 2, 3, 4}, 3);
  EXPECT_EQ(h.kind, Kind::kBars);
  EXPECT_THAT(h.x, ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(h.y, ElementsAre(1, 1, 2));  // the maximum in the last bin
}

TEST(PlotHistogram, AValueOnAnEdgeCountsInTheBinToItsRight) {
  const PlotSeries h = Histogram(std::vector<double>{0, 0.5, 1}, 2);
  EXPECT_THAT(h.x, ElementsAre(0, 0.5, 1));
  EXPECT_THAT(h.y, ElementsAre(1, 2));
}

TEST(PlotHistogram, SkipsNaNAndInfinities) {
  const PlotSeries h = Histogram(std::vector<double>{kNaN, 1, kInf, -kInf, 3}, 2);
  EXPECT_THAT(h.x, ElementsAre(1, 2, 3));
  EXPECT_THAT(h.y, ElementsAre(1, 1));
  EXPECT_EQ(h.left_out, 3);
  EXPECT_EQ(Histogram(std::vector<double>{1, 2}, 2).left_out, 0);
  EXPECT_EQ(Histogram(std::vector<double>{kNaN, kNaN}, 2).left_out, 2);
}

TEST(PlotHistogram, ASingleValueIsOneBinOfWidthOne) {
  const PlotSeries h = Histogram(std::vector<double>{5, 5, kNaN, 5}, 10);
  EXPECT_THAT(h.x, ElementsAre(4.5, 5.5));
  EXPECT_THAT(h.y, ElementsAre(3));
}

TEST(PlotHistogram, NoValuesNoBins) {
  for (const std::vector<double>& values : {std::vector<double>{}, {kNaN, kInf}}) {
    const PlotSeries h = Histogram(values, 10);
    EXPECT_EQ(h.kind, Kind::kBars);
    EXPECT_TRUE(h.x.empty());
    EXPECT_TRUE(h.y.empty());
  }
}

TEST(PlotHistogram, AtLeastOneBin) {
  const PlotSeries h = Histogram(std::vector<double>{0, 1, 2}, 0);
  EXPECT_THAT(h.x, ElementsAre(0, 2));
  EXPECT_THAT(h.y, ElementsAre(3));
  EXPECT_EQ(Histogram(std::vector<double>{0, 1}, -5).y.size(), 1u);
}

TEST(PlotHistogram, HugeRange) {
  // max - min overflows.
  const PlotSeries h = Histogram(std::vector<double>{-kMax, 0, kMax}, 4);
  ASSERT_EQ(h.x.size(), 5u);
  for (double e : h.x) EXPECT_TRUE(std::isfinite(e));
  EXPECT_EQ(h.x.front(), -kMax);
  EXPECT_EQ(h.x.back(), kMax);
  EXPECT_THAT(h.y, ElementsAre(1, 0, 1, 1));
}

TEST(PlotHistogram, EveryValueIsInsideTheEdgesOfItsBin) {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal(0.3, 1.7);
  std::vector<double> values(5000);
  for (double& v : values) v = normal(rng);
  values[17] = kNaN;
  const PlotSeries h = Histogram(values, 37);
  ASSERT_EQ(h.x.size(), 38u);
  ASSERT_EQ(h.y.size(), 37u);
  std::vector<double> expected(37, 0);
  for (double v : values) {
    if (std::isnan(v)) continue;
    // Found by the edges alone: [x[i], x[i + 1]), the last bin closed.
    size_t i = 0;
    while (i + 1 < 37 && v >= h.x[i + 1]) ++i;
    expected[i] += 1;
  }
  EXPECT_EQ(h.y, expected);
  double total = 0;
  for (double c : h.y) total += c;
  EXPECT_EQ(total, 4999);
}

// ----- RenderText -----

Plot Line() {
  Plot plot;
  plot.title = "squares";
  plot.xlabel = "x";
  plot.ylabel = "y";
  plot.series.push_back({Kind::kLine, {0, 1, 2, 3, 4}, {0, 1, 4, 9, 16}});
  return plot;
}

Plot Overlay() {
  Plot plot;
  plot.series.push_back({Kind::kLine, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}});
  plot.series.push_back({Kind::kScatter, {0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}});
  return plot;
}

Plot Bars(std::vector<double> edges, std::vector<double> counts) {
  Plot plot;
  plot.series.push_back({Kind::kBars, std::move(edges), std::move(counts)});
  return plot;
}

// The golden strings below start with a newline, for the picture to line
// up in the source.
std::string Text(const Plot& plot, int width) { return "\n" + RenderText(plot, width, false); }

TEST(RenderText, LinePlot) {
  // Braille lines joining the points; a tick label on each row with a tick
  // (16, the top, has none), the title centered over the canvas.
  EXPECT_EQ(Text(Line(), 40), R"txt(
                  squares
y
15 ┤                                  ⢀⠎
   │                                 ⡠⠃
   │                                ⡔⠁
   │                              ⢀⠜
   │                             ⢠⠊
10 ┤                            ⡰⠁
   │                          ⢀⠜
   │                        ⢀⠔⠁
   │                      ⢀⠔⠁
   │                     ⡠⠊
 5 ┤                   ⡠⠊
   │                ⣀⠤⠊
   │             ⡠⠔⠊
   │         ⢀⡠⠔⠉
 0 ┤⣀⡠⠤⠤⠔⠒⠒⠊⠉⠁
   └┬────────┬────────┬────────┬───────┬
    0        1        2        3       4
                     x
)txt");
}

TEST(RenderText, Scatter) {
  // One dot per point, in the cell of its value's tick.
  Plot plot;
  plot.series.push_back({Kind::kScatter, {0, 1, 2, 3, 4}, {3, 1, 4, 1, 5}});
  EXPECT_EQ(Text(plot, 30), R"txt(
5 ┤                          ⠈
  │
  │
4 ┤             ⢀
  │
  │
  │
3 ┤⠄
  │
  │
  │
2 ┤
  │
  │
1 ┤      ⢀             ⡀
  └┬────────────┬────────────┬
   0            2            4
)txt");
}

TEST(RenderText, Histogram) {
  // Counts 1, 2, 3, 5 over the bins [0, 1), [1, 2), [2, 3), [3, 4]: each
  // bar's top in its count's tick row, y from 0 to the largest count.
  Plot plot;
  plot.series.push_back(Histogram(std::vector<double>{0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4}, 4));
  EXPECT_EQ(Text(plot, 30), R"txt(
5 ┤                    ███████
  │                    ███████
  │                    ███████
4 ┤                    ███████
  │                    ███████
  │                    ███████
3 ┤             ██████████████
  │             ██████████████
  │             ██████████████
2 ┤      █████████████████████
  │      █████████████████████
  │      █████████████████████
1 ┤███████████████████████████
  │███████████████████████████
0 ┤███████████████████████████
  └┬────────────┬────────────┬
   0            2            4
)txt");
}

TEST(RenderText, ABarTooShortForAnEighthStillShows) {
  EXPECT_EQ(Text(Bars({0, 1, 2}, {1, 100}), 30), R"txt(
100 ┤            █████████████
    │            █████████████
    │            █████████████
 80 ┤            █████████████
    │            █████████████
    │            █████████████
 60 ┤            █████████████
    │            █████████████
    │            █████████████
 40 ┤            █████████████
    │            █████████████
    │            █████████████
 20 ┤            █████████████
    │            █████████████
  0 ┤▁▁▁▁▁▁▁▁▁▁▁▁█████████████
    └┬───────────┬───────────┬
     0           1           2
)txt");
}

TEST(RenderText, OverlayWithLegend) {
  EXPECT_EQ(Text(Overlay(), 40), R"txt(
4 ┤⠁                                 ⢀⠤⠊
  │                                ⣀⠔⠁
  │                              ⡠⠊
3 ┤         ⡀                 ⢀⠔⠉
  │                         ⡠⠒⠁
  │                      ⢀⠤⠊
  │                    ⣀⠔⠁
2 ┤                  ⡠⠊
  │               ⢀⠔⠉
  │            ⢀⡠⠊⠁
  │          ⣀⠔⠁
1 ┤       ⢀⡠⠊                 ⠐
  │     ⡠⠔⠁
  │  ⢀⠤⠊
0 ┤⡠⠒⠁                                 ⢀
  └┬────────┬────────┬────────┬────────┬
   0        1        2        3        4
   ■ series 1  ■ series 2
)txt");
}

TEST(RenderText, BarsHideTheDotsInTheirCells) {
  // Bar tops in eighths (the 1 is three rows and six eighths); the line
  // shows above the bars only.
  Plot plot = Bars({0, 1, 2, 3}, {4, 0, 1});
  plot.series.push_back({Kind::kLine, {0, 3}, {0, 4}});
  EXPECT_EQ(Text(plot, 30), R"txt(
4 ┤█████████                ⡠⠊
  │█████████              ⢀⠜
  │█████████            ⢀⠔⠁
3 ┤█████████           ⡔⠁
  │█████████         ⡠⠊
  │█████████       ⡠⠊
  │█████████     ⢀⠜
2 ┤█████████   ⢀⠔⠁
  │█████████  ⡔⠁
  │█████████⡠⠊
  │█████████
1 ┤█████████         ▆▆▆▆▆▆▆▆▆
  │█████████         █████████
  │█████████         █████████
0 ┤█████████         █████████
  └┬────────┬────────┬───────┬
   0        1        2       3
   ■ series 1  ■ series 2
)txt");
}

TEST(RenderText, EmptyPlot) {
  EXPECT_EQ(Text(Plot{}, 30), R"txt(
1.0 ┤
    │
    │
0.8 ┤
    │
    │
0.6 ┤
    │        (no data)
    │
0.4 ┤
    │
    │
0.2 ┤
    │
0.0 ┤
    └┬───────────┬───────────┬
    0.0         0.5        1.0
)txt");
  Plot no_points;
  no_points.series.push_back({Kind::kLine, {}, {}});
  no_points.series.push_back(Histogram(std::vector<double>{}, 10));
  EXPECT_THAT(RenderText(no_points, 30, false), HasSubstr("(no data)"));
  EXPECT_THAT(RenderText(no_points, 30, false), Not(HasSubstr("not finite")));
}

TEST(RenderText, AllNaN) {
  Plot plot;
  plot.series.push_back({Kind::kLine, {0, 1, 2}, {kNaN, kNaN, kNaN}});
  // The empty plot's drawing (pinned by EmptyPlot), and what was left out.
  EXPECT_EQ(Text(plot, 30), Text(Plot{}, 30) + "     (3 points not finite: not drawn)\n");
}

TEST(RenderText, ANonFinitePointBreaksTheLine) {
  Plot plot;
  plot.series.push_back({Kind::kLine, {0, 1, 2, 3, 4}, {0, 4, kNaN, 4, 0}});
  EXPECT_EQ(Text(plot, 30), R"txt(
4 ┤      ⡸             ⢇
  │     ⢀⠇             ⠸⡀
  │     ⢸               ⡇
3 ┤     ⡇               ⢸
  │    ⢸                 ⡇
  │    ⡎                 ⢱
  │   ⢰⠁                 ⠈⡆
2 ┤   ⡜                   ⢣
  │  ⢀⠇                   ⠸⡀
  │  ⡸                     ⢇
  │  ⡇                     ⢸
1 ┤ ⢸                       ⡇
  │ ⡇                       ⢸
  │⢰⠁                       ⠈⡆
0 ┤⡎                         ⢱
  └┬────────────┬────────────┬
   0            2            4
   (1 point not finite: not drawn)
)txt");
}

TEST(RenderText, EqualValuesWidenTheRange) {
  // x and y from 2.5 to 7.5 (5 +- 5 / 2); the point in the middle.
  Plot plot;
  plot.series.push_back({Kind::kScatter, {5}, {5}});
  EXPECT_EQ(Text(plot, 30), R"txt(
  │
7 ┤
  │
  │
6 ┤
  │
  │
5 ┤             ⠠
  │
  │
4 ┤
  │
  │
3 ┤
  │
  └────────┬─────────┬────────
           4         6
)txt");
  // Zero widens by one.
  Plot zero;
  zero.series.push_back({Kind::kScatter, {0, 0}, {0, 0}});
  EXPECT_THAT(RenderText(zero, 30, false), HasSubstr("\n-1.0 ┤"));
}

// The lines of `text`, each checked to end in '\n'.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  EXPECT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

// Columns of UTF-8 text (one per code point).
int Columns(const std::string& s) {
  int n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

TEST(RenderText, WidthIsClampedToThirty) {
  const std::string thirty = RenderText(Overlay(), 30, false);
  EXPECT_EQ(RenderText(Overlay(), 29, false), thirty);
  EXPECT_EQ(RenderText(Overlay(), 0, false), thirty);
  EXPECT_EQ(RenderText(Overlay(), -100, false), thirty);
  int widest = 0;
  for (const std::string& line : Lines(thirty)) widest = std::max(widest, Columns(line));
  EXPECT_EQ(widest, 30);
  // Wide plots are as wide as asked.
  widest = 0;
  for (const std::string& line : Lines(RenderText(Overlay(), 100, false))) {
    widest = std::max(widest, Columns(line));
  }
  EXPECT_EQ(widest, 100);
  // A width no terminal has is capped rather than allocated.
  EXPECT_LT(RenderText(Overlay(), std::numeric_limits<int>::max(), false).size(), 1'000'000u);
}

TEST(RenderText, NoTrailingSpaces) {
  for (const Plot& plot : {Line(), Overlay(), Plot{}}) {
    for (const std::string& line : Lines(RenderText(plot, 50, false))) {
      EXPECT_TRUE(line.empty() || line.back() != ' ') << "[" << line << "]";
    }
  }
}

// `text` without its ANSI colour sequences.
std::string Uncolored(const std::string& text) {
  return std::regex_replace(text, std::regex("\x1b\\[[0-9;]*m"), "");
}

TEST(RenderText, ColorWrapsEachSeriesCellsInItsColour) {
  const std::string colored = RenderText(Overlay(), 40, true);
  EXPECT_EQ(Uncolored(colored), RenderText(Overlay(), 40, false));
  // xterm-256 blue and orange, each run reset after.
  EXPECT_THAT(colored, HasSubstr("\x1b[38;5;31m⡠"));
  EXPECT_THAT(colored, HasSubstr("\x1b[38;5;208m⠁\x1b[0m"));
  EXPECT_THAT(colored,
              HasSubstr("\x1b[38;5;31m■ series 1\x1b[0m  \x1b[38;5;208m■ series 2\x1b[0m"));
  // The axes are not coloured.
  EXPECT_THAT(colored, HasSubstr("\n0 ┤\x1b[38;5;31m"));
  // Without colour, no escapes at all.
  EXPECT_THAT(RenderText(Overlay(), 40, false), Not(HasSubstr("\x1b")));
}

TEST(RenderText, TheLastSeriesOwnsACell) {
  Plot plot;
  plot.series.push_back({Kind::kScatter, {0, 1}, {0, 1}});
  plot.series.push_back({Kind::kScatter, {0, 1}, {0, 1}});
  const std::string colored = RenderText(plot, 30, true);
  EXPECT_THAT(colored, HasSubstr("┤\x1b[38;5;208m"));
  EXPECT_THAT(Uncolored(colored), Not(HasSubstr("\x1b")));
  EXPECT_EQ(colored.find("\x1b[38;5;31m■"), colored.find("\x1b[38;5;31m"));  // legend only
}

TEST(RenderText, TitleAndLabelsCannotBreakTheLayout) {
  Plot plot = Line();
  plot.title = "two\nlines";
  plot.xlabel = "\x1b[31mred";
  const std::string text = RenderText(plot, 40, false);
  EXPECT_THAT(text, HasSubstr("two lines\n"));
  EXPECT_THAT(text, HasSubstr(" [31mred\n"));
  EXPECT_THAT(text, Not(HasSubstr("\x1b")));
}

TEST(RenderText, MismatchedLengthsUseTheShorter) {
  Plot longer_x, same;
  longer_x.series.push_back({Kind::kLine, {0, 1, 2, 3}, {0, 1}});
  same.series.push_back({Kind::kLine, {0, 1}, {0, 1}});
  EXPECT_EQ(RenderText(longer_x, 40, false), RenderText(same, 40, false));
  Plot more_edges = Bars({0, 1, 2, 3, 4}, {1, 2});
  EXPECT_EQ(RenderText(more_edges, 40, false), RenderText(Bars({0, 1, 2}, {1, 2}), 40, false));
  Plot more_counts = Bars({0, 1}, {1, 2, 3});
  EXPECT_EQ(RenderText(more_counts, 40, false), RenderText(Bars({0, 1}, {1}), 40, false));
}

TEST(RenderText, ALegendWrapsAtTheWidth) {
  Plot plot;
  for (int i = 0; i < 12; ++i) plot.series.push_back({Kind::kLine, {0, 1}, {1.0 * i, 1.0 * i}});
  const std::string text = RenderText(plot, 40, false);
  EXPECT_THAT(text, HasSubstr("■ series 1  ■ series 2  ■ series 3\n"));
  EXPECT_THAT(text, HasSubstr("■ series 12\n"));
  for (const std::string& line : Lines(text)) EXPECT_LE(Columns(line), 40);
}

TEST(RenderText, TheLegendNamesLabelledSeries) {
  Plot plot = Overlay();
  plot.series[0].label = "mine";
  EXPECT_THAT(Text(plot, 40), HasSubstr("\n   ■ mine  ■ series 2\n"));
  plot.series[1].label = "theirs, a name too long for one line with the other";
  const std::vector<std::string> lines = Lines(RenderText(plot, 40, false));
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[lines.size() - 2], "   ■ mine");
  EXPECT_EQ(lines.back(), "   ■ theirs, a name too long for one li…");
  EXPECT_EQ(Columns(lines.back()), 40);
  // One labelled series has a legend too; unlabelled, none.
  Plot one = Line();
  EXPECT_THAT(Text(one, 40), Not(HasSubstr("■")));
  one.series[0].label = "squares\n";
  EXPECT_THAT(Text(one, 40), HasSubstr("■ squares\n"));
}

TEST(RenderText, NotesSkippedPointsAndBars) {
  Plot plot;
  plot.series.push_back({Kind::kScatter, {0, 1, kInf, 3}, {0, kNaN, 2, 3}});
  plot.series.push_back({Kind::kBars, {0, 1, kNaN}, {1, 2}});
  EXPECT_THAT(RenderText(plot, 40, false), HasSubstr("(3 points not finite: not drawn)\n"));
}

TEST(RenderText, NotesTheValuesAHistogramLeftOut) {
  Plot hist;
  hist.series.push_back(Histogram(std::vector<double>{1, kNaN, 2, kInf, 3}, 2));
  const std::string text = RenderText(hist, 40, false);
  EXPECT_THAT(text, HasSubstr("(2 values not finite: not counted)\n"));
  EXPECT_THAT(text, Not(HasSubstr("not drawn")));
  hist.series.push_back({Kind::kScatter, {0, kNaN}, {0, 1}});
  EXPECT_THAT(RenderText(hist, 60, false),
              HasSubstr("(1 point not finite: not drawn; 2 values not finite: not counted)\n"));
  Plot one;
  one.series.push_back(Histogram(std::vector<double>{1, -kInf}, 2));
  EXPECT_THAT(RenderText(one, 40, false), HasSubstr("(1 value not finite: not counted)\n"));
}

TEST(RenderText, AnAxisKeepsOneNotation) {
  Plot plot;
  plot.series.push_back({Kind::kLine, {0, 1e6}, {0, 1e6}});
  const std::string text = RenderText(plot, 80, false);
  EXPECT_THAT(text, HasSubstr("1e+06 ┤"));
  EXPECT_THAT(text, HasSubstr("8e+05"));
  EXPECT_THAT(text, Not(HasSubstr("800000")));
}

TEST(RenderText, LongLabelsAreCutToTheWidth) {
  Plot plot = Line();
  plot.title = std::string(100, 't');
  plot.xlabel = std::string(100, 'x');
  plot.ylabel = std::string(100, 'y');
  const std::string text = RenderText(plot, 40, false);
  for (const std::string& line : Lines(text)) EXPECT_LE(Columns(line), 40) << line;
  EXPECT_THAT(text, HasSubstr(std::string(39, 't') + "…\n"));
  EXPECT_THAT(text, HasSubstr(std::string(39, 'y') + "…\n"));
}

TEST(RenderText, WideCharactersTakeTwoColumns) {
  Plot plot = Line();
  plot.title = "正态分布";  // 8 columns
  plot.xlabel = "ab";
  const std::vector<std::string> lines = Lines(RenderText(plot, 40, false));
  // Both centered over the canvas: the title starts 3 columns before the
  // 2-column xlabel, as its width is 6 more.
  const size_t title_at = lines.front().find_first_not_of(' ');
  const size_t xlabel_at = lines.back().find_first_not_of(' ');
  EXPECT_EQ(lines.front().substr(title_at), "正态分布");
  EXPECT_EQ(lines.back().substr(xlabel_at), "ab");
  EXPECT_EQ(title_at + 3, xlabel_at);
}

// Any data at all draws something, without crashing or drawing outside.
std::vector<Plot> WildPlots() {
  std::mt19937_64 rng(3);
  const double specials[] = {0,     -0.0,   1,     -1,     kNaN,   kInf, -kInf, kMax,
                             -kMax, 1e-310, 1e300, -1e300, 1e-300, 5,    5,     5};
  std::uniform_int_distribution<int> pick(0, std::size(specials) - 1), size(0, 6), kind(0, 2);
  std::normal_distribution<double> normal;
  std::vector<Plot> plots;
  for (int trial = 0; trial < 300; ++trial) {
    Plot plot;
    const int n = size(rng) % 4;
    for (int s = 0; s < n; ++s) {
      PlotSeries series;
      series.kind = static_cast<Kind>(kind(rng));
      const int nx = size(rng), ny = size(rng);
      for (int i = 0; i < nx; ++i)
        series.x.push_back(trial % 2 ? specials[pick(rng)] : normal(rng));
      for (int i = 0; i < ny; ++i)
        series.y.push_back(trial % 3 ? specials[pick(rng)] : normal(rng));
      if (series.kind == Kind::kBars && trial % 5 == 0) std::sort(series.x.begin(), series.x.end());
      plot.series.push_back(std::move(series));
    }
    plots.push_back(std::move(plot));
  }
  return plots;
}

TEST(RenderText, WildDataDrawsAFrame) {
  for (const Plot& plot : WildPlots()) {
    for (bool color : {false, true}) {
      const std::vector<std::string> lines = Lines(RenderText(plot, 40, color));
      int rows = 0, corners = 0;
      for (const std::string& line : lines) {
        rows += line.find("┤") != std::string::npos || line.find("│") != std::string::npos;
        corners += line.find("└") != std::string::npos;
        EXPECT_TRUE(line.empty() || line.back() != ' ');
      }
      EXPECT_EQ(rows, 15);
      EXPECT_EQ(corners, 1);
    }
  }
}

// ----- RenderSvg -----

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Whether the tags nest, under one <svg> root, with nothing outside it but
// the final newline. (Text is escaped, so a '<' always opens a tag.)
bool WellFormed(const std::string& svg) {
  std::vector<std::string> open;
  size_t at = 0;
  bool closed_root = false;
  while ((at = svg.find('<', at)) != std::string::npos) {
    if (closed_root) return false;
    const size_t end = svg.find('>', at);
    if (end == std::string::npos) return false;
    const std::string tag = svg.substr(at + 1, end - at - 1);
    const size_t name_end = tag.find_first_of(" />", tag[0] == '/' ? 1 : 0);
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return false;
      open.pop_back();
      closed_root = open.empty();
    } else if (tag.back() != '/') {
      if (open.empty() && tag.substr(0, name_end) != "svg") return false;
      open.push_back(tag.substr(0, name_end));
    } else if (open.empty()) {
      return false;
    }
    at = end + 1;
  }
  return closed_root && svg.substr(svg.rfind('>') + 1) == "\n";
}

TEST(RenderSvg, AStandaloneDocument) {
  const std::string svg = RenderSvg(Line());
  EXPECT_THAT(svg, StartsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" "
                              "height=\"400\" viewBox=\"0 0 640 400\">\n"));
  EXPECT_THAT(svg, HasSubstr("<rect width=\"640\" height=\"400\" fill=\"white\"/>"));
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
}

TEST(RenderSvg, ALineIsAPolylineInTheSeriesColour) {
  const std::string svg = RenderSvg(Line());
  EXPECT_EQ(Count(svg, "<polyline"), 1);
  // The data spans the plot area: (0, 0) at its bottom left, (4, 16) top right.
  EXPECT_THAT(svg, HasSubstr("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" "
                             "points=\"70.00,340.00 207.50,321.25 345.00,265.00 482.50,171.25 "
                             "620.00,40.00\"/>"));
  EXPECT_THAT(svg, Not(HasSubstr("series 1")));  // one series: no legend
}

TEST(RenderSvg, ANonFinitePointSplitsTheLine) {
  Plot plot;
  plot.series.push_back({Kind::kLine, {0, 1, 2, 3, 4, 5, 6}, {0, 1, kNaN, 3, 4, kInf, 6}});
  const std::string svg = RenderSvg(plot);
  EXPECT_EQ(Count(svg, "<polyline"), 2);
  EXPECT_EQ(Count(svg, "r=\"1.5\""), 1);  // the lone point after the inf, as a dot
  EXPECT_THAT(svg, HasSubstr("(2 points not finite: not drawn)</text>"));
}

TEST(RenderSvg, NotesTheValuesAHistogramLeftOut) {
  Plot hist;
  hist.series.push_back(Histogram(std::vector<double>{1, kNaN, 2, 3}, 2));
  EXPECT_THAT(RenderSvg(hist), HasSubstr("(1 value not finite: not counted)</text>"));
}

TEST(RenderSvg, OnePolylinePerLineSeriesWithALegend) {
  Plot plot = Line();
  plot.series.push_back({Kind::kLine, {0, 4}, {16, 0}});
  const std::string svg = RenderSvg(plot);
  EXPECT_EQ(Count(svg, "<polyline"), 2);
  EXPECT_EQ(Count(svg, "<polyline fill=\"none\" stroke=\"#1f77b4\""), 1);
  EXPECT_EQ(Count(svg, "<polyline fill=\"none\" stroke=\"#ff7f0e\""), 1);
  EXPECT_THAT(svg, HasSubstr(">series 1</text>"));
  EXPECT_THAT(svg, HasSubstr(">series 2</text>"));
  EXPECT_TRUE(WellFormed(svg));
}

TEST(RenderSvg, ALegendOfManySeriesFitsThePlotArea) {
  Plot plot;
  for (int i = 0; i < 20; ++i) plot.series.push_back({Kind::kLine, {0, 1}, {1.0 * i, 1.0 * i}});
  const std::string svg = RenderSvg(plot);
  EXPECT_EQ(Count(svg, "<polyline"), 20);
  EXPECT_THAT(svg, HasSubstr(">series 14</text>"));
  EXPECT_THAT(svg, Not(HasSubstr(">series 15</text>")));
  EXPECT_THAT(svg, HasSubstr(">+ 6 more</text>"));
}

TEST(RenderSvg, TheLegendNamesLabelledSeries) {
  Plot plot;
  plot.series.push_back({Kind::kLine, {0, 1}, {0, 1}});
  plot.series.push_back({Kind::kScatter, {0, 1}, {1, 0}});
  plot.series[0].label = "mine & theirs";
  const std::string svg = RenderSvg(plot);
  EXPECT_THAT(svg, HasSubstr(">mine &amp; theirs</text>"));
  EXPECT_THAT(svg, HasSubstr(">series 2</text>"));
  // The box is as wide as 90 px or the longest name, whichever is more.
  EXPECT_THAT(svg, HasSubstr("width=\"135.00\""));  // 44 + 7 * 13

  Plot one;
  one.series.push_back({Kind::kLine, {0, 1}, {0, 1}});
  EXPECT_THAT(RenderSvg(one), Not(HasSubstr("series 1")));
  one.series[0].label = std::string(200, 'n');
  const std::string long_name = RenderSvg(one);
  EXPECT_THAT(long_name,
              HasSubstr(std::string(68, 'n') + "…</text>"));  // (550 - 20 - 44) / 7 columns
  EXPECT_THAT(long_name, Not(HasSubstr(std::string(69, 'n'))));
}

TEST(RenderSvg, TheLegendGoesWhereItHidesLeast) {
  const auto legend_at = [](double slope) {
    Plot plot;
    plot.series.push_back({Kind::kLine, {0, 10}, {0, 10 * slope}});
    plot.series.push_back({Kind::kScatter, {0, 10}, {0, 10 * slope}});
    const std::string svg = RenderSvg(plot);
    const size_t at = svg.find("fill-opacity=\"0.9\"");  // the legend's box
    EXPECT_NE(at, std::string::npos);
    return svg.substr(svg.rfind("<rect", at));
  };
  // Rising: the top left is free; falling: the top right, the default.
  EXPECT_THAT(legend_at(1), StartsWith("<rect x=\"80.00\" y=\"50.00\" width=\"100.00\""));
  EXPECT_THAT(legend_at(-1), StartsWith("<rect x=\"510.00\" y=\"50.00\" width=\"100.00\""));
  // Bars count by the area they share with the box: a histogram high on
  // the left leaves the top right free.
  Plot hist;
  hist.series.push_back({Kind::kBars, {0, 1, 2, 3, 4}, {10, 6, 3, 1}});
  hist.series.back().label = "counts";
  const std::string svg = RenderSvg(hist);
  EXPECT_THAT(svg, HasSubstr("<rect x=\"520.00\" y=\"50.00\" width=\"90.00\" height=\"26.00\""));
}

TEST(RenderSvg, OneRectPerBar) {
  Plot plot;
  plot.series.push_back(Histogram(std::vector<double>{0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4}, 4));
  const std::string svg = RenderSvg(plot);
  EXPECT_EQ(Count(svg, "fill-opacity=\"0.8\""), 4);
  EXPECT_EQ(Count(svg, "fill=\"#1f77b4\" fill-opacity=\"0.8\""), 4);
  // Bin [3, 4] of count 5 (the y axis's top): from x = 482.5 to 620, y = 40
  // down to the axis at 340.
  EXPECT_THAT(svg, HasSubstr("<rect x=\"482.50\" y=\"40.00\" width=\"137.50\" height=\"300.00\" "
                             "fill=\"#1f77b4\" fill-opacity=\"0.8\""));
}

TEST(RenderSvg, ScatterIsCircles) {
  Plot plot;
  plot.series.push_back({Kind::kScatter, {0, 1, 2, 3, 4}, {3, 1, 4, 1, 5}});
  const std::string svg = RenderSvg(plot);
  EXPECT_EQ(Count(svg, "<circle"), 5);
  EXPECT_EQ(Count(svg, "r=\"2.5\" fill=\"#1f77b4\""), 5);
  EXPECT_THAT(svg, HasSubstr("<circle cx=\"70.00\" cy=\"190.00\" r=\"2.5\" fill=\"#1f77b4\"/>"));
}

TEST(RenderSvg, TicksAndTheirLabels) {
  const std::string svg = RenderSvg(Line());
  // x: 0 to 4 by 0.5 (target 7); y: 0 to 15 by 5.
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"middle\">0.5</text>"));
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"middle\">4.0</text>"));
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"end\">15</text>"));
  EXPECT_THAT(svg, HasSubstr("<text x=\"62.00\" y=\"344.00\" font-family=\"sans-serif\" "
                             "font-size=\"12\" text-anchor=\"end\">0</text>"));
}

TEST(RenderSvg, TitleAndAxisLabels) {
  const std::string svg = RenderSvg(Line());
  EXPECT_THAT(svg, HasSubstr("<text x=\"320.00\" y=\"24.00\" font-family=\"sans-serif\" "
                             "font-size=\"16\" text-anchor=\"middle\">squares</text>"));
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"middle\">x</text>"));
  EXPECT_THAT(svg, HasSubstr("transform=\"rotate(-90 18 190.00)\">y</text>"));
}

TEST(RenderSvg, TextIsEscaped) {
  Plot plot = Line();
  plot.title = "a < b & \"c\"";
  plot.xlabel = "</svg>";
  plot.ylabel = "bad \xff utf-8 \x01";
  const std::string svg = RenderSvg(plot);
  EXPECT_THAT(svg, HasSubstr(">a &lt; b &amp; &quot;c&quot;</text>"));
  EXPECT_THAT(svg, HasSubstr(">&lt;/svg&gt;</text>"));
  EXPECT_THAT(svg, HasSubstr(">bad \xEF\xBF\xBD utf-8  </text>"));
  EXPECT_TRUE(WellFormed(svg));
}

TEST(RenderSvg, EmptyPlot) {
  const std::string svg = RenderSvg(Plot{});
  EXPECT_THAT(svg, HasSubstr(">(no data)</text>"));
  EXPECT_THAT(svg, HasSubstr(">0.0</text>"));
  EXPECT_THAT(svg, HasSubstr(">1.0</text>"));
  EXPECT_EQ(Count(svg, "<polyline"), 0);
  EXPECT_TRUE(WellFormed(svg));
}

TEST(RenderSvg, WildDataGivesFiniteCoordinates) {
  const std::regex coordinate("=\"[^\"]*(nan|inf)");
  for (const Plot& plot : WildPlots()) {
    const std::string svg = RenderSvg(plot);
    EXPECT_TRUE(WellFormed(svg));
    EXPECT_FALSE(std::regex_search(svg, coordinate));
    EXPECT_THAT(svg, Not(HasSubstr(">nan<")));
  }
}

}  // namespace
}  // namespace alea::vm
