"""Text -> Program. Syntax only: no target knowledge lives here.

Two layers:
- a line scanner (this module) that removes comments, splits off labels, keeps
  directives verbatim (block directives such as `.amdgpu_metadata` hold YAML,
  not assembly) and hands instruction text to the grammar;
- the Lark LALR grammar in `grammars/gcn.lark`, with a transformer applied during
  the parse (no intermediate tree), which builds `program` objects with spans.

The scanner keeps columns exact: the text given to Lark is the whole line with
labels and comments blanked out, so token columns are source columns.

Most instruction lines never reach Lark. In order, the scanner tries: the statement
memo (a line-free recipe of the same text seen before), the piece path (cached comma
pieces of simple operands), the regex fast path (`_fast_instruction`), then the
grammar. Every path builds the very same objects; tests/test_parse_fastpath.py and
tests/test_parse_pieces.py check that.
"""
from __future__ import annotations

import gc
import os
import re
from dataclasses import fields, is_dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic
from . import directives
from . import expr as _expr
from .macros import include_notes, instantiation_notes, map_columns, needs_expansion, preprocess
from .program import (
    Assignment, Call, CallGroup, Directive, Expr, FloatImm, Imm, Instruction, Label, Modified,
    Modifier, Program, Reg, RegList, Special, Span, Symbol,
)

if TYPE_CHECKING:
    from lark import Lark, Token


class _LarkNotImported(Exception):
    """Stands for lark's exception classes until the grammar is first needed (_parsers imports
    lark then and binds the real ones): nothing raises it, so an `except` naming one of these
    matches nothing before then. Why lazy: importing lark takes ~70 ms of every command, and
    most files never reach the grammar (see _OnFirstParse)."""


UnexpectedCharacters = UnexpectedEOF = UnexpectedInput = UnexpectedToken = VisitError = _LarkNotImported

# Register-like names llvm-mc knows on gfx9. Anything else is a symbol.
SPECIAL_REGISTERS = frozenset("""
vcc vcc_lo vcc_hi exec exec_lo exec_hi m0 scc off flat_scratch flat_scratch_lo flat_scratch_hi
xnack_mask xnack_mask_lo xnack_mask_hi tba tba_lo tba_hi tma tma_lo tma_hi vccz execz
src_vccz src_execz src_scc src_shared_base src_shared_limit src_private_base src_private_limit
shared_base shared_limit private_base private_limit src_pops_exiting_wave_id pops_exiting_wave_id
src_lds_direct lds_direct null
""".split())

# Bare words that are instruction modifiers, not operands, wherever they stand.
FLAG_MODIFIERS = frozenset("""
offen idxen addr64 glc slc dlc scc lds nt sc0 sc1 gds tfe lwe d16 a16 r128 da unorm clamp done vm compr
row_en bound_ctrl high fi
""".split())

# llvm-mc reads a bare word as a modifier only where the instruction takes that modifier: scalar
# ALU and branch instructions take none, so there `done`, `lds`, `glc`, `off`... are symbols (labels:
# `s_branch done`). Memory instructions (s_load...) keep their cache-policy flags.
_NO_FLAGS = frozenset()

_MEMORY_PREFIXES = ("buffer_", "global_", "flat_", "scratch_", "tbuffer_", "s_load", "s_store", "s_buffer_",
                    "s_atomic", "s_scratch_", "s_dcache", "s_atc_")

_RANGE_RE = re.compile(r"^(v|s|a|acc|ttmp)\[\s*(\d+)\s*(?::\s*(\d+)\s*)?\]$")
# llvm-mc's (GNU) precedence: * / % << >> above | & ^ above + - (`1+2^3` is 2, `1+3&6` is 3)
_PREC = {"*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6, "|": 5, "&": 5, "^": 5, "+": 4, "-": 4,
         "==": 3, "!=": 3, "<>": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "&&": 2, "||": 1}
# Bitwise or: the bar is also the absolute-value modifier, so `_mark_or` rewrites each bar
# that is an or to this character (a lone surrogate: never in decoded text) for the grammar.
OR_CHAR = "\ud801"
_U64 = 1 << 64
_OUT_OF_RANGE = "literal value out of range for directive"  # llvm-mc 22's words
_REG_RE = re.compile(r"^(v|s|a|ttmp|acc)(\d+)$")  # llvm-mc: register names are lower case only
_LABEL_RE = re.compile(r'\s*([A-Za-z_.$][A-Za-z0-9_.$@]*|"[^"]*")[ \t]*:(?!:)')
_SET_RE = re.compile(r"\s*([A-Za-z_.$][A-Za-z0-9_.$@]*)[ \t]*=(?!=)")
_BLOCKS = {".amdgpu_metadata": ".end_amdgpu_metadata", ".amdgpu_hsa_metadata": ".end_amdgpu_hsa_metadata",
           ".amd_amdgpu_pal_metadata": None}


class ParseError(Exception):
    def __init__(self, message: str, column: int, end_column: int | None = None):
        super().__init__(message)
        self.message = message
        self.column = column
        self.end_column = end_column if end_column is not None else column + 1


