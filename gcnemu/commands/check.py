"""`gcnemu check FILE... [--arch A] [--format text|json]`: syntax and ISA validation."""
from __future__ import annotations

import json

from ..asm.diagnostics import Diagnostic, GcnemuError, has_errors
from ..asm.program import Span
from .common import add_arch, add_format, print_diagnostics

HELP = "parse and validate assembly against a target's ISA (exit 1 on errors)"


def add_arguments(p) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="assembly file(s), '-' for stdin")
    add_arch(p)
    add_format(p)


def run(args) -> int:
    from ..asm.parse import parse_file
    from ..asm.validate import program_target, validate
    all_diags: list[Diagnostic] = []
    sources: dict[str, list[str]] = {}
    for path in args.files:
        try:
            prog = parse_file(path)
            sources[prog.file] = prog.lines
            sources.update(prog.sources)  # included files, for their carets
            all_diags.extend(validate(prog, program_target(prog, args.arch)))
        except (OSError, GcnemuError):
            raise  # the user's own problem (no such file, bad option): reported by the CLI
        except Exception as e:  # noqa: BLE001 - a gcnemu bug: say so in the diagnostic stream, not a traceback
            name = "<stdin>" if str(path) == "-" else str(path)
            all_diags.append(Diagnostic(
                "error", f"internal error while checking this file ({type(e).__name__}: {str(e)[:200]}); "
                "please report it", Span(name, 1, 1, 1, 1), rule="internal"))
    if args.format == "json":
        print(json.dumps({"diagnostics": [d.to_json() for d in all_diags]}, indent=2))
    else:
        print_diagnostics(all_diags, sources)
    return 1 if has_errors(all_diags) else 0
