"""MUBUF (buffer_*) instructions: V# addressing and range checking, as the ISA guide states them.

address = V#.base + soffset + inst_offset + voffset + V#.stride * vindex. Raw buffers
(IDXEN=0) are out of range when inst_offset + voffset >= num_records (per dword for
x2/x3/x4); structured buffers (IDXEN=1) when vindex >= num_records. Out-of-range loads
return 0, out-of-range stores and atomics do nothing. soffset is not range checked.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup, buffer_descriptor
from gcnemu.sim.semantics import memaddr
from gcnemu.sim.semantics.memaddr import BufferResource
from gcnemu.simulation import Simulation

LANE = np.arange(64)
RNG = np.random.default_rng(11)


def make(src: str, data: np.ndarray, target: str = "gfx90a") -> Simulation:
    setup = Setup()
    setup.buffers.append(BufferSpec("A", np.asarray(data), sgpr="s[20:21]"))
    return Simulation(resolve(gcnemu.parse(src + "\ns_endpgm\n"), target, validate_first=False), setup)


def set_rsrc(sim: Simulation, num_records: int, stride: int = 0, extra_offset: int = 0, slot: int = 8) -> None:
    words = buffer_descriptor(sim.buffer_address("A") + extra_offset, num_records, stride)
    sim.wave(0).set_sgpr(slot, np.array(words, dtype=np.uint32))


def setv(sim: Simulation, reg: int, values) -> None:
    sim.wave(0).vgpr[reg] = np.asarray(values, dtype=np.int64).astype(np.uint32)
    sim.wave(0).vgpr_init[reg] = True


def sets(sim: Simulation, slot: int, value: int) -> None:
    sim.wave(0).set_sgpr(slot, np.array([value], dtype=np.uint32))


def run(sim: Simulation) -> Simulation:
    sim.run()
    assert sim.error is None, sim.error
    return sim


def test_descriptor_fields_decode_as_the_isa_lays_them_out():
    words = buffer_descriptor(0x1234_5678_9ABC, 1000, stride=48)
    r = BufferResource.from_words(words)
    assert (r.base, r.stride, r.num_records, r.swizzle, r.add_tid) == (0x1234_5678_9ABC, 48, 1000, False, False)


def test_offen_adds_voffset_soffset_and_instruction_offset():
    A = RNG.integers(0, 2**32, 512, dtype=np.uint64).astype(np.uint32)
    sim = make("buffer_load_dword v1, v0, s[8:11], s2 offen offset:12", A)
    set_rsrc(sim, A.nbytes)
    sets(sim, 2, 64)
    setv(sim, 0, LANE * 4)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], A[LANE + 16 + 3])


def test_raw_buffer_loads_beyond_num_records_return_zero():
    A = np.arange(1, 129, dtype=np.uint32)
    sim = make("buffer_load_dword v1, v0, s[8:11], 0 offen", A)
    set_rsrc(sim, 40 * 4)  # only the first 40 dwords are in range
    setv(sim, 0, LANE * 4)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], np.where(LANE < 40, A[:64], 0))


def test_soffset_is_not_range_checked_but_the_instruction_offset_is():
    A = np.arange(1, 129, dtype=np.uint32)
    sim = make("buffer_load_dword v1, v0, s[8:11], s2 offen offset:8\n"
               "buffer_load_dword v2, v0, s[8:11], s3 offen", A)
    set_rsrc(sim, 32 * 4)
    sets(sim, 2, 0)
    sets(sim, 3, 64 * 4)  # soffset moves the window past num_records: still in range
    setv(sim, 0, LANE * 4)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], np.where(LANE + 2 < 32, A[(LANE + 2) % 128], 0))
    np.testing.assert_array_equal(sim.wave(0).v[2], np.where(LANE < 32, A[LANE + 64], 0))


def test_dwordx4_is_range_checked_per_component():
    A = np.arange(1, 64 * 4 + 1, dtype=np.uint32)
    sim = make("buffer_load_dwordx4 v[4:7], v0, s[8:11], 0 offen", A)
    set_rsrc(sim, 10 * 4 + 2)  # 10.5 dwords: lane 2 gets 3 components (dword 10 starts in range)
    setv(sim, 0, LANE * 16)
    run(sim)
    got = sim.wave(0).v[4:8]
    dword = LANE[None, :] * 4 + np.arange(4)[:, None]
    np.testing.assert_array_equal(got, np.where(dword * 4 < 42, A[dword % A.size], 0))


def test_idxen_uses_stride_and_checks_the_index_against_num_records():
    A = RNG.integers(0, 2**32, 64 * 8, dtype=np.uint64).astype(np.uint32)
    sim = make("buffer_load_dword v1, v[2:3], s[8:11], 0 idxen offen offset:4", A)
    set_rsrc(sim, num_records=50, stride=32)
    setv(sim, 2, LANE)  # index
    setv(sim, 3, np.full(64, 8))  # offset within the record
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], np.where(LANE < 50, A[(LANE * 8 + 3) % A.size], 0))


def test_idxen_alone_reads_the_first_element_of_each_record():
    A = np.arange(64 * 4, dtype=np.uint32)
    sim = make("buffer_load_dword v1, v2, s[8:11], 0 idxen", A)
    set_rsrc(sim, num_records=64, stride=16)
    setv(sim, 2, LANE[::-1])
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], LANE[::-1] * 4)


def test_out_of_range_stores_are_dropped_in_range_ones_land():
    A = np.zeros(64, dtype=np.uint32)
    sim = make("buffer_store_dword v1, v0, s[8:11], 0 offen", A)
    set_rsrc(sim, 20 * 4)
    setv(sim, 0, LANE * 4)
    setv(sim, 1, LANE + 100)
    run(sim)
    np.testing.assert_array_equal(sim.buffer("A", np.uint32), np.where(LANE < 20, LANE + 100, 0))


@pytest.mark.parametrize("mnemonic,size,shift", [("buffer_store_byte", 1, 0), ("buffer_store_short_d16_hi", 2, 16),
                                                 ("buffer_store_dwordx2", 8, 0)])
def test_buffer_stores_of_each_width(mnemonic, size, shift):
    A = np.zeros(64 * 8, dtype=np.uint8)
    data = RNG.integers(0, 2**32, (2, 64), dtype=np.uint64).astype(np.uint32)
    regs = "v[4:5]" if size == 8 else "v4"
    sim = make(f"{mnemonic} {regs}, v0, s[8:11], 0 offen", A)
    set_rsrc(sim, A.nbytes)
    setv(sim, 0, LANE * 8)
    setv(sim, 4, data[0])
    setv(sim, 5, data[1])
    run(sim)
    src = np.ascontiguousarray((data >> shift).T.astype("<u4")).view(np.uint8).reshape(64, 8)
    want = np.zeros((64, 8), dtype=np.uint8)
    want[:, :size] = src[:, :size]
    np.testing.assert_array_equal(sim.buffer("A").reshape(64, 8), want)


def test_buffer_load_sub_dword_and_d16_hi_with_ecc_off(monkeypatch):
    monkeypatch.setitem(memaddr.SRAMECC_DEFAULT, "gfx90a", False)
    A = RNG.integers(0, 2**16, 64, dtype=np.uint64).astype(np.uint16)
    sim = make("buffer_load_sshort v1, v0, s[8:11], 0 offen\n"
               "buffer_load_short_d16_hi v2, v0, s[8:11], 0 offen", A)
    set_rsrc(sim, A.nbytes)
    setv(sim, 0, LANE * 2)
    setv(sim, 2, np.full(64, 0x1234))
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1].i32, A.view(np.int16).astype(np.int32))
    np.testing.assert_array_equal(sim.wave(0).v[2], (A.astype(np.uint32) << 16) | 0x1234)


def test_a_zero_descriptor_reads_zeros():
    A = np.arange(1, 65, dtype=np.uint32)
    sim = make("buffer_load_dword v1, off, s[8:11], 0", A)
    sim.wave(0).set_sgpr(8, np.zeros(4, dtype=np.uint32))
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], np.zeros(64))


def test_buffer_atomic_add_returns_pre_op_with_glc_and_drops_out_of_range_lanes():
    A = np.array([5, 0, 0, 0], dtype=np.uint32)
    sim = make("buffer_atomic_add v1, v0, s[8:11], 0 offen glc", A)
    set_rsrc(sim, 4)
    setv(sim, 0, np.where(LANE < 8, 0, 4))  # lanes >= 8 address dword 1, beyond num_records = 4 bytes
    setv(sim, 1, np.ones(64))
    run(sim)
    np.testing.assert_array_equal(sim.buffer("A", np.uint32), [13, 0, 0, 0])
    np.testing.assert_array_equal(sim.wave(0).v[1], np.where(LANE < 8, 5 + LANE, 0))


def _private_segment_words(base: int) -> list[int]:
    """A V# as the runtime builds the private segment buffer: swizzled, ADD_TID, 4-byte
    elements, index stride 64."""
    words = buffer_descriptor(base, 0xFFFFFFFF)
    words[1] |= 1 << 31
    words[3] |= (1 << 19) | (3 << 21) | (1 << 23)
    return words


def test_a_swizzled_private_buffer_interleaves_the_lanes_dword_by_dword():
    """Scratch through buffer_* (gfx908/gfx90a): lane L's private dword k is at byte
    k * 256 + L * 4 of the wave's segment, so consecutive lanes' dwords are adjacent."""
    A = np.zeros(64 * 3, dtype=np.uint32)
    sim = make("buffer_store_dword v1, v0, s[8:11], 0 offen offset:4", A)
    sim.wave(0).set_sgpr(8, np.array(_private_segment_words(sim.buffer_address("A")), dtype=np.uint32))
    setv(sim, 0, np.full(64, 4))  # every lane's private byte 8: its dword 2
    setv(sim, 1, 100 + LANE)
    run(sim)
    out = sim.buffer("A", np.uint32)
    np.testing.assert_array_equal(out[128:], 100 + LANE)
    assert not out[:128].any()


def test_a_wide_access_to_a_swizzled_buffer_stops_with_a_clear_message():
    A = np.zeros(64 * 4, dtype=np.uint32)
    sim = make("buffer_load_dwordx2 v[2:3], v0, s[8:11], 0 offen", A)
    sim.wave(0).set_sgpr(8, np.array(_private_segment_words(sim.buffer_address("A")), dtype=np.uint32))
    setv(sim, 0, LANE * 0)
    sim.run()
    assert sim.error is not None and "swizzled buffer of 4-byte elements" in sim.error.message
