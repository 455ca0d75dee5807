"""Calls execute: code has byte addresses, s_getpc_b64 + `callee@rel32@lo+4` arithmetic lands on
the callee, `@gotpcrel32` goes through a GOT, and llc-22's output for kernels that call functions
of the same file (nested, recursive, spilling to scratch) runs from its descriptor and matches
numpy on every target. A call to a function the file does not define stops at the call."""
from __future__ import annotations

import math
import shutil
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

from gcnemu.snippets.runner import load_snippet

COMPILED = Path(__file__).resolve().parent / "compiled"
LLC = shutil.which("llc-22")
TARGETS = ["gfx908", "gfx90a", "gfx942", "gfx950"]
needs_llc = pytest.mark.skipif(LLC is None, reason="needs llc-22")


def run_asm(tmp_path: Path, body: str, header: str = "", target: str = "gfx90a"):
    path = tmp_path / "k.s"
    path.write_text(f"// gcnemu:\n//   arch: {target}\n//   workgroup: 64\n{header}" + textwrap.dedent(body))
    return load_snippet(str(path)).simulate()


# ---------------------------------------------------------------- hand-written address arithmetic


def test_getpc_counts_real_encoding_sizes(tmp_path):
    """s_getpc_b64 gives the byte address of the next instruction; an instruction with a literal
    is 8 bytes, a VOP3 one 8, the others here 4: getpc + 28 is the s_mov_b32 s11."""
    sim = run_asm(tmp_path, """\
        s_getpc_b64 s[0:1]            // 0
        s_add_u32 s0, s0, 28          // 4: 4 bytes (28 is an inline constant)
        s_mov_b32 s9, 0x12345         // 8: 8 bytes, a literal
        v_add_f32 v1, v2, s3          // 16: 8 bytes, VOP3 (an SGPR in src1)
        s_setpc_b64 s[0:1]            // 24
        s_mov_b32 s10, 1              // 28: skipped
        s_mov_b32 s11, 2              // 32 = getpc (4) + 28
        s_endpgm
    """, header="//   sgpr s3 = 0\n//   sgpr s10 = 0\n//   vgpr v2 = 0\n")
    assert sim.error is None
    w = sim.wave(0)
    assert int(w.s[10]) == 0 and int(w.s[11]) == 2


def test_rel32_relocations_reach_the_callee_and_return(tmp_path):
    sim = run_asm(tmp_path, """\
        s_getpc_b64 s[16:17]
        s_add_u32 s16, s16, callee@rel32@lo+4
        s_addc_u32 s17, s17, callee@rel32@hi+12
        v_mov_b32 v1, 0x4000          // 8 bytes between the address arithmetic and the call
        s_swappc_b64 s[30:31], s[16:17]
        v_add_u32 v1, v1, 1           // after the return
        s_endpgm
    callee:
        v_lshlrev_b32 v1, 1, v1
        s_setpc_b64 s[30:31]
    """)
    assert sim.error is None
    assert (sim.wave(0).v[1].u32 == 0x8001).all()


def test_a_label_used_as_a_value_is_pc_relative_as_llvm_mc_encodes_it(tmp_path):
    """Tensile's long branch: getpc; s_add_i32 s76, label, 4 (llvm-mc: label - address of the
    literal + 4); add; s_setpc_b64 lands on the label."""
    sim = run_asm(tmp_path, """\
        s_getpc_b64 s[74:75]
        s_add_i32 s76, target, 0x4
        s_add_u32 s74, s74, s76
        s_addc_u32 s75, s75, 0
        s_setpc_b64 s[74:75]
        s_mov_b32 s5, 1
    target:
        s_mov_b32 s6, 2
        s_endpgm
    """, header="//   sgpr s5 = 0\n")
    assert sim.error is None
    assert int(sim.wave(0).s[5]) == 0 and int(sim.wave(0).s[6]) == 2


def test_abs32_and_label_differences(tmp_path):
    sim = run_asm(tmp_path, """\
        s_mov_b32 s0, here@abs32@lo
        s_mov_b32 s1, here@abs32@hi
        s_mov_b32 s2, there - here
        s_getpc_b64 s[4:5]
    here:
        s_nop 0
        v_mov_b32 v0, 0x1234
    there:
        s_endpgm
    """)
    assert sim.error is None
    w = sim.wave(0)
    here = int(w.s[0]) | int(w.s[1]) << 32
    assert here == int(w.s[4]) | int(w.s[5]) << 32  # getpc returns the address of `here`
    assert int(w.s[2]) == 4 + 8


def test_a_jump_into_the_middle_of_an_instruction_is_an_error_at_the_jump(tmp_path):
    sim = run_asm(tmp_path, """\
        s_getpc_b64 s[0:1]
        s_add_u32 s0, s0, 12
        s_setpc_b64 s[0:1]
        s_mov_b32 s9, 0x12345
        s_endpgm
    """)
    assert sim.error is not None
    assert "s_setpc_b64" in (tmp_path / "k.s").read_text().splitlines()[sim.error.span.line - 1]
    assert "4 bytes into 's_mov_b32 s9, 0x12345'" in sim.error.message


