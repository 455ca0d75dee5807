"""Specification of MFMA numerics: D = A x B + C per block, on register files.

For every instruction of every target: random operands are packed with the
layout, executed with gcnemu.sim.mfma_exec.execute, unpacked, and compared
with a reference computed here from the matrices alone:

* float results (fp32 C/D): the exact sum of exact products (math.fsum) plus C,
  rounded to fp32; the model must be within 1 fp32 ulp of it;
* int32 results: exact integer sum wrapped to 32 bits; bit-exact;
* fp64 results: numpy float64 A @ B + C; within a few ulp of the
  magnitudes involved (the model is an FMA chain; the reference is not).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from gcnemu.isa import mfma as M
from gcnemu.sim.mfma_exec import compute, execute, round_to_xf32

ALL = [(t, i.name) for t in M.TARGETS for i in M.catalog(t)]


def info(name: str, target: str = "gfx90a") -> M.MfmaInfo:
    i = M.lookup(name, target)
    assert i is not None
    return i


def random_matrix(rng: np.random.Generator, mi: M.MfmaInfo, op: str) -> np.ndarray:
    """Random finite values already representable in the operand's element type."""
    et = M.element_type(mi.operand_type(op))
    shape = mi.shape(op)
    if et.is_int:
        if et.bits == 8:
            return rng.integers(-128, 128, size=shape).astype(np.int8)
        return rng.integers(-(2**31), 2**31, size=shape, dtype=np.int64).astype(np.int32)
    if et.bits <= 8:  # fp8 / bf8 / fp6 / fp4: random bit patterns, non-finite replaced by 0
        raw = rng.integers(0, 1 << et.bits, size=shape, dtype=np.uint64).astype(np.uint8)
        vals = raw.view(et.dtype)
        vals = np.where(np.isfinite(vals.astype(np.float32)), vals, np.zeros_like(vals))
        return vals
    return rng.standard_normal(shape).astype(et.dtype)


def xf32_reference_round(x: np.ndarray) -> np.ndarray:
    """Round to 11 significant bits with frexp (independent of the bit trick in the model)."""
    m, e = np.frexp(np.asarray(x, dtype=np.float64))
    return np.ldexp(np.round(m * 2048.0) / 2048.0, e)


def reference(mi: M.MfmaInfo, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    if M.element_type(mi.cd_type).is_int:
        d = np.einsum("bik,bkj->bij", a.astype(object), b.astype(object)) + c.astype(object)
        return np.vectorize(lambda v: (v + 2**31) % 2**32 - 2**31, otypes=[np.int64])(d)
    a64, b64, c64 = (x.astype(np.float64) for x in (a, b, c))
    if mi.a_type == "xf32":
        a64, b64 = xf32_reference_round(a64), xf32_reference_round(b64)
    if mi.cd_type == "fp64":
        return np.matmul(a64, b64) + c64
    out = np.empty(c.shape, dtype=np.float64)
    for blk, i, j in np.ndindex(*c.shape):
        out[blk, i, j] = math.fsum(list(a64[blk, i, :] * b64[blk, :, j]) + [c64[blk, i, j]])
    return out.astype(np.float32).astype(np.float64)


def assert_close(mi: M.MfmaInfo, d: np.ndarray, ref: np.ndarray, a, b, c) -> None:
    if M.element_type(mi.cd_type).is_int:
        assert np.array_equal(d.astype(np.int64), ref)
        return
    d64 = d.astype(np.float64)
    if mi.cd_type == "fp64":
        mag = np.matmul(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64))) + np.abs(c)
        tol = 4 * (mi.k + 1) * np.finfo(np.float64).eps * mag
    else:
        tol = np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)  # 1 fp32 ulp
    bad = np.abs(d64 - ref) > tol
    assert not bad.any(), (mi.name, mi.a_type, mi.b_type, d64[bad][:4], ref[bad][:4])


