"""Loads to LDS (LDS DMA): data goes to LDS at the address formed from M0, never to a VGPR.

ISA guides: `buffer_load_* ... lds` writes lane i's element at
M0[15:0] (M0[17:0] on gfx950) + inst_offset + i * 4; `global_load_lds_*` at
M0[17:2] * 4 + inst_offset + i * 4. 3- and 4-dword loads (gfx950) use 16-byte slots
(dwordx3 leaves the 4th dword untouched). Sub-dword elements are extended to a dword.
The instruction offset applies to both the memory address and the LDS address.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup, buffer_descriptor
from gcnemu.isa.targets import get_target
from gcnemu.sim.counters import RULE_LDS_DMA_READ
from gcnemu.simulation import Simulation

LANE = np.arange(64)
RNG = np.random.default_rng(5)
SENTINEL = 0xC0DEC0DE


def make(src: str, data: np.ndarray, target: str, lds_dwords: int = 4096) -> Simulation:
    setup = Setup()
    setup.buffers.append(BufferSpec("A", np.asarray(data), sgpr="s[20:21]"))
    setup.lds_init = np.full(lds_dwords, SENTINEL, dtype=np.uint32)
    sim = Simulation(resolve(gcnemu.parse(src + "\ns_endpgm\n"), target, validate_first=False), setup)
    words = buffer_descriptor(sim.buffer_address("A"), np.asarray(data).nbytes)
    sim.wave(0).set_sgpr(8, np.array(words, dtype=np.uint32))
    return sim


def setv(sim: Simulation, reg: int, values) -> None:
    sim.wave(0).vgpr[reg] = np.asarray(values, dtype=np.int64).astype(np.uint32)
    sim.wave(0).vgpr_init[reg] = True


def set_m0(sim: Simulation, value: int) -> None:
    sim.wave(0).set_sgpr(124, np.array([value], dtype=np.uint32))


def run(sim: Simulation) -> Simulation:
    sim.run()
    assert sim.error is None, sim.error
    return sim


def lds_u32(sim: Simulation) -> np.ndarray:
    return sim.lds.data.view(np.uint32)


def expected_lds(n_dwords: int, writes: dict[int, int]) -> np.ndarray:
    want = np.full(n_dwords, SENTINEL, dtype=np.uint32)
    for byte_addr, value in writes.items():
        want[byte_addr // 4] = value
    return want


@pytest.mark.parametrize("target", ["gfx908", "gfx90a", "gfx942", "gfx950"])
def test_buffer_load_dword_lds_writes_lds_at_m0_plus_offset_plus_lane_times_4(target):
    A = RNG.integers(0, 2**32, 256, dtype=np.uint64).astype(np.uint32)
    sim = make("buffer_load_dword v0, s[8:11], 0 offen offset:16 lds", A, target)
    setv(sim, 0, LANE * 8)  # gather every other dword
    set_m0(sim, 0x100)
    setv(sim, 1, np.full(64, 77))
    run(sim)
    want = expected_lds(4096, {0x100 + 16 + 4 * i: int(A[2 * i + 4]) for i in range(64)})
    np.testing.assert_array_equal(lds_u32(sim)[:4096], want)
    np.testing.assert_array_equal(sim.wave(0).v[0], LANE * 8)  # no VGPR is written
    np.testing.assert_array_equal(sim.wave(0).v[1], np.full(64, 77))


@pytest.mark.parametrize("mnemonic,dtype", [("buffer_load_ubyte", np.uint8), ("buffer_load_sbyte", np.int8),
                                            ("buffer_load_ushort", np.uint16), ("buffer_load_sshort", np.int16)])
def test_sub_dword_loads_to_lds_fill_a_dword_slot_zero_or_sign_extended(mnemonic, dtype):
    info = np.iinfo(dtype)
    A = RNG.integers(info.min, info.max, 64, endpoint=True).astype(dtype)
    A[:2] = [info.min, info.max]
    sim = make(f"{mnemonic} v0, s[8:11], 0 offen lds", A, "gfx90a")
    setv(sim, 0, LANE * A.itemsize)
    set_m0(sim, 0)
    run(sim)
    np.testing.assert_array_equal(lds_u32(sim)[:64], A.astype(np.int64).astype(np.uint32))
    assert lds_u32(sim)[64] == SENTINEL


def test_exec_masked_lanes_leave_their_lds_slot_alone_and_out_of_range_lanes_write_zero():
    A = np.arange(1, 65, dtype=np.uint32)
    sim = make("buffer_load_dword v0, s[8:11], 0 offen lds", A, "gfx90a")
    words = buffer_descriptor(sim.buffer_address("A"), 48 * 4)  # lanes 48.. are out of range
    sim.wave(0).set_sgpr(8, np.array(words, dtype=np.uint32))
    setv(sim, 0, LANE * 4)
    set_m0(sim, 0)
    sim.wave(0).set_sgpr(126, np.array([0x5555_5555, 0xFFFF_FFFF], dtype=np.uint32))
    run(sim)
    on = (LANE % 2 == 0) | (LANE >= 32)
    want = np.where(on, np.where(LANE < 48, A, 0), SENTINEL)
    np.testing.assert_array_equal(lds_u32(sim)[:64], want)


@pytest.mark.parametrize("target,m0,base", [("gfx90a", 0x3_0040, 0x0040), ("gfx942", 0x3_0040, 0x0040),
                                             ("gfx950", 0x1_0040, 0x1_0040)])
def test_mubuf_lds_offset_takes_16_bits_of_m0_and_18_on_gfx950(target, m0, base):
    A = np.arange(64, dtype=np.uint32) + 1
    sim = make("buffer_load_dword v0, s[8:11], 0 offen lds", A, target, lds_dwords=get_target(target).lds_bytes // 4)
    setv(sim, 0, LANE * 4)
    set_m0(sim, m0)
    run(sim)
    np.testing.assert_array_equal(lds_u32(sim)[base // 4: base // 4 + 64], A)


@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_global_load_lds_dword_uses_m0_bits_17_to_2_and_the_offset_on_both_sides(target):
    A = RNG.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    sim = make("global_load_lds_dword v0, s[20:21] offset:8", A, target)
    setv(sim, 0, LANE * 4)
    set_m0(sim, 0x203)  # low two bits are dropped: base 0x200
    run(sim)
    want = expected_lds(4096, {0x200 + 8 + 4 * i: int(A[i + 2]) for i in range(64)})
    np.testing.assert_array_equal(lds_u32(sim)[:4096], want)


def test_global_load_lds_with_64bit_vgpr_address():
    A = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    sim = make("global_load_lds_ushort v[2:3], off", A.view(np.uint16)[:64].copy(), "gfx942")
    addrs = np.uint64(sim.buffer_address("A")) + (LANE[::-1] * 2).astype(np.uint64)
    setv(sim, 2, (addrs & np.uint64(0xFFFFFFFF)).astype(np.uint32))
    setv(sim, 3, (addrs >> np.uint64(32)).astype(np.uint32))
    set_m0(sim, 0)
    run(sim)
    np.testing.assert_array_equal(lds_u32(sim)[:64], A.view(np.uint16)[:64][::-1].astype(np.uint32))


@pytest.mark.parametrize("mnemonic,dwords", [("global_load_lds_dwordx4", 4), ("global_load_lds_dwordx3", 3)])
def test_gfx950_wide_loads_to_lds_use_16_byte_slots(mnemonic, dwords):
    A = RNG.integers(0, 2**32, 64 * 4, dtype=np.uint64).astype(np.uint32)
    sim = make(f"{mnemonic} v0, s[20:21]", A, "gfx950")
    setv(sim, 0, LANE * 16)
    set_m0(sim, 0x400)
    run(sim)
    got = lds_u32(sim)[0x100: 0x100 + 256].reshape(64, 4)
    np.testing.assert_array_equal(got[:, :dwords], A.reshape(64, 4)[:, :dwords])
    assert (got[:, dwords:] == SENTINEL).all()  # dwordx3 skips the 4th dword


def test_buffer_load_dwordx4_lds_on_gfx950():
    A = RNG.integers(0, 2**32, 64 * 4, dtype=np.uint64).astype(np.uint32)
    sim = make("buffer_load_dwordx4 v0, s[8:11], 0 offen lds", A, "gfx950")
    setv(sim, 0, LANE * 16)
    set_m0(sim, 0)
    run(sim)
    np.testing.assert_array_equal(lds_u32(sim)[:256], A)


def test_lds_destinations_outside_the_lds_are_dropped_with_a_note():
    A = np.arange(1, 65, dtype=np.uint32)
    sim = make("buffer_load_dword v0, s[8:11], 0 offen lds", A, "gfx90a", lds_dwords=16384)
    setv(sim, 0, LANE * 4)
    set_m0(sim, 0xFF80)  # 32 lanes fit below 64 KiB, 32 fall off the end
    run(sim)
    np.testing.assert_array_equal(lds_u32(sim)[0xFF80 // 4:], A[:32])
    assert any("outside" in msg and "32 lane" in msg for _, msg in sim.engine.notes)


def test_a_ds_read_issued_before_the_dma_lands_sees_the_old_lds_and_is_reported():
    A = np.arange(1, 65, dtype=np.uint32)
    sim = make("buffer_load_dword v0, s[8:11], 0 offen lds\nds_read_b32 v1, v2", A, "gfx90a")
    setv(sim, 0, LANE * 4)
    setv(sim, 2, LANE * 4)
    set_m0(sim, 0)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], np.full(64, SENTINEL))  # old contents
    np.testing.assert_array_equal(lds_u32(sim)[:64], A)  # the DMA landed later
    assert any(h.rule == RULE_LDS_DMA_READ for h in sim.hazards)


def test_m0_is_read_at_issue_so_a_later_m0_write_does_not_move_the_dma():
    A = np.arange(1, 65, dtype=np.uint32)
    sim = make("buffer_load_dword v0, s[8:11], 0 offen lds\ns_mov_b32 m0, 0x800", A, "gfx90a")
    setv(sim, 0, LANE * 4)
    set_m0(sim, 0x400)
    run(sim)
    np.testing.assert_array_equal(lds_u32(sim)[0x100:0x140], A)
    assert (lds_u32(sim)[0x200:0x240] == SENTINEL).all()
