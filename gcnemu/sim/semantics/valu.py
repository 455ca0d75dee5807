"""Vector ALU integer semantics over uint32[64] lane arrays (VOP1/VOP2/VOP3 integer ops).

EXEC masking, SDWA destination merging and DPP write masks are applied by
`ctx.write_v`; source selection (SDWA sel, DPP lane permutes, op_sel halves,
inline constants and literals) by `ctx.src`. The functions here only say what
each lane computes.

Carry-out instructions write a lane mask (VCC or an SGPR pair) in which lanes
that EXEC disables read 0, as the ISA guide specifies for VOPC/VOP3b results.
`clamp` on integer add/sub saturates (unsigned or signed, by the opcode's type).
16-bit results follow gfx9: the high half of the destination is zeroed (see
`Ctx.write_v16`).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ...asm.program import Reg, Special
from ..context import Ctx, SimError
from . import semantic, vector_lane_op

U32 = np.uint32
U64 = np.uint64
I64 = np.int64
M32 = 0xFFFFFFFF


def _u32(ctx: Ctx, i: int) -> np.ndarray:
    return ctx.src(i, "u32")


def _i64(ctx: Ctx, i: int) -> np.ndarray:
    return ctx.src(i, "i32").astype(I64)


def _sat_u32(x: np.ndarray) -> np.ndarray:
    return np.clip(x, 0, M32).astype(U64).astype(U32)


def _sat_i32(x: np.ndarray) -> np.ndarray:
    return np.clip(x, -(2**31), 2**31 - 1).astype(np.int32).view(U32)


def _write_carry(ctx: Ctx, i: int, bits: np.ndarray) -> None:
    """Carry/borrow out per lane into VCC or the SGPR pair operand `i`; disabled lanes read 0."""
    ctx.write_lane_mask(i, np.asarray(bits, dtype=bool) & ctx.lanes_written())


# ---------------------------------------------------------------- moves and selects


def _identity(a: np.ndarray) -> np.ndarray:
    return a


@semantic("v_mov_b32")
def v_mov_b32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, _identity(ctx.src(1, "b32")))


vector_lane_op("v_mov_b32", ("b32",), _identity)


def _prng(a: np.ndarray) -> np.ndarray:
    """One step of the LFSR: (in << 1) ^ (in[31] ? 197 : 0) (CDNA4 ISA guide, V_PRNG_B32; period
    2**32 - 1 for a non-zero seed, 0 stays 0)."""
    a = a.astype(U32)
    return ((a << U32(1)) ^ np.where(a >> U32(31), U32(197), U32(0))).astype(U32)


@semantic("v_prng_b32")
def v_prng_b32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, _prng(ctx.src(1, "u32")))


vector_lane_op("v_prng_b32", ("u32",), _prng)


@semantic("v_nop")
def v_nop(ctx: Ctx, ins) -> None:
    """No operation (it only occupies the VALU for a cycle)."""


@semantic("v_clrexcp")
def v_clrexcp(ctx: Ctx, ins) -> None:
    """Clears the wave's FP exception flags; gcnemu records no FP exceptions, so nothing changes."""


@semantic("v_cndmask_b32")
def v_cndmask_b32(ctx: Ctx, ins) -> None:
    """D = mask[lane] ? src1 : src0, mask from VCC (e32) or an SGPR pair (e64)."""
    a, b = ctx.src(1, "b32"), ctx.src(2, "b32")
    cond = ctx.lane_mask(ctx.op(3) if len(ins.operands) > 3 else Special("vcc", ins.span))
    ctx.write_v(0, np.where(cond, b, a))


# ---------------------------------------------------------------- add / sub


def _make_addsub(name: str, fn: Callable, sat: Callable | None, signed: bool = False) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        kind = "i32" if signed else "u32"
        a = ctx.src(1, kind)
        b = ctx.src(2, kind)
        if ctx.clamp and sat is not None:
            ctx.write_v(0, sat(fn(a.astype(I64), b.astype(I64))))
        else:  # 32-bit lane arithmetic wraps: the exact result's low 32 bits, without int64
            ctx.write_v(0, fn(a, b))

    if not signed:  # (signed: an int32 result, which the plans do not take)
        vector_lane_op(name, ("u32", "u32"), fn)


