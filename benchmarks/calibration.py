"""The calibration suite: gcnemu's cycles against published hardware measurements.

Each file in ``benchmarks/calibration/`` is one measurement: an asm loop built the way its
source measured it (an ``s_memtime`` window, independent register chains, the empty loop
subtracted, ...) and a header that says what the hardware showed. This script runs every
loop through the timed engine and prints, per row: the measurement, the hardware figure,
gcnemu's figure, the error and whether it is within the row's tolerance.

    python benchmarks/calibration.py                 # the table
    python benchmarks/calibration.py --json          # the same rows for machines
    python benchmarks/calibration.py --markdown      # the README's "How close to hardware" table
    python benchmarks/calibration.py --target gfx942 -k exp
    python benchmarks/calibration.py --update-readme # rewrite README.md's table with --markdown's output

Header format and the timing convention: benchmarks/calibration/README.md. The CI test
(tests/test_calibration.py) runs the same rows and fails on any row outside its tolerance
that is not marked ``xfail-until:``.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SUITE = HERE / "calibration"
if str(ROOT) not in sys.path:  # run as a script from a checkout: use this checkout's gcnemu
    sys.path.insert(0, str(ROOT))

from gcnemu.asm.diagnostics import GcnemuError  # noqa: E402

# The s_memtime convention (README): the measured window and the optional baseline window.
MEASURED = (20, 22)  # start in s[20:21], end in s[22:23]
BASELINE = (24, 26)  # start in s[24:25], end in s[26:27]

README_START = "<!-- calibration table: python benchmarks/calibration.py --markdown -->\n"
README_END = "\n<!-- end calibration table -->"
REQUIRED = ("hardware", "unit", "tolerance", "part", "target", "count", "source")
KNOWN = REQUIRED + ("method", "baseline", "wave", "xfail-until", "note", "kind")
UNITS = ("cycles/iteration", "cycles latency", "VALU cycles co-executed per MFMA")
KINDS = ("measurement", "document")  # a hardware measurement, or a figure from an AMD document
_OPENER = re.compile(r"^\s*(?://|;+)\s*calibration\s*:\s*(.*)$", re.I)
_FIELD = re.compile(r"^\s*(?://|;+)\s*([a-z][a-z-]*)\s*:\s*(.*?)\s*$")
_TOL = re.compile(r"^(\d+(?:\.\d+)?)\s*(%|cycles?)$")


@dataclass
class Row:
    """One calibration measurement as its file's header declares it (plus gcnemu's result)."""

    file: str
    name: str
    hardware: float
    unit: str
    tolerance: float
    tolerance_kind: str  # "relative" (fraction) or "absolute" (cycles)
    part: str
    target: str
    count: int
    source: str
    method: str = ""
    baseline: str = ""
    wave: int = 0
    kind: str = "measurement"
    xfail_until: str = ""
    note: str = ""
    gcnemu: float | None = None
    error: float | None = None  # gcnemu - hardware, in the unit
    error_pct: float | None = None
    within: bool | None = None
    status: str = ""  # ok | FAIL | xfail | XPASS
    seconds: float = 0.0
    cycles: int = 0  # the whole run's cycles (a reader's sanity check)
    fields: dict = field(default_factory=dict, repr=False)

    @property
    def error_text(self) -> str:
        """The error as the tolerance counts it: percent for relative rows, cycles for absolute."""
        if self.error is None:
            return "-"
        if self.tolerance_kind == "absolute" or self.error_pct is None:
            return f"{self.error:+.1f} cyc"
        return f"{self.error_pct:+.1f}%"

    @property
    def tolerance_text(self) -> str:
        if self.tolerance_kind == "relative":
            return f"{self.tolerance * 100:g}%"
        return f"{self.tolerance:g} cyc"


def _error(path: str, line: int, col: int, text: str, message: str) -> GcnemuError:
    """An llvm-mc style diagnostic for a header problem: file:line:col, the line and a caret."""
    caret = " " * max(col - 1, 0) + "^"
    return GcnemuError(f"{path}:{line}:{col}: error: {message}\n{text}\n{caret}")


def parse_header(path: str | Path) -> Row:
    """Read the `// calibration:` block of one loop file (format: calibration/README.md)."""
    path = str(path)
    lines = Path(path).read_text().splitlines()
    start = None
    for i, text in enumerate(lines):
        m = _OPENER.match(text)
        if m:
            start, name = i, m.group(1).strip()
            break
    if start is None:
        raise _error(path, 1, 1, lines[0] if lines else "", "no '// calibration:' header in this file")
    if not name:
        raise _error(path, start + 1, len(lines[start]) + 1, lines[start], "the calibration needs a name after ':'")
    values: dict[str, tuple[str, int, str]] = {}
    for j in range(start + 1, len(lines)):
        text = lines[j]
        m = _FIELD.match(text)
        if not m:
            if text.strip().startswith(("//", ";")) and text.strip().strip("/; \t"):
                continue  # a free comment line inside the block (a note to the reader)
            break
        key, value = m.group(1).lower(), m.group(2)
        if key not in KNOWN:
            raise _error(path, j + 1, m.start(1) + 1, text,
                         f"unknown calibration field '{key}'; known: {', '.join(KNOWN)}")
        values[key] = (value, j + 1, text)
    def num(key: str, kind=float):
        value, line, text = values[key]
        token = value.split()[0] if value.split() else ""
        try:
            return kind(token)
        except ValueError:
            raise _error(path, line, text.find(value) + 1, text, f"{key}: '{token}' is not a number") from None

    unit_v, unit_line, unit_text = values.get("unit", (UNITS[0], 0, ""))
    if unit_v not in UNITS:
        raise _error(path, unit_line, unit_text.find(unit_v) + 1, unit_text,
                     f"unit must be one of: {', '.join(UNITS)}")
    missing = [k for k in REQUIRED if k not in values]
    if missing:
        raise _error(path, start + 1, 1, lines[start], f"calibration header lacks: {', '.join(missing)}")
    tol_v, tol_line, tol_text = values["tolerance"]
    mt = _TOL.match(tol_v)
    if not mt:
        raise _error(path, tol_line, tol_text.find(tol_v) + 1, tol_text,
                     "tolerance is 'N%' (relative) or 'N cycles' (absolute)")
    tol_kind = "relative" if mt.group(2) == "%" else "absolute"
    tol = float(mt.group(1)) / (100 if tol_kind == "relative" else 1)
    kind = values.get("kind", ("measurement", 0, ""))[0]
    if kind not in KINDS:
        v, ln, tx = values["kind"]
        raise _error(path, ln, tx.find(v) + 1, tx, f"kind must be one of: {', '.join(KINDS)}")
    count = num("count", int)
    if count < 1:
        v, ln, tx = values["count"]
        raise _error(path, ln, tx.find(v) + 1, tx, "count must be at least 1")
    return Row(
        file=os.path.relpath(path, ROOT), name=name, hardware=num("hardware"), unit=unit_v, tolerance=tol,
        tolerance_kind=tol_kind, part=values["part"][0], target=values["target"][0], count=count,
        source=values["source"][0], method=values.get("method", ("",))[0],
        baseline=values.get("baseline", ("",))[0], wave=num("wave", int) if "wave" in values else 0,
        kind=kind, xfail_until=values.get("xfail-until", ("",))[0], note=values.get("note", ("",))[0],
        fields={k: v[0] for k, v in values.items()},
    )


def _window(sgpr, lo: int) -> int:
    start = int(sgpr[lo]) | int(sgpr[lo + 1]) << 32
    end = int(sgpr[lo + 2]) | int(sgpr[lo + 3]) << 32
    return end - start


def measure(row: Row) -> Row:
    """Run the row's loop with timing and fill in gcnemu's figure, the error and the status."""
    from gcnemu.snippets import load_snippet
    t0 = time.perf_counter()
    snip = load_snippet(str(ROOT / row.file), arch=row.target)
    sim = snip.simulate(monitor=False)
    if sim.error is not None:
        raise GcnemuError(f"{row.file}: the calibration loop failed: {sim.error}")
    row.cycles = sim.cycles
    if row.unit == UNITS[2]:
        row.gcnemu = coexecuted_per_mfma(sim.engine)
        return _judge(row, t0)
    wave = sim.wave(row.wave)
    measured = _window(wave.sgpr, MEASURED[0])
    base = _window(wave.sgpr, BASELINE[0]) if row.baseline else 0
    if measured <= 0:
        raise GcnemuError(f"{row.file}: the s_memtime window s[20:23] is empty; the loop must write "
                          "s[20:21] before and s[22:23] after the measured code")
    row.gcnemu = (measured - base) / row.count
    return _judge(row, t0)


def coexecuted_per_mfma(engine) -> float:
    """VALU busy cycles that overlap a running MFMA on the same SIMD, per MFMA: what the SQ's
    VALU/MFMA co-execution counter reads (pyhip's gfx950 PMC figures)."""
    mfma: dict[int, list[tuple[int, int]]] = {}
    valu: list[tuple[int, int, int]] = []
    for pipe, simd, _wave, _index, start, end in engine.pipe_log:
        if pipe == "mfma":
            mfma.setdefault(simd, []).append((start, end))
        elif pipe in ("valu", "trans", "dp"):
            valu.append((simd, start, end))
    n = sum(len(v) for v in mfma.values())
    if not n:
        return 0.0
    overlap = 0
    for simd, start, end in valu:
        for ms, me in mfma.get(simd, ()):
            overlap += max(0, min(end, me) - max(start, ms))
    return overlap / n


def _judge(row: Row, t0: float) -> Row:
    """Error, tolerance verdict and status of a measured row."""
    row.error = row.gcnemu - row.hardware
    row.error_pct = 100.0 * row.error / row.hardware if row.hardware else None
    limit = row.tolerance * abs(row.hardware) if row.tolerance_kind == "relative" else row.tolerance
    row.within = abs(row.error) <= limit + 1e-9
    if row.xfail_until:
        row.status = "XPASS" if row.within else "xfail"
    else:
        row.status = "ok" if row.within else "FAIL"
    row.seconds = time.perf_counter() - t0
    return row


def load_rows(target: str | None = None, pattern: str | None = None) -> list[Row]:
    """Every calibration file's header, in (target, file) order, filtered by target and a name/file
    substring."""
    rows = [parse_header(p) for p in sorted(SUITE.glob("*.s"))]
    if target:
        rows = [r for r in rows if r.target == target]
    if pattern:
        p = pattern.lower()
        rows = [r for r in rows if p in r.name.lower() or p in r.file.lower()]
    order = {"gfx942": 0, "gfx950": 1, "gfx90a": 2, "gfx908": 3}
    rows.sort(key=lambda r: (order.get(r.target, 9), r.file))
    return rows


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def text_table(rows: list[Row]) -> str:
    head = ("measurement", "target", "hardware", "gcnemu", "error", "tolerance", "status")
    body = [(r.name, r.target, f"{r.hardware:g}", _fmt(r.gcnemu),
             r.error_text, r.tolerance_text, r.status) for r in rows]
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(head)]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    out.append("  ".join("-" * w for w in widths))
    for b in body:
        out.append("  ".join(c.ljust(w) for c, w in zip(b, widths)))
    ok = sum(r.status in ("ok",) for r in rows)
    out.append(f"{ok}/{len(rows)} rows within tolerance"
               + (f"; {sum(r.status == 'xfail' for r in rows)} known gap(s) (xfail-until)"
                  if any(r.status == "xfail" for r in rows) else ""))
    return "\n".join(out)


