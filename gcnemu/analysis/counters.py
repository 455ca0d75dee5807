"""Outstanding vm/lgkm operations tracked through ``s_waitcnt`` (abstract interpretation).

State at a program point: a *set* of possible queues ``(vm, lgkm)``, each a
tuple of instruction indices of operations that may still be outstanding,
oldest first.  The set is merged (union) at joins and iterated to a fixpoint
around loops.  Transfer functions (facts in ``shared/isa/counters.md`` and the
``[[counter_rule]]`` rows of ``hazards.toml``):

* a counted memory instruction appends itself to its counter's queue; a queue
  never grows past the counter's maximum (the hardware stalls issue there, so
  the oldest operation has completed);
* ``s_waitcnt vmcnt(N)``: vector memory completes in issue order, so only the
  N most recent stay;
* ``s_waitcnt lgkmcnt(N)``: LDS completes in order but SMEM (and messages) in
  any order.  A DS op X stays possibly outstanding only if
  ``1 + (younger DS ops) <= N`` (if X were pending, every younger DS op would
  be too); an SMEM op stays unless N = 0;
* LDS DMA and, on gfx9, stores count on vmcnt.

Checks at each instruction, over every possible queue: reading a register an
outstanding load returns into; overwriting it (except by a later op of the
same in-order queue); a DS read of LDS while an LDS DMA whose bytes it may read
is outstanding; an ``s_barrier`` while this wave's LDS writes are outstanding
(for an LDS DMA: only when a later ``ds_read`` may read its bytes, see
:meth:`CounterAnalysis.dma_read_after_barrier`).  Each finding carries the
tightest ``s_waitcnt`` field that removes it.

LDS byte ranges come from ``values.LdsRanges`` (register intervals from a forward
value analysis).  Without them (the dynamic monitor, or an address the analysis
cannot bound) every LDS DMA may overlap every read: the old, conservative verdict.
"""
from __future__ import annotations

from dataclasses import dataclass

from .cfg import CFG
from .classify import Access, Facts
from .paths import TOP, PathFacts, PathModel, assume, describe_witness, join, widen
from .paths import WIDEN_AFTER as FACTS_WIDEN_AFTER
from .values import LdsRanges, overlap

Queue = tuple[int, ...]
State = tuple[Queue, Queue]  # (vm, lgkm)

MAX_STATES = 512  # per program point; beyond this, states are merged conservatively
WITNESS_DECISIONS = 4  # conditional branch decisions kept to name a path in a note


@dataclass(slots=True)
class CounterHazard:
    """A missing or too weak s_waitcnt."""

    rule: str
    consumer: int
    producer: int  # the youngest outstanding operation that must complete
    counter: str  # vm | lgkm
    needed: int  # the largest field value that covers it: s_waitcnt <counter>cnt(needed)
    outstanding: int  # operations that may be outstanding at the consumer (worst state)
    registers: str = ""  # e.g. 'v4'
    access: Access | None = None
    waitcnt: int | None = None  # the s_waitcnt before the consumer that does not cover it
    waitcnt_value: int | None = None
    waitcnt_outstanding: int = 0  # operations outstanding just before that s_waitcnt
    kinds: frozenset = frozenset()  # MemOp kinds in the queue at the consumer (for wording)
    path: tuple = ()  # the last conditional branch decisions ((index, taken), ...) of a path that reaches it


def _lgkm_keep(q: Queue, n: int, facts: list[Facts]) -> Queue:
    if n >= len(q):
        return q
    if n <= 0:
        return ()
    keep = []
    younger_ds = 0
    for idx in reversed(q):
        kind = facts[idx].mem.kind
        if kind.startswith("ds"):
            if 1 + younger_ds <= n:
                keep.append(idx)
            younger_ds += 1
        else:
            keep.append(idx)
    return tuple(reversed(keep))


