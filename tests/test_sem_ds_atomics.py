"""LDS atomics of every width and kind, and the other instructions real kernels and llc-22 output
use that used to stop `gcnemu run` (issue 14 item 4).

The references are plain Python loops over the lanes in order (lanes that hit the same address
serialise in lane order), written from the ISA guide's DS opcode table (the .arch descriptions
gem5's vega model carries):
  add/sub/rsub wrap; inc: old >= data ? 0 : old + 1; dec: old == 0 || old > data ? data : old - 1;
  min/max signed (i) or unsigned (u); and/or/xor; mskor: (old & ~DATA) | DATA2;
  cmpst: old == DATA ? DATA2 : old (DATA is the compare value: the opposite of buffer cmpswap);
  wrap: old >= DATA ? old - DATA : old + DATA2; wrxchg: DATA.
`_rtn_` forms return the value memory held before; 64-bit forms use register pairs.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from semhelpers import RNG, run

LANE = np.arange(64)
SLOTS = 16  # lanes share LDS slots four by four: updates to one slot serialise in lane order


def reference(op: str, bits: int, mem: list[int], d0: np.ndarray, d1: np.ndarray, exec_: np.ndarray):
    mask = (1 << bits) - 1

    def signed(x: int) -> int:
        return x - (1 << bits) if x >> (bits - 1) else x
    mem = list(mem)
    old = np.zeros(64, dtype=object)
    for lane in range(64):
        if not exec_[lane]:
            continue
        s = lane % SLOTS
        m, a, b = mem[s], int(d0[lane]), int(d1[lane])
        old[lane] = m
        new = {"add": m + a, "sub": m - a, "rsub": a - m, "inc": 0 if m >= a else m + 1,
               "dec": a if m == 0 or m > a else m - 1, "min_i": m if signed(m) <= signed(a) else a,
               "max_i": m if signed(m) >= signed(a) else a, "min_u": min(m, a), "max_u": max(m, a),
               "and": m & a, "or": m | a, "xor": m ^ a, "mskor": (m & ~a) | b, "cmpst": b if m == a else m,
               "wrap": m - a if m >= a else m + b, "wrxchg": a}[op]
        mem[s] = new & mask
    return mem, old


# (mnemonic stem, reference op, type letter, two data operands)
INT_OPS = [("add", "add", "u", False), ("sub", "sub", "u", False), ("rsub", "rsub", "u", False),
           ("inc", "inc", "u", False), ("dec", "dec", "u", False), ("min", "min_i", "i", False),
           ("max", "max_i", "i", False), ("min", "min_u", "u", False), ("max", "max_u", "u", False),
           ("and", "and", "b", False), ("or", "or", "b", False), ("xor", "xor", "b", False),
           ("mskor", "mskor", "b", True), ("cmpst", "cmpst", "b", True)]


def _regs(bits: int, first: int) -> str:
    return f"v{first}" if bits == 32 else f"v[{first}:{first + 1}]"


def _values(op: str, bits: int) -> tuple[list[int], np.ndarray, np.ndarray]:
    dt = np.uint64 if bits == 64 else np.uint32
    if op in ("inc", "dec", "cmpst", "wrap"):  # small values, so that wraps and matches happen
        mem = [int(x) for x in RNG.integers(0, 5, SLOTS)]
        d0, d1 = RNG.integers(0, 5, 64).astype(dt), RNG.integers(0, 5, 64).astype(dt)
    else:
        mem = [int(x) & ((1 << bits) - 1) for x in RNG.integers(0, 2**63, SLOTS, dtype=np.uint64) * 3]
        d0 = RNG.integers(0, 2**63, 64, dtype=np.uint64).astype(dt)
        d1 = RNG.integers(0, 2**63, 64, dtype=np.uint64).astype(dt)
        top = 1 << (bits - 1)
        mem[:4] = [0, top, top - 1, (1 << bits) - 1]
        d0[:6] = [1, (1 << bits) - 1, top, 0, top - 1, 7]
    return mem, d0, d1


def _run_ds(mnemonic: str, bits: int, two: bool, rtn: bool, mem, d0, d1, exec_, target="gfx90a"):
    w = bits // 32
    data = f"{_regs(bits, 10)}" + (f", {_regs(bits, 12)}" if two else "")
    dst = f"{_regs(bits, 20)}, " if rtn else ""
    init = "\n".join(f"ds_write_b{bits} v30, {_regs(bits, 40)} offset:{k * 8}" for k in range(0))  # (memory via v40)
    asm = f"""
{init}
ds_write_b{bits} v2, {_regs(bits, 4)}
s_waitcnt lgkmcnt(0)
s_mov_b64 exec, s[8:9]
{mnemonic} {dst}v1, {data} offset:8
s_mov_b64 exec, -1
s_waitcnt lgkmcnt(0)
ds_read_b{bits} {_regs(bits, 24)}, v2
s_waitcnt lgkmcnt(0)
"""
    slot_mem = np.array([mem[k % SLOTS] for k in range(64)], dtype=np.uint64)
    lanes_exec = int(np.packbits(exec_.astype(np.uint8), bitorder="little").view(np.uint64)[0])
    stride = 8  # one 8-byte slot per address, 64-bit aligned
    v = {1: (LANE % SLOTS) * stride, 2: np.where(LANE < SLOTS, LANE * stride + 8, 4096 + LANE * 8)}
    if bits == 32:
        v.update({4: slot_mem.astype(np.uint32), 10: d0, 12: d1})
    else:
        v.update({"v[4:5]": slot_mem, "v[10:11]": d0, "v[12:13]": d1})
    return run(asm, target, v=v, s={"s[8:9]": lanes_exec})


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("stem,op,letter,two", INT_OPS)
def test_integer_lds_atomics_match_the_isa_table_lane_by_lane(stem, op, letter, two, bits):
    mem, d0, d1 = _values(op, bits)
    exec_ = RNG.random(64) < 0.8
    exec_[:4] = True
    want_mem, want_old = reference(op, bits, mem, d0, d1, exec_)
    for rtn in (False, True):
        mnemonic = f"ds_{stem}_rtn_{letter}{bits}" if rtn else f"ds_{stem}_{letter}{bits}"
        r = _run_ds(mnemonic, bits, two, rtn, mem, d0, d1, exec_)
        got_mem = r.v(24) if bits == 32 else r.v64(24)
        assert [int(x) for x in got_mem[:SLOTS]] == want_mem, mnemonic
        if rtn:
            got_old = r.v(20) if bits == 32 else r.v64(20)
            assert [int(x) for x in got_old[exec_]] == [int(x) for x in want_old[exec_]], mnemonic


@pytest.mark.parametrize("bits", [32, 64])
def test_wrxchg_and_wrap_return_the_old_value(bits):
    exec_ = np.ones(64, dtype=bool)
    for stem, op, two in (("wrxchg", "wrxchg", False), ("wrap", "wrap", True)):
        if stem == "wrap" and bits == 64:
            continue  # ds_wrap_rtn_b32 only
        mem, d0, d1 = _values(op, bits)
        want_mem, want_old = reference(op, bits, mem, d0, d1, exec_)
        r = _run_ds(f"ds_{stem}_rtn_b{bits}", bits, two, True, mem, d0, d1, exec_)
        got_mem = r.v(24) if bits == 32 else r.v64(24)
        assert [int(x) for x in got_mem[:SLOTS]] == want_mem
        got_old = r.v(20) if bits == 32 else r.v64(20)
        assert [int(x) for x in got_old] == [int(x) for x in want_old]


@pytest.mark.parametrize("name,elem,mult", [("ds_wrxchg2_rtn_b32", 4, 4), ("ds_wrxchg2st64_rtn_b32", 4, 256),
                                            ("ds_wrxchg2_rtn_b64", 8, 8), ("ds_wrxchg2st64_rtn_b64", 8, 512)])
def test_wrxchg2_swaps_two_slots_and_returns_both(name, elem, mult):
    w = elem // 4
    d = "v[10:11], v[12:13]" if w == 2 else "v10, v12"
    dst = "v[20:23]" if w == 2 else "v[20:21]"
    rd = f"ds_read_b{8 * elem}"
    rr = (lambda k: f"v[{k}:{k + 1}]") if w == 2 else (lambda k: f"v{k}")
    asm = f"""
