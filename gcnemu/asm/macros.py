"""Assembler macro expansion, run before the line scanner (llvm-mc's semantics).

Supported: `.macro NAME params` / `.endm` (positional and keyword arguments,
defaults `p=val`, `p:req`, `p:vararg`, `\\()` concatenation, `\\@` instantiation
counter), `.exitm`, `.purgem`, `.rept N` / `.endr`, `.irp`, `.irpc`, nesting,
macro invocation by name (case-sensitive, as in llvm-mc), `.set`/`.equ`/`=`
integer symbols usable in `.rept` counts and `.if`/`.elseif`/`.else`/`.endif`
(also `.ifdef`/`.ifndef`, `.ifeq`/`.ifne`/`.ifgt`/`.ifge`/`.iflt`/`.ifle`).

`expand(lines, file)` returns `(out, diagnostics)`: `out` holds
`(text, source_line, instantiation_line)` triples. `source_line` is the line
the text came from (the macro/rept body line for expanded text);
`instantiation_line` is the top-level line of the file that caused the
expansion (None for plain lines). `expand_detailed` gives the whole chain of
instantiation lines (innermost last) for "while in macro instantiation" notes.

Lines that involve no macro are passed through unchanged, so the scanner's
columns stay exact. Text inside block directives (`.amdgpu_metadata`) is
never expanded.
"""
from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field

from pathlib import Path

from . import expr as _expr
from .diagnostics import Diagnostic
from .program import Span

MAX_DEPTH = 20  # llvm-mc's -asm-macro-max-nesting-depth default
# Expanded lines one file may produce. The largest real kernels we know (Tensile GEMMs) are ~50k
# lines; a runaway `.rept` is refused when it would pass this, before any of it is expanded.
MAX_LINES = 500_000

_BLOCKS = {".amdgpu_metadata": ".end_amdgpu_metadata", ".amdgpu_hsa_metadata": ".end_amdgpu_hsa_metadata"}
_LOOP_OPEN = (".rept", ".irp", ".irpc")
_IF_OPEN = (".if", ".ifdef", ".ifndef", ".ifnotdef", ".ifeq", ".ifne", ".ifgt", ".ifge", ".iflt", ".ifle",
            ".ifc", ".ifnc", ".ifeqs", ".ifnes", ".ifb", ".ifnb")
MAX_INCLUDE_DEPTH = 64  # deeper nesting is a cycle in practice (llvm-mc itself would overflow its stack)
_IDENT = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$@]*")
_LABEL = re.compile(r"\s*(?:[A-Za-z_.$][A-Za-z0-9_.$@]*|\"[^\"]*\")[ \t]*:(?!:)")
_ASSIGN = re.compile(r"\s*([A-Za-z_.$][A-Za-z0-9_.$@]*)[ \t]*=(?!=)(.*)$")


@dataclass(frozen=True, slots=True)
class Line:
    """One expanded line: its text, the line it came from, the instantiation chain (outermost first).

    `cols` maps the text's columns back onto the source line when substitution
    changed the text (None: the text is the source line's own text). It is a tuple
    of segments `(lo, hi, src_lo, src_hi, literal)` over 0-based half-open ranges
    that cover the text: a literal segment maps character for character, a
    substituted one (`\\arg` -> its value) maps as a whole onto the `\\arg` it replaced.
    Use `source_columns` to map a span."""

    text: str
    line: int
    chain: tuple[int, ...] = ()
    cols: tuple | None = field(default=None, compare=False)
    file: str | None = None  # the included file the line is in (None: the file being assembled)

    @property
    def instantiated_at(self) -> int | None:
        return self.chain[0] if self.chain else None

    def source_columns(self, column: int, end_column: int) -> tuple[int, int]:
        """1-based `[column, end_column)` in this text -> the same range on the source line."""
        return map_columns(self.cols, column, end_column)


def _file_lines(lines: list[str], file: str | None, chain: tuple[int, ...] = ()) -> list[Line]:
    """The Line of each line of a file, numbered from 1."""
    return [Line(t, k, chain, None, file) for k, t in enumerate(lines, start=1)]


def _seg_at(segs: tuple, k: int):
    for seg in segs:
        if seg[0] <= k < seg[1]:
            return seg
    return None


def map_columns(segs: tuple | None, column: int, end_column: int) -> tuple[int, int]:
    """Map a 1-based half-open column range through `Line.cols` segments (None: identity).
    Columns past the text's end map past the source line's end by the same distance."""
    if not segs:
        return column, end_column
    k = max(column - 1, 0)
    j = max(end_column - 2, k)  # the last character of the range
    last = segs[-1]
    seg = _seg_at(segs, k)
    if seg is None:
        start = last[3] + (k - last[1]) if k >= last[1] else 0
    else:
        start = seg[2] + (k - seg[0]) if seg[4] else seg[2]
    seg = _seg_at(segs, j)
    if seg is None:
        end = last[3] + (j - last[1]) + 1 if j >= last[1] else start + 1
    else:
        end = seg[2] + (j - seg[0]) + 1 if seg[4] else seg[3]
    return start + 1, max(end, start + 1) + 1


@dataclass
class _Param:
    name: str
    default: str = ""
    required: bool = False
    vararg: bool = False


@dataclass
class _Macro:
    name: str
    params: list[_Param]
    body: list[Line]
    line: int


class _Exit(Exception):
    """`.exitm`: leave the current macro body."""


class _Abort(Exception):
    """The expansion exceeded its size cap."""


class _End(Exception):
    """`.end`: llvm-mc assembles nothing after it."""


