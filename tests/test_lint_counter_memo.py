"""The counter checks are memoised (issue 16: code with a branch every few instructions reaches
each instruction with several queue states, and the checks were redone for every one). The
memo must not change a single verdict: for every instruction and every state the analysis
reaches it with, the findings equal the definition below, computed without any cache; and
whole-program lint with the caches disabled gives the same diagnostics."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gcnemu.analysis import counters as counters_mod
from gcnemu.analysis.lint import analyze_program, lint
from gcnemu.asm.parse import parse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_lint  # noqa: E402

TENSILE = ROOT / "tests/corpus/tensile/Custom_Cijk_Alik_Bljk_HHS_BH_UserArgs_MT128x16x128_MI16x16x1_SN_K1_MIWT2_1_triple_buffer.s"
MIOPEN = ROOT / "tests/corpus/miopen/conv1x1u.s"


def _programs():
    yield "branchy", bench_lint.branchy(700), "gfx942"
    yield "branchy-loads", bench_lint.branchy(160, conditional_loads=True), "gfx942"
    yield "generated", bench_lint.kernel(600), "gfx90a"
    yield "tensile", TENSILE.read_bytes(), "gfx942"


def _reference(facts, f, state) -> set[tuple]:
    """Queue-reading findings of ``f`` by definition: an outstanding operation returns into a
    register ``f`` reads (or overwrites, unless ``f`` is a later op of the same in-order queue)."""
    out = set()
    for q, counter in ((state[0], "vm"), (state[1], "lgkm")):
        for pos, idx in enumerate(q):
            op = facts[idx]
            rets = op.mem.returns
            needed = len(q) - 1 - pos if counter == "vm" else counters_mod._lgkm_needed(q, pos, facts)
            if any(a.reg.overlaps(r) for a in f.reads for r in rets):
                rule = ("vmem-result-before-vmcnt" if counter == "vm" else
                        "smem-result-before-lgkmcnt" if op.mem.kind == "smem" else "ds-result-before-lgkmcnt")
                out.add((rule, idx, needed))
            for a in f.writes:
                if not any(a.reg.overlaps(r) for r in rets):
                    continue
                m = f.mem
                if m is not None and m.counter == counter and a.explicit and (
                        counter == "vm" or (m.kind.startswith("ds") and op.mem.kind.startswith("ds"))):
                    continue
                out.add(("vmem-dst-overwrite-before-vmcnt" if counter == "vm" else
                         "lgkm-dst-overwrite-before-lgkmcnt", idx, needed))
                break
    return out


_QUEUE_RULES = {"vmem-result-before-vmcnt", "smem-result-before-lgkmcnt", "ds-result-before-lgkmcnt",
                "vmem-dst-overwrite-before-vmcnt", "lgkm-dst-overwrite-before-lgkmcnt"}


@pytest.mark.parametrize("name,text,target", list(_programs()), ids=lambda x: x if isinstance(x, str) and len(x) < 20 else "")
def test_memoised_checks_equal_the_definition_for_every_state(name, text, target):
    an = analyze_program(parse(text, f"{name}.s"), target)
    ca = an.counters
    seen_multi = 0
    for i, states in ca.states_before():
        f = an.facts[i]
        if f.waitcnt is not None:
            continue
        seen_multi += len(states) > 1
        for st in states:
            # the tightest finding per rule and counter, as check() keeps it
            want: dict[str, tuple] = {}
            for rule, idx, needed in sorted(_reference(an.facts, f, st), key=lambda t: (t[2], -t[1])):
                want.setdefault(rule, (idx, needed))
            got = {h.rule: h.needed for h in ca.check(f, (st,)) if h.rule in _QUEUE_RULES}
            assert got == {r: n for r, (_, n) in want.items()}, (name, i, st)
            again = {h.rule: h.needed for h in ca.check(f, (st,)) if h.rule in _QUEUE_RULES}
            assert again == got  # from the memo
    if name == "branchy-loads":
        assert seen_multi > 50  # the case the memo is for: many points with several states


class _NoMemo(dict):
    """A dict that forgets: every lookup misses, so every check is computed afresh."""

    def get(self, key, default=None):
        return default

    def __setitem__(self, key, value):
        pass


@pytest.mark.parametrize("name,text,target", list(_programs()) + [("miopen", MIOPEN.read_bytes(), "gfx908")],
                         ids=lambda x: x if isinstance(x, str) and len(x) < 20 else "")
def test_lint_is_the_same_with_the_caches_off(name, text, target, monkeypatch):
    def key(d):
        return (d.span.line if d.span else 0, d.rule, d.severity, d.message)

    memo = sorted(map(key, lint(parse(text, f"{name}.s"), target)))
    original_init = counters_mod.CounterAnalysis.__init__

    def init(self, *a, **k):
        original_init(self, *a, **k)
        self._state_memo, self._pair_memo = _NoMemo(), _NoMemo()
        self._units_memo, self._ret_memo = _NoMemo(), _NoMemo()

    monkeypatch.setattr(counters_mod.CounterAnalysis, "__init__", init)
    fresh = sorted(map(key, lint(parse(text, f"{name}.s"), target)))
    assert memo == fresh
    if name == "branchy":
        assert any(k[1] == "vmem-result-before-vmcnt" for k in memo)  # the program does exercise the checks
