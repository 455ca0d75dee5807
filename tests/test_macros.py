"""Macro expansion (gcnemu.asm.macros): unit tests, and a differential check against llvm-mc 22.

The differential test assembles each case twice with llvm-mc: the original text
(llvm-mc expands the macros itself) and gcnemu's expansion. The printed
instruction streams must be identical.
"""
from __future__ import annotations

import os
import subprocess
import textwrap

import pytest

from gcnemu.asm.diagnostics import render
from gcnemu.asm.macros import expand, expand_detailed

LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"


def _lines(src: str) -> list[str]:
    return textwrap.dedent(src).strip("\n").split("\n")


def _texts(src: str) -> list[str]:
    out, diags = expand(_lines(src), "t.s")
    assert not diags, [render(d) for d in diags]
    return [t.strip() for t, _, _ in out if t.strip()]


def _errors(src: str) -> list[str]:
    _, diags = expand(_lines(src), "t.s")
    return [f"{d.span.line}:{d.span.column}: {d.message}" for d in diags if d.severity == "error"]


CASES = {
    "positional_default": """
        .macro ADD d, a, b=v2
          v_add_u32 \\d, \\a, \\b
        .endm
        ADD v0, v1
        ADD v3 v4 v5
        ADD b=v9, d=v8, a=v7
    """,
    "concat_counter": """
        .macro Cat n
          v_mov_b32 v\\n\\(), \\@
        .endm
        Cat 3
        Cat 4
        Cat 5
    """,
    "rept_set": """
        .set N, 2
        .set M, N*2+1
        .rept M - N
          s_nop 0
        .endr
        .rept 0
          s_nop 7
        .endr
    """,
    "irp_irpc": """
        .irp r, 1, 2, 3
        v_mov_b32 v\\r, 0
        .endr
        .irpc c, 567
        v_mov_b32 v\\c, s\\c
        .endr
    """,
    "vararg_req": """
        .macro V a:req, rest:vararg
        s_nop \\a
        .byte \\rest
        .endm
        V 1, 2, 3, 4
    """,
    "exitm": """
        .macro E
        s_nop 7
        .exitm
        s_nop 6
        .endm
        E
        E
    """,
    "if_else": """
        .set N, 2
        .if N == 2
        s_nop 1
        .else
        s_nop 0
        .endif
        .if N > 3
        s_nop 2
        .elseif N
        s_nop 3
        .else
        s_nop 4
        .endif
    """,
    "nesting": """
        .macro LOAD_TILE base, off
          .rept 2
            global_load_dword v\\base, v[2:3], off offset:\\off
          .endr
        .endm
        .macro TILES
          .irp b, 10, 11
            LOAD_TILE \\b, 16
          .endr
        .endm
        TILES
        .purgem TILES
        .macro TILES
          s_nop 1
        .endm
        TILES
    """,
    "mfma_unroll": """
        .macro MFMA_STEP i
          v_mfma_f32_32x32x8f16 a[0:15], v[\\i:\\i+1], v[\\i+2:\\i+3], a[0:15]
        .endm
        .irp k, 0, 4, 8
          MFMA_STEP \\k
        .endr
    """,
    "macro_in_macro_with_if": """
        .macro CLEAR n, first=0
          .if \\n
            s_mov_b32 s0, \\first
            CLEAR (\\n-1), (\\first+1)
          .endif
        .endm
        CLEAR 3
    """,
    "comments_labels": """
        .macro M x // comment
          s_nop \\x ; trailing
        .endm
        loop: ; label before nothing
          M 2   /* block */
        .rept 2 ; count
          s_nop 0
        .endr ; end
    """,
}