class CounterAnalysis:
    """Fixpoint over the CFG, then the per-instruction checks."""

    def __init__(self, facts: list[Facts], cfg: CFG, vm_max: int = 63, lgkm_max: int = 15,
                 overrides: dict[int, dict[str, int]] | None = None, lds: LdsRanges | None = None,
                 paths: PathModel | None = None):
        self.facts = facts
        self.paths = paths  # branch facts: drop CFG edges a state cannot take (None: every edge)
        self.cfg = cfg
        self.vm_max = vm_max
        self.lgkm_max = lgkm_max
        self.overrides = overrides or {}
        self.lds = lds  # LDS byte ranges; None: every DMA may overlap every read
        self.entry: dict[int, set[State]] = {}
        # per block: state -> (branch facts joined over the paths reaching it, a witness path)
        self.entry_info: dict[int, dict[State, tuple[PathFacts, tuple]]] = {}
        self._after_barrier: dict[tuple[int, int, int], bool] = {}
        self._feed_memo: dict[tuple[int, int], bool] = {}  # (DMA, DS read) -> dma_may_feed
        # instruction -> the instructions that may follow it, None after an unknown exit
        # (_search_reader's steps; static, so found once)
        self._next_memo: dict[int, tuple[int, ...] | None] = {}
        self._step_facts: dict[int, tuple] = {}  # instruction -> _search_step
        # pure caches for check(): code with a branch every few instructions reaches each
        # instruction with many states that share queues, and hazards() asks again per state
        # for the witness path. (consumer, state) -> findings; (consumer, producer) -> the
        # consumer's first read and first write that meet the producer's returned registers.
        self._state_memo: dict[tuple[int, State], tuple] = {}
        self._pair_memo: dict[tuple[int, int], tuple] = {}
        self._units_memo: dict[int, frozenset] = {}  # instruction -> 32-bit registers it touches
        self._ret_memo: dict[int, frozenset] = {}  # memory op -> 32-bit registers it returns into

    # ------------------------------------------------------------ LDS ranges
    def dma_may_feed(self, dma: int, read: int) -> bool:
        """May the LDS DMA ``dma`` write a byte that the DS instruction ``read`` reads?
        (Memoised per pair: each barrier's search asks it again for every DMA still queued.)"""
        if self.lds is None:
            return True
        key = (dma, read)
        hit = self._feed_memo.get(key)
        if hit is None:
            hit = self._feed_memo[key] = overlap(self.lds.dma(dma), self.lds.reads(read))
        return hit

    def dma_read_after_barrier(self, barrier: int, dma: int, younger: int) -> bool:
        """Does an LDS DMA pending at ``s_barrier`` matter to the waves the barrier releases?

        The barrier releases the other waves; the DMA keeps writing until this wave
        drains it.  The other waves run the same code, so what they can read while it
        is in flight is what a ``ds_read`` reachable from the barrier reads, up to the
        point where this wave has certainly drained the DMA: an ``s_waitcnt vmcnt(N)``
        with at least N vector memory operations younger than it (or the counter
        saturating).  Later barriers do not stop the search: without that drain the
        DMA is still in flight when they release.  If no such ``ds_read`` may overlap
        the DMA's bytes, no wave can observe the write early and the barrier is fine;
        an unknown path (indirect jump) or an unknown range counts as a reader.

        ``younger`` is the number of vector memory operations issued after the DMA
        and before the barrier.  The search runs over (instruction, younger count)
        pairs, so loops terminate.
        """
        if self.cfg is None or self.lds is None:
            return True
        key = (barrier, dma, younger)
        hit = self._after_barrier.get(key)
        if hit is None:
            hit = self._after_barrier[key] = self._search_reader(barrier, dma, younger)
        return hit

    def _successors(self, i: int) -> tuple[int, ...] | None:
        """The instructions that may execute after ``i`` (None: an unknown exit, such as an
        indirect jump, ends its block)."""
        hit = self._next_memo.get(i, False)
        if hit is not False:
            return hit
        cfg = self.cfg
        b = cfg.blocks[cfg.block_of[i]]
        if i + 1 < b.end:
            hit = (i + 1,)
        elif b.unknown_exit:
            hit = None
        else:
            hit = tuple(cfg.blocks[s].start for s in cfg.succs(b.id))
        self._next_memo[i] = hit
        return hit

    def _search_step(self, j: int) -> tuple:
        """What `_search_reader` asks of instruction ``j``: (the vm count an s_waitcnt drains to,
        or None; a DS read of LDS; counted by vmcnt; ends the program), found once."""
        hit = self._step_facts.get(j)
        if hit is None:
            f = self.facts[j]
            m = f.mem
            hit = self._step_facts[j] = (
                self.fields(f).get("vm") if f.waitcnt is not None else None,
                m is not None and m.reads_lds and f.base.startswith("ds_"),
                m is not None and m.counter == "vm",
                f.control == "end")
        return hit

    def _search_reader(self, barrier: int, dma: int, younger: int) -> bool:
        # a depth-first walk over (instruction, vm operations younger than the DMA) states; the
        # answer (some state reaches a reader the DMA may feed, or an unknown exit) does not
        # depend on the order, and every fact of an instruction is looked up once per search step
        successors = self._successors
        step = self._search_step
        feeds = self.dma_may_feed
        vm_max = self.vm_max
        nxt = successors(barrier)
        if nxt is None:
            return True
        seen = {(j, younger) for j in nxt}
        work = list(seen)
        while work:
            j, y = work.pop()
            drained_at, ds_read, vm_op, end = step(j)
            if drained_at is not None and y >= drained_at:
                continue  # drained on this path
            if ds_read and feeds(dma, j):
                return True
            if vm_op:
                y += 1
                if y >= vm_max:
                    continue  # the counter saturated: the DMA has completed
            if end:
                continue
            nxt = successors(j)
            if nxt is None:
                return True
            for k in nxt:
                state = (k, y)
                if state not in seen:
                    seen.add(state)
                    work.append(state)
        return False

    def _youngest_read_dma(self, barrier: int, vm: Queue) -> int | None:
        """The position in ``vm`` of the youngest LDS DMA that matters at ``barrier``
        (:meth:`dma_read_after_barrier`), None when none does. The DMAs not answered yet are
        answered together by one search (:meth:`_search_readers`)."""
        facts = self.facts
        dmas = [(p, vm[p], len(vm) - 1 - p) for p in range(len(vm) - 1, -1, -1)
                if facts[vm[p]].mem.kind == "lds-dma"]
        if self.cfg is not None and self.lds is not None:
            todo = [(d, y) for _, d, y in dmas if (barrier, d, y) not in self._after_barrier]
            if len(todo) > 1:
                for (d, y), hit in zip(todo, self._search_readers(barrier, todo)):
                    self._after_barrier[(barrier, d, y)] = hit
        return next((p for p, d, y in dmas if self.dma_read_after_barrier(barrier, d, y)), None)

    def _search_readers(self, barrier: int, dmas: list[tuple[int, int]]) -> list[bool]:
        """``_search_reader(barrier, dma, younger)`` for several (dma, younger) pairs in one walk.

        Why: a barrier with a queue of N DMAs in flight asked N searches over the same code
        (measured: 80 searches were a third of the monitor's cost in the flagship GEMM's run).
        The walk runs over (instruction, vm operations issued since the barrier: c) and keeps,
        per such state, the bound T that the paths reaching it leave: a DMA that had ``younger``
        operations after it at the barrier is still undrained there on some path exactly when
        ``younger < T`` (an ``s_waitcnt vmcnt(N)`` needs ``younger + c < N``, the counter
        ``younger + c < vm_max``; the bound of a path is the least of these, and several paths
        give the greatest of their bounds). So each DMA gets the answer its own search gives."""
        successors = self._successors
        step = self._search_step
        feeds = self.dma_may_feed
        vm_max = self.vm_max
        found = [False] * len(dmas)
        least = min(y for _, y in dmas)
        nxt = successors(barrier)
        if nxt is None:
            return [True] * len(dmas)
        unbounded = 1 << 30
        best = {(j, 0): unbounded for j in nxt}
        work = list(best)
        while work:
            j, c = work.pop()
            bound = best[(j, c)]
            drained_at, ds_read, vm_op, end = step(j)
            if drained_at is not None and drained_at - c < bound:
                bound = drained_at - c
            if bound <= least:
                continue  # every DMA has drained on these paths
            if ds_read:
                for k, (dma, y) in enumerate(dmas):
                    if not found[k] and y < bound and feeds(dma, j):
                        found[k] = True
                if all(found):
                    break
            if vm_op:
                c += 1
                if vm_max - c < bound:
                    bound = vm_max - c
                if bound <= least:
                    continue  # the counter saturated: the DMAs have completed
            if end:
                continue
            nxt = successors(j)
            if nxt is None:  # an unknown exit: every DMA still undrained may meet a reader
                for k, (_, y) in enumerate(dmas):
                    if y < bound:
                        found[k] = True
                continue
            for k in nxt:
                if best.get((k, c), -1) < bound:
                    best[(k, c)] = bound
                    work.append((k, c))
        return found

    # ------------------------------------------------------------ transfer
    def fields(self, f: Facts) -> dict[str, int]:
        return self.overrides.get(f.index, f.waitcnt or {})

    def step(self, st: State, f: Facts) -> State:
        vm, lg = st
        if f.control == "call":
            # the AMDGPU calling convention (as llc-22 emits it, SIInsertWaitcnts' callWaitsOnFunction*):
            # a callee waits for every counter at its entry and again before it returns, so nothing
            # issued before the call is outstanding after it. The call's own reads (its target
            # address) were checked against the state before it.
            return (), ()
        if f.waitcnt is not None:
            flds = self.fields(f)
            n = flds.get("vm")
            if n is not None and n < len(vm):
                vm = vm[len(vm) - n:] if n > 0 else ()
            n = flds.get("lgkm")
            if n is not None and n < len(lg):
                lg = _lgkm_keep(lg, n, self.facts)
            return vm, lg
        m = f.mem
        if m is not None:
            if m.counter == "vm":
                vm = (vm + (f.index,))[-self.vm_max:]
            else:
                lg = (lg + (f.index,))[-self.lgkm_max:]
        return vm, lg

    def run(self) -> "CounterAnalysis":
        """Fixpoint of the queue states at block entries.

        Each state carries the branch facts (``paths.PathFacts``) of the paths reaching it,
        joined per (block, state), and the first path found to it (its last conditional
        branch decisions).  An edge the facts contradict is not followed for that state, so
        a queue that exists only on an infeasible path never reaches the consumer.
        """
        cfg, facts = self.cfg, self.facts
        if not cfg.blocks:
            return self
        paths = self.paths
        empty: State = ((), ())
        info: dict[int, dict[State, tuple[PathFacts, tuple]]] = {b: {} for b in range(len(cfg.blocks))}
        changes: dict[tuple[int, State], int] = {}
        # per block: the states that are new or whose facts changed since the block was last run
        pending: dict[int, set[State]] = {b: set() for b in range(len(cfg.blocks))}
        for e in cfg.entries:
            info[e][empty] = (TOP, ())
            pending[e].add(empty)
        work = list(cfg.entries)
        queued = set(work)
        through: dict[tuple[int, State], State] = {}
        while work:
            b = work.pop(0)
            queued.discard(b)
            blk = cfg.blocks[b]
            last = facts[blk.last]
            cond = last.control == "cbranch"
            outs: dict[State, tuple[PathFacts, tuple]] = {}
            here = info[b]
            todo, pending[b] = pending[b], set()
            for st in todo:
                v = here.get(st)
                if v is None:
                    continue  # dropped when the block had too many states
                pf, wit = v
                key = (b, st)
                out_st = through.get(key)
                if out_st is None:  # a state is re-run when only its facts changed: memoise the queue part
                    out_st = st
                    for i in blk.indices:
                        out_st = self.step(out_st, facts[i])
                    through[key] = out_st
                st = out_st
                pf_out = paths.through(b, pf) if paths is not None else pf
                old = outs.get(st)
                outs[st] = (pf_out, wit) if old is None else (join(old[0], pf_out), old[1])
            for s in cfg.succs(b):
                dest = info[s]
                before = len(dest)
                changed = False
                taken = cond and cfg.edge_kind(b, s) == "branch"
                step_wit = ((blk.last, taken),) if cond else ()
                truth = paths.edge_truth(b, s) if paths is not None and cond else None
                refined: dict[PathFacts, PathFacts | None] = {}
                for st, (pf, wit) in outs.items():
                    if truth is not None and pf.scc is not None:
                        r = refined.get(pf, pf)
                        if r is pf:
                            r = refined[pf] = assume(pf, pf.scc, truth)
                        if r is None:
                            continue  # this state cannot take the edge
                        pf = r
                    old = dest.get(st)
                    if old is None:
                        dest[st] = (pf, (wit + step_wit)[-WITNESS_DECISIONS:])
                        pending[s].add(st)
                        changed = True
                        continue
                    new = join(old[0], pf)
                    if new == old[0]:
                        continue
                    key = (s, st)
                    n = changes[key] = changes.get(key, 0) + 1
                    if n > FACTS_WIDEN_AFTER:
                        new = widen(old[0], new)
                    dest[st] = (new, old[1])
                    pending[s].add(st)
                    changed = True
                if len(dest) > MAX_STATES:
                    keep = _widen(set(dest))
                    info[s] = dest = {k: v for k, v in dest.items() if k in keep}
                    changed = len(dest) != before  # as before the facts: stop once the size is stable
                if changed and s not in queued:
                    work.append(s)
                    queued.add(s)
        self.entry_info = info
        self.entry = {b: set(d) for b, d in info.items()}
        return self

    # ------------------------------------------------------------ checks
    def states_before(self):
        """Yield (instruction index, set of states before it) in program order."""
        for i, states in self.states_with_paths():
            yield i, set(states)

    def states_with_paths(self):
        """Yield (instruction index, {state: witness path}) in program order; the witness is the
        last conditional branch decisions ((index, taken), ...) of one path reaching the state."""
        for b in self.cfg.blocks:
            info = self.entry_info.get(b.id)
            if info is not None:
                states = {st: v[1] for st, v in info.items()}
            else:
                states = dict.fromkeys(self.entry.get(b.id, ()), ())
            for i in b.indices:
                yield i, states
                nxt: dict[State, tuple] = {}
                for st, w in states.items():
                    nxt.setdefault(self.step(st, self.facts[i]), w)
                states = nxt

    def hazards(self) -> list[CounterHazard]:
        facts = self.facts
        found: dict[tuple, CounterHazard] = {}
        last_wait: dict[str, tuple[int, int, int]] = {}  # counter -> (index, value, outstanding before)
        block_start = {b.start for b in self.cfg.blocks}
        for i, with_paths in self.states_with_paths():
            states = with_paths.keys()
            if i in block_start:
                last_wait = {}
            f = facts[i]
            if f.waitcnt is not None:
                for ctr, val in self.fields(f).items():
                    if ctr in ("vm", "lgkm"):
                        k = 0 if ctr == "vm" else 1
                        last_wait[ctr] = (i, val, max((len(st[k]) for st in states), default=0))
            if not states or (f.mem is None and not f.reads and not f.writes and f.base != "s_barrier"):
                continue
            if all(not st[0] and not st[1] for st in states):
                continue
            for h in self.check(f, states):
                w = last_wait.get(h.counter)
                if w is not None:
                    h.waitcnt, h.waitcnt_value, h.waitcnt_outstanding = w
                key = (h.consumer, h.rule, h.producer)
                old = found.get(key)
                if old is None or h.needed < old.needed:
                    h.path = self._witness(f, h, with_paths)
                    found[key] = h
        # one finding per (consumer, rule): the one that needs the tightest wait
        best: dict[tuple, CounterHazard] = {}
        for h in found.values():
            key = (h.consumer, h.rule)
            old = best.get(key)
            if old is None or h.needed < old.needed:
                best[key] = h
        return sorted(best.values(), key=lambda h: (h.consumer, h.rule))

    def _witness(self, f: Facts, h: CounterHazard, with_paths: dict) -> tuple:
        """The path of one state before ``f`` that shows hazard ``h`` (same rule, producer, count)."""
        if len(with_paths) == 1:
            return next(iter(with_paths.values()))
        for st, w in with_paths.items():
            for h2 in self.check(f, (st,)):
                if h2.rule == h.rule and h2.producer == h.producer and h2.needed == h.needed:
                    return w
        k = 0 if h.counter == "vm" else 1
        return next((w for st, w in with_paths.items() if h.producer in st[k]), ())

    def describe_path(self, h: CounterHazard) -> str:
        """'on the path that takes the branch at line 12, then ...' for a hazard found off a branch."""
        return describe_witness(h.path, self.facts)

    def check(self, f: Facts, states) -> list[CounterHazard]:
        """Counter hazards of instruction ``f`` given the possible states before it.

        Per (rule, counter) the finding of the state that needs the tightest wait is kept (the
        first such state on a tie). Each state's findings are computed once (``_check_state``)."""
        if f.waitcnt is not None:
            return []
        best: dict[tuple, tuple] = {}
        for st in states:
            for t in self._check_state(f, st):
                key = (t[0], t[2])
                old = best.get(key)
                if old is None or t[3] < old[3]:
                    best[key] = t
        return [CounterHazard(rule, f.index, producer, counter, needed, outstanding, regs, acc, kinds=kinds)
                for rule, producer, counter, needed, outstanding, regs, acc, kinds in best.values()]

    def _check_state(self, f: Facts, st: State) -> tuple:
        """Findings of ``f`` for one state, as tuples (rule, producer, counter, needed,
        outstanding, registers, access, kinds); memoised by (instruction, state)."""
        key = (f.index, st)
        found = self._state_memo.get(key)
        if found is not None:
            return found
        facts = self.facts
        out: dict[tuple, tuple] = {}

        def note(rule: str, producer: int, counter: str, needed: int, outstanding: int, regs: str = "",
                 acc: Access | None = None, q: Queue = ()) -> None:
            k = (rule, counter)
            old = out.get(k)
            if old is None or needed < old[3]:
                kinds = frozenset(facts[x].mem.kind for x in q)
                out[k] = (rule, producer, counter, needed, outstanding, regs, acc, kinds)

        vm, lg = st
        # vector memory: reads and overwrites of pending load destinations
        if vm:
            self._check_queue(f, vm, "vm", note)
            if f.mem is not None and f.mem.reads_lds and f.base.startswith("ds_"):
                # only DMAs that may write bytes this read reads: the youngest decides the count
                pos = _youngest(vm, lambda x: facts[x].mem.kind == "lds-dma" and self.dma_may_feed(x, f.index))
                if pos is not None:
                    note("lds-dma-read-before-vmcnt", vm[pos], "vm", len(vm) - 1 - pos, len(vm), q=vm)
            if f.base == "s_barrier":
                pos = self._youngest_read_dma(f.index, vm)
                if pos is not None:
                    note("barrier-lds-write-pending", vm[pos], "vm", len(vm) - 1 - pos, len(vm), q=vm)
        if lg:
            self._check_queue(f, lg, "lgkm", note)
            if f.base == "s_barrier":
                pos = _youngest(lg, lambda x: facts[x].mem.writes_lds)
                if pos is not None:
                    note("barrier-lds-write-pending", lg[pos], "lgkm", _lgkm_needed(lg, pos, facts), len(lg), q=lg)
        found = self._state_memo[key] = tuple(out.values())
        return found

    def _meets(self, f: Facts, producer: int, counter: str) -> tuple:
        """(read, write): the first access of ``f`` that reads, and the first that overwrites, a
        register ``producer`` returns into (None when none does). Overwrites by a later operation
        of the same in-order queue do not count: it returns after the older one."""
        key = (f.index, producer)
        hit = self._pair_memo.get(key)
        if hit is not None:
            return hit
        op = self.facts[producer]
        rets = op.mem.returns
        read = write = None
        if rets and not self._returns(producer).isdisjoint(self._touches(f)):
            read = next((a for a in f.reads if any(a.reg.overlaps(r) for r in rets)), None)
            m = f.mem
            for a in f.writes:
                if not any(a.reg.overlaps(r) for r in rets):
                    continue
                if m is not None and m.counter == counter and a.explicit and (
                        counter == "vm" or (m.kind.startswith("ds") and op.mem.kind.startswith("ds"))):
                    continue
                write = a
                break
        hit = self._pair_memo[key] = (read, write)
        return hit

    def _touches(self, f: Facts) -> frozenset:
        u = self._units_memo.get(f.index)
        if u is None:
            u = self._units_memo[f.index] = _units(a.reg for a in (*f.reads, *f.writes))
        return u

    def _returns(self, producer: int) -> frozenset:
        u = self._ret_memo.get(producer)
        if u is None:
            u = self._ret_memo[producer] = _units(self.facts[producer].mem.returns)
        return u

    def _check_queue(self, f: Facts, q: Queue, counter: str, note) -> None:
        facts = self.facts
        for pos in range(len(q) - 1, -1, -1):
            read, write = self._meets(f, q[pos], counter)
            if read is None and write is None:
                continue
            op = facts[q[pos]]
            rets = op.mem.returns
            needed = len(q) - 1 - pos if counter == "vm" else _lgkm_needed(q, pos, facts)
            if read is not None:
                if counter == "vm":
                    rule = "vmem-result-before-vmcnt"
                elif op.mem.kind == "smem":
                    rule = "smem-result-before-lgkmcnt"
                else:
                    rule = "ds-result-before-lgkmcnt"
                note(rule, q[pos], counter, needed, len(q), _regs_text(read, rets), read, q)
            if write is not None:
                rule = "vmem-dst-overwrite-before-vmcnt" if counter == "vm" else "lgkm-dst-overwrite-before-lgkmcnt"
                note(rule, q[pos], counter, needed, len(q), _regs_text(write, rets), write, q)


