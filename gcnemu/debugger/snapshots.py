"""Time travel: periodic snapshots plus deterministic re-execution.

A position in the run is the number of engine steps (`Simulation.step()` calls)
since launch. The engine is deterministic, so the state at position `t` is
whatever `t` steps from launch produce; to go back we restore the nearest
snapshot at or before `t` and replay the remaining steps. Snapshots are taken at
every debugger stop (so `step` then `back` is one restore, no replay) and every
`interval` steps during long runs (so going further back replays at most
`interval` steps). Old snapshots are thinned when the memory budget is reached:
recent history stays dense, distant history gets sparser and costs more replay.

Why not record every change (a reverse log)? The engine's effects are many small
numpy writes in several places; a copy of the machine every few hundred steps is
simpler, cannot miss a field, and measured cheap (see `TimeMachine.stats`).

Snapshots use `Engine.snapshot()/restore()` when the engine has them (in place:
the Simulation object and its waves stay the same objects), else a deep copy of
the Simulation's state (the kernel and setup are shared, never copied).

Global memory (buffers, and scratch: 64 lanes x up to 1 MiB per wave) is kept apart, in
MEMORY_CHUNK pieces shared between snapshots: a piece equal to the same piece of the previous
snapshot is not copied again (copy on write, compared at save time). A loop that writes a few
scratch dwords per step then costs one piece per snapshot, not the whole scratch; the budget
counts every distinct piece once, and is kept even if that leaves fewer than `keep_recent`
snapshots (issue 25, item 9: 34 snapshots of 64 MiB of scratch reached 2.4 GB).
"""
from __future__ import annotations

import copy
import time
from array import array
from dataclasses import dataclass, field

import numpy as np

from .probe import TickResult, next_cycle, set_clock


MEMORY_CHUNK = 16 << 10  # bytes of global memory per shared piece (a store of 64 lanes touches at most 64)


@dataclass
class Snapshot:
    tick: int
    ended: bool
    payload: object  # EngineSnapshot, or a deep copy of the Simulation's __dict__
    error: object
    diagnostics: int
    nbytes: int  # without the memory pieces (they are shared: counted once in TimeMachine)
    landed: int | None = None  # effects landed early up to this cycle (for display); None: as the engine left it
    memory: tuple | None = None  # per buffer, its pieces (read-only arrays, shared with other snapshots)


@dataclass
class Stats:
    """Measured cost of time travel, shown by `info snapshots`."""

    snapshots_taken: int = 0
    snapshot_seconds: float = 0.0
    restores: int = 0
    restore_seconds: float = 0.0
    replayed_steps: int = 0
    replay_seconds: float = 0.0
    step_seconds: float = 0.0
    steps: int = 0


