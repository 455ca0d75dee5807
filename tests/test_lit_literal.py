"""`lit(x)` forced literals: verdicts, messages and columns as llvm-mc 22 gives them on gfx908,
gfx90a, gfx942 and gfx950 (checked with `llvm-mc -arch=amdgcn -mcpu=...`), and `gcnemu run`
sees the value (a forced literal is an Imm/FloatImm whose source keeps `lit(...)`)."""

from __future__ import annotations

import json

import pytest

from gcnemu.cli import main
from gcnemu.asm.parse import is_forced_literal, parse
from gcnemu.asm.program import FloatImm, Imm
from gcnemu.asm.validate import validate

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")

# accepted by llvm-mc 22 on all four targets
ACCEPTED = [
    "v_mov_b32 v0, lit(1)",
    "s_mov_b32 s0, lit(64)",
    "v_add_f32 v0, lit(1.0), v1",
    "v_add_f32_e64 v0, lit(1.0), v1",  # VOP3: the value is inline, llvm-mc 22 takes it
    "v_fma_f32 v0, lit(1.0), v1, v2",
    "v_fma_f32 v0, lit(1.0), lit(2.0), v1",
    "v_mov_b32 v0, lit(-1)",
    "v_mov_b32 v0, lit(1.5)",
    "v_mov_b32 v0, lit (1)",
    "v_mov_b32 v0, lit( 1 )",
    "v_mov_b32 v0, lit(1+2)",
    "v_mov_b32 v0, lit(0x12345678)",
    "v_mov_b32 v0, lit(-1.0)",
    "s_mov_b64 s[0:1], lit(1)",
    "s_add_u32 s0, lit(1), lit(2)",
    "s_add_u32 s0, lit(100), 100",
    "s_add_u32 s0, lit(1), s1",
    "v_add_f32 v0, v1, lit(1)",
    "v_add_f32_e64 v0, v1, lit(1)",
    "v_add_f32_e64 v0, lit(1.0), v1 clamp",
    "v_cmp_eq_u32 vcc, lit(1), v1",
    "v_cmp_eq_u32_e64 s[0:1], lit(1), v1",
    "v_add_f16 v0, lit(1.0), v1",
    "v_pk_add_f16 v0, lit(1), v1",
    "s_cmp_eq_u32 lit(1), s0",
    "s_movk_i32 s0, lit(1)",
    "v_add_f32 v0, |lit(1.0)|, v1",
    "v_add_f32 v0, neg(lit(1.0)), v1",
    "v_add_f64 v[0:1], lit(1), v[2:3]",
    "v_cvt_f32_f64 v0, lit(1.0)",
    "v_med3_f32 v0, lit(1.0), v1, lit(2.0)",
    ".set x, 1\nv_mov_b32 v0, lit(x)",
]

# (line, column, message): the same on all four targets
REJECTED = [
    ("v_mov_b32 v0, lit(lit(1))", 25, "unknown token in expression"),
    ("v_mov_b32 v0, lit()", 19, "unknown token in expression"),
    ("v_mov_b32 v0, lit(v1)", 21, "unknown token in expression"),
    ("v_mov_b32 v0, lit(x)", 20, "unknown token in expression"),
    ("v_mov_b32 v0, -lit(1)", 15, "invalid operand for instruction"),
    ("v_add_f32 v0, -lit(1.0), v1", 15, "invalid operand for instruction"),
    ("v_mov_b32 v0, lit(1)+1", 19, "invalid operand for instruction"),
    ("v_mov_b32 v0, 1+lit(1)", 15, "invalid operand for instruction"),
    ("v_mov_b32 v0, LIT(1)", 15, "invalid operand for instruction"),
    ("v_mov_b32 v0, lit", 18, "expected left paren after lit"),
    ("v_mov_b32 v0, lit(0x100000000)", 19, "invalid operand for instruction"),
    ("s_mov_b64 s[0:1], lit(0x100000000)", 23, "invalid operand for instruction"),
    ("v_add_f32_e64 v0, lit(1.5), v1", 23, "literal operands are not supported"),
    ("v_add_f32_e64 v0, lit(100), v1", 23, "literal operands are not supported"),
    ("v_fma_f32 v0, lit(100), lit(100), v1", 19, "literal operands are not supported"),
    ("v_add_f64 v[0:1], lit(1.0), v[2:3]", 23, "literal operands are not supported"),
    ("s_add_u32 s0, lit(100), 101", 25, "only one unique literal operand is allowed"),
    ("v_add_f32 v0, lit(1.0), s0", 25, "invalid operand (violates constant bus restrictions)"),
    ("v_add_f32_e64 v0, lit(1.0), s0", 29, "invalid operand (violates constant bus restrictions)"),
    ("v_mfma_f32_4x4x1f32 a[0:3], lit(1.0), v1, a[0:3]", 33, "invalid operand for instruction"),
    ("v_mov_b32_sdwa v0, lit(1)", 24, "invalid operand for instruction"),
    ("v_mov_b32_dpp v0, lit(1) quad_perm:[0,1,2,3]", 23, "invalid operand for instruction"),
    ("buffer_load_dword v0, off, s[0:3], lit(1)", 40, "invalid operand for instruction"),
    ("global_load_dword v0, v[0:1], off offset:lit(1)", 42, "expected absolute expression"),
    ("s_waitcnt lit(0)", 11, "invalid counter name lit"),
    ("v_mov_b32 v0, abs(lit(1))", 15, "not a valid operand."),
]