_make_addsub("v_add_u32", lambda a, b: a + b, _sat_u32)
_make_addsub("v_sub_u32", lambda a, b: a - b, _sat_u32)
_make_addsub("v_subrev_u32", lambda a, b: b - a, _sat_u32)
_make_addsub("v_add_i32", lambda a, b: a + b, _sat_i32, signed=True)
_make_addsub("v_sub_i32", lambda a, b: a - b, _sat_i32, signed=True)


def _make_carry_op(name: str, fn: Callable, carry_in: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """vdst, carry-out(vcc|s[n:n+1]), src0, src1[, carry-in]: exact result in int64, carry from it."""
        a = _u32(ctx, 2).astype(I64)
        b = _u32(ctx, 3).astype(I64)
        cin = ctx.lane_mask(ctx.op(4)).astype(I64) if carry_in else np.zeros(64, dtype=I64)
        exact = fn(a, b, cin)
        carry = (exact > M32) | (exact < 0)
        ctx.write_v(0, _sat_u32(exact) if ctx.clamp else (exact & M32).astype(U32))
        _write_carry(ctx, 1, carry)


_make_carry_op("v_add_co_u32", lambda a, b, c: a + b, False)
_make_carry_op("v_sub_co_u32", lambda a, b, c: a - b, False)
_make_carry_op("v_subrev_co_u32", lambda a, b, c: b - a, False)
_make_carry_op("v_addc_co_u32", lambda a, b, c: a + b + c, True)
_make_carry_op("v_subb_co_u32", lambda a, b, c: a - b - c, True)
_make_carry_op("v_subbrev_co_u32", lambda a, b, c: b - a - c, True)


def _add3(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return a + b + c


@semantic("v_add3_u32")
def v_add3_u32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, _add3(_u32(ctx, 1), _u32(ctx, 2), _u32(ctx, 3)))


vector_lane_op("v_add3_u32", ("u32", "u32", "u32"), _add3)


@semantic("v_xad_u32")
def v_xad_u32(ctx: Ctx, ins) -> None:
    """D = (S0 ^ S1) + S2."""
    ctx.write_v(0, (_u32(ctx, 1) ^ _u32(ctx, 2)) + _u32(ctx, 3))


# ---------------------------------------------------------------- multiply


def _mul_lo_u32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a.astype(U64) * b.astype(U64)).astype(U32)


def _mul_hi_u32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return ((a.astype(U64) * b.astype(U64)) >> U64(32)).astype(U32)


@semantic("v_mul_lo_u32", "v_mul_lo_i32")
def v_mul_lo_u32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, _mul_lo_u32(_u32(ctx, 1), _u32(ctx, 2)))


@semantic("v_mul_hi_u32")
def v_mul_hi_u32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, _mul_hi_u32(_u32(ctx, 1), _u32(ctx, 2)))


vector_lane_op("v_mul_lo_u32", ("u32", "u32"), _mul_lo_u32)
vector_lane_op("v_mul_hi_u32", ("u32", "u32"), _mul_hi_u32)


@semantic("v_mul_hi_i32")
def v_mul_hi_i32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ((_i64(ctx, 1) * _i64(ctx, 2)) >> 32).astype(np.int32).view(U32))


def _u24(x: np.ndarray) -> np.ndarray:
    return (x & U32(0xFFFFFF)).astype(U64)


def _i24(x: np.ndarray) -> np.ndarray:
    v = (x & U32(0xFFFFFF)).astype(I64)
    return np.where(v >= 1 << 23, v - (1 << 24), v)


@semantic("v_mul_u32_u24")
def v_mul_u32_u24(ctx: Ctx, ins) -> None:
    ctx.write_v(0, (_u24(_u32(ctx, 1)) * _u24(_u32(ctx, 2))).astype(U32))


@semantic("v_mul_hi_u32_u24")
def v_mul_hi_u32_u24(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ((_u24(_u32(ctx, 1)) * _u24(_u32(ctx, 2))) >> U64(32)).astype(U32))


@semantic("v_mul_i32_i24")
def v_mul_i32_i24(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ((_i24(_u32(ctx, 1)) * _i24(_u32(ctx, 2))) & M32).astype(U32))


