"""The `gcnemu` command line. Presentation only: every command calls the public API.

Commands live in their own modules (gcnemu/commands/*.py, gcnemu/layout_view.py),
each with HELP, add_arguments(parser) and run(args) -> exit code.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from .asm.diagnostics import GcnemuError, render

COMMANDS = [
    ("check", "gcnemu.commands.check"),
    ("run", "gcnemu.commands.run"),
    ("lint", "gcnemu.commands.lint"),
    ("step", "gcnemu.commands.step"),
    ("test", "gcnemu.commands.test"),
    ("layout", "gcnemu.views.layout"),
    ("timeline", "gcnemu.commands.timeline"),
]


class _SourceFiles(dict):
    """file -> its lines, read on first use (None when it cannot be read), for rendering."""

    def get(self, file, default=None):
        if file not in self:
            try:
                with open(file, "rb") as fh:
                    self[file] = fh.read().decode("utf-8", "replace").replace("\r\n", "\n").split("\n")
            except (OSError, TypeError, ValueError):
                self[file] = None
        return self[file]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gcnemu",
                                description="Pipeline and s_waitcnt emulator for AMD CDNA GPUs "
                                            "(gfx908, gfx90a, gfx942, gfx950).")
    p.add_argument("--version", action="version", version=f"gcnemu {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, modname in COMMANDS:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name == modname:
                continue  # command not built yet
            raise
        sp = sub.add_parser(name, help=getattr(mod, "HELP", None))
        mod.add_arguments(sp)
        sp.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="search DIR for .include files after the including file's folder (as llvm-mc -I)")
        sp.add_argument("--defsym", dest="defsyms", action="append", default=[], metavar="NAME=VALUE",
                        help="define an absolute symbol before the file is read (as llvm-mc --defsym)")
        sp.add_argument("--color", "--colour", dest="color", choices=("auto", "always", "never"), default="auto",
                        help="colour diagnostics as llvm-mc does: on a terminal (auto, unless NO_COLOR is set), "
                             "always, or never")
        sp.set_defaults(func=mod.run)
    return p


def use_color(choice: str, env=None, streams=None) -> bool:
    """`--color`: always and never say it; auto colours only when both output streams are
    terminals (diagnostics go to either), NO_COLOR is unset or empty (no-color.org) and TERM is
    not dumb."""
    import os
    env = os.environ if env is None else env
    if choice != "auto":
        return choice == "always"
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    streams = (sys.stdout, sys.stderr) if streams is None else streams
    return all(getattr(s, "isatty", lambda: False)() for s in streams)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from .asm import diagnostics as _diagnostics
    _diagnostics.COLOR = use_color(getattr(args, "color", "never"))
    from .asm import parse as _parse
    _parse.INCLUDE_DIRS[:] = getattr(args, "include_dirs", []) or []
    from .asm import resolve as _resolve
    arch = getattr(args, "arch", None)
    _resolve.TARGET_FEATURES.clear()
    if arch and ":" in arch:  # a target id: the features hold for every file, as llvm-mc's -mattr
        arch, *features = arch.split(":")
        _resolve.TARGET_FEATURES.update({f[:-1]: f[-1] == "+" for f in features})
        args.arch = arch
    _parse.TARGET = arch
    _parse.DEFSYMS.clear()
    for text in getattr(args, "defsyms", []) or []:
        name, eq, value = text.partition("=")
        try:
            from .asm.expr import evaluate
            if not eq or not name.strip():
                raise ValueError
            _parse.DEFSYMS[name.strip()] = evaluate(value, {})
        except Exception:
            print(f"gcnemu: error: --defsym {text}: expected NAME=VALUE with an integer VALUE", file=sys.stderr)
            return 2
    try:
        return args.func(args)
    except GcnemuError as e:
        sources = _SourceFiles()
        for d in e.diagnostics:
            print(render(d, sources.get(d.span.file) if d.span is not None else None, sources=sources),
                  file=sys.stderr)
        if not e.diagnostics:
            print(f"gcnemu: error: {e}", file=sys.stderr)
        return 1
    except FileNotFoundError as e:
        print(f"gcnemu: error: {e.filename}: no such file", file=sys.stderr)
        return 1
    except IsADirectoryError as e:
        print(f"gcnemu: error: {e.filename}: is a directory", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except OSError as e:  # a file that cannot be read (permissions, not a directory, an I/O error)
        reason = e.strerror or str(e)
        reason = reason[:1].lower() + reason[1:]
        print(f"gcnemu: error: {e.filename}: {reason}" if e.filename else f"gcnemu: error: {reason}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("gcnemu: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
