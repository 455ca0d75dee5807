"""More inputs that used to crash or mislead gcnemu (issue 18 and the reliability pass after it).

Each case is what a user types: a file and the CLI. The outcome is the right result, or an
llvm-mc style `file:line:col: error:` / `warning:` on the offending text with exit code 1,
and never a Python traceback.
"""
from __future__ import annotations

import textwrap

import pytest

from gcnemu.cli import main


def write(tmp_path, text: str, name: str = "k.s", newline: str = "\n") -> str:
    path = tmp_path / name
    path.write_bytes(textwrap.dedent(text).lstrip("\n").replace("\n", newline).encode())
    return str(path)


def gcnemu(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert rc in (0, 1, 2)
    return rc, out, err


# ---------------------------------------------------------------- A. CR-only and CRLF line endings

HAZARDS = """
    v_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]
    v_add_f32 v10, v1, v11
    global_load_dword v4, v[20:21], off
    v_add_f32 v5, v4, v4
    s_endpgm
    """


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_lint_fix_edits_a_cr_or_crlf_file_where_lf_gets_edited_and_keeps_its_endings(tmp_path, capsys, newline):
    lf = write(tmp_path, HAZARDS, "lf.s")
    other = write(tmp_path, HAZARDS, "other.s", newline)
    for path in (lf, other):
        rc, out, err = gcnemu(capsys, "lint", "--arch", "gfx90a", "--fix", "--in-place", path)
        assert rc == 0 and "2 edit(s) applied, 0 hazard(s) left" in err
    fixed_lf = open(lf, "rb").read().decode()
    assert "\ns_nop 4\nv_add_f32 v10" in fixed_lf and "\ns_waitcnt vmcnt(0)\nv_add_f32 v5" in fixed_lf
    assert open(other, "rb").read().decode() == fixed_lf.replace("\n", newline)
    rc, out, err = gcnemu(capsys, "lint", "--arch", "gfx90a", other)
    assert rc == 0 and "no hazards" in out + err


UPDATABLE = """
    ; gcnemu:
    ;   arch: gfx90a
    ;   buffer A: u32[64] = i * 3 -> s[4:5]
    ;   vgpr v1 = lane * 4
    ;   expect hazards: none
    ;   expect cycles: 1
    global_load_dword v2, v1, s[4:5]
    v_add_u32 v3, v2, v2
    s_waitcnt vmcnt(0)
    s_endpgm
    """


@pytest.mark.parametrize("newline", ["\r", "\r\n"], ids=["cr", "crlf"])
def test_test_update_rewrites_a_cr_or_crlf_snippet_as_an_lf_one_and_keeps_its_endings(tmp_path, capsys, newline):
    lf = write(tmp_path, UPDATABLE, "lf.s")
    other = write(tmp_path, UPDATABLE, "other.s", newline)
    for path in (lf, other):
        rc, out, err = gcnemu(capsys, "test", "--update", path)
        assert rc == 0 and f"UPDATED {path}" in out
        assert "\r" not in out.replace("\r\n", "")  # a lone CR would overprint the diff's lines
    updated_lf = open(lf, "rb").read().decode()
    assert ";   expect hazard vmem-result-before-vmcnt at 8\n" in updated_lf  # a line was added
    assert "expect cycles: 1\n" not in updated_lf
    assert open(other, "rb").read().decode() == updated_lf.replace("\n", newline)
    rc, out, err = gcnemu(capsys, "test", other)
    assert rc == 0 and f"PASS {other}" in out