ds_write_b{8 * elem} v1, {rr(4)} offset:{1 * mult}
ds_write_b{8 * elem} v1, {rr(6)} offset:{2 * mult}
s_waitcnt lgkmcnt(0)
{name} {dst}, v1, {d} offset0:1 offset1:2
s_waitcnt lgkmcnt(0)
{rd} {rr(30)}, v1 offset:{1 * mult}
{rd} {rr(32)}, v1 offset:{2 * mult}
s_waitcnt lgkmcnt(0)
"""
    v = {1: LANE * 2 * elem}  # (each lane its own pair of slots; st64 strides are far larger than 64 lanes)
    if name.startswith("ds_wrxchg2st64"):
        v = {1: LANE * elem}  # offsets x64 elements: lanes' slots interleave without overlapping
    if w == 1:
        v.update({4: 100 + LANE, 6: 200 + LANE, 10: 1000 + LANE, 12: 2000 + LANE})
    else:
        v.update({"v[4:5]": (100 + LANE).astype(np.uint64) << np.uint64(32), "v[6:7]": 200 + LANE.astype(np.uint64),
                  "v[10:11]": 1000 + LANE.astype(np.uint64), "v[12:13]": (2000 + LANE.astype(np.uint64)) << np.uint64(33)})
    r = run(asm, "gfx90a", v=v)
    if w == 1:
        assert (r.v(20) == 100 + LANE).all() and (r.v(21) == 200 + LANE).all(), "old values, ADDR0's first"
        assert (r.v(30) == 1000 + LANE).all() and (r.v(32) == 2000 + LANE).all()
    else:
        assert (r.v64(20) == (100 + LANE).astype(np.uint64) << np.uint64(32)).all()
        assert (r.v64(22) == 200 + LANE).all()
        assert (r.v64(30) == 1000 + LANE).all()
        assert (r.v64(32) == (2000 + LANE).astype(np.uint64) << np.uint64(33)).all()


def _float_rmw(mnemonic: str, ftype, mem_vals, data_vals, target="gfx90a"):
    """One lane per slot: memory holds mem_vals, each lane applies data_vals; returns (mem, old)."""
    n = len(mem_vals)
    mem = np.zeros(64, dtype=ftype)
    data = np.zeros(64, dtype=ftype)
    mem[:n], data[:n] = mem_vals, data_vals
    bits = 8 * np.dtype(ftype).itemsize
    r_ = (lambda k: f"v{k}") if bits == 32 else (lambda k: f"v[{k}:{k + 1}]")
    asm = f"""