def _errors(text: str, target: str) -> list:
    return [d for d in validate(parse(text + "\n", "t.s"), target) if d.severity == "error"]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("line", ACCEPTED)
def test_llvm_mc_accepts(line, target):
    errs = _errors(line, target)
    assert not errs, [f"{e.span.column}: {e.message}" for e in errs]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("line, column, message", REJECTED)
def test_llvm_mc_rejects_with_its_message(line, column, message, target):
    errs = _errors(line, target)
    assert [(e.span.line, e.span.column, e.message) for e in errs[:1]] == [(1, column, message)]


@pytest.mark.parametrize("target, line, ok", [
    ("gfx908", "v_madmk_f32 v0, v1, lit(1.0), v2", True),
    ("gfx90a", "v_madmk_f32 v0, v1, lit(1.0), v2", True),
    ("gfx908", "v_pk_fma_f32 v[0:1], lit(1.0), v[2:3], v[4:5]", False),  # not on gfx908
    ("gfx90a", "v_pk_fma_f32 v[0:1], lit(1.0), v[2:3], v[4:5]", True),
    ("gfx90a", "v_mov_b64 v[0:1], lit(1)", False),
    ("gfx942", "v_mov_b64 v[0:1], lit(1)", True),
])
def test_per_target(target, line, ok):
    assert (not _errors(line, target)) == ok


def test_a_forced_literal_is_an_immediate_keeping_its_source():
    ops = parse("v_add_f32 v0, lit( 1.0 ), v1\nv_mov_b32 v0, lit(-1)\nv_mov_b32 v0, 1\n").instructions
    a, b, c = ops[0].operands[1], ops[1].operands[1], ops[2].operands[1]
    assert type(a) is FloatImm and a.value == 1.0 and a.source == "lit( 1.0 )" and a.span.column == 20
    assert type(b) is Imm and b.value == -1 and b.source == "lit(-1)"
    assert is_forced_literal(a) and is_forced_literal(b) and not is_forced_literal(c)


def test_run_sees_the_forced_literal_values(tmp_path, capsys):
    path = tmp_path / "lit.s"
    path.write_text("v_mov_b32 v0, lit(1)\nv_add_f32 v1, lit(2.0), lit(0.5)\ns_mov_b32 s0, lit(64)\n"
                    "v_mov_b32 v2, lit(0x12345678)\ns_endpgm\n")
    rc = main(["run", str(path), "--format", "json", "--print", "v0", "v1:f32", "s0", "v2"])
    out = capsys.readouterr().out
    assert rc == 0
    regs = json.loads(out)["waves"][0]["registers"]
    assert regs["v0"][0] == 1 and regs["s0"] == 64 and regs["v2"][0] == 0x12345678
    assert regs["v1"][0] == 0x40200000  # 2.5f