def strip_comment(text: str, in_block: bool = False) -> tuple[str, bool]:
    """Cut `;` and `//` comments, blank `/* */` ones (columns kept). Returns (code, still in /* */)."""
    if not in_block and ";" not in text and "/" not in text:  # most lines: nothing to cut
        return text, False
    if not in_block and '"' not in text and "/*" not in text:  # a line comment and no string: cut there
        cut = min((k for k in (text.find(";"), text.find("//")) if k >= 0), default=len(text))
        return text[:cut], False
    out = []
    i, n = 0, len(text)
    in_str = False
    while i < n:
        ch = text[i]
        if in_block:
            if text.startswith("*/", i):
                out.append("  ")
                i += 2
                in_block = False
            else:
                out.append("\t" if ch == "\t" else " ")
                i += 1
            continue
        if in_str:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == '"':
                in_str = False
            i += 1
            continue
        if ch == '"':
            in_str = True
        elif ch == ";" or text.startswith("//", i):
            break
        elif text.startswith("/*", i):
            in_block = True
            out.append("  ")
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out), in_block


# ------------------------------------------------------------ expressions

class _ExprError(Exception):
    pass


def evaluate(text: str, symbols: dict[str, int]) -> int:
    """Integer expression of numbers and known symbols (llvm-mc's semantics: see `asm.expr`).
    Raises _ExprError."""
    try:
        return _expr.evaluate(text.rstrip(), symbols)
    except _expr.Unresolved as u:
        raise _ExprError(f"expected absolute expression ('{u.name}' is not a known constant)") from None
    except _expr.ExprError as e:
        raise _ExprError(e.message) from None


# ------------------------------------------------------------ arguments


def _split_top(text: str) -> list[str]:
    """Split on commas outside parentheses and strings."""
    out, cur, depth, in_str = [], [], 0, False
    for ch in text:
        if in_str:
            cur.append(ch)
            if ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    out.append("".join(cur))
    return out


_OPS = set("+-*/%|&^<>=!~")


def _split_ws(piece: str) -> list[str]:
    """llvm-mc also separates macro arguments by blanks, unless the blank touches an operator (`a + 1`)."""
    words = piece.split()
    if len(words) <= 1:
        return [piece.strip()] if piece.strip() else ([""] if not words else words)
    out = [words[0]]
    for w in words[1:]:
        if out[-1][-1] in _OPS or w[0] in _OPS or out[-1].count("(") > out[-1].count(")"):
            out[-1] = out[-1] + " " + w
        else:
            out.append(w)
    return out


def _arguments(text: str) -> list[str]:
    if not text.strip():
        return []
    out: list[str] = []
    for piece in _split_top(text):
        out.extend(_split_ws(piece) if piece.strip() else [""])
    return out


# ------------------------------------------------------------ expander


@dataclass
class _State:
    file: str
    symbols: dict[str, int] = field(default_factory=dict)
    macros: dict[str, _Macro] = field(default_factory=dict)
    diags: list[Diagnostic] = field(default_factory=list)
    out: list[Line] = field(default_factory=list)
    counter: int = 0
    max_lines: int = MAX_LINES
    max_depth: int = MAX_DEPTH
    lines: list[str] = field(default_factory=list)
    include_dirs: tuple[str, ...] = ()
    sources: dict[str, list[str]] = field(default_factory=dict)  # included file -> its lines
    include_sites: dict[str, Span] = field(default_factory=dict)  # included file -> its .include line
    # (file, line) of an `.incbin` -> the bytes it emits (read once here, laid out by asm.image)
    incbins: dict[tuple[str, int], bytes] = field(default_factory=dict)
    # (index into `out`, symbols): from that output line on, these constant symbols are in force
    env_marks: list = field(default_factory=list)
    includes: list[str] = field(default_factory=list)  # the files being included, outermost first
    defined: set[str] = field(default_factory=set)  # every name given a value by .set/=/.equ/.equiv
    equivs: set[str] = field(default_factory=set)  # names .equiv defined (they can never change)
    labels: set[str] = field(default_factory=set)
    altmacro: bool = False  # `.altmacro`: `%expr` and `<text>` macro arguments


def _span(st: _State, item: Line, col: int | None = None, width: int = 1) -> Span:
    text = item.text
    if col is None:
        col = len(text) - len(text.lstrip()) + 1
    col, end = item.source_columns(col, col + width)
    return Span(item.file or st.file, item.line, col, item.line, end)


def instantiation_notes(file: str, chain: tuple[int, ...], lines: list[str] | None = None) -> list[Diagnostic]:
    """llvm-mc's "while in macro instantiation" notes, innermost first, each at the first word
    of the instantiating line (the macro call, `.rept`, `.irp`...)."""
    notes = []
    for c in reversed(chain):
        col, width = 1, 1
        if lines is not None and 1 <= c <= len(lines):
            text = lines[c - 1]
            stripped = text.lstrip()
            if stripped:
                col = len(text) - len(stripped) + 1
                width = len(stripped.split(None, 1)[0])
        notes.append(Diagnostic("note", "while in macro instantiation", Span(file, c, col, c, col + width)))
    return notes


def include_notes(file: str | None, sites: dict[str, Span]) -> list[Diagnostic]:
    """llvm-mc's "Included from FILE:LINE" trail of a line in an included file, innermost first."""
    notes = []
    seen = set()
    while file in sites and file not in seen:
        seen.add(file)
        site = sites[file]
        notes.append(Diagnostic("note", f"included from {site.file}:{site.line}", site))
        file = site.file
    return notes


