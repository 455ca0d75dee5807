"""The dynamic hazard monitor: the static rules applied to the executed issue stream.

The engine calls :meth:`HazardMonitor.on_issue` once per issued instruction
(every executed ``s_nop``, ``s_waitcnt`` and ``s_barrier`` included, in each
wave's program order).  The monitor keeps, per wave, the last instructions
with their wait-state positions and the concrete queues of outstanding vm/lgkm
operations, and applies to them exactly the code the static linter uses:
:func:`gcnemu.analysis.waitstates.match` for the wait-state rules and
:meth:`gcnemu.analysis.counters.CounterAnalysis.check` for the counter rules.
So the rule ids are the linter's and, on straight-line code (one path), the
verdicts are the same.  What only execution shows - the path actually taken
through branches and loops - is what the monitor adds.

Hook for the engine (``gcnemu/sim/engine.py``, owned by the timing engine)::

    # Engine.__init__
    from .monitor import HazardMonitor
    self.monitor = HazardMonitor(kernel)
    # Engine._record(wi, w, index, now, complete), after appending the IssueRecord
    self.hazards.extend(self.monitor.on_issue(wi, index, now, complete))

Until then :func:`replay` feeds it ``engine.records`` after a run.
"""
from __future__ import annotations

import copy
from collections import deque
from itertools import accumulate
from operator import itemgetter
from dataclasses import dataclass, field

from ..isa.hazard_rules import canonical_target
from ..sim.engine import HazardEvent
from .classify import Facts, access_span, classify_all
from .counters import CounterAnalysis, CounterHazard
from .waitstates import PathFlags, RuleIndex, _bits, match


_NEVER = -(1 << 62)  # _Wave.last of a rule no instruction has produced for yet
_NO_FLAGS = PathFlags()  # nothing between producer and consumer
_TRIM_BATCH = 64  # wait states of history kept beyond the windows before a trim
_FLUSH_PLAIN = 24  # noted quiet issues of a wave up to which _flush advances over them one by one
# quiet issues noted before they are folded into the waves' state (_flush): a run that issues
# only quiet instructions for a long time would otherwise keep every one of them
DEFER_MAX = 1 << 15


@dataclass(slots=True)
class _Wave:
    pos: int = 0  # wait states issued so far
    history: deque = field(default_factory=deque)  # (index, position after it, cycle)
    sid: int = 0  # the wave's counter queues (vm, lgkm) as HazardMonitor._queues[sid]; 0: both empty
    # rule bit -> position after the latest instruction that can produce for it (_NEVER: none):
    # a consumer whose rules' producers all lie beyond the window needs no look at the history
    last: list = field(default_factory=list)
    # the indices of the latest instructions, oldest first (at least the newest `window`): every
    # instruction counts one wait state or more, so the last W of them hold every entry of the
    # history within W wait states and fix their distances (see _wait_states)
    recent: list = field(default_factory=list)


