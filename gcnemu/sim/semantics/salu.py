"""Scalar ALU semantics (SOP1/SOP2/SOPK/SOPC) for gfx9 (CDNA1-4).

Values are Python ints masked to their width; the ISA guide's pseudo-code is
followed for SCC: carry/borrow for the unsigned add/sub family, signed overflow
for s_add_i32/s_sub_i32/s_addk_i32, "result != 0" for logic, shifts, bfe, not,
abs, bcnt, quadmask and wqm, "S0 was chosen" for min/max, and the new EXEC
being non-zero for the saveexec family.

PC model: every instruction has its real byte address (`gcnemu.asm.image`: the
code laid out from CODE_BASE with each instruction's encoded size, 4 or 8 bytes
plus 4 for a literal, and the file's alignment and data directives). s_getpc_b64
returns the address of the next instruction; s_setpc_b64/s_swappc_b64 jump to a
byte address and s_call_b64 to its label, saving the next instruction's address.
Relocated literals (`callee@rel32@lo+4`, `@gotpcrel32`, a label used as a value)
hold what the linker writes, so llc's call sequences land on the callee. A jump
to an address where no instruction starts, outside the code, or to a function
the file does not define stops the run with an error at the jump.
"""
from __future__ import annotations

from typing import Callable

from ...asm.image import CODE_BASE  # noqa: F401  (re-exported: where the code starts)
from ...isa import hwregs
from ...asm.program import Imm, Special, Symbol
from ..context import Ctx, SimError
from ..state import SPECIAL_SLOTS
from .control import code_label
from . import scalar_op, semantic

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF
EXEC_SLOT = SPECIAL_SLOTS["exec"][0]


