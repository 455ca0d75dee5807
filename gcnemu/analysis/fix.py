"""``--fix``: remove hazards with the smallest edit, leaving every other byte as it was.

Edits come from the diagnostics' ``fix`` field: insert ``s_nop N`` (fewest
instructions providing the missing wait states) before the consumer, or the
tightest ``s_waitcnt`` field - tightening the ``s_waitcnt`` that failed to
cover the load when there is one in the same block, else inserting one before
the consumer.  An insertion goes at the consumer's column on its own line, with
the consumer's indentation and the line ending the file uses there (CRLF kept),
so a label on the consumer's line stays in front of the new instruction (a
loop head keeps its ``s_nop`` inside the loop).

Fixing one hazard can shorten or remove another (an ``s_nop`` adds distance to
every later pair; a stronger ``s_waitcnt`` covers later uses too), so fixes are
applied in rounds: each round re-parses and re-lints the edited text and
applies only edits that cannot influence each other (no two within one rule
window of instructions, at most one counter edit per basic block).  The result
is minimal per hazard in program order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..asm.diagnostics import Diagnostic, GcnemuError
from ..asm.parse import parse
from .lint import analyze_program, lint, lint_analysis

MAX_ROUNDS = 200


@dataclass(frozen=True)
class Edit:
    line: int
    column: int
    end_column: int  # == column for an insertion
    text: str  # for insertions: instruction lines separated by '\n'
    insert: bool


@dataclass
class FixResult:
    text: str
    fixed: int  # hazards removed (edits applied)
    remaining: list[Diagnostic]  # hazards the fixer could not remove
    rounds: int


_EOL = re.compile(r"\r\n|\r|\n")


def _line_table(text: str) -> tuple[list[tuple[int, int, str]], int]:
    """Each line's (start, end, ending) and the BOM width.  Lines end at CRLF, a lone CR (old
    Mac) or LF, exactly where the parser ends them, so diagnostic line numbers index this table.
    A last line without an ending gets the ending of the line before it (the file's own)."""
    table: list[tuple[int, int, str]] = []
    pos = 0
    last = "\n"
    for m in _EOL.finditer(text):
        table.append((pos, m.start(), m.group()))
        last = m.group()
        pos = m.end()
    table.append((pos, len(text), last))  # the text after the last ending (maybe empty)
    bom = 1 if text.startswith("\ufeff") else 0
    return table, bom


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply edits (positions refer to ``text``) from the last to the first.  An inserted line
    ends as the line it goes into ends (CRLF, CR or LF), so the file keeps its line endings."""
    table, bom = _line_table(text)
    out = text
    for e in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        if not 1 <= e.line <= len(table):
            raise GcnemuError(f"--fix: line {e.line} is past the end of the file ({len(table)} lines)")
        start, end, eol = table[e.line - 1]
        base = start + (bom if e.line == 1 else 0)
        line = text[base:end]
        at = base + e.column - 1
        if e.insert:
            indent = "".join(c if c in " \t" else " " for c in line[: e.column - 1])
            new = "".join(f"{t}{eol}{indent}" for t in e.text.split("\n"))
            out = out[:at] + new + out[at:]
        else:
            out = out[:at] + e.text + out[base + e.end_column - 1:]
    return out


def _edit_of(d: Diagnostic) -> Edit | None:
    fx = d.extra.get("fix") if d.extra else None
    if not fx:
        return None
    if fx["action"] == "insert-before":
        return Edit(fx["line"], fx["column"], fx["column"], fx["text"], True)
    return Edit(fx["line"], fx["column"], fx["end_column"], fx["text"], False)


def fix_text(text: str, target, file: str = "<input>", rules=None, launch=None) -> FixResult:
    """Fix every hazard of ``text`` on ``target``; the edited text and what was left."""
    fixed = 0
    for rnd in range(1, MAX_ROUNDS + 1):
        prog = parse(text, file)
        if any(d.severity == "error" for d in prog.diagnostics):
            raise GcnemuError("cannot fix a file with errors", [d for d in prog.diagnostics if d.severity == "error"])
        an = analyze_program(prog, target, rules, launch)
        diags = [d for d in lint_analysis(an, rules) if d.severity == "warning"]
        if not diags:
            return FixResult(text, fixed, [], rnd - 1)
        chosen = _choose(diags, an)
        if not chosen:
            return FixResult(text, fixed, diags, rnd - 1)
        text = apply_edits(text, chosen)
        fixed += len(chosen)
    prog = parse(text, file)
    return FixResult(text, fixed, [d for d in lint(prog, target, rules, launch=launch) if d.severity == "warning"], MAX_ROUNDS)


def _choose(diags: list[Diagnostic], an) -> list[Edit]:
    """Edits for this round that cannot influence each other."""
    window = max(an.index.windows, default=0) + 1
    main = an.program.file
    line_to_index = {ins.span.line: i for i, ins in enumerate(an.instructions) if ins.span.file == main}
    per_pos: dict[tuple[int, int, bool], tuple[int, Edit]] = {}
    for d in diags:
        e = _edit_of(d)
        if e is None or (d.span is not None and d.span.file != main):
            continue  # a hazard inside an included file: --fix edits only the file it was given
        req = d.extra.get("required_wait_states")
        counter = req is None
        # counter edits first (they also add a wait state), then the largest s_nop
        prio = (0, 0) if counter else (1, -(req - d.extra["provided_wait_states"]))
        key = (e.line, e.column, e.insert)
        old = per_pos.get(key)
        if old is None or prio < old[0]:
            per_pos[key] = (prio, e)
    chosen: list[Edit] = []
    last_at = -10 ** 9
    blocks_with_counter_edit: set[int] = set()
    for (line, col, ins), (prio, e) in sorted(per_pos.items()):
        idx = line_to_index.get(line)
        if idx is None:
            continue
        blk = an.cfg.block_of[idx]
        if prio[0] == 0 and blk in blocks_with_counter_edit:
            continue
        if idx - last_at < window and chosen:
            continue
        chosen.append(e)
        last_at = idx
        if prio[0] == 0:
            blocks_with_counter_edit.add(blk)
    return chosen
