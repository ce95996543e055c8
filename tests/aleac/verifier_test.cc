// Invalid modules, one per verifier rule (vm/verifier.h), each with the
// exact error it must give: the tables, every operand kind of opcodes.def,
// and what each instruction needs its registers to hold. Each starts from a
// module that verifies (builder.h) and breaks one thing.
#include <cstdlib>
#include <functional>
#include <string>

#include "gtest/gtest.h"
#include "tests/aleac/builder.h"

namespace alea::vm::aleac_testing {
namespace {

using K = TypeDesc::Kind;

struct Case {
  const char* name;
  std::function<Module()> make;
  const char* error;  // VerifyModule's message
};

// main's code with its usual ending: unit in the last register, returned.
Module MainThen(uint16_t registers, std::vector<uint16_t> refs, std::vector<Instr> code) {
  code.push_back(IsBx(Op::LOADI, static_cast<uint16_t>(registers - 1), 0));
  code.push_back(I(Op::RET, static_cast<uint16_t>(registers - 1)));
  return Main(registers, std::move(refs), std::move(code));
}

Module WithType(std::function<void(TypeDesc&)> edit, uint32_t index = kPair) {
  Module m = Hello();
  edit(m.types[index]);
  return m;
}

Module WithFunction(std::function<void(Function&)> edit) {
  Module m = Hello();
  edit(m.functions[0]);
  return m;
}

// A second function, `twice(n: Int) -> Int`, for the call rules.
uint16_t AddTwice(Builder& b) {
  return b.Fn("twice", {kInt}, kInt, 2, {}, {I(Op::ADD_I, 1, 0, 0), I(Op::RET, 1)});
}

const std::vector<Case>& Cases() {
  static const std::vector<Case> kCases = {
      // ---- Types ----
      {"TypeChildPastTypes", [] { return WithType([](TypeDesc& t) { t.children[1] = 99; }); },
       "malformed module: type 6: refers to type 99, past the 11 types"},
      {"ArrayWithoutElement",
       [] { return WithType([](TypeDesc& t) { t.children.clear(); }, kIntArray); },
       "malformed module: type 5: an array type needs one element type"},
      {"TupleWithoutFields", [] { return WithType([](TypeDesc& t) { t.children.clear(); }); },
       "malformed module: type 6: a tuple type needs fields"},
      {"FunctionTypeWithoutResult",
       [] { return WithType([](TypeDesc& t) { t.children.clear(); }, kIntFn); },
       "malformed module: type 7: a function type needs its result type"},
      {"PlainTypeWithChildren",
       [] { return WithType([](TypeDesc& t) { t.children = {kInt}; }, kInt); },
       "malformed module: type 0: this kind of type has no children"},
      {"TensorDType", [] { return WithType([](TypeDesc& t) { t.dtype = 4; }, kTensor); },
       "malformed module: type 3: a dtype outside 0..3, or one where none belongs"},
      {"VariantWithoutNames",
       [] { return WithType([](TypeDesc& t) { t.names.pop_back(); }, kOption); },
       "malformed module: type 8: a variant needs 1 to 65,536 constructors, each with a name"},
      {"CaseUnlikeItsVariant",
       [] { return WithType([](TypeDesc& t) { t.children = {kStr}; }, kSome); },
       "malformed module: type 9: a constructor type does not match its variant"},
      {"RecordWithoutNames",
       [] {
         return WithType([](TypeDesc& t) {
           t.kind = K::kRecord;
           t.names = {"x"};
         });
       },
       "malformed module: type 6: a record needs a name per field"},
      {"ArrayOfItself",
       [] { return WithType([](TypeDesc& t) { t.children = {kIntArray}; }, kIntArray); },
       "malformed module: type 5 contains itself (only records and variants may)"},
      {"NamesOnATuple", [] { return WithType([](TypeDesc& t) {
                               t.names = {"a", "b"};
                             }); },
       "malformed module: type 6: only records and variants have names"},
      // ---- Other tables ----
      {"StringNotUtf8",
       [] {
         Module m = Hello();
         m.strings[0] = "\xff";
         return m;
       },
       "malformed module: string constant 0 is not UTF-8 (every Str is)"},
      {"GlobalTypePastTypes",
       [] {
         Module m = Hello();
         m.globals.push_back(Global{.name = "g", .type = 99});
         return m;
       },
       "malformed module: global 0 has type 99, past the types"},
      {"FusedProgramIllTyped",
       [] {
         Module m = Hello();
         FusedProgram p;
         p.leaves.push_back(FusedLeaf{0, FusedLeaf::Kind::kBool});
         p.nodes.push_back(FusedNode{true, false, 0, 0, 0, 0});  // a unary op of a mask
         m.fused.push_back(p);
         return m;
       },
       "malformed module: fused program 0 is not well typed (bytecode.h FusedProgram)"},
      {"UnknownNative",
       [] {
         Module m = Hello();
         m.natives.push_back("no_such_native");
         return m;
       },
       "malformed module: native 0 `no_such_native` is not a native of this Alea"},
      {"ExternNotDeclared",
       [] {
         Module m = Hello();
         m.natives.push_back("extern host_fn");
         return m;
       },
       "malformed module: native 0 `extern host_fn` is no declared extern function"},
      {"ExternOfAMissingType",
       [] {
         Module m = Hello();
         m.natives.push_back("extern host_fn");
         m.externs.push_back(ExternFn{"host_fn", {ExportType{.type = 99}}, {.type = kInt}});
         return m;
       },
       "malformed module: extern `host_fn` has a missing type"},
      {"ExternResultOfAMissingType",
       [] {
         Module m = Hello();
         m.natives.push_back("extern host_fn");
         m.externs.push_back(ExternFn{"host_fn", {}, {.type = 99}});
         return m;
       },
       "malformed module: extern `host_fn` has a missing type"},
      {"ExternOfTooManyArguments",
       [] {
         Module m = Hello();
         m.natives.push_back("extern host_fn");
         m.externs.push_back(
             ExternFn{"host_fn",
                      std::vector<ExportType>(kMaxNativeArity + 1, ExportType{.type = kInt}),
                      {.type = kInt}});
         return m;
       },
       "malformed module: extern `host_fn` takes more than 8 arguments"},
      // ---- Functions ----
      {"NoCode", [] { return WithFunction([](Function& f) { f.code.clear(); }); },
       "malformed module: function 0 `main`: no code"},
      {"MoreParamsThanRegisters",
       [] {
         return WithFunction([](Function& f) {
           f.num_params = 3;
           f.param_types = {kInt, kInt, kInt};
         });
       },
       "malformed module: function 0 `main`: more parameters than registers"},
      {"ParamTypesCount", [] { return WithFunction([](Function& f) { f.param_types = {kInt}; }); },
       "malformed module: function 0 `main`: a parameter count unlike its types'"},
      {"CaptureTypesCount",
       [] { return WithFunction([](Function& f) { f.capture_types = {kInt}; }); },
       "malformed module: function 0 `main`: a capture count unlike its types'"},
      {"ResultTypePastTypes", [] { return WithFunction([](Function& f) { f.result_type = 50; }); },
       "malformed module: function 0 `main`: its result type is past the types"},
      {"ReferenceRegisterPastRegisters",
       [] { return WithFunction([](Function& f) { f.reference_registers = {7}; }); },
       "malformed module: function 0 `main`: reference register 7 is past its registers"},
      {"ParamRegisterClass",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 1, {}, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
         b.Fn("f", {kStr}, kUnit, 2, {}, {IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         return b.Build(0);
       },
       "malformed module: function 1 `f`: parameter 0's register is of the wrong class for its "
       "type"},
      {"CaptureClass",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 1, {}, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
         b.Fn("lambda", {}, kUnit, 1, {}, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)}, {kStr}, {});
         return b.Build(0);
       },
       "malformed module: function 1 `lambda`: capture 0 is of the wrong class for its type"},
      {"LineTableUnsorted",
       [] {
         return WithFunction([](Function& f) {
           f.lines = {LineEntry{2, SourceLocation{0, 1, 1, 1}},
                      LineEntry{1, SourceLocation{0, 2, 1, 1}}};
         });
       },
       "malformed module: function 0 `main`: its line table is not sorted by pc within its code"},
      {"LineTableFile",
       [] {
         return WithFunction([](Function& f) {
           f.lines = {LineEntry{0, SourceLocation{5, 1, 1, 1}}};
         });
       },
       "malformed module: function 0 `main`: its line table names a file past the module's files"},
      // ---- Entry points ----
      {"MainPastFunctions",
       [] {
         Module m = Hello();
         m.main = 3;
         return m;
       },
       "malformed module: main is not a function"},
      {"InitTakesArguments",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 1, {}, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
         b.Fn("<init>", {kInt}, kUnit, 1, {}, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
         Module m = b.Build(0);
         m.init = 1;
         return m;
       },
       "malformed module: init takes arguments"},
      {"MainParameters",
       [] {
         Module m = Hello();
         m.main_takes_args = true;
         return m;
       },
       "malformed module: main has the wrong number of parameters"},
      {"MainWithCaptures",
       [] {
         return WithFunction([](Function& f) {
           f.num_captures = 1;
           f.capture_types = {kInt};
         });
       },
       "malformed module: main has captures"},
      {"MainStreamNotARandState",
       [] {
         Builder b;
         b.Fn("main", {kInt}, kUnit, 2, {}, {IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         Module m = b.Build(0);
         m.main_uses_rng = true;
         return m;
       },
       "malformed module: main's ambient stream must be a RandState"},
      {"MainArgumentsNotStrs",
       [] {
         Builder b;
         b.Fn("main", {kIntArray}, kUnit, 2, {0}, {IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         Module m = b.Build(0);
         m.main_takes_args = true;
         return m;
       },
       "malformed module: main's arguments must be a [Str]"},
      {"ExportUnlikeItsFunction",
       [] {
         Module m = Hello();
         Export e;
         e.name = "main";
         e.params.push_back(ExportType{.type = kInt});
         e.result.type = kUnit;
         m.exports.push_back(e);
         return m;
       },
       "malformed module: export `main` does not match its function"},
      {"ExportTypes",
       [] {
         Module m = Hello();
         Export e;
         e.name = "main";
         e.result.type = kStr;
         m.exports.push_back(e);
         return m;
       },
       "malformed module: export `main` does not match its function's types"},
      // ---- Operands (opcodes.def's kinds) ----
      {"UnknownOpcode",
       [] { return WithFunction([](Function& f) { f.code[0].op = static_cast<Op>(250); }); },
       "malformed module: function 0 `main` pc 0: opcode 250 is no instruction"},
      {"FlagWhereNone", [] { return WithFunction([](Function& f) { f.code[0].x = 1; }); },
       "malformed module: function 0 `main` pc 0: LOADS has a flag x where it takes none"},
      {"FlagNotZeroOrOne", [] { return MainThen(2, {}, {I(Op::MOVE, 0, 0, 0, 2)}); },
       "malformed module: function 0 `main` pc 0: MOVE has a flag x that is not 0 or 1"},
      {"OperandNotTaken", [] { return WithFunction([](Function& f) { f.code[2].b = 1; }); },
       "malformed module: function 0 `main` pc 2: RELEASE has an operand b it does not take"},
      {"RegisterPastRegisters", [] { return WithFunction([](Function& f) { f.code[0].a = 9; }); },
       "malformed module: function 0 `main` pc 0: LOADS operand a = 9 is past the 2 registers"},
      {"ConstantPastConstants", [] { return MainThen(2, {}, {I(Op::LOADK, 0, 0)}); },
       "malformed module: function 0 `main` pc 0: LOADK operand b = 0 is past the 0 constants"},
      {"StringPastStrings", [] { return WithFunction([](Function& f) { f.code[0].b = 1; }); },
       "malformed module: function 0 `main` pc 0: LOADS operand b = 1 is past the 1 strings"},
      {"TypePastTypes", [] { return WithFunction([](Function& f) { f.code[1].b = 11; }); },
       "malformed module: function 0 `main` pc 1: PRINT operand b = 11 is past the 11 types"},
      {"FunctionPastFunctions", [] { return MainThen(2, {}, {I(Op::CALL, 0, 4, 0)}); },
       "malformed module: function 0 `main` pc 0: CALL operand b = 4 is past the 1 functions"},
      {"NativePastNatives", [] { return MainThen(2, {}, {I(Op::CALLN, 0, 0, 0)}); },
       "malformed module: function 0 `main` pc 0: CALLN operand b = 0 is past the 0 natives"},
      {"GlobalPastGlobals", [] { return MainThen(2, {}, {I(Op::LOADG, 0, 0)}); },
       "malformed module: function 0 `main` pc 0: LOADG operand b = 0 is past the 0 globals"},
      {"CapturePastCaptures", [] { return MainThen(2, {}, {I(Op::GETCAP, 0, 0)}); },
       "malformed module: function 0 `main` pc 0: GETCAP operand b = 0 is past the 0 captures"},
      {"FusedPastFused", [] { return MainThen(2, {}, {I(Op::FUSED_T, 0, 0)}); },
       "malformed module: function 0 `main` pc 0: FUSED_T operand b = 0 is past the 0 fused "
       "programs"},
      {"JumpOutside", [] { return MainThen(2, {}, {IsBx(Op::JMP, 0, 5)}); },
       "malformed module: function 0 `main` pc 0: JMP jumps to pc 6, outside its 3 instructions"},
      {"SwitchWithoutTable", [] { return MainThen(2, {0}, {I(Op::SWITCH, 0, 1)}); },
       "malformed module: function 0 `main` pc 0: SWITCH needs its table of JMPs"},
      {"SwitchBackward",
       [] {
         return MainThen(2, {0},
                         {IsBx(Op::LOADTAG, 0, 0), I(Op::SWITCH, 0, 1), IsBx(Op::JMP, 0, -3)});
       },
       "malformed module: function 0 `main` pc 1: SWITCH has a table entry that jumps backward"},
      {"FusedWithoutJmp",
       [] {
         Module m = MainThen(2, {}, {I(Op::FUSED_T, 0, 0), I(Op::NOP)});
         FusedProgram p;
         p.leaves.push_back(FusedLeaf{0, FusedLeaf::Kind::kFloat});
         p.nodes.push_back(FusedNode{true, false, 0, 0, 0, 0});
         m.fused.push_back(p);
         return m;
       },
       "malformed module: function 0 `main` pc 0: FUSED_T needs its JMP"},
      // ---- What registers hold ----
      {"RunsPastTheEnd", [] { return Main(1, {}, {IsBx(Op::LOADI, 0, 0)}); },
       "malformed module: function 0 `main` pc 0: LOADI runs past the end of its code"},
      {"PlainRegisterAsReference", [] { return MainThen(2, {}, {I(Op::PRINT, 0, kStr)}); },
       "malformed module: function 0 `main` pc 0: PRINT needs the value R(0) to hold a "
       "reference; it holds a plain value"},
      {"NullRead", [] { return MainThen(2, {0}, {I(Op::PRINT, 0, kStr)}); },
       "malformed module: function 0 `main` pc 0: PRINT needs the value R(0) to hold a "
       "reference; it holds null"},
      {"MaybeNullAfterABranch",
       [] {
         return MainThen(
             3, {0},
             {I(Op::NOT, 1, 2), IsBx(Op::JMPIF, 1, 1), I(Op::LOADS, 0, 0), I(Op::PRINT, 0, kStr)});
       },
       "malformed module: function 0 `main` pc 3: PRINT needs the value R(0) to hold a "
       "reference; it holds maybe null (Str)"},
      {"WrongShape",
       [] {
         return MainThen(4, {0, 1, 2},
                         {I(Op::LOADS, 0, 0), IsBx(Op::LOADI, 3, 1), I(Op::MOVE, 1, 0, 0, 0)});
       },
       "malformed module: function 0 `main` pc 2: MOVE copies a reference without counting it "
       "(x = 0 between reference registers: two owners)"},
      {"ShapeMismatch",
       [] {
         return MainThen(3, {0, 1}, {IsBx(Op::LOADTAG, 0, 0), I(Op::CONCAT_S, 1, 0, 0)});
       },
       "malformed module: function 0 `main` pc 1: CONCAT_S needs operand R(0) to be Str; it is "
       "constructor 0 without fields"},
      {"PlainIntoReferenceRegister", [] { return MainThen(2, {0}, {IsBx(Op::LOADI, 0, 7)}); },
       "malformed module: function 0 `main` pc 0: LOADI puts a plain value in a reference "
       "register"},
      {"CopyBetweenClasses",
       [] {
         return MainThen(2, {0}, {I(Op::LOADS, 0, 0), I(Op::COPY, 1, 0)});
       },
       "malformed module: function 0 `main` pc 1: COPY copies between a plain and a reference "
       "register"},
      {"ReleasePlain", [] { return MainThen(2, {}, {I(Op::RELEASE, 0)}); },
       "malformed module: function 0 `main` pc 0: RELEASE releases a plain register"},
      {"DivideByConstantZero", [] { return MainThen(2, {}, {IsC(Op::DIVK_I, 0, 0, 0)}); },
       "malformed module: function 0 `main` pc 0: DIVK_I divides by the constant 0"},
      {"CallArgumentCount",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 2, {},
              {I(Op::CALL, 0, 1, 0), IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         AddTwice(b);
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 0: CALL passes 0 arguments to `twice`, which "
       "takes 1"},
      {"CallArgumentShape",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 2, {0},
              {I(Op::LOADS, 0, 0), I(Op::CALL, 0, 1, 1), IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         AddTwice(b);
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 1: CALL passes argument 1 in R(0), a register of "
       "the wrong class for a plain value"},
      {"CallWithCaptures",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 2, {},
              {I(Op::CALL, 0, 1, 0), IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         b.Fn("lambda", {}, kInt, 1, {}, {I(Op::GETCAP, 0, 0), I(Op::RET, 0)}, {kInt});
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 0: CALL calls a function that reads captures "
       "without a closure"},
      {"LoadFnWithCaptures",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 2, {0},
              {I(Op::LOADFN, 0, 1), IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         b.Fn("lambda", {}, kInt, 1, {}, {I(Op::GETCAP, 0, 0), I(Op::RET, 0)}, {kInt});
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 0: LOADFN makes a closure without captures of a "
       "function that reads captures"},
      {"ClosureCaptureCount",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 2, {0},
              {I(Op::CLOSURE, 0, 1, 0), IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         b.Fn("lambda", {}, kInt, 1, {}, {I(Op::GETCAP, 0, 0), I(Op::RET, 0)}, {kInt});
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 0: CLOSURE gives `lambda` 0 captures; it reads 1"},
      {"CallClosureArity",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 3, {0},
              {I(Op::LOADFN, 0, 1), I(Op::CALLC, 1, 0, 2), IsBx(Op::LOADI, 2, 0), I(Op::RET, 2)});
         AddTwice(b);
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 1: CALLC calls R(0) with 2 arguments; it holds "
       "fn(a plain value) -> a plain value"},
      {"TailCallResult",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 2, {}, {IsBx(Op::LOADI, 0, 1), I(Op::TAILCALL, 0, 1, 1)});
         b.Fn("name", {kInt}, kStr, 2, {1}, {I(Op::LOADS, 1, 0), I(Op::RET, 1)});
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 1: TAILCALL returns `name`'s Str from a function "
       "returning a plain value"},
      {"ReturnShape",
       [] {
         return Main(1, {0}, {I(Op::LOADS, 0, 0), I(Op::RET, 0)});
       },
       "malformed module: function 0 `main` pc 1: RET returns a reference register from a "
       "function returning a plain value"},
      {"TupleOfANonTupleType", [] { return MainThen(3, {0}, {I(Op::TUPLE, 0, 1, kInt)}); },
       "malformed module: function 0 `main` pc 0: TUPLE needs a tuple, record or constructor type"},
      {"TupleFieldClass", [] { return MainThen(3, {0}, {I(Op::TUPLE, 0, 1, kPair)}); },
       "malformed module: function 0 `main` pc 0: TUPLE takes field 1 from a register of the "
       "wrong class"},
      {"FieldPastFields",
       [] {
         return MainThen(4, {0, 2},
                         {IsBx(Op::LOADI, 1, 5), I(Op::LOADS, 2, 0), I(Op::TUPLE, 0, 1, kPair),
                          I(Op::FIELD, 3, 0, 2)});
       },
       "malformed module: function 0 `main` pc 3: FIELD reads field 2 of R(0), (a plain value, "
       "Str), which has 2 fields"},
      {"FieldOfAnUntestedVariant",
       [] {
         return MainThen(4, {0, 1},
                         {IsBx(Op::LOADI, 2, 5), I(Op::TUPLE, 0, 2, kSome), IsBx(Op::LOADTAG, 1, 0),
                          I(Op::NOT, 2, 2), IsBx(Op::JMPIF, 2, 2), I(Op::RELEASE, 0),
                          I(Op::MOVE, 0, 1, 0, 1), I(Op::FIELD, 3, 0, 0)});
       },
       "malformed module: function 0 `main` pc 7: FIELD reads field 0 of R(0), Option(Int), "
       "which has 0 fields in constructor 0"},
      {"ArrayOfMixedShapes",
       [] {
         return MainThen(4, {0, 1, 2},
                         {I(Op::LOADS, 0, 0), IsBx(Op::LOADTAG, 1, 0), I(Op::ARRAY, 2, 0, 2, 1)});
       },
       "malformed module: function 0 `main` pc 2: ARRAY builds an array of elements of different "
       "shapes"},
      {"IndexNotAnArray",
       [] {
         return MainThen(3, {0}, {I(Op::LOADS, 0, 0), I(Op::INDEX, 1, 0, 1)});
       },
       "malformed module: function 0 `main` pc 1: INDEX indexes R(0), Str"},
      {"PushAnotherShape",
       [] {
         return MainThen(5, {0, 1, 2},
                         {I(Op::ARRAY, 0, 0, 0), I(Op::LOADS, 1, 0), I(Op::PUSH, 2, 0, 1, 1),
                          IsBx(Op::LOADI, 3, 7), I(Op::PUSH, 0, 2, 3)});
       },
       "malformed module: function 0 `main` pc 4: PUSH pushes a plain value onto [Str]"},
      {"StoreOutsideInit",
       [] {
         Module m = MainThen(2, {}, {IsBx(Op::LOADI, 0, 1), I(Op::STOREG, 0, 0)});
         m.globals.push_back(Global{.name = "g", .type = kInt});
         return m;
       },
       "malformed module: function 0 `main` pc 1: STOREG stores a global outside the module's "
       "initializer"},
      {"TensorOpOfAStr",
       [] {
         return MainThen(3, {0, 1}, {I(Op::LOADS, 0, 0), I(Op::ADD_T, 1, 0, 0)});
       },
       "malformed module: function 0 `main` pc 1: ADD_T needs operand R(0) to be Tensor; it is "
       "Str"},
      {"TensorOpMovesOneRegisterTwice",
       [] {
         return MainThen(
             3, {0, 1},
             {IsBx(Op::LOADI, 2, 1), I(Op::SCALAR_T, 0, 2, 0), I(Op::ADD_T, 1, 0, 0, 3)});
       },
       "malformed module: function 0 `main` pc 2: ADD_T moves one register in twice"},
      {"ScalarDType", [] { return MainThen(3, {0}, {I(Op::SCALAR_T, 0, 1, 4)}); },
       "malformed module: function 0 `main` pc 0: SCALAR_T makes a tensor of a dtype outside 0..3"},
      {"NativeArgumentCount",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 2, {0},
              {I(Op::CALLN, 0, 0, 0), IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
         b.Native("range1");
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 0: CALLN passes 0 arguments to native `range1`, "
       "which takes 1"},
      {"NativeArgumentShape",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 3, {0, 1},
              {I(Op::LOADS, 1, 0), I(Op::CALLN, 0, 0, 1), IsBx(Op::LOADI, 2, 0), I(Op::RET, 2)});
         b.Native("range1");
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 1: CALLN calls native `range1`: argument 1 is Str, "
       "which does not fit its parameter"},
      {"NativeTypeArgumentNotConstant",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 4, {0},
              {I(Op::LOADK, 1, 0), IsBx(Op::LOADI, 2, 3), I(Op::CALLN, 0, 0, 2),
               IsBx(Op::LOADI, 3, 0), I(Op::RET, 3)});
         b.Native("enumerate");
         b.Constant(kInt);
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 2: CALLN calls native `enumerate`: argument 1 is a "
       "plain value in a plain register, which does not fit its parameter"},
      {"OwningNativeFromAPlainRegister",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 5, {0},
              {IsBx(Op::LOADI, 1, 0), IsBx(Op::LOADI, 2, 1), IsBx(Op::LOADI, 3, kInt),
               I(Op::CALLN, 0, 0, 3), IsBx(Op::LOADI, 4, 0), I(Op::RET, 4)});
         b.Native("push");
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 3: CALLN passes native `push` its first argument "
       "in a plain register; it owns it"},
      {"SamplerRegisterCount",
       [] {
         return MainThen(4, {0, 1},
                         {IsBx(Op::LOADI, 2, 0), I(Op::KEY, 1, 2), I(Op::NORMAL, 0, 1, 1)});
       },
       "malformed module: function 0 `main` pc 2: NORMAL reads 1 registers; it takes 2"},
      {"TakeOfAStr",
       [] {
         return MainThen(2, {0}, {I(Op::LOADS, 0, 0), I(Op::TAKE, 0, 0)});
       },
       "malformed module: function 0 `main` pc 1: TAKE needs R(0) to hold a RandState or null; "
       "it holds Str"},
      {"ScalarDrawRegisterCount", [] { return MainThen(4, {}, {I(Op::NORMAL_S, 0, 1, 3)}); },
       "malformed module: function 0 `main` pc 0: NORMAL_S reads 3 registers; it takes 2"},
      {"PlainResultLeftInAReferenceRegister",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 3, {0},
              {I(Op::LOADS, 0, 0), I(Op::CALL, 0, 1, 1), IsBx(Op::LOADI, 2, 0), I(Op::RET, 2)});
         b.Fn("length", {kStr}, kInt, 2, {0}, {IsBx(Op::LOADI, 1, 5), I(Op::RET, 1)});
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 1: CALL leaves a plain result in reference "
       "register R(0) that the next instructions do not take out"},
      {"OverwriteALiveReference",
       [] {
         return MainThen(2, {0}, {I(Op::LOADS, 0, 0), I(Op::LOADS, 0, 0)});
       },
       "malformed module: function 0 `main` pc 1: LOADS overwrites R(0), which holds Str: the "
       "reference would leak"},
      {"MoveOfNullOverALiveReference",
       [] {
         return MainThen(3, {0}, {I(Op::LOADS, 0, 0), IsBx(Op::LOADI, 1, 0), I(Op::MOVE, 0, 1)});
       },
       "malformed module: function 0 `main` pc 2: MOVE overwrites R(0), which holds Str: the "
       "reference would leak"},
      {"OwnedReferenceReturnedAsAPlainValue",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 1, {}, {I(Op::LOADS, 0, 0), I(Op::RET, 0)});
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 1: RET returns Str from a function returning a "
       "plain value"},
      {"ReferenceLeftInAPlainRegister",
       [] {
         return MainThen(3, {1}, {I(Op::LOADS, 0, 0), I(Op::NOP), I(Op::MOVE, 1, 0, 0, 1)});
       },
       "malformed module: function 0 `main` pc 0: LOADS leaves a reference in plain register R(0) "
       "that the next instruction does not take out"},
      {"CallZeroesALiveReference",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 3, {1},
              {I(Op::LOADS, 1, 0), IsBx(Op::LOADI, 0, 4), I(Op::CALL, 0, 1, 1), I(Op::RELEASE, 1),
               IsBx(Op::LOADI, 2, 0), I(Op::RET, 2)});
         AddTwice(b);
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 2: CALL zeroes R(1) in the callee's frame, which "
       "holds Str: the reference would leak"},
      {"CompareWindow", [] { return MainThen(2, {}, {I(Op::EQ_V, 0, 1, kInt)}); },
       "malformed module: function 0 `main` pc 0: EQ_V has operands R(1)..R(2) past its 2 "
       "registers"},
      {"LentToAnArrayParameter",
       [] {
         Builder b;
         b.Fn("main", {}, kUnit, 4, {2},
              {I(Op::ARRAY, 2, 0, 0), I(Op::MOVE, 1, 2, 0, 0), I(Op::CALLN, 0, 0, 1),
               IsBx(Op::LOADI, 3, 0), I(Op::RET, 3)});
         b.Native("sum_i");
         return b.Build(0);
       },
       "malformed module: function 0 `main` pc 2: CALLN calls native `sum_i`: argument 1 is "
       "[nothing], lent in a plain register, which does not fit its parameter"},
  };
  return kCases;
}

class Rule : public ::testing::TestWithParam<Case> {};

TEST_P(Rule, GivesItsError) {
  const Case& c = GetParam();
  const std::string error = VerifyError(c.make());
  if (std::getenv("ALEAC_PRINT") != nullptr) std::printf("%s\n  %s\n", c.name, error.c_str());
  EXPECT_EQ(error, c.error);
}

INSTANTIATE_TEST_SUITE_P(Verifier, Rule, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.name);
                         });

// Types nested 100,000 deep (arrays of arrays... of a Str, and of an
// Option): comparing and joining them must not exhaust the C stack.
TEST(Verifier, DeepShapesAreComparedWithBoundedStack) {
  Builder b;
  Module& m = b.module();
  uint32_t deep_str = kStr, deep_option = kOption;
  for (int i = 0; i < 100'000; ++i) {
    TypeDesc t;
    t.kind = TypeDesc::Kind::kArray;
    t.children = {deep_str};
    m.types.push_back(t);
    deep_str = static_cast<uint32_t>(m.types.size() - 1);
    t.children = {deep_option};
    m.types.push_back(t);
    deep_option = static_cast<uint32_t>(m.types.size() - 1);
  }
  b.Fn("main", {}, kUnit, 1, {}, {IsBx(Op::LOADI, 0, 0), I(Op::RET, 0)});
  b.Fn("f", {deep_str, deep_option}, kUnit, 4, {0, 1, 2},
       {I(Op::ARRAY, 2, 0, 2, 1), I(Op::RELEASE, 2), IsBx(Op::LOADI, 3, 0), I(Op::RET, 3)});
  EXPECT_EQ(VerifyError(b.Build(0)),
            "malformed module: function 1 `f` pc 0: ARRAY builds an array of elements of "
            "different shapes");
}

// A function of 65,535 registers whose every instruction is a join point
// would need gigabytes of states: refused, not allocated.
TEST(Verifier, StatesKeptAtJoinsAreBounded) {
  std::vector<Instr> code;
  for (int i = 0; i < 20'000; ++i) code.push_back(IsBx(Op::JMP, 0, 0));
  code.push_back(IsBx(Op::LOADI, 0, 0));
  code.push_back(I(Op::RET, 0));
  const std::string error = VerifyError(Main(65535, {}, code));
  EXPECT_NE(error.find("JMP makes the function too large to verify (65535 registers at more than "),
            std::string::npos)
      << error;
}

TEST(Verifier, TheBaseModulesVerify) {
  EXPECT_EQ(VerifyError(Hello()), "ok");
  Builder b;
  b.Fn("main", {}, kUnit, 2, {},
       {IsBx(Op::LOADI, 0, 4), I(Op::CALL, 0, 1, 1), IsBx(Op::LOADI, 1, 0), I(Op::RET, 1)});
  AddTwice(b);
  EXPECT_EQ(VerifyError(b.Build(0)), "ok");
}

}  // namespace
}  // namespace alea::vm::aleac_testing
