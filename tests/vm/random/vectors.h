// Reads the known-answer files of tests/vm/data/random/ (see its README.md).
// Values are looked up by the text that names them in the file, so a test
// says which published line it checks and the numbers come from the file.
#ifndef ALEA_TESTS_VM_RANDOM_VECTORS_H_
#define ALEA_TESTS_VM_RANDOM_VECTORS_H_

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "vm/random/keys.h"

namespace alea::vm::random::testing {

inline std::vector<std::string> ReadLines(const std::string& name) {
  std::ifstream in(std::string(ALEA_TEST_DATA_DIR) + "/random/" + name);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// A line of a derived-data file (tests/vm/data/random/*_derived.txt): its
// first word, the record's kind, then its fields. Blank and '#' lines are
// skipped.
struct DerivedRecord {
  std::string kind;
  std::vector<std::string> fields;
};

inline std::vector<DerivedRecord> DerivedRecords(const std::string& file) {
  std::vector<DerivedRecord> out;
  for (const std::string& line : ReadLines(file)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    DerivedRecord r;
    in >> r.kind;
    for (std::string f; in >> f;) r.fields.push_back(f);
    out.push_back(r);
  }
  return out;
}

// The key a derived record's first two fields give.
inline Key RecordKey(const DerivedRecord& r) {
  return Key{static_cast<uint32_t>(std::stoul(r.fields[0])),
             static_cast<uint32_t>(std::stoul(r.fields[1]))};
}

inline bool IsNumberStart(std::string_view s, size_t i) {
  const char c = s[i];
  if (c >= '0' && c <= '9') return true;
  return c == '-' && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9';
}

// The numbers that follow `after` on the one line of `file` whose text (left
// spaces trimmed) starts with `prefix`, as written. Collection stops at the end
// of the first list: at '#', ';', '(' or a letter outside brackets. Returns an
// empty vector (and the test fails on its sizes) if the line is missing or is
// not unique.
inline std::vector<std::string> Numbers(const std::string& file, std::string_view prefix,
                                        std::string_view after = " = ") {
  const std::string* found = nullptr;
  int matches = 0;
  const std::vector<std::string> lines = ReadLines(file);
  for (const std::string& line : lines) {
    const size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && std::string_view(line).substr(first).starts_with(prefix)) {
      found = &line;
      ++matches;
    }
  }
  std::vector<std::string> out;
  if (matches != 1) return out;
  std::string_view s(*found);
  size_t i = s.find(after, s.find(prefix) + prefix.size());
  if (i == std::string_view::npos) return out;
  i += after.size();
  int depth = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    } else if (IsNumberStart(s, i)) {
      size_t j = i + 1;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' ||
                              ((s[j] == '-' || s[j] == '+') && (s[j - 1] == 'e')))) {
        ++j;
      }
      out.emplace_back(s.substr(i, j - i));
      i = j;
      continue;
    } else if (depth == 0 && (c == '#' || c == ';' || c == '(' || std::isalpha(c))) {
      break;
    }
    ++i;
  }
  return out;
}

inline std::vector<uint64_t> AsU64(const std::vector<std::string>& v) {
  std::vector<uint64_t> out;
  for (const std::string& s : v) out.push_back(std::strtoull(s.c_str(), nullptr, 0));
  return out;
}

inline std::vector<uint32_t> AsU32(const std::vector<std::string>& v) {
  std::vector<uint32_t> out;
  for (uint64_t x : AsU64(v)) out.push_back(static_cast<uint32_t>(x));
  return out;
}

inline std::vector<int32_t> AsI32(const std::vector<std::string>& v) {
  std::vector<int32_t> out;
  for (const std::string& s : v)
    out.push_back(static_cast<int32_t>(std::strtol(s.c_str(), nullptr, 10)));
  return out;
}

// Keys from a list of words [k0, k1, k0, k1, ...].
inline std::vector<Key> AsKeys(const std::vector<std::string>& v) {
  const std::vector<uint32_t> words = AsU32(v);
  std::vector<Key> out;
  for (size_t i = 0; i + 1 < words.size(); i += 2) out.push_back(Key{words[i], words[i + 1]});
  return out;
}

// A published float is a rounded decimal: `value` matches it if it rounds to
// the same text with as many decimals as the published one has.
inline std::string RoundedLike(double value, const std::string& published) {
  const size_t dot = published.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(published.size() - dot - 1);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

}  // namespace alea::vm::random::testing

#endif  // ALEA_TESTS_VM_RANDOM_VECTORS_H_
