"""Scalar ALU semantics (SOP1/SOP2/SOPK/SOPC). Values are Python ints, masked to width."""
from __future__ import annotations

from ..context import Ctx
from . import semantic

M32 = 0xFFFFFFFF


@semantic("s_mov_b32")
def s_mov_b32(ctx: Ctx, ins) -> None:
    ctx.write_s(0, ctx.s_read(1))


@semantic("s_mov_b64")
def s_mov_b64(ctx: Ctx, ins) -> None:
    ctx.write_s(0, ctx.s_read(1, 2), 2)


@semantic("s_add_u32")
def s_add_u32(ctx: Ctx, ins) -> None:
    total = ctx.s_read(1) + ctx.s_read(2)
    ctx.write_s(0, total & M32)
    ctx.write_scc(total >> 32)
