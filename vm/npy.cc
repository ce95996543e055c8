#include "vm/npy.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "vm/files.h"

namespace alea::vm {
namespace {

// NpyArray::data and WriteNpy's `data` are .npy's little-endian bytes copied
// as they are; a big-endian host would need byte swaps that nothing tests.
static_assert(std::endian::native == std::endian::little, "Alea supports little-endian hosts");

constexpr absl::string_view kMagic("\x93NUMPY", 6);
// np.save aligns the data to 64 bytes (numpy/lib/format.py ARRAY_ALIGN) and
// leaves room after the dict for the first dimension to grow to 21 digits
// (GROWTH_AXIS_MAX_DIGITS) so the header can be rewritten in place.
constexpr size_t kArrayAlign = 64;
constexpr size_t kGrowthAxisMaxDigits = 21;
constexpr size_t kMaxHeaderV1 = 65535;
// Headers quoted in error messages are cut here: a 4 GiB version-2 header
// must not become a 4 GiB message.
constexpr size_t kMaxQuoted = 100;

constexpr absl::string_view kSupported =
    "Alea reads <f4 (f32), <i4 (i32), <u4 (u32) and |b1 (bool)";

absl::string_view Descr(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return "<f4";
    case DType::kI32:
      return "<i4";
    case DType::kU32:
      return "<u4";
    case DType::kBool:
      return "|b1";
  }
  return "?";
}

// Escaped (the header may hold any bytes) and shortened, for messages.
std::string Quote(absl::string_view text) {
  if (text.size() <= kMaxQuoted) return absl::CHexEscape(text);
  return absl::StrCat(absl::CHexEscape(text.substr(0, kMaxQuoted)), "...");
}

// Python's repr of a tuple of ints, as np.save writes the shape.
std::string ShapeRepr(absl::Span<const int64_t> shape) {
  if (shape.size() == 1) return absl::StrCat("(", shape[0], ",)");
  return absl::StrCat("(", absl::StrJoin(shape, ", "), ")");
}

absl::Status Malformed(absl::string_view header, size_t pos, absl::string_view expected) {
  return absl::InvalidArgumentError(absl::StrCat("malformed .npy header: expected ", expected,
                                                 " at byte ", pos, " of the header `",
                                                 Quote(header), "`"));
}

struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<int64_t>> shape;
};

// The header is the repr of a Python dict; NumPy reads it with
// ast.literal_eval. This accepts what literal_eval would for the three keys
// NumPy writes (either quote, any spacing, trailing commas, Python 2's `3L`)
// and nothing else. One pass, no recursion: linear in the header's size.
class HeaderParser {
 public:
  explicit HeaderParser(absl::string_view text) : text_(text) {}

