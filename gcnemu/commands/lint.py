"""`gcnemu lint FILE... [--arch A] [--format text|json|sarif] [--fix] [-o OUT] [--in-place] [--rule R]... [--hints]`.

Static hazard detection (wait states along every CFG path, s_waitcnt counters).
Exit status: 1 when any hazard (warning) or error is found, else 0; hints never
change it.  With --fix the corrected program goes to stdout, to -o OUT, or back
into the file with --in-place (explicit, never implied); the exit status is 1
only if hazards remain that the fixer could not remove.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..asm.diagnostics import Diagnostic, GcnemuError
from .common import add_arch, print_diagnostics, write_output, target_id_mismatch
from .progress import add_option as add_progress_option, wanted as progress_wanted

HELP = "find pipeline hazards and missing s_waitcnt (exit 1 on hazards); --fix inserts s_nop / s_waitcnt"

JSON_FIELDS = ("file", "line", "column", "severity", "rule", "message", "producer",
               "required_wait_states", "provided_wait_states", "fix")


def add_arguments(p) -> None:
    p.add_argument("files", nargs="*", metavar="FILE", help="assembly file(s), '-' for stdin; with --stats, folders")
    add_arch(p)
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text", help="output format")
    p.add_argument("--fix", action="store_true",
                   help="write the program with the smallest s_nop / s_waitcnt edits that remove each hazard")
    p.add_argument("-o", "--output", metavar="OUT", help="with --fix: write the fixed program here (default stdout)")
    p.add_argument("--in-place", action="store_true", help="with --fix: rewrite each FILE")
    p.add_argument("--rule", action="append", metavar="R", default=None,
                   help="only check rule R (repeatable); see the ids in gcnemu/isa/data/hazards.toml")
    p.add_argument("--hints", action="store_true",
                   help="also report performance hints (severity 'hint'): useless waits and nops")
    p.add_argument("--explain", metavar="RULE",
                   help="what RULE checks, its wait states per target, its source (LLVM, ISA guide), an example "
                        "and the fix; `--explain list` lists the rule ids")
    p.add_argument("--stats", action="store_true",
                   help="warnings per rule over every .s file under the FILE folders (a precision report)")
    add_progress_option(p)


def diagnostic_json(d: Diagnostic) -> dict:
    """The JSON object of one diagnostic, with exactly the documented fields."""
    extra = d.extra or {}
    full = {
        "file": d.span.file if d.span else None,
        "line": d.span.line if d.span else None,
        "column": d.span.column if d.span else None,
        "severity": d.severity,
        "rule": d.rule,
        # span-less notes carry the arithmetic and the fix; the macro instantiation lines tell two
        # warnings at the same macro-body line apart (the JSON fields are fixed, so they go here)
        "message": "; ".join([d.message + "".join(
            [f" (while in macro instantiation at line {n.span.line})" for n in d.notes
             if n.span is not None and n.message == "while in macro instantiation"][:1])]
            + [n.message for n in d.notes if n.span is None]),
        "producer": extra.get("producer"),
        "required_wait_states": extra.get("required_wait_states"),
        "provided_wait_states": extra.get("provided_wait_states"),
        "fix": extra.get("fix"),
    }
    return {k: full[k] for k in JSON_FIELDS}


def _read(path: str) -> tuple[str, bytes]:
    if path == "-":
        return "<stdin>", sys.stdin.buffer.read()
    return path, Path(path).read_bytes()


def run(args) -> int:
    if args.explain:
        from ..analysis.explain import all_rule_ids, explain
        print("\n".join(all_rule_ids()) if args.explain == "list" else explain(args.explain))
        return 0
    if not args.files:
        raise GcnemuError("lint needs FILE (or --explain RULE)")
    if args.stats:
        if args.fix:
            raise GcnemuError("--stats counts warnings; it does not combine with --fix")
        from . import lint_stats
        return lint_stats.run(args, progress_wanted(args))
    from ..analysis.fix import fix_text

    from ..analysis.lint import lint
    from ..asm.parse import parse
    from ..asm.validate import program_target, validate
    from ..snippets.launch import launch_facts

    if args.fix:
        if args.output and args.in_place:
            raise GcnemuError("--output and --in-place exclude each other")
        if len(args.files) > 1 and not args.in_place:
            raise GcnemuError("--fix with several files needs --in-place")
        if args.in_place and "-" in args.files:
            raise GcnemuError("--in-place cannot rewrite standard input")
    elif args.output or args.in_place:
        raise GcnemuError("--output and --in-place only make sense with --fix")

    all_diags: list[tuple[str, Diagnostic]] = []
    sources: dict[str, list[str]] = {}
    summaries: list[str] = []
    status = 0
    for path in args.files:
        name, data = _read(path)
        prog = parse(data, name)
        sources[prog.file] = prog.lines
        sources.update(prog.sources)  # included files, for their carets
        target = program_target(prog, args.arch)
        # what llvm-mc would reject is reported as such, and not linted: wait-state distances and
        # counter queues of a program that does not assemble would be guesses
        errors = [d for d in validate(prog, target) if d.severity == "error"]
        if errors:
            all_diags.extend((target, d) for d in errors)
            status = 1
            continue
        if args.fix:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise GcnemuError(f"{name}: not UTF-8 text, cannot fix it in place") from None
            res = fix_text(text, target, name, args.rule, launch=launch_facts(prog))
            if args.in_place:
                if res.text != text:
                    write_output(path, res.text.encode("utf-8"), "the fixed program to")
            elif args.output:
                write_output(args.output, res.text.encode("utf-8"), "the fixed program to")
            else:
                sys.stdout.buffer.write(res.text.encode("utf-8"))
                sys.stdout.flush()
            print(f"gcnemu lint: {name}: {res.fixed} edit(s) applied, {len(res.remaining)} hazard(s) left",
                  file=sys.stderr)
            all_diags.extend((target, d) for d in res.remaining)
            if res.remaining:
                status = 1
            continue
        diags = target_id_mismatch(prog, args.arch, target, "linting")
        diags += lint(prog, target, rules=args.rule, hints=args.hints, launch=launch_facts(prog))
        all_diags.extend((target, d) for d in diags)
        if any(d.severity in ("error", "warning") for d in diags):
            status = 1
        summaries.append(_summary(name, target, prog, diags))
    diags = [d for _, d in all_diags]
    if args.format == "json":
        out = json.dumps({"diagnostics": [diagnostic_json(d) for d in diags]}, indent=2)
        print(out, file=sys.stderr if args.fix and not (args.output or args.in_place) else sys.stdout)
    elif args.format == "sarif":
        from ..analysis.sarif import to_sarif
        out = json.dumps(to_sarif(all_diags), indent=2)
        print(out, file=sys.stderr if args.fix and not (args.output or args.in_place) else sys.stdout)
    else:
        print_diagnostics(diags, sources)
        for line in summaries:  # a clean lint says so: silence reads like a tool that did nothing
            print(line, file=sys.stderr)
    return status


def _summary(name: str, target: str, prog, diags: list[Diagnostic]) -> str:
    """One line per linted file, after its diagnostics, as compilers count their warnings."""
    counts = {sev: sum(d.severity == sev for d in diags) for sev in ("warning", "note")}
    found = "no hazards" if not counts["warning"] else f"{counts['warning']} warning(s)"
    return f"gcnemu lint: {name}: {found} ({target}, {len(prog.instructions)} instructions)"
