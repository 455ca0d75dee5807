"""The statement memo's recipes: a parsed instruction without its line, rebuilt on another line.

Used by the scanner for every instruction line whose text it has seen before in the same
file (generated kernels repeat lines a lot: a 47k-line Tensile kernel has 7.4k distinct
lines), and by the piece path, which builds recipes directly. A parsed statement depends on
its line number only through its spans, so the memo keeps, per statement text, a *recipe*
(what to build, with columns but no line) and builds it again with the new line. Statements
with operands recipes do not describe (expressions, lists) are kept as an Instruction and
relocated object by object (`_relocate_instruction`).
"""
from __future__ import annotations

from dataclasses import replace

from .slots import (
    line_span, make_float, make_imm, make_modifier, make_reg, make_special, make_symbol, new_call, new_call_group,
    new_imm, new_modified, new_modifier, new_reg, new_span,
)
from .program import Call, CallGroup, FloatImm, Imm, Instruction, Modified, Modifier, Reg, Special, Span, Symbol


def _relocate(obj, line: int):
    """The same parsed object on another line (statements repeat a lot in real kernels)."""
    if isinstance(obj, tuple):
        return tuple([_relocate(o, line) for o in obj])
    t = type(obj)
    if t is Reg or t is Imm or t is Special or t is Symbol or t is Modifier or t is FloatImm:
        sp = obj.span
        nsp = new_span(sp.file, line, sp.column, line, sp.end_column)
        if t is Reg:
            return new_reg(obj.file, obj.index, obj.count, nsp)
        if t is Imm:
            return new_imm(obj.value, nsp, obj.source)
        if t is Modifier:
            return new_modifier(obj.name, obj.value, nsp)
        if t is FloatImm:
            return FloatImm(obj.value, nsp, obj.source)
        return t(obj.name, nsp)
    span = getattr(obj, "span", None)
    if span is None:
        return obj
    changes = {"span": Span(span.file, line, span.column, line, span.end_column)}
    for name in ("inner", "args", "calls", "items"):
        if hasattr(obj, name):
            changes[name] = _relocate(getattr(obj, name), line)
    return replace(obj, **changes)


def _relocate_instruction(ins: Instruction, line: int, index: int) -> Instruction:
    """A copy of `ins` (parsed on one line) on another line, for statements that have no recipe."""
    sp, ms = ins.span, ins.mnemonic_span
    return Instruction(ins.mnemonic, _relocate(ins.operands, line), _relocate(ins.modifiers, line),
                       new_span(sp.file, line, sp.column, line, sp.end_column),
                       new_span(ms.file, line, ms.column, line, ms.end_column), index)


# A parsed statement depends on its line number only through its spans, so what the scanner
# caches is a *recipe*: the objects to build, with their columns, but no line. A recipe is
#   (mnemonic, mnemonic column, mnemonic end, statement column, statement end, operand parts,
#    modifier parts)
# where a part is (entries, base): entries whose columns are relative to `base` (so cached
# entries are shared, never shifted). Every entry, operand or modifier, is
#   (maker, a, b, c, column, end)
# and `maker(a, b, c, file, line, column, end)` builds the object and its span in one call
# (one call per object and no dispatch on its kind: building is most of what is left of a
# line's cost). What a, b and c are depends on the maker: see `slots` and below. Calls, call groups and
# modified operands hold entries of their parts, with columns relative to their own column.

def _make_call(a, b, c, file, line, col, end):
    """a=name, b=argument entries."""
    args = tuple([mk(x, y, z, file, line, col + dc, col + de) for mk, x, y, z, dc, de in b])
    return new_call(a, args, line_span(file, line, col, end))


def _make_group(a, b, c, file, line, col, end):
    """a=call entries."""
    calls = tuple([mk(x, y, z, file, line, col + dc, col + de) for mk, x, y, z, dc, de in a])
    return new_call_group(calls, line_span(file, line, col, end))


def _make_modified(a, b, c, file, line, col, end):
    """a=the inner entry, b=(neg, abs, sext)."""
    mk, x, y, z, dc, de = a
    return new_modified(mk(x, y, z, file, line, col + dc, col + de), b[0], b[1], b[2], line_span(file, line, col, end))


def _relative(e, col: int):
    """An entry with its columns taken relative to `col` (to go inside a call, group or modifier)."""
    return (e[0], e[1], e[2], e[3], e[4] - col, e[5] - col)


def _entry_of(obj):
    """The recipe entry of an operand object, or None for what recipes do not describe
    (expressions, lists: those statements are relocated object by object)."""
    t = type(obj)
    sp = obj.span
    col, end = sp.column, sp.end_column
    if t is Reg:
        return (make_reg, obj.file, obj.index, obj.count, col, end)
    if t is Imm:
        return (make_imm, obj.value, obj.source, None, col, end)
    if t is FloatImm:
        return (make_float, obj.value, obj.source, None, col, end)
    if t is Special:
        return (make_special, obj.name, None, None, col, end)
    if t is Symbol:
        return (make_symbol, obj.name, None, None, col, end)
    if t is Call or t is CallGroup or t is Modified:
        parts = obj.args if t is Call else obj.calls if t is CallGroup else (obj.inner,)
        inner = [_entry_of(p) for p in parts]
        if None in inner:
            return None
        inner = tuple(_relative(e, col) for e in inner)
        if t is Call:
            return (_make_call, obj.name, inner, None, col, end)
        if t is CallGroup:
            return (_make_group, inner, None, None, col, end)
        return (_make_modified, inner[0], (obj.neg, obj.abs, obj.sext), None, col, end)
    return None


def _recipe_of(ins: Instruction, start_col: int, end_col: int):
    """The recipe of an instruction built on one line (by the grammar or `_fast_instruction`),
    or None when some operand has no entry kind."""
    ops = tuple(_entry_of(o) for o in ins.operands)
    if None in ops or any(type(m) is not Modifier for m in ins.modifiers):
        return None
    mods = tuple((make_modifier, m.name, m.value, None, m.span.column, m.span.end_column) for m in ins.modifiers)
    ms = ins.mnemonic_span
    return (ins.mnemonic, ms.column, ms.end_column, start_col, end_col, ((ops, 0),), ((mods, 0),) if mods else ())


def _build(recipe, file: str, line: int, index: int) -> Instruction:
    """The Instruction a recipe describes, on `line`."""
    mnemonic, mcol, mend, scol, ecol, op_parts, mod_parts = recipe
    operands = tuple([mk(a, b, c, file, line, col + base, end + base)
                      for entries, base in op_parts for mk, a, b, c, col, end in entries])
    modifiers = tuple([mk(a, b, c, file, line, col + base, end + base)
                       for entries, base in mod_parts for mk, a, b, c, col, end in entries]) if mod_parts else ()
    return Instruction(mnemonic, operands, modifiers, line_span(file, line, scol, ecol),
                       line_span(file, line, mcol, mend), index)
