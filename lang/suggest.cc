#include "lang/suggest.h"

#include <algorithm>
#include <vector>

namespace alea::lang {

int EditDistance(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diag = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

NearestName::NearestName(std::string_view name)
    : name_(name),
      best_distance_(name.size() < 3    ? 0
                     : name.size() <= 4 ? 2
                                        : 3) {}

void NearestName::Consider(std::string_view candidate) {
  if (candidate == name_) return;
  int distance = EditDistance(name_, candidate);
  if (distance < best_distance_) {
    best_distance_ = distance;
    best_ = std::string(candidate);
  }
}

}  // namespace alea::lang