def _nbytes(obj, seen: set | None = None, depth: int = 0) -> int:
    """Rough size of the numpy arrays inside a snapshot (the bulk of its memory)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 6:
        return 0
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return obj.nbytes
    if isinstance(obj, dict):
        return sum(_nbytes(v, seen, depth + 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return sum(_nbytes(v, seen, depth + 1) for v in obj)
    d = getattr(obj, "__dict__", None)
    if d is not None:
        return _nbytes(d, seen, depth + 1)
    slots = getattr(type(obj), "__slots__", None)
    if slots:
        return sum(_nbytes(getattr(obj, s, None), seen, depth + 1) for s in slots)
    return 0


class TimeMachine:
    """Steps a Simulation, logs what each step issued, and goes back to any earlier step."""

    def __init__(self, sim, interval: int = 256, budget_bytes: int = 256 << 20, keep_recent: int = 32):
        self.sim = sim
        self.interval = interval
        self.budget = budget_bytes
        self.keep_recent = keep_recent
        self.tick = 0
        self.ended = False
        self.tick_now = array("q")  # the cycle step i+1 processed (the clock after it)
        self.issue_ticks: dict[int, array] = {i: array("q") for i in range(len(sim.engine.waves))}
        self.snaps: dict[int, Snapshot] = {}
        self._last_memory: tuple | None = None  # the pieces of the last snapshot saved or restored
        self.stats = Stats()
        self._native = callable(getattr(sim.engine, "snapshot", None)) and callable(getattr(sim.engine, "restore", None))
        self.save()

    # ------------------------------------------------------------------ stepping
    def step(self) -> TickResult:
        """One engine step; returns what it issued and the hazards it raised.

        This is the debugger's hot loop (`continue` calls it once per engine step), so it
        only appends to flat arrays; timing is measured by the caller per command.
        """
        sim = self.sim
        eng = sim.engine
        records = eng.records
        hazards = eng.hazards
        nrec, nhaz = len(records), len(hazards)
        running = sim.step()
        tick = self.tick = self.tick + 1
        self.tick_now.append(eng.cycle)
        self.stats.steps += 1
        issues = []
        if len(records) > nrec:
            issue_ticks = self.issue_ticks
            for r in records[nrec:]:
                ticks = issue_ticks.get(r.wave)
                if ticks is None:
                    ticks = issue_ticks[r.wave] = array("q")
                ticks.append(tick)
                issues.append((r.wave, r.index, r))
        new_hazards = hazards[nhaz:] if len(hazards) > nhaz else []
        if not running:
            self.ended = True
        if tick % self.interval == 0 and tick not in self.snaps:
            self.save()
        return TickResult(eng.cycle, issues, new_hazards, running)

    # ------------------------------------------------------------------ snapshots
    def save(self, landed: int | None = None) -> None:
        """Snapshot the current position (no-op if one exists).

        `landed`: the debugger applied effects due up to this cycle ahead of the engine
        (to show them); such a snapshot cannot serve an earlier clock at the same position.
        """
        if self.tick in self.snaps:
            return
        t0 = time.perf_counter()
        sim = self.sim
        memory = None
        if self._native:
            payload = sim.engine.snapshot(memory=False)
            memory = self._memory_pieces()
        else:
            memo = {id(sim.kernel): sim.kernel, id(sim.setup): sim.setup}
            payload = copy.deepcopy({k: v for k, v in sim.__dict__.items() if k not in ("kernel", "setup")}, memo)
        snap = Snapshot(self.tick, self.ended, payload, sim.error, len(sim.diagnostics), 0, landed, memory)
        snap.nbytes = _nbytes(payload)
        self.snaps[self.tick] = snap
        self.stats.snapshots_taken += 1
        self.stats.snapshot_seconds += time.perf_counter() - t0
        self._thin()

    def _memory_pieces(self) -> tuple:
        """The engine's global memory now, as pieces shared with the last snapshot where equal."""
        last = self._last_memory or ()
        out = []
        for i, b in enumerate(self.sim.engine.memory.buffers):
            before = last[i] if i < len(last) else ()
            data = b.data
            pieces = []
            for k, at in enumerate(range(0, len(data), MEMORY_CHUNK)):
                now = data[at:at + MEMORY_CHUNK]
                old = before[k] if k < len(before) else None
                if old is not None and old.shape == now.shape and np.array_equal(old, now):
                    pieces.append(old)
                else:
                    piece = now.copy()
                    piece.flags.writeable = False
                    pieces.append(piece)
            out.append(tuple(pieces))
        self._last_memory = tuple(out)
        return self._last_memory

    def total_bytes(self) -> int:
        """What the snapshots hold: their own arrays plus every distinct memory piece once."""
        seen: dict[int, int] = {}
        for s in self.snaps.values():
            for pieces in s.memory or ():
                for p in pieces:
                    seen[id(p)] = p.nbytes
        return sum(s.nbytes for s in self.snaps.values()) + sum(seen.values())

    def _thin(self) -> None:
        """Keep the total under budget: drop every other old snapshot (never the first), then,
        if recent ones alone are over it, the oldest recent ones (never the first or the last:
        going back then replays more steps, but memory stays bounded)."""
        total = self.total_bytes()
        while total > self.budget and len(self.snaps) > 2:
            ticks = sorted(self.snaps)
            old = ticks[1:-self.keep_recent] if len(ticks) > self.keep_recent + 2 else ticks[1:2]
            for t in old[::2]:
                self.snaps.pop(t)
            total = self.total_bytes()

    def _restore(self, snap: Snapshot) -> None:
        sim = self.sim
        if self._native:
            sim.engine.restore(snap.payload)
            if snap.memory is not None:
                for b, pieces in zip(sim.engine.memory.buffers, snap.memory):
                    at = 0
                    for p in pieces:
                        b.data[at:at + len(p)] = p
                        at += len(p)
                self._last_memory = snap.memory
        else:
            memo = {id(sim.kernel): sim.kernel, id(sim.setup): sim.setup}
            sim.__dict__.update(copy.deepcopy(snap.payload, memo))
        sim.error = snap.error
        del sim.diagnostics[snap.diagnostics:]

    def goto(self, tick: int, view: int | None = None) -> int:
        """Put the simulation at position `tick` (<= current), to be shown at clock `view`.
        Returns the steps replayed."""
        if tick > self.tick:
            raise ValueError("goto only goes back; step forward instead")
        want = view if view is not None else self.clock_after(tick)
        base = max(t for t, s in self.snaps.items()
                   if t < tick or (t == tick and (s.landed is None or s.landed <= want)))
        t0 = time.perf_counter()
        self._restore(self.snaps[base])
        self.stats.restores += 1
        self.stats.restore_seconds += time.perf_counter() - t0
        # the future is re-executed, so logs and snapshots after `base` are dropped and regenerated
        for t in [t for t in self.snaps if t > base]:
            del self.snaps[t]
        self.tick = base
        self.ended = self.snaps[base].ended
        del self.tick_now[base:]
        for ticks in self.issue_ticks.values():
            while ticks and ticks[-1] > base:
                ticks.pop()
        t1 = time.perf_counter()
        n = 0
        while self.tick < tick and not self.ended:
            self.step()
            n += 1
        if view is not None:
            # the step that ends the program jumps the clock to the last landing: the cycles it
            # skips cannot be shown apart, so such a view stops just before that step instead
            set_clock(self.sim, min(view, next_cycle(self.sim) - 1))
        self.stats.replayed_steps += n
        self.stats.steps -= n  # replay is counted apart from forward steps
        self.stats.replay_seconds += time.perf_counter() - t1
        return n

    # ------------------------------------------------------------------ queries
    def wave_issue_ticks(self, wave: int) -> array:
        return self.issue_ticks.get(wave, array("q"))

    def position_at(self, cycle: int) -> int:
        """The position whose clock can show `cycle`: the number of steps that processed a
        cycle <= `cycle` (the next step, if any, processes a later one)."""
        lo, hi = 0, len(self.tick_now)
        while lo < hi:  # first step that processed a cycle > `cycle`
            mid = (lo + hi) // 2
            if self.tick_now[mid] <= cycle:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def clock_after(self, tick: int) -> int:
        """The clock right after step `tick` (0 at launch)."""
        return self.tick_now[tick - 1] if tick > 0 else 0

    def snapshot_bytes(self) -> int:
        return self.total_bytes()
