"""`gcnemu step FILE`: the stepping debugger, interactive or as a batch transcript.

    gcnemu step k.s                          # REPL (history, tab completion, Ctrl-C, Ctrl-D)
    gcnemu step k.s --batch cmds.txt         # run the commands, print the transcript
    echo 'break 20
    continue
    counters' | gcnemu step k.s              # stdin that is not a terminal is a batch too
    gcnemu step k.s -ex 'break loop' -ex c   # commands to run first, then the REPL

The launch setup comes from the file's header; the setup options are `gcnemu run`'s
and override it. Exit status of a batch: 1 if a command failed (a typo, a bad
register name), so CI notices a transcript that went wrong; 0 otherwise.
"""
from __future__ import annotations

import sys

from ..asm.diagnostics import GcnemuError
from .common import add_arch, add_fail_on, add_lds_dynamic, add_limits, fail_on_hits, fail_on_kinds

HELP = "debug a kernel step by step and cycle by cycle, with breakpoints, watchpoints and reverse steps"


def add_arguments(p) -> None:
    p.add_argument("file", metavar="FILE", help="assembly file")
    add_arch(p)
    g = p.add_argument_group("setup (overrides the file header, as for `gcnemu run`)")
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
                   help="latencies and memory regions from a TOML file (as `gcnemu run --latency-file`)")
    p.add_argument("--batch", metavar="COMMANDS",
                   help="run the debugger commands in this file ('-': stdin) and print the transcript")
    p.add_argument("-ex", "--ex", dest="ex", action="append", default=[], metavar="COMMAND",
                   help="a command to run before the REPL starts (repeatable)")
    add_limits(p, timeout_help="a run command (continue, step N, ...) stops after SECONDS of wall-clock time; "
                               "`continue` goes on from there")
    add_fail_on(p)


def _open_session(args):
    """The Session, or an exit code after printing diagnostics (setup errors point at the option)."""
    from ..debugger.launch import simulation_for_file
    from ..debugger import Session
    from ..asm.diagnostics import GcnemuError, render
    try:
        from .run import CliSource, cli_directives, lines_for
    except ImportError:  # older tree without `gcnemu run`: setup options unavailable
        CliSource = cli_directives = lines_for = None
    extra = []
    cli = None
    if cli_directives is not None:
        cli = CliSource()
        extra = cli_directives(args, cli)
    elif any((args.workgroup, args.buffer, args.arg, args.sgpr, args.vgpr, args.latency)):
        print("gcnemu: error: setup options need gcnemu.commands.run, which this build lacks", file=sys.stderr)
        return 1
    try:
        from .run import timing_options
        timing, cli_lat = timing_options(args)
        sim = simulation_for_file(args.file, args.arch, extra, args.max_cycles, args.max_instructions,
                                  timing=timing, latencies=cli_lat)
    except GcnemuError as e:
        get = lines_for(cli, {}) if lines_for else (lambda f: None)
        for d in e.diagnostics:
            print(render(d, get(d.span.file) if d.span else None), file=sys.stderr)
        if not e.diagnostics:
            print(f"gcnemu: error: {e}", file=sys.stderr)
        return 1
    except KeyError as e:  # an unknown latency name
        print(f"gcnemu: error: {e.args[0] if e.args else e}", file=sys.stderr)
        return 1
    return Session(sim, timeout=args.timeout)


def read_commands(path: str) -> list[str]:
    """The lines of a --batch file; one that is not UTF-8 text is refused with the offending
    byte's line, before any command runs (a transcript cut short would mislead)."""
    if path == "-":
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:  # a text stream put in place of stdin (tests, embedding): already decoded
            return sys.stdin.readlines()
        data = raw.read()
    else:
        with open(path, "rb") as fh:
            data = fh.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        where = "standard input" if path == "-" else path
        raise GcnemuError(f"--batch {where}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x}); "
                          "debugger commands are text") from None
    return text.splitlines(keepends=True)


def run_batch(session, lines, out=None) -> int:
    """Echo each command after the prompt, then its output: a transcript usable in CI and docs."""
    out = out or sys.stdout
    print(session.banner(), file=out)
    for raw in lines:
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        print(f"{session.prompt()}{line}", file=out)
        text = session.execute(line)
        if text:
            print(text, file=out)
        out.flush()
        if session.quit_requested:
            break
    return 1 if session.failed_commands else 0


def _batch_status(args, session, status: int) -> int:
    """A batch's exit status, with `--fail-on`: the hazards and races the run reported up to where
    the commands left it."""
    hazards = getattr(session.sim, "hazards", None) or []
    tripped = fail_on_hits(fail_on_kinds(args), [h.rule for h in hazards])
    for line in tripped:
        print(f"exit 1: {line}")
    return 1 if tripped else status


def run(args) -> int:
    if args.file == "-" and args.batch in (None, "-"):
        print("gcnemu: error: the program comes from stdin, so the commands need a file: --batch FILE",
              file=sys.stderr)
        return 2
    session = _open_session(args)
    if isinstance(session, int):
        return session
    if args.batch is not None:
        return _batch_status(args, session, run_batch(session, read_commands(args.batch)))
    if not sys.stdin.isatty():
        return _batch_status(args, session, run_batch(session, list(args.ex) + read_commands("-")))
    from ..debugger.repl import run_repl
    return run_repl(session, first=args.ex)
