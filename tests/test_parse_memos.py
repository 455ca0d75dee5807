"""The parser's and preprocessor's memos by text change nothing.

`parse` remembers, per distinct text, what a line is (`_line_shape`), how its symbolic register
indices fold (kept across `.set`s that do not touch the symbols the text names), the value of
each index expression (keyed by the values of the names it reads) and a generated builder per
statement recipe. With the memos off (`parse_mod._MEMOS = False`: recipes go through the generic
`_build`; and the preprocessor's plain-line shortcut taking no line) every line takes every
step, as before the memos existed; both must give the same Program, object for object, and the
same validation.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from gcnemu.asm import macros
from gcnemu.asm import parse as parse_mod
from gcnemu.asm.validate import validate

ROOT = Path(__file__).resolve().parents[1]

# symbols reassigned between uses of the same text (the fold memo must drop what they touched and
# keep the rest), index values that widen the text, directives, labels, comments, a kernel block
SOURCE = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.set vA, 4
.set vB, 8
.set sK, 2
v_mov_b32 v[vA], v[vB+1]          // v4 = v9
v_mov_b32 v[vA+1], v[vB]
s_mov_b32 s[sK], 0                ; = 0
.set vA, 100
v_mov_b32 v[vA], v[vB+1]          // same text, another vA: wider
v_mov_b32 v[vA+1], v[vB]
s_mov_b32 s[sK], 0                ; sK untouched
.set vB, vA
v_mov_b32 v[vA], v[vB+1]
vA = 4
v_mov_b32 v[vA], v[vB+1]
v_add_u32 v[vA:vA], vB, v1        // a symbol outside the brackets: the grammar's
v_mov_b32 v[undefinedSym], v0     // no constant
v_mov_b32 v[0x5$b], v0
s_load_dwordx2 s[sK:sK+1], s[0:1], 0x0
lab1: v_mov_b32 v[vA], v[vB+1]
lab2:
  v_mov_b32 v[vA], v[vB+1] /* a block
comment */ v_mov_b32 v[vA], v[vB+1]
v_mov_b32 v[vA], v[vB+1]
.long 0x1, 0x2
.long 0x1, 0x2
.LONG 3
.unknown_directive 1
.unknown_directive 1
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.amdhsa_next_free_vgpr 8
# 12 "x.c"
v_mov_b32 v[vA], lit(1)
v_mov_b32 v[vA], lit(1)
"""

MACRO_SOURCE = """\
.set vA, 4
.macro M r
  v_mov_b32 v[vA+\\r], v[vA]   // v = \\r
  .long \\r
.endm
M 1
M 1
.set vA, 40
M 1
.rept 3
  vA = vA + 1
  v_mov_b32 v[vA], v[vA+1]
  v_mov_b32 v[vA], v[vA+1]
.endr
.if vA > 5
  v_mov_b32 v[vA], 0 // = 0
.endif
v_mov_b32 v[vA], 0 // = 0
"""


def _parse_both(text: str, file: str, target: str):
    memo = parse_mod.parse(text, file, target=target)
    memo_diags = validate(memo, target)
    saved_plain_word = macros._plain_word
    try:
        parse_mod._MEMOS = False
        macros._plain.clear()
        macros._plain_word = lambda text: False
        ref = parse_mod.parse(text, file, target=target)
        ref_diags = validate(ref, target)
    finally:
        parse_mod._MEMOS = True
        macros._plain_word = saved_plain_word
        macros._plain.clear()
    return memo, memo_diags, ref, ref_diags


def _same(text: str, file: str, target: str = "gfx90a") -> None:
    memo, memo_diags, ref, ref_diags = _parse_both(text, file, target)
    assert len(memo.statements) == len(ref.statements)
    for a, b in zip(memo.statements, ref.statements):
        assert a == b, f"{file}:{getattr(a, 'span', None)}: with memos {a!r} != without {b!r}"
    assert [(d.message, d.span, [(n.message, n.span) for n in d.notes]) for d in memo.diagnostics] == \
        [(d.message, d.span, [(n.message, n.span) for n in d.notes]) for d in ref.diagnostics]
    assert memo.expansions == ref.expansions
    assert [(d.severity, d.message, d.span) for d in memo_diags] == [(d.severity, d.message, d.span) for d in ref_diags]


@pytest.mark.parametrize("name,text", [("plain.s", SOURCE), ("macros.s", MACRO_SOURCE),
                                       ("both.s", MACRO_SOURCE + SOURCE)])
def test_memos_change_nothing(name, text):
    _same(text, name)


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "corpus").glob("**/*.s")), ids=lambda p: p.name)
def test_memos_change_nothing_on_real_kernels(path):
    text = path.read_text()
    target = "gfx942" if "gfx942" in text[:5000] or "gfx940" in text[:5000] else "gfx90a"
    _same(text, str(path), target)
