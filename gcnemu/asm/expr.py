"""Integer expressions as llvm-mc evaluates them: one evaluator for the whole front end.

The preprocessor evaluates `.set`/`=`/`.equ` values, `.if`/`.rept` operands and (through the
parser) register indices and operand expressions with it, always against the symbol values in
force at that point of the file, so a symbol reassigned inside a `.rept` body takes each value in
turn, exactly as llvm-mc's ordered assignment does.

Semantics, each checked against llvm-mc 22:
- 64-bit two's complement; results wrap; `/` and `%` truncate toward zero; `>>` is a logical
  shift; shift counts are taken mod 64 (the x86 host llvm-mc runs on does that);
- GNU precedence (not C's): `* / % << >>` bind tighter than `| & ^`, which bind tighter than
  `+ -`, then comparisons, `&&`, `||` (`1+2^3` is 2);
- comparisons give -1 for true (all ones), 0 for false; `!x` gives 1 or 0;
- numbers: decimal, `0x` hex, `0b` binary, leading-0 octal, `'c'` characters, with the integer
  suffixes llvm-mc skips (`0x20000001L`, `7U`, `1ULL`);
- the AMDGPU functions llc writes into resource symbols: `max`, `or`, `alignto`, `extrasgprs`,
  `totalnumvgprs` (see `FUNCTIONS`).

Errors are `ExprError(message, offset)`; an unknown symbol is `Unresolved` (a subclass), which
callers may treat as "not a constant yet" (a forward reference or a label) rather than an error.
"""
from __future__ import annotations

import re
from typing import Callable, Mapping

_U64 = 1 << 64
_MASK = _U64 - 1

# llvm-mc's GNU-mode binary precedence (higher binds tighter)
PRECEDENCE = {"*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6, "|": 5, "&": 5, "^": 5, "+": 4, "-": 4,
              "==": 3, "!=": 3, "<>": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "&&": 2, "||": 1}

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}

IDENT = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$@]*")
_TOKEN = re.compile(r"""\s*(?:
    (?P<num>0[xX][0-9A-Fa-f]+|0[bB][01]+|[0-9]+)(?P<sfx>(?:[uU]?[lL]{0,2}|[lL]{1,2}[uU]?))(?![A-Za-z0-9_])
  | (?P<chr>'(?:\\.|[^\\'])')
  | (?P<id>[A-Za-z_.$][A-Za-z0-9_.$@]*)
  | (?P<op><<|>>|<=|>=|==|!=|<>|&&|\|\||[-+*/%|&^<>!~(),])
  )""", re.X)


