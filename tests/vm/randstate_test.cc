// The random-state opcodes end to end: hand-assembled modules run by the VM,
// checked against JAX's values (tests/vm/data/random/), against direct calls
// of vm/random/ (the definition of every sampler), and for the use-once
// errors, their notes and locations, and leaks.
#include "vm/randstate.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/vm/random/vectors.h"
#include "tests/vm/test_util.h"
#include "vm/disassembler.h"
#include "vm/random/keys.h"
#include "vm/random/samplers.h"
#include "vm/tensor.h"

namespace alea::vm {
namespace {

using random::testing::AsKeys;
using random::testing::Numbers;
using random::testing::RoundedLike;
using testing::I;
using testing::IsBx;
using testing::ModuleBuilder;

constexpr char kPublished[] = "jax_published.txt";
constexpr char kDerived[] = "jax_derived.txt";

// ---- Test natives: a tensor's exact contents out, a host-made state in ----

struct Captured {
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  template <typename T>
  std::vector<T> As() const {
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
};

std::vector<Captured>& Captures() {
  static std::vector<Captured> captures;
  return captures;
}

absl::StatusOr<Value> NativeCapture(NativeContext&, const Value* args) {
  const Object* t = AsObject(args[0]);
  Captured c;
  c.dtype = DTypeOf(t);
  c.shape.assign(ShapeOf(t).begin(), ShapeOf(t).end());
  const auto* data = static_cast<const uint8_t*>(DataOf(t));
  c.bytes.assign(data, data + SizeOf(t) * ElementBytes(c.dtype));
  Captures().push_back(std::move(c));
  return Value{0};
}

// host_state(k0, k1, n): a state as an embedding host makes one (no site).
absl::StatusOr<Value> NativeHostState(NativeContext& ctx, const Value* args) {
  const random::RandState s{
      {static_cast<uint32_t>(AsInt(args[0])), static_cast<uint32_t>(AsInt(args[1]))},
      static_cast<uint32_t>(AsInt(args[2]))};
  Object* o = ctx.heap().NewRandState(s);
  if (o == nullptr) return ctx.OutOfMemory();
  return FromObject(o);
}

const NativeEntry kTestNatives[] = {
    {.name = "test_capture", .arity = 1, .fn = NativeCapture, .signature = "(Tensor(_)) -> Unit"},
    {.name = "test_host_state",
     .arity = 3,
     .fn = NativeHostState,
     .signature = "(Int, Int, Int) -> RandState"},
};

struct Outcome {
  absl::Status status;
  std::string out;
  RuntimeError error;
  std::vector<Captured> captures;
  uint64_t heap_bytes_live = 0;
};

// Builds main() instruction by instruction. Registers are allocated upward;
// every reference register is left for RET to release (vm/README.md: RET
// releases the frame's remaining references), so the tests need no RELEASE.
class Program {
 public:
  ModuleBuilder b;

  uint32_t StateType() { return b.Type(TypeDesc::Kind::kRandState); }
  uint32_t TensorType() { return b.Type(TypeDesc::Kind::kTensor); }

  size_t pc() const { return code_.size(); }
  void Emit(Instr in) { code_.push_back(in); }

  uint16_t Reg(bool ref) {
    const uint16_t r = next_++;
    is_ref_.push_back(ref);
    if (ref) refs_.push_back(r);
    return r;
  }
  uint16_t Int(int64_t v) {
    const uint16_t r = Reg(false);
    Emit(I(Op::LOADK, r, b.K(v)));
    return r;
  }
  uint16_t Float(double d) {
    const uint16_t r = Reg(false);
    Emit(I(Op::LOADK, r, b.KF(d)));
    return r;
  }
  uint16_t Key(int64_t seed) { return Op2(Op::KEY, Int(seed)); }
  uint16_t HostState(uint32_t k0, uint32_t k1, uint32_t n) {
    const uint16_t base = Reg(false);
    Int(k0);
    Int(k1);
    Int(n);
    const uint16_t r = Reg(true);
    Emit(I(Op::CALLN, base, b.N("test_host_state"), 3));
    Emit(I(Op::MOVE, r, base, 0, 1));
    return r;
  }
  uint16_t Shape(const std::vector<int64_t>& dims) {
    const uint16_t base = next_;
    for (int64_t d : dims) Int(d);
    const uint16_t r = Reg(true);
    Emit(I(Op::ARRAY, r, base, static_cast<uint16_t>(dims.size()), 0));
    return r;
  }
  // R(new) = op(R(b), R(c)): KEY SPLIT SPLITN FOLDIN NEXT SITE.
  uint16_t Op2(Op op, uint16_t rb, uint16_t c = 0) {
    const uint16_t r = Reg(true);
    Emit(I(op, r, rb, c));
    return r;
  }
  // The state of site c of the ambient stream R(s), as the compiler makes
  // one: the stream's words (PEEK), the site's (SITE), and a box of them.
  // Without `box`, the SITE is the last instruction (and its pair returned).
  uint16_t Site(uint16_t s, uint16_t c, bool box = true) {
    const uint16_t stream = Reg(false);
    Reg(false);
    Emit(I(Op::PEEK, stream, s));
    const uint16_t site = Reg(false);
    Reg(false);
    Emit(I(Op::SITE, site, stream, c));
    if (!box) return site;
    const uint16_t r = Reg(true);
    Emit(I(Op::BOX, r, site, static_cast<uint16_t>(Op::SITE)));
    return r;
  }
  uint16_t Field(uint16_t tuple, uint16_t i) {
    const uint16_t r = Reg(true);
    Emit(I(Op::FIELD, r, tuple, i));
    return r;
  }
  uint16_t Index(uint16_t arr, int64_t i) {
    const uint16_t ri = Int(i);
    const uint16_t r = Reg(true);
    Emit(I(Op::INDEX, r, arr, ri));
    return r;
  }
  // A sampler on a window of copies of `args` (the state first): references
  // are retained copies, so the original register still holds the object.
  uint16_t Sample(Op op, std::vector<uint16_t> args) {
    const uint16_t base = next_;
    for (uint16_t a : args) {
      const bool ref = is_ref_[a];
      const uint16_t w = Reg(ref);
      Emit(ref ? I(Op::COPY, w, a) : I(Op::MOVE, w, a));
    }
    const uint16_t r = Reg(true);
    Emit(I(op, r, base, static_cast<uint16_t>(args.size())));
    return r;
  }
  void Consume(uint16_t s) { Emit(I(Op::CONSUME, s)); }
  void Print(uint16_t r, uint32_t type) { Emit(I(Op::PRINT, r, type)); }
  void Capture(uint16_t t) {
    const uint16_t base = Reg(false);
    const uint16_t arg = Reg(true);  // a retained copy, which RET releases
    Emit(I(Op::COPY, arg, t));
    Emit(I(Op::CALLN, base, b.N("test_capture"), 1));
  }

