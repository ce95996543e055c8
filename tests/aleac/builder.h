// A small writer of valid modules for the verifier's tests: each test starts
// from one that verifies and breaks one thing, so the error it expects is
// the error of that one rule.
#ifndef ALEA_TESTS_ALEAC_BUILDER_H_
#define ALEA_TESTS_ALEAC_BUILDER_H_

#include <string>
#include <vector>

#include "vm/bytecode.h"
#include "vm/verifier.h"

namespace alea::vm::aleac_testing {

inline Instr I(Op op, uint16_t a = 0, uint16_t b = 0, uint16_t c = 0, uint8_t x = 0) {
  return Instr::ABC(op, a, b, c, x);
}
inline Instr IsBx(Op op, uint16_t a, int32_t sbx) { return Instr::AsBx(op, a, sbx); }
inline Instr IsC(Op op, uint16_t a, uint16_t b, int16_t sc) {
  return Instr::ABC(op, a, b, static_cast<uint16_t>(sc));
}

// The types every module of these tests has, at these indexes.
enum : uint32_t {
  kInt = 0,
  kUnit,
  kStr,
  kTensor,  // f32
  kRandState,
  kIntArray,  // [Int]
  kPair,      // (Int, Str)
  kIntFn,     // fn(Int) -> Int
  kOption,    // Option(Int): None | Some(Int)
  kSome,      // its constructor Some, for TUPLE
  kStrArray,  // [Str]
  kTypeCount,
};

class Builder {
 public:
  Builder() {
    m_.files.push_back("t.alea");
    auto add = [&](TypeDesc::Kind kind, std::vector<uint32_t> children = {}) {
      TypeDesc t;
      t.kind = kind;
      t.children = std::move(children);
      m_.types.push_back(std::move(t));
    };
    using K = TypeDesc::Kind;
    add(K::kInt);
    add(K::kUnit);
    add(K::kStr);
    add(K::kTensor);
    add(K::kRandState);
    add(K::kArray, {kInt});
    add(K::kTuple, {kInt, kStr});
    add(K::kFunction, {kInt, kInt});
    TypeDesc option;
    option.kind = K::kVariant;
    option.name = "Option(Int)";
    option.names = {"None", "Some"};
    option.cases = {{}, {kInt}};
    m_.types.push_back(option);
    TypeDesc some;
    some.kind = K::kCase;
    some.children = {kInt};
    some.tag = 1;
    some.parent = kOption;
    m_.types.push_back(some);
    add(K::kArray, {kStr});
    m_.strings.push_back("hello");
  }

  // A function of `params` (type indexes) returning `result`, with
  // `registers` registers of which `refs` hold references.
  uint16_t Fn(std::string name, std::vector<uint32_t> params, uint32_t result, uint16_t registers,
              std::vector<uint16_t> refs, std::vector<Instr> code,
              std::vector<uint32_t> captures = {}, std::vector<uint16_t> ref_captures = {}) {
    Function f;
    f.name = std::move(name);
    f.num_params = static_cast<uint16_t>(params.size());
    f.param_types = std::move(params);
    f.result_type = result;
    f.num_captures = static_cast<uint16_t>(captures.size());
    f.capture_types = std::move(captures);
    f.reference_captures = std::move(ref_captures);
    f.num_registers = registers;
    f.reference_registers = std::move(refs);
    f.code = std::move(code);
    m_.functions.push_back(std::move(f));
    return static_cast<uint16_t>(m_.functions.size() - 1);
  }
  uint16_t Native(std::string name) {
    m_.natives.push_back(std::move(name));
    return static_cast<uint16_t>(m_.natives.size() - 1);
  }
  uint16_t Constant(uint64_t bits) {
    m_.constants.push_back(bits);
    return static_cast<uint16_t>(m_.constants.size() - 1);
  }
  Module& module() { return m_; }
  Module Build(int32_t main) {
    m_.main = main;
    return m_;
  }

 private:
  Module m_;
};

// main() -> (), which prints "hello": a module that verifies.
inline Module Hello() {
  Builder b;
  b.Fn("main", {}, kUnit, 2, {0},
       {I(Op::LOADS, 0, 0), I(Op::PRINT, 0, kStr), I(Op::RELEASE, 0), IsBx(Op::LOADI, 1, 0),
        I(Op::RET, 1)});
  return b.Build(0);
}

// A module whose main runs `code` with `registers` registers, `refs` the
// reference ones, and returns unit from its last register (the code must
// end by returning).
inline Module Main(uint16_t registers, std::vector<uint16_t> refs, std::vector<Instr> code) {
  Builder b;
  b.Fn("main", {}, kUnit, registers, std::move(refs), std::move(code));
  return b.Build(0);
}

// VerifyModule's message, or "ok".
inline std::string VerifyError(const Module& m) {
  absl::Status s = VerifyModule(m);
  return s.ok() ? "ok" : std::string(s.message());
}

}  // namespace alea::vm::aleac_testing

#endif  // ALEA_TESTS_ALEAC_BUILDER_H_
