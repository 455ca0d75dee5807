"""`gcnemu run FILE`: launch a kernel with the file header's setup (CLI options override), run
it to s_endpgm and print registers and a summary.

Setup options are spelled like header statements (see docs/snippets.md), so what a user
tries on the command line can be pasted into the header, and errors in them point at the
option's column like any llvm-mc diagnostic:

    gcnemu run k.s --buffer 'A=f32[64]:arange(64)->s[4:5]' --vgpr 'v3=lane*2' --print v1:f32
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

import numpy as np

from ..asm.diagnostics import Diagnostic, GcnemuError, render
from ..sim.engine import lane_ranges
from .buffers import buffer_name, buffers_json, known, parse_dump, parse_view, view_text, write_dump
from .cluster import DEFAULT_TIMEOUT, scheduler_address
from .common import (format_values, add_arch, add_fail_on, add_format, add_lds_dynamic, add_limits, check_not_source,
                     fail_on_hits, fail_on_kinds, is_limit, limit_diagnostic, os_reason, positive_seconds,
                     run_limits, target_id_mismatch)

HELP = "run a kernel to s_endpgm and print registers, cycles and hazards"

CLI_FILE = "<command line>"


def add_arguments(p) -> None:
    p.add_argument("file", metavar="FILE", help="assembly file ('-' for stdin)")
    add_arch(p)
    g = p.add_argument_group("setup (overrides the file header)")
    g.add_argument("--workgroup", metavar="N", help="work-items per workgroup: N, XxY or XxYxZ")
    g.add_argument("--buffer", action="append", default=[], metavar="NAME=TYPE[SHAPE]:INIT",
                   help="a global buffer, e.g. 'A=f32[64]:arange(64)->s[4:5]' (repeatable)")
    g.add_argument("--kernel", metavar="NAME",
                   help="which kernel of the file to launch (default: the only or first one; or 'kernel:' in the header)")
    g.add_argument("--arg", action="append", default=[], metavar="name=value",
                   help="kernel argument: name=value (a number or a buffer name), by the names in the file's "
                        "metadata; without metadata in kernarg order, a bare buffer name allowed (repeatable)")
    add_lds_dynamic(g)
    g.add_argument("--sgpr", action="append", default=[], metavar="sN=VALUE", help="initial SGPR value")
    g.add_argument("--vgpr", action="append", default=[], metavar="vN=EXPR",
                   help="initial VGPR value, per lane (names: lane, wave, tid)")
    g.add_argument("--latency", action="append", default=[], metavar="name=cycles",
                   help="override a pipeline latency (vmem, lds, smem, valu, ...)")
    g.add_argument("--latency-file", default=None, metavar="TOML",
                   help="latencies ([latency]) and per-buffer or address-range memory latencies ([[memory]]) "
                        "from a TOML file; --latency wins over it, it wins over the header")
    p.add_argument("--print", dest="print_regs", nargs="+", action="extend", default=[], metavar="REG|BUF",
                   help="registers to print, optionally typed: v1, v1:f32, s[4:5]:u64, vcc, a0; or buffers after "
                        "the run, in their declared type or another, all or a numpy-style selection: C, C[0:8], "
                        "C:f16[0:8,0:8]")
    p.add_argument("--dump", action="append", default=[], metavar="BUF=FILE.npy",
                   help="write a buffer (or a selection, BUF:TYPE[...]=FILE.npy) after the run as a numpy .npy "
                        "file; written whole or not at all (repeatable)")
    add_format(p)
    add_limits(p, timeout_help="stop the run after SECONDS of wall-clock time (one workgroup, timed engine)")
    add_fail_on(p)
    p.add_argument("--trace", metavar="OUT.json", help="write a Chrome/Perfetto trace of the run")
    gg = p.add_argument_group("whole grids")
    gg.add_argument("--grid", metavar="X[,Y,Z]",
                    help="run every workgroup of an X*Y*Z grid against one global memory (or 'grid:' in the header)")
    gg.add_argument("--functional", action="store_true",
                    help="the functional engine: every wave of every workgroup at once, values only, no timing "
                         "(or 'mode: functional' in the header)")
    gg.add_argument("--jobs", type=int, default=None, metavar="N",
                    help="worker processes for --grid (default: one per core)")
    gg.add_argument("--no-progress", action="store_true",
                    help="no progress bar for --grid (drawn on stderr only when stderr is a terminal)")
    gg.add_argument("--scheduler", metavar="ADDRESS", type=scheduler_address,
                    help="run --grid's workgroups on a Dask distributed cluster at tcp://HOST:PORT (e.g. "
                         "tcp://host:8786; needs pip install gcnemu[cluster]); workers get the loaded program, "
                         "not its path")
    gg.add_argument("--scheduler-timeout", type=positive_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                    help=f"with --scheduler: give up when no Dask worker is connected for SECONDS "
                         f"(default {DEFAULT_TIMEOUT:g})")


# ---------------------------------------------------------------- options as header statements


@dataclass
class CliSource:
    """The setup options as numbered 'lines', so diagnostics can show the option and a caret."""

    lines: list[str] = field(default_factory=list)

    def directive(self, option: str, value: str, key: str, joiner: str):
        """`--buffer A=...` becomes the statement `buffer A=...`, columns kept on the option text."""
        from ..snippets.header import Directive, Src
        shown = f"{option} {value}"
        self.lines.append(shown)
        stmt = key + joiner + value
        col = len(option) + 2 - len(key + joiner)
        return Directive(key, Src(CLI_FILE, len(self.lines), col, stmt))

    def span(self, option: str, value: str):
        """The option's value as a source piece (for --print, which is not a header statement)."""
        from ..snippets.header import Src
        shown = f"{option} {value}"
        self.lines.append(shown)
        return Src(CLI_FILE, len(self.lines), len(option) + 2, value)


