"""Vector ALU semantics over uint32[64] lane arrays; EXEC masking is applied by `ctx.write_v`."""
from __future__ import annotations

import numpy as np

from ..context import Ctx
from . import semantic

U32 = np.uint32


@semantic("v_mov_b32")
def v_mov_b32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ctx.v_src(1))


@semantic("v_add_u32")
def v_add_u32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ctx.v_src(1, "int") + ctx.v_src(2, "int"))
