"""`lit(symbol)`: resolve turns it into the forced-literal Imm the parser makes for `lit(5)`,
so the simulator runs it."""
from __future__ import annotations

import json

import pytest

from gcnemu.cli import main
from gcnemu.asm.parse import is_forced_literal, lit_call_column, parse
from gcnemu.asm.program import Call, Imm, Modified
from gcnemu.asm.resolve import resolve

SRC = """x = 5
.set y, 0x12345678
.set w, y
v_mov_b32 v0, lit(x)
v_mov_b32 v1, lit(w)
s_mov_b32 s0, lit(x+1)
v_mov_b32 v3, lit(5)
s_endpgm
"""


def test_resolve_makes_the_parsers_forced_literal():
    prog = parse(SRC)
    # symbols with a value where they are read are folded by the parser, as llvm-mc does
    assert type(prog.instructions[0].operands[1]) is Imm and is_forced_literal(prog.instructions[0].operands[1])
    k = resolve(prog, "gfx90a")
    ops = [ins.operands[1] for ins in k.instructions[:4]]
    assert all(type(o) is Imm and is_forced_literal(o) for o in ops)
    assert [o.value for o in ops] == [5, 0x12345678, 6, 5]
    assert ops[0].source == "lit(x)" and ops[0].span.column == 19
    assert lit_call_column(ops[0]) == 15 == lit_call_column(ops[3])
    assert ops[3] is prog.instructions[3].operands[1]  # untouched instructions are shared


def test_modified_operand():
    k = resolve(parse("x = 2\nv_add_f32_e64 v0, neg(lit(x)), v1\n"), "gfx90a", validate_first=False)
    op = k.instructions[0].operands[1]
    assert isinstance(op, Modified) and op.neg
    assert type(op.inner) is Imm and op.inner.value == 2 and is_forced_literal(op.inner)


def test_undefined_symbol_stays_a_call():
    k = resolve(parse("v_mov_b32 v0, lit(nope)\n"), "gfx90a", validate_first=False)
    assert isinstance(k.instructions[0].operands[1], Call)


def test_run_computes_the_value(tmp_path, capsys):
    path = tmp_path / "lit_sym.s"
    path.write_text(SRC)
    rc = main(["run", str(path), "--format", "json", "--print", "v0", "v1", "s0", "v3"])
    out = capsys.readouterr().out
    assert rc == 0
    regs = json.loads(out)["waves"][0]["registers"]
    assert regs["v0"][0] == 5 and regs["v1"][0] == 0x12345678 and regs["s0"] == 6 and regs["v3"][0] == 5
