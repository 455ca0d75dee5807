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
    assert "kernarg segment of kernel 'three_floats' (20 bytes) as the ROCm runtime allocates it: padded to " \
           "128 bytes" in r.stderr


# ---------------------------------------------------------------- dynamic LDS


def launch(path: Path, target: str, kernel: str, wg: int, lds_dynamic: int, **args) -> gcnemu.Simulation:
    setup = gcnemu.Setup(workgroup_size=(wg, 1, 1), kernel=kernel, lds_dynamic=lds_dynamic)
    for name in ("o", "x", "seen"):
        setup.add_buffer(name, np.arange(wg, dtype=np.float32) if name == "x" else np.zeros(wg, np.float32))
    setup.args = args
    return gcnemu.Simulation(gcnemu.resolve(gcnemu.parse_file(str(path)), target), setup).run()


@pytest.mark.parametrize("target", TARGETS)
def test_a_local_pointer_argument_gets_the_launchs_dynamic_lds(compiled, target):
    """rotate_local has .group_segment_fixed_size 0: its 128 floats of LDS come from the launch alone."""
    assert ".amdhsa_group_segment_fixed_size 0" in compiled[target].read_text()
    sim = launch(compiled[target], target, "rotate_local", 128, 512, o="o", **{"in": "x"}, seen="seen")
    assert sim.error is None, sim.error
    np.testing.assert_array_equal(sim.buffer("o", np.float32), np.roll(np.arange(128, dtype=np.float32), -1))
    assert sim.buffer("seen", np.uint32)[0] == 512  # hidden_dynamic_lds_size, as the kernel reads it
    packet = sim.memory.buffer("__dispatch").data
    assert int(packet[28:32].view(np.uint32)[0]) == 512  # the packet's group_segment_size: 0 static + 512


@pytest.mark.parametrize("target", TARGETS)
def test_a_kernel_without_hidden_dynamic_lds_size_still_gets_its_dynamic_lds(compiled, target):
    kernels = gcnemu.parse_file(str(compiled[target]))
    from gcnemu.asm.kernels import find
    kinds = [a.value_kind for a in find(kernels, "reverse_local").args]
    assert "dynamic_shared_pointer" in kinds and not [k for k in kinds if k.startswith("hidden_")]
    sim = launch(compiled[target], target, "reverse_local", 64, 200, o="o", **{"in": "x"}, n=50)
    assert sim.error is None, sim.error
    want = np.zeros(64, np.float32)
    want[:50] = np.arange(50, dtype=np.float32)[::-1]
    np.testing.assert_array_equal(sim.buffer("o", np.float32), want)


def test_too_little_dynamic_lds_is_an_lds_error_at_the_write(compiled):
    """50 floats need 200 bytes: with 100, lanes 25.. write past the group segment."""
    sim = launch(compiled["gfx90a"], "gfx90a", "reverse_local", 64, 100, o="o", **{"in": "x"}, n=50)
    assert sim.error is not None
    assert "is beyond the 100 bytes of LDS the kernel allocates" in sim.error.message
    assert "lanes 25, 26" in sim.error.message


def test_lds_dynamic_on_the_command_line_and_in_the_header(compiled, tmp_path):
    path = compiled["gfx942"]
    common = ["--kernel", "reverse_local", "--buffer", "o=f32[64]", "--buffer", "x=f32[64]:arange(64)",
              "--arg", "o=o", "--arg", "in=x", "--arg", "n=64"]
    assert gcnemu_cli("run", str(path), *common, "--lds-dynamic", "256").returncode == 0
    short = gcnemu_cli("run", str(path), *common, "--lds-dynamic", "128")
    assert short.returncode == 1 and "is beyond the 128 bytes of LDS" in short.stderr
    bad = gcnemu_cli("run", str(path), *common, "--lds-dynamic", "300000")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert "dynamic LDS bytes must be at most" in bad.stderr and "--lds-dynamic 300000" in bad.stderr
    too_big = gcnemu_cli("run", str(compiled["gfx90a"]), *common, "--lds-dynamic", "65540")
    assert too_big.returncode == 1 and "exceed the 65536 bytes of a workgroup on gfx90a" in too_big.stderr
    snippet = tmp_path / "rev.s"
    snippet.write_text("// gcnemu:\n//   kernel: reverse_local\n//   workgroup: 64\n//   lds-dynamic: 256\n"
                       "//   buffer o: f32[64] = 0\n//   buffer x: f32[64] = arange(64)\n//   arg: o=o, in=x, n=64\n"
                       "//   expect o == x[::-1]\n" + path.read_text())
    r = gcnemu_cli("test", str(snippet))
    assert r.returncode == 0 and "PASS" in r.stdout, r.stdout + r.stderr
    r = gcnemu_cli("test", str(snippet), "--lds-dynamic", "64")  # the option wins over the header
    assert r.returncode == 1 and "beyond the 64 bytes" in r.stdout + r.stderr
    for cmd in ("timeline", "step"):
        extra = ["--batch", "/dev/null"] if cmd == "step" else []
        assert gcnemu_cli(cmd, str(snippet), "--lds-dynamic", "256", *extra).returncode == 0


