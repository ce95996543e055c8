// The tensor natives (stdlib/tensors.cc), called from hand-built modules:
// argument decoding, results as `print` shows them, error messages, .npy
// round trips (and, when NumPy is installed, a cross-check against it), and
// that nothing leaks on any path.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tests/vm/test_util.h"
#include "vm/dtype.h"

namespace alea::vm {
namespace {

using testing::I;
using testing::ModuleBuilder;
using testing::RunModule;

// A value to build in a register: Int, Float, Bool, Str, an array of values,
// or a register an earlier call wrote.
struct V {
  enum class Kind { kInt, kFloat, kBool, kStr, kArray, kReg } kind = Kind::kInt;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<V> elems;
  bool refs = false;  // kArray: elements are references; kReg: holds one
};
V Make(V::Kind kind) {
  V v;
  v.kind = kind;
  return v;
}
V Int(int64_t i) {
  V v = Make(V::Kind::kInt);
  v.i = i;
  return v;
}
V Flt(double f) {
  V v = Make(V::Kind::kFloat);
  v.f = f;
  return v;
}
V Bool(bool b) {
  V v = Make(V::Kind::kBool);
  v.i = b;
  return v;
}
V Str(std::string s) {
  V v = Make(V::Kind::kStr);
  v.s = std::move(s);
  return v;
}
V Arr(std::vector<V> elems) {
  V v = Make(V::Kind::kArray);
  v.refs = !elems.empty() &&
           (elems[0].kind == V::Kind::kArray || elems[0].kind == V::Kind::kStr || elems[0].refs);
  v.elems = std::move(elems);
  return v;
}
V Reg(uint16_t reg, bool ref) {
  V v = Make(V::Kind::kReg);
  v.i = reg;
  v.refs = ref;
  return v;
}
V DT(DType d) { return Int(static_cast<int64_t>(d)); }

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
  std::string Run() {
    const uint16_t unit = Fresh(1);
    code_.push_back(IsBxLoad(unit, 0));
    code_.push_back(I(Op::RET, unit));
    auto r = RunModule(b.Build(b.Fn("main", {{}, b.Unit()}, next_, code_, refs_)));
    EXPECT_EQ(r.stats.heap_bytes_live, r.loaded_bytes);
    if (!r.status.ok()) return r.out + "error: " + r.error.message;
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

// `tensor(data)` printed, with `leaf` the data's innermost type and `depth`
// its array nesting.
std::string TensorOf(V data, TypeDesc::Kind leaf, int depth) {
  Program p;
  uint32_t t = p.b.Type(leaf);
  for (int d = 0; d < depth; ++d) t = p.b.Array(t);
  V x = p.Call("t_tensor", {std::move(data), Int(t)});
  p.Print(x, p.Tensor());
  V shape = p.Call("t_shape", {x});
  p.Print(shape, p.b.Array(p.b.Int()));
  return p.Run();
}

TEST(TensorNatives, Tensor) {
  using K = TypeDesc::Kind;
  EXPECT_EQ(TensorOf(Arr({Arr({Int(1), Int(2)}), Arr({Int(3), Int(-4)})}), K::kInt, 2),
            "[[ 1  2]\n [ 3 -4]]\n[2, 2]\n");
  EXPECT_EQ(TensorOf(Arr({Flt(0.5), Flt(0.1)}), K::kFloat, 1), "[0.5 0.1]\n[2]\n");
  EXPECT_EQ(TensorOf(Arr({Bool(true), Bool(false)}), K::kBool, 1), "[ True False]\n[2]\n");
  EXPECT_EQ(TensorOf(Flt(1.5), K::kFloat, 0), "1.5\n[]\n");
  EXPECT_EQ(TensorOf(Int(7), K::kInt, 0), "7\n[]\n");
  // Empty arrays: zero dimensions, down to the rank the type gives.
  EXPECT_EQ(TensorOf(Arr({}), K::kFloat, 1), "[]\n[0]\n");
  EXPECT_EQ(TensorOf(Arr({Arr({}), Arr({})}), K::kFloat, 2), "[]\n[2, 0]\n");
  EXPECT_EQ(TensorOf(Arr({}), K::kInt, 3), "[]\n[0, 0, 0]\n");
  // Errors.
  EXPECT_EQ(TensorOf(Arr({Arr({Int(1), Int(2)}), Arr({Int(3)})}), K::kInt, 2),
            "error: `tensor` of ragged arrays: lengths 2 and 1 at depth 1");
  EXPECT_EQ(TensorOf(Arr({Arr({}), Arr({Flt(1)})}), K::kFloat, 2),
            "error: `tensor` of ragged arrays: lengths 0 and 1 at depth 1");
  EXPECT_EQ(TensorOf(Arr({Int(1), Int(2147483648)}), K::kInt, 1),
            "error: `tensor`: 2147483648 does not fit in an i32");
  EXPECT_EQ(TensorOf(Int(-2147483649), K::kInt, 0),
            "error: `tensor`: -2147483649 does not fit in an i32");
  V deep = Flt(1);
  for (int d = 0; d < 33; ++d) deep = Arr({deep});
  const std::string out = TensorOf(deep, K::kFloat, 33);
  EXPECT_EQ(out.substr(0, 30), "error: invalid shape (1, 1, 1,") << out;
}

TEST(TensorNatives, FullArangeShapeLen) {
  Program p;
  const uint32_t ti = p.b.Int();
  p.Print(p.Call("t_full", {Arr({Int(2), Int(2)}), Int(3), DT(DType::kF32)}), p.Tensor());
  p.Print(p.Call("t_full", {Arr({Int(3)}), Int(-3), DT(DType::kI32)}), p.Tensor());
  p.Print(p.Call("t_full", {Arr({Int(2)}), Bool(true), DT(DType::kBool)}), p.Tensor());
  p.Print(p.Call("t_full_f", {Arr({}), Flt(0.25), DT(DType::kF32)}), p.Tensor());
  V r = p.Call("t_arange", {Int(2), Int(6), DT(DType::kU32)});
  p.Print(r, p.Tensor());
  p.Print(p.Call("t_len", {r}, false), ti);
  p.Print(p.Call("t_shape", {r}), p.b.Array(ti));
  EXPECT_EQ(p.Run(), "[[3. 3.]\n [3. 3.]]\n[-3 -3 -3]\n[ True  True]\n0.25\n[2 3 4 5]\n4\n[4]\n");

  auto error = [](const char* name, std::vector<V> args, bool ref = true) {
    Program q;
    q.Call(name, std::move(args), ref);
    return q.Run();
  };
  EXPECT_EQ(error("t_full", {Arr({Int(2)}), Int(4294967296), DT(DType::kU32)}),
            "error: 4294967296 does not fit in dtype u32");
  EXPECT_EQ(error("t_full", {Arr({Int(2)}), Int(-2147483649), DT(DType::kI32)}),
            "error: -2147483649 does not fit in dtype i32");
  EXPECT_EQ(error("t_full", {Arr({Int(2), Int(-1)}), Int(0), DT(DType::kF32)}),
            "error: invalid shape (2, -1)");
  EXPECT_EQ(error("t_arange", {Int(-1), Int(2), DT(DType::kU32)}),
            "error: -1 does not fit in dtype u32");
  EXPECT_EQ(error("t_full", {Arr({Int(2)}), Int(0), Int(9)}),
            "error: internal error: a tensor native got an unknown dtype");
  Program q;
  V x = q.Call("t_full_f", {Arr({}), Flt(1), DT(DType::kF32)});
  q.Call("t_len", {x}, false);
  EXPECT_EQ(q.Run(), "error: cannot take `len` of a 0-d tensor");
}

// item(x) of a one-element tensor of each dtype.
std::string Item(V data, TypeDesc::Kind leaf, int depth, DType cast_to, TypeDesc::Kind result) {
  Program p;
  uint32_t t = p.b.Type(leaf);
  for (int d = 0; d < depth; ++d) t = p.b.Array(t);
  V x = p.Call("t_tensor", {std::move(data), Int(t)});
  V y = p.Call("t_cast", {x, DT(cast_to)});
  p.Print(p.Call("t_item", {y}, false), p.b.Type(result));
  return p.Run();
}

TEST(TensorNatives, Item) {
  using K = TypeDesc::Kind;
  // f32 widens exactly: 0.1f is 0.100000001490116...
  EXPECT_EQ(Item(Flt(0.1), K::kFloat, 0, DType::kF32, K::kFloat), "0.10000000149011612\n");
  EXPECT_EQ(Item(Arr({Arr({Int(-5)})}), K::kInt, 2, DType::kI32, K::kInt), "-5\n");
  // u32 zero-extends: -1 wraps to 2^32 - 1 in the cast.
  EXPECT_EQ(Item(Arr({Int(-1)}), K::kInt, 1, DType::kU32, K::kInt), "4294967295\n");
  EXPECT_EQ(Item(Bool(true), K::kBool, 0, DType::kBool, K::kBool), "true\n");
  EXPECT_EQ(Item(Arr({Int(1), Int(2)}), K::kInt, 1, DType::kI32, K::kInt),
            "error: `item` of a tensor of shape (2,) (2 elements)");
  EXPECT_EQ(Item(Arr({}), K::kInt, 2, DType::kI32, K::kInt),
            "error: `item` of a tensor of shape (0, 0) (0 elements)");
}

TEST(TensorNatives, Layout) {
  Program p;
  const uint32_t tt = p.Tensor();
  V x = p.Call("t_arange", {Int(0), Int(6), DT(DType::kI32)});
  V m = p.Call("t_reshape", {x, Arr({Int(-1), Int(3)})});
  p.Print(m, tt);
  p.Print(p.Call("t_transpose", {m}), tt);
  p.Print(p.Call("t_index", {m, Int(1)}), tt);
  p.Print(p.Call("t_slice", {m, Int(1), Int(9)}), tt);
  p.Print(p.Call("t_concat", {Arr({m, m}), Int(-1)}), tt);
  p.Print(x, tt);  // the borrowed operand is untouched
  EXPECT_EQ(p.Run(),
            "[[0 1 2]\n [3 4 5]]\n[[0 3]\n [1 4]\n [2 5]]\n[3 4 5]\n[[3 4 5]]\n"
            "[[0 1 2 0 1 2]\n [3 4 5 3 4 5]]\n[0 1 2 3 4 5]\n");

  Program q;
  V y = q.Call("t_arange", {Int(0), Int(6), DT(DType::kI32)});
  q.Call("t_reshape", {y, Arr({Int(4), Int(-1)})});
  EXPECT_EQ(q.Run(), "error: cannot reshape a tensor of shape (6,) (6 elements) into (4, -1)");
  Program r;
  r.Call("t_concat", {Arr({}), Int(0)});
  EXPECT_EQ(r.Run(), "error: `concat` of an empty array of tensors");
}

TEST(TensorNatives, Compute) {
  Program p;
  const uint32_t tt = p.Tensor();
  const uint32_t tf = p.b.Type(TypeDesc::Kind::kFloat);
  V x = p.Call("t_tensor", {Arr({Arr({Flt(1), Flt(2)}), Arr({Flt(3), Flt(4)})}),
                            Int(p.b.Array(p.b.Array(tf)))});
  p.Print(p.Call("t_reduce", {x, Int(0)}), tt);  // sum
  p.Print(p.Call("t_reduce_axis", {x, Int(0), Int(1)}), tt);
  p.Print(p.Call("t_matmul", {x, x}), tt);
  V i = p.Call("t_cast", {x, DT(DType::kI32)});
  p.Print(i, tt);
  V mask = p.Call("t_tensor", {Arr({Bool(true), Bool(false)}), Int(p.b.Array(p.b.Bool()))});
  V zero = p.Call("t_full_f", {Arr({}), Flt(0), DT(DType::kF32)});
  p.Print(p.Call("t_where", {mask, x, zero}), tt);
  EXPECT_EQ(p.Run(),
            "10.0\n[3. 7.]\n[[ 7. 10.]\n [15. 22.]]\n[[1 2]\n [3 4]]\n[[1. 0.]\n [3. 0.]]\n");
  Program q;
  V y = q.Call("t_full_f", {Arr({Int(2)}), Flt(0), DT(DType::kF32)});
  q.Call("t_reduce", {y, Int(99)});
  EXPECT_EQ(q.Run(), "error: internal error: a tensor reduction got an unknown operation");
}

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

TEST(TensorNatives, NpyRoundTrip) {
  TempFile file("round_trip.npy");
  Program p;
  const uint32_t tt = p.Tensor();
  const uint32_t tf = p.b.Type(TypeDesc::Kind::kFloat);
  V x = p.Call("t_tensor", {Arr({Arr({Flt(1.5), Flt(-2)}), Arr({Flt(0.1), Flt(1e30)})}),
                            Int(p.b.Array(p.b.Array(tf)))});
  p.Call("t_save_npy", {Str(file.path()), x}, false);
  p.Print(p.Call("t_load_npy", {Str(file.path()), DT(DType::kF32)}), tt);
  p.Call("t_load_npy", {Str(file.path()), DT(DType::kI32)});
  EXPECT_EQ(p.Run(), "[[ 1.5e+00 -2.0e+00]\n [ 1.0e-01  1.0e+30]]\nerror: `load_npy`: `" +
                         file.path() + "` holds f32 elements, not i32");

  // Every dtype, and a 0-d and an empty tensor.
  Program q;
  const uint32_t qt = q.Tensor();
  V a = q.Call("t_arange", {Int(0), Int(6), DT(DType::kU32)});
  V b = q.Call("t_reshape", {a, Arr({Int(3), Int(2), Int(1)})});
  V m = q.Call("t_tensor", {Arr({Bool(false), Bool(true)}), Int(q.b.Array(q.b.Bool()))});
  V s = q.Call("t_full", {Arr({}), Int(-9), DT(DType::kI32)});
  V e = q.Call("t_full_f", {Arr({Int(0), Int(2)}), Flt(1), DT(DType::kF32)});
  const std::pair<V, DType> cases[] = {
      {b, DType::kU32}, {m, DType::kBool}, {s, DType::kI32}, {e, DType::kF32}};
  for (const auto& [t, dtype] : cases) {
    q.Call("t_save_npy", {Str(file.path()), t}, false);
    V back = q.Call("t_load_npy", {Str(file.path()), DT(dtype)});
    q.Print(back, qt);
    q.Print(q.Call("t_shape", {back}), q.b.Array(q.b.Int()));
  }
  EXPECT_EQ(q.Run(),
            "[[[0]\n  [1]]\n\n [[2]\n  [3]]\n\n [[4]\n  [5]]]\n[3, 2, 1]\n"
            "[False  True]\n[2]\n-9\n[]\n[]\n[0, 2]\n");
}

TEST(TensorNatives, NpyErrors) {
  TempFile missing("missing.npy");
  Program p;
  p.Call("t_load_npy", {Str(missing.path()), DT(DType::kF32)});
  const std::string out = p.Run();
  EXPECT_EQ(out.rfind("error: ", 0), 0u) << out;
  EXPECT_NE(out.find(missing.path()), std::string::npos) << out;

  Program q;
  V x = q.Call("t_full_f", {Arr({}), Flt(1), DT(DType::kF32)});
  q.Call("t_save_npy", {Str("/nonexistent-dir/x.npy"), x}, false);
  const std::string w = q.Run();
  EXPECT_EQ(w.rfind("error: ", 0), 0u) << w;
  EXPECT_NE(w.find("/nonexistent-dir/x.npy"), std::string::npos) << w;
}

// Optional: NumPy reads what save_npy writes, and load_npy reads what NumPy
// writes. CI installs python3-numpy; elsewhere the test skips.
TEST(TensorNatives, NpyAgainstNumPy) {
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no /usr/bin/python3 with numpy";
  }
  TempFile ours("ours.npy"), theirs("theirs.npy"), script("check.py");
  Program p;
  const uint32_t tf = p.b.Type(TypeDesc::Kind::kFloat);
  V x = p.Call("t_tensor",
               {Arr({Arr({Flt(0.1), Flt(-0.0), Flt(3)}), Arr({Flt(1e-40), Flt(7), Flt(2.5)})}),
                Int(p.b.Array(p.b.Array(tf)))});
  p.Call("t_save_npy", {Str(ours.path()), x}, false);
  ASSERT_EQ(p.Run(), "");
  // Our file must hold exactly np.save's bytes for the same array; then NumPy
  // writes a file for load_npy.
  std::ofstream(script.path()) << "import io, sys\n"
                                  "import numpy as np\n"
                                  "want = np.array([[0.1, -0.0, 3], [1e-40, 7, 2.5]], np.float32)\n"
                                  "buf = io.BytesIO()\n"
                                  "np.save(buf, want)\n"
                                  "if open(sys.argv[1], 'rb').read() != buf.getvalue():\n"
                                  "    sys.exit(1)\n"
                                  "np.save(sys.argv[2], np.arange(12, dtype=np.int32)"
                                  ".reshape(3, 4)[:, ::-1].copy())\n";
  const std::string command =
      "/usr/bin/python3 '" + script.path() + "' '" + ours.path() + "' '" + theirs.path() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  Program q;
  q.Print(q.Call("t_load_npy", {Str(theirs.path()), DT(DType::kI32)}), q.Tensor());
  EXPECT_EQ(q.Run(), "[[ 3  2  1  0]\n [ 7  6  5  4]\n [11 10  9  8]]\n");
}

}  // namespace
}  // namespace alea::vm
