// What the plot renderers share beyond vm/plot.h (plot_axes.cc defines it;
// plot_text.cc and plot_svg.cc draw with it).
#ifndef ALEA_VM_PLOT_INTERNAL_H_
#define ALEA_VM_PLOT_INTERNAL_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "vm/plot.h"

namespace alea::vm::plot_internal {

// The items of a series: its bars (x holds their edges, y their counts) or
// its points, as many as the shorter of x and y allows.
inline size_t ItemCount(const PlotSeries& s) {
  if (s.kind == PlotSeries::Kind::kBars)
    return s.x.empty() ? 0 : std::min(s.x.size() - 1, s.y.size());
  return std::min(s.x.size(), s.y.size());
}

// Whether item i (< ItemCount) is drawn: all its coordinates finite.
inline bool ItemIsFinite(const PlotSeries& s, size_t i) {
  if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) return false;
  return s.kind != PlotSeries::Kind::kBars || std::isfinite(s.x[i + 1]);
}

// Where v lies from lo (0) to hi (1), for any finite lo < hi.
double Fraction(double v, double lo, double hi);

// The x and y ranges over the finite data, widened where empty, 0 to 1
// when there is none (then false); `not_drawn` counts the points and bars
// with a non-finite coordinate.
bool AxisRanges(const Plot& plot, double* xlo, double* xhi, double* ylo, double* yhi,
                int64_t* not_drawn);

// The name of series i in the legend: its label, or "series i+1".
std::string SeriesName(const Plot& plot, size_t i);

// Whether the plot has a legend: more than one series, or a labelled one.
bool HasLegend(const Plot& plot);

// The note under a plot that left data out: "(2 points not finite: not
// drawn)" for `not_drawn` points, "(3 values not finite: not counted)" for
// what `hist` left out, both joined; empty when nothing was.
std::string NotDrawnNote(const Plot& plot, int64_t not_drawn);

}  // namespace alea::vm::plot_internal

#endif  // ALEA_VM_PLOT_INTERNAL_H_
