"""`gcnemu step` in a real terminal (pexpect pty): the REPL a kernel author types into.

The same proof as the batch tests, through prompt_toolkit: break at a line, step across
an s_waitcnt (the cycle jumps, the counter drains), watch an LDS DMA land, go back and
see the earlier value; plus what only a terminal has: tab completion, Ctrl-C stopping a
long `continue` without killing the session, Ctrl-D leaving with status 0.
"""
from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "programs" / "debug_demo.s"
PROMPT = r"\(w\d+ (?:line \d+|ended) cycle \d+\)"
END_OF_INPUT = "\x1b[?2004l"  # prompt_toolkit turns bracketed paste off when a line is accepted
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
L_LOAD, L_DMA, L_WAIT, L_DS_READ = 21, 24, 26, 27


def spawn(program: Path, tmp_path) -> "pexpect.spawn":
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", HOME=str(tmp_path), COLUMNS="200")
    child = pexpect.spawn(sys.executable, ["-m", "gcnemu", "step", str(program)], env=env, encoding="utf-8",
                          timeout=60, dimensions=(50, 200), cwd=str(ROOT))
    child.expect(PROMPT)
    return child


def command(child, text: str) -> str:
    """Type a command, wait for the next prompt, return what was printed in between (no escapes)."""
    child.sendline(text)
    child.expect_exact(END_OF_INPUT)  # prompt_toolkit redraws the prompt while we type: skip to the output
    child.expect(PROMPT)
    return ANSI.sub("", child.before)


def prompt_cycle(child) -> int:
    return int(re.search(r"cycle (\d+)\)", child.after).group(1))


def test_the_proof_in_a_terminal(tmp_path):
    child = spawn(DEMO, tmp_path)
    try:
        assert f"line {L_LOAD - 1} cycle 0" in child.after

        out = command(child, f"break {L_WAIT}")
        assert f"Breakpoint 1 at line {L_WAIT}" in out
        out = command(child, "continue")
        assert f"Breakpoint 1, wave 0 at line {L_WAIT}" in out
        assert f"line {L_WAIT} " in child.after
        at_wait = prompt_cycle(child)

        out = command(child, "counters")
        assert re.search(r"vmcnt\s+2 ", out)
        last = max(int(c) for c in re.findall(r"completes @(\d+)", out))

        out = command(child, "watch lds[0x100]")
        assert "a write is already in flight: buffer_load_dword" in out

        out = command(child, "step")  # across the s_waitcnt: the DMA lands, the clock jumps
        assert f"Watchpoint 2 (lds[0x100]): written at cycle {last} by wave 0, buffer_load_dword (line {L_DMA})" in out
        assert "new: 0x00000064" in out
        assert f"cycle {at_wait} -> {last}" in out
        assert prompt_cycle(child) == last and f"line {L_DS_READ} " in child.after
        assert re.search(r"vmcnt\s+0 ", command(child, "counters"))
        assert "v2[lane 1] = 0.5" in command(child, "p/f v2[lane 1]")

        out = command(child, "reverse-step")
        assert prompt_cycle(child) == at_wait and f"line {L_WAIT} " in child.after
        assert "sees: ?" in command(child, "p/f v2[lane 1]")  # not loaded yet, again
        assert "0x100: 0x00000000" in command(child, "x lds 0x100 1")

        # typos never end the session
        assert "error: unknown command 'frobnicate'" in command(child, "frobnicate")
        assert "error: 'v300': v300 does not exist" in command(child, "p v300")

        # tab completion of a command, then of a register name
        child.send("coun\t")
        child.expect("counters")
        assert "vmcnt" in command(child, "")
        child.send("print exe\t")
        child.expect("exec")
        assert "exec = 0xffffffffffffffff" in command(child, "")

        child.sendcontrol("d")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_ctrl_c_interrupts_a_long_continue_and_the_session_goes_on(tmp_path):
    spin = tmp_path / "spin.s"
    spin.write_text("\ts_mov_b32 s0, 0x7fffffff\nspin:\n\ts_sub_u32 s0, s0, 1\n\ts_cmp_lg_u32 s0, 0\n"
                    "\ts_cbranch_scc1 spin\n\ts_endpgm\n")
    child = spawn(spin, tmp_path)
    try:
        child.sendline("continue")
        child.expect_exact(END_OF_INPUT)
        time.sleep(1.0)
        child.sendintr()
        child.expect("Interrupted.")
        child.expect(PROMPT)
        stopped = prompt_cycle(child)
        assert stopped > 0
        out = command(child, "p s0")
        # Ctrl-C can land while the s_sub_u32 result is still in flight: print then says so first
        m = re.search(r"s0 = (?:\[in flight from line 3, lands @\d+\] )?0x([0-9a-f]+)", out)
        assert m, out
        left = int(m.group(1), 16)
        assert 0 < left < 0x7fffffff
        command(child, "back")
        assert prompt_cycle(child) < stopped
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        if child.isalive():
            child.terminate(force=True)
