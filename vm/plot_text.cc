// The plot in the terminal (vm/plot.h RenderText): braille dots for lines
// and points, eighth blocks for bars, round ticks on both axes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/plot.h"
#include "vm/plot_internal.h"
#include "vm/text_width.h"

namespace alea::vm {
namespace {

using plot_internal::Fraction;

constexpr int kRows = 15;
constexpr int kMinWidth = 30;
// A width beyond any terminal would only allocate: the cap keeps a wild
// argument harmless.
constexpr int kMaxWidth = 1000;
// The canvas keeps this many columns even when long tick labels eat the
// width (the line then runs past it).
constexpr int kMinCols = 8;
constexpr int kDotRows = 4 * kRows;

// xterm's 256-colour palette entries nearest SeriesColor's, in its order.
constexpr int kAnsiColors[] = {31, 208, 34, 160, 97, 95, 175, 244, 142, 38};

// Dot bits of a braille cell, by dot column then dot row (U+2800 + bits).
constexpr uint8_t kDotBits[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

constexpr std::string_view kBlocks[] = {"", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

std::string AnsiColor(int series) {
  return absl::StrCat("\x1b[38;5;", kAnsiColors[series % std::size(kAnsiColors)], "m");
}
constexpr char kAnsiReset[] = "\x1b[0m";

// A newline or escape in a title would break the layout or drive the
// terminal: control characters show as spaces.
std::string Printable(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) c = ' ';
  }
  return out;
}

std::string Spaces(int n) { return std::string(std::max(n, 0), ' '); }

// A label (a title, an axis label) centered over the `cols` columns
// starting at column `start`, cut to fit the line's `width` and kept
// within it.
std::string Centered(std::string_view label, int start, int cols, int width) {
  const std::string text = FitWidth(Printable(label), width);
  const int w = TextWidth(text);
  return Spaces(std::min(start + (cols - w) / 2, width - w)) + text;
}

std::string Braille(uint8_t bits) {
  const int code = 0x2800 + bits;
  return {static_cast<char>(0xE0 | (code >> 12)), static_cast<char>(0x80 | ((code >> 6) & 0x3F)),
          static_cast<char>(0x80 | (code & 0x3F))};
}

// The canvas: kRows x cols cells, each 2 x 4 braille dots or a bar's block.
class Canvas {
 public:
  Canvas(int cols, double xlo, double xhi, double ylo, double yhi)
      : cols_(cols), xlo_(xlo), xhi_(xhi), ylo_(ylo), yhi_(yhi), cells_(kRows * cols) {}

  // Dot coordinates: x from the left, y from the top. A dot is the value's
  // share of the axis, the axis cut into as many equal pieces as dots: the
  // cell of a value then is the cell its tick mark and its bar's top are in.
  int DotX(double x) const { return Scale(Fraction(x, xlo_, xhi_), 2 * cols_); }
  int DotY(double y) const { return Scale(1 - Fraction(y, ylo_, yhi_), kDotRows); }

  void Dot(int x, int y, int series) {
    Cell& cell = At(y / 4, x / 2);
    cell.dots |= kDotBits[x % 2][y % 4];
    cell.dot_owner = series;
  }

  // Bresenham's line, every dot from (x0, y0) to (x1, y1).
  void Line(int x0, int y0, int x1, int y1, int series) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
      Dot(x0, y0, series);
      if (x0 == x1 && y0 == y1) return;
      const int e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }

  // A bar over the columns [c0, c1] from y = 0 (the bottom of its cell) up
  // to `value`.
  void Bar(int c0, int c1, double value, int series) {
    constexpr int kEighths = 8 * kRows;
    const auto eighths = [&](double y) {
      return Fraction(std::clamp(y, ylo_, yhi_), ylo_, yhi_) * kEighths;
    };
    const int base = static_cast<int>(std::floor(eighths(0) / 8)) * 8;
    int top = static_cast<int>(std::lround(eighths(value)));
    // A count too small for an eighth still shows: an empty bin and a bin
    // of one differ.
    if (value > 0 && top <= base) top = base + 1;
    for (int r = 0; r < kRows; ++r) {
      const int bottom = 8 * r;
      const int fill = std::clamp(top - bottom, 0, 8);
      if (bottom < base || fill == 0) continue;
      for (int c = c0; c <= c1; ++c) {
        Cell& cell = At(kRows - 1 - r, c);
        // Narrow bins of one series sharing a column show the tallest.
        cell.bar = cell.bar_owner == series ? std::max<int>(cell.bar, fill) : fill;
        cell.bar_owner = series;
      }
    }
  }

