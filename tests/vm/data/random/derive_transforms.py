#!/usr/bin/env python3
"""Derive known answers for JAX's transformations of uniform and normal draws:
cauchy, laplace, logistic, lognormal, maxwell, double_sided_maxwell, pareto,
rayleigh, triangular, truncated_normal, wald, weibull_min and rademacher, in
partitionable Threefry mode (jax_threefry_partitionable=True, JAX's default).

Two forms of each: the float32 (int32) tensor draw JAX makes without x64, and
the 0-d float64 (int64) draw it makes with jax_enable_x64.

An independent from-spec reimplementation, Python 3 standard library only.
Usage: python3 derive_transforms.py > transforms_derived.txt   (deterministic)
Function names cited (_uniform, _lognormal...) are those of JAX's jax.random module.

Float32 arithmetic: every +, -, *, / and sqrt is done in double and rounded
to float32 (struct), which is the correctly rounded float32 result (double
has more than twice float32's precision, so the double rounding is
innocuous). JAX's transcendental functions (log, log1p, exp, tan, pow, erf,
erf_inv) are taken as the float32 rounding of the C library's double result
(erf_inv: of a bisection on erf/erfc to double precision): the correctly
rounded value, but for a rare case within about 2^-29 of a rounding boundary.
Alea's (and XLA's) float32 versions are approximations within 2 ulp of it, so
every float32 record carries a tolerance TOL: the largest change, in ulps of
the result, that moving each transcendental result of the record by up to 2
ulp either way makes (every combination of -2..2 ulp), plus 1.

Float64: the same operations in Python floats (IEEE double, no FMA) with the
math module, which is the C library's. Normals (sqrt(2) * erf_inv(u)) are the
correctly rounded exact value (decimal, 60 digits: erf by its Taylor series,
erf_inv by Newton), not XLA's float64 erf_inv; their TOL is, as above, the
effect of 2 ulp on each normal (Alea's scalar normal is within 2 ulp of
exact), 0 where no normal is involved.
"""
import functools
import itertools
import math
import struct
from decimal import Decimal, localcontext

M32 = 0xFFFFFFFF


# ---- Threefry-2x32, 20 rounds (Salmon et al. 2011; Random123's threefry2x32) ----
ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def rotl32(x, r):
    return ((x << r) | (x >> (32 - r))) & M32


def threefry2x32(key, counter):
    k0, k1 = key
    k2 = k0 ^ k1 ^ 0x1BD11BDA                  # Skein's key-schedule parity constant
    schedule = (k0, k1, k2)
    x0 = (counter[0] + k0) & M32
    x1 = (counter[1] + k1) & M32
    for group in range(5):                     # 5 groups of 4 rounds
        for r in ROTATIONS[group % 2]:
            x0 = (x0 + x1) & M32
            x1 = rotl32(x1, r) ^ x0
        s = group + 1                          # key injection s after group s
        x0 = (x0 + schedule[s % 3]) & M32
        x1 = (x1 + schedule[(s + 1) % 3] + s) & M32
    return x0, x1


# ---- keys (JAX's threefry key functions, partitionable mode) ----
def key(seed):                                 # 0 <= seed < 2^32: [0, seed]
    return (0, seed)


def split_key(k, i):                           # split(k, n)[i]: the hash of counter i
    return threefry2x32(k, (i >> 32, i & M32))


def fold_in(k, data):                          # threefry(k, (0, data))
    return threefry2x32(k, (0, data & M32))


def bits32(k, i):                              # element i of a 32-bit draw: y0 ^ y1
    y0, y1 = threefry2x32(k, (i >> 32, i & M32))
    return y0 ^ y1


def bits64(k, i):                              # element i of a 64-bit draw: y0 << 32 | y1
    y0, y1 = threefry2x32(k, (i >> 32, i & M32))
    return (y0 << 32) | y1


