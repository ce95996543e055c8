#!/usr/bin/env python3
"""Derive known answers for JAX's discrete and multivariate samplers in
partitionable Threefry mode (jax_threefry_partitionable=True): poisson,
binomial, geometric, choice, permutation (shuffle), multinomial,
multivariate_normal and orthogonal.

An independent from-spec reimplementation, Python 3 standard library only.
Usage: python3 derive_discrete.py > discrete_derived.txt  (output is deterministic)
Function names cited refer to jax/_src/random.py.

Tensor forms are what JAX computes for float32/int32 without x64: every f32
operation is done in double and rounded to f32 (f32() below), which is the
correctly rounded f32 result for + - * / sqrt; log, log1p, lgamma and
erfinv are the double functions rounded to f32 (correctly rounded but for
rare double-rounding cases). Alea's f32 math is within 2 ulp of those, so a
decision taken within a hair of its threshold may go the other way in Alea:
such elements are marked with a trailing '~' (see FRAGILE), and tests only
require them to be close. Scalar forms are JAX's 0-d draws with
jax_enable_x64, in double with the C library's math (Python's math module
calls the same functions), except poisson, which JAX computes in float32
even then.

Where JAX's tensor-wide rejection loops (_poisson_rejection, _btrs) let a
later round overwrite an element that was already accepted, this derivation
keeps each element's FIRST acceptance, as Alea does (docs/random.md,
"Departures from JAX"); for a 0-d draw the two agree.
"""
import math
import struct

M32 = 0xFFFFFFFF
FLT_MIN = 2.0 ** -126


# ---- f32 arithmetic ----
def f32(x):
    """x rounded to the nearest f32 (ties to even), as a Python float."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def logf(x):
    if math.isnan(x) or x < 0:
        return math.nan
    if x == 0:
        return -math.inf
    if math.isinf(x):
        return math.inf
    return f32(math.log(x))


def log1p64(x):
    if math.isnan(x) or x < -1:
        return math.nan
    if x == -1:
        return -math.inf
    return math.log1p(x)  # keeps the sign of a zero


def log1pf(x):
    return f32(log1p64(x))


def lgammaf(x):
    return f32(math.lgamma(x))


def div(a, b):
    """IEEE a / b (Python raises on a zero divisor)."""
    if b != 0 or math.isnan(a) or math.isnan(b):
        return a / b if b != 0 else math.nan
    if a == 0:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def floor_(x):
    return x if math.isnan(x) or math.isinf(x) else float(math.floor(x))


def ceil_(x):
    return x if math.isnan(x) or math.isinf(x) else float(math.ceil(x))


def to_int(x, bits):
    """XLA's float -> int conversion: NaN to 0, out of range saturating."""
    if math.isnan(x):
        return 0
    lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    if x <= lo:
        return lo
    if x >= hi:
        return hi
    return int(x)


# A decision (comparison, floor or ceil) whose operands come from log,
# log1p or lgamma and lie within this relative distance of its threshold
# might be taken the other way by f32 functions that are 2 ulp off: the
# element is then FRAGILE.
FRAGILE_REL = 2.0 ** -16


class Fragility:
    def __init__(self):
        self.flag = False

    def near(self, a, b):
        if math.isinf(a) or math.isinf(b) or math.isnan(a) or math.isnan(b):
            return
        if abs(a - b) <= FRAGILE_REL * max(abs(a), abs(b), 1e-30):
            self.flag = True

    def near_integer(self, x):
        if math.isinf(x) or math.isnan(x):
            return
        self.near(x, float(round(x)))


# ---- Threefry-2x32, 20 rounds (Random123 threefry2x32 / JAX threefry2x32_p) ----
def threefry(key, ctr):
    R = (13, 15, 26, 6, 17, 29, 16, 24)
    ks = (key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDA)
    x0, x1 = (ctr[0] + ks[0]) & M32, (ctr[1] + ks[1]) & M32
    for i in range(1, 6):
        for r in (R[0:4] if i % 2 == 1 else R[4:8]):
            x0 = (x0 + x1) & M32
            x1 = ((x1 << r) | (x1 >> (32 - r))) & M32
            x1 ^= x0
        x0 = (x0 + ks[i % 3]) & M32
        x1 = (x1 + ks[(i + 1) % 3] + i) & M32
    return x0, x1


