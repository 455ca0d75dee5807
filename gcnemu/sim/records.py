"""The engine's per-issue records and pending writes: plain data shared by the issue loops.

Why a module of its own: the timed engine (`engine`) and the hand-over to its compiled issue
loop (`alu_compiled`) both make them; the engine imports `alu_compiled`, so these live below
both (imports go one way).
"""
from __future__ import annotations

from dataclasses import dataclass

_EMPTY: dict = {}  # shared, read-only: the stalls of an instruction that never waited
RECENT_HISTORY = 4096  # issue records a run without history keeps (what engine._loop_of reads)


@dataclass(slots=True)
class Pending:
    """A register write scheduled to land (one object shared by all registers of a write)."""

    land: int
    interlocked: bool
    index: int  # producer instruction
    seq: int
    pipe: str


@dataclass(slots=True)
class IssueRecord:
    """One executed instruction, as the timeline, the trace and `run --format json` show it.

    ``ready`` is the first cycle the wave tried to issue it, ``issue`` when it issued,
    ``complete`` when its result landed (or its memory access completed); ``stalls`` maps
    a reason to the cycles lost to it (they add up to issue - ready). ``slot`` counts
    the wave's wait states at issue (s_nop N counts N+1), for hazard distances.
    """

    wave: int
    index: int
    ready: int
    issue: int
    complete: int
    stalls: dict
    slot: int

    @property
    def stall_cycles(self) -> int:
        return self.issue - self.ready