def cli_directives(args, cli: CliSource) -> list:
    out = []
    if getattr(args, "kernel", None):
        out.append(cli.directive("--kernel", args.kernel, "kernel", ":"))
    if args.workgroup:
        out.append(cli.directive("--workgroup", args.workgroup, "workgroup", ":"))
    for b in args.buffer:
        out.append(cli.directive("--buffer", b, "buffer", " "))
    for a in args.arg:
        out.append(cli.directive("--arg", a, "arg", ":"))
    if getattr(args, "lds_dynamic", None) is not None:
        out.append(cli.directive("--lds-dynamic", args.lds_dynamic, "lds-dynamic", ":"))
    for s in args.sgpr:
        out.append(cli.directive("--sgpr", s, "sgpr", " "))
    for v in args.vgpr:
        out.append(cli.directive("--vgpr", v, "vgpr", " "))
    for lat in args.latency:
        out.append(cli.directive("--latency", lat, "latency", ":"))
    return out


def timing_options(args):
    """(TimingConfig of --latency-file or None, the --latency dict): header < file < --latency."""
    from ..sim.latency import load_toml, parse_overrides
    path = getattr(args, "latency_file", None)
    timing = load_toml(path) if path else None
    return timing, (parse_overrides(args.latency).overrides if timing is not None else None)


def lines_for(cli: CliSource, program_lines: dict):
    def get(file: str):
        if file == CLI_FILE:
            return cli.lines
        if file in program_lines:
            return program_lines[file]
        try:
            with open(file, "rb") as fh:
                return fh.read().decode("utf-8", "replace").split("\n")
        except OSError:
            return None
    return get


# ---------------------------------------------------------------- printing registers


@dataclass
class PrintSpec:
    text: str
    reg: object  # RegRef
    tname: str | None


def parse_print(cli: CliSource, text: str, target, program=None, buffers: str | None = None) -> PrintSpec:
    """A `--print` register, its indices possibly written with the file's symbols (v[v_c:v_c+3]).
    `buffers` (which buffers the run has) completes the error for a name that is neither."""
    from ..snippets.header import TYPE_BYTES, parse_reg
    src = cli.span("--print", text)
    from ..snippets.header import _top_find
    colon, _ = _top_find(text, (":",))
    reg_text, tname = (text[:colon], text[colon + 1:].strip() or None) if colon >= 0 else (text, None)
    if tname and tname not in TYPE_BYTES:
        raise src.error(f"unknown type '{tname}' (known: {', '.join(TYPE_BYTES)})", len(reg_text) + 1, len(text))
    try:
        if program is not None and "[" in reg_text:
            from ..asm.expr import ExprError, fold_register_indices
            try:
                reg_text = fold_register_indices(reg_text, program.constants())
            except ExprError as e:
                raise ValueError(e.message) from None
        reg = parse_reg(reg_text, target)
    except ValueError as e:
        msg = str(e)
        if buffers and "is not a register" in msg:
            msg += f", nor a buffer ({buffers})"
        raise src.error(msg, 0, len(reg_text)) from None
    if tname and TYPE_BYTES[tname] == 8 and reg.count % 2:
        raise src.error(f"a {tname} value needs a register pair such as v[2:3]")
    return PrintSpec(text, reg, tname)


