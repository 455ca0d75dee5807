"""The grammar bridge: statements through the Lark LALR grammar in `grammars/gcn.lark`.

Used for every statement the faster paths decline: expressions (`s_mov_b32 s0, 1+2*x`), `|x|`,
`lit(...)`, lists (`op_sel:[1,0]`), symbols with constant values, `=`/`.set` values, and every
line with an error (only the grammar reports llvm-mc's messages and columns). It is the
reference the other paths must agree with; they exist only for speed.

`_Builder` is a transformer applied while the LALR parser reduces (no parse tree is kept), so
objects come out with their spans. Lark is imported, and the two parsers built, when a line
first needs them (see `_parsers`).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from . import expr as _expr
from ..isa import buffer_formats
from .diagnostics import Diagnostic
from .program import (
    Call, CallGroup, Expr, FloatImm, Imm, Instruction, Modified, Modifier, Program, Reg, RegList, Special, Span,
    Symbol,
)
from .syntax import (
    _MEMORY_PREFIXES, _NO_FLAGS, _RANGE_RE, _REG_RE, FLAG_MODIFIERS, LEGACY_FORMAT, SPECIAL_REGISTERS, a16_modifier,
)

if TYPE_CHECKING:
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput


# llvm-mc's (GNU) precedence: * / % << >> above | & ^ above + - (`1+2^3` is 2, `1+3&6` is 3)
_PREC = {"*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6, "|": 5, "&": 5, "^": 5, "+": 4, "-": 4,
         "==": 3, "!=": 3, "<>": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "&&": 2, "||": 1}
# Bitwise or: the bar is also the absolute-value modifier, so `_mark_or` rewrites each bar
# that is an or to this character (a lone surrogate: never in decoded text) for the grammar.
OR_CHAR = "\ud801"
_U64 = 1 << 64
_OUT_OF_RANGE = "literal value out of range for directive"  # llvm-mc 22's words

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
        elif isinstance(val, RegList) and key == "format":
            v = self._split_format(val, t.end_column + 1)
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

    def _split_format(self, val: RegList, empty_column: int) -> int:
        """`format:[BUF_DATA_FORMAT_x, BUF_NUM_FORMAT_y]` (either order, either one left out: its
        default) -> the FORMAT field llvm-mc encodes, with llvm-mc's messages for anything else
        (AMDGPUAsmParser::parseSymbolicSplitFormat; the names: isa/buffer_formats.py). The value
        is the same number `format:N` writes, so both spellings build the same modifier."""
        items = val.items
        if not items:
            raise ParseError("expected a format string", empty_column, empty_column + 1)
        dfmt = nfmt = None
        for k, item in enumerate(items):
            sp = item.span
            if k == 2:  # at the comma after the second name
                end = items[1].span.end_column
                raise ParseError("expected a closing square bracket", end, end + 1)
            if type(item) is not Symbol:
                raise ParseError("expected a format string", sp.column, sp.end_column)
            name = item.name
            if name in buffer_formats.DATA_FORMATS:
                if dfmt is not None:
                    raise ParseError("duplicate data format", sp.column, sp.end_column)
                dfmt = buffer_formats.DATA_FORMATS[name]
            elif name in buffer_formats.NUM_FORMATS:
                if nfmt is not None:
                    raise ParseError("duplicate numeric format", sp.column, sp.end_column)
                nfmt = buffer_formats.NUM_FORMATS[name]
            elif name.startswith(buffer_formats.UNIFIED_PREFIX):
                raise ParseError("unified format is not supported on this GPU", sp.column, sp.end_column)
            else:
                raise ParseError("unsupported format", sp.column, sp.end_column)
        return buffer_formats.encode(buffer_formats.DFMT_DEFAULT if dfmt is None else dfmt,
                                     buffer_formats.NFMT_DEFAULT if nfmt is None else nfmt)

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
                if type(item) is Reg and a16_modifier(mnemonic, item, operands, modifiers):
                    modifiers.append(Modifier("a16", None, item.span))
                    prev_call = False
                    continue
                if isinstance(item, Call) and prev_call and mnemonic.startswith("s_waitcnt"):
                    prev = operands.pop()
                    calls = prev.calls if isinstance(prev, CallGroup) else (prev,)
                    operands.append(CallGroup(calls + (item,), Span(self.file, self.line, prev.span.column,
                                                                     self.line, item.span.end_column)))
                    continue
                if modifiers and not (len(operands) == 3 and mnemonic.startswith("tbuffer_") and
                                      all(m.name in LEGACY_FORMAT for m in modifiers)):
                    # (MTBUF's soffset may follow its legacy `dfmt:N nfmt:M`)
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
def _parsers() -> tuple[Lark, Lark]:
    """The instruction and the expression parser, built when a statement first needs the grammar.
    Why then: importing lark takes ~70 ms and building both parsers (grammar analysis, LALR
    tables) ~0.1 s of every command, and most files never reach the grammar (the scanner's
    other paths build every line of typical kernels). lark-cython, when installed, roughly
    doubles their speed."""
    from lark import Lark
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
    return instr, expr


def _message_for(err: UnexpectedInput, text: str) -> tuple[str, int, int]:
    """llvm-mc's message and columns for a syntax error the grammar found."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
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


def parse_instruction(code: str, file: str, lineno: int, start_col: int, prog: Program,
                      call_text: bool = True) -> Instruction | None:
    """One statement through the grammar, its errors as diagnostics (None then).

    `call_text`: the source text of a folded expression-function call (`max(1, 2)`) is kept in
    its Imm, and `lit(...)` sees the statement. The scanner's last resort for plain statements
    passes False: their Imm keeps no call text (what the statement memo has always recorded)."""
    from lark.exceptions import UnexpectedInput, VisitError  # (lark is imported when first needed: _parsers)
    builder = _transformer()
    builder.line = lineno
    if call_text:
        builder.code = code
    try:
        return _parsers()[0].parse(_mark_or(code) if "|" in code else code)
    except ParseError as e:
        prog.diagnostics.append(Diagnostic("error", e.message, Span(file, lineno, e.column, lineno, e.end_column)))
    except VisitError as e:  # a ParseError raised inside the transformer
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


def parse_expression(code: str, start: int, lineno: int, prog: Program):
    """The value of an assignment (`x = 1+2`, `.set x, 1+2`): `code` from index `start` through the
    grammar, its errors as diagnostics (None then)."""
    from lark.exceptions import UnexpectedInput, VisitError  # (lark is imported when first needed: _parsers)
    text = " " * start + code[start:]
    _transformer().line = lineno
    try:
        return _parsers()[1].parse(_mark_or(text, expression=True) if "|" in text else text)
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

