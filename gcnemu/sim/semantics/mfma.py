"""v_mfma_* / v_smfmac_*: operands in, D out; layouts and numerics live in the MFMA modules.

This function only gathers register operands (recording the reads, so the engine
and hazard monitor see them), reads the modifiers and writes D. The instruction
facts come from `gcnemu.isa.mfma`, the arithmetic from `gcnemu.sim.mfma_exec`.

MFMAs ignore EXEC: they always compute and write every lane (ISA guide, MAI).
"""
from __future__ import annotations

import numpy as np

from ...isa import mfma as M
from ...asm.program import FloatImm, Imm, Modified, Reg
from ..context import Ctx, SimError
from ..mfma_exec import execute
from . import register_prefix

ALL_LANES = np.ones(64, dtype=bool)


def _regs(ctx: Ctx, operand, count: int, cd_type: str) -> np.ndarray:
    """uint32[count, 64] from a register range, or a constant broadcast to every register."""
    if isinstance(operand, Reg) and operand.file in ("v", "a"):
        if operand.count < count:
            raise SimError(f"{ctx.ins.mnemonic}: operand {operand.text()} has {operand.count} registers, "
                           f"the instruction needs {count}")
        arr = ctx.wave.vgpr if operand.file == "v" else ctx.wave.agpr
        for k in range(count):
            ctx.reads.append((operand.file, operand.index + k))
        return arr[operand.index:operand.index + count].copy()
    if isinstance(operand, (Imm, FloatImm, Modified)):
        if cd_type == "f64":
            bits = ctx.scalar_value(operand, 2, "f64")
            pair = np.array([bits & 0xFFFFFFFF, bits >> 32], dtype=np.uint32)
            return np.repeat(np.tile(pair, count // 2)[:, None], 64, axis=1)
        bits = ctx.scalar_value(operand, 1, "f32")
        return np.full((count, 64), bits, dtype=np.uint32)
    raise SimError(f"{ctx.ins.mnemonic}: '{operand.text()}' is not a register or inline constant")


def _flags(value, n: int = 3) -> tuple[bool, ...]:
    if value is None:
        return (False,) * n
    if isinstance(value, tuple):
        return tuple(bool(v) for v in value) + (False,) * (n - len(value))
    return (bool(value),) * n


@register_prefix("v_mfma_", "v_smfmac_", exclude=("v_mfma_ld_scale_b32",))
def mfma(ctx: Ctx, ins) -> None:
    info = M.lookup(ins.mnemonic, ctx.target)
    if info is None:
        raise SimError(f"{ins.mnemonic} is not an MFMA instruction of {ctx.target}")
    cbsz = int(ins.modifier("cbsz", 0))
    abid = int(ins.modifier("abid", 0))
    blgp = int(ins.modifier("blgp", 0))
    neg = _flags(ins.modifier("neg"))
    try:
        run = M.resolve(info, cbsz=cbsz, blgp=blgp) if info.format_select else info
    except ValueError as e:  # cbsz/blgp 5..7 on f8f6f4: llvm-mc encodes them, the formats are reserved
        raise SimError(f"{ins.mnemonic}: {e} (cbsz/blgp select the A/B format: 0 fp8, 1 bf8, 2 fp6, 3 bf6, "
                       "4 fp4; 5..7 are reserved)") from None
    a = _regs(ctx, ctx.op(1), run.a_regs, run.cd_type)
    b = _regs(ctx, ctx.op(2), run.b_regs, run.cd_type)
    dst = ctx.op(0)
    kw = {}
    if info.sparse:
        c = _regs(ctx, dst, info.cd_regs, info.cd_type)  # SMFMAC accumulates into its destination
        kw["sparse_index"] = _regs(ctx, ctx.op(3), 1, "f32")[0]
    else:
        c = _regs(ctx, ctx.op(3), info.cd_regs, info.cd_type)
    if info.scaled:
        op_sel = ins.modifier("op_sel") or (0, 0, 0)
        op_sel_hi = ins.modifier("op_sel_hi") or (0, 0, 0)
        kw["scale_a_byte"], kw["scale_b_byte"] = M.scale_bytes(op_sel, op_sel_hi)
        kw["scale_a"] = _regs(ctx, ctx.op(4), 1, "f32")[0]
        kw["scale_b"] = _regs(ctx, ctx.op(5), 1, "f32")[0]
    try:
        d = execute(info, a, b, c, cbsz=cbsz, abid=abid, blgp=blgp, neg=neg, **kw)
    except ValueError as e:
        raise SimError(f"{ins.mnemonic}: {e}") from None
    if not isinstance(dst, Reg):
        raise SimError(f"{ins.mnemonic}: destination must be a register range")
    ctx.write_v(dst, d, ALL_LANES)