def register_text(spec: PrintSpec, wave) -> list[str]:
    """All 64 lanes (8 per row) of each register, in the requested type (u32 by default)."""
    from ..snippets.header import TYPE_BYTES, typed_from_words
    reg = spec.reg
    tname = spec.tname or ("u64" if reg.count == 2 and not reg.vector else "u32")
    words = reg.words(wave)
    typed = typed_from_words(words, tname)
    per = 2 if TYPE_BYTES[tname] == 8 else 1
    lines = []
    if not reg.vector:
        vals = format_values(typed, tname)
        lines.append(f"  {reg.text} ({tname}): {' '.join(vals)}")
        return lines
    for r in range(typed.shape[0]):
        name = reg.text if typed.shape[0] == 1 else (
            f"{reg.file}[{reg.index + r * per}:{reg.index + r * per + 1}]" if per == 2 else f"{reg.file}{reg.index + r}")
        vals = format_values(typed[r], tname)
        width = max(len(v) for v in vals)
        lines.append(f"  {name} ({tname}):")
        for row in range(8):
            chunk = " ".join(v.rjust(width) for v in vals[row * 8:row * 8 + 8])
            lines.append(f"    {row * 8:2d}..{row * 8 + 7:2d}: {chunk}")
    return lines


def register_json(spec: PrintSpec, wave) -> dict:
    """Raw uint32 per 32-bit register (JSON stays typeless: 64 lanes for vector registers)."""
    reg = spec.reg
    words = reg.words(wave)
    out = {}
    for k, name in enumerate(reg.names()):
        w = words[k]
        out[name] = [int(x) for x in w] if reg.vector else int(w)
    return out


# ---------------------------------------------------------------- hazards as diagnostics


def _precision(h) -> int:
    """How much an event says: the engine's own observation (the stale values, the landing
    cycle, the bytes) beats the rule table's verdict about the same pair."""
    return (2 if h.values else 0) + (1 if h.lands else 0) + (1 if h.lanes is not None else 0)


def stale_json(h) -> dict:
    """JSON: register -> the 64 raw uint32 lanes it read (or the SGPR's value)."""
    out = {}
    for name, v in (h.values or {}).items():
        out[name] = int(v) if np.ndim(v) == 0 else [int(x) for x in np.asarray(v).reshape(-1)]
    return out


RACE_RULES = frozenset({"lds-race", "global-race"})


