"""Diagnostics in llvm-mc's shape: `file:line:col: error: message`, the line, a caret.

Every stage (parse, validation, simulation, hazards) reports through `Diagnostic`
so that users see one format everywhere, and `--format json` gets the same facts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .program import Span


class GcnemuError(Exception):
    """An error the user caused (bad input, bad option). Carries diagnostics, never a traceback."""

    def __init__(self, message: str, diagnostics: list["Diagnostic"] | None = None):
        super().__init__(message)
        self.diagnostics = diagnostics or []


@dataclass
class Diagnostic:
    severity: str  # 'error' | 'warning' | 'note' | 'remark'
    message: str
    span: Span | None
    rule: str = ""
    notes: list["Diagnostic"] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out = {
            "file": self.span.file if self.span else None,
            "line": self.span.line if self.span else None,
            "column": self.span.column if self.span else None,
            "severity": self.severity,
            "message": self.message,
            "rule": self.rule,
        }
        out.update(self.extra)
        if self.notes:
            out["notes"] = [n.to_json() for n in self.notes]
        return out


def _visible(text: str) -> str:
    """Source line as printed: tabs kept (the caret line copies them), control chars shown safely."""
    return "".join(c if (c == "\t" or c.isprintable()) else "?" for c in text)


COLOR = False
"""Whether `render` paints diagnostics as llvm-mc does on a terminal; the command line sets it
from `--color=auto|always|never` and NO_COLOR (gcnemu.cli). Plain text by default, so the API,
pipes and files never get escape codes."""

# llvm-mc's colours (llvm/Support/WithColor.h): errors bold red, warnings bold magenta, notes bold
# black (shown grey), remarks bold blue; the location and message bold; the caret line bold green
SEVERITY_STYLE = {"error": "bold red", "warning": "bold magenta", "note": "bold bright_black",
                  "remark": "bold blue"}


def _paint(text: str, style: str) -> str:
    """`text` with `style` as ANSI escapes, made by rich (already a dependency) so the codes match
    what every rich-drawn part of gcnemu uses."""
    from rich.console import Console
    from rich.text import Text
    console = Console(force_terminal=True, color_system="standard", width=1 << 20, highlight=False,
                      no_color=False)
    with console.capture() as cap:
        console.print(Text(text, style=style), end="", soft_wrap=True)
    return cap.get()


def _header(loc: str, severity: str, message: str) -> str:
    if not COLOR:
        return f"{loc}{severity}: {message}"
    return (_paint(loc, "bold") + _paint(f"{severity}:", SEVERITY_STYLE.get(severity, "bold"))
            + _paint(f" {message}", "bold"))


def render(diag: Diagnostic, lines: list[str] | None = None, max_width: int = 400, sources=None) -> str:
    """Render one diagnostic (and its notes) like llvm-mc does. `sources` (file -> lines) gives
    the text of other files a note points into (the file that included this one)."""
    parts: list[str] = []
    loc = f"{diag.span}: " if diag.span else ""
    rule = f" [{diag.rule}]" if diag.rule else ""
    parts.append(_header(loc, diag.severity, f"{diag.message}{rule}"))
    if diag.span and lines is not None and 1 <= diag.span.line <= len(lines):
        src = lines[diag.span.line - 1].rstrip("\r\n")
        col = max(diag.span.column - 1, 0)
        start = 0
        if len(src) > max_width:  # a 1 MB line must not flood the terminal
            start = max(0, col - max_width // 2)
            src = src[start:start + max_width]
            col -= start
        src = _visible(src)
        parts.append(src)
        pad = "".join("\t" if c == "\t" else " " for c in src[:col])
        width = 1
        if diag.span.end_line == diag.span.line and diag.span.end_column > diag.span.column:
            width = min(diag.span.end_column - diag.span.column, max(1, len(src) - col))
        caret = "^" + "~" * (width - 1)
        parts.append(pad + (_paint(caret, "bold green") if COLOR else caret))
    for note in diag.notes:
        note_lines = lines
        if sources is not None and note.span is not None and diag.span is not None \
                and note.span.file != diag.span.file:
            note_lines = sources.get(note.span.file)
        parts.append(render(note, note_lines, max_width, sources))
    return "\n".join(parts)


def render_all(diags: Iterable[Diagnostic], lines_for) -> str:
    """`lines_for(file)` returns the source lines of a file (or None)."""
    return "\n".join(render(d, lines_for(d.span.file) if d.span else None) for d in diags)


def has_errors(diags: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diags)
