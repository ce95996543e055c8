#include "vm/module_file.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace alea::vm {
namespace {

// Sections, in the order they must appear, each exactly once.
enum class Section : uint8_t {
  kSources = 1,
  kTypes,
  kConstants,
  kStrings,
  kNatives,
  kGlobals,
  kFused,
  kFunctions,
  kEntry,
  kExports,
  kExterns,
};
constexpr uint8_t kLastSection = static_cast<uint8_t>(Section::kExterns);

constexpr const char* kSectionNames[] = {
    "",        "sources", "types",     "constants", "strings", "natives",
    "globals", "fused",   "functions", "entry",     "exports", "externs",
};

// Nested ExportTypes (a tuple of tuples...) deeper than this are refused, so
// that decoding them cannot exhaust the C stack.
constexpr int kMaxExportTypeDepth = 64;

// ---- Writing ----

class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U16(uint16_t v) {
    U8(static_cast<uint8_t>(v));
    U8(static_cast<uint8_t>(v >> 8));
  }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void U64(uint64_t v) {
    for (int i = 0; i < 8; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  // Unsigned LEB128, as WebAssembly writes its counts and indexes.
  void Var(uint64_t v) {
    do {
      uint8_t byte = v & 0x7f;
      v >>= 7;
      U8(v != 0 ? (byte | 0x80) : byte);
    } while (v != 0);
  }
  void Str(absl::string_view s) {
    Var(s.size());
    out_.append(s.data(), s.size());
  }
  void Bytes(absl::string_view s) { out_.append(s.data(), s.size()); }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

void WriteExportType(Writer& w, const ExportType& t) {
  w.Var(t.type);
  w.U8(t.dtype);
  w.Var(t.fields.size());
  for (const ExportType& f : t.fields) WriteExportType(w, f);
}

// An export's or an extern's parameters and result.
void WriteSignature(Writer& w, const std::vector<ExportType>& params, const ExportType& result) {
  w.Var(params.size());
  for (const ExportType& p : params) WriteExportType(w, p);
  WriteExportType(w, result);
}

void WriteIndexes(Writer& w, const std::vector<uint32_t>& v) {
  w.Var(v.size());
  for (uint32_t x : v) w.Var(x);
}

void WriteType(Writer& w, const TypeDesc& t) {
  w.U8(static_cast<uint8_t>(t.kind));
  WriteIndexes(w, t.children);
  w.Str(t.name);
  w.Var(t.names.size());
  for (const std::string& n : t.names) w.Str(n);
  w.Var(t.cases.size());
  for (const std::vector<uint32_t>& c : t.cases) WriteIndexes(w, c);
  w.Var(t.tag);
  w.U8(t.dtype);
  w.Var(t.parent);
}

void WriteFunction(Writer& w, const Function& f) {
  w.Str(f.name);
  w.Str(f.specialization);
  w.Var(f.num_params);
  w.Var(f.num_registers);
  w.Var(f.num_captures);
  w.Var(f.reference_registers.size());
  for (uint16_t r : f.reference_registers) w.Var(r);
  w.Var(f.reference_captures.size());
  for (uint16_t c : f.reference_captures) w.Var(c);
  WriteIndexes(w, f.param_types);
  WriteIndexes(w, f.capture_types);
  w.Var(f.result_type);
  w.Var(f.code.size());
  for (const Instr& in : f.code) {
    w.U8(static_cast<uint8_t>(in.op));
    w.U8(in.x);
    w.U16(in.a);
    w.U16(in.b);
    w.U16(in.c);
  }
  w.Var(f.lines.size());
  for (const LineEntry& e : f.lines) {
    w.Var(e.pc);
    w.Var(e.location.file);
    w.Var(e.location.line);
    w.Var(e.location.column);
    w.Var(e.location.length);
  }
}

// ---- Reading ----

// Reads inside [pos, end) of the module's bytes. The first failure is kept
// (with its byte offset) and every later read returns zeros, so a decoder
// reads straight on and checks ok() where a value steers what follows.
class Reader {
 public:
  Reader(absl::string_view bytes, size_t pos, size_t end) : bytes_(bytes), pos_(pos), end_(end) {}

  bool ok() const { return error_.empty(); }
  size_t pos() const { return pos_; }
  size_t left() const { return ok() ? end_ - pos_ : 0; }
  const std::string& error() const { return error_; }

  void Fail(size_t at, absl::string_view what) {
    if (ok()) error_ = absl::StrCat("byte ", at, ": ", what);
    pos_ = end_;
  }

  uint8_t U8(absl::string_view what, absl::string_view suffix = "") {
    if (!ok()) return 0;
    if (pos_ >= end_) {
      Fail(pos_, absl::StrCat("the ", what, suffix, " runs past the end of its section"));
      return 0;
    }
    return static_cast<uint8_t>(bytes_[pos_++]);
  }
  uint32_t U32(absl::string_view what) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{U8(what)} << (8 * i);
    return v;
  }
  uint64_t U64(absl::string_view what) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t{U8(what)} << (8 * i);
    return v;
  }
  // An unsigned LEB128 number of at most `max`, in its shortest encoding.
  uint64_t Var(absl::string_view what, uint64_t max, absl::string_view suffix = "") {
    const size_t at = pos_;
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (!ok()) return 0;
      const uint8_t byte = U8(what, suffix);
      if (!ok()) return 0;
      if (shift == 63 && (byte & 0x7e) != 0) {
        Fail(at, absl::StrCat("the ", what, suffix, " does not fit in 64 bits"));
        return 0;
      }
      v |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) {
        if (byte == 0 && shift > 0) {
          Fail(at, absl::StrCat("the ", what, suffix, " is not in its shortest encoding"));
          return 0;
        }
        break;
      }
      if (shift == 63) {
        Fail(at, absl::StrCat("the ", what, suffix, " does not fit in 64 bits"));
        return 0;
      }
    }
    if (v > max) {
      Fail(at, absl::StrCat("the ", what, suffix, " is ", v, ", more than ", max));
      return 0;
    }
    return v;
  }
  uint16_t Var16(absl::string_view what) { return static_cast<uint16_t>(Var(what, UINT16_MAX)); }
  uint32_t Var32(absl::string_view what) { return static_cast<uint32_t>(Var(what, UINT32_MAX)); }
  // A count of items each at least `min_bytes` long: never more than the
  // section's bytes can hold, so reserving it is safe. `what` + `suffix`
  // names it in an error (joined only then: reading stays allocation-free).
  size_t Count(absl::string_view what, size_t min_bytes = 1, absl::string_view suffix = "") {
    const size_t at = pos_;
    const uint64_t n = Var(what, UINT32_MAX, suffix);
    if (ok() && n > left() / min_bytes) {
      Fail(at, absl::StrCat("the ", what, suffix, " is ", n, ", more than the ", left(),
                            " bytes left in the section can hold"));
      return 0;
    }
    return static_cast<size_t>(n);
  }
  std::string Str(absl::string_view what) {
    const size_t n = Count(what, 1, "'s length");
    if (!ok()) return {};
    std::string s(bytes_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  // `n` instructions of 8 bytes (Count checked that the section holds them).
  void Instructions(size_t n, std::vector<Instr>* code) {
    if (!ok()) return;
    code->resize(n);
    const auto* p = reinterpret_cast<const uint8_t*>(bytes_.data() + pos_);
    for (size_t i = 0; i < n; ++i, p += 8) {
      Instr& in = (*code)[i];
      in.op = static_cast<Op>(p[0]);
      in.x = p[1];
      in.a = static_cast<uint16_t>(p[2] | p[3] << 8);
      in.b = static_cast<uint16_t>(p[4] | p[5] << 8);
      in.c = static_cast<uint16_t>(p[6] | p[7] << 8);
    }
    pos_ += 8 * n;
  }
  bool Bool(absl::string_view what) {
    const size_t at = pos_;
    const uint8_t b = U8(what);
    if (b > 1) Fail(at, absl::StrCat("the ", what, " is ", int{b}, ", not 0 or 1"));
    return b == 1;
  }
  // The decoded kind `v` (already read at `at`) is one of [0, count).
  void Enum(size_t at, uint64_t v, uint64_t count, absl::string_view what) {
    if (ok() && v >= count)
      Fail(at, absl::StrCat("the ", what, " ", v, " is not one of 0..", count - 1));
  }

 private:
  absl::string_view bytes_;
  size_t pos_;
  size_t end_;
  std::string error_;
};

ExportType ReadExportType(Reader& r, int depth) {
  ExportType t;
  const size_t at = r.pos();
  if (depth > kMaxExportTypeDepth) {
    r.Fail(at, absl::StrCat("a host type is nested more than ", kMaxExportTypeDepth, " deep"));
    return t;
  }
  t.type = r.Var32("host type's type index");
  t.dtype = r.U8("host type's dtype");
  const size_t n = r.Count("host type's field count", 3);
  t.fields.reserve(n);
  for (size_t i = 0; i < n && r.ok(); ++i) t.fields.push_back(ReadExportType(r, depth + 1));
  return t;
}

void ReadSignature(Reader& r, absl::string_view count, std::vector<ExportType>* params,
                   ExportType* result) {
  const size_t n = r.Count(count, 3);
  params->reserve(n);
  for (size_t j = 0; j < n && r.ok(); ++j) params->push_back(ReadExportType(r, 0));
  *result = ReadExportType(r, 0);
}

std::vector<uint32_t> ReadIndexes(Reader& r, absl::string_view what) {
  const size_t n = r.Count(what, 1, " count");
  std::vector<uint32_t> v;
  v.reserve(n);
  for (size_t i = 0; i < n && r.ok(); ++i) v.push_back(r.Var32(what));
  return v;
}

TypeDesc ReadType(Reader& r) {
  TypeDesc t;
  const size_t at = r.pos();
  const uint8_t kind = r.U8("type kind");
  r.Enum(at, kind, static_cast<uint64_t>(TypeDesc::Kind::kPlot) + 1, "type kind");
  t.kind = static_cast<TypeDesc::Kind>(kind);
  t.children = ReadIndexes(r, "type's child");
  t.name = r.Str("type's name");
  const size_t names = r.Count("type's name count");
  t.names.reserve(names);
  for (size_t i = 0; i < names && r.ok(); ++i) t.names.push_back(r.Str("type's field name"));
  const size_t cases = r.Count("type's constructor count");
  t.cases.reserve(cases);
  for (size_t i = 0; i < cases && r.ok(); ++i) t.cases.push_back(ReadIndexes(r, "case field"));
  t.tag = r.Var16("constructor tag");
  t.dtype = r.U8("tensor dtype");
  t.parent = r.Var32("constructor's variant");
  return t;
}

Function ReadFunction(Reader& r, uint64_t* code_offset) {
  Function f;
  f.name = r.Str("function name");
  f.specialization = r.Str("function specialization");
  f.num_params = r.Var16("parameter count");
  f.num_registers = r.Var16("register count");
  f.num_captures = r.Var16("capture count");
  size_t n = r.Count("reference register count");
  f.reference_registers.reserve(n);
  for (size_t i = 0; i < n && r.ok(); ++i) f.reference_registers.push_back(r.Var16("register"));
  n = r.Count("reference capture count");
  f.reference_captures.reserve(n);
  for (size_t i = 0; i < n && r.ok(); ++i) f.reference_captures.push_back(r.Var16("capture"));
  f.param_types = ReadIndexes(r, "parameter type");
  f.capture_types = ReadIndexes(r, "capture type");
  f.result_type = r.Var32("result type");
  n = r.Count("instruction count", sizeof(Instr));
  *code_offset = r.pos();
  r.Instructions(n, &f.code);
  n = r.Count("line entry count", 5);
  f.lines.reserve(n);
  for (size_t i = 0; i < n && r.ok(); ++i) {
    LineEntry e;
    e.pc = r.Var32("line entry's pc");
    e.location.file = r.Var32("line entry's file");
    e.location.line = r.Var32("line entry's line");
    e.location.column = r.Var32("line entry's column");
    e.location.length = r.Var32("line entry's length");
    f.lines.push_back(e);
  }
  return f;
}

uint64_t Fnv1a(uint64_t h, absl::string_view s) {
  for (char c : s) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace

uint64_t InstructionSetFingerprint() {
  static const uint64_t kFingerprint = [] {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < kOpCount; ++i) {
      const OpInfo& info = InfoOf(static_cast<Op>(i));
      h = Fnv1a(h, info.name);
      h = Fnv1a(h, absl::StrCat(":", static_cast<int>(info.format), ":", info.operands, ";"));
    }
#define ALEA_NATIVE(name, arity, signature, semantics) \
  h = Fnv1a(h, #name ":" #arity ":" signature ";");
#include "vm/natives.def"
#undef ALEA_NATIVE
    return h;
  }();
  return kFingerprint;
}

bool LooksLikeModule(absl::string_view bytes) {
  return bytes.size() >= kModuleMagicSize &&
         std::memcmp(bytes.data(), kModuleMagic, kModuleMagicSize) == 0;
}

std::string EncodeModule(const Module& m, absl::Span<const std::string> sources) {
  Writer w;
  w.Bytes(absl::string_view(kModuleMagic, kModuleMagicSize));
  w.U32(kModuleFormatVersion);
  w.U64(InstructionSetFingerprint());
  auto section = [&](Section id, auto&& body) {
    Writer s;
    body(s);
    w.U8(static_cast<uint8_t>(id));
    w.Var(s.out().size());
    w.Bytes(s.out());
  };
  section(Section::kSources, [&](Writer& s) {
    s.Var(m.files.size());
    for (size_t i = 0; i < m.files.size(); ++i) {
      s.Str(m.files[i]);
      s.Str(i < sources.size() ? sources[i] : "");
    }
  });
  section(Section::kTypes, [&](Writer& s) {
    s.Var(m.types.size());
    for (const TypeDesc& t : m.types) WriteType(s, t);
  });
  section(Section::kConstants, [&](Writer& s) {
    s.Var(m.constants.size());
    for (uint64_t k : m.constants) s.U64(k);
  });
  section(Section::kStrings, [&](Writer& s) {
    s.Var(m.strings.size());
    for (const std::string& str : m.strings) s.Str(str);
  });
  section(Section::kNatives, [&](Writer& s) {
    s.Var(m.natives.size());
    for (const std::string& n : m.natives) s.Str(n);
  });
  section(Section::kGlobals, [&](Writer& s) {
    s.Var(m.globals.size());
    for (const Global& g : m.globals) {
      s.Str(g.name);
      s.Var(g.type);
      s.U8(g.external ? 1 : 0);
      WriteExportType(s, g.declared);
    }
  });
  section(Section::kFused, [&](Writer& s) {
    s.Var(m.fused.size());
    for (const FusedProgram& p : m.fused) {
      s.Var(p.leaves.size());
      for (const FusedLeaf& l : p.leaves) {
        s.Var(l.reg);
        s.U8(static_cast<uint8_t>(l.kind));
        s.U8(l.moved ? 1 : 0);
        s.U8(l.transposed ? 1 : 0);
      }
      s.Var(p.nodes.size());
      for (const FusedNode& n : p.nodes) {
        s.U8(n.unary ? 1 : 0);
        s.U8(n.where ? 1 : 0);
        s.U8(n.op);
        s.Var(n.a);
        s.Var(n.b);
        s.Var(n.c);
      }
    }
  });
  section(Section::kFunctions, [&](Writer& s) {
    s.Var(m.functions.size());
    for (const Function& f : m.functions) WriteFunction(s, f);
  });
  section(Section::kEntry, [&](Writer& s) {
    // Function indexes + 1, so that "none" (-1) is 0.
    s.Var(static_cast<uint64_t>(int64_t{m.init} + 1));
    s.Var(static_cast<uint64_t>(int64_t{m.main} + 1));
    s.U8(m.main_takes_args ? 1 : 0);
    s.U8(m.main_uses_rng ? 1 : 0);
  });
  section(Section::kExports, [&](Writer& s) {
    s.Var(m.exports.size());
    for (const Export& e : m.exports) {
      s.Str(e.name);
      s.Var(e.function);
      WriteSignature(s, e.params, e.result);
      s.U8(e.uses_rng ? 1 : 0);
    }
  });
  section(Section::kExterns, [&](Writer& s) {
    s.Var(m.externs.size());
    for (const ExternFn& e : m.externs) {
      s.Str(e.name);
      WriteSignature(s, e.params, e.result);
    }
  });
  return std::move(w.out());
}

absl::StatusOr<ModuleFile> DecodeModule(absl::string_view bytes) {
  ModuleFile file;
  Module& m = file.module;
  auto malformed = [](const std::string& error) {
    return absl::InvalidArgumentError(absl::StrCat("malformed module: ", error));
  };
  if (!LooksLikeModule(bytes)) {
    return malformed("byte 0: not an Alea module (it does not start with \\x89ALEAC\\r\\n)");
  }
  Reader header(bytes, kModuleMagicSize, bytes.size());
  const uint32_t version = header.U32("format version");
  const uint64_t fingerprint = header.U64("instruction set fingerprint");
  if (!header.ok()) return malformed(header.error());
  if (version != kModuleFormatVersion) {
    return malformed(absl::StrCat("byte ", kModuleMagicSize, ": format version ", version,
                                  ", but this Alea reads version ", kModuleFormatVersion,
                                  " (build the module again from its source)"));
  }
  if (fingerprint != InstructionSetFingerprint()) {
    return malformed(absl::StrCat(
        "byte ", kModuleMagicSize + 4,
        ": made for another instruction set (a different Alea build); build the module "
        "again from its source"));
  }
  size_t pos = header.pos();
  for (uint8_t expected = 1; expected <= kLastSection; ++expected) {
    Reader head(bytes, pos, bytes.size());
    const size_t at = pos;
    const uint8_t id = head.U8("section id");
    if (!head.ok()) {
      return malformed(absl::StrCat("byte ", at, ": the ", kSectionNames[expected],
                                    " section is missing (the module ends early)"));
    }
    if (id != expected) {
      return malformed(absl::StrCat("byte ", at, ": section id ", int{id}, " where the ",
                                    kSectionNames[expected], " section (", int{expected},
                                    ") must come"));
    }
    const size_t size_at = head.pos();
    const uint64_t size = head.Var("section size", UINT64_MAX);
    if (!head.ok()) return malformed(head.error());
    if (size > bytes.size() - head.pos()) {
      return malformed(absl::StrCat("byte ", size_at, ": the ", kSectionNames[expected],
                                    " section's size ", size, " runs past the end of the module"));
    }
    Reader r(bytes, head.pos(), head.pos() + size);
    switch (static_cast<Section>(id)) {
      case Section::kSources: {
        const size_t n = r.Count("file count", 2);
        m.files.reserve(n);
        file.sources.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) {
          m.files.push_back(r.Str("file path"));
          file.sources.push_back(r.Str("source text"));
        }
        break;
      }
      case Section::kTypes: {
        const size_t n = r.Count("type count", 8);
        m.types.reserve(n);
        file.type_offsets.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) {
          file.type_offsets.push_back(r.pos());
          m.types.push_back(ReadType(r));
        }
        break;
      }
      case Section::kConstants: {
        const size_t n = r.Count("constant count", 8);
        m.constants.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) m.constants.push_back(r.U64("constant"));
        break;
      }
      case Section::kStrings: {
        const size_t n = r.Count("string count");
        m.strings.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) m.strings.push_back(r.Str("string"));
        break;
      }
      case Section::kNatives: {
        const size_t n = r.Count("native count");
        m.natives.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) m.natives.push_back(r.Str("native name"));
        break;
      }
      case Section::kGlobals: {
        const size_t n = r.Count("global count", 6);
        m.globals.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) {
          Global g;
          g.name = r.Str("global's name");
          g.type = r.Var32("global's type");
          g.external = r.Bool("global's extern flag");
          g.declared = ReadExportType(r, 0);
          m.globals.push_back(std::move(g));
        }
        break;
      }
      case Section::kFused: {
        const size_t n = r.Count("fused program count", 2);
        m.fused.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) {
          FusedProgram p;
          const size_t leaves = r.Count("fused leaf count", 4);
          p.leaves.reserve(leaves);
          for (size_t j = 0; j < leaves && r.ok(); ++j) {
            FusedLeaf l;
            l.reg = r.Var16("fused leaf's register");
            const size_t at_kind = r.pos();
            const uint8_t kind = r.U8("fused leaf kind");
            r.Enum(at_kind, kind, static_cast<uint64_t>(FusedLeaf::Kind::kBool) + 1,
                   "fused leaf kind");
            l.kind = static_cast<FusedLeaf::Kind>(kind);
            l.moved = r.Bool("fused leaf's moved flag");
            l.transposed = r.Bool("fused leaf's transposed flag");
            p.leaves.push_back(l);
          }
          const size_t nodes = r.Count("fused node count", 6);
          p.nodes.reserve(nodes);
          for (size_t j = 0; j < nodes && r.ok(); ++j) {
            FusedNode node;
            node.unary = r.Bool("fused node's unary flag");
            node.where = r.Bool("fused node's where flag");
            node.op = r.U8("fused node's op");
            node.a = r.Var16("fused node's operand");
            node.b = r.Var16("fused node's operand");
            node.c = r.Var16("fused node's operand");
            p.nodes.push_back(node);
          }
          m.fused.push_back(std::move(p));
        }
        break;
      }
      case Section::kFunctions: {
        const size_t n = r.Count("function count", 12);
        m.functions.reserve(n);
        file.code_offsets.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) {
          uint64_t code_offset = 0;
          m.functions.push_back(ReadFunction(r, &code_offset));
          file.code_offsets.push_back(code_offset);
        }
        break;
      }
      case Section::kEntry: {
        const uint64_t init = r.Var("init function index", uint64_t{INT32_MAX});
        const uint64_t main = r.Var("main function index", uint64_t{INT32_MAX});
        m.init = static_cast<int32_t>(init) - 1;
        m.main = static_cast<int32_t>(main) - 1;
        m.main_takes_args = r.Bool("main's args flag");
        m.main_uses_rng = r.Bool("main's rng flag");
        break;
      }
      case Section::kExports: {
        const size_t n = r.Count("export count", 6);
        m.exports.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) {
          Export e;
          e.name = r.Str("export's name");
          e.function = r.Var32("export's function");
          ReadSignature(r, "export's parameter count", &e.params, &e.result);
          e.uses_rng = r.Bool("export's rng flag");
          m.exports.push_back(std::move(e));
        }
        break;
      }
      case Section::kExterns: {
        const size_t n = r.Count("extern count", 5);
        m.externs.reserve(n);
        for (size_t i = 0; i < n && r.ok(); ++i) {
          ExternFn e;
          e.name = r.Str("extern's name");
          ReadSignature(r, "extern's parameter count", &e.params, &e.result);
          m.externs.push_back(std::move(e));
        }
        break;
      }
    }
    if (!r.ok()) return malformed(r.error());
    if (r.left() != 0) {
      return malformed(absl::StrCat("byte ", r.pos(), ": ", r.left(),
                                    " bytes left over at the end of the ", kSectionNames[expected],
                                    " section"));
    }
    pos = r.pos();
  }
  if (pos != bytes.size()) {
    return malformed(
        absl::StrCat("byte ", pos, ": ", bytes.size() - pos, " bytes after the last section"));
  }
  return file;
}

}  // namespace alea::vm