def _error(st: _State, item: Line, msg: str, col: int | None = None, width: int = 1, rule: str = "macro",
           severity: str = "error"):
    notes = instantiation_notes(st.file, item.chain, st.lines) + include_notes(item.file, st.include_sites)
    st.diags.append(Diagnostic(severity, msg, _span(st, item, col, width), rule=rule, notes=notes))


def _emit(st: _State, item: Line):
    if len(st.out) >= st.max_lines:
        raise _Abort(item)
    st.out.append(item)


_WORD = re.compile(r"[A-Za-z_.$][\w.$@]*")


def _head(code: str) -> tuple[str, str, int, int]:
    """First word of a statement (after labels), the rest, the word's column and the rest's
    column (1-based: where llvm-mc points at an operand of the directive)."""
    m = _LABEL.match(code)
    while m and m.end() < len(code) and code[m.end():].strip():
        code = " " * m.end() + code[m.end():]
        m = _LABEL.match(code)
    stripped = code.lstrip()
    if not stripped:
        return "", "", 1, 1
    col = len(code) - len(stripped) + 1
    m = _WORD.match(stripped)
    if m and m.end() < len(stripped) and stripped[m.end()] in "(\"'":
        # `.if(x)`, `static_assert(x)`: llvm-mc's lexer ends the name where an identifier ends
        return m.group(0), stripped[m.end():], col, col + m.end()
    parts = stripped.split(None, 1)
    word = parts[0]
    rest = parts[1] if len(parts) > 1 else ""
    after = stripped[len(word):]
    return word, rest, col, col + len(word) + (len(after) - len(after.lstrip()) if rest else 1)


def _collect(st: _State, items: list[Line], i: int, opens: tuple[str, ...], close: str,
             other_close: str) -> tuple[list[Line], int | None]:
    """Body lines from items[i+1] up to the matching close directive. Returns (body, index of close)."""
    depth = 0
    body: list[Line] = []
    j = i + 1
    while j < len(items):
        code, _ = strip_comment(items[j].text)
        word = code.split(None, 1)[0].lower() if code.strip() else ""
        if word in opens:
            depth += 1
        elif word == close or (close == ".endm" and word == ".endmacro"):
            if depth == 0:
                return body, j
            depth -= 1
        body.append(items[j])
        j += 1
    return body, None


def _rewrite(item: Line, text: str, chain: tuple[int, ...]) -> Line:
    return Line(text, item.line, chain, file=item.file)


def _substitute(body: list[Line], values: dict[str, str], counter: int | None, chain: tuple[int, ...]) -> list[Line]:
    """llvm-mc's expandMacro: `\\name` -> value, `\\()` -> nothing, `\\@` -> counter (macros only).

    Each rewritten line records which of its columns came from which source columns
    (`Line.cols`), so that spans of the expanded text point into the body line."""
    out = []
    for item in body:
        t = item.text
        if "\\" not in t:
            out.append(Line(t, item.line, chain, item.cols, item.file))
            continue
        res: list[str] = []
        segs: list[list] = []  # [out_lo, out_hi, in_lo, in_hi, literal], in this text's coordinates
        pos = 0  # length of the output so far

        def put(text: str, lo: int, hi: int, literal: bool):
            nonlocal pos
            if not text:
                return
            res.append(text)
            if literal and segs and segs[-1][4] and segs[-1][1] == pos and segs[-1][3] == lo:
                segs[-1][1] += len(text)
                segs[-1][3] = hi
            else:
                segs.append([pos, pos + len(text), lo, hi, literal])
            pos += len(text)

        k, n = 0, len(t)
        while k < n:
            ch = t[k]
            if ch != "\\" or k + 1 >= n:
                put(ch, k, k + 1, True)
                k += 1
                continue
            nxt = t[k + 1]
            if nxt == "@" and counter is not None:
                put(str(counter), k, k + 2, False)
                k += 2
                continue
            if nxt == "(" and k + 2 < n and t[k + 2] == ")":
                k += 3
                continue
            m = _IDENT.match(t, k + 1)
            if m and m.group(0) in values:
                put(values[m.group(0)], k, m.end(), False)
                k = m.end()
                continue
            if m:
                # llvm-mc: identifiers end at '.', '$', '@' only when a parameter matches a prefix
                name = m.group(0)
                for cut in range(len(name) - 1, 0, -1):
                    if name[:cut] in values and not (name[cut].isalnum() or name[cut] == "_"):
                        put(values[name[:cut]], k, k + 1 + cut, False)
                        k = k + 1 + cut
                        break
                else:
                    put(t[k:m.end()], k, m.end(), True)
                    k = m.end()
                continue
            put(ch, k, k + 1, True)
            k += 1
        if not segs:  # the whole line substituted away: map its (empty) end onto the line's end
            segs.append([0, 0, n, n, True])
        out.append(Line("".join(res), item.line, chain, _compose(tuple(map(tuple, segs)), item.cols), item.file))
    return out


def _compose(segs: tuple, inner: tuple | None) -> tuple:
    """Segments onto a text that itself came from substitution: map them through `inner`."""
    if inner is None:
        return segs
    out = []
    for lo, hi, ilo, ihi, lit in segs:
        if not lit:
            s, e = map_columns(inner, ilo + 1, ihi + 1)
            out.append((lo, hi, s - 1, e - 1, False))
            continue
        for a, b, s, e, lit2 in inner:
            x, y = max(a, ilo), min(b, ihi)
            if x >= y:
                continue
            o = lo + (x - ilo)
            out.append((o, o + y - x, s + x - a, s + y - a, True) if lit2 else (o, o + y - x, s, e, False))
    return tuple(out)