class HazardMonitor:
    """Per-wave wait-state and counter checks over an issue stream."""

    def __init__(self, kernel, target: str | None = None, rules=None, launch=None):
        program = getattr(kernel, "program", None)
        instructions = kernel.instructions if hasattr(kernel, "instructions") else program.instructions
        tname = canonical_target(target or kernel.target.name)
        symbols = getattr(kernel, "symbols", None) or (program.symbols if program is not None else {})
        self.instructions = instructions
        self.facts: list[Facts] = classify_all(instructions, tname, symbols,
                                               program.lines if program is not None else None)
        only = set(rules) if rules else None
        self.index = RuleIndex(tname, only)
        self.counter_only = only
        self.prod = [self.index.producer_mask(f) for f in self.facts]
        self.cons = [self.index.consumer_mask(f) for f in self.facts]
        self.window = max(self.index.windows, default=0)
        from ..isa.targets import get_target
        tgt = get_target(tname)
        # LDS byte ranges of DMAs and DS reads (static, sound for every execution), so that a
        # ds_read of one buffer while the DMA fills the other is not a hazard (analysis/values.py)
        cfg = lds = None
        if program is not None:
            from .cfg import build_cfg
            from .values import lds_ranges
            cfg = build_cfg(self.facts, program.labels)
            lds = lds_ranges(program, instructions, self.facts, cfg, tname, launch)
        self.counters = CounterAnalysis(self.facts, cfg, tgt.vmcnt_max, tgt.lgkmcnt_max, lds=lds)
        self._waves: dict[int, _Wave] = {}
        # Quiet issues: an instruction no live wait-state rule consumes for, that changes no counter
        # queue and meets no load's registers finds nothing whatever came before it (see _is_quiet),
        # so on_issue only notes it here, (wave, index, cycle), and the waves' state advances over
        # the noted issues at the next issue that can find something (_flush) or when the state is
        # read (`waves`, snapshot). Why: in an ALU loop nearly every issue is quiet, and the
        # per-issue advance was most of the monitor's cost; the flush builds only what a window reads.
        self._quiet: list[bool | None] = [None] * len(self.facts)
        self._deferred: dict[int, list[tuple[int, int]]] = {}  # wave -> its quiet issues (index, cycle)
        # Per-issue cost: the verdicts depend only on the instruction and on what came before
        # it within the rules' window (wait states) or in the counter queues, and a loop
        # repeats the same few situations, so each is computed once (pure caches, not state).
        self._plain = [f.waitcnt is None and f.mem is None for f in self.facts]  # counters.step is identity
        self._ws_memo: dict[tuple, list] = {}
        # instructions whose counter findings look at more than the registers queue entries return
        # into (CounterAnalysis._check_state): DS reads of LDS (pending DMAs) and s_barrier
        self._queue_special = [f.base == "s_barrier" or (f.mem is not None and f.mem.reads_lds
                                                          and f.base.startswith("ds_")) for f in self.facts]
        self._meets_any: dict[tuple[int, int], bool] = {}  # (instruction, queued op) -> they meet
        self._returning: dict[tuple, tuple] = {}  # a queue -> its operations that return into registers
        # The counter queues a wave can have are few (the same loop, the same waits), so each
        # (vm, lgkm) pair gets a number once and the per-issue look-ups key on (instruction,
        # number): two small ints hash at once, where two queue tuples of up to 63 entries were
        # hashed twice per issue (measured in on_issue; findings and steps are the same).
        self._queues: list[tuple] = [((), ())]
        self._queue_id: dict[tuple, int] = {((), ()): 0}
        self._step_memo: dict[tuple[int, int], int] = {}  # (instruction, queues) -> queues after it
        self._ctr_memo: dict[tuple[int, int], list] = {}  # (instruction, queues) -> findings
        # per instruction, whether some counter rule can ever find anything at it (None: not yet
        # decided): it waits on nothing and shares no register with any load's destination of
        # the program, nor reads LDS or is s_barrier, then no queue can ever give a finding
        self._may_meet: list[bool | None] = [None] * len(self.facts)
        self._all_returns: int | None = None  # the registers loads return into, as _register_bits
        self._file_bits: dict[str, int] = {}  # register file -> its first bit in _register_bits
        self._prod_bits = [_bits(m) for m in self.prod]
        self._cons_bits = [_bits(m) for m in self.cons]
        self._cons_window = [self.index.window(m) for m in self.cons]
        # what on_issue needs of an instruction, in one load: (wait states, consumer rule bits when
        # it consumes for some rule, its window, producer rule bits when it produces, counters
        # unchanged by it)
        # (the consumer's bits as one itemgetter over _Wave.last: a tuple of the latest positions)
        self._rule_count = len(self.index.windows)
        # Only the rules this program has both a producer and a consumer for can ever match: the
        # gate below needs no look at the others (their _Wave.last stays _NEVER, so leaving them
        # out changes no verdict) and a producer need not record them. Measured: the gate over
        # every consumer rule was most of on_issue's cost in a VALU loop with no producer.
        live = 0
        for pm in self.prod:
            live |= pm
        consumed = 0
        for cm in self.cons:
            consumed |= cm
        live &= consumed
        self._issue_facts = [self._issue_fact(f, i, live) for i, f in enumerate(self.facts)]
        self._recent_keep = 2 * self.window + _TRIM_BATCH  # _Wave.recent trimmed to `window` past this

    def _issue_fact(self, f: Facts, i: int, live: int) -> tuple:
        """What on_issue needs of instruction `i` (see __init__), restricted to the `live` rules."""
        cons_live = self.cons[i] & live
        cons_bits = _bits(cons_live)
        # a producer of one of these rules within this window sends the consumer to _wait_states,
        # which looks at every rule of the consumer: the other rules have no producer at all here
        cons_last = itemgetter(*cons_bits, cons_bits[0]) if cons_live else None
        return (f.wait_states, cons_last, self.index.window(cons_live) if cons_live else 0,
                _bits(self.prod[i] & live), self._plain[i])

    @property
    def waves(self) -> dict[int, "_Wave"]:
        """Per wave, the monitor's state (the noted quiet issues taken into account)."""
        if self._deferred:
            self._flush()
        return self._waves

    @waves.setter
    def waves(self, value: dict) -> None:
        self._deferred = {}
        self._waves = value

    def snapshot(self):
        """A copy of the per-wave state (Engine.snapshot keeps it for reverse steps)."""
        return copy.deepcopy(self.waves)

    def restore(self, saved) -> None:
        self.waves = copy.deepcopy(saved)

    def _is_quiet(self, index: int) -> bool:
        """Whether on_issue of `index` can find nothing and leaves the counter queues as they are,
        whatever the wave's history: no live wait-state rule consumes for it, it waits on nothing
        and issues no memory operation, and no counter rule can meet it (_meets_some_load)."""
        return self._issue_facts[index][1] is None and self._plain[index] and not self._meets_some_load(index)

    def _flush(self) -> None:
        """Advance the waves' state over the noted quiet issues, as on_issue's advance would.

        Only what a check can read is built: the position (the wait states summed), each rule's
        latest producer position, and of the history and the recent indices the newest
        `_recent_keep` issues (at least 2 x window of them, each one wait state or more: more than
        any rule's window, which is where every walk over them stops). Older entries were
        trimmed by on_issue anyway; which of them a trim leaves changes no verdict."""
        deferred = self._deferred
        self._deferred = {}
        facts = self._issue_facts
        keep = self._recent_keep
        window = self.window
        for wave, entries in deferred.items():
            w = self._waves.get(wave)
            if w is None:
                w = self._waves[wave] = _Wave(last=[_NEVER] * self._rule_count)
            if len(entries) <= _FLUSH_PLAIN:  # a few: on_issue's advance one by one costs less
                for index, cycle in entries:
                    fact = facts[index]
                    pos = w.pos = w.pos + fact[0]
                    hist = w.history
                    hist.append((index, pos, cycle))
                    recent = w.recent
                    recent.append(index)
                    if len(recent) > keep:
                        del recent[:len(recent) - window]
                    if fact[3]:
                        last = w.last
                        for r in fact[3]:
                            last[r] = pos
                    limit = pos - window - 16
                    if hist[0][1] < limit - _TRIM_BATCH:
                        while hist and hist[0][1] < limit:
                            hist.popleft()
                continue
            idx = [e[0] for e in entries]
            ws = [facts[i][0] for i in idx]
            poss = list(accumulate(ws, initial=w.pos))
            del poss[0]
            pos = w.pos = poss[-1]
            last = w.last
            for k in [k for k, i in enumerate(idx) if facts[i][3]]:
                p = poss[k]
                for r in facts[idx[k]][3]:
                    last[r] = p
            tail = max(0, len(idx) - keep)
            hist = w.history
            hist.extend(zip(idx[tail:], poss[tail:], [e[1] for e in entries[tail:]]))
            recent = w.recent
            recent.extend(idx[tail:])
            if len(recent) > keep:
                del recent[:len(recent) - window]
            limit = pos - window - 16
            if hist[0][1] < limit - _TRIM_BATCH:
                while hist and hist[0][1] < limit:
                    hist.popleft()

    def note_quiet(self, wave: int, issues: list) -> None:
        """Note (index, cycle) issues of `wave`, in order, each of a quiet instruction: what
        on_issue does for each of them, in one call (the engine's compiled issue loop issues
        only quiet instructions and hands them over in batches)."""
        noted = self._deferred.get(wave)
        if noted is None:
            noted = self._deferred[wave] = []
        noted.extend(issues)
        if len(noted) > DEFER_MAX:
            self._flush()

    # ------------------------------------------------------------------ the hook
    def on_issue(self, wave: int, index: int, cycle: int, complete: int | None = None) -> list[HazardEvent]:
        """Check instruction ``index`` issued by ``wave`` at ``cycle``; return the hazards it completes."""
        quiet = self._quiet[index]
        if quiet is None:
            quiet = self._quiet[index] = self._is_quiet(index)
        if quiet:
            noted = self._deferred.get(wave)
            if noted is None:
                noted = self._deferred[wave] = []
            noted.append((index, cycle))
            if len(noted) > DEFER_MAX:  # (a long quiet stretch: memory stays flat)
                self._flush()
            return []
        if self._deferred:
            self._flush()
        w = self._waves.get(wave)
        if w is None:
            w = self._waves[wave] = _Wave(last=[_NEVER] * self._rule_count)
        wait_states, cons_last, cons_window, prod_bits, plain = self._issue_facts[index]
        events = []
        hist = w.history
        # a producer of one of the consumer's rules within the window? (else nothing to match)
        if cons_last is not None and hist and max(cons_last(w.last)) > w.pos - cons_window:
            events = self._wait_states(w, wave, self.facts[index], cycle)
        sid = w.sid
        if sid:
            found = self._ctr_memo.get((index, sid))
            if found is None:
                found = self._counter_situation(index, sid)
            if found:
                events = events + [HazardEvent(rule, wave, cycle, cons, prod, list(regs), msg, consumer_span=cs,
                                               producer_span=ps, source="rules")
                                   for rule, cons, prod, regs, msg, cs, ps in found]
        # advance the wave's state
        pos = w.pos = w.pos + wait_states
        hist.append((index, pos, cycle))
        recent = w.recent
        recent.append(index)
        if len(recent) > self._recent_keep:
            del recent[:len(recent) - self.window]
        if prod_bits:
            last = w.last
            for r in prod_bits:
                last[r] = pos
        # drop what no rule window reaches, a batch at a time (the checks stop at their window,
        # so older entries kept a while longer change nothing; one test per issue is cheaper)
        limit = pos - self.window - 16
        if hist[0][1] < limit - _TRIM_BATCH:
            while hist and hist[0][1] < limit:
                hist.popleft()
        if not plain:
            nxt = self._step_memo.get((index, sid))
            if nxt is None:
                nxt = self._step_memo[(index, sid)] = self._queue_number(
                    self.counters.step(self._queues[sid], self.facts[index]))
            w.sid = nxt
        return events

    def _queue_number(self, queues: tuple) -> int:
        """The number of a (vm, lgkm) queue pair, given at its first appearance."""
        n = self._queue_id.get(queues)
        if n is None:
            n = self._queue_id[queues] = len(self._queues)
            self._queues.append(queues)
        return n

    # ------------------------------------------------------------------ wait states
    def _wait_states(self, w: _Wave, wave: int, c: Facts, cycle: int) -> list[HazardEvent]:
        ci = c.index
        cm = self.cons[ci]
        if not cm or not w.history:
            return []
        W = self._cons_window[ci]
        # The situation: the producers within the window and their distances. Each instruction
        # counts at least one wait state, so the newest W indices hold every entry within the
        # window, and the distances follow from those indices' wait states: (consumer, the newest
        # W indices) is the key, read with one slice (measured: the walk over the history that
        # built a key of (index, distance) pairs was half of the monitor's cost on the GEMMs).
        recent = w.recent
        key = (ci, tuple(recent[-W:]) if W else ())
        found = self._ws_memo.get(key)
        if found is None:
            found = self._ws_memo[key] = self._wait_state_situation(w, ci, cm, c, W)
        if not found:
            return []
        return [HazardEvent(rule, wave, cycle, c.index, j, list(regs), msg, consumer_span=cs, producer_span=ps,
                            source="rules")
                for rule, j, regs, msg, cs, ps in found]

    def _wait_state_situation(self, w: _Wave, ci: int, cm: int, c: Facts, W: int) -> list[tuple]:
        """The findings of consumer `c` after the wave's history (memoised by _wait_states):
        none without a producer of one of its rules within its window."""
        pos = w.pos
        prod = self.prod
        for j, pos_after, _ in reversed(w.history):
            if pos - pos_after >= W:
                break
            if prod[j] & cm:
                return self._wait_state_findings(w, c, cm, W)
        return []

    def _wait_state_findings(self, w: _Wave, c: Facts, cm: int, W: int) -> list[tuple]:
        best: dict[int, tuple] = {}
        acc = None
        dg = False
        flags = _NO_FLAGS  # PathFlags(acc, dg), made again only when they change (a frozen
        # dataclass costs microseconds to build: measured, a fifth of this walk per producer)
        for j, pos_after, pcycle in reversed(w.history):
            d = w.pos - pos_after
            if d >= W:
                break
            p = self.facts[j]
            m = self.prod[j] & cm
            if m:
                if flags.accvgpr_at != acc or flags.dgemm_between != dg:
                    flags = PathFlags(acc, dg)
                for ri in _bits(m):
                    if d >= self.index.windows[ri]:
                        continue
                    r = self.index.rules[ri]
                    hit = match(r, p, c, d, flags)
                    if hit is None:
                        continue
                    req, provided, pa, ca = hit
                    old = best.get(ri)
                    if old is None or req - provided > old[0]:
                        best[ri] = (req - provided, r, j, req, provided, pa, ca)
            if acc is None and ("accvgpr-read" in p.classes or "accvgpr-write" in p.classes):
                acc = d
            if "dgemm" in p.classes:
                dg = True
        out = []
        for _, r, j, req, provided, pa, ca in sorted(best.values(), key=lambda t: t[1].id):
            regs = _units(ca.reg) if ca is not None else []
            what = ca.reg.text() if ca is not None else "its input"
            msg = (f"{c.mnemonic} (line {c.span.line}) used {what} {provided} wait state(s) after "
                   f"{self.facts[j].mnemonic} (line {self.facts[j].span.line}); {req} required")
            out.append((r.id, j, regs, msg, self._span(c.index, ca), self._span(j, pa)))
        return out

    def _span(self, index: int, access):
        """Where lint points for this instruction: the operand, else the mnemonic."""
        ins = self.instructions[index]
        sp = access_span(access, ins.span) if access is not None and getattr(access, "cols", None) else None
        return sp or getattr(ins, "mnemonic_span", None) or ins.span

    # ------------------------------------------------------------------ counters
    def _counter_situation(self, index: int, sid: int) -> list[tuple]:
        """The counter findings of instruction `index` after the queues numbered `sid`, as tuples
        (rule, consumer, producer, registers, message, consumer span, producer span); memoised."""
        f = self.facts[index]
        vm, lgkm = self._queues[sid]
        found = []
        if self._meets_some_load(index) and self._queues_matter(f, vm, lgkm):
            for h in self.counters.check(f, {(vm, lgkm)}):
                if self.counter_only is not None and h.rule not in self.counter_only:
                    continue
                e = _counter_event(h, 0, 0, self.facts)
                found.append((e.rule, e.consumer, e.producer, e.registers, e.message,
                              self._span(h.consumer, h.access), self._span(h.producer, None)))
        # (no outstanding operation meeting this instruction: no finding, whatever the queues'
        # order; a miss here is the common case, as 4 waves interleave their queues freely)
        self._ctr_memo[(index, sid)] = found
        return found

    def _meets_some_load(self, index: int) -> bool:
        """Can any queue give instruction `index` a counter finding? Not when it is an s_waitcnt,
        or when it is neither special (_queue_special) nor touches a register some memory
        operation of the program returns into (decided once per instruction, so that the
        queues are never looked at for it)."""
        hit = self._may_meet[index]
        if hit is None:
            f = self.facts[index]
            if f.waitcnt is not None:
                hit = False
            elif self._queue_special[index]:
                hit = True
            else:
                if self._all_returns is None:
                    self._all_returns = self._register_bits(r for g in self.facts if g.mem is not None
                                                            for r in g.mem.returns)
                hit = bool(self._all_returns & self._register_bits(a.reg for a in (*f.reads, *f.writes)))
            self._may_meet[index] = hit
        return hit

    def _register_bits(self, ranges) -> int:
        """Register ranges as one int with a bit per 32-bit register (each file its own 4096 bits):
        whether two sets of ranges share a register is one `&` (the frozensets of
        CounterAnalysis._touches answer the same, but cost 20 us to build per instruction)."""
        bits = 0
        for r in ranges:
            base = self._file_bits.get(r.file)
            if base is None:
                base = self._file_bits[r.file] = 4096 * len(self._file_bits)
            bits |= ((1 << (r.end - r.start)) - 1) << (base + r.start)
        return bits

    def _queues_matter(self, f: Facts, vm: tuple, lgkm: tuple) -> bool:
        """Can the counter rules find anything for ``f`` with these queues?

        ``CounterAnalysis._check_state`` reports only (a) a queue entry whose returned registers
        ``f`` reads or overwrites (``_meets``), (b) for a DS read of LDS or an ``s_barrier``,
        LDS DMAs and DS writes in the queues. So when ``f`` is neither of (b) and no entry meets
        it, the answer is "nothing" without building the state's findings. The per-pair test is
        memoised by (instruction, operation), so a queue costs a few dictionary look-ups."""
        if f.waitcnt is not None:
            return False
        special = self._queue_special[f.index]
        if special and (vm or (lgkm and f.base == "s_barrier")):
            return True
        meets = self._meets_any
        fi = f.index
        ca = self.counters
        touches = None
        for q, counter in ((vm, "vm"), (lgkm, "lgkm")):
            if not q:
                continue
            # only operations that return into registers can meet f (LDS DMAs and stores
            # return nothing): one memoised filter per queue, so that a queue full of DMAs in
            # flight costs one look-up rather than a test per operation
            returning = self._returning.get(q)
            if returning is None:
                returning = self._returning[q] = tuple(x for x in q if ca._returns(x))
            for x in returning:
                hit = meets.get((fi, x))
                if hit is None:
                    if touches is None:
                        touches = ca._touches(f)
                    # no shared register: _meets finds nothing (its own first test), so skip it
                    if ca._returns(x).isdisjoint(touches):
                        hit = False
                    else:
                        read, write = ca._meets(f, x, counter)
                        hit = read is not None or write is not None
                    meets[(fi, x)] = hit
                if hit:
                    return True
        return False


def _units(reg) -> list[tuple[str, int]]:
    return [(reg.file, reg.start + k) for k in range(reg.count)]


def _counter_event(h: CounterHazard, wave: int, cycle: int, facts: list[Facts]) -> HazardEvent:
    c, p = facts[h.consumer], facts[h.producer]
    field_ = "vmcnt" if h.counter == "vm" else "lgkmcnt"
    what = h.registers or "LDS"
    msg = (f"{c.mnemonic} (line {c.span.line}) touched {what} while {p.mnemonic} (line {p.span.line}) "
           f"was not covered by s_waitcnt; use {field_}({h.needed})")
    regs = _units(h.access.reg) if h.access is not None else []
    return HazardEvent(h.rule, wave, cycle, h.consumer, h.producer, regs, msg)


def replay(kernel, records, target: str | None = None, rules=None) -> list[HazardEvent]:
    """Feed a finished run's ``IssueRecord`` list (``engine.records``) to a fresh monitor."""
    mon = HazardMonitor(kernel, target, rules)
    out: list[HazardEvent] = []
    for r in records:
        out.extend(mon.on_issue(r.wave, r.index, r.issue, r.complete))
    return out
