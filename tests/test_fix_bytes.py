"""`--fix` edits only what it must: every other byte of the file stays as it was."""
from __future__ import annotations

import subprocess

import pytest

from gcnemu.analysis.fix import Edit, apply_edits, fix_text
from gcnemu.analysis.lint import lint
from gcnemu.asm.parse import parse
from test_lint_rules import HAVE_MC, LLVM_MC

MESSY = (
    "// header comment, spacing and directives must survive\r\n"
    "\t.text\r\n"
    "  .p2align 8   \r\n"
    "k:   ; label comment\r\n"
    "    v_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]   // mfma\r\n"
    "\r\n"
    "    /* block\r\n"
    "       comment */ v_add_f32 v10, v1, v11 ; reads v1 too early\r\n"
    "\tglobal_load_dword v4, v[20:21], off\r\n"
    "\tv_add_f32\tv5, v4, v4\r\n"
    "\ts_endpgm"  # no newline at the end of the file
)


def test_crlf_comments_spacing_and_missing_final_newline_are_kept():
    res = fix_text(MESSY, "gfx90a", "m.s")
    assert res.remaining == [] and res.fixed == 2
    expected = (MESSY
                .replace("       comment */ v_add_f32", "       comment */ s_nop 4\r\n                  v_add_f32")
                .replace("\tv_add_f32\tv5", "\ts_waitcnt vmcnt(0)\r\n\tv_add_f32\tv5"))
    assert res.text == expected
    assert [d for d in lint(parse(res.text, "m.s"), "gfx90a") if d.severity == "warning"] == []


def test_utf8_bom_and_tabs_in_front_of_the_consumer():
    text = "\ufeff\tv_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]\n\t\tv_add_f32 v10, v1, v11 // é\n\ts_endpgm\n"
    res = fix_text(text, "gfx90a", "b.s")
    assert res.text == text.replace("\t\tv_add_f32", "\t\ts_nop 4\n\t\tv_add_f32")


def test_replacing_a_field_keeps_the_rest_of_the_waitcnt():
    text = ("\tglobal_load_dword v1, v[20:21], off\n\tglobal_load_dword v2, v[20:21], off\n"
            "\ts_waitcnt vmcnt(1) & lgkmcnt(0)  ; both\n\tv_add_f32 v3, v2, v2\n\ts_endpgm\n")
    res = fix_text(text, "gfx90a", "w.s")
    assert res.text == text.replace("vmcnt(1) & lgkmcnt(0)", "vmcnt(0) & lgkmcnt(0)")


def test_long_requirements_are_split_into_fewest_nops():
    text = "\tv_mfma_f32_32x32x1f32 v[0:31], v64, v80, v[0:31]\n\tv_add_f32 v40, v1, v41\n\ts_endpgm\n"
    res = fix_text(text, "gfx90a", "n.s")
    assert "\ts_nop 15\n\ts_nop 2\n\tv_add_f32" in res.text  # 19 = 16 + 3


def test_an_existing_nop_in_front_grows_instead_of_a_new_line():
    text = "\tv_mfma_f32_4x4x1f32 v[0:3], v64, v80, v[0:3]\n\ts_nop 1 ; pad\n\tv_add_f32 v10, v1, v11\n\ts_endpgm\n"
    assert fix_text(text, "gfx90a", "g.s").text == text.replace("s_nop 1 ;", "s_nop 4 ;")  # 5 needed


def test_apply_edits_positions_are_character_columns():
    assert apply_edits("a\r\nxyz\r\n", [Edit(2, 2, 2, "s_nop 0", True)]) == "a\r\nxs_nop 0\r\n yz\r\n"
    assert apply_edits("ab(3)\n", [Edit(1, 3, 6, "(2)", False)]) == "ab(2)\n"


@pytest.mark.skipif(not HAVE_MC, reason="llvm-mc 22 not installed")
def test_fixed_messy_file_assembles(tmp_path):
    f = tmp_path / "m.s"
    f.write_bytes(fix_text(MESSY, "gfx90a", "m.s").text.encode())
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=gfx90a", str(f), "-o", "/dev/null"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
