// "Did you mean": the edit distance between names, and the nearest of a set
// of candidates that is close enough to suggest (unknown names in programs,
// unknown builtins in `alea doc`).
#ifndef ALEA_LANG_SUGGEST_H_
#define ALEA_LANG_SUGGEST_H_

#include <string>
#include <string_view>

namespace alea::lang {

// Levenshtein distance.
int EditDistance(std::string_view a, std::string_view b);

// Collects the candidate nearest to `name`. Short names are close to too
// much (`a` is one edit from every one-letter name), so names under three
// bytes get no suggestion, and the shorter the name, the closer a candidate
// must be: within one edit up to four bytes, two beyond.
class NearestName {
 public:
  explicit NearestName(std::string_view name);
  void Consider(std::string_view candidate);
  // Empty when no candidate was close enough.
  const std::string& best() const { return best_; }

 private:
  std::string_view name_;
  std::string best_;
  int best_distance_;
};

}  // namespace alea::lang

#endif  // ALEA_LANG_SUGGEST_H_
