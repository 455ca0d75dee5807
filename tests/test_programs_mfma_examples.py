"""The Matrix Cores article's three worked examples, as programs, hold end to end (issue 4).

programs/mfma_16x16x4f32.s, mfma_16x16x1f32_4blocks.s and mfma_4x4x4f64_4blocks.s build
their inputs from the lane id (v_mbcnt) and store D row-major. Here each one runs on
gfx90a (the article's CDNA2) and gfx942, and is checked three ways:

- the input registers, read back *through gcnemu's layout module* (`isa.mfma.unpack`),
  are the matrices the article's figures describe (lane = tx + 16 ty holds A[tx][ty] ...);
- the result registers, read back the same way, are D = A B (+ C) computed by numpy from
  those matrices, block by block;
- the stored buffer is D in row-major order, as the article's kernels write it.

So a wrong layout in the program, in the layout module or in the MFMA semantics fails here.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import gcnemu
from gcnemu import BufferSpec, Setup, Simulation
from gcnemu.isa import mfma

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
TARGETS = ["gfx90a", "gfx942"]
EXAMPLES = ["mfma_16x16x4f32", "mfma_16x16x1f32_4blocks", "mfma_4x4x4f64_4blocks"]


def run(name: str, target: str, out_shape, dtype) -> Simulation:
    kernel = gcnemu.resolve(gcnemu.parse_file(PROGRAMS / f"{name}.s"), target)
    setup = Setup(workgroup_size=(16, 4, 1) if "f32" in name else (64, 1, 1))
    setup.buffers.append(BufferSpec("D", np.full(out_shape, np.nan, dtype)))
    setup.args = [("D", "D")]
    sim = Simulation(kernel, setup)
    sim.run()
    assert sim.error is None, sim.error
    assert [h.rule for h in sim.hazards] == []
    return sim


def regs(sim: Simulation, first: int, count: int) -> np.ndarray:
    return np.array(sim.wave(0).vgpr[first:first + count], dtype=np.uint32)


def _llvm_mc():
    return LLVM_MC if Path(LLVM_MC).exists() else shutil.which("llvm-mc")


@pytest.mark.skipif(_llvm_mc() is None, reason="llvm-mc 22 not installed")
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", EXAMPLES)
def test_example_assembles_for_cdna2_and_cdna3(name, target):
    # the files name gfx90a in .amdgcn_target; for gfx942 the directive is dropped
    text = (PROGRAMS / f"{name}.s").read_text()
    if target != "gfx90a":
        text = text.replace('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"', "")
    r = subprocess.run([_llvm_mc(), "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-o", "/dev/null"],
                       input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", EXAMPLES)
def test_example_lints_clean(name, target):
    prog = gcnemu.parse_file(PROGRAMS / f"{name}.s")
    assert [d for d in gcnemu.lint(prog, target) if d.severity in ("warning", "error")] == []


# ------------------------------------------------------------------ example 1

A1 = np.arange(64).reshape(4, 16).T.astype(np.float32)  # A[i][k] = i + 16 k: the lane holding it
B1 = np.arange(64).reshape(4, 16).astype(np.float32) - 32  # B[k][j] = j + 16 k - 32


@pytest.mark.parametrize("target", TARGETS)
def test_example1_16x16x4f32_one_block(target):
    sim = run("mfma_16x16x4f32", target, (16, 16), np.float32)
    info = mfma.lookup("v_mfma_f32_16x16x4f32", target)
    # inputs: lane tx + 16 ty holds A[tx][ty] and B[ty][tx]
    np.testing.assert_array_equal(mfma.unpack(info, "A", regs(sim, 2, 1))[0], A1)
    np.testing.assert_array_equal(mfma.unpack(info, "B", regs(sim, 3, 1))[0], B1)
    # result: register 4 + i of lane tx + 16 ty holds D[4 ty + i][tx]
    D = A1.astype(np.float64) @ B1
    np.testing.assert_array_equal(mfma.unpack(info, "D", regs(sim, 4, 4))[0], D)
    lane = np.arange(64)
    for i in range(4):
        np.testing.assert_array_equal(sim.wave(0).v[4 + i].f32, D[4 * (lane // 16) + i, lane % 16])
    np.testing.assert_array_equal(sim.buffer("D", np.float32).reshape(16, 16), D)


# ------------------------------------------------------------------ example 2

A2 = np.arange(64).reshape(4, 16, 1).astype(np.float32)  # A_b[i][0] = i + 16 b
B2 = 2 * np.arange(64).reshape(4, 1, 16).astype(np.float32) - 63  # B_b[0][j] = 2 (j + 16 b) - 63


@pytest.mark.parametrize("target", TARGETS)
def test_example2_16x16x1f32_four_blocks(target):
    sim = run("mfma_16x16x1f32_4blocks", target, (4, 16, 16), np.float32)
    info = mfma.lookup("v_mfma_f32_16x16x1f32", target)
    assert info.blocks == 4 and info.k == 1
    np.testing.assert_array_equal(mfma.unpack(info, "A", regs(sim, 2, 1)), A2)
    np.testing.assert_array_equal(mfma.unpack(info, "B", regs(sim, 3, 1)), B2)
    D = A2.astype(np.float64) * B2  # four 16x16 outer products
    np.testing.assert_array_equal(mfma.unpack(info, "D", regs(sim, 4, 16)), D)
    # register 4 + 4 b + i of lane tx + 16 ty holds D_b[4 ty + i][tx]
    lane = np.arange(64)
    for b in range(4):
        for i in range(4):
            np.testing.assert_array_equal(sim.wave(0).v[4 + 4 * b + i].f32, D[b, 4 * (lane // 16) + i, lane % 16])
    np.testing.assert_array_equal(sim.buffer("D", np.float32).reshape(4, 16, 16), D)


# ------------------------------------------------------------------ example 3

_b, _r, _c = np.meshgrid(np.arange(4), np.arange(4), np.arange(4), indexing="ij")
A3 = (_r + 4 * _b + 16 * _c) / 4  # A_b[i][k] lives in lane i + 4 b + 16 k and is lane / 4
B3 = (_c + 4 * _b + 16 * _r - 20).astype(np.float64)  # B_b[k][j] in lane j + 4 b + 16 k: lane - 20
C3 = (_c + 4 * _b + 16 * _r).astype(np.float64)  # C_b[i][j] in lane j + 4 b + 16 i: lane


@pytest.mark.parametrize("target", TARGETS)
def test_example3_4x4x4f64_four_blocks(target):
    sim = run("mfma_4x4x4f64_4blocks", target, (4, 4, 4), np.float64)
    info = mfma.lookup("v_mfma_f64_4x4x4f64", target)
    assert info.blocks == 4
    np.testing.assert_array_equal(mfma.unpack(info, "A", regs(sim, 2, 2)), A3)
    np.testing.assert_array_equal(mfma.unpack(info, "B", regs(sim, 4, 2)), B3)
    np.testing.assert_array_equal(mfma.unpack(info, "C", regs(sim, 6, 2)), C3)
    D = np.einsum("bik,bkj->bij", A3, B3) + C3  # exact: small integers and quarters
    np.testing.assert_array_equal(mfma.unpack(info, "D", regs(sim, 8, 2)), D)
    np.testing.assert_array_equal(sim.buffer("D", np.float64).reshape(4, 4, 4), D)


def test_examples_fail_when_the_layout_is_wrong():
    # The check is not vacuous: read example 1's inputs with the 4-block layout of
    # example 2 and they no longer form the article's A.
    sim = run("mfma_16x16x4f32", "gfx90a", (16, 16), np.float32)
    four_blocks = mfma.lookup("v_mfma_f32_16x16x1f32", "gfx90a")
    assert not np.array_equal(mfma.unpack(four_blocks, "A", regs(sim, 2, 1)).reshape(16, 4), A1)
