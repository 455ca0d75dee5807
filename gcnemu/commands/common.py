"""Pieces every command shares: --arch/--format options, printing diagnostics, loading a kernel."""
from __future__ import annotations

import argparse
import sys

from ..asm.diagnostics import Diagnostic, GcnemuError, render
from ..isa.targets import TARGETS

ARCH_CHOICES = sorted(TARGETS) + ["gfx940", "gfx941"]


def add_arch(p: argparse.ArgumentParser) -> None:
    p.add_argument("--arch", choices=ARCH_CHOICES, default=None,
                   help="target GPU (default: the file's .amdgcn_target, else gfx90a)")


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