  // The cell's character and the series that owns it (-1: blank); a bar
  // hides the dots in its cell.
  std::pair<std::string, int> Glyph(int row, int col) const {
    const Cell& cell = cells_[row * cols_ + col];
    if (cell.bar > 0) return {std::string(kBlocks[cell.bar]), cell.bar_owner};
    if (cell.dots != 0) return {Braille(cell.dots), cell.dot_owner};
    return {" ", -1};
  }

 private:
  struct Cell {
    uint8_t dots = 0, bar = 0;
    int dot_owner = -1, bar_owner = -1;
  };

  // The piece of `n` that `fraction` of the way falls in; the far end is in
  // the last one. A value on a boundary (a round tick often is) goes to
  // the piece after it, also when the fraction comes out a rounding error
  // short (1 - 0.8 is 0.19999999999999996).
  static int Scale(double fraction, int n) {
    if (!std::isfinite(fraction)) return 0;
    const double at = std::clamp(fraction, 0.0, 1.0) * n + 1e-9;
    return std::min(n - 1, static_cast<int>(at));
  }
  Cell& At(int row, int col) {
    return cells_[std::clamp(row, 0, kRows - 1) * cols_ + std::clamp(col, 0, cols_ - 1)];
  }

  int cols_;
  double xlo_, xhi_, ylo_, yhi_;
  std::vector<Cell> cells_;
};

void Draw(const PlotSeries& s, int series, Canvas& canvas) {
  const size_t n = plot_internal::ItemCount(s);
  if (s.kind == PlotSeries::Kind::kBars) {
    for (size_t i = 0; i < n; ++i) {
      if (!plot_internal::ItemIsFinite(s, i)) continue;
      const int c0 = canvas.DotX(s.x[i]) / 2, c1 = canvas.DotX(s.x[i + 1]) / 2;
      // A bin takes the columns from its left edge's up to its right edge's,
      // which is the next bin's first; the last bin keeps its right edge's.
      canvas.Bar(c0, std::max(c0, i + 1 == n ? c1 : c1 - 1), s.y[i], series);
    }
    return;
  }
  bool joined = false;  // whether the previous point was drawn
  int px = 0, py = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!plot_internal::ItemIsFinite(s, i)) {
      joined = false;
      continue;
    }
    const int x = canvas.DotX(s.x[i]), y = canvas.DotY(s.y[i]);
    if (s.kind == PlotSeries::Kind::kLine && joined) {
      canvas.Line(px, py, x, y, series);
    } else {
      canvas.Dot(x, y, series);
    }
    px = x;
    py = y;
    joined = true;
  }
}

// `text` in the series' colour, or as is.
std::string Paint(const std::string& text, int series, bool color) {
  if (!color || series < 0) return text;
  return absl::StrCat(AnsiColor(series), text, kAnsiReset);
}

void AppendTrimmed(std::string& out, std::string_view line) {
  const size_t end = line.find_last_not_of(' ');
  out.append(line.substr(0, end == std::string_view::npos ? 0 : end + 1));
  out.push_back('\n');
}

}  // namespace

