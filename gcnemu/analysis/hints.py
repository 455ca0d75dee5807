"""Performance hints (``--hints``, severity ``hint``): waits that buy nothing.

* ``hint-waitcnt-noop``: an ``s_waitcnt`` whose named vm/lgkm fields are at
  least the number of operations that can be outstanding there on any path;
* ``hint-nop-too-long``: an ``s_nop`` that could be shorter (or go) without
  creating a wait-state hazard - found by re-running the wait-state analysis
  on the consumers it can reach with a smaller weight for it;
* ``hint-vmcnt-zero``: ``s_waitcnt vmcnt(0)`` where the largest count that
  creates no counter hazard later (re-running the counter fixpoint with the
  field raised, binary search) is above 0.

A hint never changes the exit status; these are judgements, not bugs (an
``s_nop`` may be there for timing reasons the rules do not know).
"""
from __future__ import annotations

from ..asm.diagnostics import Diagnostic
from ..isa.targets import get_target
from .counters import CounterAnalysis
from .waitstates import analyze


def hint_diagnostics(an) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    out += _waitcnt_noop(an)
    out += _nop_too_long(an)
    out += _vmcnt_zero(an)
    return out


def _waitcnt_noop(an) -> list[Diagnostic]:
    out = []
    for i, states in an.counters.states_before():
        f = an.facts[i]
        if f.waitcnt is None or not states:
            continue
        named = {k: v for k, v in f.waitcnt.items() if k in ("vm", "lgkm")}
        if not named or any(k == "exp" and v < 7 for k, v in f.waitcnt.items()):
            continue
        most = {"vm": max(len(s[0]) for s in states), "lgkm": max(len(s[1]) for s in states)}
        if all(most[k] <= v for k, v in named.items()):
            what = ", ".join(f"{k}cnt at most {most[k]}" for k in named)
            out.append(Diagnostic("hint", f"s_waitcnt waits for nothing here ({what} on every path)",
                                  an.instructions[i].mnemonic_span, rule="hint-waitcnt-noop"))
    return out


def _reach(an, start: int, limit: int) -> list[int]:
    """Instructions reachable from ``start`` (exclusive) within ``limit`` instructions."""
    cfg = an.cfg
    seen: set[int] = set()
    todo = [(start, 0)]
    while todo:
        i, n = todo.pop()
        b = cfg.blocks[cfg.block_of[i]]
        nxt = [i + 1] if i + 1 < b.end else [cfg.blocks[s].start for s in cfg.succs(b.id)]
        for j in nxt:
            if j not in seen and n + 1 <= limit:
                seen.add(j)
                todo.append((j, n + 1))
    return sorted(seen)


def _nop_too_long(an) -> list[Diagnostic]:
    out = []
    if not an.index.rules:
        return out
    limit = max(an.index.windows) + 1
    base_w = [f.wait_states for f in an.facts]
    for i, f in enumerate(an.facts):
        if f.base != "s_nop":
            continue
        consumers = _reach(an, i, limit)
        baseline = {(h.consumer, h.rule.id): h.deficit for h in analyze(an.facts, an.cfg, an.index, consumers)}

        def ok(weight: int) -> bool:
            w = list(base_w)
            w[i] = weight
            for h in analyze(an.facts, an.cfg, an.index, consumers, w):
                if h.deficit > baseline.get((h.consumer, h.rule.id), 0):
                    return False
            return True

        lo, hi = 0, f.wait_states  # smallest weight that is still ok lies in [lo, hi]
        while lo < hi:
            mid = (lo + hi) // 2
            if ok(mid):
                hi = mid
            else:
                lo = mid + 1
        if lo < f.wait_states:
            better = "no hazard rule needs it here" if lo == 0 else f"s_nop {lo - 1} is enough"
            out.append(Diagnostic("hint", f"s_nop {f.wait_states - 1} is longer than any rule needs: {better}",
                                  an.instructions[i].mnemonic_span, rule="hint-nop-too-long"))
    return out


def _vmcnt_zero(an) -> list[Diagnostic]:
    out = []
    tgt = get_target(an.target)
    base = an.counters
    baseline = {(h.consumer, h.rule) for h in base.hazards()}
    most_at = {}
    for i, states in base.states_before():
        if states:
            most_at[i] = max(len(s[0]) for s in states)
    for i, f in enumerate(an.facts):
        if f.waitcnt is None or f.waitcnt.get("vm") != 0 or most_at.get(i, 0) == 0:
            continue

        def ok(k: int) -> bool:
            flds = dict(f.waitcnt)
            flds["vm"] = k
            ca = CounterAnalysis(an.facts, an.cfg, tgt.vmcnt_max, tgt.lgkmcnt_max, {i: flds},
                                 lds=getattr(an, "lds", None), paths=base.paths).run()
            return {(h.consumer, h.rule) for h in ca.hazards()} <= baseline

        lo, hi = 0, most_at[i]  # largest ok k in [lo, hi]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if ok(mid):
                lo = mid
            else:
                hi = mid - 1
        if lo > 0:
            tail = ("no later instruction needs these operations here" if lo >= most_at[i]
                    else f"vmcnt({lo}) covers every later use")
            out.append(Diagnostic("hint", f"s_waitcnt vmcnt(0) waits for all {most_at[i]} outstanding vector memory "
                                          f"operations; {tail}", an.instructions[i].mnemonic_span,
                                  rule="hint-vmcnt-zero"))
    return out
