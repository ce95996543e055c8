// The plot as a self-contained SVG document (vm/plot.h RenderSvg): a
// 640 x 400 picture with axes, round ticks and their labels, one colour per
// series.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "vm/plot.h"
#include "vm/plot_internal.h"
#include "vm/text_width.h"
#include "vm/utf8.h"

namespace alea::vm {
namespace {

using plot_internal::Fraction;
using plot_internal::ItemCount;
using plot_internal::ItemIsFinite;

constexpr double kWidth = 640, kHeight = 400;
// The plot area, inside margins for the tick labels, the title and the
// axis labels.
constexpr double kLeft = 70, kRight = kWidth - 20, kTop = 40, kBottom = kHeight - 60;
constexpr double kTickLength = 5;
constexpr char kFont[] = R"(font-family="sans-serif")";
constexpr char kGrey[] = "#666666";
constexpr char kGridColor[] = "#e5e5e5";

// One UTF-8 sequence's length at s[i], or 0 when it is not well-formed or
// is a character XML 1.0 does not allow (U+FFFE, U+FFFF).
size_t ValidSequence(const std::string& s, size_t i) {
  const size_t n = Utf8SequenceLength(s, i);
  if (n == 0) return 0;
  const char32_t code = Utf8CodePoint(s, i, n);
  return code == 0xFFFE || code == 0xFFFF ? 0 : n;
}

// Text as XML character data: markup characters escaped, and what XML
// cannot hold at all (control characters, broken UTF-8) replaced, so that
// any title still gives a well-formed document.
std::string XmlText(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
          out += ' ';
        } else if (const size_t n = ValidSequence(s, i); n > 0) {
          out.append(s, i, n);
          i += n;
          continue;
        } else {
          out += "\xEF\xBF\xBD";  // U+FFFD, the replacement character
        }
    }
    ++i;
  }
  return out;
}

// Data to picture coordinates.
class Frame {
 public:
  Frame(double xlo, double xhi, double ylo, double yhi)
      : xlo_(xlo), xhi_(xhi), ylo_(ylo), yhi_(yhi) {}
  double X(double x) const { return kLeft + Clamped(Fraction(x, xlo_, xhi_)) * (kRight - kLeft); }
  double Y(double y) const { return kBottom - Clamped(Fraction(y, ylo_, yhi_)) * (kBottom - kTop); }
  // Where bars stand: y = 0, or the bottom when 0 is off the axis.
  double Base() const { return Y(std::clamp(0.0, ylo_, yhi_)); }

 private:
  static double Clamped(double f) { return std::isfinite(f) ? std::clamp(f, 0.0, 1.0) : 0; }
  double xlo_, xhi_, ylo_, yhi_;
};

std::string Text(double x, double y, const std::string& text, const char* anchor, int size,
                 const std::string& extra = "") {
  return absl::StrFormat(R"(<text x="%.2f" y="%.2f" %s font-size="%d" text-anchor="%s"%s>%s</text>)"
                         "\n",
                         x, y, kFont, size, anchor, extra, XmlText(text));
}

// A straight line of one pixel in `stroke`, for the axes, their ticks and
// the grid.
void Line(double x1, double y1, double x2, double y2, const char* stroke, std::string& out) {
  absl::StrAppendFormat(&out,
                        R"(<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="%s"/>)"
                        "\n",
                        x1, y1, x2, y2, stroke);
}

void Series(const PlotSeries& s, const char* color, const Frame& frame, std::string& out) {
  const size_t n = ItemCount(s);
  if (s.kind == PlotSeries::Kind::kBars) {
    const double base = frame.Base();
    for (size_t i = 0; i < n; ++i) {
      if (!ItemIsFinite(s, i)) continue;
      const double x0 = frame.X(s.x[i]), x1 = frame.X(s.x[i + 1]), top = frame.Y(s.y[i]);
      absl::StrAppendFormat(
          &out,
          R"(<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" fill-opacity="0.8" )"
          R"(stroke="white" stroke-width="0.5"/>)"
          "\n",
          std::min(x0, x1), std::min(top, base), std::fabs(x1 - x0), std::fabs(base - top), color);
    }
    return;
  }
  if (s.kind == PlotSeries::Kind::kScatter) {
    for (size_t i = 0; i < n; ++i) {
      if (!ItemIsFinite(s, i)) continue;
      absl::StrAppendFormat(&out,
                            R"(<circle cx="%.2f" cy="%.2f" r="2.5" fill="%s"/>)"
                            "\n",
                            frame.X(s.x[i]), frame.Y(s.y[i]), color);
    }
    return;
  }
  // A line: one polyline per run of finite points (a non-finite point
  // breaks it); a run of one point, which a polyline would not show, is a
  // dot.
  for (size_t i = 0; i < n;) {
    size_t end = i;
    while (end < n && ItemIsFinite(s, end)) ++end;
    if (end - i == 1) {
      absl::StrAppendFormat(&out,
                            R"(<circle cx="%.2f" cy="%.2f" r="1.5" fill="%s"/>)"
                            "\n",
                            frame.X(s.x[i]), frame.Y(s.y[i]), color);
    } else if (end - i > 1) {
      std::string points;
      for (size_t k = i; k < end; ++k) {
        absl::StrAppendFormat(&points, "%s%.2f,%.2f", k == i ? "" : " ", frame.X(s.x[k]),
                              frame.Y(s.y[k]));
      }
      absl::StrAppendFormat(&out,
                            R"(<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>)"
                            "\n",
                            color, points);
    }
    i = std::max(end, i + 1);
  }
}