  absl::StatusOr<Header> Parse() {
    Header header;
    if (!Consume('{')) return Error("`{` (the header is a Python dict literal)");
    while (!Consume('}')) {
      absl::StatusOr<std::string> key = ParseString("a quoted key or `}`");
      if (!key.ok()) return key.status();
      if (!Consume(':')) return Error(absl::StrCat("`:` after the key '", Quote(*key), "'"));
      absl::Status status;
      if (*key == "descr") {
        status = ParseDescr(&header.descr);
      } else if (*key == "fortran_order") {
        status = ParseFortranOrder(&header.fortran_order);
      } else if (*key == "shape") {
        status = ParseShape(&header.shape);
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("malformed .npy header: unexpected key '", Quote(*key),
                         "' (a header has exactly 'descr', 'fortran_order' and 'shape')"));
      }
      if (!status.ok()) return status;
      if (Consume(',')) continue;
      if (Consume('}')) break;
      return Error("`,` or `}` after a value");
    }
    SkipSpace();
    if (pos_ < text_.size()) return Error("the end of the header after `}`");
    for (auto [present, name] : {std::pair(header.descr.has_value(), "descr"),
                                 std::pair(header.fortran_order.has_value(), "fortran_order"),
                                 std::pair(header.shape.has_value(), "shape")}) {
      if (!present) {
        return absl::InvalidArgumentError(
            absl::StrCat("malformed .npy header: no '", name, "' key in `", Quote(text_), "`"));
      }
    }
    return header;
  }

 private:
  static bool IsIdentifierChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
  }

  // Python's whitespace between tokens (inside braces newlines are spaces).
  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
            text_[pos_] == '\r' || text_[pos_] == '\f')) {
      ++pos_;
    }
  }

  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  bool ConsumeWord(absl::string_view word) {
    SkipSpace();
    if (!absl::StartsWith(text_.substr(pos_), word)) return false;
    size_t end = pos_ + word.size();
    if (end < text_.size() && IsIdentifierChar(text_[end])) return false;
    pos_ = end;
    return true;
  }

  absl::Status Error(absl::string_view expected) const { return Malformed(text_, pos_, expected); }

  absl::Status Duplicate(absl::string_view key) const {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed .npy header: key '", key, "' appears twice"));
  }

  // A quoted string without escapes (NumPy's keys and dtypes never need any).
  absl::StatusOr<std::string> ParseString(absl::string_view expected) {
    SkipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return Error(expected);
    }
    const char quote = text_[pos_];
    const size_t start = pos_ + 1;
    for (size_t i = start; i < text_.size(); ++i) {
      if (text_[i] == quote) {
        pos_ = i + 1;
        return std::string(text_.substr(start, i - start));
      }
      if (text_[i] == '\\' || text_[i] == '\n') {
        pos_ = i;
        return Error("a closing quote (escapes and line breaks in strings are not supported)");
      }
    }
    pos_ = text_.size();
    return Error("a closing quote (the string is unterminated)");
  }

  absl::Status ParseDescr(std::optional<std::string>* descr) {
    if (descr->has_value()) return Duplicate("descr");
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '[') {
      return absl::InvalidArgumentError(
          absl::StrCat("structured dtypes are not supported: ", kSupported,
                       "; save each field as its own array"));
    }
    absl::StatusOr<std::string> value = ParseString("a quoted dtype such as '<f4' for 'descr'");
    if (!value.ok()) return value.status();
    *descr = *std::move(value);
    return absl::OkStatus();
  }

  absl::Status ParseFortranOrder(std::optional<bool>* fortran_order) {
    if (fortran_order->has_value()) return Duplicate("fortran_order");
    if (ConsumeWord("True")) {
      *fortran_order = true;
    } else if (ConsumeWord("False")) {
      *fortran_order = false;
    } else {
      return Error("`True` or `False` for 'fortran_order'");
    }
    return absl::OkStatus();
  }

  absl::Status ParseShape(std::optional<std::vector<int64_t>>* shape) {
    if (shape->has_value()) return Duplicate("shape");
    if (!Consume('(')) return Error("a tuple such as `(2, 3)`, `(3,)` or `()` for 'shape'");
    std::vector<int64_t> dims;
    bool comma_after_last = false;
    while (!Consume(')')) {
      absl::StatusOr<int64_t> dim = ParseDim();
      if (!dim.ok()) return dim.status();
      dims.push_back(*dim);
      comma_after_last = Consume(',');
      if (comma_after_last) continue;
      if (Consume(')')) break;
      return Error("`,` or `)` in 'shape'");
    }
    // `(3)` is the int 3 in Python, not a tuple: NumPy rejects it too.
    if (dims.size() == 1 && !comma_after_last) {
      return Error("`,` after the only dimension in 'shape' (a 1-tuple is written `(3,)`)");
    }
    *shape = std::move(dims);
    return absl::OkStatus();
  }

  absl::StatusOr<int64_t> ParseDim() {
    SkipSpace();
    const size_t start = pos_;
    const bool negative = pos_ < text_.size() && text_[pos_] == '-';
    if (negative) ++pos_;
    if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') {
      pos_ = start;
      return Error("a dimension (a non-negative integer) in 'shape'");
    }
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        return absl::InvalidArgumentError(absl::StrCat(
            "malformed .npy header: a dimension in 'shape' does not fit in 64 bits in `",
            Quote(text_), "`"));
      }
      value = value * 10 + digit;
      ++pos_;
    }
    // Python 2's NumPy wrote longs as `3L`; NumPy 3 still reads such files.
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;
    if (pos_ < text_.size() && IsIdentifierChar(text_[pos_])) {
      return Error("a dimension (a non-negative integer) in 'shape'");
    }
    if (negative) {
      return absl::InvalidArgumentError(
          absl::StrCat("malformed .npy header: 'shape' has the negative dimension -", value,
                       " in `", Quote(text_), "`"));
    }
    return value;
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