def run_case(mi: M.MfmaInfo, rng: np.random.Generator, **mods):
    """Random A, B, C -> (d, a, b, c) where a, b are the matrices the core multiplies."""
    a, b, c = (random_matrix(rng, mi, op) for op in ("A", "B", "C"))
    kw = dict(mods)
    a_eff = a
    if mi.sparse:
        pos = np.sort(rng.random((1, mi.m, mi.a_k // 2, 4)).argsort(-1)[..., :2], -1).reshape(1, mi.m, mi.a_k)
        s = kw.get("abid", 0) if kw.get("cbsz", 0) == 0 else 0
        kw["sparse_index"] = M.pack_sparse_index(mi, pos, index_set=s)
        a_eff = np.zeros((1, mi.m, mi.k), dtype=np.float64 if a.dtype.kind != "i" else np.int64)
        for i, kc in np.ndindex(mi.m, mi.a_k):
            a_eff[0, i, 4 * (kc // 2) + pos[0, i, kc]] = a[0, i, kc]
    d_regs = execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b), M.pack(mi, "C", c), **kw)
    return M.unpack(mi, "D", d_regs), a_eff, b, c


def _variants(mi: M.MfmaInfo):
    if mi.format_select:
        return [mi.with_formats(x, y) for x in range(5) for y in range(5)]
    return [mi]


@pytest.mark.parametrize("target,name", ALL)
def test_every_instruction_matches_reference(target, name):
    rng = np.random.default_rng(sum(map(ord, target + name)))
    for mi in _variants(info(name, target)):
        mods = {"cbsz": mi.a_format, "blgp": mi.b_format} if mi.format_select else {}
        d, a, b, c = run_case(mi, rng, **mods)
        assert d.dtype == M.element_type(mi.cd_type).dtype
        assert_close(mi, d, reference(mi, a, b, c), a, b, c)


# -- modifiers ----------------------------------------------------------------

MULTI_BLOCK = [(t, i.name) for t in M.TARGETS for i in M.catalog(t) if i.blocks > 1]


@pytest.mark.parametrize("target,name", MULTI_BLOCK)
def test_cbsz_abid_broadcast_one_a_block(target, name):
    mi = info(name, target)
    rng = np.random.default_rng(11)
    for cbsz in range(1, mi.max_cbsz() + 1):
        abid = int(rng.integers(0, 1 << cbsz))
        a, b, c = (random_matrix(rng, mi, op) for op in ("A", "B", "C"))
        # independent statement of the rule: blocks in runs of 2**cbsz take run member abid
        a_eff = np.stack([a[(blk // (1 << cbsz)) * (1 << cbsz) + abid] for blk in range(mi.blocks)])
        d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b), M.pack(mi, "C", c),
                                      cbsz=cbsz, abid=abid))
        assert_close(mi, d, reference(mi, a_eff, b, c), a_eff, b, c)


def blgp_table(blgp: int, lane: int) -> int:
    """The article's sentences, lane by lane: which lane's B data lane ``lane`` uses."""
    group = lane // 16
    if blgp == 0:
        return lane
    if blgp == 1:  # lanes 0-31 also broadcast to 32-63
        return lane if lane < 32 else lane - 32
    if blgp == 2:  # lanes 32-63 broadcast to 0-31
        return lane + 32 if lane < 32 else lane
    if blgp == 3:  # rotate down by 16: lane 0's data goes to lane 48
        return (lane + 16) % 64
    src_group = blgp - 4  # 4..7: lanes of group (blgp-4) broadcast to the other groups
    return lane if group == src_group else src_group * 16 + lane % 16


BLGP_CASES = [("gfx908", "v_mfma_f32_32x32x2f32"), ("gfx90a", "v_mfma_f32_16x16x16f16"),
              ("gfx90a", "v_mfma_f32_4x4x4f16"), ("gfx942", "v_mfma_i32_32x32x16_i8"),
              ("gfx942", "v_mfma_f32_16x16x1_4b_f32"), ("gfx950", "v_mfma_f32_16x16x32_bf16"),
              ("gfx90a", "v_mfma_f64_4x4x4f64")]


@pytest.mark.parametrize("target,name", BLGP_CASES)
@pytest.mark.parametrize("blgp", range(8))
def test_blgp_lane_patterns(target, name, blgp):
    mi = info(name, target)
    rng = np.random.default_rng(blgp)
    a, b, c = (random_matrix(rng, mi, op) for op in ("A", "B", "C"))
    b_regs = M.pack(mi, "B", b)
    src = np.array([blgp_table(blgp, lane) for lane in range(64)])
    b_eff = M.unpack(mi, "B", b_regs[:, src])
    d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), b_regs, M.pack(mi, "C", c), blgp=blgp))
    assert_close(mi, d, reference(mi, a, b_eff, c), a, b_eff, c)


def test_blgp1_on_32x32x2_makes_both_k_rows_equal():
    mi = info("v_mfma_f32_32x32x2f32")
    b = np.arange(64, dtype=np.float32).reshape(1, 2, 32)
    a = np.ones((1, 32, 2), dtype=np.float32)
    d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b),
                                  np.zeros((16, 64), np.uint32), blgp=1))
    assert np.array_equal(d[0, 0], 2 * b[0, 0])  # row k=1 replaced by row k=0


