// Tensor ops (vm/tensor_ops.h) on the VM's threads give exactly the bytes
// they give on one: for pools of 1, 2, 3, 4 and 7 threads, with the JIT and
// without it, elementwise ops and chains (in place too), comparisons,
// integer ops and their division-by-zero error, reductions (every op and
// dtype, whole tensors and axes, lengths around the reduction chunk, NaNs
// and signed zeros placed so that a wrong combination of chunk results
// shows, tensors of 0 elements), matrix products (edge shapes, large, batched) and fused programs.
//
// A test that passed because nothing was split would prove nothing, so the
// large cases also check that the op started the pool's workers: they start
// on the first loop that makes more than one range (thread_pool.h), which
// shows in /proc/self/task. (ThreadSanitizer starts a thread of its own with
// the process's first other thread; StartRuntimeThreads has it started
// before anything is counted, so only the workers are.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vm/bytecode.h"
#include "vm/heap.h"
#include "vm/jit/jit.h"
#include "vm/kernels/elementwise.h"
#include "vm/kernels/reduce.h"
#include "vm/runtime_error.h"
#include "vm/tensor.h"
#include "vm/tensor_ops.h"
#include "vm/thread_pool.h"
#include "vm/value.h"

namespace alea::vm {
namespace {

using kernels::BinaryOp;
using kernels::ReduceOp;
using kernels::UnaryOp;
using Dims = std::vector<int64_t>;

constexpr int kThreadCounts[] = {1, 2, 3, 4, 7};
constexpr int64_t kChunk = kernels::kReduceChunk;

// Threads of this process, or -1 where /proc is not there.
int LiveThreads() {
  std::error_code ec;
  int count = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++count;
  }
  return ec ? -1 : count;
}

// Starts, once, the threads a runtime adds with the process's first thread
// of its own (ThreadSanitizer's background thread; none otherwise), by
// running one thread and waiting (up to a second) until it has left
// /proc/self/task. Counts taken afterwards change with the pool's workers
// only, so the checks below stay exact under the sanitizer too.
void StartRuntimeThreads() {
  static const bool started = [] {
    pid_t tid = 0;
    std::thread([&tid] { tid = gettid(); }).join();
    const std::filesystem::path task = "/proc/self/task/" + std::to_string(tid);
    std::error_code ec;
    for (int i = 0; i < 1000 && std::filesystem::exists(task, ec); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  }();
  (void)started;
}

// Waits (up to a second) until the process is back to `baseline` threads: a
// joined thread can stay listed for a moment after pthread_join returns.
int SettledThreads(int baseline) {
  int now = LiveThreads();
  for (int i = 0; i < 1000 && now > baseline; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    now = LiveThreads();
  }
  return now;
}

// An f32 bit pattern: mostly ordinary values (small multiples of 0.5, so
// sums cancel to signed zeros, or normal draws), sometimes NaNs with
// payloads, infinities, signed zeros, subnormals.
float RandomF32(std::mt19937& rng, double special_rate) {
  constexpr uint32_t kSpecial[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                   0x7fc00000, 0xffc12345, 0x7fa00001, 0x00000001,
                                   0x80000001, 0x3f800000, 0x7f7fffff, 0xff7fffff};
  if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < special_rate) {
    return std::bit_cast<float>(kSpecial[rng() % std::size(kSpecial)]);
  }
  if (rng() % 4 == 0) return static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0.5f;
  return std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng);
}

