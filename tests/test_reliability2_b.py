"""Issue 25, second reliability campaign (items 2, 3, 4, 8, 9, 10).

Each test rebuilds the issue's reproduction and asserts what a user would see: an llvm-mc style
error where llvm-mc gives one (compared with llvm-mc-22 itself when it is installed), a lint
finding where the run finds a hazard, bytes where llvm-mc lays them out, memory that stays
within its budget.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gcnemu.cli import main

LLVM_MC = shutil.which("llvm-mc-22") or "/usr/lib/llvm-22/bin/llvm-mc"
HAVE_LLVM_MC = Path(LLVM_MC).exists()


def gcnemu(capsys, *argv) -> tuple[int, str, str]:
    """Run the command line in-process: (exit status, stdout, stderr), never a traceback."""
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err, out + err
    return rc, out, err


def llvm_mc(path: Path, target: str = "gfx90a") -> subprocess.CompletedProcess:
    return subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj", str(path),
                           "-o", "/dev/null"], capture_output=True, text=True)


# ---------------------------------------------------------------- item 8: kernarg sizes


def kernel_with_metadata(kernarg_size: int = 8, segment_size: int = 8, offset: int = 0) -> str:
    """A one-argument kernel (`x`, 4 bytes) whose three kernarg sizes are given."""
    return f""".amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dword s2, s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, s2
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 2
  .amdhsa_next_free_sgpr 4
  .amdhsa_accum_offset 4
  .amdhsa_kernarg_size {kernarg_size}
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: {segment_size}
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 4
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .args:
      - .name: x
        .offset: {offset}
        .size: 4
        .value_kind: by_value
...
.end_amdgpu_metadata
"""


@pytest.mark.parametrize("value", ["9999999999", "4294967296", "-1", "1<<32"])
def test_item08_kernarg_offset_bounded_check_matches_llvm_mc(tmp_path, capsys, value):
    """`.amdhsa_kernarg_size` fills a 32-bit descriptor field: check refuses what llvm-mc refuses,
    at the same line and column, with the same words, and the block's end is then unknown."""
    path = tmp_path / "k.s"
    path.write_text(kernel_with_metadata().replace(".amdhsa_kernarg_size 8", f".amdhsa_kernarg_size {value}"))
    rc, out, err = gcnemu(capsys, "check", path)
    assert rc == 1
    text = out + err
    assert f"{path}:18:24: error: value out of range" in text
    assert f"  .amdhsa_kernarg_size {value}\n                       ^{'~' * (len(value) - 1)}\n" in text
    assert f"{path}:19:1: error: unknown directive" in text
    if HAVE_LLVM_MC:
        mc = llvm_mc(path)
        assert mc.returncode != 0
        assert f"{path}:18:24: error: value out of range" in mc.stderr


