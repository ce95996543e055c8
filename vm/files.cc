#include "vm/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace alea::vm {

absl::Status FileError(const std::string& path, absl::string_view what) {
  const int error = errno != 0 ? errno : EIO;
  return absl::ErrnoToStatus(error, absl::StrCat(path, ": ", what));
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return FileError(path, "cannot open");
  std::string bytes;
  char buffer[1 << 16];
  while (true) {
    const size_t n = std::fread(buffer, 1, sizeof(buffer), file);
    bytes.append(buffer, n);
    if (n < sizeof(buffer)) break;
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  // A directory opens on Linux but reads with EISDIR.
  if (failed) return FileError(path, "cannot read");
  return bytes;
}

absl::Status WriteFileAtomically(const std::string& path,
                                 const std::function<bool(std::FILE*)>& write) {
  // The temporary name: `.NAME.tmp-PID-N` beside the target, hidden while
  // it exists. open() with O_EXCL and 0666 gives it the permissions fopen
  // would (less the umask) and never takes over someone else's file.
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  static std::atomic<uint64_t> counter{0};
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = absl::StrCat(dir, ".", name, ".tmp-", getpid(), "-", counter++);
    errno = 0;
    fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) return FileError(path, "cannot create");
  std::FILE* file = fdopen(fd, "wb");
  if (file == nullptr) {
    absl::Status error = FileError(path, "cannot create");
    close(fd);
    unlink(temp.c_str());
    return error;
  }
  errno = 0;
  bool ok = write(file);
  ok = std::fflush(file) == 0 && ok;
  ok = std::fclose(file) == 0 && ok;
  if (!ok) {
    absl::Status error = FileError(path, "cannot write");
    unlink(temp.c_str());
    return error;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    absl::Status error = FileError(path, "cannot write");
    unlink(temp.c_str());
    return error;
  }
  return absl::OkStatus();
}

}  // namespace alea::vm
