#include "vm/tensor_format.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "vm/dtype.h"

namespace alea::vm {
namespace {

// One case of tests/vm/data/tensor_print_cases.txt, written by
// scripts/gen_tensor_print_cases.py from NumPy 1.24's str().
struct Case {
  std::string name;
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;  // the row-major buffer
  std::string expected;
};

std::string DataPath() {
  // The data sits beside this file; __FILE__ is absolute in CMake builds.
  std::string here = __FILE__;
  return here.substr(0, here.find_last_of('/')) + "/data/tensor_print_cases.txt";
}

bool ParseDType(const std::string& s, DType* out) {
  static const struct {
    const char* name;
    DType dtype;
  } kNames[] = {
      {"f32", DType::kF32}, {"i32", DType::kI32}, {"u32", DType::kU32}, {"bool", DType::kBool}};
  for (const auto& n : kNames) {
    if (s == n.name) {
      *out = n.dtype;
      return true;
    }
  }
  return false;
}

void AppendElement(DType dtype, const std::string& word, std::vector<uint8_t>* bytes) {
  uint32_t bits = 0;
  switch (dtype) {
    case DType::kF32:
      bits = static_cast<uint32_t>(std::stoul(word, nullptr, 16));
      break;
    case DType::kI32:
      bits = static_cast<uint32_t>(static_cast<int32_t>(std::stol(word)));
      break;
    case DType::kU32:
      bits = static_cast<uint32_t>(std::stoul(word));
      break;
    case DType::kBool:
      bytes->push_back(word == "1" ? 1 : 0);
      return;
  }
  uint8_t b[4];
  std::memcpy(b, &bits, 4);
  bytes->insert(bytes->end(), b, b + 4);
}

// Returns the cases, or an empty vector (with a test failure) on a bad file.
std::vector<Case> LoadCases() {
  std::vector<Case> cases;
  std::ifstream in(DataPath());
  if (!in) {
    ADD_FAILURE() << "cannot open " << DataPath();
    return {};
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("case ", 0) != 0) {
      ADD_FAILURE() << "expected 'case', got: " << line;
      return {};
    }
    Case c;
    c.name = line.substr(5);
    std::string key, word;
    std::getline(in, line);
    std::istringstream dtype_line(line);
    dtype_line >> key >> word;
    if (key != "dtype" || !ParseDType(word, &c.dtype)) {
      ADD_FAILURE() << c.name << ": bad dtype line: " << line;
      return {};
    }
    std::getline(in, line);
    std::istringstream shape_line(line);
    shape_line >> key;
    for (int64_t d; shape_line >> d;) c.shape.push_back(d);
    std::getline(in, line);
    std::istringstream data_line(line);
    data_line >> key;
    while (data_line >> word) AppendElement(c.dtype, word, &c.bytes);
    std::getline(in, line);
    int n = std::stoi(line.substr(7));
    for (int i = 0; i < n; ++i) {
      std::getline(in, line);
      if (i > 0) c.expected += '\n';
      c.expected += line;
    }
    std::getline(in, line);
    if (line != "end") {
      ADD_FAILURE() << c.name << ": missing 'end'";
      return {};
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

TEST(TensorFormat, MatchesNumPyByteForByte) {
  std::vector<Case> cases = LoadCases();
  ASSERT_GT(cases.size(), 500u);
  int failures = 0;
  for (const Case& c : cases) {
    // A 1-byte buffer stands in for empty data so that .data() is never null.
    std::vector<uint8_t> bytes = c.bytes;
    if (bytes.empty()) bytes.push_back(0);
    std::string got = FormatTensor(c.dtype, c.shape, bytes.data());
    if (got != c.expected) {
      ++failures;
      ADD_FAILURE() << c.name << "\nexpected:\n" << c.expected << "\ngot:\n" << got;
    }
  }
  EXPECT_EQ(failures, 0) << "of " << cases.size() << " cases";
}

TEST(TensorFormat, ScalarF32) {
  EXPECT_EQ(FormatScalarF32(0.1f), "0.1");
  EXPECT_EQ(FormatScalarF32(1e16f), "1e+16");
  EXPECT_EQ(FormatScalarF32(1.0f), "1.0");
  EXPECT_EQ(FormatScalarF32(-0.0f), "-0.0");
  EXPECT_EQ(FormatScalarF32(1.5e-5f), "1.5e-05");
  EXPECT_EQ(FormatScalarF32(__builtin_nanf("")), "nan");
  EXPECT_EQ(FormatScalarF32(-__builtin_inff()), "-inf");
  EXPECT_EQ(FormatScalarF32(1.0f / 3.0f), "0.33333334");
}

TEST(TensorFormat, Basics) {
  const float f[] = {1.0f, 2.0f, 3.0f};
  const int64_t shape3[] = {3};
  EXPECT_EQ(FormatTensor(DType::kF32, shape3, f), "[1. 2. 3.]");
  const uint8_t b[] = {1, 0};
  const int64_t shape2[] = {2};
  EXPECT_EQ(FormatTensor(DType::kBool, shape2, b), "[ True False]");
  const int64_t empty_shape[] = {2, 0};
  EXPECT_EQ(FormatTensor(DType::kF32, empty_shape, f), "[]");
  const int32_t i = -5;
  EXPECT_EQ(FormatTensor(DType::kI32, {}, &i), "-5");
}

}  // namespace
}  // namespace alea::vm
