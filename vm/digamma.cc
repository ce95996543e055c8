#include "vm/digamma.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace alea::vm {

double Digamma(double x) {
  if (std::isnan(x) || (x <= 0 && x == std::floor(x))) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (x == std::numeric_limits<double>::infinity()) return x;
  double result = 0;
  // Reflection below zero: psi(x) = psi(1 - x) - pi / tan(pi x).
  if (x < 0) {
    result = -std::numbers::pi / std::tan(std::numbers::pi * x);
    x = 1 - x;
  }
  // The recurrence psi(x) = psi(x + 1) - 1 / x up to where the asymptotic
  // series is accurate to double precision.
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  // psi(x) ~ log(x) - 1/2x - sum B_2k / (2k x^2k).
  const double f = 1 / (x * x);
  const double series =
      f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
  return result + std::log(x) - 0.5 / x - series;
}

}  // namespace alea::vm