def hazard_diagnostics(sim) -> list[Diagnostic]:
    """One warning per (consumer, producer, rule), however often it happened.

    The engine (a read of a value in flight) and the rule-table monitor (a wait the program
    did not have) may both report one race; per (wave, consumer, producer, rule) the most
    precise event is kept, then the waves and iterations that repeat it are counted into
    one diagnostic ("in waves 0-3, 8 times") that points where `gcnemu lint` points.
    """
    kernel = sim.kernel
    groups: dict[tuple, list] = {}
    for h in sim.hazards or []:
        if not (0 <= h.consumer < len(kernel.instructions) and 0 <= h.producer < len(kernel.instructions)):
            continue
        # races (gcnemu.sim.races) fold per consumer: one warning per racing instruction, naming the
        # first other instruction and counting the rest, rather than one per pair of instructions
        producer = None if h.rule in RACE_RULES else h.producer
        groups.setdefault((h.consumer, producer, h.rule), []).append(h)
    # The rule table names the youngest operation a consumer did not wait for; where the engine
    # saw that consumer read old data it names the operation it really raced with. Executions of
    # the consumer that the table flagged and the engine saw go fine count towards the engine's
    # report of the same (consumer, rule) rather than print a second, differently worded one.
    observed: dict[tuple, tuple] = {}
    for key, events in groups.items():
        if any(e.source == "engine" for e in events):
            ck = (key[0], key[2])
            if ck not in observed or len(events) > len(groups[observed[ck]]):
                observed[ck] = key
    for key in list(groups):
        target = observed.get((key[0], key[2]))
        if target is not None and target != key and all(e.source != "engine" for e in groups[key]):
            groups[target].extend(groups.pop(key))
    multi_wave = len(getattr(sim, "waves", ())) > 1
    out = []
    for (ci, pi, rule), events in groups.items():
        best = max(events, key=lambda e: (_precision(e), -e.cycle))
        times = len({(e.wave, e.cycle) for e in events})
        waves = sorted({e.wave for e in events})
        seen = len({(e.wave, e.cycle) for e in events if e.source == "engine"})
        cons, prod = kernel.instructions[ci], kernel.instructions[best.producer]
        msg = best.message
        others = len({e.producer for e in events}) - 1
        if pi is None and others > 0:
            msg += f"; and {others} more racing instruction{'s' if others != 1 else ''}"
        if times > 1 or multi_wave:
            where = f"wave{'s' if len(waves) > 1 else ''} {lane_ranges(waves)}"
            msg += f" (in {where}, {times} time{'s' if times != 1 else ''}"
            if 0 < seen < times:
                msg += f"; seen racing {seen} time{'s' if seen != 1 else ''}"
            msg += ")"
        span = best.consumer_span or next((e.consumer_span for e in events if e.consumer_span), None) \
            or getattr(cons, "mnemonic_span", None) or cons.span
        # the note shows the producer the message names (folded-in rule-table events may name
        # a younger operation than the one the engine saw race)
        pspan = best.producer_span or next((e.producer_span for e in events
                                            if e.producer_span and e.producer == best.producer), None) \
            or getattr(prod, "mnemonic_span", None) or prod.span
        notes = [Diagnostic("note", f"{prod.mnemonic} issued here", pspan)]
        detail = best.detail(cons.mnemonic)
        if detail:
            notes.append(Diagnostic("note", detail, None))
        d = Diagnostic("warning", msg, span, rule=rule, notes=notes)
        d.extra = {"producer": {"line": pspan.line, "column": pspan.column}, "wave": best.wave,
                   "cycle": int(best.cycle), "waves": waves, "count": times, "observed": seen,
                   "lanes": None if best.lanes is None else [int(k) for k in best.lanes],
                   "stale": stale_json(best)}
        if best.lands:
            d.extra["lands"] = int(best.lands)
        out.append(d)
    out.sort(key=lambda d: (d.span.line, d.span.column, d.rule))
    return out


def engine_notes(sim) -> list[Diagnostic]:
    """Runtime notes (uninitialised reads, LDS out of range, ...) at their instruction, once each."""
    seen = {}
    for _, text in getattr(sim.engine, "notes", []) or []:
        if text not in seen:
            span = getattr(text, "span", None)
            seen[text] = Diagnostic("note", getattr(text, "message", text) if span is not None else str(text), span)
    return list(seen.values())


def wave_summary(sim, i: int) -> dict:
    """Per-wave cycles, instruction count and stall breakdown, when the engine records them."""
    out = {}
    try:
        rt = sim.engine.waves[i]
    except (AttributeError, IndexError):
        return out
    end = getattr(rt, "end_cycle", None)
    if end is not None:
        out["cycles"] = int(end)
    if hasattr(rt, "instructions"):
        out["instructions"] = int(rt.instructions)
    stalls = getattr(rt, "stall_totals", None)
    if stalls is not None:
        out["stalls"] = {str(k): int(v) for k, v in stalls.items()}
    return out


# ---------------------------------------------------------------- the command


