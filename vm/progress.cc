#include "vm/progress.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace alea::vm {
namespace {

// Eighths of a cell, for the bar's last partial cell.
constexpr std::string_view kEighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
constexpr std::string_view kFull = "█";

}  // namespace

std::string FormatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto total = static_cast<int64_t>(seconds + 0.5);
  const int64_t h = total / 3600, m = total / 60 % 60, s = total % 60;
  return h > 0 ? absl::StrFormat("%d:%02d:%02d", h, m, s) : absl::StrFormat("%02d:%02d", m, s);
}

std::optional<std::string> ProgressBar::Update(int64_t i, int64_t n, double now, int width) {
  const bool fresh = n != last_n_ || i < last_i_;
  if (fresh) {
    start_ = now;
    last_draw_ = -1;
  }
  last_i_ = i;
  last_n_ = n;
  const bool last = i + 1 == n;
  if (!fresh && !last && now - last_draw_ < 0.1) return std::nullopt;
  last_draw_ = now;

  const int64_t done = i + 1;
  const double fraction = static_cast<double>(done) / static_cast<double>(n);
  const double elapsed = now - start_;
  // The rate counts the steps since the bar started (the first step's
  // start is its time 0), so it shows once one step has passed.
  const double rate = elapsed > 0 && i > 0 ? static_cast<double>(i) / elapsed : 0;
  const std::string rate_text = rate <= 0   ? "? it/s"
                                : rate >= 1 ? absl::StrFormat("%.2f it/s", rate)
                                            : absl::StrFormat("%.2f s/it", 1 / rate);
  const std::string left =
      rate > 0 ? FormatDuration(static_cast<double>(n - done) / rate) : std::string("?");
  const std::string count = absl::StrCat(done, "/", n);
  const std::string tail =
      absl::StrCat("| ", count, " [", FormatDuration(elapsed), "<", left, ", ", rate_text, "]");
  const std::string head = absl::StrFormat("%3d%% |", static_cast<int>(fraction * 100));
  // The bar takes the columns the text leaves (at least 10).
  const int cells = std::max(10, width - static_cast<int>(head.size() + tail.size()) - 1);
  const int64_t eighths = static_cast<int64_t>(fraction * cells * 8);
  std::string bar;
  for (int64_t c = 0; c < eighths / 8; ++c) bar.append(kFull);
  int64_t shown = eighths / 8;
  if (shown < cells && eighths % 8 != 0) {
    bar.append(kEighths[eighths % 8]);
    ++shown;
  }
  bar.append(static_cast<size_t>(cells - shown), ' ');
  return absl::StrCat("\r", head, bar, tail, last ? "\n" : "");
}

}  // namespace alea::vm
