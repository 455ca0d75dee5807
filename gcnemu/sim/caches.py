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


class LruLevel:
    """One cache level: line tags in LRU order (oldest first)."""

    def __init__(self, level: CacheLevel):
        self.level = level
        self.capacity = max(1, level.size // level.line)
        self.shift = level.line.bit_length() - 1  # line sizes are powers of two
        self.tags: OrderedDict[int, None] = OrderedDict()

    def lines(self, addrs: np.ndarray, nbytes: int) -> np.ndarray:
        """The distinct line tags lanes at `addrs` touch with `nbytes` each, in address order."""
        a = np.asarray(addrs, dtype=np.uint64)
        first = a >> np.uint64(self.shift)
        last = (a + np.uint64(max(nbytes, 1) - 1)) >> np.uint64(self.shift)
        if np.array_equal(first, last):
            return np.unique(first)
        return np.unique(np.concatenate([first, last]))

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

    def load(self, addrs: np.ndarray, lane_bytes: int) -> tuple[str, int]:
        """The level the slowest line of this access comes from (each line from the nearest level
        that holds it) and that level's latency; then every line is in every level."""
        per_level = [lv.lines(addrs, lane_bytes) for lv in self.levels]
        depth = len(self.levels)  # main memory
        source = 0
        line0 = self.levels[0].level.line if self.levels else 1
        for t in per_level[0] if per_level else ():
            addr = int(t) * line0  # this L1 line's address; each level looks up its own line of it
            nearest = next((d for d, lv in enumerate(self.levels) if lv.holds(addr // lv.level.line)), depth)
            source = max(source, nearest)
        if not per_level:
            source = depth
        for lv, tags in zip(self.levels, per_level):
            for t in tags:
                lv.fill(int(t))
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
        for lv in self.levels:
            for t in lv.lines(addrs, lane_bytes):
                if lv.level.scope == "cu":
                    lv.drop(int(t))
                else:
                    lv.fill(int(t))
