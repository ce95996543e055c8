#include "vm/disassembler.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "vm/print.h"
#include "vm/tensor.h"

namespace alea::vm {
namespace {

// What each operand names: r register, i immediate or count, j jump offset,
// k constant, s string, f function, n native, g global, t type, d dtype,
// c capture, field or argument index, I a signed 16-bit immediate, o an opcode (shown by name, so
// that a listing does not change when opcodes are added), '-' unused.
const char* OperandKinds(Op op) {
  if (IsDraw(op)) return "rri";  // c: how many argument registers from R(b)
  switch (op) {
    case Op::NOP:
      return "---";
    case Op::LOADI:
      return "ri-";
    case Op::LOADK:
      return "rk-";
    case Op::LOADS:
      return "rs-";
    case Op::LOADFN:
      return "rf-";
    case Op::LOADG:
    case Op::STOREG:
      return "rg-";
    case Op::ADDK_I:
    case Op::MULK_I:
    case Op::DIVK_I:
    case Op::REMK_I:
      return "rri";
    case Op::EQ_V:
    case Op::LT_V:
    case Op::LE_V:
    case Op::STR:
      return "rrt";
    case Op::JMP:
      return "-j-";
    case Op::LOADTAG:
    case Op::SWITCH:
      return "ri-";
    case Op::JNTAG:
      return "rij";
    case Op::JMPIF:
    case Op::JMPIFNOT:
      return "rj-";
    case Op::JLT_I:
    case Op::JLE_I:
    case Op::JEQ_I:
    case Op::JNE_I:
      return "rrj";
    case Op::JLTK_I:
    case Op::JLEK_I:
    case Op::JGTK_I:
    case Op::JGEK_I:
    case Op::JEQK_I:
    case Op::JNEK_I:
      return "rIj";
    case Op::CALL:
    case Op::TAILCALL:
    case Op::CLOSURE:
      return "rfi";
    case Op::CALLN:
      return "rni";
    case Op::CALLC:
    case Op::TAILCALLC:
    case Op::GRAD:
      return "rri";
    case Op::RET:
    case Op::RELEASE:
      return "r--";
    case Op::GETCAP:
      return "rc-";
    case Op::TUPLE:
      return "rrt";
    case Op::FIELD:
      return "rrc";
    case Op::ARRAY:
      return "rri";
    case Op::PRINT:
      return "rt-";
    case Op::SCALAR_T:
      return "rrd";
    case Op::FUSED_T:
      return "rc-";
    case Op::SITE:  // c: the site's number
      return "rri";
    case Op::UNBOX:
    case Op::BOX:
      return "rro";  // c: the op named in use-once notes
    case Op::FOLDIN_U:
      return "rrr";
    case Op::TAKE:
      return "ri-";
    default:
      break;
  }
  switch (InfoOf(op).format) {
    case OpFormat::AB:
      return "rr-";
    case OpFormat::A:
      return "r--";
    default:
      return "rrr";
  }
}

void AppendTypeName(std::string* out, const Module& m, uint32_t type, int depth) {
  if (type >= m.types.size()) {
    absl::StrAppend(out, "T?", type);
    return;
  }
  if (depth > 64) {
    out->append("...");
    return;
  }
  const TypeDesc& t = m.types[type];
  switch (t.kind) {
    case TypeDesc::Kind::kInt:
      out->append("Int");
      return;
    case TypeDesc::Kind::kFloat:
      out->append("Float");
      return;
    case TypeDesc::Kind::kBool:
      out->append("Bool");
      return;
    case TypeDesc::Kind::kStr:
      out->append("Str");
      return;
    case TypeDesc::Kind::kUnit:
      out->append("()");
      return;
    case TypeDesc::Kind::kFunction:
      out->append("fn");
      return;
    case TypeDesc::Kind::kTensor:
      out->append("Tensor");
      return;
    case TypeDesc::Kind::kDType:
      out->append("DType");
      return;
    case TypeDesc::Kind::kRandState:
      out->append("RandState");
      return;
    case TypeDesc::Kind::kPlot:
      out->append("Plot");
      return;
    case TypeDesc::Kind::kArray:
      out->push_back('[');
      if (!t.children.empty()) AppendTypeName(out, m, t.children[0], depth + 1);
      out->push_back(']');
      return;
    case TypeDesc::Kind::kTuple:
      out->push_back('(');
      for (size_t i = 0; i < t.children.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendTypeName(out, m, t.children[i], depth + 1);
      }
      out->push_back(')');
      return;
    case TypeDesc::Kind::kRecord:
    case TypeDesc::Kind::kVariant:
      out->append(t.name);
      return;
    case TypeDesc::Kind::kCase:
      // The constructor, as `Some of Option(Int)`.
      if (t.parent < m.types.size() && t.tag < m.types[t.parent].names.size()) {
        absl::StrAppend(out, m.types[t.parent].names[t.tag], " of ", m.types[t.parent].name);
      }
      return;
  }
}

std::string Quoted(absl::string_view s) {
  std::string out;
  AppendQuoted(&out, s);
  return out;
}

std::string ConstantText(uint64_t bits) {
  // The constant pool does not say which it is: show both readings.
  return absl::StrCat(static_cast<int64_t>(bits), " / ", FormatFloat(std::bit_cast<double>(bits)));
}

void AppendInstr(std::string* out, const Module& m, const Function& f, size_t pc) {
  const Instr& in = f.code[pc];
  const OpInfo& info = InfoOf(in.op);
  const char* kinds = OperandKinds(in.op);
  const OpFormat format = info.format;
  // Operand values in a, b, c order, with the signed forms each format has.
  int64_t values[3] = {in.a, in.b, in.c};
  if (format == OpFormat::AsBx || format == OpFormat::sBx) values[1] = in.sbx();
  if (format == OpFormat::ABsC) values[2] = in.sc();
  std::vector<std::string> operands;
  std::vector<std::string> notes;
  for (int i = 0; i < 3; ++i) {
    const int64_t v = values[i];
    switch (kinds[i]) {
      case 'r':
        operands.push_back(absl::StrCat("r", v));
        break;
      case 'i':
        operands.push_back(absl::StrCat(v));
        break;
      case 'I':
        operands.push_back(absl::StrCat(static_cast<int16_t>(v)));
        break;
      case 'c':
        operands.push_back(absl::StrCat("#", v));
        break;
      case 'o':
        operands.push_back(v >= 0 && v < kOpCount ? InfoOf(static_cast<Op>(v)).name
                                                  : absl::StrCat("op?", v));
        break;
      case 'd':  // a dtype
        operands.push_back(v <= static_cast<int64_t>(DType::kBool)
                               ? DTypeName(static_cast<DType>(v))
                               : absl::StrCat("dtype?", v));
        break;
      case 'j':
        operands.push_back(absl::StrFormat("%+d", v));
        notes.push_back(absl::StrCat("-> ", static_cast<int64_t>(pc) + 1 + v));
        break;
      case 'k':
        operands.push_back(absl::StrCat("K", v));
        if (static_cast<size_t>(v) < m.constants.size()) {
          notes.push_back(ConstantText(m.constants[v]));
        }
        break;
      case 's':
        operands.push_back(absl::StrCat("S", v));
        if (static_cast<size_t>(v) < m.strings.size()) notes.push_back(Quoted(m.strings[v]));
        break;
      case 'f':
        operands.push_back(absl::StrCat("F", v));
        if (static_cast<size_t>(v) < m.functions.size()) {
          const Function& g = m.functions[v];
          notes.push_back(g.specialization.empty() ? g.name
                                                   : absl::StrCat(g.name, " ", g.specialization));
        }
        break;
      case 'n':
        operands.push_back(absl::StrCat("N", v));
        if (static_cast<size_t>(v) < m.natives.size()) notes.push_back(m.natives[v]);
        break;
      case 'g':
        operands.push_back(absl::StrCat("G", v));
        if (static_cast<size_t>(v) < m.globals.size()) notes.push_back(m.globals[v].name);
        break;
      case 't': {
        operands.push_back(absl::StrCat("T", v));
        std::string name;
        AppendTypeName(&name, m, static_cast<uint32_t>(v), 0);
        notes.push_back(name);
        break;
      }
      default:
        break;
    }
  }
  if (in.x != 0) operands.push_back(absl::StrCat("x=", in.x));
  std::string line =
      absl::StrFormat("  %5d  %-10s %s", pc, info.name, absl::StrJoin(operands, ", "));
  if (!notes.empty()) {
    line.resize(std::max<size_t>(line.size(), 40), ' ');
    absl::StrAppend(&line, " ; ", absl::StrJoin(notes, "; "));
  }
  // The line table entry in force at this pc.
  auto it = std::upper_bound(f.lines.begin(), f.lines.end(), pc,
                             [](size_t p, const LineEntry& e) { return p < e.pc; });
  if (it != f.lines.begin() && std::prev(it)->location.line != 0) {
    const SourceLocation& loc = std::prev(it)->location;
    line.resize(std::max<size_t>(line.size(), 64), ' ');
    absl::StrAppend(&line, " @", loc.line, ":", loc.column);
  }
  // Trailing spaces from padding are noise in golden files.
  while (!line.empty() && line.back() == ' ') line.pop_back();
  absl::StrAppend(out, line, "\n");
}

}  // namespace

std::string TypeName(const Module& module, uint32_t type) {
  std::string s;
  AppendTypeName(&s, module, type, 0);
  return s;
}

std::string Disassemble(const Module& m) {
  std::string out;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    const Function& f = m.functions[i];
    absl::StrAppend(&out, "F", i, ": fn ", f.name);
    if (!f.specialization.empty()) absl::StrAppend(&out, " ", f.specialization);
    if (static_cast<int32_t>(i) == m.main) out += " (main)";
    if (static_cast<int32_t>(i) == m.init) out += " (init)";
    absl::StrAppend(&out, "\n  params ", f.num_params, ", registers ", f.num_registers);
    if (f.num_captures) absl::StrAppend(&out, ", captures ", f.num_captures);
    out += ", references ";
    if (f.reference_registers.empty()) {
      out += "none";
    } else {
      out += absl::StrJoin(f.reference_registers, " ",
                           [](std::string* s, uint16_t r) { absl::StrAppend(s, "r", r); });
    }
    out += "\n";
    if (!f.lines.empty() && f.lines.front().location.file < m.files.size()) {
      absl::StrAppend(&out, "  file ", m.files[f.lines.front().location.file], "\n");
    }
    for (size_t pc = 0; pc < f.code.size(); ++pc) AppendInstr(&out, m, f, pc);
    out += "\n";
  }
  if (!m.constants.empty()) {
    out += "constants\n";
    for (size_t i = 0; i < m.constants.size(); ++i) {
      absl::StrAppend(&out, "  K", i, " = ", ConstantText(m.constants[i]), "\n");
    }
  }
  if (!m.strings.empty()) {
    out += "strings\n";
    for (size_t i = 0; i < m.strings.size(); ++i) {
      absl::StrAppend(&out, "  S", i, " = ", Quoted(m.strings[i]), "\n");
    }
  }
  if (!m.types.empty()) {
    out += "types\n";
    for (size_t i = 0; i < m.types.size(); ++i) {
      absl::StrAppend(&out, "  T", i, " = ", TypeName(m, static_cast<uint32_t>(i)), "\n");
    }
  }
  if (!m.natives.empty()) {
    out += "natives\n";
    for (size_t i = 0; i < m.natives.size(); ++i) {
      absl::StrAppend(&out, "  N", i, " = ", m.natives[i], "\n");
    }
  }
  if (!m.globals.empty()) {
    out += "globals\n";
    for (size_t i = 0; i < m.globals.size(); ++i) {
      absl::StrAppend(&out, "  G", i, " = ", m.globals[i].name, ": ",
                      TypeName(m, m.globals[i].type), "\n");
    }
  }
  return out;
}

}  // namespace alea::vm