class TensorThreads : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      jit_ = std::make_unique<jit::Jit>();
      if (!jit_->available()) GTEST_SKIP() << "this CPU has no AVX2+FMA: the JIT is off";
    }
    start_bytes_ = heap_.bytes_live();
    StartRuntimeThreads();
    baseline_threads_ = LiveThreads();
  }
  void TearDown() override {
    heap_.DropParked();
    EXPECT_EQ(heap_.bytes_live(), start_bytes_) << "something was leaked or not released";
  }
  jit::Jit* jit() { return jit_.get(); }

  Object* F32(const Dims& shape, uint32_t seed, double special_rate = 0.02) {
    Object* t = heap_.NewTensor(DType::kF32, shape);
    EXPECT_NE(t, nullptr);
    std::mt19937 rng(seed);
    float* x = ElementsOf<float>(t);
    for (int64_t i = 0; i < SizeOf(t); ++i) x[i] = RandomF32(rng, special_rate);
    return t;
  }
  // i32 or u32 (the same bits), small values and extremes; `zeros`: allow 0.
  Object* Int(DType dtype, const Dims& shape, uint32_t seed, bool zeros = true) {
    Object* t = heap_.NewTensor(dtype, shape);
    EXPECT_NE(t, nullptr);
    std::mt19937 rng(seed);
    uint32_t* x = ElementsOf<uint32_t>(t);
    for (int64_t i = 0; i < SizeOf(t); ++i) {
      const uint32_t pick = rng() % 16;
      uint32_t v = pick == 0   ? 0x80000000u
                   : pick == 1 ? 0x7fffffffu
                   : pick == 2 ? 0xffffffffu
                   : pick < 8  ? static_cast<uint32_t>(rng())
                               : static_cast<uint32_t>(static_cast<int32_t>(rng() % 201) - 100);
      if (!zeros && v == 0) v = 3;
      x[i] = v;
    }
    return t;
  }
  Object* Copy(const Object* t) {
    Object* c = heap_.NewTensor(DTypeOf(t), ShapeOf(t));
    EXPECT_NE(c, nullptr);
    std::memcpy(DataOf(c), DataOf(t), static_cast<size_t>(SizeOf(t) * ElementBytes(DTypeOf(t))));
    return c;
  }

  static bool SameTensor(const Object* a, const Object* b, std::string* why) {
    if (DTypeOf(a) != DTypeOf(b) || ShapeOf(a) != ShapeOf(b)) {
      *why = absl::StrCat("dtype/shape ", DTypeName(DTypeOf(a)), ShapeString(ShapeOf(a)), " vs ",
                          DTypeName(DTypeOf(b)), ShapeString(ShapeOf(b)));
      return false;
    }
    const int64_t size = ElementBytes(DTypeOf(a));
    const auto* x = static_cast<const uint8_t*>(DataOf(a));
    const auto* y = static_cast<const uint8_t*>(DataOf(b));
    if (std::memcmp(x, y, static_cast<size_t>(SizeOf(a) * size)) == 0) return true;
    for (int64_t i = 0; i < SizeOf(a); ++i) {
      if (std::memcmp(x + i * size, y + i * size, static_cast<size_t>(size)) != 0) {
        uint32_t u = 0, v = 0;
        std::memcpy(&u, x + i * size, static_cast<size_t>(size));
        std::memcpy(&v, y + i * size, static_cast<size_t>(size));
        *why = absl::StrCat("element ", i, " of ", SizeOf(a), ": 0x", absl::Hex(u), " vs 0x",
                            absl::Hex(v), " on one thread");
        break;
      }
    }
    return false;
  }

  // Runs `op` without a pool and then on each pool of kThreadCounts, and
  // expects the same tensor bytes (or the same error). `splits`: the op is
  // large enough that every pool of 2+ threads must split it.
  void ExpectSameOnEveryPool(const std::string& what,
                             const std::function<Object*(TensorContext&)>& op, bool splits) {
    SCOPED_TRACE(what);
    TensorContext alone(heap_, jit());
    Object* want = op(alone);
    std::optional<RuntimeErrorId> want_error;
    if (want == nullptr) {
      ASSERT_FALSE(alone.out_of_memory());
      want_error = alone.TakeError().id;
    }
    for (int threads : kThreadCounts) {
      ThreadPool pool(threads);
      TensorContext cx(heap_, jit(), &pool);
      const int before = SettledThreads(baseline_threads_);
      Object* got = op(cx);
      const int after = LiveThreads();
      if (before >= 0 && after >= 0) {
        EXPECT_EQ(after - before, splits && threads > 1 ? threads - 1 : 0)
            << "workers started on a pool of " << threads << " threads";
      }
      if (want == nullptr) {
        EXPECT_EQ(got, nullptr) << threads << " threads";
        if (got == nullptr) {
          EXPECT_EQ(cx.TakeError().id, *want_error) << threads << " threads";
        } else {
          heap_.Release(got);
        }
        continue;
      }
      ASSERT_NE(got, nullptr) << threads << " threads";
      std::string why;
      EXPECT_TRUE(SameTensor(got, want, &why)) << threads << " threads: " << why;
      heap_.Release(got);
    }
    if (want != nullptr) heap_.Release(want);
  }

  Heap heap_{0};
  std::unique_ptr<jit::Jit> jit_;
  uint64_t start_bytes_ = 0;
  int baseline_threads_ = -1;
};

