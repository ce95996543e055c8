// The compiled form of a program: what the compiler produces and the VM runs.
// Plain data with no pointers into other structures, so that it could be
// written to a file and verified on load (there is no file format yet).
#ifndef ALEA_VM_BYTECODE_H_
#define ALEA_VM_BYTECODE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace alea::vm {

enum class Op : uint8_t {
#define ALEA_OP(name, format, operands, semantics) name,
#include "vm/opcodes.def"
#undef ALEA_OP
};

enum class OpFormat : uint8_t { N, A, AB, ABC, AsBx, sBx, ABsC };

struct OpInfo {
  const char* name;  // "ADD_I"
  OpFormat format;
  const char* operands;   // x, a, b, c: what each field is (opcodes.def)
  const char* semantics;  // the comment of opcodes.def
};
const OpInfo& InfoOf(Op op);
// The samplers and scalar draws: their c operand counts the argument
// registers they read from R(b) (the state first).
bool IsDraw(Op op);
inline constexpr int kOpCount = 0
#define ALEA_OP(name, format, operands, semantics) +1
#include "vm/opcodes.def"
#undef ALEA_OP
    ;

struct Instr {
  Op op = Op::NOP;
  uint8_t x = 0;  // a per-opcode flag (see opcodes.def)
  uint16_t a = 0;
  uint16_t b = 0;
  uint16_t c = 0;

  int32_t sbx() const { return static_cast<int32_t>((uint32_t{b} << 16) | c); }
  int16_t sc() const { return static_cast<int16_t>(c); }
  static Instr ABC(Op op, uint16_t a, uint16_t b, uint16_t c, uint8_t x = 0) {
    return Instr{op, x, a, b, c};
  }
  static Instr AsBx(Op op, uint16_t a, int32_t sbx, uint8_t x = 0) {
    uint32_t u = static_cast<uint32_t>(sbx);
    return Instr{op, x, a, static_cast<uint16_t>(u >> 16), static_cast<uint16_t>(u & 0xffff)};
  }
};
static_assert(sizeof(Instr) == 8);

// The shape of a value, for the instructions that must look inside one whose
// register is untagged: printing, `str`, structural `==` and ordering, and
// releasing a tuple's fields. A record is a tuple object; a variant's value
// is a tuple object whose tag (Object::tag) is its constructor's position, a
// constructor without fields a shared object (LOADTAG).
struct TypeDesc {
  enum class Kind : uint8_t {
    kInt,
    kFloat,
    kBool,
    kStr,
    kUnit,
    kTuple,
    kArray,
    kFunction,
    kTensor,
    kDType,
    kRandState,
    kRecord,   // a declared record: children its field types, names its field names
    kVariant,  // a declared variant: cases[tag] the field types of each constructor, names theirs
    kCase,     // one constructor of variant T(parent), for TUPLE: children its fields, tag
    kPlot,     // a plot: a tuple object laid out as stdlib/plots.cc says
  };
  Kind kind = Kind::kInt;
  // Tuple and record fields; the one array element type; a function's
  // parameter types and then its result type.
  std::vector<uint32_t> children;
  std::string name;                          // kRecord, kVariant: the type as written (`Tree(Int)`)
  std::vector<std::string> names;            // kRecord: field names; kVariant: constructor names
  std::vector<std::vector<uint32_t>> cases;  // kVariant
  uint16_t tag = 0;                          // kCase
  uint8_t dtype = 0;                         // kTensor, kDType: the vm::DType (dtype.h)
  uint32_t parent = 0;                       // kCase: its kVariant
  // A tensor's dtype and shape live in the object, so kTensor needs nothing
  // more; a kDType value (`f32`...) is its vm::DType number. A kRandState is
  // a reference to a vm/randstate.h object.

  bool is_reference() const {
    return kind == Kind::kStr || kind == Kind::kTuple || kind == Kind::kArray ||
           kind == Kind::kFunction || kind == Kind::kTensor || kind == Kind::kRandState ||
           kind == Kind::kRecord || kind == Kind::kVariant || kind == Kind::kCase ||
           kind == Kind::kPlot;
  }
};

// Where an instruction came from, for run-time errors and `alea dis`.
struct SourceLocation {
  uint32_t file = 0;  // index into Module::files
  uint32_t line = 0;  // 1-based; 0 when unknown
  uint32_t column = 0;
  uint32_t length = 1;  // bytes of the span on its line, for the caret
};

struct LineEntry {
  uint32_t pc = 0;  // this location holds from this pc to the next entry's
  SourceLocation location;
};

struct Function {
  std::string name;            // the source name, as `print` shows it: `<fn sq>`
  std::string specialization;  // for `alea dis`: `[Float]`, empty when not generic
  uint16_t num_params = 0;
  uint16_t num_registers = 0;                 // params first, then locals and temporaries
  uint16_t num_captures = 0;                  // > 0 for a lambda's body (GETCAP reads them)
  std::vector<uint16_t> reference_registers;  // registers that hold references
  // Captures (GETCAP indexes) that hold references. CLOSURE's R(a) holds the
  // first capture and then the closure, so the creating frame's register map
  // cannot say it: the closure's mask comes from here.
  std::vector<uint16_t> reference_captures;
  // The signature the verifier checks calls, returns and closures against
  // (vm/verifier.h): T indexes of the parameters (num_params of them), the
  // captures (num_captures) and the result.
  std::vector<uint32_t> param_types;
  std::vector<uint32_t> capture_types;
  uint32_t result_type = 0;
  std::vector<Instr> code;
  std::vector<LineEntry> lines;  // sorted by pc
};

