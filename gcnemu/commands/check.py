"""`gcnemu check FILE... [--arch A] [--format text|json]`: syntax and ISA validation; `--list-unmodelled`
names what check accepts but run cannot execute (in FILE(s), or in the whole target)."""
from __future__ import annotations

import json
import sys

from ..asm.diagnostics import Diagnostic, GcnemuError, has_errors
from ..asm.program import Span
from .common import add_arch, add_format, print_diagnostics, target_id_mismatch

HELP = "parse and validate assembly against a target's ISA (exit 1 on errors)"


def add_arguments(p) -> None:
    p.add_argument("files", nargs="*", metavar="FILE", help="assembly file(s), '-' for stdin")
    add_arch(p)
    add_format(p)
    p.add_argument("--list-unmodelled", action="store_true",
                   help="print, one per line, every mnemonic check accepts but run cannot execute: those used in "
                        "FILE(s), or with no FILE every one of the target's (--arch, default gfx90a); exit 0")


def run(args) -> int:
    if getattr(args, "list_unmodelled", False):
        return _list_unmodelled(args)
    if not args.files:  # (FILE is optional for argparse only because --list-unmodelled needs none)
        print("usage: gcnemu check [-h] [--arch ARCH] [--format {text,json}] [--list-unmodelled] FILE [FILE ...]\n"
              "gcnemu check: error: the following arguments are required: FILE", file=sys.stderr)
        return 2
    all_diags, sources = _check_files(args)
    if args.format == "json":
        print(json.dumps({"diagnostics": [d.to_json() for d in all_diags]}, indent=2))
    else:
        print_diagnostics(all_diags, sources)
    return 1 if has_errors(all_diags) else 0


def _check_files(args) -> tuple[list[Diagnostic], dict[str, list[str]]]:
    """Every file's diagnostics, and the source lines their carets need."""
    from ..asm.parse import parse_file
    from ..asm.validate import program_target, validate
    all_diags: list[Diagnostic] = []
    sources: dict[str, list[str]] = {}
    for path in args.files:
        try:
            prog = parse_file(path)
            sources[prog.file] = prog.lines
            sources.update(prog.sources)  # included files, for their carets
            target = program_target(prog, args.arch)
            diags = target_id_mismatch(prog, args.arch, target) + validate(prog, target)
            if prog.directive(".amdgpu_metadata") is not None:  # llvm-mc verifies it at .end_amdgpu_metadata
                from ..asm.kernels import verify_metadata
                diags += verify_metadata(prog)
            if not has_errors(diags):  # a file llvm-mc accepts: does its code fit its descriptor?
                from ..launch import budget_warnings
                diags += budget_warnings(prog, target)
            all_diags.extend(diags)
        except (OSError, GcnemuError):
            raise  # the user's own problem (no such file, bad option): reported by the CLI
        except Exception as e:  # noqa: BLE001 - a gcnemu bug: say so in the diagnostic stream, not a traceback
            name = "<stdin>" if str(path) == "-" else str(path)
            all_diags.append(Diagnostic(
                "error", f"internal error while checking this file ({type(e).__name__}: {str(e)[:200]}); "
                "please report it", Span(name, 1, 1, 1, 1), rule="internal"))
    return all_diags, sources


def _list_unmodelled(args) -> int:
    """The mnemonics check accepts and run does not execute (gcnemu.isa.modelled decides), sorted:
    of the instructions FILE(s) use that validate, or every mnemonic of the target without FILE."""
    from ..isa import modelled, opcodes
    from ..isa.targets import DEFAULT_TARGET, get_target
    if args.files:
        diags, _ = _check_files(args)
        names = set()
        for d in diags:
            if d.rule == "not-modelled":  # validate's note on an instruction it accepted
                m = d.message.split(": ", 1)[-1].split(" (", 1)[0].strip().lower()
                if " " in m:  # a form run does not execute ("ds_write_b32 gds"), listed as such
                    names.add(m)
                elif not modelled.executes(m):
                    names.add(opcodes.base_mnemonic(m)[0])
        errors = sum(d.severity == "error" for d in diags)
        if errors:
            print(f"gcnemu: {errors} error(s) in the input, whose instructions are not listed: "
                  f"'gcnemu check' shows them", file=sys.stderr)
    else:
        names = set(modelled.unmodelled(get_target(args.arch).name if args.arch else DEFAULT_TARGET))
    listed = sorted(names)
    if args.format == "json":
        print(json.dumps({"unmodelled": listed}, indent=2))
    else:
        for m in listed:
            print(m)
    return 0