ds_write_b{bits} v1, {r_(4)}
s_waitcnt lgkmcnt(0)
{mnemonic} {r_(20)}, v1, {r_(10)}
s_waitcnt lgkmcnt(0)
ds_read_b{bits} {r_(24)}, v1
s_waitcnt lgkmcnt(0)
"""
    v = {1: LANE * 8}
    if bits == 32:
        v.update({4: mem, 10: data})
        r = run(asm, target, v=v)
        return r.f32(24)[:n], r.f32(20)[:n]
    v.update({"v[4:5]": mem.view(np.uint64), "v[10:11]": data.view(np.uint64)})
    r = run(asm, target, v=v)
    return r.f64(24)[:n], r.f64(20)[:n]


NAN = float("nan")


@pytest.mark.parametrize("ftype,bits", [(np.float32, 32), (np.float64, 64)])
def test_lds_float_min_max_follow_ieee_minnum_maxnum(ftype, bits):
    """LLVM lowers atomicrmw fmin/fmax (minnum/maxnum) to these: one NaN gives the other value,
    -0 is below +0, denormals are compared as they are."""
    tiny = np.finfo(ftype).smallest_subnormal
    mem = [1.0, 2.0, NAN, 3.0, -0.0, 0.0, tiny, -np.inf]
    data = [2.0, 1.0, 5.0, NAN, 0.0, -0.0, 2 * tiny, 1.0]
    got_min, old = _float_rmw(f"ds_min_rtn_f{bits}", ftype, mem, data)
    got_max, _ = _float_rmw(f"ds_max_rtn_f{bits}", ftype, mem, data)
    np.testing.assert_array_equal(got_min, np.array([1.0, 1.0, 5.0, 3.0, -0.0, -0.0, tiny, -np.inf], ftype))
    np.testing.assert_array_equal(got_max, np.array([2.0, 2.0, 5.0, 3.0, 0.0, 0.0, 2 * tiny, 1.0], ftype))
    assert np.signbit(got_min[4]) and np.signbit(got_min[5]) and not np.signbit(got_max[4])
    np.testing.assert_array_equal(old, np.array(mem, ftype))  # the pre-op values, NaN included


def test_lds_f64_add_rounds_to_nearest_even_and_keeps_denormals():
    tiny = np.finfo(np.float64).smallest_subnormal
    mem = [1.0, 2.0**53, tiny, np.inf, 0.1]
    data = [2.0**-53, 1.0, tiny, -np.inf, 0.2]
    got, _ = _float_rmw("ds_add_rtn_f64", np.float64, mem, data)
    assert got[0] == 1.0 and got[1] == 2.0**53, "ties to even"
    assert got[2] == 2 * tiny, "denormals are kept"
    assert np.isnan(got[3]) and got[4] == 0.1 + 0.2


def test_lds_float_cmpst_compares_as_floats():
    """ds_cmpst_f32 vaddr, cmp, src: -0 equals +0, a NaN never equals anything."""
    asm = """
