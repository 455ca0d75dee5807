"""Packed math (VOP3P): op_sel / op_sel_hi / neg_lo / neg_hi, inline constants in packed operands, clamp."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from semhelpers import RNG, run
from test_sem_valu_float import ref_f32

F16, F32, U32, U16 = np.float16, np.float32, np.uint32, np.uint16


def pack(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.view(U16).astype(U32) | (hi.view(U16).astype(U32) << 16)


def halves(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (x & 0xFFFF).astype(U16).view(F16), (x >> 16).astype(U16).view(F16)


def h(n=64, scale=8.0) -> np.ndarray:
    return (RNG.standard_normal(n) * scale).astype(F16)


A_LO, A_HI, B_LO, B_HI, C_LO, C_HI = (h() for _ in range(6))
A, B, C = pack(A_LO, A_HI), pack(B_LO, B_HI), pack(C_LO, C_HI)


def f16_round(q) -> F16:
    return F16(float(q))  # q exact in float64 for products/sums of two f16s: one rounding to f16


def test_pk_add_mul_default_selects():
    r = run("v_pk_add_f16 v3, v0, v1\nv_pk_mul_f16 v4, v0, v1", v={0: A, 1: B})
    lo, hi = halves(r.v(3))
    assert (lo == (A_LO.astype(np.float64) + B_LO).astype(F16)).all()
    assert (hi == (A_HI.astype(np.float64) + B_HI).astype(F16)).all()
    lo, hi = halves(r.v(4))
    assert (lo == (A_LO.astype(np.float64) * B_LO).astype(F16)).all()
    assert (hi == (A_HI.astype(np.float64) * B_HI).astype(F16)).all()


def test_pk_op_sel_and_neg():
    """lo result from (A.hi, B.lo); hi result from (A.hi, -B.lo)."""
    r = run("v_pk_add_f16 v3, v0, v1 op_sel:[1,0] op_sel_hi:[1,0] neg_hi:[0,1]", v={0: A, 1: B})
    lo, hi = halves(r.v(3))
    assert (lo == (A_HI.astype(np.float64) + B_LO).astype(F16)).all()
    assert (hi == (A_HI.astype(np.float64) - B_LO).astype(F16)).all()


def test_pk_fma_exact_and_neg_lo():
    r = run("v_pk_fma_f16 v3, v0, v1, v2 neg_lo:[0,0,1]", v={0: A, 1: B, 2: C})
    lo, hi = halves(r.v(3))
    want_lo = [f16_round(Fraction(float(a)) * Fraction(float(b)) - Fraction(float(c)))
               for a, b, c in zip(A_LO, B_LO, C_LO)]
    want_hi = [f16_round(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))
               for a, b, c in zip(A_HI, B_HI, C_HI)]
    assert (lo == np.array(want_lo, F16)).all() and (hi == np.array(want_hi, F16)).all()


def test_inline_float_constant_is_low_half_only():
    """`v_pk_add_f16 v, v, 1.0` adds (1.0, 0.0): the high half of an inline f16 constant reads 0;
    compilers write op_sel_hi:[1,0] to add 1.0 to both halves."""
    r = run("v_pk_add_f16 v3, v0, 1.0\nv_pk_add_f16 v4, v0, 1.0 op_sel_hi:[1,0]\nv_pk_mul_f16 v5, v0, -1",
            v={0: A})
    lo, hi = halves(r.v(3))
    assert (lo == (A_LO.astype(np.float64) + 1).astype(F16)).all() and (hi == A_HI).all()
    lo, hi = halves(r.v(4))
    assert (lo == (A_LO.astype(np.float64) + 1).astype(F16)).all()
    assert (hi == (A_HI.astype(np.float64) + 1).astype(F16)).all()
    lo, hi = halves(r.v(5))
    assert np.isnan(lo).all() and np.isnan(hi).all(), "integer -1 is 0xffffffff in both halves: NaN"


def test_pk_max_min_f16_and_clamp():
    a_lo = A_LO.copy()
    a_lo[0] = np.nan
    r = run("v_pk_max_f16 v3, v0, v1\nv_pk_min_f16 v4, v0, v1\nv_pk_mul_f16 v5, v0, v1 clamp",
            v={0: pack(a_lo, A_HI), 1: B})
    lo, hi = halves(r.v(3))
    assert (lo == np.fmax(a_lo, B_LO)).all() and (hi == np.maximum(A_HI, B_HI)).all()
    lo, hi = halves(r.v(4))
    assert (lo == np.fmin(a_lo, B_LO)).all()
    lo, hi = halves(r.v(5))
    prod = (a_lo.astype(np.float64) * B_LO).astype(F16)
    assert (lo == np.where(np.isnan(prod), 0, np.clip(prod, 0, 1))).all()


IU = {"u16": np.uint16, "i16": np.int16}


@pytest.mark.parametrize("t", ["u16", "i16"])
def test_pk_integer_ops(t):
    x = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(U32)
    y = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(U32)
    z = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(U32)
    r = run(f"""v_pk_add_{t} v3, v0, v1
