"""Encoded size of an instruction in bytes, as llvm-mc 22 encodes it for gfx9 (CDNA1-4).

Why: code addresses are real byte addresses (see `gcnemu.asm.image`), so that `s_getpc_b64`
plus `sym@rel32@lo+4` arithmetic lands where it does on hardware. An instruction is one or
two dwords, plus one dword when it carries a 32-bit literal:

- SOPP, SOPK, VINTRP and the 32-bit VOP1/VOP2/VOPC forms are 4 bytes; SOP1/SOP2/SOPC and the
  32-bit VOP forms add 4 for a literal (a constant that is no inline constant for the operand's
  type, a symbol whose value the assembler does not know, a label, a relocation, `lit(...)`);
  `s_setreg_imm32_b32` and the madak/madmk/fmaak/fmamk forms always carry one.
- SMEM, DS, MUBUF, MTBUF, FLAT/GLOBAL/SCRATCH, MIMG, EXP, VOP3, VOP3P, MFMA, SDWA and DPP are
  8 bytes (gfx9 VOP3 has no literal); gfx950's scaled MFMA (VOP3PX2) is 16.
- A bare VOP1/VOP2/VOPC mnemonic takes the 32-bit form when its operands fit it, as llvm-mc's
  matcher tries that form first: no modifiers, no neg/abs, src1 a VGPR, every carry or compare
  mask `vcc`. SDWA or DPP controls select those forms; anything else the 64-bit VOP3 form.

tests/test_code_image.py checks these sizes against `llvm-mc -show-encoding` on thousands of
generated lines and on compiler output, for all four targets.
"""
from __future__ import annotations

import re
from typing import Callable

from ..isa import mnemonics, opcodes
from .program import Call, Expr, FloatImm, Imm, Instruction, Modified, Reg, Special, Symbol

# families whose size never depends on the operands
FIXED_SIZE: dict[str, int] = {
    "SOPP": 4, "VINTRP": 4, "SMEM": 8, "DS": 8, "MUBUF": 8, "MTBUF": 8, "FLAT": 8, "GLOBAL": 8, "SCRATCH": 8,
    "MIMG": 8, "EXP": 8, "VOP3": 8, "VOP3P": 8, "VOP3P-MAI": 8, "MAI": 8, "VOP3PX2-MAI": 16, "SDWA": 8, "DPP": 8,
}
_SCALAR_WITH_LITERAL = ("SOP1", "SOP2", "SOPC")
_VOP32 = ("VOP1", "VOP2", "VOPC")
# the VOP2 forms with a mandatory 32-bit constant K
_MANDATORY_LITERAL = re.compile(r"^v_(mad|fma)(mk|ak)_")
_SDWA_MODS = frozenset("dst_sel dst_unused src0_sel src1_sel".split())
_DPP_MODS = frozenset("quad_perm row_shl row_shr row_ror wave_shl wave_rol wave_shr wave_ror row_mirror "
                      "row_half_mirror row_bcast row_newbcast row_share row_xmask row_mask bank_mask bound_ctrl "
                      "fi".split())
_TYPE_SUFFIX = re.compile(r"_([fiub]|bf)(16|32|64)")

# (value, is_float) of a constant operand; None when the assembler cannot know it (a relocation)
ValueOf = Callable[[object], "tuple[int | float, bool] | None"]


def _no_symbols(op) -> tuple[int | float, bool] | None:
    return None


def instruction_size(ins: Instruction, target: str, value_of: ValueOf | None = None) -> int:
    """Bytes llvm-mc encodes `ins` in on `target`. `value_of` gives the value of a symbol or
    expression operand (None: not a constant, so a literal); without it every symbol is one."""
    value_of = value_of or _no_symbols
    base, sfx = opcodes.base_mnemonic(ins.mnemonic)
    family = mnemonics.encoding(ins.mnemonic, target)
    info = opcodes.lookup(ins.mnemonic, target)
    if family is None:
        family = info.encoding if info is not None else "SOPP"  # refused by validation anyway
    if family in FIXED_SIZE:
        return FIXED_SIZE[family]
    if family == "SOPK":
        return 8 if base == "s_setreg_imm32_b32" else 4
    if family in _SCALAR_WITH_LITERAL:
        specs = info.operands if info is not None else ()
        literal = False
        for k, op in enumerate(ins.operands):
            spec = specs[k] if k < len(specs) else None
            is_dst = spec.write if spec is not None else (k == 0 and family != "SOPC")
            if not is_dst:
                literal |= _is_literal(op, spec.type if spec is not None and spec.type else _type_of(base), value_of)
        return 8 if literal else 4
    if family in _VOP32:
        return _vop_size(ins, base, sfx, family, info, target, value_of)
    return 4


