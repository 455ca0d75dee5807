"""Every wait-state rule, on every target, fires exactly when the table says.

For each rule and target (and each MFMA pass count the row lists), the
programs built from ``tests/hazard_cases/cases.toml`` are:

* positive: required - 1 wait states -> the rule is reported at the consumer
  line, with the table's required count and the provided count;
* negative twin: exactly ``required`` wait states -> not reported;
* no-overlap twin: the registers do not meet -> not reported;
* fix round trip: ``--fix`` output of the positive lints clean.

All of them must assemble with llvm-mc 22 (skipped when it is absent).
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from gcnemu.analysis.fix import fix_text
from gcnemu.analysis.lint import lint
from gcnemu.isa.hazard_rules import TARGETS, rules_for
from gcnemu.asm.parse import parse
from hazard_cases import gen

LLVM_MC = os.environ.get("LLVM_MC", "/usr/lib/llvm-22/bin/llvm-mc")
HAVE_MC = shutil.which(LLVM_MC) is not None or os.path.exists(LLVM_MC)

BUILT = gen.all_built()
IDS = [b.label for b in BUILT]


def _hits(text: str, target: str, rule: str):
    return [d for d in lint(parse(text, "case.s"), target) if d.rule == rule]


def test_every_rule_and_target_has_a_case_or_a_reason():
    covered = {(b.rule, b.target) for b in BUILT}
    reasons = gen.uncovered()
    missing = [f"{r.id}@{t}" for t in TARGETS for r in rules_for(t)
               if (r.id, t) not in covered and f"{r.id}@{t}" not in reasons]
    assert missing == []
    # a reason must not hide a case that exists
    assert [k for k in reasons if tuple(k.split("@")) in covered] == []


def test_every_positive_count_is_exercised():
    """Each rule/target has at least one positive case (a requirement > 0)."""
    with_positive = {(b.rule, b.target) for b in BUILT if b.positive}
    all_pairs = {(b.rule, b.target) for b in BUILT}
    assert all_pairs - with_positive == set()


@pytest.mark.parametrize("case", BUILT, ids=IDS)
def test_positive_reports_rule_line_and_count(case):
    if case.positive is None:
        pytest.skip("requirement is 0 for this pass count: only the negative applies")
    hits = _hits(case.positive, case.target, case.rule)
    assert len(hits) == 1, case.positive
    d = hits[0]
    assert d.span.line == case.consumer_line
    assert d.extra["required_wait_states"] == case.required
    assert d.extra["provided_wait_states"] == case.required - 1 or case.rule == "valu-accvgpr-mem-read"
    assert d.severity == "warning"
    assert d.notes and d.notes[0].severity == "note" and d.notes[0].span is not None


@pytest.mark.parametrize("case", BUILT, ids=IDS)
def test_negative_twin_with_enough_wait_states_is_clean(case):
    assert _hits(case.negative, case.target, case.rule) == [], case.negative


@pytest.mark.parametrize("case", [b for b in BUILT if b.no_overlap], ids=[b.label for b in BUILT if b.no_overlap])
def test_no_overlap_twin_is_clean(case):
    assert _hits(case.no_overlap, case.target, case.rule) == [], case.no_overlap


@pytest.mark.parametrize("case", [b for b in BUILT if b.positive], ids=[b.label for b in BUILT if b.positive])
def test_fix_round_trip_lints_clean(case):
    res = fix_text(case.positive, case.target, "case.s")
    assert res.fixed >= 1 and res.remaining == []
    after = [d for d in lint(parse(res.text, "case.s"), case.target) if d.severity == "warning"]
    assert after == []
    # only s_nop / s_waitcnt lines were added or changed; every other line is as it was
    def others(text):
        return [ln for ln in text.splitlines() if not ln.strip().startswith(("s_nop", "s_waitcnt"))]
    assert others(res.text) == others(case.positive)
    assert res.text != case.positive


# --------------------------------------------------------------------------- llvm-mc


def _assemble(target: str, programs: list[tuple[str, str]]) -> list[str]:
    """Assemble many small programs in one llvm-mc run; returns the labels that failed."""
    text, owner = [], []
    for k, (label, prog) in enumerate(programs):
        body = prog.replace("kernel:", f"kernel_{k}:")
        for line in body.splitlines():
            text.append(line)
            owner.append(label)
    r = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={target}", "-o", os.devnull],
                       input="\n".join(text) + "\n", capture_output=True, text=True)
    bad = []
    for line in r.stderr.splitlines():
        parts = line.split(":")
        if len(parts) > 2 and "error" in line and parts[1].isdigit():
            bad.append(f"{owner[int(parts[1]) - 1]}: {line}")
    return bad


@pytest.mark.skipif(not HAVE_MC, reason="llvm-mc 22 not installed")
@pytest.mark.parametrize("target", TARGETS)
def test_all_case_programs_and_their_fixes_assemble(target):
    progs = []
    for b in BUILT:
        if b.target != target:
            continue
        for kind, text in (("pos", b.positive), ("neg", b.negative), ("no", b.no_overlap)):
            if text:
                progs.append((f"{b.label}:{kind}", text))
        if b.positive:
            progs.append((f"{b.label}:fixed", fix_text(b.positive, target, "case.s").text))
    assert progs
    assert _assemble(target, progs) == []


def test_gfx908_agpr_srcc_written_by_accvgpr_write_needs_one_wait_state_not_two():
    """checkMAIHazards908 applies its 'VALU writes VGPR -> MFMA reads it: 2' rule to VGPR sources
    only (TRI.isVGPR); an AGPR SrcC written by v_accvgpr_write needs the 1 wait state of
    accvgpr-write-mfma-srcc. llc-22 puts exactly s_nop 0 there; lint used to ask for 2."""
    ok = ("\tv_accvgpr_write_b32 a0, v1\n\ts_nop 0\n"
          "\tv_mfma_f32_4x4x1f32 a[0:3], v0, v2, a[0:3]\n\ts_endpgm\n")
    assert [d for d in lint(parse(ok, "k.s"), "gfx908") if d.severity == "warning"] == []
    short = ok.replace("\ts_nop 0\n", "")
    assert [d.rule for d in lint(parse(short, "k.s"), "gfx908")] == ["accvgpr-write-mfma-srcc"]
    vgpr = ("\tv_mov_b32 v2, 0\n\ts_nop 0\n"
            "\tv_mfma_f32_4x4x1f32 a[0:3], v0, v2, a[0:3]\n\ts_endpgm\n")  # a VGPR source still needs 2
    assert [d.rule for d in lint(parse(vgpr, "k.s"), "gfx908")] == ["valu-vgpr-mfma-read"]
