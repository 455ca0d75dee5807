"""`gcnemu step`: the debugger as a user drives it, through `--batch` transcripts.

Every test runs the real command line (`gcnemu step FILE --batch CMDS`) on a bundled
program or a small fixture and reads the transcript the way a user reads it: the
prompt (wave, source line, cycle) and each command's output. Cycle numbers are not
hard-coded where the timing model decides them; the tests check the relations a
user relies on instead (the wait ends when the last counted load completes, going
back shows exactly the state seen before).
"""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from gcnemu.cli import main

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "programs" / "debug_demo.s"
PROMPT = re.compile(r"^\(w(\d+) (?:line (\d+)|ended) cycle (\d+)\) (.*)$")

# Lines of programs/debug_demo.s the tests talk about (checked below, so edits to the demo fail loudly).
L_LOAD, L_DMA, L_WAIT, L_DS_READ, L_LOOP_ADD, L_BRANCH, L_AFTER_LOOP, L_MFMA = 21, 24, 26, 27, 30, 33, 34, 37

HAZARD = """\
// gcnemu:
//   buffer A: u32[64] = i * 3 -> s[4:5]
//   vgpr v1 = lane * 4
//   vgpr v2 = 100
\tglobal_load_dword v2, v1, s[4:5]
\tv_add_u32 v3, v2, v2
\ts_waitcnt vmcnt(0)
\tv_add_u32 v4, v2, v2
\ts_endpgm
"""


@dataclass
class Step:
    """One command of a transcript: the prompt it was typed at, and what it printed."""

    wave: int
    line: int | None
    cycle: int
    command: str
    output: str


def parse_transcript(text: str) -> list[Step]:
    steps: list[Step] = []
    for raw in text.splitlines():
        m = PROMPT.match(raw)
        if m:
            steps.append(Step(int(m.group(1)), int(m.group(2)) if m.group(2) else None, int(m.group(3)),
                              m.group(4), ""))
        elif steps:
            steps[-1].output += raw + "\n"
    return steps


def batch(tmp_path, program, *commands, extra=()) -> tuple[int, list[Step], str]:
    cmds = tmp_path / "cmds.txt"
    cmds.write_text("\n".join(commands) + "\n")
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["step", str(program), "--batch", str(cmds), *extra])
    text = buf.getvalue()
    return code, parse_transcript(text), text


