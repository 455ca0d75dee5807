"""An llvm-mca-style text timeline of a timed run: one row per executed instruction.

Columns are cycles, or groups of `scale` cycles (`scaled`: one column per 4-cycle issue turn
is what `gcnemu timeline` draws by default). In a row:
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
    index: int = -1  # the instruction's index in the kernel (hazard marks)


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
        out.append(Row(i.span.line, i.text(), r.ready, r.issue, r.complete, dict(r.stalls), r.index))
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


def scaled(r: Row, scale: int) -> Row:
    """`r` in columns of `scale` cycles: column k holds cycles k*scale .. k*scale+scale-1.

    A column shows the most telling thing that happens in it: the issue (`D`) wins over the
    last cycle (`E`), which wins over waiting and executing, so a 4-cycle issue turn is one
    `D` column and an instruction finishing within its own turn has no `E`."""
    if scale == 1:
        return r
    issue = r.issue // scale
    last = max(r.issue, r.complete - 1) // scale
    return Row(r.line, r.text, r.ready // scale, issue, last + 1 if last > issue else issue, r.stalls, r.index)


def parse_cycles(text: str | None) -> tuple[int, int] | None:
    """`--cycles A:B` (inclusive; either side may be empty) as (A, B) cycles."""
    if text is None:
        return None
    lo, sep, hi = text.partition(":")
    if not sep:
        raise ValueError(f"--cycles expects A:B (cycles), got '{text}'")
    try:
        a = int(lo) if lo.strip() else 0
        b = int(hi) if hi.strip() else 1 << 62
    except ValueError:
        raise ValueError(f"--cycles expects A:B with integer cycles, got '{text}'") from None
    if a < 0 or b < a:
        raise ValueError(f"--cycles {text}: cycles start at 0 and A must not exceed B")
    return a, b


def _span(r: Row) -> tuple[int, int]:
    return r.ready, max(r.issue, r.complete - 1)


def _window_columns(rows: list[Row], lo: int, hi: int) -> list[int | None]:
    """columns() of `rows` cut to the columns lo..hi, always showing lo and hi."""
    marks = {lo, hi}
    for r in rows:
        marks.update(m for m in (r.ready, r.issue, max(r.issue, r.complete - 1)) if lo <= m <= hi)
    return columns([Row(0, "", m, m, m + 1, {}) for m in marks])


def _drawn(r: Row, cols: list[int | None]) -> str:
    """The cells of `r` column by column (for rows whose events may lie outside `cols`)."""
    out, prev = [], None
    for c in cols:
        out.append(_cell(r, c, prev))
        if c is not None:
            prev = c
    return "".join(out)


def _ruler(cols: list[int | None], scale: int) -> tuple[str, str]:
    """Two header lines: the cycle where every tenth column starts, and its tick."""
    top = [" "] * len(cols)
    ticks = []
    for k, c in enumerate(cols):
        if c is None:
            ticks.append(GAP)
        elif c % 10 == 0 or k == 0:
            ticks.append("|")
            label = str(c * scale)
            if all(x == " " for x in top[k:k + len(label) + 1]) and k + len(label) <= len(cols):
                top[k:k + len(label)] = label
        else:
            ticks.append(".")
    return "".join(top).rstrip(), "".join(ticks)


def render(engine, wave: int = 0, line_range: tuple[int, int] | None = None, max_rows: int = 400,
           show_table: bool = True, scale: int = 1, cycles: tuple[int, int] | None = None,
           max_columns: int | None = None, hazards=None) -> str:
    """The timeline of `wave`. `scale` cycles per column; `cycles` an (A, B) window of cycles;
    without a window at most `max_columns` columns are drawn from the first row on (as
    llvm-mca's -timeline-max-cycles does), the rows starting later counted at the end.
    `hazards` (engine HazardEvents) mark their rows: `!` and the rule at the row's end."""
    if cycles is None and max_columns is None and scale == 1:
        return _render_full(engine, wave, line_range, max_rows, show_table, hazards)
    if cycles is None and max_rows >= 0:  # the rows shown are built, the others only counted
        everything = rows_for(engine, wave, line_range, limit=max_rows)
        n_all = count_rows(engine, wave, line_range) if len(everything) == max_rows else len(everything)
    else:
        everything = rows_for(engine, wave, line_range)
        n_all = len(everything)
    tgt = engine.target.name
    unit = "one column per cycle" if scale == 1 else f"one column per {scale} cycles"
    head = (f"Timeline view: wave {wave} of {len(engine.waves)} on {tgt}, kernel cycles {engine.cycle}"
            f" ({unit}, '{GAP}' = columns skipped while nothing changes)")
    if cycles is not None:
        lo, hi = cycles[0] // scale, min(cycles[1], max(engine.cycle, 0)) // scale
        chosen = [r for r in everything if _span(r)[1] >= cycles[0] and r.ready <= cycles[1]]
        total = len(chosen)
        rows = chosen[:max_rows]
        later = 0
    else:
        rows = everything[:max_rows]
        total = n_all
        later = 0
    out = [head]
    if not rows:
        every_line = rows_for(engine, wave, None) if line_range else everything
        where = (f"; its instructions are on lines {min(r.line for r in every_line)}-"
                 f"{max(r.line for r in every_line)}") if every_line and line_range else ""
        if cycles is not None and everything:
            where += f"; it runs from cycle {everything[0].ready} to {max(_span(r)[1] for r in everything)}"
        out.append(f"  (no instructions of this wave in the selected range{where})")
        return "\n".join(out)
    srows = [scaled(r, scale) for r in rows]
    if cycles is None:
        cols = columns(srows)
        if max_columns is not None and len(cols) > max_columns:
            cols = cols[:max_columns]
            while cols[-1] is None:
                cols.pop()
        hi = cols[-1]
        keep = [k for k, r in enumerate(srows) if r.ready <= hi]
        later = len(srows) - len(keep)
        rows, srows = [rows[k] for k in keep], [srows[k] for k in keep]
        total -= later
    else:
        cols = _window_columns(srows, lo, hi)
    marks = _marks(rows, hazards, wave)
    label_w = max(len(f"[{r.line}]") for r in rows) + 1
    top, ticks = _ruler(cols, scale)
    out.append(" " * label_w + "cycle")
    out.append(" " * label_w + top)
    out.append("Line".ljust(label_w) + ticks)
    out.append("")
    for r, s in zip(rows, srows):
        mark = marks.get(id(r))
        tail = f"   {r.text}" + (f"   ! {mark}" if mark else "")
        out.append(f"[{r.line}]".ljust(label_w) + _drawn(s, cols) + tail)
    if total > len(rows):
        out.append(f"... {total - len(rows)} more rows (narrow with --range L1:L2 or --cycles A:B)")
    if later:
        out.append(f"... {later} more rows after cycle {(hi + 1) * scale - 1} "
                   f"(see them with --cycles {(hi + 1) * scale}:)")
    if show_table:
        out.append("")
        out.append(table(rows, marks))
    return "\n".join(out)


def _marks(rows: list[Row], hazards, wave: int) -> dict[int, str]:
    """id(row) -> the rules of the hazards and races that instruction hit at that execution
    (an event the engine noted between the row's ready and issue cycles: s_barrier notes its
    check when the wave arrives, before it issues)."""
    if not hazards:
        return {}
    by_index: dict[int, list] = {}
    for h in hazards:
        if h.wave == wave:
            by_index.setdefault(h.consumer, []).append(h)
    out = {}
    for r in rows:
        rules: list[str] = []
        for h in by_index.get(r.index, ()):
            if r.ready <= h.cycle <= r.issue and h.rule not in rules:
                rules.append(h.rule)
        if rules:
            out[id(r)] = ", ".join(rules)
    return out


def picture_rows(engine, wave: int, line_range, max_rows: int, cycles: tuple[int, int] | None) -> list[Row]:
    """The rows a picture draws: those alive in the `cycles` window (else all), at most `max_rows`."""
    rows = rows_for(engine, wave, line_range)
    if cycles is not None:
        rows = [r for r in rows if _span(r)[1] >= cycles[0] and r.ready <= cycles[1]]
    return rows[:max_rows]


def _render_full(engine, wave: int, line_range, max_rows: int, show_table: bool, hazards) -> str:
    """Every cycle, every row up to `max_rows` (the API's default; `gcnemu timeline --scale 1`
    without a window)."""
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
    marks = _marks(rows, hazards, wave)
    at = {c: k for k, c in enumerate(cols) if c is not None}
    for r in rows:
        mark = marks.get(id(r))
        out.append(f"[{r.line}]".ljust(label_w) + _row_cells(r, background, at) + "   " + r.text
                   + (f"   ! {mark}" if mark else ""))
    if total > len(rows):
        out.append(f"... {total - len(rows)} more rows (narrow with --range L1:L2)")
    if show_table:
        out.append("")
        out.append(table(rows, marks))
    return "\n".join(out)


def table(rows: list[Row], marks: dict[int, str] | None = None) -> str:
    lines = [f"{'Line':>5} {'Ready':>7} {'Issue':>7} {'Done':>7} {'Stall':>6}  {'Reason':<22} Instruction"]
    for r in rows:
        reason = ", ".join(f"{k} {v}" if len(r.stalls) > 1 else k for k, v in r.stalls.items())
        mark = (marks or {}).get(id(r))
        lines.append(f"{r.line:>5} {r.ready:>7} {r.issue:>7} {r.complete:>7} {r.issue - r.ready:>6}  "
                     f"{reason:<22} {r.text}" + (f"   ! {mark}" if mark else ""))
    return "\n".join(lines)


def summary(engine) -> str:
    """The kernel's figures, as llvm-mca's summary gives them: instructions, cycles, IPC; then
    how busy each pipe was and where the waves' stall cycles went (views.where's columns)."""
    from ..sim.engine import wave_summary
    st = engine.stats()
    cycles = max(st["cycles"], 1)
    out = [f"Kernel: {st['cycles']} cycles, {st['instructions']} wave-instructions, {st['waves']} wave(s)",
           f"  Instructions:      {st['instructions']}",
           f"  Total Cycles:      {st['cycles']}",
           f"  IPC:               {st['instructions'] / cycles:.2f}  (wave-instructions per cycle, whole CU)"]
    busy = pipe_busy(engine)
    if busy:
        per_pipe: dict[str, list[float]] = {}
        for k, v in busy.items():
            per_pipe.setdefault(k.split(" SIMD ")[0], []).append(v)
        parts = []
        for pipe, vs in sorted(per_pipe.items(), key=lambda kv: -max(kv[1])):
            lo, hi = min(vs) * 100, max(vs) * 100
            share = f"{hi:.1f}%" if f"{lo:.1f}" == f"{hi:.1f}" else f"{lo:.1f}-{hi:.1f}%"
            parts.append(f"{pipe} {share}" + (f" (each of {len(vs)} SIMDs)" if len(vs) > 1 else ""))
        out.append("  Pipe busy:         " + ", ".join(parts))
    stalls = stall_cycles(engine)
    if stalls is not None:
        other = stalls.pop("other reasons", {})
        text = ", ".join(f"{c} {v}" + (f" ({', '.join(f'{k} {n}' for k, n in other.items())})"
                                       if c == "other" and other else "")
                         for c, v in stalls.items())
        out.append(f"  Stall cycles:      {text or 'none'}  (summed over waves)")
    if st["mfma_busy_cycles"]:
        out.append(f"  MFMA pipe utilisation {st['mfma_utilisation'] * 100:.1f}%  "
                   f"FLOP/cycle achieved {st['flops_per_cycle']:.1f} of peak {st['peak_flops_per_cycle']:.1f}")
    for wi in range(len(engine.waves)):
        s = wave_summary(engine, wi)
        stalls = ", ".join(f"{k} {v}" for k, v in s["stalls"].items()) or "none"
        out.append(f"  wave {wi} (SIMD {s['simd']}): {s['cycles']} cycles, {s['instructions']} instructions, "
                   f"stalled {s['stall_cycles']} cycles: {stalls}")
    return "\n".join(out)


def stall_cycles(engine) -> dict | None:
    """Stall cycles by cause (views.where's columns other than issue), largest first, with the
    reasons folded into "other" under "other reasons"; None when the engine kept no totals."""
    from .where import COLUMNS, time_by_class
    by_class = time_by_class(engine)
    if not by_class and getattr(engine, "issued", None) is None:
        return None
    totals = {c: sum(r[c] for r in by_class.values()) for c in COLUMNS if c != "issue"}
    out: dict = dict(sorted(((c, v) for c, v in totals.items() if v), key=lambda kv: -kv[1]))
    other: dict[str, int] = {}
    for r in by_class.values():
        for k, v in r["other_reasons"].items():
            other[k] = other.get(k, 0) + v
    if other:
        out["other reasons"] = dict(sorted(other.items(), key=lambda kv: -kv[1]))
    return out


def pipe_busy(engine) -> dict[str, float]:
    """'pipe SIMD n' (or 'pipe' for a CU-wide pipe) -> the fraction of the kernel's cycles it was
    busy, from the engine's occupancy totals (Engine.pipe_use), busiest first."""
    cycles = max(engine.cycle, 1)
    out = {}
    for key, n in engine.pipe_use.items():  # (pipe, SIMD) for a SIMD's pipe, the name for a CU's
        out[f"{key[0]} SIMD {key[1]}" if isinstance(key, tuple) else key] = n / cycles
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))