std::string Name(const Dims& shape) { return ShapeString(shape); }

constexpr BinaryOp kF32Binary[] = {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul, BinaryOp::kDiv,
                                   BinaryOp::kMax, BinaryOp::kMin, BinaryOp::kEq,  BinaryOp::kNe,
                                   BinaryOp::kLt,  BinaryOp::kLe,  BinaryOp::kGt,  BinaryOp::kGe};
constexpr UnaryOp kF32Unary[] = {UnaryOp::kNeg, UnaryOp::kAbs, UnaryOp::kSqrt, UnaryOp::kRelu,
                                 UnaryOp::kExp, UnaryOp::kLog, UnaryOp::kTanh, UnaryOp::kSigmoid};

// Whether a unary op over n elements is split (tensor_ops.cc: ranges of at
// least 32K elements for cheap ops, 4K for exp, log, tanh and sigmoid).
// Whether a unary op on n elements splits: vm/tensor_ops.cc's costs per
// element (cheap ops 0.09 ns; math functions 0.28 on the JIT, 13 on the
// reference) against ThreadPool::MinRange.
bool UnarySplits(UnaryOp op, int64_t n, bool jit) {
  const bool math =
      op == UnaryOp::kExp || op == UnaryOp::kLog || op == UnaryOp::kTanh || op == UnaryOp::kSigmoid;
  const double ns = !math ? 0.09 : jit ? 0.28 : 13.0;
  return ThreadPool(2).RangesFor(n, 64, ThreadPool::MinRange(ns)) > 1;
}

TEST_P(TensorThreads, ElementwiseF32) {
  // Vector-vector, vector-scalar, scalar-vector (split), a row and a
  // column broadcast (split by rows on the JIT, the reference's general
  // walk on one thread), and sizes too small to split.
  struct Case {
    Dims a, b;
    bool splits;
    bool splits_on_jit = false;
  };
  const Case cases[] = {{{600011}, {600011}, true},
                        {{3, 200003}, {1}, true},
                        {{}, {2, 300007}, true},
                        {{400, 1501}, {1501}, false, true},
                        {{400, 1}, {400, 1501}, false, true},
                        {{1000}, {1000}, false},
                        {{1}, {1}, false}};
  uint32_t seed = 1;
  for (const Case& c : cases) {
    Object* a = F32(c.a, seed++);
    Object* b = F32(c.b, seed++);
    for (BinaryOp op : kF32Binary) {
      ExpectSameOnEveryPool(
          absl::StrCat(Name(c.a), kernels::Spelling(op), Name(c.b)),
          [&](TensorContext& cx) {
            return Binary(cx, op, {a, false}, {b, false});
          },
          c.splits || (c.splits_on_jit && jit() != nullptr));
    }
    for (UnaryOp op : kF32Unary) {
      ExpectSameOnEveryPool(
          absl::StrCat(kernels::Spelling(op), Name(c.a)),
          [&](TensorContext& cx) {
            return Unary(cx, op, {a, false});
          },
          UnarySplits(op, SizeOf(a), jit() != nullptr));
    }
    heap_.Release(a);
    heap_.Release(b);
  }
}

TEST_P(TensorThreads, ChainsInPlace) {
  // tanh(exp(-(a * b + c)) / a) >= 0.5, with every intermediate owned (so
  // each op writes over its operand).
  Object* a = F32({900001}, 11);
  Object* b = F32({900001}, 12);
  Object* c = F32({}, 13);
  ExpectSameOnEveryPool(
      "chain",
      [&](TensorContext& cx) -> Object* {
        Object* t = Binary(cx, BinaryOp::kMul, {Copy(a), true}, {b, false});
        t = Binary(cx, BinaryOp::kAdd, {t, true}, {c, false});
        t = Unary(cx, UnaryOp::kNeg, {t, true});
        t = Unary(cx, UnaryOp::kExp, {t, true});
        t = Binary(cx, BinaryOp::kDiv, {t, true}, {a, false});
        t = Unary(cx, UnaryOp::kTanh, {t, true});
        Object* half = F32({}, 14, 0.0);
        ElementsOf<float>(half)[0] = 0.5f;
        return Binary(cx, BinaryOp::kGe, {t, true}, {half, true});
      },
      true);
  heap_.Release(a);
  heap_.Release(b);
  heap_.Release(c);
}

