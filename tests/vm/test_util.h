// Hand-assembly helpers for the VM tests: build a Module instruction by
// instruction, run it, capture its output.
#ifndef ALEA_TESTS_VM_TEST_UTIL_H_
#define ALEA_TESTS_VM_TEST_UTIL_H_

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "stdlib/natives.h"
#include "vm/bytecode.h"
#include "vm/vm.h"

namespace alea::vm::testing {

inline Instr I(Op op, uint16_t a = 0, uint16_t b = 0, uint16_t c = 0, uint8_t x = 0) {
  return Instr::ABC(op, a, b, c, x);
}
inline Instr IsC(Op op, uint16_t a, uint16_t b, int16_t sc) {
  return Instr::ABC(op, a, b, static_cast<uint16_t>(sc));
}
inline Instr IsBx(Op op, uint16_t a, int32_t sbx) { return Instr::AsBx(op, a, sbx); }

class ModuleBuilder {
 public:
  ModuleBuilder() { m_.files.push_back("test.alea"); }

  // Interned, so a test that builds a 10^5-deep type stays linear.
  uint32_t Type(TypeDesc::Kind kind, std::vector<uint32_t> children = {}) {
    std::pair<int, std::vector<uint32_t>> key{static_cast<int>(kind), children};
    auto [it, inserted] = interned_.try_emplace(std::move(key), m_.types.size());
    if (inserted) {
      TypeDesc desc;
      desc.kind = kind;
      desc.children = std::move(children);
      m_.types.push_back(std::move(desc));
    }
    return it->second;
  }
  uint32_t Int() { return Type(TypeDesc::Kind::kInt); }
  uint32_t Float() { return Type(TypeDesc::Kind::kFloat); }
  uint32_t Bool() { return Type(TypeDesc::Kind::kBool); }
  uint32_t Str() { return Type(TypeDesc::Kind::kStr); }
  uint32_t Unit() { return Type(TypeDesc::Kind::kUnit); }
  uint32_t Tensor() { return Type(TypeDesc::Kind::kTensor); }
  uint32_t RandState() { return Type(TypeDesc::Kind::kRandState); }
  // fn(params) -> result: its children are the parameter types, then the
  // result type.
  uint32_t FnType(std::vector<uint32_t> params, uint32_t result) {
    params.push_back(result);
    return Type(TypeDesc::Kind::kFunction, std::move(params));
  }
  uint32_t Tuple(std::vector<uint32_t> fields) {
    return Type(TypeDesc::Kind::kTuple, std::move(fields));
  }
  uint32_t Array(uint32_t elem) { return Type(TypeDesc::Kind::kArray, {elem}); }

  uint16_t K(int64_t v) {
    m_.constants.push_back(static_cast<uint64_t>(v));
    return m_.constants.size() - 1;
  }
  uint16_t KF(double d) {
    m_.constants.push_back(std::bit_cast<uint64_t>(d));
    return m_.constants.size() - 1;
  }
  uint16_t S(std::string s) {
    m_.strings.push_back(std::move(s));
    return m_.strings.size() - 1;
  }
  uint16_t N(std::string name) {
    for (size_t i = 0; i < m_.natives.size(); ++i) {
      if (m_.natives[i] == name) return i;
    }
    m_.natives.push_back(std::move(name));
    return m_.natives.size() - 1;
  }
  uint16_t G(std::string name, uint32_t type) {
    m_.globals.push_back(Global{std::move(name), type});
    return m_.globals.size() - 1;
  }

  // A function's signature, which the verifier checks its code, its calls
  // and its closures against (bytecode.h Function::param_types...): T
  // indexes of its parameters (their count is the function's), its result
  // and its captures (a lambda's body: those GETCAP reads).
  //   b.Fn("sq", {{ti}, ti}, ...)
  //   b.Fn("adder", {.params = {ti}, .result = ti, .captures = {ti}}, ...)
  struct Sig {
    std::vector<uint32_t> params;
    uint32_t result = 0;
    std::vector<uint32_t> captures = {};
  };

  // Adds a function; each instruction gets line = 100 * index + its pc + 1,
  // column = pc + 1, so tests can tell which instruction failed. `refs` are
  // its reference registers (the parameters' must match their types); its
  // reference captures follow from the capture types.
  uint16_t Fn(std::string name, Sig sig, uint16_t registers, std::vector<Instr> code,
              std::vector<uint16_t> refs = {}) {
    const uint16_t index = Reserve();
    Fill(index, std::move(name), std::move(sig), registers, std::move(code), std::move(refs));
    return index;
  }
  // Reserves a function index to fill later (for mutual recursion).
  uint16_t Reserve() {
    m_.functions.emplace_back();
    return m_.functions.size() - 1;
  }
  void Fill(uint16_t index, std::string name, Sig sig, uint16_t registers, std::vector<Instr> code,
            std::vector<uint16_t> refs = {}) {
    Function& f = m_.functions[index];
    f.name = std::move(name);
    f.num_params = static_cast<uint16_t>(sig.params.size());
    f.num_registers = registers;
    f.num_captures = static_cast<uint16_t>(sig.captures.size());
    f.reference_registers = std::move(refs);
    f.reference_captures.clear();
    for (size_t c = 0; c < sig.captures.size(); ++c) {
      if (sig.captures[c] < m_.types.size() && m_.types[sig.captures[c]].is_reference()) {
        f.reference_captures.push_back(static_cast<uint16_t>(c));
      }
    }
    f.param_types = std::move(sig.params);
    f.capture_types = std::move(sig.captures);
    f.result_type = sig.result;
    f.code = std::move(code);
    f.lines.clear();
    for (uint32_t pc = 0; pc < f.code.size(); ++pc) {
      f.lines.push_back(LineEntry{pc, SourceLocation{0, 100 * index + pc + 1, pc + 1, 1}});
    }
  }

  Module& module() { return m_; }
  Module Build(int32_t main, int32_t init = -1, bool main_takes_args = false) {
    m_.main = main;
    m_.init = init;
    m_.main_takes_args = main_takes_args;
    return m_;
  }

 private:
  std::map<std::pair<int, std::vector<uint32_t>>, uint32_t> interned_;
  Module m_;
};

struct RunResult {
  absl::Status status;
  std::string out;
  RuntimeError error;  // when !status.ok()
  Stats stats;
  uint64_t loaded_bytes = 0;  // heap bytes live after Load (string constants)
};

inline RunResult RunModule(const Module& m, Limits limits = {},
                           const std::vector<std::string>& args = {}) {
  RunResult r;
  Vm vm(limits);
  vm.AddNatives(stdlib::Natives());
  vm.SetOutput([&r](absl::string_view s) { r.out.append(s.data(), s.size()); });
  r.status = vm.Load(m);
  if (!r.status.ok()) return r;
  r.loaded_bytes = vm.stats().heap_bytes_live;
  r.status = vm.RunMain(args);
  if (const RuntimeError* e = vm.last_error()) r.error = *e;
  r.stats = vm.stats();
  return r;
}

}  // namespace alea::vm::testing

#endif  // ALEA_TESTS_VM_TEST_UTIL_H_
