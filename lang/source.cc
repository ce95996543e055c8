#include "lang/source.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace alea::lang {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

LineCol SourceFile::Locate(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  uint32_t line_index = static_cast<uint32_t>(it - line_starts_.begin()) - 1;
  return LineCol{line_index + 1, offset - line_starts_[line_index] + 1};
}

uint32_t SourceFile::Offset(LineCol at) const {
  if (at.line == 0) return 0;
  if (at.line > line_starts_.size()) return static_cast<uint32_t>(text_.size());
  uint32_t column = at.column > 0 ? at.column - 1 : 0;
  return std::min<uint32_t>(line_starts_[at.line - 1] + column, text_.size());
}

std::string_view SourceFile::Line(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] : text_.size();
  std::string_view text(text_);
  text = text.substr(begin, end - begin);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

FileId SourceManager::Add(std::string path, std::string text) {
  files_.emplace_back(std::move(path), std::move(text));
  return static_cast<FileId>(files_.size() - 1);
}

void SourceManager::Provide(std::string path, std::string text) {
  provided_.insert_or_assign(std::move(path), std::move(text));
}

absl::StatusOr<std::string> ReadProgramFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return absl::NotFoundError(std::strerror(errno));
  std::string bytes;
  char buffer[1 << 16];
  errno = 0;
  while (true) {
    const size_t n = std::fread(buffer, 1, sizeof(buffer), file);
    if (n > kMaxProgramFileBytes - bytes.size()) {
      std::fclose(file);
      return absl::OutOfRangeError("the file is larger than 256 MiB");
    }
    bytes.append(buffer, n);
    if (n < sizeof(buffer)) break;
  }
  // A failed read without an errno is still a failure.
  const int error = std::ferror(file) == 0 ? 0 : errno != 0 ? errno : EIO;
  std::fclose(file);
  // A directory opens on Linux but reads with EISDIR.
  if (error == EISDIR) return absl::FailedPreconditionError("it is a directory");
  if (error != 0) return absl::DataLossError(std::strerror(error));
  return bytes;
}

absl::StatusOr<FileId> SourceManager::Load(const std::string& path) {
  if (auto it = provided_.find(path); it != provided_.end()) return Add(path, it->second);
  absl::StatusOr<std::string> text = reader_ ? reader_(path) : ReadProgramFile(path);
  if (!text.ok()) return text.status();
  return Add(path, *std::move(text));
}

}  // namespace alea::lang
