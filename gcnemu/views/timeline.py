"""An llvm-mca-style text timeline of a timed run: one row per executed instruction.

Columns are cycles. In a row:
  ``=``  the wave wanted to issue the instruction but was stalled (reason in the table)
  ``D``  issue (dispatch) cycle
  ``e``  executing / in flight
  ``E``  last cycle before the result lands (memory: the access completes)
  ``.``  nothing for this instruction (a dot every 5 cycles, as llvm-mca does)
Long stretches where no shown instruction starts, issues or ends (memory latency,
long MFMAs) are compressed into one ``~`` column, so a 500-cycle load stays readable:
each row keeps its state through the gap (``e`` stays ``e``).

Built on the engine's records only; it never decides timing.
"""
from __future__ import annotations

from dataclasses import dataclass

GAP = "~"


@dataclass
class Row:
    line: int
    text: str
    ready: int
    issue: int
    complete: int
    stalls: dict


def rows_for(engine, wave: int, line_range: tuple[int, int] | None = None,
             limit: int | None = None) -> list[Row]:
    """The rows of `wave` (within `line_range`), the first `limit` of them when given."""
    ins = engine.kernel.instructions
    out = []
    if limit is not None and limit <= 0:
        return out
    for r in engine.records:
        if r.wave != wave:
            continue
        i = ins[r.index]
        if line_range and not (line_range[0] <= i.span.line <= line_range[1]):
            continue
        out.append(Row(i.span.line, i.text(), r.ready, r.issue, r.complete, dict(r.stalls)))
        if limit is not None and len(out) == limit:
            break
    return out


def count_rows(engine, wave: int, line_range: tuple[int, int] | None = None) -> int:
    """How many rows rows_for(engine, wave, line_range) has, without building them."""
    if not line_range:
        return sum(1 for r in engine.records if r.wave == wave)
    ins = engine.kernel.instructions
    lo, hi = line_range
    return sum(1 for r in engine.records if r.wave == wave and lo <= ins[r.index].span.line <= hi)


def columns(rows: list[Row], keep: int = 6) -> list[int | None]:
    """Cycles shown, in order; None marks a compressed gap.

    A cycle is interesting when a row starts waiting, issues, or ends there; runs of
    uninteresting cycles longer than 2*keep are compressed to `keep` cycles on each
    side of a single gap column.
    """
    if not rows:
        return []
    marks = set()
    for r in rows:
        marks.update((r.ready, r.issue, max(r.issue, r.complete - 1)))
    lo, hi = min(marks), max(marks)
    ordered = sorted(marks)
    cols: list[int | None] = []
    prev = None
    for m in ordered:
        if prev is None:
            cols.append(m)
        else:
            gap = m - prev - 1
            if gap <= 2 * keep + 1:
                cols.extend(range(prev + 1, m + 1))
            else:
                cols.extend(range(prev + 1, prev + 1 + keep))
                cols.append(None)
                cols.extend(range(m - keep, m + 1))
        prev = m
    assert cols[0] == lo and cols[-1] == hi
    return cols


def _cell(r: Row, c: int | None, prev: int | None) -> str:
    """The character of row `r` in column `c` (None: a gap after cycle `prev`); _row_cells
    draws whole rows the same way at once."""
    if c is None:
        # A gap holds no event of any row, so every cycle in it looks like the one
        # after the last shown cycle: waiting and executing rows keep their letter.
        ch = _cell(r, prev + 1, None) if prev is not None else " "
        return ch if ch in "=e" else GAP
    if c == r.issue:
        return "D"
    if r.ready <= c < r.issue:
        return "="
    if r.issue < c < r.complete - 1:
        return "e"
    if c == r.complete - 1 and c > r.issue:
        return "E"
    return "." if c % 5 == 0 else " "


def _background(cols: list[int | None]) -> str:
    """A row with no event in any column: a dot every 5 cycles, GAP in the gaps."""
    return "".join(GAP if c is None else "." if c % 5 == 0 else " " for c in cols)


