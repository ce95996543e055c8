#include "vm/csv.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "vm/float_format.h"
#include "vm/tensor.h"

namespace alea::vm {
namespace {

// Quoted fields are cut here: a 1 GB field must not become the message.
constexpr size_t kMaxQuoted = 40;

std::string Quoted(absl::string_view field) {
  if (field.size() <= kMaxQuoted) return absl::StrCat("`", field, "`");
  return absl::StrCat("`", field.substr(0, kMaxQuoted), "...`");
}

// One field as the dtype's 32 bits, or why not.
absl::StatusOr<uint32_t> ParseField(absl::string_view field, DType dtype) {
  const char* first = field.data();
  const char* last = field.data() + field.size();
  if (dtype == DType::kF32) {
    // from_chars takes no '+'; NumPy does.
    if (first != last && *first == '+' && last - first > 1 && first[1] != '-') ++first;
    double value = 0.0;
    auto [end, error] = std::from_chars(first, last, value);
    if (first == last || end != last ||
        (error != std::errc() && error != std::errc::result_out_of_range)) {
      return absl::InvalidArgumentError(absl::StrCat(Quoted(field), " is not a number"));
    }
    if (error == std::errc::result_out_of_range) {
      // Beyond a double's range: strtod gives +-inf or a signed zero, as NumPy.
      value = std::strtod(std::string(first, last).c_str(), nullptr);
    }
    return std::bit_cast<uint32_t>(static_cast<float>(value));
  }
  if (first != last && *first == '+' && last - first > 1 && first[1] != '-') ++first;
  int64_t value = 0;
  auto [end, error] = std::from_chars(first, last, value);
  if (first == last || end != last || error == std::errc::invalid_argument) {
    return absl::InvalidArgumentError(
        absl::StrCat(Quoted(field), " is not an integer (the dtype is ", DTypeName(dtype), ")"));
  }
  const bool fits =
      error == std::errc() &&
      (dtype == DType::kI32 ? value >= std::numeric_limits<int32_t>::min() &&
                                  value <= std::numeric_limits<int32_t>::max()
                            : value >= 0 && value <= std::numeric_limits<uint32_t>::max());
  if (!fits) {
    return absl::InvalidArgumentError(
        absl::StrCat(Quoted(field), " does not fit in dtype ", DTypeName(dtype)));
  }
  return static_cast<uint32_t>(value);
}

std::string FormatF32(float x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  const float magnitude = std::fabs(x);
  // NumPy's repr of a float32: positional between 1e-4 and 1e16, else
  // scientific; either way the shortest digits that read back the same.
  if (magnitude == 0.0f || (magnitude >= 1e-4f && magnitude < 1e16f)) {
    return FormatF32Positional(x, -1, -1, FloatTrim::kLeaveOneZero, -1, -1);
  }
  return FormatF32Scientific(x, -1, -1, FloatTrim::kDptZeros, -1, -1);
}

}  // namespace

absl::StatusOr<CsvTable> ParseCsv(absl::string_view text, absl::string_view path, DType dtype,
                                  int64_t skip_rows, absl::string_view delimiter) {
  CsvTable table;
  int64_t rows = 0, columns = -1;
  int64_t line_number = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == absl::string_view::npos) end = text.size();
    absl::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (line_number <= skip_rows) continue;
    if (size_t hash = line.find('#'); hash != absl::string_view::npos) line = line.substr(0, hash);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    int64_t fields = 0;
    size_t from = 0;
    while (true) {
      size_t to = line.find(delimiter, from);
      if (to == absl::string_view::npos) to = line.size();
      absl::string_view raw = line.substr(from, to - from);
      absl::string_view field = absl::StripLeadingAsciiWhitespace(raw);
      const size_t column = from + (raw.size() - field.size()) + 1;
      field = absl::StripTrailingAsciiWhitespace(field);
      absl::StatusOr<uint32_t> word = ParseField(field, dtype);
      if (!word.ok()) {
        if (field.empty()) {
          return absl::InvalidArgumentError(
              absl::StrCat(path, ":", line_number, ":", column, ": an empty field"));
        }
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", line_number, ":", column, ": ", word.status().message()));
      }
      table.words.push_back(*word);
      ++fields;
      if (to == line.size()) break;
      from = to + delimiter.size();
    }
    if (columns < 0) {
      columns = fields;
    } else if (fields != columns) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", line_number, ": ", fields,
                                                     fields == 1 ? " value" : " values",
                                                     ", but the first row has ", columns));
    }
    ++rows;
  }
  if (rows == 0) {
    table.shape = {0};
  } else if (rows == 1 && columns == 1) {
    table.shape = {};
  } else if (rows == 1) {
    table.shape = {columns};
  } else if (columns == 1) {
    table.shape = {rows};
  } else {
    table.shape = {rows, columns};
  }
  return table;
}

std::string FormatCsv(DType dtype, absl::Span<const int64_t> shape, const void* data,
                      absl::string_view delimiter) {
  const int64_t rows = shape[0];
  const int64_t columns = shape.size() == 2 ? shape[1] : 1;
  std::string out;
  const auto* words = static_cast<const uint32_t*>(data);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < columns; ++c) {
      if (c > 0) absl::StrAppend(&out, delimiter);
      const uint32_t w = words[r * columns + c];
      switch (dtype) {
        case DType::kF32:
          absl::StrAppend(&out, FormatF32(std::bit_cast<float>(w)));
          break;
        case DType::kI32:
          absl::StrAppend(&out, static_cast<int32_t>(w));
          break;
        default:
          absl::StrAppend(&out, w);
          break;
      }
    }
    out.push_back('\n');
  }
  return out;
}

}  // namespace alea::vm
