// What both plot renderers share (vm/plot.h): round ticks and their labels,
// the series' colours, `hist`'s bins, the axis ranges of a plot's data,
// the legend's names and the note of what was left out.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "vm/plot.h"
#include "vm/plot_internal.h"

namespace alea::vm {
namespace {

constexpr double kMaxDouble = std::numeric_limits<double>::max();

// A histogram has no use for more bins than a screen has pixels many times
// over; the cap keeps a wild `bins` from allocating gigabytes.
constexpr int kMaxBins = 1'000'000;

// Ticks counts and places steps in units of the step itself, where a
// quotient like 0.3 / 0.1 lands a hair off 3: this much slack keeps the
// tick at the end of the range.
constexpr double kSlack = 1e-9;

// The floor of log10(v) for v > 0, steady at exact powers of ten, whose
// log10 may come out a rounding error below the integer.
int FloorLog10(double v) { return static_cast<int>(std::floor(std::log10(v) + kSlack)); }

// k * m * 10^e with as little rounding as possible: 3 * 0.1 is
// 0.30000000000000004 but 3 / 10 is the double nearest 0.3.
double StepMultiple(double k, int m, int e) {
  if (e < 0 && e >= -22) return k * m / std::pow(10.0, -e);  // 10^22 is exact
  return k * m * std::pow(10.0, e);
}

// "-0.0" (a value a rounding error below zero) reads as a sign error.
std::string DropMinusZero(std::string s) {
  if (!s.empty() && s[0] == '-' && s.find_first_not_of("0.", 1) == std::string::npos) {
    s.erase(0, 1);
  }
  return s;
}

void Widen(double& lo, double& hi) {
  if (lo < hi) return;
  const double w = std::max(1.0, std::fabs(lo) / 2);
  lo = std::max(lo - w, -kMaxDouble);
  hi = std::min(hi + w, kMaxDouble);
}

}  // namespace

std::vector<double> Ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
  if (lo > hi) std::swap(lo, hi);
  if (lo == hi) return {lo};
  // Two ticks at least: one tick gives no scale.
  target = std::clamp(target, 2, 50);
  const double span = hi - lo;
  const double raw_log = std::isfinite(span)
                             ? std::log10(span / target)
                             : std::log10(hi / 2 - lo / 2) + std::log10(2.0 / target);
  const int e = static_cast<int>(std::floor(raw_log));
  // The step is 1, 2 or 5 times 10^e, or 10^(e+1): the raw step lies in
  // [10^e, 10^(e+1)), so one of these gives the tick count nearest target.
  struct Candidate {
    int m, e;
  };
  const Candidate candidates[] = {{1, e}, {2, e}, {5, e}, {1, e + 1}};
  double best_kmin = 0, best_kmax = -1;
  Candidate best = candidates[0];
  double best_miss = std::numeric_limits<double>::infinity();
  for (const Candidate& c : candidates) {
    const double step = c.m * std::pow(10.0, c.e);
    if (!std::isfinite(step) || step <= 0) continue;
    const double kmin = std::ceil(lo / step - kSlack), kmax = std::floor(hi / step + kSlack);
    const double count = kmax - kmin + 1;
    // More than this means the steps are below the doubles' resolution.
    if (!(count >= 1 && count <= 1000)) continue;
    // Strictly better: on a tie the smaller step (more ticks) wins.
    const double miss = std::fabs(count - target);
    if (miss < best_miss) {
      best_miss = miss;
      best = c;
      best_kmin = kmin;
      best_kmax = kmax;
    }
  }
  std::vector<double> ticks;
  // Counted by an int: beyond 2^53, ++k on a double would not move.
  const int count = static_cast<int>(best_kmax - best_kmin + 1);
  for (int j = 0; j < count; ++j) {
    double v = std::clamp(StepMultiple(best_kmin + j, best.m, best.e), lo, hi);
    if (v == 0) v = 0;  // not -0
    if (ticks.empty() || v > ticks.back()) ticks.push_back(v);
  }
  return ticks;
}

namespace {

// The ticks' notation, one per axis: scientific when the largest is huge or
// tiny, so "800000" never stands beside "1e+06".
bool Scientific(double largest_magnitude) {
  return largest_magnitude >= 1e6 || (largest_magnitude != 0 && largest_magnitude < 1e-4);
}

// A tick computed a rounding error away from zero is zero ("0.0", not
// "-1e-17").
double SnapToZero(double value, double step) {
  return std::isfinite(step) && step > 0 && std::fabs(value) < step * 1e-9 ? 0 : value;
}

std::string Label(double value, double step, bool scientific) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  const bool has_step = std::isfinite(step) && step > 0;
  value = SnapToZero(value, step);
  // Among ticks in scientific notation zero is plain "0", not 0.00000...
  if (value == 0 && (scientific || !has_step || step < 1e-4)) return "0";
  const double magnitude = std::fabs(value);
  if (scientific) {
    // As many significant digits as the step resolves: 1.5e+06 for steps
    // of 5e+05, 1e+06 for steps of 1e+06.
    const int digits =
        has_step ? std::clamp(FloorLog10(magnitude) - FloorLog10(step) + 1, 1, 17) : 6;
    return absl::StrFormat("%.*g", digits, value);
  }
  if (!has_step) return DropMinusZero(absl::StrFormat("%g", value));
  const int decimals = std::clamp(-FloorLog10(step), 0, 17);
  return DropMinusZero(absl::StrFormat("%.*f", decimals, value));
}

}  // namespace

