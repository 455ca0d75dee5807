"""LDS (DS) instructions agree with numpy references built from the ISA pseudocode.

Single-address forms use VGPR + offset; read2/write2 use two 8-bit offsets in elements
(x4 for b32, x8 for b64, x64 more for st64); atomics serialise lanes in order;
out-of-range addresses read 0 and drop writes, with a note.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import Setup
from gcnemu.sim.semantics import memaddr
from gcnemu.simulation import Simulation

LANE = np.arange(64)
RNG = np.random.default_rng(9)


def make(src: str, lds: np.ndarray | None = None, target: str = "gfx90a") -> Simulation:
    setup = Setup()
    setup.lds_init = lds
    return Simulation(resolve(gcnemu.parse(src + "\ns_endpgm\n"), target, validate_first=False), setup)


def setv(sim: Simulation, reg: int, values) -> None:
    sim.wave(0).vgpr[reg] = np.asarray(values, dtype=np.int64).astype(np.uint32)
    sim.wave(0).vgpr_init[reg] = True


def run(sim: Simulation) -> Simulation:
    sim.run()
    assert sim.error is None, sim.error
    return sim


def random_lds(n_bytes: int = 65536) -> np.ndarray:
    return RNG.integers(0, 256, n_bytes, dtype=np.uint16).astype(np.uint8)


def dwords_at(lds: np.ndarray, addrs: np.ndarray, n: int) -> np.ndarray:
    """uint32[n, 64]: the n dwords at each byte address (little endian, unaligned allowed)."""
    idx = addrs[:, None] + np.arange(4 * n)[None, :]
    return lds[idx].copy().view("<u4").reshape(64, n).T


# ---------------------------------------------------------------- reads


@pytest.mark.parametrize("mnemonic,dwords", [("ds_read_b32", 1), ("ds_read_b64", 2), ("ds_read_b96", 3),
                                             ("ds_read_b128", 4)])
def test_reads_of_each_width_from_vgpr_plus_offset(mnemonic, dwords):
    lds = random_lds()
    regs = "v4" if dwords == 1 else f"v[4:{3 + dwords}]"
    sim = make(f"{mnemonic} {regs}, v0 offset:40", lds)
    addrs = RNG.permutation(64) * 16 + 8
    setv(sim, 0, addrs)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[4:4 + dwords], dwords_at(lds, addrs + 40, dwords))


@pytest.mark.parametrize("mnemonic,dtype", [("ds_read_u8", np.uint8), ("ds_read_i8", np.int8),
                                            ("ds_read_u16", np.uint16), ("ds_read_i16", np.int16)])
def test_sub_dword_reads_extend(mnemonic, dtype):
    vals = RNG.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, 64, endpoint=True).astype(dtype)
    vals[:2] = [np.iinfo(dtype).min, np.iinfo(dtype).max]
    sim = make(f"{mnemonic} v1, v0", vals)
    setv(sim, 0, LANE * vals.itemsize)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], vals.astype(np.int64).astype(np.uint32))


@pytest.mark.parametrize("ecc", [True, False])
@pytest.mark.parametrize("mnemonic,dtype,half", [
    ("ds_read_u16_d16", np.uint16, "lo"), ("ds_read_u16_d16_hi", np.uint16, "hi"),
    ("ds_read_u8_d16", np.uint8, "lo"), ("ds_read_u8_d16_hi", np.uint8, "hi"),
    ("ds_read_i8_d16", np.int8, "lo"), ("ds_read_i8_d16_hi", np.int8, "hi"),
])
def test_d16_reads_write_one_half_the_other_is_zero_with_ecc_kept_without(mnemonic, dtype, half, ecc, monkeypatch):
    monkeypatch.setitem(memaddr.SRAMECC_DEFAULT, "gfx90a", ecc)
    vals = RNG.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, 64, endpoint=True).astype(dtype)
    old = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    sim = make(f"{mnemonic} v1, v0", vals)
    setv(sim, 0, LANE * vals.itemsize)
    setv(sim, 1, old)
    run(sim)
    v16 = (vals.astype(np.int64) & 0xFFFF).astype(np.uint32)
    kept = np.uint32(0) if ecc else old
    want = (kept & 0xFFFF0000) | v16 if half == "lo" else (kept & 0xFFFF) | (v16 << 16)
    np.testing.assert_array_equal(sim.wave(0).v[1], want)


@pytest.mark.parametrize("mnemonic,elem,mult", [("ds_read2_b32", 4, 4), ("ds_read2_b64", 8, 8),
                                                ("ds_read2st64_b32", 4, 256), ("ds_read2st64_b64", 8, 512)])
def test_read2_offsets_count_elements(mnemonic, elem, mult):
    lds = random_lds()
    n = 2 * elem // 4
    sim = make(f"{mnemonic} v[4:{3 + n}], v0 offset0:3 offset1:17", lds)
    base = LANE * 8
    setv(sim, 0, base)
    run(sim)
    first = dwords_at(lds, base + 3 * mult, elem // 4)
    second = dwords_at(lds, base + 17 * mult, elem // 4)
    np.testing.assert_array_equal(sim.wave(0).v[4:4 + n], np.concatenate([first, second]))


def test_reads_into_agprs():
    lds = random_lds()
    sim = make("ds_read_b64 a[2:3], v0", lds)
    setv(sim, 0, LANE * 8)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).a[2:4], dwords_at(lds, LANE * 8, 2))


# ---------------------------------------------------------------- writes


@pytest.mark.parametrize("mnemonic,size,shift", [
    ("ds_write_b8", 1, 0), ("ds_write_b16", 2, 0), ("ds_write_b32", 4, 0), ("ds_write_b64", 8, 0),
    ("ds_write_b96", 12, 0), ("ds_write_b128", 16, 0), ("ds_write_b8_d16_hi", 1, 16), ("ds_write_b16_d16_hi", 2, 16),
])
def test_writes_store_exactly_their_bytes(mnemonic, size, shift):
    lds = random_lds()
    dwords = max(1, size // 4)
    data = RNG.integers(0, 2**32, (4, 64), dtype=np.uint64).astype(np.uint32)
    regs = "v4" if dwords == 1 else f"v[4:{3 + dwords}]"
    sim = make(f"{mnemonic} v0, {regs} offset:5", lds)
    addrs = RNG.permutation(64) * 20
    setv(sim, 0, addrs)
    for k in range(4):
        setv(sim, 4 + k, data[k])
    run(sim)
    want = lds.copy()
    raw = np.ascontiguousarray((data >> shift).T.astype("<u4")).view(np.uint8).reshape(64, 16)
    for lane in range(64):
        want[addrs[lane] + 5: addrs[lane] + 5 + size] = raw[lane, :size]
    np.testing.assert_array_equal(sim.lds.data, want)


@pytest.mark.parametrize("mnemonic,elem,mult", [("ds_write2_b32", 4, 4), ("ds_write2_b64", 8, 8),
                                                ("ds_write2st64_b32", 4, 256), ("ds_write2st64_b64", 8, 512)])
def test_write2_offsets_count_elements(mnemonic, elem, mult):
    n = elem // 4
    data = RNG.integers(0, 2**32, (4, 64), dtype=np.uint64).astype(np.uint32)
    r0 = "v4" if n == 1 else "v[4:5]"
    r1 = "v6" if n == 1 else "v[6:7]"
    sim = make(f"{mnemonic} v0, {r0}, {r1} offset0:1 offset1:40", np.zeros(65536, np.uint8))
    base = LANE * 16
    setv(sim, 0, base)
    for k in range(4):
        setv(sim, 4 + k, data[k])
    run(sim)
    got = sim.lds.data
    np.testing.assert_array_equal(dwords_at(got, base + 40 * mult, n), data[2:2 + n])
    # the first element may be partly overwritten by a neighbour's second one only if they overlap: they do not here
    np.testing.assert_array_equal(dwords_at(got, base + 1 * mult, n), data[0:n])


def test_a_write_then_a_read_of_the_same_lds_sees_the_write_lds_is_in_order():
    sim = make("ds_write_b32 v0, v1\nds_read_b32 v2, v3", np.zeros(1024, np.uint8))
    setv(sim, 0, LANE * 4)
    setv(sim, 1, LANE * 11)
    setv(sim, 3, (63 - LANE) * 4)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[2], (63 - LANE) * 11)


def test_exec_masked_lanes_neither_read_nor_write():
    lds = np.zeros(1024, np.uint8)
    sim = make("ds_write_b32 v0, v1\nds_read_b32 v2, v0", lds)
    setv(sim, 0, LANE * 4)
    setv(sim, 1, LANE + 1)
    setv(sim, 2, np.full(64, 9))
    sim.wave(0).set_sgpr(126, np.array([0xFFFF0000, 0x0000FFFF], dtype=np.uint32))
    run(sim)
    on = (LANE >= 16) & (LANE < 48)
    np.testing.assert_array_equal(sim.lds.data[:256].view(np.uint32), np.where(on, LANE + 1, 0))
    np.testing.assert_array_equal(sim.wave(0).v[2], np.where(on, LANE + 1, 9))


# ---------------------------------------------------------------- out of range


def test_out_of_range_reads_return_zero_and_writes_are_dropped_with_a_note():
    lds = np.full(65536, 0xAB, np.uint8)
    sim = make("ds_write_b32 v0, v1\nds_read_b32 v2, v0 offset:4", lds)
    setv(sim, 0, 65536 - 128 + LANE * 4)  # lanes 32.. are beyond 64 KiB
    setv(sim, 1, LANE)
    run(sim)
    np.testing.assert_array_equal(sim.lds.data[-128:].view(np.uint32), LANE[:32])
    np.testing.assert_array_equal(sim.wave(0).v[2], np.where(LANE < 31, LANE + 1, 0))
    notes = [msg for _, msg in sim.engine.notes]
    assert any("ds_write_b32" in m and "writes are dropped" in m for m in notes)
    assert any("ds_read_b32" in m and "reads return 0" in m for m in notes)


def test_gds_is_not_modelled_and_says_so():
    sim = make("ds_write_b32 v0, v1 gds", np.zeros(64, np.uint8))
    setv(sim, 0, LANE * 0)
    setv(sim, 1, LANE)
    sim.run()
    assert sim.error is not None and "GDS" in sim.error.message


# ---------------------------------------------------------------- atomics


def test_ds_add_u32_from_every_lane_to_one_address_sums_and_rtn_returns_running_values():
    sim = make("ds_add_rtn_u32 v2, v0, v1 offset:8\nds_add_u32 v0, v1 offset:12", np.zeros(64, np.uint8))
    setv(sim, 0, np.zeros(64))
    setv(sim, 1, LANE * 3 + 1)
    run(sim)
    add = LANE * 3 + 1
    assert sim.lds.data[8:16].view(np.uint32).tolist() == [add.sum(), add.sum()]
    np.testing.assert_array_equal(sim.wave(0).v[2], np.concatenate([[0], np.cumsum(add)[:-1]]))


def test_ds_add_f32_and_rtn_f32():
    init = RNG.standard_normal(64).astype(np.float32)
    add = RNG.standard_normal(64).astype(np.float32)
    sim = make("ds_add_rtn_f32 v2, v0, v1\nds_add_f32 v0, v1", init.view(np.uint8))
    setv(sim, 0, LANE * 4)
    setv(sim, 1, add.view(np.uint32))
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[2].f32, init)
    np.testing.assert_array_equal(sim.lds.data[:256].view(np.float32), (init + add) + add)


def test_other_ds_atomics_follow_the_op_table():
    init = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    data = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    sim = make("ds_max_rtn_i32 v2, v0, v1\nds_xor_b32 v0, v1 offset:256", np.concatenate([init, init]).view(np.uint8))
    setv(sim, 0, LANE * 4)
    setv(sim, 1, data)
    run(sim)
    got = sim.lds.data[:512].view(np.uint32)
    np.testing.assert_array_equal(got[:64], np.maximum(init.view(np.int32), data.view(np.int32)).view(np.uint32))
    np.testing.assert_array_equal(got[64:], init ^ data)
    np.testing.assert_array_equal(sim.wave(0).v[2], init)
