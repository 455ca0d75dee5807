"""Tests for the hazard rule table (gcnemu/isa/data/hazards.toml)."""

from __future__ import annotations

import collections
import re
import textwrap

import pytest

from gcnemu.isa import hazard_rules as hr
from gcnemu.isa.hazard_rules import (
    TARGETS,
    HazardRule,
    load_rules,
    max_required,
    required_wait_states,
    rule_by_id,
    rules_for,
)


def need(target: str, rule_id: str, passes: int | None = None) -> int:
    return required_wait_states(rule_by_id(target, rule_id), passes)


# ---------------------------------------------------------------------------
# Table shape
# ---------------------------------------------------------------------------


def test_table_loads_and_is_frozen():
    rules = load_rules()
    assert rules and all(isinstance(r, HazardRule) for r in rules)
    with pytest.raises(Exception):
        rules[0].required = 99  # frozen dataclass
    assert load_rules() is rules  # cached


@pytest.mark.parametrize("target", TARGETS)
def test_ids_unique_per_target(target):
    counts = collections.Counter(r.id for r in rules_for(target))
    assert [i for i, n in counts.items() if n > 1] == []


@pytest.mark.parametrize("target", TARGETS)
def test_every_rule_is_documented(target):
    for r in rules_for(target):
        assert r.message.strip() and len(r.message) < 300, r.id
        assert r.source.strip(), r.id
        # provenance (issue 15): the LLVM function and the ISA guide section each row comes from
        assert re.search(r"\b(check\w+Hazards\w*|fix\w+|createsVALUHazard|checkVALUHazards\w*)\b", r.source), r.id
        assert r.isa_guide.strip(), r.id
        assert r.id == r.id.lower() and " " not in r.id and "_" not in r.id, r.id
        assert r.producer in hr.CLASSES and r.consumer in hr.CLASSES
        assert r.operand in hr.OPERANDS and r.overlap in hr.OVERLAPS
        assert r.producer_operand in hr.PRODUCER_OPERANDS
        assert (r.required is None) != (r.required_by_passes is None)


def test_vocabulary_has_docstrings():
    for vocab in (hr.CLASSES, hr.OPERANDS, hr.OVERLAPS, hr.CONDITIONS, hr.PRODUCER_OPERANDS):
        for name, text in vocab.items():
            assert name == name.lower() and text.strip(), name


CORE_ALL = [
    "salu-m0-lds-dma",
    "salu-m0-sendmsg",
    "salu-m0-gds",
    "salu-m0-ds-addtid",
    "salu-m0-s-movrel",
    "valu-sgpr-vmem-read",
    "valu-sgpr-lane-select",
    "valu-vcc-div-fmas",
    "setreg-getreg",
    "setreg-setreg",
    "dpp-vgpr-read",
    "valu-exec-dpp",
    "valu-exec-mfma",
    "valu-vgpr-mfma-read",
    "xdl-result-mfma-srcab",
    "xdl-result-xdl-srcc-partial",
    "wide-store-data-overwrite",
]
CORE_90A_PLUS = [
    "xdl-result-valu-read",
    "xdl-result-mem-read",
    "xdl-result-valu-write-waw",
    "xdl-srcc-valu-write-war",
    "xdl-result-non-xdl-srcc-partial",
    "dgemm4x4-result-valu-read",
    "dgemm16x16-result-valu-read",
    "dgemm16x16-result-mfma-srcab",
    "dgemm-fma64",
]


@pytest.mark.parametrize("target", TARGETS)
def test_core_rules_present(target):
    ids = {r.id for r in rules_for(target)}
    missing = [i for i in CORE_ALL if i not in ids]
    if target != "gfx908":
        missing += [i for i in CORE_90A_PLUS if i not in ids]
    assert missing == []


def test_target_specific_rules():
    ids = {t: {r.id for r in rules_for(t)} for t in TARGETS}
    assert "xdl-result-accvgpr-read" in ids["gfx908"]
    assert "xdl-result-accvgpr-read" not in ids["gfx90a"]
    assert "valu-dgemm-mem-read-bug" in ids["gfx90a"]
    assert all("valu-dgemm-mem-read-bug" not in ids[t] for t in ("gfx908", "gfx942", "gfx950"))
    for t in ("gfx942", "gfx950"):
        assert {"trans-result-valu-read", "dst-sel-forwarding", "valu-sgpr-valu-read",
                "non-xdl-result-mfma-srcab", "mfma-2pass-srcc-exact"} <= ids[t]
    assert {"cvt-scale-forwarding", "valu-vgpr-permlane-read", "vcmpx-exec-permlane"} <= ids["gfx950"]
    assert "cvt-scale-forwarding" not in ids["gfx942"]


def test_aliases():
    assert rules_for("gfx940") == rules_for("gfx942") == rules_for("GFX941")
    with pytest.raises(ValueError):
        rules_for("gfx1100")


