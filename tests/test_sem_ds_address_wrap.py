"""An LDS address is the 32-bit sum of the address VGPR and the instruction offset.

The ISA guides define it as `CalcDsAddr(vgpr_a.b32, offset.b32)`: both parts are 32-bit, and so is
the address. Compiled code depends on the wrap: llc folds a constant into the offset field and
leaves a "negative" base in the VGPR. A base of 0xFFFFFFF0 with offset:16 is address 0, a valid
LDS location, not an access 4 GiB past the end.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from test_sem_ds import LANE, dwords_at, make, random_lds, run, setv

HERE = Path(__file__).resolve().parent
CLANG = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"


def test_a_negative_base_plus_the_offset_reads_from_the_start_of_lds():
    lds = random_lds()
    sim = make("ds_read_b32 v4, v0 offset:16", lds)
    setv(sim, 0, (LANE * 4 - 16) & 0xFFFFFFFF)  # lane 0: 0xFFFFFFF0
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).vgpr[4], dwords_at(lds, LANE * 4, 1)[0])
    assert not [msg for _, msg in sim.engine.notes if "outside" in msg]


def test_a_negative_base_plus_the_offset_writes_to_the_start_of_lds():
    sim = make("ds_write_b32 v0, v1 offset:8", np.zeros(65536, np.uint8))
    setv(sim, 0, (LANE * 4 - 8) & 0xFFFFFFFF)
    setv(sim, 1, LANE + 100)
    run(sim)
    np.testing.assert_array_equal(sim.lds.data[:256].view("<u4"), LANE + 100)


def test_read2_offsets_wrap_the_same_way():
    lds = random_lds()
    sim = make("ds_read2_b32 v[4:5], v0 offset0:4 offset1:5", lds)
    setv(sim, 0, (LANE * 8 - 16) & 0xFFFFFFFF)  # + 4*4 and + 5*4 bytes
    run(sim)
    np.testing.assert_array_equal(sim.wave(0).vgpr[4], dwords_at(lds, LANE * 8, 1)[0])
    np.testing.assert_array_equal(sim.wave(0).vgpr[5], dwords_at(lds, LANE * 8 + 4, 1)[0])


@pytest.mark.skipif(not Path(CLANG).exists(), reason="needs clang-22")
def test_clang_output_with_a_folded_negative_base_matches_numpy(tmp_path):
    """tests/compiled/lds_negative_base.cl: o[i] = t[i - n + 4] with t[i] = 10 i and n = 4."""
    asm = tmp_path / "lds_negative_base.s"
    subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib",
                    "-O2", "-cl-kernel-arg-info", "-S", str(HERE / "compiled" / "lds_negative_base.cl"), "-o", str(asm)],
                   check=True, capture_output=True)
    assert "offset:16" in asm.read_text()  # the constant went into the DS offset field
    from gcnemu.commands.run import CliSource
    from gcnemu.grid import GridJob, run_grid
    from gcnemu.snippets.runner import load_snippet
    cli = CliSource()
    extra = [cli.directive("--workgroup", "64", "workgroup", ":"),
             cli.directive("--buffer", "o=i32[64]:-1", "buffer", " "),
             cli.directive("--arg", "o=o, n=4", "arg", ":")]
    snippet = load_snippet(str(asm), None, extra)
    sim, result = run_grid(snippet, snippet.kernel(), (1, 1, 1), GridJob(str(asm), None, tuple(extra)), jobs=1)
    assert sim.error is None and not any(r.error for r in result.results)
    np.testing.assert_array_equal(sim.buffer("o", np.int32), np.arange(64) * 10)