def key(seed):          # key(seed) for 0 <= seed < 2^32: [0, seed]
    return (0, seed)


def split_key(k, i):    # _threefry_split, partitionable: key i = threefry(k, (i >> 32, i))
    return threefry(k, (i >> 32, i & M32))


def split(k, n=2):
    return [split_key(k, i) for i in range(n)]


def fold_in(k, d):
    return threefry(k, (0, d))


def bits32(k, i):       # element i of _random_bits(k, 32, shape): the two words xored
    y0, y1 = threefry(k, (i >> 32, i & M32))
    return y0 ^ y1


def bits64(k):          # a 0-d 64-bit draw: counter (0, 0), both words
    y0, y1 = threefry(k, (0, 0))
    return (y0 << 32) | y1


def uniform32(k, i, lo=0.0, hi=1.0):
    """Element i of _uniform(k, shape, float32, lo, hi)."""
    u = (bits32(k, i) >> 9) * 2.0 ** -23   # exact: 23 bits of mantissa, minus 1
    lo, hi = f32(lo), f32(hi)
    return max(lo, f32(f32(u * f32(hi - lo)) + lo))


def uniform64(k, lo=0.0, hi=1.0):
    u = (bits64(k) >> 12) * 2.0 ** -52
    return max(lo, u * (hi - lo) + lo)


# ---- normal (f32): sqrt(2) * erfinv(u), u uniform on (nextafter(-1, 0), 1) ----
NORMAL_LO32 = -f32(1.0 - 2.0 ** -24)   # np.nextafter(float32(-1), float32(0))
SQRT2_32 = f32(math.sqrt(2.0))


def erfinv(y):          # double erfinv by bisection on erf (erfc near 1): ~1 ulp
    if y == 0:
        return 0.0
    a = abs(y)
    lo, hi = 0.0, 10.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if (math.erf(mid) < a) if a < 0.5 else (math.erfc(mid) > 1.0 - a):
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return x if y > 0 else -x


def normal32(k, i):
    u = uniform32(k, i, NORMAL_LO32, 1.0)
    return f32(SQRT2_32 * f32(erfinv(u)))


# ---- permutation (_shuffle): sort rounds by fresh bits ----
def permutation(k, n):
    rounds = int(math.ceil(3 * math.log(max(1, n)) / math.log(M32)))
    x = list(range(n))
    for _ in range(rounds):
        k, sub = split_key(k, 0), split_key(k, 1)
        sort_keys = [bits32(sub, i) for i in range(n)]
        order = sorted(range(n), key=lambda i: sort_keys[i])   # stable
        x = [x[i] for i in order]
    return x


# ---- poisson: Knuth for lam < 10, transformed rejection (PTRS) above ----
def poisson_knuth(k, i, lam, frag):
    # _poisson_knuth: rng, subkey = split(rng); k += log_prod > -lam; log_prod += log(u)
    count, log_prod = 0, 0.0
    while True:
        frag.near(log_prod, -lam)
        if not log_prod > -lam:
            return count - 1
        count += 1
        k, sub = split_key(k, 0), split_key(k, 1)
        log_prod = f32(log_prod + logf(uniform32(sub, i)))


