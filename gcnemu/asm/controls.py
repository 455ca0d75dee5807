"""DPP, SDWA and ds_swizzle controls checked as llvm-mc checks them: same message, same column.

The parser keeps a control's value (`row_shr:16` -> 16, `quad_perm:[0,1,2,4]` -> (0, 1, 2, 4),
`offset:swizzle(SWAP,64)` -> its text), so this module reads the source line again for the
columns llvm-mc points at: the value of a row/wave control, the element of a quad_perm, the
argument of a swizzle macro. Which values exist is `gcnemu.isa.dpp`'s table.
"""
from __future__ import annotations

import re

from ..isa import dpp
from .program import Instruction, Symbol

_INT = re.compile(r"-?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)")


def _int(text: str) -> int | None:
    try:
        return int(text, 0)
    except ValueError:
        return None


def _value_column(line: str, start: int, name: str) -> int:
    """1-based column of the value in `name:value` written at 1-based column `start`."""
    i = start - 1 + len(name)
    while i < len(line) and line[i] in " \t":
        i += 1
    if i < len(line) and line[i] == ":":
        i += 1
    while i < len(line) and line[i] in " \t":
        i += 1
    return i + 1


def _skip(line: str, i: int) -> int:
    while i < len(line) and line[i] in " \t":
        i += 1
    return i


def check(ins: Instruction, target: str, line: str | None) -> tuple[str, int] | None:
    """(llvm-mc's message, 1-based column) of the first invalid control of `ins`, else None.
    `line` is the instruction's source line (None: columns are estimated from the spans)."""
    mods = ins.modifiers
    if not mods and not ins.mnemonic.endswith("_dpp"):
        return None
    if line is None:
        line = ""
    dpp_form = ins.mnemonic.endswith("_dpp") or any(m.name in dpp.DPP_CONTROLS or m.name in dpp.DPP_MASKS
                                                     for m in mods)
    if dpp_form and ins.mnemonic.lower().removesuffix("_e64").removesuffix("_e32") in dpp.OWN_BOUND_CTRL_FI:
        # bound_ctrl/fi are this opcode's own VOP3 operands (validate's row-less rules check them)
        bound = next((m for m in mods if m.name == "bound_ctrl"), None)
        if bound is not None and bound.value not in (0, 1):
            return "invalid bound_ctrl value.", bound.span.column
        dpp_form = any(m.name in dpp.DPP_CONTROLS for m in mods)
    if dpp_form:
        found = _check_dpp(ins, target, line)
        if found:
            return found
    for m in mods:
        allowed = dpp.SDWA_FIELDS.get(m.name)
        if allowed is not None and str(m.value) not in allowed:
            return f"invalid {m.name} value", _value_column(line, m.span.column, m.name) if line else m.span.column
    if ins.mnemonic.startswith("ds_swizzle"):
        for m in mods:
            if m.name == "offset":
                return _check_swizzle(m, line)
    return None


def _check_dpp(ins: Instruction, target: str, line: str) -> tuple[str, int] | None:
    controls = 0
    for m in ins.modifiers:
        name = m.name
        if name in dpp.DPP_TARGETS and not dpp.dpp_available(name, target):
            return "not a valid operand.", m.span.column
        if name in dpp.DPP_BARE and m.value is not None and m.value is not True:  # `row_mirror:1`: no value
            return "unknown token in expression", m.span.column + len(name)
        if name in dpp.DPP_CONTROLS:
            controls += 1
            if controls > 1:  # one control per instruction: the second is not an operand llvm-mc expects
                return "not a valid operand.", m.span.column
            vcol = _value_column(line, m.span.column, name) if line else m.span.column + len(name) + 1
            if name == "quad_perm":
                found = _check_quad_perm(m, line, vcol)
                if found:
                    return found
            elif name in dpp.DPP_VALUES and not dpp.dpp_value_ok(name, m.value):
                return f"invalid {name} value", vcol
        elif name == "bound_ctrl" and m.value not in (0, 1):
            return "invalid bound_ctrl value.", m.span.column
        elif name in ("row_mask", "bank_mask", "bound_ctrl") and controls == 0 and not bare_control(ins):
            return "not a valid operand.", m.span.column  # a mask before (or without) any control
    if controls == 0 and ins.mnemonic.endswith("_dpp") and not bare_control(ins):
        return "too few operands for instruction", ins.mnemonic_span.column
    return None


def bare_control(ins: Instruction) -> bool:
    """row_mirror / row_half_mirror written without a value reach the instruction as operands."""
    return any(isinstance(o, Symbol) and o.name in dpp.DPP_BARE for o in ins.operands)


def _check_quad_perm(m, line: str, vcol: int) -> tuple[str, int] | None:
    values = m.value if isinstance(m.value, tuple) else ()
    if not line:
        return None if dpp.quad_perm_ok(values) else ("expected a 2-bit value", vcol)
    i = vcol - 1
    if i >= len(line) or line[i] != "[":
        return "expected a left square bracket", vcol
    i += 1
    for k in range(4):
        if k:
            i = _skip(line, i)
            if i >= len(line) or line[i] != ",":
                return "expected a comma", i + 1
            i += 1
        i = _skip(line, i)
        mt = _INT.match(line, i)
        v = _int(mt.group()) if mt else None
        if v is None or not 0 <= v <= 3:
            return "expected a 2-bit value", i + 1
        i = mt.end()
    i = _skip(line, i)
    if i >= len(line) or line[i] != "]":
        return "expected a closing square bracket", i + 1
    return None


def _check_swizzle(m, line: str) -> tuple[str, int] | None:
    value = m.value
    vcol = _value_column(line, m.span.column, "offset") if line else m.span.column + 7
    if isinstance(value, int) and not isinstance(value, bool):
        return None if 0 <= value <= dpp.SWIZZLE_OFFSET_MAX else ("expected a 16-bit offset", vcol)
    if not line:
        return None
    i = vcol - 1
    if not line[i:i + 7].lower() == "swizzle":
        return None  # an expression: llvm-mc evaluates it; the parser has already reported a bad one
    i = _skip(line, i + 7)
    if i >= len(line) or line[i] != "(":
        return "expected a left parenthesis", i + 1
    i = _skip(line, i + 1)
    mt = re.compile(r"[A-Za-z_]\w*").match(line, i)
    mode = mt.group() if mt else ""
    if mode not in dpp.SWIZZLE_MODES:
        return "expected a swizzle mode", i + 1
    i = mt.end()
    args, cols = [], []
    for k in range(dpp.SWIZZLE_MODES[mode]):
        i = _skip(line, i)
        if i >= len(line) or line[i] != ",":
            return "expected a comma", i + 1
        i = _skip(line, i + 1)
        cols.append(i + 1)
        if mode == "BITMASK_PERM":
            if i >= len(line) or line[i] != '"':
                return "expected a string", i + 1
            end = line.find('"', i + 1)
            if end < 0:
                return "expected a string", i + 1
            args.append(line[i + 1:end])
            i = end + 1
        else:
            mt = _INT.match(line, i)
            if mt is None:
                return "expected absolute expression", i + 1
            args.append(_int(mt.group()))
            i = mt.end()
    i = _skip(line, i)
    if i >= len(line) or line[i] != ")":
        return "expected a closing parentheses", i + 1
    bad = dpp.swizzle_errors(mode, args)
    if bad is not None:
        k, message = bad
        return message, cols[k]
    return None
