"""Snippet headers: value types, registers, and the `; gcnemu:` header block of an asm file.

Snippet files: an asm file whose header comments declare its launch setup and expected results.

    ; gcnemu:
    ;   arch: gfx90a
    ;   workgroup: 64
    ;   buffer A: f32[64] = arange(64) -> s[4:5]
    ;   vgpr v5 = lane * 4
    ;   expect v1 = lane * 4 : u32
    ;   expect A = arange(64) * 2 : tol 1e-6
    ;   expect hazards: none
    ;   expect cycles: 1000..1400
    ;   expect mfma-utilisation: 0.15..0.25
    ;   expect stall waitcnt vmcnt: 1000..2000

The full syntax is documented in docs/snippets.md. This module turns the header into
a `Setup` (what `gcnemu run` launches) plus expectations, and checks expectations
against a finished `Simulation`. Expressions go through `gcnemu.snippets.evaluator`, never
Python `eval`: snippet files are input from strangers.

Why header comments: the file stays a plain `.s` that llvm-mc assembles unchanged,
and the expectations live beside the code they describe.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..asm.diagnostics import Diagnostic, GcnemuError
from ..asm.program import Program, Span

if TYPE_CHECKING:
    from .evaluator import Node

# The expression evaluator (.evaluator) is imported where an expression is first parsed or
# evaluated: a file without header expressions - most files `gcnemu timeline` or `run` is
# given - never needs it, and importing it costs ~20 ms.

# ---------------------------------------------------------------- value types

# name -> (numpy storage type, bytes). bf16 stays a name: ml_dtypes is imported only when used.
TYPE_BYTES = {"f64": 8, "u64": 8, "i64": 8, "f32": 4, "u32": 4, "i32": 4, "f16": 2, "bf16": 2, "u16": 2,
              "i16": 2, "u8": 1, "i8": 1}
FLOAT_TYPES = frozenset({"f64", "f32", "f16", "bf16"})


def np_dtype(name: str):
    """numpy dtype for a type name (bf16 from ml_dtypes)."""
    if name == "bf16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    from .evaluator import DTYPES
    return np.dtype(DTYPES[name])


def cast_to(value, tname: str, shape: tuple | None, what: str) -> np.ndarray:
    """An evaluated value as an array of type `tname` and `shape` (broadcast, or reshaped when
    the element count matches). Integer types wrap like the hardware; a non-integral float for an
    integer type is an error rather than a silent truncation."""
    arr = np.asarray(value)
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    if arr.dtype == object:  # numpy keeps integers past 64 bits as Python objects: no register holds them
        raise ValueError(f"{what}: the value does not fit in 64 bits")
    if shape is not None and arr.shape != tuple(shape):
        if arr.size == int(np.prod(shape)) and arr.size > 1:
            arr = arr.reshape(shape)
        else:
            try:
                arr = np.broadcast_to(arr, shape)
            except ValueError:
                raise ValueError(f"{what}: a value of shape {arr.shape} does not fit shape {tuple(shape)}") from None
    with np.errstate(all="ignore"):
        if tname in FLOAT_TYPES:
            out = arr.astype(np.float64).astype(np.float32 if tname == "bf16" else np_dtype(tname))
            if tname == "bf16":
                out = out.astype(np_dtype("bf16"))
            return np.ascontiguousarray(out)
        if arr.dtype.kind == "f":
            if not np.all(np.isfinite(arr)) or np.any(arr != np.trunc(arr)):
                raise ValueError(f"{what}: type {tname} needs integers, the value has fractions or NaN/inf")
            arr = arr.astype(np.int64)
        if arr.dtype != np.uint64:
            arr = arr.astype(np.int64)
        return np.ascontiguousarray(arr.astype(np_dtype(tname)))


def words_from_typed(arr: np.ndarray, tname: str) -> np.ndarray:
    """Typed values -> uint32 words (64-bit values give two words, lo first; 16/8-bit zero-extend)."""
    size = TYPE_BYTES[tname]
    if size == 4:
        return arr.view(np.uint32)
    if size == 8:
        return _split64(arr.view(np.uint64))
    bits = arr.view(np.uint16 if size == 2 else np.uint8)
    return bits.astype(np.uint32)


def _split64(u: np.ndarray) -> np.ndarray:
    """uint64[n, ...] -> uint32[2n, ...]: each value becomes (lo, hi) along the first axis."""
    lo = (u & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    hi = (u >> np.uint64(32)).astype(np.uint32)
    out = np.empty((u.shape[0] * 2,) + u.shape[1:], dtype=np.uint32)
    out[0::2] = lo
    out[1::2] = hi
    return out


def typed_from_words(words: np.ndarray, tname: str, hi: bool = False) -> np.ndarray:
    """uint32 words [count, ...] -> typed values; 64-bit types pair registers (count halves)."""
    size = TYPE_BYTES[tname]
    words = np.asarray(words, dtype=np.uint32)
    if size == 4:
        return words.view(np_dtype(tname))
    if size == 8:
        u = words[0::2].astype(np.uint64) | (words[1::2].astype(np.uint64) << np.uint64(32))
        return u.view(np_dtype(tname))
    shifted = words >> np.uint32(16 if size == 2 else 8) if hi else words
    if size == 2:
        return (shifted & np.uint32(0xFFFF)).astype(np.uint16).view(np_dtype(tname))
    return (shifted & np.uint32(0xFF)).astype(np.uint8).view(np_dtype(tname))


# ---------------------------------------------------------------- registers

_REG_ONE = re.compile(r"^([vsa])(\d+)$", re.ASCII)
_REG_RANGE = re.compile(r"^([vsa])\[\s*(\d+)\s*:\s*(\d+)\s*\]$", re.ASCII)


@dataclass(frozen=True)
class RegRef:
    """A register or range named in a header: v1, v[0:3], a5, s[4:5], vcc, m0, exec, scc."""

    file: str  # 'v' | 'a' | 's' | 'scc'
    index: int  # first SGPR slot for scalars (vcc = 106...)
    count: int
    text: str

    @property
    def vector(self) -> bool:
        return self.file in ("v", "a")

    def names(self) -> list[str]:
        """One name per 32-bit register (JSON keys)."""
        if self.file == "scc":
            return ["scc"]
        if self.count == 1:
            return [self.text]
        if self.file == "s" and not self.text.startswith("s"):
            return [f"{self.text}[{k}]" for k in range(self.count)]
        return [f"{self.file}{self.index + k}" for k in range(self.count)]

    def words(self, wave) -> np.ndarray:
        """Current contents as uint32: [count, 64] for vector registers, [count] for scalars."""
        if self.file == "v":
            return np.array(wave.vgpr[self.index:self.index + self.count], dtype=np.uint32)
        if self.file == "a":
            return np.array(wave.agpr[self.index:self.index + self.count], dtype=np.uint32)
        if self.file == "scc":
            return np.array([wave.scc], dtype=np.uint32)
        return np.array(wave.sgpr[self.index:self.index + self.count], dtype=np.uint32)

    def setup_key(self) -> str:
        """The `Setup.sgprs` key for a scalar register (special names map to their slots)."""
        return f"s{self.index}" if self.count == 1 else f"s[{self.index}:{self.index + self.count - 1}]"


def parse_reg(text: str, target=None) -> RegRef:
    """Register text -> RegRef; ValueError with a readable message when it is not one."""
    from ..sim.state import SPECIAL_SLOTS
    t = text.strip()
    if t == "scc":
        return RegRef("scc", 0, 1, t)
    if t in SPECIAL_SLOTS:
        slot, n = SPECIAL_SLOTS[t]
        return RegRef("s", slot, n, t)
    m = _REG_ONE.match(t)
    if m:
        f, lo, hi = m.group(1), int(m.group(2)), int(m.group(2))
    else:
        m = _REG_RANGE.match(t)
        if not m:
            raise ValueError(f"'{t}' is not a register (expected v1, v[0:3], a0, s5, s[4:5], vcc, exec, m0 or scc)")
        f, lo, hi = m.group(1), int(m.group(2)), int(m.group(3))
        if hi < lo:
            raise ValueError(f"'{t}': the first register index exceeds the second")
    limit = {"v": 256, "a": 256, "s": 102}[f]
    if target is not None:
        limit = {"v": target.vgprs, "a": target.agprs, "s": target.sgprs}[f]
    if hi >= limit:
        raise ValueError(f"'{t}' is out of range: the target has {f}0..{f}{limit - 1}")
    return RegRef(f, lo, hi - lo + 1, t)


def default_type(count: int, value) -> str:
    """Untyped values: a register pair holds one 64-bit value, anything else 32-bit words;
    float values are f32/f64, integers u32/u64 (negative integers wrap, so i32 works too)."""
    is_float = np.asarray(value).dtype.kind == "f"
    if count == 2:
        return "f64" if is_float else "u64"
    return "f32" if is_float else "u32"


# ---------------------------------------------------------------- source positions


@dataclass(frozen=True)
class Src:
    """Where a piece of header text sits, so every error can point at its column."""

    file: str
    line: int
    col: int  # 1-based column of text[0]
    text: str

    def span(self, a: int = 0, b: int | None = None) -> Span:
        b = len(self.text) if b is None else b
        return Span(self.file, self.line, self.col + a, self.line, self.col + max(b, a + 1))

    def error(self, message: str, a: int = 0, b: int | None = None) -> GcnemuError:
        return GcnemuError(message, [Diagnostic("error", message, self.span(a, b))])

    def sub(self, a: int, b: int | None = None) -> "Src":
        """The piece text[a:b], leading/trailing blanks trimmed, columns kept."""
        b = len(self.text) if b is None else b
        piece = self.text[a:b]
        lead = len(piece) - len(piece.lstrip())
        return Src(self.file, self.line, self.col + a + lead, piece.strip())


@dataclass(frozen=True)
class Expr:
    """An expression from a header with its position; parsed once, evaluated as often as needed."""

    src: Src
    node: Node

    @staticmethod
    def parse(src: Src) -> "Expr":
        if not src.text:
            raise src.error("expected an expression")
        from .evaluator import EvalError, parse_expr
        try:
            return Expr(src, parse_expr(src.text))
        except EvalError as e:
            raise src.error(e.message, e.start, e.end) from None

    def names(self) -> set[str]:
        from .evaluator import names_used
        return names_used(self.node)

    def eval(self, env: dict, default_shape=None, base_dir: str | None = None):
        from .evaluator import EvalError, evaluate
        try:
            return evaluate(self.node, env, default_shape=default_shape, base_dir=base_dir)
        except EvalError as e:
            raise self.src.error(e.message, e.start, e.end) from None


def _top_find(text: str, needles: tuple[str, ...], start: int = 0) -> tuple[int, str]:
    """First needle at bracket depth 0 outside quotes: (index, needle) or (-1, '')."""
    depth = 0
    quote = ""
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0:
            for n in needles:
                if text.startswith(n, i):
                    return i, n
        i += 1
    return -1, ""


def _find_assign(text: str, start: int = 0) -> tuple[int, int]:
    """The top-level '=' or '==' that separates a left side from a value: (index, length) or (-1, 0)."""
    i = start
    while True:
        i, _ = _top_find(text, ("=",), i)
        if i < 0:
            return -1, 0
        if i > 0 and text[i - 1] in "<>!=":
            i += 1
            continue
        return (i, 2) if text.startswith("==", i) else (i, 1)


# ---------------------------------------------------------------- the header block

_OPENER = re.compile(r"gcnemu\s*:", re.IGNORECASE)
_KEY = re.compile(r"[a-z][a-z0-9_-]*")


@dataclass
class Directive:
    """One header statement: `buffer A: f32[64] = ...`, `expect v1 = lane`."""

    key: str
    src: Src  # the whole statement text
    trailing: bool = False  # written after an instruction on the same line

    @property
    def line(self) -> int:
        return self.src.line


def _comment_start(line: str, in_block: bool) -> tuple[int | None, bool, bool]:
    """(column index of a ';' or '//' line comment or None, whether only blanks precede it, block-comment state)."""
    if not in_block and ";" not in line and "/" not in line and '"' not in line:
        return None, False, False  # no comment can start here: most lines of a kernel (one C-level scan)
    i, n = 0, len(line)
    quote = False
    code_seen = False
    while i < n:
        ch = line[i]
        if in_block:
            if line.startswith("*/", i):
                in_block = False
                i += 2
                continue
            i += 1
            continue
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                quote = False
            i += 1
            continue
        if ch == '"':
            quote = True
            code_seen = True
        elif ch == ";" or line.startswith("//", i):
            return i, not code_seen, False
        elif line.startswith("/*", i):
            in_block = True
            i += 2
            continue
        elif not ch.isspace():
            code_seen = True
        i += 1
    return None, False, in_block


def scan_directives(lines: list[str], file: str) -> list[Directive]:
    """Find every header statement of a file (see the module docstring for the block rules)."""
    out: list[Directive] = []
    in_block_comment = False
    block_open = False
    for lineno, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r")
        start, full, in_block_comment_next = _comment_start(line, in_block_comment)
        in_block_comment = in_block_comment_next
        if start is None:
            block_open = False
            continue
        # comment text without its markers (';;;' or '//')
        j = start
        while j < len(line) and line[j] in ";/":
            j += 1
        while j < len(line) and line[j] in " \t":
            j += 1
        text = line[j:]
        m = _OPENER.match(text)
        if not full:
            block_open = False
            if m:
                rest = j + m.end()
                piece = Src(file, lineno, rest + 1, line[rest:]).sub(0)
                if piece.text:
                    out.append(_directive(piece, trailing=True))
            continue
        if m:
            block_open = True
            rest = j + m.end()
            piece = Src(file, lineno, rest + 1, line[rest:]).sub(0)
            if piece.text:
                out.append(_directive(piece))
            continue
        if not block_open:
            continue
        body = text.rstrip()
        if not body or body.startswith("#"):
            continue
        if body.lower() == "end":
            block_open = False
            continue
        out.append(_directive(Src(file, lineno, j + 1, body)))
    return out


def _strip_note(src: Src) -> Src:
    """Drop a trailing `# note` (outside quotes): header lines may explain themselves."""
    quote = ""
    for i, ch in enumerate(src.text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return src.sub(0, i)
    return src


def _directive(src: Src, trailing: bool = False) -> Directive:
    src = _strip_note(src)
    m = _KEY.match(src.text)
    if not m:
        raise src.error("expected a header statement such as 'arch:', 'buffer', 'vgpr' or 'expect'")
    return Directive(m.group(0).lower(), src, trailing)


# ---------------------------------------------------------------- declarations


@dataclass
class BufferDecl:
    name: str
    tname: str
    shape: tuple | None
    init: Expr | None
    sgpr: str | None
    rsrc: str | None
    stride: int
    src: Src


@dataclass
class ArgDecl:
    name: str
    value: Expr | None  # None: the argument is the buffer of that name
    src: Src


@dataclass
class RegInit:
    reg: RegRef
    expr: Expr
    tname: str | None
    src: Src


@dataclass
class LdsInit:
    offset: int
    tname: str
    shape: tuple | None
    expr: Expr | None
    src: Src


# ---------------------------------------------------------------- expectations


@dataclass
class Options:
    """What follows ':' after an expected value: type, tolerances, lanes, waves."""

    tname: str | None = None
    tol: float = 0.0
    rtol: float = 0.0
    lanes: tuple[int, int] | None = None  # inclusive
    waves: tuple[int, int] | None = None  # inclusive
    hi: bool = False
    given: dict = field(default_factory=dict)  # option word ('lanes', 'wave') -> its text, for errors


@dataclass
class Expect:
    """Base of every expectation; `src` is the statement, for failure messages and --update."""

    src: Src
    directive: Directive


@dataclass
class RegExpect(Expect):
    reg: RegRef = None
    expr: Expr = None
    opts: Options = field(default_factory=Options)


@dataclass
class MemExpect(Expect):
    lhs: Expr = None
    expr: Expr = None
    opts: Options = field(default_factory=Options)


@dataclass
class LdsExpect(Expect):
    offset: int = 0
    tname: str = "u32"
    shape: tuple = ()
    expr: Expr = None
    opts: Options = field(default_factory=Options)


@dataclass
class HazardExpect(Expect):
    rule: str = ""  # '' with none=True: `expect hazards: none`
    line: int | None = None
    present: bool = True
    none: bool = False
    rule_src: Src = None  # where the rule id and the line number are written (for errors)
    line_src: Src = None


@dataclass
class CyclesExpect(Expect):
    lo: int | None = None
    hi: int | None = None
    value_src: Src = None  # the text after 'cycles:' (what --update rewrites)


@dataclass
class MetricExpect(Expect):
    """A timing figure within a range: MFMA utilisation (0..1) or one stall reason's cycles per wave."""

    metric: str = ""  # 'mfma-utilisation' or 'stall:<reason>'
    lo: float | None = None
    hi: float | None = None
    value_src: Src = None