def poisson_rejection(k, i, lam, frag):
    log_lam = logf(lam)
    b = f32(f32(0.931) + f32(f32(2.53) * f32(math.sqrt(lam))))
    a = f32(f32(-0.059) + f32(f32(0.02483) * b))
    inv_alpha = f32(f32(1.1239) + f32(f32(1.1328) / f32(b - f32(3.4))))
    v_r = f32(f32(0.9277) - f32(f32(3.6224) / f32(b - 2)))
    while True:
        k, s0, s1 = split_key(k, 0), split_key(k, 1), split_key(k, 2)
        u = uniform32(s0, i) - 0.5
        v = uniform32(s1, i)
        us = 0.5 - abs(u)
        # (2 * a / u_shifted + b) * u + lam + 0.43, one rounding per operation
        t = f32(f32(div(f32(2 * a), us)) + b)
        t = f32(f32(f32(t * u) + lam) + f32(0.43))
        kk = floor_(t)
        accept1 = us >= f32(0.07) and v <= v_r
        if accept1:
            return kk
        reject = kk < 0 or (us < f32(0.013) and v > us)
        if reject:
            continue
        s = logf(f32(div(f32(v * inv_alpha), f32(f32(div(a, f32(us * us))) + b))))
        t = f32(f32(-lam + f32(kk * log_lam)) - lgammaf(f32(kk + 1)))
        frag.near(s, t)
        if s <= t:
            return kk


def poisson_element(k, i, lam, frag):
    """Element i of poisson(k, lam, shape) in f32 (the int before conversion)."""
    lam = f32(lam)
    if lam == 0:
        return 0.0
    if lam < 10:
        return float(poisson_knuth(k, i, lam, frag))
    return poisson_rejection(k, i, lam, frag)


# ---- binomial: inversion for count * q <= 10, BTRS above (_binomial) ----
STIRLING = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
            0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
            0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
            0.00833056343336287]


class Arith:
    """The float type of a draw: f32 (tensor forms) or f64 (x64 scalars)."""

    def __init__(self, single):
        self.single = single
        self.r = f32 if single else (lambda x: x)
        self.log = logf if single else (lambda x: -math.inf if x == 0 else
                                        (math.nan if x < 0 else math.log(x)))
        self.log1p = log1pf if single else log1p64

    def c(self, x):     # a Python constant in this dtype (JAX's weak types)
        return self.r(x)

    def uniform(self, k, i):
        return uniform32(k, i) if self.single else uniform64(k)


def stirling_tail(A, kk):
    # _stirling_approx_tail, as JAX writes it: k is clamped to [0, 9] before
    # the series too, so above 9 it is the series at 9.
    r, c = A.r, A.c
    use_table = kk <= 9
    kc = min(max(kk, 0.0), 9.0)
    kp1 = r(kc + 1)
    kp1sq = r(kp1 * kp1)
    approx = r(r(c(1.0 / 12) - r(r(c(1.0 / 360) - r(c(1.0 / 1260) / kp1sq)) / kp1sq)) / kp1)
    return c(STIRLING[int(floor_(kc))]) if use_table else approx


def binomial_inversion(A, k, i, count, q, frag):
    r = A.r
    log1mq = A.log1p(-q)
    num_geom, geom_sum = 0.0, 0.0
    while True:
        # subkey, key = split(key): the FIRST key draws here.
        sub, k = split_key(k, 0), split_key(k, 1)
        if not geom_sum <= count:
            return r(num_geom - 1)
        num_geom = r(num_geom + 1)
        quotient = r(div(A.log(A.uniform(sub, i)), log1mq))
        frag.near_integer(quotient)
        geom_sum = r(geom_sum + ceil_(quotient))


def btrs(A, k, i, count, prob, frag):
    r, c, log = A.r, A.c, A.log
    stddev = r(math.sqrt(r(r(count * prob) * r(1 - prob))))
    b = r(c(1.15) + r(c(2.53) * stddev))
    a = r(r(c(-0.0873) + r(c(0.0248) * b)) + r(c(0.01) * prob))
    cc = r(r(count * prob) + 0.5)
    v_r = r(c(0.92) - r(c(4.2) / b))
    ratio = r(prob / r(1 - prob))
    alpha = r(r(c(2.83) + r(c(5.1) / b)) * stddev)
    m = floor_(r(r(count + 1) * prob))
    while True:
        k, s0, s1 = split_key(k, 0), split_key(k, 1), split_key(k, 2)
        u = A.uniform(s0, i)
        v = A.uniform(s1, i)
        u = u - 0.5
        us = 0.5 - abs(u)
        accept1 = us >= c(0.07) and v <= v_r
        t = r(r(div(r(2 * a), us)) + b)      # (2 * a / us + b) * u + c
        kk = floor_(r(r(t * u) + cc))
        if accept1:
            return kk
        if kk < 0 or kk > count:
            continue
        v2 = log(r(div(r(v * alpha), r(r(div(a, r(us * us))) + b))))
        t1 = r(r(m + 0.5) * log(r(r(m + 1) / r(ratio * r(r(count - m) + 1)))))
        t2 = r(r(count + 1) * log(r(r(r(count - m) + 1) / r(r(count - kk) + 1))))
        t3 = r(r(kk + 0.5) * log(r(r(ratio * r(r(count - kk) + 1)) / r(kk + 1))))
        ub = r(r(t1 + t2) + t3)
        ub = r(ub + stirling_tail(A, m))
        ub = r(ub + stirling_tail(A, r(count - m)))
        ub = r(ub - stirling_tail(A, kk))
        ub = r(ub - stirling_tail(A, r(count - kk)))
        frag.near(v2, ub)
        if v2 <= ub:
            return kk


