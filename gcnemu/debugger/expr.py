"""A small, safe expression language for `break if EXPR` (and `print EXPR`).

    v5[3] == 7          s2 > 4          cycle > 100         any(v1 != 0)
    f32(v2[0]) >= 1.5   lds[0x40] == 3  wave == 1 && m0 == 0x100

Why not Python `eval`: commands come from files and pasted transcripts, and a
debugger must never run code it reads. This is a tokenizer and a recursive
descent parser over a closed set of operators; evaluation walks the tree.

Values are Python ints/floats or numpy arrays of 64 lanes (a vector register
without a lane selector). Registers read as raw unsigned bits (a 64-bit value
for pairs such as s[0:1], vcc, exec); `f32()`, `i32()`, `f16()`, `bf16()`,
`f64()` reinterpret bits. A condition must be one truth value: a per-lane
comparison needs `any(...)` or `all(...)`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Union

import numpy as np

from . import regs


class ExprError(ValueError):
    """A malformed or unevaluable expression; the message points at the problem."""


Value = Union[int, float, np.ndarray]


@dataclass(frozen=True)
class Node:
    op: str  # 'num', 'reg', 'lds', 'name', 'call', 'un', 'bin'
    args: tuple


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>0[xX][0-9a-fA-F]+|0[bB][01]+|\d+\.\d*(?:[eE][-+]?\d+)?|\d+(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)
  | (?P<op>==|!=|<=|>=|&&|\|\||<<|>>|[-+*/%&|^~!<>(),\[\]:])
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
""", re.VERBOSE)

NAMES = ("cycle", "pc", "line", "wave")
FUNCTIONS = ("any", "all", "f32", "i32", "u32", "f16", "bf16", "f64", "count")
_KEYWORDS = {"and": "&&", "or": "||", "not": "!"}

_BINARY = [  # precedence climbing, loosest first
    ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", "<=", ">", ">="), ("<<", ">>"),
    ("+", "-"), ("*", "/", "%"),
]


# Bounds that keep parsing and evaluation well inside Python's recursion limit (each nesting
# level is a dozen parser frames; evaluation recurses once per tree level), with room to spare
# for any condition a person writes. As the snippet headers' expressions: 40 levels of nesting.
MAX_NESTING = 40  # parentheses, calls, lds[...] and unary operators inside each other
MAX_DEPTH = 200  # levels of the tree: `1+1+...` is as deep as it has operators


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.nesting = 0

    def _enter(self) -> None:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise ExprError(f"the expression nests more than {MAX_NESTING} levels deep "
                            f"(parentheses, calls or unary operators) at column {self.pos + 1}")

    # -------------------------------------------------------------- lexing
    def _skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> tuple[str, str] | None:
        self._skip()
        if self.pos >= len(self.text):
            return None
        m = _TOKEN.match(self.text, self.pos)
        if not m:
            raise ExprError(f"unexpected character '{self.text[self.pos]}' at column {self.pos + 1}")
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "id" and value.lower() in _KEYWORDS:
            return "op", _KEYWORDS[value.lower()]
        return kind, value

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise ExprError("the expression ends too early")
        m = _TOKEN.match(self.text, self.pos)
        self.pos = m.end()
        return tok

    def expect(self, op: str) -> None:
        tok = self.peek()
        if tok != ("op", op):
            got = f"'{tok[1]}'" if tok else "the end"
            raise ExprError(f"expected '{op}' at column {self.pos + 1}, found {got}")
        self.take()

    # -------------------------------------------------------------- grammar
    def parse(self) -> Node:
        if not self.text.strip():
            raise ExprError("empty expression")
        node = self.binary(0)
        tok = self.peek()
        if tok is not None:
            raise ExprError(f"unexpected '{tok[1]}' at column {self.pos + 1}")
        if _depth(node) > MAX_DEPTH:
            raise ExprError(f"the expression has more than {MAX_DEPTH} operators in a chain; split it up")
        return node

    def binary(self, level: int) -> Node:
        if level == len(_BINARY):
            return self.unary()
        left = self.binary(level + 1)
        while True:
            tok = self.peek()
            if tok and tok[0] == "op" and tok[1] in _BINARY[level]:
                self.take()
                right = self.binary(level + 1)
                left = Node("bin", (tok[1], left, right))
            else:
                return left

    def unary(self) -> Node:
        tok = self.peek()
        if tok and tok[0] == "op" and tok[1] in ("-", "!", "~", "+"):
            self.take()
            self._enter()
            node = Node("un", (tok[1], self.unary()))
            self.nesting -= 1
            return node
        return self.atom()

    def atom(self) -> Node:
        self._skip()
        start = self.pos
        # registers first: `v5[3]` is a register with a lane selector, not an index expression
        try:
            got = regs.parse_prefix(self.text.lower(), self.pos)
        except regs.RegError as e:
            raise ExprError(str(e)) from None
        if got is not None:
            ref, end = got
            self.pos = end
            return Node("reg", (ref,))
        tok = self.take()
        kind, value = tok
        if kind == "num":
            return Node("num", (_number(value),))
        if kind == "op" and value == "(":
            self._enter()
            node = self.binary(0)
            self.expect(")")
            self.nesting -= 1
            return node
        if kind == "id":
            name = value.lower()
            if name == "lds":
                self.expect("[")
                self._enter()
                addr = self.binary(0)
                self.expect("]")
                self.nesting -= 1
                return Node("lds", (addr,))
            if name in NAMES:
                return Node("name", (name,))
            if name in FUNCTIONS:
                self.expect("(")
                self._enter()
                arg = self.binary(0)
                self.expect(")")
                self.nesting -= 1
                return Node("call", (name, arg))
            raise ExprError(f"unknown name '{value}' at column {start + 1} (registers such as v5[3], s2, exec; "
                            f"{', '.join(NAMES)}; lds[ADDR]; functions {', '.join(FUNCTIONS)})")
        raise ExprError(f"unexpected '{value}' at column {start + 1}")