def _units(ranges) -> frozenset:
    """The 32-bit registers of some register ranges, as (file, number): a set test rejects the
    (consumer, load) pairs that share no register without comparing ranges one by one."""
    return frozenset((r.file, i) for r in ranges for i in range(r.start, r.end))


def _youngest(q: Queue, pred) -> int | None:
    for pos in range(len(q) - 1, -1, -1):
        if pred(q[pos]):
            return pos
    return None


def _lgkm_needed(q: Queue, pos: int, facts: list[Facts]) -> int:
    """Largest lgkmcnt(N) that guarantees the op at ``pos`` has completed."""
    if not facts[q[pos]].mem.kind.startswith("ds"):
        return 0
    return sum(1 for x in q[pos + 1:] if facts[x].mem.kind.startswith("ds"))


def _regs_text(a: Access, rets) -> str:
    for r in rets:
        if a.reg.overlaps(r):
            lo = max(a.reg.start, r.start)
            hi = min(a.reg.end, r.end) - 1
            return f"{r.file}{lo}" if lo == hi else f"{r.file}[{lo}:{hi}]"
    return a.reg.text()


def _widen(states: set[State]) -> set[State]:
    """Too many distinct queues: keep the longest ones, and for every operation that may be
    outstanding, a state where it has the fewest younger operations.

    The longest queues alone are not conservative: a queue that is short because its path
    skipped a loop (it may run zero times) can hold an operation that every long queue has
    drained (an `s_waitcnt` in the loop) or pushed out (the counter saturating in a loop of
    ds_swizzle); dropping it lost a real finding (issue 25, item 3). Keeping, per operation,
    the state where it is youngest keeps the finding and the tightest s_waitcnt it needs.
    """
    by_len = sorted(states, key=lambda s: (len(s[0]) + len(s[1])), reverse=True)
    keep = set(by_len[: MAX_STATES // 2])
    fewest: dict[tuple[int, int], tuple[int, State]] = {}  # (counter, op) -> (younger ops, state)
    for st in by_len:
        for k, q in enumerate(st):
            n = len(q)
            for pos, op in enumerate(q):
                younger = n - 1 - pos
                best = fewest.get((k, op))
                if best is None or younger < best[0]:
                    fewest[(k, op)] = (younger, st)
    keep.update(st for _, st in fewest.values())
    return keep
