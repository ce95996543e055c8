// QR factorization reference kernel: Householder reflections, as LAPACK's
// unblocked geqr2 (the reflectors) and org2r (Q from them).
//
// Matrices are contiguous row-major f32; the arithmetic is double
// throughout, in a fixed order (dot products and norms over ascending
// rows), and each result is rounded to f32 once, so the bits depend on the
// inputs alone. The factors are therefore closer to the exact ones than an
// f32 LAPACK's (which NumPy and JAX call): expect the two to differ by
// about the f32 LAPACK's error, some units of 1e-7 times sqrt(n) for
// well-conditioned matrices.
#ifndef ALEA_VM_KERNELS_QR_H_
#define ALEA_VM_KERNELS_QR_H_

#include <cstdint>

namespace alea::vm::kernels {

// The reduced QR of a [m, n], m >= n: q [m, n] with orthonormal columns and
// r [n, n] upper triangular (zeros below), a = q r. Column j's reflector
// maps a's column onto beta e_j with beta = -copysign(norm, alpha) (alpha
// its diagonal element), so r's diagonal has the signs LAPACK gives; a column already zero below
// its diagonal is left alone (no reflection, as LAPACK's larfg with tau = 0).
void HouseholderQr(int64_t m, int64_t n, const float* a, float* q, float* r);

}  // namespace alea::vm::kernels

#endif  // ALEA_VM_KERNELS_QR_H_
