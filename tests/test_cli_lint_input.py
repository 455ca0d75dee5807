"""`gcnemu lint` on input llvm-mc rejects: the errors `check` gives, exit 1, no hazard analysis.

A linter that said nothing about `v_add_f32 v1, v2` or `s_waitcnt vmcnt(99)` would
let a user believe a file is clean that does not even assemble.
"""
from __future__ import annotations

import json
import subprocess
import sys

BAD = "v_add_f32 v1, v2\ns_waitcnt vmcnt(99)\nv_mov_b32 v300, 0\ns_endpgm\n"


def lint(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", "lint", *args], capture_output=True, text=True,
                          timeout=120)


def test_invalid_lines_are_errors_with_exit_1(tmp_path):
    f = tmp_path / "bad.s"
    f.write_text(BAD)
    r = lint("--arch", "gfx90a", str(f))
    assert r.returncode == 1
    assert f"{f}:1:1: error: too few operands for instruction" in r.stderr
    assert f"{f}:2:17: error: too large value for vmcnt" in r.stderr
    assert f"{f}:3:11: error: register index is out of range" in r.stderr
    assert "Traceback" not in r.stderr


def test_json_carries_the_validation_errors(tmp_path):
    f = tmp_path / "bad.s"
    f.write_text(BAD)
    r = lint("--format", "json", str(f))
    assert r.returncode == 1
    diags = json.loads(r.stdout)["diagnostics"]
    assert [(d["line"], d["severity"]) for d in diags] == [(1, "error"), (2, "error"), (3, "error")]


def test_fix_refuses_a_file_that_does_not_assemble_and_leaves_it_alone(tmp_path):
    f = tmp_path / "bad.s"
    f.write_text(BAD)
    r = lint("--fix", "--in-place", str(f))
    assert r.returncode == 1
    assert f.read_text() == BAD
    assert "too large value for vmcnt" in r.stderr


def test_an_unmodelled_but_real_instruction_is_still_linted(tmp_path):
    # s_sendmsg exists on every target: valid for check (a note), so lint runs and finds the M0 hazard
    f = tmp_path / "ok.s"
    f.write_text("s_mov_b32 m0, s0\ns_sendmsg sendmsg(MSG_INTERRUPT)\ns_endpgm\n")
    r = lint("--arch", "gfx90a", str(f))
    assert r.returncode == 1
    assert "error" not in r.stderr, r.stderr
    assert f"{f}:2:1: warning:" in r.stderr and "[salu-m0-sendmsg]" in r.stderr
