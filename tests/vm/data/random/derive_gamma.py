#!/usr/bin/env python3
"""Derive known answers for JAX's gamma family of random draws in
partitionable Threefry mode (jax_threefry_partitionable=True): gamma,
loggamma, chisquare, f, t, beta, dirichlet, generalized_normal and ball.

An independent from-spec reimplementation, Python 3 standard library only.
Usage: python3 derive_gamma.py > gamma_derived.txt   (output is deterministic)
Function names cited are those of JAX's jax.random implementation.

Two forms of each draw:
  f32  what JAX computes for dtype float32 without x64: every operation is
       rounded to f32 (struct pack/unpack) in JAX's order. Where JAX calls a
       transcendental function (log, log1p, exp, pow, erf_inv), this script
       takes the double result (libm, or Newton on erf/erfc) rounded once to
       f32, i.e. (almost always) the correctly rounded f32; Alea's own f32
       math is within 2 ulp of that, so Alea's values agree within a few ulp.
  f64  JAX's 0-d float64 draw with jax_enable_x64: Python floats with libm's
       log/log1p/exp/pow/sqrt (the functions Alea's scalar forms call), and
       normal draws as the correctly rounded sqrt(2) * erfinv(u) (Decimal).
"""
import math
import struct
from decimal import Decimal, localcontext

M32 = 0xFFFFFFFF


# ---- Threefry-2x32, 20 rounds (Random123) ----
def threefry(key, ctr):
    rot = ((13, 15, 26, 6), (17, 29, 16, 24))
    ks = (key[0], key[1], (key[0] ^ key[1] ^ 0x1BD11BDA) & M32)
    x0 = (ctr[0] + ks[0]) & M32
    x1 = (ctr[1] + ks[1]) & M32
    for group in range(5):
        for r in rot[group % 2]:
            x0 = (x0 + x1) & M32
            x1 = ((x1 << r) | (x1 >> (32 - r))) & M32
            x1 ^= x0
        inj = group + 1
        x0 = (x0 + ks[inj % 3]) & M32
        x1 = (x1 + ks[(inj + 1) % 3] + inj) & M32
    return x0, x1


def key(seed):
    return (0, seed)


def split_key(k, i):    # _threefry_split, partitionable: key i hashes counter (i >> 32, i)
    return threefry(k, (i >> 32, i & M32))


def split(k, n=2):
    return [split_key(k, i) for i in range(n)]


def fold_in(k, d):
    return threefry(k, (0, d))


def bits32(k, i):       # element i of _threefry_random_bits_partitionable, 32 bits
    y0, y1 = threefry(k, (i >> 32, i & M32))
    return y0 ^ y1


def bits64(k):          # a 0-d 64-bit draw: counter (0, 0), both words
    y0, y1 = threefry(k, (0, 0))
    return (y0 << 32) | y1


# ---- IEEE helpers ----
INF, NAN = math.inf, math.nan