def binomial_element(A, k, i, n, p, frag):
    """Element i of binomial(k, n, p, shape) (valid n >= 0, 0 <= p <= 1)."""
    r = A.r
    count, prob = r(n), r(p)
    p_lt_half = prob < 0.5
    q = prob if p_lt_half else r(1.0 - prob)
    if math.isinf(count):
        return math.inf
    use_inversion = r(count * q) <= 10.0
    count = floor_(count)
    if use_inversion:
        s = binomial_inversion(A, k, i, count, q, frag)
    else:
        s = btrs(A, k, i, count, q, frag)
    return s if p_lt_half else r(count - s)


# ---- geometric: floor(log(u) / log1p(-p)) + 1, u == 0 taken as 1 ----
def geometric_value(A, k, i, p, frag):
    pp = A.r(p)
    u = A.uniform(k, i)
    if u == 0:
        u = 1.0
    log_u, log_q = A.log(u), A.log1p(-pp)
    quotient = A.r(div(log_u, log_q))
    if log_u != 0 and not math.isinf(log_q):   # else the quotient is exactly 0
        frag.near_integer(quotient)
    return A.r(floor_(quotient) + 1)


# ---- choice ----
def gumbel32(k, i):     # _gumbel, mode "low": -log(-log(uniform(tiny, 1)))
    return -logf(-logf(uniform32(k, i, FLT_MIN, 1.0)))


def choice_indices(k, n, size, replace, p, scalar):
    """The indices jax.random.choice(k, n, shape, replace, p) picks, flattened."""
    if p is None:
        if replace:
            if scalar:   # randint(key, (), 0, n) in int64 (x64)
                return [randint64(k, 0, n)]
            return [randint32(k, i, 0, n) for i in range(size)]
        return permutation(k, n)[:size]
    p = [f32(x) for x in p]
    if replace:
        cum, acc = [], 0.0
        for x in p:
            acc = f32(acc + x)
            cum.append(acc)
        out = []
        for i in range(size):
            rr = f32(cum[-1] * f32(1 - uniform32(k, i)))
            out.append(next(j for j, c in enumerate(cum) if not c < rr))
        return out
    g = [f32(gumbel32(k, i) + logf(x)) for i, x in enumerate(p)]
    order = sorted(range(n), key=lambda i: -g[i])       # lax.top_k: ties by index
    return order[:size]


def choice_fragile(k, n, size, p):
    """Whether the Gumbel top-k order of choice without replacement hangs on
    two perturbed log-probabilities within a hair of each other."""
    frag = Fragility()
    g = sorted(f32(gumbel32(k, i) + logf(f32(x))) for i, x in enumerate(p))
    for a, b in zip(g, g[1:]):
        frag.near(a, b)
    return frag.flag


def randint32(k, i, lo, hi):     # _randint, int32 (bounds within int32 here)
    k1, k2 = split_key(k, 0), split_key(k, 1)
    higher, lower = bits32(k1, i), bits32(k2, i)
    span = 1 if hi <= lo else (hi - lo) & M32
    mult = (2 ** 16) % span
    mult = ((mult * mult) & M32) % span
    off = ((((higher % span) * mult) & M32) + lower % span) & M32
    return lo + off % span