def _grammar_path() -> Path:
    """The grammar ships inside the wheel (gcnemu/grammars) and lives at the repo top level."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "grammars" / "gcn.lark", here.parent / "grammars" / "gcn.lark"):
        if candidate.exists():
            return candidate
    raise FileNotFoundError("gcn.lark grammar not found next to the gcnemu package")


class _Split:
    """Two juxtaposed operands that the grammar read as one binary expression (`v0 -1`)."""

    __slots__ = ("first", "rest")

    def __init__(self, first, rest):
        self.first = first
        self.rest = rest


class _Builder:
    """Builds program objects as the LALR parser reduces (no parse tree is kept). Lark calls
    the method named after each rule or terminal; a rule without one becomes a lark Tree, as
    with a lark Transformer (which this needs nothing else of)."""

    file = "<input>"
    line = 1
    code = ""  # the statement being parsed (for the source text of `lit(...)`)
    env: dict = {}  # constant symbols in force at this statement (`.set`/`=`/`.equ`), folded as read

    def _span(self, meta_or_tok) -> Span:
        return Span(self.file, self.line, meta_or_tok.column, self.line, meta_or_tok.end_column)

    def _join(self, a, b) -> Span:
        return Span(self.file, self.line, a.span.column, self.line, b.span.end_column)

    # -- atoms
    def int_(self, c):
        t = c[0]
        text = t.value.rstrip("uUlL")
        if text[0] == "0" and len(text) > 1:  # a leading 0 means octal, as in llvm-mc (`017` is 15)
            if "8" in text or "9" in text:
                raise ParseError("failed parsing operand.", t.column, t.end_column)
            v = int(text, 8)
        elif len(text) > 20:  # (int() refuses more than 4300 digits)
            v = _U64
        else:
            v = int(text)
        if v >= _U64:
            raise ParseError(_OUT_OF_RANGE, t.column, t.end_column)
        return Imm(v, self._span(t), text)

    def hex_(self, c):
        t = c[0]
        v = int(t.value.rstrip("uUlL"), 16)
        if v >= _U64:
            raise ParseError(_OUT_OF_RANGE, t.column, t.end_column)
        return Imm(v, self._span(t), t.value)

    def bin_(self, c):
        t = c[0]
        v = int(t.value[2:].rstrip("uUlL"), 2)
        if v >= _U64:
            raise ParseError(_OUT_OF_RANGE, t.column, t.end_column)
        return Imm(v, self._span(t), t.value)

    def float_(self, c):
        t = c[0]
        return FloatImm(float(t.value), self._span(t), t.value)

    def string_(self, c):
        """A quoted call argument, kept as written (quotes included): `swizzle(BITMASK_PERM, "01pip")`."""
        t: Token = c[0]
        return Symbol(t.value, self._span(t))

    def name(self, c):
        t: Token = c[0]
        low = t.value
        sp = self._span(t)
        m = _REG_RE.match(low)
        if m:
            file = "a" if m.group(1) == "acc" else m.group(1)
            return Reg(file, int(m.group(2)), 1, sp)
        if low in SPECIAL_REGISTERS:
            return Special(low, sp)
        value = self.env.get(low)
        if value is not None:  # llvm-mc folds an absolute symbol into the operand where it is read
            return Imm(value, sp, low)
        return Symbol(low, sp)

    def reg(self, c):
        t: Token = c[0]
        v = t.value
        sp = self._span(t)
        m = _REG_RE.match(v)
        if m:
            file = "a" if m.group(1) == "acc" else m.group(1)
            return Reg(file, int(m.group(2)), 1, sp)
        m = _RANGE_RE.match(v)
        file = "a" if m.group(1) == "acc" else m.group(1)
        lo = int(m.group(2))
        hi = int(m.group(3)) if m.group(3) is not None else lo
        if hi < lo:  # llvm-mc's caret is on the first index
            raise ParseError("first register index should not exceed second index",
                             t.column + m.start(2), t.column + m.end(2))
        return Reg(file, lo, hi - lo + 1, sp)

    def binary(self, c):
        """Flat `a op b op c` with llvm-mc's precedence: * / % << >> above + - above ^.

        A register never starts an expression in llvm-mc, so `v0 -1` (commas
        omitted) is two operands: the sign starts the next one."""
        if isinstance(c[0], (Reg, Special, RegList, Modified)) and c[1].value in "+-":
            rest = c[3:]
            head = self.neg([c[1], c[2]]) if c[1].value == "-" else c[2]
            tail = self.binary([head] + rest) if rest else head
            return _Split(c[0], tail)
        if any(c[i].value == "&" for i in range(1, len(c), 2)) and \
                not all(isinstance(c[i], (Imm, Symbol, Expr)) for i in range(0, len(c), 2)):
            # `vmcnt(0) & lgkmcnt(0)`: `&` between things that are no values separates items
            k = next(i for i in range(1, len(c), 2) if c[i].value == "&")
            head = c[0] if k == 1 else self.binary(c[:k])
            tail = c[k + 1] if k + 2 == len(c) else self.binary(c[k + 1:])
            return _Split(head, tail)
        if any(is_forced_literal(c[i]) for i in range(0, len(c), 2)):  # llvm-mc: `lit(1)+1`, `1+lit(1)`
            raise ParseError("invalid operand for instruction", c[0].span.column, c[-1].span.end_column)
        operands = [c[0]]
        ops: list[str] = []
        for i in range(1, len(c), 2):
            op = c[i].value
            if op[0] == OR_CHAR:
                op = "|" if len(op) == 1 else "||"
            rhs = c[i + 1]
            while ops and _PREC[ops[-1]] >= _PREC[op]:
                b = operands.pop()
                a = operands.pop()
                operands.append(self._bin(ops.pop(), (a, b)))
            ops.append(op)
            operands.append(rhs)
        while ops:
            b = operands.pop()
            a = operands.pop()
            operands.append(self._bin(ops.pop(), (a, b)))
        return operands[0]

    def regrange(self, c):
        t: Token = c[0]
        low = t.value
        file = {"acc": "a"}.get(low, low)
        if file not in ("v", "s", "a", "ttmp"):
            raise ParseError(f"unknown register file '{t.value}'", t.column, t.end_column)
        lo, hi = c[1], c[2] if len(c) > 2 and c[2] is not None else c[1]
        for x in (lo, hi):
            if not isinstance(x, Imm):  # a label, or a symbol without a value at this point
                raise ParseError("expected absolute expression", x.span.column, x.span.end_column)
        end = max(hi.span.end_column + 1, t.end_column)
        sp = Span(self.file, self.line, t.column, self.line, end)
        if hi.value < lo.value:  # llvm-mc's caret is on the first index
            raise ParseError("first register index should not exceed second index",
                             lo.span.column, lo.span.end_column)
        return Reg(file, lo.value, hi.value - lo.value + 1, sp)

    def call(self, c):
        t: Token = c[0]
        args = tuple(a for a in c[1:] if a is not None)
        name = t.value  # as written: llvm-mc's names (vmcnt, hwreg, neg...) are case-sensitive
        end = (args[-1].span.end_column + 1) if args else t.end_column + 2
        sp = Span(self.file, self.line, t.column, self.line, end)
        if name == "lit":
            return self._lit(t, args, end)
        fn = _expr.FUNCTIONS.get(name.lower())
        if fn is not None and args and all(type(a) is Imm for a in args):  # llc's max(...), or(...)
            lo, hi, f = fn
            if lo <= len(args) and (hi is None or len(args) <= hi):
                return Imm(f(None, *[a.value for a in args]), sp, self.code[sp.column - 1:sp.end_column - 1] or "")
        if name in ("neg", "abs", "sext") and len(args) == 1:  # source modifiers, never folded
            inner = args[0]
            if isinstance(inner, Modified):
                return _modify(inner, sp, neg=name == "neg", abs_=name == "abs", sext=name == "sext")
            return Modified(inner, name == "neg", name == "abs", name == "sext", sp)
        return Call(name, args, sp)

    def _lit(self, t: Token, args: tuple, end: int):
        """`lit(x)`: a forced 32-bit literal. A number becomes an Imm/FloatImm whose span is the
        value's (llvm-mc's carets point inside the parentheses) and whose source is the call as
        written (`lit(...)`, see is_forced_literal); a symbol or expression stays a Call for
        validate to evaluate. Anything else (`lit()`, `lit(v1)`, `lit(lit(1))`) is llvm-mc's
        "unknown token in expression" at the closing parenthesis."""
        x = args[0] if len(args) == 1 else None
        if is_forced_literal(x):  # `lit(lit(1))`: at the outer parenthesis
            end = lit_call_column(x) + len(x.source) + 1
        elif isinstance(x, (Imm, FloatImm)):
            code = self.code
            j = code.find(")", end - 2) if code else -1
            src = code[t.column - 1:j + 1] if j >= 0 else f"lit({x.text()})"
            return type(x)(x.value, x.span, src)
        if isinstance(x, (Symbol, Expr)) and not _has_forced_literal(x):
            return Call("lit", args, Span(self.file, self.line, t.column, self.line, end))
        raise ParseError("unknown token in expression", end - 1, end)

    def list(self, c):
        items = tuple(a for a in c if a is not None)
        if items:
            sp = Span(self.file, self.line, items[0].span.column - 1, self.line, items[-1].span.end_column + 1)
        else:
            sp = Span(self.file, self.line, 1, self.line, 1)
        return RegList(items, sp)

    def absval(self, c):
        x = c[0]
        if isinstance(x, Modified):  # llvm-mc: no `-v1` (`|-v1|`) nor a second bar (`||v1||`) inside
            col = x.span.column - 1 if x.abs else x.span.column  # llvm-mc's carets
            raise ParseError("unknown token in expression" if x.abs else "failed parsing operand.", col, col + 1)
        sp = Span(self.file, self.line, x.span.column - 1, self.line, x.span.end_column + 1)
        if isinstance(x, Modified):
            return _modify(x, sp, abs_=True)
        return Modified(x, False, True, False, sp)

    # -- unary
    def paren(self, c):
        x = c[0]
        if isinstance(x, _Split):
            sp = x.first.span
            raise ParseError("invalid operand in expression", sp.column, sp.end_column)
        return x

    def pos(self, c):
        return c[-1]

    def neg(self, c):
        x = c[-1]
        # from the minus sign, wherever it is (`- 0x10`), as the fast path
        col = c[0].column if len(c) == 2 and getattr(c[0], "column", None) else x.span.column - 1
        sp = Span(self.file, self.line, col, self.line, x.span.end_column)
        if is_forced_literal(x):  # llvm-mc: `-lit(1)` is no operand (neg(lit(1.0)) is)
            raise ParseError("invalid operand for instruction", col, x.span.end_column)
        if isinstance(x, Imm):
            return Imm(-x.value, sp, "-" + x.text())
        if isinstance(x, FloatImm):
            return FloatImm(-x.value, sp, "-" + x.text())
        if isinstance(x, (Reg, Special, Modified)):
            return _modify(x, sp, neg=True)
        return Expr("neg", (x,), sp)

    def inv(self, c):
        x = c[0]
        sp = Span(self.file, self.line, x.span.column - 1, self.line, x.span.end_column)
        return Imm(~x.value, sp) if isinstance(x, Imm) else Expr("~", (x,), sp)

    def lnot(self, c):
        x = c[0]
        sp = Span(self.file, self.line, x.span.column - 1, self.line, x.span.end_column)
        return Imm(int(not x.value), sp) if isinstance(x, Imm) else Expr("!", (x,), sp)

    # -- binary (fold constants now; keep symbols for resolve)
    def _bin(self, op, c):
        a, b = c
        sp = self._join(a, b)
        if isinstance(a, Imm) and isinstance(b, Imm):
            try:
                return Imm(fold(op, a.value, b.value), sp)
            except ZeroDivisionError:
                raise ParseError("division by zero in expression", sp.column, sp.end_column) from None
        if not _is_value(a) or not _is_value(b):
            raise ParseError("invalid operand in expression", sp.column, sp.end_column)
        return Expr(op, (a, b), sp)


    # -- instruction structure
    def modifier(self, c):
        t: Token = c[0]
        key = t.value[:-1]
        val = c[1]
        if isinstance(val, _Split):  # `offset:v1 -1`, `offset:vcc & 1`: the value, then more items
            return _Split(self.modifier([t, val.first]), val.rest)
        end = val.span.end_column if hasattr(val, "span") else t.end_column
        sp = Span(self.file, self.line, t.column, self.line, end)
        if is_forced_literal(val) or isinstance(val, Call) and val.name == "lit":
            col = lit_call_column(val) if is_forced_literal(val) else val.span.column
            raise ParseError("expected absolute expression", col, val.span.end_column)
        if isinstance(val, Imm):
            v = val.value
        elif isinstance(val, RegList):
            if not all(isinstance(i, Imm) for i in val.items):
                raise ParseError("expected a list of integers", val.span.column, val.span.end_column)
            v = tuple(i.value for i in val.items)
        elif isinstance(val, (Symbol, Special)):
            v = val.text()
        elif isinstance(val, (Reg, Call, Expr)):  # dst_sel:..., offset:swizzle(...), offset:X+4: keep the text
            v = val.text()
        else:
            raise ParseError(f"invalid value for modifier '{key}'", val.span.column, val.span.end_column)
        return Modifier(key, v, sp)  # as written: llvm-mc's modifier names are case-sensitive

    def group(self, c):
        out = []
        for item in c:
            if isinstance(item, _Split):
                _flatten(item, out)
            else:
                out.append(item)
        return out

    def instruction(self, c):
        """Operands and modifiers from the flat item list.

        llvm-mc treats the comma after an operand as optional (`v_add_u32 v0 v1 v2`
        assembles), so groups only matter for spans: items are classified one by one.
        Adjacent calls join into one operand (`vmcnt(0) & lgkmcnt(0)`).
        """
        tok: Token = c[0]
        mnemonic = tok.value.lower()
        operands: list = []
        modifiers: list = []
        prev_call = False
        memory = mnemonic.startswith(_MEMORY_PREFIXES)
        scalar = not memory and mnemonic.startswith("s_")
        flags = _NO_FLAGS if scalar else FLAG_MODIFIERS
        for group in c[1:]:
            if group is None:
                continue
            for item in group:
                if isinstance(item, Modifier):
                    modifiers.append(item)
                    prev_call = False
                    continue
                if isinstance(item, Symbol) and item.name in flags or \
                        modifiers and isinstance(item, Special) and item.name == "scc" and memory:
                    # bare modifier words (`offen`, `glc`...); `scc` is a cache-policy bit of memory
                    # instructions (when it trails the operands) and the SCC register elsewhere
                    modifiers.append(Modifier(item.name, None, item.span))
                    prev_call = False
                    continue
                if isinstance(item, Call) and prev_call and mnemonic.startswith("s_waitcnt"):
                    prev = operands.pop()
                    calls = prev.calls if isinstance(prev, CallGroup) else (prev,)
                    operands.append(CallGroup(calls + (item,), Span(self.file, self.line, prev.span.column,
                                                                     self.line, item.span.end_column)))
                    continue
                if modifiers:
                    raise ParseError("not a valid operand: operands must come before modifiers",
                                     item.span.column, item.span.end_column)
                if scalar and type(item) is Special and item.name == "off":
                    item = Symbol("off", item.span)  # `off` only means "no address" to memory instructions
                operands.append(item)
                prev_call = isinstance(item, Call)
        if memory:  # a trailing `scc` of a memory instruction is its cache-policy bit
            trailing = []
            while operands and isinstance(operands[-1], Special) and operands[-1].name == "scc":
                trailing.append(operands.pop())
            modifiers[:0] = [Modifier("scc", None, o.span) for o in reversed(trailing)]
        sp_tok = Span(self.file, self.line, tok.column, self.line, tok.end_column)
        return Instruction(mnemonic, tuple(operands), tuple(modifiers), sp_tok, sp_tok)


def _is_value(x) -> bool:
    """Can `x` stand in an arithmetic expression? Numbers, symbols, expressions, and calls of
    llvm-mc's expression functions (`16+max(g.private_seg_size)`)."""
    return isinstance(x, (Imm, Symbol, Expr)) or type(x) is Call and x.name.lower() in _expr.FUNCTIONS


def is_forced_literal(op) -> bool:
    """`lit(1)`, `lit(1.0)`: an Imm/FloatImm that llvm-mc encodes as a 32-bit literal even when
    the value is an inline constant (the source text keeps the `lit(...)` form)."""
    return type(op) in (Imm, FloatImm) and op.source[:3] == "lit"


def lit_call_column(op) -> int:
    """The column of the `lit` of a forced literal (its span is the value's)."""
    src = op.source
    i = src.find("(") + 1
    while i < len(src) and src[i] in " \t":
        i += 1
    return op.span.column - i


def _has_forced_literal(op) -> bool:
    if is_forced_literal(op):
        return True
    if isinstance(op, (Expr, Call)):
        return any(_has_forced_literal(a) for a in op.args)
    if isinstance(op, Modified):
        return _has_forced_literal(op.inner)
    return False


def _flatten(x, out: list) -> None:
    while isinstance(x, _Split):
        _flatten(x.first, out)
        x = x.rest
    out.append(x)


_WORDS = re.compile(r"""[A-Za-z_.$][A-Za-z0-9_.$@]*:?|[0-9][A-Za-z0-9_.]*|\S""")


def _mark_or(code: str, expression: bool = False) -> str:
    """`code` with each `|` that is bitwise or replaced by OR_CHAR (same length, same columns).

    As llvm-mc reads it: a bar where an operand starts, or after a register, opens an absolute
    value (`|v1|`, `v0 |v1|`); inside one, a bar after a value closes it; any other bar after
    a value (a number, a symbol, `)`) is bitwise or: `(1<<4)|1`, `x | 2`."""
    out = list(code)
    opens: list[int] = []  # the paren depth at each open absolute-value bar
    depth = 0
    calls: list[bool] = []  # per open paren: is it a call's (`vmcnt(`, `hwreg(`)?
    prev = "start"  # start | op | reg | value
    first = not expression  # an instruction's first word is its mnemonic
    name = False  # the previous word is a name
    skip = False
    for m in _WORDS.finditer(code):
        w = m.group()
        ch = w[0]
        after_name, name = name, False
        if skip:
            skip = False
            continue
        if ch == "|":
            if opens and opens[-1] == depth and prev in ("reg", "value"):
                opens.pop()
                prev = "reg"  # a closed |x| is a modified operand: a bar after it starts another
            elif prev == "value":
                out[m.start()] = OR_CHAR
                if code.startswith("|", m.end()):  # `||`, logical or
                    out[m.end()] = OR_CHAR
                    skip = True
                prev = "op"
            else:
                opens.append(depth)
                prev = "op"
            continue
        if ch in "([":
            depth += 1
            calls.append(ch == "(" and after_name)  # the grammar's call: NAME "(" (blanks between allowed)
            prev = "op"
        elif ch in ")]":
            depth -= 1
            call = calls.pop() if calls else False
            # `(1)|2` is an or; a call (`vmcnt(0) |v1|`) or a register range is no expression value
            prev = "value" if ch == ")" and not call else "reg"
        elif ch.isalpha() or ch in "_.$":
            if first:
                prev = "start"
            elif w[-1] == ":":
                prev = "op"
            elif _REG_RE.match(w) or w in SPECIAL_REGISTERS or w in ("v", "s", "a", "acc", "ttmp"):
                prev = "reg"
            else:
                prev = "value"
            name = w[-1] != ":" and not first
        elif ch.isdigit():
            prev = "value"
        else:
            prev = "op"
        first = False
    return "".join(out)


