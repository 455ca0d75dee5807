"""The example programs in programs/ run end to end and compute what their header says.

Each test builds the launch in Python (kernel arguments, buffers, workgroup size), runs
the program on the target it names, and compares the output buffers with numpy. The
programs must also assemble with llvm-mc 22 for their target (skipped when it is absent).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import gcnemu
from gcnemu import BufferSpec, Setup, Simulation

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
RNG = np.random.default_rng(2024)
CORE = ["vector_add", "lane_ids", "lds_dma_copy", "lds_dma_copy_gfx942", "bpermute_reduce", "loop_sum"]


def target_of(name: str) -> str:
    text = (PROGRAMS / f"{name}.s").read_text()
    return re.search(r'amdgcn_target "amdgcn-amd-amdhsa--(gfx\w+)"', text).group(1)


def run(name: str, setup: Setup) -> Simulation:
    kernel = gcnemu.resolve(gcnemu.parse_file(PROGRAMS / f"{name}.s"), target_of(name))
    sim = Simulation(kernel, setup)
    sim.run()
    assert sim.error is None, sim.error
    assert not [d for d in sim.diagnostics if d.severity == "error"]
    return sim


def buffers(setup: Setup, **named) -> Setup:
    for name, data in named.items():
        setup.buffers.append(BufferSpec(name, np.asarray(data)))
    return setup


@pytest.mark.skipif(not Path(LLVM_MC).exists() and not shutil.which("llvm-mc"), reason="llvm-mc 22 not installed")
@pytest.mark.parametrize("name", CORE)
def test_program_assembles_with_llvm_mc_for_its_target(name, tmp_path):
    mc = LLVM_MC if Path(LLVM_MC).exists() else shutil.which("llvm-mc")
    r = subprocess.run([mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target_of(name)}", "-filetype=obj",
                        "-o", str(tmp_path / "out.o"), str(PROGRAMS / f"{name}.s")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("name", CORE)
def test_program_is_clean_for_the_static_hazard_linter(name):
    diags = gcnemu.lint(gcnemu.parse_file(PROGRAMS / f"{name}.s"), target_of(name))
    assert [f"{d.span}: {d.message}" for d in diags if d.severity in ("error", "warning")] == []


@pytest.mark.parametrize("workgroup", [0, 3])
def test_vector_add(workgroup):
    n = 256 * 4
    A = RNG.standard_normal(n).astype(np.float32)
    B = RNG.standard_normal(n).astype(np.float32)
    setup = buffers(Setup(workgroup_size=(256, 1, 1), workgroup_id=(workgroup, 0, 0)),
                    A=A, B=B, C=np.zeros(n, np.float32))
    setup.args = [("A", "A"), ("B", "B"), ("C", "C")]
    sim = run("vector_add", setup)
    C = sim.buffer("C", np.float32)
    part = slice(256 * workgroup, 256 * (workgroup + 1))
    np.testing.assert_array_equal(C[part], A[part] + B[part])
    assert (np.delete(C, np.arange(n)[part]) == 0).all()
    assert sim.cycles > 0 and not sim.hazards  # the waits are right: nothing is read early


def test_lane_ids_and_packed_workitem_ids():
    X, Y, Z = 8, 4, 3
    out = np.full(4 * 128, 0xFFFFFFFF, np.uint32)
    setup = buffers(Setup(workgroup_size=(X, Y, Z)), out=out)
    setup.args = [("out", "out")]
    sim = run("lane_ids", setup)
    got = sim.buffer("out", np.uint32).reshape(128, 4)
    t = np.arange(X * Y * Z)
    want = np.stack([t % 64, t % X, (t // X) % Y, t // (X * Y)], axis=1)
    np.testing.assert_array_equal(got[:96], want)
    assert (got[96:] == 0xFFFFFFFF).all()  # the second wave's inactive lanes never store


@pytest.mark.parametrize("n_bytes", [128 * 4, 100 * 4 + 2])
def test_lds_dma_copy_gfx90a_with_range_checking(n_bytes):
    src = RNG.integers(1, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    setup = buffers(Setup(workgroup_size=(128, 1, 1)), src=src, dst=np.full(128, 7, np.uint32))
    setup.args = [("src", "src"), ("dst", "dst"), ("n_bytes", n_bytes)]
    sim = run("lds_dma_copy", setup)
    i = np.arange(128)
    np.testing.assert_array_equal(sim.buffer("dst", np.uint32), np.where(4 * i < n_bytes, src, 0))
    np.testing.assert_array_equal(sim.lds.data[:512].view(np.uint32), np.where(4 * i < n_bytes, src, 0))
    assert not sim.hazards


def test_lds_dma_copy_without_the_vmcnt_wait_reads_stale_lds_and_is_reported():
    text = (PROGRAMS / "lds_dma_copy.s").read_text()
    broken = text.replace("\ts_waitcnt vmcnt(0)                     // the DMA has written LDS\n", "")
    assert broken != text
    src = np.arange(1, 129, dtype=np.uint32)
    setup = buffers(Setup(workgroup_size=(128, 1, 1)), src=src, dst=np.zeros(128, np.uint32))
    setup.args = [("src", "src"), ("dst", "dst"), ("n_bytes", 512)]
    sim = Simulation(gcnemu.resolve(gcnemu.parse(broken, "lds_dma_copy.s"), "gfx90a"), setup)
    sim.run()
    assert sim.error is None, sim.error
    assert (sim.buffer("dst", np.uint32) == 0).all()  # the LDS was still empty when read
    assert any("LDS DMA" in h.message for h in sim.hazards)


def test_lds_dma_copy_gfx942_offset_applies_to_both_addresses():
    src = RNG.integers(1, 2**32, 129, dtype=np.uint64).astype(np.uint32)
    setup = buffers(Setup(workgroup_size=(128, 1, 1)), src=src, dst=np.zeros(128, np.uint32))
    setup.args = [("src", "src"), ("dst", "dst")]
    sim = run("lds_dma_copy_gfx942", setup)
    np.testing.assert_array_equal(sim.buffer("dst", np.uint32), src[1:])
    np.testing.assert_array_equal(sim.lds.data[4:516].view(np.uint32), src[1:])
    assert not sim.hazards


def test_bpermute_reduce():
    data = RNG.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    setup = buffers(Setup(workgroup_size=(64, 1, 1)), inp=data, out=np.zeros(64, np.uint32))
    setup.args = [("in", "inp"), ("out", "out")]
    sim = run("bpermute_reduce", setup)
    total = np.uint32(int(data.astype(np.uint64).sum()) & 0xFFFFFFFF)
    np.testing.assert_array_equal(sim.buffer("out", np.uint32), np.full(64, total))
    assert not sim.hazards


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loop_sum(n):
    rows = RNG.integers(0, 2**32, (max(n, 1), 64), dtype=np.uint64).astype(np.uint32)
    setup = buffers(Setup(workgroup_size=(64, 1, 1)), inp=rows, out=np.full(64, 9, np.uint32))
    setup.args = [("in", "inp"), ("out", "out"), ("n", n)]
    sim = run("loop_sum", setup)
    want = (rows[:n].astype(np.uint64).sum(axis=0) & 0xFFFFFFFF).astype(np.uint32) if n else np.zeros(64, np.uint32)
    np.testing.assert_array_equal(sim.buffer("out", np.uint32), want)
    loads = sum(1 for r in sim.engine.records if sim.kernel.instructions[r.index].mnemonic == "global_load_dword")
    assert loads == n  # the loop body ran exactly n times
