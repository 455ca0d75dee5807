"""The planned MFMA numerics (mfma_exec's per-instruction fast path) give the general path's bits.

Why: the timed engine executes every MFMA through `execute`, which plans, once per
instruction and negate flags, a flat gather/scatter and an in-place error-free sum for the
common dense fp32-accumulating forms (issue 16: "cache MFMA numerics per instruction"). The
plan must be a faster route to the same D, never a second opinion: for every MFMA of every
target it takes, random register contents (normals, denormals, zeros, both signs) must give
bit-identical registers to the unplanned path, and sums that overflow must still propagate
Inf/NaN as the general path does.
"""
from __future__ import annotations

import numpy as np
import pytest

from gcnemu.isa import mfma as M
from gcnemu.sim import mfma_exec

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
PLANNED = [(t, i.name) for t in TARGETS for i in M.catalog(t) if mfma_exec._fast_plan(i, (False,) * 3) is not None]


def _general(info, a, b, c, neg=(False, False, False)):
    saved = dict(mfma_exec._FAST)
    mfma_exec._FAST.clear()
    keys = [(info, tuple(neg))]
    try:
        for k in keys:
            mfma_exec._FAST[k] = None  # no plan: the general path
        return mfma_exec.execute(info, a, b, c, neg=neg)
    finally:
        mfma_exec._FAST.clear()
        mfma_exec._FAST.update(saved)


def _registers(rng, n: int, tiny: bool) -> np.ndarray:
    r = rng.integers(0, 1 << 32, size=(n, 64), dtype=np.uint64).astype(np.uint32)
    # keep exponents moderate (finite sums), with some denormals and zeros mixed in
    r &= np.uint32(0xBFFFBFFF) if tiny else np.uint32(0xBF7FBF7F)
    r[:, ::7] = 0
    return r


def test_the_plan_covers_the_common_gemm_forms():
    names = {n for _, n in PLANNED}
    assert {"v_mfma_f32_32x32x8f16", "v_mfma_f32_16x16x4f32", "v_mfma_f32_32x32x8bf16_1k"} <= names


@pytest.mark.parametrize("target,name", PLANNED, ids=[f"{t}:{n}" for t, n in PLANNED])
def test_planned_mfma_matches_the_general_path_bit_for_bit(target: str, name: str):
    info = M.lookup(name, target)
    rng = np.random.default_rng(abs(hash(name)) % (1 << 32))
    for tiny in (False, True):
        a = _registers(rng, info.operand_regs("A"), tiny)
        b = _registers(rng, info.operand_regs("B"), tiny)
        c = _registers(rng, info.operand_regs("C"), tiny)
        fast = mfma_exec.execute(info, a, b, c)
        assert np.array_equal(fast, _general(info, a, b, c))


def test_an_overflowing_sum_falls_back_to_ieee_propagation():
    info = M.lookup("v_mfma_f32_16x16x4f32", "gfx90a")
    big = np.full((1, 64), np.float32(3e38).view(np.uint32), dtype=np.uint32)
    c = np.zeros((4, 64), dtype=np.uint32)
    c[0, 0] = np.float32(np.nan).view(np.uint32)
    d = mfma_exec.execute(info, big, big, c)
    assert np.array_equal(d, _general(info, big, big, c))
    assert np.isinf(d.view(np.float32)).any() and np.isnan(d.view(np.float32)).any()


# GEMM-like operands: values on a coarse grid (small integers times a power of two), where the
# exponent bound lets the plan sum with one matmul; the random registers above spread their
# exponents too widely for that and exercise the error-free loop instead
GEMM_FORMS = [("gfx942", "v_mfma_f32_32x32x8f16"), ("gfx90a", "v_mfma_f32_16x16x16f16"),
              ("gfx90a", "v_mfma_f32_16x16x4f32"), ("gfx90a", "v_mfma_f32_32x32x8bf16_1k")]


def _grid_values(rng, shape, scale: int, spread: int) -> np.ndarray:
    """Small integers times 2**e, e in [scale - spread, scale]; about a tenth zeros (both signs)."""
    v = rng.integers(-8, 9, size=shape).astype(np.float64) * np.exp2(rng.integers(scale - spread, scale + 1, size=shape))
    v[rng.random(shape) < 0.05] = -0.0
    return v


@pytest.mark.parametrize("target,name", GEMM_FORMS, ids=[f"{t}:{n}" for t, n in GEMM_FORMS])
def test_gemm_like_operands_give_the_general_paths_bits_whichever_way_the_plan_sums(target: str, name: str):
    info = M.lookup(name, target)
    K = info.shape("A")[2]
    exact = mfma_exec._exact_by_exponents(info, K)
    rng = np.random.default_rng(7)
    summed = {True: 0, False: 0}  # by the exponent bound's matmul / by the loop
    # spreads from none (every sum exact) to wide (the bound fails and the loop sums)
    for trial in range(48):
        spread = trial % 24 * 2
        a = _grid_values(rng, info.shape("A"), 0, spread)
        b = _grid_values(rng, info.shape("B"), -2, spread)
        c = _grid_values(rng, info.shape("C"), 3, 2 * spread)
        a_regs, b_regs, c_regs = M.pack(info, "A", a), M.pack(info, "B", b), M.pack(info, "C", c)
        fast = mfma_exec.execute(info, a_regs, b_regs, c_regs)
        assert np.array_equal(fast, _general(info, a_regs, b_regs, c_regs))
        vals = [M.unpack(info, op, r).astype(np.float64) for op, r in (("A", a_regs), ("B", b_regs), ("C", c_regs))]
        by_bound = exact(*vals)
        summed[by_bound is not None] += 1
        if by_bound is not None:  # the matmul's sum is the error-free sum, zeros as +0 included
            assert np.array_equal(by_bound.view(np.uint64), mfma_exec._accurate_sum(
                vals[0][:, :, None, :] * np.swapaxes(vals[1], 1, 2)[:, None, :, :], vals[2]).view(np.uint64))
    assert summed[True] and summed[False]  # both routes were taken


def test_a_sum_that_cancels_to_zero_is_positive_zero_as_in_the_loop():
    info = M.lookup("v_mfma_f32_16x16x4f32", "gfx90a")
    a = np.zeros(info.shape("A"))
    b = np.zeros(info.shape("B"))
    a[0, 0, 0], b[0, 0, 0] = 1.0, -1.0  # one product -1, added to C = +1 at D[0, 0]
    c = np.full(info.shape("C"), -0.0)
    c[0, 0, 0] = 1.0
    regs = [M.pack(info, op, v) for op, v in (("A", a), ("B", b), ("C", c))]
    d = mfma_exec.execute(info, *regs)
    assert np.array_equal(d, _general(info, *regs))
    assert not (M.unpack(info, "D", d).view(np.uint32) & np.uint32(0x80000000)).any()  # no -0