def _define(st: _State, item: Line, rest: str, col: int, body: list[Line]):
    parts = rest.strip()
    m = _IDENT.match(parts)
    if not m:
        _error(st, item, "expected identifier in '.macro' directive", col + 7)
        return
    name = m.group(0)
    params: list[_Param] = []
    ptext = parts[m.end():].strip()
    if ptext.startswith(","):
        ptext = ptext[1:]
    # parameters: separated by commas or blanks; `p=default`, `p:req`, `p:vararg`
    ptext = re.sub(r"\s*=\s*", "=", ptext)
    ptext = re.sub(r"\s*:\s*", ":", ptext)
    for piece in _split_top(ptext):
        for word in piece.split():
            default = ""
            if "=" in word:
                word, default = word.split("=", 1)
            qual = ""
            if ":" in word:
                word, qual = word.split(":", 1)
            if not _IDENT.fullmatch(word):
                _error(st, item, "expected identifier in '.macro' directive")
                return
            if qual not in ("", "req", "vararg"):
                _error(st, item, f"{qual} is not a valid parameter qualifier for '{word}' in macro '{name}'")
                return
            if any(p.name == word for p in params):
                _error(st, item, f"macro '{name}' has multiple parameters named '{word}'")
                return
            if params and params[-1].vararg:
                _error(st, item, "vararg parameter '" + params[-1].name + "' should be the last parameter")
                return
            params.append(_Param(word, default, qual == "req", qual == "vararg"))
    if name in st.macros:
        _error(st, item, f"macro '{name}' is already defined")
        return
    st.macros[name] = _Macro(name, params, body, item.line)


def _bind(st: _State, item: Line, mac: _Macro, rest: str, col: int) -> dict[str, str] | None:
    values: dict[str, str] = {}
    pos = 0
    params = mac.params
    args_col = col + len(mac.name) + 1
    if params and params[-1].vararg:
        # the vararg parameter takes the rest of the line, commas included
        pieces = _split_top(rest)
        fixed = len(params) - 1
        raw: list[str] = []
        for k, piece in enumerate(pieces):
            if len(raw) >= fixed:
                raw.append(",".join(pieces[k:]).strip())
                break
            raw.extend(_split_ws(piece) if piece.strip() else [""])
        if len(raw) > len(params):  # blank-separated words spilled past the fixed params
            raw = raw[:fixed] + [" ".join(raw[fixed:])]
        args = raw if rest.strip() else []
    else:
        args = _arguments(rest)
    keyword = False
    for a in args:
        m = re.match(r"\s*([A-Za-z_.$][A-Za-z0-9_.$@]*)\s*=(?!=)(.*)$", a, re.S)
        if m:
            name = m.group(1)
            p = next((p for p in params if p.name == name), None)
            if p is None:
                c = item.text.find(name, args_col - 1) + 1 or args_col
                _error(st, item, f"parameter named '{name}' does not exist for macro '{mac.name}'", c)
                return None
            values[name] = m.group(2).strip()
            keyword = True
            continue
        if keyword:
            _error(st, item, "cannot mix positional and keyword arguments", args_col)
            return None
        if pos >= len(params):
            c = item.text.find(a.strip(), args_col - 1) + 1 if a.strip() else args_col
            _error(st, item, "too many positional arguments", c or args_col)
            return None
        values[params[pos].name] = _alt_argument(st, item, a.strip()) if st.altmacro else a.strip()
        pos += 1
    for p in params:
        if not values.get(p.name):
            if p.required:
                _error(st, item, f"missing value for required parameter '{p.name}' in macro '{mac.name}'",
                       col + len(mac.name))
                return None
            values[p.name] = values.get(p.name) or p.default
    return values


_PLAIN_LIMIT = 100_000
_plain: dict = {}  # line text -> _plain_word(text) (across preprocess() calls)


# the first words `_run` acts on (lower case); any other line it only emits, unless it has a
# label, an assignment or a macro's name (keep this in step with `_run`: tests/test_macros.py
# checks that every directive `_run` names is here)
_RUN_DIRECTIVES = frozenset(_IF_OPEN + _LOOP_OPEN + tuple(_BLOCKS) + (
    ".elseif", ".else", ".endif", ".macro", ".endm", ".endmacro", ".endr", ".exitm", ".purgem", ".include",
    ".end", ".altmacro", ".noaltmacro", ".error", ".err", ".warning", ".set", ".equ", ".equiv", ".incbin"))


def _plain_word(text: str):
    """For a line read outside a block comment and conditionally active: the word to look up
    among the macros when the steps of `_run` only emit the line unless that word names a macro
    ("" for a blank or comment line); False when the line may do more (a directive of the
    preprocessor's, a label, an assignment, a /* left open)."""
    s = text.lstrip()
    if s and s[0] not in "./;#" and "=" not in text and "/*" not in text:
        # most lines of a real kernel are plain instructions: no directive, label, assignment,
        # macro call or block comment
        w = s.split(None, 1)[0]
        if "(" in w:  # `name(args)`: a macro call written without a space
            w = w.split("(", 1)[0]
        if ":" not in w:
            return w
    # comment lines, blank lines, directives, instructions with a `=` in their comment
    code, in_comment = strip_comment(text, False)
    if in_comment or ":" in code and _LABEL.match(code):  # (`s[0:1]` is no label)
        return False
    word = _head(code)[0]
    if word.lower() in _RUN_DIRECTIVES or "=" in code and _ASSIGN.match(code):
        return False
    return word