TEST_P(TensorThreads, IntegerOps) {
  const BinaryOp ops[] = {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul,
                          BinaryOp::kDiv, BinaryOp::kMax, BinaryOp::kMin,
                          BinaryOp::kEq,  BinaryOp::kLt,  BinaryOp::kGe};
  for (DType dtype : {DType::kI32, DType::kU32}) {
    Object* a = Int(dtype, {600011}, 21);
    Object* b = Int(dtype, {600011}, 22, /*zeros=*/false);
    Object* s = Int(dtype, {1}, 23, false);
    for (BinaryOp op : ops) {
      ExpectSameOnEveryPool(
          absl::StrCat(DTypeName(dtype), kernels::Spelling(op)),
          [&](TensorContext& cx) {
            return Binary(cx, op, {a, false}, {b, false});
          },
          true);
      ExpectSameOnEveryPool(
          absl::StrCat(DTypeName(dtype), kernels::Spelling(op), " scalar"),
          [&](TensorContext& cx) {
            return Binary(cx, op, {s, false}, {a, false});
          },
          true);
    }
    ExpectSameOnEveryPool(
        absl::StrCat(DTypeName(dtype), " neg"),
        [&](TensorContext& cx) {
          return Unary(cx, UnaryOp::kNeg, {a, false});
        },
        true);
    // Division by zero in the last range (and, separately, the first),
    // borrowed and in place: an error on every pool.
    for (int64_t at : {int64_t{600010}, int64_t{5}}) {
      Object* z = Copy(b);
      ElementsOf<uint32_t>(z)[at] = 0;
      ExpectSameOnEveryPool(
          absl::StrCat(DTypeName(dtype), " / 0 at ", at),
          [&](TensorContext& cx) {
            return Binary(cx, BinaryOp::kDiv, {a, false}, {z, false});
          },
          true);
      ExpectSameOnEveryPool(
          absl::StrCat(DTypeName(dtype), " / 0 at ", at, " in place"),
          [&](TensorContext& cx) {
            return Binary(cx, BinaryOp::kDiv, {Copy(a), true}, {z, false});
          },
          true);
      heap_.Release(z);
    }
    heap_.Release(a);
    heap_.Release(b);
    heap_.Release(s);
  }
}

// Places special values in chunks of a row, for the reductions.
void Put(Object* t, int64_t at, uint32_t bits) { ElementsOf<uint32_t>(t)[at] = bits; }

// The single-pass folds: split by chunks of a long row (the others, and i32
// sums and products, which are checked in index order, are not).
constexpr ReduceOp kAllNumericOps[] = {
    ReduceOp::kSum,  ReduceOp::kMean,   ReduceOp::kMax,       ReduceOp::kMin, ReduceOp::kArgmax,
    ReduceOp::kProd, ReduceOp::kArgmin, ReduceOp::kLogSumExp, ReduceOp::kVar, ReduceOp::kStd};

bool SplitsByChunks(ReduceOp op, DType dtype) {
  const bool fold = op == ReduceOp::kSum || op == ReduceOp::kMean || op == ReduceOp::kMax ||
                    op == ReduceOp::kMin || op == ReduceOp::kProd;
  return fold && !(dtype == DType::kI32 && (op == ReduceOp::kSum || op == ReduceOp::kProd));
}

