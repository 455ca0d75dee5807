"""An evaluator of AMD's ISA pseudocode, one lane at a time: the oracle of tools/pcode_diff.py.

AMD's CDNA ISA guides define each instruction in a small C-like pseudocode (`D0.u32 = S0.u32 +
S1.u32`, `if ... elsif ... endif`, `for i in 0 : 31 do`, `32'U(x)` casts, `[hi : lo]` bit
slices, `lambda`). tinygrad ships that pseudocode, extracted from the CDNA4 guide, as a table; this
module parses one entry and runs it on plain Python integers and numpy float scalars, so that
gcnemu's hand-written numpy semantics can be checked against the vendor's own definition.

It is deliberately slow and literal: it exists to be obviously right, not fast. It is a test tool
and lives outside the `gcnemu` package (nothing at run time depends on it).

Typing rules (the guide gives none formally; these follow C, which the pseudocode imitates):
- a value is an integer of a kind ('u' unsigned, 'i' signed, 'b' raw bits) and a width, or a float
  of width 16/32/64 (a numpy scalar, so every operation rounds to nearest even in its format);
- integer arithmetic promotes to at least 32 bits, an unsigned operand of the wider-or-equal width
  makes the result unsigned, and the result wraps at its width;
- float arithmetic happens in the wider format of the two operands; an integer operand converts;
- `.u32`/`.f32`/... on a register or variable reinterprets its bits; on a float constant (`INF`,
  `PI`) it converts the value;
- `N'F(x)` converts a float to the N-bit format and reinterprets the bits of an integer.

Helper functions follow the CDNA3 ISA guide ("Instructions: pseudocode functions" and the
per-instruction prose); each cites what it implements. A construct or helper this evaluator does not
know raises `PcodeUnsupported` naming it: the caller counts that instruction "not comparable" and
never skips it silently.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

__all__ = ["PcodeError", "PcodeUnsupported", "Program", "parse", "Val", "Env", "Memory", "run", "FLOAT_TYPES"]


class PcodeError(Exception):
    """The pseudocode text cannot be parsed: message names the line."""


class PcodeUnsupported(Exception):
    """The pseudocode uses something this evaluator does not model (a helper, wave-level state)."""


FLOAT_TYPES = {16: np.float16, 32: np.float32, 64: np.float64}
UINT_TYPES = {16: np.uint16, 32: np.uint32, 64: np.uint64}
FMT = {16: (11, -14, 15), 32: (24, -126, 127), 64: (53, -1022, 1023)}  # mantissa bits, emin, emax


# --------------------------------------------------------------------------- values

@dataclass(frozen=True)
class Val:
    """A typed value. kind: 'u' | 'i' | 'b' (integers, `v` a Python int normalised to the kind)
    or 'f' (`v` a numpy float scalar of `width` bits; width 0 = an untyped constant such as INF)."""
    kind: str
    width: int
    v: object

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    def bits(self) -> int:
        """The raw bits, as an unsigned Python int."""
        if self.kind == "f":
            w = self.width or 64
            return int(np.asarray(FLOAT_TYPES[w](self.v)).view(UINT_TYPES[w]))
        return int(self.v) & ((1 << self.width) - 1)


def mk_int(kind: str, width: int, value: int) -> Val:
    """An integer value of `kind`/`width`, wrapped to the width (two's complement for 'i')."""
    mask = (1 << width) - 1
    value = int(value) & mask
    if kind == "i" and width and value >> (width - 1):
        value -= 1 << width
    return Val(kind, width, value)


def mk_float(width: int, value) -> Val:
    return Val("f", width, FLOAT_TYPES[width or 64](value))


def from_bits(kind: str, width: int, bits: int) -> Val:
    """Reinterpret raw bits as kind/width."""
    bits &= (1 << width) - 1
    if kind == "bf":  # bfloat16: the high half of an f32, so its value is an exact f32
        if width != 16:
            raise PcodeUnsupported(f"bfloat of width {width}")
        return Val("f", 32, np.asarray(bits << 16, dtype=np.uint32).view(np.float32)[()])
    if kind == "f":
        if width not in FLOAT_TYPES:
            raise PcodeUnsupported(f"float of width {width}")
        return Val("f", width, np.asarray(bits, dtype=UINT_TYPES[width]).view(FLOAT_TYPES[width])[()])
    return mk_int(kind, width, bits)


def bf16_bits(val: Val) -> int:
    """A value rounded to bfloat16 (8-bit significand, f32's exponent range), to nearest even, as
    its 16 bits. Rounded once from the exact value: rounding to f32 first could round twice."""
    f = float(val.v) if val.kind == "f" else float(int(val.v))
    if math.isnan(f):
        return (int(np.asarray(np.float32(f)).view(np.uint32)) >> 16) | 0x40
    if math.isinf(f) or f == 0:
        return int(np.asarray(np.float32(f)).view(np.uint32)) >> 16
    q = Fraction(f) if val.kind == "f" else Fraction(int(val.v))
    sign = 0x8000 if q < 0 else 0
    value = _round_magnitude(abs(q), 8, -126)
    if value >= Fraction(2) ** 128:
        return sign | 0x7F80
    return sign | (int(np.asarray(np.float32(float(value))).view(np.uint32)) >> 16)


def round_fraction(q: Fraction, width: int):
    """An exact rational rounded to nearest even in the float format of `width` (overflow to inf).

    Used where a numpy operation would round twice (fma, integer-to-float of wide integers)."""
    mant, emin, emax = FMT[width]
    ftype = FLOAT_TYPES[width]
    if q == 0:
        return ftype(0.0)
    sign = -1 if q < 0 else 1
    value = _round_magnitude(abs(q), mant, emin)
    if value >= Fraction(2) ** (emax + 1):
        return ftype(sign * np.inf)
    return ftype(sign * float(value))


def _round_magnitude(q: Fraction, mant: int, emin: int) -> Fraction:
    """A positive rational rounded to nearest even with `mant` significand bits, denormals
    sharing the exponent `emin` (no overflow check: the caller knows its format's range)."""
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    scale = Fraction(2) ** (e - (mant - 1))
    m = q / scale
    n = m.numerator // m.denominator
    rem = m - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2):
        n += 1
    return Fraction(n) * scale


