"""Wait-state rules checked along every control-flow path, loops included.

For each consumer instruction the analysis walks backwards over the CFG
(through every predecessor, around loop back edges) adding up wait states
(``s_nop N`` = N + 1, every other instruction 1; see ``hazard_rules``) until
the largest requirement of the rules that may apply to it is reached.  Every
instruction met on the way is tried as a producer of those rules; a rule fires
when the registers overlap as the row says and the distance on that path is
less than the requirement for the producer (keyed by its MFMA pass count).
Among all paths the worst one (fewest wait states) is kept and reported.

Unlike LLVM, which stops at the nearest producer, every producer within the
window is checked: a farther 16-pass MFMA can need more than a nearer 2-pass
one.  The matching of one producer/consumer pair (:func:`match`) is shared
with the dynamic monitor, so the static and dynamic verdicts use one code
path.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..isa.hazard_rules import HazardRule, rules_for
from .cfg import CFG
from .classify import EXEC, M0, VCC, Access, Facts, RegRange

_VCC = RegRange("s", *VCC)
_EXEC = RegRange("s", *EXEC)
_M0 = RegRange("s", *M0)


# --------------------------------------------------------------------------- operand selection


def consumer_accesses(f: Facts, operand: str) -> list[Access]:
    """Registers of consumer ``f`` that carry a dependency for rule operand ``operand``."""
    if operand == "srcc":
        return [a for a in f.reads if a.role == "srcc"]
    if operand == "srcab":
        return [a for a in f.reads if a.role in ("srca", "srcb", "idx")]
    if operand == "any-read":
        return [a for a in f.reads if a.explicit]
    if operand == "vgpr-read":
        return [a for a in f.reads if a.explicit and a.reg.file == "v"]
    if operand == "any-access":
        return list(f.reads) + list(f.writes)
    if operand == "write":
        return list(f.writes)
    if operand == "sgpr-read":
        vmem = "vmem" in f.classes
        return [a for a in f.reads if a.reg.file == "s" and
                (a.explicit or a.role == "vcc" or a.reg.overlaps(_VCC) or vmem)]
    if operand == "lane-select":
        return [a for a in f.reads if a.reg.file == "s" and (a.role == "lanesel" or
                (a.role == "src1" and f.base in ("v_readlane_b32", "v_writelane_b32")))]
    if operand == "src0":
        return [a for a in f.reads if a.role == "src0"]
    if operand == "vcc":
        return [a for a in f.reads if a.reg.overlaps(_VCC)]
    if operand == "exec":
        return [a for a in f.reads if a.reg.overlaps(_EXEC)]
    if operand == "m0":
        return [a for a in f.reads if a.reg.overlaps(_M0)]
    return []


def producer_accesses(f: Facts, producer_operand: str) -> list[Access]:
    """Registers of producer ``f`` that the rule's ``producer_operand`` names."""
    if producer_operand == "dst":
        return list(f.writes)
    if producer_operand == "srcc":
        return [a for a in f.reads if a.role == "srcc"]
    if producer_operand == "vdata":
        return [a for a in f.reads if a.role in ("vdata", "data0", "data1") and a.reg.file in ("v", "a")]
    if producer_operand == "sgpr":
        return [a for a in f.writes if a.reg.file == "s"]
    if producer_operand == "vcc":
        return [a for a in f.writes if a.reg.overlaps(_VCC)]
    if producer_operand == "exec":
        return [a for a in f.writes if a.reg.overlaps(_EXEC)]
    if producer_operand == "m0":
        return [a for a in f.writes if a.reg.overlaps(_M0)]
    return []


def _overlap(rule: HazardRule, p: Facts, c: Facts) -> tuple[bool, Access | None, Access | None]:
    if rule.operand == "hwreg" or rule.producer_operand == "hwreg":
        if rule.operand == "none":
            return True, None, None
        return (p.hwreg is not None and p.hwreg == c.hwreg), None, None
    if rule.overlap == "none" or rule.operand == "none":
        return True, None, None
    cs = consumer_accesses(c, rule.operand)
    if not cs:
        return False, None, None
    ps = producer_accesses(p, rule.producer_operand)
    for ca in cs:
        for pa in ps:
            if not ca.reg.overlaps(pa.reg):
                continue
            same = ca.reg == pa.reg
            if rule.overlap == "any" or (rule.overlap == "exact" and same) or (rule.overlap == "partial" and not same):
                if rule.condition == "except-same-opcode-srcc" and p.base == c.base and ca.role == "src2":
                    continue
                return True, pa, ca
    return False, None, None


def required_for(rule: HazardRule, p: Facts) -> int:
    """Wait states ``rule`` needs after producer ``p`` (pass-keyed rows use its MFMA passes).

    A pass count the row does not list (a catalog value between the LLVM
    buckets) takes the next larger bucket, the conservative choice.
    """
    if rule.required is not None:
        return rule.required
    table = rule.required_by_passes or ()
    passes = p.passes or max(k for k, _ in table)
    for k, v in table:
        if k >= passes:
            return v
    return table[-1][1]