absl::StatusOr<DType> DTypeOfDescr(absl::string_view descr) {
  if (descr.size() == 3 && descr[1] == 'b' && descr[2] == '1' &&
      absl::string_view("|<>=").find(descr[0]) != absl::string_view::npos) {
    return DType::kBool;  // byte order means nothing for 1 byte: NumPy writes `|`
  }
  if (descr.size() == 3 && descr[2] == '4' && (descr[0] == '<' || descr[0] == '=')) {
    // `=` is the writer's native order; every NumPy host we meet is little-endian.
    if (descr[1] == 'f') return DType::kF32;
    if (descr[1] == 'i') return DType::kI32;
    if (descr[1] == 'u') return DType::kU32;
  }
  if (descr.size() == 3 && descr[0] == '>' && descr[2] == '4' &&
      (descr[1] == 'f' || descr[1] == 'i' || descr[1] == 'u')) {
    return absl::InvalidArgumentError(
        absl::StrCat("dtype `", Quote(descr), "` is big-endian: ", kSupported,
                     " (little-endian only); convert with `a.astype('<", descr.substr(1), "')`"));
  }
  // Suggest the supported dtype of the same kind (`<f8` -> np.float32).
  const char kind =
      descr.size() >= 2 && absl::string_view("|<>=").find(descr[0]) != absl::string_view::npos
          ? descr[1]
          : (descr.empty() ? '?' : descr[0]);
  absl::string_view hint;
  switch (kind) {
    case 'f':
    case 'c':
      hint = "`a.astype(np.float32)`";
      break;
    case 'i':
      hint = "`a.astype(np.int32)`";
      break;
    case 'u':
      hint = "`a.astype(np.uint32)`";
      break;
    case 'b':
      hint = "`a.astype(bool)`";
      break;
    default:
      hint = "`a.astype(np.float32)` (or np.int32, np.uint32, bool)";
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "dtype `", Quote(descr), "` is not supported: ", kSupported, "; convert with ", hint));
}

// The bytes np.save writes before the data, version 1.0 unless the header
// needs more than 65535 bytes. Mirrors numpy/lib/format.py
// _write_array_header and _wrap_header (NumPy 1.24).
std::string SerializeHeader(DType dtype, absl::Span<const int64_t> shape) {
  std::string dict = absl::StrCat("{'descr': '", Descr(dtype),
                                  "', 'fortran_order': False, 'shape': ", ShapeRepr(shape), ", }");
  if (!shape.empty()) {
    const size_t digits = absl::StrCat(shape[0]).size();
    dict.append(kGrowthAxisMaxDigits - std::min(digits, kGrowthAxisMaxDigits), ' ');
  }
  const size_t hlen = dict.size() + 1;  // with the final newline
  size_t length_size = 2;
  size_t padding = kArrayAlign - (kMagic.size() + 2 + length_size + hlen) % kArrayAlign;
  if (hlen + padding > kMaxHeaderV1) {
    length_size = 4;
    padding = kArrayAlign - (kMagic.size() + 2 + length_size + hlen) % kArrayAlign;
  }
  // Version 2.0's 32-bit length: a header that large would need a shape of
  // hundreds of millions of dimensions, which no caller can hold.
  const uint32_t length = static_cast<uint32_t>(hlen + padding);
  std::string out(kMagic);
  out.push_back(length_size == 2 ? '\x01' : '\x02');
  out.push_back('\x00');
  for (size_t i = 0; i < length_size; ++i) out.push_back(static_cast<char>(length >> (8 * i)));
  out.append(dict);
  out.append(padding, ' ');
  out.push_back('\n');
  return out;
}

