"""gdb parity of `gcnemu step`: gdb's command names and abbreviations do what gdb users expect.

Each test drives the Session the way `--batch` does and reads what a user reads: the
prompt's line and cycle, and the stop messages. Lines are those of programs/debug_demo.s
(a scalar loop on lines 30-33 that runs three times, an MFMA on line 37).
"""
from __future__ import annotations

import re
from pathlib import Path

from gcnemu.debugger import Session

ROOT = Path(__file__).resolve().parent.parent
DEMO = str(ROOT / "programs" / "debug_demo.s")
L_WAIT, L_LOOP_ADD, L_SUB, L_AFTER_LOOP, L_MFMA = 26, 30, 31, 34, 37


def session() -> Session:
    return Session.from_file(DEMO)


def line_of(s: Session) -> int | None:
    return s.pc_line()


def test_tbreak_stops_once_then_is_gone():
    s = session()
    assert "Temporary breakpoint 1" in s.execute(f"tbreak {L_SUB}")
    out = s.execute("continue")
    assert f"Temporary breakpoint 1, wave 0 at line {L_SUB}" in out
    assert "No breakpoints" in s.execute("info breakpoints")
    assert "The program finished" in s.execute("continue")


def test_disable_skips_a_breakpoint_and_enable_brings_it_back():
    s = session()
    s.execute(f"break {L_WAIT}")
    s.execute(f"break {L_SUB}")
    assert "Disabled 1." in s.execute("disable 1")
    assert "[disabled]" in s.execute("info breakpoints")
    assert line_of(s) != L_WAIT
    s.execute("continue")
    assert line_of(s) == L_SUB  # breakpoint 1 (line 26) was passed
    s.execute("enable 1")
    s.execute("start")
    s.execute("continue")
    assert line_of(s) == L_WAIT


def test_condition_makes_a_breakpoint_stop_only_where_it_holds():
    s = session()
    s.execute(f"break {L_SUB}")
    assert "stops only if s0 == 1" in s.execute("condition 1 s0 == 1")
    s.execute("continue")
    assert line_of(s) == L_SUB and "0x00000001" in s.execute("p s0")  # the third iteration, not the first
    assert "unconditional" in s.execute("condition 1")


def test_break_line_if_expr_is_a_conditional_line_breakpoint():
    s = session()
    assert "stop only if s0 == 2" in s.execute(f"break {L_SUB} if s0 == 2")
    s.execute("continue")
    assert "(2)" in s.execute("p s0")


def test_display_shows_its_expression_after_every_stop_until_undisplay():
    s = session()
    assert s.execute("display $s0").startswith("1: s0 = ")
    s.execute(f"break {L_SUB}")
    assert "\n1: s0 = 0x00000003 (3)" in s.execute("continue")
    assert "\n1: s0 = 0x00000002 (2)" in s.execute("continue")
    assert "1: s0" in s.execute("back")
    s.execute("undisplay 1")
    assert "1: s0" not in s.execute("continue")
    assert s.execute("undisplay 7").startswith("error:")


def test_run_restarts_from_the_beginning_and_start_stops_at_the_first_instruction():
    s = session()
    s.execute(f"break {L_SUB}")
    s.execute("continue")
    s.execute("continue")
    second = s.now
    out = s.execute("run")
    assert "Starting program" in out and f"Breakpoint 1, wave 0 at line {L_SUB}" in out
    assert s.now < second  # the first iteration again, not the third
    out = s.execute("start")
    assert s.now == 0 and line_of(s) == 20 and "-> 0" in out


