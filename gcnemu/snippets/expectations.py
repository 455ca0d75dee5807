"""Checking a finished Simulation against a snippet's expectations: registers, memory, LDS,
counters, cycles, metrics and hazards, with readable failure tables."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .header import (
    CounterExpect, CyclesExpect, ErrorExpect, Expect, FLOAT_TYPES, HazardExpect, LdsExpect, MemExpect,
    MetricExpect, Options, RegExpect, RegRef, TYPE_BYTES, cast_to, default_type, measured_metric, np_dtype,
    timing_expects, typed_from_words,
)
from .launch import lane_env, launch_facts
from .runner import Snippet
from ..asm.diagnostics import Diagnostic, render
from ..asm.program import Span

# ---------------------------------------------------------------- checking


@dataclass
class Failure:
    """One expectation that did not hold, with the rows that show how."""

    expect: Expect | None
    message: str
    details: list[str] = field(default_factory=list)
    span: Span | None = None

    @property
    def updatable(self) -> bool:
        """Timing expectations (cycles, MFMA utilisation, stalls) and hazard expectations are what
        `gcnemu test --update` may rewrite; never values."""
        e = self.expect
        if isinstance(e, HazardExpect):
            return e.present or e.none  # an `expect no hazard` guard is never rewritten
        return isinstance(e, (CyclesExpect, MetricExpect))

    def diagnostic(self) -> Diagnostic:
        span = self.span or (self.expect.src.span() if self.expect else None)
        return Diagnostic("error", self.message, span)

    def render(self, lines: list[str] | None) -> str:
        text = render(self.diagnostic(), lines)
        if self.details:
            text += "\n" + "\n".join("    " + d for d in self.details)
        return text

    def to_json(self) -> dict:
        out = self.diagnostic().to_json()
        out["details"] = self.details
        return out


@dataclass(frozen=True)
class Found:
    """A hazard the run (or the static linter) reported: rule id and the consumer's source line."""

    rule: str
    line: int
    message: str = ""
    producer_line: int | None = None
    span: Span | None = None


def found_hazards(sim) -> list[Found]:
    """Hazards of a finished run, one per (rule, line), in line order: the engine's dynamic
    monitor plus the static linter when it is available."""
    out: dict[tuple[str, int], Found] = {}
    kernel = sim.kernel
    for h in getattr(sim, "hazards", []) or []:
        try:
            ins = kernel.instructions[h.consumer]
            prod = kernel.instructions[h.producer]
        except (IndexError, AttributeError, TypeError):
            continue
        key = (h.rule, ins.span.line)
        out.setdefault(key, Found(h.rule, ins.span.line, h.message, prod.span.line, ins.span))
    for f in static_hazards(kernel):
        out.setdefault((f.rule, f.line), f)
    for message in getattr(sim, "grid_races", None) or []:  # two workgroups wrote the same bytes (a grid run)
        out.setdefault(("grid-global-race", 0), Found("grid-global-race", 0, message))
    return sorted(out.values(), key=lambda f: (f.line, f.rule))


def static_hazards(kernel) -> list[Found]:
    """Findings of the static hazard linter (`gcnemu.analysis.lint`), when this build has it."""
    try:
        from ..analysis.lint import lint
    except ImportError:
        return []
    try:
        diags = lint(kernel.program, kernel.target.name, launch=launch_facts(kernel.program))
    except Exception:  # the linter is another component: its failure must not fail value tests
        return []
    out = []
    for d in diags or []:
        rule = getattr(d, "rule", "")
        span = getattr(d, "span", None)
        if rule and span is not None and getattr(d, "severity", "") in ("warning", "error"):
            out.append(Found(rule, span.line, getattr(d, "message", ""), None, span))
    return out


_POISON = 0xBADC0DE5


_LOCATION = re.compile(r"^(.+?):(\d+):(\d+): (.*)$", re.S)


def locate(diag: Diagnostic, file: str) -> Diagnostic:
    """A runtime error whose location is only in its text (`file:line:col: msg`, as errors raised
    when a memory operation completes after its wave ended are) gets that location as its span,
    so it renders with the source line and a caret like every other diagnostic."""
    if diag.span is not None:
        return diag
    m = _LOCATION.match(diag.message)
    if not m or m.group(1) != file:
        return diag
    line, col = int(m.group(2)), int(m.group(3))
    return Diagnostic(diag.severity, m.group(4), Span(file, line, col, line, col + 1), diag.rule, diag.notes,
                      diag.extra)


