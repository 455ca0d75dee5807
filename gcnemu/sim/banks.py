"""LDS bank conflicts of one DS access, as extra LDS cycles for the timing model.

The model (AMD's public MI300 tuning notes, "Avoiding LDS bank conflicts", and the
ISA guides' "Data Share Operations"):
- LDS is 32 banks of 4 bytes; the bank of a byte address is (address / 4) % banks;
- a wave64 access is served in *phases*, each phase a fixed group of lanes whose
  dwords can all be served in one cycle when no two *different* dwords fall into the
  same bank (lanes reading the same dword are broadcast);
- which lanes form a phase depends on the access width (table `PHASES`): 32 lanes per
  phase for 1/2/4-byte accesses, 16 for 8-byte, 8 for 16-byte (reads use an
  interleaved grouping, writes consecutive lanes). Two-address forms (read2/write2)
  run their two pieces one after the other, each with its own phases.
- a phase whose busiest bank holds k distinct dwords takes k cycles: k - 1 of them
  are conflict cycles. The count returned is the sum over phases.

12-byte (b96) accesses are not described in the notes: they are modelled with the
16-byte groupings. gfx950's LDS (160 KiB) has 64 banks per the MI350 guide; its
phase grouping is not published, so the same phases are used with its bank count.
"""
from __future__ import annotations

import numpy as np

from .state import WAVE


def _consecutive(size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(range(s, s + size)) for s in range(0, WAVE, size))


def _ranges(*spans: tuple[int, int]) -> tuple[int, ...]:
    return tuple(lane for a, b in spans for lane in range(a, b + 1))


# ds_read_b128: eight phases of two groups of 4 lanes (MI300 notes).
_READ_B128 = (
    _ranges((0, 3), (20, 23)), _ranges((32, 35), (52, 55)),
    _ranges((4, 7), (16, 19)), _ranges((36, 39), (48, 51)),
    _ranges((8, 11), (28, 31)), _ranges((40, 43), (60, 63)),
    _ranges((12, 15), (24, 27)), _ranges((44, 47), (56, 59)),
)

# (bytes per lane, is_write) -> lane groups served together. Widths 1 and 2 use the
# 4-byte grouping (one dword per lane).
PHASES: dict[tuple[int, bool], tuple[tuple[int, ...], ...]] = {
    (4, False): _consecutive(32), (4, True): _consecutive(32),
    (8, False): _consecutive(16), (8, True): _consecutive(16),
    (16, False): _READ_B128, (16, True): _consecutive(8),
}


def phases_for(size: int, is_write: bool) -> tuple[tuple[int, ...], ...]:
    width = 4 if size <= 4 else 8 if size <= 8 else 16
    return PHASES[(width, is_write)]


def piece_conflicts(addrs: np.ndarray, lanes: np.ndarray, size: int, is_write: bool, banks: int = 32) -> int:
    """Conflict cycles of one piece: `addrs[k]` is the byte address of lane `lanes[k]`."""
    if len(lanes) == 0:
        return 0
    by_lane = np.full(WAVE, -1, dtype=np.int64)
    by_lane[lanes] = np.asarray(addrs, dtype=np.int64)
    extra = 0
    for group in phases_for(size, is_write):
        a = by_lane[list(group)]
        a = a[a >= 0]
        if len(a) == 0:
            continue
        first = a // 4
        last = (a + size - 1) // 4
        span = int((last - first).max()) + 1
        dwords = np.unique((first[:, None] + np.arange(span)[None, :])[
            np.arange(span)[None, :] <= (last - first)[:, None]])
        busiest = int(np.bincount(dwords % banks, minlength=banks).max())
        extra += busiest - 1
    return extra


def bank_conflicts(pieces: list[tuple[np.ndarray, int]], lanes: np.ndarray, is_write: bool, banks: int = 32) -> int:
    """Total conflict cycles of a DS access made of `pieces` [(addrs per active lane, bytes)]."""
    return sum(piece_conflicts(addrs, lanes, size, is_write, banks) for addrs, size in pieces)