def _modify(x, sp: Span, neg: bool = False, abs_: bool = False, sext: bool = False):
    if isinstance(x, Modified):
        return Modified(x.inner, x.neg != neg if neg else x.neg, x.abs or abs_, x.sext or sext, sp)
    if isinstance(x, Imm) and neg and not abs_ and not sext:
        return Imm(-x.value, sp)
    return Modified(x, neg, abs_, sext, sp)


_COMPARE = {"==": int.__eq__, "!=": int.__ne__, "<>": int.__ne__, "<": int.__lt__, "<=": int.__le__,
            ">": int.__gt__, ">=": int.__ge__}


def fold(op: str, a: int, b: int) -> int:
    """Constant folding with llvm-mc's integer semantics (see `asm.expr.binary`: 64-bit two's
    complement, C-like division, logical `>>`, shift counts mod 64, comparisons -1/0).
    Division by zero raises ZeroDivisionError."""
    try:
        return _expr.binary(op, a, b)
    except _expr.ExprError:
        raise ZeroDivisionError(op) from None


@lru_cache(maxsize=None)
def _transformer() -> _Builder:
    """The one transformer both parsers apply (the scanner sets its file, line and symbols)."""
    return _Builder()


@lru_cache(maxsize=None)
def _parsers() -> tuple[Lark, Lark, _Builder]:
    """Build the two LALR parsers once. lark-cython, when installed, roughly doubles speed."""
    global UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
    from lark import Lark
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
    builder = _transformer()
    grammar = _grammar_path().read_text()
    kw: dict = {}
    try:
        import lark_cython  # optional accelerator (the `speed` extra)
        kw["_plugins"] = lark_cython.plugins
    except ImportError:
        pass
    instr = Lark(grammar, parser="lalr", lexer="contextual", start="instruction",
                 transformer=builder, maybe_placeholders=True, **kw)
    expr = Lark(grammar, parser="lalr", lexer="contextual", start="expression",
                transformer=builder, maybe_placeholders=True, **kw)
    return instr, expr, builder


class _OnFirstParse:
    """One of the two Lark parsers, built when a line first needs it. Why: building both
    (grammar analysis, LALR tables) takes ~0.1 s, and most files never reach the grammar: the
    scanner's fast path and recipes build every line of typical kernels."""

    __slots__ = ("_which",)

    def __init__(self, which: int):
        self._which = which  # 0: instruction, 1: expression (as _parsers() returns them)

    def parse(self, text: str):
        return _parsers()[self._which].parse(text)


_INSTR_PARSER = _OnFirstParse(0)
_EXPR_PARSER = _OnFirstParse(1)


def _relocate(obj, line: int):
    """The same parsed object on another line (statements repeat a lot in real kernels)."""
    if isinstance(obj, tuple):
        return tuple([_relocate(o, line) for o in obj])
    t = type(obj)
    if t is Reg or t is Imm or t is Special or t is Symbol or t is Modifier or t is FloatImm:
        sp = obj.span
        nsp = _Span(sp.file, line, sp.column, line, sp.end_column)
        if t is Reg:
            return _Reg(obj.file, obj.index, obj.count, nsp)
        if t is Imm:
            return _Imm(obj.value, nsp, obj.source)
        if t is Modifier:
            return _Modifier(obj.name, obj.value, nsp)
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
                       _Span(sp.file, line, sp.column, line, sp.end_column),
                       _Span(ms.file, line, ms.column, line, ms.end_column), index)


# ------------------------------------------------------------------ fast path
# Most instruction lines are a mnemonic, registers, plain numbers, names,
# `-x`, `key:value` modifiers and `name(int)` calls. They are tokenized with one
# regular expression and built here directly, to the very same objects (spans
# included) the grammar builds; anything else (expressions, brackets, `|x|`...)
# returns None and goes through Lark. tests/test_parse_fastpath.py checks the
# equivalence line by line.

def _slot_constructor(cls):
    """A faster constructor for a frozen slots dataclass of the program model: sets the slots
    directly instead of going through the generated __init__ (object.__setattr__ per field)."""
    import dataclasses
    try:
        names = [f.name for f in dataclasses.fields(cls)]
        setters = [cls.__dict__[n].__set__ for n in names]
    except (TypeError, KeyError, AttributeError):
        return cls
    if any(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
           for f in dataclasses.fields(cls)) and cls is not Imm and cls is not FloatImm:
        return cls
    new = object.__new__
    if len(names) == 5:
        a, b, c, d, e = setters

        def make5(v1, v2, v3, v4, v5):
            o = new(cls)
            a(o, v1), b(o, v2), c(o, v3), d(o, v4), e(o, v5)
            return o
        return make5
    if len(names) == 4:
        a, b, c, d = setters

        def make4(v1, v2, v3, v4):
            o = new(cls)
            a(o, v1), b(o, v2), c(o, v3), d(o, v4)
            return o
        return make4
    if len(names) == 3 and cls in (Imm, FloatImm):
        a, b, c = setters

        def make_imm(v1, v2, v3=""):
            o = new(cls)
            a(o, v1), b(o, v2), c(o, v3)
            return o
        return make_imm
    if len(names) == 3:
        a, b, c = setters

        def make3(v1, v2, v3):
            o = new(cls)
            a(o, v1), b(o, v2), c(o, v3)
            return o
        return make3
    if len(names) == 2:
        a, b = setters

        def make2(v1, v2):
            o = new(cls)
            a(o, v1), b(o, v2)
            return o
        return make2
    return cls


_Span = _slot_constructor(Span)
_Reg = _slot_constructor(Reg)
_Imm = _slot_constructor(Imm)
_Symbol = _slot_constructor(Symbol)
_Special = _slot_constructor(Special)
_Modifier = _slot_constructor(Modifier)

_FAST_TOKEN = re.compile(r"""[ \t]*(?:
    (?P<reg>(?:v|s|a|acc|ttmp)(?:[0-9]+|\[[ \t]*[0-9]+[ \t]*(?::[ \t]*[0-9]+[ \t]*)?\])(?![A-Za-z0-9_.$@]))
  | (?P<punct>[,()\[\]&-])
  | (?P<key>[A-Za-z_][A-Za-z0-9_]*:(?!:))
  | (?P<name>(?!\.[0-9])[A-Za-z_.$][A-Za-z0-9_.$@]*)
  | (?P<hex>0[xX][0-9a-fA-F]+(?![A-Za-z0-9_.$@]))
  | (?P<float>(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?![A-Za-z0-9_.$@])|[0-9]+[eE][-+]?[0-9]+(?![A-Za-z0-9_.$@]))
  | (?P<int>[0-9]+(?![A-Za-z0-9_.$@]))
  | (?P<bad>[^ \t])
    )""", re.X)


@lru_cache(maxsize=65536)
def _reg_fields(text: str):
    """'v[4:7]' -> ('v', 4, 4); None if the range is reversed."""
    m = _REG_RE.match(text)
    if m:
        return ("a" if m.group(1) == "acc" else m.group(1)), int(m.group(2)), 1
    m = _RANGE_RE.match(text)
    lo = int(m.group(2))
    hi = int(m.group(3)) if m.group(3) is not None else lo
    if hi < lo:
        return None
    return ("a" if m.group(1) == "acc" else m.group(1)), lo, hi - lo + 1


def _fast_tokens(code: str):
    """[(kind, text, column)] or None when the line has something the fast path does not handle.

    `bad` catches any character no other token starts with, so the matches are contiguous
    and no position check is needed per token."""
    out = []
    append = out.append
    # rstrip: a run of trailing blanks would make finditer retry the failing blank-prefixed
    # match at every position of the run (quadratic: a 1 MB line took minutes)
    for m in _FAST_TOKEN.finditer(code.rstrip()):
        kind = m.lastgroup
        if kind == "bad":
            return None
        text = m.group(kind)
        append((kind, text, m.end() - len(text) + 1))
    return out


def _fast_atom(toks, j: int, n: int, file: str, line: int):
    """(object, next index) for the operand starting at token j, or None."""
    kind, text, col = toks[j]
    if kind == "reg":
        f = _reg_fields(text)
        if f is None:
            return None
        return _Reg(f[0], f[1], f[2], _Span(file, line, col, line, col + len(text))), j + 1
    if kind == "name":
        if j + 1 < n and toks[j + 1][1] in "([":
            if toks[j + 1][1] == "(" and j + 3 < n and toks[j + 2][0] in ("int", "hex") and toks[j + 3][1] == ")" \
                    and text not in ("neg", "abs", "sext"):
                r = _fast_atom(toks, j + 2, n, file, line)
                if r is None:
                    return None
                a = r[0]
                return Call(text, (a,), _Span(file, line, col, line, a.span.end_column + 1)), j + 4
            return None
        sp = _Span(file, line, col, line, col + len(text))
        m = _REG_RE.match(text)
        if m:
            return _Reg("a" if m.group(1) == "acc" else m.group(1), int(m.group(2)), 1, sp), j + 1
        if text in SPECIAL_REGISTERS:
            return _Special(text, sp), j + 1
        return _Symbol(text, sp), j + 1
    if kind == "int":
        # octal (`017`), or may not fit in 64 bits (int() refuses > 4300 digits): the grammar decides
        if len(text) > 1 and (text[0] == "0" or len(text) > 19):
            return None
        return _Imm(int(text), _Span(file, line, col, line, col + len(text)), text), j + 1
    if kind == "hex":
        if len(text) > 18:
            return None
        return _Imm(int(text, 16), _Span(file, line, col, line, col + len(text)), text), j + 1
    if kind == "float":
        return FloatImm(float(text), _Span(file, line, col, line, col + len(text)), text), j + 1
    if text == "-" and j + 1 < n and toks[j + 1][1] != "-":  # `--x`: the grammar (no recursion here)
        r = _fast_atom(toks, j + 1, n, file, line)
        if r is None:
            return None
        x, nj = r
        if isinstance(x, Call) or nj < n and toks[nj][1] == "-":
            return None
        sp = _Span(file, line, col, line, x.span.end_column)
        if isinstance(x, Imm):
            return _Imm(-x.value, sp, "-" + x.text()), nj
        if isinstance(x, FloatImm):
            return FloatImm(-x.value, sp, "-" + x.text()), nj
        if isinstance(x, (Reg, Special)):
            return Modified(x, True, False, False, sp), nj
        return Expr("neg", (x,), sp), nj
    return None


