// NumPy's `.npy` format: the interchange of tensors with Python
// (docs/language.md "Tensors": `load_npy` / `save_npy`). Plain buffers in and out,
// so the tensor object can wrap them without this file knowing it.
//
// Reads format versions 1.0, 2.0 and 3.0 with dtypes <f4 (f32), <i4 (i32),
// <u4 (u32) and |b1 (bool), C order only; anything else is an error that names
// what is wrong and how to convert in NumPy. Writes exactly the bytes `np.save`
// writes for the same array (version 1.0; 2.0 only for a header over 64 KiB).
#ifndef ALEA_VM_NPY_H_
#define ALEA_VM_NPY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "vm/dtype.h"
#include "vm/files.h"

namespace alea::vm {

struct NpyArray {
  DType dtype = DType::kF32;
  // Empty for a 0-d array (one element). Every dimension is >= 0 and the
  // product of the non-zero ones times the element size fits in an int64_t.
  std::vector<int64_t> shape;
  // Row-major, little-endian elements of 4 bytes (f32, i32, u32) or 1 byte
  // (bool: each 0 or 1). Exactly product(shape) * element size bytes.
  std::vector<uint8_t> data;
};

// Bytes per element of `dtype` in a .npy file: 4, or 1 for bool.
int NpyElementSize(DType dtype);

// Number of elements of `shape`, or InvalidArgument for a negative dimension
// or a product (of the non-zero dimensions, times the element size of
// `dtype`) that overflows 64 bits.
absl::StatusOr<int64_t> NpyElementCount(DType dtype, absl::Span<const int64_t> shape);

// Decodes a whole .npy file. Never reads outside `bytes`, whatever they hold.
// Errors are InvalidArgument; their messages do not name a file.
absl::StatusOr<NpyArray> ParseNpy(absl::string_view bytes);

// Reads (at most `max_bytes`: ReadFile) and decodes `path`. Errors name `path`: the errno-derived
// status (NotFound, PermissionDenied...) when it cannot be read, otherwise InvalidArgument from
// ParseNpy.
absl::StatusOr<NpyArray> ReadNpy(const FileAccess& access, const std::string& path,
                                 uint64_t max_bytes = kMaxReadBytes);

// Encodes an array exactly as `np.save` does. `data` holds
// NpyElementCount(dtype, shape) elements in row-major order in the host's
// layout (Alea supports little-endian hosts only); bool bytes other than 0
// are written as 1. Precondition: NpyElementCount(dtype, shape) is ok (a
// tensor's shape always is; WriteNpy checks it).
std::string SerializeNpy(DType dtype, absl::Span<const int64_t> shape, const void* data);

// SerializeNpy into `path` (created or truncated). Errors name `path`.
absl::Status WriteNpy(const FileAccess& access, const std::string& path, DType dtype,
                      absl::Span<const int64_t> shape, const void* data);

}  // namespace alea::vm

#endif  // ALEA_VM_NPY_H_