// Bytes of data for a shape that satisfies SerializeNpy's precondition; 0
// otherwise, so a violated precondition writes a file the reader rejects
// rather than reading past `data`.
size_t DataSize(DType dtype, absl::Span<const int64_t> shape) {
  absl::StatusOr<int64_t> count = NpyElementCount(dtype, shape);
  return count.ok() ? static_cast<size_t>(*count) * NpyElementSize(dtype) : 0;
}

// Appends data to `out`, bools normalized to 0 or 1 (NumPy would otherwise
// keep a byte 2 as a "true" that compares unequal to True).
void AppendData(DType dtype, const uint8_t* data, size_t size, std::string* out) {
  const size_t start = out->size();
  out->append(reinterpret_cast<const char*>(data), size);
  if (dtype == DType::kBool) {
    for (size_t i = start; i < out->size(); ++i) (*out)[i] = (*out)[i] != 0 ? 1 : 0;
  }
}

}  // namespace

int NpyElementSize(DType dtype) { return dtype == DType::kBool ? 1 : 4; }

absl::StatusOr<int64_t> NpyElementCount(DType dtype, absl::Span<const int64_t> shape) {
  // A zero dimension does not excuse the others from the overflow check: a
  // shape like (0, 2^62, 2^62) has no elements but strides no tensor could
  // compute.
  const int64_t limit = std::numeric_limits<int64_t>::max() / NpyElementSize(dtype);
  int64_t product = 1;
  bool empty = false;
  for (int64_t dim : shape) {
    if (dim < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape ", ShapeRepr(shape), " has a negative dimension"));
    }
    if (dim == 0) {
      empty = true;
      continue;
    }
    if (product > limit / dim) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shape ", ShapeRepr(shape), " has too many elements (their bytes overflow 64 bits)"));
    }
    product *= dim;
  }
  return empty ? 0 : product;
}