def _fast_instruction(code: str, file: str, line: int):
    """The Instruction of a simple line, or None (use the grammar)."""
    toks = _fast_tokens(code)
    if not toks or toks[0][0] != "name":
        return None
    _, mn, c0 = toks[0]
    mnemonic, memory, scalar, flags = _mnemonic_facts(mn)
    operands: list = []
    modifiers: list = []
    prev_call = False
    i, n = 1, len(toks)
    while i < n:
        kind, text, col = toks[i]
        # registers and integers, the most common operands, inline (what _fast_atom and the
        # checks below would do for them)
        if kind == "reg":
            f = _reg_fields(text)
            i += 1
            if f is None or modifiers or i < n and toks[i][1] in "()[]":
                return None
            operands.append(_Reg(f[0], f[1], f[2], _Span(file, line, col, line, col + len(text))))
            prev_call = False
            continue
        if kind == "int":
            i += 1
            if modifiers or i < n and toks[i][1] in "()[]-" or len(text) > 1 and (text[0] == "0" or len(text) > 19):
                return None
            operands.append(_Imm(int(text), _Span(file, line, col, line, col + len(text)), text))
            prev_call = False
            continue
        if kind == "punct":
            if text == ",":
                if i == 1 or i + 1 < n and toks[i + 1][1] in ",&":  # `s_nop ,0`, `v0,,v1`, `v0,& v1`
                    return None
                i += 1
                continue
            if text == "&":
                # only the s_waitcnt separator between two calls (`vmcnt(0) & lgkmcnt(0)`); anything
                # else is bitwise and, an expression for the grammar
                if not prev_call or i + 2 >= n or toks[i + 1][0] != "name" or toks[i + 2][1] != "(":
                    return None
                i += 1
                continue
            if text != "-":
                return None
            # `-x` after a register starts a new operand; after anything else it is binary minus
            prev = toks[i - 1]
            if i > 1 and prev[1] not in ",&" and not (operands and isinstance(operands[-1], (Reg, Special))
                                                      and prev[2] == operands[-1].span.column):
                return None
        elif kind == "key":
            if i + 1 >= n:
                return None
            if toks[i + 1][1] == "[":  # key:[int, int, ...]
                j = i + 2
                vals = []
                while j < n and (toks[j][0] == "hex" and len(toks[j][1]) < 19 or
                                 toks[j][0] == "int" and (len(toks[j][1]) == 1 or toks[j][1][0] != "0" and len(toks[j][1]) < 19)):
                    vals.append(int(toks[j][1], 16) if toks[j][0] == "hex" else int(toks[j][1]))
                    j += 1
                    if j < n and toks[j][1] == ",":
                        j += 1
                        continue
                    break
                if not vals or j >= n or toks[j][1] != "]":
                    return None
                modifiers.append(_Modifier(text[:-1], tuple(vals), _Span(file, line, col, line, toks[j][2] + 1)))
                i = j + 1
                prev_call = False
                continue
            r = _fast_atom(toks, i + 1, n, file, line)
            if r is None:
                return None
            val, nj = r
            if nj < n and toks[nj][1] in "()[]-":
                return None
            if isinstance(val, Imm):
                v = val.value
            elif isinstance(val, (Symbol, Special, Reg)):
                v = val.text()
            else:
                return None
            modifiers.append(_Modifier(text[:-1], v, _Span(file, line, col, line, val.span.end_column)))
            prev_call = False
            i = nj
            continue
        r = _fast_atom(toks, i, n, file, line)
        if r is None:
            return None
        item, nj = r
        if nj < n and (toks[nj][1] in "()[]" or toks[nj][1] == "-" and not isinstance(item, (Reg, Special))):
            return None
        i = nj
        if isinstance(item, Symbol) and item.name in flags or \
                modifiers and isinstance(item, Special) and item.name == "scc" and memory:
            modifiers.append(_Modifier(item.name, None, item.span))
            prev_call = False
            continue
        if isinstance(item, Call) and prev_call and mnemonic.startswith("s_waitcnt"):
            prev = operands.pop()
            calls = prev.calls if isinstance(prev, CallGroup) else (prev,)
            operands.append(CallGroup(calls + (item,), _Span(file, line, prev.span.column, line, item.span.end_column)))
            continue
        if modifiers:
            return None
        if scalar and type(item) is Special and item.name == "off":
            item = _Symbol("off", item.span)
        operands.append(item)
        prev_call = isinstance(item, Call)
    if memory:
        trailing = []
        while operands and isinstance(operands[-1], Special) and operands[-1].name == "scc":
            trailing.append(operands.pop())
        modifiers[:0] = [Modifier("scc", None, o.span) for o in reversed(trailing)]
    sp_tok = _Span(file, line, c0, line, c0 + len(mn))
    return Instruction(mnemonic, tuple(operands), tuple(modifiers), sp_tok, sp_tok)


@lru_cache(maxsize=4096)
def _mnemonic_facts(mn: str):
    """(mnemonic, memory instruction?, scalar non-memory?, its bare-word modifiers) of a mnemonic as written."""
    mnemonic = mn.lower()
    memory = mnemonic.startswith(_MEMORY_PREFIXES)
    scalar = not memory and mnemonic.startswith("s_")
    return mnemonic, memory, scalar, (_NO_FLAGS if scalar else FLAG_MODIFIERS)


# ------------------------------------------------------------------ recipes and the piece path
# A parsed statement depends on its line number only through its spans, so what the scanner
# caches is a *recipe*: the objects to build, with their columns, but no line. A recipe is
#   (mnemonic, mnemonic column, mnemonic end, statement column, statement end, operand parts,
#    modifier parts)
# where a part is (entries, base): entries whose columns are relative to `base` (so cached
# entries are shared, never shifted). Every entry, operand or modifier, is
#   (maker, a, b, c, column, end)
# and `maker(a, b, c, file, line, column, end)` builds the object and its span in one call
# (one call per object and no dispatch on its kind: building is most of what is left of a
# line's cost). What a, b and c are depends on the maker: see `_MAKERS`. Calls, call groups and
# modified operands hold entries of their parts, with columns relative to their own column.

def _maker(cls):
    """The entry maker of a program class: its fields but `span` are a, b, c in order."""
    import dataclasses
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


_make_reg = _maker(Reg)  # a=file, b=index, c=count
_make_imm = _maker(Imm)  # a=value, b=source
_make_float = _maker(FloatImm)  # a=value, b=source
_make_special = _maker(Special)  # a=name
_make_symbol = _maker(Symbol)  # a=name
_make_modifier = _maker(Modifier)  # a=name, b=value


def _line_span(file: str, line: int, col: int, end: int) -> Span:
    """The span of columns [col, end) on one line."""
    return _Span(file, line, col, line, end)


# Faster makers for the common classes. The program classes are frozen, so each field is set
# through its slot descriptor's __set__ (~60 ns a call). A "draft" is a plain class with the
# very same slots: its fields are set by ordinary attribute stores, and assigning `__class__`
# then turns it into the real class (CPython allows that between classes of identical slot
# layout; the object is then in every way an instance of the real class). This halves the cost
# of a Reg and its Span. If the interpreter refuses the assignment, the makers above stay.
def _draft(cls):
    return type(f"_{cls.__name__}Draft", (), {"__slots__": cls.__slots__})


_SpanDraft, _RegDraft, _ImmDraft, _FloatImmDraft, _SpecialDraft, _SymbolDraft, _ModifierDraft = (
    _draft(c) for c in (Span, Reg, Imm, FloatImm, Special, Symbol, Modifier))


def _draft_span(file, line, col, end):
    sp = _new(_SpanDraft)
    sp.file = file
    sp.line = line
    sp.column = col
    sp.end_line = line
    sp.end_column = end
    sp.__class__ = Span
    return sp


def _draft_reg(a, b, c, file, line, col, end):
    sp = _new(_SpanDraft)  # (_draft_span, inlined: a call costs as much as the stores)
    sp.file = file
    sp.line = line
    sp.column = col
    sp.end_line = line
    sp.end_column = end
    sp.__class__ = Span
    o = _new(_RegDraft)
    o.file = a
    o.index = b
    o.count = c
    o.span = sp
    o.__class__ = Reg
    return o


def _draft_imm(a, b, c, file, line, col, end):
    sp = _new(_SpanDraft)  # (_draft_span, inlined: a call costs as much as the stores)
    sp.file = file
    sp.line = line
    sp.column = col
    sp.end_line = line
    sp.end_column = end
    sp.__class__ = Span
    o = _new(_ImmDraft)
    o.value = a
    o.source = b
    o.span = sp
    o.__class__ = Imm
    return o


def _draft_float(a, b, c, file, line, col, end):
    sp = _new(_SpanDraft)  # (_draft_span, inlined: a call costs as much as the stores)
    sp.file = file
    sp.line = line
    sp.column = col
    sp.end_line = line
    sp.end_column = end
    sp.__class__ = Span
    o = _new(_FloatImmDraft)
    o.value = a
    o.source = b
    o.span = sp
    o.__class__ = FloatImm
    return o


def _draft_special(a, b, c, file, line, col, end):
    sp = _new(_SpanDraft)  # (_draft_span, inlined: a call costs as much as the stores)
    sp.file = file
    sp.line = line
    sp.column = col
    sp.end_line = line
    sp.end_column = end
    sp.__class__ = Span
    o = _new(_SpecialDraft)
    o.name = a
    o.span = sp
    o.__class__ = Special
    return o


def _draft_symbol(a, b, c, file, line, col, end):
    sp = _new(_SpanDraft)  # (_draft_span, inlined: a call costs as much as the stores)
    sp.file = file
    sp.line = line
    sp.column = col
    sp.end_line = line
    sp.end_column = end
    sp.__class__ = Span
    o = _new(_SymbolDraft)
    o.name = a
    o.span = sp
    o.__class__ = Symbol
    return o


def _draft_modifier(a, b, c, file, line, col, end):
    sp = _new(_SpanDraft)  # (_draft_span, inlined: a call costs as much as the stores)
    sp.file = file
    sp.line = line
    sp.column = col
    sp.end_line = line
    sp.end_column = end
    sp.__class__ = Span
    o = _new(_ModifierDraft)
    o.name = a
    o.value = b
    o.span = sp
    o.__class__ = Modifier
    return o


_new = object.__new__
try:
    _ok = (_draft_reg("v", 0, 2, "f", 1, 2, 3) == Reg("v", 0, 2, Span("f", 1, 2, 1, 3))
           and _draft_imm(1, "1", None, "f", 1, 2, 3) == Imm(1, Span("f", 1, 2, 1, 3), "1")
           and _draft_float(1.0, "1.0", None, "f", 1, 2, 3) == FloatImm(1.0, Span("f", 1, 2, 1, 3), "1.0")
           and _draft_special("vcc", None, None, "f", 1, 2, 3) == Special("vcc", Span("f", 1, 2, 1, 3))
           and _draft_symbol("x", None, None, "f", 1, 2, 3) == Symbol("x", Span("f", 1, 2, 1, 3))
           and _draft_modifier("glc", None, None, "f", 1, 2, 3) == Modifier("glc", None, Span("f", 1, 2, 1, 3)))
except TypeError:  # __class__ assignment refused
    _ok = False
if _ok:
    _make_reg, _make_imm, _make_float = _draft_reg, _draft_imm, _draft_float
    _make_special, _make_symbol, _make_modifier = _draft_special, _draft_symbol, _draft_modifier
    _line_span = _draft_span
_Call = _slot_constructor(Call)
_CallGroup = _slot_constructor(CallGroup)
_Modified = _slot_constructor(Modified)


def _make_call(a, b, c, file, line, col, end):
    """a=name, b=argument entries."""
    args = tuple([mk(x, y, z, file, line, col + dc, col + de) for mk, x, y, z, dc, de in b])
    return _Call(a, args, _line_span(file, line, col, end))


def _make_group(a, b, c, file, line, col, end):
    """a=call entries."""
    calls = tuple([mk(x, y, z, file, line, col + dc, col + de) for mk, x, y, z, dc, de in a])
    return _CallGroup(calls, _line_span(file, line, col, end))


def _make_modified(a, b, c, file, line, col, end):
    """a=the inner entry, b=(neg, abs, sext)."""
    mk, x, y, z, dc, de = a
    return _Modified(mk(x, y, z, file, line, col + dc, col + de), b[0], b[1], b[2], _line_span(file, line, col, end))


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
        return (_make_reg, obj.file, obj.index, obj.count, col, end)
    if t is Imm:
        return (_make_imm, obj.value, obj.source, None, col, end)
    if t is FloatImm:
        return (_make_float, obj.value, obj.source, None, col, end)
    if t is Special:
        return (_make_special, obj.name, None, None, col, end)
    if t is Symbol:
        return (_make_symbol, obj.name, None, None, col, end)
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
    mods = tuple((_make_modifier, m.name, m.value, None, m.span.column, m.span.end_column) for m in ins.modifiers)
    ms = ins.mnemonic_span
    return (ins.mnemonic, ms.column, ms.end_column, start_col, end_col, ((ops, 0),), ((mods, 0),) if mods else ())