@dataclass
class CounterExpect(Expect):
    counter: str = ""  # vmcnt | lgkmcnt | expcnt | instructions
    value: int = 0
    opts: Options = field(default_factory=Options)


@dataclass
class ErrorExpect(Expect):
    text: str = ""


VALUE_EXPECTS = (RegExpect, MemExpect, LdsExpect)


# ---------------------------------------------------------------- header


@dataclass
class Header:
    """Everything a snippet header declares, not yet evaluated."""

    directives: list[Directive] = field(default_factory=list)
    arch: tuple[str, Src] | None = None  # the first target named; `archs` has them all
    archs: list[str] = field(default_factory=list)  # `arch: gfx90a, gfx942`: the snippet holds on each
    workgroup: tuple[tuple[int, int, int], Src] | None = None
    waves: tuple[int, Src] | None = None
    workgroup_id: tuple[int, int, int] | None = None
    grid: tuple[int, int, int] | None = None  # `grid: X[, Y[, Z]]`: run every workgroup of the dispatch
    mode: str = "timed"  # `mode: functional`: the functional engine (values only, no cycles)
    scratch: int | None = None  # `scratch: BYTES`: private segment bytes per lane
    lds_dynamic: tuple[int, Src] | None = None  # `lds-dynamic: BYTES`: the launch's dynamic LDS per workgroup
    kernarg: tuple[int | None, Src] | None = None
    kernel: tuple[str, Src] | None = None  # `kernel: NAME`: which kernel of the file to launch
    latencies: dict[str, int] = field(default_factory=dict)
    latency_src: dict[str, Src] = field(default_factory=dict)
    max_cycles: int | None = None
    max_instructions: int | None = None
    buffers: list[BufferDecl] = field(default_factory=list)
    args: list[ArgDecl] = field(default_factory=list)
    reg_inits: list[RegInit] = field(default_factory=list)
    lds_inits: list[LdsInit] = field(default_factory=list)
    expects: list[Expect] = field(default_factory=list)

    @property
    def has_expectations(self) -> bool:
        return bool(self.expects)


