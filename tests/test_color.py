"""Diagnostics in llvm-mc's colours on a terminal, never in pipes (issue 26, item 3)."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from gcnemu.cli import use_color

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "programs" / "hazard_gallery" / "05_load_result_before_vmcnt_wrong.s"
BOLD_MAGENTA, BOLD_GREEN, BOLD_RED = "\x1b[1;35m", "\x1b[1;32m", "\x1b[1;31m"


def gcnemu(*args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gcnemu", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=env)


def test_always_paints_warnings_magenta_and_carets_green():
    r = gcnemu("lint", str(WRONG), "--color=always")
    out = r.stdout + r.stderr
    assert f"{BOLD_MAGENTA}warning:" in out and BOLD_GREEN + "^" in out


def test_errors_are_bold_red(tmp_path):
    bad = tmp_path / "bad.s"
    bad.write_text("v_add_f32 v1, v2\n")
    err = gcnemu("check", str(bad), "--color=always").stderr
    assert f"{BOLD_RED}error:" in err


def test_pipes_get_plain_text_by_default_and_with_never():
    for opts in ([], ["--color=never"]):
        r = gcnemu("lint", str(WRONG), *opts)
        out = r.stdout + r.stderr
        assert "warning:" in out and "\x1b[" not in out


def test_a_bad_colour_choice_is_a_usage_error():
    r = gcnemu("lint", str(WRONG), "--color=sometimes")
    assert r.returncode == 2 and "invalid choice: 'sometimes'" in r.stderr


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("env, expected", [({}, True), ({"NO_COLOR": "1"}, False), ({"NO_COLOR": ""}, True),
                                           ({"TERM": "dumb"}, False)])
def test_auto_follows_the_terminal_and_no_color(env, expected):
    assert use_color("auto", env, (_Tty(), _Tty())) is expected
    assert use_color("auto", env, (_Tty(), io.StringIO())) is False  # one stream piped: plain
    assert use_color("always", {"NO_COLOR": "1"}) is True  # the option says it outright
