"""Makers of the program model's frozen objects (Span, Reg, Imm...) that set their slots directly.

Used by the statement memo (`recipes`) and the regex fast path (`fastpath`), which between them
build nearly every object of a typical file. Why: a frozen dataclass's __init__ sets each field
through object.__setattr__; setting the slots through their descriptors (`__set__`) makes the
very same objects (genuine, frozen, equal and hashing alike) at about half the cost.

This is the one speed device the parser keeps (the exec-generated recipe builders and the
`__class__` swaps that were beside it are gone). Measured in one run alternating main (9edd134)
with this code and with plain constructors in its place (`Reg(...)`, `Span(...)`): in-process
parse + validate as benchmarks/bench_check_real.py times it, on tests/corpus plus llc-22's
65k-line ocml library output, median over rounds of the best of 4 runs: plain constructors
took 1.16x-1.22x main's time, over the 15% issue 24 allows; with these makers 1.07x-1.11x.
Alone these makers are worth about 10% of `check` on those files.
"""
from __future__ import annotations

import dataclasses

from .program import Call, CallGroup, FloatImm, Imm, Modified, Modifier, Reg, Span, Special, Symbol


def slot_constructor(cls):
    """A function taking `cls`'s fields in order and returning the object `cls(...)` returns,
    made by setting its slots (see the module docstring). Every field is required."""
    setters = [cls.__dict__[f.name].__set__ for f in dataclasses.fields(cls)]
    new = object.__new__
    if len(setters) == 2:
        a, b = setters

        def make2(v1, v2):
            o = new(cls)
            a(o, v1), b(o, v2)
            return o
        return make2
    if len(setters) == 3:
        a, b, c = setters

        def make3(v1, v2, v3):
            o = new(cls)
            a(o, v1), b(o, v2), c(o, v3)
            return o
        return make3
    if len(setters) == 4:
        a, b, c, d = setters

        def make4(v1, v2, v3, v4):
            o = new(cls)
            a(o, v1), b(o, v2), c(o, v3), d(o, v4)
            return o
        return make4
    a, b, c, d, e = setters

    def make5(v1, v2, v3, v4, v5):
        o = new(cls)
        a(o, v1), b(o, v2), c(o, v3), d(o, v4), e(o, v5)
        return o
    return make5


new_span = slot_constructor(Span)
new_reg = slot_constructor(Reg)
new_imm = slot_constructor(Imm)
new_symbol = slot_constructor(Symbol)
new_special = slot_constructor(Special)
new_modifier = slot_constructor(Modifier)
new_call = slot_constructor(Call)
new_call_group = slot_constructor(CallGroup)
new_modified = slot_constructor(Modified)


def line_span(file: str, line: int, col: int, end: int) -> Span:
    """The span of columns [col, end) on one line."""
    return new_span(file, line, col, line, end)


def slot_maker(cls):
    """The recipe entry maker of a program class (see `recipes`): `maker(a, b, c, file, line, col,
    end)` returns the object whose fields but `span` are a, b, c in order, with the span of
    columns [col, end) on `line`; made by setting slots (see the module docstring)."""
    names = [f.name for f in dataclasses.fields(cls)]
    setters = [cls.__dict__[n].__set__ for n in names]
    new = object.__new__
    f1, f2, f3, f4, f5 = (Span.__dict__[n].__set__ for n in ("file", "line", "column", "end_line", "end_column"))
    span_at = names.index("span")
    set_span = setters.pop(span_at)
    if len(setters) == 3:
        s1, s2, s3 = setters

        def make3(a, b, c, file, line, col, end):
            sp = new(Span)
            f1(sp, file), f2(sp, line), f3(sp, col), f4(sp, line), f5(sp, end)
            o = new(cls)
            s1(o, a), s2(o, b), s3(o, c), set_span(o, sp)
            return o
        return make3
    if len(setters) == 2:
        s1, s2 = setters

        def make2(a, b, c, file, line, col, end):
            sp = new(Span)
            f1(sp, file), f2(sp, line), f3(sp, col), f4(sp, line), f5(sp, end)
            o = new(cls)
            s1(o, a), s2(o, b), set_span(o, sp)
            return o
        return make2
    (s1,) = setters

    def make1(a, b, c, file, line, col, end):
        sp = new(Span)
        f1(sp, file), f2(sp, line), f3(sp, col), f4(sp, line), f5(sp, end)
        o = new(cls)
        s1(o, a), set_span(o, sp)
        return o
    return make1


make_reg = slot_maker(Reg)  # a=file, b=index, c=count
make_imm = slot_maker(Imm)  # a=value, b=source
make_float = slot_maker(FloatImm)  # a=value, b=source
make_special = slot_maker(Special)  # a=name
make_symbol = slot_maker(Symbol)  # a=name
make_modifier = slot_maker(Modifier)  # a=name, b=value