def f32(x):
    """Round a double to the nearest f32 (ties to even), overflow to inf."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(INF, x)


def div(a, b):
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return NAN
        return math.copysign(INF, a) * math.copysign(1.0, b)
    return a / b


def log(x):
    if math.isnan(x) or x < 0.0:
        return NAN
    if x == 0.0:
        return -INF
    return math.log(x)


def log1p(x):
    if math.isnan(x) or x < -1.0:
        return NAN
    if x == -1.0:
        return -INF
    return math.log1p(x)


def exp(x):
    try:
        return math.exp(x)
    except OverflowError:
        return INF


def power(x, y):
    try:
        return math.pow(x, y)
    except (ValueError, OverflowError):
        if x == 0.0 and y < 0.0:
            return INF
        if math.isinf(y) or math.isinf(x):
            return INF
        return NAN


def sqrt(x):
    return NAN if (math.isnan(x) or x < 0.0) else math.sqrt(x)


def xla_max(a, b):      # lax.max: NaN if either is NaN
    if math.isnan(a) or math.isnan(b):
        return NAN
    return a if a > b else b


# ---- inverse error function ----
def erfinv_double(y):
    """erfinv in double: bisection, then Newton on erf (|y| <= 0.5) or erfc."""
    if y == 0.0:
        return 0.0
    a = abs(y)
    lo, hi = 0.0, 10.0
    for _ in range(80):
        mid = (lo + hi) / 2
        below = math.erf(mid) < a if a <= 0.5 else math.erfc(mid) > 1.0 - a
        lo, hi = (mid, hi) if below else (lo, mid)
    x = (lo + hi) / 2
    for _ in range(3):
        slope = 2.0 / math.sqrt(math.pi) * math.exp(-x * x)
        r = math.erf(x) - a if a <= 0.5 else (1.0 - a) - math.erfc(x)
        x -= r / slope
    return math.copysign(x, y)


PREC = 60


def dec_pi():
    with localcontext() as c:
        c.prec = PREC + 20
        # Machin: pi = 16 atan(1/5) - 4 atan(1/239)
        def atan_inv(n):
            total, term, k, sign = Decimal(0), Decimal(1) / n, 1, 1
            n2 = n * n
            while term != 0:
                total += sign * term / k
                term /= n2
                k += 2
                sign = -sign
            return total
        return 16 * atan_inv(5) - 4 * atan_inv(239)


PI = dec_pi()


def dec_erf(x, prec):   # Taylor series, with digits to spare for its cancellation
    with localcontext() as c:
        c.prec = prec
        x2, p, s, n = x * x, x, Decimal(0), 0
        tiny = Decimal(10) ** -(prec - 5)
        while True:
            term = p / (2 * n + 1)
            s += -term if n % 2 else term
            if abs(term) < tiny and n > 2:
                break
            n += 1
            p = p * x2 / n
        return 2 / PI.sqrt() * s


def normal_f64_exact(u):
    """sqrt(2) * erfinv(u), correctly rounded to double; u a double in (-1, 1)."""
    if u == 0.0:
        return 0.0
    y = Decimal(abs(u))
    x = Decimal(erfinv_double(abs(u)))
    prec = PREC + 10 + int(float(x) ** 2 / 2.3)   # e^(x^2) of cancellation in the series
    with localcontext() as c:
        c.prec = prec
        for _ in range(40):
            dx = (dec_erf(x, prec + 10) - y) / (2 / PI.sqrt() * (-x * x).exp())
            x -= dx
            if abs(dx) < Decimal(10) ** -(PREC + 5):
                break
        else:
            raise AssertionError("Newton did not converge")
        v = Decimal(2).sqrt() * x
        f = float(v)
        for g in (math.nextafter(f, INF), math.nextafter(f, -INF)):   # not near a tie
            assert abs(v - (Decimal(f) + Decimal(g)) / 2) > abs(v) * Decimal(10) ** -(PREC - 20)
        return f if u > 0 else -f


# ---- the two dtypes: their rounding, math and 0-d sub-draws ----
class F32:
    R = staticmethod(f32)
    ONE_THIRD = f32(1.0 / 3.0)
    SQUEEZE = f32(0.0331)
    SQRT2 = f32(math.sqrt(2.0))
    NORMAL_LO = -(1.0 - 2.0 ** -24)     # nextafter(-1, 0) in f32

    @staticmethod
    def log(x): return f32(log(x))

    @staticmethod
    def exp(x): return f32(exp(x))

    @staticmethod
    def pow(x, y): return f32(power(x, y))

    @staticmethod
    def sqrt(x): return f32(sqrt(x))

    @staticmethod
    def uniform(k, i=0):   # _uniform, [0, 1): the top 23 bits as a mantissa, minus 1
        return (bits32(k, i) >> 9) * 2.0 ** -23

    @classmethod
    def normal(cls, k, i=0):   # _normal_real: uniform(nextafter(-1, 0), 1), sqrt(2) erf_inv
        lo = cls.NORMAL_LO
        scale = f32(1.0 - lo)
        u = xla_max(lo, f32(f32(cls.uniform(k, i) * scale) + lo))
        return f32(cls.SQRT2 * f32(erfinv_double(u)))

    @classmethod
    def exponential(cls, k, i=0):   # _exponential: -log1p(-u)
        return -f32(log1p(-cls.uniform(k, i)))

    @classmethod
    def bernoulli_half(cls, k, i=0):   # _bernoulli with p = 0.5 (float32 without x64)
        return cls.uniform(k, i) < 0.5


class F64:
    R = staticmethod(lambda x: x)
    ONE_THIRD = 1.0 / 3.0
    SQUEEZE = 0.0331

    @staticmethod
    def log(x): return log(x)

    @staticmethod
    def exp(x): return exp(x)

    @staticmethod
    def pow(x, y): return power(x, y)

    @staticmethod
    def sqrt(x): return sqrt(x)

    @staticmethod
    def uniform(k):        # 0-d float64: the top 52 of 64 bits as a mantissa, minus 1
        return (bits64(k) >> 12) * 2.0 ** -52

    @classmethod
    def normal(cls, k):
        lo = math.nextafter(-1.0, 0.0)
        u = xla_max(lo, (cls.uniform(k) * (1.0 - lo)) + lo)
        return normal_f64_exact(u)

    @classmethod
    def exponential(cls, k):
        return -log1p(-cls.uniform(k))

    @classmethod
    def bernoulli_half(cls, k):   # p = 0.5 is a Python float: float64 under x64
        return cls.uniform(k) < 0.5


# ---- _gamma_one ----
def gamma_one(T, k, alpha, log_space):
    R = T.R
    alpha = R(alpha)
    boost_mask = alpha >= 1.0
    alpha_b = alpha if boost_mask else R(alpha + 1.0)
    d = R(alpha_b - T.ONE_THIRD)
    c = R(div(T.ONE_THIRD, T.sqrt(d)))

    def cond(X, V, U):   # both comparisons, as lax.bitwise_and
        first = U >= R(1.0 - R(T.SQUEEZE * R(X * X)))
        second = T.log(U) >= R(R(X * 0.5) + R(d * R(R(1.0 - V) + T.log(V))))
        return first and second

    key_, subkey = split(k)
    X, V, U = 0.0, 1.0, 2.0
    while cond(X, V, U):                 # _body_fn
        key_, x_key, u_key = split(key_, 3)
        x, v = 0.0, -1.0
        while v <= 0.0:                  # _next_kxv
            x_key, sub = split(x_key)
            x = T.normal(sub)
            v = R(1.0 + R(x * c))
        X = R(x * x)
        V = R(R(v * v) * v)
        U = T.uniform(u_key)
    if log_space:
        log_samples = -T.exponential(subkey)
        if boost_mask or log_samples == 0.0:
            log_boost = 0.0
        else:
            log_boost = R(log_samples * R(div(1.0, alpha)))
        return R(R(T.log(d) + T.log(V)) + log_boost)
    samples = R(1.0 - T.uniform(subkey))
    boost = 1.0 if boost_mask else T.pow(samples, R(div(1.0, alpha)))
    return R(R(d * V) * boost)


# ---- the distributions: element i of a tensor draw (f32), or the 0-d draw (f64) ----
def gamma(T, k, a, i=0, log_space=False):    # _gamma_impl: one key per element
    return gamma_one(T, split_key(k, i), a, log_space)


def chisquare(T, k, df, i=0):
    R = T.R
    half = R(R(df) / 2.0)
    return R(T.exp(gamma(T, k, half, i, True)) * 2.0)


def f_dist(T, k, dfnum, dfden, i=0):
    R = T.R
    key_dfd, key_dfn = split(k)
    num = R(div(chisquare(T, key_dfn, dfnum, i), R(dfnum)))
    den = R(div(chisquare(T, key_dfd, dfden, i), R(dfden)))
    return R(div(num, den))


def student_t(T, k, df, i=0):
    R = T.R
    key_n, key_g = split(k)
    n = T.normal(key_n, i) if T is F32 else T.normal(key_n)
    half = R(R(df) / 2.0)
    g = gamma(T, key_g, half, i)
    return R(n * T.sqrt(R(div(half, g))))


def beta(T, k, a, b, i=0):
    R = T.R
    key_a, key_b = split(k)
    la = gamma(T, key_a, a, i, True)
    lb = gamma(T, key_b, b, i, True)
    m = xla_max(la, lb)
    ga = T.exp(R(la - m))
    gb = T.exp(R(lb - m))
    return R(div(ga, R(ga + gb)))


def dirichlet_row(k, alpha, row):           # f32 only; _softmax over the last axis
    n = len(alpha)
    logs = [gamma(F32, k, alpha[j], row * n + j, True) for j in range(n)]
    m = -INF
    for x in logs:
        m = xla_max(m, x)
    un = [F32.exp(f32(x - m)) for x in logs]
    total = 0.0
    for x in un:
        total = f32(total + x)
    return [f32(div(x, total)) for x in un]


def pow_of_constant(T, x, y):   # XLA: pow(x, 2) -> x * x, pow(x, 1) -> x
    if y == 2.0:
        return T.R(x * x)
    if y == 1.0:
        return x
    return T.pow(x, y)


def generalized_normal(T, k, p, i=0):
    R = T.R
    k0, k1 = split(k)
    inv_p = R(1.0 / p)
    g = gamma(T, k0, inv_p, i)
    heads = T.bernoulli_half(k1, i) if T is F32 else T.bernoulli_half(k1)
    r = 1.0 if heads else -1.0
    return R(r * pow_of_constant(T, g, inv_p))


def ball_row(k, d, p, row):                 # f32 only
    k1, k2 = split(k)
    g = [generalized_normal(F32, k1, p, row * d + j) for j in range(d)]
    e = F32.exponential(k2, row)
    total = 0.0
    for x in g:
        total = f32(total + pow_of_constant(F32, abs(x), f32(p)))
    norm = pow_of_constant(F32, f32(total + e), f32(1.0 / p))
    return [f32(div(x, norm)) for x in g]


# ---- known-answer checks before writing anything ----
assert threefry((0, 0), (0, 0)) == (0x6B200159, 0x99BA4EFE)           # Random123 KAT
assert threefry((M32, M32), (M32, M32)) == (0x1CB996FC, 0xBB002BE7)
assert split(key(0)) == [(1797259609, 2579123966), (928981903, 3453687069)]
assert fold_in(key(0), 4) == (2285895361, 433833334)
assert bits32(key(0), 0) == 4070199207
assert F32.uniform(key(0)) == f32(0.947667) == (4070199207 >> 9) / 2.0 ** 23
assert F32.NORMAL_LO == f32(F32.NORMAL_LO) and f32(1.0 - F32.NORMAL_LO) == 2.0
assert f32(2.0 ** 128) == INF and f32(1.0 + 2.0 ** -24) == 1.0
assert abs(F32.normal(key(0)) - 1.622642) < 5e-7      # docs/random.md, normal(key(0), [5])[0]
assert abs(normal_f64_exact(0.5) - 0.6744897501960817) < 1e-15   # Phi^-1(0.75)
assert F64.uniform(key(0)) == 0.41845711171638644                # scalar uniform(key(0))
assert F64.normal(key(0)) == -0.20584213947964342                 # scalar normal(key(0))

# ---- data ----
KEYS = [key(0), key(42), key(1701), split(key(0))[1], fold_in(key(7), 3)]
KEYS += [fold_in(key(2025), i) for i in range(3)]
N = 4                       # elements of each tensor draw
FAR = 1000003               # a start far into a draw: element i's own key
GAMMA_A = [0.3, 1.0, 2.0, 7.5, 0.01, 1e-4]
GAMMA_EDGE = [0.0, -0.5, 1e30]
LOGGAMMA_A = [0.01, 0.5, 2.0, 10.0]
CHI_DF = [1.0, 3.0, 10.0]
F_DF = [(5.0, 10.0), (1.0, 1.0), (20.0, 3.0)]
T_DF = [1.0, 4.0, 30.0]
BETA_AB = [(2.0, 5.0), (0.5, 0.5), (10.0, 1.0), (0.01, 0.02)]
DIRICHLET_ALPHA = [[1.0, 2.0, 3.0], [0.1, 0.1, 0.1, 0.1]]
GN_P = [0.5, 1.0, 1.5, 2.0, 4.0]
BALL = [(2, 2.0), (3, 1.0), (5, 0.5), (4, 3.0)]

HEADER = """\
# JAX's gamma family (jax.random gamma, loggamma, chisquare, f, t, beta, dirichlet,
# generalized_normal, ball) in partitionable Threefry mode. DERIVED by derive_gamma.py
# (independent from-spec Python reimplementation of JAX's jax.random; not JAX output).
# Regenerate: python3 derive_gamma.py > gamma_derived.txt
# K0 K1 = key_data [hi, lo] (decimal u32). Floats are Python float.hex().
# f32 lines: dtype float32 without x64; START then elements START.. of the draw. Each
#   operation rounded to f32; log/log1p/exp/pow/erf_inv correctly rounded (Alea's own f32
#   math is within 2 ulp of them, so compare within a few ulp).
# f64 lines: the 0-d float64 draw with jax_enable_x64 (libm math, exact normal draws).
# gamma_f32 K0 K1 A START V... | gamma_f64 K0 K1 A V | loggamma_f32/_f64 likewise
# chisquare_f32 K0 K1 DF START V... | chisquare_f64 K0 K1 DF V | t_* likewise
# f_f32 K0 K1 DFNUM DFDEN START V... | f_f64 K0 K1 DFNUM DFDEN V | beta_* (A B) likewise
# generalized_normal_f32 K0 K1 P START V... | generalized_normal_f64 K0 K1 P V
# dirichlet_f32 K0 K1 N ALPHA*N ROW V*N | ball_f32 K0 K1 D P ROW V*D"""