EXPECTED = {
    "positional_default": ["v_add_u32 v0, v1, v2", "v_add_u32 v3, v4, v5", "v_add_u32 v8, v7, v9"],
    "concat_counter": ["v_mov_b32 v3, 0", "v_mov_b32 v4, 1", "v_mov_b32 v5, 2"],
    "irp_irpc": ["v_mov_b32 v1, 0", "v_mov_b32 v2, 0", "v_mov_b32 v3, 0",
                 "v_mov_b32 v5, s5", "v_mov_b32 v6, s6", "v_mov_b32 v7, s7"],
    "vararg_req": ["s_nop 1", ".byte 2, 3, 4"],
    "exitm": ["s_nop 7", "s_nop 7"],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_expansion_text(name):
    assert _texts(CASES[name]) == EXPECTED[name]


def test_rept_counts_from_set_symbols():
    assert _texts(CASES["rept_set"]) == [".set N, 2", ".set M, N*2+1", "s_nop 0", "s_nop 0", "s_nop 0"]


def test_if_else_chain():
    assert _texts(CASES["if_else"]) == [".set N, 2", "s_nop 1", "s_nop 3"]


def test_recursive_macro_with_if_terminates():
    assert _texts(CASES["macro_in_macro_with_if"]) == ["s_mov_b32 s0, 0", "s_mov_b32 s0, (0+1)",
                                                        "s_mov_b32 s0, ((0+1)+1)"]


def test_spans_point_into_the_macro_body_and_record_the_instantiation():
    src = _lines(CASES["nesting"])
    out, diags = expand_detailed(src, "t.s")
    assert not diags
    loads = [ln for ln in out if "global_load" in ln.text]
    assert len(loads) == 4
    assert all(ln.line == 3 for ln in loads)  # the body line inside LOAD_TILE
    # chain, outermost first: TILES call (11), its .irp (7), the LOAD_TILE call (8), LOAD_TILE's .rept (2)
    assert loads[0].chain == (11, 7, 8, 2)
    triples, _ = expand(src, "t.s")
    assert [(t, ln, inst) for t, ln, inst in triples if "global_load" in t][0][1:] == (3, 11)
    plain = [t for t in triples if t[0].strip() == ".purgem TILES"]
    assert not plain  # .purgem is consumed
    last = [t for t in triples if t[0].strip() == "s_nop 1"]
    assert last == [("  s_nop 1", 14, 16)]


def test_plain_lines_pass_through_unchanged():
    src = ["  v_mov_b32 v0, v1 ; c", "lab:", ".amdgpu_metadata", "  .rept: 3", ".end_amdgpu_metadata", "s_endpgm"]
    out, diags = expand(src, "t.s")
    assert not diags
    assert out == [(t, i, None) for i, t in enumerate(src, start=1)]


def test_macro_names_are_case_sensitive():
    out = _texts("""
        .macro Foo
        s_nop 1
        .endm
        foo
    """)
    assert out == ["foo"]


@pytest.mark.parametrize("src, expected", [
    (".macro R a:req\ns_nop \\a\n.endm\nR", "4:2: missing value for required parameter 'a' in macro 'R'"),
    (".macro R a:req\ns_nop \\a\n.endm\nR 1, 2", "4:6: too many positional arguments"),
    (".macro R a:req\ns_nop \\a\n.endm\nR x=1", "4:3: parameter named 'x' does not exist for macro 'R'"),
    (".rept -1\ns_nop 0\n.endr", "1:7: Count is negative"),
    (".endr", "1:6: unmatched '.endr' directive"),
    (".exitm", "1:1: unexpected '.exitm' in file, no current macro definition"),
    (".endm", "1:6: unexpected '.endm' in file, no current macro definition"),
    (".purgem foo", "1:1: macro 'foo' is not defined"),
    (".macro q\ns_nop 0", "1:1: no matching '.endmacro' in definition"),
    (".rept 3\ns_nop 0", "1:1: no matching '.endr' in definition"),
    # a name ends where an identifier ends: `.if(x)` and `assert(x)` (MIOpen's static_assert)
    (".if(undefined_x > 2)\n.endif", "1:4: expected absolute expression ('undefined_x' is not a known constant)"),
    (".macro sa x\n.if !\\x\n.error \"\\x is false\"\n.endif\n.endm\nsa(2 == 1)", "3:1: (2 == 1) is false"),
    # `.end` inside a macro ends its instantiation: the open .if is unmatched at the .endm
    (".macro sa x\n.if !\\x\n.end\n.endif\n.endm\nsa 0", "5:1: unmatched .ifs or .elses"),
])
def test_errors_match_llvm_mc(src, expected):
    errs = _errors(src)
    assert errs and errs[0] == expected


def test_recursion_limit_is_a_diagnostic_with_notes():
    src = _lines("""
        .macro Z
        Z
        .endm
        Z
    """)
    out, diags = expand(src, "t.s")
    assert len(diags) == 1
    d = diags[0]
    assert d.message.startswith("macros cannot be nested more than 20 levels deep")
    assert d.span.line == 2
    assert all(n.message == "while in macro instantiation" for n in d.notes)
    assert d.notes[-1].span.line == 4  # the outermost note is the user's call


def test_huge_rept_is_refused_without_expanding():
    out, diags = expand([".rept 1000000000", "s_nop 0", ".endr"], "t.s")
    assert out == [] and len(diags) == 1 and "more than" in diags[0].message


def test_expansion_size_cap():
    src = [".macro A", ".rept 1000", "s_nop 0", ".endr", ".endm", ".rept 50", "A", ".endr"]
    out, diags = expand(src, "t.s", max_lines=10_000)
    assert len(out) == 10_000
    assert len(diags) == 1 and diags[0].message.startswith("macro expansion exceeds 10000 lines")
    assert diags[0].span.line == 3 and diags[0].notes


def test_never_raises_on_garbage():
    for src in ([".macro"], [".macro 1x"], [".irp"], [".irpc"], [".rept"], [".rept x"], [".if"], [".else"],
                [".endif"], [".if 1/0", ".endif"], [".macro m a, a", ".endm"], [".macro m a:foo", ".endm"],
                [".macro m a:vararg, b", ".endm"], [".macro m", ".endm", ".macro m", ".endm"], ["\\@ \\()"]):
        out, diags = expand(src, "t.s")
        assert isinstance(out, list)
        for d in diags:
            render(d, src)


# ---------------------------------------------------------------- differential against llvm-mc


def _llvm_mc_22() -> bool:
    if not os.path.exists(LLVM_MC):
        return False
    try:
        v = subprocess.run([LLVM_MC, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "version 22" in v


needs_llvm = pytest.mark.skipif(not _llvm_mc_22(), reason="llvm-mc 22 not installed")


def _assemble(text: str, tmp_path, name: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=gfx90a", "-show-encoding", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return "\n".join(ln for ln in r.stdout.splitlines() if ln.strip() and not ln.lstrip().startswith(".text"))


@needs_llvm
@pytest.mark.parametrize("name", sorted(CASES))
def test_same_instruction_stream_as_llvm_mc(name, tmp_path):
    src = textwrap.dedent(CASES[name]).strip("\n") + "\n"
    out, diags = expand(src.split("\n")[:-1], "t.s")
    assert not diags, [render(d) for d in diags]
    expanded = "\n".join(t for t, _, _ in out) + "\n"
    assert _assemble(src, tmp_path, "orig.s") == _assemble(expanded, tmp_path, "expanded.s")


# ---------------------------------------------------------------- the plain-line shortcut

def test_every_directive_the_expander_acts_on_is_known_to_the_plain_line_shortcut():
    """`_plain_word` lets a line through untouched unless its first word is in
    `_RUN_DIRECTIVES`: a directive `_run` learns to handle must be added there too."""
    import inspect
    import re

    from gcnemu.asm import macros
    named = set(re.findall(r'"(\.[a-z_]+)"', inspect.getsource(macros._run)))
    named |= set(macros._IF_OPEN) | set(macros._LOOP_OPEN) | set(macros._BLOCKS)
    assert named and named <= macros._RUN_DIRECTIVES, sorted(named - macros._RUN_DIRECTIVES)


SHORTCUT_SOURCE = """\
.macro M a
  v_mov_b32 v\\a, 0 // x = \\a
.endm
.macro .mydir a
  s_nop \\a
.endm
.set k, 2
v_add_u32 v0, v1, v2 // v0 = v1 + v2
v_add_u32 v0, v1, v2 // v0 = v1 + v2
M 3 // = M
M(4)
M//comment with = sign
M ; M = 5
.mydir 1
.MYDIR 1
.long 0x1, 0x2
.LONG 0x3
.IF k == 2
  .long 7 /* k = 2 */
.ELSE
  .long 8
.ENDIF
x = 3 // ok
y=x+1
lab: s_nop 0 // = label
v_mov_b64 v[0:1], s[2:3] // v[0:1] = s[2:3]
lab3 : v_mov_b64 v[0:1], s[2:3] // = a label after all
.ifdef lab3
  .long 1
.endif
lab3 = 5
  /* a comment = 1 */ s_nop 1
/* open = 1
   still = comment */ s_nop 2
"quoted": s_nop 3
s_nop 4 ; "=" ;
#line 12
.rept 2
  s_nop k // k = 2
.endr
.macro M2
  .long 9 // = 9
.endm
M2
"""


def test_plain_line_shortcut_expands_as_the_full_steps():
    """The same expansion, diagnostics and symbol marks with the shortcut as with every line
    taken through `_run`'s full steps (the reference)."""
    from gcnemu.asm import macros
    lines = SHORTCUT_SOURCE.split("\n")
    got = macros.preprocess(lines, "t.s", symbols={"pre": 1})
    saved = macros._plain_word
    try:
        macros._plain.clear()
        macros._plain_word = lambda text: False
        want = macros.preprocess(lines, "t.s", symbols={"pre": 1})
    finally:
        macros._plain_word = saved
        macros._plain.clear()
    assert [(x.text, x.line, x.chain, x.cols, x.file) for x in got.lines] == \
        [(x.text, x.line, x.chain, x.cols, x.file) for x in want.lines]
    assert [render(d) for d in got.diagnostics] == [render(d) for d in want.diagnostics]
    assert [(k, dict(v)) for k, v in got.env_marks] == [(k, dict(v)) for k, v in want.env_marks]
