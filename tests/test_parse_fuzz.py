"""Property: whatever the bytes, parse + validate return diagnostics and never raise.

Inputs are real kernel lines from `programs/**/*.s` damaged the way an editor or a bad
copy-paste damages them (a character inserted, deleted, or two swapped; several lines at
once; CRLF endings), plus plain random bytes. For every input:

- `parse` and `validate` return (no exception, no `internal` diagnostic, which is how
  validation reports a crash of its own);
- every diagnostic (and note) points inside the input: its line exists, its column is
  within the line or just past its end (where llvm-mc puts "unexpected end of statement").
"""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import pytest

from gcnemu.asm.parse import parse
from gcnemu.asm.validate import validate

ROOT = Path(__file__).resolve().parents[1]


def _pool() -> list[str]:
    lines = []
    for path in sorted(ROOT.glob("programs/**/*.s")):
        for ln in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if ln.strip() and not ln.lstrip().startswith("//"):
                lines.append(ln)
    return sorted(set(lines))


POOL = _pool()
TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
# characters that matter to the scanner and the grammar, plus a few that must be refused politely
ALPHABET = list("abcdefghijklmnopqrstuvwxyz_0123456789 \t,:;[]()|&-+*/<>~!^%.\"'$@#=xvsa") + \
    ["/*", "*/", "//", "\r", "\x00", "\x7f", "\u00e9", "\ufffd", "\u200b", "0x", "1.5", "v[", "s[0:", "offset:",
     "vmcnt(", "neg_lo:[", "swizzle(", "\"", "done", "off", "-|", "|"]


@st.composite
def damaged_line(draw) -> str:
    line = draw(st.sampled_from(POOL))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("insert", "delete", "swap")))
        i = draw(st.integers(0, len(line)))
        if op == "insert":
            line = line[:i] + draw(st.sampled_from(ALPHABET)) + line[i:]
        elif op == "delete" and line:
            i = min(i, len(line) - 1)
            line = line[:i] + line[i + 1:]
        elif op == "swap" and len(line) > 1:
            i = min(i, len(line) - 2)
            line = line[:i] + line[i + 1] + line[i] + line[i + 2:]
    return line


@st.composite
def damaged_file(draw) -> str:
    lines = draw(st.lists(st.one_of(damaged_line(), st.sampled_from(POOL)), min_size=1, max_size=6))
    eol = draw(st.sampled_from(("\n", "\r\n")))
    return eol.join(lines) + draw(st.sampled_from(("", eol)))


def _check(data, target: str) -> None:
    prog = parse(data, "fuzz.s")
    diags = validate(prog, target)
    n = len(prog.lines)
    for d in diags:
        assert d.rule != "internal", d.message
        for x in [d, *d.notes]:
            if x.span is None:
                continue
            assert x.span.file == "fuzz.s"
            assert 1 <= x.span.line <= max(n, 1), (x.message, x.span, n)
            width = len(prog.lines[x.span.line - 1]) if n else 0
            assert 1 <= x.span.column <= width + 1, (x.message, x.span, width)


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_pool_is_real_kernel_code():
    assert len(POOL) > 200
    assert any("v_mfma" in ln for ln in POOL) and any("s_waitcnt" in ln for ln in POOL)


@FAST
@given(damaged_file(), st.sampled_from(TARGETS), st.sampled_from(("text", "utf-8 bytes", "bytes with a bad byte")))
def test_damaged_kernel_lines_give_diagnostics_inside_the_input(text, target, form):
    if form == "text":
        _check(text, target)
        return
    data = text.encode("utf-8")
    if form == "bytes with a bad byte":
        data = data[: len(data) // 2] + b"\xff" + data[len(data) // 2:]
    _check(data, target)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400), st.sampled_from(TARGETS))
def test_random_bytes_give_diagnostics_inside_the_input(data, target):
    _check(data, target)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=60).map("".join))
def test_random_text_from_the_assembler_s_alphabet(text):
    _check(text, "gfx90a")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example("\tglobal_store_dword v73,& v65, s[8:9] offset:256")
@example("s_nop ,0")
@example("global_load_lds_dwordv1, s[4:5] offset:4")
@example("s_mov_b32 s0, " + "-" * 3000 + "1\ns_nop " + "9" * 5000 + "\ns_waitcnt vmcnt(0) & 1 & lgkmcnt(0)")
@given(damaged_file())
def test_the_fast_path_builds_what_the_grammar_builds_on_damaged_lines(text):
    """The regex fast path is an optimisation: on any input it must agree with the Lark grammar."""
    fast, slow = parse(text, "f.s"), parse(text, "f.s", fast=False)
    assert fast.statements == slow.statements
    assert [(d.message, d.span) for d in fast.diagnostics] == [(d.message, d.span) for d in slow.diagnostics]
