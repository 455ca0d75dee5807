"""What the ROCm runtime gives a dispatch beyond what the metadata lists, as gcnemu gives it.

clang-22 compiles tests/compiled/runtime.cl (OpenCL C, written for gcnemu, MIT like the project)
for gfx908/gfx90a/gfx942/gfx950, and gcnemu runs the output as written:

- the kernarg buffer: CLR hands each dispatch a buffer aligned to at least 128 bytes, so a segment
  is readable to its next 128-byte boundary, and llc's wide loads rely on that (`three_floats`);
- dynamic LDS: the group segment is the static size plus the launch's dynamic size (`--lds-dynamic`,
  `lds-dynamic:`, `Setup.lds_dynamic`), hidden_dynamic_lds_size carries it where the kernel has one.

Skipped where clang-22 is not installed (.ci/run installs it).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gcnemu

HERE = Path(__file__).resolve().parent
CL = HERE / "compiled" / "runtime.cl"
CLANG = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"
TARGETS = ["gfx908", "gfx90a", "gfx942", "gfx950"]

pytestmark = pytest.mark.skipif(not Path(CLANG).exists(), reason="needs clang-22")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("runtime")
    out = {}
    for t in TARGETS:
        out[t] = d / f"runtime_{t}.s"
        subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", f"-mcpu={t}",
                        "-nogpulib", "-O2", "-cl-kernel-arg-info", "-S", str(CL), "-o", str(out[t])],
                       check=True, capture_output=True)
    return out


def gcnemu_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *args], capture_output=True, text=True, timeout=300)


# ---------------------------------------------------------------- the kernarg buffer


@pytest.mark.parametrize("target", TARGETS)
def test_three_floats_loaded_with_one_wide_load_match_numpy(compiled, target):
    text = compiled[target].read_text()
    body = text[text.index("three_floats:"):text.index(".Lfunc_end0")]
    assert "s_load_dwordx4" in body and ".amdhsa_kernarg_size 20" in text  # 16 bytes from offset 8: 4 past 20
    setup = gcnemu.Setup(workgroup_size=(64, 1, 1), kernel="three_floats")
    setup.add_buffer("o", np.zeros(64, np.float32))
    setup.args = {"o": "o", "a": 1.5, "b": -2.0, "c": 0.25}
    sim = gcnemu.Simulation(gcnemu.resolve(gcnemu.parse_file(str(compiled[target])), target), setup).run()
    assert sim.error is None, sim.error
    np.testing.assert_array_equal(sim.buffer("o", np.float32), np.full(64, np.float32(1.5) * np.float32(-2.0) + 0.25))
    kernarg = sim.memory.buffer("__kernarg")
    assert len(kernarg.data) == 128 and kernarg.base % 128 == 0  # the segment, to its 128-byte boundary
    assert not kernarg.data[20:].any()


def test_a_load_past_what_the_runtime_allocates_still_stops_naming_the_kernarg_buffer(compiled, tmp_path):
    text = compiled["gfx90a"].read_text()
    load = "s_load_dwordx4 s[0:3], s[4:5], 0x8"
    assert load in text
    p = tmp_path / "past.s"
    p.write_text(text.replace(load, "s_load_dwordx4 s[0:3], s[4:5], 0x78", 1))  # bytes 120..135 of 128
    r = gcnemu_cli("run", str(p), "--buffer", "o=f32[64]", "--arg", "o=o", "--arg", "a=1.0", "--arg", "b=1.0",
                   "--arg", "c=1.0")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    line = p.read_text().splitlines().index("\ts_load_dwordx4 s[0:3], s[4:5], 0x78") + 1
    assert r.stderr.startswith(f"{p}:{line}:")
    assert "runs past the end of buffer '__kernarg'" in r.stderr