@semantic("v_mul_hi_i32_i24")
def v_mul_hi_i32_i24(ctx: Ctx, ins) -> None:
    ctx.write_v(0, (((_i24(_u32(ctx, 1)) * _i24(_u32(ctx, 2))) >> 32) & M32).astype(U32))


@semantic("v_mad_u32_u24")
def v_mad_u32_u24(ctx: Ctx, ins) -> None:
    """D = S0[23:0] * S1[23:0] + S2 (low 32 bits; clamp saturates)."""
    exact = (_u24(_u32(ctx, 1)) * _u24(_u32(ctx, 2))).astype(I64) + _u32(ctx, 3).astype(I64)
    ctx.write_v(0, _sat_u32(exact) if ctx.clamp else (exact & M32).astype(U32))


@semantic("v_mad_i32_i24")
def v_mad_i32_i24(ctx: Ctx, ins) -> None:
    exact = _i24(_u32(ctx, 1)) * _i24(_u32(ctx, 2)) + _i64(ctx, 3)
    ctx.write_v(0, _sat_i32(exact) if ctx.clamp else (exact & M32).astype(U32))


@semantic("v_mad_u64_u32")
def v_mad_u64_u32(ctx: Ctx, ins) -> None:
    """{carry, D.u64} = S0.u32 * S1.u32 + S2.u64; carry (VCC/SGPR pair) = unsigned overflow of 64 bits."""
    prod = _u32(ctx, 2).astype(U64) * _u32(ctx, 3).astype(U64)  # < 2**64, exact
    c = ctx.src(4, "u64")
    total = prod + c
    carry = total < prod
    if ctx.clamp:
        total = np.where(carry, U64(0xFFFFFFFFFFFFFFFF), total)
    ctx.write_v(0, total)
    _write_carry(ctx, 1, carry)


@semantic("v_mad_i64_i32")
def v_mad_i64_i32(ctx: Ctx, ins) -> None:
    """{carry, D.i64} = S0.i32 * S1.i32 + S2.i64; carry = signed overflow of the 64-bit sum."""
    prod = _i64(ctx, 2) * _i64(ctx, 3)  # exact in int64
    c = ctx.src(4, "i64")
    total = (prod.view(U64) + c.view(U64)).view(I64)
    overflow = ((prod ^ total) & (c ^ total)) < 0
    if ctx.clamp:
        total = np.where(overflow, np.where(c < 0, I64(-(2**63)), I64(2**63 - 1)), total)
    ctx.write_v(0, total.view(U64))
    _write_carry(ctx, 1, overflow)


# ---------------------------------------------------------------- shifts