def _run(st: _State, items: list[Line], depth: int, in_macro: bool):
    i = 0
    n = len(items)
    in_comment = False
    conds: list[list[bool]] = []  # [active now, some branch taken, parent active]

    def active() -> bool:
        return not conds or conds[-1][0]

    macros = st.macros
    out, max_lines = st.out, st.max_lines
    while i < n:
        item = items[i]
        i += 1
        if not in_comment and (not conds or conds[-1][0]):
            # most lines of a real kernel are plain instructions, comments or data directives:
            # they go out as they are (what the steps below would make of a text is found once
            # per distinct text: _plain_word)
            text = item.text
            w = _plain.get(text)
            if w is None:
                if len(_plain) > _PLAIN_LIMIT:
                    _plain.clear()
                w = _plain[text] = _plain_word(text)
            if w is not False and w not in macros:
                if len(out) >= max_lines:  # (_emit, inlined)
                    raise _Abort(item)
                out.append(item)
                continue
        code, in_comment_after = strip_comment(item.text, in_comment)
        was_in_comment, in_comment = in_comment, in_comment_after
        word, rest, col, arg_col = _head(code)
        low = word.lower()
        # conditionals
        if low in _IF_OPEN:
            if not active():
                conds.append([False, True, False])
                continue
            try:
                if low in (".ifdef", ".ifndef", ".ifnotdef"):
                    name = rest.strip()
                    val = (name in st.defined or name in st.labels) == (low == ".ifdef")
                elif low in (".ifc", ".ifnc", ".ifeqs", ".ifnes"):
                    a, b = _two_strings(rest, quoted=low in (".ifeqs", ".ifnes"))
                    val = (a == b) == (low in (".ifc", ".ifeqs"))
                elif low in (".ifb", ".ifnb"):
                    val = (not rest.strip()) == (low == ".ifb")
                else:
                    v = evaluate(rest, st.symbols)
                    val = {".if": v != 0, ".ifne": v != 0, ".ifeq": v == 0, ".ifgt": v > 0, ".ifge": v >= 0,
                           ".iflt": v < 0, ".ifle": v <= 0}[low]
            except _ExprError as e:
                _error(st, item, str(e), arg_col)
                # as llvm-mc: the conditional is open, its body assembled and no branch taken yet
                # (so an .else body is assembled too)
                conds.append([True, False, True])
                continue
            conds.append([val, val, True])
            continue
        if low in (".elseif", ".else"):
            if not conds:
                _error(st, item, f"Encountered a {low} that doesn't follow an .if or an .else", col)
                continue
            top = conds[-1]
            if not top[2] or top[1]:
                top[0] = False
                continue
            if low == ".else":
                top[0] = top[1] = True
                continue
            try:
                val = evaluate(rest, st.symbols) != 0
            except _ExprError as e:
                _error(st, item, str(e), arg_col)
                val = False
            top[0] = top[1] = val
            continue
        if low == ".endif":
            if not conds:
                _error(st, item, "Encountered a .endif that doesn't follow an .if or .else", col)
                continue
            conds.pop()
            continue
        if not active():
            # skip whole macro/loop definitions too, so that their .endif don't confuse us
            if low == ".macro":
                _, end = _collect(st, items, i - 1, (".macro",), ".endm", "")
                i = n if end is None else end + 1
            continue
        if was_in_comment and not word:
            _emit(st, item)
            continue
        if low in _BLOCKS:
            _emit(st, item)
            end = _BLOCKS[low]
            while i < n:
                _emit(st, items[i])
                i += 1
                if items[i - 1].text.strip().lower().startswith(end):
                    break
            continue
        if low == ".macro":
            body, end = _collect(st, items, i - 1, (".macro",), ".endm", ".endr")
            if end is None:
                _error(st, item, "no matching '.endmacro' in definition", col)
                i = n
                continue
            _define(st, item, rest, col, body)
            i = end + 1
            continue
        if low in (".endm", ".endmacro"):
            _error(st, item, f"unexpected '{low}' in file, no current macro definition", col + len(word))
            continue
        if low == ".endr":
            _error(st, item, "unmatched '.endr' directive", col + len(word))
            continue
        if low == ".exitm":
            if in_macro:
                raise _Exit()
            _error(st, item, "unexpected '.exitm' in file, no current macro definition", col)
            continue
        if low == ".purgem":
            name = rest.strip()
            if name not in st.macros:
                _error(st, item, f"macro '{name}' is not defined", col)
            else:
                del st.macros[name]
            continue
        if low in _LOOP_OPEN:
            body, end = _collect(st, items, i - 1, _LOOP_OPEN, ".endr", ".endm")
            if end is None:
                _error(st, item, "no matching '.endr' in definition", col)
                i = n
                continue
            i = end + 1
            _loop(st, item, low, rest, col, word, body, depth)
            continue
        if ":" in code:
            _note_labels(st, code)
        if low == ".include":
            _emit(st, item)
            _include(st, item, rest, arg_col, depth, in_macro)
            continue
        if low == ".incbin":
            _emit(st, item)
            _incbin(st, item, rest, arg_col)
            continue
        if low == ".end":  # the rest of this file is not assembled (an including file goes on)
            _emit(st, item)
            if conds:  # llvm-mc checks its conditional stack at the end of the file
                if in_macro:  # ... of the instantiation's buffer: where its body ends, the .endm line
                    last = items[-1]
                    where, n = last.file or st.file, last.line
                else:
                    where = item.file or st.file
                    n = len(st.sources.get(item.file, ())) if item.file else len(st.lines)
                st.diags.append(Diagnostic("error", "unmatched .ifs or .elses",
                                           Span(where, n + 1, 1, n + 1, 2), rule="macro"))
            raise _End()
        if low in (".altmacro", ".noaltmacro"):
            st.altmacro = low == ".altmacro"
            _emit(st, item)
            continue
        if low in (".error", ".err", ".warning"):
            _message(st, item, low, rest, col)
            _emit(st, item)
            continue
        if low in (".set", ".equ", ".equiv"):
            parts = _split_top(rest)
            if len(parts) == 2:
                vcol = code.index(",", col + len(word) - 1) + 2
                vcol += len(parts[1]) - len(parts[1].lstrip())
                _emit(st, item)  # first: the parser folds the value with the symbols in force before it
                _assign(st, item, parts[0].strip(), parts[1], low, vcol)
            else:
                _emit(st, item)
            continue
        m = _ASSIGN.match(code) if "=" in code else None
        if m:
            vcol = m.start(2) + 1 + len(m.group(2)) - len(m.group(2).lstrip())
            _emit(st, item)
            _assign(st, item, m.group(1), m.group(2), "=", vcol)
            continue
        mac = st.macros.get(word)
        if mac is not None:
            if depth >= st.max_depth:
                _error(st, item, f"macros cannot be nested more than {st.max_depth} levels deep", col)
                continue
            values = _bind(st, item, mac, rest, col)
            if values is None:
                continue
            counter = st.counter
            st.counter += 1
            chain = item.chain + (item.line,) if not item.chain else item.chain + (item.line,)
            lines = _substitute(mac.body, values, counter, chain)
            try:
                _run(st, lines, depth + 1, True)
            except _Exit:
                pass
            continue
        _emit(st, item)
    if conds and not in_macro:
        last = items[-1] if items else None
        if last is not None:
            _error(st, last, "unmatched .if directive (missing .endif)", 1)


