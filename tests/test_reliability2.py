"""Defects of the second reliability campaign (issue 25), one regression test per item.

Each test is what a user types: a file and the CLI. The outcome is the right result, or an
llvm-mc style `file:line:col: error:` on the offending text with exit code 1, never a Python
traceback, a hang or a silently changed value. The test names carry the issue's item number.
"""
from __future__ import annotations

import textwrap

import pytest

from gcnemu.cli import main


def write(tmp_path, text: str, name: str = "k.s") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return str(path)


def gcnemu(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


ENGINES = [(), ("--functional",)]
ENGINE_IDS = ["timed", "functional"]


# ---------------------------------------------------------------- 16. a branch to a data label

@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
@pytest.mark.parametrize("branch, data", [
    ("s_branch table", "table:\n  .long 1, 2, 3"),
    ("s_cbranch_scc1 table", ".rodata\ntable:\n  .long 1, 2, 3"),
    ("s_branch table", "table:"),
], ids=["text-data", "rodata", "end-of-code"])
def test_item16_branch_to_data_label_is_reported_at_the_branch(tmp_path, capsys, engine, branch, data):
    path = write(tmp_path, "; gcnemu:\n;   arch: gfx90a\n  s_cmp_eq_u32 s0, s0\n"
                 f"  {branch}\n  s_endpgm\n{data}\n")
    rc, out, err = gcnemu(capsys, "run", *engine, path)
    assert rc == 1
    assert f"{path}:4:3: error:" in err and "the branch target 'table' is data" in err
    assert "ran past the last instruction" not in err


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_item16_a_branch_to_a_code_label_after_data_still_runs(tmp_path, capsys, engine):
    path = write(tmp_path, """
        ; gcnemu:
        ;   arch: gfx90a
        ;   expect s1 = 7
          s_branch go
        table:
          .long 1, 2, 3
        go:
          s_mov_b32 s1, 7
          s_endpgm
        """)
    rc, out, err = gcnemu(capsys, "run", *engine, path)
    assert rc == 0, out + err