// How much of the drawn data lies in the box: its points, its lines
// sampled every few pixels and its bars' area (a point's worth per 50
// px^2); where the legend goes, the less the better.
double Covered(const Plot& plot, const Frame& frame, double left, double top, double width,
               double height) {
  const auto inside = [&](double x, double y) {
    return x >= left && x <= left + width && y >= top && y <= top + height;
  };
  double covered = 0;
  for (const PlotSeries& s : plot.series) {
    const size_t n = ItemCount(s);
    if (s.kind == PlotSeries::Kind::kBars) {
      for (size_t i = 0; i < n; ++i) {
        if (!ItemIsFinite(s, i)) continue;
        const double x0 = frame.X(s.x[i]), x1 = frame.X(s.x[i + 1]);
        const double y0 = frame.Y(s.y[i]), y1 = frame.Base();
        const double w =
            std::min(std::max(x0, x1), left + width) - std::max(std::min(x0, x1), left);
        const double h = std::min(std::max(y0, y1), top + height) - std::max(std::min(y0, y1), top);
        if (w > 0 && h > 0) covered += w * h / 50;
      }
      continue;
    }
    for (size_t i = 0; i < n; ++i) {
      if (!ItemIsFinite(s, i)) continue;
      const double x = frame.X(s.x[i]), y = frame.Y(s.y[i]);
      covered += inside(x, y);
      if (s.kind != PlotSeries::Kind::kLine || i + 1 >= n || !ItemIsFinite(s, i + 1)) continue;
      // The segment to the next point, every 4 px or so.
      const double x1 = frame.X(s.x[i + 1]), y1 = frame.Y(s.y[i + 1]);
      const int steps = std::clamp(static_cast<int>(std::hypot(x1 - x, y1 - y) / 4), 0, 200);
      for (int k = 1; k < steps; ++k) {
        const double t = static_cast<double>(k) / steps;
        covered += inside(x + (x1 - x) * t, y + (y1 - y) * t);
      }
    }
  }
  return covered;
}

// A box in the corner of the plot area that hides the least data (the
// top right on a tie): a swatch of each series' mark and its name, as many
// as fit in the plot area, then how many more there are.
void Legend(const Plot& plot, const Frame& frame, std::string& out) {
  constexpr double kRowHeight = 18;
  // Sized to the longest name at 12 px sans-serif (about 7 px a column),
  // at most the plot area's width, which cuts longer names.
  constexpr double kColumn = 7, kMarkWidth = 44;
  const int most_columns = static_cast<int>((kRight - kLeft - 20 - kMarkWidth) / kColumn);
  std::vector<std::string> names;
  int widest = 0;
  for (size_t i = 0; i < plot.series.size(); ++i) {
    names.push_back(FitWidth(plot_internal::SeriesName(plot, i), most_columns));
    widest = std::max(widest, TextWidth(names.back()));
  }
  const double box_width = std::max(90.0, kMarkWidth + kColumn * widest);
  constexpr size_t kMaxRows = 15;
  const size_t n = plot.series.size();
  const size_t rows = std::min(n, kMaxRows), shown = n > kMaxRows ? kMaxRows - 1 : n;
  const double box_height = kRowHeight * rows + 8;
  struct Corner {
    double left, top;
  };
  const double right = kRight - 10 - box_width, bottom = kBottom - 10 - box_height;
  const Corner corners[] = {
      {right, kTop + 10}, {kLeft + 10, kTop + 10}, {right, bottom}, {kLeft + 10, bottom}};
  Corner best = corners[0];
  double least = Covered(plot, frame, best.left, best.top, box_width, box_height);
  for (const Corner& c : corners) {
    const double covered = Covered(plot, frame, c.left, c.top, box_width, box_height);
    if (covered < least) {
      least = covered;
      best = c;
    }
  }
  const double left = best.left, top = best.top;
  absl::StrAppendFormat(
      &out,
      R"(<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="white" fill-opacity="0.9" )"
      R"(stroke="#cccccc"/>)"
      "\n",
      left, top, box_width, box_height);
  for (size_t i = 0; i < shown; ++i) {
    const char* color = SeriesColor(i);
    const double y = top + 4 + kRowHeight * (i + 0.5);  // the row's middle
    switch (plot.series[i].kind) {
      case PlotSeries::Kind::kLine:
        absl::StrAppendFormat(
            &out,
            R"(<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="%s" stroke-width="1.5"/>)"
            "\n",
            left + 8, y, left + 28, y, color);
        break;
      case PlotSeries::Kind::kScatter:
        absl::StrAppendFormat(&out,
                              R"(<circle cx="%.2f" cy="%.2f" r="2.5" fill="%s"/>)"
                              "\n",
                              left + 18, y, color);
        break;
      case PlotSeries::Kind::kBars:
        absl::StrAppendFormat(&out,
                              R"(<rect x="%.2f" y="%.2f" width="20" height="10" fill="%s"/>)"
                              "\n",
                              left + 8, y - 5, color);
        break;
    }
    out += Text(left + 36, y + 4, names[i], "start", 12);
  }
  if (shown < n) {
    out += Text(left + 8, top + 4 + kRowHeight * (shown + 0.5) + 4,
                absl::StrCat("+ ", n - shown, " more"), "start", 12);
  }
}

}  // namespace

