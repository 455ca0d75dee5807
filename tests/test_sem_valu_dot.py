"""Dot products, mixed-precision fma, bitop3, permlane swaps and fp8/bf8 conversions."""
from __future__ import annotations

from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from semhelpers import RNG, rand_f32, rand_u32, run
from test_sem_valu_float import ref_f32

F16, F32, U32 = np.float16, np.float32, np.uint32


def f16_pair(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(F16).view(np.uint16).astype(U32) | (hi.astype(F16).view(np.uint16).astype(U32) << 16)


def test_dot2_f32_f16_single_rounding():
    a_lo, a_hi, b_lo, b_hi = ((RNG.standard_normal(64) * 30).astype(F16) for _ in range(4))
    c = rand_f32()
    c[0] = -(float(a_lo[0]) * float(b_lo[0]) + float(a_hi[0]) * float(b_hi[0]))  # cancellation
    r = run("v_dot2_f32_f16 v3, v0, v1, v2\nv_mov_b32 v4, v2\nv_dot2c_f32_f16 v4, v0, v1",
            v={0: f16_pair(a_lo, a_hi), 1: f16_pair(b_lo, b_hi), 2: c})
    want = np.array([ref_f32(Fraction(float(w)) * Fraction(float(x)) + Fraction(float(y)) * Fraction(float(z))
                             + Fraction(float(k))) for w, x, y, z, k in zip(a_lo, b_lo, a_hi, b_hi, c)], F32)
    assert (r.f32(3) == want).all() and (r.f32(4) == want).all()


@pytest.mark.parametrize("op,bits,signed", [("v_dot2_i32_i16", 16, True), ("v_dot2_u32_u16", 16, False),
                                            ("v_dot4_i32_i8", 8, True), ("v_dot4_u32_u8", 8, False),
                                            ("v_dot8_i32_i4", 4, True), ("v_dot8_u32_u4", 4, False)])
def test_integer_dots_wrap_and_clamp(op, bits, signed):
    a, b, c = rand_u32(), rand_u32(), rand_u32()
    r = run(f"{op} v3, v0, v1, v2\n{op} v4, v0, v1, v2 clamp", v={0: a, 1: b, 2: c})

    def parts(x):
        out = []
        for k in range(0, 32, bits):
            v = (x.astype(np.int64) >> k) & ((1 << bits) - 1)
            out.append(np.where(v >= 1 << (bits - 1), v - (1 << bits), v) if signed else v)
        return out
    cc = c.view(np.int32).astype(np.int64) if signed else c.astype(np.int64)
    total = cc + sum(x * y for x, y in zip(parts(a), parts(b)))
    assert (r.v(3) == (total & 0xFFFFFFFF)).all()
    sat = np.clip(total, -2**31, 2**31 - 1) if signed else np.clip(total, 0, 2**32 - 1)
    assert (r.v(4) == (sat & 0xFFFFFFFF)).all()


def test_dot4c_accumulates_into_destination():
    a, b, d = rand_u32(), rand_u32(), rand_u32()
    r = run("v_dot4c_i32_i8 v2, v0, v1", v={0: a, 1: b, 2: d})
    sb = lambda x, k: ((x.astype(np.int64) >> (8 * k)) & 0xFF) - (((x.astype(np.int64) >> (8 * k + 7)) & 1) << 8)  # noqa
    want = d.view(np.int32).astype(np.int64) + sum(sb(a, k) * sb(b, k) for k in range(4))
    assert (r.v(2) == (want & 0xFFFFFFFF)).all()


def test_fma_mix_selects_f16_halves_and_f32_registers():
    a = (RNG.standard_normal(64) * 4).astype(F16)
    b = (RNG.standard_normal(64) * 4).astype(F16)
    c = rand_f32()
    packed = f16_pair(a, b)
    r = run("""v_fma_mix_f32 v3, v0, v0, v2 op_sel:[0,1,0] op_sel_hi:[1,1,0]
v_fma_mix_f32 v4, -v0, |v2|, v2 op_sel:[1,0,0] op_sel_hi:[1,0,0]
v_mov_b32 v5, v6
v_fma_mixlo_f16 v5, v0, v0, v2 op_sel_hi:[1,1,0]
v_mov_b32 v7, v6
v_fma_mixhi_f16 v7, v0, v0, v2 op_sel:[1,1,0] op_sel_hi:[1,1,0]""",
            v={0: packed, 2: c, 6: 0xAAAA5555})
    exact = lambda x, y, z: np.array([ref_f32(Fraction(float(p)) * Fraction(float(q)) + Fraction(float(s)))  # noqa
                                      for p, q, s in zip(x, y, z)], F32)
    assert (r.f32(3) == exact(a, b, c)).all()
    assert (r.f32(4) == exact(-b.astype(F32), np.abs(c), c)).all()
    lo = exact(a, a, c).astype(F16).view(np.uint16)
    assert (r.v(5) == (0xAAAA0000 | lo.astype(U32))).all(), "mixlo keeps the high half"
    hi = exact(b, b, c).astype(F16).view(np.uint16)
    assert (r.v(7) == (0x5555 | (hi.astype(U32) << 16))).all(), "mixhi keeps the low half"


def test_bitop3_truth_tables():
    a, b, c = rand_u32(), rand_u32(), rand_u32()
    r = run("""v_bitop3_b32 v3, v0, v1, v2 bitop3:0x96
v_bitop3_b32 v4, v0, v1, v2 bitop3:0xe8
v_bitop3_b32 v5, v0, v1, v2 bitop3:0xf0
v_bitop3_b16 v6, v0, v1, v2 bitop3:0x80""", v={0: a, 1: b, 2: c}, target="gfx950")
    assert (r.v(3) == a ^ b ^ c).all()
    assert (r.v(4) == (a & b) | (a & c) | (b & c)).all(), "0xe8 is the majority function"
    assert (r.v(5) == a).all(), "0xf0 selects src0"
    assert (r.v(6) == (a & b & c & 0xFFFF)).all()


def test_permlane_swaps():
    x = np.arange(64, dtype=U32)
    y = np.arange(64, dtype=U32) + 1000
    r = run("v_permlane32_swap_b32 v0, v1", v={0: x, 1: y}, target="gfx950")
    assert (r.v(0) == np.concatenate([x[:32], y[:32]])).all()
    assert (r.v(1) == np.concatenate([x[32:], y[32:]])).all()
    r = run("v_permlane16_swap_b32 v0, v1", v={0: x, 1: y}, target="gfx950")
    rows = lambda v: v.reshape(4, 16)  # noqa: E731
    assert (rows(r.v(0))[[0, 2]] == rows(x)[[0, 2]]).all() and (rows(r.v(0))[[1, 3]] == rows(y)[[0, 2]]).all()
    assert (rows(r.v(1))[[0, 2]] == rows(x)[[1, 3]]).all() and (rows(r.v(1))[[1, 3]] == rows(y)[[1, 3]]).all()


@pytest.mark.parametrize("target,fp8,bf8", [("gfx942", ml_dtypes.float8_e4m3fnuz, ml_dtypes.float8_e5m2fnuz),
                                            ("gfx950", ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2)])
def test_fp8_bf8_round_trip_per_target(target, fp8, bf8):
    x = rand_f32(scale=20.0)
    y = rand_f32(scale=20.0)
    x[:3] = [1e6, -1e6, np.nan]
    r = run("""v_cvt_pk_fp8_f32 v2, v0, v1
v_cvt_pk_bf8_f32 v2, v0, v1 op_sel:[0,0,1]
v_cvt_f32_fp8 v3, v2
v_cvt_f32_bf8_sdwa v4, v2 src0_sel:BYTE_3
v_cvt_pk_f32_fp8 v[8:9], v2""", v={0: x, 1: y}, target=target)
    with np.errstate(all="ignore"):
        b0 = x.astype(fp8).view(np.uint8).astype(U32)
        b1 = y.astype(fp8).view(np.uint8).astype(U32)
        b2 = x.astype(bf8).view(np.uint8).astype(U32)
        b3 = y.astype(bf8).view(np.uint8).astype(U32)
    assert (r.v(2) == b0 | b1 << 8 | b2 << 16 | b3 << 24).all()
    assert np.isnan(r.f32(3)[:2]).all(), "out of range: NaN (these formats have no infinity), not saturation"
    dec = lambda b, dt: (b.astype(np.uint8).view(dt)).astype(F32)  # noqa: E731
    assert np.array_equal(r.f32(3), dec(b0, fp8), equal_nan=True)
    assert np.array_equal(r.f32(4), dec(b3, bf8), equal_nan=True)
    assert np.array_equal(r.f32(8), dec(b0, fp8), equal_nan=True)
    assert np.array_equal(r.f32(9), dec(b1, fp8), equal_nan=True)