def _assign(st: _State, item: Line, name: str, text: str, how: str, col: int):
    """`.set`/`=`/`.equ`/`.equiv`: give `name` its value at this point of the file.

    The symbol table is copied on write, so every line emitted so far keeps the values in force
    where it stood (llvm-mc's ordered assignment: `_v = _v + 1` in a `.rept` body gives each
    iteration its own value). A value that names a label or a symbol defined later is not a
    constant yet: the name leaves the table and the parser keeps the expression."""
    if name in st.labels or (name in st.equivs) or (how == ".equiv" and name in st.defined):
        _error(st, item, f"redefinition of '{name}'", col, rule="symbol")
        return
    try:
        value = _expr.evaluate(text.rstrip(), st.symbols)
    except _expr.Unresolved as u:
        if u.name == name and name not in st.defined:
            _error(st, item, f"cyclic dependency detected for symbol '{name}'", col, rule="symbol")
        value = None
    except _expr.ExprError:
        value = None  # the parser reports a malformed expression, with its own column
    st.defined.add(name)
    if how == ".equiv":
        st.equivs.add(name)
    if value is not None:
        if st.symbols.get(name, None) != value or name not in st.symbols:
            st.symbols = {**st.symbols, name: value}
            st.env_marks.append((len(st.out), st.symbols))
    elif name in st.symbols:
        st.symbols = {k: v for k, v in st.symbols.items() if k != name}
        st.env_marks.append((len(st.out), st.symbols))


def _alt_argument(st: _State, item: Line, text: str) -> str:
    """`.altmacro` arguments: `%expr` is the expression's value in decimal, `<text>` is text."""
    if text.startswith("%"):
        try:
            return str(_expr.evaluate(text[1:], st.symbols))
        except _expr.ExprError as e:
            _error(st, item, e.message)
            return text
    if len(text) >= 2 and text[0] == "<" and text[-1] == ">":
        return text[1:-1]
    return text


def _note_labels(st: _State, code: str) -> None:
    m = _LABEL.match(code)
    while m:
        st.labels.add(m.group(0).strip().rstrip(":").strip().strip('"'))
        code = " " * m.end() + code[m.end():]
        m = _LABEL.match(code)


def _two_strings(rest: str, quoted: bool) -> tuple[str, str]:
    """The operands of `.ifc a, b` (blank-trimmed, quotes optional) or `.ifeqs "a", "b"`."""
    m = re.match(r'\s*("(?:[^"\\]|\\.)*"|[^,]*?)\s*,\s*("(?:[^"\\]|\\.)*"|.*?)\s*$', rest)
    if m is None:
        raise _ExprError("expected comma")
    a, b = m.group(1), m.group(2)
    if quoted and not (a.startswith('"') and b.startswith('"')):
        raise _ExprError("expected string parameter")
    return a.strip('"') if a.startswith('"') else a, b.strip('"') if b.startswith('"') else b


def _message(st: _State, item: Line, low: str, rest: str, col: int) -> None:
    """`.error "text"` and `.err` stop assembly with the user's words; `.warning` warns."""
    text = rest.strip()
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        text = text[1:-1]
    if low == ".err":
        _error(st, item, ".err encountered", col, rule="directive")
    elif low == ".error":
        _error(st, item, text or ".error directive invoked in source file", col, rule="directive")
    else:
        _error(st, item, text or ".warning directive invoked in source file", col, rule="directive",
               severity="warning")


# how much an include of a device or a pipe may read: llvm-mc reads such a file to its end, so
# `.include "/dev/zero"` runs it out of memory; gcnemu stops with an error instead
MAX_DEVICE_INCLUDE = 16 << 20


