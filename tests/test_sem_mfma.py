"""MFMA instructions executed by the simulator give D = A x B + C in every lane and register.

The catalog, layouts and numerics are tested on their own (test_mfma_*); these tests
pin the wiring: operands gathered from VGPRs/AGPRs, C from a register range or an
inline constant, modifiers passed through, D written to AGPRs or VGPRs, EXEC ignored.
"""
from __future__ import annotations

import numpy as np
import pytest

import gcnemu
from gcnemu.isa import mfma as M
from gcnemu.asm.resolve import resolve
from gcnemu.setup import Setup
from gcnemu.simulation import Simulation


def run_one(target: str, line: str, vgprs: dict[int, np.ndarray], agprs: dict[int, np.ndarray] | None = None,
            exec_mask: int | None = None) -> Simulation:
    src = ""
    if exec_mask is not None:
        src += f"s_mov_b64 exec, {exec_mask:#x}\n"
    src += line + "\ns_endpgm\n"
    sim = Simulation(resolve(gcnemu.parse(src), target, validate_first=False), Setup())
    w = sim.wave(0)
    for base, regs in vgprs.items():
        w.vgpr[base:base + len(regs)] = regs
        w.vgpr_init[base:base + len(regs)] = True
    for base, regs in (agprs or {}).items():
        w.agpr[base:base + len(regs)] = regs
        w.agpr_init[base:base + len(regs)] = True
    sim.run()
    assert sim.error is None, sim.error
    return sim


def reference(info, A, B, C):
    return np.einsum("bik,bkj->bij", A.astype(np.float64), B.astype(np.float64)) + C


CASES = [
    ("gfx908", "v_mfma_f32_32x32x8f16", np.float16),
    ("gfx90a", "v_mfma_f32_16x16x16f16", np.float16),
    ("gfx90a", "v_mfma_f32_4x4x4f16", np.float16),
    ("gfx90a", "v_mfma_f32_16x16x4f32", np.float32),
    ("gfx90a", "v_mfma_f32_32x32x2f32", np.float32),
    ("gfx942", "v_mfma_f32_32x32x8_f16", np.float16),
    ("gfx950", "v_mfma_f32_16x16x32_f16", np.float16),
]


@pytest.mark.parametrize("target,mnemonic,dtype", CASES)
def test_mfma_in_the_simulator_matches_numpy(target, mnemonic, dtype):
    info = M.lookup(mnemonic, target)
    rng = np.random.default_rng(7)
    A = rng.standard_normal(info.shape("A")).astype(dtype)
    B = rng.standard_normal(info.shape("B")).astype(dtype)
    C = rng.standard_normal(info.shape("C")).astype(np.float32)
    n = info.cd_regs
    line = (f"{mnemonic} a[0:{n - 1}], v[0:{info.a_regs - 1}], v[16:{16 + info.b_regs - 1}], "
            f"a[{n}:{2 * n - 1}]")
    sim = run_one(target, line, {0: M.pack(info, "A", A), 16: M.pack(info, "B", B)}, {n: M.pack(info, "C", C)})
    D = M.unpack(info, "D", sim.wave(0).agpr[0:n])
    np.testing.assert_allclose(D, reference(info, A, B, C), rtol=1e-5, atol=1e-5)


def test_accumulator_in_vgprs_on_gfx90a_and_inline_zero_c():
    info = M.lookup("v_mfma_f32_16x16x16f16", "gfx90a")
    rng = np.random.default_rng(1)
    A = rng.standard_normal(info.shape("A")).astype(np.float16)
    B = rng.standard_normal(info.shape("B")).astype(np.float16)
    sim = run_one("gfx90a", "v_mfma_f32_16x16x16f16 v[32:35], v[0:1], v[2:3], 0",
                  {0: M.pack(info, "A", A), 2: M.pack(info, "B", B)})
    D = M.unpack(info, "D", sim.wave(0).vgpr[32:36])
    np.testing.assert_allclose(D, reference(info, A, B, 0), rtol=1e-5, atol=1e-5)


def test_mfma_writes_every_lane_whatever_exec_says():
    info = M.lookup("v_mfma_f32_16x16x4f32", "gfx90a")
    A = np.ones(info.shape("A"), np.float32)
    B = np.ones(info.shape("B"), np.float32)
    sim = run_one("gfx90a", "v_mfma_f32_16x16x4f32 a[0:3], v0, v1, 0",
                  {0: M.pack(info, "A", A), 1: M.pack(info, "B", B)}, exec_mask=0x1)
    D = M.unpack(info, "D", sim.wave(0).agpr[0:4])
    assert np.all(D == 4.0)


def test_cbsz_abid_broadcast_reaches_the_hardware_model():
    info = M.lookup("v_mfma_f32_4x4x4f16", "gfx90a")
    rng = np.random.default_rng(3)
    A = rng.standard_normal(info.shape("A")).astype(np.float16)
    B = rng.standard_normal(info.shape("B")).astype(np.float16)
    sim = run_one("gfx90a", "v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], 0 cbsz:4 abid:5",
                  {0: M.pack(info, "A", A), 2: M.pack(info, "B", B)})
    D = M.unpack(info, "D", sim.wave(0).agpr[0:4])
    A_bcast = np.broadcast_to(A[5], A.shape)  # cbsz 4: block 5 of A feeds all 16 blocks
    np.testing.assert_allclose(D, reference(info, A_bcast, B, 0), rtol=1e-5, atol=1e-5)


def test_fp8_means_fnuz_on_gfx942_and_ocp_on_gfx950():
    regs = {0: np.full((2, 64), 0x40404040, np.uint32), 8: np.full((2, 64), 0x40404040, np.uint32)}
    line = "v_mfma_f32_16x16x32_fp8_fp8 a[0:3], v[0:1], v[8:9], 0"
    d942 = run_one("gfx942", line, regs).wave(0).agpr[0:4].view(np.float32)
    d950 = run_one("gfx950", line, regs).wave(0).agpr[0:4].view(np.float32)
    # 0x40 is 1.0 in E4M3FNUZ (bias 8) and 2.0 in E4M3FN (bias 7): 32 products of 1 or of 4
    assert np.all(d942 == 32.0)
    assert np.all(d950 == 128.0)