def _lshlrev(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return b << (a & U32(31))


def _lshrrev(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return b >> (a & U32(31))


@semantic("v_lshlrev_b32")
def v_lshlrev_b32(ctx: Ctx, ins) -> None:
    b = _u32(ctx, 2)  # the shifted value is read first (VECTOR_READ_ORDER)
    ctx.write_v(0, _lshlrev(_u32(ctx, 1), b))


@semantic("v_lshrrev_b32")
def v_lshrrev_b32(ctx: Ctx, ins) -> None:
    b = _u32(ctx, 2)
    ctx.write_v(0, _lshrrev(_u32(ctx, 1), b))


vector_lane_op("v_lshlrev_b32", ("u32", "u32"), _lshlrev, read_order=(1, 0))
vector_lane_op("v_lshrrev_b32", ("u32", "u32"), _lshrrev, read_order=(1, 0))


@semantic("v_ashrrev_i32")
def v_ashrrev_i32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, (ctx.src(2, "i32") >> (_u32(ctx, 1) & U32(31)).astype(np.int32)).view(U32))


@semantic("v_lshlrev_b64")
def v_lshlrev_b64(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ctx.src(2, "u64") << (_u32(ctx, 1) & U32(63)).astype(U64))


@semantic("v_lshrrev_b64")
def v_lshrrev_b64(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ctx.src(2, "u64") >> (_u32(ctx, 1) & U32(63)).astype(U64))


@semantic("v_ashrrev_i64")
def v_ashrrev_i64(ctx: Ctx, ins) -> None:
    ctx.write_v(0, (ctx.src(2, "i64") >> (_u32(ctx, 1) & U32(63)).astype(I64)).view(U64))


def _lshl_add(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return (a << (b & U32(31))) + c


def _add_lshl(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return (a + b) << (c & U32(31))


def _lshl_or(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return (a << (b & U32(31))) | c


@semantic("v_lshl_add_u32")
def v_lshl_add_u32(ctx: Ctx, ins) -> None:
    """D = (S0 << S1[4:0]) + S2."""
    ctx.write_v(0, _lshl_add(_u32(ctx, 1), _u32(ctx, 2), _u32(ctx, 3)))


@semantic("v_add_lshl_u32")
def v_add_lshl_u32(ctx: Ctx, ins) -> None:
    """D = (S0 + S1) << S2[4:0]."""
    ctx.write_v(0, _add_lshl(_u32(ctx, 1), _u32(ctx, 2), _u32(ctx, 3)))


@semantic("v_lshl_or_b32")
def v_lshl_or_b32(ctx: Ctx, ins) -> None:
    """D = (S0 << S1[4:0]) | S2."""
    ctx.write_v(0, _lshl_or(_u32(ctx, 1), _u32(ctx, 2), _u32(ctx, 3)))


for _n, _f in (("v_lshl_add_u32", _lshl_add), ("v_add_lshl_u32", _add_lshl), ("v_lshl_or_b32", _lshl_or)):
    vector_lane_op(_n, ("u32", "u32", "u32"), _f)


@semantic("v_lshl_add_u64")
def v_lshl_add_u64(ctx: Ctx, ins) -> None:
    """D.u64 = (S0.u64 << S1[2:0]) + S2.u64 (gfx942+)."""
    shift = (_u32(ctx, 2) & U32(7)).astype(U64)
    ctx.write_v(0, (ctx.src(1, "u64") << shift) + ctx.src(3, "u64"))


# ---------------------------------------------------------------- logic and bit fields


_LOGIC2: dict[str, Callable] = {
    "v_and_b32": lambda a, b: a & b, "v_or_b32": lambda a, b: a | b, "v_xor_b32": lambda a, b: a ^ b,
    "v_xnor_b32": lambda a, b: ~(a ^ b),
}
_LOGIC3: dict[str, Callable] = {
    "v_and_or_b32": lambda a, b, c: (a & b) | c, "v_or3_b32": lambda a, b, c: a | b | c,
    "v_bfi_b32": lambda a, b, c: (a & b) | (~a & c),
}


def _make_logic2(name: str, fn: Callable) -> None:
    def lanes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return fn(a, b).astype(U32)

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        ctx.write_v(0, lanes(_u32(ctx, 1), _u32(ctx, 2)))

    vector_lane_op(name, ("u32", "u32"), lanes)


def _make_logic3(name: str, fn: Callable) -> None:
    def lanes(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
        return fn(a, b, c).astype(U32)

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        ctx.write_v(0, lanes(_u32(ctx, 1), _u32(ctx, 2), _u32(ctx, 3)))

    vector_lane_op(name, ("u32", "u32", "u32"), lanes)


for _n, _f in _LOGIC2.items():
    _make_logic2(_n, _f)
for _n, _f in _LOGIC3.items():
    _make_logic3(_n, _f)


@semantic("v_not_b32")
def v_not_b32(ctx: Ctx, ins) -> None:
    ctx.write_v(0, ~_u32(ctx, 1))


def _bfe_u32(x: np.ndarray, off: np.ndarray, width: np.ndarray) -> np.ndarray:
    off = off & U32(31)
    mask = ((U64(1) << (width & U32(31)).astype(U64)) - U64(1)).astype(U32)
    return (x >> off) & mask


@semantic("v_bfe_u32")
def v_bfe_u32(ctx: Ctx, ins) -> None:
    """D = (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1). The offset and width are read before S0."""
    off = _u32(ctx, 2)
    width = _u32(ctx, 3)
    ctx.write_v(0, _bfe_u32(_u32(ctx, 1), off, width))


vector_lane_op("v_bfe_u32", ("u32", "u32", "u32"), _bfe_u32, read_order=(1, 2, 0))


@semantic("v_bfe_i32")
def v_bfe_i32(ctx: Ctx, ins) -> None:
    """As v_bfe_u32 with an arithmetic shift and the field sign-extended from bit width-1 (width 0 -> 0)."""
    off = (_u32(ctx, 2) & U32(31)).astype(I64)
    width = (_u32(ctx, 3) & U32(31)).astype(I64)
    field_ = (_i64(ctx, 1) >> off) & ((I64(1) << width) - 1)
    top = I64(1) << np.maximum(width - 1, 0)
    signed = np.where((width > 0) & ((field_ & top) != 0), field_ - (I64(1) << width), field_)
    ctx.write_v(0, np.where(width == 0, 0, signed).astype(np.int32).view(U32))


@semantic("v_bfm_b32")
def v_bfm_b32(ctx: Ctx, ins) -> None:
    """D = ((1 << S0[4:0]) - 1) << S1[4:0]."""
    size = (_u32(ctx, 1) & U32(31)).astype(U64)
    shift = (_u32(ctx, 2) & U32(31)).astype(U64)
    ctx.write_v(0, ((((U64(1) << size) - U64(1)) << shift) & U64(M32)).astype(U32))


@semantic("v_alignbit_b32")
def v_alignbit_b32(ctx: Ctx, ins) -> None:
    """D = ({S0, S1} >> S2[4:0])[31:0]."""
    wide = (_u32(ctx, 1).astype(U64) << U64(32)) | _u32(ctx, 2).astype(U64)
    ctx.write_v(0, ((wide >> (_u32(ctx, 3) & U32(31)).astype(U64)) & U64(M32)).astype(U32))


@semantic("v_alignbyte_b32")
def v_alignbyte_b32(ctx: Ctx, ins) -> None:
    """D = ({S0, S1} >> (8 * S2[1:0]))[31:0]."""
    wide = (_u32(ctx, 1).astype(U64) << U64(32)) | _u32(ctx, 2).astype(U64)
    ctx.write_v(0, ((wide >> (U64(8) * (_u32(ctx, 3) & U32(3)).astype(U64))) & U64(M32)).astype(U32))


def byte_permute(data: np.ndarray, sel: np.ndarray) -> np.ndarray:
    """One byte of {S0, S1} (uint64 per lane) per selector: 0-7 bytes, 8-11 sign fills, 12 zero, >=13 0xff."""
    byte = (data >> (U64(8) * np.minimum(sel, 7).astype(U64))) & U64(0xFF)
    sign_bit = {8: 15, 9: 31, 10: 47, 11: 63}
    for k, bit in sign_bit.items():
        byte = np.where(sel == k, ((data >> U64(bit)) & U64(1)) * U64(0xFF), byte)
    byte = np.where(sel == 12, U64(0), byte)
    byte = np.where(sel >= 13, U64(0xFF), byte)
    return byte.astype(U32)


@semantic("v_perm_b32")
def v_perm_b32(ctx: Ctx, ins) -> None:
    """Each byte k of D = byte_permute({S0, S1}, S2[8k+7:8k])."""
    data = (_u32(ctx, 1).astype(U64) << U64(32)) | _u32(ctx, 2).astype(U64)
    sel = _u32(ctx, 3)
    out = np.zeros(np.broadcast(data, sel).shape, dtype=U32)  # one wave's lanes or a group of waves
    for k in range(4):
        out |= byte_permute(data, (sel >> U32(8 * k)) & U32(0xFF)) << U32(8 * k)
    ctx.write_v(0, out)


# ---------------------------------------------------------------- integer min / max / med3


def _make_minmax(name: str, kind: str, fn: Callable, nsrc: int) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        vals = [ctx.src(1 + k, kind) for k in range(nsrc)]
        out = fn(*vals)
        if kind in ("u16", "i16"):
            ctx.write_v16(0, out.astype(vals[0].dtype).view(np.uint16))
        else:
            ctx.write_v(0, out.astype(vals[0].dtype).view(U32))


def _med3(a, b, c):
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


for _t in ("i32", "u32", "i16", "u16"):
    _make_minmax(f"v_min_{_t}", _t, np.minimum, 2)
    _make_minmax(f"v_max_{_t}", _t, np.maximum, 2)
    _make_minmax(f"v_min3_{_t}", _t, lambda a, b, c: np.minimum(np.minimum(a, b), c), 3)
    _make_minmax(f"v_max3_{_t}", _t, lambda a, b, c: np.maximum(np.maximum(a, b), c), 3)
    _make_minmax(f"v_med3_{_t}", _t, _med3, 3)


# ---------------------------------------------------------------- sums of absolute differences


def _absdiff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(a > b, a - b, b - a)


@semantic("v_sad_u32")
def v_sad_u32(ctx: Ctx, ins) -> None:
    """D = |S0 - S1| + S2 (unsigned; clamp saturates)."""
    exact = _absdiff(_u32(ctx, 1), _u32(ctx, 2)).astype(I64) + _u32(ctx, 3).astype(I64)
    ctx.write_v(0, _sat_u32(exact) if ctx.clamp else (exact & M32).astype(U32))


def _lane_parts(x: np.ndarray, size: int) -> list[np.ndarray]:
    return [(x >> U32(k)) & U32((1 << size) - 1) for k in range(0, 32, size)]


def _make_sad(name: str, size: int, shift: int, masked: bool = False) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """Sum over bytes (words) of |S0 part - S1 part|, shifted, plus S2 (msad skips S1 parts equal to 0)."""
        a, b = _lane_parts(_u32(ctx, 1), size), _lane_parts(_u32(ctx, 2), size)
        total = np.zeros(np.broadcast(a[0], b[0]).shape, dtype=I64)
        for pa, pb in zip(a, b):
            d = _absdiff(pa, pb).astype(I64)
            total += np.where(pb == 0, 0, d) if masked else d
        exact = (total << shift) + _u32(ctx, 3).astype(I64)
        ctx.write_v(0, _sat_u32(exact) if ctx.clamp else (exact & M32).astype(U32))


_make_sad("v_sad_u8", 8, 0)
_make_sad("v_sad_hi_u8", 8, 16)
_make_sad("v_sad_u16", 16, 0)
_make_sad("v_msad_u8", 8, 0, masked=True)


def _sad_slices(ctx: Ctx, masked: bool, accumulators: list[np.ndarray], bits: int) -> list[np.ndarray]:
    """The quad SADs: for k = 0..3, (M)SAD_U8 of S0 bytes [k, k+4) (a 4-byte window sliding over
    the 8 bytes of S0) against the 4 bytes of S1, plus accumulator k; each truncated to `bits`."""
    s0 = ctx.src(1, "u64")
    ref = _lane_parts(_u32(ctx, 2), 8)
    out = []
    for k, acc in enumerate(accumulators):
        window = _lane_parts(((s0 >> np.uint64(8 * k)) & np.uint64(M32)).astype(U32), 8)
        total = acc.astype(I64)
        for pa, pb in zip(window, ref):
            d = _absdiff(pa, pb).astype(I64)
            total = total + (np.where(pb == 0, 0, d) if masked else d)
        out.append((total & ((1 << bits) - 1)).astype(np.uint64))
    return out


def _make_qsad(name: str, masked: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """D.u64 = four 16-bit (M)SAD_U8 results packed (ISA: "Quad-Byte SAD with 16-bit packed
        accum"): field k = (M)SAD_U8(S0.u64 bytes [k, k+4), S1.u32, S2.u64 field k), truncated to
        16 bits. MSAD skips the bytes where S1's byte is 0."""
        acc = ctx.src(3, "u64")
        fields = [(acc >> np.uint64(16 * k)) & np.uint64(0xFFFF) for k in range(4)]
        res = _sad_slices(ctx, masked, fields, 16)
        d = res[0] | (res[1] << np.uint64(16)) | (res[2] << np.uint64(32)) | (res[3] << np.uint64(48))
        ctx.write_v(0, d)


_make_qsad("v_qsad_pk_u16_u8", False)
_make_qsad("v_mqsad_pk_u16_u8", True)


@semantic("v_mqsad_u32_u8")
def v_mqsad_u32_u8(ctx: Ctx, ins) -> None:
    """D.u128 = four 32-bit MSAD_U8 results: dword k = MSAD_U8(S0.u64 bytes [k, k+4), S1.u32,
    S2 dword k) (S2 is 4 VGPRs), truncated to 32 bits."""
    acc = ctx.op(3)
    if not isinstance(acc, Reg) or acc.count != 4:
        raise SimError(f"{ins.mnemonic}: the accumulator must be 4 VGPRs, got '{acc.text()}'")
    parts = [ctx.vector_value(Reg(acc.file, acc.index + k, 1, acc.span), "int") for k in range(4)]
    res = _sad_slices(ctx, True, parts, 32)
    ctx.write_v(0, np.stack([r.astype(U32) for r in res]))


@semantic("v_lerp_u8")
def v_lerp_u8(ctx: Ctx, ins) -> None:
    """Per byte: (S0 + S1 + S2[bit 0 of the byte]) >> 1 (unsigned average with a rounding bit)."""
    a, b, c = (_lane_parts(_u32(ctx, k), 8) for k in (1, 2, 3))
    out = np.zeros(np.broadcast(a[0], b[0], c[0]).shape, dtype=U32)
    for k in range(4):
        out |= ((a[k] + b[k] + (c[k] & U32(1))) >> U32(1)) << U32(8 * k)
    ctx.write_v(0, out)


# ---------------------------------------------------------------- 16-bit integer ops (gfx9 zero the high half)


def _make_int16(name: str, kind: str, fn: Callable, sat: tuple[int, int] | None) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        a = ctx.src(1, kind).astype(I64)
        b = ctx.src(2, kind).astype(I64)
        exact = fn(a, b)
        if ctx.clamp and sat is not None:
            exact = np.clip(exact, *sat)
        ctx.write_v16(0, (exact & 0xFFFF).astype(np.uint16))


_U16_SAT, _I16_SAT = (0, 0xFFFF), (-(2**15), 2**15 - 1)
_make_int16("v_add_u16", "u16", lambda a, b: a + b, _U16_SAT)
_make_int16("v_sub_u16", "u16", lambda a, b: a - b, _U16_SAT)
_make_int16("v_subrev_u16", "u16", lambda a, b: b - a, _U16_SAT)
_make_int16("v_add_i16", "i16", lambda a, b: a + b, _I16_SAT)
_make_int16("v_sub_i16", "i16", lambda a, b: a - b, _I16_SAT)
_make_int16("v_mul_lo_u16", "u16", lambda a, b: a * b, None)
_make_int16("v_lshlrev_b16", "u16", lambda a, b: b << (a & 15), None)
_make_int16("v_lshrrev_b16", "u16", lambda a, b: b >> (a & 15), None)
_make_int16("v_ashrrev_i16", "i16", lambda a, b: b >> (a & 15), None)


def _make_mad16(name: str, kind: str, wide: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """D = S0 * S1 + S2 in 16 bits (v_mad_u32_u16/i32_i16: 32-bit S2 and result); clamp saturates."""
        a = ctx.src(1, kind).astype(I64)
        b = ctx.src(2, kind).astype(I64)
        if wide:
            c = ctx.src(3, "i32" if kind == "i16" else "u32").astype(I64)
            exact = a * b + c
            if ctx.clamp:
                ctx.write_v(0, _sat_i32(exact) if kind == "i16" else _sat_u32(exact))
            else:
                ctx.write_v(0, (exact & M32).astype(U32))
            return
        exact = a * b + ctx.src(3, kind).astype(I64)
        if ctx.clamp:
            exact = np.clip(exact, *(_I16_SAT if kind == "i16" else _U16_SAT))
        ctx.write_v16(0, (exact & 0xFFFF).astype(np.uint16))


_make_mad16("v_mad_u16", "u16", False)
_make_mad16("v_mad_i16", "i16", False)
_make_mad16("v_mad_legacy_u16", "u16", False)  # the gfx8-compatible opcodes: same result, no op_sel
_make_mad16("v_mad_legacy_i16", "i16", False)
_make_mad16("v_mad_u32_u16", "u16", True)
_make_mad16("v_mad_i32_i16", "i16", True)
