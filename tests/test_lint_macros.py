"""Hazards inside .macro / .rept bodies: each warning says which instantiation it is about.

A hazard in a macro body is reported at the body's line once per call; llvm-mc's
"while in macro instantiation" note (at the call) is what tells the warnings apart.
"""
from __future__ import annotations

import json

from gcnemu.analysis.lint import lint
from gcnemu.commands.lint import diagnostic_json
from gcnemu.asm.parse import parse

TWO_CALLS = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.macro mfma_then_read dst
  v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_accvgpr_read_b32 \\dst, a0
.endm
  s_nop 4
  mfma_then_read v5
  s_nop 7
  mfma_then_read v6
  s_endpgm
"""


def _warnings(text: str, target: str = "gfx90a"):
    return [d for d in lint(parse(text, "k.s"), target) if d.severity == "warning"]


def _instantiation_lines(d) -> list[int]:
    return [n.span.line for n in d.notes if n.message == "while in macro instantiation"]


def test_each_call_of_a_hazardous_macro_gets_its_own_instantiation_note():
    ws = [d for d in _warnings(TWO_CALLS) if d.rule == "xdl-result-valu-read"]
    assert [(d.span.line, d.span.column) for d in ws] == [(4, 28), (4, 28)]
    assert [_instantiation_lines(d) for d in ws] == [[7], [9]]
    # the note points at the macro call's first word, as llvm-mc's does
    note = next(n for n in ws[0].notes if n.message == "while in macro instantiation")
    assert (note.span.column, note.span.end_column) == (3, 3 + len("mfma_then_read"))


def test_instantiation_note_comes_right_after_the_warning_and_before_the_producer():
    d = next(d for d in _warnings(TWO_CALLS) if d.rule == "xdl-result-valu-read")
    assert d.notes[0].message == "while in macro instantiation"
    assert "writes a[0:15] here" in d.notes[1].message


def test_producer_outside_the_macro_gets_no_note_of_its_own():
    text = TWO_CALLS.replace("  s_nop 4\n  mfma_then_read v5", "  v_mov_b32 v0, 0\n  mfma_then_read v5")
    d = next(d for d in _warnings(text) if d.rule == "valu-vgpr-mfma-read")
    assert _instantiation_lines(d) == [7]  # only the consumer's call


def test_rept_body_hazard_names_the_rept_line():
    text = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
  s_nop 7
.rept 2
  v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_accvgpr_read_b32 v4, a0
.endr
  s_endpgm
"""
    ws = [d for d in _warnings(text) if d.rule == "xdl-result-valu-read"]
    assert len(ws) == 2 and all(_instantiation_lines(d) == [3] for d in ws)


def test_json_message_says_which_instantiation():
    ws = [d for d in _warnings(TWO_CALLS) if d.rule == "xdl-result-valu-read"]
    msgs = [json.loads(json.dumps(diagnostic_json(d)))["message"] for d in ws]
    assert "(while in macro instantiation at line 7)" in msgs[0]
    assert "(while in macro instantiation at line 9)" in msgs[1]


def test_hazards_outside_macros_have_no_instantiation_notes():
    text = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
  v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
  v_accvgpr_read_b32 v4, a0
  s_endpgm
"""
    (d,) = _warnings(text)
    assert _instantiation_lines(d) == []
    assert "macro" not in diagnostic_json(d)["message"]


# ---------------------------------------------------------------- issue 15 #1: one body line, many operands

ISSUE_MM = """\
.macro mm d, a, b, c
    v_mfma_f32_4x4x4f16 \\d, \\a, \\b, \\c
.endm
    s_waitcnt lgkmcnt(0)
    mm a[0:3], v[0:1], v[8:9], a[0:3]
    ds_read_b64 v[8:9], v25 offset:1024
    mm a[4:7], v[2:3], v[10:11], a[4:7]
    s_waitcnt lgkmcnt(0)
    s_endpgm
"""


def test_each_instantiation_of_a_body_line_is_analysed_with_its_own_operands():
    """The second `mm` reads v[2:3] and v[10:11], not the v[8:9] the ds_read is loading: no
    hazard. (Lint used the first use's operands for every use of the body line.)"""
    assert _warnings(ISSUE_MM, "gfx908") == []
    real = ISSUE_MM.replace("mm a[4:7], v[2:3], v[10:11]", "mm a[4:7], v[2:3], v[8:9]")
    (w,) = _warnings(real, "gfx908")
    assert w.rule == "ds-result-before-lgkmcnt" and "v[8:9]" in w.message


def test_a_line_naming_a_reassigned_symbol_is_analysed_with_each_value():
    """Register allocation through `.set`: the same text reads another register after `_r = _r + 2`."""
    text = """\
_r = 0
    s_waitcnt lgkmcnt(0)
    ds_read_b64 v[8:9], v25
.rept 2
    v_add_u32 v20, v[_r], v21
    _r = _r + 8
.endr
    s_waitcnt lgkmcnt(0)
    s_endpgm
"""
    (w,) = _warnings(text)
    assert w.rule == "ds-result-before-lgkmcnt" and "v8" in w.message and w.span.line == 5


def test_hazards_inside_an_included_file_are_found_there(tmp_path):
    (tmp_path / "body.inc").write_text("  v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n  v_accvgpr_read_b32 v2, a0\n")
    main = tmp_path / "k.s"
    main.write_text('  s_nop 7\n.include "body.inc"\n  s_endpgm\n')
    prog = parse(main.read_bytes(), str(main))
    ws = [d for d in lint(prog, "gfx90a") if d.severity == "warning"]
    assert [(d.span.file.endswith("body.inc"), d.span.line, d.rule) for d in ws] == \
        [(True, 2, "xdl-result-valu-read")]