# ---------------------------------------------------------------------------
# Anchor numbers (LLVM GCNHazardRecognizer.cpp)
# ---------------------------------------------------------------------------


def test_salu_m0_lds_dma_is_one_everywhere():
    for t in TARGETS:
        assert need(t, "salu-m0-lds-dma") == 1


def test_generic_gfx9_numbers():
    for t in TARGETS:
        assert need(t, "valu-sgpr-vmem-read") == 5
        assert need(t, "valu-sgpr-lane-select") == 4
        assert need(t, "valu-vcc-div-fmas") == 4
        assert need(t, "setreg-getreg") == 2
        assert need(t, "setreg-setreg") == 2
        assert need(t, "dpp-vgpr-read") == 2
        assert need(t, "valu-exec-dpp") == 5
        assert need(t, "valu-exec-mfma") == 4
        assert need(t, "valu-vgpr-mfma-read") == 2


def test_gfx908_numbers():
    t = "gfx908"
    assert need(t, "xdl-result-mfma-srcab") == 4
    assert need(t, "xdl-result-xdl-srcc-partial") == 2
    assert [need(t, "xdl-result-accvgpr-read", p) for p in (2, 8, 16)] == [4, 10, 18]
    assert [need(t, "xdl-result-accvgpr-write-waw", p) for p in (2, 8, 16)] == [1, 7, 15]
    assert [need(t, "xdl-srcc-accvgpr-write-war", p) for p in (2, 8, 16)] == [0, 5, 13]
    assert need(t, "accvgpr-write-mfma-srcc") == 1
    assert need(t, "accvgpr-write-mfma-srcab") == 3
    assert need(t, "accvgpr-write-accvgpr-read") == 3
    assert need(t, "accvgpr-read-mem-read") == 2
    assert need(t, "valu-accvgpr-mem-read") == 1
    assert rule_by_id(t, "xdl-result-xdl-srcc-partial").overlap == "partial"


def test_gfx90a_numbers():
    t = "gfx90a"
    assert need(t, "xdl-result-valu-read", 16) == 19  # SMFMA 16-pass -> VALU read
    assert [need(t, "xdl-result-valu-read", p) for p in (2, 8, 16)] == [5, 11, 19]
    assert [need(t, "xdl-result-mem-read", p) for p in (2, 8, 16)] == [5, 11, 19]
    assert [need(t, "xdl-result-xdl-srcc-partial", p) for p in (2, 8, 16)] == [2, 8, 16]
    assert [need(t, "xdl-result-non-xdl-srcc-partial", p) for p in (2, 8, 16)] == [3, 9, 17]
    assert [need(t, "xdl-result-mfma-srcab", p) for p in (2, 8, 16)] == [5, 11, 19]
    assert [need(t, "xdl-srcc-valu-write-war", p) for p in (2, 8, 16)] == [1, 7, 15]
    assert need(t, "dgemm16x16-result-non-xdl-srcc-partial") == 9
    assert need(t, "dgemm4x4-result-non-xdl-srcc-partial") == 4
    assert need(t, "dgemm4x4-srcc-exact") == 4
    assert need(t, "dgemm16x16-result-mfma-srcab") == 11
    assert need(t, "dgemm4x4-result-mfma-srcab") == 6
    assert (need(t, "dgemm4x4-result-valu-read"), need(t, "dgemm4x4-result-mem-read")) == (6, 9)
    assert (need(t, "dgemm16x16-result-valu-read"), need(t, "dgemm16x16-result-mem-read")) == (11, 18)
    assert need(t, "dgemm-fma64") == 2
    assert need(t, "valu-dgemm-mem-read-bug") == 2
    with pytest.raises(ValueError):
        need(t, "xdl-result-valu-read", 4)  # no 4-pass MFMAs before gfx940


def test_gfx942_numbers():
    t = "gfx942"
    assert need(t, "xdl-result-mfma-srcab", 8) == 11  # XDL 8-pass -> SrcA/B
    assert [need(t, "xdl-result-mfma-srcab", p) for p in (2, 4, 8, 16)] == [5, 7, 11, 19]
    assert [need(t, "non-xdl-result-mfma-srcab", p) for p in (2, 4, 8, 16)] == [4, 6, 10, 18]
    assert [need(t, "xdl-result-xdl-srcc-partial", p) for p in (2, 4, 8, 16)] == [3, 5, 9, 17]
    assert [need(t, "xdl-result-non-xdl-srcc-partial", p) for p in (2, 4, 8, 16)] == [3, 5, 9, 17]
    assert [need(t, "non-xdl-result-non-xdl-srcc-partial", p) for p in (2, 4, 8, 16)] == [2, 4, 8, 16]
    assert [need(t, "mfma-2pass-srcc-exact", p) for p in (2, 4, 8, 16)] == [2, 0, 0, 0]
    assert [need(t, "xdl-result-valu-read", p) for p in (2, 4, 8, 16)] == [5, 7, 11, 19]
    assert [need(t, "non-xdl-result-valu-read", p) for p in (2, 4, 8, 16)] == [4, 6, 10, 18]
    assert [need(t, "xdl-srcc-valu-write-war", p) for p in (2, 4, 8, 16)] == [1, 3, 7, 15]
    assert need(t, "dgemm16x16-result-valu-read") == 11
    assert need(t, "trans-result-valu-read") == 1
    assert need(t, "valu-sgpr-valu-read") == 2
    assert need(t, "valu-exec-lane-op") == 4
    assert need(t, "wide-store-data-overwrite") == 2
    assert need("gfx90a", "wide-store-data-overwrite") == 1