def test_a_broadcast_wider_than_a_one_block_mfma_changes_nothing():
    """llvm-mc 22 accepts cbsz:1 on a 1-block MFMA (an xf32 kernel on gfx942 had it); the one block
    broadcasts to itself, so the result is the plain product, not a refused run."""
    rng = np.random.default_rng(3)
    mi = info("v_mfma_f32_16x16x4f32")
    a, b = (rng.integers(0, 2**30, (1, 64)).astype(np.uint32) for _ in range(2))
    c = np.zeros((4, 64), np.uint32)
    assert np.array_equal(execute(mi, a, b, c, cbsz=1), execute(mi, a, b, c))


def test_invalid_modifiers_are_rejected():
    z = np.zeros
    mi = info("v_mfma_f32_16x16x4f32")
    args = (z((1, 64), np.uint32), z((1, 64), np.uint32), z((4, 64), np.uint32))
    with pytest.raises(ValueError, match="abid=1 names block 1, but the instruction has 1 block"):
        execute(mi, *args, cbsz=1, abid=1)
    with pytest.raises(ValueError):
        execute(mi, *args, blgp=8)
    with pytest.raises(ValueError):
        execute(mi, *args, neg=(True, False, False))
    f64 = info("v_mfma_f64_16x16x4f64", "gfx942")
    with pytest.raises(ValueError):
        execute(f64, z((2, 64), np.uint32), z((2, 64), np.uint32), z((8, 64), np.uint32), blgp=1)


# -- fp64 ---------------------------------------------------------------------

@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_fp64_neg_modifier(target):
    mi = info("v_mfma_f64_4x4x4_4b_f64", target)
    rng = np.random.default_rng(5)
    a, b, c = (random_matrix(rng, mi, op) for op in ("A", "B", "C"))
    for neg in [(True, False, False), (False, True, False), (False, False, True), (True, True, True)]:
        d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b), M.pack(mi, "C", c),
                                      neg=neg))
        sa, sb, sc = (-1.0 if n else 1.0 for n in neg)
        assert_close(mi, d, reference(mi, sa * a, sb * b, sc * c), a, b, c)


def test_fp64_uses_fused_multiply_add():
    """(1+2^-30)(1-2^-30) - 1 = -2^-60 exactly with an FMA, 0 without."""
    mi = info("v_mfma_f64_16x16x4f64")
    a = np.zeros((1, 16, 4))
    b = np.zeros((1, 4, 16))
    c = np.zeros((1, 16, 16))
    a[0, 0, 0], b[0, 0, 0], c[0, 0, 0] = 1 + 2.0**-30, 1 - 2.0**-30, -1.0
    d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b), M.pack(mi, "C", c)))
    assert d[0, 0, 0] == -(2.0**-60)


