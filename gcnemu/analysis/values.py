"""Register value ranges before each instruction (forward interval analysis over the CFG).

Why: an LDS DMA and a ``ds_read`` only race when their LDS byte ranges meet.  The
counter analysis (``counters.py``) asks this module for those ranges so that a
double-buffered kernel, whose DMA fills one buffer while the ``ds_read`` s read the
other, is not flagged.  Everything here errs on the side of "may overlap": an
unknown value is TOP and TOP overlaps everything.

Domain: for each SGPR (M0 is SGPR 124) and each VGPR, one unsigned 32-bit interval
``(lo, hi)`` (inclusive) covering every lane of every wave of the workgroup, or TOP
(absent from the state dict).  Initial state: the workitem ids (``v0`` packed as
``x | y << 10 | z << 20`` on gfx90a and later, ``v0``/``v1``/``v2`` on gfx908) from the
workgroup size the file's header declares (1-D with up to 1024 work-items when it
does not); every other register (kernel arguments, workgroup ids...) is TOP.

Transfer: a small table mnemonic -> function over the source intervals
(``TRANSFER``), for what kernels use to build LDS addresses and M0: moves, add/sub,
shifts, and/or/xor, 24-bit multiplies, the VOP3 shift-and-add forms, ``v_bfe_u32``,
``v_readfirstlane_b32``.  Every other instruction that writes a register makes it
TOP.  A result that may leave 0..2^32-1 (carry, borrow, wrap) is TOP.  When the
program writes EXEC anywhere, a VALU result is joined with the register's old value
(inactive lanes keep it).  A call makes everything TOP, an M0-relative move its whole
register file; a program with an indirect jump or ``s_set_gpr_idx_on`` gets no facts.  Joins take the hull; around loops each block's entry is
widened to TOP for the registers still changing after ``WIDEN_AFTER`` rounds, so
loop-invariant values stay exact and induction variables go TOP.

LDS ranges (``LdsRanges``), byte intervals ``[lo, hi)``:

* LDS DMA (``buffer_load_* ... lds``, ``global_load_lds_*``) writes lane ``i`` at
  ``base + inst_offset + i * slot`` with ``slot`` 4 (16 for dwordx3/x4) and ``base``
  ``M0[15:0]`` (``M0[17:0]`` on gfx950) for MUBUF, ``M0[17:2] * 4`` for global
  (``gcnemu/sim/semantics/memaddr.py``, from the ISA guides): the range is
  ``[base + offset, base + offset + 64 * slot)`` over the interval of M0;
* a DS read reads ``[addr + offset, addr + offset + size)``; ``ds_read2*`` reads two
  elements at ``offset0 * mult`` and ``offset1 * mult`` (mult = element size, x64 for
  the st64 forms).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..asm.program import Expr, FloatImm, Imm, Instruction, Modified, Reg, Special, Symbol
from .cfg import CFG
from .classify import EXEC, SPECIAL_SGPRS, TTMP_BASE, Facts, RegRange, split_suffix

MASK32 = 0xFFFFFFFF
M0_KEY = ("s", 124)
WIDEN_AFTER = 3  # rounds a block's entry may change before the changing registers go TOP

Interval = tuple[int, int]
Key = tuple[str, int]
State = dict[Key, Interval]  # a register absent from the dict is TOP

# --------------------------------------------------------------------------- interval helpers


def fit(lo: int, hi: int) -> Interval | None:
    """The interval if it stays inside 0..2^32-1, else TOP (the 32-bit result wrapped)."""
    if lo < 0 or hi > MASK32 or lo > hi:
        return None
    return (lo, hi)


def hull(a: Interval | None, b: Interval | None) -> Interval | None:
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def _ones(x: int) -> int:
    """All bits up to the highest bit of x set: the largest value an and/or/xor of x-sized values can take."""
    return (1 << x.bit_length()) - 1


def _block(x: Interval, c: int) -> Interval:
    """Where x op c can land for op in (or, xor) with a constant c of K bits: the bits of x
    above K stay, the K low bits can become anything."""
    k = c.bit_length()
    return ((x[0] >> k) << k, ((x[1] >> k) << k) + (1 << k) - 1)


def _exact(a: Interval) -> bool:
    return a[0] == a[1]


def add(a, b):
    return fit(a[0] + b[0], a[1] + b[1])


def sub(a, b):
    return fit(a[0] - b[1], a[1] - b[0])


def mul(a, b):
    return fit(a[0] * b[0], a[1] * b[1])


def lshl(a, s):
    """a << s; the hardware uses s & 31, so a shift interval beyond 31 is TOP."""
    if s[1] > 31:
        return None
    return fit(a[0] << s[0], a[1] << s[1])


def lshr(a, s):
    if s[1] > 31:
        return None
    return (a[0] >> s[1], a[1] >> s[0])


def band(a, b):
    """a & b <= min(a, b); with a constant mask covering every bit x can have, x is unchanged."""
    if _exact(a) and _exact(b):
        return (a[0] & b[0],) * 2
    for c, x in ((a, b), (b, a)):
        if _exact(c) and c[0] & _ones(x[1]) == _ones(x[1]):
            return x
    return (0, min(a[1], b[1]))


def bor(a, b):
    """Constant bits above x's range add exactly (disjoint bits); otherwise bound by sum and bit width."""
    if _exact(a) and _exact(b):
        return (a[0] | b[0],) * 2
    for c, x in ((a, b), (b, a)):
        if _exact(c):
            if c[0] & _ones(x[1]) == 0:
                return fit(x[0] + c[0], x[1] + c[0])
            return (max(x[0], c[0]), min(_block(x, c[0])[1], x[1] + c[0]))
    return (max(a[0], b[0]), min(a[1] + b[1], _ones(max(a[1], b[1]))))