@dataclass(frozen=True, slots=True)
class PathFlags:
    """What lies strictly between a producer and the consumer on one path."""

    accvgpr_at: int | None = None  # wait states from the nearest v_accvgpr_read/write to the consumer
    dgemm_between: bool = False


def match(rule: HazardRule, p: Facts, c: Facts, distance: int,
          flags: PathFlags = PathFlags()) -> tuple[int, int, Access | None, Access | None] | None:
    """Does ``rule`` fire for producer ``p`` at ``distance`` wait states before consumer ``c``?

    Returns (required, provided, producer access, consumer access) when it does.
    Class membership is assumed checked by the caller.
    """
    if rule.condition == "different-opcode" and p.base == c.base:
        return None
    ok, pa, ca = _overlap(rule, p, c)
    if not ok:
        return None
    if rule.condition == "dgemm-between" and not flags.dgemm_between:
        return None
    if rule.condition == "accvgpr-op-between":
        # checkMAILdStHazards: VALU def within 2 wait states and a v_accvgpr op between,
        # counted from the v_accvgpr op.
        if distance > 1 or flags.accvgpr_at is None:
            return None
        req, provided = rule.required or 1, flags.accvgpr_at
    else:
        req, provided = required_for(rule, p), distance
    if provided >= req:
        return None
    return req, provided, pa, ca


# --------------------------------------------------------------------------- the rule index


class RuleIndex:
    """The target's rules with bit masks of which instructions can produce/consume each."""

    def __init__(self, target: str, only: set[str] | None = None):
        self.rules: list[HazardRule] = [r for r in rules_for(target) if only is None or r.id in only]
        # how far back a producer can matter; the gfx908 LdSt rule looks 2 back (its 1 counts
        # from the v_accvgpr op in between)
        self.windows = [max(r.max_wait_states, 2 if r.condition == "accvgpr-op-between" else 0)
                        for r in self.rules]
        self._prod: dict[frozenset, int] = {}
        self._cons: dict[frozenset, int] = {}
        self._win: dict[int, int] = {}

    def producer_mask(self, f: Facts) -> int:
        m = self._prod.get(f.classes)
        if m is None:
            m = 0
            for i, r in enumerate(self.rules):
                if r.producer in f.classes and not any(x in f.classes for x in r.producer_excludes):
                    m |= 1 << i
            self._prod[f.classes] = m
        return m

    def consumer_mask(self, f: Facts) -> int:
        m = self._cons.get(f.classes)
        if m is None:
            m = 0
            for i, r in enumerate(self.rules):
                if r.consumer in f.classes and not any(x in f.classes for x in r.consumer_excludes):
                    m |= 1 << i
            self._cons[f.classes] = m
        return m

    def window(self, mask: int) -> int:
        w = self._win.get(mask)
        if w is None:
            w = max((self.windows[i] for i in _bits(mask)), default=0)
            self._win[mask] = w
        return w


@lru_cache(maxsize=4096)
def _bits_cached(mask: int) -> tuple[int, ...]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return tuple(out)


def _bits(mask: int) -> tuple[int, ...]:
    return _bits_cached(mask)


# --------------------------------------------------------------------------- static analysis


@dataclass(slots=True)
class WaitStateHazard:
    """One violated wait-state rule: consumer, producer, numbers and the worst path."""

    rule: HazardRule
    consumer: int
    producer: int
    required: int
    provided: int
    path: tuple[tuple[int, int], ...]  # CFG edges (pred block, succ block) crossed, consumer first
    producer_access: Access | None
    consumer_access: Access | None

    @property
    def deficit(self) -> int:
        return self.required - self.provided


def _overlap_cached(ri: int, rule: HazardRule, p: Facts, c: Facts):
    """`_overlap` memoised on the (shared) facts of identical statements: kernels repeat a lot."""
    key = (ri, id(c.cache))
    cache = p.cache
    hit = cache.get(key)
    if hit is None:
        hit = _overlap(rule, p, c)
        cache[key] = hit
    return hit


def match_indexed(ri: int, rule: HazardRule, p: Facts, c: Facts, distance: int,
                  flags: PathFlags) -> tuple[int, int, Access | None, Access | None] | None:
    """:func:`match` with the register overlap cached (same verdicts)."""
    if rule.condition == "different-opcode" and p.base == c.base:
        return None
    ok, pa, ca = _overlap_cached(ri, rule, p, c)
    if not ok:
        return None
    if rule.condition == "dgemm-between" and not flags.dgemm_between:
        return None
    if rule.condition == "accvgpr-op-between":
        if distance > 1 or flags.accvgpr_at is None:
            return None
        req, provided = rule.required or 1, flags.accvgpr_at
    else:
        req, provided = required_for(rule, p), distance
    if provided >= req:
        return None
    return req, provided, pa, ca