def parse_header(program: Program) -> Header:
    """Read the header statements of a parsed file (from `program.lines`: the parser drops comments)."""
    header = Header()
    parse_directives(scan_directives(program.lines, program.file), header)
    return header


def parse_directives(directives: list[Directive], header: Header) -> None:
    """Apply every statement, then report every one that is wrong at once, as a compiler does:
    fixing a header one error per run is slow. (Statements are independent at this stage;
    evaluating them together comes later, in `launch.build`.)"""
    errors = []
    for d in directives:
        header.directives.append(d)
        try:
            parse_directive(d, header)
        except GcnemuError as e:
            errors += e.diagnostics or [Diagnostic("error", str(e), d.src.span())]
    if errors:
        raise GcnemuError(errors[0].message, errors)


def parse_directive(d: Directive, header: Header) -> None:
    """Apply one statement to the header. Later statements of the same name override earlier ones
    (that is how CLI options override the file)."""
    src = d.src
    _check_ascii(src)
    key = d.key
    rest = src.sub(len(key))
    handler = _HANDLERS.get(key)
    if handler is None:
        import difflib
        close = difflib.get_close_matches(key, list(_HANDLERS), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else f" (known: {', '.join(sorted(_HANDLERS))})"
        raise src.error(f"unknown header statement '{key}'{hint}", 0, len(key))
    if d.trailing and key != "expect":
        raise src.error("only 'expect' statements can follow an instruction on its line", 0, len(key))
    handler(d, rest, header)


def _check_ascii(src: Src) -> None:
    """Header statements are ASCII outside quoted strings (file names may be in any script): Python's
    int() and `\\d` read '٣' as 3 and str.isalpha() takes 'é' for a letter, so a non-ASCII digit or
    letter would otherwise be read as something the author never wrote, or break a parser."""
    quote = ""
    for i, ch in enumerate(src.text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif not ch.isascii():
            raise src.error(f"unexpected character '{ch}': header statements are written in ASCII "
                            "(other characters only inside quotes)", i, i + 1)


def _after_colon(rest: Src, key: str) -> Src:
    if not rest.text.startswith(":"):
        raise rest.error(f"expected ':' after '{key}'", 0, 1)
    return rest.sub(1)


def _int_value(src: Src, what: str, lo: int | None = 0, hi: int | None = None) -> int:
    """An integer header value in lo..hi (inclusive); `hi` for values that land in a register."""
    value = Expr.parse(src).eval({})
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise src.error(f"{what} must be an integer")
    if lo is not None and value < lo:
        raise src.error(f"{what} must be at least {lo}")
    if hi is not None and value > hi:
        raise src.error(f"{what} must be at most {hi} (0x{hi:x})")
    return int(value)


def _split_commas(src: Src) -> list[Src]:
    out = []
    start = 0
    while True:
        i, _ = _top_find(src.text, (",",), start)
        if i < 0:
            out.append(src.sub(start))
            return [p for p in out if p.text or len(out) == 1]
        out.append(src.sub(start, i))
        start = i + 1


def _h_arch(d: Directive, rest: Src, h: Header) -> None:
    from ..isa.targets import get_target
    val = _after_colon(rest, "arch")
    names = []
    for part in _split_commas(val):
        try:
            name = get_target(part.text.strip()).name
        except KeyError as e:
            raise part.error(str(e).strip("'\"")) from None
        if name in names:
            raise part.error(f"target '{name}' is named twice")
        names.append(name)
    h.arch = (names[0], val)
    h.archs = names


def _h_workgroup(d: Directive, rest: Src, h: Header) -> None:
    val = _after_colon(rest, "workgroup")
    text = val.text.strip()
    parts = [text] if re.fullmatch(r"0[xX][0-9a-fA-F]+", text) else re.split(r"\s*[x,]\s*", text)
    try:
        dims = [int(p, 0) for p in parts if p]
    except ValueError:
        raise val.error("workgroup size: expected N, XxY or XxYxZ (e.g. 256 or 16x16)") from None
    if not 1 <= len(dims) <= 3 or any(x < 1 for x in dims):
        raise val.error("workgroup size: expected 1 to 3 positive dimensions")
    while len(dims) < 3:
        dims.append(1)
    if dims[0] * dims[1] * dims[2] > 1024:
        raise val.error("a workgroup has at most 1024 work-items")
    h.workgroup = (tuple(dims), val)


def _h_waves(d: Directive, rest: Src, h: Header) -> None:
    val = _after_colon(rest, "waves")
    n = _int_value(val, "the number of waves", 1)
    if n > 16:
        raise val.error("a workgroup has at most 16 waves")
    h.waves = (n, val)


def _h_scratch(d: Directive, rest: Src, h: Header) -> None:
    from ..setup import MAX_PRIVATE_BYTES
    h.scratch = _int_value(_after_colon(rest, "scratch"), "scratch bytes per lane", 0, MAX_PRIVATE_BYTES)


# the largest LDS of a target (gfx950's 160 KiB); the launch checks the target's own size
MAX_LDS_BYTES = 160 << 10


def _h_lds_dynamic(d: Directive, rest: Src, h: Header) -> None:
    val = _after_colon(rest, "lds-dynamic")
    h.lds_dynamic = (_int_value(val, "dynamic LDS bytes", 0, MAX_LDS_BYTES), val)


def _h_mode(d: Directive, rest: Src, h: Header) -> None:
    val = _after_colon(rest, "mode")
    word = val.text.strip()
    if word not in ("timed", "functional"):
        raise val.error(f"mode: expected 'timed' or 'functional', got '{word}'")
    h.mode = word


def timing_expects(h: Header) -> list:
    """Expectations that need the timed engine (cycles, stalls, utilisation, counters, hazards)."""
    return [e for e in h.expects if isinstance(e, (CyclesExpect, MetricExpect, CounterExpect, HazardExpect))]


def _h_grid(d: Directive, rest: Src, h: Header) -> None:
    from ..setup import MAX_WORKGROUPS
    val = _after_colon(rest, "grid")
    dims = [_int_value(s, "grid", 1) for s in _split_commas(val)]
    if not 1 <= len(dims) <= 3:
        raise val.error("grid: expected X[, Y[, Z]] workgroup counts")
    total = dims[0] * (dims[1] if len(dims) > 1 else 1) * (dims[2] if len(dims) > 2 else 1)
    if total > MAX_WORKGROUPS:  # as `--grid` refuses it: a list of 2**40 workgroup ids does not fit in memory
        raise val.error(f"grid: {total} workgroups; gcnemu runs at most {MAX_WORKGROUPS} in one grid")
    h.grid = tuple(dims + [1] * (3 - len(dims)))


def _h_workgroup_id(d: Directive, rest: Src, h: Header) -> None:
    val = _after_colon(rest, "workgroup-id")
    ids = [_int_value(p, "a workgroup id", 0, 0xFFFFFFFF) for p in _split_commas(val)]  # one SGPR each
    if not 1 <= len(ids) <= 3:
        raise val.error("workgroup-id: expected X[, Y[, Z]]")
    h.workgroup_id = tuple(ids + [0] * (3 - len(ids)))


def _h_kernarg(d: Directive, rest: Src, h: Header) -> None:
    val = _after_colon(rest, "kernarg")
    if val.text.lower() == "none":
        h.kernarg = (None, val)
        return
    try:
        reg = parse_reg(val.text)
    except ValueError as e:
        raise val.error(str(e)) from None
    if reg.file != "s" or reg.count != 2 or not val.text.startswith("s"):
        raise val.error("kernarg: expected an SGPR pair such as s[0:1], or 'none'")
    h.kernarg = (reg.index, val)


def _h_kernel(d: Directive, rest: Src, h: Header) -> None:
    val = _after_colon(rest, "kernel")
    name = val.text.strip()
    if not name or any(c in name for c in " \t,"):
        raise val.error("kernel: expected one kernel name (its .amdhsa_kernel or metadata .name)")
    h.kernel = (name, val)


def _h_latency(d: Directive, rest: Src, h: Header) -> None:
    from ..isa.targets import MAX_LATENCY, POSITIVE_LATENCIES, Latencies
    val = _after_colon(rest, "latency")
    for part in _split_commas(val):
        name, eq, value = part.text.partition("=")
        name = name.strip()
        if not eq:
            raise part.error("latency: expected name=cycles (e.g. vmem=300)")
        if name not in Latencies.__dataclass_fields__:
            raise part.error(f"unknown latency '{name}'; known: {', '.join(Latencies.__dataclass_fields__)}",
                             0, len(name))
        h.latencies[name] = _int_value(part.sub(part.text.index("=") + 1), f"latency {name}",
                                       1 if name in POSITIVE_LATENCIES else 0, MAX_LATENCY)
        h.latency_src[name] = part


def _h_limit(attr: str):
    def handler(d: Directive, rest: Src, h: Header) -> None:
        val = _after_colon(rest, d.key)
        setattr(h, attr, _int_value(val, d.key, 1))
    return handler


def _parse_type(src: Src, allow_no_type: bool = False) -> tuple[str | None, tuple | None, int]:
    """`f32[64,64]` at the start of src -> (type, shape or None, characters used)."""
    m = re.match(r"([a-z][a-z0-9]*)", src.text)
    if not m or m.group(1) not in TYPE_BYTES:
        if allow_no_type:
            return None, None, 0
        word = m.group(1) if m else src.text[:1]
        raise src.error(f"expected a type ({', '.join(TYPE_BYTES)}), found '{word}'", 0, max(1, len(word)))
    tname = m.group(1)
    i = m.end()
    if i < len(src.text) and src.text[i] == "[":
        depth_close = _matching_bracket(src.text, i)
        if depth_close < 0:
            raise src.error("missing ']' after the shape", i, i + 1)
        inner = src.sub(i + 1, depth_close)
        dims = [_int_value(p, "a dimension", 0) for p in _split_commas(inner)] if inner.text else []
        size = int(np.prod(dims)) if dims else 1
        from .evaluator import DEFAULT_LIMITS
        limit = DEFAULT_LIMITS.max_elements
        if size > limit:
            raise inner.error(f"{size} elements: snippet buffers are limited to {limit} elements")
        return tname, tuple(dims), depth_close + 1
    return tname, None, i


def _matching_bracket(text: str, i: int) -> int:
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "[":
            depth += 1
        elif text[j] == "]":
            depth -= 1
            if depth == 0:
                return j
    return -1


_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED_NAMES = frozenset({"lane", "wave", "tid", "tid_x", "tid_y", "tid_z", "i", "lds", "pi", "inf", "nan",
                             "True", "False"})


def parse_buffer(src: Src) -> BufferDecl:
    """`A: f32[64] = INIT -> s[4:5], rsrc s[8:11] stride 4` (header) or `A=f32[64]:INIT->s[4:5]` (CLI)."""
    m = _NAME_RE.match(src.text)
    if not m:
        raise src.error("expected a buffer name")
    name = m.group(0)
    _check_buffer_name(name, src)
    arrow, _ = _top_find(src.text, ("->",))
    body_end = arrow if arrow >= 0 else len(src.text)
    rest = src.sub(m.end(), body_end)
    tname = shape = None
    init = None
    if rest.text:
        sep = rest.text[0]
        if sep not in ":=":
            raise rest.error(f"expected ':' and a type after buffer name '{name}'", 0, 1)
        body = rest.sub(1)
        # `A = EXPR` has no type; `A=TYPE[SHAPE]:INIT` (the CLI form) has a top-level ':'
        typed = sep == ":" or _top_find(body.text, (":",))[0] >= 0
        tname, shape, used = _parse_type(body, allow_no_type=not typed)
        if tname is None:
            init = Expr.parse(body)
        else:
            tail = body.sub(used)
            if tail.text:
                if tail.text[0] not in "=:":
                    raise tail.error("expected '=' and the initial contents", 0, 1)
                init = Expr.parse(tail.sub(1))
    if tname is None and init is None:
        raise src.error(f"buffer '{name}' needs a type (e.g. f32[64]) or contents")
    if shape is None and init is None:  # nothing says how many elements the buffer has
        raise src.error(f"buffer '{name}' needs a shape (e.g. {tname}[64]) or contents")
    sgpr = rsrc = None
    stride = 0
    if arrow >= 0:
        dests = src.sub(arrow + 2)
        for part in _split_commas(dests):
            words = part.text.split()
            if not words:
                raise part.error("expected an SGPR such as s[4:5] or 'rsrc s[8:11]'")
            if words[0] == "rsrc":
                if len(words) < 2:
                    raise part.error("rsrc needs four SGPRs, e.g. rsrc s[8:11]")
                reg_text = words[1]
                try:
                    reg = parse_reg(reg_text)
                except ValueError as e:
                    raise part.error(str(e)) from None
                if reg.file != "s" or reg.count != 4 or reg.index % 4:
                    raise part.error("a buffer descriptor (V#) needs four aligned SGPRs, e.g. rsrc s[8:11]")
                rsrc = reg.setup_key()
                if len(words) >= 3:
                    if words[2] != "stride" or len(words) != 4:
                        raise part.error("expected 'stride N' after the descriptor registers")
                    stride = _int_value(part.sub(part.text.index(words[3])), "stride")
                    if stride >= 1 << 14:
                        raise part.error("the V# stride field has 14 bits (at most 16383)")
            else:
                if len(words) != 1:
                    raise part.error("expected one SGPR pair such as s[4:5]")
                try:
                    reg = parse_reg(words[0])
                except ValueError as e:
                    raise part.error(str(e)) from None
                if reg.file != "s" or reg.count != 2 or reg.index % 2 or not words[0].startswith("s"):
                    raise part.error("a buffer address needs an aligned SGPR pair, e.g. s[4:5]")
                sgpr = reg.setup_key()
    return BufferDecl(name, tname, shape, init, sgpr, rsrc, stride, src)


def _check_buffer_name(name: str, src: Src) -> None:
    from .evaluator import FUNCTIONS
    is_reg = _REG_ONE.match(name) or name in ("vcc", "exec", "m0", "scc")
    if is_reg or name in _RESERVED_NAMES or name in FUNCTIONS or name.startswith("__"):
        raise src.error(f"'{name}' cannot name a buffer (it is a register, a function or a reserved name)",
                        0, len(name))


def _h_buffer(d: Directive, rest: Src, h: Header) -> None:
    decl = parse_buffer(rest)
    for k, b in enumerate(h.buffers):
        if b.name == decl.name:
            h.buffers[k] = decl
            return
    h.buffers.append(decl)


def parse_args(src: Src) -> list[ArgDecl]:
    out = []
    for part in _split_commas(src):
        if not part.text:
            raise part.error("empty kernel argument")
        i, n = _find_assign(part.text)
        if i < 0:
            if not _NAME_RE.fullmatch(part.text):
                raise part.error("expected a buffer name or name=value")
            out.append(ArgDecl(part.text, None, part))
        else:
            name = part.text[:i].strip()
            if not _NAME_RE.fullmatch(name):
                raise part.error("expected name=value", 0, max(i, 1))
            out.append(ArgDecl(name, Expr.parse(part.sub(i + n)), part))
    return out


def _h_arg(d: Directive, rest: Src, h: Header) -> None:
    val = _after_colon(rest, d.key)
    for a in parse_args(val):
        merge_arg(h, a)


def merge_arg(h: Header, a: ArgDecl) -> None:
    for k, old in enumerate(h.args):
        if old.name == a.name:
            h.args[k] = a
            return
    h.args.append(a)


def parse_reg_init(src: Src, file_kw: str | None) -> RegInit:
    """`v5 = lane * 4 : f32` (the keyword before it, if any, must match the register file)."""
    i, n = _find_assign(src.text)
    if i < 0:
        raise src.error("expected REGISTER = value")
    reg_src = src.sub(0, i)
    try:
        reg = parse_reg(reg_src.text)
    except ValueError as e:
        raise reg_src.error(str(e)) from None
    want = {"sgpr": "s", "vgpr": "v", "agpr": "a"}.get(file_kw or "")
    if want and reg.file != want:
        raise reg_src.error(f"'{reg_src.text}' is not {'an' if want in 'as' else 'a'} {file_kw.upper()}")
    if reg.file == "scc":
        raise reg_src.error("scc cannot be initialised")
    value = src.sub(i + n)
    colon, _ = _top_find(value.text, (":",))
    tname = None
    if colon >= 0:
        tsrc = value.sub(colon + 1)
        if tsrc.text not in TYPE_BYTES:
            raise tsrc.error(f"expected a type ({', '.join(TYPE_BYTES)})")
        tname = tsrc.text
        value = value.sub(0, colon)
    if tname and TYPE_BYTES[tname] == 8 and reg.count % 2:
        raise reg_src.error(f"a {tname} value needs a register pair such as v[2:3]")
    return RegInit(reg, Expr.parse(value), tname, src)


def _h_reginit(d: Directive, rest: Src, h: Header) -> None:
    init = parse_reg_init(rest, d.key)
    merge_reg_init(h, init)


def merge_reg_init(h: Header, init: RegInit) -> None:
    for k, old in enumerate(h.reg_inits):
        if old.reg == init.reg:
            h.reg_inits[k] = init
            return
    h.reg_inits.append(init)


def _parse_lds_lhs(rest: Src, what: str) -> tuple[int, str, tuple | None, int]:
    """`[OFFSET]: TYPE[SHAPE]` or `: TYPE[SHAPE]` after the word 'lds' -> (offset, type, shape, used)."""
    offset = 0
    pos = 0
    text = rest.text
    if text.startswith("["):
        close = _matching_bracket(text, 0)
        if close < 0:
            raise rest.error("missing ']' after the LDS byte offset", 0, 1)
        offset = _int_value(rest.sub(1, close), "the LDS byte offset")
        pos = close + 1
    tail = rest.sub(pos)
    if not tail.text.startswith(":"):
        raise tail.error(f"{what}: expected ':' and a type, e.g. lds[0x100]: f32[64]", 0, 1)
    body = tail.sub(1)
    tname, shape, used = _parse_type(body)
    consumed = len(rest.text) - len(body.text) + used
    return offset, tname, shape, consumed


def _h_lds(d: Directive, rest: Src, h: Header) -> None:
    offset, tname, shape, used = _parse_lds_lhs(rest, "lds")
    tail = rest.sub(used)
    expr = None
    if tail.text:
        if not tail.text.startswith("="):
            raise tail.error("expected '=' and the initial contents", 0, 1)
        expr = Expr.parse(tail.sub(1))
    if expr is None and shape is None:
        raise rest.error("lds: give a shape or contents")
    if offset % TYPE_BYTES[tname]:
        raise rest.error(f"lds: offset {offset} is not aligned to {tname}")
    h.lds_inits.append(LdsInit(offset, tname, shape, expr, d.src))


# ---------------------------------------------------------------- expect statements


def _parse_options(src: Src) -> Options:
    opts = Options()
    words = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[^\s,]+", src.text)]
    k = 0

    def need_value(word, a, b):
        if k + 1 >= len(words):
            raise src.error(f"'{word}' needs a value", a, b)
        return words[k + 1]

    def number(w, what: str) -> float:
        try:
            return float(w[0])
        except ValueError:
            raise src.error(f"{what} must be a number", w[1], w[2]) from None

    def span_of(w, what: str) -> tuple[int, int]:
        m = re.fullmatch(r"(\d+)(?:\.\.(\d+))?", w[0])
        if not m:
            raise src.error(f"{what}: expected N or A..B (inclusive)", w[1], w[2])
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise src.error(f"{what}: empty range", w[1], w[2])
        return lo, hi

    while k < len(words):
        word, a, b = words[k]
        if word in TYPE_BYTES:
            if opts.tname:
                raise src.error("two types given", a, b)
            opts.tname = word
        elif word in ("tol", "atol"):
            opts.tol = number(need_value(word, a, b), "tol")
            k += 1
        elif word == "rtol":
            opts.rtol = number(need_value(word, a, b), "rtol")
            k += 1
        elif word == "lanes" or word == "lane":
            opts.lanes = span_of(need_value(word, a, b), "lanes")
            if opts.lanes[1] > 63:
                raise src.error("lanes are 0..63", *words[k + 1][1:])
            opts.given["lanes"] = src.sub(a, words[k + 1][2])
            k += 1
        elif word in ("wave", "waves"):
            w = need_value(word, a, b)
            opts.waves = None if w[0] == "all" else span_of(w, "waves")
            opts.given["wave"] = src.sub(a, w[2])
            k += 1
        elif word == "hi":
            opts.hi = True
        else:
            raise src.error(f"unknown option '{word}' (expected a type, tol X, rtol X, lanes A..B, wave N, hi)",
                            a, b)
        k += 1
    if opts.hi and (opts.tname is None or TYPE_BYTES[opts.tname] != 2):
        raise src.error("'hi' selects the high half of a 16-bit type (f16, bf16, u16, i16)")
    return opts


def _shared_memory_options(opts: Options, what: str, select: str) -> Options:
    """Buffers and LDS are one memory for every wave and lane: `wave N` or `lanes A..B` after
    a memory expectation would select nothing, and was silently ignored. An error says so."""
    for word in ("wave", "lanes"):
        src = opts.given.get(word)
        if src is not None:
            raise src.error(f"'{word}' selects registers; {what} is shared by every wave and lane "
                            f"(select {select})")
    return opts


def _split_value_options(src: Src) -> tuple[Src, Options]:
    colon, _ = _top_find(src.text, (":",))
    if colon < 0:
        return src, Options()
    return src.sub(0, colon), _parse_options(src.sub(colon + 1))


_COUNTERS = ("vmcnt", "lgkmcnt", "expcnt", "instructions")


def _h_expect(d: Directive, rest: Src, h: Header) -> None:
    h.expects.append(parse_expect(d, rest))


def parse_expect(d: Directive, rest: Src) -> Expect:
    text = rest.text
    word = re.match(r"[a-z_]+", text)
    w = word.group(0) if word else ""
    after = rest.sub(len(w))
    if w == "hazards":
        val = _after_colon(after, "hazards")
        if val.text != "none":
            raise val.error("expected 'expect hazards: none' (list expected hazards with 'expect hazard RULE at LINE')")
        return HazardExpect(d.src, d, none=True)
    if w in ("hazard", "no"):
        present = w == "hazard"
        body = after
        if not present:
            m = re.match(r"hazard\b", after.text)
            if not m:
                raise after.error("expected 'expect no hazard RULE [at LINE]'")
            body = after.sub(m.end())
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\s+at\s+(?:line\s+)?(\d+))?", body.text)
        if not m:
            raise body.error("expected a hazard rule id, optionally followed by 'at LINE'")
        line = int(m.group(2)) if m.group(2) else (d.line if d.trailing else None)
        line_src = body.sub(m.start(2), m.end(2)) if m.group(2) else None
        return HazardExpect(d.src, d, rule=m.group(1), line=line, present=present,
                            rule_src=body.sub(m.start(1), m.end(1)), line_src=line_src)
    if w == "mfma" and after.text.startswith("-utilisation"):
        val = _after_colon(after.sub(len("-utilisation")), "mfma-utilisation")
        lo, hi = parse_range(val, "mfma-utilisation")
        return MetricExpect(d.src, d, metric="mfma-utilisation", lo=lo, hi=hi, value_src=val)
    if w == "stall":
        colon = after.text.find(":")
        reason = after.text[:colon].strip() if colon >= 0 else ""
        if not reason:
            raise after.error("expected 'expect stall REASON: A..B' (cycles per wave, e.g. 'stall waitcnt vmcnt: 0..500')")
        from ..sim.counters import STALL_REASONS
        if reason not in STALL_REASONS:
            import difflib
            close = difflib.get_close_matches(reason, STALL_REASONS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f" (known: {', '.join(STALL_REASONS)})"
            start = after.text.index(reason)
            raise after.error(f"unknown stall reason '{reason}'{hint}", start, start + len(reason))
        val = after.sub(colon + 1)
        lo, hi = parse_range(val, f"stall {reason}")
        return MetricExpect(d.src, d, metric=f"stall:{reason}", lo=lo, hi=hi, value_src=val)
    if w == "cycles":
        val = _after_colon(after, "cycles")
        lo, hi = parse_cycles(val)
        return CyclesExpect(d.src, d, lo=lo, hi=hi, value_src=val)
    if w in _COUNTERS and after.text.startswith(":"):
        val = _after_colon(after, w)
        num, opts = _split_value_options(val)
        return CounterExpect(d.src, d, counter=w, value=_int_value(num, w), opts=opts)
    if w == "error" and after.text.startswith(":"):
        val = _after_colon(after, "error")
        if not val.text:
            raise val.error("expected the text the runtime error must contain")
        return ErrorExpect(d.src, d, text=val.text.strip("\"'"))
    if w == "lds" and after.text[:1] in "[:":
        i, n = _find_assign(after.text)
        if i < 0:
            raise after.error("expected 'expect lds[OFFSET]: TYPE[SHAPE] = value'")
        offset, tname, shape, used = _parse_lds_lhs(after.sub(0, i), "expect lds")
        if shape is None:
            raise after.error("expect lds: give a shape, e.g. lds[0]: u32[64]")
        value, opts = _split_value_options(after.sub(i + n))
        _shared_memory_options(opts, "LDS", "bytes with lds[OFFSET]: TYPE[SHAPE] instead")
        return LdsExpect(d.src, d, offset=offset, tname=tname, shape=shape, expr=Expr.parse(value), opts=opts)
    i, n = _find_assign(text)
    if i < 0:
        raise rest.error("expected 'expect LEFT = value', 'expect hazards: none', 'expect hazard RULE at LINE' "
                         "or 'expect cycles: N'")
    lhs = rest.sub(0, i)
    value, opts = _split_value_options(rest.sub(i + n))
    try:
        reg = parse_reg(lhs.text)
    except ValueError:
        reg = None
    if reg is not None:
        if opts.tname and TYPE_BYTES[opts.tname] == 8 and reg.count % 2:
            raise lhs.error(f"a {opts.tname} value needs a register pair such as v[2:3]")
        return RegExpect(d.src, d, reg=reg, expr=Expr.parse(value), opts=opts)
    if not lhs.text:
        raise lhs.error("expected a register or a buffer expression before '='")
    _shared_memory_options(opts, "a buffer", "elements with an index instead, e.g. A[64:128]")
    return MemExpect(d.src, d, lhs=Expr.parse(lhs), expr=Expr.parse(value), opts=opts)


def parse_cycles(val: Src) -> tuple[int | None, int | None]:
    t = val.text.replace(" ", "")
    m = re.fullmatch(r"(\d+)\.\.(\d+)", t)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if hi < lo:
            raise val.error("cycles: empty range")
        return lo, hi
    m = re.fullmatch(r"(<=|>=)(\d+)", t)
    if m:
        return (None, int(m.group(2))) if m.group(1) == "<=" else (int(m.group(2)), None)
    if re.fullmatch(r"\d+", t):
        return int(t), int(t)
    raise val.error("cycles: expected N, A..B, <= N or >= N")


def parse_range(val: Src, what: str) -> tuple[float | None, float | None]:
    """A..B, <= N, >= N or N, with decimals allowed (utilisation is a fraction)."""
    t = val.text.replace(" ", "")
    num = r"(\d+(?:\.\d*)?|\.\d+)"
    m = re.fullmatch(num + r"\.\." + num, t)
    if m:
        lo, hi = float(m.group(1)), float(m.group(2))
        if hi < lo:
            raise val.error(f"{what}: empty range")
        return lo, hi
    m = re.fullmatch(r"(<=|>=)" + num, t)
    if m:
        return (None, float(m.group(2))) if m.group(1) == "<=" else (float(m.group(2)), None)
    if re.fullmatch(num, t):
        return float(t), float(t)
    raise val.error(f"{what}: expected N, A..B, <= N or >= N")


def measured_metric(sim, metric: str) -> float:
    """The figure a MetricExpect names, from the finished run."""
    from ..sim.engine import kernel_stats, wave_summary
    eng = sim.engine
    if metric == "mfma-utilisation":
        return float(kernel_stats(eng)["mfma_utilisation"])
    reason = metric.split(":", 1)[1]
    total = sum(wave_summary(eng, i)["stalls"].get(reason, 0) for i in range(len(eng.waves)))
    return total / max(len(eng.waves), 1)


_HANDLERS = {
    "arch": _h_arch, "target": _h_arch, "workgroup": _h_workgroup, "waves": _h_waves,
    "workgroup-id": _h_workgroup_id, "grid": _h_grid, "mode": _h_mode, "scratch": _h_scratch,
    "lds-dynamic": _h_lds_dynamic, "kernarg": _h_kernarg, "kernel": _h_kernel, "latency": _h_latency,
    "max-cycles": _h_limit("max_cycles"), "max-instructions": _h_limit("max_instructions"),
    "buffer": _h_buffer, "arg": _h_arg, "args": _h_arg, "sgpr": _h_reginit, "vgpr": _h_reginit,
    "agpr": _h_reginit, "lds": _h_lds, "expect": _h_expect,
}
