// CSV text, as `load_csv` reads it. The first bytes choose the dtype, the
// rows skipped and the delimiter; the rest is the file. What parses into one
// or two axes must survive the round trip: written as `save_csv` writes it,
// it parses to the same shape and the same bits (any NaN reads back as a NaN).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"
#include "vm/csv.h"

namespace {

bool SameWord(alea::vm::DType dtype, uint32_t a, uint32_t b) {
  if (a == b) return true;
  if (dtype != alea::vm::DType::kF32) return false;
  float fa, fb;
  std::memcpy(&fa, &a, 4);
  std::memcpy(&fb, &b, 4);
  return std::isnan(fa) && std::isnan(fb);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alea::vm;
  if (size < 2) return 0;
  constexpr DType kDTypes[] = {DType::kF32, DType::kI32, DType::kU32};
  constexpr absl::string_view kDelimiters[] = {",", ";", "\t", " ", "::"};
  const DType dtype = kDTypes[data[0] % 3];
  const absl::string_view delimiter = kDelimiters[(data[0] / 3) % 5];
  const int64_t skip = data[1] % 4;
  const absl::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);
  absl::StatusOr<CsvTable> table = ParseCsv(text, "in.csv", dtype, skip, delimiter);
  if (!table.ok() || table->shape.empty()) return 0;
  const std::string written = FormatCsv(dtype, table->shape, table->words.data(), delimiter);
  absl::StatusOr<CsvTable> again = ParseCsv(written, "out.csv", dtype, 0, delimiter);
  if (!again.ok() || again->words.size() != table->words.size()) __builtin_trap();
  for (size_t i = 0; i < table->words.size(); ++i) {
    if (!SameWord(dtype, table->words[i], again->words[i])) __builtin_trap();
  }
  return 0;
}