def to_kind(val: Val, kind: str, width: int) -> Val:
    """Convert a value to kind/width as an assignment or a cast does: integers wrap, floats round,
    an integer assigned to a float reinterprets nothing (it converts its value)."""
    if kind == "f":
        if width not in FLOAT_TYPES:
            raise PcodeUnsupported(f"float of width {width}")
        if val.kind == "f":
            if val.width and val.v != val.v:
                return _convert_nan(val, width)
            with np.errstate(all="ignore"):
                return Val("f", width, FLOAT_TYPES[width](val.v))
        return Val("f", width, round_fraction(Fraction(int(val.v)), width))
    if val.kind == "f":
        f = float(val.v)
        if math.isnan(f) or math.isinf(f):
            raise PcodeUnsupported("float-to-integer conversion of NaN/inf without a helper")
        return mk_int(kind, width, int(f))
    return mk_int(kind, width, val.v)


def _convert_nan(val: Val, width: int) -> Val:
    """A NaN converted between formats keeps its sign, its quiet bit and the top of its payload.

    The pseudocode writes `isSignalNAN(64'F(S0.f32))`: its conversions are exact re-encodings, so a
    signalling NaN must stay signalling (numpy's conversion, like x86's, would quiet it)."""
    src_w = val.width
    src_m, dst_m = FMT[src_w][0] - 1, FMT[width][0] - 1
    bits = val.bits()
    sign = bits >> (src_w - 1)
    payload = bits & ((1 << src_m) - 1)
    quiet = payload >> (src_m - 1)
    rest = payload & ((1 << (src_m - 1)) - 1)
    rest = rest << (dst_m - src_m) if dst_m >= src_m else rest >> (src_m - dst_m)
    if not quiet and rest == 0:
        rest = 1  # still a NaN, still signalling
    exp_bits = width - 1 - dst_m
    out = (sign << (width - 1)) | (((1 << exp_bits) - 1) << dst_m) | (quiet << (dst_m - 1)) | rest
    return from_bits("f", width, out)


def reinterpret(val: Val, kind: str, width: int) -> Val:
    """`.u32`-style typing of a stored value: the low `width` bits, reinterpreted."""
    if val.kind == "f" and val.width == 0:  # untyped constant: INF.f32 converts
        return to_kind(val, kind, width)
    return from_bits(kind, width, val.bits())


def truth(val: Val) -> bool:
    if val.kind == "f":
        return bool(val.v != 0)
    return val.v != 0


def boolval(b: bool) -> Val:
    return Val("u", 1, 1 if b else 0)


