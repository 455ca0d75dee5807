"""Issue 18 (items 7-10, 14): files that cannot be read or written, debugger internal errors,
run limits and what a stopped run reports.

Each test is a one-line reproduction from the issue, run through the real command line, and
asserts what the user sees: a one-line `gcnemu: error: ...` (or an llvm-mc style
`file:line:col:` diagnostic) and exit status 1 or 2, never a Python traceback; a run that a
limit stops names the limit, the file, the line and what each wave was doing.
"""
from __future__ import annotations

import builtins
import io
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gcnemu.cli import main

LOOP = "loop:\n  s_branch loop\n"  # line 2 jumps to itself forever
DONE = "  s_nop 0\n  s_endpgm\n"
# wave 1 spins at line 13, wave 0 waits at the s_barrier on line 8, waves 2 and 3 end
BARRIER = """\
; gcnemu:
;   workgroup: 256
  v_readfirstlane_b32 s2, v0
  s_cmp_eq_u32 s2, 64
  s_cbranch_scc1 spin
  s_cmp_eq_u32 s2, 0
  s_cbranch_scc0 done
  s_barrier
done:
  s_endpgm
spin:
  s_sleep 1
  s_branch spin
"""
# a load that takes longer than --max-cycles: the wave waits at line 7
SLOW_LOAD = """\
; gcnemu:
;   buffer A: u32[64] = 0
;   arg: A
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  global_load_dword v1, v0, s[4:5]
  s_waitcnt vmcnt(0)
  s_endpgm
"""
# `expect cycles: 2` is wrong (s_nop + s_endpgm take longer), so `gcnemu test --update` rewrites it
STALE_CYCLES = "; gcnemu:\n;   expect cycles: 2\n" + DONE


def gcnemu(capsys, *argv) -> tuple[int, str, str]:
    """Run the command line in-process: (exit status, stdout, stderr); argparse errors included."""
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err, out + err
    return rc, out, err


@pytest.fixture
def write(tmp_path):
    def make(name: str, text: str | bytes) -> Path:
        path = tmp_path / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return path
    return make


@pytest.fixture
def deny(monkeypatch):
    """Take a permission away from a file: chmod, and where permission bits do not bind (root)
    an open() that refuses as the kernel would, so the test means the same for every user."""
    def take(path: Path, writing_only: bool) -> None:
        path.chmod(0o444 if writing_only else 0)
        if os.geteuid() != 0:
            return
        real = builtins.open

        def guarded(file, mode="r", *args, **kwargs):
            writes = any(c in mode for c in "wax+")
            if os.fspath(file) == os.fspath(path) and (writes or not writing_only):
                raise PermissionError(13, "Permission denied", os.fspath(file))
            return real(file, mode, *args, **kwargs)
        monkeypatch.setattr(builtins, "open", guarded)
        monkeypatch.setattr(io, "open", guarded)
    return take


def transcript(capsys, write, program: str, commands: str, *options) -> tuple[int, str]:
    path = write("k.s", program)
    cmds = write("cmds.txt", commands)
    rc, out, err = gcnemu(capsys, "step", path, "--batch", cmds, *options)
    return rc, out + err


# ---------------------------------------------------------------- 7. files

@pytest.mark.parametrize("toml, message", [
    (b"\xff\xfe[latency]\n", "not UTF-8 text (byte 0xff at offset 0)"),
    (b'[latency]\nvmem = "slow"\n', "latency 'vmem' must be a non-negative integer"),
    (b"[latency]\nvmem = 1.5\n", "latency 'vmem' must be a non-negative integer"),
    (b"[latency]\nvmem = true\n", "latency 'vmem' must be a non-negative integer"),
    (b"latency = 5\n", "'latency' must be a table"),
    (b"memory = 5\n", "'memory' must be an array of tables"),
    (b"memory = [1]\n", "'memory' must be an array of tables"),
    (b'[[memory]]\nbuffer = "A"\nvmem = -5\n', "[[memory]] entry 1: vmem must be a non-negative integer"),
    (b'[[memory]]\nbuffer = "A"\nvmem = "slow"\n', "[[memory]] entry 1: vmem must be a non-negative integer"),
    (b'[[memory]]\nbuffer = ["A"]\nvmem = 5\n', "[[memory]] entry 1: 'buffer' must be a buffer name"),
    (b'[[memory]]\nbase = "x"\nsize = 4\nvmem = 5\n', "[[memory]] entry 1: base must be a non-negative integer"),
])
@pytest.mark.parametrize("command", ["run", "timeline", "step"])
def test_a_malformed_latency_file_is_a_one_line_error(capsys, write, toml, message, command):
    lat = write("lat.toml", toml)
    rc, out, err = gcnemu(capsys, command, write("k.s", SLOW_LOAD), "--latency-file", lat)
    assert rc == 1
    assert err.strip() == f"gcnemu: error: {lat}: {message}" or \
        (err.startswith(f"gcnemu: error: {lat}: {message}") and len(err.strip().splitlines()) == 1), err


# ---------------------------------------------------------------- 8. debugger internal errors

def test_break_on_an_empty_program_says_there_is_nothing_to_stop_at(capsys, write):
    rc, text = transcript(capsys, write, "", "break 5\n")
    assert "error: the program has no instructions to stop at" in text
    assert rc == 1


def test_reverse_cycle_right_after_the_end_goes_back(capsys, write):
    rc, text = transcript(capsys, write, DONE, "continue\nreverse-cycle\nreverse-cycle\n")
    assert rc == 0
    assert "The program finished at cycle 5." in text
    assert "cycle 5 -> 3 (-2)" in text  # the last step jumps from @4 to the end: back to just before it
    assert "cycle 3 -> 2 (-1)" in text


@pytest.mark.parametrize("expr", ["(" * 500 + "1" + ")" * 500, "-" * 500 + "1", "any(" * 100 + "v0" + ")" * 100])
def test_a_deeply_nested_expression_is_an_error_not_a_recursion_error(capsys, write, expr):
    rc, text = transcript(capsys, write, DONE, f"print {expr}\nbreak if {expr}\nprint 1+2\n")
    assert text.count("error: ") == 2 and "nests more than 40 levels deep" in text
    assert "1+2 = 3" in text  # the session goes on
    assert rc == 1


def test_a_long_operator_chain_is_an_error_not_a_recursion_error(capsys, write):
    rc, text = transcript(capsys, write, DONE, "print " + "+".join(["1"] * 3000) + "\n")
    assert "more than 200 operators in a chain" in text
    assert rc == 1
