"""Compiled kernels launch from their own description, over whole grids, and match numpy.

clang-22 compiles tests/compiled/launch.cl (two OpenCL kernels, for gfx908/gfx90a/gfx942/gfx950) and llc-22 tests/compiled/preload.ll
(arguments preloaded into SGPRs on gfx942); gcnemu runs the compiler's output as written, with
nothing worked out by hand: the `.amdhsa_kernel` block says which SGPRs hold what, the
`.amdgpu_metadata` says where each argument goes, the hidden arguments and the dispatch packet
carry the grid and workgroup sizes, as the ROCm runtime fills them.

- `from_hidden` reads blockDim (hidden_group_size_x/y) and gridDim (hidden_block_count_x/y)
  from the hidden kernel arguments, as HIP does under code object v5+;
- `from_dispatch` reads the workgroup and grid sizes from the HSA dispatch packet behind the
  dispatch pointer (`__builtin_amdgcn_dispatch_ptr()`);
- `scale` gets its arguments in SGPRs without loading them (kernarg preload).

Skipped where clang-22/llc-22 are not installed (.ci/run installs them).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.diagnostics import GcnemuError

HERE = Path(__file__).resolve().parent
CL = HERE / "compiled" / "launch.cl"
LL = HERE / "compiled" / "preload.ll"
CLANG = shutil.which("clang-22") or "/usr/lib/llvm-22/bin/clang"
LLC = shutil.which("llc-22") or "/usr/lib/llvm-22/bin/llc"
LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
TARGETS = ["gfx908", "gfx90a", "gfx942", "gfx950"]

pytestmark = pytest.mark.skipif(not (Path(CLANG).exists() and Path(LLC).exists()), reason="needs clang-22 and llc-22")

# a 3 x 2 grid of 16 x 4 workgroups: 48 x 8 work-items
GRID, WG = (3, 2), (16, 4)


def compile_cl(out: Path, target: str, cov: int | None = None, arg_info: bool = True) -> Path:
    cmd = [CLANG, "-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", f"-mcpu={target}", "-nogpulib",
           "-O2", "-S", str(CL), "-o", str(out)]
    if arg_info:  # argument names in the metadata (OpenCL keeps them with -cl-kernel-arg-info)
        cmd.insert(3, "-cl-kernel-arg-info")
    if cov:
        cmd.insert(3, f"-mcode-object-version={cov}")
    subprocess.run(cmd, check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("launch")
    return {t: compile_cl(d / f"launch_{t}.s", t) for t in TARGETS}


def gcnemu_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *args], capture_output=True, text=True, timeout=300)


def grid_args(*more: str) -> list[str]:
    return ["--workgroup", f"{WG[0]}x{WG[1]}", "--grid", f"{GRID[0]},{GRID[1]}", "--jobs", "1", *more]


def expected_from_hidden(n: int, scale: float) -> np.ndarray:
    gx, gy = GRID
    bx, by = WG
    out = np.full(GRID[0] * WG[0] * GRID[1] * WG[1], -1.0, np.float32)
    i = np.arange(n)
    out[:n] = np.float32(i) * np.float32(scale) + np.float32(bx * 1000 + by * 100 + gx * 10 + gy)
    return out


# ---------------------------------------------------------------- the two ways to read the grid


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("engine", ["timed", "functional"])
def test_a_kernel_reading_block_and_grid_dims_from_hidden_arguments_matches_numpy(compiled, tmp_path, target, engine):
    n = 300  # of 384 work-items: the kernel's `if (i < n)` leaves the rest alone
    out_json = tmp_path / "out.json"
    r = gcnemu_cli("run", str(compiled[target]), *grid_args(), "--buffer", "out=f32[384]:-1",
                   "--buffer", "in=f32[384]:arange(384)", "--arg", "out=out", "--arg", "in=in",
                   "--arg", "scale=0.5", "--arg", f"n={n}", "--format", "json",
                   *(["--functional"] if engine == "functional" else []))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["kernel"] == "from_hidden"  # the first kernel of the file, named in the output
    assert not [d for d in out["diagnostics"] if d["severity"] == "error"]
    # the combined global memory is not in the JSON: run the same launch through the Python API
    from gcnemu.commands.run import CliSource
    from gcnemu.grid import GridJob, run_functional, run_grid
    from gcnemu.snippets.runner import load_snippet
    cli = CliSource()
    extra = [cli.directive("--workgroup", f"{WG[0]}x{WG[1]}", "workgroup", ":"),
             cli.directive("--buffer", "out=f32[384]:-1", "buffer", " "),
             cli.directive("--buffer", "in=f32[384]:arange(384)", "buffer", " "),
             cli.directive("--arg", f"out=out, in=in, scale=0.5, n={n}", "arg", ":")]
    snippet = load_snippet(str(compiled[target]), None, extra)
    job = GridJob(str(compiled[target]), None, tuple(extra))
    if engine == "functional":
        sim, _ = run_functional(snippet, snippet.kernel(), GRID + (1,), job)
    else:
        sim, _ = run_grid(snippet, snippet.kernel(), GRID + (1,), job, jobs=1)
    assert sim.error is None
    np.testing.assert_array_equal(sim.buffer("out", np.float32), expected_from_hidden(n, 0.5))
    out_json.write_text(r.stdout)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("cov", [None, 4])
def test_a_kernel_reading_the_dispatch_packet_matches_numpy(tmp_path, target, cov):
    """Code object v4 and the default (v6): the packet is the same whichever metadata the file has."""
    path = compile_cl(tmp_path / "k.s", target, cov)
    from gcnemu.commands.run import CliSource
    from gcnemu.grid import GridJob, run_grid
    from gcnemu.snippets.runner import load_snippet
    cli = CliSource()
    extra = [cli.directive("--kernel", "from_dispatch", "kernel", ":"),
             cli.directive("--workgroup", f"{WG[0]}x{WG[1]}", "workgroup", ":"),
             cli.directive("--buffer", "out=u32[16,48]:7", "buffer", " "), cli.directive("--arg", "out=out", "arg", ":")]
    snippet = load_snippet(str(path), None, extra)
    sim, run = run_grid(snippet, snippet.kernel(), GRID + (1,), GridJob(str(path), None, tuple(extra)), jobs=1)
    assert sim.error is None and not any(r.error for r in run.results)
    gx, gy = GRID[0] * WG[0], GRID[1] * WG[1]  # grid_size_x/y in work-items: 48 x 8
    want = np.full(16 * 48, 7, np.uint32)
    want[:gx * gy] = (WG[0] << 24) | (WG[1] << 16) | (gx << 8) | gy
    np.testing.assert_array_equal(sim.buffer("out", np.uint32), want)


def test_the_dispatch_packet_has_the_hsa_layout(compiled):
    prog = gcnemu.parse_file(str(compiled["gfx90a"]))
    setup = gcnemu.Setup(workgroup_size=(16, 4, 1), grid=(3, 2, 1), kernel="from_dispatch")
    setup.add_buffer("out", np.zeros(4, np.uint32))
    setup.args = {"out": "out"}
    sim = gcnemu.Simulation(gcnemu.resolve(prog, "gfx90a"), setup)
    w = sim.wave(0)
    # .amdhsa_user_sgpr_private_segment_buffer s[0:3], then the dispatch pointer s[4:5], kernarg s[6:7]
    ptr = int(w.sgpr[4]) | int(w.sgpr[5]) << 32
    packet = next(b for b in sim.memory.buffers if b.base == ptr).data
    u16 = packet[:12].view(np.uint16)
    u32 = packet[12:32].view(np.uint32)
    assert u16[0] & 0xFF == 2  # HSA_PACKET_TYPE_KERNEL_DISPATCH
    assert list(u16[1:5]) == [2, 16, 4, 1]  # setup (dimensions), workgroup_size_x/y/z
    assert list(u32[:3]) == [48, 8, 1]  # grid_size_x/y/z in work-items
    kernarg = int(packet[40:48].view(np.uint64)[0])
    assert kernarg == int(w.sgpr[6]) | int(w.sgpr[7]) << 32
    assert list(w.sgpr[8:10]) == [0, 0]  # workgroup id x, y follow the user SGPRs


EVERY_SGPR = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx908"
\t.text
\t.globl abi
\t.p2align 8
\t.type abi,@function
abi:
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel abi
\t\t.amdhsa_private_segment_fixed_size 16
\t\t.amdhsa_user_sgpr_private_segment_buffer 1
\t\t.amdhsa_user_sgpr_dispatch_ptr 1
\t\t.amdhsa_user_sgpr_queue_ptr 1
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_user_sgpr_dispatch_id 1
\t\t.amdhsa_user_sgpr_flat_scratch_init 1
\t\t.amdhsa_user_sgpr_private_segment_size 1
\t\t.amdhsa_system_sgpr_private_segment_wavefront_offset 1
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t\t.amdhsa_system_sgpr_workgroup_id_y 1
\t\t.amdhsa_system_sgpr_workgroup_id_z 1
\t\t.amdhsa_system_sgpr_workgroup_info 1
\t\t.amdhsa_system_vgpr_workitem_id 2
\t\t.amdhsa_next_free_vgpr 3
\t\t.amdhsa_next_free_sgpr 20
\t.end_amdhsa_kernel
"""


