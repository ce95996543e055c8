// The verifier's tables and its walk over every function (vm/verifier.h);
// what each instruction requires and leaves is verifier_rules.cc.
#include "vm/verifier.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "vm/kernels/elementwise.h"
#include "vm/utf8.h"
#include "vm/verifier_internal.h"

namespace alea::vm {
namespace verifier {
namespace {

absl::Status Malformed(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("malformed module: ", what));
}

// Records and variants may contain themselves; nothing else may: an array
// of itself would be a value with no end.
absl::Status CheckTypes(const Module& m) {
  const size_t n = m.types.size();
  using K = TypeDesc::Kind;
  for (size_t i = 0; i < n; ++i) {
    const TypeDesc& t = m.types[i];
    auto bad = [&](absl::string_view why) {
      return Malformed(absl::StrCat("type ", i, ": ", why));
    };
    for (uint32_t c : t.children) {
      if (c >= n) return bad(absl::StrCat("refers to type ", c, ", past the ", n, " types"));
    }
    for (const std::vector<uint32_t>& fields : t.cases) {
      for (uint32_t c : fields) {
        if (c >= n) return bad(absl::StrCat("refers to type ", c, ", past the ", n, " types"));
      }
    }
    const bool has_children = t.kind == K::kTuple || t.kind == K::kArray ||
                              t.kind == K::kFunction || t.kind == K::kRecord || t.kind == K::kCase;
    if (!has_children && !t.children.empty()) return bad("this kind of type has no children");
    if (t.kind != K::kVariant && !t.cases.empty()) return bad("only a variant has constructors");
    if (t.kind != K::kRecord && t.kind != K::kVariant && !t.names.empty()) {
      return bad("only records and variants have names");
    }
    if ((t.kind == K::kTensor || t.kind == K::kDType) ? t.dtype > 3 : t.dtype != 0) {
      return bad("a dtype outside 0..3, or one where none belongs");
    }
    if (t.kind != K::kCase && (t.tag != 0 || t.parent != 0)) {
      return bad("only a constructor has a tag and a parent");
    }
    switch (t.kind) {
      case K::kArray:
        if (t.children.size() != 1) return bad("an array type needs one element type");
        break;
      case K::kTuple:
        if (t.children.empty()) return bad("a tuple type needs fields");
        break;
      case K::kFunction:
        if (t.children.empty()) return bad("a function type needs its result type");
        if (t.children.size() - 1 > UINT16_MAX) return bad("too many parameters");
        break;
      case K::kRecord:
        if (t.names.size() != t.children.size()) return bad("a record needs a name per field");
        break;
      case K::kVariant:
        if (t.cases.empty() || t.cases.size() != t.names.size() || t.cases.size() > 65536) {
          return bad("a variant needs 1 to 65,536 constructors, each with a name");
        }
        break;
      case K::kCase:
        if (t.parent >= n || m.types[t.parent].kind != K::kVariant ||
            t.tag >= m.types[t.parent].cases.size() ||
            m.types[t.parent].cases[t.tag] != t.children) {
          return bad("a constructor type does not match its variant");
        }
        break;
      default:
        break;
    }
  }
  // Cycles through arrays, tuples and functions only: an iterative
  // three-colour search over those edges.
  std::vector<uint8_t> colour(n, 0);
  for (size_t root = 0; root < n; ++root) {
    if (colour[root] != 0) continue;
    std::vector<std::pair<uint32_t, size_t>> stack{{static_cast<uint32_t>(root), 0}};
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [t, next] = stack.back();
      const TypeDesc& d = m.types[t];
      const bool structural = d.kind == K::kArray || d.kind == K::kTuple || d.kind == K::kFunction;
      if (!structural || next == d.children.size()) {
        colour[t] = 2;
        stack.pop_back();
        continue;
      }
      const uint32_t c = d.children[next++];
      if (colour[c] == 1) {
        return Malformed(
            absl::StrCat("type ", c, " contains itself (only records and variants may)"));
      }
      if (colour[c] == 0) {
        colour[c] = 1;
        stack.push_back({c, 0});
      }
    }
  }
  return absl::OkStatus();
}

bool IsReferenceType(const Module& m, uint32_t t) { return m.types[t].is_reference(); }

}  // namespace

