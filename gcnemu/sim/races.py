"""LDS race detection between the waves of a workgroup, by happens-before rather than by luck.

Two LDS accesses of different waves race when they touch a common dword, at least one writes
(an atomic counts as a write), they are not both atomics, and neither happens before the other.
Happens-before between waves comes only from `s_barrier`: an access of wave X that *landed*
before a barrier release is ordered before every access another wave issues after that release.
A write still in flight when the barrier releases (no `s_waitcnt lgkmcnt(0)` before it) is not
ordered by that barrier: it counts in the epoch after it.

So every access gets an epoch interval [issued, landed]: the number of barrier releases before
its issue and before its landing. Two accesses of different waves are ordered exactly when their
intervals are disjoint; a race is two overlapping intervals on a common dword. This does not
depend on the schedule the run happened to take: the same pairs are found whichever wave ran
first. LDS DMA (`buffer_load ... lds`, `global_load_lds_*`) writes count as writes of the
issuing wave at their landing.

Shadow state is numpy arrays per recorded access (dword indices), analysed once at the end of
the run with sorts, not a Python object per byte.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np

from ..isa.rule_ids import RULE_GLOBAL_RACE, RULE_LDS_RACE  # noqa: F401 (re-export: the ids reported here)

READ, WRITE, ATOMIC = 0, 1, 2
_KIND_NAMES = {READ: "read", WRITE: "write", ATOMIC: "atomic"}

MAX_RECORDED_DWORDS = 64 * 1024 * 1024
"""Shadow budget: past this many recorded dword accesses (one per lane and dword, repeats included:
what the shadow holds), detection stops with a note (never a crash)."""

_DENSE_CELLS = 1 << 24  # races(): the largest (waves x dword span) an epoch is prefiltered over


@dataclass
class Access:
    wave: int
    index: int  # instruction index
    kind: int  # READ | WRITE | ATOMIC
    issued: int  # cycle
    epoch_issue: int
    complete: int  # cycle the access lands
    dwords: np.ndarray  # int64 dword indices (a dword may repeat: lanes reading one address)
    counter: str = "lgkmcnt"  # what the issuing wave waits on for it to land (vmcnt: LDS DMA)


@dataclass
class Race:
    kind: str  # RAW | WAR | WAW
    first: Access  # the access earlier in program order (for one instruction: issued first)
    second: Access
    waves: set
    lo: int  # lowest byte address of the common dwords
    hi: int  # one past the highest
    dwords: set  # the common dword indices
    pairs: set = field(default_factory=set)  # (access, access) record numbers of every dynamic pair
    seen: set = field(default_factory=set)  # ... and of those this run's memory order exposed

    @property
    def count(self) -> int:
        return len(self.dwords)


def exposed(first: Access, second: Access) -> bool:
    """Whether this run's memory order went against program order (``first`` is the earlier
    instruction), so that a value came out of the race different from what the code means.
    Memory effects happen at landing (gcnemu.sim.memops): a read that landed before the write
    meant to precede it read the old value (RAW); a write that landed before the read meant to
    precede it changed what that read got (WAR). Two writes of one instruction (WAW) have no
    meant order: which one stays is never "exposed", only reported."""
    if first.index == second.index:
        return False
    if first.kind != READ and second.kind == READ:
        return second.complete < first.complete
    if first.kind == READ:
        return second.complete <= first.complete
    return second.complete < first.complete


_DWORD_STEPS: dict[int, np.ndarray] = {}  # bytes per lane -> the dword offsets 0..bytes/4-1 (read only)


def dwords_of(starts: np.ndarray, nbytes: int) -> np.ndarray:
    """The dword indices covered by `nbytes` at each start address (possibly repeated)."""
    starts = np.asarray(starts, dtype=np.int64)
    if not len(starts) or nbytes <= 0:
        return np.zeros(0, dtype=np.int64)
    first = starts >> 2  # (// 4: the same floor for int64, one cheaper numpy call)
    if not nbytes & 3 and not int(np.bitwise_or.reduce(starts)) & 3:
        # the common case: aligned lanes of whole dwords, each covering the same count (the
        # general path below gives this same array with two more numpy calls per access)
        if nbytes == 4:
            return first
        steps = _DWORD_STEPS.get(nbytes)
        if steps is None:
            steps = _DWORD_STEPS[nbytes] = np.arange(nbytes // 4, dtype=np.int64)
        return (first[:, None] + steps).ravel()
    last = (starts + nbytes - 1) // 4
    span = int((last - first).max()) + 1
    out = (first[:, None] + np.arange(span, dtype=np.int64)[None, :])
    out = np.where(out <= last[:, None], out, first[:, None])
    # (duplicates are harmless: pairs are collected per instruction, dwords as a set; not sorting
    # here keeps recording cheap, measured in benchmarks/bench_races.py)
    return out.ravel()


def _pieces(parts: list[np.ndarray]) -> np.ndarray:
    """The dwords of an access made of several pieces (ds_read2, ds_write2: two addresses a lane).
    Not deduplicated: races() pairs accesses per dword with sets, so a repeated dword changes
    no finding (measured: np.unique here cost 20 us of a ds_read's 30 us recording)."""
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _lds_read(m) -> tuple[int, np.ndarray]:
    return READ, _pieces([dwords_of(a, size) for a, size in m.pieces])


def _lds_write(m) -> tuple[int, np.ndarray]:
    return WRITE, _pieces([dwords_of(a, d.shape[1]) for a, d in m.pieces])


def _lds_atomic(m) -> tuple[int, np.ndarray]:
    return ATOMIC, dwords_of(m.addrs, int(getattr(m, "width", 4) or 4))


def _lds_exchange(m) -> tuple[int, np.ndarray]:
    return ATOMIC, _pieces([dwords_of(a, d.dtype.itemsize) for a, d in m.pieces])


# the memory effects that touch LDS / global memory, by class name (sim.memops), and how
_LDS_KINDS = {"LdsRead": _lds_read, "LdsWrite": _lds_write, "LdsAtomic": _lds_atomic, "LdsAppend": _lds_atomic,
              "LdsExchange2": _lds_exchange,
              "LdsDma": lambda m: (WRITE, dwords_of(m.lds_addrs, m.lds_bytes))}
_GLOBAL_KINDS = {"GlobalLoad": lambda m: (READ, dwords_of(m.addrs, m.size)),
                 "GlobalStore": lambda m: (WRITE, dwords_of(m.addrs, m.data.shape[1])),
                 "GlobalAtomic": lambda m: (ATOMIC, dwords_of(m.addrs, m.width)),
                 "LdsDma": lambda m: (READ, dwords_of(m.addrs, m.size))}


def memop_lds_access(memop) -> tuple[int, np.ndarray] | None:
    """(kind, dwords) of an engine memory effect that touches LDS; None for other effects."""
    how = _LDS_KINDS.get(type(memop).__name__)
    return how(memop) if how is not None else None


def memop_global_access(memop) -> tuple[int, np.ndarray] | None:
    """(kind, dwords) of an engine memory effect that touches global memory (scratch included:
    each wave's scratch is its own, so it never pairs up); None for other effects."""
    how = _GLOBAL_KINDS.get(type(memop).__name__)
    return how(memop) if how is not None else None


class LdsRaceDetector:
    """Collects the LDS (or, with `space="global"`, global-memory) accesses of one workgroup's run
    and reports the racing pairs at its end."""

    def __init__(self, waves: int, space: str = "lds"):
        self.space = space
        self.classify = memop_lds_access if space == "lds" else memop_global_access
        self.enabled = waves > 1
        self.epoch = 0
        self.releases: list[int] = []  # barrier release cycles, in order
        self.accesses: list[Access] = []
        self.recorded = 0
        self.note: str | None = None

    def barrier(self, now: int) -> None:
        self.epoch += 1
        self.releases.append(now)

    def record(self, wave: int, index: int, memop, issued: int, complete: int) -> None:
        if not self.enabled:
            return
        found = self.classify(memop)
        if found is None:
            return
        kind, dwords = found
        if not len(dwords):
            return
        self.recorded += len(dwords)
        if self.recorded > MAX_RECORDED_DWORDS:
            self.enabled = False
            self.accesses.clear()
            self.note = (f"{'LDS' if self.space == 'lds' else 'global-memory'} race detection stopped: more than {MAX_RECORDED_DWORDS} dword accesses "
                         f"recorded (shadow memory budget); races are not reported for this run")
            return
        counter = "vmcnt" if self.space != "lds" or type(memop).__name__ == "LdsDma" else "lgkmcnt"
        self.accesses.append(Access(wave, index, kind, issued, self.epoch, complete, dwords, counter))

    def _landed_epoch(self, a: Access) -> int:
        """Barrier releases strictly before the access landed: a write landing at or before a release
        is ordered by it."""
        return max(a.epoch_issue, bisect.bisect_left(self.releases, a.complete))

    def races(self) -> list[Race]:
        """Every racing instruction pair, deduplicated (one Race per pair of instructions and kind)."""
        if not self.enabled or len(self.accesses) < 2:
            return []
        acc = self.accesses
        by_epoch: dict[int, list[int]] = {}
        for i, a in enumerate(acc):  # an access belongs to every epoch from its issue to its landing
            for e in range(a.epoch_issue, self._landed_epoch(a) + 1):
                by_epoch.setdefault(e, []).append(i)
        found: dict[tuple, Race] = {}
        for ids in by_epoch.values():
            if len(ids) < 2 or len({acc[i].wave for i in ids}) < 2:
                continue
            sizes = [len(acc[i].dwords) for i in ids]
            dw = np.concatenate([acc[i].dwords for i in ids])
            rec = np.repeat(np.asarray(ids, dtype=np.int64), sizes)
            wave = np.repeat(np.asarray([acc[i].wave for i in ids], dtype=np.int64), sizes)
            kind = np.repeat(np.asarray([acc[i].kind for i in ids], dtype=np.int64), sizes)
            keep = _candidates(dw, wave, kind)
            if keep is not None:
                if not keep.any():
                    continue  # the common case: no dword of this epoch races
                dw, rec, wave, kind = dw[keep], rec[keep], wave[keep], kind[keep]
            order = np.lexsort((rec, dw))
            dw, rec, wave, kind = dw[order], rec[order], wave[order], kind[order]
            starts = np.flatnonzero(np.r_[True, dw[1:] != dw[:-1]])
            ends = np.r_[starts[1:], len(dw)]
            # a candidate dword: at least two waves and at least one write or atomic
            multi = np.minimum.reduceat(wave, starts) != np.maximum.reduceat(wave, starts)
            writes = np.maximum.reduceat(kind, starts) > READ
            for s, t in zip(starts[multi & writes], ends[multi & writes]):
                self._pairs(dw[s], rec[s:t], found)
        return list(found.values())

    def _pairs(self, dword: int, recs: np.ndarray, found: dict) -> None:
        acc = self.accesses
        items = sorted(set(int(r) for r in recs))
        for x in range(len(items)):
            a = acc[items[x]]
            for y in range(x + 1, len(items)):
                b = acc[items[y]]
                if a.wave == b.wave or (a.kind == READ and b.kind == READ) or (a.kind == ATOMIC and b.kind == ATOMIC):
                    continue
                # in program order: the kind names what the code means to do (the write at line 26
                # is meant to come before the read at line 28), whichever wave this run issued first
                first, second = (a, b) if (a.index, a.issued, a.wave) <= (b.index, b.issued, b.wave) else (b, a)
                if first.kind != READ and second.kind != READ:
                    kind = "WAW"
                elif first.kind != READ:
                    kind = "RAW"
                else:
                    kind = "WAR"
                key = (min(first.index, second.index), max(first.index, second.index), kind)
                race = found.get(key)
                if race is None:
                    race = found[key] = Race(kind, first, second, {first.wave, second.wave}, 4 * dword,
                                             4 * dword + 4, {int(dword)})
                else:
                    race.waves |= {first.wave, second.wave}
                    race.lo, race.hi = min(race.lo, 4 * dword), max(race.hi, 4 * dword + 4)
                    race.dwords.add(int(dword))
                pair = (items[x], items[y])
                if pair not in race.pairs:
                    race.pairs.add(pair)
                    if exposed(first, second):
                        race.seen.add(pair)


def _candidates(dw: np.ndarray, wave: np.ndarray, kind: np.ndarray) -> np.ndarray | None:
    """Which of one epoch's dword accesses fall on a dword that at least two waves touch and
    some access writes (the only dwords races() must sort and pair up); None when the dword
    span is too wide for the dense tables (then every access is sorted).

    Why: most epochs of a correct kernel have no such dword, and this answers with a few
    passes over the accesses instead of sorting them (measured: 4x cheaper than the lexsort
    on a GEMM epoch of 8k dword accesses, which was most of the end-of-run race report)."""
    lo = int(dw.min())
    n = int(dw.max()) - lo + 1
    waves = int(wave.max()) + 1
    if waves * n > _DENSE_CELLS:
        return None
    x = dw - lo
    touched = np.zeros(waves * n, dtype=bool)  # (wave, dword) touched in this epoch
    touched[wave * n + x] = True
    touched = touched.reshape(waves, n)
    count = touched[0].astype(np.uint8)  # waves touching each dword
    for k in range(1, waves):
        count += touched[k]
    written = np.zeros(n, dtype=bool)
    written[x[kind > READ]] = True
    return ((count >= 2) & written)[x]


def describe(race: Race, instructions, space: str = "lds") -> str:
    """One line, in the style of the engine's hazard messages."""
    a, b = race.first, race.second
    ia, ib = instructions[a.index], instructions[b.index]
    mem = "LDS" if space == "lds" else "global memory"
    what = {"RAW": f"reads {mem} written by", "WAR": f"writes {mem} read by",
            "WAW": f"writes {mem} also written by"}[race.kind]
    return (f"{'LDS' if space == 'lds' else 'global-memory'} race ({race.kind}): wave {b.wave}'s {ib.mnemonic} (line {ib.span.line}) {what} wave {a.wave}'s "
            f"{ia.mnemonic} (line {ia.span.line}) with no s_barrier ordering them (bytes 0x{race.lo:x}..0x{race.hi:x}, "
            f"{race.count} dword{'s' if race.count != 1 else ''}; waves {', '.join(map(str, sorted(race.waves)))}; "
            f"{seen_text(race)}): put s_waitcnt {a.counter}(0) and s_barrier between them")


def seen_text(race: Race) -> str:
    """Whether this run's schedule exposed the race (see `exposed`), in the report's words."""
    n, total = len(race.seen), len(race.pairs)
    if race.first.index == race.second.index:
        return "which wave's value stays depends on the schedule"
    if not n:
        return "not seen racing in this run: its schedule happened to order them"
    return f"seen racing {n} time{'s' if n != 1 else ''} of {total} in this run"