ds_write_b32 v1, v4
s_waitcnt lgkmcnt(0)
ds_cmpst_rtn_f32 v20, v1, v10, v12
s_waitcnt lgkmcnt(0)
ds_read_b32 v24, v1
s_waitcnt lgkmcnt(0)
"""
    mem = np.array([0.0, 1.0, NAN, 2.0] + [0.0] * 60, np.float32)
    cmp = np.array([-0.0, 1.0, NAN, 3.0] + [1.0] * 60, np.float32)
    r = run(asm, "gfx90a", v={1: LANE * 4, 4: mem, 10: cmp, 12: np.float32(7.0)})
    got = r.f32(24)
    assert list(got[:2]) == [7.0, 7.0] and np.isnan(got[2]) and got[3] == 2.0
    assert (got[4:] == 0.0).all()


@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
@pytest.mark.parametrize("kind", ["f16", "bf16"])
def test_ds_pk_add_adds_each_half_with_one_rounding(target, kind):
    from gcnemu.sim.fp import bf16_bits_to_f32, f16_bits_to_f32, f32_to_bf16_bits, f32_to_f16_bits
    to32, from32 = (f16_bits_to_f32, f32_to_f16_bits) if kind == "f16" else (bf16_bits_to_f32, f32_to_bf16_bits)
    mem = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    data = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    mem[:4] = [0x3C003C00, 0x7C000001 if kind == "f16" else 0x7F800001, 0x00010001, 0x80000000]
    data[:4] = [0x3C004000, 0x00003C00, 0x00010001, 0x00008000]
    asm = f"""
ds_write_b32 v1, v4
s_waitcnt lgkmcnt(0)
ds_pk_add_rtn_{kind} v20, v1, v10
ds_pk_add_{kind} v2, v10
s_waitcnt lgkmcnt(0)
ds_read_b32 v24, v1
s_waitcnt lgkmcnt(0)
"""
    r = run(asm, target, v={1: LANE * 4, 2: 4096 + LANE * 4, 4: mem, 10: data})
    want = np.zeros(64, np.uint32)
    for half in (0, 16):
        a = to32(((mem >> half) & 0xFFFF).astype(np.uint16))
        b = to32(((data >> half) & 0xFFFF).astype(np.uint16))
        with np.errstate(all="ignore"):
            want |= from32((a + b).astype(np.float32)).astype(np.uint32) << np.uint32(half)
    np.testing.assert_array_equal(r.v(20), mem, "the old value returns")
    ok = ~(np.isnan(to32((want & 0xFFFF).astype(np.uint16))) | np.isnan(to32((want >> 16).astype(np.uint16))))
    np.testing.assert_array_equal(r.v(24)[ok], want[ok])
    if kind == "f16":
        assert r.v(24)[0] == 0x40004200 and r.v(24)[2] == 0x00020002, "1+2 (low), 1+1 (high), denormal halves kept"


def test_64_bit_lds_atomics_must_be_8_byte_aligned():
    r = run("ds_add_u64 v1, v[2:3]\ns_waitcnt lgkmcnt(0)", "gfx90a", v={1: 4 + LANE * 8, "v[2:3]": np.uint64(1)})
    warnings = [d.message for d in r.sim.diagnostics if d.rule == "misaligned-access"]
    assert warnings and "not 8-byte aligned" in warnings[0], warnings
    r = run("ds_add_u32 v1, v2\ns_waitcnt lgkmcnt(0)", "gfx90a", v={1: 4 + LANE * 8, 2: 1})
    assert not [d for d in r.sim.diagnostics if d.rule == "misaligned-access"], "4 bytes suffice for 32-bit"


def test_64_bit_global_atomics_must_be_8_byte_aligned():
    mem = np.zeros(256, np.uint64)
    r = run("global_atomic_add_x2 v0, v[2:3], s[0:1]\ns_waitcnt vmcnt(0)", "gfx90a",
            v={0: 4 + LANE * 8, "v[2:3]": np.uint64(1)}, buffers={"m": (mem, "s[0:1]")})
    warnings = [d.message for d in r.sim.diagnostics if d.rule == "misaligned-access"]
    assert warnings and "not 8-byte aligned" in warnings[0], warnings


@pytest.mark.parametrize("target,sc", [("gfx90a", "glc"), ("gfx942", "sc0")])
def test_global_f64_atomics_add_min_max(target, sc):
    mem = np.array([1.0, 5.0, NAN, -0.0] * 16, np.float64)
    data = np.array([2.5, 3.0, 4.0, 0.0] * 16, np.float64)
    for name, want in (("add", [3.5, 8.0, NAN, 0.0]), ("min", [1.0, 3.0, 4.0, -0.0]), ("max", [2.5, 5.0, 4.0, 0.0])):
        r = run(f"global_atomic_{name}_f64 v[4:5], v0, v[2:3], s[0:1] {sc}\ns_waitcnt vmcnt(0)", target,
                v={0: LANE * 8, "v[2:3]": data}, buffers={"m": (mem.copy(), "s[0:1]")})
        got = r.sim.buffer("m", np.float64)
        np.testing.assert_array_equal(got[:4], np.array(want))
        assert np.signbit(got[3]) == (name == "min"), name
        np.testing.assert_array_equal(r.f64(4)[:4], mem[:4])


def test_scalar_atomics_update_memory_and_return_with_glc():
    mem = np.array([5, 0, 7, 0, 10, 0, 3, 0], np.uint32)
    r = run("""
