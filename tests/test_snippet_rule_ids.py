"""gcnemu.isa.rule_ids: the one list of hazard rule ids, which snippet expectations are checked against."""
from __future__ import annotations

import pytest

from gcnemu.isa.hazard_rules import TARGETS, counter_rules_for, load_rules
from gcnemu.isa.rule_ids import (ENGINE_RULE_IDS, did_you_mean, hazard_rule_ids, targets_with,
                                 wait_state_rule_ids)


@pytest.mark.parametrize("target", TARGETS)
def test_the_list_is_the_hazard_table_plus_the_engine_ids(target):
    table = {r.id for r in load_rules() if r.target == target} | {r.id for r in counter_rules_for(target)}
    assert hazard_rule_ids(target) == table | ENGINE_RULE_IDS


def test_every_id_the_engine_raises_is_in_the_list():
    from gcnemu.sim import counters, engine
    raised = {v for k, v in vars(counters).items() if k.startswith("RULE_")}
    raised |= set(counters.OVERWRITE_RULE.values()) | set(engine._READ_RULE.values())
    for t in TARGETS:
        assert raised <= hazard_rule_ids(t)


def test_every_id_the_linter_reports_is_in_the_list():
    from gcnemu.analysis.lint import HINT_RULES, known_rule_ids
    for t in TARGETS:
        assert known_rule_ids(t) - set(HINT_RULES) <= hazard_rule_ids(t)


def test_target_specific_rules_and_aliases():
    assert "xdl-result-valu-read" not in wait_state_rule_ids("gfx908")
    assert targets_with("xdl-result-valu-read") == ["gfx90a", "gfx942", "gfx950"]
    assert targets_with("vmem-result-before-vmcnt") == list(TARGETS)
    assert targets_with("no-such-rule") == []
    assert hazard_rule_ids("gfx940") == hazard_rule_ids("gfx942")


def test_did_you_mean_picks_the_closest_id_of_the_target():
    assert did_you_mean("xdl-result-valu-reed", "gfx942") == "xdl-result-valu-read"
    assert did_you_mean("vmem-result-before-vmcn", "gfx90a") == "vmem-result-before-vmcnt"
    assert did_you_mean("no-such-rule", "gfx942") is None