std::string RenderText(const Plot& plot, int width, bool color) {
  width = std::clamp(width, kMinWidth, kMaxWidth);
  double xlo, xhi, ylo, yhi;
  int64_t not_drawn = 0;
  const bool has_data = plot_internal::AxisRanges(plot, &xlo, &xhi, &ylo, &yhi, &not_drawn);

  // The y labels fix the left margin, the margin the canvas's width.
  const std::vector<double> yticks = Ticks(ylo, yhi, 5);
  const std::vector<std::string> ytick_labels = TickLabels(yticks, ylo, yhi);
  std::vector<std::string> ylabels(kRows);
  // Rows are placed as the data is, through a canvas of any width.
  const Canvas rows_only(1, xlo, xhi, ylo, yhi);
  size_t label_width = 0;
  for (size_t i = 0; i < yticks.size(); ++i) {
    std::string& label = ylabels[rows_only.DotY(yticks[i]) / 4];
    if (!label.empty()) continue;  // two ticks in a row: the first
    label = ytick_labels[i];
    label_width = std::max(label_width, label.size());
  }
  const int axis = static_cast<int>(label_width) + 1;  // the axis's column
  const int cols = std::max(kMinCols, width - axis - 1);
  const int line_width = axis + 1 + cols;  // the width, unless labels are long
  Canvas canvas(cols, xlo, xhi, ylo, yhi);
  for (size_t i = 0; i < plot.series.size(); ++i) {
    Draw(plot.series[i], static_cast<int>(i), canvas);
  }

  std::string out;
  if (!plot.title.empty()) AppendTrimmed(out, Centered(plot.title, axis + 1, cols, line_width));
  if (!plot.ylabel.empty()) AppendTrimmed(out, FitWidth(Printable(plot.ylabel), line_width));
  constexpr std::string_view kNoData = "(no data)";
  const int no_data_col = (cols - static_cast<int>(kNoData.size())) / 2;
  for (int r = 0; r < kRows; ++r) {
    const std::string& label = ylabels[r];
    std::string line = absl::StrCat(Spaces(axis - 1 - static_cast<int>(label.size())), label, " ",
                                    label.empty() ? "│" : "┤");
    int painted = -1;  // the series whose colour is on
    for (int c = 0; c < cols; ++c) {
      auto [glyph, owner] = canvas.Glyph(r, c);
      if (!has_data && r == kRows / 2 && c >= no_data_col &&
          c - no_data_col < static_cast<int>(kNoData.size())) {
        glyph = std::string(1, kNoData[c - no_data_col]);
        owner = -1;
      }
      // One escape per run of a series' cells, not per cell.
      if (color && owner != painted) {
        if (painted >= 0) line += kAnsiReset;
        if (owner >= 0) line += AnsiColor(owner);
        painted = owner;
      }
      line += glyph;
    }
    if (color && painted >= 0) line += kAnsiReset;
    AppendTrimmed(out, line);
  }

  const std::vector<double> xticks = Ticks(xlo, xhi, std::clamp(cols / 8, 2, 10));
  const std::vector<std::string> xtick_labels = TickLabels(xticks, xlo, xhi);
  std::vector<bool> tick_at(cols, false);
  std::string labels;
  int labels_end = -1;  // the column after the last label placed
  for (size_t i = 0; i < xticks.size(); ++i) {
    const int c = canvas.DotX(xticks[i]) / 2;
    tick_at[c] = true;
    const std::string& label = xtick_labels[i];
    const int w = TextWidth(label);
    // Centered under its ┬, kept within the line, a space from the last.
    const int start = std::max(0, std::min(axis + 1 + c - w / 2, line_width - w));
    if (labels_end >= 0 && start <= labels_end) continue;
    labels += Spaces(start - static_cast<int>(labels.size())) + label;
    labels_end = start + w;
  }
  std::string axis_line = absl::StrCat(Spaces(axis), "└");
  for (int c = 0; c < cols; ++c) axis_line += tick_at[c] ? "┬" : "─";
  AppendTrimmed(out, axis_line);
  AppendTrimmed(out, labels);
  if (!plot.xlabel.empty()) AppendTrimmed(out, Centered(plot.xlabel, axis + 1, cols, line_width));

  if (plot_internal::HasLegend(plot)) {
    // "■ series 1  ■ series 2", wrapped at the width; a name too long for
    // a line of its own is cut.
    const int start = axis + 1;
    std::string line = Spaces(start);
    int used = start;
    for (size_t i = 0; i < plot.series.size(); ++i) {
      const std::string entry = absl::StrCat(
          "■ ", FitWidth(Printable(plot_internal::SeriesName(plot, i)), line_width - start - 2));
      const int w = TextWidth(entry);
      if (used > start && used + 2 + w > line_width) {
        AppendTrimmed(out, line);
        line = Spaces(start);
        used = start;
      }
      if (used > start) {
        line += "  ";
        used += 2;
      }
      line += Paint(entry, static_cast<int>(i), color);
      used += w;
    }
    AppendTrimmed(out, line);
  }
  const std::string note = plot_internal::NotDrawnNote(plot, not_drawn);
  if (!note.empty()) AppendTrimmed(out, Spaces(axis + 1) + note);
  return out;
}

}  // namespace alea::vm
