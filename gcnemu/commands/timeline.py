"""`gcnemu timeline FILE [--arch A] [--wave N] [--range L1:L2] [--cycles A:B] [--scale N]
[--svg OUT.svg] [--png OUT.png] [--trace out.json]`.

Runs the kernel with timing and prints an llvm-mca-style timeline (one row per executed
instruction; one column per issue turn of 4 cycles, or `--scale N` cycles), each hazard's or
race's rule at the end of its row, the per-instruction table (ready, issue, done, stall and
reason), a summary as llvm-mca's (IPC, busy % per pipe, stall cycles by cause), the per-wave
stall breakdown and where time went per instruction class. Without `--cycles` it draws the
first MAX_COLUMNS columns, as llvm-mca's -timeline-max-cycles does, and says how to see more:
a GEMM's thousands of cycles do not fit a terminal however they are compressed.

Launch setup: a plain `Setup()` (one wave64, kernarg pointer in s[0:1]) plus what the
file's header declares when `gcnemu.snippets` is available; `--waves N` runs an
N-wave workgroup. Instructions without semantics yet are timed from their pipe and
leave registers unchanged (a warning says which).
"""
from __future__ import annotations

import json
import sys

from ..asm.diagnostics import Diagnostic, GcnemuError
from .common import (add_arch, add_format, add_lds_dynamic, add_limits, check_not_source, is_limit,
                     limit_diagnostic, os_reason, print_diagnostics, run_limits, without_cycle_collector)

MAX_COLUMNS = 80  # columns drawn without --cycles (llvm-mca draws 80 cycles): the flagship GEMM fits a terminal

HELP = "run with timing and show an llvm-mca-style timeline (issue, stalls, completion per instruction)"


def add_arguments(p) -> None:
    p.add_argument("file", metavar="FILE", help="assembly file, '-' for stdin")
    add_arch(p)
    p.add_argument("--wave", type=int, default=0, metavar="N", help="wave to show (default 0)")
    p.add_argument("--range", dest="line_range", default=None, metavar="L1:L2",
                   help="only rows of source lines L1..L2 (inclusive; either side may be empty)")
    p.add_argument("--waves", type=int, default=None, metavar="N",
                   help="run a workgroup of N waves (1..16; default: the file's setup, else 1)")
    p.add_argument("--latency", action="append", default=[], metavar="NAME=CYCLES",
                   help="override a latency, e.g. --latency vmem=500 (repeatable; names as in Latencies)")
    p.add_argument("--latency-file", default=None, metavar="TOML",
                   help="latency overrides and memory regions from a TOML file ([latency], [[memory]])")
    p.add_argument("--trace", default=None, metavar="OUT.json",
                   help="also write a Chrome trace-event JSON (Perfetto, chrome://tracing)")
    p.add_argument("--svg", default=None, metavar="OUT.svg",
                   help="also draw the rows as a Gantt chart (issue to completion per instruction, coloured by "
                        "class, stalls hatched); needs the extra gcnemu[plot] (matplotlib)")
    p.add_argument("--png", default=None, metavar="OUT.png", help="the same picture as PNG")
    p.add_argument("--max-rows", type=int, default=400, metavar="N", help="rows shown at most (default 400)")
    add_lds_dynamic(p)
    p.add_argument("--cycles", default=None, metavar="A:B",
                   help="only cycles A..B (inclusive; either side may be empty). Without it the view shows "
                        f"the first {MAX_COLUMNS} columns and says how to see the rest")
    p.add_argument("--scale", type=int, default=None, metavar="N",
                   help="cycles per column (default: the issue interval, 4: one column per issue turn; "
                        "1 for one column per cycle)")
    add_limits(p, timeout_help="stop the run after SECONDS of wall-clock time (the timeline shows what ran)")
    add_format(p)