def run(args) -> int:
    from ..asm.parse import parse_file
    from ..snippets.expectations import check
    from ..snippets.runner import load_snippet
    cli = CliSource()
    sources: dict[str, list[str]] = {}
    get_lines = lines_for(cli, sources)
    try:
        prog = parse_file(args.file)
        sources[prog.file] = prog.lines
        sources.update(prog.sources)  # included files, for their carets
        extra = cli_directives(args, cli)
        snippet = load_snippet(args.file, args.arch, extra, program=prog)
        kernel = snippet.kernel()
        setup = snippet.built.setup
        prints, views = [], []
        for t in args.print_regs:
            if buffer_name(t, setup):
                views.append(parse_view(cli.span("--print", t), setup))
            else:
                prints.append(parse_print(cli, t, kernel.target, kernel.program, known(setup)))
        dumps = [parse_dump(cli, t, setup) for t in args.dump]
        timing, cli_lat = timing_options(args)
        grid = parse_grid(args.grid) if args.grid else snippet.header.grid
        functional = args.functional or snippet.header.mode == "functional"
        functional_run = None
        if args.scheduler and (grid is None or functional):
            raise GcnemuError("--scheduler spreads a grid's workgroups over a Dask cluster: it needs --grid (or "
                              "'grid:' in the header) and the timed engine (not --functional)")
        if args.trace:
            check_not_source("--trace", args.trace, prog)
        if args.timeout and (functional or grid is not None):
            raise GcnemuError("--timeout needs the timed engine on one workgroup; "
                              "run without --grid and --functional (or use --max-instructions)")
        max_cycles, max_instructions = run_limits(args, snippet.header)
        if functional:
            if args.trace:
                raise GcnemuError("--trace needs the timed engine; run without --functional")
            from ..grid import GridJob, run_functional
            from ..asm import parse as parse_mod
            job = GridJob(args.file, args.arch, tuple(extra), tuple(parse_mod.INCLUDE_DIRS), args.max_cycles,
                          args.max_instructions)
            sim, functional_run = run_functional(snippet, kernel, grid, job)
            grid_run = None
        elif grid is not None:
            if args.latency_file:
                raise GcnemuError("--latency-file is not available with --grid yet")
            sim, grid_run = _run_grid(args, snippet, kernel, grid, extra, cli_lat, max_cycles, max_instructions)
            # as in `gcnemu test`: races between workgroups are hazards the header's expectations see
            sim.grid_races = [r.message() for r in grid_run.races]
        else:
            grid_run = None
            sim = snippet.simulate(kernel, cli_lat, max_cycles, max_instructions, timing=timing, run=False)
            sim.engine.keep_history = bool(args.trace)  # nothing else of `run` reads the per-issue history
            sim.engine.set_deadline(args.timeout)
            sim.run()
    except GcnemuError as e:
        return _setup_failed(args, e.diagnostics or [Diagnostic("error", str(e), None)], get_lines)
    except KeyError as e:  # an unknown latency name from Latencies.override
        return _setup_failed(args, [Diagnostic("error", str(e.args[0] if e.args else e), None)], get_lines)
    if args.trace:
        try:
            from ..sim.trace import write_trace
        except ImportError:
            print("gcnemu: error: --trace needs gcnemu.sim.trace, which this build does not have yet",
                  file=sys.stderr)
            return 1
        try:
            if grid_run is not None:  # one process track per workgroup
                from ..sim.trace import grid_trace_json, write_json
                write_json(grid_trace_json(kernel.target.name, grid_run.grid, grid_run.results), args.trace)
            else:
                write_trace(sim, args.trace)
        except OSError as e:
            return _setup_failed(args, [Diagnostic("error", f"cannot write the trace {args.trace}: "
                                                            f"{os_reason(e)}", None)], get_lines)

    dump_errors = []
    for dump in dumps:
        try:
            write_dump(sim, setup, dump)
        except GcnemuError as e:
            dump_errors.append(Diagnostic("error", str(e), None))

    failures = []
    check_error = None
    if snippet.header.has_expectations:
        try:
            failures = check(snippet, sim, values_only=functional_run is not None)
        except GcnemuError as e:
            check_error = e
    from ..snippets.expectations import locate
    hazard_diags = hazard_diagnostics(sim)
    if grid_run is not None:
        from ..grid import race_diagnostics
        hazard_diags += race_diagnostics(grid_run)
    halted = limit_diagnostic(sim) if functional_run is None else None
    diags = target_id_mismatch(snippet.program, args.arch, snippet.target, "running")
    diags += [halted if halted is not None and is_limit(d) else locate(d, snippet.program.file)
              for d in sim.diagnostics] + hazard_diags + engine_notes(sim)
    if functional_run is not None and getattr(sim, "functional", None) is not None:
        seen = {}
        for _, (span, note) in sim.functional.notes:
            seen.setdefault(str(note), Diagnostic("note", str(note), span))
        diags += list(seen.values())
    if check_error is not None:
        diags += check_error.diagnostics or [Diagnostic("error", str(check_error), None)]
    diags += dump_errors
    failed = bool(dump_errors) or sim.error is not None or bool(getattr(sim.engine, "halt_reason", None)) or bool(failures) \
        or check_error is not None or (grid_run is not None and any(r.error for r in grid_run.results))
    tripped = fail_on_hits(fail_on_kinds(args), [d.rule for d in diags if d.severity == "warning"])
    failed = failed or bool(tripped)

    if args.format == "json":
        out = {"waves": [], "instructions": int(sim.instructions_executed), "cycles": int(sim.cycles),
               "diagnostics": [d.to_json() for d in diags]}
        if snippet.setup.kernel is not None:
            out["kernel"] = snippet.setup.kernel
        for i in range(len(sim.waves)):
            regs = {}
            for spec in prints:
                regs.update(register_json(spec, sim.wave(i)))
            out["waves"].append({"wave": i, "registers": regs, **wave_summary(sim, i)})
        out["buffers"] = buffers_json(sim, setup, views)
        if grid_run is not None:
            out["grid"] = grid_json(grid_run)
        if functional_run is not None:
            out["functional"] = {"grid": list(functional_run.grid), "waves": functional_run.waves,
                                 "instructions": functional_run.instructions, "batched": functional_run.batched,
                                 "fallback": functional_run.fallback}
            out["instructions"] = functional_run.instructions
        if functional_run is None and grid_run is None:
            from ..views.where import time_by_class
            out["time_by_class"] = time_by_class(sim.engine)
        if tripped:
            out["fail_on"] = tripped
        if snippet.header.has_expectations:
            out["check"] = {"passed": not failures and check_error is None,
                            "expectations": len(snippet.expects),
                            "failures": [f.to_json() for f in failures]}
        print(json.dumps(out))
        return 1 if failed else 0

    for d in diags:
        if d.span is None and d.severity == "error":
            print(f"gcnemu: error: {d.message}", file=sys.stderr)
        else:
            print(render(d, get_lines(d.span.file) if d.span else None), file=sys.stderr)
    for i in range(len(sim.waves)):
        if not prints:
            break
        print(f"wave {i}:")
        for spec in prints:
            for line in register_text(spec, sim.wave(i)):
                print(line)
    if views:
        print("buffers:")
        for view in views:
            for line in view_text(sim, setup, view):
                print(line)
    if snippet.setup.kernel is not None:  # the file describes its kernels: say which one ran
        print(f"kernel {snippet.setup.kernel}")
    hazards = len(hazard_diags)  # what was printed: one warning per (consumer, producer, rule)
    status = "error" if sim.error else ("stopped" if getattr(sim.engine, "halt_reason", None) else "done")
    if functional_run is not None:
        print(f"{snippet.target}: {status}: {functional_run.text()}")
    else:
        print(f"{snippet.target}: {status}: {sim.instructions_executed} instructions, {sim.cycles} cycles, "
              f"{hazards} hazard{'s' if hazards != 1 else ''}, {len(sim.waves)} wave{'s' if len(sim.waves) != 1 else ''}")
        for line in timing_summary(sim):
            print(line)
        chosen = getattr(sim.engine, "user_latencies", None)
        if chosen:  # once per run: these cycles are not the calibrated model's
            print(f"note: this run uses user latencies ({', '.join(chosen)}); they win over the calibrated "
                  "defaults (README 'How close to hardware')")
        if grid_run is None and status == "done":  # (an error or a stop keeps its line last)
            from ..views.where import render as where_text
            text = where_text(sim.engine)
            if text:
                print(text)
    if grid_run is not None:
        for line in grid_text(grid_run):
            print(line)
    if snippet.header.has_expectations and check_error is None:
        n = len(snippet.expects)
        if functional_run is not None:
            from ..snippets.header import timing_expects
            skipped = len(timing_expects(snippet.header))
            n -= skipped
            if skipped:
                print(f"check: {skipped} expectation{'s' if skipped != 1 else ''} of timing or hazards not checked "
                      "(the functional engine has no cycles)")
        if failures:
            print(f"check: FAILED ({len(failures)} failure{'s' if len(failures) != 1 else ''}, {n} expectations)")
            for f in failures:
                print(f.render(get_lines(f.diagnostic().span.file) if f.diagnostic().span else None))
        else:
            print(f"check: passed ({n} expectation{'s' if n != 1 else ''})")
    for line in tripped:
        print(f"exit 1: {line}")
    if not failed and not (prints or views or dumps):
        path = args.file
        print(f"next: gcnemu step {path} | gcnemu timeline {path} --wave 0 | gcnemu lint {path}")
    return 1 if failed else 0