def randint64(k, lo, hi):
    k1, k2 = split_key(k, 0), split_key(k, 1)
    higher, lower = bits64(k1), bits64(k2)
    M64 = 2 ** 64 - 1
    span = 1 if hi <= lo else (hi - lo) & M64
    mult = (2 ** 32) % span
    mult = ((mult * mult) & M64) % span
    off = ((((higher % span) * mult) & M64) + lower % span) & M64
    return lo + off % span


# ---- multinomial: binomials on the remainder, category by category ----
def multinomial(k, n, p, batch, frag):
    A = Arith(True)
    p = [f32(x) for x in p]
    K = len(p)
    # lax.cumsum(p, reverse=True) as XLA's reduce-window: each suffix summed
    # from its first element onwards.
    remaining = []
    for j in range(K):
        acc = 0.0
        for x in p[j:]:
            acc = f32(acc + x)
        remaining.append(acc)
    ratios = [f32(p[j] / (1.0 if remaining[j] == 0 else remaining[j])) for j in range(K)]
    keys = split(k, K)
    out = []
    for b in range(batch):
        rem = f32(float(n))
        row = []
        for j in range(K):
            c = binomial_element(A, keys[j], b, rem, min(max(ratios[j], 0.0), 1.0), frag)
            rem = f32(rem - c)
            row.append(c)
        out.append(row)
    return out


# ---- multivariate_normal (method 'cholesky'): mean + L z, in double ----
def cholesky(a, n):
    L = [[0.0] * n for _ in range(n)]
    for j in range(n):
        s = a[j][j] - sum(L[j][t] ** 2 for t in range(j))
        L[j][j] = math.sqrt(s)
        for i in range(j + 1, n):
            L[i][j] = (a[i][j] - sum(L[i][t] * L[j][t] for t in range(j))) / L[j][j]
    return L


def multivariate_normal(k, mean, cov, batch):
    n = len(mean)
    mean = [f32(x) for x in mean]
    cov = [[f32(x) for x in row] for row in cov]
    L = cholesky(cov, n)
    out = []
    for b in range(batch):
        z = [normal32(k, b * n + j) for j in range(n)]
        out.append([mean[i] + sum(L[i][j] * z[j] for j in range(i + 1)) for i in range(n)])
    return out


# ---- orthogonal: Q of the QR of a normal matrix, R's diagonal made positive ----
def householder_q(a, n):
    """Q of A = QR by Householder reflections in double, columns scaled so
    that R's diagonal is positive (the unique such Q of a full-rank A)."""
    R = [row[:] for row in a]
    Q = [[float(i == j) for j in range(n)] for i in range(n)]
    for j in range(n):
        x = [R[i][j] for i in range(j, n)]
        norm = math.sqrt(sum(t * t for t in x))
        if norm == 0:
            continue
        alpha = -norm if x[0] >= 0 else norm
        v = x[:]
        v[0] -= alpha
        vv = sum(t * t for t in v)
        if vv == 0:
            continue
        for c in range(n):      # R = H R
            d = sum(v[t] * R[j + t][c] for t in range(len(v)))
            for t in range(len(v)):
                R[j + t][c] -= 2 * d / vv * v[t]
        for row in range(n):    # Q = Q H
            d = sum(Q[row][j + t] * v[t] for t in range(len(v)))
            for t in range(len(v)):
                Q[row][j + t] -= 2 * d / vv * v[t]
    for j in range(n):
        if R[j][j] < 0:
            for row in range(n):
                Q[row][j] = -Q[row][j]
    return Q


def orthogonal(k, n, batch):
    out = []
    for b in range(batch):
        z = [[normal32(k, b * n * n + i * n + j) for j in range(n)] for i in range(n)]
        out.append(householder_q(z, n))
    return out


