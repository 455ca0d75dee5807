"""The debugger's expression language (`break if EXPR`, `print EXPR`) and register names.

It reads text from users and from pasted transcripts, so it must evaluate exactly the
small language it documents and refuse everything else with a message, never run code.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from gcnemu.debugger import expr, regs
from gcnemu.sim.state import WaveState


@pytest.fixture
def env():
    w = WaveState(0)
    w.vgpr[5] = np.arange(64, dtype=np.uint32)
    w.vgpr_init[5] = True
    w.vgpr[2] = np.full(64, np.float32(1.5).view(np.uint32))
    w.set_sgpr(2, np.array([5], np.uint32))
    w.set_sgpr(4, np.array([0x1000, 0x1], np.uint32))
    w.set_sgpr(124, np.array([0x100], np.uint32))
    w.scc = 1
    lds = np.zeros(256, np.uint8)
    lds[0x40:0x44] = np.frombuffer(np.uint32(7).tobytes(), np.uint8)
    return expr.Env(w, 1, 120, 3, 10, lds)


@pytest.mark.parametrize("text, value", [
    ("v5[3] == 3", True),
    ("v5[lane 3] == 7", False),
    ("s2 > 4", True),
    ("cycle > 100", True),
    ("wave == 1 && m0 == 0x100", True),
    ("scc", 1),
    ("s[4:5]", 0x1_0000_1000),
    ("exec", 2**64 - 1),
    ("any(v5 == 63)", True),
    ("all(v5 < 64) and not (s2 != 5)", True),
    ("count(v5 >= 60)", 4),
    ("f32(v2[0]) >= 1.5", True),
    ("i32(0xffffffff)", -1),
    ("lds[0x40] == 7", True),
    ("lds[0x3c + 4] + 1", 8),
    ("(s2 + 1) * 2 % 5", 2),
    ("1 << 3 | 1", 9),
    ("7 / 2", 3),
    ("-1 < 0", True),
    ("line == 10 || pc == 99", True),
])
def test_expressions_evaluate_as_documented(env, text, value):
    assert expr.evaluate(expr.parse(text), env) == value


@pytest.mark.parametrize("text, message", [
    ("v5 == 3", "one value per lane; wrap it in any(...) or all(...)"),
    ("v5[99]", "lanes are 0..63"),
    ("v[0:5] == 1", "6 registers wide"),
    ("s2 >", "ends too early"),
    ("foo == 1", "unknown name 'foo'"),
    ("__import__('os').system('true')", "unknown name '__import__'"),
    ("s2.__class__", "unexpected character '.'"),
    ("2 ** 99999999", "unexpected '*'"),
    ("1 << 100000000", "shift amount must be 0..64"),
    ("lds[0x1000]", "outside the LDS"),
    ("s2 / 0", "division by zero"),
    ("(s2", "expected ')'"),
    ("'abc'", "unexpected character"),
    ("", "empty expression"),
])
def test_everything_else_is_refused_with_a_message(env, text, message):
    with pytest.raises(expr.ExprError, match=re.escape(message)):
        expr.truth(expr.parse(text), env)


@pytest.mark.parametrize("text, file, index, count, lanes", [
    ("v5", "v", 5, 1, None),
    ("v[4:7]", "v", 4, 4, None),
    ("V5[LANE 3]", "v", 5, 1, (3,)),
    ("v5[3]", "v", 5, 1, (3,)),
    ("v5[0:7]", "v", 5, 1, tuple(range(8))),
    ("a[0:15]", "a", 0, 16, None),
    ("s[0:1]", "s", 0, 2, None),
    ("exec", "s", 126, 2, None),
    ("vcc_hi", "s", 107, 1, None),
    ("m0", "s", 124, 1, None),
    ("ttmp2", "s", 110, 1, None),
    ("scc", "scc", 0, 1, None),
])
def test_register_names(text, file, index, count, lanes):
    r = regs.parse(text)
    assert (r.file, r.index, r.count, r.lanes) == (file, index, count, lanes)


@pytest.mark.parametrize("text, message", [
    ("v256", "does not exist"),
    ("s102", "does not exist"),
    ("v[3:1]", "larger than the last"),
    ("exec[lane 1]", "scalar register, it has no lanes"),
    ("v1[64]", "lanes are 0..63"),
    ("vv1", "unknown register"),
    ("v1 + 1", "unknown register"),
])
def test_bad_register_names_say_why(text, message):
    with pytest.raises(regs.RegError, match=message):
        regs.parse(text)


def test_register_completion_offers_names_that_exist():
    assert "v12" in regs.completions("v1") and "v255" not in regs.completions("v1")
    assert {"exec", "exec_lo", "exec_hi"} <= set(regs.completions("ex"))
    assert regs.completions("zz") == []