def check(snippet: Snippet, sim, values_only: bool = False) -> list[Failure]:
    """Every expectation of the snippet that the finished simulation does not meet.
    `values_only` (a functional run: no cycles) leaves out the expectations that need timing."""
    failures: list[Failure] = []
    expects = snippet.expects
    if values_only:
        timed = set(map(id, timing_expects(snippet.header)))
        expects = [e for e in expects if id(e) not in timed]
    error_expects = [e for e in expects if isinstance(e, ErrorExpect)]
    if sim.error is not None:
        located = locate(sim.error, snippet.program.file)
        msg = located.message
        matched = [e for e in error_expects if e.text in msg]
        if error_expects and matched:
            return failures
        span = located.span
        f = Failure(None, f"the run stopped with an error: {msg}", span=span)
        if error_expects:
            f = Failure(error_expects[0], f"the run failed with a different error: {msg}")
        return [f]
    for e in error_expects:
        failures.append(Failure(e, f"expected the run to fail with '{e.text}', but it finished"))
    halt = getattr(sim.engine, "halt_reason", None)
    if halt:
        return failures + [Failure(None, f"the run did not finish: {halt}",
                                   span=Span(snippet.program.file, 1, 1, 1, 1))]
    hazards = None
    for e in expects:
        if isinstance(e, RegExpect):
            failures += _check_reg(snippet, sim, e)
        elif isinstance(e, MemExpect):
            failures += _check_mem(snippet, sim, e)
        elif isinstance(e, LdsExpect):
            failures += _check_lds(snippet, sim, e)
        elif isinstance(e, CyclesExpect):
            c = sim.cycles
            if (e.lo is not None and c < e.lo) or (e.hi is not None and c > e.hi):
                failures.append(Failure(e, f"cycles: {c}, expected {e.value_src.text}"))
        elif isinstance(e, MetricExpect):
            v = measured_metric(sim, e.metric)
            if (e.lo is not None and v < e.lo) or (e.hi is not None and v > e.hi):
                name = e.metric.replace("stall:", "stall ")
                failures.append(Failure(e, f"{name}: {v:.3g}, expected {e.value_src.text.strip()}"))
        elif isinstance(e, CounterExpect):
            failures += _check_counter(snippet, sim, e)
    hazard_expects = [e for e in expects if isinstance(e, HazardExpect)]
    if hazard_expects:
        hazards = found_hazards(sim)
        failures += _check_hazards(snippet, hazard_expects, hazards)
    return failures


def _waves_of(snippet: Snippet, opts: Options) -> list[int]:
    n = snippet.setup.num_waves
    if opts.waves is None:
        return list(range(n))
    lo, hi = opts.waves
    return [w for w in range(lo, min(hi, n - 1) + 1)]


def _no_waves(snippet: Snippet, e: Expect) -> Failure:
    """`wave 3` on a 1-wave kernel checks nothing; passing it would hide a wrong wave number."""
    lo, hi = e.opts.waves
    n = snippet.setup.num_waves
    asked = f"wave {lo}" if lo == hi else f"waves {lo}..{hi}"
    runs = "1 wave (wave 0)" if n == 1 else f"{n} waves (waves 0..{n - 1})"
    return Failure(e, f"{asked} selects no wave: the kernel runs {runs}")


def _lanes_of(snippet: Snippet, wave: int, opts: Options) -> np.ndarray:
    """Lanes checked: the requested ones, else the lanes that hold work-items."""
    lane = np.arange(64)
    active = wave * 64 + lane < snippet.setup.threads
    if opts.lanes is not None:
        lo, hi = opts.lanes
        return (lane >= lo) & (lane <= hi)
    return active


def _env_for_checks(snippet: Snippet) -> dict[str, Any]:
    env = dict(snippet.built.inputs)
    for k, v in snippet.built.arg_values.items():
        if not isinstance(v, str):
            env.setdefault(k, v)
    return env


def _compare(actual: np.ndarray, expected: np.ndarray, tname: str, opts: Options) -> np.ndarray:
    """bool mask of mismatching elements (actual/expected already typed as `tname`)."""
    if tname in FLOAT_TYPES:
        a = actual.astype(np.float64)
        e = expected.astype(np.float64)
        with np.errstate(all="ignore"):
            close = (a == e) | (np.isnan(a) & np.isnan(e))
            if opts.tol or opts.rtol:
                close |= np.abs(a - e) <= opts.tol + opts.rtol * np.abs(e)
        return ~close
    if opts.tol:
        diff = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
        return diff > opts.tol
    return actual != expected