def _source_bytes(path: str) -> bytes:
    """The bytes of an include file as llvm-mc 22 sees them (MemoryBuffer::getFile): a regular
    file's `st_size` bytes (so a /proc file, whose size is 0, is empty), anything else (/dev/null,
    a pipe, /dev/stdin) read to its end. Opened non-blocking: a pipe with no writer is empty
    instead of waiting forever; a terminal with nothing typed is an error, not a hang."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            return fh.read(info.st_size)
        try:
            data = fh.read(MAX_DEVICE_INCLUDE + 1)
        except BlockingIOError:
            raise OSError(errno.EAGAIN, "nothing to read yet (a terminal or an empty pipe)") from None
        if data is None:
            raise OSError(errno.EAGAIN, "nothing to read yet (a terminal or an empty pipe)")
        if len(data) > MAX_DEVICE_INCLUDE:
            raise OSError(errno.EFBIG, f"it is not a regular file and gave more than {MAX_DEVICE_INCLUDE >> 20} MiB "
                                       f"(a device that never ends?)")
        return data


def read_source(path: str) -> list[str]:
    """A source file's lines as the parser reads them (UTF-8 with replacement, CR/CRLF ends)."""
    text = _source_bytes(path).decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def find_include(name: str, including: str | None, dirs: tuple[str, ...]) -> str | None:
    """llvm-mc's search: the including file's folder first, then each -I folder in order. Any
    file but a folder will do, as for llvm-mc (SourceMgr opens it): /dev/null is an empty include."""
    base = Path(including).parent if including and not including.startswith("<") else Path.cwd()
    for folder in (base, *map(Path, dirs)):
        cand = folder / name
        if cand.exists() and not cand.is_dir():
            return str(cand)
    return None


def _include(st: _State, item: Line, rest: str, col: int, depth: int, in_macro: bool) -> None:
    """`.include "file"`: its lines are assembled here, with their own file name in every span."""
    text = rest.strip()
    if not (len(text) >= 2 and text[0] == '"' and text.endswith('"')):
        _error(st, item, "expected string in '.include' directive", col, rule="include")
        return
    name = text[1:-1]
    path = find_include(name, item.file or st.file, st.include_dirs)
    if path is None:
        _error(st, item, f"Could not find include file '{name}'", col, len(text), rule="include")
        return
    key = str(Path(path).resolve())
    if key in st.includes or len(st.includes) >= MAX_INCLUDE_DEPTH:
        chain = " -> ".join(Path(p).name for p in st.includes + [key])
        _error(st, item, f"include cycle: '{name}' is already being included ({chain})", col, len(text),
               rule="include")
        return
    try:
        lines = read_source(path)
    except OSError as e:
        _error(st, item, f"cannot read include file '{name}': {e.strerror or e}", col, len(text), rule="include")
        return
    st.sources[path] = lines
    st.include_sites.setdefault(path, _span(st, item, col, len(text)))
    st.includes.append(key)
    try:
        _run(st, _file_lines(lines, path, item.chain), depth, in_macro)
    except _End:
        pass
    finally:
        st.includes.pop()


MAX_INCBIN_BYTES = 64 << 20  # gcnemu's limit on one `.incbin` (kernels embed tables, not images)


def _incbin(st: _State, item: Line, rest: str, col: int) -> None:
    """`.incbin "file"[, skip[, count]]`: the file's bytes (from `skip`, at most `count`) are
    emitted here, found like an `.include` file. llvm-mc's checks and words: a missing file, a
    name not in quotes, a negative skip are errors; a negative count warns and emits nothing."""
    parts = _split_top(rest)
    text = parts[0].strip() if parts else ""
    if not (len(text) >= 2 and text[0] == '"' and text.endswith('"')):
        _error(st, item, "expected string in '.incbin' directive", col, rule="include")
        return
    if len(parts) > 3:
        _error(st, item, "expected newline", col + len(parts[0]) + len(parts[1]) + len(parts[2]) + 2, rule="include")
        return
    numbers: list[int] = []
    at = col + len(parts[0]) + 1
    for piece in parts[1:]:
        pcol = at + len(piece) - len(piece.lstrip())
        try:
            numbers.append(evaluate(piece, st.symbols))
        except _ExprError:
            _error(st, item, "expected absolute expression", pcol, rule="include")
            return
        if len(numbers) == 1 and numbers[0] < 0:
            _error(st, item, "skip is negative", pcol, rule="include")
            return
        if len(numbers) == 2 and numbers[1] < 0:
            _error(st, item, "negative count has no effect", pcol, rule="include", severity="warning")
            return
        at += len(piece) + 1
    name = text[1:-1]
    path = find_include(name, item.file or st.file, st.include_dirs)
    if path is None:
        _error(st, item, f"Could not find incbin file '{name}'", col, rule="include")
        return
    skip = numbers[0] if numbers else 0
    count = numbers[1] if len(numbers) > 1 else None
    try:
        size = Path(path).stat().st_size
        want = max(0, size - skip) if count is None else max(0, min(count, size - skip))
        if want > MAX_INCBIN_BYTES:
            _error(st, item, f"'.incbin' of {want} bytes: gcnemu includes at most {MAX_INCBIN_BYTES} bytes",
                   col, len(text), rule="include")
            return
        with open(path, "rb") as f:
            f.seek(skip)
            data = f.read(want)
    except OSError as e:
        _error(st, item, f"cannot read incbin file '{name}': {e.strerror or e}", col, len(text), rule="include")
        return
    st.incbins[(item.file or st.file, item.line)] = data