def _source_link(src: str) -> str:
    """'https://... (file)' -> a markdown link named by the file (or the host path)."""
    m = re.match(r"(\S+)(?:\s+\((.*)\))?$", src.strip())
    if not m:
        return src
    url, label = m.group(1), m.group(2)
    if not url.startswith("http"):
        return src
    if not label:
        label = url.split("/", 3)[-1] if url.count("/") >= 3 else url
    return f"[{label}]({url})"


def markdown_table(rows: list[Row]) -> str:
    """The README table: one line per row with its part, unit, figures, error and source."""
    out = ["| measurement | target (part) | unit | hardware | gcnemu | error | within | source |",
           "|---|---|---|---:|---:|---:|---|---|"]
    for r in rows:
        within = {"ok": "yes", "FAIL": "**no**", "xfail": "no (known gap)", "XPASS": "yes (remove xfail)"}.get(
            r.status, "-")
        unit = {"cycles/iteration": "cyc/iter", "cycles latency": "cyc latency"}.get(r.unit, "co-exec cyc/MFMA")
        name = r.name + (" (AMD document)" if r.kind == "document" else "")
        out.append(f"| {name} | {r.target} ({r.part}) | {unit} | {r.hardware:g} | {_fmt(r.gcnemu)} | "
                   f"{r.error_text} | {within} | "
                   f"{_source_link(r.source)} |")
    return "\n".join(out)


