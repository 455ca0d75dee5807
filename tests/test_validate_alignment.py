"""gfx90a+ 64-bit VGPR tuples must start at an even register; llvm-mc 22 words the error by where
the odd tuple is. A destination's operand class is the aligned one, so the matcher refuses the
operand ("invalid operand", at it); a VALU source's class is not, so a later check refuses the
whole instruction ("invalid register class", at the mnemonic). Memory, LDS and MFMA operands are
all refused at the operand. MIOpen's batch-norm kernel hits both forms on gfx90a.
"""
from __future__ import annotations

import pytest

from gcnemu.asm.parse import parse
from gcnemu.asm.validate import validate

# line -> what llvm-mc 22 -mcpu=gfx90a prints (column: message)
CASES = [
    ("v_lshlrev_b64 v[1:2], 1, v[2:3]", "15: invalid operand for instruction"),
    ("v_lshlrev_b64 v[2:3], 1, v[1:2]", "1: invalid register class: vgpr tuples must be 64 bit aligned"),
    ("v_lshlrev_b64 v[1:2], 1, v[1:2]", "15: invalid operand for instruction"),
    ("v_add_f64 v[1:2], v[2:3], v[4:5]", "11: invalid operand for instruction"),
    ("v_add_f64 v[2:3], v[1:2], v[4:5]", "1: invalid register class: vgpr tuples must be 64 bit aligned"),
    ("global_load_dwordx2 v[1:2], v[4:5], off", "21: invalid operand for instruction"),
    ("global_load_dwordx2 v[2:3], v[5:6], off", "29: invalid operand for instruction"),
    ("ds_read_b64 v[1:2], v0", "13: invalid operand for instruction"),
    ("v_mfma_f32_4x4x1f32 a[1:4], v0, v1, a[1:4]", "21: invalid operand for instruction"),
]


@pytest.mark.parametrize("line,expected", CASES, ids=[c[0] for c in CASES])
def test_an_odd_tuple_is_reported_where_and_as_llvm_mc_does(line, expected):
    errors = [f"{d.span.column}: {d.message}" for d in validate(parse(line + "\n"), "gfx90a") if d.severity == "error"]
    assert errors == [expected]


@pytest.mark.parametrize("line,_", CASES[:5], ids=[c[0] for c in CASES[:5]])
def test_gfx908_has_no_alignment_rule(line, _):
    assert not [d for d in validate(parse(line + "\n"), "gfx908") if d.severity == "error"]
