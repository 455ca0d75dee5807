"""Every hazard rule id gcnemu can report, in one place.

A hazard carries a rule id wherever it is shown: `gcnemu lint` (``[id]``), `gcnemu run`, SARIF,
the debugger and snippet expectations (``expect hazard ID at LINE``). The ids come from three
sources, and this module is the one list of all three:

* the wait-state rules of the hazard table (``hazards.toml`` ``[[rule]]``), per target: they
  differ between targets (``xdl-*`` rules only exist where the MFMA pipeline has them);
* the counter rules of the same table (``[[counter_rule]]``: a missing or too weak
  ``s_waitcnt``), raised by the linter and by the engine alike;
* the ids only the engine's dynamic monitor raises (an MFMA result or other in-flight result
  read or overwritten early), which have no row in the table.

Lint *hints* (``hint-*``) are not hazards and are not listed here (see
``gcnemu.analysis.lint.HINT_RULES``).
"""
from __future__ import annotations

import difflib
import functools

from .hazard_rules import TARGETS, canonical_target, counter_rules_for, rules_for

__all__ = ["RULE_INFLIGHT_READ", "RULE_MFMA_READ", "RULE_OVERWRITE", "ENGINE_RULE_IDS", "wait_state_rule_ids", "counter_rule_ids",
           "hazard_rule_ids", "targets_with", "did_you_mean"]

RULE_INFLIGHT_READ = "inflight-result-read"
# Races the wait-state rules name more precisely; the engine's event takes the table's id when the
# rule-table monitor reports the same pair (see Engine._record).
RULE_MFMA_READ = "mfma-result-read-early"  # an MFMA destination read before its passes completed
RULE_OVERWRITE = "inflight-result-overwrite"  # a register written while an older MFMA write to it is in flight
"""The engine's id for a read of a result still in flight from a pipe no other id names."""

RULE_LDS_RACE = "lds-race"  # two waves access an LDS dword, one writes, no s_barrier orders them
RULE_GLOBAL_RACE = "global-race"  # two waves of a workgroup access the same global bytes, one writes, unordered
RULE_GRID_RACE = "grid-global-race"  # two workgroups of a grid write the same global bytes
RULE_MISALIGNED = "misaligned-access"  # a memory access not aligned to its size

ENGINE_RULE_IDS: frozenset[str] = frozenset({RULE_MFMA_READ, RULE_OVERWRITE, RULE_INFLIGHT_READ, RULE_LDS_RACE,
                                             RULE_GLOBAL_RACE, RULE_GRID_RACE, RULE_MISALIGNED})
"""Ids the engine's dynamic monitor raises that have no row in the hazard table."""


@functools.lru_cache(maxsize=None)
def wait_state_rule_ids(target: str) -> frozenset[str]:
    """Ids of the hazard table's wait-state rules for ``target``."""
    return frozenset(r.id for r in rules_for(target))


@functools.lru_cache(maxsize=None)
def counter_rule_ids(target: str) -> frozenset[str]:
    """Ids of the hazard table's counter rules (missing/too weak s_waitcnt) for ``target``."""
    return frozenset(r.id for r in counter_rules_for(target))


@functools.lru_cache(maxsize=None)
def hazard_rule_ids(target: str) -> frozenset[str]:
    """Every id a hazard on ``target`` can carry: table rules, counter rules, engine-only ids.
    ``ValueError`` for a target the hazard table does not know."""
    t = canonical_target(target)
    return wait_state_rule_ids(t) | counter_rule_ids(t) | ENGINE_RULE_IDS


def targets_with(rule_id: str) -> list[str]:
    """The targets (oldest first) on which ``rule_id`` is a known hazard id; [] when none is."""
    return [t for t in TARGETS if rule_id in hazard_rule_ids(t)]


def did_you_mean(rule_id: str, target: str) -> str | None:
    """The known id of ``target`` closest to a misspelt ``rule_id`` (difflib), or None."""
    close = difflib.get_close_matches(rule_id, sorted(hazard_rule_ids(target)), n=1, cutoff=0.6)
    return close[0] if close else None