def parse_grid(text: str):
    from ..grid import parse_grid as _parse
    return _parse(text)


def _run_grid(args, snippet, kernel, grid, extra, cli_lat, max_cycles: int, max_instructions: int):
    """Every workgroup of the grid: a local process pool, or a Dask cluster with --scheduler."""
    from ..asm import parse as parse_mod
    from ..grid import GridJob, run_grid
    job = GridJob(args.file, args.arch, tuple(extra), tuple(parse_mod.INCLUDE_DIRS), max_cycles,
                  max_instructions, tuple(sorted((cli_lat or {}).items())), trace=bool(args.trace))
    if args.jobs is not None and args.jobs < 1:
        raise GcnemuError(f"--jobs must be at least 1, got {args.jobs}")
    from .progress import Progress, wanted
    total = grid[0] * grid[1] * grid[2]
    with Progress(total, f"grid {grid[0]}x{grid[1]}x{grid[2]}", wanted(args)) as bar:
        if args.scheduler:
            from .cluster import run_on_cluster
            return run_on_cluster(args.scheduler, snippet, kernel, grid, job, args.scheduler_timeout,
                                  progress=lambda done, _n: bar.update(done))
        return run_grid(snippet, kernel, grid, job, jobs=args.jobs, progress=lambda done, _n: bar.update(done))


