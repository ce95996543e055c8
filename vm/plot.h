// A plot (docs/language.md "Seeing results: plots and progress"): what
// `hist`, `plot`, `scatter` and `overlay` build, drawn in the terminal with
// Unicode characters (plot_text.cc) or written as a self-contained SVG
// (plot_svg.cc). The language's `Plot` value holds the same data
// (stdlib/plots.cc converts it); this header knows nothing of the VM.
#ifndef ALEA_VM_PLOT_H_
#define ALEA_VM_PLOT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"

namespace alea::vm {

struct PlotSeries {
  enum class Kind : uint8_t { kLine, kScatter, kBars };
  Kind kind = Kind::kLine;
  // kLine, kScatter: the points (x[i], y[i]), in order; a point with a NaN
  // or infinite coordinate is not drawn (a line breaks there).
  // kBars: a histogram: x holds the n + 1 bin edges (ascending), y the n
  // counts (>= 0).
  std::vector<double> x, y;
  // kBars: the values `hist` did not count, NaN or infinite (the drawing
  // says how many).
  int64_t left_out = 0;
  // Its name in the legend; "series 1", "series 2"... where empty.
  std::string label{};
};

struct Plot {
  std::vector<PlotSeries> series;  // drawn in order, one colour each
  std::string title, xlabel, ylabel;
};

// The plot drawn in `width` columns (clamped to at least 30), each line
// ending in '\n': the title, the ylabel, a canvas of braille dots (lines
// and points) and block characters (bars) with a y axis of round tick
// values on the left and an x axis of round tick values below, then the
// xlabel. `color`: each series in its ANSI colour (a terminal); without
// it the output is plain text (files, tests). Empty or all-NaN data draws
// the axes and says so.
std::string RenderText(const Plot& plot, int width, bool color);

// The plot as a self-contained SVG document (640 x 400, axes with round
// ticks and their labels, the title and axis labels, one colour per
// series).
std::string RenderSvg(const Plot& plot);

// `hist`'s series: `bins` equal bins over [min, max] of the finite values
// (one bin of width 1 around a single value; no bins for none); NaN and
// infinite values are not counted but counted in `left_out`.
PlotSeries Histogram(absl::Span<const double> values, int bins);

// Round tick values for an axis from lo to hi (lo < hi): steps of 1, 2 or
// 5 times a power of ten, about `target` of them, all within [lo, hi].
std::vector<double> Ticks(double lo, double hi, int target);
// The labels of an axis's ticks (Ticks(lo, hi, ...)): as few decimals as
// the step between them needs ("0.5", "10"), in scientific notation
// ("1e+06", "2.5e-05") when the largest tick is at least 1e6 or below
// 1e-4, one notation for all.
std::vector<std::string> TickLabels(absl::Span<const double> ticks, double lo, double hi);

// The series' colours, as SVG hex colours, by series index (cycling).
const char* SeriesColor(size_t index);

}  // namespace alea::vm

#endif  // ALEA_VM_PLOT_H_