def bxor(a, b):
    """Constant bits above x's range add exactly; constant bits inside it can move x anywhere in it."""
    if _exact(a) and _exact(b):
        return (a[0] ^ b[0],) * 2
    for c, x in ((a, b), (b, a)):
        if _exact(c):
            m = _ones(x[1])
            high, low = c[0] & ~m, c[0] & m
            if low == 0:
                return fit(x[0] + high, x[1] + high)
            blk = _block(x, c[0])
            return (max(high, blk[0]), min(high + m, blk[1]))
    return (0, _ones(max(a[1], b[1])))


def u24(a):
    """The low 24 bits an ``_u24`` multiply uses."""
    return a if a[1] <= 0xFFFFFF else (0, 0xFFFFFF)


def bfe(a, off, width):
    if not (_exact(off) and _exact(width)):
        return None
    o, w = off[0] & 31, width[0] & 31
    if w == 0:
        return (0, 0)
    return band(lshr(a, (o, o)), ((1 << w) - 1,) * 2)


def _sext16(a):
    if not _exact(a):
        return None
    v = a[0] & 0xFFFF
    return ((v - 0x10000) & MASK32 if v & 0x8000 else v,) * 2


# --------------------------------------------------------------------------- transfer table


@dataclass(frozen=True)
class Op:
    """How one mnemonic computes its first destination from the source operands."""

    fn: Callable
    dests: int = 1  # operands before the sources (v_add_co_u32 also writes a carry SGPR pair)
    vector: bool = False  # a VALU result: joined with the old value when EXEC may be partial


def _salu(fn, dests=1):
    return Op(fn, dests, False)


def _valu(fn, dests=1):
    return Op(fn, dests, True)


