"""The numba kernels (gcnemu/sim/accel.py) give bit for bit what the numpy paths give.

fp.fma_f32 and mfma_exec.compute / execute switch to the compiled kernels when numba is
installed; a user must never see a different register because of that. Each test computes the
same inputs twice, once with the kernels and once with them switched off, and compares bits.
"""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from gcnemu.isa import mfma as M
from gcnemu.sim import accel, fp, mfma_exec

numba = pytest.importorskip("numba", reason="numba not installed (pip install gcnemu[fast]): "
                                            "only the numpy paths exist to test")


@pytest.fixture
def kernels():
    k = accel.load()
    if k is None:
        pytest.skip("GCNEMU_NO_NUMBA is set: the numba kernels are switched off")
    return k


def pure(fn, *args, **kw):
    """fn(*args) with the numba kernels switched off (the numpy path)."""
    saved = accel._STATE.get("kernels")
    accel._STATE["kernels"] = None
    try:
        return fn(*args, **kw)
    finally:
        accel._STATE["kernels"] = saved


def bits32(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float32).view(np.uint32)


# ------------------------------------------------------------------------------- fp32 fma
EDGE_BITS = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x80800000,
             0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
             0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF812345, 0x7FA00000, 0x33800000,
             0x34000000, 0x0C000000, 0x20000000, 0x1F800000, 0x5F800000]