def test_every_user_and_system_sgpr_in_abi_order():
    """All seven user SGPR kinds (15 SGPRs), then workgroup id x/y/z, workgroup info and the
    private segment wave offset; workitem ids in v0/v1/v2 on gfx908 (llvm-mc assembles this)."""
    prog = gcnemu.parse(EVERY_SGPR, "abi.s")
    setup = gcnemu.Setup(workgroup_size=(8, 4, 4), grid=(2, 3, 4), workgroup_id=(1, 2, 3))  # 128 work-items: 2 waves
    sim = gcnemu.Simulation(gcnemu.resolve(prog, "gfx908"), setup)
    mem = {b.name: b for b in sim.memory.buffers}
    for wi in range(2):
        w = sim.wave(wi)
        s = [int(x) for x in w.sgpr[:20]]
        scratch, first = w.scratch_base, sim.wave(0).scratch_base
        # a swizzled V# (ADD_TID) over the workgroup's scratch, as the runtime builds it: wave 0's base
        assert s[0] == first & 0xFFFFFFFF and s[1] >> 31 == 1 and s[2] == 0xFFFFFFFF
        assert s[4] | s[5] << 32 == mem["__dispatch"].base
        assert s[6] | s[7] << 32 == mem["__queue"].base
        assert s[8] | s[9] << 32 == mem["__kernarg"].base
        assert s[10:12] == [0, 0]  # dispatch id
        assert s[12] | s[13] << 32 == first  # flat scratch init: the base; the prologue adds the wave offset
        assert s[14] == 16  # private segment size
        assert s[15:18] == [1, 2, 3]  # workgroup id x, y, z
        assert s[18] == ((1 << 31) if wi == 0 else 0) | 2  # workgroup info: first wave, 2 waves
        assert s[19] == scratch - first  # private segment wave offset: from the base to this wave's scratch
        assert (s[19] > 0) == (wi > 0)
        tid = 64 * wi + np.arange(64)
        assert list(w.vgpr[0]) == list(tid % 8) and list(w.vgpr[1]) == list(tid // 8 % 4)
        assert list(w.vgpr[2]) == list(tid // 32)
    assert np.all(mem["__queue"].data == 0)


# ---------------------------------------------------------------- several kernels in one file


def test_kernel_chooses_one_of_several_and_the_output_names_it(compiled):
    path = str(compiled["gfx90a"])
    first = gcnemu_cli("run", path, "--buffer", "o=u32[64]", "--arg", "out=o", "--arg", "in=o", "--arg", "scale=1.0",
                       "--arg", "n=1")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0] == "kernel from_hidden"
    other = gcnemu_cli("run", path, "--kernel", "from_dispatch", "--buffer", "o=u32[64]", "--arg", "out=o")
    assert other.returncode == 0, other.stderr
    assert other.stdout.splitlines()[0] == "kernel from_dispatch"


def test_the_header_kernel_statement_and_gcnemu_test(compiled, tmp_path):
    body = compiled["gfx90a"].read_text()
    snippet = tmp_path / "pick.s"
    snippet.write_text("// gcnemu:\n//   kernel: from_dispatch\n//   workgroup: 16x4\n//   grid: 3, 2\n"
                       "//   buffer out: u32[8, 48] = 0\n//   arg: out=out\n"
                       f"//   expect out[0, 0] = {(16 << 24) | (4 << 16) | (48 << 8) | 8}\n"
                       f"//   expect out[7, 47] = {(16 << 24) | (4 << 16) | (48 << 8) | 8}\n" + body)
    r = gcnemu_cli("test", str(snippet))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS" in r.stdout
    # --kernel on the command line wins over the header, as every setup option does
    wrong = gcnemu_cli("test", str(snippet), "--kernel", "from_hidden")
    assert wrong.returncode == 1
    assert "kernel 'from_hidden' needs its argument 'in'" in wrong.stdout + wrong.stderr


def test_the_debugger_launches_the_chosen_kernel(compiled, tmp_path):
    path = compiled["gfx90a"]
    cmds = tmp_path / "cmds"
    cmds.write_text("print s[4:5]\ncontinue\n")
    r = gcnemu_cli("step", str(path), "--kernel", "from_dispatch", "--buffer", "o=u32[64]", "--arg", "out=o",
                   "--batch", str(cmds))
    assert r.returncode == 0, r.stdout + r.stderr
    entry = path.read_text().splitlines().index("from_dispatch:                          ; @from_dispatch") + 3
    assert f"=>  {entry}  s_load_dword" in r.stdout  # stopped at the chosen kernel's first instruction
    ptr = next(ln for ln in r.stdout.splitlines() if ln.startswith("s[4:5] = "))
    assert "(64-bit 0x0000000000000000)" not in ptr  # the dispatch pointer is set
    assert "The program finished" in r.stdout


# ---------------------------------------------------------------- kernarg preload (gfx942)


@pytest.fixture(scope="module")
def preload(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("preload") / "preload.s"
    subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-O2", str(LL), "-o", str(out)], check=True,
                   capture_output=True)
    return out


def test_preloaded_arguments_are_in_sgprs_and_the_compatibility_loads_are_skipped(preload):
    text = preload.read_text()
    assert ".amdhsa_user_sgpr_kernarg_preload_length 5" in text  # out, in (2 dwords each), k
    prog = gcnemu.parse_file(str(preload))
    kernel = gcnemu.resolve(prog, "gfx942")
    setup = gcnemu.Setup(workgroup_size=(64, 1, 1))
    setup.add_buffer("in", np.arange(64, dtype=np.int32)).add_buffer("out", np.zeros(64, np.int32))
    setup.args = {"out": "out", "in": "in", "k": -3}
    sim = gcnemu.Simulation(kernel, setup).run()
    assert sim.error is None
    np.testing.assert_array_equal(sim.buffer("out", np.int32), -3 * np.arange(64))
    # the run started past the 256-byte block of s_load / s_branch that only older firmware runs:
    # straight-line code from the label after the `.p2align 8` to s_endpgm, and nothing before it
    skipped = [i.mnemonic for i in kernel.instructions[kernel.labels["scale"]:kernel.labels[".LBB0_0"]]]
    assert skipped[-1] == "s_branch" and "s_load_dwordx4" in skipped
    assert sim.instructions_executed == len(kernel.instructions) - kernel.labels[".LBB0_0"]
    w = sim.wave(0)
    # dispatch ptr s[0:1], queue ptr s[2:3], kernarg ptr s[4:5], dispatch id s[6:7], then 5 preloaded dwords
    assert int(w.sgpr[8]) | int(w.sgpr[9]) << 32 == sim.buffer_address("out")
    assert int(w.sgpr[10]) | int(w.sgpr[11]) << 32 == sim.buffer_address("in")
    assert np.int32(np.uint32(w.sgpr[12])) == -3


def test_only_targets_with_kernarg_preload_preload(preload):
    """The preloaded dwords follow the user SGPRs (8 of them here) on gfx942; a target without
    the feature gets no preload, and then starts at the kernel's label and loads the arguments."""
    from gcnemu.launch import abi_layout
    from gcnemu.asm.kernels import describe
    desc = describe(gcnemu.parse_file(str(preload)))[0]
    assert abi_layout(desc, "gfx942").preload == (8, 0, 5)
    assert abi_layout(desc, "gfx90a").preload is None


# ---------------------------------------------------------------- bad input


def broken(compiled, tmp_path, old: str, new: str) -> Path:
    text = compiled["gfx90a"].read_text()
    assert old in text
    p = tmp_path / "k.s"
    p.write_text(text.replace(old, new, 1))
    return p


def test_malformed_metadata_is_an_error_at_its_line(compiled, tmp_path):
    p = broken(compiled, tmp_path, "        .value_kind:     by_value", "        .value_kind:     [by_value")
    line = p.read_text().splitlines().index("        .value_kind:     [by_value") + 1
    r = gcnemu_cli("run", str(p))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{p}:") and "invalid .amdgpu_metadata: malformed YAML" in first
    assert int(first.split(":")[1]) in (line, line + 1)  # PyYAML marks where it noticed


@pytest.mark.parametrize("old, new, why", [
    ("        .value_kind:     by_value", "        .value_kind:     [by_value", "malformed YAML"),
    ("        .value_kind:     by_value", "        .value_kind:     by_valu", "did you mean 'by_value'?"),
    ("    .kernarg_segment_size: 280", "    .kernarg_segment_size: many", "'.kernarg_segment_size' of kernel"),
])
def test_check_gives_llvm_mcs_verdict_on_the_metadata(compiled, tmp_path, old, new, why):
    """llvm-mc verifies the metadata at .end_amdgpu_metadata ("invalid HSA metadata"); check says
    the same there, with a note at the line that made it invalid."""
    p = broken(compiled, tmp_path, old, new)
    r = gcnemu_cli("check", str(p))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    out = r.stdout + r.stderr
    if Path(LLVM_MC).exists():
        mc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-filetype=obj", "-o", "/dev/null",
                             str(p)], capture_output=True, text=True)
        assert mc.returncode == 1
        where = next(ln for ln in mc.stderr.splitlines() if "invalid HSA metadata" in ln).split(": error")[0]
        assert f"{where}: error: invalid HSA metadata" in out  # the same line and column
    assert why in out
    run = gcnemu_cli("run", str(p))  # and the launch refuses it, at the line the note names
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert why in run.stderr


