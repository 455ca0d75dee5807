"""A small, safe expression language for snippet headers (`lane * 4`, `A @ B`, `arange(64)`).

Snippet files come from strangers, so their expressions are never given to Python's
`eval`. This module tokenizes and parses them itself (a Pratt parser) into a tiny
tree of dataclasses and evaluates that tree over numbers and numpy arrays:

- only names from the caller's environment (`lane`, `wave`, buffer names...) and
  the whitelisted functions below exist; there is no attribute access (`x.y` is a
  syntax error), no keywords, no lambdas, no strings except as function arguments;
- every operation is priced before it runs: array sizes, total element work,
  integer bit length, exponent size, nesting depth and text length are all capped
  (`Limits`), so `9**9**9`, `zeros(10**12)` or `[[[[...]]]]` fail fast with an
  error instead of eating the machine.

Errors are `EvalError(message, start, end)` with offsets into the expression text,
so the caller can point at the exact column in the snippet file.
"""
from __future__ import annotations

import math
import os
import re
import stat
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

__all__ = ["EvalError", "Limits", "Node", "parse_expr", "evaluate", "names_used", "FUNCTIONS"]


class EvalError(Exception):
    """Bad expression: syntax, unknown name, wrong argument, or a limit exceeded."""

    def __init__(self, message: str, start: int = 0, end: int | None = None):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end if end is not None else start + 1


@dataclass(frozen=True)
class Limits:
    """Caps that keep a hostile expression from exhausting time or memory."""

    max_length: int = 4096  # characters of expression text
    max_depth: int = 40  # nesting of parentheses/brackets/operators
    max_elements: int = 1 << 22  # elements of any one array (4 Mi: 32 MB as float64)
    max_work: int = 1 << 28  # total element-operations of one evaluation (matmul counts n*k*m)
    max_int_bits: int = 1024  # Python integers stay below this many bits
    max_npy_bytes: int = 64 << 20  # sidecar .npy files


DEFAULT_LIMITS = Limits()

# ---------------------------------------------------------------- syntax tree