@pytest.mark.parametrize("engine", ["timed", "functional"])
def test_a_grid_with_dynamic_lds_matches_numpy_on_both_engines(compiled, engine):
    """Two workgroups of 128 work-items, each rotating its own 512 bytes of dynamic LDS."""
    from gcnemu.commands.run import CliSource
    from gcnemu.grid import GridJob, run_functional, run_grid
    from gcnemu.snippets.runner import load_snippet
    path = str(compiled["gfx950"])
    cli = CliSource()
    extra = [cli.directive("--kernel", "rotate_local", "kernel", ":"),
             cli.directive("--workgroup", "128", "workgroup", ":"),
             cli.directive("--lds-dynamic", "512", "lds-dynamic", ":"),
             cli.directive("--buffer", "o=f32[256]:-1", "buffer", " "),
             cli.directive("--buffer", "x=f32[256]:arange(256)", "buffer", " "),
             cli.directive("--buffer", "seen=u32[1]", "buffer", " "),
             cli.directive("--arg", "o=o, in=x, seen=seen", "arg", ":")]
    snippet = load_snippet(path, None, extra)
    job = GridJob(path, None, tuple(extra))
    run = run_functional if engine == "functional" else run_grid
    sim, grid_run = run(snippet, snippet.kernel(), (2, 1, 1), job) if engine == "functional" else \
        run(snippet, snippet.kernel(), (2, 1, 1), job, jobs=1)
    assert sim.error is None, sim.error
    want = np.concatenate([np.roll(np.arange(k * 128, k * 128 + 128, dtype=np.float32), -1) for k in range(2)])
    np.testing.assert_array_equal(sim.buffer("o", np.float32), want)
    assert sim.buffer("seen", np.uint32)[0] == 512
    if engine == "timed":  # clang's barrier-separated LDS exchange between two waves: no false race (issue 22)
        assert [h.message for h in sim.hazards if "race" in h.rule] == []
        assert grid_run.races == []


@pytest.mark.parametrize("engine", ["timed", "functional"])
def test_a_workgroup_writing_past_its_dynamic_lds_stops_at_the_write_on_both_engines(compiled, engine):
    """128 work-items store 512 bytes; with 256 of dynamic LDS the batched functional path must
    not accept what the workgroup does not own (it keeps whole-LDS rows per workgroup)."""
    r = gcnemu_cli("run", str(compiled["gfx90a"]), "--kernel", "rotate_local", "--workgroup", "128", "--grid", "2",
                   "--lds-dynamic", "256", "--buffer", "o=f32[256]", "--buffer", "x=f32[256]:arange(256)",
                   "--buffer", "seen=u32[1]", "--arg", "o=o", "--arg", "in=x", "--arg", "seen=seen", "--jobs", "1",
                   *(["--functional"] if engine == "functional" else []))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    lines = compiled["gfx90a"].read_text().splitlines()
    start = lines.index("rotate_local:                           ; @rotate_local")
    write = next(i for i in range(start, len(lines)) if lines[i].strip().startswith("ds_write_b32")) + 1
    assert r.stderr.startswith(f"{compiled['gfx90a']}:{write}:")  # at the write, whichever wave ran ahead
    assert "ds_write_b32: LDS address 0x100" in r.stderr
    assert "is beyond the 256 bytes of LDS the kernel allocates" in r.stderr


def test_several_local_pointers_each_need_their_offset(compiled):
    path = str(compiled["gfx90a"])
    common = ["--kernel", "two_locals", "--buffer", "o=f32[64]", "--arg", "o=o", "--lds-dynamic", "512"]
    r = gcnemu_cli("run", path, *common)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "kernel 'two_locals' has 2 __local pointer arguments (a, b)" in r.stderr
    ok = gcnemu_cli("run", path, *common, "--arg", "a=0", "--arg", "b=256", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    setup = gcnemu.Setup(workgroup_size=(64, 1, 1), kernel="two_locals", lds_dynamic=512)
    setup.add_buffer("o", np.zeros(64, np.float32))
    setup.args = {"o": "o", "a": 0, "b": 256}
    sim = gcnemu.Simulation(gcnemu.resolve(gcnemu.parse_file(path), "gfx90a"), setup).run()
    assert sim.error is None
    lane = np.arange(64, dtype=np.float32)
    np.testing.assert_array_equal(sim.buffer("o", np.float32), (np.arange(64) ^ 1) + 2 * lane)