def test_gfx950_differences():
    t = "gfx950"
    assert [need(t, "xdl-result-mfma-srcab", p) for p in (2, 4, 8, 16)] == [5, 8, 12, 20]
    assert [need(t, "xdl-result-valu-read", p) for p in (2, 4, 8, 16)] == [5, 8, 12, 20]
    assert [need(t, "xdl-result-valu-write-waw", p) for p in (2, 4, 8, 16)] == [5, 8, 12, 20]
    assert [need(t, "xdl-result-xdl-srcc-partial", p) for p in (2, 4, 8, 16)] == [4, 6, 10, 18]
    assert [need(t, "xdl-result-non-xdl-srcc-partial", p) for p in (2, 4, 8, 16)] == [3, 6, 10, 18]
    assert need(t, "dgemm16x16-result-non-xdl-srcc-partial") == 17
    assert need(t, "dgemm16x16-result-mfma-srcab") == 19
    assert need(t, "dgemm16x16-result-valu-read") == 19
    assert need(t, "dgemm16x16-result-mem-read") == 18  # unchanged
    assert need(t, "dgemm16x16-result-valu-write-waw") == 11  # unchanged
    # non-XDL numbers do not change on gfx950
    assert [need(t, "non-xdl-result-mfma-srcab", p) for p in (2, 4, 8, 16)] == [4, 6, 10, 18]
    assert need(t, "cvt-scale-forwarding") == 1
    assert need(t, "valu-vgpr-permlane-read") == 2
    assert need(t, "vcmpx-exec-permlane") == 4
    assert max_required(t) == 20


def test_xdl_pass_formulas_hold():
    """The per-pass tables follow LLVM's GFX940_* helper formulas."""
    for p in (2, 4, 8, 16):
        assert need("gfx942", "xdl-result-mfma-srcab", p) == p + 3
        assert need("gfx942", "non-xdl-result-valu-read", p) == p + 2
        assert need("gfx942", "xdl-result-xdl-srcc-partial", p) == p + 1
        assert need("gfx950", "xdl-result-xdl-srcc-partial", p) == p + 2
        assert need("gfx950", "xdl-result-mem-read", p) == p + 3 + (p != 2)


# ---------------------------------------------------------------------------
# API behaviour
# ---------------------------------------------------------------------------


def test_required_wait_states_api():
    fixed = rule_by_id("gfx942", "salu-m0-lds-dma")
    assert not fixed.depends_on_passes and fixed.producer_passes == ()
    assert required_wait_states(fixed) == required_wait_states(fixed, 16) == 1
    table = rule_by_id("gfx942", "xdl-result-valu-read")
    assert table.depends_on_passes and table.producer_passes == (2, 4, 8, 16)
    with pytest.raises(ValueError):
        required_wait_states(table)
    with pytest.raises(ValueError):
        required_wait_states(table, 3)
    with pytest.raises(KeyError):
        rule_by_id("gfx908", "xdl-result-valu-read")


def test_loader_rejects_bad_rows(tmp_path):
    good = textwrap.dedent(
        """
        [[rule]]
        id = "x"
        targets = ["gfx90a"]
        producer = "valu"
        consumer = "mfma"
        operand = "any-read"
        overlap = "any"
        required = 2
        source = "s"
        isa_guide = "g"
        message = "m"
        """
    )
    p = tmp_path / "h.toml"
    p.write_text(good)
    assert len(load_rules(p)) == 1
    for bad in (
        good.replace('"valu"', '"no-such-class"'),
        good.replace('"any-read"', '"bogus"'),
        good.replace('["gfx90a"]', '["gfx1100"]'),
        good.replace("required = 2", "required = { two = 3 }"),
        good.replace('message = "m"', 'message = ""'),
        good.replace('isa_guide = "g"', ""),  # a row must say where in the ISA guides it comes from
        good + good,  # duplicate id on one target
    ):
        p.write_text(bad)
        with pytest.raises(ValueError):
            load_rules(p)


@pytest.mark.parametrize("target", TARGETS)
def test_every_counter_rule_cites_llvm_and_the_guide(target):
    for r in hr.counter_rules_for(target):
        assert "SIInsertWaitcnts" in r.source, r.id
        assert r.isa_guide.strip(), r.id
