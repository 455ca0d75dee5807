"""The pytest plugin: snippets become test items beside Python tests, only where intended."""
from __future__ import annotations

import textwrap

pytest_plugins = ["pytester"]

GOOD = """
; gcnemu:
;   vgpr v1 = lane
;   expect v2 = lane + 5
  v_add_u32 v2, 5, v1
  s_endpgm
"""


def test_collects_programs_and_test_files_only(pytester):
    good = textwrap.dedent(GOOD).lstrip()
    bad = good.replace("lane + 5", "lane + 6")
    root = pytester.path
    (root / "programs" / "deep").mkdir(parents=True)
    (root / "programs" / "deep" / "k.s").write_text(good)
    (root / "test_ok.s").write_text(good)
    (root / "test_bad.s").write_text(bad)
    (root / "other.s").write_text(bad)  # not a test file, not under programs/
    (root / "test_no_header.s").write_text("  s_endpgm\n")  # nothing to check: not collected
    (root / "test_py.py").write_text("def test_python():\n    assert True\n")
    # packed work-item ids hold on gfx942, not on the header's gfx908: --gcnemu-arch must win
    (root / "test_arch.s").write_text("; gcnemu:\n;   arch: gfx908\n;   workgroup: 8x8\n"
                                      ";   expect v0 = tid_x | (tid_y << 10)\n  s_endpgm\n")
    result = pytester.runpytest("-p", "no:cacheprovider", "-rA", "--gcnemu-arch", "gfx942")
    result.assert_outcomes(passed=4, failed=1)
    out = result.stdout.str()
    assert "PASSED programs/deep/k.s::k.s" in out
    assert "PASSED test_ok.s::test_ok.s" in out
    assert "PASSED test_arch.s::test_arch.s" in out
    assert "PASSED test_py.py::test_python" in out
    assert "FAILED test_bad.s::test_bad.s" in out
    assert "other.s" not in out and "test_no_header" not in out
    # the failure shows the same report as gcnemu test: location, caret, lanes table
    assert "test_bad.s:3:5: error: v2 (u32): 64 of 64 lanes differ" in out
    assert "lane  expected  actual" in out


def test_a_header_naming_several_targets_gives_one_item_per_target(pytester):
    # packed work-item ids (v0 = x | y << 10) hold on gfx90a and later, not on gfx908
    (pytester.path / "test_ids.s").write_text("; gcnemu:\n;   arch: gfx908, gfx90a, gfx942\n;   workgroup: 8x8\n"
                                              ";   expect v0 = tid_x | (tid_y << 10)\n  s_endpgm\n")
    # (subprocesses: a second in-process pytest run would import gcnemu into the registries of the first)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rA")
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "FAILED test_ids.s::test_ids.s[gfx908]" in out
    assert "PASSED test_ids.s::test_ids.s[gfx90a]" in out and "PASSED test_ids.s::test_ids.s[gfx942]" in out
    # --gcnemu-arch still picks one target: one item
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--gcnemu-arch", "gfx942").assert_outcomes(passed=1)


def test_gcnemu_test_runs_each_named_target_and_a_repeated_one_is_a_header_error(tmp_path):
    import subprocess
    import sys
    f = tmp_path / "ids.s"
    f.write_text("; gcnemu:\n;   arch: gfx90a, gfx942\n;   expect v1 = 5\n  v_mov_b32 v1, 5\n  s_endpgm\n")
    out = subprocess.run([sys.executable, "-m", "gcnemu", "test", str(f)], capture_output=True, text=True).stdout
    assert "[gfx90a," in out and "[gfx942," in out and "2 passed, 0 failed" in out
    f.write_text("; gcnemu:\n;   arch: gfx90a, gfx90a\n  s_endpgm\n")
    out = subprocess.run([sys.executable, "-m", "gcnemu", "test", str(f)], capture_output=True, text=True).stdout
    assert "error: target 'gfx90a' is named twice" in out
