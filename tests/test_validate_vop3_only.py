"""A VOP2 opcode that gfx90a and later encode only as VOP3 (v_mul_legacy_f32) takes no literal
there, as any gfx9 VOP3; gfx908 still has its 32-bit form and takes one. Seen when the seeded
differential started producing `v_mul_legacy_f32 v10, 65504.0, v18`."""
from __future__ import annotations

import pytest

from gcnemu.asm.parse import parse
from gcnemu.asm.validate import validate


def errors(line: str, target: str) -> list[str]:
    return [f"{d.span.column}: {d.message}" for d in validate(parse(line + "\n"), target) if d.severity == "error"]


@pytest.mark.parametrize("target", ["gfx90a", "gfx942", "gfx950"])
def test_vop3_only_opcodes_refuse_a_literal(target):
    assert errors("v_mul_legacy_f32 v10, 65504.0, v18", target) == ["23: literal operands are not supported"]
    assert errors("v_mul_legacy_f32 v10, 1.0, v18", target) == []  # an inline constant is fine in VOP3
    assert errors("v_mul_legacy_f32_e32 v10, v1, v18", target) == ["1: e32 variant of this instruction is not supported"]


def test_gfx908_keeps_the_32_bit_form_and_its_literal():
    assert errors("v_mul_legacy_f32 v10, 65504.0, v18", "gfx908") == []
