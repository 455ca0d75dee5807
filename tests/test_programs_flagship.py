"""The flagship kernels of programs/ (issue 9) do what their comments promise.

Each test builds the launch in Python (its own random inputs, not the header's), runs the
program on its target, and compares the outputs with numpy; then it checks the promises
that are not values: no hazard (static linter and dynamic monitor), the LDS layout the
comments describe, the timing figures (cycles, MFMA utilisation, stall breakdown) inside
the ranges recorded here, and that removing a wait the comments call necessary is caught.

The timing ranges are the measured figures of the current model +- about 10%: a timing
model change that moves them shows up here as a failure to review, not as silent drift.
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
from gcnemu.sim.engine import kernel_stats, wave_summary

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
FLAGSHIP = ["gemm_lds_dma_gfx942", "gemm_lds_dma_gfx90a", "batched_hgemm_4x4", "batched_hgemm_4x4_lds",
            "sgemm_vector"]
GALLERY = PROGRAMS / "hazard_gallery"


def target_of(path: Path) -> str:
    return re.search(r'amdgcn_target "amdgcn-amd-amdhsa--(gfx\w+)"', path.read_text()).group(1)


def kernel_of(name: str, text: str | None = None):
    path = PROGRAMS / f"{name}.s"
    prog = gcnemu.parse(text, str(path)) if text is not None else gcnemu.parse_file(path)
    return gcnemu.resolve(prog, target_of(path))


def launch(kernel, threads: int, args: list[str], **buffers) -> Simulation:
    setup = Setup(workgroup_size=(threads, 1, 1))
    for name, data in buffers.items():
        setup.buffers.append(BufferSpec(name, np.ascontiguousarray(data)))
    setup.args = [(a, a) for a in args]
    sim = Simulation(kernel, setup)
    sim.run()
    assert sim.error is None, sim.error
    return sim


def lint_rules(kernel) -> list[tuple[str, int]]:
    return sorted((d.rule, d.span.line) for d in gcnemu.lint(kernel.program, kernel.target.name)
                  if d.severity in ("warning", "error"))


def stalls(sim: Simulation) -> dict[str, int]:
    """Stall cycles per reason, summed over the waves."""
    out: dict[str, int] = {}
    for i in range(len(sim.waves)):
        for k, v in wave_summary(sim.engine, i)["stalls"].items():
            out[k] = out.get(k, 0) + v
    return out


# ------------------------------------------------------------------ every file assembles


def _llvm_mc() -> str | None:
    return LLVM_MC if Path(LLVM_MC).exists() else shutil.which("llvm-mc")


@pytest.mark.skipif(_llvm_mc() is None, reason="llvm-mc 22 not installed")
@pytest.mark.parametrize("path", [PROGRAMS / f"{n}.s" for n in FLAGSHIP] + sorted(GALLERY.glob("*.s")),
                         ids=lambda p: p.stem)
def test_program_assembles_with_llvm_mc_for_its_target(path, tmp_path):
    r = subprocess.run([_llvm_mc(), "-triple=amdgcn-amd-amdhsa", f"-mcpu={target_of(path)}", "-filetype=obj",
                        "-o", str(tmp_path / "out.o"), str(path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("name", FLAGSHIP)
def test_flagship_lints_clean(name):
    assert lint_rules(kernel_of(name)) == []


# ------------------------------------------------------------------ gemm_lds_dma

RNG = np.random.default_rng(909)
GEMM_A = RNG.standard_normal((64, 256)).astype(np.float16)
GEMM_BT = RNG.standard_normal((64, 256)).astype(np.float16)
GEMM_C = GEMM_A.astype(np.float64) @ GEMM_BT.astype(np.float64).T

# measured: gfx942 5292 cycles, MFMA util 0.193; gfx90a 6007 cycles, 0.341 (with vmcnt(N)
# pipelining), since the LDS and memory model of issue 23 (ds_read_b128 holds its SIMD pair's
# LDS path 16 cycles, the vector memory pipe moves 32 B/clk); ranges +-10%
GEMM_TIMING = {
    "gemm_lds_dma_gfx942": dict(cycles=(4760, 5820), util=(0.174, 0.212)),
    "gemm_lds_dma_gfx90a": dict(cycles=(5400, 6610), util=(0.307, 0.375)),
}


@pytest.fixture(scope="module", params=sorted(GEMM_TIMING))
def gemm(request):
    name = request.param
    sim = launch(kernel_of(name), 256, ["A", "BT", "C"], A=GEMM_A, BT=GEMM_BT,
                 C=np.full((64, 64), np.nan, np.float32))
    return name, sim


def test_gemm_lds_dma_computes_the_64x64_tile(gemm):
    _, sim = gemm
    np.testing.assert_allclose(sim.buffer("C", np.float32).reshape(64, 64), GEMM_C, rtol=1e-5, atol=1e-3)


def test_gemm_lds_dma_runs_without_dynamic_hazard(gemm):
    _, sim = gemm
    assert [h.rule for h in sim.hazards] == []


def test_gemm_lds_dma_keeps_the_last_stage_in_buffer_1_xor_swizzled(gemm):
    # Stage 3 (k = 192..255) went to buffer 1 (LDS 16384): A tile at +0, BT tile at +8192,
    # rows of 128 bytes whose 16-byte k-slot q sits at physical slot q ^ (row & 7).
    _, sim = gemm
    lds = sim.lds.data
    for base, src in ((16384, GEMM_A), (16384 + 8192, GEMM_BT)):
        tile = lds[base:base + 8192].view(np.float16).reshape(64, 8, 8)  # row, physical slot, k in slot
        want = src[:, 192:256].reshape(64, 8, 8)
        rows = np.arange(64)[:, None]
        phys = np.arange(8)[None, :] ^ (rows & 7)
        np.testing.assert_array_equal(tile[rows, phys], want)


def test_gemm_lds_dma_timing_stays_in_its_recorded_ranges(gemm):
    name, sim = gemm
    st = kernel_stats(sim.engine)
    lo, hi = GEMM_TIMING[name]["cycles"]
    assert lo <= st["cycles"] <= hi
    lo, hi = GEMM_TIMING[name]["util"]
    assert lo <= st["mfma_utilisation"] <= hi
    # 4 waves x 4 stages x 8 MFMAs of 16384 flops each
    assert st["flops"] == 4 * 4 * 8 * 32 * 32 * 8 * 2
    s = stalls(sim)
    # The tile is latency bound: the matrix core / memory pipes (pipe busy) and what is left
    # of the LDS DMA latency (vmcnt) dominate; barriers cost less; lgkmcnt waits stay small
    # because the MFMAs wait per pair (the first pair waits on ds_reads that share the LDS
    # with the DMA writes of the next stage).
    total = sum(s.values())
    assert s["waitcnt vmcnt"] + s["pipe busy"] > 0.75 * total
    assert s["pipe busy"] > 3 * s["waitcnt vmcnt"]  # two stages of prefetch hide most DMA latency
    assert s["barrier"] < 0.25 * total
    assert s.get("waitcnt lgkmcnt", 0) < 0.05 * total


@pytest.mark.parametrize("name", sorted(GEMM_TIMING))
def test_gemm_lds_dma_without_the_vmcnt_wait_before_the_barrier_is_caught(name):
    # The tutorial's experiment: drop the `s_waitcnt vmcnt(16)` at the top of a stage.
    text = (PROGRAMS / f"{name}.s").read_text()
    broken = text.replace("\ts_waitcnt vmcnt(16)                       // stage s has landed", "\t// (removed)", 1)
    assert broken != text
    kernel = kernel_of(name, broken)
    rules = {r for r, _ in lint_rules(kernel)}
    assert {"lds-dma-read-before-vmcnt", "barrier-lds-write-pending"} <= rules
    sim = launch(kernel, 256, ["A", "BT", "C"], A=GEMM_A, BT=GEMM_BT, C=np.full((64, 64), np.nan, np.float32))
    assert "lds-dma-read-before-vmcnt" in {h.rule for h in sim.hazards}
    assert not np.allclose(sim.buffer("C", np.float32).reshape(64, 64), GEMM_C, rtol=1e-5, atol=1e-3)


# ------------------------------------------------------------------ batched_hgemm_4x4

HG_A = RNG.standard_normal((256, 4, 8)).astype(np.float16)
HG_B = RNG.standard_normal((256, 8, 4)).astype(np.float16)
HG_C = np.einsum("gik,gkj->gij", HG_A.astype(np.float64), HG_B.astype(np.float64))


@pytest.fixture(scope="module")
def hgemm_direct():
    bt = np.ascontiguousarray(HG_B.transpose(0, 2, 1))
    return launch(kernel_of("batched_hgemm_4x4"), 256, ["A", "BT", "C"], A=HG_A, BT=bt,
                  C=np.full((256, 4, 4), np.nan, np.float32))


@pytest.fixture(scope="module")
def hgemm_lds():
    return launch(kernel_of("batched_hgemm_4x4_lds"), 256, ["A", "B", "C"], A=HG_A, B=HG_B,
                  C=np.full((256, 4, 4), np.nan, np.float32))


@pytest.mark.parametrize("which", ["hgemm_direct", "hgemm_lds"])
def test_batched_hgemm_computes_256_small_gemms(which, request):
    sim = request.getfixturevalue(which)
    np.testing.assert_allclose(sim.buffer("C", np.float32).reshape(256, 4, 4), HG_C, rtol=1e-5, atol=1e-4)
    assert [h.rule for h in sim.hazards] == []


def test_batched_hgemm_issues_two_4x4x4_mfmas_per_16_gemms(hgemm_direct, hgemm_lds):
    for sim in (hgemm_direct, hgemm_lds):
        st = kernel_stats(sim.engine)
        assert st["flops"] == 256 * 4 * 4 * 8 * 2  # every GEMM once, nothing more


def test_batched_hgemm_lds_leaves_the_last_b_tile_transposed_in_lds(hgemm_lds):
    got = hgemm_lds.lds.data[4096:8192].view(np.float16).reshape(64, 4, 8)
    np.testing.assert_array_equal(got, HG_B[192:256].transpose(0, 2, 1))


def test_batched_hgemm_timing(hgemm_direct, hgemm_lds):
    # measured 2879 and 4849 cycles (issue 23's cache hierarchy: the tiles come from HBM, ~730
    # cycles on gfx90a): staging B through LDS (16 ds_write_b16 per lane and two barriers per
    # tile) costs about 1.7x the direct version that gets B pre-transposed
    direct, lds = kernel_stats(hgemm_direct.engine)["cycles"], kernel_stats(hgemm_lds.engine)["cycles"]
    assert 2590 <= direct <= 3170
    assert 4360 <= lds <= 5330
    assert lds > 1.4 * direct
    s = stalls(hgemm_direct)
    assert s["waitcnt vmcnt"] > 0.7 * sum(s.values())  # memory bound: 2 tiny MFMAs per 2 KiB loaded
    s = stalls(hgemm_lds)
    assert s["barrier"] > 0.25 * sum(s.values())


# ------------------------------------------------------------------ sgemm_vector

SG_A = RNG.standard_normal((64, 64)).astype(np.float32)
SG_B = RNG.standard_normal((64, 64)).astype(np.float32)


@pytest.fixture(scope="module")
def sgemm():
    return launch(kernel_of("sgemm_vector"), 256, ["A", "B", "C"], A=SG_A, B=SG_B,
                  C=np.full((64, 64), np.nan, np.float32))


def test_sgemm_vector_computes_the_tile(sgemm):
    want = SG_A.astype(np.float64) @ SG_B.astype(np.float64)
    np.testing.assert_allclose(sgemm.buffer("C", np.float32).reshape(64, 64), want, rtol=1e-5, atol=1e-4)
    assert [h.rule for h in sgemm.hazards] == []


def test_sgemm_vector_is_an_fma_kernel_with_its_recorded_timing(sgemm):
    st = kernel_stats(sgemm.engine)
    assert st["flops"] == 0 and st["mfma_busy_cycles"] == 0  # no matrix core
    fmac = sum(1 for r in sgemm.engine.records if sgemm.kernel.instructions[r.index].mnemonic == "v_fmac_f32")
    assert fmac == 4 * 8 * 8 * 16  # waves x stages x k-steps x (4 x 4 per work-item)
    assert 8700 <= st["cycles"] <= 10700  # measured 10063 (9734 before issue 23's LDS model)
    # VALU busy time of one SIMD over the run: 1024 FMAs x 4 clocks
    assert 0.35 <= 1024 * 4 / st["cycles"] <= 0.50
    s = stalls(sgemm)
    assert s["pipe busy"] > s["barrier"] > 0  # the LDS pipe (ds_read_b128 of 4 waves) is the contended one


def test_sgemm_vector_needs_its_lgkmcnt_waits():
    text = (PROGRAMS / "sgemm_vector.s").read_text()
    broken = text.replace("\ts_waitcnt lgkmcnt(6)                         // k = 1 has arrived\n", "", 1)
    assert broken != text
    kernel = kernel_of("sgemm_vector", broken)
    assert "ds-result-before-lgkmcnt" in {r for r, _ in lint_rules(kernel)}