def _type_of(base: str) -> str:
    """An operand type from the mnemonic (`s_cmp_eq_u64` -> u64) when the table has no row."""
    m = _TYPE_SUFFIX.findall(base)
    return "".join(m[-1]) if m else "b32"


def _vop_size(ins: Instruction, base: str, sfx: str, family: str, info, target: str, value_of: ValueOf) -> int:
    """4 or 8 (+4 for a literal) for a VOP1/VOP2/VOPC spelling that is bare or `_e32`."""
    if _MANDATORY_LITERAL.match(base):
        return 8
    ops = ins.operands
    if sfx != "_e32":
        if ins.modifiers:
            return 8  # SDWA, DPP or VOP3 modifiers: a 64-bit form in every case
        if any(isinstance(o, Modified) for o in ops):
            return 8
        if any(isinstance(o, Symbol) and o.name in _DPP_MODS for o in ops):
            return 8
        row = mnemonics.info(ins.mnemonic, target)
        if row is not None and "e32" not in row.suffixes:
            return 8
    specs = list(info.operands) if info is not None else []
    if specs:
        if len(ops) == len(specs) - 1:  # `v_cmp_eq_u32 v0, v1`: the one vcc may be left out
            masks = [i for i, sp in enumerate(specs) if sp.kinds == "s" and sp.width == 2]
            if len(masks) == 1:
                specs.pop(masks[0])
        if len(ops) != len(specs):
            return 8
    else:  # no table row: destination first, then the sources
        specs = [None] * len(ops)
    literal = False
    n_src = 0
    for k, (op, spec) in enumerate(zip(ops, specs)):
        if spec is not None and spec.kinds == "s" and spec.width == 2:  # carry or compare mask
            if sfx != "_e32" and not (isinstance(op, Special) and op.name == "vcc"):
                return 8
            continue
        if (spec.write if spec is not None else k == 0):
            continue
        if n_src == 1 and family != "VOP1" and sfx != "_e32" and not (isinstance(op, Reg) and op.file == "v"):
            return 8  # src1 of the 32-bit forms is a VGPR
        if n_src == 0:
            typ = spec.type if spec is not None and spec.type else _type_of(base)
            literal = _is_literal(op, typ, value_of)
        n_src += 1
    return 8 if literal else 4


def _is_literal(op, typ: str, value_of: ValueOf) -> bool:
    """Does this source take the literal dword? (validate.classify_constant: llvm-mc's inline rules)"""
    from .constants import INLINE, classify_constant
    if isinstance(op, Special):
        return op.name == "off"  # llvm-mc reads `off` in a source as a symbol: a relocated literal
    if isinstance(op, Reg):
        return False
    if isinstance(op, Modified):
        if isinstance(op.inner, (Reg, Special)):
            return False
        op = op.inner  # a negated constant is folded by the parser; anything else is an expression
    if isinstance(op, (Imm, FloatImm)):
        if op.source.startswith("lit"):
            return True
        value = (op.value, isinstance(op, FloatImm))
    elif isinstance(op, (Symbol, Expr)):
        value = value_of(op)
        if value is None:
            return True  # a label, a relocation or a symbol defined later: a 32-bit fixup
    elif isinstance(op, Call):
        return op.name == "lit"
    else:
        return False
    try:
        return classify_constant(value[0], value[1], typ or "b32") != INLINE
    except (TypeError, ValueError, OverflowError):
        return True