def test_rc_is_reverse_continue_and_reverse_cycle_is_rcy():
    s = session()
    s.execute(f"break {L_SUB}")
    cycles = []
    for _ in range(3):
        s.execute("continue")
        cycles.append(s.now)
    out = s.execute("rc")
    assert f"Breakpoint 1, wave 0 at line {L_SUB}" in out and s.now == cycles[1]
    s.execute("reverse-continue")
    assert s.now == cycles[0]
    assert "back at the start" in s.execute("rc") and s.now == 0
    s.execute("continue")
    s.execute("rcy 4")
    assert s.now == cycles[0] - 4
    help_rc = s.execute("help reverse-cycle")
    assert "rcy" in help_rc and "rc" in s.execute("help reverse-continue")


def test_reverse_next_undoes_a_next_over_the_whole_loop():
    s = session()
    s.execute("until 33")
    before = s.now
    s.execute("next")
    assert line_of(s) == L_AFTER_LOOP
    s.execute("rn")
    assert s.now == before and line_of(s) == 33
    s.execute("rn")  # straight-line code: one instruction back
    assert line_of(s) == 32


def test_finish_at_top_level_runs_to_s_endpgm_and_says_so():
    s = session()
    out = s.execute("finish")
    assert "top level" in out and "s_endpgm" in out
    assert s.wave_state.done


def test_dollar_register_syntax_in_print_display_and_condition():
    s = session()
    s.execute("until 31")
    assert s.execute("p $s0") == s.execute("p s0")
    assert s.execute("p $exec") == s.execute("p exec")
    assert s.execute("p $pc") == s.execute("p pc")
    assert s.execute("p $vcc") == s.execute("p vcc")
    assert s.execute("p/f $v2[0:3]") == s.execute("p/f v2[0:3]")
    s.execute("break 31")
    s.execute("condition 1 $s0 == 1")
    s.execute("continue")
    assert "(1)" in s.execute("p s0")


def test_info_registers_shows_the_registers_it_is_given():
    s = session()
    s.execute("until 27")
    out = s.execute("info registers v2[0:3] $s0")
    assert out.splitlines()[0] == "v2[lanes 0:3]:" and "s0 = " in out
    assert "s0 " in s.execute("info registers")  # without arguments: the scalar registers, as before


def test_x_takes_gdb_count_size_and_format_letters():
    s = session()
    s.execute(f"until {L_WAIT + 1}")  # the DMA has put B (i + 100) at LDS 0x100
    assert s.execute("x/4wx lds 0x100") == "0x100: 0x00000064 0x00000065 0x00000066 0x00000067"
    assert s.execute("x/2wu 0x100") == "0x100: 100 101"  # a bare address outside every buffer is LDS
    assert s.execute("x/4bx lds 0x100") == "0x100: 0x64 0x00 0x00 0x00"
    assert s.execute("x/1hd lds 0x104") == "0x104: 101"
    out = s.execute("x/3wd B+4")  # global memory by buffer name, sizes and signs per gdb
    assert out.endswith("<B+0x4>: 101 102 103")
    assert s.execute("x/2wf A+4").endswith("<A+0x4>: 0.5   1")
    assert s.execute("x/1gx A").endswith("<A+0x0>: 0x3f00000000000000")
    assert s.execute("x/4q lds 0").startswith("error: unknown format '/4q'")
    assert s.execute("x/1bf lds 0").startswith("error: /f needs a size")


def test_print_mfma_shows_poison_as_question_marks_like_print():
    s = session()
    out = s.execute("print mfma a[0:15] as D of v_mfma_f32_32x32x8f16")
    grid = [ln for ln in out.splitlines() if " | " in ln]
    assert grid and all(set(ln.split(" | ")[1].split()) == {"?"} for ln in grid)
    assert "never written (poison)" in s.execute("p a0")
    s.execute("continue")
    out = s.execute("print mfma a[0:15] as D of v_mfma_f32_32x32x8f16")
    assert "?" not in out.split("\n", 1)[1]


STORE = """\
// gcnemu:
//   workgroup: 128
//   buffer C: u32[128] = 0 -> s[4:5]
\tv_lshlrev_b32 v1, 2, v0
\tv_add_u32 v2, 7, v0
\tglobal_store_dword v1, v2, s[4:5]
\ts_waitcnt vmcnt(0)
\ts_endpgm
"""


