"""parse() expands `.macro`/`.rept`/`.irp`/`.if` as llvm-mc does, and keeps sources exact.

What a user relies on: the instruction stream is the one llvm-mc assembles; every
statement points at the line its text came from (the macro body line), with columns
on that line; a diagnostic inside expanded text says where the macro was instantiated
("while in macro instantiation", as llvm-mc); `check`, `run` and the debugger work on
such files; and files without macros parse exactly as before.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import gcnemu
from gcnemu.asm.diagnostics import render
from gcnemu.asm.parse import parse
from gcnemu.asm.program import Instruction
from gcnemu.asm.validate import validate

LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"
ROOT = Path(__file__).resolve().parents[1]


def _src(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


def _llvm_mc_22() -> bool:
    if not os.path.exists(LLVM_MC):
        return False
    try:
        v = subprocess.run([LLVM_MC, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "version 22" in v


needs_llvm = pytest.mark.skipif(not _llvm_mc_22(), reason="llvm-mc 22 not installed")

MFMA_REPT = _src("""
    v_mov_b32 v0, 0
    .rept 4
      v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
    .endr
    s_endpgm
""")

MACRO_ARGS = _src("""
    .macro STEP d, a, b, off=0
      v_mfma_f32_32x32x8f16 \\d, v[\\a:\\a+1], v[\\b:\\b+1], \\d
      global_load_dword v\\a, v[2:3], off offset:\\off
      s_add_u32 s0, s0, \\off
    .endm
      STEP a[0:15], 4, 6
      STEP a[16:31], 8, 10, 16
    .irp r, 1, 2
      v_add_u32 v\\r, v\\r, -1
    .endr
    s_endpgm
""")


def _llvm_stream(text: str, tmp_path) -> list[str]:
    f = tmp_path / "in.s"
    f.write_text(text)
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=gfx90a", str(f)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = []
    for ln in r.stdout.splitlines():
        ln = ln.strip()
        if not ln or ln.startswith("."):
            continue
        mn, _, rest = ln.partition(" ")
        out.append(_norm(re.sub(r"_e(32|64)$", "", mn), rest))
    return out


def _norm(mnemonic: str, rest: str) -> str:
    rest = re.sub(r"\s+offset:0\b", "", rest)  # the default offset: llvm-mc does not print it
    return f"{mnemonic} {rest}".strip()


def _gcnemu_stream(text: str) -> list[str]:
    prog = parse(text, "t.s")
    assert not prog.diagnostics, [render(d, prog.lines) for d in prog.diagnostics]
    assert not validate(prog, "gfx90a")
    out = []
    for ins in prog.instructions:
        mn, _, rest = ins.text().partition(" ")
        out.append(_norm(mn, rest))
    return out


@needs_llvm
@pytest.mark.parametrize("name, text", [("rept_mfma_chain", MFMA_REPT), ("macro_with_arguments", MACRO_ARGS)])
def test_same_instruction_stream_as_llvm_mc(name, text, tmp_path):
    assert _gcnemu_stream(text) == _llvm_stream(text, tmp_path)


def test_rept_mfma_chain_shares_the_body_line():
    prog = parse(MFMA_REPT, "t.s")
    mfmas = [i for i in prog.instructions if i.mnemonic.startswith("v_mfma")]
    assert len(mfmas) == 4
    assert {i.span.line for i in mfmas} == {3}
    assert [i.index for i in prog.instructions] == list(range(6))
    assert {prog.expansions[i.index] for i in mfmas} == {(2,)}
    assert 0 not in prog.expansions and 5 not in prog.expansions  # plain lines are not expanded text


def test_spans_of_substituted_text_point_at_the_parameter_in_the_body():
    prog = parse(MACRO_ARGS, "t.s")
    body = prog.lines[1]  # "  v_mfma_f32_32x32x8f16 \d, v[\a:\a+1], v[\b:\b+1], \d"
    second = [i for i in prog.instructions if i.mnemonic.startswith("v_mfma")][1]
    assert second.span.line == 2 and second.operands[0].text() == "a[16:31]"
    for op in second.operands:  # every span stays on the body line, inside it
        assert 1 <= op.span.column < op.span.end_column <= len(body) + 1
    d = second.operands[0].span
    assert body[d.column - 1:d.end_column - 1] == "\\d"
    vsrc = second.operands[1].span
    assert body[vsrc.column - 1:vsrc.end_column - 1] == "v[\\a:\\a+1]"
    assert second.mnemonic_span.column == body.index("v_mfma") + 1
    load = [i for i in prog.instructions if i.mnemonic == "global_load_dword"][1]
    off = load.modifiers[0].span
    assert prog.lines[2][off.column - 1:off.end_column - 1] == "offset:\\off"


def _check(text: str, tmp_path, *extra: str) -> subprocess.CompletedProcess:
    f = tmp_path / "m.s"
    f.write_text(text)
    return subprocess.run([sys.executable, "-m", "gcnemu", "check", *extra, str(f)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_validation_error_in_a_macro_body_points_at_the_body_with_a_note_on_the_call(tmp_path):
    text = _src("""
        .macro ADD d, a, b
          v_add_u32 \\d, \\a, \\b
        .endm
          ADD v0, v1, v2
          ADD v0, v1, a2
        s_endpgm
    """)
    prog = parse(text, "m.s")
    diags = [d for d in validate(prog, "gfx90a") if d.severity == "error"]
    # the first call is valid; the second must not borrow its verdict (same body line, same columns)
    assert len(diags) == 1
    d = diags[0]
    assert (d.span.line, d.span.column) == (2, text.split("\n")[1].index("\\b") + 1)
    assert [(n.message, n.span.line, n.span.column) for n in d.notes] == [("while in macro instantiation", 5, 3)]
    r = _check(text, tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    path = tmp_path / "m.s"
    assert f"{path}:2:21: error: invalid operand for instruction\n  v_add_u32 \\d, \\a, \\b\n" \
           f"                    ^~\n{path}:5:3: note: while in macro instantiation\n  ADD v0, v1, a2\n  ^~~" \
        in r.stderr


def test_parse_error_in_a_rept_body_has_a_note_on_the_rept(tmp_path):
    text = _src("""
        s_nop 0
        .rept 2
          v_mov_b32 v0, )
        .endr
        s_endpgm
    """)
    prog = parse(text, "m.s")
    errs = [d for d in prog.diagnostics if d.severity == "error"]
    assert len(errs) == 2  # one per instantiation, as llvm-mc
    for d in errs:
        assert d.span.line == 3 and d.span.column == text.split("\n")[2].index(")") + 1
        assert [(n.span.line, n.span.column) for n in d.notes] == [(2, 1)]
        out = render(d, prog.lines)
        assert out.splitlines()[2].endswith("^") and "while in macro instantiation" in out


def test_error_in_nested_macros_lists_every_instantiation_innermost_first():
    text = _src("""
        .macro INNER x
          v_mov_b32 v0, \\x
        .endm
        .macro OUTER y
          INNER \\y
        .endm
        OUTER a[0:1]
    """)
    prog = parse(text, "m.s")
    diags = [d for d in validate(prog, "gfx90a") if d.severity == "error"]
    assert len(diags) == 1
    assert diags[0].span.line == 2
    assert [n.span.line for n in diags[0].notes] == [5, 7]


def test_substituted_text_longer_than_the_body_line_never_puts_the_caret_past_it():
    text = ".macro M x\nv_mov_b32 v0, \\x\n.endm\nM v0 + 1 + some_long_symbol_name_here +\n"
    prog = parse(text, "m.s")
    assert prog.diagnostics
    for d in prog.diagnostics + validate(prog, "gfx90a"):
        render(d, prog.lines)
        if d.span.line == 2:
            assert d.span.column <= len(prog.lines[1]) + 1


def test_macro_expansion_errors_come_with_notes():
    prog = parse(".macro R a:req\ns_nop \\a\n.endm\nR\n", "m.s")
    assert [d.message for d in prog.diagnostics] == ["missing value for required parameter 'a' in macro 'R'"]


def test_files_without_macros_are_untouched():
    for path in [ROOT / "programs" / "loop_sum.s", ROOT / "programs" / "vector_add.s"]:
        prog = parse(path.read_text(), str(path))
        assert prog.expansions == {}
    # a macro-looking word in a comment takes the expansion path, to the same result
    plain = "s_mov_b32 s0, 1\nlab:\n  v_mov_b32 v0, v1 // .if this were code\ns_endpgm\n"
    a = parse(plain, "t.s")
    b = parse(plain.replace("// .if this were code", ""), "t.s")
    assert a.statements == b.statements and a.expansions == {} and not a.diagnostics


LOOP = _src("""
    .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
    .macro ADD3 r
      v_add_u32 v\\r, 3, v\\r
    .endm
    k:
      v_mov_b32 v1, 0
      v_mov_b32 v2, 0
      s_mov_b32 s4, 4
    .Lloop:
    .rept 2
      ADD3 1
    .endr
      v_add_u32 v2, 1, v2
      s_sub_u32 s4, s4, 1
      s_cmp_lg_u32 s4, 0
      s_cbranch_scc1 .Lloop
      s_endpgm
