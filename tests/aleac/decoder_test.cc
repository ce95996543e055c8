// Malformed bytes, one per rule of the decoder (vm/module_file.h) and per
// kind of field, each with the exact error it must give: the header, the
// sections' order and sizes, LEB128 numbers, counts larger than their
// section, enumerations and flags, nesting. Built from a module that decodes,
// split into its sections so that a field can be edited and the section's
// size stay right.
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "compiler/compiler.h"
#include "gtest/gtest.h"
#include "lang/diagnostics.h"
#include "lang/front_end.h"
#include "tests/aleac/builder.h"
#include "vm/module_file.h"

namespace alea::vm::aleac_testing {
namespace {

std::string Leb(uint64_t v) {
  std::string out;
  do {
    uint8_t byte = v & 0x7f;
    v >>= 7;
    out.push_back(static_cast<char>(v != 0 ? (byte | 0x80) : byte));
  } while (v != 0);
  return out;
}

// A module's bytes as its header and its sections' payloads.
struct Split {
  std::string header;  // magic, version, fingerprint
  std::vector<std::pair<uint8_t, std::string>> sections;

  std::string Join() const {
    std::string out = header;
    for (const auto& [id, payload] : sections) {
      out.push_back(static_cast<char>(id));
      out += Leb(payload.size());
      out += payload;
    }
    return out;
  }
  std::string& Payload(uint8_t id) {
    for (auto& [i, payload] : sections) {
      if (i == id) return payload;
    }
    ADD_FAILURE() << "no section " << int{id};
    return header;
  }
};

enum : uint8_t {
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
  kExterns
};

Split SplitModule(const std::string& bytes) {
  Split s;
  s.header = bytes.substr(0, 20);
  size_t pos = 20;
  while (pos < bytes.size()) {
    const uint8_t id = static_cast<uint8_t>(bytes[pos++]);
    uint64_t size = 0;
    for (int shift = 0;; shift += 7) {
      const uint8_t b = static_cast<uint8_t>(bytes[pos++]);
      size |= uint64_t{b & 0x7fu} << shift;
      if ((b & 0x80) == 0) break;
    }
    s.sections.emplace_back(id, bytes.substr(pos, size));
    pos += size;
  }
  return s;
}

std::string HelloBytes() { return EncodeModule(Hello(), {"fn main() = print(\"hello\")\n"}); }

std::string DecodeError(const std::string& bytes) {
  absl::StatusOr<ModuleFile> m = DecodeModule(bytes);
  return m.ok() ? "ok" : std::string(m.status().message());
}

TEST(Decoder, RoundTrip) {
  const std::string bytes = HelloBytes();
  absl::StatusOr<ModuleFile> m = DecodeModule(bytes);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(EncodeModule(m->module, m->sources), bytes);
  EXPECT_EQ(m->sources[0], "fn main() = print(\"hello\")\n");
  EXPECT_EQ(VerifyError(m->module), "ok");
  // Instruction 2 of function 0 is at its code offset + 16.
  EXPECT_EQ(static_cast<uint8_t>(bytes[m->code_offsets[0] + 16]),
            static_cast<uint8_t>(Op::RELEASE));
}

TEST(Decoder, Header) {
  EXPECT_EQ(DecodeError("fn main() = 1"),
            "malformed module: byte 0: not an Alea module (it does not start with "
            "\\x89ALEAC\\r\\n)");
  const std::string bytes = HelloBytes();
  EXPECT_EQ(DecodeError(bytes.substr(0, 10)),
            "malformed module: byte 10: the format version runs past the end of its section");
  std::string version = bytes;
  version[8] = 9;
  EXPECT_EQ(DecodeError(version),
            "malformed module: byte 8: format version 9, but this Alea reads version 2 (build the "
            "module again from its source)");
  std::string fingerprint = bytes;
  fingerprint[15] ^= 1;
  EXPECT_EQ(DecodeError(fingerprint),
            "malformed module: byte 12: made for another instruction set (a different Alea "
            "build); build the module again from its source");
}

TEST(Decoder, Sections) {
  const std::string bytes = HelloBytes();
  EXPECT_EQ(DecodeError(bytes.substr(0, 20)),
            "malformed module: byte 20: the sources section is missing (the module ends early)");
  Split swapped = SplitModule(bytes);
  std::swap(swapped.sections[1], swapped.sections[2]);
  const size_t types_at =
      20 + 1 + Leb(swapped.sections[0].second.size()).size() + swapped.sections[0].second.size();
  EXPECT_EQ(DecodeError(swapped.Join()),
            "malformed module: byte " + std::to_string(types_at) +
                ": section id 3 where the types section (2) must come");
  std::string trailing = bytes + "x";
  EXPECT_EQ(DecodeError(trailing), "malformed module: byte " + std::to_string(bytes.size()) +
                                       ": 1 bytes after the last section");
  std::string past_end = bytes.substr(0, 21) + Leb(1u << 20) + bytes.substr(22);
  EXPECT_EQ(DecodeError(past_end),
            "malformed module: byte 21: the sources section's size 1048576 runs past the end of "
            "the module");
  Split extra = SplitModule(bytes);
  extra.Payload(kConstants) += "z";  // an unread byte at the end of a section
  const std::string extra_bytes = extra.Join();
  EXPECT_NE(DecodeError(extra_bytes).find("1 bytes left over at the end of the constants section"),
            std::string::npos)
      << DecodeError(extra_bytes);
}

TEST(Decoder, Numbers) {
  const std::string bytes = HelloBytes();
  // The sources section's size in two bytes where one is enough.
  Split split = SplitModule(bytes);
  const std::string& sources = split.sections[0].second;
  ASSERT_LT(sources.size(), 128u);
  std::string overlong = split.header;
  overlong.push_back(kSources);
  overlong.push_back(static_cast<char>(0x80 | sources.size()));
  overlong.push_back('\0');
  overlong += sources;
  for (size_t i = 1; i < split.sections.size(); ++i) {
    overlong.push_back(static_cast<char>(split.sections[i].first));
    overlong += Leb(split.sections[i].second.size()) + split.sections[i].second;
  }
  EXPECT_EQ(DecodeError(overlong),
            "malformed module: byte 21: the section size is not in its shortest encoding");
  Split big = SplitModule(bytes);
  big.Payload(kConstants) = std::string(10, '\xff') + std::string("\x01", 1);
  EXPECT_NE(DecodeError(big.Join()).find("the constant count does not fit in 64 bits"),
            std::string::npos)
      << DecodeError(big.Join());
  // A count past what its section can hold: never reserved.
  Split many = SplitModule(bytes);
  many.Payload(kConstants) = Leb(1u << 30);
  EXPECT_NE(DecodeError(many.Join())
                .find("the constant count is 1073741824, more than the 0 bytes left in the "
                      "section can hold"),
            std::string::npos)
      << DecodeError(many.Join());
  // A register count past 16 bits.
  Split wide = SplitModule(bytes);
  std::string& functions = wide.Payload(kFunctions);
  // count, name "main", specialization "", then the parameter count.
  ASSERT_EQ(functions.substr(0, 8), std::string("\x01\x04main\x00\x00", 8));
  functions.replace(7, 1, Leb(70000));
  EXPECT_NE(DecodeError(wide.Join()).find("the parameter count is 70000, more than 65535"),
            std::string::npos)
      << DecodeError(wide.Join());
}

TEST(Decoder, KindsAndFlags) {
  const std::string bytes = HelloBytes();
  Split kind = SplitModule(bytes);
  kind.Payload(kTypes)[1] = 99;  // after the type count: the first type's kind
  EXPECT_NE(DecodeError(kind.Join()).find("the type kind 99 is not one of 0..14"),
            std::string::npos)
      << DecodeError(kind.Join());
  Split flag = SplitModule(bytes);
  std::string& entry = flag.Payload(kEntry);
  ASSERT_EQ(entry.size(), 4u);  // init + 1, main + 1, two flags
  entry[2] = 2;
  EXPECT_NE(DecodeError(flag.Join()).find("the main's args flag is 2, not 0 or 1"),
            std::string::npos)
      << DecodeError(flag.Join());
  Split str = SplitModule(bytes);
  str.Payload(kStrings) = Leb(1) + Leb(50) + "hello";
  EXPECT_NE(DecodeError(str.Join())
                .find("the string's length is 50, more than the 5 bytes left in the section can "
                      "hold"),
            std::string::npos)
      << DecodeError(str.Join());
}

TEST(Decoder, NestingIsBounded) {
  Module m = Hello();
  Export e;
  e.name = "main";
  e.result.type = kUnit;
  ExportType* t = &e.result;
  for (int i = 0; i < 100; ++i) {
    t->fields.push_back(ExportType{.type = kUnit});
    t = &t->fields.back();
  }
  m.exports.push_back(e);
  const std::string error = DecodeError(EncodeModule(m, {}));
  EXPECT_NE(error.find("a host type is nested more than 64 deep"), std::string::npos) << error;
}

}  // namespace
}  // namespace alea::vm::aleac_testing

