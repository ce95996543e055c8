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

namespace alea::vm {
namespace {

using plot_internal::Fraction;

constexpr double kWidth = 640, kHeight = 400;
// The plot area, inside margins for the tick labels, the title and the
// axis labels.
constexpr double kLeft = 70, kRight = kWidth - 20, kTop = 40, kBottom = kHeight - 60;
constexpr double kTickLength = 5;
constexpr char kFont[] = R"(font-family="sans-serif")";
constexpr char kGrey[] = "#666666";

// One UTF-8 sequence's length at s[i], or 0 when it is not valid UTF-8 (an
// overlong form, a surrogate, beyond U+10FFFF, a lone continuation byte) or
// is a character XML 1.0 does not allow (U+FFFE, U+FFFF).
size_t ValidSequence(const std::string& s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  size_t n;
  uint32_t code;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    code = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = code << 6 | (byte(i + k) & 0x3F);
  }
  constexpr uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kLeast[n] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF) || code == 0xFFFE ||
      code == 0xFFFF) {
    return 0;
  }
  return n;
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

void Series(const PlotSeries& s, const char* color, const Frame& frame, std::string& out) {
  if (s.kind == PlotSeries::Kind::kBars) {
    const size_t n = s.x.empty() ? 0 : std::min(s.x.size() - 1, s.y.size());
    const double base = frame.Base();
    for (size_t i = 0; i < n; ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.x[i + 1]) || !std::isfinite(s.y[i])) continue;
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
  const size_t n = std::min(s.x.size(), s.y.size());
  if (s.kind == PlotSeries::Kind::kScatter) {
    for (size_t i = 0; i < n; ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
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
    while (end < n && std::isfinite(s.x[end]) && std::isfinite(s.y[end])) ++end;
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

// A box in the top right corner: a swatch of each series' mark and its
// name, as many as fit in the plot area, then how many more there are.
void Legend(const Plot& plot, std::string& out) {
  constexpr double kRowHeight = 18, kBoxWidth = 90;
  const double left = kRight - 10 - kBoxWidth, top = kTop + 10;
  constexpr size_t kMaxRows = 15;
  const size_t n = plot.series.size();
  const size_t rows = std::min(n, kMaxRows), shown = n > kMaxRows ? kMaxRows - 1 : n;
  absl::StrAppendFormat(
      &out,
      R"(<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="white" fill-opacity="0.9" )"
      R"(stroke="#cccccc"/>)"
      "\n",
      left, top, kBoxWidth, kRowHeight * rows + 8);
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
    out += Text(left + 36, y + 4, absl::StrCat("series ", i + 1), "start", 12);
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
    absl::StrAppendFormat(&out,
                          R"(<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#e5e5e5"/>)"
                          "\n"
                          R"(<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="black"/>)"
                          "\n",
                          x, kTop, x, kBottom, x, kBottom, x, kBottom + kTickLength);
    labels += Text(x, kBottom + kTickLength + 13, xtick_labels[i], "middle", 12);
  }
  for (size_t i = 0; i < yticks.size(); ++i) {
    const double y = frame.Y(yticks[i]);
    absl::StrAppendFormat(&out,
                          R"(<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#e5e5e5"/>)"
                          "\n"
                          R"(<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="black"/>)"
                          "\n",
                          kLeft, y, kRight, y, kLeft - kTickLength, y, kLeft, y);
    labels += Text(kLeft - kTickLength - 3, y + 4, ytick_labels[i], "end", 12);
  }
  out += labels;

  for (size_t i = 0; i < plot.series.size(); ++i) {
    Series(plot.series[i], SeriesColor(i), frame, out);
  }
  // The axes over the bars that stand on them.
  absl::StrAppendFormat(&out,
                        R"(<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="black"/>)"
                        "\n"
                        R"(<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="black"/>)"
                        "\n",
                        kLeft, kTop, kLeft, kBottom, kLeft, kBottom, kRight, kBottom);
  if (plot.series.size() > 1) Legend(plot, out);

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