def grid_text(run) -> list[str]:
    n = len(run.results)
    cyc = run.cycles
    how = "one after another (the kernel has global atomics)" if run.sequential else \
        f"{run.workers} worker process{'es' if run.workers != 1 else ''}"
    out = [f"grid {run.grid[0]}x{run.grid[1]}x{run.grid[2]}: {n} workgroups, {how}; cycles per workgroup "
           f"min {min(cyc)}, mean {sum(cyc) / n:.0f}, max {max(cyc)}"]
    out += run.histogram()
    bad = [r for r in run.results if r.error]
    for r in bad[:5]:
        out.append(f"  workgroup {r.id}: {r.error}")
    if len(bad) > 5:
        out.append(f"  ... {len(bad) - 5} more workgroups failed")
    return out


def grid_json(run) -> dict:
    return {"grid": list(run.grid), "sequential": run.sequential, "workers": run.workers,
            "workgroups": [{"id": list(r.id), "cycles": r.cycles, "instructions": r.instructions,
                            "hazards": r.hazards, "error": r.error} for r in run.results],
            "races": [{"buffer": r.buffer, "kind": r.kind, "first_byte": r.first_byte, "last_byte": r.last_byte, "bytes": r.bytes,
                       "workgroups": [list(w) for w in r.workgroups]} for r in run.races]}


def _setup_failed(args, diags: list[Diagnostic], get_lines) -> int:
    """Nothing ran (parse, validation or setup error): the diagnostics, as JSON on stdout
    (the run's object with no waves, like `gcnemu check --format json`) or as text."""
    if args.format == "json":
        print(json.dumps({"waves": [], "instructions": 0, "cycles": 0,
                          "diagnostics": [d.to_json() for d in diags]}))
        return 1
    for d in diags:
        if d.span is None and d.severity == "error":
            print(f"gcnemu: error: {d.message}", file=sys.stderr)
        else:
            print(render(d, get_lines(d.span.file) if d.span else None), file=sys.stderr)
    return 1


def timing_summary(sim) -> list[str]:
    """Where the cycles went: MFMA utilisation (when the kernel has MFMAs) and the stall breakdown."""
    from ..sim.engine import kernel_stats, wave_summary as engine_wave_summary
    eng = sim.engine
    out = []
    stats = kernel_stats(eng)
    if stats["flops"]:
        out.append(f"mfma: {100 * stats['mfma_utilisation']:.1f}% utilisation, "
                   f"{stats['flops_per_cycle']:.0f} of {stats['peak_flops_per_cycle']:.0f} peak FLOP/cycle")
    totals: dict[str, int] = {}
    for i in range(len(eng.waves)):
        for reason, n in engine_wave_summary(eng, i)["stalls"].items():
            totals[reason] = totals.get(reason, 0) + n
    if totals:
        waves = max(len(eng.waves), 1)
        parts = [f"{reason} {n // waves}" for reason, n in sorted(totals.items(), key=lambda kv: -kv[1])[:5]]
        out.append(f"stalls (cycles per wave): {', '.join(parts)}")
    return out