def test_a_jump_outside_the_code_is_an_error(tmp_path):
    sim = run_asm(tmp_path, "s_mov_b64 s[0:1], 0x1000\ns_setpc_b64 s[0:1]\n")
    assert sim.error is not None and "outside the code" in sim.error.message


def test_a_rel32_call_to_an_undefined_function_stops_at_the_call_naming_it(tmp_path):
    sim = run_asm(tmp_path, """\
        s_getpc_b64 s[4:5]
        s_add_u32 s4, s4, __ocml_exp_f32@rel32@lo+4
        s_addc_u32 s5, s5, __ocml_exp_f32@rel32@hi+12
        s_swappc_b64 s[30:31], s[4:5]
        s_endpgm
    """)
    assert sim.error is not None
    assert "s_swappc_b64" in (tmp_path / "k.s").read_text().splitlines()[sim.error.span.line - 1]
    assert "calls '__ocml_exp_f32', which this file does not define" in sim.error.message


def test_code_after_a_data_section_keeps_its_addresses(tmp_path):
    """Bytes in another section do not move the code; .p2align and .long in .text do."""
    sim = run_asm(tmp_path, """\
        s_getpc_b64 s[0:1]
        s_branch over
        .p2align 4
        .long 0
    over:
        .section .rodata
        .long 1, 2, 3
        .text
    here:
        s_mov_b32 s2, here@abs32@lo
        s_endpgm
    """)
    assert sim.error is None
    w = sim.wave(0)
    # getpc returns 4 (the s_branch); `here` is at 20: 8 bytes of code, padding to 16, a .long
    assert int(w.s[2]) - int(w.s[0]) == 20 - 4


# ---------------------------------------------------------------- compiled kernels


def compile_ll(name: str, target: str) -> str:
    return subprocess.run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={target}", str(COMPILED / name), "-o", "-"],
                          check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def calls_asm() -> dict[str, str]:
    return {t: compile_ll("calls.ll", t) for t in TARGETS}


def expected(x: np.ndarray) -> np.ndarray:
    a = x * x + 3
    twice = (a * a + a) * 2
    fact = np.array([math.factorial(max(i & 7, 1)) for i in range(len(x))], dtype=np.float32)
    weights = 0.25 * (np.arange(len(x)) % 8 + 1)
    return twice + fact + x * 0.5 + weights


@needs_llc
@pytest.mark.parametrize("target", TARGETS)
def test_llc_kernel_with_nested_recursive_and_got_calls_matches_numpy(tmp_path, calls_asm, target):
    asm = calls_asm[target]
    assert "@rel32@lo+4" in asm and "@gotpcrel32@lo+4" in asm and "s_swappc_b64" in asm
    assert "weights@rel32@lo+4" in asm and ".section\t.rodata" in asm  # the constant table
    assert ("buffer_store_dword" if target in ("gfx908", "gfx90a") else "scratch_store_dword") in asm
    path = tmp_path / "calls.s"
    # no `scratch:`: the recursion's dynamic stack (.amdhsa_uses_dynamic_stack) gets the runtime's
    # default per work-item on top of the fixed size
    assert ".amdhsa_uses_dynamic_stack 1" in asm
    path.write_text("// gcnemu:\n//   workgroup: 128\n"
                    "//   buffer OUT: f32[128] = zeros(128)\n//   buffer X: f32[128] = arange(128) / 8\n"
                    "//   arg: out=OUT, x=X\n" + asm)
    sim = load_snippet(str(path)).simulate()
    assert sim.error is None, sim.error.message
    x = np.arange(128, dtype=np.float32) / 8
    np.testing.assert_allclose(sim.buffer("OUT", np.float32), expected(x), rtol=1e-6)
    assert sim.hazards == []  # the timing engine's hazard monitor agrees with llc's waits
    assert sim.instructions_executed > 2 * 300  # the calls ran, recursion included


@needs_llc
@pytest.mark.parametrize("target", TARGETS)
def test_lint_of_the_calling_kernels_is_clean(calls_asm, target):
    from gcnemu.analysis.lint import lint
    from gcnemu.asm.parse import parse
    warnings = [d for d in lint(parse(calls_asm[target], "calls.s"), target) if d.severity == "warning"]
    assert warnings == [], [f"{d.span.line}: {d.message} [{d.rule}]" for d in warnings[:10]]


@needs_llc
@pytest.mark.parametrize("target", ["gfx90a", "gfx942"])
def test_calling_a_function_the_file_does_not_define_stops_at_the_call(tmp_path, target):
    asm = compile_ll("calls_external.ll", target)
    path = tmp_path / "ext.s"
    path.write_text("// gcnemu:\n//   workgroup: 64\n//   scratch: 64\n//   buffer OUT: f32[64] = zeros(64)\n"
                    "//   arg: out=OUT\n" + asm)
    sim = load_snippet(str(path)).simulate()
    assert sim.error is not None
    line = path.read_text().splitlines()[sim.error.span.line - 1]
    assert "s_swappc_b64" in line
    assert "'__ocml_sin_f32', which this file does not define" in sim.error.message