def fma_inputs(seed: int, n: int):
    """Lanes that reach every branch: random bit patterns (NaN payloads, Infs, denormals), values
    of nearby exponents (exact cancellations, float32 midpoints of the sum), tiny products (the
    float32 subnormal range) and the edge values combined in all orders."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 2 ** 32, size=(3, n), dtype=np.uint64).astype(np.uint32).view(np.float32)
    near = (rng.standard_normal((3, n)) * 2.0 ** rng.integers(-3, 4, (3, n))).astype(np.float32)
    # c = -(a*b rounded to fewer bits): the exact sum is a few bits, often on a midpoint
    short = (near[0].astype(np.float64) * near[1]).astype(np.float32).view(np.uint32)
    near[2] = -(short & np.uint32(0xFFFFF000)).view(np.float32)
    tiny = (rng.standard_normal((3, n)) * 2.0 ** rng.integers(-75, -55, (3, n))).astype(np.float32)
    tiny[2] = (rng.standard_normal(n) * 2.0 ** -130).astype(np.float32)
    e = np.array(EDGE_BITS, dtype=np.uint32).view(np.float32)
    grid = np.array(np.meshgrid(e, e, e, indexing="ij")).reshape(3, -1)
    return np.concatenate([raw, near, tiny, grid], axis=1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fma_f32_kernel_matches_numpy_bit_for_bit(kernels, seed):
    a, b, c = fma_inputs(seed, 20000)
    fast = fp.fma_f32(a, b, c)
    slow = pure(fp.fma_f32, a, b, c)
    assert fast.dtype == np.float32 and fast.shape == a.shape
    assert np.array_equal(bits32(fast), bits32(slow))
    # the finite lanes alone (midpoint sums, subnormal results) take the kernel's plain loop,
    # which has no NaN rule: it must round them exactly the same
    finite = fma_inputs(seed, 20000)[:, 20000:60000]
    assert np.isfinite(finite).all()
    assert np.array_equal(bits32(fp.fma_f32(*finite)), bits32(pure(fp.fma_f32, *finite)))


def test_fma_f32_inputs_reach_the_rounding_fixes(kernels):
    """The inputs exercise the lanes the algorithm treats specially (else the comparison above
    would prove little): midpoint sums, subnormal results, NaN results."""
    a, b, c = fma_inputs(0, 20000)
    with np.errstate(all="ignore"):
        s = a.astype(np.float64) * b + c
    midpoint = (s.view(np.uint64) & np.uint64((1 << 29) - 1)) == np.uint64(1 << 28)
    assert midpoint.sum() > 100
    assert ((np.abs(s) < 2.0 ** -126) & (s != 0)).sum() > 100
    assert np.isnan(fp.fma_f32(a, b, c)).sum() > 100


def test_fma_f32_kernel_keeps_shape_and_known_values(kernels):
    a = np.full((4, 64), 1 + 2.0 ** -23, dtype=np.float32)
    c = np.full((4, 64), -1.0, dtype=np.float32)
    # (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 exactly; rounded once it keeps the 2^-46 (a separate
    # multiply and add would lose it)
    out = fp.fma_f32(a, a, c)
    assert out.shape == (4, 64)
    assert np.all(out == np.float32(2.0 ** -22 + 2.0 ** -46))


def test_fma_f32_first_nan_operand_wins_quieted(kernels):
    snan_b = np.array([0x7F800005], dtype=np.uint32).view(np.float32)
    qnan_c = np.array([0xFFC00007], dtype=np.uint32).view(np.float32)
    one = np.ones(1, dtype=np.float32)
    assert bits32(fp.fma_f32(one, snan_b, qnan_c))[0] == 0x7FC00005
    inf = np.full(1, np.inf, dtype=np.float32)
    assert bits32(fp.fma_f32(inf, np.zeros(1, np.float32), one))[0] == 0x7FC00000


def test_fma_f32_kernel_rounds_once_keeps_subnormals_and_zero_signs(kernels):
    """The kernel is the CPU's float32 fused multiply-add: the cases where that instruction could
    differ from the float64 reference if the machine flushed denormals or rounded twice."""
    big = np.float32(3.0e38)
    cases = [  # (a, b, c, expected bits)
        (big, np.float32(2.0), -big, np.float32(3.0e38)),  # the product overflows float32: fused, it does not
        (np.float32(2.0 ** -140), np.float32(2.0 ** -5), np.float32(0.0), np.float32(2.0 ** -145)),  # subnormal kept
        (np.float32(2.0 ** -149), np.float32(0.5), np.float32(0.0), np.float32(0.0)),  # half the smallest: to even
        (np.float32(2.0 ** -149), np.float32(1.5), np.float32(0.0), np.float32(2.0 ** -148)),  # 1.5 ulp: to even
        (np.float32(1.0), np.float32(0.0), np.float32(-0.0), np.float32(0.0)),  # +0 + -0 = +0
        (np.float32(-1.0), np.float32(0.0), np.float32(-0.0), np.float32(-0.0)),  # -0 + -0 = -0
        (np.float32(3.0), np.float32(5.0), np.float32(-15.0), np.float32(0.0)),  # exact cancellation: +0
        (np.float32(1e30), np.float32(1e30), np.float32(-np.inf), np.float32(-np.inf)),
    ]
    a, b, c, want = (np.array(col, dtype=np.float32) for col in zip(*cases))
    fast = fp.fma_f32(a, b, c)
    assert list(bits32(fast)) == list(bits32(want))
    assert np.array_equal(bits32(fast), bits32(pure(fp.fma_f32, a, b, c)))


@pytest.mark.parametrize("seed", [3, 4])
def test_fma_f32_kernel_matches_numpy_on_a_whole_grid_of_lanes(kernels, seed):
    """One call over (1024, 64) lanes, as the functional engine makes it for v_fmac_f32."""
    a, b, c = fma_inputs(seed, 16384)[:, :1024 * 64].reshape(3, 1024, 64)  # (most of the edge grid too)
    fast = fp.fma_f32(a, b, c)
    assert fast.shape == a.shape
    assert np.array_equal(bits32(fast), bits32(pure(fp.fma_f32, a, b, c)))


@pytest.mark.parametrize("into", ["a", "b", "c"])
def test_fma_f32_into_one_of_its_operands_gives_the_fresh_result(kernels, into):
    """The functional engine has fp.fma_f32 write a register row in place (v_fmac_f32's D is
    also its C; v_fmac_f32 v5, v5, v6 makes it A too): with the kernel and with the numpy path,
    every lane must read its operands before its result lands."""
    a, b, c = (x.reshape(-1, 64) for x in fma_inputs(5, 4096)[:, :4096 * 4])
    want = pure(fp.fma_f32, a, b, c)
    for numpy_path in (False, True):
        ops = {"a": a.copy(), "b": b.copy(), "c": c.copy()}
        args = (ops["a"], ops["b"], ops["c"])
        got = pure(fp.fma_f32, *args, out=ops[into]) if numpy_path else fp.fma_f32(*args, out=ops[into])
        assert got is ops[into]
        assert np.array_equal(bits32(ops[into]), bits32(want)), ("numpy" if numpy_path else "kernel", into)


def test_fma_f32_mixed_shapes_take_the_numpy_path(kernels):
    a = np.ones((2, 64), dtype=np.float32)
    assert accel.fma_f32(a, np.float32(2.0), a) is None
    assert np.all(fp.fma_f32(a, np.float32(2.0), a) == 3.0)


# ------------------------------------------------------------------------------- MFMA exact sum
SHAPES = [("v_mfma_f32_32x32x2f32", "gfx90a"), ("v_mfma_f32_16x16x4f32", "gfx90a"),
          ("v_mfma_f32_32x32x8f16", "gfx90a"), ("v_mfma_f32_16x16x16_bf16", "gfx942"),
          ("v_mfma_f32_4x4x4f16", "gfx90a"), ("v_mfma_f32_16x16x32_fp8_fp8", "gfx942"),
          ("v_mfma_f32_16x16x8_xf32", "gfx942")]


def operands(info, rng, kind: str):
    """(a, b, c) values of the element formats: 'plain' (similar magnitudes), 'spread' (exponents
    from 2^-60 to 2^60, so the exactness bound fails and the error-free sum decides), 'cancel'
    (C cancels the product sum), 'special' (an Inf and a NaN: the numpy path's NaN rules)."""
    shapes = [info.shape("A"), info.shape("B"), info.shape("C")]
    vals = []
    for op, shape in zip("ABC", shapes):
        x = rng.standard_normal(shape)
        if kind == "spread":
            x *= 2.0 ** rng.integers(-60, 60, shape)
        dt = np.dtype(info.element_type(op).dtype)
        vals.append(x.astype(dt).astype(np.float64))
    a, b, c = vals
    if kind == "cancel":
        c = -np.einsum("bik,bkj->bij", a, b).astype(np.float32).astype(np.float64)
    if kind == "special":
        a.flat[0] = np.inf
        b.flat[3] = np.nan
    return a, b, c


@pytest.mark.parametrize("name,target", SHAPES)
@pytest.mark.parametrize("kind", ["plain", "spread", "cancel", "special"])
def test_mfma_compute_matches_numpy_bit_for_bit(kernels, name, target, kind):
    info = M.lookup(name, target)
    assert info is not None, name
    rng = np.random.default_rng(hash((name, kind)) % 2 ** 32)
    for _ in range(3):
        a, b, c = operands(info, rng, kind)
        for neg in [(False, False, False), (True, False, True)]:
            neg = neg if "neg" in info.modifiers else (False, False, False)
            fast = mfma_exec.compute(info, a, b, c, neg=neg)
            slow = pure(mfma_exec.compute, info, a, b, c, neg=neg)
            assert np.array_equal(bits32(fast), bits32(slow)), (name, kind)


def test_mfma_many_blocks_as_the_functional_engine_stacks_them(kernels):
    info = M.lookup("v_mfma_f32_32x32x8f16", "gfx90a")
    rng = np.random.default_rng(7)
    a = rng.standard_normal((40, 32, 8)).astype(np.float16).astype(np.float64)
    b = rng.standard_normal((40, 8, 32)).astype(np.float16).astype(np.float64)
    c = (rng.standard_normal((40, 32, 32)) * 2.0 ** rng.integers(-30, 30, (40, 32, 32))).astype(np.float32)
    fast = mfma_exec.compute(info, a, b, c)
    assert np.array_equal(bits32(fast), bits32(pure(mfma_exec.compute, info, a, b, c)))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (NaN lanes cast by the numpy path)
@pytest.mark.parametrize("name,target", SHAPES[:4])
def test_mfma_execute_fast_plan_matches_numpy(kernels, name, target):
    """The timed engine's planned path (register operands in, registers out)."""
    info = M.lookup(name, target)
    rng = np.random.default_rng(11)
    regs = [rng.integers(0, 2 ** 32, size=(info.operand_regs(op), 64), dtype=np.uint64).astype(np.uint32)
            for op in "ABC"]
    # random bits hold NaNs; also a finite set (exponent bits cleared of the top)
    finite = [r & np.uint32(0xBFFFBFFF) for r in regs]
    for a, b, c in (regs, finite):
        fast = mfma_exec.execute(info, a, b, c)
        slow = pure(mfma_exec.execute, info, a, b, c)
        assert np.array_equal(fast, slow)


def test_no_numba_env_switches_the_kernels_off():
    code = ("from gcnemu.sim import accel, fp; import numpy as np; "
            "assert accel.load() is None and not accel.enabled(); "
            "x = np.ones(8, np.float32); assert (fp.fma_f32(x, x, x) == 2).all(); print('numpy')")
    env = dict(os.environ, GCNEMU_NO_NUMBA="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "numpy"


def test_short_runs_do_not_load_numba():
    """Below the warm-up of numeric work a process never imports numba (0.7 s it cannot repay)."""
    code = ("import sys; from gcnemu.sim import accel, fp; import numpy as np; "
            "x = np.ones((4, 64), np.float32); fp.fma_f32(x, x, x); "
            "print('numba' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if k not in ("GCNEMU_NUMBA_WARMUP", "GCNEMU_NO_NUMBA")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_numba_takes_over_after_the_warm_up_with_the_same_bits(kernels):
    """A long run switches to the kernels mid-run: the results before and after are the same."""
    code = ("import sys; import numpy as np; from gcnemu.sim import accel, fp; "
            "rng = np.random.default_rng(3); "
            "a, b, c = (rng.standard_normal((16, 64)).astype(np.float32) for _ in range(3)); "
            "before = fp.fma_f32(a, b, c); loaded = 'numba' in sys.modules; "
            "after = fp.fma_f32(a, b, c); "
            "print(loaded, accel._STATE.get('kernels') is not None, "
            "np.array_equal(before.view(np.uint32), after.view(np.uint32)))")
    env = dict(os.environ, GCNEMU_NUMBA_WARMUP="1500")  # one 1024-lane call below, the next above
    env.pop("GCNEMU_NO_NUMBA", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True", "True"]


# ------------------------------------------------------------------------------- loads into register rows
def test_gather_rows_fills_strided_register_rows_like_numpy(kernels):
    """accel.gather_rows: each lane's dw consecutive words into rows of a register file view (the
    functional engine's loads), equal to numpy's fancy index; refuses arrays of other kinds."""
    rng = np.random.default_rng(9)
    words = rng.integers(0, 2 ** 32, 4096, dtype=np.uint64).astype(np.uint32)
    first = rng.integers(0, 4096 - 4, (12, 64)).astype(np.int64)
    regs = np.zeros((10, 20, 64), dtype=np.uint32)  # (registers, waves, lanes), as the engine keeps them
    view = regs[3:7, 4:16]
    assert accel.gather_rows(words, first, view)
    want = words[first[None] + np.arange(4)[:, None, None]]
    assert np.array_equal(regs[3:7, 4:16], want)
    assert not regs[:3].any() and not regs[7:].any() and not regs[:, :4].any() and not regs[:, 16:].any()
    assert not accel.gather_rows(words, first.astype(np.int32), view)
    assert not accel.gather_rows(words.astype(np.int64), first, view)


def test_gather_f32_and_scatter_f32_move_mfma_operands_like_numpy(kernels):
    """accel.gather_f32 / scatter_f32: an MFMA's fp32 C from flat register positions as float64,
    and its float64 D back rounded to float32, bit for bit what numpy's take/astype and
    astype/put give (NaN payloads, infinities, halfway cases, signed zeros included)."""
    rng = np.random.default_rng(13)
    regs = rng.integers(0, 2 ** 32, 8192, dtype=np.uint64).astype(np.uint32)  # random bits: NaNs too
    table = rng.permutation(8192)[:6 * 700].reshape(6, 700).astype(np.int64)
    got = accel.gather_f32(regs, table)
    with np.errstate(invalid="ignore"):
        want = np.take(regs, table).view(np.float32).astype(np.float64)
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))

    values = rng.standard_normal((6, 700)) * 2.0 ** rng.integers(-140, 130, (6, 700))
    values.flat[:6] = [np.inf, -np.inf, np.nan, -0.0, 1 + 2.0 ** -24, 1 + 3 * 2.0 ** -24]  # ties to even
    mine, theirs = regs.copy(), regs.copy()
    assert accel.scatter_f32(mine, table, values)
    with np.errstate(over="ignore", invalid="ignore"):
        theirs[table] = values.astype(np.float32).view(np.uint32)
    assert np.array_equal(mine, theirs)
    assert not accel.scatter_f32(mine, table.astype(np.int32), values)
    assert accel.gather_f32(regs.astype(np.int64), table) is None
