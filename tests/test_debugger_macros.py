"""Breakpoints in .rept and .macro bodies stop in every instantiation, as gdb's do in inlined code.

A body line is one line of text but one instruction per expansion; a breakpoint on it must
stop at each, while a breakpoint on the line of a macro call stops only in that call.
"""
from __future__ import annotations

import re

from test_debugger import batch, write

REPT = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.macro bump r
  v_add_u32 \\r, 1, \\r
.endm
  v_mov_b32 v1, 0
.rept 3
  v_add_u32 v1, 2, v1
.endr
  bump v1
  bump v1
  s_endpgm
"""
L_REPT_BODY, L_MACRO_BODY, L_REPT, L_SECOND_CALL = 7, 3, 6, 10


def _stops(steps) -> list[int]:
    """Source lines of the consecutive `continue` stops of a transcript."""
    return [int(m.group(1)) for st in steps if st.command == "continue"
            for m in [re.search(r"Breakpoint \d+, wave 0 at line (\d+)", st.output)] if m]


def test_a_rept_body_breakpoint_stops_once_per_repetition(tmp_path):
    prog = write(tmp_path, "k.s", REPT)
    code, steps, text = batch(tmp_path, prog, f"break {L_REPT_BODY}", *["continue"] * 4)
    assert code == 0
    assert "3 instances" in steps[0].output
    assert _stops(steps) == [L_REPT_BODY] * 3
    assert "The program finished" in steps[-1].output


def test_a_macro_body_breakpoint_stops_in_each_call_and_sees_each_calls_values(tmp_path):
    prog = write(tmp_path, "k.s", REPT)
    code, steps, _ = batch(tmp_path, prog, f"break {L_MACRO_BODY}", "continue", "continue",
                           "step", "cycle 8", "print/i v1[lane 0]")
    assert code == 0
    assert _stops(steps) == [L_MACRO_BODY, L_MACRO_BODY]
    values = [st.output.strip() for st in steps if st.command.startswith("print")]
    assert values == ["v1[lane 0] = 8"]  # 0 + 3 * 2, then + 1 per call


def test_a_breakpoint_on_a_macro_call_stops_only_in_that_call(tmp_path):
    prog = write(tmp_path, "k.s", REPT)
    code, steps, _ = batch(tmp_path, prog, f"break {L_SECOND_CALL}", "continue", "continue")
    assert code == 0
    assert f"at line {L_SECOND_CALL}:" in steps[0].output and "expansion" in steps[0].output
    assert _stops(steps) == [L_MACRO_BODY]  # once: the first call passes without a stop
    assert "The program finished" in steps[-1].output


def test_a_breakpoint_on_a_rept_line_stops_at_the_first_repetition_only(tmp_path):
    prog = write(tmp_path, "k.s", REPT)
    code, steps, _ = batch(tmp_path, prog, f"break {L_REPT}", "continue", "continue")
    assert _stops(steps) == [L_REPT_BODY]
    assert "The program finished" in steps[-1].output


def test_a_line_number_below_one_is_an_error_not_the_first_instruction(tmp_path):
    prog = write(tmp_path, "k.s", REPT)
    code, steps, _ = batch(tmp_path, prog, "break -3", "break 0", "info breakpoints")
    assert steps[0].output.strip() == "error: no line -3: source lines start at 1"
    assert steps[1].output.strip() == "error: no line 0: source lines start at 1"
    assert "No breakpoints" in steps[2].output or "Breakpoint" not in steps[2].output


INCLUDED = """\
  v_add_u32 v1, 5, v1
  v_add_u32 v1, 7, v1
"""
WITH_INCLUDE = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
  v_mov_b32 v1, 0
.include "body.inc"
  v_add_u32 v1, 1, v1
  s_endpgm
"""


def test_a_breakpoint_names_the_included_file_or_the_main_one(tmp_path):
    """`break body.inc:2` stops at the included file's line 2; a plain `break 2` means line 2 of
    the file being debugged, not line 2 of every included file."""
    write(tmp_path, "body.inc", INCLUDED)
    prog = write(tmp_path, "k.s", WITH_INCLUDE)
    code, steps, _ = batch(tmp_path, prog, "break body.inc:2", "continue")
    assert code == 0
    assert "Breakpoint 1 at body.inc:2: v_add_u32 v1, 7, v1" in steps[0].output
    assert "wave 0 at body.inc:2" in steps[1].output and "v_add_u32 v1, 7, v1" in steps[1].output
    code, steps, _ = batch(tmp_path, prog, "break 2", "continue")
    assert "v_mov_b32 v1, 0" in steps[0].output
    code, steps, _ = batch(tmp_path, prog, "break nosuch.inc:1")
    assert "no instructions from a file 'nosuch.inc'" in steps[0].output