absl::StatusOr<NpyArray> ParseNpy(absl::string_view bytes) {
  if (bytes.empty()) return absl::InvalidArgumentError("not a .npy file: it is empty");
  if (!absl::StartsWith(kMagic, bytes.substr(0, kMagic.size()))) {
    return absl::InvalidArgumentError(
        "not a .npy file: it does not start with the magic string `\\x93NUMPY`");
  }
  if (bytes.size() < kMagic.size() + 2) {
    return absl::InvalidArgumentError(absl::StrCat("truncated .npy file: it ends after ",
                                                   bytes.size(), " bytes, inside the preamble"));
  }
  const int major = static_cast<uint8_t>(bytes[6]);
  const int minor = static_cast<uint8_t>(bytes[7]);
  size_t length_size;
  if (major == 1 && minor == 0) {
    length_size = 2;
  } else if ((major == 2 || major == 3) && minor == 0) {
    length_size = 4;  // 3.0 differs only in encoding the header as UTF-8
  } else {
    return absl::InvalidArgumentError(absl::StrCat("format version ", major, ".", minor,
                                                   " is not supported: Alea reads .npy "
                                                   "versions 1.0, 2.0 and 3.0"));
  }
  const size_t header_start = kMagic.size() + 2 + length_size;
  if (bytes.size() < header_start) {
    return absl::InvalidArgumentError(absl::StrCat(
        "truncated .npy file: it ends after ", bytes.size(), " bytes, inside the header length"));
  }
  uint64_t header_size = 0;
  for (size_t i = 0; i < length_size; ++i) {
    header_size |= uint64_t{static_cast<uint8_t>(bytes[kMagic.size() + 2 + i])} << (8 * i);
  }
  if (header_size > bytes.size() - header_start) {
    return absl::InvalidArgumentError(absl::StrCat(
        "truncated .npy file: the header length ", header_size, " runs past the end of the file (",
        bytes.size() - header_start, " bytes follow the preamble)"));
  }
  const absl::string_view header_text = bytes.substr(header_start, header_size);
  absl::StatusOr<Header> header = HeaderParser(header_text).Parse();
  if (!header.ok()) return header.status();

  absl::StatusOr<DType> dtype = DTypeOfDescr(*header->descr);
  if (!dtype.ok()) return dtype.status();
  if (*header->fortran_order) {
    return absl::InvalidArgumentError(
        "the array is stored in Fortran (column-major) order: Alea reads C order only; "
        "save `np.ascontiguousarray(a)` instead");
  }
  absl::StatusOr<int64_t> count = NpyElementCount(*dtype, *header->shape);
  if (!count.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("bad .npy header: ", count.status().message()));
  }
  const uint64_t data_size = static_cast<uint64_t>(*count) * NpyElementSize(*dtype);
  const size_t data_start = header_start + header_size;
  const uint64_t available = bytes.size() - data_start;
  if (available != data_size) {
    return absl::InvalidArgumentError(
        absl::StrCat(available < data_size ? "truncated .npy file" : "corrupt .npy file",
                     ": shape ", ShapeRepr(*header->shape), " of ", Descr(*dtype), " needs ",
                     data_size, " bytes of data but ", available, " follow the header"));
  }
  NpyArray array;
  array.dtype = *dtype;
  array.shape = *std::move(header->shape);
  const absl::string_view data = bytes.substr(data_start);
  array.data.assign(data.begin(), data.end());
  if (array.dtype == DType::kBool) {
    for (size_t i = 0; i < array.data.size(); ++i) {
      if (array.data[i] > 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("corrupt .npy file: bool element ", i, " is the byte ",
                         static_cast<int>(array.data[i]), " (a bool is stored as 0 or 1)"));
      }
    }
  }
  return array;
}

absl::StatusOr<NpyArray> ReadNpy(const FileAccess& access, const std::string& path,
                                 uint64_t max_bytes) {
  absl::StatusOr<std::string> bytes = ReadFile(access, path, max_bytes);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<NpyArray> array = ParseNpy(*bytes);
  if (!array.ok()) {
    return absl::Status(array.status().code(), absl::StrCat(path, ": ", array.status().message()));
  }
  return array;
}

std::string SerializeNpy(DType dtype, absl::Span<const int64_t> shape, const void* data) {
  std::string out = SerializeHeader(dtype, shape);
  AppendData(dtype, static_cast<const uint8_t*>(data), DataSize(dtype, shape), &out);
  return out;
}

absl::Status WriteNpy(const FileAccess& access, const std::string& path, DType dtype,
                      absl::Span<const int64_t> shape, const void* data) {
  absl::StatusOr<int64_t> count = NpyElementCount(dtype, shape);
  if (!count.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot save: ", count.status().message()));
  }
  // Header, then the data in chunks: no second copy of a large tensor.
  return WriteFileAtomically(access, path, [&](std::FILE* file) {
    const std::string header = SerializeHeader(dtype, shape);
    bool ok = std::fwrite(header.data(), 1, header.size(), file) == header.size();
    const auto* bytes = static_cast<const uint8_t*>(data);
    const size_t size = DataSize(dtype, shape);
    constexpr size_t kChunk = 1 << 16;
    std::string chunk;
    for (size_t offset = 0; ok && offset < size; offset += kChunk) {
      chunk.clear();
      AppendData(dtype, bytes + offset, std::min(kChunk, size - offset), &chunk);
      ok = std::fwrite(chunk.data(), 1, chunk.size(), file) == chunk.size();
    }
    return ok;
  });
}

}  // namespace alea::vm