def parse_range(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    lo, sep, hi = text.partition(":")
    if not sep:
        raise GcnemuError(f"--range expects L1:L2 (source lines), got '{text}'")
    try:
        a = int(lo) if lo.strip() else 1
        b = int(hi) if hi.strip() else 1 << 30
    except ValueError:
        raise GcnemuError(f"--range expects L1:L2 with integer lines, got '{text}'") from None
    if a < 1 or b < a:
        raise GcnemuError(f"--range {text}: lines start at 1 and L1 must not exceed L2")
    return a, b


def launch_setup(program, target, waves: int | None, lds_dynamic: str | None = None):
    """Setup() plus the file header's declarations (gcnemu.snippets); --lds-dynamic as the
    header's `lds-dynamic:` would say it."""
    from ..setup import Setup
    from ..snippets.launch import setup_from_program
    extra = []
    if lds_dynamic is not None:
        from .run import CliSource
        extra.append(CliSource().directive("--lds-dynamic", lds_dynamic, "lds-dynamic", ":"))
    setup = setup_from_program(program, target, extra)
    if setup is None:
        setup = Setup()
    if waves is not None:
        if not 1 <= waves <= 16:
            raise GcnemuError(f"--waves must be 1..16 (a workgroup on one CU), got {waves}")
        setup.workgroup_size = (64 * waves, 1, 1)
    return setup


def timing_config(args):
    from ..sim.latency import TimingConfig, load_toml, parse_overrides
    cfg = TimingConfig()
    if args.latency_file:
        cfg = cfg.merged(load_toml(args.latency_file))
    return cfg.merged(parse_overrides(args.latency))


def run(args) -> int:
    with without_cycle_collector():
        return _run(args)


def _run(args) -> int:
    from ..asm.parse import parse_file
    from ..asm.resolve import resolve
    from ..simulation import Simulation
    from ..sim.trace import write_trace
    from ..views.timeline import parse_cycles, render, summary
    from ..asm.validate import program_target
    line_range = parse_range(args.line_range)
    try:
        window = parse_cycles(args.cycles)
    except ValueError as e:
        raise GcnemuError(str(e)) from None
    if args.scale is not None and not 1 <= args.scale <= 1024:
        raise GcnemuError(f"--scale must be 1..1024 cycles per column, got {args.scale}")
    cfg = timing_config(args)
    prog = parse_file(args.file)
    kernel = resolve(prog, program_target(prog, args.arch))
    setup = launch_setup(prog, kernel.target, args.waves, args.lds_dynamic)
    if args.trace:
        check_not_source("--trace", args.trace, prog)
    for option in ("svg", "png"):
        if getattr(args, option):
            check_not_source(f"--{option}", getattr(args, option), prog)
    if args.svg or args.png:
        from ..views.plot import _figure_class
        _figure_class()  # without matplotlib: say so before running the kernel
    max_cycles, max_instructions = run_limits(args)
    sim = Simulation(kernel, setup, latencies=cfg, max_cycles=max_cycles, max_instructions=max_instructions)
    sim.engine.allow_unmodelled = True
    sim.engine.set_deadline(args.timeout)
    sim.run()
    eng = sim.engine
    if not 0 <= args.wave < len(eng.waves):
        raise GcnemuError(f"--wave {args.wave}: the workgroup has {len(eng.waves)} wave(s) (0..{len(eng.waves) - 1})")
    sources = {prog.file: prog.lines}
    halted = limit_diagnostic(sim)
    diags = [halted if halted is not None and is_limit(d) else d for d in sim.diagnostics]
    for wi, note in eng.notes:
        if "has no semantics yet" in note:
            diags.append(Diagnostic("warning", note.split(": ", 1)[-1], None, rule="unmodelled"))
    if args.trace:
        try:
            write_trace(sim, args.trace)
        except OSError as e:
            raise GcnemuError(f"cannot write the trace {args.trace}: {os_reason(e)}") from None
    pictures = [(path, fmt) for path, fmt in ((args.svg, "svg"), (args.png, "png")) if path]
    if pictures:
        from ..views.plot import save, timeline_figure
        from ..views.timeline import picture_rows
        fig = timeline_figure(eng, picture_rows(eng, args.wave, line_range, args.max_rows, window), args.wave,
                              sim.hazards, window)
        for path, fmt in pictures:
            save(fig, path, fmt)
    if args.format == "json":
        print(json.dumps(timeline_json(sim, args.wave, line_range, diags, window), indent=1))
    else:
        scale = args.scale or eng.interval
        print(render(eng, args.wave, line_range, max_rows=args.max_rows, scale=scale, cycles=window,
                     max_columns=None if window else MAX_COLUMNS, hazards=sim.hazards))
        print()
        print(summary(eng))
        from ..views.where import render as where_text
        print(where_text(eng))
        from .run import hazard_diagnostics
        hz = hazard_diagnostics(sim)  # one line per race, folded over waves and iterations as `run` does
        for d in hz:
            print(f"  hazard [{d.rule}] line {d.span.line} (wave {d.extra['wave']}, issued at cycle "
                  f"{d.extra['cycle']}): {d.message}")
        if args.trace:
            print(f"trace written to {args.trace}")
        for path, _ in pictures:
            print(f"picture written to {path}")
        print_diagnostics(diags, sources, out=sys.stderr)
    # a run that stopped at a limit did not finish: the same status as `gcnemu run`
    return 1 if sim.error is not None or eng.halt_reason else 0


def timeline_json(sim, wave: int, line_range, diags, window: tuple[int, int] | None = None) -> dict:
    """The run as data; `window` (cycles A, B) keeps the instructions alive in it, as the text does."""
    from ..sim.engine import wave_summary
    from ..views.timeline import pipe_busy, stall_cycles
    from ..views.where import time_by_class
    eng = sim.engine
    ins = eng.kernel.instructions
    rows = []
    for r in eng.records:
        if r.wave != wave:
            continue
        i = ins[r.index]
        if line_range and not (line_range[0] <= i.span.line <= line_range[1]):
            continue
        if window and not (r.ready <= window[1] and max(r.issue, r.complete - 1) >= window[0]):
            continue
        rows.append({"line": i.span.line, "text": i.text(), "pipe": eng.decoded[r.index].pipe, "ready": r.ready,
                     "issue": r.issue, "complete": r.complete, "stall_cycles": r.issue - r.ready,
                     "stalls": dict(r.stalls)})
    return {
        "target": eng.target.name, "wave": wave, "cycles": eng.cycle, "instructions": rows,
        "waves": [wave_summary(eng, i) for i in range(len(eng.waves))],
        "kernel": eng.stats(),
        "time_by_class": time_by_class(eng),
        "summary": {"ipc": eng.executed / max(eng.cycle, 1), "pipe_busy": pipe_busy(eng),
                    "stall_cycles": stall_cycles(eng) or {}},
        "hazards": [{"rule": h.rule, "wave": h.wave, "cycle": h.cycle, "line": ins[h.consumer].span.line,
                     "producer_line": ins[h.producer].span.line, "message": h.message} for h in eng.hazards],
        "diagnostics": [d.to_json() for d in diags],
    }
