"""Cross-lane and register-file moves: readlane/writelane, mbcnt, bit counts, AGPR moves, swaps, 64-bit moves.

- v_readfirstlane_b32: the lowest lane EXEC enables (lane 0 when EXEC is 0);
- v_readlane_b32 / v_writelane_b32: the lane is S1[5:0]; writelane writes that
  one lane whatever EXEC says;
- v_mbcnt_lo/hi_u32_b32: popcount of S0 masked by the lanes below this one
  (bits 31:0 / 63:32 of the thread mask) plus S1: `v_mbcnt_lo(-1, 0)` then
  `v_mbcnt_hi(-1, that)` is the lane id idiom.
"""
from __future__ import annotations

import numpy as np

from ...asm.program import Reg
from ..context import Ctx, SimError
from ..state import WAVE
from . import semantic

U32, U64 = np.uint32, np.uint64
LANES = np.arange(WAVE)


def _popcount32(x: np.ndarray) -> np.ndarray:
    x = x.astype(U64)
    return np.array([bin(int(v)).count("1") for v in x], dtype=U32)


def _lane_of(ctx: Ctx, i: int) -> int:
    return ctx.scalar_value(ctx.op(i), 1, "int") & 63


@semantic("v_readfirstlane_b32")
def v_readfirstlane_b32(ctx: Ctx, ins) -> None:
    exec_ = ctx.exec
    lane = int(np.argmax(exec_)) if exec_.any() else 0
    value = ctx.vector_value(ctx.op(1), "int", src=0)
    ctx.write_s(0, int(value[lane]))


@semantic("v_readlane_b32")
def v_readlane_b32(ctx: Ctx, ins) -> None:
    lane = _lane_of(ctx, 2)
    reg = ctx.op(1)
    if isinstance(reg, Reg) and reg.file in ("v", "a"):
        arr, init = ctx.wave.file(reg.file)
        ctx.reads.append((reg.file, reg.index))
        if not init[reg.index, lane]:
            ctx.note(f"reads {reg.text()} lane {lane} before anything wrote it: it holds the poison pattern")
        ctx.write_s(0, int(arr[reg.index, lane]))
        return
    ctx.write_s(0, int(ctx.vector_value(reg, "int")[lane]))


@semantic("v_writelane_b32")
def v_writelane_b32(ctx: Ctx, ins) -> None:
    value = ctx.scalar_value(ctx.op(1), 1, "int")
    lane = _lane_of(ctx, 2)
    mask = LANES == lane
    ctx.write_v(0, np.full(WAVE, value, dtype=U32), mask=mask)


@semantic("v_mbcnt_lo_u32_b32")
def v_mbcnt_lo_u32_b32(ctx: Ctx, ins) -> None:
    below = ((U64(1) << LANES.astype(U64)) - U64(1)) & U64(0xFFFFFFFF)  # lanes 0..31 of the thread mask
    ctx.write_v(0, _popcount32(ctx.src(1, "u32").astype(U64) & below) + ctx.src(2, "u32"))


@semantic("v_mbcnt_hi_u32_b32")
def v_mbcnt_hi_u32_b32(ctx: Ctx, ins) -> None:
    shift = np.clip(LANES - 32, 0, 32).astype(U64)
    below = np.where(LANES >= 32, (U64(1) << shift) - U64(1), U64(0)) & U64(0xFFFFFFFF)
    ctx.write_v(0, _popcount32(ctx.src(1, "u32").astype(U64) & below) + ctx.src(2, "u32"))


@semantic("v_bcnt_u32_b32")
def v_bcnt_u32_b32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, _popcount32(ctx.src(1, "u32")) + ctx.src(2, "u32"))


def _clz32(x: np.ndarray) -> np.ndarray:
    x = x.astype(U64)
    return np.array([32 - int(v).bit_length() for v in x], dtype=np.int64)


@semantic("v_ffbh_u32")
def v_ffbh_u32(ctx: Ctx, ins) -> None:
    """Leading zeros from the MSB; -1 (0xffffffff) when S0 is 0."""
    x = ctx.src(1, "u32")
    ctx.write_v(0, np.where(x == 0, -1, _clz32(x)).astype(np.int64).astype(np.int32).view(U32))


@semantic("v_ffbl_b32")
def v_ffbl_b32(ctx: Ctx, ins) -> None:
    """Index of the lowest set bit; -1 when S0 is 0."""
    x = ctx.src(1, "u32").astype(U64)
    low = x & (~x + U64(1))
    idx = np.array([int(v).bit_length() - 1 for v in low], dtype=np.int64)
    ctx.write_v(0, idx.astype(np.int32).view(U32))


@semantic("v_ffbh_i32")
def v_ffbh_i32(ctx: Ctx, ins) -> None:
    """Bits from the MSB to the first bit that differs from the sign; -1 for 0 and -1."""
    x = ctx.src(1, "u32")
    y = np.where(x >> U32(31), ~x, x)
    ctx.write_v(0, np.where(y == 0, -1, _clz32(y)).astype(np.int64).astype(np.int32).view(U32))


@semantic("v_bfrev_b32")
def v_bfrev_b32(ctx: Ctx, ins) -> None:
    x = ctx.src(1, "u32")
    bits = np.unpackbits(x.astype(">u4").view(np.uint8).reshape(-1, 4), axis=1)
    ctx.write_v(0, np.packbits(bits[:, ::-1], axis=1).view(">u4").reshape(-1).astype(U32))


# ---------------------------------------------------------------- register-file moves


@semantic("v_accvgpr_read_b32")
def v_accvgpr_read_b32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ctx.src(1, "b32"))


@semantic("v_accvgpr_write_b32")
def v_accvgpr_write_b32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ctx.src(1, "b32"))


@semantic("v_accvgpr_mov_b32")
def v_accvgpr_mov_b32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ctx.src(1, "b32"))


@semantic("v_swap_b32")
def v_swap_b32(ctx: Ctx, ins) -> None:
    """Exchange two VGPRs in the lanes EXEC enables (both read at issue)."""
    a = ctx.vector_value(ctx.op(0), "int")
    b = ctx.vector_value(ctx.op(1), "int")
    ctx.write_v(0, b)
    ctx.write_v(1, a)


@semantic("v_mov_b64")
def v_mov_b64(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ctx.src(1, "b64"))


@semantic("v_pk_mov_b32")
def v_pk_mov_b32(ctx: Ctx, ins) -> None:
    """D.lo = src0 dword op_sel[0], D.hi = src1 dword op_sel[1] (64-bit register pairs)."""
    sel = ctx._bit_list("op_sel", 2, 0)
    src0 = ctx.src(1, "b64")
    src1 = ctx.src(2, "b64")
    lo = (src0 >> U64(32 * sel[0])) & U64(0xFFFFFFFF)
    hi = (src1 >> U64(32 * sel[1])) & U64(0xFFFFFFFF)
    dst = ctx.op(0)
    if not isinstance(dst, Reg) or dst.count != 2:
        raise SimError(f"{ins.mnemonic}: destination must be a 64-bit register pair")
    ctx.write_v(0, lo | (hi << U64(32)))