# -- integer wraparound, special values, rounding --------------------------------

def test_int8_accumulates_with_32bit_wraparound():
    mi = info("v_mfma_i32_16x16x16i8")
    a = np.full((1, 16, 16), -128, dtype=np.int8)
    b = np.full((1, 16, 16), -128, dtype=np.int8)
    c = np.full((1, 16, 16), 2**31 - 1, dtype=np.int32)
    d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b), M.pack(mi, "C", c)))
    expect = (16 * 16384 + 2**31 - 1 + 2**31) % 2**32 - 2**31
    assert (d == expect).all() and d.dtype == np.int32


def test_fp16_products_are_exact_in_fp32():
    """The exact tiny product survives next to a huge one that C cancels:
    2^-24 * 2^-24 (subnormal x subnormal) + 65504^2 - 65504^2 = 2^-48, in any order."""
    mi = info("v_mfma_f32_32x32x8f16")
    a = np.zeros((1, 32, 8), np.float16)
    b = np.zeros((1, 8, 32), np.float16)
    a[0, 0, 0], b[0, 0, 0] = np.float16(2.0**-24), np.float16(2.0**-24)
    a[0, 0, 1] = b[0, 1, 0] = np.float16(65504.0)
    c = np.zeros((1, 32, 32), np.float32)
    c[0, 0, 0] = -np.float32(65504.0) ** 2
    d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b), M.pack(mi, "C", c)))
    assert d[0, 0, 0] == np.float32(2.0**-48)


def test_nan_and_inf_propagate():
    mi = info("v_mfma_f32_4x4x1f32")
    a = np.ones((16, 4, 1), np.float32)
    b = np.ones((16, 1, 4), np.float32)
    c = np.zeros((16, 4, 4), np.float32)
    a[0, 0, 0], b[0, 0, 0] = np.inf, 0.0
    a[1, 2, 0] = np.inf
    c[2, 1, 1] = np.nan
    d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b), M.pack(mi, "C", c)))
    assert np.isnan(d[0, 0, 0]) and np.isinf(d[1, 2, 3]) and np.isnan(d[2, 1, 1])
    assert np.isfinite(d[3]).all()


def test_xf32_rounds_inputs_to_ten_fraction_bits():
    x = np.array([1 + 2.0**-11, 1 + 3 * 2.0**-11, 1 + 2.0**-10 + 2.0**-12, -3.0], np.float32)
    assert np.array_equal(round_to_xf32(x), np.array([1.0, 1 + 2.0**-9, 1 + 2.0**-10, -3.0], np.float32))
    assert np.array_equal(round_to_xf32(x), xf32_reference_round(x).astype(np.float32))


def test_bf16_1k_vs_original_layouts_give_the_same_products():
    """The two bf16 families differ in K per lane, not in arithmetic."""
    old, new = info("v_mfma_f32_16x16x8bf16"), info("v_mfma_f32_16x16x16bf16_1k")
    rng = np.random.default_rng(2)
    a = random_matrix(rng, new, "A")
    b = random_matrix(rng, new, "B")
    c = np.zeros((1, 16, 16), np.float32)
    d_new = M.unpack(new, "D", execute(new, M.pack(new, "A", a), M.pack(new, "B", b), M.pack(new, "C", c)))
    d_lo = M.unpack(old, "D", execute(old, M.pack(old, "A", a[:, :, :8]), M.pack(old, "B", b[:, :8]),
                                      M.pack(old, "C", c)))
    d_hi = M.unpack(old, "D", execute(old, M.pack(old, "A", a[:, :, 8:]), M.pack(old, "B", b[:, 8:]),
                                      M.pack(old, "C", d_lo)))
    assert np.allclose(d_new, d_hi, rtol=1e-6, atol=1e-6)