def test_yaml_1_1_booleans_stay_names(compiled, tmp_path):
    """An argument named `on` (YAML 1.1 reads it as true; LLVM's reader keeps the name)."""
    p = broken(compiled, tmp_path, "      - .name:           n\n", "      - .name:           on\n")
    assert gcnemu_cli("check", str(p)).returncode == 0
    r = gcnemu_cli("run", str(p), "--buffer", "o=f32[64]:-1", "--arg", "out=o", "--arg", "in=o", "--arg", "scale=1.0",
                   "--arg", "on=3", "--print", "exec")
    assert r.returncode == 0, r.stderr


def test_a_missing_argument_names_it_and_the_kernel(compiled):
    r = gcnemu_cli("run", str(compiled["gfx90a"]), "--buffer", "o=f32[64]", "--arg", "out=o", "--arg", "in=o")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "kernel 'from_hidden' needs its argument 'scale' (by_value, 4 bytes at offset 16) (and 1 more)" in r.stderr
    assert "--arg scale=VALUE" in r.stderr


def test_an_unknown_argument_lists_the_known_ones(compiled):
    r = gcnemu_cli("run", str(compiled["gfx90a"]), "--buffer", "o=f32[64]", "--arg", "out=o", "--arg", "in=o",
                   "--arg", "scale=1.0", "--arg", "n=1", "--arg", "m=2")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "kernel 'from_hidden' has no argument named 'm'; its arguments: out, in, scale, n; hidden: " \
           "hidden_block_count_x" in r.stderr
    assert "--arg m=2" in r.stderr  # the option, with a caret under the name


