#!/usr/bin/env python3
"""Derive known answers for JAX's SCALAR (0-d) random draws, 64-bit mode
(jax_enable_x64), partitionable Threefry (jax_threefry_partitionable=True).

An independent from-spec reimplementation, Python 3 standard library only.
Usage: python3 derive_scalar.py > scalar_derived.txt   (output is deterministic)
Function names cited refer to jax/_src/random.py (and jax/_src/prng.py).
"""
import math
from decimal import Decimal, localcontext

M32, M64 = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF


# ---- Threefry-2x32, 20 rounds (Random123 threefry2x32 / JAX threefry2x32_p) ----
def threefry(key, ctr):
    R = (13, 15, 26, 6, 17, 29, 16, 24)
    ks = (key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDA)
    x0, x1 = (ctr[0] + ks[0]) & M32, (ctr[1] + ks[1]) & M32
    for i in range(1, 6):                      # 5 groups of 4 rounds
        rot = R[0:4] if i % 2 == 1 else R[4:8]  # groups 1,3,5: R0..3; 2,4: R4..7
        for r in rot:
            x0 = (x0 + x1) & M32
            x1 = ((x1 << r) | (x1 >> (32 - r))) & M32
            x1 ^= x0
        x0 = (x0 + ks[i % 3]) & M32             # key injection after group i
        x1 = (x1 + ks[(i + 1) % 3] + i) & M32
    return x0, x1


def key(seed):          # PRNGKey/key(seed), 0 <= seed < 2^32 -> [hi, lo] = [0, seed]
    return (0, seed)


def split(k):           # _threefry_split (partitionable): key i = threefry(k, (0, i))
    return [threefry(k, (0, 0)), threefry(k, (0, 1))]


def fold_in(k, d):      # _threefry_fold_in: threefry(k, threefry_seed(d)) = threefry(k, (0, d))
    return threefry(k, (0, d))


def bits64(k):          # _threefry_random_bits_partitionable, shape (), 64 bits:
    y0, y1 = threefry(k, (0, 0))  # counter = iota_2x32_shape(()) = (0, 0)
    return (y0 << 32) | y1


# ---- float draws (IEEE double arithmetic: Python floats, no FMA) ----
def uniform(k, lo=0.0, hi=1.0):
    # _uniform: take the top 52 bits as mantissa of a float in [1, 2), subtract
    # 1.0 (exact), i.e. f = (b >> 12) * 2^-52; then max(lo, f*(hi-lo) + lo),
    # each operation rounded to double.
    f = (bits64(k) >> 12) * 2.0 ** -52
    return max(lo, f * (hi - lo) + lo)


NORMAL_LO = math.nextafter(-1.0, 0.0)   # _normal_real: lo = nextafter(-1, 0), hi = 1


def normal_u(k):        # u of _normal_real; hi - lo rounds to 2.0 in double
    return uniform(k, NORMAL_LO, 1.0)


# ---- exact reference values in Decimal (PREC digits), then correctly rounded ----
PREC = 160


def dec_pi():           # recipe from the Python decimal documentation
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


def dec_erf(x):         # Taylor: erf x = 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1))
    with localcontext() as c:   # (|x| <= 6 loses <= 16 digits to cancellation)
        c.prec = PREC + 40
        x2, p, s, n = x * x, x, Decimal(0), 0
        tiny = Decimal(10) ** -(PREC + 30)
        while True:
            term = p / (2 * n + 1)
            s += -term if n % 2 else term
            if abs(term) < tiny and n > 2:
                break
            n += 1
            p = p * x2 / n
        return 2 / dec_pi().sqrt() * s


def erfinv_guess(y):    # double-precision bisection start point, 0 <= y < 1
    lo, hi = 0.0, 7.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if (math.erf(mid) < y) if y < 0.5 else (math.erfc(mid) > 1.0 - y):
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def dec_erfinv(u):      # Newton on the high-precision erf, u a double in (-1, 1)
    if u == 0.0:
        return Decimal(0)
    y = Decimal(abs(u))             # exact value of the double
    with localcontext() as c:
        c.prec = PREC + 20
        x = Decimal(erfinv_guess(abs(u)))
        two_over_sqrtpi = 2 / dec_pi().sqrt()
        for _ in range(30):
            dx = (dec_erf(x) - y) / (two_over_sqrtpi * (-x * x).exp())
            x -= dx
            if abs(dx) < Decimal(10) ** -(PREC + 5):
                break
        else:
            raise AssertionError("erfinv Newton did not converge")
        return x if u > 0 else -x


def to_double(v):
    """float(Decimal) rounds correctly; also check v is not so near a rounding
    boundary (midpoint of adjacent doubles) that PREC digits could mislead."""
    f = float(v)
    for g in (math.nextafter(f, math.inf), math.nextafter(f, -math.inf)):
        mid = (Decimal(f) + Decimal(g)) / 2
        assert abs(v - mid) > abs(v) * Decimal(10) ** -(PREC - 40), v
    return f


