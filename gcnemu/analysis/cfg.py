"""Control-flow graph of a program's instruction list.

Nodes are basic blocks (``Block``: a run of instruction indices).  Edges carry
``kind``: ``fallthrough``, ``branch`` (taken edge of ``s_branch``/``s_cbranch_*``)
or ``call-return`` (``s_swappc_b64`` continues after the call).  Rules:

* a block ends after a branch, ``s_endpgm``, ``s_setpc_b64``/``s_swappc_b64``,
  or before an instruction that a label names;
* ``s_cbranch_*`` has two successors (target, next); ``s_branch`` one;
  ``s_endpgm`` none; ``s_setpc_b64`` (indirect jump, return) none - the
  destination is unknown, so the analyses stop there; a branch to a label that
  is not defined in the file (an external symbol) also has no known successor;
* instructions after an unconditional transfer with no label are unreachable
  from the entry; they still form blocks (and are analysed as entries), so a
  file holding several kernels is linted kernel by kernel.

The analyses walk plain predecessor/successor lists; ``CFG.graph`` gives the same graph as a
networkx ``DiGraph`` (for graph algorithms, drawing, tests), built when first asked for. Why
not always: importing networkx takes about 0.2 s, more than linting or timing a small file,
and the hazard monitor builds a CFG for every simulation.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .classify import Facts

if TYPE_CHECKING:
    import networkx as nx


@dataclass(slots=True)
class Block:
    id: int
    start: int  # first instruction index
    end: int  # one past the last instruction index
    unknown_exit: bool = False  # ends in an indirect jump or a branch to an unknown label

    @property
    def indices(self) -> range:
        return range(self.start, self.end)

    @property
    def last(self) -> int:
        return self.end - 1


@dataclass
class CFG:
    """Blocks, the edges between block ids (each with its kind), and instruction -> block."""

    blocks: list[Block]
    block_of: list[int]
    entries: list[int] = field(default_factory=list)
    # block -> successor -> edge kind, in the order the edges were added; the same edges as
    # lists of successors and of predecessors (what the analyses' loops read)
    _kinds: list[dict[int, str]] = field(init=False, repr=False)
    _succs: list[list[int]] = field(init=False, repr=False)
    _preds: list[list[int]] = field(init=False, repr=False)
    _graph: object = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._kinds = [{} for _ in self.blocks]
        self._succs = [[] for _ in self.blocks]
        self._preds = [[] for _ in self.blocks]

    def preds(self, b: int) -> list[int]:
        return self._preds[b]

    def succs(self, b: int) -> list[int]:
        return self._succs[b]

    def edge_kind(self, a: int, b: int) -> str:
        return self._kinds[a][b]

    def has_edge(self, a: int, b: int) -> bool:
        return b in self._kinds[a]

    def add_edge(self, a: int, b: int, kind: str) -> None:
        """One edge (block ids); added twice, it keeps its place and takes the new kind."""
        if b not in self._kinds[a]:
            self._succs[a].append(b)
            self._preds[b].append(a)
        self._kinds[a][b] = kind
        self._graph = None

    def is_back_edge(self, a: int, b: int) -> bool:
        """An edge that goes to an earlier (or the same) block: a loop back edge."""
        return self.blocks[b].start <= self.blocks[a].start

    @property
    def graph(self) -> "nx.DiGraph":
        """The CFG as a networkx DiGraph over block ids, edges with their ``kind`` (built on
        first use; the analyses do not need it)."""
        g = self._graph
        if g is None:
            import networkx as nx
            g = nx.DiGraph()
            g.add_nodes_from(b.id for b in self.blocks)
            for a, kinds in enumerate(self._kinds):
                for b, kind in kinds.items():
                    g.add_edge(a, b, kind=kind)
            self._graph = g
        return g


def build_cfg(facts: list[Facts], labels: dict[str, int]) -> CFG:
    """The CFG of ``facts`` (one per instruction) with ``labels`` name -> instruction index."""
    n = len(facts)
    leaders = {0} if n else set()
    leaders |= {i for i in labels.values() if 0 <= i < n}
    for f in facts:
        if f.control is not None and f.index + 1 < n:
            leaders.add(f.index + 1)
    starts = sorted(leaders)
    blocks: list[Block] = []
    block_of = [0] * n
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else n
        blocks.append(Block(k, s, e))
        for i in range(s, e):
            block_of[i] = k
    cfg = CFG(blocks, block_of)
    for b in blocks:
        last = facts[b.last]
        nxt = b.id + 1 if b.id + 1 < len(blocks) else None
        ctl = last.control
        if ctl in (None, "call"):
            if nxt is not None:
                cfg.add_edge(b.id, nxt, "fallthrough" if ctl is None else "call-return")
            continue
        if ctl in ("branch", "cbranch"):
            tgt = labels.get(last.target_label) if last.target_label else None
            if tgt is not None and 0 <= tgt < n:
                cfg.add_edge(b.id, block_of[tgt], "branch")
            else:
                b.unknown_exit = True
            if ctl == "cbranch" and nxt is not None:
                if cfg.has_edge(b.id, nxt):
                    continue  # branch to the next block: one edge is enough
                cfg.add_edge(b.id, nxt, "fallthrough")
            continue
        if ctl == "indirect":
            b.unknown_exit = True
        # "end": no successors
    cfg.entries = [b.id for b in blocks if b.id == 0 or not cfg.preds(b.id)]
    return cfg
