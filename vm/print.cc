#include "vm/print.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "vm/plot.h"
#include "vm/plot_value.h"
#include "vm/randstate.h"
#include "vm/tensor.h"
#include "vm/tensor_format.h"

namespace alea::vm {

void AppendFloat(std::string* out, double d) {
  if (std::isnan(d)) {
    out->append("nan");
    return;
  }
  if (std::isinf(d)) {
    out->append(d < 0 ? "-inf" : "inf");
    return;
  }
  // Scientific form gives the shortest round-trip digits and the exponent
  // without guessing; Python's layout is then applied to them.
  char buf[64];
  std::to_chars_result r =
      std::to_chars(buf, buf + sizeof(buf) - 1, d, std::chars_format::scientific);
  *r.ptr = '\0';  // for atoi below
  const char* p = buf;
  const char* end = r.ptr;
  if (*p == '-') {
    out->push_back('-');
    ++p;
  }
  char digits[32];
  int n = 0;
  while (p < end && *p != 'e') {
    if (*p != '.') digits[n++] = *p;
    ++p;
  }
  int exponent = std::atoi(p + 1);  // "e+16" -> 16, "e-05" -> -5
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-exponent - 1), '0');
      out->append(digits, n);
    } else if (n <= exponent + 1) {
      out->append(digits, n);
      out->append(static_cast<size_t>(exponent + 1 - n), '0');
      out->append(".0");
    } else {
      out->append(digits, exponent + 1);
      out->push_back('.');
      out->append(digits + exponent + 1, n - exponent - 1);
    }
    return;
  }
  out->push_back(digits[0]);
  if (n > 1) {
    out->push_back('.');
    out->append(digits + 1, n - 1);
  }
  out->push_back('e');
  out->push_back(exponent < 0 ? '-' : '+');
  int magnitude = std::abs(exponent);
  if (magnitude < 10) out->push_back('0');
  absl::StrAppend(out, magnitude);
}

std::string FormatFloat(double d) {
  std::string s;
  AppendFloat(&s, d);
  return s;
}

void AppendQuoted(std::string* out, absl::string_view s) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        out->push_back(c);
    }
  }
  out->push_back('"');
}

namespace {

struct Pending {
  const Object* container;
  uint32_t type;
  uint64_t next;
  const std::vector<uint32_t>* fields;  // the field types; null for an array
};

}  // namespace

int TerminalColumns(int fd) {
  if (isatty(fd) == 0) return 0;
  winsize size{};
  return ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 80;
}

PlotStyle PlotStyleFor(int fd) {
  const int columns = TerminalColumns(fd);
  if (columns == 0) return {};
  return {columns, true};
}

void AppendValue(std::string* out, Value v, uint32_t type, const Module& module,
                 const PlotStyle& plot) {
  absl::InlinedVector<Pending, 8> stack;
  bool top = true;
  for (;;) {
    // Print `v` of `type`, or open it.
    const TypeDesc& t = module.types[type];
    switch (t.kind) {
      case TypeDesc::Kind::kInt:
        absl::StrAppend(out, AsInt(v));
        break;
      case TypeDesc::Kind::kDType:
        out->append(v <= static_cast<Value>(DType::kBool) ? DTypeName(static_cast<DType>(v)) : "?");
        break;
      case TypeDesc::Kind::kFloat:
        AppendFloat(out, AsFloat(v));
        break;
      case TypeDesc::Kind::kBool:
        out->append(v ? "true" : "false");
        break;
      case TypeDesc::Kind::kUnit:
        out->append("()");
        break;
      case TypeDesc::Kind::kStr:
        if (top) {
          {
            absl::string_view s = StrView(AsObject(v));
            out->append(s.data(), s.size());
          }
        } else {
          AppendQuoted(out, StrView(AsObject(v)));
        }
        break;
      case TypeDesc::Kind::kFunction: {
        const Object* c = AsObject(v);
        if (c != nullptr && c->function < module.functions.size()) {
          absl::StrAppend(out, "<fn ", module.functions[c->function].name, ">");
        } else {
          out->append("<fn>");
        }
        break;
      }
      case TypeDesc::Kind::kTensor: {
        const Object* x = AsObject(v);
        out->append(FormatTensor(DTypeOf(x), ShapeOf(x), DataOf(x)));
        break;
      }
      case TypeDesc::Kind::kRandState:
        // Shown, never consumed (docs/language.md "The use-once rule"): the flag
        // is left alone.
        AppendRandState(out, StateOf(AsObject(v)));
        break;
      case TypeDesc::Kind::kPlot:
        if (top) {
          std::string drawing = RenderText(PlotOf(AsObject(v)), plot.width, plot.color);
          if (!drawing.empty() && drawing.back() == '\n') drawing.pop_back();
          out->append(drawing);
        } else {
          out->append("<plot>");
        }
        break;
      case TypeDesc::Kind::kTuple:
        out->push_back('(');
        stack.push_back({AsObject(v), type, 0, &t.children});
        break;
      case TypeDesc::Kind::kArray:
        out->push_back('[');
        stack.push_back({AsObject(v), type, 0, nullptr});
        break;
      case TypeDesc::Kind::kRecord:
        // As a literal is written: the type's name without its arguments.
        absl::StrAppend(out, absl::string_view(t.name).substr(0, t.name.find('(')),
                        t.children.empty() ? " {" : " { ");
        stack.push_back({AsObject(v), type, 0, &t.children});
        break;
      case TypeDesc::Kind::kVariant: {
        const Object* o = AsObject(v);
        const uint16_t tag = o->tag < t.cases.size() ? o->tag : 0;
        out->append(t.names[tag]);
        if (o->length > 0) {
          out->push_back('(');
          stack.push_back({o, type, 0, &t.cases[tag]});
        }
        break;
      }
      case TypeDesc::Kind::kCase:
        break;  // only TUPLE names one
    }
    top = false;
    // Find the next value to print, closing finished containers.
    for (;;) {
      if (stack.empty()) return;
      Pending& p = stack.back();
      const TypeDesc& pt = module.types[p.type];
      if (p.next == p.container->length) {
        switch (pt.kind) {
          case TypeDesc::Kind::kArray:
            out->push_back(']');
            break;
          case TypeDesc::Kind::kRecord:
            out->append(p.next == 0 ? "}" : " }");
            break;
          default:
            out->push_back(')');
            break;
        }
        stack.pop_back();
        continue;
      }
      if (p.next > 0) out->append(", ");
      if (pt.kind == TypeDesc::Kind::kRecord) absl::StrAppend(out, pt.names[p.next], ": ");
      v = Slots(p.container)[p.next];
      type = p.fields != nullptr ? (*p.fields)[p.next] : pt.children[0];
      ++p.next;
      break;
    }
  }
}

}  // namespace alea::vm
