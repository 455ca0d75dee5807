"""How an MFMA operand is drawn as a 2-D grid: its rows and columns, the element at each cell,
and the axis labels. Shared by the text view (`layout`) and the pictures (`plot`), so a leaf
below both.
"""
from __future__ import annotations

import numpy as np

from ..isa.mfma import MfmaInfo


def _grid_axes(info: MfmaInfo, op: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]], str, str]:
    """Rows and columns of the 2-D drawing: lists of (block, index)."""
    nb, r, c = info.shape(op)
    blocks = range(nb)
    names = {"A": ("i", "k"), "B": ("k", "j")}.get(op, ("i", "j"))
    if op == "A":  # rows i, columns (block, k)
        return [(0, i) for i in range(r)], [(b, k) for b in blocks for k in range(c)], *names
    return [(b, i) for b in blocks for i in range(r)], [(0, j) for j in range(c)], *names


def _cell(em: np.ndarray, info: MfmaInfo, op: str, row: tuple[int, int], col: tuple[int, int]):
    nb, r, c = info.shape(op)
    if op == "A":
        b, i, k = col[0], row[1], col[1]
    else:
        b, i, k = row[0], row[1], col[1]
    return em[(b * r + i) * c + k]


def _axis_label(info: MfmaInfo, entry: tuple[int, int], multi: bool) -> str:
    """Row/column label: the index, prefixed by the block as 'b/' when blocks vary."""
    return f"{entry[0]}/{entry[1]}" if multi else f"{entry[1]}"
