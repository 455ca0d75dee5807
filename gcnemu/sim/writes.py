"""RegWrite: a register write an instruction hands to the engine (at issue, or when a memory
operation lands). A leaf module: the memory operations (`memops`) and the execution context
(`context`) both make them, and `context` uses `memops` through `alignment`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class RegWrite:
    """Write `values` to registers `file[index : index+count]`.

    file: 'v' or 'a' (values uint32[count, 64], `mask` bool[64] lanes written) or
    's' (SGPR slots, values uint32[count]), 'scc' (values[0] is 0/1).
    """

    file: str
    index: int
    values: np.ndarray
    mask: np.ndarray | None = None
    # (not a field) set when `mask` is known to have every lane on, so the engine can skip the
    # masked merge: writing where an all-true mask says is plain assignment
    full = False

    @property
    def count(self) -> int:
        return 1 if self.file == "scc" else len(self.values)

    def regs(self) -> list[tuple[str, int]]:
        if self.file == "scc":
            return [("scc", 0)]
        return [(self.file, self.index + i) for i in range(len(self.values))]
