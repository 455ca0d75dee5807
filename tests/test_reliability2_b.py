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