""")


def test_a_kernel_using_rept_and_macros_runs(tmp_path):
    kernel = gcnemu.resolve(parse(LOOP, "loop.s"), "gfx90a")
    sim = gcnemu.Simulation(kernel, gcnemu.Setup(workgroup_size=(64, 1, 1))).run()
    assert sim.error is None
    w = sim.wave(0)
    assert np.all(w.v[1].u32 == 4 * 2 * 3)
    assert np.all(w.v[2].u32 == 4)


def test_check_and_run_accept_a_file_with_rept(tmp_path):
    f = tmp_path / "loop.s"
    f.write_text(LOOP)
    assert _check(LOOP, tmp_path).returncode == 0
    r = subprocess.run([sys.executable, "-m", "gcnemu", "run", str(f), "--print", "v1"], capture_output=True,
                       text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "24" in r.stdout


def test_lines_name_the_instruction_a_user_means():
    kernel = gcnemu.resolve(parse(LOOP, "loop.s"), "gfx90a")
    ins = kernel.instructions
    # the macro body (line 3) comes before its use: its first instance, not the next line's instruction
    assert ins[kernel.instruction_at_line(3)].text() == "v_add_u32 v1, 3, v1"
    assert kernel.instruction_at_line(3) == 3
    # the .rept line and the macro call inside it name their first expansion
    assert kernel.instruction_at_line(10) == 3 and kernel.instruction_at_line(11) == 3
    # plain lines as before
    assert ins[kernel.instruction_at_line(6)].text() == "v_mov_b32 v1, 0"
    assert ins[kernel.instruction_at_line(12)].text() == "v_add_u32 v2, 1, v2"
    assert kernel.instruction_at_line(99) is None


def test_debugger_breaks_on_a_macro_body_line(tmp_path):
    f = tmp_path / "loop.s"
    f.write_text(LOOP)
    cmds = tmp_path / "cmds"
    cmds.write_text("break 3\ncontinue\nlist\n")
    r = subprocess.run([sys.executable, "-m", "gcnemu", "step", str(f), "--batch", str(cmds)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "Breakpoint 1 at line 3: v_add_u32 v1, 3, v1" in r.stdout
    assert re.search(r"B=>\s+3\s+v_add_u32 v\\r, 3, v\\r", r.stdout), r.stdout
