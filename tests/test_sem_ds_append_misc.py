"""ds_append / ds_consume and the packed 16-bit float memory atomics, against references written
from the ISA descriptions (not from gcnemu's code).

ds_append / ds_consume (CDNA4 ISA guide 12.12, gem5 vega ds.cc descriptions): one 32-bit
counter in LDS at the instruction offset (M0 takes part only for GDS) grows (shrinks) by the
number of active lanes; every active lane gets the value from before.

*_atomic_pk_add_f16 / _bf16 (ISA "Float Memory Atomics"): each dword of memory holds two 16-bit
floats, each half is added to the matching half of the data register on its own, rounded to
nearest even, denormals kept; the returning form (glc / sc0) gives the pre-op dword. The
reference rounds the exact (float64) sum to the 16-bit format with Python's round-half-even.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import Setup
from gcnemu.simulation import Simulation
from semhelpers import Result, _set_sgpr, _set_vreg, lanes_mask, llvm_mc_errors, run

LANE = np.arange(64)
RNG = np.random.default_rng(2024)


# ---------------------------------------------------------------- ds_append / ds_consume


def lds_with(counters: dict[int, int], size: int = 4096) -> np.ndarray:
    lds = RNG.integers(0, 256, size, dtype=np.uint16).astype(np.uint8)
    for addr, value in counters.items():
        lds[addr:addr + 4] = np.array([value], dtype="<u4").view(np.uint8)
    return lds


def run_lds(asm: str, target: str, lds: np.ndarray, *, s: dict | None = None, v: dict | None = None,
            a: dict | None = None, exec=None, check: bool = True, expect_error: str | None = None) -> Result:
    """Like semhelpers.run, with an initial LDS image (Setup.lds_init)."""
    text = asm + "\ns_endpgm\n"
    if check:
        errors = llvm_mc_errors(text, target)
        assert not errors, errors
    setup = Setup()
    setup.lds_init = lds
    sim = Simulation(resolve(gcnemu.parse(text), target, validate_first=False), setup)
    w = sim.wave(0)
    for key, value in (s or {}).items():
        _set_sgpr(w, key, value)
    for key, value in (v or {}).items():
        _set_vreg(w, key, value)
    for key, value in (a or {}).items():
        _set_vreg(w, f"a{key}", value)
    if exec is not None:
        _set_sgpr(w, "exec", exec if isinstance(exec, int) else lanes_mask(exec))
    sim.run()
    if expect_error is None:
        assert sim.error is None, sim.error
    else:
        assert sim.error is not None and expect_error in sim.error.message, sim.error
    return Result(sim)


def lds_dword(r, addr: int) -> int:
    return int(r.sim.engine.lds.data[addr:addr + 4].copy().view("<u4")[0])


def append_reference(counter: int, exec_bits: np.ndarray, consume: bool) -> tuple[int, int]:
    """(new counter, value returned to each active lane)."""
    n = int(exec_bits.sum())
    new = (counter - n) % 2**32 if consume else (counter + n) % 2**32
    return new, counter


@pytest.mark.parametrize("target", ["gfx908", "gfx90a", "gfx942", "gfx950"])
@pytest.mark.parametrize("mnemonic", ["ds_append", "ds_consume"])
def test_counter_at_the_offset_moves_by_the_active_lane_count(target, mnemonic):
    exec_bits = RNG.random(64) < 0.6
    m0, offset, counter = 0x200, 0x218, 1000  # M0 does not take part in an LDS address
    lds = lds_with({offset: counter})
    before = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    r = run_lds(f"{mnemonic} v1 offset:{offset}\ns_waitcnt lgkmcnt(0)", target, lds,
                s={"m0": m0}, v={1: before}, exec=exec_bits)
    new, ret = append_reference(counter, exec_bits, mnemonic == "ds_consume")
    assert lds_dword(r, offset) == new
    np.testing.assert_array_equal(r.v(1), np.where(exec_bits, ret, before).astype(np.uint32))
    # nothing else in the LDS moved
    data = r.sim.engine.lds.data
    others = np.ones(len(lds), dtype=bool)
    others[offset:offset + 4] = False
    np.testing.assert_array_equal(data[:len(lds)][others], lds[others])


def test_consume_below_zero_wraps_and_append_past_the_top_wraps():
    r = run_lds("ds_consume v1 offset:64\ns_waitcnt lgkmcnt(0)", "gfx90a", lds_with({64: 3}), s={"m0": 64})
    assert lds_dword(r, 64) == (3 - 64) % 2**32
    assert (r.v(1) == 3).all()
    r = run_lds("ds_append v1 offset:64\ns_waitcnt lgkmcnt(0)", "gfx90a", lds_with({64: 2**32 - 10}), s={"m0": 0})
    assert lds_dword(r, 64) == 54
    assert (r.v(1) == 2**32 - 10).all()


def test_two_appends_hand_out_consecutive_ranges_as_kernels_use_them():
    """The kernel idiom: slot = ds_append result + mbcnt (lane's rank among active lanes)."""
    exec_bits = (LANE % 3) != 0
    asm = """ds_append v1 offset:128
ds_append v2 offset:128
s_waitcnt lgkmcnt(0)
v_mbcnt_lo_u32_b32 v3, exec_lo, 0
v_mbcnt_hi_u32_b32 v3, exec_hi, v3
v_add_u32 v4, v1, v3"""
    r = run_lds(asm, "gfx942", lds_with({128: 7}), s={"m0": 120}, exec=exec_bits)
    n = int(exec_bits.sum())
    assert lds_dword(r, 128) == 7 + 2 * n
    assert (r.v(1)[exec_bits] == 7).all() and (r.v(2)[exec_bits] == 7 + n).all()
    rank = np.cumsum(exec_bits) - 1
    np.testing.assert_array_equal(r.v(4)[exec_bits], (7 + rank)[exec_bits])


def test_agpr_destination_and_exec_zero():
    r = run_lds("ds_append a3\ns_waitcnt lgkmcnt(0)", "gfx90a", lds_with({0: 41}), s={"m0": 0},
                a={3: 5}, exec=0)
    assert lds_dword(r, 0) == 41
    assert (r.a(3) == 5).all()
    r = run_lds("ds_append a3\ns_waitcnt lgkmcnt(0)", "gfx90a", lds_with({0: 41}), s={"m0": 0})
    assert lds_dword(r, 0) == 105 and (r.a(3) == 41).all()


def test_miopen_winograd_pattern_counter_near_the_top_of_a_64k_lds():
    """Conv_Winograd_v21_1_3 (gfx9): s_mov_b32 m0, 0x2ffc0 / ds_append v105 offset:65472."""
    lds = lds_with({65472: 17}, size=65536)
    r = run_lds("s_mov_b32 m0, 0x2ffc0\nds_append v105 offset:65472\ns_waitcnt lgkmcnt(0)", "gfx908", lds)
    assert lds_dword(r, 65472) == 17 + 64
    assert (r.v(105) == 17).all()
    assert not r.notes


def test_gds_form_stays_not_modelled():
    r = run_lds("ds_append v1 gds", "gfx908", lds_with({}), s={"m0": 0}, check=False,
                expect_error="GDS is not modelled")
    assert r.sim.error is not None


# ---------------------------------------------------------------- packed 16-bit float atomics


F16 = (11, -14, 15)  # significand bits (with the hidden one), emin, emax
BF16 = (8, -126, 127)


def round_to(x: float, fmt) -> float:
    """x rounded to the format, to nearest even, subnormals kept, overflow to infinity."""
    p, emin, emax = fmt
    if math.isnan(x) or math.isinf(x) or x == 0.0:
        return x
    _, e = math.frexp(x)  # |x| = m * 2**e, 0.5 <= m < 1: the leading bit is 2**(e-1)
    q = max(e - 1, emin) - (p - 1)  # the spacing of the format around x
    r = round(x / 2.0**q) * 2.0**q  # Python rounds exact halves to even
    if abs(r) >= 2.0**(emax + 1):
        return math.copysign(math.inf, x)
    return r if r != 0.0 else math.copysign(0.0, x)


def to_float(bits: int, fmt) -> float:
    if fmt is F16:
        return float(np.uint16(bits).view(np.float16))
    return float(np.array([bits << 16], dtype=np.uint32).view(np.float32)[0])


def to_bits(x: float, fmt) -> int:
    if fmt is F16:
        return int(np.float16(x).view(np.uint16))  # exact: x is already representable
    return int(np.float32(x).view(np.uint32)) >> 16


def pk_add_reference(mem: int, data: int, fmt) -> int:
    out = 0
    for shift in (0, 16):
        a, b = to_float((mem >> shift) & 0xFFFF, fmt), to_float((data >> shift) & 0xFFFF, fmt)
        s = a + b  # exact in float64 for f16; for bf16 a float64 rounding first is harmless (53 >= 2*8+2)
        if math.isnan(s):
            out |= 0x7E00 << shift if fmt is F16 else 0x7FC0 << shift
            continue
        out |= to_bits(round_to(s, fmt), fmt) << shift
    return out


def is_nan16(bits: np.ndarray, fmt) -> np.ndarray:
    exp_mask, man_mask = (0x7C00, 0x03FF) if fmt is F16 else (0x7F80, 0x007F)
    return ((bits & exp_mask) == exp_mask) & ((bits & man_mask) != 0)


def special_halves(fmt) -> np.ndarray:
    """16-bit patterns: zeros, subnormals, normals near the ends, infinities, NaN, ties."""
    if fmt is F16:
        return np.array([0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00,
                         0x7E00, 0x3C00, 0x3C01, 0x1000, 0x6800, 0x0200], dtype=np.uint32)
    return np.array([0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x0080, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80,
                     0x7FC0, 0x3F80, 0x3F81, 0x3B80, 0x4B00, 0x0040], dtype=np.uint32)


def operands(fmt) -> tuple[np.ndarray, np.ndarray]:
    """uint32[64] memory dwords and data dwords: random finite values, then special pairs."""
    def rand_halves(n):
        vals = (RNG.standard_normal(n) * 300).astype(np.float32)
        if fmt is F16:
            return vals.astype(np.float16).view(np.uint16).astype(np.uint32)
        return vals.view(np.uint32) >> 16
    mem = rand_halves(64) | (rand_halves(64) << 16)
    data = rand_halves(64) | (rand_halves(64) << 16)
    sp = special_halves(fmt)
    grid = [(a, b) for a in sp for b in sp]
    pick = RNG.choice(len(grid), 40, replace=False)
    for lane, k in enumerate(pick):
        a, b = grid[k]
        mem[lane] = a | (sp[(lane * 7) % len(sp)] << 16)
        data[lane] = b | (sp[(lane * 5 + 3) % len(sp)] << 16)
    return mem.astype(np.uint32), data.astype(np.uint32)


def check_halves(got: np.ndarray, want: np.ndarray, fmt) -> None:
    for shift in (0, 16):
        g, w = (got >> shift) & 0xFFFF, (want >> shift) & 0xFFFF
        nan = is_nan16(w, fmt)
        assert (is_nan16(g, fmt) == nan).all()
        np.testing.assert_array_equal(g[~nan], w[~nan])


PK_CASES = [
    ("gfx908", "buffer_atomic_pk_add_f16 v1, v0, s[8:11], 0 offen", F16, "buffer", False),
    ("gfx90a", "buffer_atomic_pk_add_f16 v1, v0, s[8:11], 0 offen glc", F16, "buffer", True),
    ("gfx942", "buffer_atomic_pk_add_f16 v1, v0, s[8:11], 0 offen sc0", F16, "buffer", True),
    ("gfx908", "global_atomic_pk_add_f16 v0, v1, s[4:5]", F16, "global", False),
    ("gfx90a", "global_atomic_pk_add_f16 v2, v0, v1, s[4:5] glc", F16, "global", True),
    ("gfx942", "global_atomic_pk_add_bf16 v2, v0, v1, s[4:5] sc0", BF16, "global", True),
    ("gfx942", "global_atomic_pk_add_bf16 v0, v1, s[4:5]", BF16, "global", False),
    ("gfx942", "flat_atomic_pk_add_f16 v2, v[4:5], v1 sc0", F16, "flat", True),
    ("gfx950", "buffer_atomic_pk_add_bf16 v1, v0, s[8:11], 0 offen sc0", BF16, "buffer", True),
    ("gfx950", "buffer_atomic_pk_add_bf16 v1, v0, s[8:11], 0 offen", BF16, "buffer", False),
    ("gfx950", "global_atomic_pk_add_f16 v2, v0, v1, s[4:5] sc0", F16, "global", True),
]


@pytest.mark.parametrize("target,line,fmt,kind,ret", PK_CASES)
def test_packed_add_per_half_matches_the_reference(target, line, fmt, kind, ret):
    mem, data = operands(fmt)
    offsets = RNG.permutation(64) * 4
    want_mem = np.array([pk_add_reference(int(mem[o // 4]), int(data[lane]), fmt)
                         for lane, o in enumerate(offsets)], dtype=np.uint32)
    inv = np.argsort(offsets // 4)  # memory dword k is updated by lane inv[k]
    want_mem = want_mem[inv]
    regs = {0: offsets, 1: data}
    if kind == "buffer":
        bufs = {"A": (mem.copy(), "s[8:11]", "rsrc")}
    elif kind == "global":
        bufs = {"A": (mem.copy(), "s[4:5]")}
    else:
        bufs = {"A": (mem.copy(), "s[6:7]")}
    asm = line + "\ns_waitcnt vmcnt(0)"
    if kind == "flat":
        asm = ("v_mov_b32 v5, s7\nv_add_co_u32 v4, vcc, s6, v0\nv_addc_co_u32 v5, vcc, v5, 0, vcc\n" + asm)
    r = run(asm, target, v=regs, buffers=bufs)
    check_halves(r.sim.buffer("A", np.uint32), want_mem, fmt)
    if ret:
        dst = 1 if kind == "buffer" else 2
        np.testing.assert_array_equal(r.v(dst), mem[offsets // 4])
    elif kind == "buffer":
        np.testing.assert_array_equal(r.v(1), data)  # vdata is not overwritten without glc/sc0


@pytest.mark.parametrize("fmt,target,line", [
    (F16, "gfx90a", "global_atomic_pk_add_f16 v2, v0, v1, s[4:5] glc"),
    (BF16, "gfx942", "global_atomic_pk_add_bf16 v2, v0, v1, s[4:5] sc0"),
])
def test_lanes_on_one_dword_add_in_lane_order_and_see_the_running_value(fmt, target, line):
    """Every lane hits dword 0: the result is the in-order chain of roundings; each lane gets its prefix."""
    exec_bits = RNG.random(64) < 0.75
    half = 0x3555 if fmt is F16 else 0x3DCD  # ~1/3: every step rounds
    data = np.full(64, half | (half << 16), dtype=np.uint32)
    start = 0x3C00 if fmt is F16 else 0x3F80
    mem = np.array([start | (start << 16)], dtype=np.uint32)
    r = run(line + "\ns_waitcnt vmcnt(0)", target, v={0: 0, 1: data, 2: 0}, exec=exec_bits,
            buffers={"A": (mem.copy(), "s[4:5]")})
    cur = int(mem[0])
    for lane in range(64):
        if exec_bits[lane]:
            assert int(r.v(2)[lane]) == cur, lane
            cur = pk_add_reference(cur, int(data[lane]), fmt)
        else:
            assert int(r.v(2)[lane]) == 0
    assert int(r.sim.buffer("A", np.uint32)[0]) == cur


def test_denormal_halves_are_kept_not_flushed():
    """Unlike global ADD_F32 (which flushes), PK_ADD_F16 keeps subnormal inputs and results."""
    mem = np.full(64, 0x0001 | (0x8003 << 16), dtype=np.uint32)  # 2^-24, -3*2^-24
    data = np.full(64, 0x0001 | (0x0001 << 16), dtype=np.uint32)
    r = run("global_atomic_pk_add_f16 v0, v1, s[4:5]\ns_waitcnt vmcnt(0)", "gfx90a",
            v={0: LANE * 4, 1: data}, buffers={"A": (mem.copy(), "s[4:5]")})
    assert (r.sim.buffer("A", np.uint32) == (0x0002 | (0x8002 << 16))).all()


def test_buffer_lanes_out_of_range_are_dropped_and_return_zero():
    mem = np.full(16, 0x3C003C00, dtype=np.uint32)  # 16 dwords: lanes 16.. are out of range
    r = run("buffer_atomic_pk_add_f16 v1, v0, s[8:11], 0 offen glc\ns_waitcnt vmcnt(0)", "gfx90a",
            v={0: LANE * 4, 1: 0x3C003C00}, buffers={"A": (mem.copy(), "s[8:11]", "rsrc")})
    assert (r.sim.buffer("A", np.uint32) == 0x40004000).all()
    assert (r.v(1)[:16] == 0x3C003C00).all() and (r.v(1)[16:] == 0).all()