def _build(recipe, file: str, line: int, index: int) -> Instruction:
    """The Instruction a recipe describes, on `line`."""
    mnemonic, mcol, mend, scol, ecol, op_parts, mod_parts = recipe
    operands = tuple([mk(a, b, c, file, line, col + base, end + base)
                      for entries, base in op_parts for mk, a, b, c, col, end in entries])
    modifiers = tuple([mk(a, b, c, file, line, col + base, end + base)
                       for entries, base in mod_parts for mk, a, b, c, col, end in entries]) if mod_parts else ()
    return Instruction(mnemonic, operands, modifiers, _line_span(file, line, scol, ecol),
                       _line_span(file, line, mcol, mend), index)


def _draft_build(recipe, file: str, line: int, index: int) -> Instruction:
    """`_build` with its spans drafted in place and the Instruction's fields stored directly
    (it is not frozen: no __init__ call needed). One per instruction line of a file."""
    mnemonic, mcol, mend, scol, ecol, op_parts, mod_parts = recipe
    operands = tuple([mk(a, b, c, file, line, col + base, end + base)
                      for entries, base in op_parts for mk, a, b, c, col, end in entries])
    sp = _new(_SpanDraft)
    sp.file = file
    sp.line = line
    sp.column = scol
    sp.end_line = line
    sp.end_column = ecol
    sp.__class__ = Span
    ms = _new(_SpanDraft)
    ms.file = file
    ms.line = line
    ms.column = mcol
    ms.end_line = line
    ms.end_column = mend
    ms.__class__ = Span
    ins = _new(Instruction)
    ins.mnemonic = mnemonic
    ins.operands = operands
    ins.modifiers = tuple([mk(a, b, c, file, line, col + base, end + base)
                           for entries, base in mod_parts for mk, a, b, c, col, end in entries]) if mod_parts else ()
    ins.span = sp
    ins.mnemonic_span = ms
    ins.index = index
    return ins


# The parser's memos by text (recipe builders, register index values, foldings, line shapes) are
# pure functions of the text and the symbols it names; tests turn them off (False) to check
# that they change nothing.
_MEMOS = True

# A recipe's builder: `_builder(recipe)` is a function (file, line, index) -> the Instruction
# `_build(recipe, file, line, index)` makes, with the recipe unpacked once and every object
# drafted in straight-line code (no call per operand, no loop). The code is generated once per
# recipe signature (which maker makes each operand and modifier): a few dozen per file. Making
# a builder costs about as much as six builds save, so the statement memo keeps the recipe and
# makes its builder at its _PROMOTE-th use: a line repeated that often is likely to repeat more
# (Tensile kernels repeat lines hundreds of times; a file of mostly distinct lines makes none).
_DRAFTED = {  # maker -> (draft class, final class, the fields a, b, c fill, in order)
    "_draft_reg": ("_RegDraft", "Reg", ("file", "index", "count")),
    "_draft_imm": ("_ImmDraft", "Imm", ("value", "source", None)),
    "_draft_float": ("_FloatImmDraft", "FloatImm", ("value", "source", None)),
    "_draft_special": ("_SpecialDraft", "Special", ("name", None, None)),
    "_draft_symbol": ("_SymbolDraft", "Symbol", ("name", None, None)),
    "_draft_modifier": ("_ModifierDraft", "Modifier", ("name", "value", None)),
}
_factories: dict = {}  # signature -> the generated factory (recipe -> builder)
_PROMOTE = 4
_builders_ok = True  # (checked below against _build)
_Function = type(lambda: None)


def _span_code(var: str, col: str, end: str) -> list[str]:
    return [f"{var} = _new(_SpanDraft)", f"{var}.file = file", f"{var}.line = line", f"{var}.column = {col}",
            f"{var}.end_line = line", f"{var}.end_column = {end}", f"{var}.__class__ = Span"]


def _make_factory(sig: tuple):
    """The factory of builders for recipes of signature `sig` (the maker of each operand, then
    of each modifier, and how many of each)."""
    makers, n_ops = sig
    head, body = [], []
    for k, mk in enumerate(makers):
        head.append(f"mk{k}, a{k}, b{k}, c{k}, col{k}, end{k} = entries[{k}]")
        drafted = _DRAFTED.get(mk.__name__) if _ok else None
        if drafted is None or globals().get(mk.__name__) is not mk:
            body.append(f"o{k} = mk{k}(a{k}, b{k}, c{k}, file, line, col{k}, end{k})")
            continue
        draft, final, names = drafted
        body += _span_code(f"s{k}", f"col{k}", f"end{k}")
        body.append(f"o{k} = _new({draft})")
        body += [f"o{k}.{name} = {v}{k}" for name, v in zip(names, "abc") if name]
        body += [f"o{k}.span = s{k}", f"o{k}.__class__ = {final}"]
    ops = "".join(f"o{k}, " for k in range(n_ops))
    mods = "".join(f"o{k}, " for k in range(n_ops, len(makers)))
    body += _span_code("sp", "scol", "ecol") + _span_code("ms", "mcol", "mend")
    body += ["ins = _new(Instruction)", "ins.mnemonic = mnemonic", f"ins.operands = ({ops})",
             f"ins.modifiers = ({mods})", "ins.span = sp", "ins.mnemonic_span = ms", "ins.index = index",
             "return ins"]
    src = ("def factory(recipe):\n"
           "    mnemonic, mcol, mend, scol, ecol, op_parts, mod_parts = recipe\n"
           "    entries = [(mk, a, b, c, col + base, end + base) for part in (op_parts, mod_parts)\n"
           "               for ents, base in part for mk, a, b, c, col, end in ents]\n"
           + "".join(f"    {x}\n" for x in head)
           + "    def build(file, line, index):\n"
           + "".join(f"        {x}\n" for x in body)
           + "    return build\n")
    scope: dict = {}
    exec(compile(src, f"<recipe builder {len(_factories)}>", "exec"), globals(), scope)
    return scope["factory"]


def _builder(recipe):
    """The builder of a recipe (see above)."""
    if not _builders_ok or not _MEMOS:
        return lambda file, line, index: _build(recipe, file, line, index)
    op_parts, mod_parts = recipe[5], recipe[6]
    ops = tuple([e[0] for entries, _ in op_parts for e in entries])
    sig = (ops + tuple([e[0] for entries, _ in mod_parts for e in entries]), len(ops))
    factory = _factories.get(sig)
    if factory is None:
        if len(_factories) > 4096:  # (signatures are few; this only bounds a pathological file)
            return lambda file, line, index: _build(recipe, file, line, index)
        factory = _factories[sig] = _make_factory(sig)
    return factory(recipe)


_probe_recipe = ("v_add_u32", 1, 10, 1, 30, ((((_make_reg, "v", 1, 1, 11, 13), (_make_imm, 5, "0x5", None, 15, 18)), 0),
                                            (((_make_special, "vcc", None, None, 2, 5),
                                              (_make_symbol, "x", None, None, 7, 8)), 20)),
                 ((((_make_modifier, "glc", None, None, 20, 23), (_make_float, 1.0, "1.0", None, 25, 28)), 0),))
try:
    _builders_ok = _builder(_probe_recipe)("f", 3, 7) == _build(_probe_recipe, "f", 3, 7)
except Exception:  # noqa: BLE001 (any surprise: the generic _build stays)
    _builders_ok = False
_factories.clear()
if _ok and _draft_build(_probe_recipe, "f", 3, 7) == _build(_probe_recipe, "f", 3, 7):
    _build = _draft_build  # noqa: F811


# The piece path: a line is cut at its commas, and what each piece means (its operands and
# modifiers, columns relative to the piece) is computed once per mnemonic class and cached by
# the piece's text: a line is then a split and a few dictionary lookups.
#
# A piece's meaning comes from its units: words (blanks end a word, except inside brackets:
# `v[0 : 3]` is one word) with their leading blanks. What a unit means is computed by the fast
# path's tokenizer and `_fast_atom` on the word alone (no token crosses a unit boundary, so the
# tokens are the ones the whole line would give), then the units follow the rules of
# `_fast_instruction` (flags, `scc`, `off`, s_waitcnt call groups, where `-x` may start an
# operand). Only what is simple takes this path: a register, a number, a name, `name(int)`,
# `key:value`, `-x`, with no modifier before an operand, no empty piece, no comma inside
# brackets (`op_sel:[1,0]`), no call group across a comma, no trailing `scc` on a memory
# instruction. Anything else returns None and goes to `_fast_instruction` (which may hand over
# to the grammar); tests/test_parse_fastpath.py checks that both agree on every line.

_UNITS = re.compile(r"[ \t]*(?:[^ \t,\[]+(?:\[[^\[\]]*\][^ \t,\[]*)*|\[|,)")
_U_REG, _U_VAL, _U_NAME, _U_CALL, _U_KEY, _U_NEG = range(6)
_CACHE_LIMIT = 100_000  # entries per cache (the caches live across parse() calls)
_unit_cache: dict = {}  # unit text -> (kind, length, entry or modifier entry), or False
_head_cache: dict = {}  # first piece -> its meaning with the mnemonic's facts, or False
_piece_caches: dict = {}  # (memory?, scalar?, s_waitcnt?) -> {piece text -> meaning, or False}


def _unit(text: str):
    """What a unit means (columns relative to the unit's start), or False."""
    word = text.lstrip(" \t")
    off = len(text) - len(word)  # columns are 1-based: word index k is column off + k + 1
    toks = _fast_tokens(word)
    if not toks or word[-1].isspace():  # (`_fast_tokens` drops a trailing \f the line keeps)
        return False
    n = len(toks)
    kind, tok, _ = toks[0]
    if kind == "key":
        if n < 2:
            return False
        if toks[1][1] == "[":  # key:[int, int, ...], as `_fast_instruction` reads it
            j, vals = 2, []
            while j < n and (toks[j][0] == "hex" and len(toks[j][1]) < 19 or
                             toks[j][0] == "int" and (len(toks[j][1]) == 1 or toks[j][1][0] != "0" and len(toks[j][1]) < 19)):
                vals.append(int(toks[j][1], 16) if toks[j][0] == "hex" else int(toks[j][1]))
                j += 1
                if j < n and toks[j][1] == ",":
                    j += 1
                    continue
                break
            if not vals or j != n - 1 or toks[j][1] != "]":
                return False
            return (_U_KEY, len(text), (_make_modifier, tok[:-1], tuple(vals), None, off + 1, off + toks[j][2] + 1))
        r = _fast_atom(toks, 1, n, "", 0)
        if r is None or r[1] != n:
            return False
        val = r[0]
        if isinstance(val, Imm):
            v = val.value
        elif isinstance(val, (Symbol, Special, Reg)):
            v = val.text()
        else:
            return False
        return (_U_KEY, len(text), (_make_modifier, tok[:-1], v, None, off + 1, off + val.span.end_column))
    r = _fast_atom(toks, 0, n, "", 0)
    if r is None or r[1] != n:
        return False
    obj = r[0]
    t = type(obj)
    if kind == "punct":  # `-x`
        if t is not Imm and t is not FloatImm and t is not Modified:
            return False
        kind = _U_NEG
    elif t is Reg:
        kind = _U_REG
    elif t is Imm or t is FloatImm:
        kind = _U_VAL
    elif t is Special or t is Symbol:
        kind = _U_NAME
    elif t is Call:
        kind = _U_CALL
    else:
        return False
    e = _entry_of(obj)
    if e is None:
        return False
    return (kind, len(text), _relative(e, -off))