def test_item08_kernarg_offset_bounded_check_keeps_largest_32bit(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(kernel_with_metadata(kernarg_size=0xFFFFFFFF))
    rc, out, err = gcnemu(capsys, "check", path)
    assert rc == 0, out + err
    if HAVE_LLVM_MC:
        assert llvm_mc(path).returncode == 0


@pytest.mark.parametrize("sizes, culprit", [
    (dict(offset=9999999999), "argument 0 ('.offset' 9999999999, '.size' 4)"),
    (dict(segment_size=9999999999), ".kernarg_segment_size"),
    (dict(segment_size=64 << 20), ".kernarg_segment_size"),
])
def test_item08_kernarg_offset_bounded(tmp_path, capsys, sizes, culprit):
    """A metadata offset or segment size that llvm-mc lets through (it is YAML) is refused at
    launch, naming the field, before the segment is allocated: no 19.5 GB blow-up."""
    path = tmp_path / "k.s"
    path.write_text(kernel_with_metadata(**sizes))
    rc, out, err = gcnemu(capsys, "run", path, "--arg", "x=5")
    assert rc == 1
    first = (out + err).strip().splitlines()[0]
    assert first.startswith(f"{path}:24:1: error: kernel 'k': {culprit} makes the kernarg segment")
    assert "bytes" in first


def test_item08_kernarg_of_a_real_size_still_runs(tmp_path, capsys):
    """A 4 KiB segment with its argument in the last dword is within the bound and is read."""
    import json
    path = tmp_path / "k.s"
    path.write_text(kernel_with_metadata(segment_size=4096, offset=4092).replace("s[0:1], 0x0\n", "s[0:1], 0xffc\n"))
    rc, out, err = gcnemu(capsys, "run", path, "--arg", "x=7", "--print", "v1", "--format", "json")
    assert rc == 0, out + err
    assert json.loads(out)["waves"][0]["registers"]["v1"] == [7] * 64


# ---------------------------------------------------------------- item 4: .incbin


INCBIN_KERNEL = """.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
k:
  s_getpc_b64 s[0:1]
  s_branch after
  .incbin "blob.bin", 2, 8
  .p2align 2
after:
  s_getpc_b64 s[2:3]
  s_sub_u32 s4, s2, s0
  s_getpc_b64 s[6:7]
  s_add_u32 s6, s6, table@rel32@lo+4
  s_addc_u32 s7, s7, table@rel32@hi+12
  s_load_dword s8, s[6:7], 0x8
  s_load_dword s9, s[6:7], 0x1c
  s_load_dword s10, s[6:7], 0x20
  s_waitcnt lgkmcnt(0)
  s_endpgm
.rodata
table:
  .incbin "tab.bin"
  .byte 7, 8, 9, 10
"""


@pytest.fixture
def incbin_files(tmp_path):
    (tmp_path / "blob.bin").write_bytes(b"ABCDEFGHIJ")
    (tmp_path / "tab.bin").write_bytes(b"".join((100 + i).to_bytes(4, "little") for i in range(8)))
    path = tmp_path / "k.s"
    path.write_text(INCBIN_KERNEL)
    return path


def test_item04_incbin_bytes_laid_out(incbin_files, capsys):
    """`.incbin "blob.bin", 2, 8` puts 8 bytes in the code: the next instruction is at byte 16
    (4 + 4 + 8), so two s_getpc_b64 16 bytes apart; the .rodata table made of an
    .incbin is loaded, and its dwords are the file's (100, 101, ...) followed by the `.byte`s."""
    import json
    rc, out, err = gcnemu(capsys, "run", incbin_files, "--print", "s4", "s8", "s9", "s10", "--format", "json")
    assert rc == 0, out + err
    regs = json.loads(out)["waves"][0]["registers"]
    assert (regs["s4"], regs["s8"], regs["s9"], regs["s10"]) == (16, 102, 107, 0x0A090807)


@pytest.mark.skipif(not HAVE_LLVM_MC, reason="needs llvm-mc-22")
def test_item04_incbin_layout_matches_llvm_mc(incbin_files):
    """The same offsets and bytes as llvm-mc's object: `after` and the .rodata section."""
    from gcnemu.asm.image import CODE_BASE, layout
    from gcnemu.asm.parse import parse
    obj = incbin_files.with_suffix(".o")
    # (8 bytes, not an odd count: llvm-mc 22 never returns when a .p2align pads code by 1-3 bytes)
    subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-filetype=obj", incbin_files.name,
                    "-o", obj.name], cwd=incbin_files.parent, check=True, capture_output=True, timeout=60)
    readelf = shutil.which("llvm-readelf-22") or "/usr/lib/llvm-22/bin/llvm-readelf"
    symbols = subprocess.run([readelf, "-s", obj], capture_output=True, text=True, check=True).stdout
    mc_after = next(int(line.split()[1], 16) for line in symbols.splitlines() if line.split()[-1:] == ["after"])
    sections = subprocess.run([readelf, "-S", "-W", obj], capture_output=True, text=True, check=True).stdout
    rodata = next(line for line in sections.splitlines() if " .rodata " in line).split()
    offset, size = int(rodata[rodata.index("PROGBITS") + 2], 16), int(rodata[rodata.index("PROGBITS") + 3], 16)
    mc_rodata = obj.read_bytes()[offset:offset + size]
    program = parse(incbin_files.read_text(), str(incbin_files))
    image = layout(program, "gfx90a")
    assert image.labels["after"] - CODE_BASE == mc_after
    assert [data for name, _base, data in image.data if name == ".rodata"] == [mc_rodata]