# -- sparse ---------------------------------------------------------------------

SPARSE = [(t, n) for t, n in ALL if n.startswith("v_smfmac")]


@pytest.mark.parametrize("target,name", SPARSE)
def test_sparse_index_sets_and_cbsz(target, name):
    mi = info(name, target)
    rng = np.random.default_rng(9)
    for abid in range(mi.idx_sets):
        d, a, b, c = run_case(mi, rng, abid=abid)
        assert_close(mi, d, reference(mi, a, b, c), a, b, c)
    d, a, b, c = run_case(mi, rng, cbsz=1, abid=mi.idx_sets - 1)  # cbsz != 0 -> set 0
    assert_close(mi, d, reference(mi, a, b, c), a, b, c)


def test_sparse_from_a_dense_4_2_matrix():
    mi = info("v_smfmac_i32_16x16x64_i8", "gfx942")
    rng = np.random.default_rng(4)
    dense = rng.integers(-128, 128, (1, 16, 64))
    g = dense.reshape(1, 16, 16, 4)
    for idx in np.ndindex(g.shape[:3]):
        g[idx][rng.choice(4, 2, replace=False)] = 0
    vals, pos = M.sparse_compress(mi, dense)
    b = random_matrix(rng, mi, "B")
    c = random_matrix(rng, mi, "C")
    idx_reg = M.pack_sparse_index(mi, pos, index_set=1)
    d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", vals), M.pack(mi, "B", b), M.pack(mi, "C", c),
                                  abid=1, sparse_index=idx_reg))
    assert_close(mi, d, reference(mi, dense, b, c), dense, b, c)


# -- gfx950 block scales ------------------------------------------------------------

@pytest.mark.parametrize("name", ["v_mfma_scale_f32_16x16x128_f8f6f4", "v_mfma_scale_f32_32x32x64_f8f6f4"])
@pytest.mark.parametrize("fmt", [(0, 0), (4, 4), (2, 1), (3, 4)])
def test_block_scales(name, fmt):
    mi = info(name, "gfx950").with_formats(*fmt)
    rng = np.random.default_rng(fmt[0] * 5 + fmt[1])
    a, b, c = (random_matrix(rng, mi, op) for op in ("A", "B", "C"))
    kb = mi.k // 32
    ea = rng.integers(120, 135, (mi.m, kb))
    eb = rng.integers(120, 135, (mi.n, kb))
    sa = M.pack_scales(mi, "A", ea, byte=2, into=rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32))
    sb = M.pack_scales(mi, "B", eb, byte=1)
    d = M.unpack(mi, "D", execute(mi, M.pack(mi, "A", a), M.pack(mi, "B", b), M.pack(mi, "C", c),
                                  cbsz=fmt[0], blgp=fmt[1], scale_a=sa, scale_b=sb,
                                  scale_a_byte=2, scale_b_byte=1))
    # reference: dequantise A and B per 32-wide K block, then exact dot products
    a_deq = a.astype(np.float64) * np.repeat(np.ldexp(1.0, ea - 127), 32, axis=1)[None]
    b_deq = b.astype(np.float64) * np.repeat(np.ldexp(1.0, eb - 127), 32, axis=1).T[None]
    assert_close(mi, d, reference(mi, a_deq, b_deq, c), a_deq, b_deq, c)


def test_e8m0_255_is_nan():
    mi = info("v_mfma_scale_f32_16x16x128_f8f6f4", "gfx950").with_formats(4, 4)
    a = np.ones(mi.shape("A"))
    b = np.ones(mi.shape("B"))
    c = np.zeros(mi.shape("C"))
    ea = np.full((16, 4), 127)
    ea[3, 1] = 255
    d = compute(mi, a, b, c, scale_a=ea, scale_b=np.full((16, 4), 127))
    assert np.isnan(d[0, 3]).all() and np.isfinite(d[0, 2]).all()
    assert (d[0, 2] == 128).all()