def _loop(st: _State, item: Line, low: str, rest: str, col: int, word: str, body: list[Line], depth: int):
    arg_col = col + len(word) + 1
    chain = item.chain + (item.line,)
    if depth >= st.max_depth:
        _error(st, item, f"macros cannot be nested more than {st.max_depth} levels deep", col)
        return
    if low == ".rept":
        try:
            count = evaluate(rest, st.symbols) if rest.strip() else None
        except _ExprError as e:
            _error(st, item, f"unexpected token in '.rept' directive: {e}", arg_col)
            return
        if count is None:
            _error(st, item, "expected absolute expression", col + len(word))
            return
        if count < 0:
            _error(st, item, "Count is negative", arg_col)
            return
        if count * max(len(body), 1) > st.max_lines:
            _error(st, item, f"'.rept {count}' would expand to more than {st.max_lines} lines", arg_col,
                   rule="macro-limit")
            return
        for _ in range(count):
            _run(st, _substitute(body, {}, None, chain), depth + 1, False)
        return
    parts = _split_top(rest)
    name = parts[0].strip()
    if not _IDENT.fullmatch(name or "-"):
        _error(st, item, f"expected identifier in '{low}' directive", arg_col)
        return
    if low == ".irp":
        values = [v for p in parts[1:] for v in (_split_ws(p) if p.strip() else [""])]
        if not values:
            values = [""]
    else:
        if len(parts) > 2:
            _error(st, item, "too many positional arguments", arg_col)
            return
        text = parts[1].strip() if len(parts) > 1 else ""
        values = list(text) or [""]
    for v in values:
        _run(st, _substitute(body, {name: v}, None, chain), depth + 1, False)


@dataclass
class Expansion:
    """What the preprocessor hands the parser: the lines llvm-mc would assemble, in order (each
    with its file, line, macro chain and symbol values), its diagnostics, the text of every
    included file (for carets), and the constant symbols in force at the end."""

    lines: list[Line]
    diagnostics: list[Diagnostic]
    sources: dict[str, list[str]]
    symbols: dict[str, int]
    include_sites: dict[str, Span] = field(default_factory=dict)
    # (index into `lines`, symbols): the constant symbols in force from that line on (copied on
    # write, so each mark keeps its own values: `_v = _v + 1` in a .rept gives one mark a pass)
    env_marks: list = field(default_factory=list)
    incbins: dict = field(default_factory=dict)  # (file, line) of an `.incbin` -> its bytes


def preprocess(lines: list[str], file: str = "<input>", include_dirs=(), max_lines: int = MAX_LINES,
               max_depth: int = MAX_DEPTH, symbols: dict[str, int] | None = None) -> Expansion:
    """Expand includes, macros, loops and conditionals, evaluating symbols in order, starting from
    `symbols` (llvm-mc's predefined ones and --defsym). Never raises for bad input: problems
    become diagnostics."""
    st = _State(file, max_lines=max_lines, max_depth=max_depth, lines=lines,
                include_dirs=tuple(str(d) for d in include_dirs or ()))
    if symbols:
        st.symbols = dict(symbols)
        st.defined.update(symbols)
        st.env_marks.append((0, st.symbols))
    if file and not file.startswith("<"):
        st.includes.append(str(Path(file).resolve()))
    items = _file_lines(lines, None)
    try:
        _run(st, items, 0, False)
    except _Abort as e:
        item = e.args[0]
        _error(st, item, f"macro expansion exceeds {st.max_lines} lines (gcnemu's limit on the expanded size "
                         "of one file)", rule="macro-limit")
    except _End:
        pass
    except RecursionError:
        st.diags.append(Diagnostic("error", "macro expansion nested too deeply", Span(file, 1, 1, 1, 2), rule="macro"))
    return Expansion(st.out, st.diags, st.sources, st.symbols, st.include_sites, st.env_marks, st.incbins)


def expand_detailed(lines: list[str], file: str = "<input>", max_lines: int = MAX_LINES,
                    max_depth: int = MAX_DEPTH, include_dirs=()) -> tuple[list[Line], list[Diagnostic]]:
    """Expand macros, loops and conditionals. Never raises for bad input."""
    ex = preprocess(lines, file, include_dirs, max_lines, max_depth)
    return ex.lines, ex.diagnostics


def expand(lines: list[str], file: str = "<input>", max_lines: int = MAX_LINES
           ) -> tuple[list[tuple[str, int, int | None]], list[Diagnostic]]:
    """`(text, source line, instantiation line)` triples; see the module docstring."""
    out, diags = expand_detailed(lines, file, max_lines)
    return [(ln.text, ln.line, ln.instantiated_at) for ln in out], diags


# (`.set`/`=`/`.equ` alone need no preprocessor: the parser keeps those symbols in order itself)
_MACRO_WORD = re.compile(r"\.(?:macro|rept|irpc?|if[a-z]*|endr|endm(?:acro)?|exitm|purgem|else(?:if)?|endif|include|equiv"
                         r"|error|err|warning|end|altmacro|noaltmacro|incbin)\b", re.I)


def needs_expansion(lines: list[str] | str) -> bool:
    """Cheap test: can `expand` change anything? (No macro-ish directive anywhere.)

    Takes the file's lines or its whole text (one regex scan: the parser calls this on
    every file, so files without macros must not pay for the expander)."""
    if isinstance(lines, str):
        return _MACRO_WORD.search(lines) is not None
    return any(_MACRO_WORD.search(t) for t in lines)


def with_instantiation_notes(diag: Diagnostic, chain: tuple[int, ...], lines: list[str] | None = None) -> Diagnostic:
    """A copy of `diag` (raised on text that came out of an expansion) with its
    "while in macro instantiation" notes appended."""
    if not chain or diag.span is None:
        return diag
    return Diagnostic(diag.severity, diag.message, diag.span, diag.rule,
                      list(diag.notes) + instantiation_notes(diag.span.file, chain, lines), dict(diag.extra))