def test_a_hidden_argument_can_be_overridden_by_name(compiled):
    """hidden_group_size_x=8: the kernel then believes its workgroup is 8 wide (it is 16)."""
    prog = gcnemu.parse_file(str(compiled["gfx90a"]))
    setup = gcnemu.Setup(workgroup_size=(16, 1, 1))
    setup.add_buffer("o", np.full(64, -1, np.float32)).add_buffer("i", np.zeros(64, np.float32))
    setup.args = {"out": "o", "in": "i", "scale": 1.0, "n": 64, "hidden_group_size_x": 8}
    sim = gcnemu.Simulation(gcnemu.resolve(prog, "gfx90a"), setup).run()
    assert sim.error is None
    assert sim.buffer("o", np.float32)[0] == 8 * 1000 + 1 * 100 + 1 * 10 + 1


@pytest.mark.parametrize("value, message", [
    ("n=99999999999", "does not fit the 4-byte argument 'n'"),
    ("n=o", "argument 'n' is 4 bytes (by_value); a buffer address is 8"),
    ("n=q", "unknown name 'q' (known here: o)"),
])
def test_a_value_that_does_not_fit_its_argument(compiled, value, message):
    r = gcnemu_cli("run", str(compiled["gfx90a"]), "--buffer", "o=f32[64]", "--arg", "out=o", "--arg", "in=o",
                   "--arg", "scale=1.0", "--arg", value)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert message in r.stderr
    assert f"--arg {value}" in r.stderr  # at the option that gave it