TRANSFER: dict[str, Op] = {
    # SALU: M0 and per-wave LDS bases are built with these
    "s_mov_b32": _salu(lambda a: a),
    "s_movk_i32": _salu(_sext16),
    "s_add_u32": _salu(add), "s_add_i32": _salu(add),
    "s_sub_u32": _salu(sub), "s_sub_i32": _salu(sub),
    "s_mul_i32": _salu(mul),
    "s_lshl_b32": _salu(lshl), "s_lshr_b32": _salu(lshr),
    "s_and_b32": _salu(band), "s_or_b32": _salu(bor), "s_xor_b32": _salu(bxor),
    "s_lshl1_add_u32": _salu(lambda a, b: add(lshl(a, (1, 1)), b)),
    "s_lshl2_add_u32": _salu(lambda a, b: add(lshl(a, (2, 2)), b)),
    "s_lshl3_add_u32": _salu(lambda a, b: add(lshl(a, (3, 3)), b)),
    "s_lshl4_add_u32": _salu(lambda a, b: add(lshl(a, (4, 4)), b)),
    "s_min_u32": _salu(lambda a, b: (min(a[0], b[0]), min(a[1], b[1]))),
    "s_max_u32": _salu(lambda a, b: (max(a[0], b[0]), max(a[1], b[1]))),
    "s_cselect_b32": _salu(hull),  # either source, SCC unknown
    # VALU: per-lane LDS addresses
    "v_mov_b32": _valu(lambda a: a),
    "v_readfirstlane_b32": _salu(lambda a: a),  # one lane's value: inside the VGPR's interval
    "v_add_u32": _valu(add), "v_sub_u32": _valu(sub), "v_subrev_u32": _valu(lambda a, b: sub(b, a)),
    "v_add_co_u32": _valu(add, 2), "v_sub_co_u32": _valu(sub, 2),
    "v_subrev_co_u32": _valu(lambda a, b: sub(b, a), 2),
    "v_lshlrev_b32": _valu(lambda s, a: lshl(a, s)), "v_lshrrev_b32": _valu(lambda s, a: lshr(a, s)),
    "v_and_b32": _valu(band), "v_or_b32": _valu(bor), "v_xor_b32": _valu(bxor),
    "v_mul_u32_u24": _valu(lambda a, b: mul(u24(a), u24(b))),
    "v_mad_u32_u24": _valu(lambda a, b, c: add(mul(u24(a), u24(b)), c)),
    "v_lshl_add_u32": _valu(lambda a, s, c: add(lshl(a, s), c)),
    "v_add_lshl_u32": _valu(lambda a, b, s: lshl(add(a, b), s)),
    "v_lshl_or_b32": _valu(lambda a, s, c: bor(lshl(a, s), c)),
    "v_and_or_b32": _valu(lambda a, b, c: bor(band(a, b), c)),
    "v_add3_u32": _valu(lambda a, b, c: add(add(a, b), c)),
    "v_or3_b32": _valu(lambda a, b, c: bor(bor(a, b), c)),
    "v_bfe_u32": _valu(bfe),
    "v_min_u32": _valu(lambda a, b: (min(a[0], b[0]), min(a[1], b[1]))),
    "v_max_u32": _valu(lambda a, b: (max(a[0], b[0]), max(a[1], b[1]))),
    "v_cndmask_b32": _valu(lambda a, b, *_: hull(a, b)),  # either source, per lane
}


def _bfe_s(a, packed):
    """s_bfe_u32: offset in bits [4:0], width in [22:16] of the second operand."""
    if not _exact(packed):
        return None
    return bfe(a, (packed[0] & 31,) * 2, ((packed[0] >> 16) & 0x7F,) * 2)


TRANSFER["s_bfe_u32"] = _salu(_bfe_s)


# --------------------------------------------------------------------------- operands


def reg_key(op) -> Key | None:
    """The tracked 32-bit register an operand names (v5, s3, m0, vcc_lo...), else None."""
    if isinstance(op, Reg) and op.count == 1:
        if op.file in ("v", "s"):
            return (op.file, op.index)
        if op.file == "ttmp":
            return ("s", TTMP_BASE + op.index)
    if isinstance(op, Special):
        name = op.name[4:] if op.name.startswith("src_") else op.name
        s = SPECIAL_SGPRS.get(name)
        if s is not None and s[1] == 1:
            return ("s", s[0])
    return None


def operand_value(op, state: State, symbols: dict | None = None) -> Interval | None:
    """Interval of a source operand in ``state`` (constants exact, registers tracked, else TOP)."""
    if isinstance(op, Imm):
        return ((op.value & MASK32),) * 2 if isinstance(op.value, int) else None
    if isinstance(op, (Symbol, Expr)):
        from ..asm.resolve import eval_const
        try:
            v = eval_const(op, symbols or {})
        except Exception:  # an undefined symbol: validation reports it
            return None
        return ((v & MASK32),) * 2 if isinstance(v, int) else None
    if isinstance(op, (FloatImm, Modified)):
        return None
    k = reg_key(op)
    return state.get(k) if k is not None else None