s_mov_b32 s4, 10
s_atomic_dec s4, s[0:1], 0x0 glc
s_mov_b32 s5, 3
s_atomic_add s5, s[0:1], 0x8
s_mov_b64 s[6:7], 0x1234
s_atomic_swap_x2 s[6:7], s[0:1], 0x10 glc
s_mov_b32 s8, 99
s_mov_b32 s9, 3
s_atomic_cmpswap s[8:9], s[0:1], 0x18 glc
s_waitcnt lgkmcnt(0)
""", "gfx942", buffers={"m": (mem, "s[0:1]")})
    got = r.sim.buffer("m", np.uint32)
    assert list(got) == [4, 0, 10, 0, 0x1234, 0, 99, 0]
    assert r.s(4) == 5 and r.s(5) == 3, "glc returns the old value; without glc the data register stays"
    assert r.s64(6) == 10 and r.s(8) == 3


def test_scalar_buffer_atomic_outside_num_records_is_dropped():
    mem = np.array([1, 2, 3, 4], np.uint32)
    r = run("""
s_mov_b32 s4, 5
s_buffer_atomic_add s4, s[8:11], 0x4 glc
s_mov_b32 s5, 5
s_buffer_atomic_add s5, s[8:11], 0x10 glc
s_waitcnt lgkmcnt(0)
""", "gfx90a", buffers={"m": (mem, "s[8:11]", "rsrc")})
    assert list(r.sim.buffer("m", np.uint32)) == [1, 7, 3, 4]
    assert r.s(4) == 2 and r.s(5) == 0
    assert any("beyond num_records" in n for n in r.notes)


def test_memtime_counts_cycles_and_memrealtime_runs_at_100_mhz():
    r = run("""