def _piece(text: str, start: int, memory: bool, scalar: bool, waitcnt: bool):
    """What the piece `text[start:]` means: (operand entries, modifier entries, has operands?,
    starts with a call?, ends with a call?, ends with an `scc` operand?), columns relative to
    the piece's start (0-based); False when it is not simple.

    The piece is read as `_fast_instruction` would after a comma (or after the mnemonic), with
    no modifier and no call before it: the line decides what these two change."""
    # not up to trailing blanks: findall would retry the blank-prefixed pattern at each blank of
    # the run (quadratic: a piece ending in 40k blanks took 25 s)
    units = _UNITS.findall(text, start, len(text.rstrip(" \t")))
    if not units:
        return False
    flags = _NO_FLAGS if scalar else FLAG_MODIFIERS
    ops: list = []
    mods: list = []
    prev_call = False  # the last operand is a call (s_waitcnt joins the next one to it)
    neg_ok = True  # a `-x` unit may start an operand here (first, or after a register)
    first_call = False
    pos = start
    for u in units:
        d = _unit_cache.get(u)
        if d is None:
            if len(_unit_cache) > _CACHE_LIMIT:
                _unit_cache.clear()
            d = _unit_cache[u] = _unit(u)
        if not d:
            return False
        kind, length, e = d
        base = pos
        pos += length
        e = _relative(e, -base)
        if kind == _U_KEY:
            mods.append(e)
            prev_call = neg_ok = False
            continue
        if kind == _U_NAME:
            name = e[1]
            if e[0] is _make_symbol and name in flags or mods and name == "scc" and memory and e[0] is _make_special:
                mods.append((_make_modifier, name, None, None, e[4], e[5]))
                prev_call = neg_ok = False
                continue
            if mods:
                return False
            if scalar and name == "off" and e[0] is _make_special:  # `off` is no address to s_ instructions
                e = (_make_symbol, "off", None, None, e[4], e[5])
            ops.append(e)
            prev_call = False
            neg_ok = e[0] is _make_special
            continue
        if kind == _U_CALL:
            if not ops and not mods:
                first_call = True
            if prev_call and waitcnt:  # `vmcnt(0) lgkmcnt(0)` is one operand
                prev = ops.pop()
                col = prev[4]
                calls = prev[1] if prev[0] is _make_group else (_relative(prev, col),)
                ops.append((_make_group, calls + (_relative(e, col),), None, None, col, e[5]))
                neg_ok = False
                continue
            if mods:
                return False
            ops.append(e)
            prev_call = True
            neg_ok = False
            continue
        if mods or kind == _U_NEG and not neg_ok:
            return False
        ops.append(e)
        prev_call = False
        neg_ok = kind == _U_REG
    ends_scc = bool(ops) and ops[-1][0] is _make_special and ops[-1][1] == "scc"
    return tuple(ops), tuple(mods), bool(ops), first_call, prev_call, ends_scc


def _head(text: str):
    """The meaning of a line's first piece: (mnemonic, column, end, memory?, scalar?, s_waitcnt?,
    the piece cache for its class, the rest of the piece's meaning or None when the mnemonic is
    alone), or False when the first word is no plain name or the rest is not simple."""
    m = _UNITS.match(text)
    if m is None:
        return False
    unit = m.group()
    word = unit.lstrip(" \t")
    toks = _fast_tokens(word)
    if not toks or len(toks) != 1 or toks[0][0] != "name" or toks[0][1] != word:
        return False
    mnemonic, memory, scalar, _ = _mnemonic_facts(word)
    waitcnt = mnemonic.startswith("s_waitcnt")
    col = len(unit) - len(word) + 1
    cache = _piece_caches.setdefault((memory, scalar, waitcnt), {})
    rest = None
    if text[m.end():].strip(" \t"):
        rest = _piece(text, m.end(), memory, scalar, waitcnt)
        if not rest:
            return False
    return mnemonic, col, col + len(word), memory, scalar, waitcnt, cache, rest


def _piece_recipe(code: str, start_col: int, end_col: int):
    """The recipe of an instruction line made of simple pieces, or None (then `_fast_instruction`)."""
    pieces = code[:end_col - 1].split(",")
    text = pieces[0]
    head = _head_cache.get(text)
    if head is None:
        if len(_head_cache) > _CACHE_LIMIT:
            _head_cache.clear()
        head = _head_cache[text] = _head(text)
    if not head:
        return None
    mnemonic, mcol, mend, memory, scalar, waitcnt, cache, rest = head
    if rest is None:
        if len(pieces) > 1:  # `s_nop ,0`: the grammar's
            return None
        return (mnemonic, mcol, mend, start_col, end_col, (), ())
    ops, mods, has_ops, _, prev_call, ends_scc = rest
    op_parts = [(ops, 0)]
    mod_parts = [(mods, 0)] if mods else []
    has_mods = bool(mods)
    base = len(text) + 1
    for text in pieces[1:]:
        d = cache.get(text)
        if d is None:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            d = cache[text] = _piece(text, 0, memory, scalar, waitcnt)
        if not d:
            return None
        ops, mods, has_ops, first_call, last_call, scc = d
        if has_ops:
            if has_mods or first_call and prev_call and waitcnt:  # the fast path's special cases
                return None
            op_parts.append((ops, base))
            ends_scc = scc
        if mods:
            mod_parts.append((mods, base))
            has_mods = True
        prev_call = last_call
        base += len(text) + 1
    if ends_scc and memory:  # a trailing `scc` is a cache-policy bit: `_fast_instruction` does that
        return None
    return (mnemonic, mcol, mend, start_col, end_col, tuple(op_parts), tuple(mod_parts))


# ------------------------------------------------------------------ scanner


def _strip_comment(text: str, in_block: bool) -> tuple[str, bool]:
    """Blank out comments (keeping columns). Returns the text and whether a /* block is still open."""
    if not in_block and '"' not in text and "/*" not in text:  # the common case: cut at ; or //
        cut = text.find(";")
        sl = text.find("//")
        if sl >= 0 and (cut < 0 or sl < cut):
            cut = sl
        return (text if cut < 0 else text[:cut]), False
    out = list(text)
    i, n = 0, len(text)
    in_str = False
    while i < n:
        ch = text[i]
        if in_block:
            if text.startswith("*/", i):
                out[i] = out[i + 1] = " "
                i += 2
                in_block = False
                continue
            out[i] = " " if ch != "\t" else "\t"
            i += 1
            continue
        if in_str:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                in_str = False
            i += 1
            continue
        if ch == '"':
            in_str = True
        elif ch == ";" or text.startswith("//", i):
            return "".join(out[:i]), False
        elif text.startswith("/*", i):
            in_block = True
            out[i] = out[i + 1] = " "
            i += 2
            continue
        i += 1
    return "".join(out), in_block


def _block_open_column(text: str) -> int:
    """1-based column of the /* that leaves a block comment open at the end of `text`."""
    col = 1
    i, n, in_str, in_block = 0, len(text), False, False
    while i < n:
        if in_block:
            if text.startswith("*/", i):
                in_block = False
                i += 2
                continue
        elif in_str:
            if text[i] == "\\":
                i += 1
            elif text[i] == '"':
                in_str = False
        elif text[i] == '"':
            in_str = True
        elif text.startswith("/*", i):
            in_block, col = True, i + 1
            i += 2
            continue
        i += 1
    return col


def _split_args(text: str) -> tuple[str, ...]:
    """Split directive arguments on top-level commas, respecting quotes and brackets."""
    args, depth, cur, in_str = [], 0, [], False
    for ch in text:
        if in_str:
            cur.append(ch)
            if ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    tail = "".join(cur).strip()
    if tail or args:
        args.append(tail)
    return tuple(args)


def _message_for(err: UnexpectedInput, text: str) -> tuple[str, int, int]:
    if isinstance(err, UnexpectedCharacters):
        col = err.column
        ch = text[col - 1] if 0 < col <= len(text) else ""
        return (f"invalid character '{ch}' in operand" if ch.isprintable() else "invalid character in input"), col, col + 1
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            col = len(text.rstrip()) + 1
            return "unexpected end of statement: operand expected", col, col + 1
        col = tok.column or 1
        if err.expected == {"VBAR"}:  # |x| holds one primary expression (`|1+1|`), as in llvm-mc
            return "expected vertical bar", col, col + 1
        return f"unexpected token '{str(tok).replace(OR_CHAR, '|')}'", col, (tok.end_column or col + 1)
    if isinstance(err, UnexpectedEOF):
        col = len(text.rstrip()) + 1
        return "unexpected end of statement", col, col + 1
    return "syntax error", 1, 2


def parse(text: str | bytes, file: str = "<input>", fast: bool = True, include_dirs=None,
          target: str | None = None) -> Program:
    """Parse assembly text. Never raises for bad input: problems become diagnostics.

    `include_dirs` are searched for `.include` files after the including file's folder
    (llvm-mc's -I); None means `INCLUDE_DIRS`, which the command line fills from its -I options.
    `target` decides llvm-mc's predefined symbols (.amdgcn.gfx_generation_number ...); None: --arch,
    else the file's .amdgcn_target, else the default.
    `fast=False` sends every instruction line through the Lark grammar (the fast
    path must give identical results; the tests compare both)."""
    was_enabled = gc.isenabled()
    gc.disable()  # the objects built here are acyclic: collector passes over a growing heap cost ~40%
    try:
        return _parse(text, file, fast, INCLUDE_DIRS if include_dirs is None else include_dirs, target)
    finally:
        if was_enabled:
            gc.enable()


# The longest line gcnemu reads, and the most operators one statement may hold (llvm-mc has no
# limit; real kernels stay far below both). A 10 MB expression took a minute and 2 GB to refuse.
MAX_LINE_CHARS = 16 << 20
MAX_OPERATORS = 50_000
_OPERATOR_CHARS = "+-*/%,|&^<>()~!"

# -I folders of the command line: where `.include` looks after the including file's own folder
INCLUDE_DIRS: list[str] = []
# --defsym NAME=VALUE of the command line, and its --arch: the symbols a file starts with are
# llvm-mc's predefined ones for that target (.amdgcn.gfx_generation_number ...) and these
DEFSYMS: dict[str, int] = {}
TARGET: str | None = None
_TARGET_DIRECTIVE = re.compile(r'^\s*\.amdgcn_target\s+"([^"]*)"', re.M)


def initial_symbols(text: str, target: str | None = None, defsyms: dict | None = None) -> dict[str, int]:
    """The symbols defined before the first line: the target's predefined ones (the target from
    the argument, --arch, the file's .amdgcn_target, else the default) and --defsym's."""
    from ..isa.targets import DEFAULT_TARGET, get_target, predefined_symbols, target_from_directive
    name = target or TARGET
    if name is None:
        m = _TARGET_DIRECTIVE.search(text)
        name = (target_from_directive(m.group(1)) if m else None) or DEFAULT_TARGET
    try:
        name = get_target(name).name
    except KeyError:
        name = DEFAULT_TARGET
    out = predefined_symbols(name)
    out.update(DEFSYMS if defsyms is None else defsyms)
    return out
_WORD = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$@]*")


def _assigned(prog: Program, env: dict, defined: set, labels: set, name: str, value) -> None:
    """Ordered assignment where the preprocessor did not run (no macros, conditionals or includes
    in the file): the scanner keeps the constant symbols itself as it reads them. `labels`: the
    label names read so far (a set, not a walk over the statements: llc's output has a `.set` per
    function resource, and the walk made a 47k-instruction file take minutes)."""
    if name in labels:
        prog.diagnostics.append(Diagnostic("error", f"redefinition of '{name}'", value.span, rule="symbol"))
        return
    if type(value) is Imm:
        env[name] = value.value
        defined.add(name)
        return
    env.pop(name, None)
    if name not in defined and name in _names_in(value):
        prog.diagnostics.append(Diagnostic("error", f"cyclic dependency detected for symbol '{name}'", value.span,
                                           rule="symbol"))
    defined.add(name)


def _names_in(x) -> set:
    if type(x) is Symbol:
        return {x.name}
    out = set()
    for a in getattr(x, "args", ()) or ():
        out |= _names_in(a)
    return out


_INDEXED = re.compile(r"\b(?:v|s|a|acc|ttmp)\[([^\[\]]*)\]")
_UNFOLDED = object()


