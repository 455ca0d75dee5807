"""ds_bpermute_b32, ds_permute_b32 and ds_swizzle_b32 follow the ISA pseudocode lane by lane.

References are written as the guide's loops over 64 lanes (independent of the
vectorised implementation). Disabled source lanes give 0; LDS memory is untouched.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.program import Call, Imm, Span, Symbol
from gcnemu.asm.resolve import resolve
from gcnemu.setup import Setup
from gcnemu.sim.semantics.ds import swizzle_offset, swizzle_sources
from gcnemu.simulation import Simulation

LANE = np.arange(64)
RNG = np.random.default_rng(17)


def make(src: str, target: str = "gfx90a") -> Simulation:
    setup = Setup()
    setup.lds_init = np.full(256, 0x5A, np.uint8)
    return Simulation(resolve(gcnemu.parse(src + "\ns_endpgm\n"), target, validate_first=False), setup)


def setv(sim: Simulation, reg: int, values) -> None:
    sim.wave(0).vgpr[reg] = np.asarray(values, dtype=np.int64).astype(np.uint32)
    sim.wave(0).vgpr_init[reg] = True


def set_exec(sim: Simulation, mask: int) -> None:
    sim.wave(0).set_sgpr(126, np.array([mask & 0xFFFFFFFF, mask >> 32], dtype=np.uint32))


def run(sim: Simulation) -> Simulation:
    sim.run()
    assert sim.error is None, sim.error
    return sim


def bpermute_ref(addr, data, exec_bits, offset, old):
    out = old.copy()
    for i in range(64):
        src = ((int(addr[i]) + offset) // 4) % 64
        if (exec_bits >> i) & 1:
            out[i] = data[src] if (exec_bits >> src) & 1 else 0
    return out


def permute_ref(addr, data, exec_bits, offset, old):
    tmp = np.zeros(64, dtype=np.uint32)
    for i in range(64):
        if (exec_bits >> i) & 1:
            tmp[((int(addr[i]) + offset) // 4) % 64] = data[i]
    return np.where([(exec_bits >> i) & 1 for i in range(64)], tmp, old)


@pytest.mark.parametrize("exec_bits", [(1 << 64) - 1, 0x0F0F_F0F0_1234_5678])
def test_bpermute_matches_the_isa_loop(exec_bits):
    addr = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)  # high bits are ignored
    data = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    old = np.full(64, 0xDEAD, dtype=np.uint32)
    sim = make("ds_bpermute_b32 v2, v0, v1 offset:8")
    setv(sim, 0, addr)
    setv(sim, 1, data)
    setv(sim, 2, old)
    set_exec(sim, exec_bits)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[2], bpermute_ref(addr, data, exec_bits, 8, old))
    assert (sim.lds.data[:256] == 0x5A).all() and (sim.lds.data[256:] == 0).all()


@pytest.mark.parametrize("exec_bits", [(1 << 64) - 1, 0xFFFF_0000_FFFF_0001])
def test_permute_matches_the_isa_loop_highest_source_wins(exec_bits):
    addr = (RNG.integers(0, 16, 64) * 4).astype(np.uint32)  # many collisions
    data = LANE.astype(np.uint32) + 100
    old = np.full(64, 0xBEEF, dtype=np.uint32)
    sim = make("ds_permute_b32 v2, v0, v1")
    setv(sim, 0, addr)
    setv(sim, 1, data)
    setv(sim, 2, old)
    set_exec(sim, exec_bits)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[2], permute_ref(addr, data, exec_bits, 0, old))


def test_isa_example_vectors_for_permute_and_bpermute():
    # the guide's 4-lane examples, embedded in lanes 0..3 of a full wave
    addr = np.array([0, 0, 12, 4] + [4 * i for i in range(4, 64)])
    data = np.array([0xA, 0xB, 0xC, 0xD] + list(range(4, 64)))
    sim = make("ds_bpermute_b32 v2, v0, v1\nds_permute_b32 v3, v0, v1")
    setv(sim, 0, addr)
    setv(sim, 1, data)
    run(sim)
    assert sim.wave(0).v[2][:4].tolist() == [0xA, 0xA, 0xD, 0xB]
    assert sim.wave(0).v[3][:4].tolist() == [0xB, 0xD, 0, 0xC]


# ---------------------------------------------------------------- swizzle

# (macro text, offset) pairs as llvm-mc 22 encodes them for gfx90a and gfx950.
LLVM_MC_ENCODINGS = [
    ('swizzle(QUAD_PERM,1,2,3,0)', 0x8039),
    ('swizzle(BITMASK_PERM,"01pip")', 0x0907),
    ('swizzle(SWAP,16)', 0x401F),
    ('swizzle(REVERSE,8)', 0x1C1F),
    ('swizzle(BROADCAST,8,1)', 0x0038),
]


@pytest.mark.parametrize("text,offset", LLVM_MC_ENCODINGS)
def test_swizzle_macros_encode_like_llvm_mc(text, offset):
    assert swizzle_offset(text) == offset


def test_swizzle_macro_as_a_parsed_call_encodes_the_same():
    sp = Span("<t>", 1, 1, 1, 2)
    call = Call("swizzle", (Symbol("QUAD_PERM", sp), Imm(1, sp), Imm(2, sp), Imm(3, sp), Imm(0, sp)), sp)
    assert swizzle_offset(call) == 0x8039


def swizzle_ref(offset, data, exec_bits):
    out = np.zeros(64, dtype=np.uint32)
    for i in range(64):
        if offset & 0x8000:
            j = (i & ~3) + ((offset >> (2 * (i & 3))) & 3)
        else:
            and_m, or_m, xor_m = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
            j = ((((i & 0x1F) & and_m) | or_m) ^ xor_m) | (i & 0x20)
        out[i] = data[j] if (exec_bits >> j) & 1 else 0
    return out


@pytest.mark.parametrize("offset", [0x8039, 0x80E4, 0x0907, 0x401F, 0x1C1F, 0x0038, 0x001F, 0x7FFF])
def test_swizzle_numeric_offsets_match_the_isa_loop(offset):
    data = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    exec_bits = 0xFFFF_FFFF_FFFF_FF7F  # lane 7 off: whoever reads it gets 0
    sim = make(f"ds_swizzle_b32 v2, v1 offset:{offset}")
    setv(sim, 1, data)
    setv(sim, 2, np.zeros(64))
    set_exec(sim, exec_bits)
    run(sim)
    want = swizzle_ref(offset, data, exec_bits)
    want[7] = 0  # inactive destination lane keeps its old value (0 here)
    np.testing.assert_array_equal(sim.wave(0).v[2], want)


def test_the_macro_written_in_the_source_runs_like_its_encoding():
    data = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    sim = make("ds_swizzle_b32 v2, v1 offset:swizzle(QUAD_PERM,1,2,3,0)")
    setv(sim, 1, data)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[2], swizzle_ref(0x8039, data, (1 << 64) - 1))


def test_swap16_exchanges_half_rows():
    src = swizzle_sources(swizzle_offset("swizzle(SWAP,16)"))
    np.testing.assert_array_equal(src, LANE ^ 16)


def test_rotate_and_fft_modes_stop_with_a_clear_message():
    sim = make("ds_swizzle_b32 v2, v1 offset:0xc460")
    setv(sim, 1, LANE)
    sim.run()
    assert sim.error is not None and "not modelled" in sim.error.message
