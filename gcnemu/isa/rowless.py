"""Operand rules for VALU mnemonics that have no row in the instruction table (`opcodes`).

gcnemu checks these mnemonics' names per target but not their operands, so without this table
`check` accepted what llvm-mc refuses. Each entry says which optional modifiers the plain (VOP2/
VOP3 or VOP1) form takes, and which source operands refuse a neg/abs/sext input modifier.

Source: LLVM 22's asm strings for these opcodes (llvm/lib/Target/AMDGPU/VOP2Instructions.td,
VOP3Instructions.td, VOP1Instructions.td), as llvm-mc 22 applies them; the cases are pinned by
LLVM's own MC tests (gfx908_err.s, gfx90a_err.s, gfx940_err.s) in tests/test_llvm_mc_lines.py.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RowlessRule:
    modifiers: tuple[str, ...] | frozenset[str]  # the optional modifiers of the non-SDWA, non-DPP form (a tuple:
    # in the order llvm-mc reads them)
    plain_sources: tuple[int, ...] = ()  # operand positions (0 = vdst) where -x, |x| are "not a valid operand."
    no_sext: bool = False  # SDWA forms take no sext(): the sources are not integers
    operands: int = 0  # how many operands the plain form has (0: not checked here)
    vgprs_only: bool = False  # every operand is a VGPR (no SGPR, constant or AGPR)
    sdwa: bool = True  # False: no SDWA or DPP form, so dst_sel:..., row_mask:... are just unknown operands
    e32_modifiers: bool = False  # whether the _e32 spelling takes the modifiers too


# The "c" dot products (VOP2, gfx908+): the accumulator is vdst itself; the VOP3 form clamps, nothing else.
_DOTC = RowlessRule(frozenset({"clamp"}), operands=3)
_DOTC_FLOAT = RowlessRule(frozenset({"clamp", "omod"}), operands=3)  # a float result also takes mul:/div:
# fp8/bf8 packing with a stochastic-rounding seed (VOP3, gfx940+): op_sel picks the byte; no clamp or
# output modifier, and the seed (src1) of the _sr_ forms is an integer: no neg/abs on it.
_FP8_SR = RowlessRule(frozenset({"op_sel"}), plain_sources=(2,))
_FP8_PK = RowlessRule(frozenset({"op_sel"}))
# fp8/bf8 unpacking (VOP1, gfx940+): its SDWA form selects a byte, but the byte is no integer to sign-extend.
_FP8_CVT = RowlessRule(frozenset({"clamp", "omod"}), no_sext=True)

# The gfx950 lane swaps (VOP1 with a VOP3 form): bound_ctrl and fi are the VOP3 form's own operands,
# in that order, not DPP controls (LLVM: VOP3_PERMLANE_SWAP's asm "$vdst, $src0$bound_ctrl$fi"; llvm-mc
# reads any bound_ctrl value of 0 or 1, and any fi value).
_PERMLANE_SWAP = RowlessRule(("bound_ctrl", "fi"), operands=2, vgprs_only=True, sdwa=False)

RULES: dict[str, RowlessRule] = {
    "v_permlane16_swap_b32": _PERMLANE_SWAP,
    "v_permlane32_swap_b32": _PERMLANE_SWAP,
    "v_dot4c_i32_i8": _DOTC,
    "v_dot8c_i32_i4": _DOTC,
    "v_dot2c_f32_f16": _DOTC_FLOAT,
    "v_dot2c_i32_i16": _DOTC,
    "v_dot2c_f32_bf16": _DOTC_FLOAT,
    "v_cvt_sr_fp8_f32": _FP8_SR,
    "v_cvt_sr_bf8_f32": _FP8_SR,
    "v_cvt_pk_fp8_f32": _FP8_PK,
    "v_cvt_pk_bf8_f32": _FP8_PK,
    "v_cvt_f32_fp8": _FP8_CVT,
    "v_cvt_f32_bf8": _FP8_CVT,
    "v_cvt_pk_f32_fp8": _FP8_CVT,
    "v_cvt_pk_f32_bf8": _FP8_CVT,
}

# gfx950's scaled conversions (v_cvt_scalef32_*, VOP3): no clamp and no output modifier; op_sel picks
# halves or bytes, except on the 32-element forms (pk32, 2xpk16), which take none (llvm-mc 22 on every
# v_cvt_scalef32_* mnemonic; LLVM's MC test gfx950_err.s).
_SCALEF32 = RowlessRule(frozenset({"op_sel"}))
_SCALEF32_WIDE = RowlessRule(frozenset())


def rule(base: str) -> RowlessRule | None:
    """The rule for a row-less mnemonic (no encoding suffix), or None."""
    found = RULES.get(base)
    if found is None and base.startswith("v_cvt_scalef32_"):
        found = _SCALEF32_WIDE if ("pk32" in base or "2xpk16" in base) else _SCALEF32
    return found


# Global wave sync (DS, with `gds` required): the first three take one data register (the resource
# count or barrier size); its register class is VGPR or (gfx90a+) AGPR, on gfx90a+ an even one (LLVM
# 22: AMDGPUAsmParser::validateGWS, "vgpr must be even aligned"; gfx908 loads no AGPR:
# "invalid register class: agpr loads and stores not supported on this GPU").
GWS_WITH_DATA = frozenset({"ds_gws_init", "ds_gws_sema_br", "ds_gws_barrier"})
GWS_NO_DATA = frozenset({"ds_gws_sema_v", "ds_gws_sema_p", "ds_gws_sema_release_all"})

# LDS/GDS append counters: one VGPR result, offset and (gfx908 only) gds (llvm-mc 22; gfx9_asm_ds.s)
DS_COUNTERS = frozenset({"ds_append", "ds_consume"})

# VOP1/VOP2 opcodes with no SDWA encoding at all, so an SDWA operand (dst_sel:...) after a plain
# mnemonic is "not a valid operand." at that operand (LLVM: v_mov_b64 is a 64-bit move, gfx940+;
# gfx9 has no SDWA v_mac_f32/v_mac_f16, vop_sdwa.s in LLVM's MC tests).
NO_SDWA = frozenset({"v_mov_b64", "v_mac_f32", "v_mac_f16"})  # (v_mac_*: gfx9 dropped their SDWA form)


# Parameter interpolation (VINTRP and its VOP3 form: of the CDNA targets only gfx908 has these).
# Operands: vdst, a VGPR source (v_interp_mov_f32: an interpolation slot p10/p20/p0), the attribute
# attrN.c (N in 0..32, channel x/y/z/w), and for the two-source f16 forms a second VGPR source.
# Source: LLVM 22 VINTRPInstructions.td and VOP3Instructions.td (VOP3_INTERP, VOP3_INTERP_MOV,
# VOP3_INTERP16: `high` only on the f16 forms; mul:/div: only where the result is f32 — HasOMod is
# off for an f16 result), and AMDGPUAsmParser::parseInterpSlot/parseInterpAttr for the messages;
# pinned by LLVM's vop3-errs.s lines in tests/corpus/llvm_mc/.
@dataclass(frozen=True)
class InterpRule:
    operands: int  # vdst, src, attr (, src2)
    slot: bool = False  # the source is an interpolation slot, not a VGPR
    high: bool = False  # takes `high` (reads the high half of the attribute)
    omod: bool = True  # takes mul:/div:


INTERP_SLOTS = frozenset({"p10", "p20", "p0"})
INTERP_ATTRIBUTES = 33  # attr0 .. attr32
INTERP_CHANNELS = ("x", "y", "z", "w")

INTERP: dict[str, InterpRule] = {
    "v_interp_p1_f32": InterpRule(3),
    "v_interp_p2_f32": InterpRule(3),
    "v_interp_mov_f32": InterpRule(3, slot=True),
    "v_interp_p1ll_f16": InterpRule(3, high=True),
    "v_interp_p1lv_f16": InterpRule(4, high=True),
    "v_interp_p2_f16": InterpRule(4, high=True, omod=False),
    "v_interp_p2_legacy_f16": InterpRule(4, high=True, omod=False),
}


# Export (EXP: of the CDNA targets only gfx908 has it): `exp <target> src0, src1, src2, src3 [done]
# [compr] [vm]`, each source one VGPR or `off`. The targets and their numbering: LLVM 22
# AMDGPUAsmUtils.cpp (ExpTgtInfo: mrt0..7, mrtz, null, pos0..3, param0..31; pos4, prim and
# dual_src_blend0/1 are later GPUs'), read by AMDGPUAsmParser::parseExpTgt (no leading zeros, lower
# case); pinned by LLVM's exp-err.s lines in tests/corpus/llvm_mc/.
EXP_NUMBERED = {"mrt": 8, "pos": 4, "param": 32}  # name prefix -> how many
EXP_SINGLE = frozenset({"mrtz", "null"})
EXP_LATER_GPUS = frozenset({"pos4", "prim", "dual_src_blend0", "dual_src_blend1"})
EXP_MODIFIERS = ("done", "compr", "vm")  # in the order llvm-mc reads them


def exp_target_problem(name: str) -> str | None:
    """None when `name` is an export target of gfx908, else llvm-mc's message for it."""
    if name in EXP_SINGLE:
        return None
    if name in EXP_LATER_GPUS:
        return "exp target is not supported on this GPU"
    for prefix, count in EXP_NUMBERED.items():
        digits = name[len(prefix):]
        if name.startswith(prefix) and digits.isdigit() and digits == str(int(digits)) and int(digits) < count:
            return None
    return "invalid exp target"