def int_modifier(ins: Instruction, name: str, symbols: dict | None = None, default: int = 0) -> int | None:
    """An integer modifier (``offset:256``, ``offset0:3``, ``offset:SYM``); None when not a constant."""
    v = ins.modifier(name, default)
    if isinstance(v, bool) or isinstance(v, tuple):
        return None
    if isinstance(v, int):
        return v
    from ..asm.resolve import eval_const
    try:
        return eval_const(Symbol(str(v), ins.span), symbols or {})
    except Exception:  # an undefined symbol: validation reports it
        return None


def forget_writes(st: dict, f: Facts) -> None:
    """Drop every SGPR/VGPR an instruction writes from a per-register state: what it held is gone
    (the caller then stores the one result it can compute)."""
    for a in f.writes:
        r = a.reg
        if r.file in ("s", "v"):
            for k in range(r.start, r.start + r.count):
                st.pop((r.file, k), None)


def _units(r: RegRange) -> list[Key]:
    if r.file not in ("s", "v"):
        return []
    return [(r.file, r.start + k) for k in range(r.count)]


# --------------------------------------------------------------------------- the analysis


def initial_state(target: str, workgroup: tuple[int, int, int] | None) -> State:
    """Workitem ids from the workgroup size (1-D, up to 1024 work-items, when unknown)."""
    x, y, z = workgroup or (1024, 1, 1)
    if target == "gfx908":
        return {("v", 0): (0, x - 1), ("v", 1): (0, y - 1), ("v", 2): (0, z - 1)}
    return {("v", 0): (0, (x - 1) | ((y - 1) << 10) | ((z - 1) << 20))}


@dataclass(frozen=True)
class LaunchFacts:
    """What the launch tells the value analysis: the workgroup size (None: up to 1024 work-items,
    1-D) and the registers the launch initialises (their values are unknown to the linter, so the
    analysis must not assume the ABI's values for them). Callers derive it from a header or a
    `Setup` (see `from_setup`), so the analysis never reads snippet headers itself."""

    workgroup: tuple[int, int, int] | None = None
    initialised: frozenset = frozenset()

    @classmethod
    def from_setup(cls, setup, workgroup_known: bool = True) -> "LaunchFacts":
        from ..setup import sgpr_range
        regs: set[Key] = set()
        for name in getattr(setup, "sgprs", {}) or {}:
            try:
                lo, n = sgpr_range(name)
            except Exception:
                continue
            regs |= {("s", lo + k) for k in range(n)}
        for name in getattr(setup, "vgprs", {}) or {}:
            m = re.match(r"^v(\d+)$", str(name).strip())
            if m:
                regs.add(("v", int(m.group(1))))
        return cls(tuple(setup.workgroup_size) if workgroup_known else None, frozenset(regs))


