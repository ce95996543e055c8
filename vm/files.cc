#include "vm/files.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace alea::vm {

absl::Status FileError(const std::string& path, absl::string_view what) {
  const int error = errno != 0 ? errno : EIO;
  return absl::ErrnoToStatus(error, absl::StrCat(path, ": ", what));
}

namespace {

// A directory and a name in it, both inside the sandbox: what a write needs
// (its temporary file and the rename go beside the target).
struct Place {
  int dir_fd = AT_FDCWD;  // closed by the destructor unless AT_FDCWD
  std::string name;
  Place() = default;
  Place(const Place&) = delete;
  Place& operator=(const Place&) = delete;
  ~Place() {
    if (dir_fd != AT_FDCWD) close(dir_fd);
  }
};

absl::Status Refused(const std::string& path, absl::string_view why) {
  return absl::PermissionDeniedError(absl::StrCat(path, ": ", why));
}

std::atomic<bool> force_walk{false};

// Without openat2 (Linux before 5.6): the same rules, walking `path` a
// component at a time from the root. A `..` at the root is refused
// (EXDEV), and so is any symbolic link (ELOOP: fstatat says what a step
// is, and each open has O_NOFOLLOW, so a link swapped in meanwhile is not
// followed either).
int WalkBeneath(int root_fd, const std::string& path, int flags) {
  if (path.empty()) {
    errno = ENOENT;
    return -1;
  }
  if (path[0] == '/') {
    errno = EXDEV;
    return -1;
  }
  std::vector<int> dirs;
  const int first = dup(root_fd);
  if (first < 0) return -1;
  dirs.push_back(first);
  auto finish = [&dirs](int fd, int error) {
    for (int d : dirs) close(d);
    errno = error;
    return fd;
  };
  const std::vector<std::string> parts = absl::StrSplit(path, '/', absl::SkipEmpty());
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const bool final = i + 1 == parts.size();
    if (part == "..") {
      if (dirs.size() == 1) return finish(-1, EXDEV);
      close(dirs.back());
      dirs.pop_back();
    }
    if (part == "." || part == "..") {
      if (!final) continue;
      const int fd = openat(dirs.back(), ".", flags | O_CLOEXEC);
      return finish(fd, errno);
    }
    struct stat st;
    if (fstatat(dirs.back(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
      return finish(-1, ELOOP);
    }
    if (final) {
      const int fd = openat(dirs.back(), part.c_str(), flags | O_NOFOLLOW | O_CLOEXEC);
      return finish(fd, errno);
    }
    const int next =
        openat(dirs.back(), part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0) return finish(-1, errno);
    dirs.push_back(next);
  }
  const int fd = openat(dirs.back(), ".", flags | O_CLOEXEC);  // "sub/" names sub
  return finish(fd, errno);
}

// `path` opened beneath `root_fd`: every step stays inside the root and
// follows no symbolic link; -1 with errno set otherwise (openat2 with
// RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS, or the walk where the kernel has
// no openat2).
int OpenBeneath(int root_fd, const std::string& path, int flags) {
  if (!force_walk.load(std::memory_order_relaxed)) {
    struct open_how how;
    std::memset(&how, 0, sizeof(how));
    how.flags = static_cast<uint64_t>(flags) | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    const long fd = syscall(SYS_openat2, root_fd, path.c_str(), &how, sizeof(how));
    if (fd >= 0 || errno != ENOSYS) return static_cast<int>(fd);
  }
  return WalkBeneath(root_fd, path, flags);
}

// Why openat2 refused a path, in the sandbox's words.
absl::Status SandboxError(const FileAccess& access, const std::string& path,
                          absl::string_view what) {
  switch (errno) {
    case EXDEV:
      return Refused(path, absl::StrCat(what, ": outside the sandbox `", access.root,
                                        "` (paths are relative to it, without `..` above it)"));
    case ELOOP:
      return Refused(path,
                     absl::StrCat(what, ": a symbolic link, which the sandbox does not follow"));
    default:
      return FileError(path, what);
  }
}

// The access check every file operation starts with.
absl::Status Allowed(const FileAccess& access, const std::string& path, bool write) {
  switch (access.mode) {
    case FileAccess::Mode::kNone:
      return Refused(path, "file access is not allowed here (the host gave this program none)");
    case FileAccess::Mode::kReadOnly:
      if (write) {
        return Refused(
            path, absl::StrCat("cannot write: files under `", access.root, "` are read-only here"));
      }
      return absl::OkStatus();
    case FileAccess::Mode::kReadWrite:
    case FileAccess::Mode::kFull:
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

bool Sandboxed(const FileAccess& access) {
  return access.mode == FileAccess::Mode::kReadOnly || access.mode == FileAccess::Mode::kReadWrite;
}

// `target` opened with `flags`: as it is with full access, beneath the
// root in a sandbox. `target` is `path` (a read) or the directory a write
// of `path` goes to; an error names `path` and says `what` failed.
absl::StatusOr<int> OpenChecked(const FileAccess& access, const std::string& path,
                                const std::string& target, int flags, absl::string_view what) {
  errno = 0;
  if (!Sandboxed(access)) {
    const int fd = open(target.c_str(), flags | O_CLOEXEC);
    if (fd < 0) return FileError(path, what);
    return fd;
  }
  const int root = open(access.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) return FileError(path, absl::StrCat("cannot open the sandbox `", access.root, "`"));
  errno = 0;
  const int fd = OpenBeneath(root, target, flags);
  const int saved = errno;
  close(root);
  errno = saved;
  if (fd < 0) return SandboxError(access, path, what);
  return fd;
}

// Opens `path` for reading.
absl::StatusOr<int> OpenForReading(const FileAccess& access, const std::string& path) {
  if (absl::Status ok = Allowed(access, path, false); !ok.ok()) return ok;
  return OpenChecked(access, path, path, O_RDONLY, "cannot open");
}

// The directory a write of `path` goes to, and the file's name in it.
absl::Status PlaceForWriting(const FileAccess& access, const std::string& path, Place* place) {
  if (absl::Status ok = Allowed(access, path, true); !ok.ok()) return ok;
  const size_t slash = path.rfind('/');
  place->name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  if (Sandboxed(access) && (place->name.empty() || place->name == "." || place->name == "..")) {
    errno = EISDIR;
    return FileError(path, "cannot create");
  }
  if (dir.empty() && !Sandboxed(access)) return absl::OkStatus();  // the current directory
  absl::StatusOr<int> fd =
      OpenChecked(access, path, dir.empty() ? "." : dir, O_PATH | O_DIRECTORY, "cannot create");
  if (!fd.ok()) return fd.status();
  place->dir_fd = *fd;
  return absl::OkStatus();
}

}  // namespace

void ForceSandboxWalkForTesting(bool walk) { force_walk.store(walk, std::memory_order_relaxed); }

absl::StatusOr<std::string> ReadFile(const FileAccess& access, const std::string& path,
                                     uint64_t max_bytes) {
  absl::StatusOr<int> fd = OpenForReading(access, path);
  if (!fd.ok()) return fd.status();
  std::FILE* file = fdopen(*fd, "rb");
  if (file == nullptr) {
    absl::Status error = FileError(path, "cannot open");
    close(*fd);
    return error;
  }
  std::string bytes;
  char buffer[1 << 16];
  errno = 0;
  while (true) {
    const size_t n = std::fread(buffer, 1, sizeof(buffer), file);
    if (n > max_bytes - bytes.size()) {
      std::fclose(file);
      return absl::ResourceExhaustedError(absl::StrCat(path, ": larger than ", max_bytes,
                                                       " bytes, the most that may be read here"));
    }
    bytes.append(buffer, n);
    if (n < sizeof(buffer)) break;
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  // A directory opens on Linux but reads with EISDIR.
  if (failed) return FileError(path, "cannot read");
  return bytes;
}

absl::Status WriteFileAtomically(const FileAccess& access, const std::string& path,
                                 const std::function<bool(std::FILE*)>& write) {
  // The temporary name: `.NAME.tmp-PID-N` beside the target, hidden while
  // it exists. openat() with O_EXCL and 0666 gives it the permissions fopen
  // would (less the umask) and never takes over someone else's file; the
  // directory is the sandbox's check of the path's way there.
  Place place;
  if (absl::Status ok = PlaceForWriting(access, path, &place); !ok.ok()) return ok;
  static std::atomic<uint64_t> counter{0};
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = absl::StrCat(".", place.name, ".tmp-", getpid(), "-", counter++);
    errno = 0;
    fd = openat(place.dir_fd, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
                0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) return FileError(path, "cannot create");
  std::FILE* file = fdopen(fd, "wb");
  if (file == nullptr) {
    absl::Status error = FileError(path, "cannot create");
    close(fd);
    unlinkat(place.dir_fd, temp.c_str(), 0);
    return error;
  }
  errno = 0;
  bool ok = write(file);
  ok = std::fflush(file) == 0 && ok;
  ok = std::fclose(file) == 0 && ok;
  if (!ok) {
    absl::Status error = FileError(path, "cannot write");
    unlinkat(place.dir_fd, temp.c_str(), 0);
    return error;
  }
  // renameat replaces a symbolic link at the target itself, never where it
  // points.
  if (renameat(place.dir_fd, temp.c_str(), place.dir_fd, place.name.c_str()) != 0) {
    absl::Status error = FileError(path, "cannot write");
    unlinkat(place.dir_fd, temp.c_str(), 0);
    return error;
  }
  return absl::OkStatus();
}

}  // namespace alea::vm