// The source location of instruction `pc` of `fn` by its line table (line 0
// when the table says nothing for it).
SourceLocation LocationAt(const Function& fn, uint32_t pc);

// A type at the host boundary: T(type), with the dtypes that types[] leave
// to the objects (a tensor's), so that a host value can be checked.
struct ExportType {
  uint32_t type = 0;                    // T(type)
  uint8_t dtype = 0;                    // a kTensor's vm::DType (dtype.h); 0 otherwise
  std::vector<ExportType> fields = {};  // a kTuple's, in order; a kArray's one element type
};

struct Global {
  std::string name;
  uint32_t type = 0;  // T(type)
  // `extern let`: no init code computes it; the host sets it before anything
  // runs (vm::Vm::SetGlobal), of type `declared`.
  bool external = false;
  ExportType declared = {};
};

// A fused elementwise program (FUSED_T, F32(index)): a tree of f32
// elementwise operations, comparisons and `where` over leaves, evaluated in
// one pass. Values are numbered leaves first (0..leaves-1), then nodes
// (leaves + j is node j); each node's operands are earlier values and the
// last node is the result. Every value is typed, an f32 or a mask (a bool
// per element): kTensor, kFloat and kInt leaves, unary and arithmetic nodes
// and `where` are f32; kBool leaves and comparisons are masks. Operands must
// have the types their node takes (vm.cc Verify) and the result is f32. The
// compiler emits one for a chain such as `relu(x * w + b)` or
// `where(x > 0.0, x, x * 0.01)`; its meaning is always the unfused
// instructions that follow FUSED_T (opcodes.def).
struct FusedLeaf {
  enum class Kind : uint8_t {
    kTensor,  // R(reg) holds a Tensor(f32)
    kFloat,   // R(reg) holds a Float, rounded to f32 (as SCALAR_T)
    kInt,     // R(reg) holds an Int, rounded to f32 (as SCALAR_T)
    kBool,    // R(reg) holds a Tensor(bool): a mask, true where a byte is nonzero
  };
  uint16_t reg = 0;
  Kind kind = Kind::kTensor;
  // The unfused code consumes R(reg) (an elementwise op or comparison takes
  // it by move; `where` only borrows): the result may reuse it.
  bool moved = false;
  // The leaf is transpose(R(reg)) (a Tensor(f32)): the fused pass reads R(reg)
  // through reversed axes in place, and the unfused block transposes it
  // first. Never moved: the pass reads it while writing the result.
  bool transposed = false;
};
struct FusedNode {
  // unary: op is a kernels::UnaryOp of a (f32 -> f32). where: a ? b : c, a a
  // mask, b and c f32 (op unused). Otherwise op is a kernels::BinaryOp of a
  // and b, both f32: arithmetic (+ - * / max min) gives an f32, a comparison
  // (== != < <= > >=) a mask.
  bool unary = false;
  bool where = false;
  uint8_t op = 0;
  uint16_t a = 0, b = 0, c = 0;  // value numbers (b unused when unary, c unless where)
};
struct FusedProgram {
  std::vector<FusedLeaf> leaves;
  std::vector<FusedNode> nodes;
};

// Whether each value of `p` (leaves, then nodes) is a mask rather than an
// f32, when the program is well typed: leaf kinds in range, every operand an
// earlier value of the type its node takes, ops in range, the result an f32.
// nullopt otherwise. (Verify and the JIT both check programs with it.)
std::optional<std::vector<bool>> FusedValueMasks(const FusedProgram& p);

// A function a host may call by name (include/alea/vm.h): the root file's
// monomorphic top-level functions, listed only when the compiler is asked to
// (compiler::CompileOptions::export_functions; `alea run` is not, so its
// modules and `alea dis` are unchanged). The types let the host check a
// signature and convert values without trusting the caller.
struct Export {
  std::string name;
  uint32_t function = 0;  // F(function)
  std::vector<ExportType> params;
  ExportType result;
  // `uses rng`: F(function) takes the ambient stream as one more, last, argument.
  bool uses_rng = false;
};

// A host function the program declares (`extern fn`) and calls: CALLN of the
// native "extern NAME", which the host binds by name when it loads the module
// (include/alea/vm.h checks its signature against these types).
struct ExternFn {
  std::string name;
  std::vector<ExportType> params;
  ExportType result;
};
// The prefix of those natives' names: the space keeps them apart from the
// standard library's.
inline constexpr char kExternPrefix[] = "extern ";
// At most this many arguments reach a native (vm/native.h).
inline constexpr int kMaxNativeArity = 8;

struct Module {
  std::vector<Function> functions;
  std::vector<uint64_t> constants;   // K: Int values and Float bits
  std::vector<std::string> strings;  // S
  std::vector<TypeDesc> types;       // T
  std::vector<std::string> natives;  // N: names, bound to the VM's native table on load
  std::vector<Global> globals;       // top-level `let`s
  std::vector<std::string> files;    // source paths, for locations
  std::vector<FusedProgram> fused;   // F32: FUSED_T's programs
  int32_t init = -1;                 // F(init)() computes the globals before anything else runs
  int32_t main = -1;                 // F(main): the program's entry point
  bool main_takes_args = false;      // main(args: [Str])
  bool main_uses_rng = false;        // `uses rng`: its ambient stream is an extra last argument
  std::vector<Export> exports;       // for hosts; empty unless asked for
  std::vector<ExternFn> externs;     // host functions called, in first-use order
};

}  // namespace alea::vm

#endif  // ALEA_VM_BYTECODE_H_