namespace alea::vm::aleac_testing {
namespace {

// A module with something in every section: records and variants, an
// `extern fn` and `extern let`, a top-level `let`, a fused program, a
// closure, exports.
constexpr char kRich[] = R"(type Shape = Circle(Float) | Square(Float, Float)
type Point = { x: Float, y: Float }
extern fn offset() -> Float
extern let scale: Float
let unit = Point { x: 1.0, y: 2.0 }
fn area(s: Shape) -> Float = match s {
  Circle(r) => 3.14 * r * r,
  Square(w, h) => w * h + offset() * scale,
}
fn relu_all(x: Tensor) -> Tensor = relu(x * 2.0 + 1.0)
fn adder(k: Int) -> (Int) -> Int = |x: Int| x + k
fn main() {
  print(area(Circle(2.0)) + unit.x);
  print(adder(3)(4));
  print(relu_all(tensor([1.0, -2.0])))
}
)";

std::string RichModule() {
  lang::SourceManager sources;
  lang::FileId root = sources.Add("rich.alea", kRich);
  lang::Diagnostics diags;
  std::optional<lang::Program> program = lang::CheckProgramFrom(root, sources, diags);
  EXPECT_TRUE(program.has_value()) << lang::RenderAll(sources, diags);
  if (!program) return "";
  compiler::CompileOptions options;
  options.export_functions = true;
  absl::StatusOr<Module> m = compiler::Compile(*program, sources, diags, options);
  EXPECT_TRUE(m.ok()) << lang::RenderAll(sources, diags);
  if (!m.ok()) return "";
  EXPECT_FALSE(m->fused.empty());
  EXPECT_FALSE(m->externs.empty());
  return EncodeModule(*m, {std::string(kRich)});
}

// Every prefix of a module is refused, at a byte inside the prefix, and so
// is every prefix of every section's payload (the section's size kept
// right): each error names what was being read, so every field of every
// section (each read in the rich module) has a message of its own.
TEST(Decoder, EveryPrefixNamesTheFieldItCutsThrough) {
  const std::string bytes = RichModule();
  ASSERT_FALSE(bytes.empty());
  std::set<std::string> fields;
  auto note = [&](const std::string& broken, size_t limit) {
    const std::string error = DecodeError(broken);
    ASSERT_EQ(error.rfind("malformed module: byte ", 0), 0u) << error;
    EXPECT_LE(std::stoul(error.substr(23)), limit) << error;
    // "the FIELD runs past the end of its section", "the FIELD is N, more
    // than the M bytes left...", "the SECTION section is missing"...
    const size_t the = error.find(": the ");
    ASSERT_NE(the, std::string::npos) << error;
    std::string field = error.substr(the + 6);
    for (const char* end :
         {" runs past", " is ", "'s size", " does not fit", " section is missing"}) {
      field = field.substr(0, field.find(end));
    }
    fields.insert(field);
  };
  for (size_t n = kModuleMagicSize; n < bytes.size(); ++n) note(bytes.substr(0, n), n);
  const Split whole = SplitModule(bytes);
  for (size_t s = 0; s < whole.sections.size(); ++s) {
    for (size_t n = 0; n < whole.sections[s].second.size(); ++n) {
      Split cut = whole;
      cut.sections[s].second.resize(n);
      note(cut.Join(), bytes.size());
    }
  }
  if (std::getenv("ALEAC_PRINT") != nullptr)
    std::printf("%s\n", absl::StrJoin(fields, "\n").c_str());
  // What cutting reaches (a list's elements are behind its count, which a
  // cut fails first: their checks are the tests above).
  const std::set<std::string> expected = {
      "capture count",
      "capture type count",
      "constant count",
      "constants section",
      "constructor tag",
      "constructor's variant",
      "entry section",
      "export count",
      "export's function",
      "export's name's length",
      "export's parameter count",
      "export's rng flag",
      "exports section",
      "extern count",
      "extern's name's length",
      "extern's parameter count",
      "externs section",
      "file count",
      "file path's length",
      "format version",
      "function count",
      "function name's length",
      "function specialization's length",
      "functions section",
      "fused leaf count",
      "fused node count",
      "fused program count",
      "fused section",
      "global count",
      "global's extern flag",
      "global's name's length",
      "global's type",
      "globals section",
      "host type's dtype",
      "host type's field count",
      "host type's type index",
      "init function index",
      "instruction count",
      "instruction set fingerprint",
      "line entry count",
      "main function index",
      "main's args flag",
      "main's rng flag",
      "native count",
      "native name's length",
      "natives section",
      "parameter count",
      "parameter type count",
      "reference capture count",
      "reference register count",
      "register count",
      "result type",
      "section size",
      "source text's length",
      "sources section",
      "string count",
      "strings section",
      "tensor dtype",
      "type count",
      "type kind",
      "type's child count",
      "type's constructor count",
      "type's field name's length",
      "type's name count",
      "type's name's length",
      "types section",
  };
  std::vector<std::string> missing, extra;
  std::set_difference(expected.begin(), expected.end(), fields.begin(), fields.end(),
                      std::back_inserter(missing));
  std::set_difference(fields.begin(), fields.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  EXPECT_TRUE(missing.empty()) << "never reached: " << absl::StrJoin(missing, " | ");
  EXPECT_TRUE(extra.empty()) << "not listed: " << absl::StrJoin(extra, " | ");
}

}  // namespace
}  // namespace alea::vm::aleac_testing
