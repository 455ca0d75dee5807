"""DPP, SDWA and ds_swizzle controls, and the operands llvm-mc takes per target (hardware
registers, cache-policy names): `check` accepts and rejects exactly what llvm-mc 22 does, with its
message at its column, and `run` never executes a control the ISA does not define (issue 24).

tests/dpp/controls.txt holds one instruction per line: every row/wave control at and around its
range, row_bcast, row_newbcast (gfx90a+), the GFX10-only controls, quad_perm elements and
counts, masks, bound_ctrl and fi, two controls at once, every SDWA select and dst_unused value,
and every swizzle macro at and past its limits. tests/dpp/operands.txt: every hwreg name llvm-mc
knows (the gfx940 ones, the other generations'), buffer_wbl2/buffer_inv scopes, dlc on each memory
kind, global_load forms, v_xor_b32 forms. Each line goes through llvm-mc 22 for the four targets
(one process per target: llvm-mc reports every line's error) and through `check`.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from gcnemu.asm.parse import parse
from gcnemu.asm.validate import validate

HERE = Path(__file__).resolve().parent
LISTS = {name: (HERE / "dpp" / f"{name}.txt").read_text().splitlines() for name in ("controls", "operands")}
CASES = LISTS["controls"]
LLVM_MC = Path("/usr/lib/llvm-22/bin/llvm-mc")
TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")


def llvm_mc_errors(target: str, cases: list[str]) -> dict[int, tuple[int, str]]:
    """Line -> (column, message) of llvm-mc's first error on each line of `cases`."""
    r = subprocess.run([str(LLVM_MC), "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"],
                       input="\n".join(cases) + "\n", capture_output=True, text=True, timeout=120)
    out: dict[int, tuple[int, str]] = {}
    for m in re.finditer(r"^<stdin>:(\d+):(\d+): error: (.*)$", r.stderr, re.M):
        out.setdefault(int(m.group(1)), (int(m.group(2)), m.group(3)))
    return out


def gcnemu_errors(target: str, cases: list[str]) -> dict[int, tuple[int, str]]:
    out: dict[int, tuple[int, str]] = {}
    for n, line in enumerate(cases, start=1):
        errs = [d for d in validate(parse(line + "\n", "<stdin>"), target) if d.severity == "error"]
        if errs:
            out[n] = (errs[0].span.column, errs[0].message)
    return out


@pytest.mark.skipif(not LLVM_MC.exists(), reason="needs llvm-mc 22 (apt-get install llvm-22)")
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", sorted(LISTS))
def test_check_decides_every_line_as_llvm_mc_does(name, target):
    cases = LISTS[name]
    want, got = llvm_mc_errors(target, cases), gcnemu_errors(target, cases)
    differ = [f"{cases[n - 1]!r}: llvm-mc {want.get(n)}, gcnemu {got.get(n)}"
              for n in range(1, len(cases) + 1) if want.get(n) != got.get(n)]
    assert differ == []
    assert len(want) > 15  # the lists exercise the rejections, not only valid lines


@pytest.mark.parametrize("line, target, error", [
    ("v_mov_b32_dpp v1, v2 row_shr:16 row_mask:0xf bank_mask:0xf", "gfx90a", (30, "invalid row_shr value")),
    ("v_mov_b32_dpp v1, v2 quad_perm:[0,1,2,4] row_mask:0xf bank_mask:0xf", "gfx942", (39, "expected a 2-bit value")),
    ("v_mov_b32_dpp v1, v2 row_bcast:14 row_mask:0xf bank_mask:0xf", "gfx90a", (32, "invalid row_bcast value")),
    ("ds_swizzle_b32 v1, v2 offset:swizzle(SWAP,64)", "gfx90a", (43, "group size must be in the interval [1,16]")),
    ("v_mov_b32_dpp v1, v2 row_newbcast:1 row_mask:0xf bank_mask:0xf", "gfx908", (22, "not a valid operand.")),
    ("v_add_f32_dpp v1, v2, v3 row_mask:0x1f bank_mask:0xf", "gfx90a", (26, "not a valid operand.")),
])
def test_the_issue_cases_get_llvm_mcs_message_at_the_operand(line, target, error):
    errs = [d for d in validate(parse(line + "\n"), target) if d.severity == "error"]
    assert (errs[0].span.column, errs[0].message) == error


def test_row_newbcast_on_vop1_dpp_assembles_on_gfx90a_and_later():
    for line in ("v_mov_b32_dpp v1, v2 row_newbcast:1 row_mask:0xf bank_mask:0xf",
                 "v_ceil_f64_dpp v[0:1], v[2:3] row_newbcast:1 row_mask:0xf bank_mask:0xf"):
        for target in ("gfx90a", "gfx942", "gfx950"):
            assert [d for d in validate(parse(line + "\n"), target) if d.severity == "error"] == []


def _run_with(modifier_name: str, value, line: str):
    """Run a DPP/swizzle instruction whose control was changed after `check` (the Python API can
    skip validation): the engine must stop, not invent lanes."""
    from gcnemu.asm.program import Modifier
    from gcnemu.asm.resolve import resolve
    from gcnemu.simulation import Simulation
    from gcnemu.setup import Setup
    prog = parse(f"\t.text\nk:\n\tv_mov_b32 v1, v0\n\ts_nop 1\n\t{line}\n\ts_endpgm\n")
    kernel = resolve(prog, "gfx90a")
    ins = kernel.instructions[2]
    ins.modifiers = tuple(Modifier(m.name, value if m.name == modifier_name else m.value, m.span)
                          for m in ins.modifiers)
    sim = Simulation(kernel, Setup())
    sim.run()
    return sim


@pytest.mark.parametrize("name, value, line", [
    ("row_shr", 16, "v_mov_b32_dpp v2, v1 row_shr:1 row_mask:0xf bank_mask:0xf"),
    ("quad_perm", (0, 1, 2, 4), "v_mov_b32_dpp v2, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"),
    ("row_bcast", 14, "v_mov_b32_dpp v2, v1 row_bcast:15 row_mask:0xf bank_mask:0xf"),
    ("offset", "swizzle(SWAP, 64)", "ds_swizzle_b32 v2, v1 offset:swizzle(SWAP,16)"),
    ("offset", "swizzle(QUAD_PERM, 0, 1, 2, 4)", "ds_swizzle_b32 v2, v1 offset:swizzle(QUAD_PERM,0,1,2,3)"),
])
def test_run_refuses_a_control_the_isa_does_not_define(name, value, line):
    sim = _run_with(name, value, line)
    assert sim.error is not None and ("not a DPP control" in sim.error.message or "quad_perm" in sim.error.message
                                      or "group size" in sim.error.message or "lane id" in sim.error.message)
