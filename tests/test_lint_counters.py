"""Counter rules: hand-written positive/negative cases (tests/hazard_cases/counters.toml).

Each positive must be reported with its rule at the marked consumer line, the
note at the marked producer, and the counter arithmetic must name the
tightest field (`use vmcnt(2)`); the negative twin must lint clean; `--fix`
of the positive must lint clean and (like every case) assemble with llvm-mc.
"""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gcnemu.analysis.fix import fix_text
from gcnemu.analysis.lint import lint
from gcnemu.isa.hazard_rules import TARGETS, counter_rules_for
from gcnemu.parse import parse
from test_lint_rules import HAVE_MC, _assemble

CASES = tomllib.loads((Path(__file__).parent / "hazard_cases" / "counters.toml").read_text())["case"]
PARAMS = [(c, t) for c in CASES for t in c.get("targets", TARGETS)]
IDS = [f"{c['name']}@{t}" for c, t in PARAMS]


def _prog(body: str) -> str:
    return "\t.text\nkernel:\n" + body.strip("\n") + "\n"


def _marked(text: str, mark: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if f"; {mark}" in ln)


def test_every_counter_rule_has_a_case():
    for t in TARGETS:
        assert {r.id for r in counter_rules_for(t)} <= {c["rule"] for c, tt in PARAMS if tt == t}


@pytest.mark.parametrize("case,target", PARAMS, ids=IDS)
def test_positive_is_reported_with_the_tightest_wait(case, target):
    text = _prog(case["positive"])
    diags = [d for d in lint(parse(text, "c.s"), target) if d.severity == "warning"]
    hits = [d for d in diags if d.rule == case["rule"]]
    assert len(hits) == 1, [d.message for d in diags]
    d = hits[0]
    assert d.span.line == _marked(text, "@consumer")
    assert d.notes[0].span.line == _marked(text, "@producer")
    arithmetic = d.notes[-1].message
    assert f"use {case['use']}" in arithmetic or f"use s_waitcnt {case['use']}" in arithmetic
    assert d.extra["required_wait_states"] is None and d.extra["fix"]


@pytest.mark.parametrize("case,target", PARAMS, ids=IDS)
def test_negative_twin_is_clean(case, target):
    diags = [d for d in lint(parse(_prog(case["negative"]), "c.s"), target) if d.severity == "warning"]
    assert diags == []


@pytest.mark.parametrize("case,target", PARAMS, ids=IDS)
def test_fix_round_trip(case, target):
    res = fix_text(_prog(case["positive"]), target, "c.s")
    assert res.remaining == [] and res.fixed >= 1
    assert [d for d in lint(parse(res.text, "c.s"), target) if d.severity == "warning"] == []


def test_issue_example_message():
    case = next(c for c in CASES if c["name"].startswith("vmcnt too weak"))
    d = next(d for d in lint(parse(_prog(case["positive"]), "c.s"), "gfx90a") if d.rule == case["rule"])
    assert ("4 loads outstanding, s_waitcnt vmcnt(3) (line 7) does not cover the one that writes v4; "
            "use vmcnt(2)") in d.notes[-1].message
    # the fix tightens that s_waitcnt in place instead of adding a second one
    fixed = fix_text(_prog(case["positive"]), "gfx90a", "c.s").text
    assert "s_waitcnt vmcnt(2)" in fixed and "vmcnt(3)" not in fixed
    assert fixed.count("s_waitcnt") == 1


@pytest.mark.skipif(not HAVE_MC, reason="llvm-mc 22 not installed")
@pytest.mark.parametrize("target", TARGETS)
def test_counter_cases_and_fixes_assemble(target):
    progs = []
    for c, t in PARAMS:
        if t != target:
            continue
        progs.append((f"{c['name']}:pos", _prog(c["positive"])))
        progs.append((f"{c['name']}:neg", _prog(c["negative"])))
        progs.append((f"{c['name']}:fixed", fix_text(_prog(c["positive"]), target, "c.s").text))
    assert _assemble(target, progs) == []
