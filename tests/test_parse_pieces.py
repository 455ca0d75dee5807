"""The piece path and the recipes of the parser build exactly what `_fast_instruction` builds.

`parse()` reads most lines through a cache of comma pieces and builds objects from
line-free recipes (see "recipes and the piece path" in gcnemu/parse.py). The piece path
may decline a line (it then goes to `_fast_instruction`), but whatever it accepts must be
object for object, span for span, what `_fast_instruction` makes of the line; and a recipe
taken from an instruction must rebuild that instruction on any line. tests/test_parse_fastpath.py
compares whole parses with the grammar; this file pins the layers one by one, on the same
corpora plus randomly damaged lines.
"""
from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import random
import sys
from pathlib import Path

import pytest

from gcnemu.asm.program import Imm, Instruction, Reg, Span

P = importlib.import_module("gcnemu.asm.parse")  # the module (gcnemu.asm.parse is also the function)
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
import gen_lines  # noqa: E402


def _bench_text(lines: int, seed: int) -> str:
    spec = importlib.util.spec_from_file_location("bench_parse", ROOT / "benchmarks" / "bench_parse.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench.generate(lines, seed=seed)


def _damaged(lines: list[str], seed: int) -> list[str]:
    rng = random.Random(seed)
    alphabet = " \t,:-[]()&|~!+*x0123456789vsa._\"'@$%^=<>{}\\\x0c\x0b\u00a0"
    out = []
    for ln in lines:
        for _ in range(rng.randrange(0, 3)):
            i = rng.randrange(len(ln) + 1)
            c = rng.choice(alphabet)
            ln = [ln[:i] + c + ln[i:], ln[:i] + ln[i + 1:], ln[:i] + c + ln[i + 1:]][rng.randrange(3)]
        out.append(ln)
    return out


def _instruction_lines(text: str):
    """(code, start column, end column) of the lines `_parse` would hand to the instruction paths."""
    for raw in text.split("\n"):
        code, _ = P._strip_comment(raw, False)
        stripped = code.strip()
        if not stripped or stripped.startswith(".") or ":" in code and P._LABEL_RE.match(code) \
                or "=" in code and P._SET_RE.match(code) or '"' in raw or "/*" in raw:
            continue
        yield code, len(code) - len(code.lstrip()) + 1, len(code.rstrip()) + 1


def _corpus() -> list[str]:
    texts = [_bench_text(3000, 11), "\n".join(gen_lines.PRELUDE + gen_lines.generate(99, 2))]
    texts += [p.read_text() for p in sorted(ROOT.glob("programs/**/*.s"))]
    lines = "\n".join(texts).split("\n")
    return lines + _damaged(lines, 5) + _damaged(lines, 6)


CORPUS = _corpus()


def test_the_piece_path_builds_what_the_fast_path_builds():
    taken = 0
    for code, start, end in _instruction_lines("\n".join(CORPUS)):
        recipe = P._piece_recipe(code, start, end)
        if recipe is None:
            continue
        taken += 1
        ins = P._build(recipe, "t.s", 7, 3)
        ref = P._fast_instruction(code, "t.s", 7)
        assert ref is not None, f"the piece path took {code!r}, the fast path declines it"
        ref.span, ref.index = Span("t.s", 7, start, 7, end), 3
        assert ins == ref, f"{code!r}: piece path {ins!r} != fast path {ref!r}"
    assert taken > 5000  # most lines take the piece path


def test_a_recipe_rebuilds_its_instruction_on_another_line():
    for code, start, end in _instruction_lines("\n".join(CORPUS)):
        ins = P._fast_instruction(code, "t.s", 7)
        if ins is None:
            continue
        ins.span, ins.index = Span("t.s", 7, start, 7, end), 0
        recipe = P._recipe_of(ins, start, end)
        if recipe is None:
            continue
        moved = P._build(recipe, "t.s", 12, 5)
        assert moved == P._relocate_instruction(ins, 12, 5), code


def test_a_line_seen_again_parses_as_the_first_time():
    """The statement memo: the file twice over, the second copy built from the first copy's
    recipes (or relocated), must be the first copy moved down."""
    # (no assignments: in the second copy their symbols have values, and llvm-mc folds them)
    lines = [ln for ln in CORPUS[:len(CORPUS) // 3]
             if "/*" not in ln and '"' not in ln and "=" not in ln and not ln.lstrip().startswith(".")]
    n = len(lines)
    once = P.parse("\n".join(lines) + "\n", "t.s")
    twice = P.parse("\n".join(lines + lines) + "\n", "t.s")
    first, both = once.instructions, twice.instructions
    m = len(first)
    assert len(both) == 2 * m and len(twice.diagnostics) == 2 * len(once.diagnostics)
    assert both[:m] == first
    for k, ins in enumerate(first):
        assert both[m + k] == P._relocate_instruction(ins, ins.span.line + n, m + k)


@pytest.mark.parametrize("make, cls, args", [
    ("_make_reg", Reg, ("v", 4, 4)), ("_make_imm", Imm, (5, "5", None)),
])
def test_draft_built_objects_are_genuine_frozen_instances(make, cls, args):
    obj = getattr(P, make)(*args, "t.s", 3, 5, 11)
    assert type(obj) is cls and type(obj.span) is Span
    assert obj.span == Span("t.s", 3, 5, 3, 11) and hash(obj.span) == hash(Span("t.s", 3, 5, 3, 11))
    with pytest.raises(dataclasses.FrozenInstanceError):
        obj.span = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        obj.span.line = 4


@pytest.mark.parametrize("line", [
    "s_mov_b32 s0" + " " * 40000 + ", s1",
    "v_add_u32 v0, v1" + "\t" * 40000 + ", v2",
    "v_add_u32 v0," + " " * 40000 + ",v1",
])
def test_a_long_blank_run_before_a_comma_is_linear(line):
    """A piece ending in blanks once made the unit regex retry at every blank (25 s for 40k)."""
    import time
    t = time.process_time()
    prog = P.parse(line + "\n", "t.s")
    assert time.process_time() - t < 2.0
    assert prog.statements or prog.diagnostics