def _number(text: str) -> Value:
    t = text.lower()
    if t.startswith("0x"):
        return int(t, 16)
    if t.startswith("0b"):
        return int(t, 2)
    if any(c in t for c in ".e"):
        return float(t)
    return int(t)


def _depth(node: Node) -> int:
    """Levels of the tree, counted without recursion (the tree may be too deep to recurse)."""
    deepest = 0
    stack = [(node, 1)]
    while stack:
        n, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((a, d + 1) for a in n.args if isinstance(a, Node))
    return deepest


def parse(text: str) -> Node:
    """Parse an expression; ExprError with a column on malformed input. gdb's `$v2`, `$exec`,
    `$pc` name the same things as `v2`, `exec`, `pc` (fingers trained on gdb type the `$`)."""
    return _Parser(strip_dollars(text)).parse()


def strip_dollars(text: str) -> str:
    """`$v2 + $s0` -> `v2 + s0`: gdb's register syntax, accepted everywhere a register is."""
    return re.sub(r"\$(?=[A-Za-z_])", "", text)


# ------------------------------------------------------------------ evaluation

@dataclass
class Env:
    """What an expression can see: one wave's registers, the LDS, the clock."""

    wave: object  # WaveState
    wave_index: int
    cycle: int
    pc: int
    line: int
    lds: np.ndarray  # uint8


def _combine(raw: np.ndarray, ref: regs.RegRef) -> Value:
    """Registers as a value: 32-bit (or 64-bit for pairs); vectors keep their lanes."""
    if ref.count > 2:
        raise ExprError(f"{ref.name} is {ref.count} registers wide; compare one register (or a pair) at a time")
    if ref.is_vector:
        v = raw[0].astype(np.uint64)
        if ref.count == 2:
            v = v | (raw[1].astype(np.uint64) << np.uint64(32))
        if ref.lanes is not None:
            if len(ref.lanes) == 1:
                return int(v[ref.lanes[0]])
            return v[list(ref.lanes)]
        return v
    value = int(raw[0])
    if ref.count == 2:
        value |= int(raw[1]) << 32
    return value