# ---- float32 ----
def f32(x):
    """x rounded to float32 (to nearest even), as a Python float."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def ordered32(x):                              # float32 bits as a monotone integer
    b = struct.unpack("<i", struct.pack("<f", x))[0]
    return b if b >= 0 else -0x80000000 - b


def from_ordered32(n):
    b = n if n >= 0 else -0x80000000 - n
    return struct.unpack("<f", struct.pack("<i", b))[0]


def ordered64(x):
    b = struct.unpack("<q", struct.pack("<d", x))[0]
    return b if b >= 0 else -0x8000000000000000 - b


def from_ordered64(n):
    b = n if n >= 0 else -0x8000000000000000 - n
    return struct.unpack("<d", struct.pack("<q", b))[0]


def nudge(x, d, wide):
    """x moved by d ulps (float64 if wide, else float32); inf and NaN stay."""
    if d == 0 or math.isinf(x) or math.isnan(x):
        return x
    if wide:
        return from_ordered64(ordered64(x) + d)
    return from_ordered32(ordered32(x) + d)


def ulps(a, b, wide):
    if a == b or (math.isnan(a) and math.isnan(b)):
        return 0
    if math.isnan(a) or math.isnan(b):
        return math.inf
    if math.isinf(a) or math.isinf(b):
        return math.inf
    o = ordered64 if wide else ordered32
    return abs(o(a) - o(b))


def xla_max(a, b):                             # NaN if either is NaN
    return math.nan if math.isnan(a) or math.isnan(b) else max(a, b)


def xla_min(a, b):
    return math.nan if math.isnan(a) or math.isnan(b) else min(a, b)


def xla_sign(x):                               # +-1; +-0 and NaN unchanged
    return x if x == 0 or math.isnan(x) else math.copysign(1.0, x)


def nextafter32(x, toward):
    if math.isnan(x) or x == toward:
        return x
    if x == 0:
        return math.copysign(from_ordered32(1), toward)
    return from_ordered32(ordered32(x) + (1 if toward > x else -1))


# The C library's functions with IEEE results at the poles instead of Python's
# exceptions.
def c_log(x):
    return -math.inf if x == 0 else (math.nan if x < 0 or math.isnan(x) else math.log(x))


def c_log1p(x):
    return -math.inf if x == -1 else (math.nan if x < -1 else math.log1p(x))


def c_exp(x):
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def c_pow(x, y):
    try:
        return math.pow(x, y)
    except (OverflowError, ValueError):
        return math.inf if x == 0 or abs(x) > 1 else math.nan


@functools.lru_cache(maxsize=None)
def erfinv_double(y):
    """erf^-1(y) to double precision by bisection on the C library's erf
    (erfc beyond 0.5, where 1 - y is exact); +-inf at +-1."""
    if math.isnan(y) or abs(y) > 1:
        return math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    a = abs(y)
    lo, hi = 0.0, 10.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        below = math.erf(mid) < a if a < 0.5 else math.erfc(mid) > 1.0 - a
        lo, hi = (mid, hi) if below else (lo, mid)
    return math.copysign((lo + hi) / 2, y)


class Perturb:
    """The ulps by which each transcendental result of one evaluation moves."""

    def __init__(self, deltas=(), wide=False):
        self.deltas, self.calls, self.wide = list(deltas), 0, wide

    def take(self, x):
        d = self.deltas[self.calls] if self.calls < len(self.deltas) else 0
        self.calls += 1
        return nudge(x, d, self.wide)


def t32(fn, P, *args):                         # a float32 transcendental function
    return P.take(f32(fn(*args)))


SQRT2_F = f32(math.sqrt(2))                    # np.array(np.sqrt(2), float32)
PI_F = f32(math.pi)                            # _lax_const(u, np.pi)
EPS_F = 2.0 ** -23                             # jnp.finfo(float32).eps
EPSNEG_F = 2.0 ** -24                          # jnp.finfo(float32).epsneg
NORMAL_LO_F = f32(-1.0 + 2.0 ** -24)           # np.nextafter(-1, 0) in float32


def uniform32(k, i, lo=0.0, hi=1.0):
    """_uniform: the top 23 bits as a mantissa in [1, 2), minus 1 (exact), then
    max(lo, u * (hi - lo) + lo) with lo, hi rounded to float32 first."""
    lo, hi = f32(lo), f32(hi)
    u = (bits32(k, i) >> 9) * 2.0 ** -23
    return xla_max(lo, f32(f32(u * f32(hi - lo)) + lo))


def normal32(k, i, P):                         # _normal_real: sqrt(2) * erf_inv(u)
    u = uniform32(k, i, NORMAL_LO_F, 1.0)
    return f32(SQRT2_F * t32(erfinv_double, P, u))


def exponential32(k, i, P):                    # _exponential: -log1p(-u)
    return -t32(c_log1p, P, -uniform32(k, i))


def cauchy32(k, i, P):                         # _cauchy
    u = uniform32(k, i, EPS_F, 1.0)
    return t32(math.tan, P, f32(PI_F * f32(u - 0.5)))


def laplace32(k, i, P):                        # _laplace
    u = uniform32(k, i, -1.0 + EPSNEG_F, 1.0)
    return f32(xla_sign(u) * t32(c_log1p, P, -abs(u)))


def logistic32(k, i, P):                       # _logistic
    x = uniform32(k, i, EPS_F, 1.0)
    return t32(c_log, P, f32(x / f32(1.0 - x)))


def lognormal32(k, i, P, sigma):               # _lognormal: exp(normal * sigma)
    return t32(c_exp, P, f32(normal32(k, i, P) * f32(sigma)))


def norm3_32(a, b, c):                         # jnp.linalg.norm over an axis of 3
    return f32(math.sqrt(f32(f32(f32(a * a) + f32(b * b)) + f32(c * c))))


def maxwell32(k, i, P):                        # _maxwell: normal(shape + (3,))
    return norm3_32(*(normal32(k, 3 * i + j, P) for j in range(3)))


def rademacher_bit32(k, i):                    # bernoulli(p=0.5): f32 uniform < 0.5
    return uniform32(k, i) < 0.5


def double_sided_maxwell32(k, i, P, loc, scale):
    m = maxwell32(split_key(k, 0), i, P)
    sign = 1.0 if rademacher_bit32(split_key(k, 1), i) else -1.0
    return f32(f32(f32(sign * m) * f32(scale)) + f32(loc))


def pareto32(k, i, P, b):                      # _pareto: exp(exponential / b)
    return t32(c_exp, P, f32(exponential32(k, i, P) / f32(b)))


def rayleigh32(k, i, P, scale):                # _rayleigh
    log_u = t32(c_log, P, uniform32(k, i))
    return f32(f32(scale) * f32(math.sqrt(f32(log_u * -2.0))))


def triangular_of(u, left, mode, right, r):    # _triangular, rounding with r
    fc = r(r(mode - left) / r(right - left))
    out1 = r(left + r(math.sqrt(r(r(u * r(right - left)) * r(mode - left)))))
    out2 = r(right - r(math.sqrt(r(r(r(1.0 - u) * r(right - left)) * r(right - mode)))))
    return out1 if u < fc else out2


def triangular32(k, i, P, left, mode, right):
    return triangular_of(uniform32(k, i), f32(left), f32(mode), f32(right), f32)


def truncated_normal32(k, i, P, lower, upper):  # _truncated_normal
    lower, upper = f32(lower), f32(upper)
    a = t32(math.erf, P, f32(lower / SQRT2_F))
    b = t32(math.erf, P, f32(upper / SQRT2_F))
    u = uniform32(k, i, a, b)
    out = f32(SQRT2_F * t32(erfinv_double, P, u))
    # jnp.clip: max with nextafter(lower, inf) first, then min.
    out = xla_max(nextafter32(lower, math.inf), out)
    return xla_min(nextafter32(upper, -math.inf), out)


def wald_of(v, z, mean, r):                    # _wald, rounding with r
    y = r(v * v)
    y_sq = r(y * y)
    mean_sq = r(mean * mean)
    sqrt_term = r(math.sqrt(r(r(r(4.0 * mean) * y) + r(mean_sq * y_sq))))
    x = r(r(mean + r(r(mean_sq * y) / 2.0)) - r(r(mean / 2.0) * sqrt_term))
    return x if z <= r(mean / r(mean + x)) else r(mean_sq / x)


def wald32(k, i, P, mean):
    v = normal32(split_key(k, 0), i, P)
    z = uniform32(split_key(k, 1), i)
    return wald_of(v, z, f32(mean), f32)


def weibull_min32(k, i, P, scale, concentration):
    # _weibull_min: power(-log1p(-u), 1 / concentration) * scale, all float32
    # (the parameters are traced, so 1.0 / concentration divides in float32).
    e = exponential32(k, i, P)
    return f32(t32(c_pow, P, e, f32(1.0 / f32(concentration))) * f32(scale))


# ---- float64 (jax_enable_x64) ----
EPS_D = 2.0 ** -52
NORMAL_LO_D = math.nextafter(-1.0, 0.0)


def uniform64(k, i, lo=0.0, hi=1.0):
    u = (bits64(k, i) >> 12) * 2.0 ** -52
    return xla_max(lo, u * (hi - lo) + lo)


PREC = 60


def dec_pi():                                  # the Python decimal documentation's recipe
    with localcontext() as c:
        c.prec = PREC + 10
        lasts, t, s, n, na, d, da = 0, Decimal(3), 3, 1, 0, 0, 24
        while s != lasts:
            lasts = s
            n, na = n + na, na + 8
            d, da = d + da, da + 32
            t = (t * n) / d
            s += t
        return +s


DEC_TWO_OVER_SQRT_PI = None


def dec_erf(x):                                # 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1))
    with localcontext() as c:
        c.prec = PREC + 40                     # |x| <= 6.5 cancels about 19 digits
        x2, p, s, n = x * x, x, Decimal(0), 0
        tiny = Decimal(10) ** -(PREC + 30)
        while True:
            term = p / (2 * n + 1)
            s += -term if n % 2 else term
            if abs(term) < tiny and n > 2:
                break
            n += 1
            p = p * x2 / n
        return DEC_TWO_OVER_SQRT_PI * s


def exact_normal(u):
    """sqrt(2) * erf^-1(u) for a double u, correctly rounded to double."""
    global DEC_TWO_OVER_SQRT_PI
    if abs(u) == 1:
        return math.copysign(math.inf, u)
    if u == 0:
        return u
    if DEC_TWO_OVER_SQRT_PI is None:
        with localcontext() as c:
            c.prec = PREC + 40
            DEC_TWO_OVER_SQRT_PI = 2 / dec_pi().sqrt()
    y = Decimal(abs(u))
    with localcontext() as c:
        c.prec = PREC + 20
        x = Decimal(erfinv_double(abs(u)))
        for _ in range(40):
            dx = (dec_erf(x) - y) / (DEC_TWO_OVER_SQRT_PI * (-x * x).exp())
            x -= dx
            if abs(dx) < Decimal(10) ** -(PREC + 5):
                break
        else:
            raise AssertionError("erf_inv Newton did not converge")
        v = Decimal(2).sqrt() * x
        f = float(v)
        # Far enough from a rounding boundary for PREC digits to decide.
        for g in (math.nextafter(f, math.inf), math.nextafter(f, -math.inf)):
            mid = (Decimal(f) + Decimal(g)) / 2
            assert abs(v - mid) > abs(v) * Decimal(10) ** -(PREC - 10), u
        return f if u > 0 else -f


NORMALS = {}


def normal64(k, i, P):
    u = uniform64(k, i, NORMAL_LO_D, 1.0)
    if u not in NORMALS:
        NORMALS[u] = exact_normal(u)
    return P.take(NORMALS[u])


def cauchy64(k, P):
    return math.tan(math.pi * (uniform64(k, 0, EPS_D, 1.0) - 0.5))


def laplace64(k, P):
    u = uniform64(k, 0, -1.0 + 2.0 ** -53, 1.0)
    return xla_sign(u) * c_log1p(-abs(u))


def logistic64(k, P):
    x = uniform64(k, 0, EPS_D, 1.0)
    return c_log(x / (1.0 - x))


def lognormal64(k, P, sigma):
    return c_exp(normal64(k, 0, P) * sigma)


def maxwell64(k, P):
    a, b, c = (normal64(k, j, P) for j in range(3))
    return math.sqrt((a * a + b * b) + c * c)


def double_sided_maxwell64(k, P, loc, scale):
    m = maxwell64(split_key(k, 0), P)
    sign = 1.0 if uniform64(split_key(k, 1), 0) < 0.5 else -1.0
    return sign * m * scale + loc


def pareto64(k, P, b):
    return c_exp(-c_log1p(-uniform64(k, 0)) / b)


def rayleigh64(k, P, scale):
    return scale * math.sqrt(c_log(uniform64(k, 0)) * -2.0)


def triangular64(k, P, left, mode, right):
    return triangular_of(uniform64(k, 0), left, mode, right, lambda x: x)


def truncated_normal64(k, P, lower, upper):
    a = math.erf(lower / math.sqrt(2))
    b = math.erf(upper / math.sqrt(2))
    u = uniform64(k, 0, a, b)
    if u not in NORMALS:
        NORMALS[u] = exact_normal(u)
    out = P.take(NORMALS[u])
    out = xla_max(math.nextafter(lower, math.inf), out)
    return xla_min(math.nextafter(upper, -math.inf), out)


def wald64(k, P, mean):
    v = normal64(split_key(k, 0), 0, P)
    z = uniform64(split_key(k, 1), 0)
    return wald_of(v, z, mean, lambda x: x)


def weibull_min64(k, P, scale, concentration):
    return c_pow(-c_log1p(-uniform64(k, 0)), 1.0 / concentration) * scale


# ---- tolerances ----
def with_tolerance(evaluate, wide):
    """(value, tol): the value with every transcendental result as derived,
    and the largest change in ulps from moving each by -2, 0 or +2 ulp, + 1."""
    P = Perturb(wide=wide)
    value = evaluate(P)
    n = P.calls
    if n == 0:
        return value, 0
    worst = 0
    # Every combination: rounding makes the result a step function of each
    # input (wald's cancellation moves it in jumps of 128 ulp), not monotone.
    assert n <= 3, n
    for deltas in itertools.product(range(-2, 3), repeat=n):
        worst = max(worst, ulps(evaluate(Perturb(deltas, wide)), value, wide))
    return value, worst + 1


# ---- known answers, checked before anything is written ----
assert threefry2x32((0, 0), (0, 0)) == (0x6B200159, 0x99BA4EFE)      # Random123 KAT
assert threefry2x32((M32, M32), (M32, M32)) == (0x1CB996FC, 0xBB002BE7)
assert [split_key(key(0), i) for i in range(2)] == \
    [(1797259609, 2579123966), (928981903, 3453687069)]              # JAX's split(key(0))
assert fold_in(key(0), 4) == (2285895361, 433833334)                 # published fold_in
assert bits32(key(0), 0) == 4070199207
assert uniform32(key(0), 0) == (4070199207 >> 9) / 2 ** 23
assert "%.6f" % uniform32(key(0), 0) == "0.947667"                   # the module docstring
assert f32(1.0 - 2.0 ** -24) == 1.0 - 2.0 ** -24 and NORMAL_LO_F == -1.0 + 2.0 ** -24
assert SQRT2_F.hex() == "0x1.6a09e60000000p+0" and PI_F.hex() == "0x1.921fb60000000p+1"
assert abs(exact_normal(0.5) - 0.6744897501960817) < 1e-15          # Phi^-1(0.75)

# ---- data ----
KEYS32 = [key(0), key(1), key(42), key(1701), split_key(key(0), 1), fold_in(key(2024), 7)]
INDICES = [0, 1, 2, 3, 4, 5, 1000, 65537]
KEYS64 = KEYS32 + [fold_in(key(2024), i) for i in range(10)]

# name, the float32 form, the float64 form, the parameter sets (Alea's Floats)
DISTRIBUTIONS = [
    ("cauchy", cauchy32, cauchy64, [()]),
    ("laplace", laplace32, laplace64, [()]),
    ("logistic", logistic32, logistic64, [()]),
    ("lognormal", lognormal32, lognormal64, [(1.0,), (0.5,), (2.5,)]),
    ("maxwell", maxwell32, maxwell64, [()]),
    ("double_sided_maxwell", double_sided_maxwell32, double_sided_maxwell64,
     [(0.0, 1.0), (2.5, 0.5), (-1.0, 3.0)]),
    ("pareto", pareto32, pareto64, [(1.0,), (3.0,), (0.5,)]),
    ("rayleigh", rayleigh32, rayleigh64, [(1.0,), (2.0,)]),
    ("triangular", triangular32, triangular64,
     [(0.0, 0.5, 1.0), (-1.0, 2.0, 3.0), (0.0, 0.0, 1.0), (2.0, 5.0, 5.0)]),
    ("truncated_normal", truncated_normal32, truncated_normal64,
     [(-1.0, 2.0), (0.0, math.inf), (-math.inf, math.inf), (1.5, 3.0), (-0.5, 0.5)]),
    ("wald", wald32, wald64, [(1.0,), (0.5,), (3.0,)]),
    ("weibull_min", weibull_min32, weibull_min64, [(1.0, 1.0), (2.0, 0.5), (0.5, 3.0)]),
]

HEADER = """\
# JAX's transformations of uniform and normal draws, partitionable Threefry. DERIVED by
# derive_transforms.py (an independent from-spec Python version of JAX's jax.random;
# not JAX output). Regenerate: python3 derive_transforms.py > transforms_derived.txt
# FORM NAME K0 K1 INDEX VALUE TOL PARAM...
#   FORM f32: element INDEX of a float32 tensor draw (x64 off); f64: the 0-d float64
#   draw (jax_enable_x64; INDEX 0); i32/i64: rademacher's int32 element / int64 0-d draw.
#   K0 K1: key_data [hi, lo] (decimal u32). VALUE and PARAMs: float.hex (the params are
#   the Float arguments; the f32 form rounds them to float32 first, as JAX does).
#   TOL: ulps of VALUE within which a draw whose transcendental functions are each within
#   2 ulp of correctly rounded must land (see the script's docstring); 0 means exact."""


def main():
    print(HEADER)
    for name, form32, form64, param_sets in DISTRIBUTIONS:
        for params in param_sets:
            ps = " ".join(p.hex() for p in params)
            for k in KEYS32:
                for i in INDICES:
                    v, tol = with_tolerance(lambda P: form32(k, i, P, *params), False)
                    print(" ".join(["f32 %s %d %d %d %s %s" % (name, k[0], k[1], i, v.hex(), tol)]
                                   + ([ps] if ps else [])))
            for k in KEYS64:
                v, tol = with_tolerance(lambda P: form64(k, P, *params), True)
                print(" ".join(["f64 %s %d %d 0 %s %s" % (name, k[0], k[1], v.hex(), tol)]
                               + ([ps] if ps else [])))
    for k in KEYS32:
        for i in INDICES:
            sign = 1 if rademacher_bit32(k, i) else -1
            print("i32 rademacher %d %d %d %d 0" % (k[0], k[1], i, sign))
    for k in KEYS64:
        print("i64 rademacher %d %d 0 %d 0" % (k[0], k[1], 1 if uniform64(k, 0) < 0.5 else -1))


if __name__ == "__main__":
    main()