# ---- known-answer checks before anything is written ----
assert threefry((0, 0), (0, 0)) == (0x6B200159, 0x99BA4EFE)          # Random123 KAT
assert threefry((M32, M32), (M32, M32)) == (0x1CB996FC, 0xBB002BE7)
assert split(key(0)) == [(1797259609, 2579123966), (928981903, 3453687069)]
assert bits32(key(0), 0) == 4070199207
assert uniform32(key(0), 0) == (4070199207 >> 9) / 2.0 ** 23
assert round(uniform32(key(0), 0), 6) == 0.947667                    # JAX's docstring
assert permutation(key(0), 10) == [0, 1, 8, 5, 6, 4, 3, 2, 7, 9]      # docs/random.md
assert [randint32(key(0), i, 0, 10) for i in range(5)] == [9, 0, 2, 3, 1]
assert randint64(key(0), 0, 10) == 5 and randint64(key(1701), -5, 5) == -3
assert f32(0.1) == 0.10000000149011612 and f32(1.0 - 2.0 ** -25) == 1.0
assert abs(normal32(key(0), 0) - 1.622642) < 1e-6                    # docs/random.md
assert erfinv(math.erf(0.5)) == 0.5 or abs(erfinv(math.erf(0.5)) - 0.5) < 1e-15


# ---- data ----
KEYS = [key(0), key(1), key(42), key(1701), split_key(key(0), 1), fold_in(key(7), 3)]
KEYS += [fold_in(key(2024), i) for i in range(6)]
POISSON_LAM = [0.0, 0.5, 3.0, 9.99, 10.0, 12.5, 100.0, 1000.0, 123456.0]
BINOMIAL_NP = [(10.0, 0.3), (5.0, 0.9), (0.0, 0.5), (1.0, 0.5), (7.5, 0.4), (50.0, 0.0),
               (50.0, 1.0), (100.0, 0.05), (100.0, 0.5), (1000.0, 0.2), (1000.0, 0.97),
               (1e6, 0.5), (math.inf, 0.3)]
GEOMETRIC_P = [1.0, 0.999, 0.5, 0.1, 0.01, 1e-6]
TENSOR_N = 12           # elements per tensor row

HEADER = """\
# JAX's discrete and multivariate samplers, partitionable Threefry. DERIVED by
# derive_discrete.py (independent from-spec Python reimplementation of jax/_src/random.py;
# not JAX output). Regenerate: python3 derive_discrete.py > discrete_derived.txt
# K0 K1 = key_data [hi, lo] (decimal u32); parameters as Python float.hex() (doubles).
# Tensor rows give elements 0..N-1 of the f32/i32 draw (JAX without x64; first acceptance
# kept in the rejection loops); *_scalar rows the 0-d draw with x64 (poisson: f32 even then).
# An f32 value with a trailing '~' took a decision within 2^-16 (relative) of its threshold
# on log/lgamma results: f32 functions a few ulp off may decide otherwise (tests allow it).
# Double (x64) rows are unmarked: Alea's scalar forms call the same C library functions.
# poisson K0 K1 LAM N v... | poisson_scalar K0 K1 LAM V
# binomial K0 K1 N P COUNT v... (f32 values, integers or inf) | binomial_scalar K0 K1 N P V
# geometric K0 K1 P COUNT v... | geometric_scalar K0 K1 P V
# permutation K0 K1 N v...
# choice K0 K1 N SIZE REPLACE P|- v... (indices) | choice_scalar K0 K1 N REPLACE P|- V
#   (P: comma-separated float.hex probabilities, '-' for none; a trailing '~' on the row:
#   its Gumbel top-k order hangs on a near tie)
# multinomial K0 K1 N P BATCH v... (row-major [BATCH, K] f32 counts)
# multivariate_normal K0 K1 MEAN COV BATCH v... (MEAN, COV comma-separated; values are
#   the exact math of the f32 inputs and f32 normals, in double: compare within tolerance)
# orthogonal K0 K1 NDIM BATCH v... (double QR of the f32 normals, R's diagonal positive)"""


def fmt_value(v, frag):
    if math.isinf(v):
        text = "inf" if v > 0 else "-inf"
    elif math.isnan(v):
        text = "nan"
    else:
        text = "%d" % int(v)
    return text + ("~" if frag else "")


