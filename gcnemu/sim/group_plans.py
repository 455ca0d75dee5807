"""Group plans: the functional engine's table instructions over a whole group, without a Ctx.

Why: through `GroupCtx` a lane-wise VALU instruction costs a Ctx, a dozen Python calls
(operand lookups, typed views, write_v's conversions and broadcasts, `land`) and copies of
every source around one numpy call over the group. For `v_fmac_f32` over 1024 waves that
was ~0.7 ms around a ~0.1 ms fma; sgemm runs 1024 of them per wave.

What a group plan is: the counterpart of the timed engine's issue plans (`plans`), over a
group of waves. It applies the lane function of the instruction's table entry (VECTOR_LANE_OPS,
VECTOR_F32_OPS: the function the semantic function itself applies, so no second copy of
the semantics) to the group's register rows, and mirrors only the fast paths of `Ctx.src`,
`Ctx.dst_as_src`, `Ctx.out_f32` and `Ctx.write_v` that `plans` mirrors: same bits, same
EXEC merge. The sources are views of the engine's register arrays, not copies (the lane
functions never write their operands). Whatever the plan does not cover is not planned; a
source some lane of the group never wrote raises `Unshared` (the engine then runs the group
per wave, which owns the uninitialised-read notes).

A group plan is `plan(pc, idx) -> bool` (False: run this group per wave).
"""
from __future__ import annotations

import inspect
from typing import Callable

import numpy as np

from ..asm.program import FloatImm, Imm, Instruction
from . import fp
from .context import _F32_DT, _U32_DT, M32, constant_bits
from .plans import is_reg, table_base
from .semantics import VECTOR_F32_OPS, VECTOR_LANE_OPS
from .state import WAVE

GroupPlan = Callable[[int, object], bool]
_INTEGER_KINDS = frozenset({"u32", "b32"})


class Unshared(Exception):
    """This group cannot share one execution of the instruction: run it per wave."""


def make_group_plan(eng, ins: Instruction, sem: Callable | None) -> GroupPlan | None:
    """The group plan of `ins` for the functional engine `eng`, or None (see the module doc)."""
    if sem is None or ins.modifiers:
        return None
    base = table_base(ins, sem)
    if base is None:
        return None
    ops = ins.operands
    if base in VECTOR_LANE_OPS:
        kinds, fn = VECTOR_LANE_OPS[base]
        if len(ops) != 1 + len(kinds) or not set(kinds) <= _INTEGER_KINDS:
            return None
        return _plan(eng, ops[0], [_reader(eng, op, False) for op in ops[1:]], fn, None)
    if base in VECTOR_F32_OPS:
        nsrc, accumulates, fn = VECTOR_F32_OPS[base]
        if len(ops) != 1 + nsrc:
            return None
        readers = [_reader(eng, op, True) for op in ops[1:]]
        if accumulates:  # D's old value, read after the sources (Ctx.dst_as_src)
            readers.append(_reader(eng, ops[0], False))
        return _plan(eng, ops[0], readers, fn, eng.float_mode)
    return None


def _reader(eng, operand, float_constants: bool) -> Callable | None:
    """`read(idx) -> uint32 lanes` of one 32-bit source for a group, broadcastable to (G, 64):
    a VGPR's (G, 64) rows (a view for the whole grid or a slice of it), an SGPR's (G, 1)
    values (each wave its own), a constant's (64,) lanes; as `plans._row_reader` reads them."""
    if float_constants and type(operand) is FloatImm:
        value, how = constant_bits(operand, "f32")
        if how not in ("inline", "literal"):
            return None
        return _const_reader(value)
    if is_reg(operand, "v") and operand.index < eng.V.shape[0]:
        index = operand.index
        vread = eng._vread

        def read_vgpr(idx):
            return vread("v", index, 1, idx)[0]
        return read_vgpr
    if is_reg(operand, "s"):
        slot = operand.index
        S, SI = eng.S, eng.SI

        def read_sgpr(idx):
            if not SI[idx, slot].all():
                raise Unshared
            return S[idx, slot, None]
        return read_sgpr
    if type(operand) is Imm:
        return _const_reader(operand.value)
    return None


def _const_reader(value: int) -> Callable:
    row = np.full(WAVE, value & M32, dtype=np.uint32)
    row.flags.writeable = False

    def read_const(idx):
        return row
    return read_const


def _plan(eng, dst, readers: list, fn: Callable, mode: fp.FloatMode | None) -> GroupPlan | None:
    """D = fn(sources) under EXEC; `mode`: an f32 op (sources and result through MODE's
    denormal rule, as Ctx.src and Ctx.finish apply it), None: a 32-bit integer op."""
    if not is_reg(dst, "v") or dst.index >= eng.V.shape[0] or any(r is None for r in readers):
        return None
    index = dst.index
    denorm_in, denorm_out = fp.denorm_in, fp.denorm_out
    # a function that can fill `out` (fp.fma_f32) writes a whole group's row in place when EXEC
    # is full and MODE keeps output denormals (nothing to apply after it): no result array to
    # allocate and copy (measured: 38 us against 65 us per v_fmac_f32 over 1024 waves)
    into = mode is not None and mode.denorm_f32 and "out" in inspect.signature(fn).parameters
    V = eng.V

    def plan(pc, idx) -> bool:
        if eng.mode_changed():  # s_setreg changed some wave's MODE: per wave, as GroupCtx does
            return False
        srcs = [r(idx) for r in readers]
        if into and isinstance(idx, slice):
            mask, full = eng._exec(idx)
            if full:
                srcs = [denorm_in(s.view(_F32_DT), mode) for s in srcs]
                with np.errstate(all="ignore"):
                    fn(*srcs, out=V[index, idx].view(_F32_DT))
                eng._written("v", index, 1, idx)
                eng.PC[idx] = pc + 1
                return True
        if mode is None:
            out = fn(*srcs)
            if type(out) is not np.ndarray or out.dtype != _U32_DT:
                return False  # (Ctx.write_v's general path: per wave)
        else:
            srcs = [denorm_in(s.view(_F32_DT), mode) for s in srcs]
            with np.errstate(all="ignore"):  # as fp.silent runs the semantic function
                out = denorm_out(np.asarray(fn(*srcs), dtype=_F32_DT), mode).view(_U32_DT)
        mask, full = eng._exec(idx)
        values = np.broadcast_to(out, mask.shape)[None]
        eng._vwrite("v", index, values, idx, None if full else mask)
        eng.PC[idx] = pc + 1
        return True
    return plan
