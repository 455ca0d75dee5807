"""Static LDS races: two waves of a workgroup may touch the same LDS dword with no ``s_barrier``
between them on some path, and the addresses prove that they do.

Why a separate analysis from ``values.py``: intervals cover every lane of every wave at once, so
they can say "these two ranges may meet" but never "wave 0 writes what wave 1 reads". Proving a
race needs each work-item's own address. Hand-written kernels build LDS addresses from the
work-item id and constants (``v_lshlrev_b32 v2, 2, v0``, ``v_xor_b32 v4, 0x100, v2``), so this
module evaluates those instructions *concretely*: one numpy array per register holding its value
for every work-item of the workgroup. A register whose value depends on anything else (a kernel
argument, a loaded value, a loop-carried update, a modifier it does not model) is unknown, and an
access through an unknown address is never reported. That is the rule's promise: a warning means
the addresses of two different waves provably meet; silence proves nothing.

Happens-before comes from ``s_barrier`` alone. Every wave passes the barriers in the same order,
so two accesses can run in the same barrier epoch exactly when some barrier (or the kernel entry)
reaches both without passing another barrier. Those "regions" are found by walking the CFG.

What the rule leaves out, so that it has no false alarms (``gcnemu lint --explain lds-race``):
- workgroups whose size the file does not state (a ``workgroup:`` or ``waves:`` header line);
- programs that write EXEC (lanes switched off do not access LDS), make calls, jump indirectly,
  or use VGPR-indexing mode;
- accesses in blocks that some wave may skip (not on every path from the entry to the end):
  a wave-dependent branch could keep the two accesses in one wave;
- a write still in flight at the barrier (the ``barrier-before-lds-writes-done`` counter rule
  reports that), LDS DMA, ``ds_read_addtid``/``ds_write_addtid``, GWS and ordered-count ops.
The engine's happens-before check (``gcnemu.sim.races``) sees all of these at run time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..asm.program import Expr, FloatImm, Imm, Modified, Symbol
from ..isa.rule_ids import RULE_LDS_RACE
from .cfg import CFG
from .classify import EXEC, RegRange, split_suffix
from .values import DS_READ2, DS_READ_SIZES, Key, forget_writes, int_modifier, reg_key

WAVE = 64
M32 = np.uint64(0xFFFFFFFF)

READ, WRITE, ATOMIC = "read", "write", "atomic"

DS_WRITE_SIZES = {"b8": 1, "b16": 2, "b32": 4, "b64": 8, "b96": 12, "b128": 16, "b8_d16_hi": 1,
                  "b16_d16_hi": 2}
DS_WRITE2 = {"ds_write2_b32": (4, 4), "ds_write2_b64": (8, 8), "ds_write2st64_b32": (4, 256),
             "ds_write2st64_b64": (8, 512)}
# DS instructions this rule does not model (not LDS-addressed per lane, or addressed by lane id)
DS_SKIPPED = ("ds_nop", "ds_swizzle", "ds_permute", "ds_bpermute", "ds_read_addtid", "ds_write_addtid",
              "ds_gws", "ds_append", "ds_consume", "ds_ordered_count", "ds_condxchg")

Values = dict[Key, np.ndarray]  # register -> uint64 array, one value per work-item; absent: unknown


def _sh(s: np.ndarray) -> np.ndarray:
    return s & np.uint64(31)


def _u24(a: np.ndarray) -> np.ndarray:
    return a & np.uint64(0xFFFFFF)


def _bfe(a, off, width):
    w = width & np.uint64(31)
    return (a >> _sh(off)) & ((np.uint64(1) << w) - np.uint64(1))


def _sext16(a):
    return np.where(a & np.uint64(0x8000), a | np.uint64(0xFFFF0000), a & np.uint64(0xFFFF))


OPS: dict[str, tuple[int, Callable]] = {
    # mnemonic -> (destination operands, value function of the sources); results are masked to 32 bits
    "s_mov_b32": (1, lambda a: a), "v_mov_b32": (1, lambda a: a), "s_movk_i32": (1, _sext16),
    "s_add_u32": (1, lambda a, b: a + b), "s_add_i32": (1, lambda a, b: a + b),
    "s_sub_u32": (1, lambda a, b: a - b), "s_sub_i32": (1, lambda a, b: a - b),
    "s_mul_i32": (1, lambda a, b: a * b),
    "s_lshl_b32": (1, lambda a, s: a << _sh(s)), "s_lshr_b32": (1, lambda a, s: a >> _sh(s)),
    "s_and_b32": (1, lambda a, b: a & b), "s_or_b32": (1, lambda a, b: a | b),
    "s_xor_b32": (1, lambda a, b: a ^ b),
    "s_lshl1_add_u32": (1, lambda a, b: (a << np.uint64(1)) + b),
    "s_lshl2_add_u32": (1, lambda a, b: (a << np.uint64(2)) + b),
    "s_lshl3_add_u32": (1, lambda a, b: (a << np.uint64(3)) + b),
    "s_lshl4_add_u32": (1, lambda a, b: (a << np.uint64(4)) + b),
    "s_min_u32": (1, np.minimum), "s_max_u32": (1, np.maximum),
    "s_bfe_u32": (1, lambda a, p: _bfe(a, p, p >> np.uint64(16))),
    "v_add_u32": (1, lambda a, b: a + b), "v_sub_u32": (1, lambda a, b: a - b),
    "v_subrev_u32": (1, lambda a, b: b - a),
    "v_add_co_u32": (2, lambda a, b: a + b), "v_sub_co_u32": (2, lambda a, b: a - b),
    "v_subrev_co_u32": (2, lambda a, b: b - a),
    "v_lshlrev_b32": (1, lambda s, a: a << _sh(s)), "v_lshrrev_b32": (1, lambda s, a: a >> _sh(s)),
    "v_and_b32": (1, lambda a, b: a & b), "v_or_b32": (1, lambda a, b: a | b),
    "v_xor_b32": (1, lambda a, b: a ^ b),
    "v_mul_u32_u24": (1, lambda a, b: _u24(a) * _u24(b)), "v_mul_lo_u32": (1, lambda a, b: a * b),
    "v_mad_u32_u24": (1, lambda a, b, c: _u24(a) * _u24(b) + c),
    "v_lshl_add_u32": (1, lambda a, s, c: (a << _sh(s)) + c),
    "v_add_lshl_u32": (1, lambda a, b, s: ((a + b) & M32) << _sh(s)),
    "v_lshl_or_b32": (1, lambda a, s, c: (a << _sh(s)) | c),
    "v_and_or_b32": (1, lambda a, b, c: (a & b) | c),
    "v_add3_u32": (1, lambda a, b, c: a + b + c), "v_or3_b32": (1, lambda a, b, c: a | b | c),
    "v_xad_u32": (1, lambda a, b, c: (a ^ b) + c),
    "v_bfe_u32": (1, _bfe),
    "v_min_u32": (1, np.minimum), "v_max_u32": (1, np.maximum),
}
"""What kernels build LDS addresses with; every other register write makes its register unknown."""


@dataclass(frozen=True)
class LdsAccess:
    index: int  # instruction index
    kind: str  # READ | WRITE | ATOMIC
    dwords: np.ndarray  # int64 dword index per (work-item, element), flattened
    waves: np.ndarray  # the wave of each entry of `dwords`


@dataclass(frozen=True)
class StaticRace:
    kind: str  # RAW | WAR | WAW
    first: int  # instruction index of the earlier access in program order
    second: int
    wave_a: int  # an example: the wave running `first`
    wave_b: int  # ... and another wave running `second` on a common dword
    byte: int  # the common dword's byte address


class LaneValues:
    """Per-work-item register values before each instruction, over the CFG (forward, equality join)."""

    def __init__(self, instructions, facts, cfg: CFG, target: str, workgroup: tuple[int, int, int],
                 symbols: dict | None = None):
        self.instructions = instructions
        self.facts = facts
        self.cfg = cfg
        self.symbols = symbols or {}
        x, y, z = workgroup
        t = np.arange(x * y * z, dtype=np.uint64)
        self.items = len(t)
        self.wave = (t // np.uint64(WAVE)).astype(np.int64)
        ix, iy, iz = t % np.uint64(x), (t // np.uint64(x)) % np.uint64(y), t // np.uint64(x * y)
        if target == "gfx908":  # work-item ids in v0, v1, v2
            self.init: Values = {("v", 0): ix, ("v", 1): iy, ("v", 2): iz}
        else:  # packed into v0 as x | y << 10 | z << 20 (AMDGPUUsage, "VGPR register set up order")
            self.init = {("v", 0): ix | (iy << np.uint64(10)) | (iz << np.uint64(20))}
        self.lane = (t % np.uint64(WAVE))
        self.entry: dict[int, Values | None] = {}

    def _const(self, op) -> np.ndarray | None:
        v = None
        if isinstance(op, Imm) and isinstance(op.value, int):
            v = op.value
        elif isinstance(op, (Symbol, Expr)):
            from ..asm.resolve import eval_const
            try:
                v = eval_const(op, self.symbols)
            except Exception:
                return None
            v = v if isinstance(v, int) else None
        if v is None:
            return None
        return np.full(self.items, v & 0xFFFFFFFF, dtype=np.uint64)

    def operand(self, op, st: Values) -> np.ndarray | None:
        if isinstance(op, (FloatImm, Modified)):
            return None
        c = self._const(op)
        if c is not None:
            return c
        k = reg_key(op)
        return st.get(k) if k is not None else None

    def _special(self, base: str, ins, st: Values) -> np.ndarray | None:
        """Lane-dependent instructions the table cannot express."""
        srcs = [self.operand(o, st) for o in ins.operands[1:]]
        if base == "v_readfirstlane_b32" and srcs and srcs[0] is not None:
            first = srcs[0][(np.arange(self.items) // WAVE) * WAVE]  # each wave's first lane
            return first
        if base in ("v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32") and len(srcs) == 2 and all(s is not None for s in srcs):
            mask, add = srcs
            lane = self.lane.astype(np.int64)
            below = lane if base.endswith("lo_u32_b32") else np.maximum(lane - 32, 0)
            below = np.minimum(below, 32)
            bits = mask & ((np.uint64(1) << below.astype(np.uint64)) - np.uint64(1))
            counts = np.array([bin(int(b)).count("1") for b in bits], dtype=np.uint64)
            return counts + add
        return None

    def step(self, st: Values, i: int) -> None:
        f = self.facts[i]
        ins = self.instructions[i]
        base, suffix = split_suffix(f.base)
        result, dst = None, None
        if ins.operands and suffix in ("", "e32", "e64") and not ins.modifiers:
            dst = reg_key(ins.operands[0])
            entry = OPS.get(base)
            if dst is not None and entry is not None and len(ins.operands) > entry[0]:
                srcs = [self.operand(o, st) for o in ins.operands[entry[0]:]]
                if all(s is not None for s in srcs):
                    try:
                        result = entry[1](*srcs) & M32
                    except TypeError:  # an operand count the table does not know: unknown
                        result = None
            elif dst is not None:
                result = self._special(base, ins, st)
        forget_writes(st, f)
        if result is not None:
            st[dst] = result

    def run(self) -> "LaneValues":
        cfg = self.cfg
        entry: dict[int, Values | None] = {b: None for b in range(len(cfg.blocks))}
        for e in cfg.entries:
            entry[e] = dict(self.init)
        work = list(cfg.entries)
        while work:
            b = work.pop(0)
            st = dict(entry[b])
            for i in cfg.blocks[b].indices:
                self.step(st, i)
            for s in cfg.succs(b):
                old = entry[s]
                new = dict(st) if old is None else {k: v for k, v in old.items()
                                                    if k in st and np.array_equal(v, st[k])}
                if old is not None and new.keys() == old.keys():
                    continue  # values only ever drop out: equal key sets mean no change
                entry[s] = new
                if s not in work:
                    work.append(s)
        self.entry = entry
        return self

    def states(self, wanted: set[int]) -> dict[int, Values]:
        """The state before each wanted instruction (unreachable ones left out)."""
        out: dict[int, Values] = {}
        for b, blk in enumerate(self.cfg.blocks):
            if self.entry.get(b) is None or not any(i in wanted for i in blk.indices):
                continue
            st = dict(self.entry[b])
            for i in blk.indices:
                if i in wanted:
                    out[i] = dict(st)
                self.step(st, i)
        return out


def _ds_shape(base: str) -> tuple[str, int, list[tuple[str, int, int]]] | None:
    """(kind, address operand position, [(offset modifier, multiplier, bytes)]) of a DS instruction."""
    if base.startswith(DS_SKIPPED) or not base.startswith("ds_"):
        return None
    if base in DS_READ2:
        elem, mult = DS_READ2[base]
        return READ, 1, [("offset0", mult, elem), ("offset1", mult, elem)]
    if base in DS_WRITE2:
        elem, mult = DS_WRITE2[base]
        return WRITE, 0, [("offset0", mult, elem), ("offset1", mult, elem)]
    if base.startswith("ds_read_"):
        size = DS_READ_SIZES.get(base[len("ds_read_"):])
        return (READ, 1, [("offset", 1, size)]) if size else None
    if base.startswith("ds_write_"):
        size = DS_WRITE_SIZES.get(base[len("ds_write_"):])
        return (WRITE, 0, [("offset", 1, size)]) if size else None
    if base.startswith(("ds_read", "ds_write", "ds_load", "ds_store")):
        return None  # forms not listed above (b96 variants of other spellings, tr, ...): not modelled
    tail = base.rsplit("_", 1)[-1]
    size = {"b32": 4, "u32": 4, "i32": 4, "f32": 4, "f16": 4, "bf16": 4,
            "b64": 8, "u64": 8, "i64": 8, "f64": 8}.get(tail)
    if size is None:
        return None
    returns = "_rtn_" in base or base.startswith("ds_wrxchg")
    return ATOMIC, 1 if returns else 0, [("offset", 1, size)]


def lds_accesses(lv: LaneValues, instructions, facts, must_run: set[int]) -> list[LdsAccess]:
    """Every DS access whose per-work-item addresses are known, in blocks every wave runs."""
    wanted = {i for i, f in enumerate(facts) if f.base.startswith("ds_") and lv.cfg.block_of[i] in must_run}
    states = lv.states(wanted)
    out = []
    for i in sorted(states):
        shape = _ds_shape(split_suffix(facts[i].base)[0])
        ins = instructions[i]
        if shape is None or len(ins.operands) <= shape[1]:
            continue
        kind, pos, elems = shape
        addr = lv.operand(ins.operands[pos], states[i])
        if addr is None:
            continue
        parts = []
        for name, mult, size in elems:
            off = int_modifier(ins, name, lv.symbols)
            if off is None:
                parts = []
                break
            start = (addr.astype(np.int64) + off * mult) & 0xFFFFFFFF
            first, last = start // 4, (start + size - 1) // 4
            parts += [np.where(first + k <= last, first + k, first)  # (repeats are harmless)
                      for k in range(int((last - first).max()) + 1)]
        if not parts:
            continue
        dwords = np.concatenate(parts)
        waves = np.tile(lv.wave, len(parts))
        out.append(LdsAccess(i, kind, dwords, waves))
    return out


def _must_run(cfg: CFG) -> set[int] | None:
    """Blocks on every path from the entry to the end of the kernel (None: the CFG has exits the
    analysis cannot follow)."""
    import networkx as nx
    if len(cfg.entries) != 1 or any(b.unknown_exit for b in cfg.blocks):
        return None
    g = nx.DiGraph(cfg.graph)
    end = "end"
    g.add_node(end)
    for b in cfg.blocks:
        if not cfg.succs(b.id):
            g.add_edge(b.id, end)
    reach = nx.descendants(g, cfg.entries[0]) | {cfg.entries[0]}
    if end not in reach:
        return None
    idom = nx.immediate_dominators(g.subgraph(reach), cfg.entries[0])
    out, node, start = set(), idom[end], cfg.entries[0]
    while node != start:  # (networkx versions differ on whether the start maps to itself)
        out.add(node)
        node = idom[node]
    return out | {start}


def barrier_regions(cfg: CFG, facts) -> dict[int, dict[int, int]]:
    """Instruction index -> {region: steps from the region's start}. A region is named by where it
    starts (the entry, -1, or an ``s_barrier``'s index) and holds what that point reaches without
    passing another barrier: two waves may run any two of its instructions in the same barrier
    epoch, and the one fewer steps from the start runs first there (which tells RAW from WAR)."""
    barriers = [i for i, f in enumerate(facts) if f.base == "s_barrier"]
    starts = [(-1, cfg.blocks[e].start) for e in cfg.entries] + [(b, b + 1) for b in barriers]
    member: dict[int, dict[int, int]] = {}
    for name, first in starts:
        seen_blocks: set[int] = set()
        todo = [(first, 0)]  # breadth first: the first visit of an instruction is its fewest steps
        while todo:
            pos, steps = todo.pop(0)
            if pos >= len(facts):
                continue
            b = cfg.block_of[pos]
            stopped = False
            for i in range(pos, cfg.blocks[b].end):
                if facts[i].base == "s_barrier":
                    stopped = True
                    break
                member.setdefault(i, {}).setdefault(name, steps + i - pos)
            if stopped:
                continue
            for s in cfg.succs(b):
                if s not in seen_blocks:
                    seen_blocks.add(s)
                    todo.append((cfg.blocks[s].start, steps + cfg.blocks[b].end - pos))
    return member


def _conflict(a: LdsAccess, b: LdsAccess) -> tuple[int, int, int] | None:
    """(dword, wave of a, wave of b) for a common dword that two different waves touch, else None."""
    if a.dwords.max() < b.dwords.min() or b.dwords.max() < a.dwords.min():
        return None
    common = np.intersect1d(a.dwords, b.dwords)
    if not len(common):
        return None
    ina, inb = np.isin(a.dwords, common), np.isin(b.dwords, common)
    da, wa = a.dwords[ina], a.waves[ina]
    db, wb = b.dwords[inb], b.waves[inb]
    # for each common dword: the smallest and largest wave on each side
    order_a, order_b = np.lexsort((wa, da)), np.lexsort((wb, db))
    da, wa, db, wb = da[order_a], wa[order_a], db[order_b], wb[order_b]
    sa = np.searchsorted(da, common)
    ea = np.searchsorted(da, common, side="right") - 1
    sb = np.searchsorted(db, common)
    eb = np.searchsorted(db, common, side="right") - 1
    differ = (wa[sa] != wb[eb]) | (wa[ea] != wb[sb])
    if not differ.any():
        return None
    k = int(np.flatnonzero(differ)[0])
    x, y = (wa[sa[k]], wb[eb[k]]) if wa[sa[k]] != wb[eb[k]] else (wa[ea[k]], wb[sb[k]])
    return int(common[k]), int(x), int(y)


def _kind(first: str, second: str) -> str:
    if first != READ and second != READ:
        return "WAW"
    return "RAW" if first != READ else "WAR"


def static_races(instructions, facts, cfg: CFG, target: str, workgroup: tuple[int, int, int] | None,
                 symbols: dict | None = None) -> list[StaticRace]:
    """The proven LDS races of a program (see the module docstring for what is left out)."""
    if workgroup is None or workgroup[0] * workgroup[1] * workgroup[2] <= WAVE:
        return []
    exec_range = RegRange("s", *EXEC)
    if any(f.control in ("call", "indirect") or f.base.startswith(("s_set_gpr_idx", "v_movrel", "s_movrel"))
           or any(a.reg.overlaps(exec_range) for a in f.writes) for f in facts):
        return []
    if not any(f.base.startswith("ds_") for f in facts):
        return []
    must = _must_run(cfg)
    if not must:
        return []
    lv = LaneValues(instructions, facts, cfg, target, workgroup, symbols).run()
    accesses = lds_accesses(lv, instructions, facts, must)
    regions = barrier_regions(cfg, facts)
    found: list[StaticRace] = []
    for x, a in enumerate(accesses):
        for b in accesses[x:]:
            if a.kind == READ and b.kind == READ or a.kind == ATOMIC and b.kind == ATOMIC:
                continue
            ra, rb = regions.get(a.index, {}), regions.get(b.index, {})
            shared = ra.keys() & rb.keys()
            if not shared:
                continue
            hit = _conflict(a, b)
            if hit is None:
                continue
            dword, wa, wb = hit
            where = min(shared)  # the entry's region, or the earliest barrier's
            first, second = (a, b) if ra[where] <= rb[where] else (b, a)  # (b first: a loop's back edge)
            if first is b:
                wa, wb = wb, wa
            found.append(StaticRace(_kind(first.kind, second.kind), first.index, second.index, wa, wb, 4 * dword))
    return found


__all__ = ["RULE_LDS_RACE", "StaticRace", "static_races", "barrier_regions", "LaneValues"]
