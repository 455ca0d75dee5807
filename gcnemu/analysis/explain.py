"""`gcnemu lint --explain RULE`: what a rule checks, on which targets, where its numbers come from,
an example and its fix.

Everything printed comes from the rule tables (gcnemu/isa/data/hazards.toml) and, when the
repository's programs/hazard_gallery is at hand, from the gallery pair written for the rule: the
wrong file's consumer line and the lines its fixed twin changes. A user reading a warning on a
production kernel needs the source of the rule to decide whether to trust it; the table keeps it.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path

from ..asm.diagnostics import GcnemuError
from ..isa.hazard_rules import CounterRule, HazardRule, counter_rules_for, rules_for

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
GALLERY = Path(__file__).resolve().parents[2] / "programs" / "hazard_gallery"


RUN_TIME_RULES: dict[str, str] = {
    "lds-race": """  source: happens-before from s_barrier (AMD CDNA3 ISA guide, "Data Share Operations" and S_BARRIER: a barrier
  orders execution, not outstanding LDS writes); gcnemu.sim.races
  Two waves of a workgroup access the same LDS dword, at least one of them writes it (an atomic
  counts as a write), they are not both atomics, and no s_barrier orders them.
  reported by: gcnemu run / step / test (the engine; gcnemu.sim.races), and by gcnemu lint where
  the addresses prove it (gcnemu.analysis.races)
  how: every LDS access gets the number of barrier releases before its issue and before its
  landing; accesses of two waves are ordered only when those intervals do not overlap. So the
  race is reported whatever order this run's schedule gave the two accesses, and an LDS write
  still in flight when the barrier releases (no s_waitcnt lgkmcnt(0) before s_barrier) is not
  ordered by that barrier. LDS DMA writes count at their landing, by the issuing wave.
  kinds: RAW (the write comes first in program order), WAR (the read does), WAW. "seen racing N
  times of M" counts the wave pairs whose accesses this run landed against program order (a
  read before the write meant to precede it got the old value); "not seen racing" means this
  schedule happened to order them, and another (hardware's) may not.
  what it cannot see: waves of other workgroups (each has its own LDS), ordering through other
  means than s_barrier (s_sleep loops polling a flag, ds_gws), accesses of lanes EXEC disables;
  a kernel past the shadow budget stops detection with a note.
  lint: evaluates each work-item's LDS address from the work-item ids (workgroup size from the
  header's workgroup:/waves: line or the metadata's .reqd_workgroup_size) through moves, adds,
  shifts, and/or/xor, 24-bit multiplies and v_mbcnt, and reports a pair only when two different
  waves provably touch a common dword in the same barrier epoch (some barrier, or the entry,
  reaches both without passing another). Lint cannot see: addresses built from kernel
  arguments, loads or loop-carried values; programs that write EXEC, call, jump indirectly or use
  VGPR indexing; accesses some wave may branch around; a write still in flight at the barrier
  (barrier-lds-write-pending reports that); LDS DMA. Silence from lint proves nothing: run it.
  fix: s_waitcnt lgkmcnt(0) (vmcnt(0) for LDS DMA) then s_barrier between the two accesses.""",
    "global-race": """source: the same happens-before as lds-race, over global memory (gcnemu.sim.races)
  Two waves of one workgroup access the same global-memory dword, one writes, not both atomics,
  and no s_barrier (after s_waitcnt vmcnt(0) by the writer) orders them.
  reported by: gcnemu run / step / test; scratch never pairs up (each wave has its own).
  what it cannot see: other workgroups (see grid-global-race), ordering by flags in memory,
  cache visibility (a wave may still need glc/sc0 loads to see another wave's store).
  fix: s_waitcnt vmcnt(0) then s_barrier between the two accesses, or atomics.""",
    "grid-global-race": """  source: HIP/HSA dispatch model: workgroups of a grid run in no defined order; gcnemu.grid
  Two workgroups of one grid write the same global-memory bytes, or one reads bytes another
  writes, without atomics (a kernel with global atomics runs its workgroups one after another
  and is not checked).
  reported by: gcnemu run --grid (gcnemu.grid); workgroups have no ordering between them, so the
  final value depends on which one ran last on hardware.
  fix: give each workgroup its own output range, or use global_atomic_* for shared results.""",
    "misaligned-access": """  source: AMD CDNA3 ISA guide, "Memory Address Alignment"; gcnemu.sim.alignment
  A memory access whose address is not a multiple of its size.
  reported by: gcnemu run (gcnemu.sim.alignment): hardware splits or, for some instructions and
  address spaces, drops the low address bits; gcnemu executes the access byte-exactly and warns.
  fix: align the address (or the buffer offset) to the access size.""",
    "inflight-result-read": """  source: gcnemu.sim.engine (the value the consumer read differs from the one in flight)
  An instruction read a register whose earlier result was still in flight (no interlock), so it
  read the old value. reported by: gcnemu run (the engine sees the value read).""",
    "inflight-result-overwrite": """  source: gcnemu.sim.engine
  A register was written while an older in-flight write to it (an MFMA result) had not landed:
  the older write lands last and wins. reported by: gcnemu run.""",
    "mfma-result-read-early": """  source: gcnemu.sim.engine; AMD CDNA3 ISA guide, MAI dependency rules
  An MFMA destination was read before its passes completed. reported by: gcnemu run; lint
  reports the same pair under the hazard table's wait-state rule id.""",
}
"""Rules only the engine reports at run time: they have no row in the hazard table."""


