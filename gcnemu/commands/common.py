"""Pieces every command shares: --arch/--format options, printing diagnostics, loading a kernel."""
from __future__ import annotations

import argparse
import gc
import sys
from contextlib import contextmanager

import numpy as np

from ..asm.diagnostics import Diagnostic, GcnemuError, render
from ..isa.targets import TARGETS
from ..sim.engine import DEFAULT_MAX_CYCLES, DEFAULT_MAX_INSTRUCTIONS, limits_for

ARCH_CHOICES = sorted(TARGETS) + ["gfx940", "gfx941"]


def add_arch(p: argparse.ArgumentParser) -> None:
    p.add_argument("--arch", type=arch_id, default=None, metavar="{" + ",".join(ARCH_CHOICES) + "}[:xnack+|-][:sramecc+|-]",
                   help="target GPU, optionally as a target id with features (gfx908:xnack-, as MIOpen builds); "
                        "default: the file's .amdgcn_target, else gfx90a")


TARGET_FEATURES = ("xnack", "sramecc")


def arch_id(text: str) -> str:
    """`gfx90a` or a target id `gfx90a:sramecc+:xnack-` (the features as llvm-mc's -mattr=+/-xnack
    sets them); argparse turns a ValueError into a one-line usage error."""
    base, *features = text.strip().split(":")
    if base not in ARCH_CHOICES:
        raise argparse.ArgumentTypeError(f"invalid choice: '{base}' (choose from {', '.join(ARCH_CHOICES)})")
    for f in features:
        if len(f) < 2 or f[-1] not in "+-" or f[:-1] not in TARGET_FEATURES:
            raise argparse.ArgumentTypeError(f"'{f}' in '{text}': a feature is xnack+, xnack-, sramecc+ or sramecc-")
    return text.strip()


def add_format(p: argparse.ArgumentParser, formats=("text", "json")) -> None:
    p.add_argument("--format", choices=formats, default="text", help="output format")


def print_diagnostics(diags: list[Diagnostic], sources: dict, out=None) -> None:
    out = out or sys.stderr
    for d in diags:
        print(render(d, sources.get(d.span.file) if d.span else None, sources=sources), file=out)


def load_kernel(path: str, arch: str | None):
    """Parse, validate and resolve a file; errors raise GcnemuError with diagnostics."""
    from ..asm.parse import parse_file
    from ..asm.resolve import resolve
    from ..asm.validate import program_target
    prog = parse_file(path)
    target = program_target(prog, arch)
    return resolve(prog, target)


@contextmanager
def without_cycle_collector():
    """Run a one-shot command with Python's cyclic garbage collector off (back on after).

    Why: a command builds, once, a large graph of long-lived objects (the parsed program, one
    Facts and one issue plan per instruction, the issue records) and frees it only at exit. The
    collector, triggered by allocation counts, re-walks that whole growing graph again and
    again and finds nothing to free: on a 10,000-line block it was a third of `gcnemu
    timeline`'s time (five full passes, about 0.2 s each, none collecting an object). What
    cyclic garbage the commands make is a few thousand objects in all, the same for a
    10-line and a 10,000-line file (measured with gc.collect() after a run), so memory
    does not grow with the work. Reference counting still frees everything else at once.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


# ---------------------------------------------------------------- run limits

def positive_int(text: str) -> int:
    """argparse type of a limit: 0 or a negative count would silently mean "no limit" or
    "the default" further down, so it is refused where it is typed."""
    try:
        n = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def positive_seconds(text: str) -> float:
    """argparse type of --timeout: a positive, finite number of seconds."""
    try:
        s = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got '{text}'") from None
    if not 0 < s < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got '{text}'")
    return s


def add_lds_dynamic(p) -> None:
    """--lds-dynamic BYTES: the launch's dynamic LDS, as the header's `lds-dynamic:` (kept as text
    so that a bad value is an error at the option, like every setup option)."""
    p.add_argument("--lds-dynamic", default=None, metavar="BYTES",
                   help="dynamic LDS bytes per workgroup (HIP's sharedMemBytes, OpenCL's __local arguments): the "
                        "group segment is the kernel's static LDS plus this; hidden_dynamic_lds_size carries it "
                        "(or 'lds-dynamic:' in the header)")


def add_limits(p: argparse.ArgumentParser, timeout_help: str | None = None) -> None:
    """--max-cycles, --max-instructions and --timeout, alike for every command that runs a kernel."""
    p.add_argument("--max-cycles", type=positive_int, default=None, metavar="N",
                   help=f"stop after N cycles (default: the file header's max-cycles, else {DEFAULT_MAX_CYCLES})")
    p.add_argument("--max-instructions", type=positive_int, default=None, metavar="N",
                   help="stop after N executed instructions, all waves together (default: the file header's "
                        f"max-instructions, else {DEFAULT_MAX_INSTRUCTIONS})")
    p.add_argument("--timeout", type=positive_seconds, default=None, metavar="SECONDS",
                   help=timeout_help or "stop after SECONDS of wall-clock time")


def run_limits(args, header=None) -> tuple[int, int]:
    """(max cycles, max instructions): the option, else the file header's, else the default."""
    return limits_for(getattr(args, "max_cycles", None), getattr(args, "max_instructions", None), header)


