"""`gcnemu test PATH... [--arch A] [-k PATTERN] [--update]`: run snippet files and check their
expectations (see docs/snippets.md).

One line per snippet (PASS/FAIL/UPDATED/SKIP), the failures as llvm-mc style diagnostics with
a table of the lanes or elements that differ, and `N passed, N failed` alone on the last line.
Exit status 1 when anything failed.

`--update` rewrites only timing expectations (cycles, MFMA utilisation, stall cycles) and
hazard expectations (the numbers a timing-model change moves), shows the diff first and then,
under the status line, one `updated` line per change; it never touches value expectations or
`expect no hazard` guards: a wrong register or memory value, or a forbidden hazard, is a bug
to look at, not a number to refresh.
"""
from __future__ import annotations

import difflib
import json
import math
import os
import re
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from ..asm.diagnostics import GcnemuError, render
from .progress import add_option as add_progress_option
from .common import (add_arch, add_fail_on, add_format, add_lds_dynamic, add_limits, fail_on_kinds,
                     limit_diagnostic, write_output)

HELP = "run snippet files and check the expectations in their headers"


def add_arguments(p) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="snippet files or directories (searched for *.s)")
    add_arch(p)
    add_progress_option(p)
    p.add_argument("-k", dest="pattern", metavar="PATTERN",
                   help="only snippets whose path contains PATTERN (shell wildcards allowed)")
    p.add_argument("--update", action="store_true",
                   help="rewrite cycle, utilisation, stall and hazard expectations that changed "
                        "(never value expectations or 'expect no hazard' guards)")
    p.add_argument("--kernel", metavar="NAME",
                   help="which kernel of each file to launch (as the header's 'kernel:'; default: the only or first)")
    add_lds_dynamic(p)
    p.add_argument("--functional", action="store_true",
                   help="run with the functional engine (values only): timing and hazard expectations are left out")
    add_limits(p, timeout_help="stop each snippet's run after SECONDS of wall-clock time, a FAIL "
                               "(one-workgroup timed runs; --max-instructions bounds the others)")
    add_format(p)
    add_fail_on(p)