def sext(value: int, bits: int) -> int:
    """Two's-complement value of the low `bits` bits."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _mask(width: int) -> int:
    return M64 if width == 2 else M32


# ---------------------------------------------------------------- moves


def _make_scalar(name: str, nsrc: int, reads_scc: bool, fn: Callable) -> None:
    """(D, SCC) = fn(S0, ..., S(nsrc-1), SCC); a new SCC of None leaves SCC alone (see scalar_op)."""
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        srcs = [ctx.s_read(1 + k) for k in range(nsrc)]
        scc = ctx.scalar_value(Special("scc", ins.span)) if reads_scc else 0
        result, new_scc = fn(*srcs, scc)
        ctx.write_s(0, result)
        if new_scc is not None:
            ctx.write_scc(new_scc)

    scalar_op(name, nsrc, reads_scc, fn)


def _mov_b32(a: int, scc: int) -> tuple[int, None]:
    return a, None


_make_scalar("s_mov_b32", 1, False, _mov_b32)


@semantic("s_mov_b64")
def s_mov_b64(ctx: Ctx, ins) -> None:
    ctx.write_s(0, ctx.s_read(1, 2), 2)


@semantic("s_cmov_b32")
def s_cmov_b32(ctx: Ctx, ins) -> None:
    value = ctx.s_read(1)
    if ctx.scalar_value(Special("scc", ins.span)):
        ctx.write_s(0, value)


@semantic("s_cmov_b64")
def s_cmov_b64(ctx: Ctx, ins) -> None:
    value = ctx.s_read(1, 2)
    if ctx.scalar_value(Special("scc", ins.span)):
        ctx.write_s(0, value, 2)


def _simm16(ctx: Ctx, i: int) -> int:
    """SOPK immediate: the low 16 bits as written (sign handled by the caller)."""
    return ctx.const(ctx.op(i)) & 0xFFFF


@semantic("s_movk_i32")
def s_movk_i32(ctx: Ctx, ins) -> None:
    ctx.write_s(0, sext(_simm16(ctx, 1), 16) & M32)


@semantic("s_cmovk_i32")
def s_cmovk_i32(ctx: Ctx, ins) -> None:
    if ctx.scalar_value(Special("scc", ins.span)):
        ctx.write_s(0, sext(_simm16(ctx, 1), 16) & M32)


# ---------------------------------------------------------------- add / sub / mul


def _add_u32(a: int, b: int, scc: int) -> tuple[int, int]:
    total = a + b
    return total & M32, total >> 32


def _sub_u32(a: int, b: int, scc: int) -> tuple[int, int]:
    return (a - b) & M32, int(b > a)


def _addc_u32(a: int, b: int, scc: int) -> tuple[int, int]:
    total = a + b + scc
    return total & M32, total >> 32


def _subb_u32(a: int, b: int, scc: int) -> tuple[int, int]:
    return (a - b - scc) & M32, int(b + scc > a)


def _add_i32(a: int, b: int, scc: int) -> tuple[int, int]:
    r = (a + b) & M32
    overflow = (a >> 31) == (b >> 31) and (a >> 31) != (r >> 31)
    return r, int(overflow)


def _sub_i32(a: int, b: int, scc: int) -> tuple[int, int]:
    r = (a - b) & M32
    overflow = (a >> 31) != (b >> 31) and (a >> 31) != (r >> 31)
    return r, int(overflow)


_CARRY_OPS: dict[str, tuple[Callable, bool]] = {
    # name: (function, reads SCC)
    "s_add_u32": (_add_u32, False), "s_sub_u32": (_sub_u32, False),
    "s_addc_u32": (_addc_u32, True), "s_subb_u32": (_subb_u32, True),
    "s_add_i32": (_add_i32, False), "s_sub_i32": (_sub_i32, False),
}


for _n, (_f, _r) in _CARRY_OPS.items():
    _make_scalar(_n, 2, _r, _f)


@semantic("s_addk_i32")
def s_addk_i32(ctx: Ctx, ins) -> None:
    """D = D + sext(simm16); SCC = signed overflow."""
    result, overflow = _add_i32(ctx.s_read(0), sext(_simm16(ctx, 1), 16) & M32, 0)
    ctx.write_s(0, result)
    ctx.write_scc(overflow)


@semantic("s_mulk_i32")
def s_mulk_i32(ctx: Ctx, ins) -> None:
    ctx.write_s(0, (sext(ctx.s_read(0), 32) * sext(_simm16(ctx, 1), 16)) & M32)


def _mul_i32(a: int, b: int, scc: int) -> tuple[int, None]:
    return (a * b) & M32, None


def _mul_hi_u32(a: int, b: int, scc: int) -> tuple[int, None]:
    return (a * b) >> 32, None


def _mul_hi_i32(a: int, b: int, scc: int) -> tuple[int, None]:
    return ((sext(a, 32) * sext(b, 32)) >> 32) & M32, None


# (tables, so the timed engine plans them: index arithmetic in compiled kernels' prologues)
_make_scalar("s_mul_i32", 2, False, _mul_i32)
_make_scalar("s_mul_hi_u32", 2, False, _mul_hi_u32)
_make_scalar("s_mul_hi_i32", 2, False, _mul_hi_i32)


@semantic("s_absdiff_i32")
def s_absdiff_i32(ctx: Ctx, ins) -> None:
    """D = |S0 - S1| computed in 32 bits (0x80000000 stays); SCC = D != 0."""
    d = sext((ctx.s_read(1) - ctx.s_read(2)) & M32, 32)
    r = (-d if d < 0 else d) & M32
    ctx.write_s(0, r)
    ctx.write_scc(r != 0)


@semantic("s_abs_i32")
def s_abs_i32(ctx: Ctx, ins) -> None:
    d = sext(ctx.s_read(1), 32)
    r = (-d if d < 0 else d) & M32
    ctx.write_s(0, r)
    ctx.write_scc(r != 0)


def _make_lshl_add(n: int) -> None:
    @semantic(f"s_lshl{n}_add_u32")
    def op(ctx: Ctx, ins) -> None:
        """D = (S0 << n) + S1; SCC = carry out of the 64-bit result (shifted-out bits count)."""
        total = (ctx.s_read(1) << n) + ctx.s_read(2)
        ctx.write_s(0, total & M32)
        ctx.write_scc(total > M32)


for _k in (1, 2, 3, 4):
    _make_lshl_add(_k)


# ---------------------------------------------------------------- min / max / select


def _make_minmax(name: str, signed: bool, want_less: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """D = the chosen source; SCC = 1 when S0 was chosen (strictly smaller/larger)."""
        a, b = ctx.s_read(1), ctx.s_read(2)
        ka, kb = (sext(a, 32), sext(b, 32)) if signed else (a, b)
        pick_a = ka < kb if want_less else ka > kb
        ctx.write_s(0, a if pick_a else b)
        ctx.write_scc(pick_a)


for _n, _s, _l in (("s_min_i32", True, True), ("s_min_u32", False, True),
                   ("s_max_i32", True, False), ("s_max_u32", False, False)):
    _make_minmax(_n, _s, _l)


def _make_cselect(name: str, width: int) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        scc = ctx.scalar_value(Special("scc", ins.span))
        ctx.write_s(0, ctx.s_read(1 if scc else 2, width), width)


_make_cselect("s_cselect_b32", 1)
_make_cselect("s_cselect_b64", 2)


# ---------------------------------------------------------------- logic


_LOGIC: dict[str, Callable[[int, int], int]] = {
    "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
    "andn2": lambda a, b: a & ~b, "orn2": lambda a, b: a | ~b, "nand": lambda a, b: ~(a & b),
    "nor": lambda a, b: ~(a | b), "xnor": lambda a, b: ~(a ^ b),
}


def _make_logic(name: str, fn: Callable, width: int) -> None:
    if width == 1:  # (D, SCC) = fn(S0, S1), SCC = D != 0: a table entry (scalar_op), planned
        def lanes(a: int, b: int, scc: int) -> tuple[int, bool]:
            r = fn(a, b) & M32
            return r, r != 0
        _make_scalar(name, 2, False, lanes)
        return

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        r = fn(ctx.s_read(1, width), ctx.s_read(2, width)) & _mask(width)
        ctx.write_s(0, r, width)
        ctx.write_scc(r != 0)


for _op, _f in _LOGIC.items():
    _make_logic(f"s_{_op}_b32", _f, 1)
    _make_logic(f"s_{_op}_b64", _f, 2)


def _make_not(name: str, width: int) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        r = ~ctx.s_read(1, width) & _mask(width)
        ctx.write_s(0, r, width)
        ctx.write_scc(r != 0)


_make_not("s_not_b32", 1)
_make_not("s_not_b64", 2)


def _wqm(value: int, bits: int) -> int:
    out = 0
    for q in range(0, bits, 4):
        if (value >> q) & 0xF:
            out |= 0xF << q
    return out


def _quadmask(value: int, bits: int) -> int:
    out = 0
    for q in range(bits // 4):
        if (value >> (4 * q)) & 0xF:
            out |= 1 << q
    return out


def _make_unary_scc(name: str, width: int, fn: Callable[[int], int]) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        r = fn(ctx.s_read(1, width)) & _mask(width)
        ctx.write_s(0, r, width)
        ctx.write_scc(r != 0)


_make_unary_scc("s_wqm_b32", 1, lambda v: _wqm(v, 32))
_make_unary_scc("s_wqm_b64", 2, lambda v: _wqm(v, 64))
_make_unary_scc("s_quadmask_b32", 1, lambda v: _quadmask(v, 32))
_make_unary_scc("s_quadmask_b64", 2, lambda v: _quadmask(v, 64))


# ---------------------------------------------------------------- shifts and bit fields


def _make_shift(name: str, width: int, kind: str) -> None:
    bits = 32 * width
    if width == 1 and kind != "ashr":  # (D, SCC) = (S0 shifted by S1[4:0], D != 0): a table entry
        def shift(a: int, b: int, scc: int) -> tuple[int, bool]:
            r = ((a << (b & 31)) if kind == "lshl" else (a >> (b & 31))) & M32
            return r, r != 0
        _make_scalar(name, 2, False, shift)
        return

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """Shift by S1[4:0] (32-bit) or S1[5:0] (64-bit); SCC = result != 0."""
        a = ctx.s_read(1, width, signed=kind == "ashr")
        n = ctx.s_read(2) & (bits - 1)
        if kind == "lshl":
            r = a << n
        elif kind == "lshr":
            r = a >> n
        else:
            r = sext(a, bits) >> n
        r &= _mask(width)
        ctx.write_s(0, r, width)
        ctx.write_scc(r != 0)


for _w, _sfx in ((1, "b32"), (2, "b64")):
    _make_shift(f"s_lshl_{_sfx}", _w, "lshl")
    _make_shift(f"s_lshr_{_sfx}", _w, "lshr")
_make_shift("s_ashr_i32", 1, "ashr")
_make_shift("s_ashr_i64", 2, "ashr")


def bfe(value: int, offset: int, width: int, bits: int, signed: bool) -> int:
    """Bit-field extract as the ISA pseudo-code: shift (arithmetic when signed), mask, sign-extend."""
    if width == 0:
        return 0
    v = sext(value, bits) if signed else value
    field_ = (v >> offset) & ((1 << min(width, bits)) - 1)
    if signed and width < bits:
        field_ = sext(field_, width)
    return field_ & ((1 << bits) - 1)


def _make_bfe(name: str, width: int, signed: bool) -> None:
    bits = 32 * width

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """S1[4:0] (S1[5:0] for 64-bit) is the offset, S1[22:16] the width; SCC = result != 0."""
        s1 = ctx.s_read(2)
        r = bfe(ctx.s_read(1, width, signed=signed), s1 & (bits - 1), (s1 >> 16) & 0x7F, bits, signed)
        ctx.write_s(0, r, width)
        ctx.write_scc(r != 0)


_make_bfe("s_bfe_u32", 1, False)
_make_bfe("s_bfe_i32", 1, True)
_make_bfe("s_bfe_u64", 2, False)
_make_bfe("s_bfe_i64", 2, True)


def _make_bfm(name: str, width: int) -> None:
    bits = 32 * width

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """D = ((1 << S0[4:0]) - 1) << S1[4:0] (5:0 for 64-bit); no SCC."""
        size = ctx.s_read(1) & (bits - 1)
        shift = ctx.s_read(2) & (bits - 1)
        ctx.write_s(0, (((1 << size) - 1) << shift) & _mask(width), width)


_make_bfm("s_bfm_b32", 1)
_make_bfm("s_bfm_b64", 2)


@semantic("s_brev_b32")
def s_brev_b32(ctx: Ctx, ins) -> None:
    ctx.write_s(0, int(f"{ctx.s_read(1):032b}"[::-1], 2))


@semantic("s_brev_b64")
def s_brev_b64(ctx: Ctx, ins) -> None:
    ctx.write_s(0, int(f"{ctx.s_read(1, 2):064b}"[::-1], 2), 2)


def _make_bcnt(name: str, width: int, ones: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        v = ctx.s_read(1, width)
        n = bin(v).count("1")
        r = n if ones else 32 * width - n
        ctx.write_s(0, r)
        ctx.write_scc(r != 0)


for _w, _sfx in ((1, "b32"), (2, "b64")):
    _make_bcnt(f"s_bcnt0_i32_{_sfx}", _w, False)
    _make_bcnt(f"s_bcnt1_i32_{_sfx}", _w, True)


def _make_ff(name: str, width: int, want: int) -> None:
    bits = 32 * width

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """Index of the first `want` bit from the LSB; -1 (0xffffffff) if there is none."""
        v = ctx.s_read(1, width)
        r = next((k for k in range(bits) if (v >> k) & 1 == want), -1)
        ctx.write_s(0, r & M32)


for _w, _sfx in ((1, "b32"), (2, "b64")):
    _make_ff(f"s_ff0_i32_{_sfx}", _w, 0)
    _make_ff(f"s_ff1_i32_{_sfx}", _w, 1)


def _make_flbit(name: str, width: int, signed: bool) -> None:
    bits = 32 * width

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """Bits from the MSB to the first 1 (signed: first bit differing from the sign); -1 if none."""
        v = ctx.s_read(1, width)
        if signed and v >> (bits - 1):
            v = ~v & _mask(width)
        r = bits - v.bit_length() if v else -1
        ctx.write_s(0, r & M32)


_make_flbit("s_flbit_i32_b32", 1, False)
_make_flbit("s_flbit_i32_b64", 2, False)
_make_flbit("s_flbit_i32", 1, True)
_make_flbit("s_flbit_i32_i64", 2, True)


@semantic("s_sext_i32_i8")
def s_sext_i32_i8(ctx: Ctx, ins) -> None:
    ctx.write_s(0, sext(ctx.s_read(1), 8) & M32)


@semantic("s_sext_i32_i16")
def s_sext_i32_i16(ctx: Ctx, ins) -> None:
    ctx.write_s(0, sext(ctx.s_read(1), 16) & M32)


def _make_bitset(name: str, width: int, value: int) -> None:
    bits = 32 * width

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """D[S0[4:0]] = value (S0[5:0] for 64-bit); the other bits of D are kept."""
        n = ctx.s_read(1) & (bits - 1)
        old = ctx.s_read(0, width)
        new = (old | (1 << n)) if value else (old & ~(1 << n))
        ctx.write_s(0, new & _mask(width), width)


for _w, _sfx in ((1, "b32"), (2, "b64")):
    _make_bitset(f"s_bitset0_{_sfx}", _w, 0)
    _make_bitset(f"s_bitset1_{_sfx}", _w, 1)


@semantic("s_bitreplicate_b64_b32")
def s_bitreplicate_b64_b32(ctx: Ctx, ins) -> None:
    v = ctx.s_read(1)
    out = 0
    for k in range(32):
        if (v >> k) & 1:
            out |= 3 << (2 * k)
    ctx.write_s(0, out, 2)


@semantic("s_pack_ll_b32_b16")
def s_pack_ll_b32_b16(ctx: Ctx, ins) -> None:
    ctx.write_s(0, (ctx.s_read(1) & 0xFFFF) | ((ctx.s_read(2) & 0xFFFF) << 16))


@semantic("s_pack_lh_b32_b16")
def s_pack_lh_b32_b16(ctx: Ctx, ins) -> None:
    ctx.write_s(0, (ctx.s_read(1) & 0xFFFF) | (ctx.s_read(2) & 0xFFFF0000))


@semantic("s_pack_hh_b32_b16")
def s_pack_hh_b32_b16(ctx: Ctx, ins) -> None:
    ctx.write_s(0, (ctx.s_read(1) >> 16) | (ctx.s_read(2) & 0xFFFF0000))


# ---------------------------------------------------------------- compares (SCC)


_CMP: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b, "lg": lambda a, b: a != b, "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b, "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
}


# name -> (relation, signed) of the 32-bit s_cmp_*: SCC = rel(S0, S1), read by the issue plans
SCALAR_COMPARES: dict[str, tuple[Callable, bool]] = {}


def _make_cmp(name: str, rel: Callable, signed: bool, width: int) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        a, b = ctx.s_read(0, width), ctx.s_read(1, width)
        if signed:
            a, b = sext(a, 32 * width), sext(b, 32 * width)
        ctx.write_scc(rel(a, b))

    if width == 1:
        SCALAR_COMPARES[name] = (rel, signed)


def _make_cmpk(name: str, rel: Callable, signed: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """S0 against simm16: sign-extended for _i32, zero-extended for _u32."""
        a, k = ctx.s_read(0), _simm16(ctx, 1)
        if signed:
            a, k = sext(a, 32), sext(k, 16)
        ctx.write_scc(rel(a, k))


for _rel, _f in _CMP.items():
    _make_cmp(f"s_cmp_{_rel}_i32", _f, True, 1)
    _make_cmp(f"s_cmp_{_rel}_u32", _f, False, 1)
    _make_cmpk(f"s_cmpk_{_rel}_i32", _f, True)
    _make_cmpk(f"s_cmpk_{_rel}_u32", _f, False)
_make_cmp("s_cmp_eq_u64", _CMP["eq"], False, 2)
_make_cmp("s_cmp_lg_u64", _CMP["lg"], False, 2)


def _make_bitcmp(name: str, width: int, want: int) -> None:
    bits = 32 * width

    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """SCC = (S0[S1[4:0]] == want) (S1[5:0] for 64-bit)."""
        v = ctx.s_read(0, width)
        n = ctx.s_read(1) & (bits - 1)
        ctx.write_scc(((v >> n) & 1) == want)


for _w, _sfx in ((1, "b32"), (2, "b64")):
    _make_bitcmp(f"s_bitcmp0_{_sfx}", _w, 0)
    _make_bitcmp(f"s_bitcmp1_{_sfx}", _w, 1)


# ---------------------------------------------------------------- EXEC manipulation


_SAVEEXEC: dict[str, Callable[[int, int], int]] = {
    "and": lambda s, e: s & e, "or": lambda s, e: s | e, "xor": lambda s, e: s ^ e,
    "andn2": lambda s, e: s & ~e, "orn2": lambda s, e: s | ~e, "nand": lambda s, e: ~(s & e),
    "nor": lambda s, e: ~(s | e), "xnor": lambda s, e: ~(s ^ e),
    "andn1": lambda s, e: ~s & e, "orn1": lambda s, e: ~s | e,
}


def _read_exec(ctx: Ctx) -> int:
    ctx.reads += [("s", EXEC_SLOT), ("s", EXEC_SLOT + 1)]
    return ctx.wave.exec_bits


def _make_saveexec(name: str, fn: Callable, write_new: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """D = old EXEC (wrexec: new EXEC); EXEC = fn(S0, EXEC); SCC = new EXEC != 0."""
        s0 = ctx.s_read(1, 2)
        old = _read_exec(ctx)
        new = fn(s0, old) & M64
        ctx.write_s(0, new if write_new else old, 2)
        ctx.write_slot(EXEC_SLOT, new, 2)
        ctx.write_scc(new != 0)


for _op, _f in _SAVEEXEC.items():
    _make_saveexec(f"s_{_op}_saveexec_b64", _f, False)
_make_saveexec("s_andn1_wrexec_b64", _SAVEEXEC["andn1"], True)
_make_saveexec("s_andn2_wrexec_b64", _SAVEEXEC["andn2"], True)


# ---------------------------------------------------------------- M0-relative moves


def _sgpr_slot_of(ctx: Ctx, i: int) -> int:
    return ctx._scalar_slots(ctx.op(i))[0]


def _m0(ctx: Ctx) -> int:
    return ctx.scalar_value(Special("m0", ctx.ins.span))


def _make_movrel(name: str, width: int, relative_source: bool) -> None:
    @semantic(name)
    def op(ctx: Ctx, ins) -> None:
        """s_movrels: D = SGPR[S0 + M0]; s_movreld: SGPR[D + M0] = S0 (indices in SGPR slots)."""
        m0 = _m0(ctx)
        if relative_source:
            slot = _sgpr_slot_of(ctx, 1) + m0
            if slot + width > 102:
                raise SimError(f"{ins.mnemonic}: s{slot} (M0 = {m0}) is beyond the addressable SGPRs")
            value = 0
            for k in range(width):
                ctx.reads.append(("s", slot + k))
                value |= int(ctx.wave.sgpr[slot + k]) << (32 * k)
            ctx.write_s(0, value, width)
        else:
            slot = _sgpr_slot_of(ctx, 0) + m0
            if slot + width > 102:
                raise SimError(f"{ins.mnemonic}: s{slot} (M0 = {m0}) is beyond the addressable SGPRs")
            ctx.write_slot(slot, ctx.s_read(1, width), width)


_make_movrel("s_movrels_b32", 1, True)
_make_movrel("s_movrels_b64", 2, True)
_make_movrel("s_movreld_b32", 1, False)
_make_movrel("s_movreld_b64", 2, False)


# ---------------------------------------------------------------- program counter


def _image(ctx: Ctx):
    image = getattr(ctx, "image", None)
    if image is None:
        raise SimError(f"{ctx.ins.mnemonic}: this simulation has no code image (byte addresses of the code)")
    return image


def pc_of(ctx: Ctx, index: int) -> int:
    """Byte address of instruction `index` (the end of the code for the one after the last)."""
    return _image(ctx).address_of(index)


def index_of(ctx: Ctx, address: int) -> int:
    """The instruction starting at byte `address`; a SimError naming what is there otherwise."""
    image = _image(ctx)
    index = image.index_at(address)
    if index is None:
        raise SimError(f"{ctx.ins.mnemonic} {image.describe_jump(address, ctx.instructions)}")
    return index


@semantic("s_getpc_b64")
def s_getpc_b64(ctx: Ctx, ins) -> None:
    """D = byte address of the next instruction."""
    ctx.write_s(0, pc_of(ctx, ctx.wave.pc + 1), 2)


@semantic("s_setpc_b64")
def s_setpc_b64(ctx: Ctx, ins) -> None:
    ctx.branch_to = index_of(ctx, ctx.s_read(0, 2))


@semantic("s_swappc_b64")
def s_swappc_b64(ctx: Ctx, ins) -> None:
    """D = return address (next instruction); PC = S0."""
    target = index_of(ctx, ctx.s_read(1, 2))
    ctx.write_s(0, pc_of(ctx, ctx.wave.pc + 1), 2)
    ctx.branch_to = target


@semantic("s_call_b64")
def s_call_b64(ctx: Ctx, ins) -> None:
    """D = return address; jump to the label, or by a number of dwords: PC = next + SIMM16 * 4."""
    label = ctx.op(1)
    ret = pc_of(ctx, ctx.wave.pc + 1)
    if isinstance(label, Symbol) and label.name in ctx.labels:
        target = code_label(ctx, label.name)
    elif isinstance(label, Imm):
        target = index_of(ctx, ret + 4 * sext(label.value, 16))
    else:
        raise SimError(f"{ins.mnemonic}: unknown call target '{label.text()}'")
    ctx.write_s(0, ret, 2)
    ctx.branch_to = target


# ---------------------------------------------------------------- hardware registers (s_getreg / s_setreg)
#
# MODE is functional: its FP_DENORM, DX10_CLAMP and IEEE fields change how later
# VALU instructions of the wave compute (see `gcnemu.sim.fp.FloatMode`); TRAPSTS is
# plain storage (gcnemu raises no FP exceptions). The new value takes effect for
# instructions issued after the s_setreg (the engine times the write; the hazard
# rules for s_setreg live in the hazard tables). Other hardware registers are not
# modelled and stop the run.

HWREG_IDS = {name: id_ for name, (id_, where) in hwregs.HWREGS.items() if where}  # (the ISA table, gcnemu.isa.hwregs)
MODELLED_HWREGS = {1: "HW_REG_MODE", 3: "HW_REG_TRAPSTS"}


def _hwreg_field(ctx: Ctx, operand) -> tuple[int, int, int]:
    """(register id, bit offset, bit size) from `hwreg(id[, offset, size])` or a raw simm16."""
    from ...asm.program import Call
    if isinstance(operand, Call) and operand.name == "hwreg":
        args = list(operand.args)
        first = args[0]
        if isinstance(first, Symbol) and first.name in HWREG_IDS:
            reg = HWREG_IDS[first.name]
        else:
            reg = ctx.const(first)
        offset = ctx.const(args[1]) if len(args) > 1 else 0
        size = ctx.const(args[2]) if len(args) > 2 else 32
        return reg, offset, size
    raw = ctx.const(operand) & 0xFFFF
    return raw & 0x3F, (raw >> 6) & 0x1F, ((raw >> 11) & 0x1F) + 1


def _checked_hwreg(ctx: Ctx, operand) -> tuple[int, int, int]:
    reg, offset, size = _hwreg_field(ctx, operand)
    if reg not in MODELLED_HWREGS:
        name = next((n for n, v in HWREG_IDS.items() if v == reg), str(reg))
        raise SimError(f"{ctx.ins.mnemonic}: hardware register {name} is not modelled "
                       f"(gcnemu models {', '.join(MODELLED_HWREGS.values())})")
    return reg, offset, size


@semantic("s_getreg_b32")
def s_getreg_b32(ctx: Ctx, ins) -> None:
    reg, offset, size = _checked_hwreg(ctx, ctx.op(1))
    value = ctx.hwreg(reg)
    ctx.write_s(0, (value >> offset) & ((1 << size) - 1))


def _setreg(ctx: Ctx, field_operand, value: int) -> None:
    reg, offset, size = _checked_hwreg(ctx, field_operand)
    mask = ((1 << size) - 1) << offset
    new = (ctx.hwreg(reg) & ~mask) | ((value << offset) & mask)
    ctx.set_hwreg(reg, new & M32)


@semantic("s_setreg_b32")
def s_setreg_b32(ctx: Ctx, ins) -> None:
    _setreg(ctx, ctx.op(0), ctx.s_read(1))


@semantic("s_setreg_imm32_b32")
def s_setreg_imm32_b32(ctx: Ctx, ins) -> None:
    _setreg(ctx, ctx.op(0), ctx.const(ctx.op(1)) & M32)
