// Reduction reference kernels: sum, mean, max, min, argmax, prod, argmin,
// any, all, logsumexp, var, std, whole or along one axis, and softmax, in ONE
// fixed order that the JIT and any thread count must reproduce bit for bit
// (docs/decisions.md "Tensors", "The JIT and fusion").
//
// The order, for a sequence x[0..n) being reduced with combine op `+`
// (sum, mean), `*` (prod), or the Max/Min rules of elementwise_ops.def (max,
// min):
//   - The sequence is cut into chunks of kReduceChunk elements (the last may
//     be shorter).
//   - Within a chunk, lane j (0 <= j < kReduceLanes) starts from the identity
//     (-0.0 for `+`, -inf for max, +inf for min: each passes every value
//     through, NaN and signed zeros included) and folds acc = acc op x over
//     the chunk's elements j, j + 16, j + 32... in ascending order.
//     (prod's identity is 1.0.)
//   - The 16 lanes combine as a tree: lane[j] = lane[j] op lane[j + 8] for
//     j < 8, then with j + 4 for j < 4, then j + 2, then j + 1; lane 0 is
//     the chunk's result.
//   - The chunks' results combine left to right: ((c0 op c1) op c2)...
// mean is that sum divided (f32 `/`) by n rounded to f32. u32 sums and
// products wrap modulo 2^32 (any order gives the same). i32 sums and products
// are exact or an error: the running sum (product) in index order, x[0],
// x[0] op x[1], ..., must stay in the i32 range at every step, as a chain of
// checked `+` (`*`) would, and as cumsum checks; the first element whose step
// leaves it is reported (kOverflow). argmax (argmin) is order-free: the index
// of the first NaN if there is one, else of the first element equal to the
// maximum (minimum) (-0.0 equals 0.0), as np.argmax (np.argmin). any and all
// of bool bytes are order-free (false and true for n == 0).
//
// The f32 reductions of several passes, each pass in the order above:
//   - var: m = mean (as above); s = the sum of (x[i] - m) * (x[i] - m) (each
//     difference and square rounded, no FMA); var = s / float(max(n - ddof,
//     0)) (NumPy's two-pass definition; n - ddof <= 0 gives NaN or inf as
//     NumPy's). std = sqrt(var), correctly rounded.
//   - logsumexp (scipy.special.logsumexp's steps): m = max; c = m if m is
//     finite, else 0; s = the sum of exp(x[i] - c); result log(s) + c, with
//     the f32 exp and log of math_f32.h. So all -inf (and n == 0) gives -inf,
//     a +inf gives inf, a NaN gives NaN.
//   - softmax (scipy.special.softmax's steps): m = max; e[i] = exp(x[i] - m)
//     is written to out; s = the sum of the e[i]; out[i] = e[i] / s.
#ifndef ALEA_VM_KERNELS_REDUCE_H_
#define ALEA_VM_KERNELS_REDUCE_H_

#include <cstdint>

#include "vm/dtype.h"

namespace alea::vm::kernels {

inline constexpr int kReduceLanes = 16;
inline constexpr int64_t kReduceChunk = 65536;

// New ops go at the end: the compiler passes an op as its number.
enum class ReduceOp : uint8_t {
  kSum,
  kMean,
  kMax,
  kMin,
  kArgmax,
  kProd,
  kArgmin,
  kAny,
  kAll,
  kLogSumExp,
  kVar,
  kStd,
};

enum class ReduceStatus : uint8_t { kOk, kEmpty, kOverflow };

// Whether `op` accepts `dtype`: any and all bool only; mean, logsumexp, var
// and std f32 only; the others f32, i32 and u32.
bool ReduceAccepts(ReduceOp op, DType dtype);

// `in` is a contiguous tensor viewed as [outer, n, inner]; reduces the middle
// axis into the contiguous [outer, inner] `out`, of `dtype` (ReduceAccepts),
// except argmax and argmin, whose out is i32. max, min, argmax and argmin of
// n == 0 with outer * inner > 0 return kEmpty (out untouched); sum gives 0,
// prod 1, mean, var and std NaN, logsumexp -inf there. `ddof`: var and std's.
// An i32 sum or prod that overflows returns kOverflow with *overflow_at the
// flat index in `in` of the first element (in row-major order) whose step
// leaves the range (out is then unspecified).
ReduceStatus Reduce(ReduceOp op, DType dtype, int64_t outer, int64_t n, int64_t inner,
                    const void* in, void* out, int64_t ddof = 0, int64_t* overflow_at = nullptr);

// softmax of the f32 [outer, n, inner] along the middle axis into out (the
// same layout; may not alias in). n == 0 writes nothing.
void Softmax(int64_t outer, int64_t n, int64_t inner, const float* in, float* out);

// var's divisor, float(max(n - ddof, 0)) for n >= 0 and any ddof: n - ddof
// may exceed INT64_MAX (ddof is any Int), so it is taken in uint64, where it
// fits (n <= 2^48), and rounded to f32 once, as an exact difference would be.
inline float VarDivisor(int64_t n, int64_t ddof) {
  if (ddof >= n) return 0.0f;
  return static_cast<float>(static_cast<uint64_t>(n) - static_cast<uint64_t>(ddof));
}

// reduce_f32.cc: the f32 reductions of several passes, n > 0 (Reduce handles
// n == 0 and outputs).
void Var(int64_t outer, int64_t n, int64_t inner, int64_t ddof, bool std, const float* in,
         float* out);
void LogSumExp(int64_t outer, int64_t n, int64_t inner, const float* in, float* out);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_REDUCE_H_