def test_item04_incbin_of_missing_file_is_an_error(tmp_path, capsys):
    """check refuses an .incbin of a file that is not there, in llvm-mc's words and place."""
    path = tmp_path / "k.s"
    path.write_text('.text\nk:\n  .incbin "nope.bin", 2, 4\n  s_endpgm\n')
    rc, out, err = gcnemu(capsys, "check", path, "--arch", "gfx90a")
    assert rc == 1
    assert f"{path}:3:11: error: Could not find incbin file 'nope.bin'" in out + err
    if HAVE_LLVM_MC:
        mc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", path.name, "-o", "/dev/null"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert f"{path.name}:3:11: error: Could not find incbin file 'nope.bin'" in mc.stderr


@pytest.mark.parametrize("args, message, column", [
    ('"blob.bin", -1', "error: skip is negative", 23),
    ("blob.bin", "error: expected string in '.incbin' directive", 11),
    ('"blob.bin", x', "error: expected absolute expression", 23),
])
def test_item04_incbin_bad_arguments_as_llvm_mc(tmp_path, capsys, args, message, column):
    (tmp_path / "blob.bin").write_bytes(b"ABCDEFGHIJ")
    path = tmp_path / "k.s"
    path.write_text(f".text\nk:\n  .incbin {args}\n  s_endpgm\n")
    rc, out, err = gcnemu(capsys, "check", path, "--arch", "gfx90a")
    assert rc == 1
    assert f"{path}:3:{column}: {message}" in out + err
    if HAVE_LLVM_MC:
        mc = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", path.name, "-o", "/dev/null"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert f"{path.name}:3:{column}: {message}" in mc.stderr


# ---------------------------------------------------------------- item 2: returning buffer atomics


def atomic_kernel(target: str, policy: str) -> str:
    """A buffer_atomic_add whose pre-op value (5) comes back into v1, read on the next line."""
    return f"""; gcnemu:
;   arch: {target}
;   buffer A: u32[64] = 5
;   arg: A
  s_load_dwordx2 s[8:9], s[0:1], 0x0
  s_mov_b32 s10, 256
  s_mov_b32 s11, 0x00027000
  v_lshlrev_b32 v0, 2, v0
  v_mov_b32 v1, 1
  s_waitcnt lgkmcnt(0)
  buffer_atomic_add v1, v0, s[8:11], 0 offen {policy}
  v_mov_b32 v2, v1
  s_endpgm
"""


RETURNING = [("gfx908", "glc"), ("gfx90a", "glc"), ("gfx942", "sc0"), ("gfx950", "sc0")]


@pytest.mark.parametrize("target, policy", RETURNING)
def test_item02_buffer_atomic_return_tracked_by_lint(tmp_path, capsys, target, policy):
    """With glc (sc0 on gfx942/gfx950) the atomic writes vdata back like a load: lint reports
    the read of v1 on line 12 under vmcnt, --fix waits for it, and the fixed run reads 5."""
    import json
    path = tmp_path / "k.s"
    path.write_text(atomic_kernel(target, policy))
    rc, out, err = gcnemu(capsys, "lint", path, "--arch", target)
    assert rc == 1
    assert (f"{path}:12:17: warning: v_mov_b32 reads v1 before buffer_atomic_add (line 11) has returned it "
            f"[vmem-result-before-vmcnt]") in out + err
    fixed = tmp_path / "fixed.s"
    rc, out, err = gcnemu(capsys, "lint", path, "--arch", target, "--fix", "-o", fixed)
    assert rc == 0, out + err
    lines = fixed.read_text().splitlines()
    at = lines.index("  v_mov_b32 v2, v1")
    assert lines[at - 1].strip() == "s_waitcnt vmcnt(0)"
    rc, out, err = gcnemu(capsys, "run", fixed, "--print", "v2", "--format", "json")
    assert rc == 0, out + err
    result = json.loads(out)
    assert result["waves"][0]["registers"]["v2"] == [5] * 64
    assert not [d for d in result["diagnostics"] if d["severity"] == "warning"]


@pytest.mark.parametrize("target", ["gfx90a", "gfx942"])
def test_item02_buffer_atomic_without_return_is_no_load(tmp_path, capsys, target):
    """Without glc/sc0 nothing comes back: reading v1 afterwards is no hazard, lint stays quiet."""
    path = tmp_path / "k.s"
    path.write_text(atomic_kernel(target, ""))
    rc, out, err = gcnemu(capsys, "lint", path, "--arch", target)
    assert rc == 0, out + err