def test_watch_global_memory_names_the_wave_and_the_store(tmp_path):
    p = tmp_path / "store.s"
    p.write_text(STORE)
    s = Session.from_file(str(p))
    assert "Watchpoint 1: global[" in s.execute("watch *(u32*)C+0x104")  # lane 65: wave 1, lane 1
    out = s.execute("continue")
    assert "write scheduled by wave 1, global_store_dword (line 6)" in out
    out = s.execute("continue")
    assert "written at cycle" in out and "by wave 1, global_store_dword (line 6)" in out
    assert "new: 0x00000048" in out  # 7 + 65
    assert "Watchpoint 2: global[" in s.execute("watch global[C+0x10]")
    assert s.execute("watch global[0x10]").startswith("error:")


def test_lds_watchpoint_hit_names_the_writing_wave():
    s = session()
    s.execute("watch lds[0x100]")
    out = s.execute("continue")
    assert "write scheduled by wave 0, buffer_load_dword (line 24)" in out


def test_help_lists_every_command_with_one_line_and_details_each():
    from gcnemu.debugger.commands import COMMANDS
    s = session()
    listing = s.execute("help")
    for c in COMMANDS:
        assert c.summary in listing, c.name
        assert c.usage in s.execute(f"help {c.name}")
    for name in ("display", "undisplay", "tbreak", "disable", "enable", "condition", "finish",
                 "reverse-continue", "reverse-next", "run", "start", "x"):
        assert any(c.name == name for c in COMMANDS)
    assert s.execute("help rc").startswith("reverse-continue")
    assert s.execute("help rn").startswith("reverse-next")
    assert s.execute("help rcy").startswith("reverse-cycle")


CALL = """\
// gcnemu:
//   workgroup: 64
\ts_mov_b32 s0, 1
\ts_call_b64 s[30:31], func
\ts_add_u32 s0, s0, 100
\ts_endpgm
func:
\ts_add_u32 s0, s0, 10
\ts_add_u32 s0, s0, 20
\ts_setpc_b64 s[30:31]
"""


def test_finish_runs_to_the_return_of_the_current_call(tmp_path):
    p = tmp_path / "call.s"
    p.write_text(CALL)
    s = Session.from_file(str(p))
    s.execute("break 9")
    s.execute("continue")
    out = s.execute("finish")
    assert "Run till exit from the call at line 4" in out and "s_setpc_b64 at line 10" in out
    assert s.pc_line() == 5 and "(31)" in s.execute("p s0")  # back after the call, the body done
    assert "top level" in s.execute("finish") and s.wave_state.done


def test_bad_input_to_the_new_commands_is_an_error_and_the_session_goes_on():
    s = session()
    assert s.execute("condition 9 s0 == 1").startswith("error: no breakpoint or watchpoint number 9")
    s.execute("break 31")
    assert s.execute("condition 1 s0 ==").startswith("error:")
    assert s.execute("display nosuchreg + 1").startswith("error:")
    assert s.execute("disable x").startswith("error:")
    assert s.execute("watch *(u32*)0x10").startswith("error:")  # not in any buffer
    assert s.execute("run now").startswith("error:")
    assert s.execute("x/4wx lds 0x999999").startswith("error:")
    assert "No display expressions." == s.execute("display")
    assert s.failed_commands == 7
    assert "Breakpoint 1, wave 0 at line 31" in s.execute("continue")


def test_a_watchpoint_condition_filters_its_stops():
    s = session()
    s.execute("watch s0")
    s.execute("condition 1 s0 == 1")  # s0 is 0x4000, then 3, 2, 1, 0: the first stop is where it holds 1
    out = s.execute("continue")
    assert "Watchpoint 1 (s0): written at cycle" in out and "new: 0x00000001" in out
    assert "old: 0x00000002" in out
