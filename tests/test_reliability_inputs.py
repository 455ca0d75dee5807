"""Inputs that used to crash or mislead `gcnemu run` (issue 18), each as its one-line reproduction.

Every case is what a user types: a snippet file and the CLI. The outcome is either the right
result or an llvm-mc style error (`file:line:col: error: ...`) on the offending header text,
with exit code 1, and never a Python traceback.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from gcnemu.cli import main


def write(tmp_path, text: str, name: str = "k.s") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return str(path)


def gcnemu(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


def header_file(tmp_path, statement: str) -> tuple[str, str]:
    """A one-instruction snippet whose header holds `statement` on line 3; (path, that line)."""
    line = f";   {statement}"
    return write(tmp_path, f"; gcnemu:\n;   arch: gfx90a\n{line}\ns_endpgm\n"), line


def error_at(path: str, line: str, piece: str, message: str) -> str:
    """The llvm-mc style error line for `piece` of header line 3."""
    return f"{path}:3:{line.index(piece) + 1}: error: {message}"


# ---------------------------------------------------------------- 1. stores with EXEC = 0

@pytest.mark.parametrize("store", ["global_store_dword v1, v3, s[6:7]", "flat_store_dword v[4:5], v3",
                                   "ds_write_b32 v1, v3"])
def test_a_store_with_exec_zero_runs_and_stores_nothing(tmp_path, capsys, store):
    # compiler output has if-bodies without s_cbranch_execz: every lane is off, nothing is written
    path = write(tmp_path, f"""
        ; gcnemu:
        ;   arch: gfx90a
        ;   buffer out: u32[64] = 7 -> s[6:7]
        ;   vgpr v1 = lane * 4
        ;   vgpr v3 = 5
        ;   expect out = 7
        ;   expect lds[0]: u32[64] = 0
        s_mov_b64 exec, 0
        {store}
        s_waitcnt vmcnt(0) lgkmcnt(0)
        s_endpgm
        """)
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 0, err
    assert "check: passed (2 expectations)" in out


# ---------------------------------------------------------------- 3. header values above 64 bits

@pytest.mark.parametrize("statement, piece, message", [
    ("sgpr s5 = 2**70", "2**70", "initial value of s5: the value does not fit in 64 bits"),
    ("expect v1 = 2**64", "2**64", "expected value of v1: the value does not fit in 64 bits"),
    ("workgroup-id: 1, 2**40", "2**40", "a workgroup id must be at most 4294967295 (0xffffffff)"),
])
def test_a_header_value_above_64_bits_is_an_error_on_its_line(tmp_path, capsys, statement, piece, message):
    path, line = header_file(tmp_path, statement)
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 1
    assert error_at(path, line, piece, message) in err.splitlines()


# ---------------------------------------------------------------- 4. negative kernel arguments

ARGS_KERNEL = """
    ; gcnemu:
    ;   arch: gfx90a
    ;   expect s2 = 0xffffffff
    ;   expect s[4:5] = -2**40 : i64
    s_load_dword s2, s[0:1], 0x0
    s_load_dwordx2 s[4:5], s[0:1], 0x8             // a 64-bit argument sits at its natural alignment
    s_waitcnt lgkmcnt(0)
    s_endpgm
    """


def test_a_negative_kernel_argument_is_stored_as_twos_complement_of_its_size(tmp_path, capsys):
    # -1 fits 32 bits (4 bytes, 0xffffffff); -2**40 needs the 8-byte form
    path = write(tmp_path, ARGS_KERNEL)
    rc, out, err = gcnemu(capsys, "run", path, "--arg", "n=-1", "--arg", "m=-2**40")
    assert rc == 0, err
    assert "check: passed (2 expectations)" in out


def test_a_kernel_argument_beyond_64_bits_is_an_error(tmp_path, capsys):
    path = write(tmp_path, ARGS_KERNEL)
    rc, out, err = gcnemu(capsys, "run", path, "--arg", "n=-2**64")
    assert rc == 1
    assert "<command line>:1:9: error: a kernel argument must fit in 64 bits" in err.splitlines()


# ---------------------------------------------------------------- 5. a buffer with nothing to size it

def test_a_buffer_with_a_type_but_no_shape_or_contents_is_an_error(tmp_path, capsys):
    path, line = header_file(tmp_path, "buffer t: u32")
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 1
    assert error_at(path, line, "t: u32", "buffer 't' needs a shape (e.g. u32[64]) or contents") in err.splitlines()


# ---------------------------------------------------------------- 6. non-ASCII letters and digits

@pytest.mark.parametrize("char", ["\u0663", "\u00e9"])  # ARABIC-INDIC DIGIT THREE, LATIN SMALL E WITH ACUTE
def test_a_non_ascii_letter_or_digit_in_a_header_expression_is_an_error(tmp_path, capsys, char):
    # Python's int() would read the Arabic-Indic three as 3: refused rather than guessed
    path, line = header_file(tmp_path, f"sgpr s5 = {char}")
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 1
    message = (f"unexpected character '{char}': header statements are written in ASCII "
               "(other characters only inside quotes)")
    assert error_at(path, line, char, message) in err.splitlines()


# ---------------------------------------------------------------- 12. npy() reads regular files only

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_npy_naming_a_fifo_is_an_error_not_a_hang(tmp_path):
    os.mkfifo(tmp_path / "x.npy")
    path, line = header_file(tmp_path, 'vgpr v1 = npy("x.npy")')
    # a subprocess with a timeout: the bug was a read that never returns
    res = subprocess.run([sys.executable, "-m", "gcnemu", "run", path], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 1
    assert "Traceback" not in res.stderr
    assert error_at(path, line, "npy", "npy(): 'x.npy' is not a regular file") in res.stderr.splitlines()


# ---------------------------------------------------------------- 15. expectations that select nothing

def test_an_expectation_for_a_wave_the_kernel_does_not_have_fails(tmp_path, capsys):
    path, line = header_file(tmp_path, "expect v1 = 12345 : wave 3")
    rc, out, err = gcnemu(capsys, "run", path)
    assert rc == 1
    assert "check: FAILED (1 failure, 1 expectations)" in out  # failures are the report: on stdout
    assert error_at(path, line, "expect", "wave 3 selects no wave: the kernel runs 1 wave (wave 0)") \
        in out.splitlines()