TEST_P(TensorThreads, ReductionsOfOneRow) {
  const ReduceOp ops[] = {
      ReduceOp::kSum,  ReduceOp::kMean,   ReduceOp::kMax,       ReduceOp::kMin, ReduceOp::kArgmax,
      ReduceOp::kProd, ReduceOp::kArgmin, ReduceOp::kLogSumExp, ReduceOp::kVar, ReduceOp::kStd};
  // 13 chunks: the JIT's sum splits from 12 (ThreadPool::MinRange).
  const int64_t sizes[] = {1, kChunk - 1, kChunk, kChunk + 1, 12 * kChunk + 3};
  uint32_t seed = 100;
  for (int64_t n : sizes) {
    // Plain values; NaNs only in later chunks, with different payloads (the
    // combination keeps the left one's); every element -0.0 (a sum of
    // -0.0s is -0.0, one +0.0 start would make it +0.0); zeros of both signs
    // as the maximum in different chunks (a tie keeps the left one).
    std::vector<std::pair<std::string, Object*>> inputs;
    inputs.emplace_back("plain", F32({n}, seed++, 0.0));
    Object* nans = F32({n}, seed++, 0.0);
    if (n > kChunk) {
      Put(nans, kChunk + 7, 0x7fc00bad);
      Put(nans, n - 1, 0xffc0beef);
    }
    inputs.emplace_back("late NaNs", nans);
    Object* zeros = F32({n}, seed++, 0.0);
    for (int64_t i = 0; i < n; ++i) Put(zeros, i, 0x80000000);
    inputs.emplace_back("-0.0s", zeros);
    Object* ties = F32({n}, seed++, 0.0);
    for (int64_t i = 0; i < n; ++i) Put(ties, i, i < kChunk ? 0xbf800000 : 0x80000000);
    Put(ties, 0, 0x80000000);
    if (n > kChunk) Put(ties, n - 1, 0x00000000);
    inputs.emplace_back("signed-zero ties", ties);
    inputs.emplace_back("specials", F32({n}, seed++, 0.2));
    for (auto& [name, x] : inputs) {
      for (ReduceOp op : ops) {
        ExpectSameOnEveryPool(
            absl::StrCat(name, " n=", n, " op=", static_cast<int>(op)),
            [&, x = x](TensorContext& cx) { return Reduce(cx, op, x, std::nullopt); },
            n > 12 * kChunk && SplitsByChunks(op, DType::kF32));
      }
      heap_.Release(x);
    }
    for (DType dtype : {DType::kI32, DType::kU32}) {
      Object* x = Int(dtype, {n}, seed++);
      for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin, ReduceOp::kArgmax,
                          ReduceOp::kProd, ReduceOp::kArgmin}) {
        ExpectSameOnEveryPool(
            absl::StrCat(DTypeName(dtype), " n=", n, " op=", static_cast<int>(op)),
            [&](TensorContext& cx) { return Reduce(cx, op, x, std::nullopt); },
            n > 12 * kChunk && SplitsByChunks(op, dtype));
      }
      heap_.Release(x);
    }
  }
}

TEST_P(TensorThreads, ReductionsAlongAxes) {
  struct Case {
    Dims shape;
    int64_t axis;
    bool splits;
  };
  const Case cases[] = {
      {{3, 4 * kChunk + 5}, 1, true},   // few long rows: split by chunks
      {{2, 6 * kChunk + 1}, -1, true},  // each row seven chunks
      {{1000, 1000}, 1, true},          // many rows
      {{1000, 64}, 0, false},           // one output row of 64 (not split)
      {{40, 300, 40}, 1, true},         // a middle axis: rows of 40 outputs
      {{4, 5}, 1, false},               // tiny
  };
  uint32_t seed = 300;
  for (const Case& c : cases) {
    for (DType dtype : {DType::kF32, DType::kI32, DType::kU32}) {
      Object* x = dtype == DType::kF32 ? F32(c.shape, seed++, 0.05) : Int(dtype, c.shape, seed++);
      for (ReduceOp op : kAllNumericOps) {
        if (!kernels::ReduceAccepts(op, dtype)) continue;
        // argmax and the reductions of several passes are split by rows only
        // (they have no chunks to combine), i32 sums and products never.
        const bool long_rows = c.shape[c.shape.size() - 1] > kChunk;
        const bool checked =
            dtype == DType::kI32 && (op == ReduceOp::kSum || op == ReduceOp::kProd);
        ExpectSameOnEveryPool(
            absl::StrCat(Name(c.shape), " axis ", c.axis, " ", DTypeName(dtype), " op ",
                         static_cast<int>(op)),
            [&](TensorContext& cx) { return Reduce(cx, op, x, c.axis); },
            c.splits && !checked && !(!SplitsByChunks(op, dtype) && long_rows && c.shape[0] < 2));
      }
      heap_.Release(x);
    }
  }
}

