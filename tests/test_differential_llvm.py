"""gcnemu's accept/reject verdict agrees with llvm-mc 22, line by line, on all four targets.

The lines come from `tests/gen_lines.py`: every row of the instruction table,
written canonically and mutated (register widths, alignment, register files,
constants, offsets, counters, modifiers, spellings, upper case, missing
commas...), plus fixed families (s_waitcnt, branches, symbols, a constant
matrix). All lines go to one llvm-mc process per target (`-filetype=obj`, so
undefined branch labels are errors as they are for gcnemu); llvm-mc continues
after errors and its `<stdin>:LINE:COL: error:` messages map back to lines.

A line is *rejected* when there is at least one error on it. The test fails on
any disagreement and prints the first ones with both messages.

Environment:
  GCNEMU_LLVM_MC            path of llvm-mc (default /usr/lib/llvm-22/bin/llvm-mc)
  GCNEMU_DIFF_SEED          generator seed (default 1234)
  GCNEMU_DIFF_VARIANTS      mutated lines per row (default 6; try 40 for a long manual run)
Run as a script (`python tests/test_differential_llvm.py [target...]`) for a report.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_lines  # noqa: E402

from gcnemu.asm.parse import parse  # noqa: E402
from gcnemu.asm.validate import validate  # noqa: E402

LLVM_MC = os.environ.get("GCNEMU_LLVM_MC", "/usr/lib/llvm-22/bin/llvm-mc")
SEED = int(os.environ.get("GCNEMU_DIFF_SEED", "1234"))
VARIANTS = int(os.environ.get("GCNEMU_DIFF_VARIANTS", "6"))
TARGETS = gen_lines.TARGETS
_DIAG = re.compile(r"^<stdin>:(\d+):(\d+): (error|warning|note): (.*)$", re.M)


def llvm_mc_version() -> int | None:
    if not (os.path.exists(LLVM_MC) or shutil.which(LLVM_MC)):
        return None
    try:
        out = subprocess.run([LLVM_MC, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"LLVM version (\d+)", out)
    return int(m.group(1)) if m else None


def _run_llvm_mc(text: str, target: str) -> dict[int, str]:
    proc = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-filetype=obj", "-o", os.devnull],
                          input=text, capture_output=True, text=True, timeout=600)
    if proc.returncode < 0 or "Stack dump" in proc.stderr:
        raise RuntimeError(f"llvm-mc crashed on {target}:\n{proc.stderr[-2000:]}")
    out: dict[int, str] = {}
    for m in _DIAG.finditer(proc.stderr):
        if m.group(3) == "error":
            out.setdefault(int(m.group(1)), f"{m.group(2)}: {m.group(4)}")
    return out


def llvm_errors(text: str, target: str) -> dict[int, str]:
    """line -> first error message of llvm-mc on that line.

    llvm-mc reports some errors (undefined labels) only while writing the object,
    which it skips once any line had an error. So the branches it accepted go
    through a second run on their own (other lines blanked, line numbers kept).
    Only branches to labels: relocations of odd literals (`v_mov_b32 v0, off`)
    and branches to symbols defined later crash llvm-mc 22's object writer."""
    first = _run_llvm_mc(text, target)
    lines = text.split("\n")
    kept = "\n".join(ln if i + 1 not in first and _BRANCH.match(ln) and "SYM_LATER" not in ln or not ln.strip() or
                     ln.split()[0].startswith(".") or ln.rstrip().endswith(":") or "=" in ln.split(";")[0] and
                     not ln.split()[0].lower().startswith(("s_", "v_", "ds_", "buffer_", "global_", "flat_"))
                     else "" for i, ln in enumerate(lines))
    second = _run_llvm_mc(kept, target)
    first.update(second)
    return first


_BRANCH = re.compile(r"\s*s_(c?branch|call)", re.I)


def gcnemu_errors(text: str, target: str) -> dict[int, str]:
    prog = parse(text, "<stdin>")
    out: dict[int, str] = {}
    for d in validate(prog, target):
        if d.severity == "error" and d.span is not None:
            out.setdefault(d.span.line, f"{d.span.column}: {d.message}")
    return out


def compare(lines: list[str], target: str) -> tuple[int, list[tuple[int, str, str | None, str | None]]]:
    """(number of lines compared, disagreements as (line number, text, llvm error, gcnemu error))."""
    prelude = gen_lines.PRELUDE
    text = "\n".join(prelude + lines) + "\n"
    ref = llvm_errors(text, target)
    ours = gcnemu_errors(text, target)
    bad = []
    first = len(prelude) + 1
    for i, line in enumerate(lines):
        n = first + i
        if (n in ref) != (n in ours):
            bad.append((n, line, ref.get(n), ours.get(n)))
    return len(lines), bad


_LINES: list[str] | None = None


def _lines() -> list[str]:
    global _LINES
    if _LINES is None:
        _LINES = gen_lines.generate(SEED, VARIANTS)
    return _LINES


needs_llvm = pytest.mark.skipif(llvm_mc_version() != 22, reason=f"llvm-mc 22 not found at {LLVM_MC}")


@needs_llvm
def test_generator_covers_the_table_with_thousands_of_lines():
    lines = _lines()
    assert len(lines) > 5000
    from gcnemu.isa import opcodes
    mnemonics_used = {ln.split()[0].lower() for ln in lines if ln.strip()}
    missing = [m for m in opcodes.table() if m not in mnemonics_used]
    assert not missing, f"table rows without generated lines: {missing[:10]}"


@needs_llvm
@pytest.mark.parametrize("target", TARGETS)
def test_verdicts_agree_with_llvm_mc(target):
    n, bad = compare(_lines(), target)
    rate = 100.0 * (n - len(bad)) / n
    print(f"\n{target}: {n - len(bad)}/{n} lines agree with llvm-mc 22 ({rate:.2f}%)")
    report = "\n".join(f"  line {ln}: {text!r}\n      llvm-mc: {r}\n      gcnemu:  {o}" for ln, text, r, o in bad[:25])
    assert not bad, f"{len(bad)} disagreements on {target} ({rate:.2f}% agreement):\n{report}"


@needs_llvm
def test_both_verdicts_occur_in_the_corpus():
    """The corpus is not trivially all-valid or all-invalid: llvm-mc rejects a good share of it."""
    lines = _lines()
    ref = llvm_errors("\n".join(gen_lines.PRELUDE + lines) + "\n", "gfx90a")
    share = len(ref) / len(lines)
    assert 0.2 < share < 0.8, share


def main(argv: list[str]) -> int:
    targets = argv or list(TARGETS)
    if llvm_mc_version() != 22:
        print(f"llvm-mc 22 not found at {LLVM_MC}", file=sys.stderr)
        return 2
    lines = _lines()
    total_bad = 0
    for t in targets:
        n, bad = compare(lines, t)
        total_bad += len(bad)
        print(f"{t}: {n - len(bad)}/{n} agree ({100.0 * (n - len(bad)) / n:.2f}%)")
        for ln, text, r, o in bad:
            print(f"  {text!r}\n      llvm-mc: {r}\n      gcnemu:  {o}")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
