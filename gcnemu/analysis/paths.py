"""Branch facts carried along the counter analysis, to drop control-flow paths that cannot run.

Why: a GEMM prologue tests the same loop counter again and again (``s_cmp_eq_u32
s[LoopCounterL], 1`` to skip the second prefetch, then again to pick
``s_waitcnt vmcnt(0)`` over ``vmcnt(9)``; ``s_cmp_le_u32 ..., 2`` to skip the third
prefetch, then ``== 1``, ``== 2``, ``<= 3`` to pick the loop exit).  A path-insensitive
analysis joins the queue of "second prefetch skipped" with the branch that assumes it
was issued, and reports a missing ``s_waitcnt`` on a path that needs the counter to
be 1 and not 1 at once.

What is tracked (per abstract state of ``counters.CounterAnalysis``, joined per queue):

* for SGPRs (and M0, VCC halves...) an unsigned 32-bit interval, learnt from moves of
  constants, adds/subtracts of constants (exact while no wrap can occur) and from
  the outcome of ``s_cbranch_scc0/scc1`` after an ``s_cmp`` / ``s_cmpk`` against a
  constant or another SGPR;
* relations between two SGPRs that a taken/not-taken branch established
  (``s4 == s5``, ``s4 <u s5``...), while neither is written;
* what SCC currently holds: the comparison of the last ``s_cmp*``, while neither of
  its registers is written and no instruction that may write SCC intervened.

A CFG edge leaving a block that ends in ``s_cbranch_scc0/scc1`` is dropped for a state
when the comparison SCC holds is certainly false (or certainly true) on that edge;
otherwise the facts are refined with it.  Everything unknown is TOP, so a path is
dropped only when the contradiction is certain.  Not modelled (no pruning, sound):
``s_cbranch_vcc*``/``exec*`` (per-lane conditions), SCC set by anything but a
compare, signed orderings when an interval may hold a negative value, indirect
jumps (the CFG stops there anyway).

Termination: the facts of one (block, queue) pair are joined (interval hull,
relations intersected); after ``WIDEN_AFTER`` changes the registers still changing
go TOP, so a counting loop converges in a few rounds.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..asm.program import Instruction
from .classify import Facts
from .values import MASK32, operand_value, reg_key

WIDEN_AFTER = 3

Key = tuple[str, int]
# an operand of a compare: ("k", key) for a tracked SGPR, ("c", value) for a constant
Operand = tuple
# a comparison: (op, signed, lhs, rhs), op in eq ne lt le gt ge
Cond = tuple


@dataclass(frozen=True, slots=True)
class PathFacts:
    """What is known on the paths that reach one abstract state; hashable, immutable."""

    vals: tuple = ()  # sorted ((key, lo, hi), ...)
    rels: frozenset = frozenset()  # conditions known to hold between two SGPRs
    scc: Cond | None = None  # the comparison SCC holds

    def val(self, k: Key) -> tuple[int, int] | None:
        for kk, lo, hi in self.vals:
            if kk == k:
                return lo, hi
        return None


TOP = PathFacts()

_NEG = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}
_SWAP = {"eq": "eq", "ne": "ne", "lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
_CMP = {"eq": "eq", "lg": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}

# SALU/SOPP/SMEM instructions that leave SCC alone (every other s_* may write it)
_KEEPS_SCC = ("s_mov_", "s_movk_", "s_cmov_", "s_cselect_", "s_nop", "s_waitcnt", "s_barrier", "s_getpc_",
              "s_load_", "s_buffer_load_", "s_store_", "s_buffer_store_", "s_dcache_", "s_memtime",
              "s_memrealtime", "s_sleep", "s_setprio", "s_sendmsg", "s_branch", "s_cbranch_", "s_mul_i32",
              "s_mulk_i32", "s_bfm_", "s_brev_", "s_sext_", "s_pack_", "s_getreg_", "s_icache_inv",
              "s_sethalt", "s_trap", "s_ttracedata", "s_incperflevel", "s_decperflevel", "s_setkill",
              "s_movrel", "s_bitset", "s_wakeup", "s_endpgm", "s_swappc_", "s_setpc_", "s_atc_probe",
              "s_scratch_load_", "s_scratch_store_", "s_denorm_mode", "s_round_mode", "s_version")


def _writes_scc(f: Facts) -> bool:
    b = f.base
    if not b.startswith("s_"):
        return False
    return not b.startswith(_KEEPS_SCC)


# --------------------------------------------------------------------------- per-instruction effects


@dataclass(frozen=True, slots=True)
class Effect:
    """What one instruction does to the facts (precomputed)."""

    kills: tuple = ()  # SGPR keys written
    scc: bool = False  # may write SCC
    cmp: Cond | None = None  # sets SCC to this comparison
    dst: Key | None = None  # a modelled write: dst := fn(srcs)
    kind: str = ""  # mov | add | sub | cselect
    srcs: tuple = ()  # Operand per source
    all_top: bool = False  # a call: every SGPR unknown


def _operand(op, symbols) -> Operand | None:
    k = reg_key(op)
    if k is not None:
        return ("k", k) if k[0] == "s" else None
    v = operand_value(op, {}, symbols)
    if v is not None and v[0] == v[1]:
        return ("c", v[0])
    return None


def _cmp_of(base: str) -> tuple[str, bool] | None:
    """s_cmp_eq_u32 -> ('eq', False); s_cmpk_lt_i32 -> ('lt', True); None for others."""
    for pre in ("s_cmp_", "s_cmpk_"):
        if base.startswith(pre):
            rest = base[len(pre):]
            parts = rest.split("_")
            if len(parts) == 2 and parts[0] in _CMP and parts[1] in ("u32", "i32"):
                return _CMP[parts[0]], parts[1] == "i32"
    return None


def effect_of(f: Facts, ins: Instruction, symbols: dict | None) -> Effect | None:
    """The facts transfer of one instruction; None when it changes nothing we track."""
    if f.control == "call":
        return Effect(all_top=True)
    kills = tuple(sorted({(a.reg.file, a.reg.start + k) for a in f.writes if a.reg.file == "s"
                          for k in range(a.reg.count)}))
    scc = _writes_scc(f)
    if not kills and not scc:
        return None
    ops = ins.operands
    c = _cmp_of(f.base)
    if c is not None and len(ops) == 2:
        lhs, rhs = _operand(ops[0], symbols), _operand(ops[1], symbols)
        if f.base.startswith("s_cmpk_") and rhs is not None and rhs[0] == "c":
            v = rhs[1] & 0xFFFF  # SIMM16: sign-extended for the _i32 forms
            rhs = ("c", ((v - 0x10000) & MASK32) if c[1] and v & 0x8000 else v)
        cond = (c[0], c[1], lhs, rhs) if lhs is not None and rhs is not None else None
        return Effect(kills, True, cond)
    if len(kills) == 1 and ops:
        dst = reg_key(ops[0])
        if dst is not None and dst == kills[0]:
            b = f.base
            srcs = tuple(_operand(o, symbols) for o in ops[1:])
            if b in ("s_mov_b32", "s_movk_i32") and len(srcs) == 1:
                s0 = srcs[0]
                if b == "s_movk_i32" and s0 is not None and s0[0] == "c":
                    v = s0[1] & 0xFFFF
                    s0 = ("c", ((v - 0x10000) & MASK32) if v & 0x8000 else v)
                return Effect(kills, scc, None, dst, "mov", (s0,))
            if b in ("s_add_u32", "s_add_i32", "s_sub_u32", "s_sub_i32") and len(srcs) == 2:
                return Effect(kills, scc, None, dst, "add" if "add" in b else "sub", srcs)
            if b == "s_cselect_b32" and len(srcs) == 2:
                return Effect(kills, scc, None, dst, "cselect", srcs)
    return Effect(kills, scc)


def effects(facts: list[Facts], instructions: list[Instruction], symbols: dict | None) -> list[Effect | None]:
    """Effects of every instruction; identical statements share their facts' cache, so each is
    computed once (a generated kernel repeats a few hundred statements)."""
    out = []
    for f, ins in zip(facts, instructions):
        e = f.cache.get("paths.effect", f)
        if e is f:
            e = f.cache["paths.effect"] = effect_of(f, ins, symbols)
        out.append(e)
    return out


# --------------------------------------------------------------------------- the domain


def _value(pf_vals: dict, o: Operand | None) -> tuple[int, int] | None:
    if o is None:
        return None
    if o[0] == "c":
        return (o[1], o[1])
    return pf_vals.get(o[1])


def _shift(iv: tuple[int, int] | None, c: int) -> tuple[int, int] | None:
    """iv + c modulo 2^32, exact only when the whole interval wraps the same way."""
    if iv is None:
        return None
    lo, hi = iv[0] + c, iv[1] + c
    if hi <= MASK32 and lo >= 0:
        return lo, hi
    if lo > MASK32:
        return lo - (1 << 32), hi - (1 << 32)
    if hi < 0:
        return lo + (1 << 32), hi + (1 << 32)
    return None


def _lookup(vals: tuple, o: Operand | None) -> tuple[int, int] | None:
    if o is None:
        return None
    if o[0] == "c":
        return (o[1], o[1])
    k = o[1]
    for kk, lo, hi in vals:
        if kk == k:
            return lo, hi
    return None


def apply(pf: PathFacts, e: Effect) -> PathFacts:
    """The facts after an instruction with effect ``e`` (``pf`` itself when nothing changes)."""
    if e.all_top:
        return TOP
    vals = pf.vals
    result = None
    if e.kind:
        if e.kind == "mov":
            result = _lookup(vals, e.srcs[0])
        elif e.kind in ("add", "sub"):
            a, b = _lookup(vals, e.srcs[0]), _lookup(vals, e.srcs[1])
            if a is not None and b is not None:
                if b[0] == b[1]:
                    result = _shift(a, b[0] if e.kind == "add" else -b[0])
                elif a[0] == a[1] and e.kind == "add":
                    result = _shift(b, a[0])
        elif e.kind == "cselect":
            a, b = _lookup(vals, e.srcs[0]), _lookup(vals, e.srcs[1])
            if a is not None and b is not None:
                result = (min(a[0], b[0]), max(a[1], b[1]))
    killed = e.kills
    if killed and vals and any(v[0] in killed for v in vals):
        vals = tuple(v for v in vals if v[0] not in killed)
    if result is not None:
        vals = tuple(sorted(vals + ((e.dst, result[0], result[1]),)))
    rels = pf.rels
    if killed and rels:
        kept = frozenset(r for r in rels if r[2][1] not in killed and r[3][1] not in killed)
        if len(kept) != len(rels):
            rels = kept
    scc = pf.scc
    if e.scc:
        scc = e.cmp
    elif scc is not None and killed and any(o[0] == "k" and o[1] in killed for o in scc[2:]):
        scc = None  # the compare's registers changed: SCC no longer speaks of their values
    if vals is pf.vals and rels is pf.rels and scc == pf.scc:
        return pf
    return PathFacts(vals, rels, scc)


def _signed_ok(iv: tuple[int, int]) -> bool:
    return iv[1] < 0x80000000


def _holds(op: str, a: tuple[int, int], b: tuple[int, int]) -> bool | None:
    """Does ``a op b`` hold for every / no pair of values (True / False), or None."""
    if op == "eq":
        if a[0] == a[1] == b[0] == b[1]:
            return True
        if a[1] < b[0] or b[1] < a[0]:
            return False
        return None
    if op == "ne":
        r = _holds("eq", a, b)
        return None if r is None else not r
    if op == "lt":
        if a[1] < b[0]:
            return True
        if a[0] >= b[1]:
            return False
        return None
    if op == "le":
        if a[1] <= b[0]:
            return True
        if a[0] > b[1]:
            return False
        return None
    if op == "gt":
        return _holds("lt", b, a)
    return _holds("le", b, a)  # ge


def _narrow(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """(a', b'): the intervals refined by ``a op b`` holding (None: empty, infeasible)."""
    (alo, ahi), (blo, bhi) = a, b
    if op == "eq":
        lo, hi = max(alo, blo), min(ahi, bhi)
        return ((lo, hi), (lo, hi)) if lo <= hi else (None, None)
    if op == "ne":
        if blo == bhi:
            if alo == ahi == blo:
                return None, None
            alo += alo == blo
            ahi -= ahi == blo
        if alo == ahi:
            if blo == bhi == alo:
                return None, None
            blo += blo == alo
            bhi -= bhi == alo
    elif op == "lt":
        ahi, blo = min(ahi, bhi - 1), max(blo, alo + 1)
    elif op == "le":
        ahi, blo = min(ahi, bhi), max(blo, alo)
    elif op == "gt":
        b2, a2 = _narrow("lt", b, a)
        return a2, b2
    elif op == "ge":
        b2, a2 = _narrow("le", b, a)
        return a2, b2
    out_a = (alo, ahi) if alo <= ahi else None
    out_b = (blo, bhi) if blo <= bhi else None
    if out_a is None or out_b is None:
        return None, None
    return out_a, out_b


def _norm(cond: Cond) -> Cond:
    """One spelling of a register-register relation (lhs key <= rhs key)."""
    op, signed, lhs, rhs = cond
    if op in ("eq", "ne"):
        signed = False
    if lhs[1] > rhs[1]:
        return (_SWAP[op], signed, rhs, lhs)
    return (op, signed, lhs, rhs)


def assume(pf: PathFacts, cond: Cond, truth: bool) -> PathFacts | None:
    """``pf`` refined by ``cond`` being ``truth``; None when that is impossible."""
    op, signed, lhs, rhs = cond
    if not truth:
        op = _NEG[op]
    if op in ("eq", "ne"):
        signed = False
    if lhs == rhs:  # x op x
        return pf if op in ("eq", "le", "ge") else None
    vals = {k: (lo, hi) for k, lo, hi in pf.vals}
    full = (0, MASK32)
    a = _value(vals, lhs) or full
    b = _value(vals, rhs) or full
    regs = lhs[0] == "k" and rhs[0] == "k"
    if regs:
        c = _norm((op, signed, lhs, rhs))
        if c in pf.rels:
            return pf
        if _norm((_NEG[op], signed, lhs, rhs)) in pf.rels:
            return None
    if signed and not (_signed_ok(a) and _signed_ok(b)):
        # a signed ordering over values that may be negative: nothing certain from intervals
        if regs:
            return PathFacts(pf.vals, pf.rels | {_norm((op, signed, lhs, rhs))}, pf.scc)
        return pf
    verdict = _holds(op, a, b)
    if verdict is False:
        return None
    if verdict is True:
        return pf
    na, nb = _narrow(op, a, b)
    if na is None:
        return None
    if lhs[0] == "k" and na != full:
        vals[lhs[1]] = na
    if rhs[0] == "k" and nb != full:
        vals[rhs[1]] = nb
    rels = pf.rels | {_norm((op, signed, lhs, rhs))} if regs else pf.rels
    return PathFacts(tuple(sorted((k, lo, hi) for k, (lo, hi) in vals.items())), rels, pf.scc)


def join(a: PathFacts, b: PathFacts) -> PathFacts:
    if a == b:
        return a
    va = {k: (lo, hi) for k, lo, hi in a.vals}
    vals = []
    for k, lo, hi in b.vals:
        o = va.get(k)
        if o is not None:
            vals.append((k, min(lo, o[0]), max(hi, o[1])))
    return PathFacts(tuple(vals), a.rels & b.rels, a.scc if a.scc == b.scc else None)


def widen(old: PathFacts, new: PathFacts) -> PathFacts:
    """``new`` without the registers whose interval still moved since ``old``."""
    vo = set(old.vals)
    return PathFacts(tuple(v for v in new.vals if v in vo), new.rels, new.scc)


# --------------------------------------------------------------------------- branches


class PathModel:
    """Per-instruction effects and per-block branch conditions of one program."""

    def __init__(self, facts: list[Facts], instructions: list[Instruction], cfg, symbols: dict | None = None):
        self.facts = facts
        self.cfg = cfg
        self.effects = effects(facts, instructions, symbols)
        # block -> its effects in order (only those that do something)
        self.block_effects = [tuple(e for e in self.effects[b.start:b.end] if e is not None) for b in cfg.blocks]
        self._memo: dict[tuple[int, int], tuple[PathFacts, PathFacts]] = {}

    def through(self, b: int, pf: PathFacts) -> PathFacts:
        """The facts at the end of block ``b`` entered with ``pf``."""
        effs = self.block_effects[b]
        if not effs:
            return pf
        key = (b, id(pf))  # facts objects are shared between states: identity is enough (kept alive below)
        hit = self._memo.get(key)
        if hit is not None and hit[0] is pf:
            return hit[1]
        out = pf
        for e in effs:
            out = apply(out, e)
        if len(self._memo) > 200_000:
            self._memo.clear()
        self._memo[key] = (pf, out)
        return out

    def edge_truth(self, b: int, s: int) -> bool | None:
        """What CFG edge b -> s says about SCC: True/False after ``s_cbranch_scc0/scc1``, None when
        the edge says nothing (no such branch, or a branch to the next block: one edge for both)."""
        cfg = self.cfg
        last = self.facts[cfg.blocks[b].last]
        if last.control != "cbranch" or last.base not in ("s_cbranch_scc0", "s_cbranch_scc1"):
            return None
        taken = cfg.edge_kind(b, s) == "branch"
        if taken and s == b + 1:
            return None
        return taken if last.base == "s_cbranch_scc1" else not taken

    def edge(self, b: int, s: int, pf: PathFacts) -> PathFacts | None:
        """The facts on CFG edge b -> s, None when the edge cannot be taken with ``pf``."""
        truth = self.edge_truth(b, s)
        if truth is None or pf.scc is None:
            return pf
        return assume(pf, pf.scc, truth)


def describe_witness(witness: tuple, facts: list[Facts]) -> str:
    """'on the path that takes the branch at line 12, then falls through line 30' (last decisions)."""
    if not witness:
        return ""
    parts = []
    for i, taken in witness:
        f = facts[i]
        line = f.span.line if f.span else "?"
        to = f" to {f.target_label}" if f.target_label else ""
        parts.append(f"takes the branch{to} at line {line}" if taken else f"falls through the branch at line {line}")
    return "on the path that " + ", then ".join(parts)