def run(target: str | None = None, pattern: str | None = None) -> list[Row]:
    return [measure(r) for r in load_rows(target, pattern)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--markdown", action="store_true", help="print the README table (markdown)")
    ap.add_argument("--update-readme", action="store_true",
                    help="replace the table between README.md's calibration markers with --markdown's output")
    ap.add_argument("--target", default=None, help="only rows of this target (gfx942, gfx90a, ...)")
    ap.add_argument("-k", dest="pattern", default=None, help="only rows whose name or file contains this text")
    args = ap.parse_args(argv)
    try:
        rows = run(args.target, args.pattern)
    except GcnemuError as e:
        print(str(e), file=sys.stderr)
        return 2
    if args.update_readme:
        if args.target or args.pattern:
            print("--update-readme needs every row: drop --target and -k", file=sys.stderr)
            return 2
        readme = ROOT / "README.md"
        text = readme.read_text()
        try:
            a = text.index(README_START) + len(README_START)
            b = text.index(README_END)
        except ValueError:
            print(f"{readme}: no calibration table markers ({README_START.strip()} ... {README_END.strip()})",
                  file=sys.stderr)
            return 2
        readme.write_text(text[:a] + markdown_table(rows) + text[b:])
        print(f"updated the calibration table in {readme} ({len(rows)} rows)")
    elif args.json:
        print(json.dumps([{k: v for k, v in asdict(r).items() if k != "fields"} for r in rows], indent=1))
    elif args.markdown:
        print(markdown_table(rows))
    else:
        print(text_table(rows))
    return 1 if any(r.status in ("FAIL", "XPASS") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