def hexes(values):
    return " ".join(float(v).hex() for v in values)


def main():
    print(HEADER)
    for k in KEYS:
        ks = "%d %d" % k
        for a in GAMMA_A + GAMMA_EDGE:
            for start in (0, FAR):
                vals = [gamma(F32, k, a, start + j) for j in range(N)]
                print("gamma_f32", ks, a.hex(), start, hexes(vals))
            print("gamma_f64", ks, a.hex(), gamma(F64, k, a).hex())
        for a in LOGGAMMA_A:
            vals = [gamma(F32, k, a, j, True) for j in range(N)]
            print("loggamma_f32", ks, a.hex(), 0, hexes(vals))
            print("loggamma_f64", ks, a.hex(), gamma(F64, k, a, 0, True).hex())
        for df in CHI_DF:
            print("chisquare_f32", ks, df.hex(), 0, hexes(chisquare(F32, k, df, j) for j in range(N)))
            print("chisquare_f64", ks, df.hex(), chisquare(F64, k, df).hex())
        for num, den in F_DF:
            print("f_f32", ks, num.hex(), den.hex(), 0,
                  hexes(f_dist(F32, k, num, den, j) for j in range(N)))
            print("f_f64", ks, num.hex(), den.hex(), f_dist(F64, k, num, den).hex())
        for df in T_DF:
            print("t_f32", ks, df.hex(), 0, hexes(student_t(F32, k, df, j) for j in range(N)))
            print("t_f64", ks, df.hex(), student_t(F64, k, df).hex())
        for a, b in BETA_AB:
            print("beta_f32", ks, a.hex(), b.hex(), 0,
                  hexes(beta(F32, k, a, b, j) for j in range(N)))
            print("beta_f64", ks, a.hex(), b.hex(), beta(F64, k, a, b).hex())
        for p in GN_P:
            print("generalized_normal_f32", ks, p.hex(), 0,
                  hexes(generalized_normal(F32, k, p, j) for j in range(N)))
            print("generalized_normal_f64", ks, p.hex(), generalized_normal(F64, k, p).hex())
        for alpha in DIRICHLET_ALPHA:
            for row in (0, 1, FAR):
                print("dirichlet_f32", ks, len(alpha), hexes(alpha), row,
                      hexes(dirichlet_row(k, alpha, row)))
        for d, p in BALL:
            for row in (0, 1, FAR):
                print("ball_f32", ks, d, p.hex(), row, hexes(ball_row(k, d, p, row)))


if __name__ == "__main__":
    main()