def write(tmp_path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def demo_line(n: int) -> str:
    return DEMO.read_text().splitlines()[n - 1]


def test_the_demo_lines_the_tests_name_are_where_they_say():
    assert "global_load_dword v2" in demo_line(L_LOAD)
    assert "buffer_load_dword" in demo_line(L_DMA) and " lds" in demo_line(L_DMA)
    assert "s_waitcnt vmcnt(0)" in demo_line(L_WAIT)
    assert "ds_read_b32 v4" in demo_line(L_DS_READ)
    assert "v_add_f32 v3" in demo_line(L_LOOP_ADD)
    assert "s_cbranch_scc1 loop" in demo_line(L_BRANCH)
    assert "v_cvt_pkrtz" in demo_line(L_AFTER_LOOP)
    assert "v_mfma_f32_32x32x8f16" in demo_line(L_MFMA)


# ------------------------------------------------------------------ the issue's proof, in batch mode

def test_break_at_a_line_stops_the_wave_there(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, f"break {L_WAIT}", "continue", "print exec")
    assert code == 0
    assert steps[0].line == L_LOAD - 1  # launched, stopped before the first instruction (line 20)
    assert f"Breakpoint 1 at line {L_WAIT}: s_waitcnt vmcnt(0)" in steps[0].output
    assert f"Breakpoint 1, wave 0 at line {L_WAIT}" in steps[1].output
    assert steps[2].line == L_WAIT and steps[2].cycle > 0
    assert f"=> {L_WAIT:4}  s_waitcnt vmcnt(0)" in steps[1].output


def test_stepping_across_s_waitcnt_jumps_to_the_last_completion_and_drains_the_counter(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, f"break {L_WAIT}", "continue", "counters", "step", "counters")
    before, step, after = steps[2], steps[3], steps[4]
    # both loads are counted by vmcnt, with their issue and completion cycles
    assert re.search(r"vmcnt\s+2 ", before.output)
    assert f"line {L_LOAD}" in before.output and f"line {L_DMA}" in before.output
    assert "lds-dma" in before.output
    completes = [int(c) for c in re.findall(r"completes @(\d+)", before.output)]
    assert len(completes) == 2
    # the step issues the s_waitcnt when the last one completes: the clock jumps there
    m = re.search(r"cycle (\d+) -> (\d+) \(\+(\d+)\)", step.output)
    assert m and int(m.group(1)) == before.cycle and int(m.group(2)) == max(completes)
    assert int(m.group(3)) > 100
    assert re.search(r"issued line 26: s_waitcnt vmcnt\(0\)\s+@\d+, after waiting \d+ cycles \(waitcnt vmcnt", step.output)
    assert after.cycle == max(completes) and after.line == L_DS_READ
    assert re.search(r"vmcnt\s+0 ", after.output)


def test_watching_lds_sees_the_dma_scheduled_then_landing(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "watch lds[0x100]", "continue", "x lds 0x100 1", "continue",
                           "x lds 0x100 2")
    assert code == 0
    assert "Watchpoint 1: lds[0x100]" in steps[0].output
    scheduled = steps[1].output
    m = re.search(rf"Watchpoint 1 \(lds\[0x100\]\): write scheduled by wave 0, buffer_load_dword \(line {L_DMA}\), "
                  r"lands @(\d+)", scheduled)
    assert m, scheduled
    lands = int(m.group(1))
    assert steps[2].line == L_DMA + 1  # stopped right after the DMA issued
    assert "0x100: 0x00000000" in steps[2].output  # nothing in LDS yet
    landed = steps[3].output
    assert f"Watchpoint 1 (lds[0x100]): written at cycle {lands} by wave 0, buffer_load_dword (line {L_DMA})" in landed
    assert "old: 0x00000000" in landed and "new: 0x00000064" in landed  # B[0] = 100
    assert steps[4].cycle == lands
    assert "0x100: 0x00000064 0x00000065" in steps[4].output


def test_reverse_step_shows_the_earlier_values_again(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, f"break {L_WAIT}", "continue", "p/f v2[lane 1]", "x lds 0x104 1",
                           "counters", "step", "p/f v2[lane 1]", "x lds 0x104 1", "back", "p/f v2[lane 1]",
                           "x lds 0x104 1", "counters", "reverse-step")
    assert code == 0
    at_wait = steps[2]
    # the load has not returned: its value comes from memory when it lands; until then, never written
    assert f"v2[lane 1] = [in flight from line {L_LOAD}, lands @" in at_wait.output and "sees: ?" in at_wait.output
    assert "0x104: 0x00000000" in steps[3].output
    assert "v2[lane 1] = 0.5" in steps[6].output  # A[1] = 0.5 after the wait
    assert "0x104: 0x00000065" in steps[7].output
    back = steps[8]
    assert f"cycle {steps[8].cycle} -> {at_wait.cycle}" in back.output
    assert steps[9].cycle == at_wait.cycle and steps[9].line == L_WAIT
    assert steps[9].output == at_wait.output
    assert "0x104: 0x00000000" in steps[10].output
    assert steps[11].output == steps[4].output  # the same counters, the same in-flight loads
    assert f"=> {L_DMA + 1:4}  v_mov_b32 v3, 1.0" in steps[12].output  # reverse-step is back's other name


def test_a_hazard_stops_the_run_and_shows_both_source_lines(tmp_path):
    prog = write(tmp_path, "haz.s", HAZARD)
    code, steps, _ = batch(tmp_path, prog, "continue", "hazards", "continue")
    out = steps[0].output
    assert out.startswith("Hazard:")
    assert f"{prog}:6:2: warning: v_add_u32 reads v2" in out and "[vmem-result-before-vmcnt]" in out
    assert "\tv_add_u32 v3, v2, v2\n" in out
    assert f"{prog}:5:2: note: global_load_dword was issued here" in out
    assert "\tglobal_load_dword v2, v1, s[4:5]\n" in out
    assert steps[1].line == 7  # stopped right after the racy read issued
    assert "vmem-result-before-vmcnt" in steps[1].output
    assert "The program finished" in steps[2].output


def test_set_stop_on_hazard_off_reports_without_stopping(tmp_path):
    prog = write(tmp_path, "haz.s", HAZARD)
    code, steps, _ = batch(tmp_path, prog, "set stop-on-hazard off", "continue")
    assert "stop-on-hazard is off" in steps[0].output
    assert "Hazard (not stopping):" in steps[1].output and "The program finished" in steps[1].output


# ------------------------------------------------------------------ motion commands

def test_step_n_issues_n_instructions_of_the_current_wave(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "step 3", "s")
    issued = re.findall(r"issued line (\d+):", steps[0].output)
    assert issued == [str(L_LOAD - 1), str(L_LOAD), str(L_LOAD + 1)]
    assert steps[1].line == L_LOAD + 2
    assert re.findall(r"issued line (\d+):", steps[1].output) == [str(L_LOAD + 2)]


def test_cycle_advances_the_clock_by_exactly_n(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "step 2", "cycle 7", "cycle", "cycle 100", "p cycle")
    c0 = steps[1].cycle
    assert steps[2].cycle == c0 + 7 and steps[3].cycle == c0 + 8 and steps[4].cycle == c0 + 108
    assert f"cycle = {c0 + 108}" in steps[4].output


def test_next_runs_a_loop_to_its_exit_from_its_backward_branch(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, f"until {L_BRANCH}", "p s0", "next", "p s0", "next")
    assert steps[1].line == L_BRANCH and "s0 = 0x00000002" in steps[1].output  # first iteration
    assert steps[3].line == L_AFTER_LOOP and "s0 = 0x00000000" in steps[3].output  # the loop ran out
    assert f"=> {L_AFTER_LOOP + 1:4}  v_mov_b32 v7, v6" in steps[4].output


def test_until_and_break_accept_labels_and_lines_without_code(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "break loop", f"until {L_LOOP_ADD - 1}", "continue",
                           "info breakpoints", "delete", "continue")
    assert f"Breakpoint 1 at line {L_LOOP_ADD}" in steps[0].output
    assert steps[2].line == L_LOOP_ADD  # line 29 is the label: the next instruction is meant
    assert f"Breakpoint 1, wave 0 at line {L_LOOP_ADD}" in steps[2].output  # second iteration
    assert "hit 2 times" in steps[3].output
    assert "Deleted 1 breakpoint" in steps[4].output
    assert "The program finished" in steps[5].output


def test_conditional_breakpoint_stops_when_the_expression_becomes_true(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "break if s0 == 1 && f32(v3[2]) > 3", "continue", "p s0",
                           "p/f v3[2]", "continue", "break if cycle > 700", "continue", "p cycle")
    assert "Breakpoint 1: if s0 == 1 && f32(v3[2]) > 3" in steps[0].output
    assert "Breakpoint 1, s0 == 1 && f32(v3[2]) > 3 became true on wave 0" in steps[1].output
    assert "sees: 0x00000001 (1)" in steps[2].output  # the value the condition read; a newer one is in flight
    assert float(re.search(r"= ([\d.]+)", steps[3].output).group(1)) > 3
    assert "The program finished" in steps[4].output  # it stays true: no second stop
    assert steps[7].cycle > 700 or "finished" in steps[6].output


def test_watching_a_register_stops_at_issue_and_at_landing(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "watch v2", "continue", "continue", "p/f v2[0:3]")
    m = re.search(rf"Watchpoint 1 \(v2\): write scheduled by global_load_dword \(line {L_LOAD}\), lands @(\d+)",
                  steps[1].output)
    assert m
    assert f"Watchpoint 1 (v2): written at cycle {m.group(1)} by global_load_dword (line {L_LOAD})" \
        in steps[2].output
    assert "64 lanes changed" in steps[2].output
    assert "0 0.5 1 1.5" in steps[3].output.replace("  ", " ").replace("  ", " ")


def test_wave_switches_and_info_waves_shows_every_wave(tmp_path):
    prog = ROOT / "programs" / "lds_dma_copy.s"
    code, steps, _ = batch(tmp_path, prog, "info waves", "wave 1", "step", "info waves", "wave 9")
    assert re.search(r"^\* 0 ", steps[0].output, re.M) and re.search(r"^  1 ", steps[0].output, re.M)
    assert steps[2].wave == 1 and steps[3].wave == 1
    assert re.search(r"^\* 1 ", steps[3].output, re.M)
    assert "error: no wave 9: this launch has 2 waves (0..1)" in steps[4].output
    assert code == 1  # a failed command makes the batch fail


# ------------------------------------------------------------------ looking at data

def test_print_formats_and_register_forms(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, f"until {L_AFTER_LOOP + 2}", "p v1", "p v1[lane 3]", "p v[1:2][3]",
                           "p/f v2[1]", "p v2[1] /x", "p/i v0[5]", "p s[4:5]", "p exec", "p vcc", "p m0", "p scc",
                           "p/f16 v6[2]", "p/bf16 v2[2]", "p a[0:1][0]", "p v3[1] + 1", "p any(v1 == 8)")
    out = [s.output for s in steps]
    assert "v1 = " not in out[1] and "[ 0] 0x00000000 0x00000004 0x00000008" in out[1]  # 64 lanes, 8 a row
    assert "v1[lane 3] = 0x0000000c" in out[2]
    assert "v1[lane 3] = 0x0000000c" in out[3] and "v2[lane 3] = 0x3fc00000" in out[3]
    assert "v2[lane 1] = 0.5" in out[4]
    assert "v2[lane 1] = 0x3f000000" in out[5]
    assert "v0[lane 5] = 5" in out[6]
    assert re.search(r"s\[4:5\] = 0x[0-9a-f]{8} 0x[0-9a-f]{8}  \(64-bit 0x[0-9a-f]{16}\)", out[7])
    assert "exec = 0xffffffffffffffff (64 lanes: 0-63)" in out[8]
    assert "vcc = 0xbadc0de5badc0de5  (never written: holds poison)" in out[9]
    assert "m0 = 0x00000100 (256)" in out[10]
    assert re.fullmatch(r"scc = 0\n", out[11])
    assert "v6[lane 2] = 1,1" in out[12]  # packed f16 (1.0, 1.0)
    assert "v2[lane 2] = 0,1" in out[13]  # 1.0f as bf16 halves: low 0, high 1
    assert "a0[lane 0] = ?" in out[14] and "a1[lane 0] = ?" in out[14]
    assert out[15].startswith("v3[1] + 1 = 1075838977")  # raw bits of 2.5f, + 1
    assert "any(v1 == 8) = true" in out[16]


def test_print_mfma_shows_the_accumulator_as_the_matrix_it_holds(tmp_path):
    from gcnemu.isa import mfma
    from gcnemu.debugger.launch import simulation_for_file
    code, steps, text = batch(tmp_path, DEMO, "continue", "print mfma a[0:15] as D of v_mfma_f32_32x32x8f16",
                              "print mfma v[6:7] as A of v_mfma_f32_32x32x8f16",
                              "print mfma a[0:7] as D of v_mfma_f32_32x32x8f16",
                              "print mfma a[0:15] as D of v_mfma_f32_32x32x8f17")
    out = steps[1].output
    assert out.startswith("D of v_mfma_f32_32x32x8f16 in a[0:15] (wave 0): 1 block of 32 x 32 fp32 (rows i, columns j)")
    sim = simulation_for_file(str(DEMO))
    sim.run()
    d = mfma.unpack(mfma.lookup("v_mfma_f32_32x32x8f16", "gfx90a"), "D", sim.wave(0).agpr[0:16])[0]
    a = mfma.unpack(mfma.lookup("v_mfma_f32_32x32x8f16", "gfx90a"), "A", sim.wave(0).vgpr[6:8])[0]
    np.testing.assert_allclose(d, a.astype(np.float32) @ a.T.astype(np.float32))  # B holds the same values
    rows: dict[int, list[str]] = {}
    for m in re.finditer(r"^\s*(\d+) \| (.*)$", out, re.M):
        rows.setdefault(int(m.group(1)), m.group(2).split())  # first page: columns from 0
    assert [float(x) for x in rows[5]] == [float(f"{v:.4g}") for v in d[5, :len(rows[5])]]
    assert "rows i, columns k" in steps[2].output
    assert "error: D of v_mfma_f32_32x32x8f16 takes 16 registers; a[0:7] is 8" in steps[3].output
    assert "error: 'v_mfma_f32_32x32x8f17' is not an MFMA instruction of gfx90a (did you mean" in steps[4].output


def test_examine_lds_and_global_memory(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "continue", "x lds 0x100 6 /u", "x global A+4 3 /f", "x global B 2",
                           "x lds m0 1", "x global s[4:5] 1 /f", "x lds 0x10000", "x global nowhere")
    assert "0x100: 100 101 102 103\n0x110: 104 105\n" == steps[1].output
    assert re.search(r"^0x[0-9a-f]+ <A\+0x4>: 0.5 +1 +1.5$", steps[2].output, re.M)
    assert "<B+0x0>: 0x00000064 0x00000065" in steps[3].output
    assert "0x100: 0x00000064" in steps[4].output
    assert "<A+0x0>: 0" in steps[5].output
    assert "error: LDS address 0x10000 is outside the LDS (0x0..0xffff)" in steps[6].output
    assert "error: unknown name 'nowhere'" in steps[7].output and "buffers: A, B" in steps[7].output


def test_list_marks_issued_in_flight_waiting_and_breakpoint_lines(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, f"break {L_DS_READ}", f"until {L_WAIT}", "cycle 8", "list")
    listing = steps[3].output
    rows = {int(m.group(2)): m.group(1) for m in re.finditer(r"^(.{3}) +(\d+)  ", listing, re.M)}
    assert rows[L_LOAD + 1] == "  *"  # issued, result landed
    assert rows[L_LOAD] == "  ~"  # the load: issued, in flight
    assert rows[L_DMA] == "  ~"
    assert rows[L_WAIT] == " =>"  # the PC
    assert rows[L_DS_READ] == "B  "
    assert re.search(rf"^ => +{L_WAIT} .*\[waiting: waitcnt vmcnt until @\d+\]$", listing, re.M)
    assert re.search(rf"^  ~ +{L_LOAD} .*\[in flight, lands @\d+\]$", listing, re.M)


def test_pipeline_shows_the_mfma_occupying_its_simd(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, f"until {L_DS_READ + 1}", "counters", f"until {L_MFMA + 1}", "pipeline")
    assert re.search(rf"lgkmcnt\s+1 .*\n\s+line {L_DS_READ} +ds_read_b32", steps[1].output)
    out = steps[3].output
    m = re.search(rf"SIMD0 +mfma +busy until @(\d+) \(wave 0, issued @(\d+), \d+ more\): line {L_MFMA} ", out)
    assert m and int(m.group(1)) - int(m.group(2)) == 64  # 16 passes x 4 cycles
    assert re.search(rf"wave 0: a\[0:15\] +lands @\d+ .*from line {L_MFMA} ", out)


# ------------------------------------------------------------------ mistakes never end the session

def test_typos_and_bad_register_names_give_clear_errors_and_the_session_goes_on(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "stpe", "p v256", "p v[4:2]", "p s0[lane 1]", "p q7",
                           "watch", "break 9999", "break nolabel", "x", "set listsize x", "cycle -1",
                           "delete 42", "info nothing", "c 3", "p/z v1", "b if v1 ==", "b if lds[0x999999] == 1",
                           "rev", "step")
    out = [s.output.strip() for s in steps]
    assert out[0] == "error: unknown command 'stpe' (did you mean `step`?); `help` lists the commands"
    assert out[1] == "error: 'v256': v256 does not exist (v0..v255)"
    assert out[2] == "error: 'v[4:2]': the first register index is larger than the last"
    assert out[3] == "error: 's0[lane 1]': s0 is a scalar register, it has no lanes"
    assert out[4].startswith("error: cannot print 'q7': unknown name 'q7'")
    assert out[5].startswith("error: watch what?")
    assert out[6].startswith("error: no instruction at or after line 9999")
    assert out[7].startswith("error: no line or label 'nolabel'") and "labels: debug_demo, loop" in out[7]
    assert out[8].startswith("error: x lds ADDR")
    assert out[9].startswith("error: expected a number for the listsize")
    assert out[10].startswith("error: expected a number") or out[10].startswith("error: the count must be")
    assert out[11] == "error: no breakpoint or watchpoint number 42"
    assert out[12].startswith("error: info waves | info breakpoints")
    assert out[13] == "error: continue takes no argument"
    assert out[14].startswith("error: unknown format '/z'")
    assert out[15] == "error: the expression ends too early"
    assert out[16].startswith("error: lds[0x999999] is outside the LDS")
    assert out[17] == "error: ambiguous command 'rev': back, reverse-continue, reverse-cycle, reverse-next"
    assert "issued line 20" in out[18]  # still alive and well
    assert code == 1


def test_help_lists_every_command_and_explains_one(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "help", "help break", "h p")
    for name in ("step", "next", "until", "cycle", "continue", "break", "watch", "delete", "wave", "list", "print",
                 "x", "counters", "pipeline", "hazards", "info", "back", "reverse-cycle", "set", "help", "quit"):
        assert re.search(rf"^  {re.escape(name)}\b", steps[0].output, re.M), name
    assert "v5[3] == 7" in steps[1].output
    assert "print mfma a[0:15] as D of v_mfma_f32_32x32x8f16" in steps[2].output


def test_quit_ends_the_batch_early(tmp_path):
    code, steps, text = batch(tmp_path, DEMO, "step", "quit", "step")
    assert [s.command for s in steps] == ["step", "quit"]
    assert code == 0


def test_stdin_that_is_not_a_terminal_is_a_batch(tmp_path):
    r = subprocess.run([sys.executable, "-m", "gcnemu", "step", str(DEMO), "-ex", f"break {L_WAIT}"],
                       input=b"continue\ncounters\n", capture_output=True, timeout=120)
    out = r.stdout.decode()
    assert r.returncode == 0, r.stderr.decode()
    assert out.startswith("gcnemu step: ") and f"Breakpoint 1, wave 0 at line {L_WAIT}" in out
    assert re.search(r"vmcnt\s+2 ", out)


def test_setup_options_override_the_header_and_bad_ones_point_at_the_option(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "continue", "p/f v2[1]", extra=["--buffer", "A=f32[64]:i*2->s[4:5]"])
    assert "v2[lane 1] = 2" in steps[1].output
    r = subprocess.run([sys.executable, "-m", "gcnemu", "step", str(DEMO), "--buffer", "A=f32[64]:nope(1)->s[4:5]",
                        "--batch", "-"], input=b"", capture_output=True, timeout=120)
    assert r.returncode == 1 and "<command line>" in r.stderr.decode() and "Traceback" not in r.stderr.decode()


# ------------------------------------------------------------------ time travel is exact

def _state(s) -> tuple:
    """Everything a user can look at, as comparable values."""
    sim = s.sim
    waves = tuple((w.state.pc, w.state.done, w.state.scc, w.state.sgpr.tobytes(), w.state.vgpr.tobytes(),
                   w.state.agpr.tobytes(), w.state.vgpr_init.tobytes()) for w in sim.engine.waves)
    mem = tuple(b.data.tobytes() for b in sim.memory.buffers)
    return (s.now, s.prompt(), waves, sim.lds.data.tobytes(), mem, len(sim.hazards),
            s.execute("counters"), s.execute("pipeline"), s.execute("list"))


@pytest.mark.parametrize("program", [DEMO, ROOT / "programs" / "lds_dma_copy.s"])
def test_back_restores_exactly_what_each_earlier_stop_showed(program):
    from gcnemu.debugger import Session
    s = Session.from_file(str(program), snapshot_interval=7)  # few snapshots: most backs replay
    seen = [_state(s)]
    for _ in range(1000):  # step wave 0 to its end (other waves run meanwhile)
        out = s.execute("step")
        if out.startswith(("error:", "The program has finished")):
            break
        seen.append(_state(s))
    else:
        pytest.fail("wave 0 never ended")
    assert len(seen) > 10
    for expected in reversed(seen):
        assert _state(s) == expected
        s.execute("back")
    assert s.execute("back").startswith("Already at the start")


def test_reverse_cycle_lands_on_the_cycle_asked_with_the_state_of_that_cycle(tmp_path):
    from gcnemu.debugger import Session
    s = Session.from_file(str(DEMO))
    states = {}
    for _ in range(40):
        s.execute("cycle 17")
        states[s.now] = _state(s)
    for cycle in sorted(states, reverse=True)[::3]:
        s.execute(f"reverse-cycle {s.now - cycle}" if s.now > cycle else "cycle 0")
        assert s.now == cycle
        assert _state(s) == states[cycle]


def test_snapshots_fall_back_to_deep_copies_without_engine_support():
    from gcnemu.debugger import Session
    s = Session.from_file(str(DEMO))
    s.tm._native = False
    s.tm.snaps.clear()
    s.tm.save()
    first = _state(s)
    s.execute("continue")
    s.execute("back 100")
    assert _state(s) == first


def test_info_snapshots_reports_the_measured_cost(tmp_path):
    code, steps, _ = batch(tmp_path, DEMO, "continue", "back 5", "info snapshots")
    out = steps[2].output
    assert re.search(r"snapshots kept: \d+ \([\d.]+ MB, Engine.snapshot\(\)\)", out)
    assert re.search(r"snapshots taken: \d+, [\d.]+ ms each", out)
    assert re.search(r"restores: 1, [\d.]+ ms each", out)


def test_wait_state_violations_found_by_the_rule_monitor_stop_the_run_too(tmp_path):
    # the demo without its `s_nop 1`: the MFMA reads v[6:7] too soon after the VALU wrote v7
    prog = write(tmp_path, "nonop.s", DEMO.read_text().replace("\ts_nop 1 ", "\t// s_nop 1 "))
    code, steps, _ = batch(tmp_path, prog, "continue", "continue")
    out = steps[0].output
    assert out.startswith("Hazard:") and "[valu-vgpr-mfma-read]" in out
    assert f"{prog}:{L_MFMA}:2: warning: v_mfma_f32_32x32x8f16" in out
    assert f"{prog}:{L_MFMA - 2}:2: note: v_mov_b32 was issued here" in out
    assert "The program finished" in steps[1].output


@pytest.mark.parametrize("command, error", [
    ("print mfma a[0:15] as Q of v_mfma_f32_32x32x8f16",
     "error: the MFMA operand must be A, B, C or D, not 'Q' (print mfma REGS as A|B|C|D of MNEMONIC, "
     "e.g. `print mfma a[0:15] as D of v_mfma_f32_32x32x8f16`)"),
    ("print mfma", "error: print mfma: which registers?"),
    ("print mfma a[0:15]", "error: print mfma: expected 'as' after a[0:15]"),
    ("print mfma a[0:15] as", "error: print mfma: expected the operand (A, B, C or D) after 'as'"),
    ("print mfma a[0:15] as D", "error: print mfma: expected 'of MNEMONIC' after the operand"),
    ("print mfma a[0:15] as D of", "error: print mfma: which MFMA instruction?"),
    ("print mfma a[0:15] as D of v_mfma_f32_32x32x8f16 now",
     "error: print mfma: unexpected 'now' after v_mfma_f32_32x32x8f16"),
    ("print mfma q[0:15] as D of v_mfma_f32_32x32x8f16", "error: print mfma: "),
])
def test_a_malformed_print_mfma_says_what_is_wrong_with_it(tmp_path, command, error):
    """`print mfma` is a form of its own: a mistake in it is named, never `unknown name 'mfma'`."""
    code, steps, text = batch(tmp_path, DEMO, command)
    out = steps[0].output
    assert error in out and "unknown name" not in out and "Traceback" not in text