# ---------------------------------------------------------------- item 3: zero-trip loop, then ds_swizzle loop

# s2 is 0 at run time but unknown to lint: loop 1 (lines 11-16) may run zero times. Each trip
# of it issues a global load and waits for lgkm, so only the path that skips it still has the
# ds_read of line 8 outstanding, with no global load queued. Loop 2 issues ds_swizzle an unknown
# number of times; the MFMA on line 25 then overwrites v4 before the ds_read has returned.
ZERO_TRIP = """; gcnemu:
;   arch: gfx90a
  v_lshlrev_b32 v0, 2, v0
  v_mov_b32 v1, 0
  v_readfirstlane_b32 s2, v1
  v_mov_b32 v30, 0
  v_mov_b32 v31, 0
  ds_read_b32 v4, v0
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc1 skip
loop1:
  global_load_dword v20, v[30:31], off
  s_waitcnt lgkmcnt(0)
  s_sub_u32 s2, s2, 1
  s_cmp_lg_u32 s2, 0
  s_cbranch_scc1 loop1
skip:
  v_readfirstlane_b32 s3, v1
  s_add_u32 s3, s3, 2
loop2:
  ds_swizzle_b32 v12, v0 offset:swizzle(SWAP,1)
  s_sub_u32 s3, s3, 1
  s_cmp_lg_u32 s3, 0
  s_cbranch_scc1 loop2
  v_mfma_f32_4x4x1f32 v[4:7], v1, v2, v[8:11]
  s_waitcnt lgkmcnt(0) vmcnt(0)
  s_endpgm
"""


def test_item03_zero_trip_loop_then_swizzle_loop_mfma_overwrite(tmp_path, capsys):
    """The run sees the MFMA overwrite v4 under the outstanding ds_read; lint must too, with a
    wait that covers the short path (lgkmcnt(1): one ds_swizzle younger), and --fix removes it."""
    path = tmp_path / "k.s"
    path.write_text(ZERO_TRIP)
    rc, out, err = gcnemu(capsys, "run", path)
    assert f"{path}:25:23: warning:" in out + err and "[lgkm-dst-overwrite-before-lgkmcnt]" in out + err
    rc, out, err = gcnemu(capsys, "lint", path)
    assert rc == 1
    assert (f"{path}:25:23: warning: v_mfma_f32_4x4x1f32 overwrites v4, which ds_read_b32 (line 8) will still "
            f"write when it returns [lgkm-dst-overwrite-before-lgkmcnt]") in out + err
    assert "use s_waitcnt lgkmcnt(1) before line 25" in out + err
    fixed = tmp_path / "fixed.s"
    rc, out, err = gcnemu(capsys, "lint", path, "--fix", "-o", fixed)
    assert rc == 0, out + err
    rc, out, err = gcnemu(capsys, "run", fixed)
    assert "warning" not in out + err


# ---------------------------------------------------------------- item 9: debugger snapshots and scratch


def scratch_loop(per_lane: int, trips: int = 40) -> str:
    """A loop that stores one dword of scratch per lane per trip (the value 7, 8, 9, ...)."""
    return f"""; gcnemu:
;   arch: gfx90a
;   scratch: {per_lane}
  v_mov_b32 v1, 7
  v_lshlrev_b32 v2, 2, v0
  s_mov_b32 s2, {trips}
loop:
  scratch_store_dword v2, v1, off
  v_add_u32 v1, v1, 1
  s_sub_u32 s2, s2, 1
  s_cmp_lg_u32 s2, 0
  s_cbranch_scc1 loop
  s_waitcnt vmcnt(0)
  s_endpgm
"""