def all_rule_ids() -> list[str]:
    ids = {r.id for t in TARGETS for r in rules_for(t)} | {r.id for t in TARGETS for r in counter_rules_for(t)}
    return sorted(ids | set(RUN_TIME_RULES))


def _required(rule: HazardRule) -> str:
    if rule.required is not None:
        return f"{rule.required} wait state{'s' if rule.required != 1 else ''}"
    return ", ".join(f"{n} after a {p}-pass MFMA" for p, n in rule.required_by_passes or ())


def _group(rows: list, key) -> list[tuple[list[str], object]]:
    """Targets that share the same row text, in target order."""
    groups: list[tuple[list[str], object]] = []
    for t, row in rows:
        for targets, seen in groups:
            if key(seen) == key(row):
                targets.append(t)
                break
        else:
            groups.append(([t], row))
    return groups


def explain(rule_id: str) -> str:
    """The explanation of one rule id; GcnemuError (with close ids) for an unknown one."""
    waits = [(t, r) for t in TARGETS for r in rules_for(t) if r.id == rule_id]
    counters = [(t, r) for t in TARGETS for r in counter_rules_for(t) if r.id == rule_id]
    if not waits and not counters and rule_id in RUN_TIME_RULES:
        return "\n".join([rule_id, RUN_TIME_RULES[rule_id]] + _example(rule_id))
    if not waits and not counters:
        close = difflib.get_close_matches(rule_id, all_rule_ids(), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `gcnemu lint --explain list` lists them"
        raise GcnemuError(f"unknown rule '{rule_id}'{hint}")
    out = [f"{rule_id}"]
    if waits:
        first = waits[0][1]
        out.append(f"  {first.message}")
        out.append(f"  producer: {first.producer}" + (f" (writes {first.producer_operand})"
                                                       if first.producer_operand != "dst" else "")
                   + f"; consumer: {first.consumer}, through its {first.operand} operand"
                   + (f"; overlap: {first.overlap}" if first.overlap != "any" else ""))
        if first.condition:
            out.append(f"  only when: {first.condition}")
        out.append("  wait states required:")
        for targets, row in _group(waits, _required):
            out.append(f"    {', '.join(targets)}: {_required(row)}")
        for targets, row in _group(waits, lambda r: (r.source, r.isa_guide, r.cross_check, r.note)):
            where = "" if len(targets) == len(waits) else f" ({', '.join(targets)})"
            out.append(f"  source{where}: {row.source}")
            out.append(f"  ISA guide{where}: {row.isa_guide}")
            if row.cross_check:
                out.append(f"  cross-check{where}: {row.cross_check}")
            if row.note:
                out.append(f"  note{where}: {row.note}")
    for targets, row in _group(counters, lambda r: (r.message, r.source)):
        assert isinstance(row, CounterRule)
        out.append(f"  {row.message} ({row.counter}cnt; {', '.join(targets)})")
        out.append(f"  producer: {row.producer}; consumer: {row.consumer}")
        out.append(f"  source: {row.source}")
        out.append(f"  ISA guide: {row.isa_guide}")
    out += _example(rule_id)
    return "\n".join(out)


_EXPECT = re.compile(r"expect hazard ([\w-]+) at (\d+)")


def _example(rule_id: str) -> list[str]:
    """The gallery's wrong program for this rule around its consumer line, and what its fixed
    twin changes. Nothing when the gallery is not beside the package (an installed wheel)."""
    if not GALLERY.is_dir():
        return []
    for wrong in sorted(GALLERY.glob("*_wrong.s")):
        text = wrong.read_text()
        hit = next((m for m in _EXPECT.finditer(text) if m.group(1) == rule_id), None)
        if hit is None:
            continue
        lines = text.splitlines()
        at = int(hit.group(2))
        out = [f"example ({wrong.relative_to(GALLERY.parents[1])}):"]
        for n in range(max(1, at - 3), min(len(lines), at) + 1):
            out.append(f"  {'=>' if n == at else '  '} {n:4}  {lines[n - 1].strip()}")
        fixed = wrong.with_name(wrong.name.replace("_wrong.s", "_fixed.s"))
        if fixed.exists():
            code = [ln for ln in fixed.read_text().splitlines() if ln.strip() and not ln.lstrip().startswith("//")]
            mine = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("//")]
            changes = [d for d in difflib.unified_diff(mine, code, lineterm="", n=0)
                       if d[:1] in "+-" and not d.startswith(("+++", "---")) and not d.rstrip().endswith(":")]
            if changes:
                out.append(f"fix ({fixed.name}):")
                out += [f"  {d[0]} {d[1:].strip()}" for d in changes[:8]]
        return out
    return []
