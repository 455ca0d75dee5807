"""`gcnemu lint --explain RULE` and `gcnemu lint --stats DIR` (issue 15), and the progress bar that
long commands draw on a terminal (issue 17).

--explain answers "why should I trust this warning": the rule's targets and wait states, the LLVM
function (and ISA guide section) it comes from, an example and the fix. --stats is the precision
report over a corpus: warnings per rule and the files that did not assemble.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gcnemu.analysis.explain import all_rule_ids, explain
from gcnemu.isa.hazard_rules import rules_for

ROOT = Path(__file__).resolve().parent.parent


def gcnemu(*argv: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *argv], capture_output=True, text=True, cwd=ROOT, **kw)


def test_explain_gives_targets_wait_states_source_example_and_fix():
    r = gcnemu("lint", "--explain", "valu-sgpr-vmem-read")
    assert r.returncode == 0
    text = r.stdout
    assert text.startswith("valu-sgpr-vmem-read\n")
    assert "gfx908, gfx90a, gfx942, gfx950: 5 wait states" in text
    assert "source: checkVMEMHazards (VmemSgprWaitStates = 5)" in text
    assert "EXEC (so v_cmpx followed by a buffer/global access needs 5)" in text  # the provenance decision
    assert "=>   32  buffer_load_dword v2, v1, s[8:11], s6 offen" in text
    assert "+ s_nop 4" in text


def test_explain_shows_per_pass_wait_states_where_targets_differ():
    rid = next(r.id for r in rules_for("gfx942") if r.depends_on_passes)
    text = explain(rid)
    assert "after a" in text and "-pass MFMA" in text


def test_every_rule_of_every_target_explains_with_its_source():
    ids = all_rule_ids()
    assert len(ids) > 40
    for rid in ids:
        assert "source" in explain(rid), rid


def test_an_unknown_rule_is_an_error_with_the_close_names():
    r = gcnemu("lint", "--explain", "valu-sgpr-vmem-rd")
    assert r.returncode == 1
    assert "unknown rule 'valu-sgpr-vmem-rd'; did you mean valu-sgpr-vmem-read" in r.stderr
    assert "Traceback" not in r.stderr


def test_stats_counts_warnings_per_rule_over_a_folder():
    r = gcnemu("lint", "--stats", "programs/hazard_gallery", "--format", "json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    rules = {row["rule"]: row for row in report["rules"]}
    assert report["files"] == len(list((ROOT / "programs" / "hazard_gallery").glob("*.s")))
    assert report["refused"] == [] and report["crashed"] == []
    # every _wrong file produces its rule; the _fixed twins produce none
    assert rules["salu-m0-lds-dma"]["warnings"] >= 1 and rules["salu-m0-lds-dma"]["most_in"].endswith("_wrong.s")
    assert report["clean"] >= 21
    text = gcnemu("lint", "--stats", "programs/hazard_gallery").stdout
    assert text.splitlines()[0].startswith(f"{report['files']} files: {report['files']} linted")
    assert "total" in text


def test_stats_counts_files_the_assembler_refuses_apart(tmp_path):
    (tmp_path / "bad.s").write_text("v_bogus v0\n")
    (tmp_path / "ok.s").write_text("s_endpgm\n")
    r = gcnemu("lint", "--stats", str(tmp_path))
    assert r.returncode == 0
    assert "2 files: 1 linted (1 without warnings), 1 refused by the assembler checks" in r.stdout
    assert f"refused: {tmp_path / 'bad.s'}: 1:1: invalid instruction" in r.stdout  # why, at its place


def test_a_refused_file_says_which_build_option_it_likely_needs(tmp_path):
    (tmp_path / "needs_defsym.s").write_text(".if KERNEL_VARIANT == 2\n s_nop 0\n.endif\ns_endpgm\n")
    r = gcnemu("lint", "--stats", str(tmp_path))
    assert "needs_defsym.s: 1:" in r.stdout and "(does its build pass --defsym NAME=VALUE?)" in r.stdout


def test_no_progress_bar_when_stderr_is_not_a_terminal():
    r = gcnemu("lint", "--stats", "programs", env=dict(os.environ, GCNEMU_PROGRESS_DELAY="0"))
    assert "lint --stats" not in r.stderr and "\x1b[" not in r.stderr


def _terminal(argv: list[str]) -> str:
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, GCNEMU_PROGRESS_DELAY="0", TERM="xterm", COLUMNS="120")
    child = pexpect.spawn(sys.executable, ["-m", "gcnemu", *argv], cwd=str(ROOT), env=env, encoding="utf-8",
                          timeout=120, dimensions=(40, 120))
    child.expect(pexpect.EOF)
    return child.before


def test_a_terminal_sees_a_progress_bar_and_no_progress_turns_it_off():
    shown = _terminal(["lint", "--stats", "programs"])
    assert re.search(r"lint --stats\s.*\d+/\d+", shown)  # description and the done/total column
    hidden = _terminal(["lint", "--stats", "programs", "--no-progress"])
    assert "lint --stats" not in hidden
    assert "files:" in shown and "files:" in hidden  # the report itself either way


def test_a_grid_and_a_folder_of_tests_show_the_bar_on_a_terminal_too():
    grid = _terminal(["run", "programs/grid_scale.s", "--jobs", "1"])
    assert re.search(r"grid 16x1x1\s.*\d+/16", grid), grid[-800:]  # the bar: label, then done/total
    assert "check: passed" in grid
    tests = _terminal(["test", "programs/hazard_gallery"])
    assert re.search(r"test\s.*\d+/52", tests) and "52 passed" in tests
    quiet = _terminal(["test", "programs/hazard_gallery", "--no-progress"])
    assert "52 passed" in quiet and "\x1b[?25l" not in quiet  # rich hides the cursor while it draws
