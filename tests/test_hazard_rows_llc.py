"""Every row of hazards.toml, pinned against LLVM's own hazard recognizer (llc-22).

For each rule row, target and MFMA pass count, tests/hazard_cases/cases.toml gives a producer and a
consumer that meet on a register. The pair goes through ``llc-22 -run-pass=post-RA-hazard-rec``
(GCNHazardRecognizer, the pass that writes every s_nop in compiled code; tests/hazard_cases/mir.py
turns the assembly into Machine IR) and we check:

* llc puts exactly the row's wait states between them (S_NOP n counts n + 1; an instruction the case
  puts between them counts 1, as in LLVM);
* gcnemu lint accepts the program with llc's s_nops (no warning at all);
* with llc's wait removed, or one wait state short, lint reports the row's rule on the consumer.

Rows llc-22 does not implement are listed in LLC_DIFFERS with the source that decides them, and pinned
as such: the test fails if llc-22 starts agreeing with the row, or if lint stops reporting what llc
leaves. Rows with no case on a target (an instruction llvm-mc 22 rejects there) come from the
`[uncovered]` table of cases.toml and are skipped with that reason.
"""
from __future__ import annotations

import pytest

from gcnemu.analysis.lint import lint
from gcnemu.asm.parse import parse
from hazard_cases import gen, mir

pytestmark = pytest.mark.skipif(not mir.AVAILABLE, reason="needs llc-22 and llvm-mc 22")

# rule@target -> (wait states llc-22 inserts, why the row asks for something else)
LLC_DIFFERS: dict[str, tuple[int, str]] = {
    f"buf-store-wide-sgpr-soffset-overwrite@{t}": (
        0, "llc-22's createsVALUHazard exempts MUBUF/MTBUF stores whose soffset is an SGPR. Hardware on "
           "gfx950 corrupts the second store dword when the next VALU overwrites it (Triton fused-attention "
           "backward on MI350X); llvm/llvm-project PR #197267 (merged 2026-05, after the LLVM 22 branch) widens "
           "the check to 1 wait state on the gfx940 family. The row follows the newer LLVM: llc-22 leaves this "
           "hazard, and lint reports it on llc-22 output.")
    for t in ("gfx942", "gfx950")
}

BUILT = gen.all_built()


@pytest.fixture(scope="module")
def llc_counts() -> dict[str, int]:
    """label -> wait states llc-22 puts before the consumer (instructions between included)."""
    out: dict[str, int] = {}
    for target in sorted({b.target for b in BUILT}):
        mine = [b for b in BUILT if b.target == target]
        counts = mir.llc_wait_states_many([gen.pair_lines(b) for b in mine], target)
        for b, c in zip(mine, counts):
            case = _case(b)
            between = 0 if case.get("count_from_between") else len(case.get("between", []))
            out[b.label] = c[-1] + between
    return out


def _case(b: gen.Built) -> dict:
    return b.extra["case"]


def _key(b: gen.Built) -> str:
    return f"{b.rule}@{b.target}"


def _warnings(text: str, target: str):
    return [d for d in lint(parse(text), target) if d.severity == "warning"]


@pytest.mark.parametrize("b", BUILT, ids=lambda b: b.label)
def test_llc_inserts_exactly_the_rows_wait_states(b, llc_counts):
    got = llc_counts[b.label]
    if _key(b) in LLC_DIFFERS:
        want, why = LLC_DIFFERS[_key(b)]
        assert got == want, f"llc-22 now inserts {got}: the pinned difference no longer holds ({why})"
        assert b.required > got
        return
    assert got == b.required, f"{b.label}: llc-22 inserts {got} wait states, the row says {b.required}"


@pytest.mark.parametrize("b", BUILT, ids=lambda b: b.label)
def test_lint_accepts_llcs_wait_and_reports_one_less(b, llc_counts):
    n = llc_counts[b.label]
    between = len(_case(b).get("between", [])) if not _case(b).get("count_from_between") else 0
    nops = n - between  # the s_nop part of llc's wait
    if _key(b) not in LLC_DIFFERS:
        text, _ = gen.with_filler(b, nops)
        warned = _warnings(text, b.target)
        assert warned == [], [f"{d.span.line}: [{d.rule}] {d.message}" for d in warned]
    if nops == 0 and _key(b) not in LLC_DIFFERS:
        return  # nothing llc inserted, nothing to take away (a 0-wait-state bucket)
    shorter = {0, nops - 1} if nops > 0 else {0}
    for k in sorted(shorter):
        text, line = gen.with_filler(b, k)
        hits = [d for d in _warnings(text, b.target) if d.rule == b.rule]
        assert hits and all(d.span.line == line for d in hits), \
            (f"{b.label} with {k} of llc's {nops} wait states: want [{b.rule}] on line {line}, got "
             + str([(d.span.line, d.rule) for d in _warnings(text, b.target)]))


@pytest.mark.parametrize("key", sorted(gen.uncovered()))
def test_rows_without_a_case_say_why(key):
    pytest.skip(f"{key}: {gen.uncovered()[key]}")


def test_every_row_and_target_is_pinned_or_explained():
    from gcnemu.isa.hazard_rules import rules_for
    pinned = {_key(b) for b in BUILT} | set(gen.uncovered())
    rows = {f"{r.id}@{t}" for t in gen.TARGETS for r in rules_for(t)}
    assert rows - pinned == set()