def _reinterpret(fn: str, v: Value) -> Value:
    arr = np.asarray(v)
    if arr.dtype.kind == "f":
        if fn in ("f32", "f64", "f16", "bf16"):
            return v
        raise ExprError(f"{fn}() takes register bits, not a float")
    a = arr.astype(np.uint64)
    if fn == "u32":
        out = a & np.uint64(0xFFFFFFFF)
    elif fn == "i32":
        out = (a & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.int32).astype(np.int64)
    elif fn == "f32":
        out = (a & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(np.float32).astype(np.float64)
    elif fn == "f64":
        out = a.view(np.float64)
    elif fn == "f16":
        out = (a & np.uint64(0xFFFF)).astype(np.uint16).view(np.float16).astype(np.float64)
    elif fn == "bf16":
        out = ((a & np.uint64(0xFFFF)).astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    else:  # pragma: no cover - guarded by FUNCTIONS
        raise ExprError(fn)
    return out.item() if out.ndim == 0 else out


def _ints(v: Value) -> Value:
    if isinstance(v, np.ndarray):
        return v.astype(np.int64) if v.dtype.kind in "uib" else v
    return v


_OPS: dict[str, Callable] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
}


def _is_int(v: Value) -> bool:
    return isinstance(v, (int, np.integer, bool, np.bool_)) or (isinstance(v, np.ndarray) and v.dtype.kind in "uib")


def evaluate(node: Node, env: Env) -> Value:
    op, args = node.op, node.args
    if op == "num":
        return args[0]
    if op == "reg":
        ref: regs.RegRef = args[0]
        return _ints(_combine(ref.read(env.wave), ref))
    if op == "name":
        return {"cycle": env.cycle, "pc": env.pc, "line": env.line, "wave": env.wave_index}[args[0]]
    if op == "lds":
        addr = evaluate(args[0], env)
        if not isinstance(addr, (int, np.integer)):
            raise ExprError("lds[ADDR] needs one integer address")
        addr = int(addr)
        if addr < 0 or addr + 4 > len(env.lds):
            raise ExprError(f"lds[0x{addr:x}] is outside the LDS (0x0..0x{len(env.lds):x})")
        return int(np.frombuffer(env.lds[addr:addr + 4].tobytes(), "<u4")[0])
    if op == "call":
        fn, arg = args
        v = evaluate(arg, env)
        if fn == "any":
            return bool(np.any(v))
        if fn == "all":
            return bool(np.all(v))
        if fn == "count":
            return int(np.count_nonzero(v))
        return _ints(_reinterpret(fn, v))
    if op == "un":
        sym, arg = args
        v = evaluate(arg, env)
        if sym == "-":
            return -v
        if sym == "+":
            return v
        if sym == "!":
            return np.logical_not(v) if isinstance(v, np.ndarray) else (not v)
        if not _is_int(v):
            raise ExprError("'~' needs an integer")
        return ~v
    sym, left, right = args
    if sym in ("&&", "||"):
        a = evaluate(left, env)
        if not isinstance(a, np.ndarray):
            if sym == "&&" and not a:
                return False
            if sym == "||" and a:
                return True
        b = evaluate(right, env)
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return np.logical_and(a, b) if sym == "&&" else np.logical_or(a, b)
        return bool(b)
    a, b = evaluate(left, env), evaluate(right, env)
    if sym in ("/", "%"):
        if np.any(np.asarray(b) == 0):
            raise ExprError("division by zero")
        if _is_int(a) and _is_int(b):
            return a // b if sym == "/" else a % b
        return a / b if sym == "/" else a % b
    if sym in ("<<", ">>"):
        if not (_is_int(a) and _is_int(b)):
            raise ExprError(f"'{sym}' needs integers")
        if np.any(np.asarray(b) < 0) or np.any(np.asarray(b) > 64):
            raise ExprError(f"shift amount must be 0..64")
        return a << b if sym == "<<" else a >> b
    if sym in ("&", "|", "^") and not (_is_int(a) and _is_int(b)):
        raise ExprError(f"'{sym}' needs integers")
    return _OPS[sym](a, b)


def truth(node: Node, env: Env) -> bool:
    """Evaluate as a condition: exactly one truth value."""
    v = evaluate(node, env)
    if isinstance(v, np.ndarray) and v.size != 1:
        raise ExprError("the condition has one value per lane; wrap it in any(...) or all(...)")
    return bool(np.asarray(v).reshape(-1)[0]) if isinstance(v, np.ndarray) else bool(v)


def registers_of(node: Node) -> list[regs.RegRef]:
    """Registers an expression reads (to tell users what a condition depends on)."""
    out: list[regs.RegRef] = []
    if node.op == "reg":
        out.append(node.args[0])
    for a in node.args:
        if isinstance(a, Node):
            out.extend(registers_of(a))
    return out
