"""Register references as users type them: `v5`, `v[4:7]`, `v5[lane 3]`, `s[0:1]`, `a[0:15]`, `exec`...

One parser serves `print`, `watch`, the expression language and tab completion,
so a name that works in one place works everywhere. Scalar special registers
are SGPR slots in the gfx9 encoding (as `WaveState` stores them), so `vcc` and
`s[106:107]` are the same bits.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..sim.state import SPECIAL_SLOTS, TTMP_BASE, WaveState


class RegError(ValueError):
    """A register name the user typed that does not name a register. The message says what would."""


# limits of the register files (the target may allow fewer SGPRs; slots exist up to 127)
FILE_SIZE = {"v": 256, "a": 256, "s": 102, "ttmp": 16}
SPECIAL_NAMES = tuple(sorted(SPECIAL_SLOTS)) + ("scc",)

_RANGE = re.compile(r"(v|a|s|ttmp)\[\s*(\d+)\s*:\s*(\d+)\s*\]")
_SINGLE = re.compile(r"(v|a|s|ttmp)(\d+)(?![\w])")
_SPECIAL = re.compile(r"(" + "|".join(sorted(SPECIAL_NAMES, key=len, reverse=True)) + r")(?![\w])")
_LANES = re.compile(r"\[\s*(?:lanes?\s+)?(\d+)\s*(?::\s*(\d+)\s*)?\]")


@dataclass(frozen=True)
class RegRef:
    """A register or range, optionally narrowed to some lanes.

    file: 'v', 'a' (vector, uint32[count, 64]), 's' (SGPR slots, uint32[count]) or 'scc'.
    `index` is the first register (the SGPR slot for 's'); `lanes` is None for all 64.
    """

    file: str
    index: int
    count: int
    name: str  # as the user should see it: v5, v[4:7], exec, s[0:1]
    lanes: tuple[int, ...] | None = None

    @property
    def is_vector(self) -> bool:
        return self.file in ("v", "a")

    @property
    def label(self) -> str:
        if self.lanes is None:
            return self.name
        if len(self.lanes) == 1:
            return f"{self.name}[lane {self.lanes[0]}]"
        return f"{self.name}[lanes {self.lanes[0]}:{self.lanes[-1]}]"

    def slots(self) -> list[tuple[str, int]]:
        """(file, index) pairs, the keys the engine uses for pending writes."""
        if self.file == "scc":
            return [("scc", 0)]
        return [(self.file, self.index + k) for k in range(self.count)]

    def names(self) -> list[str]:
        """One name per 32-bit register of the reference (v4, v5, ... / s0, s1 / exec_lo, exec_hi)."""
        if self.count == 1:
            return [self.name]
        if self.file == "s" and self.name in SPECIAL_SLOTS:
            return [f"{self.name}_lo", f"{self.name}_hi"] if self.count == 2 else [self.name]
        prefix = self.name.split("[")[0]
        return [f"{prefix}{self.index - (TTMP_BASE if prefix == 'ttmp' else 0) + k}" for k in range(self.count)]

    # ---------------------------------------------------------------- reading
    def read(self, wave: WaveState) -> np.ndarray:
        """Raw bits: uint32[count, 64] for vector registers, uint32[count] for scalars."""
        if self.file == "scc":
            return np.array([wave.scc], dtype=np.uint32)
        if self.file == "s":
            return wave.sgpr[self.index:self.index + self.count].copy()
        arr, _ = wave.file(self.file)
        return arr[self.index:self.index + self.count].copy()

    def initialised(self, wave: WaveState) -> np.ndarray:
        """Same shape as `read`: False where the register was never written (it holds poison)."""
        if self.file == "scc":
            return np.array([True])
        if self.file == "s":
            return wave.sgpr_init[self.index:self.index + self.count].copy()
        _, init = wave.file(self.file)
        return init[self.index:self.index + self.count].copy()


def _check(file: str, lo: int, hi: int, text: str) -> None:
    if hi < lo:
        raise RegError(f"'{text}': the first register index is larger than the last")
    size = FILE_SIZE[file]
    if hi >= size:
        raise RegError(f"'{text}': {file}{hi} does not exist ({file}0..{file}{size - 1})")


def parse_prefix(text: str, pos: int = 0) -> tuple[RegRef, int] | None:
    """Parse a register reference starting at `pos`; None when no register starts there.

    Returns the reference and the position after it (lane selector included).
    """
    ref: RegRef | None = None
    m = _RANGE.match(text, pos)
    if m:
        file, lo, hi = m.group(1), int(m.group(2)), int(m.group(3))
        _check(file, lo, hi, m.group(0))
        ref = _make(file, lo, hi - lo + 1, f"{file}[{lo}:{hi}]")
    else:
        m = _SINGLE.match(text, pos)
        if m:
            file, lo = m.group(1), int(m.group(2))
            _check(file, lo, lo, m.group(0))
            ref = _make(file, lo, 1, f"{file}{lo}")
        else:
            m = _SPECIAL.match(text, pos)
            if m:
                name = m.group(1)
                if name == "scc":
                    ref = RegRef("scc", 0, 1, "scc")
                else:
                    slot, count = SPECIAL_SLOTS[name]
                    ref = RegRef("s", slot, count, name)
    if ref is None:
        return None
    end = m.end()
    lm = _LANES.match(text, end)
    if lm:
        if not ref.is_vector:
            raise RegError(f"'{text[pos:lm.end()]}': {ref.name} is a scalar register, it has no lanes")
        lo = int(lm.group(1))
        hi = int(lm.group(2)) if lm.group(2) is not None else lo
        if hi < lo or hi > 63:
            raise RegError(f"'{text[pos:lm.end()]}': lanes are 0..63")
        ref = RegRef(ref.file, ref.index, ref.count, ref.name, tuple(range(lo, hi + 1)))
        end = lm.end()
    return ref, end


def _make(file: str, index: int, count: int, name: str) -> RegRef:
    if file == "ttmp":
        return RegRef("s", TTMP_BASE + index, count, name)
    return RegRef(file, index, count, name)


def parse(text: str) -> RegRef:
    """The whole of `text` as a register reference, or a RegError saying what is accepted."""
    t = text.strip().lower()
    try:
        got = parse_prefix(t)
    except RegError:
        raise
    if got is None or got[1] != len(t):
        raise RegError(f"unknown register '{text.strip()}' (try v5, v[4:7], v5[lane 3], s2, s[0:1], a[0:15], "
                       f"exec, vcc, m0, scc)")
    return got[0]


def completions(prefix: str) -> list[str]:
    """Register names starting with `prefix`, for tab completion (a useful sample, not all 600)."""
    p = prefix.lower()
    names = list(SPECIAL_NAMES)
    if p[:1] in ("v", "a", "s") and p[1:].isdigit():
        f = p[0]
        names += [f"{f}{i}" for i in range(FILE_SIZE[f]) if f"{f}{i}".startswith(p)]
    elif p in ("v", "a", "s"):
        names += [f"{p}0", f"{p}[", f"{p}1", f"{p}2", f"{p}3"]
    elif not p:
        names += ["v0", "a0", "s0", "v[", "a[", "s["]
    return sorted({n for n in names if n.startswith(p)})