v_pk_sub_{t} v4, v0, v1 clamp
v_pk_max_{t} v5, v0, v1
v_pk_mad_{t} v6, v0, v1, v2""", v={0: x, 1: y, 2: z})
    dt = IU[t]
    parts = lambda v: [((v >> s) & 0xFFFF).astype(U16).view(dt).astype(np.int64) for s in (0, 16)]  # noqa: E731
    px, py, pz = parts(x), parts(y), parts(z)
    lo_b, hi_b = (0, 0xFFFF) if t == "u16" else (-32768, 32767)
    for k, shift in enumerate((0, 16)):
        get = lambda reg: (r.v(reg) >> shift) & 0xFFFF  # noqa: E731
        assert (get(3) == ((px[k] + py[k]) & 0xFFFF)).all()
        assert (get(4) == (np.clip(px[k] - py[k], lo_b, hi_b) & 0xFFFF)).all()
        assert (get(5) == (np.maximum(px[k], py[k]) & 0xFFFF)).all()
        assert (get(6) == ((px[k] * py[k] + pz[k]) & 0xFFFF)).all()


def test_pk_shifts_and_mul_lo():
    x = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(U32)
    n = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(U32)
    r = run("v_pk_lshlrev_b16 v3, v1, v0\nv_pk_ashrrev_i16 v4, v1, v0\nv_pk_mul_lo_u16 v5, v0, v1",
            v={0: x, 1: n})
    for shift in (0, 16):
        xv, nv = (x >> shift) & 0xFFFF, (n >> shift) & 0xFFFF
        get = lambda reg: (r.v(reg) >> shift) & 0xFFFF  # noqa: E731
        assert (get(3) == ((xv << (nv & 15)) & 0xFFFF)).all()
        sx = xv.astype(U16).view(np.int16).astype(np.int64)
        assert (get(4) == ((sx >> (nv & 15)) & 0xFFFF)).all()
        assert (get(5) == ((xv.astype(np.int64) * nv) & 0xFFFF)).all()


@pytest.mark.parametrize("target", ["gfx90a", "gfx942", "gfx950"])
def test_pk_f32_ops(target):
    a = (RNG.standard_normal((2, 64)) * 10).astype(F32)
    b = (RNG.standard_normal((2, 64)) * 10).astype(F32)
    c = (RNG.standard_normal((2, 64)) * 10).astype(F32)
    r = run("""v_pk_add_f32 v[6:7], v[0:1], v[2:3]
v_pk_mul_f32 v[8:9], v[0:1], v[2:3] op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[1,0]
v_pk_fma_f32 v[10:11], v[0:1], v[2:3], v[4:5]
v_pk_add_f32 v[12:13], v[0:1], 1.0 op_sel_hi:[1,0]""", target=target,
            v={"v[0:1]": a, "v[2:3]": b, "v[4:5]": c})
    assert (r.f32(6) == a[0] + b[0]).all() and (r.f32(7) == a[1] + b[1]).all()
    assert (r.f32(8) == -a[1] * b[0]).all() and (r.f32(9) == a[0] * b[1]).all()
    for k in (0, 1):
        exact = [ref_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                 for x, y, z in zip(a[k], b[k], c[k])]
        assert (r.f32(10 + k) == np.array(exact, dtype=F32)).all()
    assert (r.f32(12) == a[0] + 1).all() and (r.f32(13) == a[1] + 1).all()


def test_pk_fmac_f16_on_gfx908():
    r = run("v_pk_fmac_f16 v2, v0, v1", v={0: A, 1: B, 2: C}, target="gfx908")
    lo, hi = halves(r.v(2))
    want_lo = [f16_round(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))
               for a, b, c in zip(A_LO, B_LO, C_LO)]
    assert (lo == np.array(want_lo, F16)).all()


def test_pk_maximum3_minimum3_f16_on_gfx950():
    a_lo = A_LO.copy()
    a_lo[0] = np.nan
    r = run("v_pk_maximum3_f16 v3, v0, v1, v2\nv_pk_minimum3_f16 v4, v0, v1, v2",
            v={0: pack(a_lo, A_HI), 1: B, 2: C}, target="gfx950")
    lo, hi = halves(r.v(3))
    assert np.isnan(lo[0]) and (lo[1:] == np.maximum(np.maximum(a_lo, B_LO), C_LO)[1:]).all()
    assert (hi == np.maximum(np.maximum(A_HI, B_HI), C_HI)).all()
    lo, hi = halves(r.v(4))
    assert np.isnan(lo[0]) and (hi == np.minimum(np.minimum(A_HI, B_HI), C_HI)).all()
