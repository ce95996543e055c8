// Source files and positions. Every diagnostic and every AST node points into a
// SourceManager through a Span (file id + byte range), so locations survive
// imports and the REPL's growing input without copying text around.
#ifndef ALEA_LANG_SOURCE_H_
#define ALEA_LANG_SOURCE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace alea::lang {

using FileId = uint32_t;

// A half-open byte range [begin, end) in one file.
struct Span {
  FileId file = 0;
  uint32_t begin = 0;
  uint32_t end = 0;

  // The smallest span covering both (same file assumed).
  Span To(Span other) const { return Span{file, begin, other.end > end ? other.end : end}; }
};

// 1-based line and column; the column counts bytes, as GCC and Clang do.
struct LineCol {
  uint32_t line = 1;
  uint32_t column = 1;
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  std::string_view text() const { return text_; }
  LineCol Locate(uint32_t offset) const;
  // The inverse of Locate, clamped to the text.
  uint32_t Offset(LineCol at) const;
  // The text of a 1-based line, without its newline.
  std::string_view Line(uint32_t line) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

// The bytes of the program file (source or module) at `path`. Refused past
// kMaxProgramFileBytes (OutOfRange), so that a device such as /dev/zero or an
// endless pipe ends in an error instead of exhausting memory; a directory is
// FailedPrecondition "it is a directory".
inline constexpr uint64_t kMaxProgramFileBytes = uint64_t{256} << 20;
absl::StatusOr<std::string> ReadProgramFile(const std::string& path);

class SourceManager {
 public:
  FileId Add(std::string path, std::string text);
  // Reads a file from disk, or takes the text given for `path` by Provide;
  // the error's message is the reason alone ("No such file or directory"),
  // for the caller to place.
  absl::StatusOr<FileId> Load(const std::string& path);
  // Load(path) takes `text` instead of reading the disk: the REPL checks its
  // session again with each input against the files as they were loaded, not
  // as they are now (an editor's half-saved file must not break the session
  // until `:reload`).
  void Provide(std::string path, std::string text);
  // Load reads files through `reader` (which returns the text, or an error
  // whose message is the reason alone) instead of the disk: how an embedding
  // host serves `import`s. Provided texts still come first.
  using Reader = std::function<absl::StatusOr<std::string>(const std::string& path)>;
  void SetReader(Reader reader) { reader_ = std::move(reader); }

  const SourceFile& file(FileId id) const { return files_[id]; }
  size_t size() const { return files_.size(); }

 private:
  std::vector<SourceFile> files_;
  absl::flat_hash_map<std::string, std::string> provided_;
  Reader reader_;
};

}  // namespace alea::lang

#endif  // ALEA_LANG_SOURCE_H_