class ValueAnalysis:
    """Interval per register before each instruction; ``before(i)`` replays i's block."""

    def __init__(self, instructions: list[Instruction], facts: list[Facts], cfg: CFG, target: str,
                 workgroup: tuple[int, int, int] | None = None, symbols: dict | None = None,
                 top: set[Key] = frozenset()):
        self.instructions = instructions
        self.facts = facts
        self.cfg = cfg
        self.symbols = symbols or {}
        self.init = {k: v for k, v in initial_state(target, workgroup).items() if k not in top}
        exec_range = RegRange("s", *EXEC)
        self.partial_exec = any(a.reg.overlaps(exec_range) for f in facts for a in f.writes)
        # Register writes the operands do not name: relative (M0-indexed) moves write some
        # register of their file; s_set_gpr_idx_on makes VALU operands relative; an indirect
        # jump (s_setpc_b64) may land on any block. Those programs get no facts at all.
        self.unknown_control = any(f.control == "indirect" or f.base.startswith("s_set_gpr_idx_on")
                                   for f in facts)
        if self.unknown_control:
            self.init = {}
        self.entry: dict[int, State | None] = {}
        self._block_cache: dict[int, dict[int, State]] = {}
        self._ops: list[Op | None] = []
        for f, ins in zip(facts, instructions):
            base, suffix = split_suffix(f.base)
            op = TRANSFER.get(base) if suffix in ("", "e32", "e64") and not ins.modifiers else None
            self._ops.append(op if op is not None and len(ins.operands) > op.dests else None)
        # the instructions whose state before them is asked for (LDS DMA and DS)
        self._wanted = {i for i, f in enumerate(facts) if f.mem is not None
                        and (f.mem.kind == "lds-dma" or f.base.startswith("ds_"))}

    def step(self, st: State, i: int) -> State:
        """The state after instruction ``i`` (``st`` is updated in place and returned)."""
        f = self.facts[i]
        if f.control == "call":
            st.clear()  # the callee may write any register
            return st
        if f.base.startswith(("s_movreld", "v_movreld", "v_movrelsd", "v_swaprel")):
            file = f.base[0]  # writes s/v[D + M0]: any register of its file
            for k in [k for k in st if k[0] == file]:
                del st[k]
            return st
        if not f.writes:
            return st
        ins = self.instructions[i]
        op = self._ops[i]
        result = None
        dst = None
        if op is not None:
            dst = reg_key(ins.operands[0])
            if dst is not None:
                srcs = [operand_value(o, st, self.symbols) for o in ins.operands[op.dests:]]
                if f.base == "s_movk_i32":
                    srcs = srcs[:1]
                if all(x is not None for x in srcs) or f.base == "v_cndmask_b32":
                    try:
                        result = op.fn(*srcs)
                    except TypeError:  # operand count that the table does not know: TOP
                        result = None
                if result is not None and op.vector and self.partial_exec:
                    result = hull(result, st.get(dst))
        forget_writes(st, f)
        if result is not None:
            st[dst] = result
        return st

    def run(self) -> "ValueAnalysis":
        cfg = self.cfg
        n = len(cfg.blocks)
        entry: dict[int, State | None] = {b: None for b in range(n)}
        for e in cfg.entries:
            entry[e] = dict(self.init)
        if self.unknown_control:  # any block may be entered from anywhere: nothing is known
            entry = {b: {} for b in range(n)}
        changes = [0] * n
        work = list(cfg.entries) if not self.unknown_control else list(range(n))
        queued = set(work)
        while work:
            b = work.pop(0)
            queued.discard(b)
            st = dict(entry[b])
            for i in cfg.blocks[b].indices:
                self.step(st, i)
            for s in cfg.succs(b):
                old = entry[s]
                if old is None:
                    new = dict(st)
                else:
                    new = {k: hull(v, st.get(k)) for k, v in old.items() if k in st}
                    new = {k: v for k, v in new.items() if v is not None}
                    if new == old:
                        continue
                    changes[s] += 1
                    if changes[s] > WIDEN_AFTER:  # widen: what still moves goes TOP
                        new = {k: v for k, v in new.items() if old.get(k) == v}
                if new == old:
                    continue
                entry[s] = new
                if s not in queued:
                    work.append(s)
                    queued.add(s)
        self.entry = entry
        self._block_cache = {}
        return self

    def before(self, i: int) -> State | None:
        """The state before instruction ``i`` (None: unreachable).  A block is replayed once,
        keeping the states before its LDS DMA and DS instructions (and ``i``)."""
        b = self.cfg.block_of[i]
        snaps = self._block_cache.get(b)
        if snaps is None or (i not in snaps and i not in self._wanted):
            snaps = {} if snaps is None else snaps
            st = self.entry.get(b)
            if st is None:
                return None
            st = dict(st)
            for j in self.cfg.blocks[b].indices:
                if j == i or j in self._wanted:
                    snaps[j] = dict(st)
                self.step(st, j)
            self._block_cache[b] = snaps
        return snaps.get(i)

    def value(self, i: int, op) -> Interval | None:
        st = self.before(i)
        return operand_value(op, st, self.symbols) if st is not None else None


# --------------------------------------------------------------------------- LDS byte ranges

# MUBUF `... lds` takes M0[15:0] (M0[17:0] on gfx950); global_load_lds_* takes M0[17:2] * 4.
MUBUF_M0_MASK = {"gfx950": 0x3FFFF}
GLOBAL_M0_MASK = 0x3FFFC
DMA_SIZES = {"dword": 4, "dwordx3": 12, "dwordx4": 16, "ubyte": 1, "sbyte": 1, "ushort": 2, "sshort": 2}
DS_READ_SIZES = {"b32": 4, "b64": 8, "b96": 12, "b128": 16, "u8": 1, "i8": 1, "u16": 2, "i16": 2,
                 "u8_d16": 1, "u8_d16_hi": 1, "i8_d16": 1, "i8_d16_hi": 1, "u16_d16": 2, "u16_d16_hi": 2}
