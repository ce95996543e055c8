// `progress(i, n)`'s bar (docs/language.md "Seeing results: plots and
// progress"): what to draw for step i of n at a time, at most ten times a
// second, the time left from the rate so far. Pure: the caller reads the
// clock and writes the line (Vm::Progress, to stderr when it is a
// terminal).
#ifndef ALEA_VM_PROGRESS_H_
#define ALEA_VM_PROGRESS_H_

#include <cstdint>
#include <optional>
#include <string>

namespace alea::vm {

class ProgressBar {
 public:
  // The line for step i (0-based, counted as done) of n at `now` seconds,
  // `width` columns wide: "\r" and the bar, with a newline after the last
  // step; nothing when a line was drawn less than 0.1 s ago (the first and
  // the last are always drawn). A step before the last one seen, or another
  // n, starts a new bar.
  std::optional<std::string> Update(int64_t i, int64_t n, double now, int width);

 private:
  int64_t last_i_ = -1, last_n_ = -1;
  double start_ = 0, last_draw_ = 0;
};

// "1:02:03" or "02:03".
std::string FormatDuration(double seconds);

}  // namespace alea::vm

#endif  // ALEA_VM_PROGRESS_H_
