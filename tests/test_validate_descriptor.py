"""`.amdhsa_kernel` blocks are checked as llvm-mc 22 checks them, error recovery included.

llvm-mc abandons a block at its first bad line, so the block's later `.amdhsa_*` lines and its
`.end_amdhsa_kernel` become "unknown directive" errors; a block that parses is checked at its end
for the required directives and, on gfx90a+, for `.amdhsa_accum_offset`. Real MIOpen kernels
written for gfx908 hit exactly these when assembled for gfx90a; a differential that disagreed on
them counted dozens of files as mismatches.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from gcnemu.asm.parse import parse_file
from gcnemu.asm.validate import validate

FILE = Path(__file__).parent / "descriptor" / "blocks.s"
LLVM_MC = shutil.which("llvm-mc-22") or "/usr/lib/llvm-22/bin/llvm-mc"

# what llvm-mc 22 prints for tests/descriptor/blocks.s (line:column: message)
COMMON_HEAD = ["8:3: .amdhsa_reserve_xnack_mask does not match target id", "9:3: unknown directive",
               "10:3: unknown directive", "11:1: unknown directive", "15:19: .amdhsa_next_free_vgpr directive is required"]
COMMON_TAIL = ["30:21: .amdhsa_ directives cannot be repeated", "31:3: unknown directive", "32:1: unknown directive"]
EXPECTED = {
    "gfx908": COMMON_HEAD + ["19:3: directive requires gfx90a+", "20:1: unknown directive",
                             "24:3: directive requires gfx90a+", "25:1: unknown directive"] + COMMON_TAIL,
    "gfx90a": COMMON_HEAD + ["20:19: accum_offset should be in range [4..256] in increments of 4",
                             "25:19: accum_offset exceeds total VGPR allocation"] + COMMON_TAIL,
}


def errors(target: str) -> list[str]:
    return [f"{d.span.line}:{d.span.column}: {d.message}" for d in validate(parse_file(str(FILE)), target)
            if d.severity == "error"]


@pytest.mark.parametrize("target", sorted(EXPECTED))
def test_each_block_error_and_its_recovery_match_llvm_mc(target):
    assert errors(target) == EXPECTED[target]


def test_gfx942_needs_accum_offset_like_gfx90a():
    assert errors("gfx942") == EXPECTED["gfx90a"]


@pytest.mark.skipif(not Path(LLVM_MC).exists(), reason="llvm-mc 22 not installed")
@pytest.mark.parametrize("target", ["gfx908", "gfx90a", "gfx942", "gfx950"])
def test_the_expected_lists_are_what_llvm_mc_says(target):
    r = subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=obj", "-o", "/dev/null",
                        str(FILE)], capture_output=True, text=True)
    theirs = [line.split(":", 1)[1].replace(" error:", "") for line in r.stderr.splitlines() if ": error: " in line]
    assert theirs == errors(target)
