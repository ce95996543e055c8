#include "vm/tensor_format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/float_format.h"

namespace alea::vm {
namespace {

// NumPy's default print options.
constexpr int kPrecision = 8;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 75;

// Formats one element; built from the elements that will be shown, as
// NumPy's _get_format_function is, so that every element gets one width.
class ElementFormat {
 public:
  ElementFormat(DType dtype, const void* data) : dtype_(dtype), data_(data) {}

  void Fill(const std::vector<int64_t>& shown);
  std::string Format(int64_t i) const;

 private:
  float F32(int64_t i) const {
    float x;
    std::memcpy(&x, static_cast<const char*>(data_) + 4 * i, 4);
    return x;
  }
  int64_t Int(int64_t i) const {
    const char* p = static_cast<const char*>(data_) + 4 * i;
    if (dtype_ == DType::kI32) {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  bool Bool(int64_t i) const { return static_cast<const uint8_t*>(data_)[i] != 0; }

  void FillFloat(const std::vector<int64_t>& shown);

  DType dtype_;
  const void* data_;
  int int_width_ = 0;
  // FloatingFormat's state.
  bool exp_format_ = false;
  int precision_ = kPrecision;
  int pad_left_ = 0;
  int pad_right_ = 0;
  int exp_size_ = -1;
};

void ElementFormat::Fill(const std::vector<int64_t>& shown) {
  switch (dtype_) {
    case DType::kF32:
      FillFloat(shown);
      break;
    case DType::kI32:
    case DType::kU32:
      // '%{w}d' with w the longer of str(max) and str(min).
      for (int64_t i : shown) {
        int_width_ = std::max(int_width_, static_cast<int>(absl::StrCat(Int(i)).size()));
      }
      break;
    case DType::kBool:
      break;
  }
}

// FloatingFormat.fillFormat for floatmode 'maxprec', suppress=False.
void ElementFormat::FillFloat(const std::vector<int64_t>& shown) {
  std::vector<float> finite;
  bool any_nonfinite = false;
  bool neg_inf = false;
  for (int64_t i : shown) {
    float x = F32(i);
    if (std::isfinite(x)) {
      finite.push_back(x);
    } else {
      any_nonfinite = true;
      if (std::isinf(x) && x < 0) neg_inf = true;
    }
  }
  bool have_nonzero = false;
  float max_val = 0;
  float min_val = 0;
  for (float x : finite) {
    if (x == 0) continue;
    float a = std::fabs(x);
    if (!have_nonzero) {
      max_val = min_val = a;
      have_nonzero = true;
    } else {
      max_val = std::max(max_val, a);
      min_val = std::min(min_val, a);
    }
  }
  if (have_nonzero) {
    // NumPy compares the float32 extremes with Python floats (as doubles) but
    // divides them in float32, which may overflow to inf.
    const float ratio = max_val / min_val;
    exp_format_ = static_cast<double>(max_val) >= 1.e8 || static_cast<double>(min_val) < 0.0001 ||
                  ratio > 1000.0f;
  }
  if (finite.empty()) {
    pad_left_ = 0;
    pad_right_ = 0;
  } else if (exp_format_) {
    int max_fraction = 0;
    int max_int = 0;
    int max_exp = 0;
    for (float x : finite) {
      std::string s = FormatF32Scientific(x, kPrecision, -1, FloatTrim::kZeros, -1, -1);
      size_t dot = s.find('.');
      size_t e = s.find('e');
      max_int = std::max(max_int, static_cast<int>(dot));
      max_fraction = std::max(max_fraction, static_cast<int>(e - dot - 1));
      max_exp = std::max(max_exp, static_cast<int>(s.size() - e - 1));
    }
    exp_size_ = max_exp - 1;
    precision_ = max_fraction;
    pad_left_ = max_int;
    pad_right_ = exp_size_ + 2 + precision_;
  } else {
    for (float x : finite) {
      std::string s = FormatF32Positional(x, kPrecision, -1, FloatTrim::kZeros, -1, -1);
      size_t dot = s.find('.');
      pad_left_ = std::max(pad_left_, static_cast<int>(dot));
      pad_right_ = std::max(pad_right_, static_cast<int>(s.size() - dot - 1));
    }
  }
  if (any_nonfinite) {
    const int offset = pad_right_ + 1;  // +1 for the decimal point
    pad_left_ = std::max({pad_left_, 3 - offset, 3 + (neg_inf ? 1 : 0) - offset});
  }
}

std::string ElementFormat::Format(int64_t i) const {
  switch (dtype_) {
    case DType::kF32: {
      float x = F32(i);
      if (!std::isfinite(x)) {
        std::string s = std::isnan(x) ? "nan" : (x < 0 ? "-inf" : "inf");
        const int width = pad_left_ + pad_right_ + 1;
        if (width > static_cast<int>(s.size())) s.insert(0, width - s.size(), ' ');
        return s;
      }
      if (exp_format_) {
        return FormatF32Scientific(x, precision_, precision_, FloatTrim::kKeep, pad_left_,
                                   exp_size_);
      }
      return FormatF32Positional(x, kPrecision, 0, FloatTrim::kZeros, pad_left_, pad_right_);
    }
    case DType::kI32:
    case DType::kU32: {
      std::string s = absl::StrCat(Int(i));
      if (int_width_ > static_cast<int>(s.size())) s.insert(0, int_width_ - s.size(), ' ');
      return s;
    }
    case DType::kBool:
      // The extra space aligns " True" with "False".
      return Bool(i) ? " True" : "False";
  }
  return "";
}

// The indices shown along an axis of length n: all of them, or the first and
// last kEdgeItems when summarizing.
std::vector<int64_t> ShownAlong(int64_t n, bool summarize) {
  std::vector<int64_t> out;
  if (summarize && n > 2 * kEdgeItems) {
    for (int64_t i = 0; i < kEdgeItems; ++i) out.push_back(i);
    for (int64_t i = n - kEdgeItems; i < n; ++i) out.push_back(i);
  } else {
    for (int64_t i = 0; i < n; ++i) out.push_back(i);
  }
  return out;
}

// _extendLine without the legacy modes: wraps before `word` when the line
// would pass `width`, unless wrapping cannot help.
void ExtendLine(std::string* s, std::string* line, const std::string& word, int width,
                const std::string& next_line_prefix) {
  bool needs_wrap = static_cast<int>(line->size() + word.size()) > width;
  if (line->size() <= next_line_prefix.size()) needs_wrap = false;
  if (needs_wrap) {
    size_t end = line->find_last_not_of(' ');
    s->append(*line, 0, end == std::string::npos ? 0 : end + 1);
    s->push_back('\n');
    *line = next_line_prefix;
  }
  *line += word;
}

// _formatArray's recurser: the text of the sub-array at `offset` (flat index
// of its first element) spanning axes [axis, ndim).
class Recurser {
 public:
  Recurser(absl::Span<const int64_t> shape, const ElementFormat& format, bool summarize)
      : shape_(shape), format_(format), summarize_(summarize), strides_(shape.size(), 1) {
    for (size_t a = shape.size(); a-- > 1;) strides_[a - 1] = strides_[a] * shape[a];
  }

  std::string Run(size_t axis, int64_t offset, const std::string& hanging_indent,
                  int curr_width) const {
    const size_t axes_left = shape_.size() - axis;
    if (axes_left == 0) return format_.Format(offset);
    const std::string next_hanging_indent = hanging_indent + " ";
    const int next_width = curr_width - 1;  // len(']')
    const int64_t n = shape_[axis];
    const bool show_summary = summarize_ && 2 * kEdgeItems < n;
    const int64_t leading = show_summary ? kEdgeItems : 0;
    const int64_t trailing = show_summary ? kEdgeItems : n;
    const int64_t stride = strides_[axis];
    std::string s;
    if (axes_left == 1) {
      const int elem_width = curr_width - 1;  // max(len(' '.rstrip()), len(']'))
      std::string line = hanging_indent;
      for (int64_t i = 0; i < leading; ++i) {
        ExtendLine(&s, &line, Run(axis + 1, offset + i * stride, next_hanging_indent, next_width),
                   elem_width, hanging_indent);
        line += " ";
      }
      if (show_summary) {
        ExtendLine(&s, &line, "...", elem_width, hanging_indent);
        line += " ";
      }
      for (int64_t i = trailing; i > 1; --i) {
        ExtendLine(&s, &line,
                   Run(axis + 1, offset + (n - i) * stride, next_hanging_indent, next_width),
                   elem_width, hanging_indent);
        line += " ";
      }
      ExtendLine(&s, &line,
                 Run(axis + 1, offset + (n - 1) * stride, next_hanging_indent, next_width),
                 elem_width, hanging_indent);
      s += line;
    } else {
      // The separator ' ' stripped, then one newline per remaining axis - 1.
      const std::string line_sep(axes_left - 1, '\n');
      for (int64_t i = 0; i < leading; ++i) {
        s += hanging_indent;
        s += Run(axis + 1, offset + i * stride, next_hanging_indent, next_width);
        s += line_sep;
      }
      if (show_summary) {
        s += hanging_indent;
        s += "...";
        s += line_sep;
      }
      for (int64_t i = trailing; i > 1; --i) {
        s += hanging_indent;
        s += Run(axis + 1, offset + (n - i) * stride, next_hanging_indent, next_width);
        s += line_sep;
      }
      s += hanging_indent;
      s += Run(axis + 1, offset + (n - 1) * stride, next_hanging_indent, next_width);
    }
    // Drops the first line's hanging indent and wraps the text in brackets.
    std::string out = "[";
    out.append(s, hanging_indent.size(), std::string::npos);
    out.push_back(']');
    return out;
  }

 private:
  absl::Span<const int64_t> shape_;
  const ElementFormat& format_;
  bool summarize_;
  std::vector<int64_t> strides_;
};

}  // namespace

std::string FormatScalarF32(float x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  const double a = std::fabs(static_cast<double>(x));
  if (a == 0 || (a >= 1.e-4 && a < 1.e16)) {
    return FormatF32Positional(x, -1, -1, FloatTrim::kLeaveOneZero, -1, -1);
  }
  return FormatF32Scientific(x, -1, -1, FloatTrim::kDptZeros, -1, -1);
}

std::string FormatTensor(DType dtype, absl::Span<const int64_t> shape, const void* data) {
  if (shape.empty()) {
    switch (dtype) {
      case DType::kF32: {
        float x;
        std::memcpy(&x, data, 4);
        return FormatScalarF32(x);
      }
      case DType::kI32: {
        int32_t v;
        std::memcpy(&v, data, 4);
        return absl::StrCat(v);
      }
      case DType::kU32: {
        uint32_t v;
        std::memcpy(&v, data, 4);
        return absl::StrCat(v);
      }
      case DType::kBool:
        return *static_cast<const uint8_t*>(data) != 0 ? "True" : "False";
    }
  }
  int64_t size = 1;
  for (int64_t d : shape) size *= d;
  // NumPy prints every empty array as "[]", whatever its shape.
  if (size == 0) return "[]";
  const bool summarize = size > kThreshold;
  // Flat indices of the elements shown (the corners when summarizing): only
  // they decide the common width, as in NumPy's _leading_trailing.
  std::vector<int64_t> shown = {0};
  for (int64_t d : shape) {
    std::vector<int64_t> next;
    std::vector<int64_t> along = ShownAlong(d, summarize);
    next.reserve(shown.size() * along.size());
    for (int64_t base : shown) {
      for (int64_t i : along) next.push_back(base * d + i);
    }
    shown = std::move(next);
  }
  ElementFormat format(dtype, data);
  format.Fill(shown);
  return Recurser(shape, format, summarize).Run(0, 0, " ", kLineWidth);
}

}  // namespace alea::vm