std::vector<std::string> TickLabels(absl::Span<const double> ticks, double lo, double hi) {
  const double step = std::fabs(ticks.size() >= 2 ? ticks[1] - ticks[0] : hi - lo);
  double largest = 0;
  for (double t : ticks) {
    if (std::isfinite(t)) largest = std::max(largest, std::fabs(SnapToZero(t, step)));
  }
  const bool scientific = Scientific(largest);
  std::vector<std::string> labels;
  labels.reserve(ticks.size());
  for (double t : ticks) labels.push_back(Label(t, step, scientific));
  return labels;
}

const char* SeriesColor(size_t index) {
  // matplotlib's tab10: familiar from other plots, distinct on white.
  static constexpr const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                            "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  return kColors[index % std::size(kColors)];
}

PlotSeries Histogram(absl::Span<const double> values, int bins) {
  PlotSeries series;
  series.kind = PlotSeries::Kind::kBars;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  int64_t n = 0;
  for (double v : values) {
    if (!std::isfinite(v)) {
      ++series.left_out;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    ++n;
  }
  if (n == 0) return series;
  if (lo == hi) {
    series.x = {lo - 0.5, lo + 0.5};
    series.y = {static_cast<double>(n)};
    return series;
  }
  bins = std::clamp(bins, 1, kMaxBins);
  series.x.resize(bins + 1);
  const double span = hi - lo;
  for (int i = 0; i <= bins; ++i) {
    const double t = static_cast<double>(i) / bins;
    // Both forms are nondecreasing in i; the second cannot overflow.
    series.x[i] = std::isfinite(span) ? lo + span * t : lo * (1 - t) + hi * t;
  }
  series.x[0] = lo;
  series.x[bins] = hi;
  series.y.assign(bins, 0.0);
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    int i = std::min(bins - 1, static_cast<int>(plot_internal::Fraction(v, lo, hi) * bins));
    // The quotient can round across an edge; the edges as stored decide
    // (a bin holds [x[i], x[i + 1]), the last one also its right edge).
    while (i > 0 && v < series.x[i]) --i;
    while (i < bins - 1 && v >= series.x[i + 1]) ++i;
    series.y[i] += 1;
  }
  return series;
}

namespace plot_internal {

double Fraction(double v, double lo, double hi) {
  const double span = hi - lo;
  if (std::isfinite(span)) return (v - lo) / span;
  // hi - lo overflows for a range like -1e308 to 1e308: the fraction is
  // taken on halves, which cannot.
  return (v / 2 - lo / 2) / (hi / 2 - lo / 2);
}

bool AxisRanges(const Plot& plot, double* xlo, double* xhi, double* ylo, double* yhi,
                int64_t* not_drawn) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double x0 = kInf, x1 = -kInf, y0 = kInf, y1 = -kInf;
  int64_t skipped = 0;
  auto take = [](double v, double& lo, double& hi) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const PlotSeries& s : plot.series) {
    const size_t n = ItemCount(s);
    for (size_t i = 0; i < n; ++i) {
      if (!ItemIsFinite(s, i)) {
        ++skipped;
        continue;
      }
      take(s.x[i], x0, x1);
      take(s.y[i], y0, y1);
      if (s.kind == PlotSeries::Kind::kBars) {
        take(s.x[i + 1], x0, x1);
        take(0, y0, y1);
      }
    }
  }
  *not_drawn = skipped;
  const bool has_data = x0 <= x1;
  if (!has_data) {
    x0 = y0 = 0;
    x1 = y1 = 1;
  }
  Widen(x0, x1);
  Widen(y0, y1);
  *xlo = x0;
  *xhi = x1;
  *ylo = y0;
  *yhi = y1;
  return has_data;
}

std::string SeriesName(const Plot& plot, size_t i) {
  const std::string& label = plot.series[i].label;
  return label.empty() ? absl::StrCat("series ", i + 1) : label;
}

bool HasLegend(const Plot& plot) {
  return plot.series.size() > 1 || (plot.series.size() == 1 && !plot.series[0].label.empty());
}

std::string NotDrawnNote(const Plot& plot, int64_t not_drawn) {
  int64_t left_out = 0;
  for (const PlotSeries& s : plot.series) left_out += s.left_out;
  std::vector<std::string> parts;
  if (not_drawn > 0) {
    parts.push_back(
        absl::StrCat(not_drawn, not_drawn == 1 ? " point" : " points", " not finite: not drawn"));
  }
  if (left_out > 0) {
    parts.push_back(
        absl::StrCat(left_out, left_out == 1 ? " value" : " values", " not finite: not counted"));
  }
  return parts.empty() ? std::string() : absl::StrCat("(", absl::StrJoin(parts, "; "), ")");
}

}  // namespace plot_internal
}  // namespace alea::vm
