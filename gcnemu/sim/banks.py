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


_PHASE_ARRAYS: dict[tuple[int, bool], np.ndarray] = {}  # phases_for(...) as int64[phases, lanes per phase]
_MEMO: dict[tuple, int] = {}  # a loop repeats the same access patterns: each is counted once
_MEMO_MAX = 4096


def _phase_array(size: int, is_write: bool) -> np.ndarray:
    width = 4 if size <= 4 else 8 if size <= 8 else 16
    arr = _PHASE_ARRAYS.get((width, is_write))
    if arr is None:
        arr = _PHASE_ARRAYS[(width, is_write)] = np.array(PHASES[(width, is_write)], dtype=np.int64)
    return arr


def piece_conflicts(addrs: np.ndarray, lanes: np.ndarray, size: int, is_write: bool, banks: int = 32) -> int:
    """Conflict cycles of one piece: `addrs[k]` is the byte address of lane `lanes[k]`."""
    if len(lanes) == 0:
        return 0
    addrs = np.asarray(addrs, dtype=np.int64)
    lanes = np.asarray(lanes)
    key = (addrs.tobytes(), lanes.tobytes(), lanes.dtype.char, size, is_write, banks)
    extra = _MEMO.get(key)
    if extra is None:
        extra = _piece_conflicts(addrs, lanes, size, is_write, banks)
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = extra
    return extra


def _distinct(keys: np.ndarray) -> np.ndarray:
    """np.unique of a 1-D integer array (sorted distinct values), as a sort and one comparison.

    Why: np.unique costs ~20 us here against ~5 us, and numpy 2's first np.unique call imports
    numpy.ma (~10 ms, measured with -X importtime): a one-workgroup run paid it at its first
    DS access."""
    keys = np.sort(keys)
    if len(keys) < 2:
        return keys
    keep = np.empty(len(keys), dtype=bool)
    keep[0] = True
    np.not_equal(keys[1:], keys[:-1], out=keep[1:])
    return keys[keep]


def _piece_conflicts(addrs: np.ndarray, lanes: np.ndarray, size: int, is_write: bool, banks: int) -> int:
    """Every phase at once: the distinct dwords of each phase, counted per (phase, bank)."""
    by_lane = np.full(WAVE, -1, dtype=np.int64)
    by_lane[lanes] = addrs
    a = by_lane[_phase_array(size, is_write)]  # [phase, lane in phase]
    valid = a >= 0
    if not valid.any():
        return 0
    first = a // 4
    count = (a + size - 1) // 4 - first  # dwords touched by a lane, minus one
    span = int(count[valid].max()) + 1
    steps = np.arange(span)
    touched = valid[:, :, None] & (steps[None, None, :] <= count[:, :, None])
    phase = np.broadcast_to(np.arange(a.shape[0])[:, None, None], touched.shape)[touched]
    dword = (first[:, :, None] + steps[None, None, :])[touched]
    # distinct (phase, dword) pairs; then how many distinct dwords each (phase, bank) holds
    if int(dword.max()) < (1 << 40):
        keys = _distinct((phase << 40) | dword)
        phase, dword = keys >> 40, keys & ((1 << 40) - 1)
    else:
        pairs = np.unique(np.stack([phase, dword], axis=1), axis=0)
        phase, dword = pairs[:, 0], pairs[:, 1]
    per_bank = np.bincount(phase * banks + dword % banks, minlength=a.shape[0] * banks)
    busiest = per_bank.reshape(a.shape[0], banks).max(axis=1)
    used = valid.any(axis=1)  # a phase with no active lane costs nothing
    return int((busiest[used] - 1).sum())


def bank_conflicts(pieces: list[tuple[np.ndarray, int]], lanes: np.ndarray, is_write: bool, banks: int = 32) -> int:
    """Total conflict cycles of a DS access made of `pieces` [(addrs per active lane, bytes)]."""
    return sum(piece_conflicts(addrs, lanes, size, is_write, banks) for addrs, size in pieces)
