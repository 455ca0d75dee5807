"""`0.0` is the inline constant 0 wherever a float operand takes a constant (llvm-mc 22), as
Tensile and compiler output write it; `-0.0`, with its sign bit, stays a literal. Each line is
checked against llvm-mc 22 when it is installed, on gfx908, gfx90a and gfx942."""
from __future__ import annotations

import os
import subprocess

import pytest

from gcnemu.asm.parse import parse
from gcnemu.asm.validate import classify_constant, validate

LLVM_MC = "/usr/lib/llvm-22/bin/llvm-mc"

LINES = {  # line -> targets on which llvm-mc 22 rejects it
    "v_max_f32_e64 v0, v1, 0.0": set(),
    "v_cmp_ge_f32 s[0:1], v4, 0.0": set(),
    "v_cmp_eq_f32 vcc, s4, 0.0": set(),  # (Tensile: s[sgprAlpha] == 0.0f ?)
    "v_cndmask_b32 v4, 0.0, v4, vcc": set(),  # was reported as a constant-bus violation
    "v_fma_f32 v0, v1, v2, 0.0": set(),
    "v_fma_f64 v[0:1], v[2:3], v[4:5], 0.0": set(),
    "v_fma_f16 v0, v1, v2, 0.0": set(),
    "v_add_f64 v[0:1], v[2:3], 0.0": set(),
    "v_pk_add_f16 v0, v1, 0.0": set(),
    "v_pk_fma_f32 v[0:1], v[2:3], v[4:5], 0.0": {"gfx908"},  # (no v_pk_fma_f32 on gfx908)
    "v_mfma_f32_16x16x4f32 a[0:3], v0, v1, 0.0": {"gfx908"},  # srcC constants from gfx90a on
    "v_max_f32_e64 v0, v1, -0.0": {"gfx908", "gfx90a", "gfx942"},  # a literal: not in VOP3
    "v_fma_f64 v[0:1], v[2:3], v[4:5], -0.0": {"gfx908", "gfx90a", "gfx942"},
}
TARGETS = ["gfx908", "gfx90a", "gfx942"]


@pytest.mark.parametrize("target", TARGETS)
def test_zero_is_inline_and_negative_zero_a_literal(target):
    text = "\n".join(LINES) + "\n"
    prog = parse(text, "z.s")
    bad = {d.span.line for d in validate(prog, target) if d.severity == "error"}
    want = {k for k, line in enumerate(LINES, start=1) if target in LINES[line]}
    assert bad == want
    if os.path.exists(LLVM_MC):
        p = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-o", os.devnull],
                           input=text, capture_output=True, text=True)
        theirs = {int(l.split(":")[1]) for l in p.stderr.splitlines() if ": error:" in l}
        assert theirs == want


def test_the_constant_cache_keeps_zero_and_negative_zero_apart():
    assert classify_constant(-0.0, True, "f32") == "literal"
    assert classify_constant(0.0, True, "f32") == "inline"
    assert classify_constant(-0.0, True, "f32") == "literal"