def _fold_register_symbols(code: str, env: dict, reads: set | None = None):
    """`v[vgprValuA_X0_I0+1]` -> `v[5]`: register indices written with symbols folded to numbers
    (text, column segments back onto `code`), or None when an index is no constant here.
    `reads`, when given, receives every name the evaluated indices look up in `env`.

    Why: generated kernels (Tensile, MIOpen) name nearly every register through `.set` symbols;
    folded, such a line takes the same fast paths and statement memo as plain code instead of
    the grammar (measured: the grammar was most of check's time on a 47k-line Tensile kernel).
    The segments map the folded text's columns back, so every span points at what was written."""
    out: list[str] = []
    segs: list[tuple] = []
    pos = 0  # in code
    opos = 0  # in the output
    for m in _INDEXED.finditer(code):
        inner = m.group(1)
        if not _WORD.search(inner):
            continue
        parts = inner.split(":")
        if len(parts) > 2:
            return None
        texts = []
        for p in parts:
            v = _index_value(p, env, reads)
            if v is None:
                return None
            texts.append(v)
        if all(len(t) <= len(p) for t, p in zip(texts, parts)):
            # padded to the written width: every column stays where it was (no remapping)
            new = ":".join(t.ljust(len(p)) for t, p in zip(texts, parts))
        else:
            new = ":".join(texts)
        lo, hi = m.start(1), m.end(1)
        if lo > pos:
            out.append(code[pos:lo])
            segs.append((opos, opos + lo - pos, pos, lo, True))
            opos += lo - pos
        out.append(new)
        segs.append((opos, opos + len(new), lo, hi, False))
        opos += len(new)
        pos = hi
    if not segs:
        return None
    out.append(code[pos:])
    segs.append((opos, opos + len(code) - pos, pos, len(code), True))
    text = "".join(out)
    if len(text) == len(code) and all(s[1] - s[0] == s[3] - s[2] for s in segs):
        return text, None  # same columns throughout
    return text, tuple(segs)


_index_names: dict = {}  # index text -> the names its value reads (across parse() calls)
_index_values: dict = {}  # (index text, those names' values) -> the value's text, or None


def _index_value(p: str, env: dict, reads: set | None):
    """The text of the value of the register index `p` with the symbols of `env`, or None when
    it is no constant. Memoized by the values of the names it reads (a kernel writes the same
    few index expressions over and over, under a handful of symbol tables)."""
    names = _index_names.get(p)
    if names is None:
        if len(_index_names) > _CACHE_LIMIT:
            _index_names.clear()
        names = _index_names[p] = tuple(_expr.names(p))
    if reads is not None:
        reads.update(names)
    key = [p] if _MEMOS else None
    for n in names if key is not None else ():
        v = env.get(n, _UNFOLDED)
        if type(v) is not int and v is not _UNFOLDED:  # (keys compare by value: True == 1)
            key = None
            break
        key.append(v)
    if key is not None:
        key = tuple(key)
        text = _index_values.get(key, _UNFOLDED)
        if text is not _UNFOLDED:
            return text
    try:
        text = str(_expr.evaluate(p, env))
    except _expr.ExprError:
        text = None
    if key is not None:
        if len(_index_values) > _CACHE_LIMIT:
            _index_values.clear()
        _index_values[key] = text
    return text


def _remap_since(prog: Program, s0: int, d0: int, segs) -> None:
    """Spans of the statements and diagnostics made since (s0, d0) from folded text onto the
    written text's columns."""
    stmts, diags = prog.statements, prog.diagnostics
    for k in range(s0, len(stmts)):
        stmts[k] = _remap(stmts[k], segs)
    for k in range(d0, len(diags)):
        if diags[k].span is not None:
            diags[k].span = _remap(diags[k].span, segs)


def _plain_source(prog: Program, file: str, pend: list):
    """(line, text, file, symbols) of each line of a file the preprocessor did not need to touch;
    after a line, spans of a folded statement go back onto the written columns (`pend`)."""
    stmts, diags = prog.statements, prog.diagnostics
    for k, t in enumerate(prog.lines, start=1):
        s0, d0 = len(stmts), len(diags)
        yield k, t, file, None
        if pend[0] is not None:
            _remap_since(prog, s0, d0, pend[0])
            pend[0] = None


def _changed_names(old: dict, new: dict) -> list:
    """The names whose value (or presence) differs between two symbol tables."""
    miss = _UNFOLDED
    out = [k for k, v in new.items() if (o := old.get(k, miss)) is not v and (type(o) is not type(v) or o != v)]
    out += [k for k in old if k not in new]
    return out


def _names_symbol(code: str, env: dict) -> bool:
    """Does the statement read a symbol that has a constant value here? (Such lines bypass the
    statement memo and the fast paths: the same text means another value elsewhere.)"""
    return not env.keys().isdisjoint(_WORD.findall(code))


def _forget(cache: dict, users: dict, pending: list, names) -> None:
    """Drop from the fold cache the texts that name any of `names` (symbols whose value or
    presence changed). `users` (name -> texts naming it) is brought up to date first with the
    (text, names) pairs `pending` holds: it is built only when some symbol changes (a file
    that assigns its symbols before its code never needs it)."""
    if not names:
        return
    for code, words in pending:
        for w in words:
            texts = users.get(w)
            if texts is None:
                users[w] = [code]
            else:
                texts.append(code)
    pending.clear()
    for name in names:
        for code in users.pop(name, ()):
            cache.pop(code, None)


def _parse(text: str | bytes, file: str, fast: bool, include_dirs=(), target: str | None = None) -> Program:
    if isinstance(text, bytes):
        decoded = text.decode("utf-8", errors="replace")
    else:
        decoded = text
    if decoded.startswith("\ufeff"):
        decoded = decoded[1:]
    if "\r" in decoded:  # CRLF, and a lone CR (old Mac), end a line as in llvm-mc
        decoded = decoded.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in decoded:  # llvm-mc's lexer takes NUL for a blank
        decoded = decoded.replace("\x00", " ")
    lines = decoded.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    prog = Program(file=file, lines=lines)
    if len(decoded) > MAX_LINE_CHARS and any(len(t) > MAX_LINE_CHARS for t in lines):
        # refused up front: parsing a megabyte-long expression takes minutes and gigabytes
        for k, t in enumerate(lines, start=1):
            if len(t) > MAX_LINE_CHARS:
                prog.diagnostics.append(Diagnostic("error", f"line is {len(t)} characters long; gcnemu reads lines "
                                                   f"of at most {MAX_LINE_CHARS}", Span(file, k, 1, k, 2),
                                                   rule="input-limit"))
        return prog
    instr_parser, expr_parser, builder = _INSTR_PARSER, _EXPR_PARSER, _transformer()
    builder.file = file
    in_comment = False
    comment_open = (1, 1)  # (line, column) of the /* of an open block comment
    block_end: str | None = None
    block: Directive | None = None
    block_body: list[str] = []
    count = 0
    memo: dict = {}  # statement text -> its recipe (or Instruction): identical text parses identically
    memo_hits = 0
    expanded = needs_expansion(decoded)
    pend: list = [None]  # column segments of the line just folded (see _fold_register_symbols)
    start_symbols = initial_symbols(decoded, target)
    if expanded:  # .macro, .rept, .if, .include...: what llvm-mc would assemble
        ex = preprocess(prog.lines, file, include_dirs, symbols=start_symbols)
        prog.diagnostics.extend(ex.diagnostics)
        prog.sources = ex.sources
        prog.include_sites = ex.include_sites
        prog.incbins = ex.incbins
        source = _expanded_source(prog, ex.lines, ex.include_sites, ex.env_marks, pend)
    else:
        source = _plain_source(prog, file, pend)
    memos = {file: memo}
    kernel_block = False  # inside .amdhsa_kernel ... .end_amdhsa_kernel
    # without the preprocessor, the scanner keeps the constant symbols itself, in order
    own_env: dict | None = None if expanded else dict(start_symbols)
    fold_env = None  # the symbols fold_cache was made with
    # statement text -> (its folding or None (see _fold_register_symbols), does only the grammar
    # read it): a pure function of the symbols the text names, so when the symbols change
    # (a .set) only the entries that name a changed symbol go (see _forget)
    fold_cache: dict = {}
    fold_users: dict = {}
    fold_pending: list = []
    own_defined: set = set()
    label_names: set = set()  # every label so far: `_assigned` checks a symbol against them
    shapes: dict = {}  # line text -> _line_shape(text)
    memos_on = _MEMOS
    uses: dict = {}  # statement text -> how often its recipe was used (see _PROMOTE)
    promote = _PROMOTE if memos_on else 1 << 62
    for lineno, raw, file, env in source:
        if file is not builder.file:
            builder.file = file
            memo = memos.setdefault(file, {})
        if own_env is not None:
            env = own_env
        builder.env = env or {}
        if block_end is not None:
            if raw.strip().lower().startswith(block_end):
                block.body = tuple(block_body)
                block_end, block, block_body = None, None, []
            else:
                block_body.append(raw)
            continue
        shape = None
        if not in_comment and memos_on:  # what the steps below make of a line depends on its text alone
            shape = shapes.get(raw)
            if shape is None:
                shape = shapes[raw] = _line_shape(raw)
            if shape is _BLANK:
                continue
        if shape is not None and shape is not _OTHER:
            if len(shape) == 3:  # an instruction
                code, start_col, end_col = shape
            else:  # a directive (as the last steps of the directive branch below)
                dname, start_col, end, args = shape
                if not directives.known(dname, kernel_block):
                    prog.diagnostics.append(Diagnostic("error", "unknown directive",
                                                       Span(file, lineno, start_col, lineno, end)))
                    continue
                if dname == ".amdhsa_kernel":
                    kernel_block = True
                elif dname == ".end_amdhsa_kernel":
                    kernel_block = False
                d = Directive(dname, args, _line_span(file, lineno, start_col, end))
                prog.statements.append(d)
                if dname in _BLOCKS and _BLOCKS[dname]:
                    block_end, block, block_body = _BLOCKS[dname], d, []
                continue
        else:
            if "\ufffd" in raw and not in_comment:
                col = raw.index("\ufffd") + 1
                code, _ = _strip_comment(raw, False)
                if "\ufffd" in code:
                    prog.diagnostics.append(Diagnostic("error", "invalid character in input (not UTF-8 text)",
                                                       Span(file, lineno, col, lineno, col + 1)))
                    continue
            if "#" in raw and raw.lstrip().startswith("#"):
                continue  # preprocessor line markers
            if in_comment:
                code, in_comment = _strip_comment(raw, True)
            else:
                code, in_comment = _strip_comment(raw, False)
                if in_comment:  # a /* left open: llvm-mc reports it where it opens
                    comment_open = (lineno, _block_open_column(raw))
            stripped = code.strip()
            if not stripped:
                continue
            # labels (several may precede a statement)
            while ":" in code:
                m = _LABEL_RE.match(code)
                if not m:
                    break
                name = m.group(1).strip('"')
                col = m.start(1) + 1
                prog.statements.append(Label(name, Span(file, lineno, col, lineno, m.end(1) + 1)))
                label_names.add(name)
                code = " " * m.end() + code[m.end():]
                stripped = code.strip()
            if not stripped:
                continue
            start_col = len(code) - len(code.lstrip()) + 1
            if len(stripped) > MAX_OPERATORS and sum(map(stripped.count, _OPERATOR_CHARS)) > MAX_OPERATORS:
                prog.diagnostics.append(Diagnostic("error", f"statement has more than {MAX_OPERATORS} operators; gcnemu "
                                                   "reads no longer expressions", Span(file, lineno, start_col, lineno,
                                                                                       start_col + 1), rule="input-limit"))
                continue
            # assignments: `name = expr`
            m = _SET_RE.match(code) if "=" in code else None
            if m:  # (`.amdgcn.next_free_vgpr = 32`: a symbol may start with a dot)
                value = _parse_expr(expr_parser, builder, code, m.end(), lineno, prog)
                if value is not None:
                    prog.statements.append(Assignment(m.group(1), value,
                                                      Span(file, lineno, start_col, lineno, len(code.rstrip()) + 1)))
                    if own_env is not None:
                        _assigned(prog, own_env, own_defined, label_names, m.group(1), value)
                        _forget(fold_cache, fold_users, fold_pending, (m.group(1),))
                continue
            if stripped.startswith("."):
                head = stripped.split(None, 1)
                dname = head[0].lower()
                rest = head[1] if len(head) > 1 else ""
                sp = Span(file, lineno, start_col, lineno, start_col + len(head[0]))
                if dname in (".set", ".equ", ".equiv"):
                    args = _split_args(rest)
                    if len(args) != 2 or not args[0]:
                        prog.diagnostics.append(Diagnostic("error", f"expected 'name, value' after {dname}", sp))
                        continue
                    value_col = code.index(",", start_col + len(head[0]) - 1) + 1
                    value = _parse_expr(expr_parser, builder, code, value_col, lineno, prog)
                    if value is not None:
                        prog.statements.append(Assignment(args[0], value, sp))
                        if own_env is not None:
                            _assigned(prog, own_env, own_defined, label_names, args[0], value)
                            _forget(fold_cache, fold_users, fold_pending, (args[0],))
                    continue
                if not directives.known(dname, kernel_block):
                    prog.diagnostics.append(Diagnostic("error", "unknown directive", Span(file, lineno, start_col, lineno,
                                                                                             start_col + len(head[0]))))
                    continue
                if dname == ".amdhsa_kernel":
                    kernel_block = True
                elif dname == ".end_amdhsa_kernel":
                    kernel_block = False
                d = Directive(dname, _split_args(rest), sp)
                prog.statements.append(d)
                if dname in _BLOCKS and _BLOCKS[dname]:
                    block_end, block, block_body = _BLOCKS[dname], d, []
                continue
            end_col = len(code.rstrip()) + 1
        grammar = False
        if env and "lit" not in code:
            if env is not fold_env:  # other symbol values: the foldings that read them go
                if fold_env is not None and fold_cache:
                    _forget(fold_cache, fold_users, fold_pending, _changed_names(fold_env, env))
                fold_env = env
            hit = fold_cache.get(code) if memos_on else None
            if hit is None:
                words = _WORD.findall(code)
                folded = None
                if not env.keys().isdisjoint(words):
                    reads = set(words)
                    folded = _fold_register_symbols(code, env, reads)
                    # a symbol outside the register indices (or an index that is no constant):
                    # the grammar reads it
                    grammar = folded is None or _names_symbol(folded[0], env)
                    if grammar:
                        folded = None
                    words = reads
                hit = fold_cache[code] = (folded, grammar)
                fold_pending.append((code, words))
            folded, grammar = hit
            if folded is not None:
                code, pend[0] = folded  # parsed as plain code; its spans go back after the line
                end_col = len(code.rstrip()) + 1
        elif "lit" in code:
            grammar = True
        if grammar:
            # `lit(...)` forced literals, and symbols folded into operands: only the grammar builds
            # them, and no memo (the same text holds another value elsewhere)
            ins = _grammar_instruction(instr_parser, builder, code, file, lineno, start_col, prog)
            if ins is not None:
                ins.span = Span(file, lineno, start_col, lineno, end_col)
                ins.index = count
                count += 1
                prog.statements.append(ins)
            continue
        cached = memo.get(code)
        if cached is not None:  # a recipe, its builder, or an Instruction recipes do not describe
            memo_hits += 1
            t = type(cached)
            if t is _Function:
                ins = cached(file, lineno, count)
            elif t is tuple:
                n = uses.get(code, 1) + 1
                if n >= promote:
                    build = memo[code] = _builder(cached)
                    ins = build(file, lineno, count)
                else:
                    uses[code] = n
                    ins = _build(cached, file, lineno, count)
            else:
                ins = _relocate_instruction(cached, lineno, count)
            count += 1
            prog.statements.append(ins)
            continue
        if fast:
            recipe = _piece_recipe(code, start_col, end_col)
            if recipe is not None:
                memo[code] = recipe
                prog.statements.append(_build(recipe, file, lineno, count))
                count += 1
                continue
        ins = _fast_instruction(code, file, lineno) if fast else None
        if ins is not None:
            ins.span = _Span(file, lineno, start_col, lineno, end_col)
            ins.index = count
            memo[code] = _recipe_of(ins, start_col, end_col) or ins
            count += 1
            prog.statements.append(ins)
            continue
        try:
            builder.line = lineno
            ins = instr_parser.parse(_mark_or(code) if "|" in code else code)
        except ParseError as e:
            prog.diagnostics.append(Diagnostic("error", e.message, Span(file, lineno, e.column, lineno, e.end_column)))
            continue
        except VisitError as e:  # a ParseError raised inside the transformer
            inner = e.orig_exc
            if isinstance(inner, ParseError):
                prog.diagnostics.append(Diagnostic("error", inner.message,
                                                   Span(file, lineno, inner.column, lineno, inner.end_column)))
            else:
                prog.diagnostics.append(Diagnostic("error", f"cannot parse statement: {inner}",
                                                   Span(file, lineno, start_col, lineno, start_col + 1)))
            continue
        except UnexpectedInput as e:
            msg, col, end = _message_for(e, code)
            prog.diagnostics.append(Diagnostic("error", msg, Span(file, lineno, col, lineno, end)))
            continue
        except RecursionError:
            prog.diagnostics.append(Diagnostic("error", "expression nested too deeply",
                                               Span(file, lineno, start_col, lineno, start_col + 1)))
            continue
        ins.span = Span(file, lineno, start_col, lineno, end_col)
        ins.index = count
        memo[code] = _recipe_of(ins, start_col, end_col) or ins
        count += 1
        prog.statements.append(ins)
    if block_end is not None and block is not None:
        block.body = tuple(block_body)
        prog.diagnostics.append(Diagnostic("error", f"missing {block_end} for {block.name}", block.span))
    if in_comment:
        ln, col = comment_open
        prog.diagnostics.append(Diagnostic("error", "unterminated comment", Span(file, ln, col, ln, col + 2)))
    last_stats.update(instructions=count, memo_hits=memo_hits, lines=len(prog.lines))
    return prog


