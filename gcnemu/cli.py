"""The `gcnemu` command line. Presentation only: every command calls the public API."""
from __future__ import annotations

import argparse
import json
import sys

from . import __version__
from .diagnostics import Diagnostic, GcnemuError, has_errors, render
from .isa.targets import TARGETS


def _add_common(p: argparse.ArgumentParser, formats=("text", "json")) -> None:
    p.add_argument("--arch", choices=sorted(TARGETS) + ["gfx940", "gfx941"], default=None,
                   help="target GPU (default: .amdgcn_target of the file, else gfx90a)")
    p.add_argument("--format", choices=formats, default="text")


def _print_diags(diags: list[Diagnostic], lines_for, out=sys.stderr) -> None:
    for d in diags:
        print(render(d, lines_for(d.span.file) if d.span else None), file=out)


def cmd_check(args) -> int:
    from .parse import parse_file
    from .validate import program_target, validate
    all_diags: list[Diagnostic] = []
    sources: dict[str, list[str]] = {}
    for path in args.files:
        prog = parse_file(path)
        sources[prog.file] = prog.lines
        target = program_target(prog, args.arch)
        all_diags.extend(validate(prog, target))
    if args.format == "json":
        print(json.dumps({"diagnostics": [d.to_json() for d in all_diags]}, indent=2))
    else:
        _print_diags(all_diags, sources.get)
    return 1 if has_errors(all_diags) else 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gcnemu", description=__doc__)
    p.add_argument("--version", action="version", version=f"gcnemu {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    c = sub.add_parser("check", help="parse and validate assembly against a target's ISA")
    c.add_argument("files", nargs="+", metavar="FILE", help="assembly file(s), '-' for stdin")
    _add_common(c)
    c.set_defaults(func=cmd_check)
    try:
        from . import layout_view
        lp = sub.add_parser("layout", help="MFMA register/lane layouts and instruction facts")
        layout_view.add_arguments(lp)
        lp.set_defaults(func=layout_view.run)
    except ImportError:
        pass
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except GcnemuError as e:
        for d in e.diagnostics:
            print(render(d, None), file=sys.stderr)
        if not e.diagnostics:
            print(f"gcnemu: error: {e}", file=sys.stderr)
        return 1
    except FileNotFoundError as e:
        print(f"gcnemu: error: {e.filename}: no such file", file=sys.stderr)
        return 1
    except IsADirectoryError as e:
        print(f"gcnemu: error: {e.filename}: is a directory", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("gcnemu: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