def _fmt(value, tname: str) -> str:
    if tname in FLOAT_TYPES:
        v = float(value)
        digits = {"f64": 17, "f32": 9, "f16": 5, "bf16": 4}[tname]
        return f"{v:.{digits}g}"
    v = int(value)
    if tname in ("u32", "u64") and v > 0xFFFF:
        return f"{v} (0x{v:x})"
    return str(v)


def _table(rows: list[tuple[str, str, str]], head: tuple[str, str, str], more: int) -> list[str]:
    w0 = max(len(head[0]), *(len(r[0]) for r in rows))
    w1 = max(len(head[1]), *(len(r[1]) for r in rows))
    w2 = max(len(head[2]), *(len(r[2]) for r in rows))
    out = [f"{head[0]:>{w0}}  {head[1]:>{w1}}  {head[2]:>{w2}}"]
    out += [f"{a:>{w0}}  {b:>{w1}}  {c:>{w2}}" for a, b, c in rows]
    if more:
        out.append(f"... and {more} more")
    return out


MAX_ROWS = 16


def _check_reg(snippet: Snippet, sim, e: RegExpect) -> list[Failure]:
    reg = e.reg
    base_env = _env_for_checks(snippet)
    failures = []
    per_wave: list[tuple] = []  # (wave, differing, compared, type, table) of each wave that differs
    waves = _waves_of(snippet, e.opts)
    if not waves:
        return [_no_waves(snippet, e)]
    for w in waves:
        env = {**base_env, **lane_env(snippet.setup, w)}
        value = e.expr.eval(env, base_dir=snippet.base_dir)
        tname = e.opts.tname or default_type(reg.count, value)
        per_reg = 2 if TYPE_BYTES[tname] == 8 else 1
        n_values = reg.count // per_reg
        words = reg.words(sim.wave(w))
        actual = typed_from_words(words, tname, e.opts.hi)
        shape = (n_values, 64) if reg.vector else (n_values,)
        arr = np.asarray(value)
        if reg.vector and arr.ndim == 1 and arr.shape[0] == 64:
            arr = arr[None, :]
        try:
            expected = cast_to(arr, tname, shape, f"expected value of {reg.text}")
        except ValueError as ex:
            raise e.expr.src.error(str(ex)) from None
        bad = _compare(actual, expected, tname, e.opts)
        if reg.vector:
            lanes = _lanes_of(snippet, w, e.opts)
            bad &= lanes[None, :]
            total = int(lanes.sum()) * n_values
        else:
            total = n_values
        if not bad.any():
            continue
        idx = np.argwhere(bad)
        entries = []  # (register, lane or None, expected text, actual text)
        for pos in idx:
            if reg.vector:
                r, lane = int(pos[0]), int(pos[1])
                a, x, raw = actual[r, lane], expected[r, lane], words[r * per_reg, lane]
            else:
                r, lane = int(pos[0]), None
                a, x, raw = actual[r], expected[r], words[r * per_reg]
            note = "  (never written)" if per_reg == 1 and int(raw) == _POISON else ""
            entries.append((r, lane, _fmt(x, tname), _fmt(a, tname) + note))
            if len(entries) > 64 * MAX_ROWS:
                break
        rows, shown = [], 0
        for group in _runs(entries):
            if len(rows) == MAX_ROWS:
                break
            r, first, x, a = group[0]
            last = group[-1][1]
            lanes = "" if first is None else (f"{first}" if first == last else f"{first}..{last}")
            where = _reg_name(reg, r, per_reg) if not reg.vector else (
                lanes if n_values == 1 else f"{_reg_name(reg, r, per_reg)} lane {lanes}")
            rows.append((where, x, a))
            shown += len(group)
        count = len(idx)
        head = "lane" if reg.vector and n_values == 1 else ""
        per_wave.append((w, count, total, tname, _table(rows, (head, "expected", "actual"), max(0, count - shown))))
    if not per_wave:
        return failures
    # one failure per expectation, whatever the number of waves: the first wave's table, and how
    # many differ in each other wave (a wrong kernel is wrong in every wave; 4 copies hide nothing)
    unit = "lanes" if reg.vector else "values"
    w0, count0, total0, tname, table = per_wave[0]
    if len(per_wave) == 1:
        wave_txt = f", wave {w0}" if snippet.setup.num_waves > 1 or e.opts.waves else ""
        msg = f"{reg.text} ({tname}{wave_txt}): {count0} of {total0} {unit} differ"
    else:
        ws = [w for w, *_ in per_wave]
        count, total = sum(c for _, c, *_ in per_wave), sum(t for _, _, t, *_ in per_wave)
        msg = f"{reg.text} ({tname}, waves {_wave_list(ws)}): {count} of {total} {unit} differ"
        others = ", ".join(f"wave {w}: {c}" for w, c, *_ in per_wave[1:])
        table = [f"wave {w0} ({count0} of {total0} {unit}):"] + table + [f"in the other waves ({others} {unit})"]
    failures.append(Failure(e, msg, table))
    return failures


