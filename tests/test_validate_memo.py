"""validate()'s memos change nothing a user sees.

`validate(program, target)` reuses results across lines: a statement repeated
verbatim gets the diagnostics of its first occurrence (moved to its line), and a
valid instruction makes every instruction of the same *shape* valid (same
mnemonic, operand kinds, sizes, alignment and range classes, SGPR aliasing,
offset ranges; see `validate._shape_key`). `memo=False` validates every
instruction from scratch. Both must give the same diagnostics, spans, notes and
rules included, on everything we have: the differential corpus on all four
targets, that corpus with its register numbers, integers and offsets redrawn (so that many
lines share a shape but not their numbers, near every range and alignment edge),
the bundled kernels and the benchmark's generated file.
"""
from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path

import pytest

from gcnemu.asm.parse import parse
from gcnemu.asm.validate import validate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
import gen_lines  # noqa: E402

TARGETS = gen_lines.TARGETS


def _key(d):
    return (d.severity, d.message, d.span, d.rule, [_key(n) for n in d.notes], d.extra)


def _same(text: str, target: str, file: str = "t.s") -> None:
    prog = parse(text, file)
    fast = validate(prog, target)
    slow = validate(prog, target, memo=False)
    assert len(fast) == len(slow), (len(fast), len(slow))
    for a, b in zip(fast, slow):
        assert _key(a) == _key(b), f"memo {a!r}\n  != no memo {b!r}"


_CORPUS: list[str] | None = None


def _corpus() -> list[str]:
    global _CORPUS
    if _CORPUS is None:
        _CORPUS = gen_lines.generate(1234, 6)
    return _CORPUS


@pytest.mark.parametrize("target", TARGETS)
def test_differential_corpus_same_with_and_without_memo(target):
    _same("\n".join(gen_lines.PRELUDE + _corpus()) + "\n", target)


# register numbers near every edge: parity, alignment by 4, the SGPR limits
# (101 usable, 105 in range), ttmp 15, VGPR 255
_INDICES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 14, 15, 16, 17, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106,
            200, 201, 250, 251, 252, 253, 254, 255, 256]
_OFFSETS = [0, 1, 4, 16, 255, 256, 4095, 4096, 8191, -1, -4096, -4097, 65535, 65536, 1048575, 1048576,
            -1048576, -1048577, 0xFFFFFFFF]
_REG = re.compile(r"\b(v|s|a|ttmp)(?:(\d+)|\[(\d+):(\d+)\])(?![\w.$@])")
_OFF = re.compile(r"\b(offset[01]?):(-?(?:0x[0-9a-fA-F]+|\d+))")
_INT = re.compile(r"(?<=[ ,])-?\d+(?=[ \t]*(?:,|$))")
_INTS = ["0", "1", "2", "3", "16", "63", "64", "65", "-1", "-16", "-17", "0x41", "255", "65535", "65536"]


def _redraw(line: str, rng: random.Random) -> str:
    """The same line with other register numbers (same widths), integers and offsets."""
    def reg(m):
        f = m.group(1)
        width = 1 if m.group(2) is not None else int(m.group(4)) - int(m.group(3)) + 1
        i = rng.choice(_INDICES)
        if rng.random() < 0.3:  # often the same register twice (constant bus, MFMA overlap)
            i = rng.choice((0, 2, 4, 8))
        return f"{f}{i}" if m.group(2) is not None else f"{f}[{i}:{i + max(width, 1) - 1}]"

    def off(m):
        return f"{m.group(1)}:{rng.choice(_OFFSETS)}"
    def num(m):
        return rng.choice(_INTS) if rng.random() < 0.7 else m.group(0)
    return _INT.sub(num, _OFF.sub(off, _REG.sub(reg, line)))


@pytest.mark.parametrize("target", TARGETS)
def test_redrawn_numbers_same_with_and_without_memo(target):
    rng = random.Random(7)
    lines = [ln for ln in _corpus() if "SYM_" not in ln]
    out = []
    for ln in lines:
        out.append(ln)
        out += [_redraw(ln, rng) for _ in range(4)]
    _same("\n".join(gen_lines.PRELUDE + out) + "\n", target)


@pytest.mark.parametrize("path", sorted(ROOT.glob("programs/**/*.s")), ids=lambda p: p.name)
def test_bundled_programs_same_with_and_without_memo(path):
    _same(path.read_text(), "gfx942", str(path))
    _same(path.read_text(), "gfx908", str(path))


@pytest.mark.parametrize("target", TARGETS)
def test_benchmark_kernel_same_with_and_without_memo(target):
    spec = importlib.util.spec_from_file_location("bench_parse", ROOT / "benchmarks" / "bench_parse.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    _same(bench.generate(6000, seed=11), target, "bench.s")


_LABEL_LINES = """\
L1:
L2:
quad_perm:
row_shl:
L4 = 8
L5:
.set L5, 3
s_add_u32 s0, L1, L2
s_add_u32 s0, L1, L1
s_add_u32 s0, L2, L2
s_add_u32 s0, L2, L1
s_add_u32 s0, L1, 0x1000
s_add_u32 s0, L1, 5
s_add_u32 s0, L4, L1
s_add_u32 s0, L5, L5
s_add_u32 s0, L5, L1
s_add_u32 s0, L3, L3
s_add_u32 s0, L3, L1
v_mov_b32 v0, L1
v_mov_b32 v0, L2
v_mov_b32 v0, -L1
v_mov_b32 v0, L5
v_mov_b32_e64 v0, L1
v_add_u32 v0, L1, v1
v_add_u32 v0, L2, s0
v_add_u32 v0, L2, v1
v_add_u32 v0, s0, L2
v_add_u32 v0, v2, L1
v_add_co_u32 v0, vcc, L1, v1
v_cndmask_b32 v0, L1, v1, vcc
s_mov_b32 s0, L1
s_mov_b32 s0, L2
s_mov_b32 s0, -L2
s_mov_b32 s0, quad_perm
s_mov_b32 s1, row_shl
s_mov_b32 s0, L3
s_mov_b32 s0, L5
s_branch L1
s_branch L2
s_branch L3
s_branch L4
s_branch L5
s_branch quad_perm
s_cbranch_scc0 L2
s_cbranch_scc0 L9
s_movk_i32 s0, L1
s_movk_i32 s0, L2
v_mov_b32_dpp v0, v1 quad_perm
v_mov_b32_dpp v0, v1 row_shl
v_mov_b32_dpp v0, quad_perm
s_waitcnt L1
s_nop L2
s_load_dword s0, s[0:1], L1
s_load_dword s0, s[0:1], L2
buffer_load_dword v0, off, s[0:3], L1
global_load_dword v0, v[0:1], off offset:L1
L3:
s_add_u32 s0, L3, L1
s_branch L3
"""


@pytest.mark.parametrize("target", TARGETS)
def test_labels_same_with_and_without_memo(target):
    """Labels that are no .set symbol share shapes (names abstracted, their repeats kept)."""
    _same(_LABEL_LINES + _LABEL_LINES.replace("L1", "L2").replace("L3:", "").replace("quad_perm:", ""), target)
