// File natives: text, CSV (vm/csv.h) and the atomic writes of vm/files.h.
#include "vm/files.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "stdlib/natives.h"
#include "stdlib/tensor_args.h"
#include "vm/csv.h"
#include "vm/plot.h"
#include "vm/plot_value.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/utf8.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::FromObject;
using vm::Object;
using vm::RuntimeErrorId;
using vm::Value;

namespace {

std::string PathOf(Value v) { return std::string(vm::StrView(AsObject(v))); }

// Writes `bytes` to `path` atomically; the error names the builtin.
absl::Status WriteAll(vm::NativeContext& ctx, const char* builtin, const std::string& path,
                      absl::string_view bytes) {
  const absl::Status written = vm::WriteFileAtomically(ctx.files(), path, [&](std::FILE* f) {
    return std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  });
  if (!written.ok()) return ctx.Fail(RuntimeErrorId::kFileWrite, builtin, written.message());
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Value> Native_read_text(vm::NativeContext& ctx, const Value* args) {
  const std::string path = PathOf(args[0]);
  absl::StatusOr<std::string> text = vm::ReadFile(ctx.files(), path, ctx.MaxReadBytes());
  if (!text.ok()) return ctx.Fail(RuntimeErrorId::kFileRead, "read_text", text.status().message());
  // Every Str is UTF-8 (chars, slicing and printing rely on it), so a file
  // that is not is refused where it stops being UTF-8, as a text editor
  // would place it: line and column (in characters) from 1.
  if (const size_t bad = vm::FirstInvalidUtf8(*text); bad < text->size()) {
    const absl::string_view before = absl::string_view(*text).substr(0, bad);
    const size_t line_start = before.rfind('\n') + 1;  // npos + 1 == 0
    size_t column = 1;
    for (size_t i = line_start; i < bad; i += vm::Utf8SequenceLength(*text, i)) ++column;
    return ctx.Fail(RuntimeErrorId::kFileRead, "read_text",
                    absl::StrFormat("%s:%d:%d: not UTF-8 text: byte 0x%02X starts no character",
                                    path, std::count(before.begin(), before.end(), '\n') + 1,
                                    column, static_cast<unsigned char>((*text)[bad])));
  }
  absl::StatusOr<Object*> s = ctx.NewStr(*text);
  if (!s.ok()) return s.status();
  return FromObject(*s);
}

absl::StatusOr<Value> Native_write_text(vm::NativeContext& ctx, const Value* args) {
  if (absl::Status s = WriteAll(ctx, "write_text", PathOf(args[0]), vm::StrView(AsObject(args[1])));
      !s.ok()) {
    return s;
  }
  return Value{0};
}

// save_plot(path, p): the plot as SVG (vm/plot.h RenderSvg), atomically.
absl::StatusOr<Value> Native_save_plot(vm::NativeContext& ctx, const Value* args) {
  const std::string svg = vm::RenderSvg(vm::PlotOf(AsObject(args[1])));
  if (absl::Status s = WriteAll(ctx, "save_plot", PathOf(args[0]), svg); !s.ok()) return s;
  return Value{0};
}

absl::StatusOr<Value> Native_t_load_csv(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<vm::DType> dtype_arg = DTypeArg(ctx, args[1]);
  if (!dtype_arg.ok()) return dtype_arg.status();
  const vm::DType dtype = *dtype_arg;
  // ParseCsv makes 4-byte words, which a bool tensor has no room for (the
  // builtin's dtype is numeric; only malformed bytecode passes bool).
  if (dtype == vm::DType::kBool) {
    return ctx.Fail(RuntimeErrorId::kBadCall, "`load_csv` of dtype bool");
  }
  const absl::string_view delimiter = vm::StrView(AsObject(args[3]));
  if (delimiter.empty()) return ctx.Fail(RuntimeErrorId::kEmptyDelimiter, "load_csv");
  const int64_t skip = AsInt(args[2]);
  if (skip < 0) return ctx.Fail(RuntimeErrorId::kNegativeCount, "skip_header", skip);
  const std::string path = PathOf(args[0]);
  absl::StatusOr<std::string> text = vm::ReadFile(ctx.files(), path, ctx.MaxReadBytes());
  if (!text.ok()) return ctx.Fail(RuntimeErrorId::kFileRead, "load_csv", text.status().message());
  absl::StatusOr<vm::CsvTable> table = vm::ParseCsv(*text, path, dtype, skip, delimiter);
  if (!table.ok()) {
    return ctx.Fail(RuntimeErrorId::kFileRead, "load_csv", table.status().message());
  }
  vm::TensorContext cx = ctx.tensors();
  Object* out = cx.New(dtype, table->shape);
  if (out == nullptr) return ctx.Fail(cx);
  if (!table->words.empty()) {
    std::memcpy(vm::DataOf(out), table->words.data(), table->words.size() * sizeof(uint32_t));
  }
  return FromObject(out);
}

absl::StatusOr<Value> Native_t_save_csv(vm::NativeContext& ctx, const Value* args) {
  const Object* x = AsObject(args[1]);
  const absl::string_view delimiter = vm::StrView(AsObject(args[2]));
  if (delimiter.empty()) return ctx.Fail(RuntimeErrorId::kEmptyDelimiter, "save_csv");
  // FormatCsv reads 4-byte words; a bool tensor's are bytes (the builtin's
  // dtype is numeric; only malformed bytecode passes bool).
  if (vm::DTypeOf(x) == vm::DType::kBool) {
    return ctx.Fail(RuntimeErrorId::kBadCall, "`save_csv` of a tensor of dtype bool");
  }
  const absl::Span<const int64_t> shape = vm::ShapeOf(x);
  if (shape.size() != 1 && shape.size() != 2) {
    return ctx.Fail(RuntimeErrorId::kCsvRank, absl::StrCat("[", absl::StrJoin(shape, ", "), "]"));
  }
  const std::string text = vm::FormatCsv(vm::DTypeOf(x), shape, vm::DataOf(x), delimiter);
  if (absl::Status s = WriteAll(ctx, "save_csv", PathOf(args[0]), text); !s.ok()) return s;
  return Value{0};
}

}  // namespace alea::stdlib