def _wave_list(ws: list[int]) -> str:
    """0, 1, 2, 3 as '0..3'; gaps listed."""
    if ws == list(range(ws[0], ws[-1] + 1)):
        return f"{ws[0]}..{ws[-1]}"
    return ", ".join(map(str, ws))


def _runs(entries: list[tuple]) -> list[list[tuple]]:
    """Group consecutive lanes of one register that differ the same way (one row for lanes 0..63)."""
    groups: list[list[tuple]] = []
    for e in entries:
        g = groups[-1] if groups else None
        if g and e[1] is not None and g[-1][0] == e[0] and g[-1][1] is not None and g[-1][1] + 1 == e[1] \
                and g[-1][2:] == e[2:]:
            g.append(e)
        else:
            groups.append([e])
    return groups


def _reg_name(reg: RegRef, r: int, per_reg: int) -> str:
    if reg.file == "scc":
        return "scc"
    first = reg.index + r * per_reg
    if not reg.text[0] in "vsa" or reg.text in ("vcc", "exec", "vcc_lo", "vcc_hi", "exec_lo", "exec_hi"):
        return reg.text if reg.count == per_reg else f"{reg.text}[{r}]"
    if per_reg == 2:
        return f"{reg.file}[{first}:{first + 1}]"
    return f"{reg.file}{first}"


def _final_buffers(snippet: Snippet, sim) -> dict[str, np.ndarray]:
    out = {}
    for name, (tname, shape) in snippet.built.buffer_types.items():
        out[name] = sim.buffer(name, np_dtype(tname)).reshape(shape)
    return out