_BLANK = "blank"  # a line with no statement
_OTHER = "other"  # a line that takes the scanner's every step


def _line_shape(raw: str):
    """What `_parse`'s scanner makes of a line read outside a block comment, as far as it
    depends on the text alone: _BLANK (nothing), (code, start column, end column) for an
    instruction (no label or assignment), (name, start column, end column of the name,
    arguments) for a directive other than .set/.equ/.equiv, else _OTHER. Lines repeat a lot
    in generated kernels (a 47k-line Tensile kernel has 7.4k distinct lines, a 100k-line one
    of `.long` words 3.4k)."""
    if "\ufffd" in raw:
        return _OTHER
    if "#" in raw and raw.lstrip().startswith("#"):
        return _BLANK  # preprocessor line markers
    code, in_comment = _strip_comment(raw, False)
    if in_comment:
        return _OTHER
    stripped = code.strip()
    if not stripped:
        return _BLANK
    if ":" in code and _LABEL_RE.match(code) or len(stripped) > MAX_OPERATORS:
        return _OTHER
    if "=" in code and _SET_RE.match(code):
        return _OTHER
    start_col = len(code) - len(code.lstrip()) + 1
    if stripped.startswith("."):
        head = stripped.split(None, 1)
        dname = head[0].lower()
        if dname in (".set", ".equ", ".equiv"):
            return _OTHER
        return dname, start_col, start_col + len(head[0]), _split_args(head[1] if len(head) > 1 else "")
    return code, start_col, len(code.rstrip()) + 1


def _grammar_instruction(instr_parser: Lark | _OnFirstParse, builder: _Builder, code: str, file: str, lineno: int, start_col: int,
                         prog: Program):
    """One statement through the grammar, its errors as diagnostics (None then)."""
    builder.line = lineno
    builder.code = code
    try:
        return instr_parser.parse(_mark_or(code) if "|" in code else code)
    except ParseError as e:
        prog.diagnostics.append(Diagnostic("error", e.message, Span(file, lineno, e.column, lineno, e.end_column)))
    except VisitError as e:
        inner = e.orig_exc
        if isinstance(inner, ParseError):
            prog.diagnostics.append(Diagnostic("error", inner.message,
                                               Span(file, lineno, inner.column, lineno, inner.end_column)))
        else:
            prog.diagnostics.append(Diagnostic("error", f"cannot parse statement: {inner}",
                                               Span(file, lineno, start_col, lineno, start_col + 1)))
    except UnexpectedInput as e:
        msg, col, end = _message_for(e, code)
        prog.diagnostics.append(Diagnostic("error", msg, Span(file, lineno, col, lineno, end)))
    except RecursionError:
        prog.diagnostics.append(Diagnostic("error", "expression nested too deeply",
                                           Span(file, lineno, start_col, lineno, start_col + 1)))
    finally:
        builder.code = ""
    return None


def _expanded_source(prog: Program, items, sites=None, marks=(), pend=(None,)):
    """(line, text, file, symbols) of each expanded line, for the scanner loop of `_parse`.

    After the loop has handled a line (when it asks for the next one), the statements and
    diagnostics it produced are moved from the expanded text's columns onto the source
    line's (the macro body line: that is what a diagnostic shows), diagnostics get llvm-mc's
    "while in macro instantiation" notes, and instructions are recorded in `prog.expansions`."""
    stmts, diags = prog.statements, prog.diagnostics
    env = None
    mark = 0
    for k, it in enumerate(items):
        while mark < len(marks) and marks[mark][0] <= k:
            env = marks[mark][1]
            mark += 1
        s0, d0 = len(stmts), len(diags)
        yield it.line, it.text, it.file or prog.file, env
        if pend[0] is not None:  # a folded line's spans first (they are in the folded text's columns)
            _remap_since(prog, s0, d0, pend[0])
            pend[0] = None
        if it.cols is not None:
            for k in range(s0, len(stmts)):
                stmts[k] = _remap(stmts[k], it.cols)
            for k in range(d0, len(diags)):
                d = diags[k]
                if d.span is not None:
                    d.span = _remap(d.span, it.cols)
        if it.file is not None and len(diags) > d0 and sites:
            notes = include_notes(it.file, sites)
            for k in range(d0, len(diags)):
                diags[k].notes = list(diags[k].notes) + notes
        if it.chain:
            if len(diags) > d0:
                notes = instantiation_notes(prog.file, it.chain, prog.lines)
                for k in range(d0, len(diags)):
                    diags[k].notes = notes + list(diags[k].notes)
            for k in range(s0, len(stmts)):
                if isinstance(stmts[k], Instruction):
                    prog.expansions[stmts[k].index] = it.chain


def _remap(obj, segs):
    """`obj` with every span's columns mapped through `segs` (see `macros.map_columns`)."""
    if type(obj) is tuple:
        return tuple([_remap(o, segs) for o in obj])
    if type(obj) is Span:
        col, end = map_columns(segs, obj.column, obj.end_column)
        return Span(obj.file, obj.line, col, obj.end_line, end)
    if not is_dataclass(obj) or isinstance(obj, type):
        return obj
    changes = {}
    for f in fields(obj):
        v = getattr(obj, f.name)
        if type(v) is tuple or type(v) is Span or is_dataclass(v) and not isinstance(v, type):
            changes[f.name] = _remap(v, segs)
    return replace(obj, **changes)


# counters of the last parse() call (the benchmark reports the statement memo's hit rate)
last_stats: dict[str, int] = {}


def _parse_expr(expr_parser: Lark | _OnFirstParse, builder: _Builder, code: str, start: int, lineno: int, prog: Program):
    text = " " * start + code[start:]
    builder.line = lineno
    try:
        return expr_parser.parse(_mark_or(text, expression=True) if "|" in text else text)
    except (ParseError, VisitError, UnexpectedInput, RecursionError) as e:
        inner = e.orig_exc if isinstance(e, VisitError) else e
        if isinstance(inner, ParseError):
            msg, col, end = inner.message, inner.column, inner.end_column
        elif isinstance(inner, UnexpectedInput):
            msg, col, end = _message_for(inner, text)
        else:
            msg, col, end = "invalid expression", start + 1, start + 2
        prog.diagnostics.append(Diagnostic("error", msg, Span(prog.file, lineno, col, lineno, end)))
        return None


def parse_file(path: str | os.PathLike) -> Program:
    """Read and parse a file; '-' reads standard input."""
    import sys
    if str(path) == "-":
        data = sys.stdin.buffer.read()
        return parse(data, "<stdin>")
    data = Path(path).read_bytes()
    return parse(data, str(path))
