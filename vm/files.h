// Reading a whole file and writing one atomically: the one way the natives
// that touch files (read_text, write_text, load_csv, save_csv, load_npy,
// save_npy) do it, so every such error reads alike: `PATH: what: reason`.
#ifndef ALEA_VM_FILES_H_
#define ALEA_VM_FILES_H_

#include <cstdio>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace alea::vm {

// The bytes of the file at `path`.
absl::StatusOr<std::string> ReadFile(const std::string& path);

// Makes `path` hold what `write` writes, or leave it as it was: `write`
// fills a new temporary file in the same directory (so the rename is atomic
// on POSIX file systems), which replaces `path` only once every byte is
// written and the file closed. `write` returns false after a failed write;
// then, or on any other failure, the temporary file is removed.
absl::Status WriteFileAtomically(const std::string& path,
                                 const std::function<bool(std::FILE*)>& write);

// An error for `path` from errno (EIO when errno says nothing).
absl::Status FileError(const std::string& path, absl::string_view what);

}  // namespace alea::vm

#endif  // ALEA_VM_FILES_H_