  Module Build() {
    const uint16_t unit = Reg(false);
    std::vector<Instr> code = code_;
    code.push_back(IsBx(Op::LOADI, unit, 0));
    code.push_back(I(Op::RET, unit));
    return b.Build(b.Fn("main", {{}, b.Unit()}, next_, std::move(code), refs_));
  }

  Outcome Run(Limits limits = {}) {
    const Module m = Build();
    Outcome o;
    Captures().clear();
    Vm vm(limits);
    vm.AddNatives(stdlib::Natives());
    vm.AddNatives(kTestNatives);
    vm.SetOutput([&o](absl::string_view s) { o.out.append(s.data(), s.size()); });
    o.status = vm.Load(m);
    if (!o.status.ok()) return o;
    o.status = vm.RunMain({});
    if (const RuntimeError* e = vm.last_error()) o.error = *e;
    o.captures = Captures();
    o.heap_bytes_live = vm.stats().heap_bytes_live;
    return o;
  }

 private:
  std::vector<Instr> code_;
  std::vector<uint16_t> refs_;
  std::vector<bool> is_ref_;
  uint16_t next_ = 0;
};

// Runs and expects success without leaks.
Outcome RunOk(Program& p, Limits limits = {}) {
  Outcome o = p.Run(limits);
  EXPECT_TRUE(o.status.ok()) << o.status << " " << o.error.message;
  EXPECT_EQ(o.heap_bytes_live, 0u);
  return o;
}

// Runs and expects a run-time error (and still no leak: unwinding releases).
Outcome RunErr(Program& p, Limits limits = {}) {
  Outcome o = p.Run(limits);
  EXPECT_FALSE(o.status.ok());
  EXPECT_EQ(o.heap_bytes_live, 0u);
  return o;
}

std::string StateText(random::Key k, uint32_t n = 0) {
  return absl::StrCat("RandState(", k.k0, ", ", k.k1, ", ", n, ")");
}

std::vector<random::Key> Keys(const char* file, const char* line, const char* after = " = ") {
  return AsKeys(Numbers(file, line, after));
}

// The line (and column) ModuleBuilder gives main's instruction at `pc`.
uint32_t LineOf(size_t pc) { return static_cast<uint32_t>(pc) + 1; }

// ---- Keys and derivations ----

TEST(RandStateOps, KeyPrintsUnsignedWords) {
  Program p;
  p.Print(p.Key(42), p.StateType());
  p.Print(p.Key(-1), p.StateType());
  p.Print(p.Key(int64_t{0x123456789}), p.StateType());
  EXPECT_EQ(
      RunOk(p).out,
      "RandState(0, 42, 0)\nRandState(4294967295, 4294967295, 0)\nRandState(1, 591751049, 0)\n");
}

TEST(RandStateOps, StrAndPrintDoNotConsume) {
  Program p;
  const uint16_t s = p.Key(7);
  const uint16_t str = p.Reg(true);
  p.Emit(I(Op::STR, str, s, p.StateType()));
  p.Print(str, p.b.Str());
  p.Print(s, p.StateType());
  p.Print(p.Op2(Op::SPLIT, s), p.b.Tuple({p.StateType(), p.StateType()}));
  const Outcome o = RunOk(p);
  const auto [s1, s2] = random::Split(random::KeyFromSeed(7));
  EXPECT_EQ(o.out, absl::StrCat("RandState(0, 7, 0)\nRandState(0, 7, 0)\n(", StateText(s1.key),
                                ", ", StateText(s2.key), ")\n"));
}

TEST(RandStateOps, SplitMatchesJax) {
  Program p;
  const uint16_t t = p.Op2(Op::SPLIT, p.Key(0));
  p.Print(t, p.b.Tuple({p.StateType(), p.StateType()}));
  const std::vector<random::Key> want = Keys(kDerived, "P=True  split(PRNGKey(0), 2)");
  ASSERT_EQ(want.size(), 2u);
  EXPECT_EQ(RunOk(p).out, absl::StrCat("(", StateText(want[0]), ", ", StateText(want[1]), ")\n"));
}

TEST(RandStateOps, SplitNMatchesJax) {
  Program p;
  const uint16_t arr = p.Op2(Op::SPLITN, p.Key(0), p.Int(3));
  p.Print(arr, p.b.Array(p.StateType()));
  p.Print(p.Op2(Op::SPLITN, p.Key(0), p.Int(0)), p.b.Array(p.StateType()));
  const std::vector<random::Key> want = Keys(kDerived, "P=True  split(PRNGKey(0), 3)");
  ASSERT_EQ(want.size(), 3u);
  EXPECT_EQ(RunOk(p).out, absl::StrCat("[", StateText(want[0]), ", ", StateText(want[1]), ", ",
                                       StateText(want[2]), "]\n[]\n"));
}

TEST(RandStateOps, FoldInMatchesJax) {
  const std::vector<random::Key> want = Keys(kDerived, "fold_in(PRNGKey(42), 0..2)");
  ASSERT_EQ(want.size(), 3u);
  for (int d = 0; d < 3; ++d) {
    Program p;
    p.Print(p.Op2(Op::FOLDIN, p.Key(42), p.Int(d)), p.StateType());
    EXPECT_EQ(RunOk(p).out, StateText(want[d]) + "\n");
  }
  Program p;  // the top of the range is fine
  p.Print(p.Op2(Op::FOLDIN, p.Key(42), p.Int(4294967295)), p.StateType());
  EXPECT_EQ(RunOk(p).out, StateText(random::FoldInKey(random::Key{0, 42}, 4294967295u)) + "\n");
}

// JAX's stateful_rng draws its i-th key as fold_in(key, i): exactly the subs
// of successive `next`s.
TEST(RandStateOps, NextIsJaxStatefulStream) {
  Program p;
  uint16_t s = p.Key(42);
  const uint32_t st = p.StateType();
  std::vector<uint16_t> subs;
  for (int i = 0; i < 6; ++i) {
    const uint16_t t = p.Op2(Op::NEXT, s);
    subs.push_back(p.Field(t, 0));
    s = p.Field(t, 1);
  }
  p.Print(s, st);
  // The first two draws are scalar uniforms; keys 4 and 5 are published.
  const uint16_t scalar = p.Shape({});
  const uint16_t lo = p.Float(0.0), hi = p.Float(1.0);
  for (int i = 0; i < 2; ++i) p.Capture(p.Sample(Op::UNIFORM, {subs[i], scalar, lo, hi}));
  p.Print(subs[4], st);
  p.Print(subs[5], st);
  const Outcome o = RunOk(p);
  const std::vector<random::Key> keys = Keys(kPublished, "then key() x2");
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(o.out, absl::StrCat("RandState(0, 42, 6)\n", StateText(keys[0]), "\n",
                                StateText(keys[1]), "\n"));
  const std::vector<std::string> u = Numbers(kPublished, "stateful_rng(42): uniform() x2");
  ASSERT_EQ(u.size(), 2u);
  ASSERT_EQ(o.captures.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(o.captures[i].shape.empty());
    ASSERT_EQ(o.captures[i].As<float>().size(), 1u);
    EXPECT_EQ(RoundedLike(o.captures[i].As<float>()[0], u[i]), u[i]);
  }
}

TEST(RandStateOps, NextFromKeyZeroMatchesPublished) {
  Program p;
  const uint16_t t0 = p.Op2(Op::NEXT, p.Key(0));
  const uint16_t t1 = p.Op2(Op::NEXT, p.Field(t0, 1));
  p.Print(p.Field(t0, 0), p.StateType());
  p.Print(p.Field(t1, 0), p.StateType());
  const std::vector<random::Key> want = Keys(kPublished, "stateful_rng(0).key() x2", " -> ");
  ASSERT_EQ(want.size(), 2u);
  EXPECT_EQ(RunOk(p).out, StateText(want[0]) + "\n" + StateText(want[1]) + "\n");
}

// A counter-n state acts as fold_in(k, n) in every operation but next.
TEST(RandStateOps, AdvancedStateActsAsItsFoldIn) {
  Program p;
  const uint16_t t = p.Op2(Op::NEXT, p.Op2(Op::FIELD, p.Op2(Op::NEXT, p.Key(5)), 1));
  const uint16_t s2 = p.Field(t, 1);  // (key(5), 2)
  p.Print(s2, p.StateType());
  p.Print(p.Op2(Op::SPLIT, s2), p.b.Tuple({p.StateType(), p.StateType()}));
  const random::Key k = random::FoldInKey(random::Key{0, 5}, 2);
  EXPECT_EQ(RunOk(p).out, absl::StrCat("RandState(0, 5, 2)\n(", StateText(random::SplitKey(k, 0)),
                                       ", ", StateText(random::SplitKey(k, 1)), ")\n"));
}

TEST(RandStateOps, SplitUniformMatchesDocstring) {
  Program p;
  const uint16_t t = p.Op2(Op::SPLIT, p.Key(0));
  const uint16_t scalar = p.Shape({});
  const uint16_t lo = p.Float(0.0), hi = p.Float(1.0);
  p.Capture(p.Sample(Op::UNIFORM, {p.Field(t, 1), scalar, lo, hi}));
  p.Capture(p.Sample(Op::UNIFORM, {p.Key(0), scalar, lo, hi}));
  const Outcome o = RunOk(p);
  ASSERT_EQ(o.captures.size(), 2u);
  const std::vector<std::string> sub = Numbers(kPublished, "key, subkey = split(key(0))");
  const std::vector<std::string> whole = Numbers(kPublished, "uniform(key(0))");
  ASSERT_EQ(sub.size(), 1u);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(RoundedLike(o.captures[0].As<float>()[0], sub[0]), sub[0]);
  EXPECT_EQ(RoundedLike(o.captures[1].As<float>()[0], whole[0]), whole[0]);
}

// SITE c of an ambient (k, n) is fold_in(k, n + c) at counter 0, and it only
// reads: the ambient state stays unconsumed (CONSUME then takes it).
TEST(RandStateOps, SiteFoldsTheCounterAndBorrows) {
  Program p;
  const uint16_t s = p.Key(3);
  p.Print(p.Site(s, 0), p.StateType());
  p.Print(p.Site(s, 2), p.StateType());
  p.Print(p.Site(s, 2), p.StateType());                      // the same site twice: allowed
  const uint16_t advanced = p.Field(p.Op2(Op::NEXT, s), 1);  // s is still unconsumed
  p.Print(p.Site(advanced, 1), p.StateType());
  p.Consume(advanced);
  p.Print(p.Site(advanced, 65535), p.StateType());  // after `with`: still fine
  const random::Key k{0, 3};
  const std::string site2 = StateText(random::FoldInKey(k, 2)) + "\n";
  // Site 1 of (k, 1) is the second `next` of the stream: fold_in(k, 2).
  EXPECT_EQ(RunOk(p).out, StateText(random::FoldInKey(k, 0)) + "\n" + site2 + site2 + site2 +
                              StateText(random::FoldInKey(k, 65536)) + "\n");
}

// ---- Samplers: the opcodes equal direct calls of vm/random/samplers.h ----

// 0-d (one element), empty along one axis, and ordinary shapes.
const std::vector<std::vector<int64_t>> kShapes = {{2, 3}, {}, {0}, {3, 0, 2}, {7}};

TEST(RandStateSamplers, ElementwiseEqualDirectCalls) {
  for (const std::vector<int64_t>& dims : kShapes) {
    Program p;
    const uint16_t shape = p.Shape(dims);
    const uint16_t lo = p.Float(-2.5), hi = p.Float(4.0), pf = p.Float(0.3);
    const uint16_t ilo = p.Int(-5), ihi = p.Int(17);
    p.Capture(p.Sample(Op::BITS, {p.Key(1), shape}));
    p.Capture(p.Sample(Op::UNIFORM, {p.Key(2), shape, lo, hi}));
    p.Capture(p.Sample(Op::NORMAL, {p.Key(3), shape}));
    p.Capture(p.Sample(Op::BERNOULLI, {p.Key(4), pf, shape}));
    p.Capture(p.Sample(Op::RANDINT, {p.Key(5), shape, ilo, ihi}));
    p.Capture(p.Sample(Op::EXPONENTIAL, {p.Key(6), shape}));
    // A counter-1 state samples with its effective key fold_in(k, 1).
    p.Capture(p.Sample(Op::BITS, {p.Field(p.Op2(Op::NEXT, p.Key(1)), 1), shape}));
    const Outcome o = RunOk(p);
    ASSERT_EQ(o.captures.size(), 7u);
    const uint64_t n = ElementCount(DType::kF32, dims);
    auto key = [](int64_t seed) { return random::KeyFromSeed(seed).key; };
    std::vector<uint32_t> bits(n), bits1(n);
    std::vector<float> uni(n), nor(n), expo(n);
    std::vector<uint8_t> ber(n);
    std::vector<int32_t> ri(n);
    random::Bits(key(1), 0, n, bits.data());
    random::Uniform(key(2), 0, n, -2.5f, 4.0f, uni.data());
    random::Normal(key(3), 0, n, nor.data());
    random::Bernoulli(key(4), 0.3f, 0, n, ber.data());
    random::RandInt(key(5), -5, 17, 0, n, ri.data());
    random::Exponential(key(6), 0, n, expo.data());
    random::Bits(random::FoldInKey(key(1), 1), 0, n, bits1.data());
    const DType dtypes[] = {DType::kU32, DType::kF32, DType::kF32, DType::kBool,
                            DType::kI32, DType::kF32, DType::kU32};
    for (int i = 0; i < 7; ++i) {
      EXPECT_EQ(o.captures[i].shape, dims) << i;
      EXPECT_EQ(o.captures[i].dtype, dtypes[i]) << i;
    }
    EXPECT_EQ(o.captures[0].As<uint32_t>(), bits);
    EXPECT_EQ(o.captures[1].As<float>(), uni);
    EXPECT_EQ(o.captures[2].As<float>(), nor);
    EXPECT_EQ(o.captures[3].As<uint8_t>(), ber);
    EXPECT_EQ(o.captures[4].As<int32_t>(), ri);
    EXPECT_EQ(o.captures[5].As<float>(), expo);
    EXPECT_EQ(o.captures[6].As<uint32_t>(), bits1);
  }
}

TEST(RandStateSamplers, BitsAndUniformMatchJax) {
  Program p;
  p.Capture(p.Sample(Op::BITS, {p.Key(1701), p.Shape({3})}));
  p.Capture(p.Sample(Op::BITS, {p.Key(0), p.Shape({4})}));
  p.Capture(p.Sample(Op::UNIFORM, {p.Key(0), p.Shape({5}), p.Float(0.0), p.Float(1.0)}));
  const Outcome o = RunOk(p);
  ASSERT_EQ(o.captures.size(), 3u);
  EXPECT_EQ(o.captures[0].As<uint32_t>(),
            random::testing::AsU32(Numbers(kDerived, "P=True  bits(key(1701), (3,), uint32)")));
  EXPECT_EQ(o.captures[1].As<uint32_t>(),
            random::testing::AsU32(Numbers(kDerived, "P=True  bits(key(0), (4,), uint32)")));
  const std::vector<std::string> u = Numbers(kDerived, "P=True  uniform(key(0), (5,))");
  const std::vector<float> got = o.captures[2].As<float>();
  ASSERT_EQ(got.size(), u.size());
  for (size_t i = 0; i < u.size(); ++i) EXPECT_EQ(RoundedLike(got[i], u[i]), u[i]);
}

// Categorical and dropout take tensors: normal draws serve as their inputs.
TEST(RandStateSamplers, TensorInputsEqualDirectCalls) {
  const std::vector<std::vector<int64_t>> shapes = {{2, 5}, {4}, {3, 0, 2}, {}, {0}, {1, 1}};
  for (const std::vector<int64_t>& shape : shapes) {
    Program p;
    const uint16_t x = p.Sample(Op::NORMAL, {p.Key(11), p.Shape(shape)});
    const uint64_t n = ElementCount(DType::kF32, shape);
    std::vector<float> xs(n);
    random::Normal(random::Key{0, 11}, 0, n, xs.data());
    const bool has_classes = !shape.empty() && shape.back() > 0;
    if (has_classes) p.Capture(p.Sample(Op::CATEGORICAL, {p.Key(12), x}));
    p.Capture(p.Sample(Op::DROPOUT, {p.Key(13), x, p.Float(0.25)}));
    const Outcome o = RunOk(p);
    ASSERT_EQ(o.captures.size(), has_classes ? 2u : 1u);
    const Captured& drop = o.captures.back();
    std::vector<float> want_drop(n);
    random::Dropout(random::Key{0, 13}, 0.25, xs.data(), 0, n, want_drop.data());
    EXPECT_EQ(drop.shape, shape);
    EXPECT_EQ(drop.As<float>(), want_drop);
    if (has_classes) {
      const uint64_t classes = static_cast<uint64_t>(shape.back());
      std::vector<int32_t> want(n / classes);
      random::Categorical(random::Key{0, 12}, xs.data(), classes, 0, want.size(), want.data());
      EXPECT_EQ(o.captures[0].shape, std::vector<int64_t>(shape.begin(), shape.end() - 1));
      EXPECT_EQ(o.captures[0].dtype, DType::kI32);
      EXPECT_EQ(o.captures[0].As<int32_t>(), want);
    }
  }
}

TEST(RandStateSamplers, PermutationEqualsDirectCall) {
  for (int64_t n : {0, 1, 2, 10, 2000}) {
    Program p;
    p.Capture(p.Sample(Op::PERMUTATION, {p.Key(9), p.Int(n)}));
    const Outcome o = RunOk(p);
    ASSERT_EQ(o.captures.size(), 1u);
    std::vector<int32_t> want(n);
    std::vector<uint64_t> scratch(n);
    random::Permutation(random::Key{0, 9}, n, want.data(), scratch.data());
    EXPECT_EQ(o.captures[0].shape, std::vector<int64_t>{n});
    EXPECT_EQ(o.captures[0].As<int32_t>(), want);
  }
}

// The sort's rows (8 bytes an element) are heap scratch beside the result
// (4 bytes): the budget bounds them.
TEST(RandStateSamplers, PermutationScratchWithinTheBudget) {
  constexpr int64_t kN = 1000000;
  Limits limits;
  limits.max_heap_bytes = 8 << 20;
  Program p;
  p.Sample(Op::PERMUTATION, {p.Key(9), p.Int(kN)});
  const Outcome o = RunErr(p, limits);
  EXPECT_EQ(o.error.message, "out of memory budget");
  limits.max_heap_bytes = 16 << 20;
  Program q;
  q.Sample(Op::PERMUTATION, {q.Key(9), q.Int(kN)});
  RunOk(q, limits);
}

// ---- Use-once at run time ----

TEST(RandStateReuse, ThroughAnArrayElement) {
  Program p;
  const uint16_t arr = p.Op2(Op::SPLITN, p.Key(0), p.Int(2));
  const size_t created = p.pc() - 1;
  const uint16_t e1 = p.Index(arr, 1);
  const uint16_t e2 = p.Index(arr, 1);  // the same object again
  const uint16_t shape = p.Shape({2});
  const uint16_t lo = p.Float(0.0), hi = p.Float(1.0);
  p.Sample(Op::UNIFORM, {e1, shape, lo, hi});
  const size_t first = p.pc() - 1;
  p.Sample(Op::NORMAL, {e2, shape});
  const size_t second = p.pc() - 1;
  const Outcome o = RunErr(p);
  EXPECT_EQ(o.error.id, RuntimeErrorId::kStateReused);
  EXPECT_EQ(o.error.message, "a RandState is used twice");
  EXPECT_EQ(o.error.help, "split it first: `let (s1, s2) = split(s);`");
  EXPECT_EQ(o.error.location.line, LineOf(second));
  ASSERT_EQ(o.error.notes.size(), 2u);
  EXPECT_EQ(o.error.notes[0].first.line, LineOf(created));
  EXPECT_EQ(o.error.notes[0].second, "the state was created here by `split_n`");
  EXPECT_EQ(o.error.notes[1].first.line, LineOf(first));
  EXPECT_EQ(o.error.notes[1].first.column, LineOf(first));
  EXPECT_EQ(o.error.notes[1].second, "first consumed here by `uniform`");
}

TEST(RandStateReuse, EveryConsumingOpcodeChecks) {
  struct Case {
    Op op;
    const char* name;
  } cases[] = {{Op::SPLIT, "split"},
               {Op::SPLITN, "split_n"},
               {Op::FOLDIN, "fold_in"},
               {Op::NEXT, "next"},
               {Op::CONSUME, "with"},
               {Op::BITS, "bits"},
               {Op::UNIFORM, "uniform"},
               {Op::NORMAL, "normal"},
               {Op::BERNOULLI, "bernoulli"},
               {Op::RANDINT, "randint"},
               {Op::EXPONENTIAL, "exponential"},
               {Op::CATEGORICAL, "categorical"},
               {Op::PERMUTATION, "permutation"},
               {Op::DROPOUT, "dropout"},
               {Op::UNBOX, "uniform"}};
  for (const Case& c : cases) {
    Program p;
    const uint16_t s = p.Key(1);
    const size_t created = p.pc() - 1;
    const uint16_t shape = p.Shape({2});
    const uint16_t f = p.Float(0.5), lo = p.Int(0), hi = p.Int(4), n = p.Int(3);
    const uint16_t x = p.Sample(Op::NORMAL, {p.Key(2), shape});
    size_t first = 0;
    for (int use = 0; use < 2; ++use) {
      switch (c.op) {
        case Op::SPLIT:
        case Op::NEXT:
          p.Op2(c.op, s);
          break;
        case Op::SPLITN:
        case Op::FOLDIN:
          p.Op2(c.op, s, n);
          break;
        case Op::CONSUME:
          p.Consume(s);
          break;
        case Op::UNIFORM:
          p.Sample(c.op, {s, shape, f, f});
          break;
        case Op::BERNOULLI:
          p.Sample(c.op, {s, f, shape});
          break;
        case Op::RANDINT:
          p.Sample(c.op, {s, shape, lo, hi});
          break;
        case Op::UNBOX: {  // the words of a box, for a scalar draw (named in the note)
          const uint16_t words = p.Reg(false);
          p.Reg(false);
          p.Emit(I(Op::UNBOX, words, s, static_cast<uint16_t>(Op::UNIFORM_S)));
          break;
        }
        case Op::CATEGORICAL:
          p.Sample(c.op, {s, x});
          break;
        case Op::PERMUTATION:
          p.Sample(c.op, {s, n});
          break;
        case Op::DROPOUT:
          p.Sample(c.op, {s, x, f});
          break;
        default:
          p.Sample(c.op, {s, shape});
          break;
      }
      if (use == 0) first = p.pc() - 1;
    }
    const size_t second = p.pc() - 1;
    const Outcome o = RunErr(p);
    EXPECT_EQ(o.error.message, "a RandState is used twice") << c.name;
    EXPECT_EQ(o.error.location.line, LineOf(second)) << c.name;
    ASSERT_EQ(o.error.notes.size(), 2u) << c.name;
    EXPECT_EQ(o.error.notes[0].first.line, LineOf(created));
    EXPECT_EQ(o.error.notes[0].second, "the state was created here by `key`");
    EXPECT_EQ(o.error.notes[1].first.line, LineOf(first)) << c.name;
    EXPECT_EQ(o.error.notes[1].second, absl::StrCat("first consumed here by `", c.name, "`"));
  }
}

TEST(RandStateReuse, CreatorNames) {
  // Each creating opcode names itself in the note; SITE is the ambient stream.
  struct Case {
    const char* note;
    int which;
  } cases[] = {{"the state was created here by `split`", 0},
               {"the state was created here by `next`", 1},
               {"the state was created here by `fold_in`", 2},
               {"the state was created here by the ambient random stream", 3}};
  for (const Case& c : cases) {
    Program p;
    const uint16_t k = p.Key(1);
    uint16_t s = 0;
    switch (c.which) {
      case 0:
        s = p.Field(p.Op2(Op::SPLIT, k), 0);
        break;
      case 1:
        s = p.Field(p.Op2(Op::NEXT, k), 1);
        break;
      case 2:
        s = p.Op2(Op::FOLDIN, k, p.Int(5));
        break;
      default:
        s = p.Site(k, 4);
        break;
    }
    const size_t created = c.which == 2 || c.which == 3 ? p.pc() - 1 : p.pc() - 2;
    p.Consume(s);
    p.Consume(s);
    const Outcome o = RunErr(p);
    ASSERT_EQ(o.error.notes.size(), 2u) << c.note;
    EXPECT_EQ(o.error.notes[0].second, c.note);
    EXPECT_EQ(o.error.notes[0].first.line, LineOf(created)) << c.note;
    EXPECT_EQ(o.error.notes[1].second, "first consumed here by `with`");
  }
}

TEST(RandStateReuse, HostStateHasNoCreationNote) {
  Program p;
  const uint16_t s = p.HostState(1, 2, 0);
  p.Print(s, p.StateType());
  const uint16_t shape = p.Shape({1});
  p.Sample(Op::BITS, {s, shape});
  const size_t first = p.pc() - 1;
  p.Sample(Op::BITS, {s, shape});
  const Outcome o = RunErr(p);
  EXPECT_EQ(o.out, "RandState(1, 2, 0)\n");
  EXPECT_EQ(o.error.message, "a RandState is used twice");
  ASSERT_EQ(o.error.notes.size(), 1u);
  EXPECT_EQ(o.error.notes[0].second, "first consumed here by `bits`");
  EXPECT_EQ(o.error.notes[0].first.line, LineOf(first));
}

TEST(RandStateReuse, ConsumeOnceIsFine) {
  Program p;
  const uint16_t s = p.Key(1);
  p.Consume(s);
  p.Print(s, p.StateType());  // printing a consumed state is fine too
  EXPECT_EQ(RunOk(p).out, "RandState(0, 1, 0)\n");
}

// ---- Errors for bad arguments ----

TEST(RandStateErrors, BadArguments) {
  struct Case {
    std::string message;
    std::function<void(Program&)> body;
  };
  const std::vector<Case> cases = {
      {"`fold_in` data -1 is out of range",
       [](Program& p) { p.Op2(Op::FOLDIN, p.Key(1), p.Int(-1)); }},
      {"`fold_in` data 4294967296 is out of range",
       [](Program& p) { p.Op2(Op::FOLDIN, p.Key(1), p.Int(4294967296)); }},
      {"`split_n` of a negative count (-3)",
       [](Program& p) { p.Op2(Op::SPLITN, p.Key(1), p.Int(-3)); }},
      {"`permutation` of -1 is out of range",
       [](Program& p) {
         p.Sample(Op::PERMUTATION, {p.Key(1), p.Int(-1)});
       }},
      {"`permutation` of 2147483648 is out of range",
       [](Program& p) {
         p.Sample(Op::PERMUTATION, {p.Key(1), p.Int(2147483648)});
       }},
      {"`categorical` of a 0-d tensor",
       [](Program& p) {
         p.Sample(Op::CATEGORICAL, {p.Key(1), p.Sample(Op::NORMAL, {p.Key(2), p.Shape({})})});
       }},
      {"`categorical` over an empty last axis (shape (2, 0))",
       [](Program& p) {
         p.Sample(Op::CATEGORICAL, {p.Key(1), p.Sample(Op::NORMAL, {p.Key(2), p.Shape({2, 0})})});
       }},
      {"invalid shape (2, -1)",
       [](Program& p) {
         p.Sample(Op::UNIFORM, {p.Key(1), p.Shape({2, -1}), p.Float(0.0), p.Float(1.0)});
       }},
      {"invalid shape (1099511627776, 1099511627776)",
       [](Program& p) {
         p.Sample(Op::BITS, {p.Key(1), p.Shape({1LL << 40, 1LL << 40})});
       }},
      {"random stream exhausted: `next` of a state at counter 4294967295",
       [](Program& p) { p.Op2(Op::NEXT, p.HostState(1, 2, 4294967295u)); }},
      {"random stream exhausted: site 2 of an ambient state at counter 4294967294 is past counter "
       "4294967295",
       [](Program& p) { p.Site(p.HostState(1, 2, 4294967294u), 2, false); }},
  };
  for (const Case& c : cases) {
    Program p;
    c.body(p);
    const size_t failing = p.pc() - 1;
    const Outcome o = RunErr(p);
    EXPECT_EQ(o.error.message, c.message);
    EXPECT_EQ(o.error.location.line, LineOf(failing)) << c.message;
  }
  // A sampler given the wrong number of arguments is refused at load.
  Program p;
  p.Sample(Op::UNIFORM, {p.Key(1), p.Shape({1})});
  const Outcome o = p.Run();
  EXPECT_EQ(o.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(o.status.message()),
            absl::StrCat("malformed module: function 0 `main` pc ", p.pc() - 1,
                         ": UNIFORM reads 2 registers; it takes 4"));
}

TEST(RandStateErrors, EdgesThatAreFine) {
  Program p;
  // The last `next` that a stream has, and site 1 of counter 2^32 - 2.
  p.Print(p.Field(p.Op2(Op::NEXT, p.HostState(1, 2, 4294967294u)), 1), p.StateType());
  p.Print(p.Site(p.HostState(1, 2, 4294967294u), 1), p.StateType());
  p.Capture(p.Sample(Op::PERMUTATION, {p.Key(1), p.Int(0)}));
  EXPECT_EQ(RunOk(p).out,
            absl::StrCat("RandState(1, 2, 4294967295)\n",
                         StateText(random::FoldInKey(random::Key{1, 2}, 4294967295u)), "\n"));
}

TEST(RandStateErrors, OutOfMemoryBudgetLeaksNothing) {
  Limits limits;
  limits.max_heap_bytes = 4096;
  Program p;
  p.Op2(Op::SPLITN, p.Key(1), p.Int(100));  // the array fits, its states do not
  const Outcome o = RunErr(p, limits);
  EXPECT_EQ(o.error.message, "out of memory budget");
  Program q;
  q.Sample(Op::BITS, {q.Key(1), q.Shape({4096})});
  EXPECT_EQ(RunErr(q, limits).error.message, "out of memory budget");
}

// A result written over its own operand register releases the operand.
TEST(RandStateOps, ResultOverItsOperandDoesNotLeak) {
  Program p;
  const uint16_t s = p.Key(1);
  p.Emit(I(Op::SPLIT, s, s));
  const uint16_t k = p.Key(2);
  const uint16_t shape = p.Shape({3});
  const uint16_t w = p.Reg(true);
  p.Reg(true);
  p.Emit(I(Op::COPY, w, k));
  p.Emit(I(Op::COPY, w + 1, shape));
  p.Emit(I(Op::BITS, w, w, 2));
  p.Print(s, p.b.Tuple({p.StateType(), p.StateType()}));
  const auto [s1, s2] = random::Split(random::KeyFromSeed(1));
  EXPECT_EQ(RunOk(p).out, absl::StrCat("(", StateText(s1.key), ", ", StateText(s2.key), ")\n"));
}

TEST(RandStateOps, LoopOfNextLeaksNothing) {
  // 1000 `next`s, each result released: the heap ends empty and one state's
  // size is what a state costs.
  Program p;
  uint16_t s = p.Key(1);
  for (int i = 0; i < 1000; ++i) {
    const uint16_t t = p.Op2(Op::NEXT, s);
    p.Emit(I(Op::RELEASE, s));
    s = p.Field(t, 1);
    p.Emit(I(Op::RELEASE, t));
  }
  p.Print(s, p.StateType());
  EXPECT_EQ(RunOk(p).out, "RandState(0, 1, 1000)\n");
}

TEST(RandStateOps, HeapObject) {
  Heap heap(0);
  Object* o = heap.NewRandState(random::RandState{{1, 2}, 3});
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->kind, ObjKind::kRandState);
  EXPECT_EQ(Heap::SizeOf(o), sizeof(Object) + sizeof(RandStateBody));
  EXPECT_EQ(heap.bytes_live(), Heap::SizeOf(o));
  EXPECT_EQ(StateOf(o), (random::RandState{{1, 2}, 3}));
  EXPECT_FALSE(IsConsumed(o));
  EXPECT_EQ(CreatedAt(o).function, RandSite::kNoFunction);
  EXPECT_EQ(ConsumedAt(o).function, RandSite::kNoFunction);
  MarkConsumed(o, RandSite{0, 7, Op::BITS, 3});
  EXPECT_TRUE(IsConsumed(o));
  EXPECT_EQ(ConsumedAt(o).module, 3u);
  EXPECT_EQ(ConsumedNote(ConsumedAt(o), true), "first consumed here by `bits`");
  EXPECT_EQ(ConsumedNote(ConsumedAt(o), false),
            "first consumed by `bits` in code loaded earlier (in the REPL: an earlier input)");
  EXPECT_FALSE(CreatedNote(CreatedAt(o), true).has_value());
  heap.Release(o);
  EXPECT_EQ(heap.bytes_live(), 0u);
}

TEST(RandStateOps, DisassemblyAndCompare) {
  Program p;
  const uint16_t s = p.Key(1);
  p.Site(s, 3, false);
  p.Sample(Op::BITS, {s, p.Shape({2})});
  const uint32_t t = p.StateType();
  const Module m = p.Build();
  EXPECT_EQ(TypeName(m, t), "RandState");
  const std::string dis = Disassemble(m);
  EXPECT_NE(dis.find("SITE       r4, r2, 3"), std::string::npos) << dis;
  EXPECT_NE(dis.find("BITS       r10, r8, 2 "), std::string::npos) << dis;
  EXPECT_NE(dis.find("T0 = RandState"), std::string::npos) << dis;
}

}  // namespace
}  // namespace alea::vm
