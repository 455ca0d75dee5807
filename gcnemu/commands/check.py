"""`gcnemu check FILE... [--arch A] [--format text|json]`: syntax and ISA validation."""
from __future__ import annotations

import json

from ..diagnostics import Diagnostic, has_errors
from .common import add_arch, add_format, print_diagnostics

HELP = "parse and validate assembly against a target's ISA (exit 1 on errors)"


def add_arguments(p) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="assembly file(s), '-' for stdin")
    add_arch(p)
    add_format(p)


def run(args) -> int:
    from ..parse import parse_file
    from ..validate import program_target, validate
    all_diags: list[Diagnostic] = []
    sources: dict[str, list[str]] = {}
    for path in args.files:
        prog = parse_file(path)
        sources[prog.file] = prog.lines
        all_diags.extend(validate(prog, program_target(prog, args.arch)))
    if args.format == "json":
        print(json.dumps({"diagnostics": [d.to_json() for d in all_diags]}, indent=2))
    else:
        print_diagnostics(all_diags, sources)
    return 1 if has_errors(all_diags) else 0
