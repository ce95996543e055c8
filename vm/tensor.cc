#include "vm/tensor.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace alea::vm {

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return "f32";
    case DType::kI32:
      return "i32";
    case DType::kU32:
      return "u32";
    case DType::kBool:
      return "bool";
  }
  return "?";
}

int64_t ElementCount(DType dtype, absl::Span<const int64_t> shape) {
  if (shape.size() > kMaxRank) return -1;
  // 2^48 bytes is the heap's largest object; checking each partial product
  // against it keeps the multiplication from overflowing.
  constexpr int64_t kMaxBytes = int64_t{1} << 48;
  int64_t count = 1;
  bool zero = false;
  for (int64_t d : shape) {
    if (d < 0) return -1;
    if (d == 0) {
      zero = true;
      continue;
    }
    if (count > kMaxBytes / d) return -1;
    count *= d;
  }
  if (count > kMaxBytes / ElementBytes(dtype)) return -1;
  return zero ? 0 : count;
}

std::string ShapeString(absl::Span<const int64_t> shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    absl::StrAppend(&s, shape[i]);
  }
  if (shape.size() == 1) s += ",";
  s += ")";
  return s;
}

std::string IndexString(absl::Span<const int64_t> shape, int64_t flat) {
  if (shape.size() <= 1) return absl::StrCat(flat);
  std::string s = ")";
  for (size_t d = shape.size(); d-- > 0;) {
    s.insert(0, absl::StrCat(d > 0 ? ", " : "(", flat % shape[d]));
    flat /= shape[d];
  }
  return s;
}

int64_t OffsetOf(absl::Span<const int64_t> shape, absl::Span<const int64_t> strides, int64_t flat) {
  int64_t offset = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    offset += flat % shape[d] * strides[d];
    flat /= shape[d];
  }
  return offset;
}

}  // namespace alea::vm