def normal_exact(u):    # _normal_real: sqrt(2) * erfinv(u), exact then rounded
    with localcontext() as c:
        c.prec = PREC
        return to_double(Decimal(2).sqrt() * dec_erfinv(u))


def exponential_exact(u):   # _exponential: -log1p(-u) = -ln(1 - u); 1 - u is exact
    with localcontext() as c:
        c.prec = PREC
        return to_double(-(1 - Decimal(u)).ln()) if u else 0.0


def bernoulli(k, p):    # _bernoulli: uniform(k) < p
    return int(uniform(k) < p)


def randint(k, lo, hi):  # _randint, int64; all arithmetic is uint64 with wrapping
    k1, k2 = split(k)
    higher, lower = bits64(k1), bits64(k2)
    span = 1 if hi <= lo else (hi - lo) & M64
    mult = (2 ** 32) % span                  # 2^(nbits/2) mod span
    mult = ((mult * mult) & M64) % span
    off = ((((higher % span) * mult) & M64) + lower % span) & M64
    off %= span
    r = (lo + off) & M64
    return r - 2 ** 64 if r >= 2 ** 63 else r


# ---- known-answer checks (Random123 KAT and JAX facts) ----
assert threefry((0, 0), (0, 0)) == (0x6B200159, 0x99BA4EFE)
assert threefry((M32, M32), (M32, M32)) == (0x1CB996FC, 0xBB002BE7)
assert threefry((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3)) == (0xC4923A9C, 0x483DF7A0)
assert split(key(0)) == [(1797259609, 2579123966), (928981903, 3453687069)]
assert fold_in(key(0), 4) == (2285895361, 433833334)
assert bits64(key(1701)) == 3182764935064573181
assert [(lambda y: y[0] << 32 | y[1])(threefry(key(1701), (0, i))) for i in range(3)] == \
    [3182764935064573181, 366096495144982249, 241365115613244543]
assert NORMAL_LO.hex() == "-0x1.fffffffffffffp-1" and 1.0 - NORMAL_LO == 2.0
assert abs(normal_exact(0.5) - 0.6744897501960817) < 1e-15      # Phi^-1(0.75)
assert abs(exponential_exact(0.5) - math.log(2)) < 1e-16

# ---- data ----
KEYS = [key(0), key(1), key(42), key(1701), key(M32), split(key(0))[0],
        split(key(0))[1], fold_in(key(42), 7), fold_in(key(0), 123456)]
KEYS += [fold_in(key(2024), i) for i in range(40)]
UNIFORM_BOUNDS = [(0.0, 1.0), (-1.0, 1.0), (2.5, 7.25), (-1e300, 1e300), (5.0, 5.0), (3.0, -2.0)]
BERN_P = [0.0, 0.25, 0.5, 0.9999, 1.0]
RANDINT_BOUNDS = [(0, 10), (-5, 5), (0, 1), (7, 7), (10, 0), (-2 ** 63, 2 ** 63 - 1),
                  (0, 2 ** 32), (0, 2 ** 32 + 1), (-3, 2 ** 40), (0, 2 ** 62 + 12345)]
SYNTH_U = [NORMAL_LO, -1.0 + 2.0 ** -40, -0.5, 2.0 ** -30, 0.999999, 1.0 - 2.0 ** -53]

HEADER = """\
# Scalar (0-d) JAX random draws, jax_enable_x64, partitionable Threefry. DERIVED by
# derive_scalar.py (independent from-spec Python reimplementation of jax/_src/random.py;
# not JAX output). Regenerate: python3 derive_scalar.py > scalar_derived.txt
# K0 K1 = key_data [hi, lo] (decimal u32). Floats are Python float.hex() of doubles.
# EXACT = correctly rounded double of the exact math value (JAX's own erfinv/log1p may differ by ulps).
# bits64 K0 K1 VALUE | uniform K0 K1 LO HI VALUE | normal K0 K1 U EXACT | normal_u U EXACT
# exponential K0 K1 U EXACT | bernoulli K0 K1 P VALUE | randint K0 K1 LO HI VALUE (int64)"""


def main():
    print(HEADER)
    for k in KEYS:
        ks = "%d %d" % k
        print("bits64", ks, bits64(k))
        for lo, hi in UNIFORM_BOUNDS:
            print("uniform", ks, lo.hex(), hi.hex(), uniform(k, lo, hi).hex())
        u = normal_u(k)
        print("normal", ks, u.hex(), normal_exact(u).hex())
        u = uniform(k)
        print("exponential", ks, u.hex(), exponential_exact(u).hex())
        for p in BERN_P:
            print("bernoulli", ks, p.hex(), bernoulli(k, p))
        for lo, hi in RANDINT_BOUNDS:
            print("randint", ks, lo, hi, randint(k, lo, hi))
    for u in SYNTH_U:
        print("normal_u", u.hex(), normal_exact(u).hex())


if __name__ == "__main__":
    main()
