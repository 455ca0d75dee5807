"""Validation of a parsed Program against one target's ISA tables.

Produces diagnostics in llvm-mc's wording where llvm-mc has one, so that
`gcnemu check` agrees with `llvm-mc -mcpu=<target>` on the subset we model.
"""
from __future__ import annotations

from .diagnostics import Diagnostic
from .isa import opcodes
from .isa.targets import DEFAULT_TARGET, get_target, target_from_directive
from .program import Instruction, Program


def program_target(program: Program, requested: str | None) -> str:
    """--arch wins; else `.amdgcn_target`; else the default (gfx90a)."""
    if requested:
        return get_target(requested).name
    d = program.directive(".amdgcn_target")
    if d and d.args:
        found = target_from_directive(d.args[0])
        if found:
            return found
    return DEFAULT_TARGET


def validate(program: Program, target: str) -> list[Diagnostic]:
    """All diagnostics for the program on `target` (parse diagnostics included)."""
    diags = list(program.diagnostics)
    for ins in program.instructions:
        diags.extend(validate_instruction(ins, target))
    return diags


def validate_instruction(ins: Instruction, target: str) -> list[Diagnostic]:
    info = opcodes.lookup(ins.mnemonic)
    if info is None:
        return [Diagnostic("error", "invalid instruction", ins.mnemonic_span)]
    return []