def _as_float_if_bf16(arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "V" or str(arr.dtype) == "bfloat16":
        return arr.astype(np.float32)
    return arr


def _check_array(e: Expect, actual, expected_value, tname: str, opts: Options, label: str) -> list[Failure]:
    actual = np.asarray(actual)
    shape = actual.shape
    try:
        expected = cast_to(expected_value, tname, shape, "expected value")
    except ValueError as ex:
        raise e.expr.src.error(str(ex)) from None
    try:
        actual = cast_to(_as_float_if_bf16(actual), tname, shape, label)
    except ValueError as ex:
        raise e.src.error(str(ex)) from None
    bad = _compare(actual, expected, tname, opts)
    if not np.any(bad):
        return []
    idx = np.argwhere(np.atleast_1d(bad))
    a_flat = np.atleast_1d(actual)
    x_flat = np.atleast_1d(expected)
    rows = []
    for pos in idx[:MAX_ROWS]:
        key = tuple(int(p) for p in pos)
        where = f"[{', '.join(str(k) for k in key)}]"
        rows.append((where, _fmt(x_flat[key], tname), _fmt(a_flat[key], tname)))
    count = len(idx)
    msg = f"{label} ({tname}): {count} of {max(1, actual.size)} elements differ"
    return [Failure(e, msg, _table(rows, (label, "expected", "actual"), max(0, count - MAX_ROWS)))]


def _value_env(snippet: Snippet, actual) -> dict[str, Any]:
    """Names for a memory expectation's right side: initial buffers, arguments, and `i`, the
    element index in the shape of the left side."""
    env = {k: _as_float_if_bf16(v) if isinstance(v, np.ndarray) else v for k, v in _env_for_checks(snippet).items()}
    shape = np.shape(actual)
    env["i"] = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    return env


def _check_mem(snippet: Snippet, sim, e: MemExpect) -> list[Failure]:
    final = _final_buffers(snippet, sim)
    lhs_names = e.lhs.names()
    unknown = [n for n in lhs_names if n not in final]
    if unknown:
        raise e.lhs.src.error(f"'{unknown[0]}' is not a buffer (buffers: {', '.join(final) or 'none'})")
    actual = e.lhs.eval({k: _as_float_if_bf16(v) for k, v in final.items()})
    expected = e.expr.eval(_value_env(snippet, actual), base_dir=snippet.base_dir)
    tname = e.opts.tname
    if tname is None:
        if e.lhs.src.text in snippet.built.buffer_types:
            tname = snippet.built.buffer_types[e.lhs.src.text][0]
        else:
            only = next(iter(lhs_names), None)
            tname = snippet.built.buffer_types[only][0] if only else default_type(1, actual)
            if np.asarray(actual).dtype.kind == "f" and tname not in FLOAT_TYPES:
                tname = "f64"
    return _check_array(e, actual, expected, tname, e.opts, e.lhs.src.text)


def _check_lds(snippet: Snippet, sim, e: LdsExpect) -> list[Failure]:
    nbytes = int(np.prod(e.shape)) * TYPE_BYTES[e.tname] if e.shape else TYPE_BYTES[e.tname]
    if e.offset + nbytes > len(sim.lds.data):
        raise e.src.error(f"expect lds: bytes {e.offset}..{e.offset + nbytes} are past the end of LDS "
                          f"({len(sim.lds.data)} bytes)")
    raw = sim.lds.data[e.offset:e.offset + nbytes].copy()
    actual = raw.view(np_dtype(e.tname)).reshape(e.shape)
    expected = e.expr.eval(_value_env(snippet, actual), base_dir=snippet.base_dir)
    tname = e.opts.tname or e.tname
    return _check_array(e, _as_float_if_bf16(actual), expected, tname, e.opts, f"lds[{e.offset:#x}]")


def counters_at_end(sim, wave: int) -> dict[str, int]:
    """vmcnt/lgkmcnt/expcnt still outstanding when the wave executed s_endpgm."""
    eng = sim.engine
    rt = eng.waves[wave]
    end = getattr(rt, "end_cycle", None)
    now = (end - 1) if end is not None else eng.cycle
    out = {}
    for name, key in (("vmcnt", "vm"), ("lgkmcnt", "lgkm"), ("expcnt", "exp")):
        counters = getattr(rt, "counters", None)
        if counters is not None and hasattr(counters, "ops"):  # read without pruning: the run is over
            out[name] = sum(1 for o in counters.ops.get(key, []) if o.complete > now)
        elif hasattr(rt, "outstanding"):
            out[name] = len(rt.outstanding(key, now))
        else:
            out[name] = 0
    return out


def _check_counter(snippet: Snippet, sim, e: CounterExpect) -> list[Failure]:
    if e.counter == "instructions":
        n = sim.instructions_executed
        return [] if n == e.value else [Failure(e, f"instructions executed: {n}, expected {e.value}")]
    rows = []
    waves = _waves_of(snippet, e.opts)
    if not waves:
        return [_no_waves(snippet, e)]
    for w in waves:
        got = counters_at_end(sim, w)[e.counter]
        if got != e.value:
            rows.append((f"wave {w}", str(e.value), str(got)))
    if not rows:
        return []
    return [Failure(e, f"{e.counter} at s_endpgm differs in {len(rows)} wave(s)",
                    _table(rows, ("", "expected", "actual"), 0))]


def _matches(e: HazardExpect, f: Found) -> bool:
    return f.rule == e.rule and (e.line is None or e.line == f.line)


def _check_hazards(snippet: Snippet, expects: list[HazardExpect], found: list[Found]) -> list[Failure]:
    failures = []
    exact = any(e.present or e.none for e in expects)
    positive = [e for e in expects if e.present and not e.none]
    for e in expects:
        if e.none or not e.present:
            continue
        if not any(_matches(e, f) for f in found):
            where = f" at line {e.line}" if e.line is not None else ""
            others = [f"{f.rule} at line {f.line}" for f in found if f.rule == e.rule or f.line == e.line]
            extra = [f"found instead: {', '.join(others)}"] if others else []
            failures.append(Failure(e, f"expected hazard '{e.rule}'{where} was not found", extra))
    for e in expects:
        if not e.present:
            for f in found:
                if _matches(e, f):
                    where = f"at line {f.line}" if f.line else "between workgroups"
                    failures.append(Failure(e, f"hazard '{e.rule}' {where} was expected to be absent",
                                            [f.message] if f.message else []))
    if exact:
        anchor = next((e for e in expects if e.none), None) or (positive[0] if positive else expects[0])
        for f in found:
            if not any(_matches(e, f) for e in positive):
                where = f"at line {f.line}" if f.line else "(between workgroups of the grid)"
                failures.append(Failure(anchor, f"unexpected hazard '{f.rule}' {where}",
                                        [f.message] if f.message else []))
    return failures