def _row_cells(r: Row, background: str, at: dict[int, int]) -> str:
    """The cells of row `r`, as _cell gives them column by column: between its ready and
    issue columns `=`, `D` at issue, `e` up to the column before the result lands, `E` there,
    and the background elsewhere. A gap between two of these columns holds no event of any
    row, so it takes the letter around it (`=` or `e`). `at`: cycle -> column; a row's
    ready, issue and last cycles are always shown columns (see `columns`)."""
    d = at[r.issue]
    w = at[r.ready] if r.ready < r.issue else d
    last = r.complete - 1
    if last > r.issue:
        e = at[last]
        return f"{background[:w]}{'=' * (d - w)}D{'e' * (e - d - 1)}E{background[e + 1:]}"
    return f"{background[:w]}{'=' * (d - w)}D{background[d + 1:]}"


def render(engine, wave: int = 0, line_range: tuple[int, int] | None = None, max_rows: int = 400,
           show_table: bool = True) -> str:
    if max_rows >= 0:  # the rows shown are built, the others only counted
        rows = rows_for(engine, wave, line_range, limit=max_rows)
        total = count_rows(engine, wave, line_range) if len(rows) == max_rows else len(rows)
    else:  # a negative count drops rows from the end, as a slice does
        rows = rows_for(engine, wave, line_range)
        total = len(rows)
        rows = rows[:max_rows]
    out: list[str] = []
    tgt = engine.target.name
    out.append(f"Timeline view: wave {wave} of {len(engine.waves)} on {tgt}, kernel cycles {engine.cycle}"
               f" (one column per cycle, '{GAP}' = cycles skipped while nothing changes)")
    if not rows:
        everything = rows_for(engine, wave, None)
        where = (f"; its instructions are on lines {min(r.line for r in everything)}-"
                 f"{max(r.line for r in everything)}") if everything and line_range else ""
        out.append(f"  (no instructions of this wave in the selected range{where})")
        return "\n".join(out)
    cols = columns(rows)
    head_t, head_u = [], []
    prev = None
    for c in cols:
        if c is None:
            head_t.append(GAP)
            head_u.append(GAP)
        else:
            head_t.append(str(c // 10 % 10) if (c % 10 == 0 or prev is None) else " ")
            head_u.append(str(c % 10))
        prev = c
    label_w = max(len(f"[{r.line}]") for r in rows) + 1
    out.append(" " * label_w + f"cycle {cols[0]}")
    out.append(" " * label_w + "".join(head_t))
    out.append("Line".ljust(label_w) + "".join(head_u))
    out.append("")
    background = _background(cols)
    at = {c: k for k, c in enumerate(cols) if c is not None}
    for r in rows:
        out.append(f"[{r.line}]".ljust(label_w) + _row_cells(r, background, at) + "   " + r.text)
    if total > len(rows):
        out.append(f"... {total - len(rows)} more rows (narrow with --range L1:L2)")
    if show_table:
        out.append("")
        out.append(table(rows))
    return "\n".join(out)


def table(rows: list[Row]) -> str:
    lines = [f"{'Line':>5} {'Ready':>7} {'Issue':>7} {'Done':>7} {'Stall':>6}  {'Reason':<22} Instruction"]
    for r in rows:
        reason = ", ".join(f"{k} {v}" if len(r.stalls) > 1 else k for k, v in r.stalls.items())
        lines.append(f"{r.line:>5} {r.ready:>7} {r.issue:>7} {r.complete:>7} {r.issue - r.ready:>6}  "
                     f"{reason:<22} {r.text}")
    return "\n".join(lines)


def summary(engine) -> str:
    from ..sim.engine import wave_summary
    st = engine.stats()
    out = [f"Kernel: {st['cycles']} cycles, {st['instructions']} wave-instructions, {st['waves']} wave(s)"]
    if st["mfma_busy_cycles"]:
        out.append(f"  MFMA pipe utilisation {st['mfma_utilisation'] * 100:.1f}%  "
                   f"FLOP/cycle achieved {st['flops_per_cycle']:.1f} of peak {st['peak_flops_per_cycle']:.1f}")
    for wi in range(len(engine.waves)):
        s = wave_summary(engine, wi)
        stalls = ", ".join(f"{k} {v}" for k, v in s["stalls"].items()) or "none"
        out.append(f"  wave {wi} (SIMD {s['simd']}): {s['cycles']} cycles, {s['instructions']} instructions, "
                   f"stalled {s['stall_cycles']} cycles: {stalls}")
    return "\n".join(out)