s_memtime s[4:5]
s_memrealtime s[6:7]
s_waitcnt lgkmcnt(0)
s_sleep 10
s_memtime s[8:9]
s_memrealtime s[10:11]
s_waitcnt lgkmcnt(0)
""", "gfx942")
    t0, t1, r0, r1 = r.s64(4), r.s64(8), r.s64(6), r.s64(10)
    assert 0 < t0 < t1 <= r.sim.engine.cycle, "the shader clock, read when the request completes"
    assert r1 > r0 and (r1 - r0) == pytest.approx((t1 - t0) * 100 / 2100, abs=2), "100 MHz at 2.1 GHz"


def test_s_trap_2_stops_the_run_saying_the_kernel_aborted():
    r = run("v_mov_b32 v0, 1\ns_trap 2\nv_mov_b32 v0, 2", "gfx90a", expect_error="s_trap 2")
    assert "aborted" in r.sim.error.message and r.sim.error.span.line == 2
    assert (r.v(0) == 1).all()


# 2/pi to 160 bits (the well-known hexadecimal expansion used by every Payne-Hanek reduction)
TWO_OVER_PI_160 = Fraction(int("A2F9836E4E441529FC2757D1F534DDC0DB629599", 16), 1 << 160)


def test_trig_preop_segments_are_consecutive_pieces_of_two_over_pi():
    r = run("v_trig_preop_f64 v[0:1], v[2:3], v4", "gfx90a", v={"v[2:3]": 1.0, 4: LANE % 4})
    seg = r.f64(0)
    truncated = Fraction(int(TWO_OVER_PI_160 * (1 << 53)), 1 << 53)
    assert Fraction(float(seg[0])) == truncated, "53 bits, rounded toward zero"
    assert seg[0] < 2 / np.pi, "(the nearest double, 2/pi rounded to even, lies above)"
    total = sum(Fraction(float(x)) for x in seg[:3])  # 159 bits of 2/pi, exactly
    assert 0 <= TWO_OVER_PI_160 - total < Fraction(1, 1 << 158)
    for k in range(3):  # each segment starts 53 bits after the previous one: it lies below 2**(-53k)
        assert Fraction(float(seg[k])) < Fraction(1, 1 << (53 * k))


def test_trig_preop_large_inputs_shift_nan_quiets_and_high_segments_are_zero():
    x = np.array([2.0**60, 2.0**1000, np.nan, -1.0, 1.0, 2.0**1000] + [1.0] * 58)
    seg = np.array([0, 4, 0, 0, 31, 0] + [0] * 58, np.uint32)
    r = run("v_trig_preop_f64 v[0:1], v[2:3], v4", "gfx90a", v={"v[2:3]": x, 4: seg})
    got = r.f64(0)
    shift = 60 + 1023 - 1077  # exponent above 1077 skips that many leading bits
    want = Fraction(int(TWO_OVER_PI_160 * (1 << (shift + 53))) % (1 << 53), 1 << (shift + 53))
    assert Fraction(float(got[0])) == want
    assert got[1] == 0.0 and got[4] == 0.0, "segments beyond the table give 0"
    assert np.isnan(got[2]) and got[3] == got[6], "the sign of S0 plays no part"
    # exponent 2023 >= 1968: shift 946, and the result is scaled up by 2**128 to stay normal
    bits = Fraction(float(got[5])) * (1 << (53 + 946 - 128))
    assert bits.denominator == 1 and 0 < bits < (1 << 53) and float(got[5]) > 2.0**-1022


def test_quad_sads_slide_a_window_over_s0():
    s0 = RNG.integers(0, 2**63, 64, dtype=np.uint64)
    s1 = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    s1[:4] = [0, 0x00FF0000, 0x01020304, 0xFFFFFFFF]
    acc = RNG.integers(0, 2**63, 64, dtype=np.uint64)
    acc4 = RNG.integers(0, 2**32, (4, 64), dtype=np.uint64).astype(np.uint32)
    r = run("v_qsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7]\nv_mqsad_pk_u16_u8 v[8:9], v[2:3], v4, v[6:7]\n"
            "v_mqsad_u32_u8 v[10:13], v[2:3], v4, v[14:17]", "gfx90a",
            v={"v[2:3]": s0, 4: s1, "v[6:7]": acc, "v[14:17]": acc4})
    for lane in range(64):
        b0 = [(int(s0[lane]) >> (8 * k)) & 0xFF for k in range(8)]
        b1 = [(int(s1[lane]) >> (8 * k)) & 0xFF for k in range(4)]
        q = mq = 0
        for k in range(4):
            sad = sum(abs(b0[k + j] - b1[j]) for j in range(4))
            msad = sum(abs(b0[k + j] - b1[j]) for j in range(4) if b1[j])
            a16 = (int(acc[lane]) >> (16 * k)) & 0xFFFF
            q |= ((sad + a16) & 0xFFFF) << (16 * k)
            mq |= ((msad + a16) & 0xFFFF) << (16 * k)
            assert int(r.v(10 + k)[lane]) == (msad + int(acc4[k, lane])) & 0xFFFFFFFF
        assert int(r.v64(0)[lane]) == q and int(r.v64(8)[lane]) == mq


def test_mubuf_offsets_run_as_llvm_mc_encodes_them():
    """llvm-mc 22 takes `offset:4100` on a buffer load but encodes only OFFSET[11:0] (4): the
    kernel reads at offset 4, and so does gcnemu; check warns at the offset."""
    data = np.arange(2048, dtype=np.uint32)
    r = run("buffer_load_dword v4, off, s[8:11], 0 offset:4100\nbuffer_load_dword v5, off, s[8:11], 0 offset:8\n"
            "s_waitcnt vmcnt(0)", "gfx90a", buffers={"b": (data, "s[8:11]", "rsrc")})
    assert (r.v(4) == 1).all() and (r.v(5) == 2).all()
    import gcnemu
    from gcnemu.asm.validate import validate
    diags = validate(gcnemu.parse("buffer_store_dword v1, off, s[8:11], 0 offset:65535\n"), "gfx942")
    assert [(d.severity, d.rule) for d in diags] == [("warning", "offset-truncated")]
    assert "encodes 4095" in diags[0].message and diags[0].span.column == 40  # at `offset:`


def test_gds_forms_are_listed_as_not_modelled_and_stop_run_clearly():
    import gcnemu
    from gcnemu.asm.validate import validate
    diags = validate(gcnemu.parse("ds_add_u32 v1, v2 gds\nds_add_u32 v1, v2\n"), "gfx908")
    assert [(d.span.line, d.rule) for d in diags] == [(1, "not-modelled")]
    assert "ds_add_u32 gds" in diags[0].message
    r = run("ds_add_u32 v1, v2 gds", "gfx908", expect_error="GDS is not modelled")
    assert r.sim.error.span.line == 1


def test_prng_steps_the_lfsr_of_the_cdna4_guide():
    """V_PRNG_B32: D = (S0 << 1) ^ (S0[31] ? 197 : 0); a non-zero seed never reaches 0."""
    seeds = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    seeds[:4] = [0, 1, 0x80000000, 0xFFFFFFFF]
    r = run("v_prng_b32 v1, v0\nv_prng_b32_e64 v2, v1\nv_prng_b32 v3, v2", "gfx950", v={0: seeds})
    want = [int(x) for x in seeds]
    for reg in (1, 2, 3):
        want = [((x << 1) & 0xFFFFFFFF) ^ (197 if x >> 31 else 0) for x in want]
        assert [int(x) for x in r.v(reg)] == want
    assert r.v(3)[0] == 0 and r.v(1)[2] == 197 and r.v(1)[3] == 0xFFFFFF3B
    assert (r.v(3)[1:] != 0).all()


@pytest.mark.parametrize("line", ["s_incperflevel 1", "s_decperflevel 15", "s_ttracedata",
                                  "s_atc_probe 7, s[4:5], 0x0", "s_atc_probe_buffer 7, s[8:11], 0x0"])
def test_performance_hints_trace_and_translation_probes_change_nothing(line):
    before = run("v_mov_b32 v1, v0\ns_mov_b32 s20, 5", "gfx90a", v={0: LANE}, s={"s[4:5]": 0x1000})
    after = run(f"v_mov_b32 v1, v0\n{line}\ns_mov_b32 s20, 5", "gfx90a", v={0: LANE}, s={"s[4:5]": 0x1000})
    assert (after.v(1) == LANE).all() and after.s(20) == 5
    assert (after.w.sgpr == before.w.sgpr).all()


def test_lint_knows_a_scalar_atomic_with_glc_writes_its_data_registers():
    import gcnemu
    from gcnemu.analysis.lint import lint

    def warned(text: str) -> list[int]:
        return [d.span.line for d in lint(gcnemu.parse(text), "gfx942") if d.severity == "warning"]
    assert warned("s_atomic_add s4, s[0:1], 0x0 glc\ns_add_u32 s5, s4, 1\ns_endpgm\n") == [2]
    assert warned("s_atomic_add s4, s[0:1], 0x0 glc\ns_waitcnt lgkmcnt(0)\ns_add_u32 s5, s4, 1\ns_endpgm\n") == []
    assert warned("s_atomic_add s4, s[0:1], 0x0\ns_add_u32 s5, s4, 1\ns_endpgm\n") == [], "no glc: s4 is only read"
