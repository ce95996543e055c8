// Calling natives from a hand-built `main` (tensor_natives_test.cc,
// native_checks_test.cc): argument values built in fresh registers, results
// printed, and every run checked for leaks. A hand-built module can pass what
// the compiler never does (a dtype or a plain value the builtin's type rules
// out), which is how the natives' own run-time checks are tested.
#ifndef ALEA_TESTS_VM_NATIVE_PROGRAM_H_
#define ALEA_TESTS_VM_NATIVE_PROGRAM_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "tests/vm/test_util.h"
#include "vm/dtype.h"

namespace alea::vm::testing {

// A value to build in a register: Int, Float, Bool, Str, an array of values,
// a RandState (key(seed)), or a register an earlier call wrote.
struct V {
  enum class Kind { kInt, kFloat, kBool, kStr, kArray, kKey, kReg } kind = Kind::kInt;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<V> elems;
  bool refs = false;  // kArray: elements are references; kReg: holds one
};
inline V Make(V::Kind kind) {
  V v;
  v.kind = kind;
  return v;
}
inline V Int(int64_t i) {
  V v = Make(V::Kind::kInt);
  v.i = i;
  return v;
}
inline V Flt(double f) {
  V v = Make(V::Kind::kFloat);
  v.f = f;
  return v;
}
inline V Bool(bool b) {
  V v = Make(V::Kind::kBool);
  v.i = b;
  return v;
}
inline V Str(std::string s) {
  V v = Make(V::Kind::kStr);
  v.s = std::move(s);
  return v;
}
inline V Arr(std::vector<V> elems) {
  V v = Make(V::Kind::kArray);
  v.refs = !elems.empty() &&
           (elems[0].kind == V::Kind::kArray || elems[0].kind == V::Kind::kStr || elems[0].refs);
  v.elems = std::move(elems);
  return v;
}
// key(seed): a fresh RandState in the argument's register.
inline V Key(int64_t seed) {
  V v = Make(V::Kind::kKey);
  v.i = seed;
  return v;
}
inline V Reg(uint16_t reg, bool ref) {
  V v = Make(V::Kind::kReg);
  v.i = reg;
  v.refs = ref;
  return v;
}
inline V DT(DType d) { return Int(static_cast<int64_t>(d)); }

// One `main` that evaluates calls in order into fresh registers (a register
// never changes role, so the reference map is simple) and prints results.
class Program {
 public:
  // Calls native `name`; returns the result as a value for later arguments.
  V Call(const char* name, std::vector<V> args, bool result_is_ref = true) {
    const uint16_t result = Fresh(static_cast<uint16_t>(args.size() + 1));
    if (result_is_ref) refs_.push_back(result);
    for (size_t k = 0; k < args.size(); ++k) Build(args[k], result + 1 + k);
    code_.push_back(I(Op::CALLN, result, b.N(name), args.size()));
    return Reg(result, result_is_ref);
  }
  void Print(const V& reg, uint32_t type) { code_.push_back(I(Op::PRINT, reg.i, type)); }
  // Output, or output then "error: <message>"; checks nothing leaked.
  std::string Run(Limits limits = {}) {
    const uint16_t unit = Fresh(1);
    code_.push_back(IsBxLoad(unit, 0));
    code_.push_back(I(Op::RET, unit));
    auto r = RunModule(b.Build(b.Fn("main", {{}, b.Unit()}, next_, code_, refs_)), limits);
    EXPECT_EQ(r.stats.heap_bytes_live, r.loaded_bytes);
    if (!r.status.ok()) {
      // A load error (the verifier) has no RuntimeError: its status says it.
      return r.out + "error: " +
             (r.error.message.empty() ? std::string(r.status.message()) : r.error.message);
    }
    return r.out;
  }

  uint32_t Tensor() { return b.Type(TypeDesc::Kind::kTensor); }
  ModuleBuilder b;

 private:
  static Instr IsBxLoad(uint16_t reg, int32_t v) { return Instr::AsBx(Op::LOADI, reg, v); }
  uint16_t Fresh(uint16_t n) {
    const uint16_t r = next_;
    next_ += n;
    return r;
  }
  void Build(const V& v, uint16_t target) {
    switch (v.kind) {
      case V::Kind::kInt:
        // LOADI when it fits: a `type` argument must be a known constant.
        if (v.i >= INT32_MIN && v.i <= INT32_MAX) {
          code_.push_back(IsBxLoad(target, static_cast<int32_t>(v.i)));
        } else {
          code_.push_back(I(Op::LOADK, target, b.K(v.i)));
        }
        break;
      case V::Kind::kFloat:
        code_.push_back(I(Op::LOADK, target, b.KF(v.f)));
        break;
      case V::Kind::kBool:
        code_.push_back(IsBxLoad(target, v.i != 0));
        break;
      case V::Kind::kStr:
        refs_.push_back(target);
        code_.push_back(I(Op::LOADS, target, b.S(v.s)));
        break;
      case V::Kind::kArray: {
        refs_.push_back(target);
        const uint16_t base = Fresh(static_cast<uint16_t>(v.elems.size()));
        for (size_t k = 0; k < v.elems.size(); ++k) Build(v.elems[k], base + k);
        code_.push_back(I(Op::ARRAY, target, base, v.elems.size(), v.refs));
        break;
      }
      case V::Kind::kKey: {
        refs_.push_back(target);
        const uint16_t seed = Fresh(1);
        code_.push_back(I(Op::LOADK, seed, b.K(v.i)));
        code_.push_back(I(Op::KEY, target, seed));
        break;
      }
      case V::Kind::kReg:
        if (v.refs) {
          refs_.push_back(target);
          code_.push_back(I(Op::COPY, target, v.i));
        } else {
          code_.push_back(I(Op::MOVE, target, v.i));
        }
        break;
    }
  }

  std::vector<Instr> code_;
  std::vector<uint16_t> refs_;
  uint16_t next_ = 0;
};

// A file name under the test's temporary directory, removed at the end.
class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_(::testing::TempDir() + "/alea_" + std::to_string(getpid()) + "_" + name) {}
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace alea::vm::testing

#endif  // ALEA_TESTS_VM_NATIVE_PROGRAM_H_
