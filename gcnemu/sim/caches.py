"""The global-memory cache hierarchy of one run: which level a vector load's lines come from.

The levels and their latencies are data (`isa.targets.MemoryHierarchy`, with sources). Each
level here is a fully associative LRU set of line addresses: a load takes the latency of the
farthest level any of its lines comes from, then every line is in every level (inclusive
fill). That is all the model claims: a repeated load hits, a streaming load misses, a working
set larger than a level thrashes it.

Scope: a run simulates one workgroup on one CU, so the "shared" L2 sees only this
workgroup's traffic. Stores write through the vector L1 (the line leaves it) and land in
the write-back L2, so a later load of the line hits L2.
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ..isa.targets import CacheLevel, MemoryHierarchy


_ADDRESS_END = 1 << 64


class LruLevel:
    """One cache level: line tags in LRU order (oldest first)."""

    def __init__(self, level: CacheLevel):
        self.level = level
        self.capacity = max(1, level.size // level.line)
        self.shift = level.line.bit_length() - 1  # line sizes are powers of two
        self.tags: OrderedDict[int, None] = OrderedDict()

    def lines(self, addrs: np.ndarray, nbytes: int) -> list[int]:
        """The distinct line tags lanes at `addrs` touch with `nbytes` each (the lines of each
        lane's first and last byte), in address order."""
        a = np.asarray(addrs, dtype=np.uint64)
        if not len(a):
            return []
        # the line of the lowest first byte and that of the highest last byte are touched; when
        # they are the same or neighbours, no other line can be (a wave's dword load: two
        # reductions instead of the per-lane sets below, measured 11 -> 7 us)
        lo = int(a.min()) >> self.shift
        end = int(a.max()) + max(nbytes, 1) - 1
        if end < _ADDRESS_END:  # (past it the lanes' uint64 ends wrap: the sets below say where)
            hi = end >> self.shift
            if hi - lo <= 1:
                return [lo] if hi == lo else [lo, hi]
        shift = np.uint64(self.shift)
        # a set of Python ints, not np.unique: a wave's 64 lanes touch a handful of lines, and
        # the fill below wants ints (measured: np.unique and array_equal were most of a load)
        tags = set((a >> shift).tolist())
        if nbytes > 1:
            tags.update(((a + np.uint64(nbytes - 1)) >> shift).tolist())
        return sorted(tags)

    def holds(self, tag: int) -> bool:
        return tag in self.tags

    def fill(self, tag: int) -> None:
        tags = self.tags
        if tag in tags:
            tags.move_to_end(tag)
            return
        tags[tag] = None
        if len(tags) > self.capacity:
            tags.popitem(last=False)

    def drop(self, tag: int) -> None:
        self.tags.pop(tag, None)


class CacheHierarchy:
    """The levels of one target for one run; `load` answers (level name, latency)."""

    def __init__(self, hierarchy: MemoryHierarchy):
        self.hierarchy = hierarchy
        self.levels = [LruLevel(lv) for lv in hierarchy.levels]

    def _per_level(self, addrs: np.ndarray, lane_bytes: int) -> list[list[int]]:
        """Each level's lines of one access. A level whose lines are a power-of-two multiple of
        the first level's gets them from the first level's lines (the same set: a lane's first
        and last byte's lines, coarser), so the lanes' addresses are looked at once per access."""
        levels = self.levels
        first = levels[0].lines(addrs, lane_bytes)
        out = [first]
        for lv in levels[1:]:
            k = lv.shift - levels[0].shift
            if k == 0:
                out.append(first)
            elif k > 0:
                out.append(sorted({t >> k for t in first}))
            else:
                out.append(lv.lines(addrs, lane_bytes))
        return out

    def load(self, addrs: np.ndarray, lane_bytes: int) -> tuple[str, int]:
        """The level the slowest line of this access comes from (each line from the nearest level
        that holds it) and that level's latency; then every line is in every level."""
        levels = self.levels
        depth = len(levels)  # main memory
        if not levels:
            return self.hierarchy.memory, self.hierarchy.memory_latency
        per_level = self._per_level(addrs, lane_bytes)
        source = 0
        line0 = levels[0].level.line
        for t in per_level[0]:
            addr = t * line0  # this L1 line's address; each level looks up its own line of it
            nearest = depth
            for d, lv in enumerate(levels):
                if addr // lv.level.line in lv.tags:
                    nearest = d
                    break
            if nearest > source:
                source = nearest
        for lv, tags in zip(levels, per_level):
            for t in tags:
                lv.fill(t)
        if source == depth:
            return self.hierarchy.memory, self.hierarchy.memory_latency
        level = self.hierarchy.levels[source]
        return level.name, level.latency

    def contents(self) -> list[OrderedDict]:
        """A copy of every level's lines (the debugger's snapshots)."""
        return [OrderedDict(lv.tags) for lv in self.levels]

    def restore(self, contents: list[OrderedDict]) -> None:
        for lv, tags in zip(self.levels, contents):
            lv.tags = OrderedDict(tags)

    def store(self, addrs: np.ndarray, lane_bytes: int) -> None:
        """A store: the line leaves the write-through L1 ("cu" levels) and lands in the L2."""
        if not self.levels:
            return
        for lv, tags in zip(self.levels, self._per_level(addrs, lane_bytes)):
            if lv.level.scope == "cu":
                for t in tags:
                    lv.drop(t)
            else:
                for t in tags:
                    lv.fill(t)