def analyze(facts: list[Facts], cfg: CFG, index: RuleIndex, consumers=None,
            weights: list[int] | None = None) -> list[WaitStateHazard]:
    """Every wait-state hazard, one per (consumer, rule), the worst producer and path each.

    ``consumers`` restricts the consumers checked; ``weights`` overrides the
    wait states of instructions (used by the hints to ask "what if this s_nop
    were shorter").

    The backward walk jumps from one *relevant* producer to the next (sorted
    positions per consumer mask, prefix sums of wait states), so a block with
    nothing that matters for a consumer costs O(log n) instead of its length.
    """
    from bisect import bisect_left

    n = len(facts)
    w = weights if weights is not None else [f.wait_states for f in facts]
    P = [0] * (n + 1)  # P[i] = wait states of instructions 0..i-1
    for i in range(n):
        P[i + 1] = P[i] + w[i]
    prod = [index.producer_mask(f) for f in facts]
    acc_pos = [i for i, f in enumerate(facts) if "accvgpr-read" in f.classes or "accvgpr-write" in f.classes]
    dg_pos = [i for i, f in enumerate(facts) if "dgemm" in f.classes]
    relevant: dict[int, list[int]] = {}
    out: list[WaitStateHazard] = []
    rules = index.rules
    windows = index.windows
    blocks = cfg.blocks
    block_of = cfg.block_of
    preds = cfg.preds
    todo = range(n) if consumers is None else consumers
    for c in todo:
        cf = facts[c]
        cm = index.consumer_mask(cf)
        if not cm:
            continue
        W = index.window(cm)
        if W <= 0:
            continue
        rel = relevant.get(cm)
        if rel is None:
            rel = [j for j in range(n) if prod[j] & cm]
            relevant[cm] = rel
        if not rel:
            continue
        best: dict[int, WaitStateHazard] = {}
        seen: dict[tuple, int] = {}
        # state: block, end (exclusive index walked back from), distance at `end`, path, acc, dgemm seen
        stack = [(block_of[c], c, 0, (), None, False)]
        while stack:
            b, end, dbase, path, acc, dg = stack.pop()
            start = blocks[b].start
            k = bisect_left(rel, end) - 1
            while k >= 0:
                j = rel[k]
                if j < start:
                    break
                d = dbase + P[end] - P[j + 1]
                if d >= W:
                    break
                f = facts[j]
                # what lies strictly between j and the consumer on this path
                a_at = acc
                if a_at is None and acc_pos:
                    ai = bisect_left(acc_pos, end) - 1
                    if ai >= 0 and acc_pos[ai] > j:
                        a_at = dbase + P[end] - P[acc_pos[ai] + 1]
                between_dg = dg
                if not between_dg and dg_pos:
                    di = bisect_left(dg_pos, end) - 1
                    between_dg = di >= 0 and dg_pos[di] > j
                flags = PathFlags(a_at, between_dg)
                for ri in _bits(prod[j] & cm):
                    if d >= windows[ri]:
                        continue
                    hit = match_indexed(ri, rules[ri], f, cf, d, flags)
                    if hit is None:
                        continue
                    req, provided, pa, ca = hit
                    old = best.get(ri)
                    if old is None or req - provided > old.deficit:
                        best[ri] = WaitStateHazard(rules[ri], c, j, req, provided, path, pa, ca)
                k -= 1
            d_block = dbase + P[end] - P[start]
            if d_block >= W:
                continue
            if acc is None and acc_pos:
                ai = bisect_left(acc_pos, end) - 1
                if ai >= 0 and acc_pos[ai] >= start:
                    acc = dbase + P[end] - P[acc_pos[ai] + 1]
            if not dg and dg_pos:
                di = bisect_left(dg_pos, end) - 1
                dg = di >= 0 and dg_pos[di] >= start
            for p in preds(b):
                key = (p, acc is not None and acc < 1, dg)
                if seen.get(key, W + 1) <= d_block:
                    continue
                seen[key] = d_block
                stack.append((p, blocks[p].end, d_block, path + ((p, b),), acc, dg))
        if best:
            out.extend(best.values())
    out.sort(key=lambda h: (h.consumer, h.rule.id))
    return out


def describe_path(h: WaitStateHazard, cfg: CFG, facts: list[Facts]) -> str:
    """'through the loop back edge at line 20' style text for the worst path (empty if straight)."""
    parts = []
    for a, b in h.path:
        last = facts[cfg.blocks[a].last]
        line = last.span.line if last.span else "?"
        if cfg.edge_kind(a, b) == "branch":
            if cfg.is_back_edge(a, b):
                parts.append(f"the loop back edge at line {line}")
            else:
                parts.append(f"the branch at line {line}")
        elif len(cfg.preds(b)) > 1:
            parts.append(f"the fall-through from line {line}")
    if not parts:
        return ""
    return "on the path through " + ", then ".join(parts)