@dataclass(frozen=True, slots=True)
class Node:
    """Base: `start`/`end` are offsets into the expression text (for error carets)."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Num(Node):
    value: int | float


@dataclass(frozen=True, slots=True)
class Str(Node):
    value: str


@dataclass(frozen=True, slots=True)
class Name(Node):
    name: str


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str
    operand: Node


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    args: tuple
    kwargs: tuple  # ((name, Node), ...)


@dataclass(frozen=True, slots=True)
class Index(Node):
    target: Node
    items: tuple  # Node | SliceNode


@dataclass(frozen=True, slots=True)
class SliceNode(Node):
    lo: Node | None
    hi: Node | None
    step: Node | None


@dataclass(frozen=True, slots=True)
class ListNode(Node):
    items: tuple


@dataclass(frozen=True, slots=True)
class TupleNode(Node):
    items: tuple


# ---------------------------------------------------------------- tokenizer


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str  # num, str, name, op, end
    text: str
    start: int
    end: int
    value: Any = None


# ASCII only: str.isdigit/isalpha and `\d` also accept other scripts' digits and letters ('٣', 'é'),
# which no snippet name or number is written in.
_NUM = re.compile(r"0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?", re.ASCII)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIGITS = frozenset("0123456789")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_OPS = ("**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "@", "&", "|", "^", "~",
        "<", ">", "(", ")", "[", "]", ",", ":", "=")


def tokenize(text: str) -> list[Tok]:
    toks: list[Tok] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t":
            i += 1
            continue
        if ch in _DIGITS or (ch == "." and i + 1 < n and text[i + 1] in _DIGITS):
            m = _NUM.match(text, i)
            raw = m.group(0)
            if m.end() < n and (text[m.end()].isalnum() or text[m.end()] == "_"):
                j = m.end()
                while j < n and (text[j].isalnum() or text[j] == "_"):
                    j += 1
                raise EvalError(f"malformed number '{text[i:j]}'", i, j)
            clean = raw.replace("_", "")
            try:
                if clean[:2].lower() in ("0x", "0b", "0o"):
                    value: int | float = int(clean, 0)
                elif any(c in clean for c in ".eE"):
                    value = float(clean)
                else:
                    value = int(clean)
            except ValueError:
                raise EvalError(f"malformed number '{raw}'", i, m.end()) from None
            toks.append(Tok("num", raw, i, m.end(), value))
            i = m.end()
            continue
        if ch in _NAME_START:
            m = _NAME.match(text, i)
            toks.append(Tok("name", m.group(0), i, m.end()))
            i = m.end()
            continue
        if ch in "\"'":
            j = text.find(ch, i + 1)
            if j < 0:
                raise EvalError("unterminated string", i, n)
            toks.append(Tok("str", text[i:j + 1], i, j + 1, text[i + 1:j]))
            i = j + 1
            continue
        if ch == ".":
            raise EvalError("attribute access ('.') is not allowed in snippet expressions; "
                            "use functions such as transpose(x) or reshape(x, ...)", i, i + 1)
        for op in _OPS:
            if text.startswith(op, i):
                toks.append(Tok("op", op, i, i + len(op)))
                i += len(op)
                break
        else:
            raise EvalError(f"unexpected character '{ch}'", i, i + 1)
    toks.append(Tok("end", "", n, n))
    return toks


# ---------------------------------------------------------------- Pratt parser

# binding powers, Python's precedence order
_INFIX = {
    "|": 20, "^": 30, "&": 40, "<<": 50, ">>": 50, "+": 60, "-": 60,
    "*": 70, "/": 70, "//": 70, "%": 70, "@": 70, "**": 90,
}
_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_COMPARE_BP = 10
_PREFIX_BP = 80


class _Parser:
    def __init__(self, text: str, limits: Limits):
        self.text = text
        self.toks = tokenize(text)
        self.i = 0
        self.depth = 0
        self.limits = limits

    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def next(self) -> Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def at(self, text: str) -> bool:
        return self.tok.kind == "op" and self.tok.text == text

    def expect(self, text: str) -> Tok:
        if not self.at(text):
            t = self.tok
            found = f"'{t.text}'" if t.kind != "end" else "end of expression"
            raise EvalError(f"expected '{text}', found {found}", t.start, max(t.end, t.start + 1))
        return self.next()

    def parse(self) -> Node:
        if not self.text.strip():
            raise EvalError("empty expression", 0, 1)
        node = self.expr(0)
        if self.tok.kind != "end":
            t = self.tok
            raise EvalError(f"unexpected '{t.text}'", t.start, t.end)
        return node

    def _enter(self, start: int) -> None:
        self.depth += 1
        if self.depth > self.limits.max_depth:
            raise EvalError(f"expression nested too deeply (limit {self.limits.max_depth})", start, start + 1)

    def expr(self, min_bp: int) -> Node:
        self._enter(self.tok.start)
        try:
            left = self.prefix()
            compared = False
            while True:
                t = self.tok
                if t.kind != "op":
                    if t.kind != "end":
                        raise EvalError(f"unexpected '{t.text}' (missing operator?)", t.start, t.end)
                    break
                op = t.text
                if op in _COMPARE:
                    if _COMPARE_BP < min_bp:
                        break
                    if compared:
                        raise EvalError("chained comparisons are not supported; combine them with & and |",
                                        t.start, t.end)
                    compared = True
                    self.next()
                    right = self.expr(_COMPARE_BP + 1)
                    left = Binary(left.start, right.end, op, left, right)
                    continue
                bp = _INFIX.get(op)
                if bp is None or bp < min_bp:
                    break
                self.next()
                # ** is right-associative and its right side may carry a unary sign
                right = self.power_rhs() if op == "**" else self.expr(bp + 1)
                left = Binary(left.start, right.end, op, left, right)
            return left
        finally:
            self.depth -= 1

    def power_rhs(self) -> Node:
        if self.at("-") or self.at("+") or self.at("~"):
            t = self.next()
            self._enter(t.start)
            try:
                operand = self.power_rhs()
            finally:
                self.depth -= 1
            return Unary(t.start, operand.end, t.text, operand)
        return self.expr(90)

    def prefix(self) -> Node:
        t = self.next()
        if t.kind == "num":
            return self.postfix(Num(t.start, t.end, t.value))
        if t.kind == "str":
            return Str(t.start, t.end, t.value)
        if t.kind == "name":
            if self.at("("):
                return self.postfix(self.call(t))
            return self.postfix(Name(t.start, t.end, t.text))
        if t.kind == "op":
            if t.text in ("-", "+", "~"):
                operand = self.expr(_PREFIX_BP)
                return Unary(t.start, operand.end, t.text, operand)
            if t.text == "(":
                self._enter(t.start)
                try:
                    if self.at(")"):
                        raise EvalError("empty parentheses", t.start, self.tok.end)
                    first = self.expr(0)
                    if self.at(","):
                        items = [first]
                        while self.at(","):
                            self.next()
                            if self.at(")"):
                                break
                            items.append(self.expr(0))
                        close = self.expect(")")
                        return self.postfix(TupleNode(t.start, close.end, tuple(items)))
                    close = self.expect(")")
                finally:
                    self.depth -= 1
                return self.postfix(first)
            if t.text == "[":
                self._enter(t.start)
                try:
                    items = []
                    while not self.at("]"):
                        items.append(self.expr(0))
                        if not self.at(","):
                            break
                        self.next()
                    close = self.expect("]")
                finally:
                    self.depth -= 1
                return self.postfix(ListNode(t.start, close.end, tuple(items)))
        found = f"'{t.text}'" if t.kind != "end" else "end of expression"
        raise EvalError(f"expected a value, found {found}", t.start, max(t.end, t.start + 1))

    def call(self, name: Tok) -> Node:
        self.expect("(")
        self._enter(name.start)
        try:
            args: list[Node] = []
            kwargs: list[tuple[str, Node]] = []
            while not self.at(")"):
                if self.tok.kind == "name" and self.toks[self.i + 1].kind == "op" and self.toks[self.i + 1].text == "=":
                    key = self.next()
                    self.next()
                    kwargs.append((key.text, self.expr(0)))
                else:
                    if kwargs:
                        raise EvalError("positional argument after a keyword argument", self.tok.start, self.tok.end)
                    args.append(self.expr(0))
                if not self.at(","):
                    break
                self.next()
            close = self.expect(")")
        finally:
            self.depth -= 1
        return Call(name.start, close.end, name.text, tuple(args), tuple(kwargs))

    def postfix(self, node: Node) -> Node:
        while self.at("["):
            open_ = self.next()
            self._enter(open_.start)
            try:
                items = []
                while True:
                    items.append(self.subscript_item())
                    if not self.at(","):
                        break
                    self.next()
                close = self.expect("]")
            finally:
                self.depth -= 1
            node = Index(node.start, close.end, node, tuple(items))
        if self.at("("):
            raise EvalError("only named functions can be called", self.tok.start, self.tok.end)
        return node

    def subscript_item(self) -> Node:
        start = self.tok.start
        parts: list[Node | None] = [None]
        colons = 0
        if not self.at(":"):
            parts[0] = self.expr(0)
        while self.at(":"):
            colons += 1
            if colons > 2:
                raise EvalError("too many ':' in a slice", self.tok.start, self.tok.end)
            self.next()
            if self.at(":") or self.at(",") or self.at("]"):
                parts.append(None)
            else:
                parts.append(self.expr(0))
        if colons == 0:
            return parts[0]
        while len(parts) < 3:
            parts.append(None)
        return SliceNode(start, self.toks[self.i - 1].end, parts[0], parts[1], parts[2])


def parse_expr(text: str, limits: Limits = DEFAULT_LIMITS) -> Node:
    """Parse expression text into a tree; raises EvalError with offsets."""
    if len(text) > limits.max_length:
        raise EvalError(f"expression longer than {limits.max_length} characters", limits.max_length,
                        len(text))
    return _Parser(text, limits).parse()


def names_used(node: Node) -> set[str]:
    """Every variable name the expression reads (functions excluded)."""
    out: set[str] = set()

    def walk(n) -> None:
        if isinstance(n, Name):
            out.add(n.name)
        elif isinstance(n, Unary):
            walk(n.operand)
        elif isinstance(n, Binary):
            walk(n.left)
            walk(n.right)
        elif isinstance(n, Call):
            for a in n.args:
                walk(a)
            for _, a in n.kwargs:
                walk(a)
        elif isinstance(n, Index):
            walk(n.target)
            for a in n.items:
                walk(a)
        elif isinstance(n, SliceNode):
            for a in (n.lo, n.hi, n.step):
                if a is not None:
                    walk(a)
        elif isinstance(n, (ListNode, TupleNode)):
            for a in n.items:
                walk(a)
    walk(node)
    return out


# ---------------------------------------------------------------- evaluation

CONSTANTS: dict[str, Any] = {"pi": math.pi, "inf": math.inf, "nan": math.nan, "True": True, "False": False}


class _Eval:
    def __init__(self, env: Mapping[str, Any], limits: Limits, default_shape: tuple | None, base_dir: str | None):
        self.env = env
        self.limits = limits
        self.work = 0
        self.default_shape = default_shape
        self.base_dir = base_dir
        self.node: Node | None = None  # node being evaluated, for error positions

    # -- pricing
    def charge(self, elements: int, node: Node) -> None:
        self.work += int(elements)
        if self.work > self.limits.max_work:
            raise EvalError(f"expression too expensive (more than {self.limits.max_work} element operations)",
                            node.start, node.end)

    def check_shape(self, shape, node: Node) -> tuple:
        try:
            shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list, np.ndarray)) else (shape,)))
        except (TypeError, ValueError, OverflowError):
            raise EvalError("a shape must be an integer or a tuple of integers", node.start, node.end) from None
        if len(shape) > 8:
            raise EvalError("arrays have at most 8 dimensions", node.start, node.end)
        if any(s < 0 for s in shape):
            raise EvalError(f"negative dimension in shape {shape}", node.start, node.end)
        size = 1
        for s in shape:
            size *= s
            if size > self.limits.max_elements:
                raise EvalError(f"array of shape {shape} is larger than the limit of {self.limits.max_elements} "
                                f"elements", node.start, node.end)
        self.charge(size, node)
        return shape

    def check_value(self, value, node: Node):
        """Every intermediate result passes here: bounded ints, numeric arrays only."""
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int):
            if value.bit_length() > self.limits.max_int_bits:
                raise EvalError(f"integer result too large (over {self.limits.max_int_bits} bits)",
                                node.start, node.end)
            return value
        if isinstance(value, (float, str, slice)):
            return value
        if isinstance(value, tuple):
            return tuple(self.check_value(v, node) for v in value)
        if isinstance(value, np.generic):
            value = np.asarray(value)
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in "biuf":
                raise EvalError(f"unsupported array element type {value.dtype}", node.start, node.end)
            if value.size > self.limits.max_elements:
                raise EvalError(f"array of {value.size} elements is larger than the limit of "
                                f"{self.limits.max_elements}", node.start, node.end)
            if value.ndim == 0:
                return value[()]
            return value
        raise EvalError(f"unsupported value of type {type(value).__name__}", node.start, node.end)

    # -- tree walk
    def eval(self, node: Node):
        try:
            return self.check_value(self._eval(node), node)
        except EvalError:
            raise
        except RecursionError:
            raise EvalError("expression nested too deeply", node.start, node.end) from None
        except (ArithmeticError, ValueError, TypeError, IndexError, KeyError, MemoryError) as e:
            raise EvalError(_describe(e), node.start, node.end) from None

    def _eval(self, node: Node):
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Str):
            return node.value
        if isinstance(node, Name):
            if node.name.startswith("__"):
                raise EvalError(f"names starting with '__' are not allowed: '{node.name}'", node.start, node.end)
            if node.name in self.env:
                value = self.env[node.name]
                return value.copy() if isinstance(value, np.ndarray) else value
            if node.name in CONSTANTS:
                return CONSTANTS[node.name]
            if node.name in FUNCTIONS:
                raise EvalError(f"'{node.name}' is a function: call it as {node.name}(...)", node.start, node.end)
            known = ", ".join(sorted(k for k in self.env if not k.startswith("_")))
            raise EvalError(f"unknown name '{node.name}'" + (f" (known here: {known})" if known else ""),
                            node.start, node.end)
        if isinstance(node, Unary):
            v = self.operand(self.eval(node.operand), node.operand)
            self.charge(np.size(v), node)
            if node.op == "-":
                return -v if not isinstance(v, bool) else -int(v)
            if node.op == "+":
                return +v
            if isinstance(v, float) or (isinstance(v, np.ndarray) and v.dtype.kind == "f"):
                raise EvalError("'~' needs integers", node.start, node.end)
            return ~v
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Index):
            return self.index(node)
        if isinstance(node, ListNode):
            items = [self.operand(self.eval(i), i) for i in node.items]
            total = sum(int(np.size(i)) for i in items)
            if total > self.limits.max_elements:
                raise EvalError("array literal too large", node.start, node.end)
            self.charge(total, node)
            arr = np.array(items) if items else np.zeros(0)
            return arr
        if isinstance(node, TupleNode):
            return tuple(self.eval(i) for i in node.items)
        if isinstance(node, SliceNode):
            raise EvalError("a slice (':') is only allowed inside [...]", node.start, node.end)
        raise EvalError("unsupported expression", node.start, node.end)  # pragma: no cover

    def operand(self, v, node: Node):
        """Values that arithmetic accepts: numbers and arrays (tuples become arrays)."""
        if isinstance(v, str):
            raise EvalError("a string can only be a function argument", node.start, node.end)
        if isinstance(v, tuple):
            v = np.array(v)
            self.check_value(v, node)
        return v

    def binary(self, node: Binary):
        a = self.operand(self.eval(node.left), node.left)
        b = self.operand(self.eval(node.right), node.right)
        op = node.op
        if op == "@":
            return self.matmul(a, b, node)
        try:
            shape = np.broadcast_shapes(np.shape(a), np.shape(b))
        except ValueError:
            raise EvalError(f"shapes {np.shape(a)} and {np.shape(b)} do not match for '{op}'",
                            node.start, node.end) from None
        self.check_shape(shape, node)
        both_int = _is_pyint(a) and _is_pyint(b)
        if op == "**" and both_int:
            if b < 0:
                return float(a) ** b
            # a cheap lower bound of the result's size; the exact size is checked after the operation
            if abs(a) > 1 and b * (abs(a).bit_length() - 1) > self.limits.max_int_bits:
                raise EvalError(f"exponent too large: {a}**{b} would exceed {self.limits.max_int_bits} bits",
                                node.start, node.end)
        if op == "<<" and both_int and b > self.limits.max_int_bits:
            raise EvalError(f"shift too large ({b} bits)", node.start, node.end)
        if op in ("<<", ">>") and (_is_float(a) or _is_float(b)):
            raise EvalError(f"'{op}' needs integers", node.start, node.end)
        if op in ("&", "|", "^") and (_is_float(a) or _is_float(b)):
            raise EvalError(f"'{op}' needs integers or booleans", node.start, node.end)
        if op in ("/", "//", "%") and both_int and b == 0:
            raise EvalError("division by zero", node.start, node.end)
        with np.errstate(all="ignore"):
            return _BINOPS[op](a, b)

    def matmul(self, a, b, node: Node):
        sa, sb = np.shape(a), np.shape(b)
        if len(sa) == 0 or len(sb) == 0:
            raise EvalError("'@' needs arrays, not scalars (use '*')", node.start, node.end)
        if len(sa) > 2 or len(sb) > 2:
            raise EvalError("'@' supports vectors and matrices only", node.start, node.end)
        k1 = sa[-1]
        k2 = sb[0]
        if k1 != k2:
            raise EvalError(f"'@': inner dimensions differ: {sa} @ {sb}", node.start, node.end)
        n = sa[0] if len(sa) == 2 else 1
        m = sb[1] if len(sb) == 2 else 1
        self.check_shape((n, m), node)
        self.charge(n * m * k1, node)
        a = np.asarray(a)
        b = np.asarray(b)
        if a.dtype.kind in "f" or b.dtype.kind in "f":
            a = a.astype(np.float64)
            b = b.astype(np.float64)
        with np.errstate(all="ignore"):
            return a @ b

    def index(self, node: Index):
        target = self.eval(node.target)
        if not isinstance(target, (np.ndarray, tuple)):
            raise EvalError("only arrays can be indexed", node.target.start, node.target.end)
        target = np.asarray(target)
        keys = []
        for item in node.items:
            if isinstance(item, SliceNode):
                parts = []
                for p in (item.lo, item.hi, item.step):
                    if p is None:
                        parts.append(None)
                        continue
                    v = self.eval(p)
                    if not _is_int_like(v):
                        raise EvalError("slice bounds must be integers", p.start, p.end)
                    parts.append(int(v))
                if parts[2] == 0:
                    raise EvalError("slice step cannot be zero", item.start, item.end)
                keys.append(slice(*parts))
            else:
                v = self.operand(self.eval(item), item)
                if isinstance(v, np.ndarray):
                    if v.dtype.kind not in "biu":
                        raise EvalError("index arrays must be integers or booleans", item.start, item.end)
                    self.charge(v.size, item)
                elif not _is_int_like(v):
                    raise EvalError("indices must be integers", item.start, item.end)
                else:
                    v = int(v)
                keys.append(v)
        key = tuple(keys) if len(keys) > 1 else keys[0]
        result = target[key]
        self.charge(np.size(result), node)
        return result

    def call(self, node: Call):
        spec = FUNCTIONS.get(node.func)
        if spec is None:
            if node.func.startswith("__") or node.func in _PYTHON_BUILTINS:
                raise EvalError(f"'{node.func}' is not available: snippet expressions cannot run Python code",
                                node.start, node.end)
            raise EvalError(f"unknown function '{node.func}'" + _suggest(node.func), node.start, node.end)
        args = [self.eval(a) for a in node.args]
        kwargs = {}
        for key, value in node.kwargs:
            if key in kwargs:
                raise EvalError(f"argument '{key}' given twice", value.start, value.end)
            kwargs[key] = self.eval(value)
        return spec(self, node, *args, **kwargs)


_BINOPS: dict[str, Callable] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: np.true_divide(a, b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else a / b,
    "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b,
    "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}

_PYTHON_BUILTINS = frozenset({"eval", "exec", "open", "compile", "getattr", "setattr", "globals", "locals",
                              "vars", "dir", "type", "object", "input", "breakpoint", "help", "print", "import"})


def _describe(e: Exception) -> str:
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, OverflowError):
        return "number too large"
    if isinstance(e, MemoryError):
        return "out of memory"
    text = str(e).strip() or type(e).__name__
    return text.split("\n")[0]


def _is_pyint(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_float(v) -> bool:
    return isinstance(v, float) or (isinstance(v, (np.ndarray, np.generic)) and np.asarray(v).dtype.kind == "f")


def _is_int_like(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _suggest(name: str) -> str:
    import difflib
    close = difflib.get_close_matches(name, list(FUNCTIONS), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


# ---------------------------------------------------------------- functions

FUNCTIONS: dict[str, Callable] = {}


def _fn(*names: str):
    def reg(f: Callable) -> Callable:
        for n in names:
            FUNCTIONS[n] = f
        return f
    return reg


def _arity(node: Call, args, lo: int, hi: int | None = None) -> None:
    hi = lo if hi is None else hi
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise EvalError(f"{node.func}() takes {want} positional argument(s), got {len(args)}", node.start, node.end)


def _no_kwargs(node: Call, kwargs: dict, allowed: tuple = ()) -> None:
    for k in kwargs:
        if k not in allowed:
            raise EvalError(f"{node.func}() has no argument '{k}'", node.start, node.end)


def _array(ev: _Eval, node: Call, v) -> np.ndarray:
    if isinstance(v, str):
        raise EvalError(f"{node.func}() needs numbers or arrays, not a string", node.start, node.end)
    return np.asarray(v)


def _int_arg(node: Call, v, what: str) -> int:
    if not _is_int_like(v):
        raise EvalError(f"{node.func}(): {what} must be an integer", node.start, node.end)
    return int(v)


def _shape_of(ev: _Eval, node: Call, args, kwargs, first: int = 0):
    if len(args) > first:
        shape = args[first] if len(args) == first + 1 else tuple(args[first:])
    elif "shape" in kwargs:
        shape = kwargs["shape"]
    elif ev.default_shape is not None:
        shape = ev.default_shape
    else:
        raise EvalError(f"{node.func}() needs a shape here", node.start, node.end)
    return ev.check_shape(shape, node)


@_fn("arange")
def _arange(ev, node, *args, **kw):
    _arity(node, args, 1, 3)
    _no_kwargs(node, kw)
    vals = [float(a) if _is_float(a) else _int_arg(node, a, "bounds") for a in args]
    start, stop, step = (0, vals[0], 1) if len(vals) == 1 else (vals[0], vals[1], vals[2] if len(vals) == 3 else 1)
    if step == 0:
        raise EvalError("arange(): step cannot be zero", node.start, node.end)
    count = max(0, math.ceil((stop - start) / step))
    ev.check_shape((count,), node)
    return np.arange(start, stop, step)


def _filler(value_fn):
    def f(ev, node, *args, **kw):
        _no_kwargs(node, kw, ("shape", "dtype"))
        shape = _shape_of(ev, node, args, kw)
        return value_fn(shape)
    return f


FUNCTIONS["zeros"] = _filler(lambda s: np.zeros(s))
FUNCTIONS["ones"] = _filler(lambda s: np.ones(s))


@_fn("full")
def _full(ev, node, *args, **kw):
    _no_kwargs(node, kw, ("shape", "value"))
    if "value" in kw:
        value, shape_args = kw["value"], args
    else:
        if not args:
            raise EvalError("full(shape, value) needs a value", node.start, node.end)
        value, shape_args = args[-1], args[:-1]
    shape = _shape_of(ev, node, shape_args, kw)
    return np.full(shape, _array(ev, node, value))


@_fn("eye")
def _eye(ev, node, *args, **kw):
    _arity(node, args, 1)
    _no_kwargs(node, kw)
    n = _int_arg(node, args[0], "the size")
    ev.check_shape((n, n), node)
    return np.eye(n)


def _rng(node: Call, kw: dict) -> np.random.Generator:
    seed = kw.get("seed", 0)
    return np.random.default_rng(_int_arg(node, seed, "seed") & 0xFFFFFFFFFFFFFFFF)


@_fn("rand")
def _rand(ev, node, *args, **kw):
    """Uniform in [lo, hi), default [0, 1); seeded, so a snippet gives the same numbers every run."""
    _no_kwargs(node, kw, ("shape", "seed", "lo", "hi"))
    shape = _shape_of(ev, node, args, kw)
    lo, hi = float(kw.get("lo", 0.0)), float(kw.get("hi", 1.0))
    return _rng(node, kw).uniform(lo, hi, shape)


@_fn("randn")
def _randn(ev, node, *args, **kw):
    _no_kwargs(node, kw, ("shape", "seed"))
    shape = _shape_of(ev, node, args, kw)
    return _rng(node, kw).standard_normal(shape)


@_fn("randint")
def _randint(ev, node, *args, **kw):
    """randint(lo, hi[, shape], seed=...) -> integers in [lo, hi)."""
    _no_kwargs(node, kw, ("shape", "seed"))
    if len(args) < 2:
        raise EvalError("randint(lo, hi[, shape]) needs lo and hi", node.start, node.end)
    lo, hi = _int_arg(node, args[0], "lo"), _int_arg(node, args[1], "hi")
    if hi <= lo:
        raise EvalError("randint(): hi must be greater than lo", node.start, node.end)
    if lo < -(1 << 63) or hi > (1 << 64):
        raise EvalError("randint(): bounds out of the 64-bit range", node.start, node.end)
    shape = _shape_of(ev, node, args, kw, first=2)
    dtype = np.uint64 if hi > (1 << 63) else np.int64
    return _rng(node, kw).integers(lo, hi, shape, dtype=dtype)


@_fn("reshape")
def _reshape(ev, node, *args, **kw):
    _no_kwargs(node, kw)
    if len(args) < 2:
        raise EvalError("reshape(x, shape) needs a shape", node.start, node.end)
    x = _array(ev, node, args[0])
    shape = args[1] if len(args) == 2 else tuple(args[1:])
    shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, np.ndarray)) else (shape,)))
    ev.charge(x.size, node)
    return x.reshape(shape)


@_fn("transpose", "T")
def _transpose(ev, node, *args, **kw):
    _arity(node, args, 1, 2)
    _no_kwargs(node, kw)
    x = _array(ev, node, args[0])
    ev.charge(x.size, node)
    return np.transpose(x, tuple(int(a) for a in args[1]) if len(args) == 2 else None)


@_fn("flatten", "ravel")
def _flatten(ev, node, *args, **kw):
    _arity(node, args, 1)
    _no_kwargs(node, kw)
    x = _array(ev, node, args[0])
    ev.charge(x.size, node)
    return x.reshape(-1)


def _seq_of_arrays(ev, node, args) -> list:
    items = list(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else list(args)
    arrays = [_array(ev, node, a) for a in items]
    total = sum(a.size for a in arrays)
    if total > ev.limits.max_elements:
        raise EvalError("result too large", node.start, node.end)
    ev.charge(total, node)
    return arrays


@_fn("concat", "concatenate")
def _concat(ev, node, *args, **kw):
    _no_kwargs(node, kw, ("axis",))
    return np.concatenate([np.atleast_1d(a) for a in _seq_of_arrays(ev, node, args)], axis=int(kw.get("axis", 0)))


@_fn("stack")
def _stack(ev, node, *args, **kw):
    _no_kwargs(node, kw, ("axis",))
    return np.stack(_seq_of_arrays(ev, node, args), axis=int(kw.get("axis", 0)))


@_fn("tile")
def _tile(ev, node, *args, **kw):
    _arity(node, args, 2)
    _no_kwargs(node, kw)
    x = _array(ev, node, args[0])
    reps = args[1] if isinstance(args[1], tuple) else (args[1],)
    reps = tuple(_int_arg(node, r, "repetitions") for r in reps)
    shape = list(x.shape)
    shape = [1] * (len(reps) - len(shape)) + shape
    full_reps = [1] * (len(shape) - len(reps)) + list(reps)
    ev.check_shape(tuple(s * r for s, r in zip(shape, full_reps)), node)
    return np.tile(x, reps)


@_fn("repeat")
def _repeat(ev, node, *args, **kw):
    _arity(node, args, 2)
    _no_kwargs(node, kw, ("axis",))
    x = _array(ev, node, args[0])
    n = _int_arg(node, args[1], "the count")
    ev.check_shape((max(x.size, 1) * max(n, 0),), node)
    axis = kw.get("axis")
    return np.repeat(x, n, axis=None if axis is None else int(axis))


@_fn("flip")
def _flip(ev, node, *args, **kw):
    _arity(node, args, 1)
    _no_kwargs(node, kw, ("axis",))
    x = _array(ev, node, args[0])
    ev.charge(x.size, node)
    axis = kw.get("axis")
    return np.flip(x, axis=None if axis is None else int(axis))


@_fn("outer")
def _outer(ev, node, *args, **kw):
    _arity(node, args, 2)
    _no_kwargs(node, kw)
    a, b = _array(ev, node, args[0]), _array(ev, node, args[1])
    ev.check_shape((a.size, b.size), node)
    return np.outer(a, b)


@_fn("matmul", "dot")
def _matmul(ev, node, *args, **kw):
    _arity(node, args, 2)
    _no_kwargs(node, kw)
    return ev.matmul(_array(ev, node, args[0]), _array(ev, node, args[1]), node)


@_fn("where")
def _where(ev, node, *args, **kw):
    _arity(node, args, 3)
    _no_kwargs(node, kw)
    c, a, b = (_array(ev, node, v) for v in args)
    try:
        ev.check_shape(np.broadcast_shapes(c.shape, a.shape, b.shape), node)
    except ValueError:
        raise EvalError("where(): shapes do not match", node.start, node.end) from None
    return np.where(c, a, b)


def _elementwise(np_fn, nargs: int = 1):
    def f(ev, node, *args, **kw):
        _arity(node, args, nargs)
        _no_kwargs(node, kw)
        arrays = [_array(ev, node, a) for a in args]
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            raise EvalError(f"{node.func}(): shapes do not match", node.start, node.end) from None
        ev.check_shape(shape, node)
        with np.errstate(all="ignore"):
            return np_fn(*arrays)
    return f


for _name, _np_fn in {"abs": np.abs, "sqrt": np.sqrt, "exp": np.exp, "exp2": np.exp2, "log": np.log,
                      "log2": np.log2, "sin": np.sin, "cos": np.cos, "tanh": np.tanh, "floor": np.floor,
                      "ceil": np.ceil, "round": np.rint, "trunc": np.trunc, "sign": np.sign,
                      "isnan": np.isnan, "isinf": np.isinf, "rsqrt": lambda x: 1.0 / np.sqrt(x),
                      "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x))}.items():
    FUNCTIONS[_name] = _elementwise(_np_fn)
FUNCTIONS["minimum"] = _elementwise(np.minimum, 2)
FUNCTIONS["maximum"] = _elementwise(np.maximum, 2)
FUNCTIONS["clip"] = _elementwise(np.clip, 3)
FUNCTIONS["fma"] = _elementwise(lambda a, b, c: a * b + c, 3)


def _reduction(np_fn):
    def f(ev, node, *args, **kw):
        _arity(node, args, 1)
        _no_kwargs(node, kw, ("axis",))
        x = _array(ev, node, args[0])
        if x.size == 0 and np_fn in (np.min, np.max):
            raise EvalError(f"{node.func}() of an empty array", node.start, node.end)
        ev.charge(x.size, node)
        axis = kw.get("axis")
        with np.errstate(all="ignore"):
            return np_fn(x, axis=None if axis is None else int(axis))
    return f


for _name, _np_fn in {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max, "mean": np.mean,
                      "cumsum": np.cumsum, "sort": np.sort, "argmax": np.argmax, "argmin": np.argmin,
                      "count_nonzero": np.count_nonzero, "any": np.any, "all": np.all}.items():
    FUNCTIONS[_name] = _reduction(_np_fn)


@_fn("len")
def _len(ev, node, *args, **kw):
    _arity(node, args, 1)
    x = args[0]
    if isinstance(x, (tuple, np.ndarray)) and np.ndim(x) > 0:
        return len(x)
    raise EvalError("len() needs an array", node.start, node.end)


@_fn("shape")
def _shape(ev, node, *args, **kw):
    _arity(node, args, 1)
    return tuple(int(s) for s in np.shape(_array(ev, node, args[0])))


@_fn("size")
def _size(ev, node, *args, **kw):
    _arity(node, args, 1)
    return int(np.size(_array(ev, node, args[0])))


# type conversions: value casts (C-like: floats truncate, integers wrap)
def _bf16():
    import ml_dtypes
    return ml_dtypes.bfloat16


def _cast(dtype_name: str):
    def f(ev, node, *args, **kw):
        _arity(node, args, 1)
        _no_kwargs(node, kw)
        x = _array(ev, node, args[0])
        ev.charge(x.size, node)
        with np.errstate(all="ignore"):
            if dtype_name == "bf16":
                return x.astype(np.float32).astype(_bf16()).astype(np.float32)
            dt = np.dtype(DTYPES[dtype_name])
            if dt.kind in "iu" and x.dtype.kind == "f":
                x = np.trunc(np.nan_to_num(x))
                info = np.iinfo(np.int64)
                x = np.clip(x, info.min, info.max).astype(np.int64)
            if dt.kind in "iu" and x.dtype.kind in "iu" and x.dtype != dt:
                x = x.astype(np.int64) if x.dtype != np.uint64 else x
            return x.astype(dt)
    return f


DTYPES: dict[str, Any] = {"f64": np.float64, "f32": np.float32, "f16": np.float16, "bf16": "bf16",
                          "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
                          "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64}
for _name in DTYPES:
    FUNCTIONS[_name] = _cast(_name)


def _bitcast(src, dst, post=None):
    def f(ev, node, *args, **kw):
        _arity(node, args, 1)
        _no_kwargs(node, kw)
        x = _array(ev, node, args[0])
        ev.charge(x.size, node)
        with np.errstate(all="ignore"):
            if np.dtype(src).kind in "iu" and x.dtype.kind in "iu":
                x = x.astype(np.int64).astype(src) if x.dtype != np.uint64 else x.astype(src)
            else:
                x = x.astype(src)
        out = x.view(dst)
        return post(out) if post else out
    return f


FUNCTIONS["as_u32"] = _bitcast(np.float32, np.uint32)  # f32 value -> its bit pattern
FUNCTIONS["as_f32"] = _bitcast(np.uint32, np.float32)  # bit pattern -> f32 value
FUNCTIONS["as_u16"] = _bitcast(np.float16, np.uint16)
FUNCTIONS["as_f16"] = _bitcast(np.uint16, np.float16)
FUNCTIONS["as_u64"] = _bitcast(np.float64, np.uint64)
FUNCTIONS["as_f64"] = _bitcast(np.uint64, np.float64)
FUNCTIONS["as_bf16"] = lambda ev, node, *a, **k: _bitcast(np.uint16, np.uint16, lambda u: (
    u.astype(np.uint32) << 16).view(np.float32))(ev, node, *a, **k)


@_fn("npy")
def _npy(ev, node, *args, **kw):
    """A sidecar .npy file next to the snippet: relative path, inside the snippet's folder, no pickles."""
    _arity(node, args, 1)
    _no_kwargs(node, kw)
    path = args[0]
    if not isinstance(path, str):
        raise EvalError('npy() takes a file name in quotes: npy("a.npy")', node.start, node.end)
    if ev.base_dir is None:
        raise EvalError("npy() is not available here", node.start, node.end)
    if os.path.isabs(path) or ".." in path.replace("\\", "/").split("/") or not path.endswith(".npy"):
        raise EvalError("npy(): the file must be a relative '.npy' path inside the snippet's folder",
                        node.start, node.end)
    base = os.path.realpath(ev.base_dir)
    full = os.path.realpath(os.path.join(base, path))
    if not full.startswith(base + os.sep):
        raise EvalError("npy(): the file must be inside the snippet's folder", node.start, node.end)
    # Opened without blocking and checked on the open descriptor: a FIFO or device named x.npy would
    # block the read forever (or never end), and checking the path first would leave a race.
    try:
        fd = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        raise EvalError(f"npy(): cannot read '{path}'", node.start, node.end) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise EvalError(f"npy(): '{path}' is not a regular file", node.start, node.end)
    with os.fdopen(fd, "rb") as f:
        if st.st_size > ev.limits.max_npy_bytes:
            raise EvalError(f"npy(): '{path}' is larger than {ev.limits.max_npy_bytes} bytes", node.start, node.end)
        try:
            arr = np.load(f, allow_pickle=False)
        except (OSError, ValueError, EOFError) as e:  # EOFError: an empty file
            raise EvalError(f"npy(): cannot load '{path}': {e}", node.start, node.end) from None
    if not isinstance(arr, np.ndarray):
        raise EvalError(f"npy(): '{path}' does not hold a single array", node.start, node.end)
    if arr.dtype.kind not in "biuf":
        if arr.dtype.itemsize == 2 and arr.dtype.kind == "V":  # bfloat16 saved by ml_dtypes
            arr = (arr.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        else:
            raise EvalError(f"npy(): unsupported element type {arr.dtype}", node.start, node.end)
    ev.check_shape(arr.shape, node)
    return arr


# ---------------------------------------------------------------- entry point


def evaluate(expr: str | Node, env: Mapping[str, Any] | None = None, *, limits: Limits = DEFAULT_LIMITS,
             default_shape: tuple | None = None, base_dir: str | None = None):
    """Evaluate expression text (or a parsed tree) with `env` names; returns a number or numpy array.

    default_shape: the shape that `rand()`/`zeros()` use when called without one (buffer initialisers).
    base_dir: the folder `npy("file.npy")` reads from (None disables it).
    """
    node = parse_expr(expr, limits) if isinstance(expr, str) else expr
    ev = _Eval(env or {}, limits, default_shape, base_dir)
    result = ev.eval(node)
    if isinstance(result, str):
        raise EvalError("the expression is a string, not a value", node.start, node.end)
    return result
