// Numeric tensors as delimited text, read and written as NumPy's
// np.loadtxt(path, delimiter=",", dtype=..., skiprows=...) and np.savetxt
// would: so a file goes from NumPy to Alea and back with the same values.
#ifndef ALEA_VM_CSV_H_
#define ALEA_VM_CSV_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vm/dtype.h"

namespace alea::vm {

struct CsvTable {
  // As np.loadtxt (ndmin=0) shapes its result: [rows, columns], with an
  // axis of length 1 squeezed out ([n] for one row or one column, [] for a
  // single value, [0] for no rows at all).
  std::vector<int64_t> shape;
  std::vector<uint32_t> words;  // the elements' bits, row by row (f32, i32, u32)
};

// Parses `text` (the file at `path`, named in errors): the first `skip_rows`
// lines skipped, `#` starting a comment, blank lines ignored, fields split
// at `delimiter` with spaces around them ignored. f32 fields are decimal
// numbers (or nan, inf) rounded to f32 through a double, as NumPy does;
// i32/u32 fields are integers in range. Errors say `PATH:LINE:COLUMN:`
// where the bad field starts, or `PATH:LINE:` for a row of the wrong length.
absl::StatusOr<CsvTable> ParseCsv(absl::string_view text, absl::string_view path, DType dtype,
                                  int64_t skip_rows, absl::string_view delimiter);

// The text np.savetxt(path, x, delimiter=...) makes for a 1-d (one value a
// line) or 2-d tensor, each f32 written with the fewest digits that read
// back as the same f32. `shape` must have 1 or 2 axes, and `dtype` be f32,
// i32 or u32 (the elements are read as 4-byte words).
std::string FormatCsv(DType dtype, absl::Span<const int64_t> shape, const void* data,
                      absl::string_view delimiter);

}  // namespace alea::vm

#endif  // ALEA_VM_CSV_H_