def limit_diagnostic(sim) -> Diagnostic | None:
    """The run stopped at a limit: a warning at the instruction that kept it going (the loop's
    backward branch, the s_barrier a wave waits at), with a note for each other live wave, so
    the user sees where and why rather than only which limit was reached."""
    from ..sim.engine import stop_report
    eng = sim.engine
    reason = getattr(eng, "halt_reason", None)
    if not reason:
        return None
    report = stop_report(eng)
    ins = sim.kernel.instructions
    span = None
    message = str(reason)
    if report:
        first_at, first = report[0]
        span = ins[first_at].span if first_at is not None else None
        message += f": {first}"
    notes = [Diagnostic("note", text, ins[at].span if at is not None else None) for at, text in report[1:]]
    if "--max-instructions" in message or "--max-cycles" in message:
        which = "--max-instructions" if "--max-instructions" in message else "--max-cycles"
        notes.append(Diagnostic("note", f"a longer run needs a higher {which} (or the header's "
                                        f"{which[2:]}:)", None))
    return Diagnostic("warning", message, span, rule="limit", notes=notes)


def is_limit(d: Diagnostic) -> bool:
    """The engine's bare 'stopped after ...' warning (Simulation.run), which limit_diagnostic replaces."""
    return d.rule == "limit" and d.span is None


# ---------------------------------------------------------------- files the user named


def write_output(path: str, data: bytes, what: str) -> None:
    """Write a file the user asked for; a failure (no such folder, read-only, disk full) is a
    one-line error naming the file and the reason, never a traceback."""
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as e:
        raise GcnemuError(f"cannot write {what} {path}: {os_reason(e)}") from None


def os_reason(e: OSError) -> str:
    """'No space left on device' as the tail of a message: 'no space left on device'."""
    text = e.strerror or str(e)
    return text[:1].lower() + text[1:]


def check_not_source(option: str, path: str, prog) -> None:
    """An output option must not name the kernel's source or a file it includes: writing it
    would silently destroy the program being run."""
    import os
    for source in [prog.file, *prog.sources]:
        try:
            same = os.path.samefile(path, source)
        except OSError:  # one of them does not exist (yet): not the same file
            same = False
        if same:
            raise GcnemuError(f"{option} {path} names the kernel's source file {source}; it would be "
                              "overwritten: choose another file, e.g. trace.json")


# ---------------------------------------------------------------- --fail-on / -Werror

FAIL_ON_KINDS = ("hazard", "race", "warning")