std::string RenderSvg(const Plot& plot) {
  double xlo, xhi, ylo, yhi;
  int64_t not_drawn = 0;
  const bool has_data = plot_internal::AxisRanges(plot, &xlo, &xhi, &ylo, &yhi, &not_drawn);
  const Frame frame(xlo, xhi, ylo, yhi);

  std::string out = absl::StrFormat(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g">)"
      "\n"
      R"(<rect width="%g" height="%g" fill="white"/>)"
      "\n",
      kWidth, kHeight, kWidth, kHeight, kWidth, kHeight);

  // Grid lines and ticks first, so the data is drawn over them.
  const std::vector<double> xticks = Ticks(xlo, xhi, 7), yticks = Ticks(ylo, yhi, 5);
  const std::vector<std::string> xtick_labels = TickLabels(xticks, xlo, xhi);
  const std::vector<std::string> ytick_labels = TickLabels(yticks, ylo, yhi);
  std::string labels;
  for (size_t i = 0; i < xticks.size(); ++i) {
    const double x = frame.X(xticks[i]);
    Line(x, kTop, x, kBottom, kGridColor, out);
    Line(x, kBottom, x, kBottom + kTickLength, "black", out);
    labels += Text(x, kBottom + kTickLength + 13, xtick_labels[i], "middle", 12);
  }
  for (size_t i = 0; i < yticks.size(); ++i) {
    const double y = frame.Y(yticks[i]);
    Line(kLeft, y, kRight, y, kGridColor, out);
    Line(kLeft - kTickLength, y, kLeft, y, "black", out);
    labels += Text(kLeft - kTickLength - 3, y + 4, ytick_labels[i], "end", 12);
  }
  out += labels;

  for (size_t i = 0; i < plot.series.size(); ++i) {
    Series(plot.series[i], SeriesColor(i), frame, out);
  }
  // The axes over the bars that stand on them.
  Line(kLeft, kTop, kLeft, kBottom, "black", out);
  Line(kLeft, kBottom, kRight, kBottom, "black", out);
  if (plot_internal::HasLegend(plot)) Legend(plot, frame, out);

  const double middle_x = (kLeft + kRight) / 2, middle_y = (kTop + kBottom) / 2;
  if (!has_data) {
    out += Text(middle_x, middle_y + 4, "(no data)", "middle", 12,
                absl::StrCat(R"( fill=")", kGrey, "\""));
  }
  if (!plot.title.empty()) out += Text(kWidth / 2, 24, plot.title, "middle", 16);
  if (!plot.xlabel.empty()) out += Text(middle_x, kHeight - 20, plot.xlabel, "middle", 12);
  if (!plot.ylabel.empty()) {
    out += Text(18, middle_y, plot.ylabel, "middle", 12,
                absl::StrFormat(" transform=\"rotate(-90 18 %.2f)\"", middle_y));
  }
  const std::string note = plot_internal::NotDrawnNote(plot, not_drawn);
  if (!note.empty()) {
    out += Text(kRight, kHeight - 5, note, "end", 10, absl::StrCat(R"( fill=")", kGrey, "\""));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace alea::vm
