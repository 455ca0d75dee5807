"""Constant operands: the integer an Imm, a `.set` symbol or an expression stands for.

A module of its own, below `resolve` and `image`, because both need it (and `resolve` also
needs `image`); nothing here knows the ISA.
"""
from __future__ import annotations

from . import expr as _expr
from .diagnostics import Diagnostic, GcnemuError
from .parse import fold
from .program import Call, Expr, Imm, Symbol


def eval_const(operand, symbols: dict, labels: dict | None = None, _depth: int = 0) -> int:
    """Integer value of an Imm/Symbol/Expr given `.set` symbols (and labels as instruction indices)."""
    if _depth > 64:
        raise GcnemuError("symbol definitions are circular")
    if isinstance(operand, Imm):
        return operand.value
    if isinstance(operand, Symbol):
        if operand.name in symbols:
            return eval_const(symbols[operand.name], symbols, labels, _depth + 1)
        if labels is not None and operand.name in labels:
            return labels[operand.name]
        raise GcnemuError(f"undefined symbol '{operand.name}'",
                          [Diagnostic("error", f"undefined symbol '{operand.name}'", operand.span)])
    if isinstance(operand, Expr):
        vals = [eval_const(a, symbols, labels, _depth + 1) for a in operand.args]
        if operand.op == "neg":
            return -vals[0]
        if operand.op == "~":
            return ~vals[0]
        if operand.op == "!":
            return int(not vals[0])
        return fold(operand.op, vals[0], vals[1])
    if isinstance(operand, Call) and operand.name.lower() in _expr.FUNCTIONS:
        lo, hi, fn = _expr.FUNCTIONS[operand.name.lower()]
        vals = [eval_const(a, symbols, labels, _depth + 1) for a in operand.args]
        if lo <= len(vals) and (hi is None or len(vals) <= hi):
            return fn(None, *vals)
    raise GcnemuError(f"'{operand.text()}' is not a constant expression",
                      [Diagnostic("error", "expected a constant expression", getattr(operand, "span", None))])