def test_an_unknown_kernel_lists_the_kernels(compiled):
    r = gcnemu_cli("run", str(compiled["gfx90a"]), "--kernel", "nope")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "no kernel named 'nope' in the file; its kernels: from_hidden, from_dispatch" in r.stderr
    assert "--kernel nope" in r.stderr


def test_a_workgroup_larger_than_the_kernel_allows(compiled):
    r = gcnemu_cli("run", str(compiled["gfx90a"]), "--workgroup", "512", "--kernel", "from_dispatch",
                   "--buffer", "o=u32[64]", "--arg", "out=o")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "a workgroup of 512 work-items is larger than kernel 'from_dispatch' allows " \
           "(.max_flat_workgroup_size 256)" in r.stderr


def test_code_using_sgprs_beyond_the_descriptor_is_an_error_at_that_line_when_launched(compiled, tmp_path):
    text = compiled["gfx90a"].read_text()
    start = text.index(".amdhsa_kernel from_hidden")
    old = text[start:text.index(".end_amdhsa_kernel", start)]
    cut = old.replace(".amdhsa_next_free_sgpr 11", ".amdhsa_next_free_sgpr 8")
    assert cut != old
    p = tmp_path / "k.s"
    p.write_text(text.replace(old, cut))
    lines = p.read_text().splitlines()
    first_use = next(i for i, ln in enumerate(lines) if "s_load_dword s10" in ln) + 1
    r = gcnemu_cli("run", str(p), "--buffer", "o=f32[64]", "--arg", "out=o", "--arg", "in=o", "--arg", "scale=1.0",
                   "--arg", "n=1")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{p}:{first_use}:")
    assert "s10 is beyond the SGPRs kernel 'from_hidden' allocates (.amdhsa_next_free_sgpr 8)" in r.stderr
    # llvm-mc assembles such a file, so `check` accepts it as llvm-mc does
    if Path(LLVM_MC).exists():
        mc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-filetype=obj", "-o", "/dev/null",
                             str(p)], capture_output=True, text=True)
        assert mc.returncode == 0, mc.stderr
    check = gcnemu_cli("check", str(p))
    assert check.returncode == 0
    assert f"{p}:{first_use}:" in check.stdout + check.stderr  # only a warning there
    assert "warning: s10 is beyond the SGPRs kernel 'from_hidden' allocates" in check.stdout + check.stderr