class ExprError(Exception):
    """A malformed expression; `offset` is the 0-based column in the text where it was seen."""

    def __init__(self, message: str, offset: int = 0, end: int | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.end = end if end is not None else offset + 1


class Unresolved(ExprError):
    """The expression names a symbol with no constant value (yet): a label, a forward
    reference, or an external symbol."""

    def __init__(self, name: str, offset: int = 0):
        super().__init__(f"expected absolute expression ('{name}' has no constant value here)", offset,
                         offset + len(name))
        self.name = name


def wrap(r: int) -> int:
    """An integer as llvm-mc's int64_t holds it."""
    if -(1 << 63) <= r < (1 << 63):
        return r
    return ((r + (1 << 63)) & _MASK) - (1 << 63)


def binary(op: str, a: int, b: int) -> int:
    """`a op b` with llvm-mc's integer semantics (see the module docstring)."""
    if op == "+":
        r = a + b
    elif op == "-":
        r = a - b
    elif op == "*":
        r = a * b
    elif op in ("/", "%"):
        if b == 0:
            raise ExprError("division by zero")
        q = abs(a) // abs(b)
        if op == "/":
            r = q if (a >= 0) == (b >= 0) else -q
        else:
            r = abs(a) - q * abs(b)
            r = r if a >= 0 else -r
    elif op == "<<":
        r = a << (b & 63)
    elif op == ">>":
        r = (a & _MASK) >> (b & 63)
    elif op == "^":
        r = a ^ b
    elif op == "|":
        r = a | b
    elif op == "&":
        r = a & b
    elif op in _COMPARE:  # true is all ones, as in llvm-mc
        return -1 if _COMPARE[op](a, b) else 0
    elif op == "&&":
        return int(bool(a) and bool(b))
    elif op == "||":
        return int(bool(a) or bool(b))
    else:
        raise ExprError(f"unknown operator '{op}'")
    return wrap(r)


def _align_to(x: int, a: int) -> int:
    if a <= 0:
        raise ExprError("alignto: alignment must be positive")
    return wrap(-(-x // a) * a)


def _extra_sgprs(target: str | None, vcc: int, flat_scratch: int, xnack: int = 0) -> int:
    """SGPRs the hardware reserves beyond the kernel's own (LLVM's IsaInfo::getNumExtraSGPRs for
    gfx9: VCC takes 2; XNACK 4; flat scratch, or an architected flat scratch (gfx940+), 6)."""
    extra = 2 if vcc else 0
    if xnack:
        extra = 4
    if flat_scratch or (target or "") in ("gfx942", "gfx950"):
        extra = 6
    return extra


def _total_vgprs(target: str | None, agprs: int, vgprs: int) -> int:
    """VGPRs a wave allocates: on gfx90a+ AGPRs follow the VGPRs at a 4-aligned offset (LLVM's
    getTotalNumVGPRs), on gfx908 the two files are separate and the larger one counts."""
    if (target or "gfx90a") == "gfx908":
        return max(agprs, vgprs)
    return _align_to(vgprs, 4) + agprs if agprs else vgprs


def _max(target, *args: int) -> int:
    return max(args)


def _or(target, *args: int) -> int:
    r = 0
    for a in args:
        r |= a
    return wrap(r)


# name -> (minimum argument count, maximum (None: any), function(target, *args))
FUNCTIONS: dict[str, tuple[int, int | None, Callable[..., int]]] = {
    "max": (1, None, _max),
    "or": (1, None, _or),
    "alignto": (2, 2, lambda t, x, a: _align_to(x, a)),
    "extrasgprs": (2, 3, _extra_sgprs),
    "totalnumvgprs": (2, 2, _total_vgprs),
}


def parse_int(text: str) -> int:
    """A number token as llvm-mc reads it (suffixes skipped, leading 0 octal)."""
    t = text.rstrip("uUlL")
    if t[:2] in ("0x", "0X"):
        v = int(t[2:], 16)
    elif t[:2] in ("0b", "0B"):
        v = int(t[2:], 2)
    elif len(t) > 1 and t[0] == "0":
        if "8" in t or "9" in t:
            raise ExprError("invalid octal number")
        v = int(t, 8)
    else:
        v = int(t)
    if v >= _U64:
        raise ExprError("literal value out of range")
    return wrap(v)


def _char_value(tok: str) -> int:
    body = tok[1:-1]
    if body.startswith("\\"):
        esc = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39, '"': 34}
        return esc.get(body[1], ord(body[1]))
    return ord(body)


def tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, offset) tokens of an expression; ExprError at the first character that
    starts no token."""
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            if text[pos:].strip() == "":
                break
            k = pos + len(text[pos:]) - len(text[pos:].lstrip())
            raise ExprError(f"unknown token in expression", k)
        kind = m.lastgroup if m.lastgroup != "sfx" else "num"
        if m.group("num") is not None:
            kind = "num"
        start = m.start(kind if kind != "num" else "num")
        value = m.group(0).strip()
        out.append((kind, value, start))
        pos = m.end()
    return out


def evaluate(text: str, env: Mapping[str, int], target: str | None = None, base: int = 0) -> int:
    """The value of `text` with symbols from `env` (ExprError / Unresolved otherwise).

    `base` is added to error offsets, so a caller can pass a slice of a line and still get the
    line's column."""
    toks = tokens(text)
    if not toks:
        raise ExprError("expected expression", base + len(text))
    pos = 0

    def peek() -> tuple[str, str, int] | None:
        return toks[pos] if pos < len(toks) else None

    def primary() -> int:
        nonlocal pos
        t = peek()
        if t is None:
            raise ExprError("unexpected end of expression", base + len(text))
        kind, val, off = t
        pos += 1
        if kind == "num":
            try:
                return parse_int(val)
            except ExprError as e:
                raise ExprError(e.message, base + off, base + off + len(val)) from None
        if kind == "chr":
            return _char_value(val)
        if kind == "id":
            nxt = peek()
            if nxt is not None and nxt[1] == "(" and val.lower() in FUNCTIONS:
                return call(val.lower(), off)
            if val in env:
                v = env[val]
                if isinstance(v, int):
                    return v
            raise Unresolved(val, base + off)
        if val == "(":
            v = expr(0)
            close = peek()
            if close is None or close[1] != ")":
                raise ExprError("expected ')' in parentheses expression",
                                base + (close[2] if close else len(text)))
            pos += 1
            return v
        if val == "-":
            return wrap(-primary())
        if val == "+":
            return primary()
        if val == "~":
            return wrap(~primary())
        if val == "!":
            return int(not primary())
        raise ExprError("unknown token in expression", base + off, base + off + len(val))

    def call(name: str, off: int) -> int:
        nonlocal pos
        pos += 1  # the "("
        args = []
        if peek() is not None and peek()[1] == ")":
            pos += 1
        else:
            while True:
                args.append(expr(0))
                t = peek()
                if t is None:
                    raise ExprError("expected ')' in function call", base + len(text))
                pos += 1
                if t[1] == ")":
                    break
                if t[1] != ",":
                    raise ExprError("expected ',' or ')' in function call", base + t[2])
        lo, hi, fn = FUNCTIONS[name]
        if len(args) < lo or (hi is not None and len(args) > hi):
            raise ExprError(f"wrong number of arguments to '{name}'", base + off, base + off + len(name))
        return fn(target, *args)

    def expr(min_prec: int) -> int:
        nonlocal pos
        left = primary()
        while True:
            t = peek()
            if t is None or t[0] != "op" or t[1] not in PRECEDENCE:
                return left
            prec = PRECEDENCE[t[1]]
            if prec < min_prec or prec == 0:
                return left
            pos += 1
            right = expr(prec + 1)
            try:
                left = binary(t[1], left, right)
            except ExprError as e:
                raise ExprError(e.message, base + t[2]) from None

    value = expr(1)
    if pos != len(toks):
        kind, val, off = toks[pos]
        raise ExprError(f"unexpected token in expression", base + off, base + off + len(val))
    return value


def names(text: str) -> list[str]:
    """Identifiers an expression mentions (function names excluded), in order."""
    try:
        toks = tokens(text)
    except ExprError:
        return IDENT.findall(text)
    out = []
    for k, (kind, val, _) in enumerate(toks):
        if kind == "id" and not (k + 1 < len(toks) and toks[k + 1][1] == "(" and val.lower() in FUNCTIONS):
            out.append(val)
    return out


_INDEXED = re.compile(r"\b(v|s|a|acc|ttmp)\[([^\[\]]*)\]")


def fold_register_indices(text: str, env: Mapping[str, int]) -> str:
    """`v[v_c:v_c+3]` -> `v[8:11]`: register indices written with symbols, as users type them
    at `--print`, `expect` and the debugger's `print` (ExprError when a symbol has no value)."""
    def one(m: re.Match) -> str:
        parts = m.group(2).split(":")
        if len(parts) > 2:
            raise ExprError(f"'{m.group(0)}' is not a register range")
        vals = [str(evaluate(p.strip(), env)) if IDENT.search(p) else p.strip() for p in parts]
        return f"{m.group(1)}[{':'.join(vals)}]"
    return _INDEXED.sub(one, text)