def _fail_on_list(text: str) -> list[str]:
    """`--fail-on hazard,race`: a comma list of kinds (a usage error names the valid ones)."""
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in kinds if k not in FAIL_ON_KINDS]
    if bad or not kinds:
        raise argparse.ArgumentTypeError(f"invalid choice {', '.join(map(repr, bad)) or repr(text)} "
                                         f"(choose from {', '.join(FAIL_ON_KINDS)})")
    return kinds


def add_fail_on(p: argparse.ArgumentParser) -> None:
    """`--fail-on=hazard|race|warning` (repeatable, or a comma list) and `-Werror` (as compilers
    spell "any warning fails"): why: CI jobs need a non-zero exit for a finding, not only for
    a failed expectation."""
    p.add_argument("--fail-on", dest="fail_on", action="append", type=_fail_on_list, default=[],
                   metavar="KIND", help="exit 1 when the run reports a hazard (any rule), a race "
                                        "(lds-race, global-race, grid-global-race) or any warning")
    p.add_argument("-Werror", dest="fail_on", action="append_const", const=["warning"],
                   help="exit 1 on any warning (the same as --fail-on=warning)")


def fail_on_kinds(args) -> set[str]:
    return {k for group in getattr(args, "fail_on", None) or [] for k in group}


def fail_on_hits(kinds: set[str], rules: list[str | None]) -> list[str]:
    """The findings that trip `--fail-on` among warnings with these rule ids (None: a warning with
    no rule), as 'N hazards' phrases for the message that explains the exit status."""
    from ..isa.rule_ids import RULE_GLOBAL_RACE, RULE_GRID_RACE, RULE_LDS_RACE
    races = {RULE_LDS_RACE, RULE_GLOBAL_RACE, RULE_GRID_RACE}
    out = []
    counts = {"warning": len(rules), "hazard": sum(1 for r in rules if r),
              "race": sum(1 for r in rules if r in races)}
    for kind in FAIL_ON_KINDS:
        if kind in kinds and counts[kind]:
            n = counts[kind]
            out.append(f"--fail-on={kind}: {n} {kind}{'s' if n != 1 else ''} reported")
    return out


# ---------------------------------------------------------------- --arch against .amdgcn_target


def target_id_mismatch(prog, arch: str | None, target: str, what: str | None = None) -> list[Diagnostic]:
    """llvm-mc's check of `.amdgcn_target` against -mcpu: a kernel written for another GPU is an
    error in `check` when --arch names a different one (without --arch the directive decides).
    `run`, `lint`, `step` and `timeline` allow it as a what-if, but never silently: with `what`
    (e.g. "running") the same finding is a warning that says what gcnemu does instead."""
    import re

    from ..asm.program import Span
    d = prog.directive(".amdgcn_target")
    if arch is None or d is None or not d.args:
        return []
    written = str(d.args[0]).strip().strip('"')
    m = re.search(r"--(gfx[0-9a-z]+)", written)
    if m is None or m.group(1) == target:
        return []
    col = d.span.column + len(d.name) + 1
    line = prog.source_line(d.span.line, d.span.file)
    found = line.find('"', d.span.column - 1)
    if found >= 0:
        col = found + 1
    sp = Span(d.span.file, d.span.line, col, d.span.line, col + len(written) + 2)
    message = (f".amdgcn_target directive's target id {written} does not match the specified target id "
               f"amdgcn-amd-amdhsa--{target}")
    if what is None:
        return [Diagnostic("error", message, sp, rule="target")]
    return [Diagnostic("warning", f"{message}: {what} it as {target} anyway (llvm-mc rejects the file for "
                                  f"{target}; `gcnemu check --arch {target}` says so)", sp)]


# ---------------------------------------------------------------- printing values


def format_values(values: np.ndarray, tname: str) -> list[str]:
    from ..snippets.header import FLOAT_TYPES
    out = []
    for v in np.asarray(values).reshape(-1):
        if tname in FLOAT_TYPES:
            digits = {"f64": 17, "f32": 9, "f16": 5, "bf16": 4}[tname]
            out.append(f"{float(v):.{digits}g}")
        else:
            out.append(str(int(v)))
    return out
