"""Issue 26, item 9: the smaller usability defects, each pinned by the behaviour a user sees."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def gcnemu(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_every_header_error_is_reported_at_once(tmp_path):
    f = tmp_path / "h.s"
    f.write_text("// gcnemu:\n//   arch: gfx9999\n//   workgroop: 64\n//   buffer A: f33[4] = 0\n\t.text\nk:\n\ts_endpgm\n")
    err = gcnemu("run", str(f)).stderr
    assert "h.s:2:12: error: unknown target 'gfx9999'" in err
    assert "h.s:3:6: error: unknown header statement 'workgroop'; did you mean 'workgroup'?" in err
    assert "h.s:4:16: error: expected a type" in err


def test_run_and_lint_say_when_arch_differs_from_the_files_target():
    path = "programs/hazard_gallery/22_lds_race_missing_barrier_fixed.s"
    for cmd, verb in (("run", "running"), ("lint", "linting")):
        r = gcnemu(cmd, path, "--arch", "gfx942")
        out = r.stdout + r.stderr
        assert (f"warning: .amdgcn_target directive's target id amdgcn-amd-amdhsa--gfx90a does not match the "
                f"specified target id amdgcn-amd-amdhsa--gfx942: {verb} it as gfx942 anyway") in out
    assert gcnemu("check", path, "--arch", "gfx942").returncode == 1  # check: llvm-mc's error


def test_grid_histogram_labels_never_run_backwards():
    from gcnemu.grid import GridRun, WorkgroupResult
    run = GridRun((4, 1, 1), [WorkgroupResult((i, 0, 0), c, 1, 0) for i, c in enumerate([1018, 1020, 1021, 1018])],
                  [], False, 1)
    labels = [line.split()[0] for line in run.histogram()]
    assert labels == ["1018", "1019", "1020", "1021"]


def test_a_failed_expectation_is_reported_once_not_once_per_wave(tmp_path):
    f = tmp_path / "w.s"
    f.write_text("// gcnemu:\n//   arch: gfx90a\n//   workgroup: 256\n//   expect v1 = lane + 1\n"
                 "\t.text\nk:\n\tv_mov_b32 v1, 0\n\ts_endpgm\n")
    out = gcnemu("run", str(f)).stdout
    assert "check: FAILED (1 failure, 1 expectations)" in out
    assert out.count("error: v1") == 1 and "v1 (u32, waves 0..3): 256 of 256 lanes differ" in out
    assert "in the other waves (wave 1: 64, wave 2: 64, wave 3: 64 lanes)" in out


def test_an_address_from_a_never_written_register_is_named_so_not_a_huge_offset(tmp_path):
    f = tmp_path / "p.s"
    f.write_text("// gcnemu:\n//   arch: gfx90a\n\t.text\nk:\n\ts_load_dword s4, s[10:11], 0x0\n"
                 "\ts_waitcnt lgkmcnt(0)\n\ts_endpgm\n")
    err = gcnemu("run", str(f)).stderr
    assert "never-written pattern 0xbadc0de5" in err and "bytes past the end" not in err


def test_the_fix_note_names_one_nop_count(tmp_path):
    f = tmp_path / "d.s"
    f.write_text("\t.text\nk:\n\tv_mov_b32 v1, 1\n\tv_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
                 "\ts_endpgm\n")
    r = gcnemu("lint", str(f), "--arch", "gfx90a")
    out = r.stdout + r.stderr
    (note,) = [line for line in out.splitlines() if line.startswith("note: required")]
    assert "insert s_nop 1 before line 4" in note and note.count("s_nop") == 1
