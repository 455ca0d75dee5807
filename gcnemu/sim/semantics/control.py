"""Program control: branches and traps. (s_endpgm, s_nop, s_waitcnt, s_barrier are the engine's.)"""
from __future__ import annotations

from ...asm.program import Symbol
from ..context import Ctx, SimError
from . import SCC_BRANCHES, semantic


def _target(ctx: Ctx) -> int:
    op = ctx.op(0)
    if isinstance(op, Symbol) and op.name in ctx.labels:
        return code_label(ctx, op.name)
    raise SimError(f"{ctx.ins.mnemonic}: unknown branch target '{op.text()}'")


def code_label(ctx: Ctx, name: str) -> int:
    """The instruction a branch to label `name` continues at. The engines' labels map a label
    no instruction starts at to None (`Kernel.branch_labels`): the hardware would decode the
    data's bytes as instructions, which the ISA does not define, so the branch stops the run."""
    target = ctx.labels[name]
    if target is None:
        raise SimError(f"{ctx.ins.mnemonic}: the branch target '{name}' is data, not an instruction "
                       f"(data or the end of the code follows the label)")
    return target


@semantic("s_branch")
def s_branch(ctx: Ctx, ins) -> None:
    ctx.branch_to = _target(ctx)


def _vcc_zero(ctx: Ctx) -> bool:
    ctx.reads += [("s", 106), ("s", 107)]
    return ctx.wave.scalar64(106) == 0


def _exec_zero(ctx: Ctx) -> bool:
    ctx.reads += [("s", 126), ("s", 127)]
    return ctx.wave.scalar64(126) == 0


def _scc(ctx: Ctx) -> int:
    ctx.reads.append(("scc", 0))
    return ctx.wave.scc


SCC_BRANCHES.update({"s_cbranch_scc0": 0, "s_cbranch_scc1": 1})  # (the issue plans read it too)

_CONDITIONS = {
    **{name: (lambda c, taken=taken: _scc(c) == taken) for name, taken in SCC_BRANCHES.items()},
    "s_cbranch_vccz": _vcc_zero,
    "s_cbranch_vccnz": lambda c: not _vcc_zero(c),
    "s_cbranch_execz": _exec_zero,
    "s_cbranch_execnz": lambda c: not _exec_zero(c),
}


def _make_cbranch(name: str):
    cond = _CONDITIONS[name]

    @semantic(name)
    def cbranch(ctx: Ctx, ins) -> None:
        if cond(ctx):
            ctx.branch_to = _target(ctx)
    return cbranch


for _name in _CONDITIONS:
    _make_cbranch(_name)


# AMDGPU trap ids (LLVM AMDGPUUsage, "Trap Handler ABI"): what a compiled kernel means by each
TRAP_IDS = {2: "llvm.trap: the kernel aborted (abort(), a failed assert, __builtin_trap)",
            3: "llvm.debugtrap: a debugger breakpoint"}


@semantic("s_trap")
def s_trap(ctx: Ctx, ins) -> None:
    """The wave enters the trap handler. gcnemu has none, so the run stops here with the trap id
    and what LLVM's trap handler ABI says it means (2: llvm.trap, 3: llvm.debugtrap)."""
    op = ctx.op(0)
    trap_id = ctx.const(op) & 0xFF
    meaning = TRAP_IDS.get(trap_id, "no trap handler is modelled")
    raise SimError(f"s_trap {trap_id}: {meaning}; the wave stops")
