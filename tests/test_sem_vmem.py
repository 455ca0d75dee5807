"""GLOBAL and FLAT memory instructions, executed by the simulator, agree with numpy.

Each test runs a tiny program (the instruction under test, then s_endpgm, which lets
every outstanding memory operation land) and compares registers or buffers with a
numpy reference computed from the same inputs. EXEC-masked lanes must neither load
nor store; sub-dword loads must zero/sign extend; d16 loads must keep the other half.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.resolve import resolve
from gcnemu.setup import BufferSpec, Setup
from gcnemu.sim.semantics import memaddr
from gcnemu.simulation import Simulation

LANE = np.arange(64)
RNG = np.random.default_rng(3)


def make(src: str, target: str = "gfx90a", buffers: dict | None = None) -> Simulation:
    """A simulation of `src` + s_endpgm with buffers {name: (data, sgpr-or-None)}."""
    setup = Setup()
    for name, (data, sgpr) in (buffers or {}).items():
        setup.buffers.append(BufferSpec(name, np.asarray(data), sgpr=sgpr))
    return Simulation(resolve(gcnemu.parse(src + "\ns_endpgm\n"), target, validate_first=False), setup)


def setv(sim: Simulation, reg: int, values) -> None:
    w = sim.wave(0)
    w.vgpr[reg] = np.asarray(values, dtype=np.int64).astype(np.uint32)
    w.vgpr_init[reg] = True


def set_exec(sim: Simulation, mask: int) -> None:
    sim.wave(0).set_sgpr(126, np.array([mask & 0xFFFFFFFF, mask >> 32], dtype=np.uint32))


def run(sim: Simulation) -> Simulation:
    sim.run()
    assert sim.error is None, sim.error
    return sim


def split64(addrs) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(addrs, dtype=np.uint64)
    return (a & np.uint64(0xFFFFFFFF)).astype(np.uint32), (a >> np.uint64(32)).astype(np.uint32)


# ---------------------------------------------------------------- loads


def test_global_load_dword_saddr_plus_vgpr_offset_plus_signed_immediate():
    A = RNG.integers(0, 2**32, 256, dtype=np.uint64).astype(np.uint32)
    sim = make("global_load_dword v1, v0, s[4:5] offset:-8", buffers={"A": (A, "s[4:5]")})
    setv(sim, 0, (LANE * 3 + 2) * 4)  # dword index 3*lane+2, then -2 dwords
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1], A[LANE * 3])


def test_global_load_with_64bit_vgpr_address_and_off():
    A = RNG.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    sim = make("global_load_dword v5, v[2:3], off offset:16", buffers={"A": (A, None)})
    perm = RNG.permutation(64)
    lo, hi = split64(sim.buffer_address("A") + perm * 4)
    setv(sim, 2, lo)
    setv(sim, 3, hi)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[5], A[perm + 4])


@pytest.mark.parametrize("mnemonic,dwords", [("global_load_dwordx2", 2), ("global_load_dwordx3", 3),
                                             ("global_load_dwordx4", 4)])
def test_multi_dword_loads_fill_consecutive_registers_per_lane(mnemonic, dwords):
    A = RNG.integers(0, 2**32, 64 * 4, dtype=np.uint64).astype(np.uint32)
    sim = make(f"{mnemonic} v[4:{3 + dwords}], v0, s[4:5]", buffers={"A": (A, "s[4:5]")})
    setv(sim, 0, LANE * 16)
    run(sim)
    got = sim.wave(0).v[4:4 + dwords]
    np.testing.assert_array_equal(got, A.reshape(64, 4)[:, :dwords].T)


@pytest.mark.parametrize("mnemonic,dtype", [("global_load_ubyte", np.uint8), ("global_load_sbyte", np.int8),
                                            ("global_load_ushort", np.uint16), ("global_load_sshort", np.int16)])
def test_sub_dword_loads_zero_or_sign_extend(mnemonic, dtype):
    info = np.iinfo(dtype)
    vals = np.array([info.min, info.max, -1 if info.min < 0 else info.max, 0] * 16, dtype=dtype)
    vals[4:] = RNG.integers(info.min, info.max, 60, endpoint=True).astype(dtype)
    sim = make(f"{mnemonic} v1, v0, s[4:5]", buffers={"A": (vals, "s[4:5]")})
    setv(sim, 0, LANE * vals.itemsize)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[1].view(np.int32 if info.min < 0 else np.uint32),
                                  vals.astype(np.int64))


@pytest.mark.parametrize("ecc", [True, False])
@pytest.mark.parametrize("mnemonic,src_dtype,half", [
    ("global_load_short_d16", np.uint16, "lo"), ("global_load_short_d16_hi", np.uint16, "hi"),
    ("global_load_ubyte_d16", np.uint8, "lo"), ("global_load_ubyte_d16_hi", np.uint8, "hi"),
    ("global_load_sbyte_d16", np.int8, "lo"), ("global_load_sbyte_d16_hi", np.int8, "hi"),
])
def test_d16_loads_write_one_half_the_other_is_zero_with_ecc_kept_without(mnemonic, src_dtype, half, ecc,
                                                                          monkeypatch):
    monkeypatch.setitem(memaddr.SRAMECC_DEFAULT, "gfx90a", ecc)
    vals = RNG.integers(np.iinfo(src_dtype).min, np.iinfo(src_dtype).max, 64, endpoint=True).astype(src_dtype)
    old = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    sim = make(f"{mnemonic} v1, v0, s[4:5]", buffers={"A": (vals, "s[4:5]")})
    setv(sim, 0, LANE * vals.itemsize)
    setv(sim, 1, old)
    run(sim)
    v16 = (vals.astype(np.int64) & 0xFFFF).astype(np.uint32)  # 8-bit values are extended to 16 bits first
    kept = np.uint32(0) if ecc else old
    want = (kept & 0xFFFF0000) | v16 if half == "lo" else (kept & 0x0000FFFF) | (v16 << 16)
    np.testing.assert_array_equal(sim.wave(0).v[1], want)


def test_exec_masked_lanes_do_not_load():
    A = np.arange(64, dtype=np.uint32) + 1000
    sim = make("global_load_dword v1, v0, s[4:5]", buffers={"A": (A, "s[4:5]")})
    setv(sim, 0, LANE * 4)
    setv(sim, 1, np.full(64, 7))
    mask = 0x00FF00FF_0F0F0F0F
    set_exec(sim, mask)
    run(sim)
    on = ((mask >> LANE) & 1).astype(bool)
    np.testing.assert_array_equal(sim.wave(0).v[1], np.where(on, A, 7))


def test_load_into_agpr_on_gfx90a():
    A = np.arange(64, dtype=np.uint32) * 5
    sim = make("global_load_dword a3, v0, s[4:5]", buffers={"A": (A, "s[4:5]")})
    setv(sim, 0, LANE * 4)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).a[3], A)


# ---------------------------------------------------------------- stores


@pytest.mark.parametrize("mnemonic,size,shift", [
    ("global_store_byte", 1, 0), ("global_store_byte_d16_hi", 1, 16), ("global_store_short", 2, 0),
    ("global_store_short_d16_hi", 2, 16), ("global_store_dword", 4, 0),
])
def test_sub_dword_and_dword_stores_write_exactly_their_bytes(mnemonic, size, shift):
    out = np.full(64 * 4 + 4, 0xEE, dtype=np.uint8)
    data = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    sim = make(f"{mnemonic} v0, v1, s[4:5] offset:1", buffers={"B": (out, "s[4:5]")})
    setv(sim, 0, LANE * 4)
    setv(sim, 1, data)
    run(sim)
    want_flat = out.copy()
    src = ((data >> shift).astype("<u4")).view(np.uint8).reshape(64, 4)
    for lane in range(64):
        want_flat[lane * 4 + 1: lane * 4 + 1 + size] = src[lane, :size]
    np.testing.assert_array_equal(sim.buffer("B"), want_flat)


@pytest.mark.parametrize("dwords", [2, 3, 4])
def test_multi_dword_stores_with_64bit_addresses(dwords):
    out = np.zeros(64 * 4, dtype=np.uint32)
    data = RNG.integers(0, 2**32, (dwords, 64), dtype=np.uint64).astype(np.uint32)
    suffix = {2: "x2", 3: "x3", 4: "x4"}[dwords]
    sim = make(f"global_store_dword{suffix} v[0:1], v[4:{3 + dwords}], off", buffers={"B": (out, None)})
    lo, hi = split64(sim.buffer_address("B") + LANE[::-1] * 16)
    setv(sim, 0, lo)
    setv(sim, 1, hi)
    for k in range(dwords):
        setv(sim, 4 + k, data[k])
    run(sim)
    got = sim.buffer("B", np.uint32).reshape(64, 4)[::-1]
    np.testing.assert_array_equal(got[:, :dwords], data.T)
    assert (got[:, dwords:] == 0).all()


def test_exec_masked_lanes_do_not_store():
    out = np.zeros(64, dtype=np.uint32)
    sim = make("global_store_dword v0, v1, s[4:5]", buffers={"B": (out, "s[4:5]")})
    setv(sim, 0, LANE * 4)
    setv(sim, 1, LANE + 1)
    set_exec(sim, 0xAAAAAAAA_AAAAAAAA)
    run(sim)
    np.testing.assert_array_equal(sim.buffer("B", np.uint32), np.where(LANE % 2 == 1, LANE + 1, 0))


def test_flat_load_and_store_behave_as_global_for_buffer_addresses():
    A = np.arange(64, dtype=np.uint32) * 3 + 1
    out = np.zeros(64, dtype=np.uint32)
    sim = make("flat_load_dword v4, v[0:1] offset:4\nflat_store_dword v[2:3], v6 offset:8",
               buffers={"A": (A, None), "B": (out, None)})
    lo, hi = split64(sim.buffer_address("A") + np.minimum(LANE, 62) * 4)
    setv(sim, 0, lo)
    setv(sim, 1, hi)
    lo, hi = split64(sim.buffer_address("B") + np.minimum(LANE, 61) * 4)
    setv(sim, 2, lo)
    setv(sim, 3, hi)
    setv(sim, 6, LANE * 7)
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).v[4], A[np.minimum(LANE, 62) + 1])
    want = np.zeros(64, dtype=np.uint32)
    for lane in range(64):  # lanes 61..63 hit the same dword: the highest lane's data stays
        want[min(lane, 61) + 2] = lane * 7
    np.testing.assert_array_equal(sim.buffer("B", np.uint32), want)


# ---------------------------------------------------------------- atomics


def test_atomic_add_u32_with_return_serialises_lanes_in_order():
    acc = np.array([10, 0], dtype=np.uint32)
    sim = make("global_atomic_add v2, v0, v1, s[4:5] glc", buffers={"C": (acc, "s[4:5]")})
    setv(sim, 0, np.zeros(64))
    setv(sim, 1, LANE + 1)
    run(sim)
    assert sim.buffer("C", np.uint32)[0] == 10 + (LANE + 1).sum()
    np.testing.assert_array_equal(sim.wave(0).v[2], 10 + np.concatenate([[0], np.cumsum(LANE + 1)[:-1]]))


def test_atomic_add_u32_wraps_and_without_glc_returns_nothing():
    acc = np.full(64, 0xFFFFFFFF, dtype=np.uint32)
    sim = make("global_atomic_add v0, v1, s[4:5]", buffers={"C": (acc, "s[4:5]")})
    setv(sim, 0, LANE * 4)
    setv(sim, 1, LANE + 1)
    setv(sim, 2, np.full(64, 99))
    run(sim)
    np.testing.assert_array_equal(sim.buffer("C", np.uint32), LANE.astype(np.uint32))
    np.testing.assert_array_equal(sim.wave(0).v[2], np.full(64, 99))


@pytest.mark.parametrize("target,line", [
    ("gfx90a", "global_atomic_add_f32 v3, v0, v1, s[4:5] glc"),
    ("gfx942", "global_atomic_add_f32 v3, v0, v1, s[4:5] sc0"),
])
def test_atomic_add_f32_returns_the_pre_op_value(target, line):
    mem = RNG.standard_normal(64).astype(np.float32)
    add = RNG.standard_normal(64).astype(np.float32)
    sim = make(line, target, buffers={"C": (mem, "s[4:5]")})
    setv(sim, 0, LANE * 4)
    setv(sim, 1, add.view(np.uint32))
    run(sim)
    np.testing.assert_array_equal(sim.buffer("C", np.float32), mem + add)
    np.testing.assert_array_equal(sim.wave(0).v[3].f32, mem)


def test_atomic_add_f32_no_return_form_of_gfx908_and_denormal_inputs_flush():
    mem = np.array([1.0, 2.0**-130, -(2.0**-140), 3.0] * 16, dtype=np.float32)  # two denormals
    add = np.array([0.5, 2.0**-130, 1.0, 2.0**-149] * 16, dtype=np.float32)
    sim = make("global_atomic_add_f32 v0, v1, s[4:5]", "gfx908", buffers={"C": (mem, "s[4:5]")})
    setv(sim, 0, LANE * 4)
    setv(sim, 1, add.view(np.uint32))
    run(sim)
    got = sim.buffer("C", np.float32)
    np.testing.assert_array_equal(got[:4], np.array([1.5, 0.0, 1.0, 3.0], dtype=np.float32))


# ---------------------------------------------------------------- errors


def test_access_outside_any_buffer_is_a_runtime_error_naming_instruction_lane_and_address():
    A = np.zeros(64, dtype=np.uint32)
    sim = make("global_load_dword v1, v0, s[4:5]", buffers={"A": (A, "s[4:5]")})
    setv(sim, 0, np.where(LANE == 37, 4 * 64, LANE * 4))  # lane 37 one past the end
    sim.run()
    assert sim.error is not None
    msg = sim.error.message
    assert "global_load_dword v1, v0, s[4:5]" in msg and "lane 37" in msg
    assert f"0x{sim.buffer_address('A') + 256:x}" in msg


def test_a_flat_address_outside_buffers_says_apertures_are_not_modelled():
    sim = make("flat_load_dword v1, v[2:3]")
    setv(sim, 2, np.zeros(64))  # address 0: on hardware maybe the LDS aperture, here unallocated
    setv(sim, 3, np.zeros(64))
    sim.run()
    assert sim.error is not None and "apertures are not modelled" in sim.error.message
