"""The line scanner: a file's text, line by line, into statements; each instruction line goes to
the cheapest path that can build it.

Used by `parse.parse` for every file. Per line it removes comments (keeping columns), splits
off labels, reads `name = value` and `.set`, keeps directives verbatim (block directives such as
`.amdgpu_metadata` hold YAML, not assembly), folds symbols in register indices (`indexfold`),
and hands instruction text on. Columns stay exact: the text handed on is the whole line with
labels and comments blanked out, so token columns are source columns.

An instruction line tries, in order: the statement memo (a line-free recipe of the same text
seen before in this file, `recipes`), the piece path (`pieces`), the regex fast path
(`fastpath`), then the grammar (`grammar`). Every path builds the very same objects;
tests/test_parse_fastpath.py and tests/test_parse_pieces.py check that. Statements that read
a symbol with a constant value, and `lit(...)`, go to the grammar directly and are not memoized
(the same text holds another value elsewhere).
"""
from __future__ import annotations

import re
from dataclasses import fields, is_dataclass, replace
from typing import Callable

from . import directives
from .diagnostics import Diagnostic
from .fastpath import _fast_instruction
from .grammar import _transformer, parse_expression, parse_instruction
from .indexfold import _changed_names, _fold_register_symbols, _forget, _names_symbol
from .macros import include_notes, instantiation_notes, map_columns, needs_expansion, preprocess
from .macros import strip_comment as _strip_comment
from .pieces import _piece_recipe
from .program import Assignment, Directive, Imm, Instruction, Label, Program, Span, Symbol
from .recipes import _build, _recipe_of, _relocate_instruction
from .slots import line_span, new_span
from .syntax import _WORD

_LABEL_RE = re.compile(r'\s*([A-Za-z_.$][A-Za-z0-9_.$@]*|"[^"]*")[ \t]*:(?!:)')
_SET_RE = re.compile(r"\s*([A-Za-z_.$][A-Za-z0-9_.$@]*)[ \t]*=(?!=)")
_BLOCKS = {".amdgpu_metadata": ".end_amdgpu_metadata", ".amdgpu_hsa_metadata": ".end_amdgpu_hsa_metadata",
           ".amd_amdgpu_pal_metadata": None}


# ------------------------------------------------------------------ scanner


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


_ARG_MARKS = re.compile(r'["()\[\],]')  # the characters that decide where directive arguments split


def _split_args(text: str) -> tuple[str, ...]:
    """Split directive arguments on top-level commas, respecting quotes and brackets.
    (Only the marks are visited, not every character: llc's output has thousands of long
    `.set` lines.)"""
    args: list[str] = []
    depth, start, in_str = 0, 0, False
    for m in _ARG_MARKS.finditer(text):
        ch = m.group()
        if in_str:
            in_str = ch != '"'
        elif ch == '"':
            in_str = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0:  # a comma between arguments
            args.append(text[start:m.start()].strip())
            start = m.end()
    tail = text[start:].strip()
    if tail or args:
        args.append(tail)
    return tuple(args)


# The longest line gcnemu reads, and the most operators one statement may hold (llvm-mc has no
# limit; real kernels stay far below both). A 10 MB expression took a minute and 2 GB to refuse.
MAX_LINE_CHARS = 16 << 20
MAX_OPERATORS = 50_000
_OPERATOR_CHARS = "+-*/%,|&^<>()~!"

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


def scan(text: str | bytes, file: str, fast: bool, include_dirs, symbols_for: Callable[[str], dict],
         memos_on: bool = True) -> Program:
    """The Program of a file's text (see the module docstring). `symbols_for(decoded text)` gives
    the symbols defined before the first line; `memos_on=False` turns the memos by text off
    (tests check that they change nothing)."""
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
    builder = _transformer()
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
    start_symbols = symbols_for(decoded)
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
                d = Directive(dname, args, line_span(file, lineno, start_col, end))
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
                value = parse_expression(code, m.end(), lineno, prog)
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
                    value = parse_expression(code, value_col, lineno, prog)
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
                    folded = _fold_register_symbols(code, env, reads, memos_on)
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
            ins = parse_instruction(code, file, lineno, start_col, prog)
            if ins is not None:
                ins.span = Span(file, lineno, start_col, lineno, end_col)
                ins.index = count
                count += 1
                prog.statements.append(ins)
            continue
        cached = memo.get(code)
        if cached is not None:  # a recipe, or an Instruction recipes do not describe
            memo_hits += 1
            if type(cached) is tuple:
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
            ins.span = new_span(file, lineno, start_col, lineno, end_col)
            ins.index = count
            memo[code] = _recipe_of(ins, start_col, end_col) or ins
            count += 1
            prog.statements.append(ins)
            continue
        ins = parse_instruction(code, file, lineno, start_col, prog, call_text=False)
        if ins is None:
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
    """What `scan` makes of a line read outside a block comment, as far as it
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


def _expanded_source(prog: Program, items, sites=None, marks=(), pend=(None,)):
    """(line, text, file, symbols) of each expanded line, for the loop of `scan`.

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


