"""The parsed form of an assembly file: instructions, labels, directives.

This module knows syntax only. Nothing here depends on a target: binding an
instruction to an ISA table row is `resolve`'s job. Every object carries its
source span so that later stages (validation, hazards, the debugger) can point
at the exact token a user wrote.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True, slots=True)
class Span:
    """A source range, 1-based lines and columns, end exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


# ---------------------------------------------------------------- operands


@dataclass(frozen=True, slots=True)
class Reg:
    """A register or register range: `v1`, `v[0:3]`, `s[4:7]`, `a[0:15]`, `ttmp[4:7]`.

    `file` is one of 'v', 's', 'a', 'ttmp'. Special registers (vcc, exec, m0...)
    are `Special`, because their identity matters more than their index.
    """

    file: str
    index: int
    count: int
    span: Span

    @property
    def last(self) -> int:
        return self.index + self.count - 1

    def text(self) -> str:
        if self.count == 1:
            return f"{self.file}{self.index}"
        return f"{self.file}[{self.index}:{self.last}]"


@dataclass(frozen=True, slots=True)
class Special:
    """A named register or placeholder: vcc, vcc_lo, exec, m0, scc, off, src_*, ..."""

    name: str
    span: Span

    def text(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Imm:
    """An integer constant, already evaluated (expressions of numbers fold here)."""

    value: int
    span: Span
    source: str = ""

    def text(self) -> str:
        return self.source or str(self.value)


@dataclass(frozen=True, slots=True)
class FloatImm:
    """A floating-point literal such as `1.0` or `-0.5`."""

    value: float
    span: Span
    source: str = ""

    def text(self) -> str:
        return self.source or repr(self.value)


@dataclass(frozen=True, slots=True)
class Symbol:
    """A name used as a value: a label (branch target) or a `.set` symbol."""

    name: str
    span: Span

    def text(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Expr:
    """An expression that could not be folded at parse time (it names symbols).

    `op` is the operator ('+', '-', '*', 'neg', ...), `args` its operands.
    `resolve` folds it once symbol values are known.
    """

    op: str
    args: tuple["Operand", ...]
    span: Span

    def text(self) -> str:
        if len(self.args) == 1:
            return f"{self.op}({self.args[0].text()})"
        return "(" + f" {self.op} ".join(a.text() for a in self.args) + ")"


@dataclass(frozen=True, slots=True)
class Call:
    """A function-style operand: `vmcnt(0)`, `hwreg(HW_REG_MODE, 0, 1)`, `sendmsg(...)`."""

    name: str
    args: tuple["Operand", ...]
    span: Span

    def text(self) -> str:
        return f"{self.name}({', '.join(a.text() for a in self.args)})"


@dataclass(frozen=True, slots=True)
class CallGroup:
    """Several calls written as one operand: `vmcnt(0) & lgkmcnt(0)`."""

    calls: tuple[Call, ...]
    span: Span

    def text(self) -> str:
        return " ".join(c.text() for c in self.calls)


@dataclass(frozen=True, slots=True)
class RegList:
    """A bracketed list `[s0, s1, s2, s3]` (llvm-mc accepts it for consecutive registers)."""

    items: tuple["Operand", ...]
    span: Span

    def text(self) -> str:
        return "[" + ", ".join(a.text() for a in self.items) + "]"


@dataclass(frozen=True, slots=True)
class Modified:
    """An operand with source modifiers: `-v1`, `|v1|`, `-|v1|`, `neg(v1)`, `abs(v1)`, `sext(v1)`."""

    inner: "Operand"
    neg: bool
    abs: bool
    sext: bool
    span: Span

    def text(self) -> str:
        t = self.inner.text()
        if self.sext:
            t = f"sext({t})"
        if self.abs:
            t = f"|{t}|"
        if self.neg:
            t = f"-{t}"
        return t


Operand = Union[Reg, Special, Imm, FloatImm, Symbol, Expr, Call, CallGroup, RegList, Modified]


@dataclass(frozen=True, slots=True)
class Modifier:
    """A trailing instruction modifier: `offset:16`, `glc`, `cbsz:1`, `neg_lo:[0,1,0]`.

    `value` is None for bare flags, an int, a tuple of ints for lists, or a str for
    names such as `dst_sel:WORD_1`.
    """

    name: str
    value: Union[None, int, tuple, str]
    span: Span

    def text(self) -> str:
        if self.value is None:
            return self.name
        if isinstance(self.value, tuple):
            return f"{self.name}:[{','.join(str(v) for v in self.value)}]"
        return f"{self.name}:{self.value}"


# ---------------------------------------------------------------- statements


@dataclass(slots=True)
class Instruction:
    mnemonic: str  # lower case, as written otherwise (suffixes such as _e64 kept)
    operands: tuple
    modifiers: tuple
    span: Span  # the whole statement
    mnemonic_span: Span
    index: int = -1  # position among the program's instructions

    def modifier(self, name: str, default=None):
        for m in self.modifiers:
            if m.name == name:
                return m.value if m.value is not None else True
        return default

    def has(self, name: str) -> bool:
        return any(m.name == name for m in self.modifiers)

    def text(self) -> str:
        ops = ", ".join(o.text() for o in self.operands)
        mods = " ".join(m.text() for m in self.modifiers)
        return " ".join(p for p in (self.mnemonic, ops, mods) if p)


@dataclass(slots=True)
class Label:
    name: str
    span: Span


@dataclass(slots=True)
class Directive:
    """An assembler directive, kept verbatim.

    `args` are the comma-separated arguments as written; `body` holds the raw
    lines of block directives (`.amdgpu_metadata`, `.amdhsa_kernel`).
    """

    name: str
    args: tuple[str, ...]
    span: Span
    body: tuple[str, ...] = ()


@dataclass(slots=True)
class Assignment:
    """`name = expr` or `.set name, expr`."""

    name: str
    value: Operand
    span: Span


Statement = Union[Instruction, Label, Directive, Assignment]


@dataclass
class Program:
    """A whole assembly file. `lines` keeps the source text for diagnostics."""

    file: str
    statements: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)
    # instruction index -> the lines that instantiated it, outermost first (macro call, .rept, .irp...),
    # for instructions that came out of macro expansion: their spans point into the macro body
    expansions: dict = field(default_factory=dict)
    # included file -> its lines (spans of statements from an `.include` name that file)
    sources: dict = field(default_factory=dict)
    # included file -> the span of the `.include` that brought it in (for "included from" notes)
    include_sites: dict = field(default_factory=dict)
    # (file, line) of an `.incbin` -> the bytes it emits (the preprocessor reads the file once)
    incbins: dict = field(default_factory=dict)

    @property
    def instructions(self) -> list[Instruction]:
        return [s for s in self.statements if isinstance(s, Instruction)]

    @property
    def labels(self) -> dict[str, int]:
        """Label name -> index of the instruction that follows it."""
        out: dict[str, int] = {}
        count = 0
        for s in self.statements:
            if isinstance(s, Instruction):
                count += 1
            elif isinstance(s, Label):
                out[s.name] = count
        return out

    @property
    def symbols(self) -> dict[str, Operand]:
        return {s.name: s.value for s in self.statements if isinstance(s, Assignment)}

    def constants(self) -> dict[str, int]:
        """The `.set`/`=`/`.equ` symbols with a constant value, as at the end of the file (what a
        user means by a symbol name at `--print` or in the debugger)."""
        return {k: v.value for k, v in self.symbols.items() if isinstance(v, Imm)}

    def directive(self, name: str) -> Directive | None:
        for s in self.statements:
            if isinstance(s, Directive) and s.name == name:
                return s
        return None

    def source_line(self, line: int, file: str | None = None) -> str:
        lines = self.lines if file is None or file == self.file else self.sources.get(file, ())
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return ""

    def source_lines(self, file: str | None) -> list[str] | None:
        """The text of `file`: this program's own lines or an included file's."""
        if file is None or file == self.file:
            return self.lines
        return self.sources.get(file)