// Tensors with 0 elements: along an axis of nonzero length the result has
// no elements either, whatever the op (NumPy's `np.zeros((2, 0)).max(axis=0)`
// is `[]`); along an axis of length 0 sum and mean give 0 and NaN per
// output, and max, min and argmax of outputs that exist are an error. The
// pools must agree with one thread (they used to divide by the empty
// product of the later axes).
TEST_P(TensorThreads, ReductionsOfEmptyTensors) {
  struct Case {
    Dims shape;
    std::optional<int64_t> axis;
    Dims result;          // the result's shape
    bool no_identity_ok;  // max, min, argmax give a result (else an error)
  };
  const Case cases[] = {
      {{2, 0}, 0, {0}, true},
      {{2, 0}, 1, {2}, false},
      {{2, 0}, -1, {2}, false},
      {{3, 2, 0}, 1, {3, 0}, true},
      {{3, 0, 2}, 1, {3, 2}, false},
      {{0, 3}, 0, {3}, false},
      {{0, 3}, 1, {0}, true},
      {{0, 0}, 0, {0}, true},
      {{70000, 0}, 0, {0}, true},
      {{0, 70000}, 1, {0}, true},
      {{2, 70000, 0}, 1, {2, 0}, true},
      {{0}, std::nullopt, {}, false},
      {{2, 0}, std::nullopt, {}, false},
  };
  for (const Case& c : cases) {
    for (DType dtype : {DType::kF32, DType::kI32, DType::kU32}) {
      Object* x = heap_.NewTensor(dtype, c.shape);
      ASSERT_NE(x, nullptr);
      for (ReduceOp op : kAllNumericOps) {
        if (!kernels::ReduceAccepts(op, dtype)) continue;
        const std::string what =
            absl::StrCat(Name(c.shape), " axis ", c.axis.has_value() ? *c.axis : 99, " ",
                         DTypeName(dtype), " op ", static_cast<int>(op));
        SCOPED_TRACE(what);
        const bool has_identity = op != ReduceOp::kMax && op != ReduceOp::kMin &&
                                  op != ReduceOp::kArgmax && op != ReduceOp::kArgmin;
        TensorContext alone(heap_, jit());
        Object* want = Reduce(alone, op, x, c.axis);
        if (has_identity || c.no_identity_ok) {
          ASSERT_NE(want, nullptr);
          EXPECT_EQ(ShapeOf(want), absl::Span<const int64_t>(c.result));
          heap_.Release(want);
        } else {
          ASSERT_EQ(want, nullptr);
          EXPECT_EQ(alone.TakeError().id, RuntimeErrorId::kReduceEmpty);
        }
        ExpectSameOnEveryPool(
            what, [&](TensorContext& cx) { return Reduce(cx, op, x, c.axis); }, false);
      }
      heap_.Release(x);
    }
  }
}

TEST_P(TensorThreads, MatMul) {
  // Whether the JIT (f32) and the reference kernel split each product: the
  // JIT splits rows or columns of one product of >= 2 * 10^6 multiply-adds, the
  // reference rows (so not 1 x k) or whole products of a batch.
  struct Case {
    Dims x, y;
    bool jit_splits, reference_splits;
  };
  const Case cases[] = {
      {{131, 257}, {257, 259}, true, true},           // odd, every edge
      {{300, 301}, {301, 302}, true, true},           //
      {{1, 2000}, {2000, 1200}, true, false},         // 1 x k: columns only
      {{3000, 700}, {700, 1}, true, true},            // k x 1
      {{2000}, {2000, 1200}, true, false},            // a vector
      {{6, 20}, {20, 7}, false, false},               // small
      {{5, 0}, {0, 7}, false, false},                 // empty k
      {{4, 200, 240}, {240, 180}, true, true},        // batched
      {{3, 1, 50, 60}, {1, 4, 60, 70}, false, true},  // broadcast batches of small products
  };
  uint32_t seed = 500;
  for (const Case& c : cases) {
    for (DType dtype : {DType::kF32, DType::kI32, DType::kU32}) {
      Object* x = dtype == DType::kF32 ? F32(c.x, seed++, 0.01) : Int(dtype, c.x, seed++);
      Object* y = dtype == DType::kF32 ? F32(c.y, seed++, 0.01) : Int(dtype, c.y, seed++);
      const bool on_jit = jit() != nullptr && dtype == DType::kF32;
      ExpectSameOnEveryPool(
          absl::StrCat(Name(c.x), " @ ", Name(c.y), " ", DTypeName(dtype)),
          [&](TensorContext& cx) { return MatMul(cx, x, y); },
          on_jit ? c.jit_splits : c.reference_splits);
      heap_.Release(x);
      heap_.Release(y);
    }
  }
}

