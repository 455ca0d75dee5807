"""gfx950 LDS transpose loads (ds_read_b64_tr_b16 / _b8) against independent references.

The reference is the per-lane formula published with AMD's rocjitsu simulator fix
(ROCm/rocm-systems PR #10175) and implied by Triton's ds_read_tr linear layout:
within each 16-lane group, destination lane l, element n comes from source lane
16g + n*(16/E) + (l mod 16) div E, element l mod E (E elements of 64/E bits per lane),
each source lane having fetched 8 bytes at its own address. The tile tests state the
same thing the way kernels use it: lanes point at the rows of an E x 16 tile and
lane c gets column c.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import Setup
from gcnemu.simulation import Simulation
from semhelpers import llvm_mc_errors

RNG = np.random.default_rng(950)
FORMS = [("ds_read_b64_tr_b16", 16), ("ds_read_b64_tr_b8", 8)]


def make(src: str, lds: np.ndarray, exec_mask: int | None = None) -> Simulation:
    text = src + "\ns_endpgm\n"
    errors = llvm_mc_errors(text, "gfx950")
    assert not errors, errors
    setup = Setup()
    setup.lds_init = lds
    sim = Simulation(resolve(gcnemu.parse(text), "gfx950", validate_first=False), setup)
    if exec_mask is not None:
        sim.wave(0).set_sgpr(126, np.array([exec_mask & 0xFFFFFFFF, exec_mask >> 32], dtype=np.uint32))
    return sim


def setv(sim: Simulation, reg: int, values) -> None:
    sim.wave(0).vgpr[reg] = np.asarray(values, dtype=np.int64).astype(np.uint32)
    sim.wave(0).vgpr_init[reg] = True


def reference(lds: np.ndarray, addrs: np.ndarray, elem_bits: int) -> np.ndarray:
    """uint32[2, 64]: the documented mapping, one element at a time."""
    per_lane = 64 // elem_bits
    esize = elem_bits // 8
    out = np.zeros((64, 8), dtype=np.uint8)
    for lane in range(64):
        group, col = divmod(lane, 16)
        for n in range(per_lane):
            src = 16 * group + n * (16 // per_lane) + col // per_lane
            elem = col % per_lane
            a = int(addrs[src]) + elem * esize
            out[lane, n * esize:(n + 1) * esize] = lds[a:a + esize] if a + esize <= len(lds) else 0
    return out.view("<u4").T


def result(sim: Simulation, reg: int, file: str = "v") -> np.ndarray:
    regs = sim.wave(0).vgpr if file == "v" else sim.wave(0).agpr
    return regs[reg:reg + 2]


@pytest.mark.parametrize("mnemonic,bits", FORMS)
def test_every_lane_matches_the_documented_mapping_for_scattered_addresses(mnemonic, bits):
    lds = RNG.integers(0, 256, 65536, dtype=np.uint16).astype(np.uint8)
    addrs = RNG.choice(4096, 64, replace=False) * 8  # any 8-byte-aligned address per lane
    sim = make(f"{mnemonic} v[4:5], v0 offset:24\ns_waitcnt lgkmcnt(0)", lds)
    setv(sim, 0, addrs)
    sim.run()
    assert sim.error is None, sim.error
    np.testing.assert_array_equal(result(sim, 4), reference(lds, addrs + 24, bits))


@pytest.mark.parametrize("mnemonic,bits", FORMS)
def test_lanes_pointing_at_tile_rows_receive_columns(mnemonic, bits):
    """The kernel view: an E x 16 tile (row-major, padded rows) per group; lane c gets column c."""
    per_lane = 64 // bits
    esize, chunks = bits // 8, 16 // per_lane  # lanes per tile row
    row_bytes = 16 * esize + 16  # padded rows, as swizzle-free kernels use
    dtype = {16: np.uint16, 8: np.uint8}[bits]
    tiles = RNG.integers(0, np.iinfo(dtype).max, (4, per_lane, 16), endpoint=True).astype(dtype)
    lds = np.zeros(8192, dtype=np.uint8)
    base = 1024
    tile_bytes = per_lane * row_bytes
    for g in range(4):
        for r in range(per_lane):
            at = base + g * tile_bytes + r * row_bytes
            lds[at:at + 16 * esize] = tiles[g, r].view(np.uint8)
    lane = np.arange(64)
    g, s = lane // 16, lane % 16
    addrs = base + g * tile_bytes + (s // chunks) * row_bytes + (s % chunks) * 8
    sim = make(f"{mnemonic} a[6:7], v1\ns_waitcnt lgkmcnt(0)", lds)
    setv(sim, 1, addrs)
    sim.run()
    assert sim.error is None, sim.error
    got = np.ascontiguousarray(result(sim, 6, "a").T).view(dtype).reshape(64, per_lane)
    want = tiles.transpose(0, 2, 1).reshape(64, per_lane)  # lane 16g+c: tile g, column c, rows 0..E-1
    np.testing.assert_array_equal(got, want)


def test_tr_b16_matches_rocjitsus_published_example():
    """rocjitsu's HIP test: lane t stores halfwords 0x1200 + 0x11*t + h at 8*t, then reads them back transposed."""
    lane = np.arange(64)
    vals = (0x1200 + 0x11 * lane[:, None] + np.arange(4)[None, :]).astype("<u2")
    lds = np.zeros(1024, dtype=np.uint8)
    lds[:512] = vals.view(np.uint8).reshape(-1)
    sim = make("ds_read_b64_tr_b16 v[2:3], v0\ns_waitcnt lgkmcnt(0)", lds)
    setv(sim, 0, lane * 8)
    sim.run()
    assert sim.error is None, sim.error
    src = (lane & 0x30) | ((lane & 0x0C) >> 2)  # source lane of halfword 0; +4 per halfword
    half = lane & 3
    h = [0x1200 + 0x11 * (src + 4 * n) + half for n in range(4)]
    np.testing.assert_array_equal(sim.wave(0).vgpr[2], (h[0] | (h[1] << 16)).astype(np.uint32))
    np.testing.assert_array_equal(sim.wave(0).vgpr[3], (h[2] | (h[3] << 16)).astype(np.uint32))