def test_item09_debugger_snapshots_share_scratch_within_budget(tmp_path):
    """4 MiB of scratch, a snapshot at every step: the snapshots stay within an 8 MiB budget
    (before: at least 34 full copies, 136 MiB), and going back still restores scratch exactly."""
    from gcnemu.debugger.launch import simulation_for_file
    from gcnemu.debugger.snapshots import TimeMachine
    path = tmp_path / "k.s"
    path.write_text(scratch_loop(64 << 10))
    sim = simulation_for_file(str(path), None, ())
    scratch = next(b for b in sim.engine.memory.buffers if b.name.startswith("__scratch"))
    assert len(scratch.data) == 4 << 20
    budget = 8 << 20
    tm = TimeMachine(sim, interval=1, budget_bytes=budget)
    import hashlib

    def digest() -> str:
        return hashlib.sha1(scratch.data.tobytes()).hexdigest()

    at: dict[int, str] = {}
    while not tm.ended:
        tm.step()
        assert tm.snapshot_bytes() <= budget
        if tm.tick in (100, 200):
            at[tm.tick] = digest()
    assert tm.tick > 200 and len(tm.snaps) > 2
    final = digest()
    tm.goto(100)
    assert digest() == at[100]
    while tm.tick < 200:
        tm.step()
    assert digest() == at[200] != at[100]
    while not tm.ended:
        tm.step()
    assert digest() == final


# ---------------------------------------------------------------- item 10: functional grid memory

GRID_KERNEL = """; gcnemu:
;   arch: gfx90a
;   workgroup: 256
  v_mov_b32 v1, s2
  v_add_u32 v2, v1, v0
  v_mfma_f32_4x4x1f32 a[0:3], v1, v2, 0
  s_nop 7
  v_accvgpr_read_b32 v3, a0
  s_endpgm
"""

# runs the command line in a child and reports the estimate the grid check made and the peak RSS
_MEASURE = """
import json, resource, sys

def peak_rss():
    # VmHWM: this process's own peak. (ru_maxrss survives execve on Linux, so a child of a large
    # pytest process would report the parent's size.)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

import gcnemu.grid as g
seen = []
check = g.check_functional_memory
def spy(*a, **k):
    seen.append(check(*a, **k))
    return seen[-1]
g.check_functional_memory = spy
from gcnemu.cli import main
try:
    rc = main(sys.argv[1:])
except SystemExit as e:
    rc = e.code
print(json.dumps({"rc": rc, "estimate": seen[-1] if seen else None, "peak": peak_rss()}), file=sys.stderr)
"""


def measure(tmp_path, *argv, env=None) -> tuple[dict, str]:
    import json
    import os
    script = tmp_path / "measure.py"
    script.write_text(_MEASURE)
    root = Path(__file__).resolve().parents[1]
    full_env = {**os.environ, "PYTHONPATH": str(root), **(env or {})}
    p = subprocess.run([sys.executable, str(script), *map(str, argv)], capture_output=True, text=True, env=full_env,
                       timeout=300)
    assert "Traceback" not in p.stderr, p.stderr
    return json.loads(p.stderr.strip().splitlines()[-1]), p.stdout + p.stderr


def test_item10_functional_grid_estimate_covers_the_real_peak(tmp_path):
    """The up-front estimate for 1024 workgroups is at least what the grid really adds to the
    process's peak (measured against a one-workgroup run), and not wildly more (< 2x)."""
    path = tmp_path / "k.s"
    path.write_text(GRID_KERNEL)
    one, _ = measure(tmp_path, "run", path, "--grid", 1, "--functional")
    big, text = measure(tmp_path, "run", path, "--grid", 1024, "--functional")
    assert one["rc"] == 0 and big["rc"] == 0, text
    grown = big["peak"] - one["peak"]
    assert big["estimate"] >= grown
    assert big["estimate"] < 2 * grown


def test_item10_functional_grid_over_budget_is_refused_up_front(tmp_path):
    """Past the budget the grid is refused before its waves exist, with a message that says how
    much it needs, the budget and how many workgroups would fit; memory stays near the baseline."""
    path = tmp_path / "k.s"
    path.write_text(GRID_KERNEL)
    got, text = measure(tmp_path, "run", path, "--grid", 65536, "--functional", env={"GCNEMU_MEMORY_BUDGET": "200M"})
    assert got["rc"] == 1
    assert "--grid 65536,1,1 --functional: 65536 workgroups x 4 waves need about" in text
    assert "more than the budget of 209,715,200 bytes (GCNEMU_MEMORY_BUDGET=200M)" in text
    assert "workgroups fit" in text
    assert got["peak"] < 200 << 20