// ---- Module tables ----

absl::Status Verifier::CheckTables() {
  const Module& m = m_;
  if (absl::Status s = CheckTypes(m); !s.ok()) return s;
  for (size_t i = 0; i < m.strings.size(); ++i) {
    if (FirstInvalidUtf8(m.strings[i]) != m.strings[i].size()) {
      return Malformed(absl::StrCat("string constant ", i, " is not UTF-8 (every Str is)"));
    }
  }
  for (size_t i = 0; i < m.globals.size(); ++i) {
    if (m.globals[i].type >= m.types.size()) {
      return Malformed(
          absl::StrCat("global ", i, " has type ", m.globals[i].type, ", past the types"));
    }
  }
  for (size_t i = 0; i < m.fused.size(); ++i) {
    if (!FusedValueMasks(m.fused[i])) {
      return Malformed(
          absl::StrCat("fused program ", i, " is not well typed (bytecode.h FusedProgram)"));
    }
  }
  // Natives: each by its signature.
  natives_.resize(m.natives.size());
  for (size_t i = 0; i < m.natives.size(); ++i) {
    const std::string& name = m.natives[i];
    NativeInfo& info = natives_[i];
    if (absl::StartsWith(name, kExternPrefix)) {
      const absl::string_view short_name =
          absl::string_view(name).substr(sizeof(kExternPrefix) - 1);
      const ExternFn* e = nullptr;
      for (const ExternFn& x : m.externs) {
        if (x.name == short_name) e = &x;
      }
      if (e == nullptr) {
        return Malformed(
            absl::StrCat("native ", i, " `", name, "` is no declared extern function"));
      }
      info.is_extern = true;
      for (const ExportType& p : e->params) {
        if (p.type >= m.types.size())
          return Malformed(absl::StrCat("extern `", e->name, "` has a missing type"));
        info.params.push_back(shapes_.OfType(p.type));
      }
      if (e->result.type >= m.types.size()) {
        return Malformed(absl::StrCat("extern `", e->name, "` has a missing type"));
      }
      info.result = shapes_.OfType(e->result.type);
      if (info.params.size() > kMaxNativeArity) {
        return Malformed(
            absl::StrCat("extern `", e->name, "` takes more than ", kMaxNativeArity, " arguments"));
      }
      continue;
    }
    info.sig = SignatureOfNative(name);
    if (info.sig == nullptr && options_.host_natives) info.sig = options_.host_natives(name);
    if (info.sig == nullptr) {
      return Malformed(absl::StrCat("native ", i, " `", name, "` is not a native of this Alea"));
    }
  }
  // Functions: their signatures against their register maps.
  for (size_t i = 0; i < m.functions.size(); ++i) {
    const Function& f = m.functions[i];
    auto bad = [&](absl::string_view why) {
      return Malformed(absl::StrCat("function ", i, " `", f.name, "`: ", why));
    };
    if (f.code.empty()) return bad("no code");
    if (f.code.size() > (uint64_t{1} << 31)) return bad("too much code");
    if (f.num_params > f.num_registers) return bad("more parameters than registers");
    if (f.param_types.size() != f.num_params) return bad("a parameter count unlike its types'");
    if (f.capture_types.size() != f.num_captures) return bad("a capture count unlike its types'");
    if (f.result_type >= m.types.size()) return bad("its result type is past the types");
    for (uint32_t t : f.param_types) {
      if (t >= m.types.size()) return bad("a parameter type is past the types");
    }
    for (uint32_t t : f.capture_types) {
      if (t >= m.types.size()) return bad("a capture type is past the types");
    }
    std::vector<uint8_t> is_ref(f.num_registers, 0);
    for (uint16_t r : f.reference_registers) {
      if (r >= f.num_registers)
        return bad(absl::StrCat("reference register ", r, " is past its registers"));
      is_ref[r] = 1;
    }
    for (uint16_t p = 0; p < f.num_params; ++p) {
      if (is_ref[p] != (IsReferenceType(m, f.param_types[p]) ? 1 : 0)) {
        return bad(absl::StrCat("parameter ", p, "'s register is of the wrong class for its type"));
      }
    }
    std::vector<uint8_t> capture_is_ref(f.num_captures, 0);
    for (uint16_t c : f.reference_captures) {
      if (c >= f.num_captures)
        return bad(absl::StrCat("reference capture ", c, " is past its captures"));
      capture_is_ref[c] = 1;
    }
    for (uint16_t c = 0; c < f.num_captures; ++c) {
      if (capture_is_ref[c] != (IsReferenceType(m, f.capture_types[c]) ? 1 : 0)) {
        return bad(absl::StrCat("capture ", c, " is of the wrong class for its type"));
      }
    }
    uint32_t last_pc = 0;
    for (size_t e = 0; e < f.lines.size(); ++e) {
      const LineEntry& entry = f.lines[e];
      if (entry.pc >= f.code.size() || (e > 0 && entry.pc <= last_pc)) {
        return bad("its line table is not sorted by pc within its code");
      }
      if (entry.location.file >= m.files.size() && entry.location.line != 0) {
        return bad("its line table names a file past the module's files");
      }
      last_pc = entry.pc;
    }
    funcs_.push_back(FunctionInfo{std::move(is_ref), std::move(capture_is_ref), 0});
    funcs_.back().shape = shapes_.OfFunction(f);
  }
  // Entry points.
  auto entry = [&](int32_t index, const char* what) -> absl::Status {
    if (index < -1 || index >= static_cast<int32_t>(m.functions.size())) {
      return Malformed(absl::StrCat(what, " is not a function"));
    }
    if (index >= 0 && m.functions[index].num_captures != 0) {
      return Malformed(absl::StrCat(what, " has captures"));
    }
    return absl::OkStatus();
  };
  if (absl::Status s = entry(m.init, "init"); !s.ok()) return s;
  if (absl::Status s = entry(m.main, "main"); !s.ok()) return s;
  if (m.init >= 0 && m.functions[m.init].num_params != 0) return Malformed("init takes arguments");
  if (m.main >= 0) {
    const Function& f = m.functions[m.main];
    if (f.num_params != (m.main_takes_args ? 1 : 0) + (m.main_uses_rng ? 1 : 0)) {
      return Malformed("main has the wrong number of parameters");
    }
    const uint32_t strs = shapes_.Intern({ShapeKind::kArray, 0, {Shapes::kStr}});
    if (m.main_takes_args && shapes_.OfType(f.param_types[0]) != strs) {
      return Malformed("main's arguments must be a [Str]");
    }
    if (m.main_uses_rng && shapes_.OfType(f.param_types.back()) != Shapes::kRandState) {
      return Malformed("main's ambient stream must be a RandState");
    }
  }
  for (const Export& e : m.exports) {
    if (e.function >= m.functions.size() || m.functions[e.function].num_captures != 0 ||
        m.functions[e.function].num_params != e.params.size() + (e.uses_rng ? 1 : 0)) {
      return Malformed(absl::StrCat("export `", e.name, "` does not match its function"));
    }
    const Function& f = m.functions[e.function];
    bool ok = e.result.type < m.types.size() &&
              shapes_.OfType(e.result.type) == shapes_.OfType(f.result_type);
    for (size_t p = 0; ok && p < e.params.size(); ++p) {
      ok = e.params[p].type < m.types.size() &&
           shapes_.OfType(e.params[p].type) == shapes_.OfType(f.param_types[p]);
    }
    if (ok && e.uses_rng) ok = shapes_.OfType(f.param_types.back()) == Shapes::kRandState;
    if (!ok)
      return Malformed(absl::StrCat("export `", e.name, "` does not match its function's types"));
  }
  for (const Global& g : m.globals) {
    if (g.external && g.declared.type != g.type) {
      return Malformed(absl::StrCat("extern let `", g.name, "` does not match its type"));
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::Run() {
  if (absl::Status s = CheckTables(); !s.ok()) return s;
  for (size_t i = 0; i < m_.functions.size(); ++i) {
    FunctionVerifier fv(*this, static_cast<uint32_t>(i));
    if (absl::Status s = fv.Run(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

std::string Verifier::Where(uint32_t function, uint32_t pc) const {
  const Function& f = m_.functions[function];
  std::string where = absl::StrCat("function ", function, " `", f.name, "` pc ", pc);
  if (function < options_.code_offsets.size()) {
    absl::StrAppend(&where, " (byte ", options_.code_offsets[function] + uint64_t{8} * pc, ")");
  }
  return where;
}

// ---- Walking one function ----

FunctionVerifier::FunctionVerifier(Verifier& v, uint32_t index)
    : v_(v), m_(v.m_), f_(v.m_.functions[index]), index_(index), info_(v.funcs_[index]) {}

absl::Status FunctionVerifier::Run() {
  const uint32_t n = static_cast<uint32_t>(f_.code.size());
  // Every operand in range, by opcodes.def's kinds; jump targets found.
  is_target_.assign(n, 0);
  is_target_[0] = 1;
  for (uint32_t pc = 0; pc < n; ++pc) {
    pc_ = pc;
    if (!CheckOperands()) return error_;
  }
  // Forward data flow: the state at every jump target, joined over the
  // paths into it, until nothing changes.
  in_.assign(n, std::nullopt);
  in_[0] = EntryState();
  // Lowest pc first: a join's paths from above arrive before it is walked,
  // so an error names the state of all of them where it can.
  std::set<uint32_t> work{0};
  uint64_t steps = 0;
  const uint64_t max_steps = 64 * uint64_t{n} + 4096;
  while (!work.empty()) {
    const uint32_t start = *work.begin();
    work.erase(work.begin());
    state_ = *in_[start];
    links_ = std::any_of(state_.begin(), state_.end(),
                         [](const Val& v) { return v.kind == Val::Kind::kLent || v.origin >= 0; });
    for (uint32_t pc = start;;) {
      if (++steps > max_steps) {
        pc_ = pc;
        return Fail("the registers' states do not settle (a loop keeps widening them)");
      }
      pc_ = pc;
      successors_.clear();
      falls_through_ = false;
      releasing_write_ = false;
      if (!Step() || !error_.ok()) return error_;
      for (auto& [to, state] : successors_) {
        // Every jump lands on a join point (CheckOperands marked them).
        if (to >= n) return Fail("runs past the end of its code");
        if (Merge(to, state)) work.insert(to);
        if (!error_.ok()) return error_;
      }
      if (!falls_through_) break;
      if (pc + 1 >= n) return Fail("runs past the end of its code");
      if (is_target_[pc + 1]) {
        if (Merge(pc + 1, state_)) work.insert(pc + 1);
        if (!error_.ok()) return error_;
        break;
      }
      ++pc;
    }
  }
  return absl::OkStatus();
}

std::vector<Val> FunctionVerifier::EntryState() {
  std::vector<Val> s(f_.num_registers);
  for (uint32_t r = 0; r < f_.num_registers; ++r) {
    s[r] = info_.is_ref[r] ? Val::Null() : Val::Const(0);
  }
  for (uint16_t p = 0; p < f_.num_params; ++p) {
    const uint32_t shape = v_.shapes_.OfType(f_.param_types[p]);
    s[p] = info_.is_ref[p] ? Val::Ref(shape, AllTags(shape)) : Val::Plain();
  }
  return s;
}

bool FunctionVerifier::Merge(uint32_t to, const std::vector<Val>& state) {
  if (!in_[to]) {
    // A state is kept per join point: registers x join points is bounded,
    // so a crafted function cannot make verifying it exhaust memory.
    stored_bytes_ += state.size() * sizeof(Val);
    if (stored_bytes_ > kMaxStateBytes) {
      (void)Fail(absl::StrCat("makes the function too large to verify (", f_.num_registers,
                              " registers at more than ",
                              stored_bytes_ / sizeof(Val) / state.size(), " join points)"));
      return false;
    }
    in_[to] = state;
    return true;
  }
  bool changed = false;
  std::vector<Val>& into = *in_[to];
  for (size_t r = 0; r < into.size(); ++r) {
    const Val joined = Join(into[r], state[r]);
    if (!(joined == into[r])) {
      into[r] = joined;
      changed = true;
    }
  }
  return changed;
}

uint64_t FunctionVerifier::AllTags(uint32_t shape) const {
  const size_t cases = v_.shapes_.Cases(shape);
  if (cases == 0 || cases >= 64) return ~uint64_t{0};
  return (uint64_t{1} << cases) - 1;
}

Val FunctionVerifier::Join(const Val& a, const Val& b) {
  if (a == b) return a;
  using K = Val::Kind;
  if (a.kind == K::kDirty || b.kind == K::kDirty) return Val::Dirty();
  const bool ref_a = a.kind >= K::kNull, ref_b = b.kind >= K::kNull;
  if (a.kind == K::kConst && b.kind == K::kConst) return Val::Plain();
  if (!ref_a || !ref_b) {
    // Plain registers (the class is the register's, so both are plain).
    return Val::Plain();
  }
  if (a.kind == K::kTop || b.kind == K::kTop) return Val::Top();
  if (a.kind == K::kNull) return Val::Maybe(b.shape, b.tags);
  if (b.kind == K::kNull) return Val::Maybe(a.shape, a.tags);
  std::optional<uint32_t> shape = v_.shapes_.Join(a.shape, b.shape);
  if (!shape) return Val::Top();
  uint64_t tags = a.tags | b.tags;
  if (v_.shapes_[*shape].kind == ShapeKind::kNamed &&
      v_.shapes_[a.shape].kind != v_.shapes_[*shape].kind) {
    tags = b.tags | (v_.shapes_[a.shape].kind == ShapeKind::kNullary ? a.tags : AllTags(*shape));
  }
  const bool maybe = a.kind == K::kMaybe || b.kind == K::kMaybe;
  Val v = maybe ? Val::Maybe(*shape, tags) : Val::Ref(*shape, tags);
  if (a.origin == b.origin && a.path == b.path) {
    v.origin = a.origin;
    v.path = a.path;
  }
  // What is known of a field on both paths.
  for (int i = 0; i < a.refined; ++i) {
    const uint64_t other = b.TagsAt(a.paths[i]);
    if (other != ~uint64_t{0}) v.RefineAt(a.paths[i], a.path_tags[i] | other);
  }
  return v;
}

absl::Status FunctionVerifier::Fail(absl::string_view why) {
  error_ =
      Malformed(absl::StrCat(v_.Where(index_, pc_), ": ", InfoOf(f_.code[pc_].op).name, " ", why));
  return error_;
}

bool FunctionVerifier::CheckOperands() {
  std::vector<uint8_t>& is_target = is_target_;
  const Instr& in = f_.code[pc_];
  if (static_cast<int>(in.op) >= kOpCount) {
    error_ = Malformed(absl::StrCat(v_.Where(index_, pc_), ": opcode ", static_cast<int>(in.op),
                                    " is no instruction"));
    return false;
  }
  const char* kinds = InfoOf(in.op).operands;
  const uint32_t n = static_cast<uint32_t>(f_.code.size());
  const uint16_t fields[3] = {in.a, in.b, in.c};
  static constexpr const char* kField[3] = {"a", "b", "c"};
  switch (kinds[0]) {
    case '-':
      if (in.x != 0) return Error("has a flag x where it takes none");
      break;
    case 'f':
      if (in.x > 1) return Error("has a flag x that is not 0 or 1");
      break;
    case '2':
      if (in.x > 3) return Error("has flags x outside 0..3");
      break;
  }
  for (int i = 0; i < 3; ++i) {
    const char kind = kinds[i + 1];
    const uint16_t v = fields[i];
    auto out_of = [&](const char* what, size_t count) {
      return Error(
          absl::StrCat("operand ", kField[i], " = ", v, " is past the ", count, " ", what));
    };
    switch (kind) {
      case '-':
        if (v != 0) return Error(absl::StrCat("has an operand ", kField[i], " it does not take"));
        break;
      case 'w':
      case 'r':
        // ARRAY of no elements reads no register: the compiler starts its
        // empty window after R(a), which may be just past the registers
        // (the rule's Window check bounds it).
        if (in.op == Op::ARRAY && i == 1 && in.c == 0 && v == f_.num_registers) break;
        if (v >= f_.num_registers) return out_of("registers", f_.num_registers);
        break;
      case 'K':
        if (v >= m_.constants.size()) return out_of("constants", m_.constants.size());
        break;
      case 'S':
        if (v >= m_.strings.size()) return out_of("strings", m_.strings.size());
        break;
      case 'T':
        if (v >= m_.types.size()) return out_of("types", m_.types.size());
        break;
      case 'F':
        if (v >= m_.functions.size()) return out_of("functions", m_.functions.size());
        break;
      case 'N':
        if (v >= m_.natives.size()) return out_of("natives", m_.natives.size());
        break;
      case 'G':
        if (v >= m_.globals.size()) return out_of("globals", m_.globals.size());
        break;
      case 'C':
        if (v >= f_.num_captures) return out_of("captures", f_.num_captures);
        break;
      case 'P':
        if (v >= m_.fused.size()) return out_of("fused programs", m_.fused.size());
        break;
      case 'j':
      case 'J': {
        const int64_t offset = kind == 'J' ? int64_t{in.sbx()} : int64_t{in.sc()};
        const int64_t target = int64_t{pc_} + 1 + offset;
        if (target < 0 || target >= n) {
          return Error(absl::StrCat("jumps to pc ", target, ", outside its ", n, " instructions"));
        }
        is_target[target] = 1;
        break;
      }
      default:  // 'i', 'I', '=': immediates, checked by the rules
        break;
    }
  }
  // SWITCH's table and FUSED_T's fallback are part of the instruction.
  if (in.op == Op::SWITCH) {
    if (in.b == 0 || uint64_t{pc_} + in.b >= n) return Error("needs its table of JMPs");
    for (uint32_t k = 1; k <= in.b; ++k) {
      const Instr& entry = f_.code[pc_ + k];
      if (entry.op != Op::JMP) return Error("needs its table of JMPs");
      // Taken inside SWITCH without the poll a backward jump makes, so a
      // table may only jump forward (else a loop could escape the limits).
      if (entry.sbx() < 0) return Error("has a table entry that jumps backward");
    }
  }
  if (in.op == Op::FUSED_T) {
    if (pc_ + 2 >= n || f_.code[pc_ + 1].op != Op::JMP) return Error("needs its JMP");
    is_target[pc_ + 2] = 1;  // where the unfused block starts
  }
  return true;
}

}  // namespace verifier

absl::Status VerifyModule(const Module& module, const VerifyOptions& options) {
  verifier::Verifier v(module, options);
  return v.Run();
}

}  // namespace alea::vm
