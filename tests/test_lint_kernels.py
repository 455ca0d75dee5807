"""Correct real-world-style kernels lint clean: no warning, no hint (tests/hazard_cases/kernels).

They cover kernel arguments by SMEM, global loads and stores, LDS with
barriers, a K loop of MFMAs with LDS staging (gfx90a), AGPR accumulators
(gfx908) and a software-pipelined loop (gfx942).  Each file names its target
with .amdgcn_target and assembles with llvm-mc 22.  Removing one wait from a
kernel must make it dirty (the test can fail).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gcnemu.analysis.lint import lint
from gcnemu.asm.parse import parse
from gcnemu.asm.validate import program_target
from test_lint_rules import HAVE_MC, LLVM_MC

KERNELS = sorted((Path(__file__).parent / "hazard_cases" / "kernels").glob("*.s"))


def run_lint(text: str, name: str, hints: bool = True):
    prog = parse(text, name)
    return lint(prog, program_target(prog, None), hints=hints)


@pytest.mark.parametrize("path", KERNELS, ids=[p.name for p in KERNELS])
def test_kernel_is_clean(path):
    assert run_lint(path.read_text(), path.name) == []


@pytest.mark.parametrize("path", KERNELS, ids=[p.name for p in KERNELS])
def test_kernel_assembles(path):
    if not HAVE_MC:
        pytest.skip("llvm-mc 22 not installed")
    target = program_target(parse(path.read_text(), path.name), None)
    r = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", str(path), "-o", "/dev/null"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("name,remove,rule", [
    ("gemm_tile_gfx90a.s", "\ts_nop 11", "xdl-result-mem-read"),
    ("gemm_agpr_gfx908.s", "\ts_nop 7\n", "xdl-result-accvgpr-read"),
    ("gemm_loop_gfx942.s", "\ts_waitcnt vmcnt(0)\n", "vmem-result-before-vmcnt"),
    ("lds_reduce_gfx942.s", "\ts_waitcnt lgkmcnt(0)\n\ts_barrier\n\tds_read2", "barrier-lds-write-pending"),
    ("vector_add_gfx90a.s", "\ts_waitcnt lgkmcnt(0)\n", "smem-result-before-lgkmcnt"),
])
def test_removing_one_wait_is_caught(name, remove, rule):
    text = (Path(__file__).parent / "hazard_cases" / "kernels" / name).read_text()
    assert remove in text
    keep = "\ts_barrier\n\tds_read2" if remove.endswith("ds_read2") else ""
    broken = text.replace(remove, keep, 1)
    assert rule in {d.rule for d in run_lint(broken, name, hints=False)}
