"""LDS bank conflicts: 32 banks x 4 bytes, counted per phase of lanes as MI300 serves wave64 accesses.

A phase whose busiest bank holds k different dwords costs k - 1 extra cycles (same
dword = broadcast, free). Phases: 32 lanes for b32, 16 for b64, and for b128 eight
groups of 8 lanes (interleaved for reads, consecutive for writes). The engine turns the
count into LDS latency.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import Setup
from gcnemu.sim.banks import bank_conflicts, phases_for
from gcnemu.simulation import Simulation

LANE = np.arange(64)
ALL = LANE


def reference(addrs, size, phases, banks=32) -> int:
    """Plain-Python count: per phase, the most distinct dwords any one bank must serve, minus one."""
    total = 0
    for group in phases:
        per_bank: dict[int, set] = {}
        for lane in group:
            a = int(addrs[lane])
            for dw in range(a // 4, (a + size - 1) // 4 + 1):
                per_bank.setdefault(dw % banks, set()).add(dw)
        if per_bank:
            total += max(len(s) for s in per_bank.values()) - 1
    return total


def test_phase_tables_cover_every_lane_once():
    for size in (4, 8, 16):
        for is_write in (False, True):
            lanes = sorted(l for g in phases_for(size, is_write) for l in g)
            assert lanes == list(range(64))


@pytest.mark.parametrize("addrs,size,want", [
    (LANE * 4, 4, 0),  # consecutive dwords: one bank each
    (np.zeros(64, int), 4, 0),  # everyone reads one dword: broadcast
    (LANE * 128, 4, 62),  # stride 32 dwords: all 32 lanes of a phase in bank 0, twice
    (LANE * 8, 4, 2),  # stride 2 dwords: 2-way in each of the two phases
    (LANE * 8, 8, 0),  # b64 consecutive: 16 lanes x 2 dwords = 32 banks
    (LANE * 16, 8, 4),  # b64 stride 4 dwords: 2-way in each of 4 phases
    (LANE * 16, 16, 0),  # b128 consecutive
])
def test_known_patterns(addrs, size, want):
    assert bank_conflicts([(addrs, size)], ALL, is_write=False) == want


def test_b128_reads_and_writes_group_lanes_differently():
    # Blocks of 4 lanes (16 dwords each) sit in the low or high half of the banks. Writes
    # pair blocks (0,1), (2,3)...; reads pair (0,5), (1,4), (2,7), (3,6) (MI300 notes).
    half = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    block = LANE // 4
    addrs = 16 * (LANE % 4) + 64 * half[block % 8] + 128 * block
    assert bank_conflicts([(addrs, 16)], ALL, is_write=True) == 0  # paired blocks use different halves
    assert bank_conflicts([(addrs, 16)], ALL, is_write=False) == 8  # paired blocks share a half: 2-way x 8


@pytest.mark.parametrize("size", [1, 2, 4, 8, 12, 16])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_addresses_match_the_plain_reference(size, seed):
    rng = np.random.default_rng(seed)
    addrs = rng.integers(0, 4096, 64) * (4 if size >= 4 else size)
    for is_write in (False, True):
        got = bank_conflicts([(addrs, size)], ALL, is_write)
        assert got == reference(addrs, size, phases_for(size, is_write))


def test_inactive_lanes_do_not_conflict():
    addrs = LANE * 128
    lanes = np.array([0, 40])  # one lane per phase
    assert bank_conflicts([(addrs[lanes], 4)], lanes, False) == 0


def test_read2_counts_both_pieces():
    a = LANE * 4
    assert bank_conflicts([(a, 4), (a * 32, 4)], ALL, False) == 62


def lds_cycles(line: str, addrs: np.ndarray) -> int:
    sim = Simulation(resolve(gcnemu.parse(line + "\ns_endpgm\n"), "gfx90a", validate_first=False), Setup())
    sim.wave(0).vgpr[0] = addrs.astype(np.uint32)
    sim.wave(0).vgpr_init[0] = True
    sim.run()
    assert sim.error is None, sim.error
    rec = sim.engine.records[0]
    return rec.complete - rec.issue


def test_the_engine_charges_conflict_cycles_to_the_ds_access():
    fast = lds_cycles("ds_read_b32 v1, v0", LANE * 4)
    slow = lds_cycles("ds_read_b32 v1, v0", LANE * 128)
    lat = gcnemu.resolve(gcnemu.parse("s_endpgm"), "gfx90a").target.latencies
    assert slow - fast == lat.lds_conflict_latency  # any conflict: the same extra latency (pyhip)