DS_READ2 = {"ds_read2_b32": (4, 4), "ds_read2_b64": (8, 8), "ds_read2st64_b32": (4, 256),
            "ds_read2st64_b64": (8, 512)}

ByteRange = tuple[int, int]  # [lo, hi)


def overlap(a: list[ByteRange] | None, b: list[ByteRange] | None) -> bool:
    """May two LDS accesses touch a common byte?  None (unknown) overlaps everything."""
    if a is None or b is None:
        return True
    return any(x0 < y1 and y0 < x1 for x0, x1 in a for y0, y1 in b)


class LdsRanges:
    """LDS byte ranges of LDS DMA writes and DS reads, from a :class:`ValueAnalysis`.

    ``dma(i)`` / ``reads(i)`` return a list of ``[lo, hi)`` ranges covering every
    execution of instruction ``i`` by any wave, or None when unknown.
    """

    def __init__(self, values, target: str):
        self._values = values  # a ValueAnalysis, or a function making one on first use
        self.target = target
        self._memo: dict[tuple[str, int], list[ByteRange] | None] = {}

    @property
    def values(self) -> ValueAnalysis:
        if not isinstance(self._values, ValueAnalysis):
            self._values = self._values()
        return self._values

    def dma(self, i: int) -> list[ByteRange] | None:
        key = ("dma", i)
        if key not in self._memo:
            self._memo[key] = self._dma(i)
        return self._memo[key]

    def reads(self, i: int) -> list[ByteRange] | None:
        key = ("read", i)
        if key not in self._memo:
            self._memo[key] = self._reads(i)
        return self._memo[key]

    def _dma(self, i: int) -> list[ByteRange] | None:
        va = self.values
        ins = va.instructions[i]
        base = va.facts[i].base
        st = va.before(i)
        if st is None:
            return None
        size = DMA_SIZES.get(base.rsplit("_", 1)[-1])
        if size is None:
            return None
        slot = 16 if size > 4 else 4
        off = int_modifier(ins, "offset", va.symbols)
        if off is None:
            return None
        m0 = st.get(M0_KEY)
        if base.startswith("global_"):
            mask = GLOBAL_M0_MASK
            lo_b, hi_b = (m0[0] & mask, m0[1] & mask) if m0 is not None and m0[1] <= 0x3FFFF else (0, mask)
        else:
            mask = MUBUF_M0_MASK.get(self.target, 0xFFFF)
            lo_b, hi_b = m0 if m0 is not None and m0[1] <= mask else (0, mask)
        return [(lo_b + off, hi_b + off + 64 * slot)]

    def _reads(self, i: int) -> list[ByteRange] | None:
        va = self.values
        ins = va.instructions[i]
        base = va.facts[i].base
        if len(ins.operands) < 2:
            return None
        addr = va.value(i, ins.operands[1])
        if addr is None:
            return None
        if base in DS_READ2:
            elem, mult = DS_READ2[base]
            out = []
            for name in ("offset0", "offset1"):
                o = int_modifier(ins, name, va.symbols)
                if o is None:
                    return None
                out.append((addr[0] + o * mult, addr[1] + o * mult + elem))
            return out
        if not base.startswith("ds_read_") or base == "ds_read_addtid_b32":
            return None
        size = DS_READ_SIZES.get(base[len("ds_read_"):])
        off = int_modifier(ins, "offset", va.symbols)
        if size is None or off is None:
            return None
        return [(addr[0] + off, addr[1] + off + size)]


def lds_ranges(program, instructions, facts, cfg, target: str, launch: LaunchFacts | None = None) -> LdsRanges:
    """The LDS ranges of ``program`` (workgroup size from ``launch``).  The value analysis
    runs on the first question, so a program without LDS DMA in flight at a DS read or a
    barrier never pays for it."""
    def make() -> ValueAnalysis:
        facts_ = launch or LaunchFacts()
        return ValueAnalysis(instructions, facts, cfg, target, facts_.workgroup, program.symbols,
                             facts_.initialised).run()
    return LdsRanges(make, target)
