"""Pieces every command shares: --arch/--format options, printing diagnostics, loading a kernel."""
from __future__ import annotations

import argparse
import sys

from ..asm.diagnostics import Diagnostic, GcnemuError, render
from ..isa.targets import TARGETS

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