def hexes(xs):
    return ",".join(float(x).hex() for x in xs)


def main():
    print(HEADER)
    for k in KEYS:
        ks = "%d %d" % k
        for lam in POISSON_LAM:
            vals = []
            for i in range(TENSOR_N):
                frag = Fragility()
                vals.append(fmt_value(poisson_element(k, i, lam, frag), frag.flag))
            print("poisson", ks, lam.hex(), TENSOR_N, " ".join(vals))
            frag = Fragility()
            v = poisson_element(k, 0, lam, frag)
            print("poisson_scalar", ks, lam.hex(), fmt_value(v, frag.flag))
        for n, p in BINOMIAL_NP:
            vals = []
            for i in range(TENSOR_N):
                frag = Fragility()
                vals.append(fmt_value(binomial_element(Arith(True), k, i, n, p, frag), frag.flag))
            print("binomial", ks, n.hex(), p.hex(), TENSOR_N, " ".join(vals))
            v = binomial_element(Arith(False), k, 0, n, p, Fragility())
            print("binomial_scalar", ks, n.hex(), p.hex(), fmt_value(v, False))
        for p in GEOMETRIC_P:
            vals = []
            for i in range(TENSOR_N):
                frag = Fragility()
                g = to_int(geometric_value(Arith(True), k, i, p, frag), 32)
                vals.append(fmt_value(g, frag.flag))
            print("geometric", ks, p.hex(), TENSOR_N, " ".join(vals))
            g = to_int(geometric_value(Arith(False), k, 0, p, Fragility()), 64)
            print("geometric_scalar", ks, p.hex(), fmt_value(g, False))
        for n in (1, 2, 10, 100, 2000):
            print("permutation", ks, n, " ".join(map(str, permutation(k, n))))
        probs = [0.1, 0.2, 0.3, 0.4, 0.0]
        skewed = [0.5, 1e-3, 2.0, 0.25, 0.0, 3.0]   # unnormalized weights
        for n, size, replace, p in ((10, 8, True, None), (10, 5, False, None),
                                    (1000, 7, True, None), (5, 12, True, probs),
                                    (5, 3, False, probs), (6, 9, True, skewed),
                                    (6, 4, False, skewed)):
            idx = choice_indices(k, n, size, replace, p, False)
            mark = " ~" if p is not None and not replace and choice_fragile(k, n, size, p) else ""
            print("choice", ks, n, size, int(replace), hexes(p) if p else "-",
                  " ".join(map(str, idx)) + mark)
            if size and (n, size) != (1000, 7):
                idx = choice_indices(k, n, 1, replace, p, True)
                mark = " ~" if p is not None and not replace and choice_fragile(k, n, 1, p) else ""
                print("choice_scalar", ks, n, int(replace), hexes(p) if p else "-",
                      str(idx[0]) + mark)
        for n, p, batch in ((10, [0.2, 0.3, 0.5], 4), (100, [0.1] * 10, 2),
                            (1000, [0.5, 0.25, 0.25], 3), (7, [0.0, 1.0, 0.0], 2),
                            (40, [3.0, 1.0, 0.0, 4.0], 3)):
            frag = Fragility()
            rows = multinomial(k, n, p, batch, frag)
            flat = " ".join("%d" % v for row in rows for v in row)
            print("multinomial", ks, n, hexes(p), batch, flat + (" ~" if frag.flag else ""))
        mean = [1.0, -2.0, 0.5]
        cov = [[2.0, 0.3, -0.4], [0.3, 1.0, 0.2], [-0.4, 0.2, 0.5]]
        rows = multivariate_normal(k, mean, cov, 4)
        print("multivariate_normal", ks, hexes(mean), hexes(sum(cov, [])), 4,
              " ".join(float(v).hex() for row in rows for v in row))
        for n, batch in ((1, 2), (3, 2), (5, 1)):
            qs = orthogonal(k, n, batch)
            print("orthogonal", ks, n, batch,
                  " ".join(float(v).hex() for q in qs for row in q for v in row))


if __name__ == "__main__":
    main()
