"""Global, flat and buffer atomics of 64 bits (`_x2`), and cmpswap/inc/dec of 32: memory and returns.

The reference is a plain Python loop over the lanes in order (lanes that hit the same address
serialise in lane order), written from the ISA guide's table of memory atomics:
  swap: new = data;  cmpswap: new = (old == cmp) ? src : old, vdata = {src, cmp};
  inc: new = (old >= data) ? 0 : old + 1;  dec: new = (old == 0 || old > data) ? data : old - 1;
  smin/smax compare as signed, umin/umax as unsigned; add/sub wrap.
The returning form (glc on gfx90a, sc0 on gfx942) writes the value memory held before.
"""
from __future__ import annotations

import numpy as np
import pytest

from semhelpers import RNG, run

OPS = ["add", "sub", "and", "or", "xor", "smin", "smax", "umin", "umax", "swap", "inc", "dec", "cmpswap"]
SLOTS = 16  # lanes share addresses four by four: the updates to one address serialise in lane order
LANE = np.arange(64)


def reference(op: str, bits: int, mem: list[int], data: np.ndarray, cmp: np.ndarray | None, exec_: np.ndarray):
    """(memory after, pre-op value per active lane) from the ISA guide's definitions."""
    mask = (1 << bits) - 1

    def signed(x: int) -> int:
        return x - (1 << bits) if x >> (bits - 1) else x
    mem = list(mem)
    old = np.zeros(64, dtype=object)
    for lane in range(64):
        if not exec_[lane]:
            continue
        slot = lane % SLOTS
        m, d = mem[slot], int(data[lane])
        old[lane] = m
        new = {
            "add": lambda: m + d, "sub": lambda: m - d, "and": lambda: m & d, "or": lambda: m | d,
            "xor": lambda: m ^ d, "umin": lambda: min(m, d), "umax": lambda: max(m, d),
            "smin": lambda: m if signed(m) <= signed(d) else d, "smax": lambda: m if signed(m) >= signed(d) else d,
            "swap": lambda: d, "inc": lambda: 0 if m >= d else m + 1,
            "dec": lambda: d if m == 0 or m > d else m - 1,
            "cmpswap": lambda: d if m == int(cmp[lane]) else m,
        }[op]()
        mem[slot] = new & mask
    return mem, old


def operands(op: str, bits: int):
    """Random memory, data (and compare values) with the edges each op cares about."""
    dt = np.uint64 if bits == 64 else np.uint32
    top = 1 << (bits - 1)
    if op in ("inc", "dec"):  # small values, so that both wraps happen
        mem = RNG.integers(0, 6, SLOTS).astype(dt)
        data = RNG.integers(0, 6, 64).astype(dt)
    else:
        mem = RNG.integers(0, 2**63, SLOTS, dtype=np.uint64).astype(dt)
        data = RNG.integers(0, 2**63, 64, dtype=np.uint64).astype(dt)
        mem[:4] = [0, top, top - 1, (1 << bits) - 1]
        data[:8] = [1, (1 << bits) - 1, top, 0, top - 1, 5, 7, (1 << bits) - 2]
    cmp = None
    if op == "cmpswap":  # half the lanes compare equal to what memory holds when they run
        cmp = data[::-1].copy()
        cmp[LANE < SLOTS] = mem[LANE[LANE < SLOTS]]
    return mem, data, cmp


def vregs(first: int, n: int) -> str:
    return f"v{first}" if n == 1 else f"v[{first}:{first + n - 1}]"


