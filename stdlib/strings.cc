// Strs: UTF-8 text, measured and cut in bytes. Characters are whole UTF-8
// sequences; case mapping is ASCII's (other characters are kept as they are).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "stdlib/natives.h"
#include "stdlib/prelude_values.h"
#include "vm/utf8.h"

namespace alea::stdlib {

using vm::AsInt;
using vm::AsObject;
using vm::FromBool;
using vm::FromObject;
using vm::Object;
using vm::Slots;
using vm::Value;

namespace {

std::string_view Text(Value v) {
  absl::string_view s = vm::StrView(AsObject(v));
  return std::string_view(s.data(), s.size());
}

absl::string_view A(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// An array of new Strs.
absl::StatusOr<Value> StrArray(vm::NativeContext& ctx, const std::vector<std::string_view>& parts) {
  absl::StatusOr<Object*> arr = ctx.NewArray(parts.size(), true);
  if (!arr.ok()) return arr.status();
  for (size_t i = 0; i < parts.size(); ++i) {
    absl::StatusOr<Object*> s = ctx.NewStr(A(parts[i]));
    if (!s.ok()) {
      ctx.heap().Release(*arr);  // and the Strs made so far
      return s.status();
    }
    Slots(*arr)[i] = FromObject(*s);
  }
  return FromObject(*arr);
}

absl::StatusOr<Value> NewStr(vm::NativeContext& ctx, std::string_view text) {
  absl::StatusOr<Object*> s = ctx.NewStr(A(text));
  if (!s.ok()) return s.status();
  return FromObject(*s);
}

// The bytes of the UTF-8 character at s[i]. A Str from the host (the
// embedding API, `main`'s arguments) may hold bytes that start none: each is
// then a character of its own, so nothing is lost or cut further.
size_t CharLength(std::string_view s, size_t i) {
  const size_t n = vm::Utf8SequenceLength(s, i);
  return n == 0 ? 1 : n;
}

std::string_view Trimmed(std::string_view s) {
  absl::string_view t = absl::StripAsciiWhitespace(A(s));
  return std::string_view(t.data(), t.size());
}

}  // namespace

absl::StatusOr<Value> Native_str_chars(vm::NativeContext& ctx, const Value* args) {
  std::string_view s = Text(args[0]);
  std::vector<std::string_view> chars;
  for (size_t i = 0; i < s.size();) {
    size_t n = CharLength(s, i);
    chars.push_back(s.substr(i, n));
    i += n;
  }
  return StrArray(ctx, chars);
}

absl::StatusOr<Value> Native_str_slice(vm::NativeContext& ctx, const Value* args) {
  std::string_view s = Text(args[0]);
  size_t bounds[2];
  for (int k = 0; k < 2; ++k) {
    const int64_t b = vm::AsInt(args[1 + k]);
    if (b < 0) return ctx.Fail(vm::RuntimeErrorId::kNegativeSliceBound, b);
    bounds[k] = std::min<uint64_t>(static_cast<uint64_t>(b), s.size());
    // Inside a character when one starting up to 3 bytes before covers it.
    for (size_t j = bounds[k] > 3 ? bounds[k] - 3 : 0; j < bounds[k]; ++j) {
      const size_t n = CharLength(s, j);
      if (j + n > bounds[k]) {
        return ctx.Fail(vm::RuntimeErrorId::kSliceInsideChar, b, A(s.substr(j, n)), j, j + n - 1);
      }
    }
  }
  const size_t from = bounds[0], to = std::max(bounds[0], bounds[1]);
  return NewStr(ctx, s.substr(from, to - from));
}

absl::StatusOr<Value> Native_str_split(vm::NativeContext& ctx, const Value* args) {
  std::string_view s = Text(args[0]);
  std::string_view sep = Text(args[1]);
  if (sep.empty()) return ctx.Fail(vm::RuntimeErrorId::kEmptySeparator, "split");
  std::vector<std::string_view> parts;
  size_t from = 0;
  for (size_t at = s.find(sep); at != std::string_view::npos; at = s.find(sep, from)) {
    parts.push_back(s.substr(from, at - from));
    from = at + sep.size();
  }
  parts.push_back(s.substr(from));
  return StrArray(ctx, parts);
}

absl::StatusOr<Value> Native_str_join(vm::NativeContext& ctx, const Value* args) {
  const Object* xs = AsObject(args[0]);
  std::string_view sep = Text(args[1]);
  std::string out;
  for (uint64_t i = 0; i < xs->length; ++i) {
    if (i > 0) out.append(sep);
    out.append(Text(Slots(xs)[i]));
  }
  return NewStr(ctx, out);
}

absl::StatusOr<Value> Native_str_trim(vm::NativeContext& ctx, const Value* args) {
  return NewStr(ctx, Trimmed(Text(args[0])));
}

absl::StatusOr<Value> Native_str_starts_with(vm::NativeContext&, const Value* args) {
  return FromBool(Text(args[0]).starts_with(Text(args[1])));
}

absl::StatusOr<Value> Native_str_ends_with(vm::NativeContext&, const Value* args) {
  return FromBool(Text(args[0]).ends_with(Text(args[1])));
}

absl::StatusOr<Value> Native_str_contains(vm::NativeContext&, const Value* args) {
  return FromBool(Text(args[0]).find(Text(args[1])) != std::string_view::npos);
}

absl::StatusOr<Value> Native_str_replace(vm::NativeContext& ctx, const Value* args) {
  std::string_view old = Text(args[1]);
  if (old.empty()) return ctx.Fail(vm::RuntimeErrorId::kEmptySeparator, "replace");
  return NewStr(ctx, absl::StrReplaceAll(A(Text(args[0])), {{A(old), A(Text(args[2]))}}));
}

absl::StatusOr<Value> Native_str_upper(vm::NativeContext& ctx, const Value* args) {
  return NewStr(ctx, absl::AsciiStrToUpper(A(Text(args[0]))));
}

absl::StatusOr<Value> Native_str_lower(vm::NativeContext& ctx, const Value* args) {
  return NewStr(ctx, absl::AsciiStrToLower(A(Text(args[0]))));
}

absl::StatusOr<Value> Native_parse_int(vm::NativeContext& ctx, const Value* args) {
  std::string_view s = Trimmed(Text(args[0]));
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  int64_t value = 0;
  auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return MakeNone(ctx);
  return MakeSome(ctx, vm::FromInt(value), false);
}

absl::StatusOr<Value> Native_parse_float(vm::NativeContext& ctx, const Value* args) {
  std::string_view s = Trimmed(Text(args[0]));
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  double value = 0;
  auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  // Out of range is what the text says, rounded: 1e999 is inf, 1e-999 is 0.
  const bool complete = end == s.data() + s.size();
  if (s.empty() || !complete || (error != std::errc() && error != std::errc::result_out_of_range)) {
    return MakeNone(ctx);
  }
  if (error == std::errc::result_out_of_range) {
    value = std::strtod(std::string(s).c_str(), nullptr);
  }
  return MakeSome(ctx, vm::FromFloat(value), false);
}

absl::StatusOr<Value> Native_format(vm::NativeContext& ctx, const Value* args) {
  const int64_t digits = AsInt(args[1]);
  if (digits < 0 || digits > 100) return ctx.Fail(vm::RuntimeErrorId::kFormatDigits, digits);
  const double x = vm::AsFloat(args[0]);
  // As Python, not as printf: NaN has no sign to show.
  if (std::isnan(x)) return NewStr(ctx, "nan");
  return NewStr(ctx, absl::StrFormat("%.*f", static_cast<int>(digits), x));
}

}  // namespace alea::stdlib