UNIFIED = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
\t.text
\t.globl u
\t.p2align 8
\t.type u,@function
u:
\tv_mov_b32 v9, 1.0
\t{agpr}
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel u
\t\t.amdhsa_next_free_vgpr 12
\t\t.amdhsa_next_free_sgpr 0
\t\t.amdhsa_accum_offset 8
\t.end_amdhsa_kernel
"""


def test_vgprs_past_accum_offset_clash_only_with_the_agprs_the_kernel_uses(tmp_path):
    """gfx90a's unified file: with accum_offset 8, a1 is register 9. MIOpen's kernels keep VGPR
    accumulators past accum_offset when they use no AGPRs, which is fine; v9 and a1 together are not."""
    fine = tmp_path / "fine.s"
    fine.write_text(UNIFIED.format(agpr="v_accvgpr_write_b32 a0, v9"))  # a0 is register 8: no clash
    r = gcnemu_cli("run", str(fine))
    assert r.returncode == 0, r.stderr
    clash = tmp_path / "clash.s"
    clash.write_text(UNIFIED.format(agpr="v_accvgpr_write_b32 a1, 0"))
    r = gcnemu_cli("run", str(clash))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{clash}:7:")
    assert "v9 is the same register as a1 of kernel 'u': from .amdhsa_accum_offset 8 on" in r.stderr


LDS_KERNEL = """\
// gcnemu:
//   arch: gfx90a
//   workgroup: 64
{header}
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
\t.text
\t.globl lds_k
\t.p2align 8
\t.type lds_k,@function
lds_k:
\tv_lshlrev_b32 v1, 2, v0
\tv_add_u32 v1, {offset}, v1
\tds_write_b32 v1, v0
\ts_waitcnt lgkmcnt(0)
\ts_endpgm
\t.rodata
\t.p2align 6
\t.amdhsa_kernel lds_k
\t\t.amdhsa_group_segment_fixed_size 256
\t\t.amdhsa_next_free_vgpr 2
\t\t.amdhsa_next_free_sgpr 0
\t\t.amdhsa_accum_offset 4
\t.end_amdhsa_kernel
"""


@pytest.mark.parametrize("offset, ok", [(0, True), (64, False)])
def test_an_lds_access_beyond_the_group_segment_is_an_error_at_its_line(tmp_path, offset, ok):
    """64 lanes x 4 bytes fill the 256 bytes exactly; 64 bytes further, lanes 48..63 are past them."""
    p = tmp_path / "lds.s"
    p.write_text(LDS_KERNEL.format(header="", offset=offset))
    r = gcnemu_cli("run", str(p))
    assert "Traceback" not in r.stderr
    if ok:
        assert r.returncode == 0, r.stderr
        return
    assert r.returncode == 1
    line = p.read_text().splitlines().index("\tds_write_b32 v1, v0") + 1
    assert r.stderr.startswith(f"{p}:{line}:")
    assert "is beyond the 256 bytes of LDS the kernel allocates (.amdhsa_group_segment_fixed_size " in r.stderr
    assert "lanes 48, 49" in r.stderr


def test_files_without_metadata_keep_positional_arguments():
    """programs/vector_add.s has no metadata: `arg: A, B, C` still lays out three pointers in order."""
    root = HERE.parent
    r = gcnemu_cli("test", str(root / "programs" / "vector_add.s"))
    assert r.returncode == 0, r.stdout + r.stderr
    prog = gcnemu.parse_file(str(root / "programs" / "vector_add.s"))
    setup = gcnemu.Setup(workgroup_size=(64, 1, 1))
    for name in "ABC":
        setup.add_buffer(name, np.arange(64, dtype=np.float32))
    setup.args = [("x", "A"), ("y", "B"), ("z", "C")]  # any names: only the order counts
    sim = gcnemu.Simulation(gcnemu.resolve(prog, "gfx90a"), setup).run()
    assert sim.error is None
    np.testing.assert_array_equal(sim.buffer("C", np.float32), 2 * np.arange(64))


def test_an_unknown_kernel_from_python_is_a_clear_error(compiled):
    prog = gcnemu.parse_file(str(compiled["gfx90a"]))
    with pytest.raises(GcnemuError, match="its kernels: from_hidden, from_dispatch"):
        gcnemu.Simulation(gcnemu.resolve(prog, "gfx90a"), gcnemu.Setup(kernel="nope"))