def set_data(v: dict, first: int, values: np.ndarray, bits: int) -> None:
    """Put per-lane 32/64-bit values into VGPRs first (and first + 1)."""
    vals = values.astype(np.uint64)
    v[first] = (vals & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    if bits == 64:
        v[first + 1] = (vals >> np.uint64(32)).astype(np.uint32)


# (op, target, segment, returns): every op on global (both targets, both forms); a few ops, cmpswap
# (twice the data registers) among them, on the other addressing forms
CASES = [(op, t, "global", ret) for op in OPS for t, ret in (("gfx90a", True), ("gfx90a", False), ("gfx942", True))]
CASES += [(op, t, seg, ret) for op in ("add", "smax", "dec", "cmpswap")
          for t, seg, ret in (("gfx90a", "global_off", True), ("gfx90a", "flat", True), ("gfx942", "flat", False),
                              ("gfx942", "buffer", True), ("gfx90a", "buffer", False))]


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("op,target,segment,ret", CASES)
def test_atomic_updates_memory_and_returns_the_pre_op_value(op, target, segment, ret, bits):
    dt = np.uint64 if bits == 64 else np.uint32
    width = bits // 32
    mem, data, cmp = operands(op, bits)
    exec_ = (LANE % 7) != 3
    name = ("global" if segment.startswith("global") else segment) + f"_atomic_{op}" + ("_x2" if bits == 64 else "")
    nd = width * (2 if op == "cmpswap" else 1)
    v: dict = {0: (LANE % SLOTS) * (bits // 8), 20: np.full(64, 0xDEADBEEF, np.uint32)}
    set_data(v, 2, data, bits)
    if cmp is not None:
        set_data(v, 2 + width, cmp, bits)
    cpol = (" glc" if target == "gfx90a" else " sc0") if ret else ""
    dst = vregs(10, width) + ", " if ret else ""
    prologue = ""
    buffers = {"M": (mem, "s[4:5]")}
    if segment == "global":
        line = f"{name} {dst}v0, {vregs(2, nd)}, s[4:5]{cpol}"
    elif segment in ("global_off", "flat"):  # a 64-bit address in v[6:7]
        prologue = "v_mov_b32 v7, s5\nv_add_co_u32 v6, vcc, s4, v0\nv_addc_co_u32 v7, vcc, 0, v7, vcc\n"
        line = f"{name} {dst}v[6:7], {vregs(2, nd)}" + (", off" if segment == "global_off" else "") + cpol
    else:  # buffer: the result returns into vdata
        buffers = {"M": (mem, "s[8:11]", "rsrc")}
        line = f"{name} {vregs(2, nd)}, v0, s[8:11], 0 offen{cpol}"
    r = run(prologue + line, target, v=v, exec=exec_, buffers=buffers)
    want_mem, want_old = reference(op, bits, [int(x) for x in mem], data, cmp, exec_)
    assert [int(x) for x in r.sim.buffer("M", dt)] == want_mem
    got = r.v64(2 if segment == "buffer" else 10) if bits == 64 else r.v(2 if segment == "buffer" else 10)
    if ret:
        assert [int(x) for x in got[exec_]] == [int(x) for x in want_old[exec_]]
    elif segment != "buffer":
        assert not r.w.vgpr_init[10].any(), "no return without glc/sc0"
    if segment == "buffer" and not ret:
        assert [int(x) for x in got] == [int(x) for x in data], "vdata keeps the data without glc/sc0"
    assert (r.v(20) == 0xDEADBEEF).all()


def test_inactive_lanes_keep_their_return_registers():
    mem = np.array([100, 200], dtype=np.uint64)
    exec_ = LANE < 32
    v: dict = {0: np.zeros(64, np.uint32), 10: np.full(64, 7, np.uint32), 11: np.full(64, 8, np.uint32)}
    set_data(v, 2, np.ones(64, np.uint64), 64)
    r = run("global_atomic_add_x2 v[10:11], v0, v[2:3], s[4:5] glc", v=v, exec=exec_,
            buffers={"M": (mem, "s[4:5]")})
    assert list(r.sim.buffer("M", np.uint64)) == [132, 200]
    assert list(r.v64(10)[:32]) == list(range(100, 132))
    assert (r.v(10)[32:] == 7).all() and (r.v(11)[32:] == 8).all()


def test_add_x2_carries_into_the_high_dword():
    mem = np.array([0xFFFFFFFF, 0x1_FFFFFFFF], dtype=np.uint64)
    v: dict = {0: np.where(LANE == 0, 0, 8).astype(np.uint32)}
    set_data(v, 2, np.ones(64, np.uint64), 64)
    r = run("global_atomic_add_x2 v0, v[2:3], s[4:5]", v=v, exec=(LANE < 2), buffers={"M": (mem, "s[4:5]")})
    assert list(r.sim.buffer("M", np.uint64)) == [0x1_00000000, 0x2_00000000]


def test_buffer_x2_atomic_out_of_range_is_dropped_whole_and_returns_zero():
    """A 12-byte buffer (num_records 12): element 0 is in range, element 1 only by its low dword."""
    mem = np.array([5, 0, 9], dtype=np.uint32)
    v: dict = {0: (LANE % 2 * 8).astype(np.uint32)}
    set_data(v, 2, np.full(64, 3, np.uint64), 64)
    r = run("buffer_atomic_add_x2 v[2:3], v0, s[8:11], 0 offen glc", v=v, exec=(LANE < 2),
            buffers={"M": (mem, "s[8:11]", "rsrc")})
    assert list(r.sim.buffer("M", np.uint32)) == [8, 0, 9]
    assert list(r.v64(2)[:2]) == [5, 0]