def collect(paths: list[str], pattern: str | None = None) -> list[str]:
    """Files named directly, and every *.s under directories (sorted, so output is stable)."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out += sorted(str(f) for f in path.rglob("*.s") if f.is_file())
        elif path.exists():
            out.append(str(path))
        else:
            raise FileNotFoundError(2, "no such file", p)
    if pattern:
        import fnmatch
        wild = any(c in pattern for c in "*?[")
        out = [f for f in out if ((fnmatch.fnmatch(f, pattern) or fnmatch.fnmatch(os.path.basename(f), pattern))
                                  if wild else pattern in f)]
    seen = set()
    return [f for f in out if not (f in seen or seen.add(f))]


@dataclass
class Result:
    path: str
    status: str  # PASS | FAIL | UPDATED | SKIP
    target: str = ""
    cycles: int | None = None
    report: list[str] = field(default_factory=list)  # rendered failures/diagnostics
    failures: list[dict] = field(default_factory=list)  # JSON form
    diff: str = ""
    changes: list[str] = field(default_factory=list)  # what --update changed, one line each


def has_header(lines: list[str]) -> bool:
    from ..snippets.header import scan_directives
    try:
        return bool(scan_directives(lines, "<probe>"))
    except GcnemuError:
        return True  # a broken header is still a header: report it


def header_targets(path: str) -> list[str]:
    """The targets a snippet's `arch:` line names (`arch: gfx90a, gfx942` holds on each); empty
    when it names none or the file cannot be read (run_one then reports why)."""
    from ..snippets.header import Header, parse_directive, scan_directives
    try:
        with open(path, "rb") as fh:
            lines = fh.read().decode("utf-8", "replace").split("\n")
        h = Header()
        for d in scan_directives(lines, path):
            if d.key in ("arch", "target"):
                parse_directive(d, h)
    except (OSError, GcnemuError):
        return []
    return list(h.archs)


def run_one(path: str, arch: str | None, update: bool = False, functional: bool = False,
            timeout: float | None = None, max_cycles: int | None = None,
            max_instructions: int | None = None, kernel: str | None = None,
            fail_on: set[str] = frozenset(), lds_dynamic: str | None = None) -> Result:
    """Load, run and check one snippet; never raises (a broken snippet is a FAIL with its reason).
    Limits not given come from the header, else the command line's defaults; `timeout`:
    wall-clock seconds the run may take (a single timed workgroup)."""
    from ..asm.parse import parse_file
    from ..sim.engine import limits_for
    from ..snippets.expectations import check
    from ..snippets.runner import load_snippet
    try:
        prog = parse_file(path)
    except OSError as e:
        return Result(path, "FAIL", report=[f"{path}: error: cannot read: {e.strerror}"])
    if not has_header(prog.lines):
        return Result(path, "SKIP", report=["no gcnemu header"])
    try:
        extra = []
        from .run import CliSource
        if kernel:
            extra.append(CliSource().directive("--kernel", kernel, "kernel", ":"))
        if lds_dynamic is not None:
            extra.append(CliSource().directive("--lds-dynamic", lds_dynamic, "lds-dynamic", ":"))
        snippet = load_snippet(path, arch, extra, program=prog)
        functional = functional or snippet.header.mode == "functional"
        if functional or snippet.header.grid:  # every workgroup of the grid, one global memory
            from ..asm import parse as parse_mod
            from ..grid import GridJob, run_functional, run_grid
            job = GridJob(path, arch, tuple(extra), include_dirs=tuple(parse_mod.INCLUDE_DIRS), max_cycles=max_cycles,
                          max_instructions=max_instructions)
            if functional:
                sim, _ = run_functional(snippet, snippet.kernel(), snippet.header.grid, job)
            else:
                sim, grid_run = run_grid(snippet, snippet.kernel(), snippet.header.grid, job)
                # races between workgroups are hazards of the run: `expect hazards: none` and
                # `expect no hazard grid-global-race` see them (snippets.expectations.found_hazards)
                sim.grid_races = [r.message() for r in grid_run.races]
        else:
            max_cycles, max_instructions = limits_for(max_cycles, max_instructions, snippet.header)
            sim = snippet.simulate(max_cycles=max_cycles, max_instructions=max_instructions, run=False)
            sim.engine.set_deadline(timeout)
            sim.run()
        failures = check(snippet, sim, values_only=functional)
        if fail_on and not functional:
            failures += unexpected_findings(snippet, sim, fail_on)
        if not functional and getattr(sim.engine, "halt_reason", None):
            failures = [_where_stopped(sim, f) for f in failures]
    except GcnemuError as e:
        diags = e.diagnostics
        report = [render(d, prog.lines if d.span and d.span.file == prog.file else None) for d in diags] \
            or [f"{path}: error: {e}"]
        return Result(path, "FAIL", report=report, failures=[d.to_json() for d in diags] or [{"message": str(e)}])
    except Exception as e:  # a bug in gcnemu must not stop the other snippets
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        return Result(path, "FAIL", report=[f"{path}: error: internal error in gcnemu: {tb}"],
                      failures=[{"message": f"internal error: {tb}"}])
    result = Result(path, "PASS" if not failures else "FAIL", snippet.target,
                    None if functional else int(sim.cycles))
    if failures and update and not functional and any(f.updatable for f in failures):
        new_text = updated_text(snippet, sim, failures, result.changes)
        if new_text is not None:
            old_text = read_text(path)
            result.diff = "".join(difflib.unified_diff(_diff_lines(old_text), _diff_lines(new_text), path, path))
            try:
                write_output(path, new_text.encode("utf-8"), "the updated snippet to")
            except GcnemuError as e:
                return Result(path, "FAIL", snippet.target, result.cycles, report=[f"{path}: error: {e}"],
                              failures=[{"message": str(e)}], diff=result.diff)
        failures = [f for f in failures if not f.updatable]
        result.status = "FAIL" if failures else "UPDATED"
    result.report = [f.render(prog.lines) for f in failures]
    result.failures = [f.to_json() for f in failures]
    return result


def unexpected_findings(snippet, sim, fail_on: set[str]) -> list:
    """`--fail-on`: every hazard (or race) the run reported that no `expect hazard` line of the
    header names, as a failure. Why only the unexpected ones: a gallery file that expects its
    hazard is a passing test of the detector, not a finding."""
    from ..isa.rule_ids import RULE_GLOBAL_RACE, RULE_GRID_RACE, RULE_LDS_RACE
    from ..snippets.expectations import Failure, found_hazards
    from ..snippets.header import HazardExpect
    races = {RULE_LDS_RACE, RULE_GLOBAL_RACE, RULE_GRID_RACE}
    named = [e for e in snippet.expects if isinstance(e, HazardExpect) and e.present and not e.none]
    out = []
    for f in found_hazards(sim):
        kind_hit = bool(fail_on & {"hazard", "warning"}) or f.rule in races
        if not kind_hit or any(e.rule == f.rule and (e.line is None or e.line == f.line) for e in named):
            continue
        where = f"at line {f.line}" if f.line else "between workgroups of the grid"
        which = "race" if f.rule in races else "hazard"
        out.append(Failure(None, f"--fail-on: {which} '{f.rule}' {where} is reported and not expected",
                           [f.message] if f.message else [], f.span))
    return out


def _where_stopped(sim, failure):
    """The expectations' "the run did not finish" failure, at the line that kept the run going
    (the loop, the s_barrier a wave waits at) rather than at the top of the file."""
    from ..snippets.expectations import Failure
    d = limit_diagnostic(sim)
    if failure.expect is not None or d is None or not failure.message.startswith("the run did not finish"):
        return failure
    return Failure(None, f"the run did not finish: {d.message}", [n.message for n in d.notes], d.span)


# ---------------------------------------------------------------- --update


def _diff_lines(text: str) -> list[str]:
    """Lines for the --update diff, split where the parser splits them; CRLF is shown as it is,
    a lone CR (old Mac) as '\n' (printed, a lone CR would overprint the line before)."""
    return [m.group(0)[:-1] + "\n" if m.group(0).endswith("\r") else m.group(0)
            for m in re.finditer(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)]


def read_text(path: str) -> str:
    with open(path, "rb") as fh:
        return fh.read().decode("utf-8")


@dataclass
class _HazardLine:
    """A hazard expectation line to write; its line number is mapped after all edits."""

    prefix: str
    rule: str
    line: int  # old line number of the consumer
    eol: str


def _new_cycles(e, c: int) -> str:
    """The rewritten text after 'cycles:': exact stays exact, a range keeps its relative slack."""
    if e.lo is not None and e.hi is not None and e.lo == e.hi:
        return str(c)
    if e.lo is not None and e.hi is not None:
        mid = (e.lo + e.hi) / 2
        if mid <= 0:
            return f"{c}..{c}"
        return f"{math.floor(c * e.lo / mid)}..{math.ceil(c * e.hi / mid)}"
    return f"<= {c}" if e.hi is not None else f">= {c}"


def _bounds_decimals(text: str) -> int:
    """How many decimals the bounds of `A..B`, `<= N`, `>= N` or `N` are written with."""
    t = text.replace(" ", "").lstrip("<>=")
    return max(len(part.partition(".")[2]) for part in t.split(".."))


def _exact(v: float) -> str:
    """A measured figure written so that it reads back as the same float (no exponent)."""
    import numpy as np
    return np.format_float_positional(float(v), unique=True, trim="-")


def _new_metric(e, v: float) -> str:
    """The rewritten text after 'mfma-utilisation:' / 'stall REASON:', by the rule of cycles:
    exact stays exact, a range keeps its relative width around the new figure (rounded outwards
    at the decimals the file used, at least 2 for a utilisation, which stays within 0..1)."""
    d = _bounds_decimals(e.value_src.text)
    util = e.metric == "mfma-utilisation"
    if util:
        d = max(d, 2)
    scale = 10 ** d

    def down(x: float) -> str:
        k = math.floor(x * scale)
        while k / scale > v:  # float rounding must never leave the figure outside
            k -= 1
        return f"{k / scale:.{d}f}"

    def up(x: float) -> str:
        k = math.ceil(x * scale)
        while k / scale < v:
            k += 1
        if util and k > scale:
            k = scale
        return f"{k / scale:.{d}f}"

    if e.lo is not None and e.hi is not None and e.lo == e.hi:
        return _exact(v)
    if e.lo is not None and e.hi is not None:
        mid = (e.lo + e.hi) / 2
        if mid <= 0:
            return f"{_exact(v)}..{_exact(v)}"
        return f"{down(v * e.lo / mid)}..{up(v * e.hi / mid)}"
    return f"<= {up(v)}" if e.hi is not None else f">= {down(v)}"


def _marker(line: str) -> str:
    """The comment prefix of a header line (`;   `), to indent inserted lines alike."""
    m = re.match(r"\s*(?:;+|//)[ \t]*", line)
    return m.group(0) if m else "; "


def updated_text(snippet, sim, failures, changes: list[str] | None = None) -> str | None:
    """The file with failing cycle/utilisation/stall/hazard expectations rewritten to what the
    run found. Every byte outside those statements is kept (line endings included); hazard line
    numbers are mapped through the inserted and removed lines. `changes` receives one line per
    change (`line 6: expect cycles: 1 -> 742`, `added: expect hazard R at 9`), with the line
    numbers of the new file."""
    from ..snippets.header import CyclesExpect, HazardExpect, MetricExpect, measured_metric
    from ..snippets.expectations import found_hazards
    text = read_text(snippet.path)
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    # lines end at CRLF, a lone CR (old Mac) or LF, as the parser numbers them; each keeps its
    # own ending, and a new line takes the ending of the line it is written next to
    pieces = re.split(r"(\r\n|\r|\n)", text[len(bom):])
    lines = pieces[0::2]
    endings = pieces[1::2] + [""]
    if lines[-1] == "":  # the text after the last line ending
        lines.pop()
        endings.pop()
    file_eol = endings[0] if endings and endings[0] else "\n"
    failing = {id(f.expect) for f in failures if f.updatable}
    replace: dict[int, list] = {}  # 1-based line -> its new lines (empty: deleted)
    after: dict[int, list] = {}  # lines inserted after / before an old line
    before: dict[int, list] = {}

    def raw(n: int) -> str:
        return lines[n - 1]

    def ending(n: int) -> str:  # the line's own ending ("" for a last line without one)
        return endings[n - 1]

    def eol(n: int) -> str:  # the ending for a line written at line n
        return endings[n - 1] or file_eol

    timing: list[tuple[int, str]] = []  # (old line, change) of cycle/metric rewrites
    for e in snippet.expects:
        if isinstance(e, (CyclesExpect, MetricExpect)) and id(e) in failing:
            v = e.value_src
            line = raw(v.line)
            start = v.col - 1
            if isinstance(e, CyclesExpect):
                name, measured, new_value = "cycles", int(sim.cycles), _new_cycles(e, int(sim.cycles))
            else:
                name, measured = e.metric.replace("stall:", "stall "), measured_metric(sim, e.metric)
                new_value = _new_metric(e, measured)
            replace[v.line] = [line[:start] + new_value + line[start + len(v.text):] + ending(v.line)]
            shown = _exact(round(measured, 4))
            note = "" if shown in re.split(r"\.\.|[<>=\s]+", new_value) else f" (measured {shown})"
            timing.append((v.line, f"expect {name}: {v.text} -> {new_value}{note}"))
    hazard_change: list[str] = []

    hazard_expects = [e for e in snippet.expects if isinstance(e, HazardExpect)]
    if any(id(e) in failing for e in hazard_expects):
        found = found_hazards(sim)
        positive = [e for e in hazard_expects if e.present and not e.none]
        nones = [e for e in hazard_expects if e.none]

        def matches(e, f) -> bool:
            return f.rule == e.rule and (e.line is None or e.line == f.line)

        guards = [e for e in hazard_expects if not e.present and not e.none]
        keep = [e for e in positive if any(matches(e, f) for f in found)]
        drop = [e for e in positive if e not in keep]
        # a hazard a guard forbids stays a failure: it is never written down as expected
        new = [f for f in found if not any(matches(e, f) for e in keep + guards)]
        hazard_change += [f"removed: expect hazard {e.rule}{f' at {e.line}' if e.line is not None else ''} "
                          "(the run has no such hazard)" for e in drop]
        if nones and new:
            hazard_change.append("removed: expect hazards: none")
        dropped_lines = []
        for e in drop:
            n = e.src.line
            line = raw(n)
            cut = e.src.col - 1
            if e.directive.trailing:
                semi = line.rfind(";", 0, cut)
                replace[n] = [line[:semi].rstrip() + ending(n)]
            elif re.search(r"gcnemu\s*:", line[:cut], re.IGNORECASE):
                replace[n] = [line[:cut].rstrip() + ending(n)]  # keep the block opener
            else:
                replace[n] = []
                dropped_lines.append(n)
        anchor_line = None
        if nones and new:
            n = nones[0].src.line
            line = raw(n)
            head = line[:nones[0].src.col - 1]
            opener = bool(re.search(r"gcnemu\s*:", head, re.IGNORECASE))
            cont = _marker(line).rstrip() + "   " if opener else head
            items = [_HazardLine(head if k == 0 else cont, f.rule, f.line, eol(n)) for k, f in enumerate(new)]
            replace[n] = items
            for extra in nones[1:]:
                replace[extra.src.line] = []
            new = []
        elif not found and not keep and not nones:
            hazard_change.append("added: expect hazards: none")
            if dropped_lines:
                n = dropped_lines[0]
                replace[n] = [raw(n)[:_col_of(snippet, n) - 1] + "expect hazards: none" + ending(n)]
            else:
                anchor_line = _block_end(snippet)
                if anchor_line:
                    n = anchor_line
                    after.setdefault(n, []).append(_marker(raw(n)) + "expect hazards: none" + eol(n))
        if new:
            full = [e for e in positive + nones if not e.directive.trailing and e.src.line not in dropped_lines]
            ref = max((e.src.line for e in full), default=None) or _block_end(snippet)
            if ref is None:
                before[1] = ["; gcnemu:" + eol(1)] + [_HazardLine(";   ", f.rule, f.line, eol(1)) for f in new]
            else:
                prefix = _marker(raw(ref))
                if re.search(r"gcnemu\s*:", raw(ref), re.IGNORECASE):
                    prefix = prefix.rstrip() + "   "
                after.setdefault(ref, []).extend(_HazardLine(prefix, f.rule, f.line, eol(ref)) for f in new)
        kept_refs = [e for e in keep if e.line is not None and not e.directive.trailing]
    else:
        kept_refs = []

    if not replace and not after and not before:
        return None
    # lay out the new file and learn where every old line went
    mapping: dict[int, int] = {}
    out_items: list = []
    for n in range(1, len(lines) + 1):
        out_items.extend(before.get(n, []))
        items = replace.get(n)
        if items is None:
            out_items.append(raw(n) + ending(n))
            mapping[n] = len(out_items)
        else:
            if items:
                mapping[n] = len(out_items) + 1  # edited in place: its first new line stands for it
            out_items.extend(items)
        out_items.extend(after.get(n, []))
    out: list[str] = []
    for item in out_items:
        if out and not out[-1].endswith(("\n", "\r")):
            out[-1] += file_eol  # a line written after the old last line: that line now ends
        if isinstance(item, _HazardLine):
            at = mapping.get(item.line, item.line)
            out.append(f"{item.prefix}expect hazard {item.rule} at {at}{item.eol}")
            hazard_change.append(f"added: expect hazard {item.rule} at {at}")
        else:
            out.append(item)
    # kept statements that name a line: follow the line if it moved
    for e in kept_refs:
        new_line = mapping.get(e.line, e.line)
        if new_line != e.line:
            pos = mapping[e.src.line] - 1
            out[pos] = re.sub(rf"(\bat\s+(?:line\s+)?){e.line}\b", rf"\g<1>{new_line}", out[pos], count=1)
    if changes is not None:
        changes += [f"line {mapping.get(n, n)}: {c}" for n, c in sorted(timing)] + hazard_change
    return bom + "".join(out)


def _col_of(snippet, line: int) -> int:
    for e in snippet.expects:
        if e.src.line == line:
            return e.src.col
    return 1


def _block_end(snippet) -> int | None:
    """The last line of the first header block (where new statements go)."""
    lines = [d.src.line for d in snippet.header.directives if not d.trailing and d.src.file == snippet.path]
    if not lines:
        return None
    first = lines[0]
    end = first
    for n in lines[1:]:
        if n - end > 1 and not _only_comments(snippet.program.lines, end + 1, n - 1):
            break
        end = n
    return end


def _only_comments(lines: list[str], a: int, b: int) -> bool:
    return all(lines[k - 1].lstrip().startswith((";", "//")) for k in range(a, b + 1))


# ---------------------------------------------------------------- the command


def run(args) -> int:
    from .progress import Progress, wanted
    files = collect(args.paths, args.pattern)
    results: list[Result] = []
    with Progress(len(files), "test", wanted(args) and len(files) > 1) as bar:
        for path in files:
            targets = header_targets(path) if not args.arch else []
            for arch in (targets if len(targets) > 1 else [args.arch]):  # one run per target the header names
                r = run_one(path, arch, args.update, args.functional, args.timeout, args.max_cycles,
                            args.max_instructions, getattr(args, "kernel", None), fail_on_kinds(args),
                            getattr(args, "lds_dynamic", None))
                results.append(r)
                if args.format == "text":
                    _print_result(r)
            bar.advance(label=Path(path).name)
    passed = sum(1 for r in results if r.status in ("PASS", "UPDATED"))
    failed = sum(1 for r in results if r.status == "FAIL")
    if args.format == "json":
        print(json.dumps({"results": [{"file": r.path, "status": r.status, "target": r.target, "cycles": r.cycles,
                                       "failures": r.failures, "diff": r.diff, "changes": r.changes}
                                      for r in results],
                          "passed": passed, "failed": failed}))
    else:
        print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def _print_result(r: Result) -> None:
    where = f" [{r.target}, {r.cycles} cycles]" if r.target and r.cycles is not None else \
        (f" [{r.target}, functional]" if r.target else "")
    if r.status == "SKIP":
        print(f"SKIP {r.path} ({r.report[0]})")
        return
    if r.diff:
        sys.stdout.write(r.diff if r.diff.endswith("\n") else r.diff + "\n")
    print(f"{r.status} {r.path}{where}")
    for change in r.changes:
        print(f"  {change}")
    for block in r.report:
        print(block)
