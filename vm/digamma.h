// The digamma function, lgamma's derivative (vm/grad_rules.def).
#ifndef ALEA_VM_DIGAMMA_H_
#define ALEA_VM_DIGAMMA_H_

namespace alea::vm {

// psi(x) = d lgamma(x) / dx in double precision (about 1e-13 relative away
// from its zeros); NaN at the poles 0, -1, -2... and for NaN, as JAX's.
double Digamma(double x);

}  // namespace alea::vm

#endif  // ALEA_VM_DIGAMMA_H_
