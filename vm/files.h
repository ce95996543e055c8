// Reading a whole file and writing one atomically: the one way the natives
// that touch files (read_text, write_text, load_csv, save_csv, load_npy,
// save_npy) do it, so every such error reads alike: `PATH: what: reason`,
// and the one place a sandbox (FileAccess) is enforced.
#ifndef ALEA_VM_FILES_H_
#define ALEA_VM_FILES_H_

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace alea::vm {

// What a VM's programs may do with files (the host's choice; `alea run`
// gives full access, or a sandbox with --sandbox DIR; an embedding VM none
// unless its VmOptions say otherwise).
struct FileAccess {
  enum class Mode : uint8_t { kNone, kReadOnly, kReadWrite, kFull };
  Mode mode = Mode::kFull;
  // kReadOnly, kReadWrite: the directory every path is resolved in. A path
  // may not leave it: no absolute path, no `..` above it, no symbolic link
  // anywhere on the way (Linux's openat2 with RESOLVE_BENEATH and
  // RESOLVE_NO_SYMLINKS checks each step as the kernel walks it, so no
  // race between a check and the open; before Linux 5.6, a walk of our own
  // with O_NOFOLLOW at each step).
  std::string root;
};

// The most ReadFile takes by default: a device such as /dev/zero, or a pipe
// that never ends, is refused past it rather than read until memory runs out.
inline constexpr uint64_t kMaxReadBytes = uint64_t{4} << 30;

// The bytes of the file at `path`; ResourceExhausted ("PATH: larger than N
// bytes") once it has more than `max_bytes`.
absl::StatusOr<std::string> ReadFile(const FileAccess& access, const std::string& path,
                                     uint64_t max_bytes = kMaxReadBytes);

// Makes `path` hold what `write` writes, or leave it as it was: `write`
// fills a new temporary file in the same directory (so the rename is atomic
// on POSIX file systems), which replaces `path` only once every byte is
// written and the file closed. `write` returns false after a failed write;
// then, or on any other failure, the temporary file is removed.
absl::Status WriteFileAtomically(const FileAccess& access, const std::string& path,
                                 const std::function<bool(std::FILE*)>& write);

// Tests: make a sandbox walk paths itself, as on a kernel without openat2.
void ForceSandboxWalkForTesting(bool walk);

// An error for `path` from errno (EIO when errno says nothing).
absl::Status FileError(const std::string& path, absl::string_view what);

}  // namespace alea::vm

#endif  // ALEA_VM_FILES_H_