def test_out_of_range_lanes_fetch_zero_before_the_exchange():
    lds = RNG.integers(0, 256, 4096, dtype=np.uint16).astype(np.uint8)
    addrs = np.arange(64) * 8
    addrs[5] = 1 << 20  # beyond the LDS: its 8 bytes read as 0 and spread over lanes 4..7 of group 0
    sim = make("ds_read_b64_tr_b16 v[4:5], v0\ns_waitcnt lgkmcnt(0)", lds)
    setv(sim, 0, addrs)
    sim.run()
    assert sim.error is None, sim.error
    np.testing.assert_array_equal(result(sim, 4), reference(lds, addrs, 16))
    assert any("outside" in n for _, n in sim.engine.notes)


def test_partial_exec_stops_the_run():
    """CDNA4 ISA guide 11.4: EXEC must be all 1's. Which data a lane gets from an inactive one is undocumented."""
    lds = np.zeros(4096, dtype=np.uint8)
    sim = make("ds_read_b64_tr_b16 v[4:5], v0", lds, exec_mask=0xFFFF_FFFF_FFFF_0FFF)
    setv(sim, 0, np.arange(64) * 8)
    sim.run()
    assert sim.error is not None and "EXEC must be all ones" in sim.error.message


def test_misaligned_address_stops_the_run():
    lds = np.zeros(4096, dtype=np.uint8)
    sim = make("ds_read_b64_tr_b8 v[4:5], v0 offset:4", lds)
    setv(sim, 0, np.arange(64) * 8)
    sim.run()
    assert sim.error is not None and "not 8-byte aligned" in sim.error.message


@pytest.mark.parametrize("mnemonic", ["ds_read_b64_tr_b4", "ds_read_b96_tr_b6"])
def test_forms_without_an_established_mapping_are_not_modelled(mnemonic):
    dst = "v[4:6]" if "b96" in mnemonic else "v[4:5]"
    sim = make(f"{mnemonic} {dst}, v0", np.zeros(4096, dtype=np.uint8))
    setv(sim, 0, np.arange(64) * 16)
    sim.run()
    assert sim.error is not None and "not modelled" in sim.error.message


def test_times_and_counts_like_ds_read_b64():
    """Same LDS pipe, lgkmcnt and bytes as ds_read_b64: the wave finishes on the same cycle."""
    lds = RNG.integers(0, 256, 4096, dtype=np.uint16).astype(np.uint8)
    cycles = []
    for m in ("ds_read_b64", "ds_read_b64_tr_b16", "ds_read_b64_tr_b8"):
        sim = make(f"{m} v[4:5], v0\ns_waitcnt lgkmcnt(0)\nv_mov_b32 v6, v4", lds)
        setv(sim, 0, RNG.permutation(64) * 8)
        sim.run()
        assert sim.error is None, sim.error
        cycles.append(sim.cycles)
    assert cycles[0] == cycles[1] == cycles[2]