FusedLeaf Leaf(uint16_t reg, FusedLeaf::Kind kind = FusedLeaf::Kind::kTensor) {
  FusedLeaf l;
  l.reg = reg;
  l.kind = kind;
  return l;
}
FusedNode Node(BinaryOp op, uint16_t a, uint16_t b) {
  FusedNode n;
  n.op = static_cast<uint8_t>(op);
  n.a = a;
  n.b = b;
  return n;
}
FusedNode Node(UnaryOp op, uint16_t a) {
  FusedNode n;
  n.unary = true;
  n.op = static_cast<uint8_t>(op);
  n.a = a;
  return n;
}

TEST_P(TensorThreads, Fused) {
  if (jit() == nullptr) GTEST_SKIP() << "RunFused needs the JIT";
  // where(m, tanh(a * b + s), exp(a) - r): a, b full, s an Int scalar leaf,
  // m a bool mask (full, or a row), r a row or a full leaf.
  FusedProgram p;
  p.leaves = {Leaf(0), Leaf(1), Leaf(2, FusedLeaf::Kind::kInt), Leaf(3, FusedLeaf::Kind::kBool),
              Leaf(4)};
  p.nodes = {Node(BinaryOp::kMul, 0, 1), Node(BinaryOp::kAdd, 5, 2), Node(UnaryOp::kTanh, 6),
             Node(UnaryOp::kExp, 0), Node(BinaryOp::kSub, 8, 4)};
  FusedNode where;
  where.where = true;
  where.a = 3;
  where.b = 7;
  where.c = 9;
  p.nodes.push_back(where);

  struct Case {
    Dims full, mask, r;
    bool splits;
  };
  const Case cases[] = {
      {{200003}, {200003}, {200003}, true},    // full leaves
      {{300, 1001}, {1001}, {1, 1001}, true},  // rows
      {{30000, 7}, {30000, 7}, {7}, true},     // short rows
      {{100}, {100}, {}, false},               // small
  };
  uint32_t seed = 700;
  for (const Case& c : cases) {
    Object* a = F32(c.full, seed++);
    Object* b = F32(c.full, seed++);
    Object* m = heap_.NewTensor(DType::kBool, c.mask);
    std::mt19937 rng(seed++);
    for (int64_t i = 0; i < SizeOf(m); ++i) ElementsOf<uint8_t>(m)[i] = rng() % 3 ? 1 : 0;
    Object* r = F32(c.r, seed++);
    uint32_t site = 1;
    ExpectSameOnEveryPool(
        absl::StrCat("fused ", Name(c.full), " mask ", Name(c.mask), " r ", Name(c.r)),
        [&](TensorContext& cx) -> Object* {
          Value regs[5] = {FromObject(a), FromObject(b), FromInt(3), FromObject(m), FromObject(r)};
          FusedKernelCache cache;
          Value result = 0;
          if (!RunFused(cx, p, cache, site++, regs, &result)) {
            ADD_FAILURE() << "RunFused declined";
            return nullptr;
          }
          return AsObject(result);
        },
        c.splits);
    heap_.Release(a);
    heap_.Release(b);
    heap_.Release(m);
    heap_.Release(r);
  }
}

INSTANTIATE_TEST_SUITE_P(Jit, TensorThreads, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("Jit") : std::string("Reference");
                         });

}  // namespace
}  // namespace alea::vm