# --------------------------------------------------------------------------- tokens

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+) |
    (?P<comment>//[^\n]*) |
    (?P<nl>\n) |
    (?P<sized>\d+'(?:BF|[UIFB])(?=\s*\()|\d+'(?:[UIFB])\b|\d+'-?(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]+)?)[UuLlFf]*) |
    (?P<float>\d+\.\d+(?:[eE][-+]?\d+)?[Ff]?|\d+[eE][-+]?\d+[Ff]?) |
    (?P<int>0x[0-9a-fA-F]+[UuLl]*|\d+[UuLl]*) |
    (?P<name>[A-Za-z_][A-Za-z0-9_]*) |
    (?P<op>\+:|<<=|>>=|\*\*|<<|>>|<=|>=|==|!=|<>|&&|\|\||\+=|-=|\*=|/=|\|=|&=|\^=|[-+*/%<>=!&|^~?:;,.()\[\]{}])
""", re.X)


@dataclass
class Tok:
    kind: str
    text: str
    line: int


def tokenize(text: str) -> list[Tok]:
    """Tokens, with newlines kept only where they end statements (as `;` does): outside brackets
    and directly inside a lambda's body, which holds statements (`if ... return ... endif`)."""
    out: list[Tok] = []
    stack: list[str] = []  # open brackets: "(" "[" "{", "params" of a lambda, "block" = its body
    after_params = False
    line = 1
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise PcodeError(f"line {line}: cannot read {text[pos:pos + 12]!r}")
        kind = m.lastgroup
        s = m.group(0)
        pos = m.end()
        if kind == "nl":
            if not stack or stack[-1] == "block":
                out.append(Tok("sep", "\n", line))
            line += 1
            continue
        if kind in ("ws", "comment"):
            continue
        if s in "([{":
            if s == "(" and out and out[-1].text == "lambda":
                stack.append("params")
            elif s == "(" and after_params:
                stack.append("block")
            else:
                stack.append(s)
        elif s in ")]}" and stack:
            after_params = stack.pop() == "params"
            out.append(Tok(kind, s, line))
            continue
        after_params = False
        if s == ";":
            out.append(Tok("sep", ";", line))
            continue
        out.append(Tok(kind, s, line))
    out.append(Tok("eof", "", line))
    return out


# --------------------------------------------------------------------------- syntax tree
# Expressions are tuples: ("num", Val) ("name", str) ("field", expr, type) ("index", expr, i)
# ("slice", expr, hi, lo) ("call", name, [args]) ("cast", kind, width, expr) ("un", op, expr)
# ("bin", op, a, b) ("tern", c, a, b) ("concat", [exprs]) ("lambda", [params], expr)
# Statements: ("assign", op, lhs, rhs) ("if", [(cond, block)], else_block) ("for", var, lo, hi, block)
# ("declare", name, kind, width) ("break",) ("expr", e)

TYPE_SUFFIX = re.compile(r"^(u|i|b|f|bf)(\d+)$")
BINARY = [  # precedence, lowest first (C's order)
    ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!=", "<>"), ("<", ">", "<=", ">="),
    ("<<", ">>"), ("+", "-"), ("*", "/", "%"), ("**",),
]
ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "|=", "&=", "^=", "<<=", ">>="}


def _int_literal(text: str) -> Val:
    t = text.rstrip("UuLl")
    suffix = text[len(t):].upper()
    value = int(t, 16) if t.lower().startswith("0x") else int(t)
    width = 64 if "L" in suffix or value > 0xFFFFFFFF else 32
    kind = "u" if "U" in suffix or (value > 0x7FFFFFFF and width == 32 and t.lower().startswith("0x")) else "i"
    if width == 64 and value > 0x7FFFFFFFFFFFFFFF:
        kind = "u"
    return mk_int(kind, width, value)


def _sized_literal(text: str) -> Val:
    width_s, body = text.split("'", 1)
    width = int(width_s)
    neg = body.startswith("-")
    body = body.lstrip("-")
    core = body.rstrip("UuLlFf") if not body.lower().startswith("0x") else body.rstrip("UuLl")
    if "." in core:
        v = -float(core) if neg else float(core)
        if width not in FLOAT_TYPES:
            raise PcodeUnsupported(f"float literal {text}")
        return mk_float(width, v)
    value = int(core, 16) if core.lower().startswith("0x") else int(core)
    return mk_int("u", width, -value if neg else value)


class Parser:
    def __init__(self, tokens: list[Tok]):
        self.t = tokens
        self.i = 0

    def peek(self, k: int = 0) -> Tok:
        return self.t[min(self.i + k, len(self.t) - 1)]

    def next(self) -> Tok:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def accept(self, text: str) -> bool:
        if self.peek().text == text and self.peek().kind != "sep":
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> Tok:
        tok = self.next()
        if tok.text != text:
            raise PcodeError(f"line {tok.line}: expected {text!r}, found {tok.text!r}")
        return tok

    def skip_seps(self) -> None:
        while self.peek().kind == "sep":
            self.i += 1

    # statements
    def block(self, enders: tuple[str, ...]) -> list:
        out = []
        while True:
            self.skip_seps()
            tok = self.peek()
            if tok.kind == "eof" or (tok.kind in ("name", "op") and tok.text in enders):
                return out
            out.append(self.statement())

    def statement(self):
        tok = self.peek()
        if tok.kind == "name" and tok.text == "if":
            self.next()
            arms = []
            cond = self.expr()
            self.expect("then")
            arms.append((cond, self.block(("elsif", "else", "endif"))))
            other: list = []
            while True:
                end = self.next()
                if end.text == "elsif":
                    cond = self.expr()
                    self.expect("then")
                    arms.append((cond, self.block(("elsif", "else", "endif"))))
                elif end.text == "else":
                    other = self.block(("endif",))
                elif end.text == "endif":
                    return ("if", arms, other)
                else:
                    raise PcodeError(f"line {end.line}: unterminated if")
        if tok.kind == "name" and tok.text == "for":
            self.next()
            var = self.next().text
            self.expect("in")
            lo = self.expr()
            self.expect(":")
            hi = self.expr()
            self.expect("do")
            body = self.block(("endfor",))
            self.expect("endfor")
            return ("for", var, lo, hi, body)
        if tok.kind == "name" and tok.text == "declare":
            self.next()
            name = self.next().text
            self.expect(":")
            ty = self.next()
            m = re.match(r"^(\d+)'([UIFB])$", ty.text)
            if not m:
                raise PcodeError(f"line {ty.line}: bad declared type {ty.text!r}")
            count = None
            if self.accept("["):  # an array declaration: `declare x : 8'B[8]`
                count = self.expr()
                self.expect("]")
            kind = {"U": "u", "I": "i", "F": "f", "B": "b"}[m.group(2)]
            return ("declare", name, kind, int(m.group(1)), count)
        if tok.kind == "name" and tok.text == "break":
            self.next()
            return ("break",)
        if tok.kind == "name" and tok.text == "return":
            self.next()
            return ("return", self.expr())
        lhs = self.expr()
        op = self.peek()
        if op.text in ASSIGN_OPS:
            return self.assignment(lhs)
        return ("expr", lhs)

    def assignment(self, lhs):
        op = self.next().text
        if self.peek().text == "lambda":
            self.next()
            self.expect("(")
            params = []
            while not self.accept(")"):
                params.append(self.next().text)
                self.accept(",")
            self.expect("(")
            body = self.block((")",))
            self.expect(")")
            return ("assign", op, lhs, ("lambda", params, body))
        rhs = self.expr()
        if self.peek().text in ASSIGN_OPS:  # a = b = expr: right to left
            return ("assign", op, lhs, self.assignment(rhs))
        return ("assign", op, lhs, rhs)

    # expressions
    def expr(self):
        cond = self.binary(0)
        if self.accept("?"):
            a = self.expr()
            self.expect(":")
            b = self.expr()
            return ("tern", cond, a, b)
        return cond

    def binary(self, level: int):
        if level == len(BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek().kind == "op" and self.peek().text in BINARY[level]:
            op = self.next().text
            right = self.binary(level + 1)
            left = ("bin", op, left, right)
        return left

    def unary(self):
        tok = self.peek()
        if tok.kind == "op" and tok.text in ("-", "+", "!", "~"):
            self.next()
            return ("un", tok.text, self.unary())
        return self.postfix(self.primary())

    def primary(self):
        tok = self.next()
        if tok.kind == "int":
            return ("num", _int_literal(tok.text))
        if tok.kind == "float":
            t = tok.text
            return ("num", mk_float(32, float(t[:-1])) if t[-1] in "Ff" else mk_float(64, float(t)))
        if tok.kind == "sized":
            m = re.match(r"^(\d+)'(BF|[UIFB])$", tok.text)
            if m:
                if self.peek().text != "(":
                    raise PcodeError(f"line {tok.line}: type {tok.text} outside a cast")
                self.next()
                inner = self.expr()
                self.expect(")")
                kind = {"U": "u", "I": "i", "F": "f", "B": "b", "BF": "bf"}[m.group(2)]
                return ("cast", kind, int(m.group(1)), inner)
            return ("num", _sized_literal(tok.text))
        if tok.text == "(":
            e = self.expr()
            self.expect(")")
            return e
        if tok.text == "{":
            parts = [self.expr()]
            while self.accept(","):
                parts.append(self.expr())
            self.expect("}")
            return ("concat", parts)
        if tok.kind == "name":
            if self.peek().text == "(" and self.peek().kind == "op":
                self.next()
                args = []
                if not self.accept(")"):
                    args.append(self.expr())
                    while self.accept(","):
                        args.append(self.expr())
                    self.expect(")")
                return ("call", tok.text, args)
            return ("name", tok.text)
        raise PcodeError(f"line {tok.line}: unexpected {tok.text!r}")

    def postfix(self, e):
        while True:
            if self.peek().text == "." and self.peek(1).kind == "name":
                self.next()
                ty = self.next().text
                e = ("field", e, ty) if TYPE_SUFFIX.match(ty) else ("member", e, ty)
            elif self.peek().text == "[":
                self.next()
                hi = self.expr()
                if self.accept(":"):
                    lo = self.expr()
                    self.expect("]")
                    e = ("slice", e, hi, lo)
                elif self.accept("+:"):
                    width = self.expr()
                    self.expect("]")
                    e = ("partsel", e, hi, width)
                else:
                    self.expect("]")
                    e = ("index", e, hi)
            else:
                return e


@dataclass
class Program:
    name: str
    text: str
    body: list


def parse(name: str, text: str) -> Program:
    """Parse one instruction's pseudocode; PcodeError names the instruction and the line."""
    try:
        p = Parser(tokenize(text))
        body = p.block(())
        if p.peek().kind != "eof":
            raise PcodeError(f"line {p.peek().line}: unexpected {p.peek().text!r}")
    except PcodeError as exc:
        raise PcodeError(f"{name}: {exc}") from None
    return Program(name, text, body)


# --------------------------------------------------------------------------- the machine

class _Break(Exception):
    pass


class _Return(Exception):
    def __init__(self, value: "Val"):
        self.value = value


@dataclass
class Storage:
    """A variable or register: raw bits plus the type it was last written as (for untyped reads)."""
    bits: int = 0
    kind: str = "b"
    width: int = 64
    elem: int | None = None  # element width of an array (`declare in : 8'B[8]`)
    written_as: tuple[str, int] | None = None  # kind/width of the last typed write (`D0.f32 = ...`)
    written_bits: int = 0  # how many low bits the program wrote (D0.u16 leaves bits 16+ as they were)

    def read(self) -> Val:
        return from_bits(self.kind, self.width, self.bits) if (self.kind != "f" or self.width in FLOAT_TYPES) \
            else Val("b", self.width, self.bits)


@dataclass
class Env:
    """The state one lane's evaluation sees: named registers/variables, the lane id, and a
    callback that evaluates another instruction's pseudocode (`v_max_f32(a, b)` inside V_MAX3)."""
    vars: dict[str, Storage] = field(default_factory=dict)
    lane: int = 0
    call_instruction: Callable[[str, list[Val]], Val] | None = None
    lambdas: dict[str, tuple] = field(default_factory=dict)
    written: set[str] = field(default_factory=set)
    # memory instructions: the bytes `MEM[addr]` / `LDS[addr]` name, and the address helpers of the
    # instruction being checked (CalcDsAddr, CalcGlobalAddr, ...), which know its actual operands
    memory: "Memory | None" = None
    helpers: dict[str, Callable[..., "Val"]] = field(default_factory=dict)

    def set(self, name: str, kind: str, width: int, bits: int) -> None:
        self.vars[name] = Storage(bits & ((1 << width) - 1), kind, width)


class Memory:
    """Byte-addressed memory for `MEM[addr].b32` reads and writes: a dict of byte -> value over the
    addresses the caller provides (`data` starting at `base`). An access outside it is refused: the
    pseudocode touched bytes the driver did not give it, so the instruction is not comparable."""

    def __init__(self, base: int, data: bytes | bytearray):
        self.base = base
        self.data = bytearray(data)

    def _span(self, addr: int, nbytes: int) -> int:
        off = addr - self.base
        if off < 0 or off + nbytes > len(self.data):
            raise PcodeUnsupported(f"memory access [{addr:#x}, +{nbytes}) outside the region given")
        return off

    def read(self, addr: int, nbytes: int) -> int:
        off = self._span(addr, nbytes)
        return int.from_bytes(self.data[off:off + nbytes], "little")

    def write(self, addr: int, nbytes: int, bits: int) -> None:
        off = self._span(addr, nbytes)
        self.data[off:off + nbytes] = (bits & ((1 << (8 * nbytes)) - 1)).to_bytes(nbytes, "little")


MEMORY_NAMES = ("MEM", "LDS")
# An untyped `MEM[ADDR]` (the packed f16/bf16 atomics: `tmp = MEM[ADDR]`) is the dword they access.
UNTYPED_MEM_BITS = 32


def _mem_target(e, env: "Env") -> tuple[int, str, int] | None:
    """(address, kind, width) when `e` is `MEM[addr].type` or `MEM[addr]`, else None."""
    kind, width = None, UNTYPED_MEM_BITS
    if e[0] == "field":
        kind, width = _type(e[2])
        e = e[1]
    if e[0] == "index" and e[1][0] == "name" and e[1][1] in MEMORY_NAMES:
        if env.memory is None:
            raise PcodeUnsupported(f"{e[1][1]}[...]: memory is not modelled for this instruction")
        if width % 8:
            raise PcodeUnsupported(f"memory access of {width} bits")
        return int(_eval(e[2], env).v) & ((1 << 64) - 1), kind or "b", width
    return None


CONSTANTS = {
    "INF": Val("f", 0, np.float64(np.inf)),
    "NAN": Val("f", 0, np.float64(np.nan)),
    "PI": Val("f", 0, np.float64(math.pi)),
    # the largest finite and the smallest denormal magnitudes V_DIV_FIXUP returns (CDNA3 guide, V_DIV_FIXUP_F32)
    "OVERFLOW_F32": Val("f", 32, np.float32(np.finfo(np.float32).max)),
    "UNDERFLOW_F32": Val("f", 32, np.uint32(1).view(np.float32)),
    "OVERFLOW_F64": Val("f", 64, np.float64(np.finfo(np.float64).max)),
    "UNDERFLOW_F64": Val("f", 64, np.uint64(1).view(np.float64)),
}


def run(prog: Program, env: Env) -> Env:
    """Evaluate `prog` in `env` (mutated in place, returned)."""
    try:
        _block(prog.body, env)
    except _Break:
        pass
    return env


def _block(stmts: list, env: Env) -> None:
    for s in stmts:
        _stmt(s, env)


def _stmt(s, env: Env) -> None:
    kind = s[0]
    if kind == "assign":
        _assign(s, env)
    elif kind == "if":
        for cond, body in s[1]:
            if truth(_eval(cond, env)):
                _block(body, env)
                return
        _block(s[2], env)
    elif kind == "for":
        var = s[1]
        lo, hi = int(_eval(s[2], env).v), int(_eval(s[3], env).v)
        try:
            for i in range(lo, hi + 1):
                env.set(var, "i", 32, i)
                _block(s[4], env)
        except _Break:
            pass
    elif kind == "declare":
        if s[4] is not None:
            count = int(_eval(s[4], env).v)
            env.vars[s[1]] = Storage(0, s[2], s[3] * count, elem=s[3])
        else:
            env.set(s[1], s[2], s[3], 0)
    elif kind == "return":
        raise _Return(_eval(s[1], env))
    elif kind == "break":
        raise _Break()
    elif kind == "expr":
        raise PcodeUnsupported(f"statement without effect: {s[1][0]}")


def _assign(s, env: Env) -> Val:
    _, op, lhs, rhs = s
    if rhs[0] == "lambda":
        if lhs[0] != "name":
            raise PcodeUnsupported("lambda bound to a field")
        env.lambdas[lhs[1]] = rhs
        return Val("u", 1, 0)
    value = _assign(rhs, env) if rhs[0] == "assign" else _eval(rhs, env)
    if op != "=":
        value = _binop(op[:-1], _eval(lhs, env), value)
    target = _mem_target(lhs, env)
    if target is not None:
        addr, kind, width = target
        if lhs[0] == "index":  # untyped store: as wide as the value
            width = value.width or 64
        typed = to_kind(value, kind, width) if kind in ("u", "i", "f") and not (value.kind in "ub" and kind == "b") \
            else value
        env.memory.write(addr, width // 8, typed.bits())
        return typed
    base, offset, width, kind = _lvalue(lhs, env)
    store = env.vars.get(base)
    if store is None:  # a new variable takes the value's type
        if width is None:
            env.vars[base] = Storage(value.bits(), value.kind, value.width or 64,
                                     written_bits=value.width or 64)
            env.written.add(base)
            return value
        store = env.vars[base] = Storage(0, "b" if kind in (None, "bf") else kind, max(64, offset + width))
    if width is None:  # untyped whole-variable write: keep the value's type
        if value.kind == "f" and value.width == 0:
            value = to_kind(value, store.kind if store.kind == "f" else "f", store.width if store.kind == "f" else 64)
        store.bits = value.bits()
        store.kind, store.width = value.kind, value.width
        store.written_bits = max(store.written_bits, value.width or 64)
        env.written.add(base)
        return value
    typed = to_kind(value, kind, width) if kind in ("u", "i", "f") and not (value.kind in "ub" and kind == "b") else value
    if kind == "bf":
        bits = bf16_bits(value)
        typed = from_bits("bf", 16, bits)
    else:
        bits = typed.bits() if typed.kind != "f" or typed.width else to_kind(typed, "f", width).bits()
    mask = ((1 << width) - 1) << offset
    store.bits = (store.bits & ~mask) | ((bits << offset) & mask)
    store.written_as = (kind or "b", width)
    store.written_bits = max(store.written_bits, offset + width)
    store.width = max(store.width, offset + width)
    env.written.add(base)
    return typed


def _lvalue(e, env: Env) -> tuple[str, int, int | None, str | None]:
    """An assignment target as (variable, bit offset, bit width or None for the whole, kind)."""
    if e[0] == "name":
        return e[1], 0, None, None
    if e[0] == "field":
        base, off, _, _ = _lvalue(e[1], env)
        kind, width = _type(e[2])
        return base, off, width, kind
    if e[0] == "index":
        base, off, width, kind = _lvalue(e[1], env)
        i = int(_eval(e[2], env).v)
        store = env.vars.get(base)
        if e[1][0] == "name" and store is not None and store.elem:
            return base, off + i * store.elem, store.elem, store.kind
        return base, off + i, 1, "u"
    if e[0] == "slice":
        base, off, _, _ = _lvalue(e[1], env)
        hi, lo = int(_eval(e[2], env).v), int(_eval(e[3], env).v)
        return base, off + lo, hi - lo + 1, "b"
    raise PcodeUnsupported(f"assignment to {e[0]}")


def _type(suffix: str) -> tuple[str, int]:
    m = TYPE_SUFFIX.match(suffix)
    kind, width = m.group(1), int(m.group(2))
    if kind == "bf":
        if width != 16:
            raise PcodeUnsupported(f"bfloat of width {width}")
    return kind, width


def _eval(e, env: Env) -> Val:
    tag = e[0]
    if tag == "num":
        return e[1]
    if tag == "name":
        name = e[1]
        if name in env.vars:
            return env.vars[name].read()
        if name in ("laneId", "laneID"):
            return mk_int("u", 32, env.lane)
        if name in CONSTANTS:
            return CONSTANTS[name]
        raise PcodeUnsupported(f"name {name}")
    if tag in ("field", "index") and _mem_target(e, env) is not None:
        addr, kind, width = _mem_target(e, env)
        return from_bits(kind, width, env.memory.read(addr, width // 8))
    if tag == "field":
        kind, width = _type(e[2])
        inner = e[1]
        if inner[0] == "name" and inner[1] in env.vars:
            return from_bits(kind, width, env.vars[inner[1]].bits)
        return reinterpret(_eval(inner, env), kind, width)
    if tag == "index":
        i = int(_eval(e[2], env).v)
        store = env.vars.get(e[1][1]) if e[1][0] == "name" else None
        if store is not None and store.elem:
            if not store.written_bits:
                raise PcodeUnsupported(f"table {e[1][1]} is declared but never defined by the pseudocode")
            return from_bits(store.kind, store.elem, store.bits >> (i * store.elem))
        base = _eval(e[1], env)
        return mk_int("u", 1, (_raw(e[1], base, env) >> i) & 1)
    if tag == "member":
        if e[1][0] == "name" and f"{e[1][1]}.{e[2]}" in env.vars:
            return env.vars[f"{e[1][1]}.{e[2]}"].read()
        raise PcodeUnsupported(f"state {_describe(e[1])}.{e[2]}")
    if tag == "slice":
        base = _eval(e[1], env)
        hi, lo = int(_eval(e[2], env).v), int(_eval(e[3], env).v)
        if hi < lo:
            raise PcodeUnsupported("reversed bit slice")
        return mk_int("b", hi - lo + 1, _raw(e[1], base, env) >> lo)
    if tag == "partsel":
        base = _eval(e[1], env)
        lo, width = int(_eval(e[2], env).v), int(_eval(e[3], env).v)
        return mk_int("b", width, _raw(e[1], base, env) >> lo)
    if tag == "cast":
        return _cast(e[1], e[2], _eval(e[3], env))
    if tag == "un":
        return _unop(e[1], _eval(e[2], env))
    if tag == "bin":
        op = e[1]
        if op == "&&":
            return boolval(truth(_eval(e[2], env)) and truth(_eval(e[3], env)))
        if op == "||":
            return boolval(truth(_eval(e[2], env)) or truth(_eval(e[3], env)))
        if op == "==" and _signed_zero(e[3]) is not None:
            # `S0 == +0.0` / `== -0.0` with an explicit sign means that zero, sign included (V_MAX_F32's
            # +0/-0 ordering); a float == would take -0 for +0
            a = _eval(e[2], env)
            return boolval(a.kind == "f" and float(a.v) == 0.0 and bool(np.signbit(a.v)) == _signed_zero(e[3]))
        power = e[3][3] if e[3][0] == "cast" and e[3][1] == "f" else e[3]  # `16'F(2.0F ** n)` too
        if op == "*" and power[0] == "bin" and power[1] == "**" and power[2][0] == "num" \
                and power[2][1].kind == "f" and float(power[2][1].v) == 2.0:
            # `S0.f32 * 2.0F ** S1.i32` is the guide's ldexp: an exact scaling rounded once (a literal
            # f32 power would overflow to inf for exponents past 127 and turn denormal * 2**128 into inf)
            return _ldexp(_eval(e[2], env), _eval(power[3], env))
        return _binop(op, _eval(e[2], env), _eval(e[3], env))
    if tag == "tern":
        return _eval(e[2], env) if truth(_eval(e[1], env)) else _eval(e[3], env)
    if tag == "concat":
        bits, width = 0, 0
        for part in e[1]:
            v = _eval(part, env)
            if v.kind == "f" and not v.width:
                raise PcodeUnsupported("untyped float in a concatenation")
            w = v.width
            bits = (bits << w) | v.bits()
            width += w
        return mk_int("b", width, bits)
    if tag == "call":
        return _call(e[1], e[2], env)
    raise PcodeUnsupported(f"expression {tag}")


def _signed_zero(e) -> bool | None:
    """True for a `-0.0` literal, False for `+0.0`, None for anything else (plain `0.0` included)."""
    if e[0] == "un" and e[1] in "+-" and e[2][0] == "num" and e[2][1].kind == "f" and float(e[2][1].v) == 0.0:
        return e[1] == "-"
    return None


def _describe(e) -> str:
    return e[1] if e[0] == "name" else e[0]


def _raw(expr, val: Val, env: Env) -> int:
    """The bits a slice or an index reads: a whole variable's storage, or the value's own bits."""
    if expr[0] == "name" and expr[1] in env.vars:
        return env.vars[expr[1]].bits
    return val.bits()


def _cast(kind: str, width: int, v: Val) -> Val:
    if kind == "bf":
        raise PcodeUnsupported("bf16 cast")
    if kind == "f":
        if v.kind == "f":
            return to_kind(v, "f", width)
        return from_bits("f", width, v.bits())  # 32'F(0xffc00000): the bits of an integer
    if kind == "b":
        return mk_int("b", width, v.bits())
    if v.kind == "f":
        raise PcodeUnsupported("integer cast of a float")
    return mk_int(kind, width, v.v)


# ---- operators

def _promote_int(a: Val, b: Val) -> tuple[str, int]:
    """C's usual arithmetic conversions, on at least 32 bits."""
    wa, wb = max(a.width, 32), max(b.width, 32)
    ua, ub = a.kind in "ub" and a.width >= 32, b.kind in "ub" and b.width >= 32  # narrower: promoted to int
    if wa == wb:
        return ("u" if ua or ub else "i"), wa
    wide, wide_unsigned = (wa, ua) if wa > wb else (wb, ub)
    return ("u" if wide_unsigned else "i"), wide


def _float_pair(a: Val, b: Val) -> tuple[int, object, object]:
    wa = a.width if a.kind == "f" else 0
    wb = b.width if b.kind == "f" else 0
    w = max(wa, wb) or 64
    ftype = FLOAT_TYPES[w]

    def conv(v: Val):
        if v.kind == "f":
            return ftype(v.v)
        return round_fraction(Fraction(int(v.v)), w)
    with np.errstate(all="ignore"):
        return w, conv(a), conv(b)


def _binop(op: str, a: Val, b: Val) -> Val:
    if a.kind == "f" or b.kind == "f":
        w, x, y = _float_pair(a, b)
        ftype = FLOAT_TYPES[w]
        with np.errstate(all="ignore"):
            if op == "+":
                return Val("f", w, ftype(x + y))
            if op == "-":
                return Val("f", w, ftype(x - y))
            if op == "*":
                return Val("f", w, ftype(x * y))
            if op == "/":
                return Val("f", w, ftype(x / y))
            if op == "**":
                return Val("f", w, ftype(np.power(x, y)))
            if op in ("==", "!=", "<>", "<", ">", "<=", ">="):
                return boolval(_compare(op, x, y))
        raise PcodeUnsupported(f"operator {op} on floats")
    if op in ("==", "!=", "<>", "<", ">", "<=", ">="):
        kind, width = _promote_int(a, b)
        x, y = mk_int(kind, width, a.v).v, mk_int(kind, width, b.v).v
        return boolval(_compare(op, x, y))
    if op in ("<<", ">>"):
        kind = "u" if a.kind in "ub" and a.width >= 32 else "i"
        width = max(a.width, 32)
        x, n = mk_int(kind, width, a.v).v, int(b.v)
        if n < 0 or n >= 4 * width:
            raise PcodeUnsupported(f"shift by {n}")
        return mk_int(kind, width, x << n if op == "<<" else x >> n)
    kind, width = _promote_int(a, b)
    x, y = mk_int(kind, width, a.v).v, mk_int(kind, width, b.v).v
    if op == "+":
        r = x + y
    elif op == "-":
        r = x - y
    elif op == "*":
        r = x * y
    elif op == "/":
        if y == 0:
            raise PcodeUnsupported("integer division by zero")
        r = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    elif op == "%":
        if y == 0:
            raise PcodeUnsupported("integer modulo by zero")
        r = x - y * (abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1))
    elif op == "&":
        r = x & y
    elif op == "|":
        r = x | y
    elif op == "^":
        r = x ^ y
    elif op == "**":
        r = x ** y
    else:
        raise PcodeUnsupported(f"operator {op}")
    return mk_int(kind, width, r)


def _compare(op: str, x, y) -> bool:
    # `<>` is "less or greater": false when either side is NaN (V_CMP_LG), unlike `!=` (V_CMP_NEQ)
    return {"==": x == y, "!=": x != y, "<>": x < y or x > y, "<": x < y, ">": x > y, "<=": x <= y,
            ">=": x >= y}[op]


def _unop(op: str, a: Val) -> Val:
    if op == "+":
        return a
    if op == "!":
        return boolval(not truth(a))
    if a.kind == "f":
        if op == "-":
            return Val("f", a.width, -a.v)
        raise PcodeUnsupported(f"operator {op} on a float")
    width = max(a.width, 32)
    kind = "u" if a.kind in "ub" and a.width >= 32 else "i"
    if op == "-":
        return mk_int(kind, width, -a.v)
    if op == "~":
        return mk_int(kind, width, ~int(a.v))
    raise PcodeUnsupported(f"operator {op}")


# ---- helper functions (CDNA3 ISA guide: per-instruction prose and the pseudocode conventions)

def _fbits(v: Val) -> tuple[int, int, int, int]:
    """(sign, biased exponent, mantissa field, width) of a float value."""
    w = v.width or 64
    bits = v.bits() if v.width else to_kind(v, "f", 64).bits()
    mant_bits = FMT[w][0] - 1
    exp_bits = w - 1 - mant_bits
    return bits >> (w - 1), (bits >> mant_bits) & ((1 << exp_bits) - 1), bits & ((1 << mant_bits) - 1), w


def _is_snan(v: Val) -> bool:
    s, e, m, w = _fbits(v)
    mant_bits = FMT[w][0] - 1
    return e == (1 << (w - 1 - mant_bits)) - 1 and m != 0 and not (m >> (mant_bits - 1)) & 1


def _to_int_sat(v: Val, kind: str, width: int) -> Val:
    """f32/f64 to integer conversion: round toward zero, clamp to the range, NaN -> 0 (CDNA3 guide,
    V_CVT_I32_F32: 'out-of-range values are clamped; NaN converts to 0')."""
    f = float(v.v)
    if math.isnan(f):
        return mk_int(kind, width, 0)
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if kind == "i" else (0, (1 << width) - 1)
    if math.isinf(f):
        return mk_int(kind, width, hi if f > 0 else lo)
    return mk_int(kind, width, min(max(int(f), lo), hi))


def _ftrunc(v: Val) -> Val:
    return Val("f", v.width, FLOAT_TYPES[v.width or 64](np.trunc(v.v)))


def _ffloor(v: Val) -> Val:
    return Val("f", v.width, FLOAT_TYPES[v.width or 64](np.floor(v.v)))


def _fract(v: Val) -> Val:
    """x - floor(x), the largest value below 1.0 at most (CDNA3 guide V_FRACT_F32)."""
    ftype = FLOAT_TYPES[v.width or 64]
    with np.errstate(all="ignore"):
        r = ftype(v.v - np.floor(v.v))
    return Val("f", v.width, r)


def _ldexp(x: Val, n: Val) -> Val:
    w = x.width or 64
    with np.errstate(all="ignore"):
        if x.kind != "f":
            raise PcodeUnsupported("ldexp of an integer")
        f = x.v
        if np.isnan(f) or np.isinf(f) or f == 0:
            return Val("f", w, FLOAT_TYPES[w](f))
        k = max(-2300, min(2300, int(n.v)))  # past every format's range the result is 0 or inf either way
        return Val("f", w, round_fraction(Fraction(float(f)) * Fraction(2) ** k, w))


def _fma(a: Val, b: Val, c: Val) -> Val:
    w = max(v.width for v in (a, b, c) if v.kind == "f") or 64
    ftype = FLOAT_TYPES[w]
    xs = [ftype(v.v) if v.kind == "f" else ftype(int(v.v)) for v in (a, b, c)]
    with np.errstate(all="ignore"):
        if any(np.isnan(x) or np.isinf(x) for x in xs):
            # exact product in f64 (never overflows for f16/f32 inputs), then one IEEE add
            prod = np.float64(xs[0]) * np.float64(xs[1]) if w < 64 else xs[0] * xs[1]
            if w == 64 and np.isinf(prod) and not (np.isinf(xs[0]) or np.isinf(xs[1])):
                prod = np.float64(0.0) if np.isinf(xs[2]) else prod  # finite*finite overflow is irrelevant next to inf c
            return Val("f", w, ftype(prod + np.float64(xs[2])))
        exact = Fraction(float(xs[0])) * Fraction(float(xs[1])) + Fraction(float(xs[2]))
        if exact == 0:  # the sign of an exact zero follows IEEE's rule for a sum
            return Val("f", w, ftype(xs[0] * xs[1] + xs[2]))
        return Val("f", w, round_fraction(exact, w))


def _f_to_f(width: int) -> Callable:
    def conv(v: Val) -> Val:
        return to_kind(v, "f", width)
    return conv


def _int_to_f(width: int) -> Callable:
    def conv(v: Val) -> Val:
        if v.kind == "f":
            raise PcodeUnsupported("int-to-float helper on a float")
        return Val("f", width, round_fraction(Fraction(int(v.v)), width))
    return conv


def _narrow_int(kind: str, width: int) -> Callable:
    """u32_to_u16 / i32_to_i16: saturate to the narrower range (CDNA3 guide V_CVT_PK_U16_U32)."""
    def conv(v: Val) -> Val:
        lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if kind == "i" else (0, (1 << width) - 1)
        return mk_int(kind, width, min(max(int(v.v), lo), hi))
    return conv


def _signext(v: Val) -> Val:
    return mk_int("i", 64, mk_int("i", v.width, v.bits()).v)


def _widen(kind: str, src: int, dst: int) -> Callable:
    def conv(v: Val) -> Val:
        return mk_int(kind, dst, mk_int(kind, src, v.bits()).v)
    return conv


def _class_check(fn: Callable) -> Callable:
    def check(v: Val) -> Val:
        if v.kind != "f":
            raise PcodeUnsupported("float predicate of an integer")
        return boolval(fn(v))
    return check


def _quiet(v: Val) -> Val:
    """cvtToQuietNAN: a signalling NaN with its quiet bit set; other values unchanged."""
    if _is_snan(v):
        s, e, m, w = _fbits(v)
        mant_bits = FMT[w][0] - 1
        return from_bits("f", w, v.bits() | (1 << (mant_bits - 1)))
    return v


def _float_unary(fn: Callable) -> Callable:
    def apply(v: Val) -> Val:
        if v.kind != "f":
            raise PcodeUnsupported("float function of an integer")
        w = v.width or 64
        with np.errstate(all="ignore"):
            return Val("f", w, FLOAT_TYPES[w](fn(FLOAT_TYPES[w](v.v))))
    return apply


def _frexp_mantissa(v: Val) -> Val:
    """The significand scaled into [0.5, 1.0) with the input's sign, as C's frexp returns it (CDNA3
    guide, V_FREXP_MANT_F32: 'extract the binary significand ... in the range [0.5, 1.0)')."""
    w = v.width or 64
    m, _ = np.frexp(FLOAT_TYPES[w](v.v))
    return Val("f", w, FLOAT_TYPES[w](m))


def _is_even(v: Val) -> Val:
    f = float(v.v) if v.kind == "f" else v.v
    return boolval(float(f).is_integer() and int(f) % 2 == 0)


def _sum_rounded_once(*terms: Val) -> Val:
    """The exact sum of f32 values rounded once to f32 (nearest even). Not an AMD helper: the
    rounding-only exceptions of tools/pcode_diff.py (V_DOT2_*) compare against it. Infinities and
    NaNs follow IEEE addition; an exact zero takes IEEE's sign rule for a sum."""
    xs = [np.float32(t.v) if t.kind == "f" else np.float32(int(t.v)) for t in terms]
    with np.errstate(all="ignore"):
        if any(not np.isfinite(x) for x in xs):
            return Val("f", 32, np.float32(sum(np.float64(x) for x in xs)))
        exact = sum((Fraction(float(x)) for x in xs), Fraction(0))
        if exact == 0:
            return Val("f", 32, np.float32(sum(np.float64(x) for x in xs)))
        return Val("f", 32, round_fraction(exact, 32))


HELPERS: dict[str, Callable[..., Val]] = {
    "sum_rounded_once": _sum_rounded_once,
    "abs": lambda v: Val("f", v.width, abs(v.v)) if v.kind == "f" else mk_int(v.kind, v.width, abs(v.v)),
    "sign": lambda v: mk_int("u", 1, _fbits(v)[0]) if v.kind == "f" else mk_int("u", 1, v.bits() >> (v.width - 1)),
    # a signed integer: `exponent(S2) - exponent(S1) < -150` (V_DIV_FIXUP) is a signed comparison
    "exponent": lambda v: mk_int("i", 32, _fbits(v)[1]),
    "mantissa": _frexp_mantissa,
    "isNAN": _class_check(lambda v: bool(np.isnan(v.v))),
    "isSignalNAN": _class_check(_is_snan),
    "isQuietNAN": _class_check(lambda v: bool(np.isnan(v.v)) and not _is_snan(v)),
    "cvtToQuietNAN": _quiet,
    "fma": _fma,
    "floor": _ffloor,
    "trunc": _ftrunc,
    "fract": _fract,
    "ldexp": _ldexp,
    "isEven": _is_even,
    "signext": _signext,
    "f16_to_f32": _f_to_f(32), "f32_to_f16": _f_to_f(16), "f32_to_f64": _f_to_f(64),
    "f64_to_f32": _f_to_f(32),
    "i32_to_f32": _int_to_f(32), "u32_to_f32": _int_to_f(32), "i32_to_f64": _int_to_f(64),
    "u32_to_f64": _int_to_f(64), "u16_to_f16": _int_to_f(16), "i16_to_f16": _int_to_f(16),
    "f32_to_i32": lambda v: _to_int_sat(v, "i", 32), "f32_to_u32": lambda v: _to_int_sat(v, "u", 32),
    "f64_to_i32": lambda v: _to_int_sat(v, "i", 32), "f64_to_u32": lambda v: _to_int_sat(v, "u", 32),
    "f16_to_i16": lambda v: _to_int_sat(v, "i", 16), "f16_to_u16": lambda v: _to_int_sat(v, "u", 16),
    "u32_to_u16": _narrow_int("u", 16), "i32_to_i16": _narrow_int("i", 16),
    "u8_to_u32": _widen("u", 8, 32), "u16_to_u32": _widen("u", 16, 32), "u4_to_u32": _widen("u", 4, 32),
    "i8_to_i32": _widen("i", 8, 32), "i16_to_i32": _widen("i", 16, 32), "i4_to_i32": _widen("i", 4, 32),
    "bitCount": lambda v: mk_int("u", 32, bin(v.bits()).count("1")),
}


def _call(name: str, args: list, env: Env) -> Val:
    if name in env.lambdas:
        _, params, body = env.lambdas[name]
        values = [_eval(a, env) for a in args]
        saved = {p: env.vars.get(p) for p in params}
        for p, v in zip(params, values):
            env.vars[p] = Storage(v.bits(), v.kind, v.width or 64) if v.kind != "f" or v.width else \
                Storage(to_kind(v, "f", 64).bits(), "f", 64)
        try:
            for k, st in enumerate(body):
                if st[0] == "expr" and k == len(body) - 1:
                    return _eval(st[1], env)
                _stmt(st, env)
            raise PcodeUnsupported(f"lambda {name} returns no value")
        except _Return as ret:
            return ret.value
        finally:
            for p, old in saved.items():
                if old is None:
                    env.vars.pop(p, None)
                else:
                    env.vars[p] = old
    values = [_eval(a, env) for a in args]
    fn = env.helpers.get(name) or HELPERS.get(name)
    if fn is not None:
        try:
            return fn(*values)
        except TypeError as exc:
            raise PcodeUnsupported(f"{name} with {len(values)} arguments") from exc
    if re.match(r"^[vs]_[a-z0-9_]+$", name) and env.call_instruction is not None:
        return env.call_instruction(name, values)
    raise PcodeUnsupported(f"helper {name}()")
