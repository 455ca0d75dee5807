"""The timed engine's side of the compiled issue loop (`accel_alu.run_alu`): which instructions
it takes, the engine's state handed to it and taken back, and its issues turned into the
engine's records, statistics, pipe bookkeeping and monitor notes.

Why: the engine issues fixed-timing ALU instructions in Python, ~7 us each for a single wave
(`Engine._run_alu`) and more for a workgroup (`Engine._run_many`, `_try_issue`); the compiled
loop does the same tries in well under a microsecond. This module keeps the engine's own
structures (Pending entries, events, IssueRecords, dicts of stalls) the only truth: the
compiled loop works on arrays for the length of one call, and every write it leaves in flight
goes back where the Python loop would have left it (`_run_alu`'s `flight` and `lands`, or the
engine's events and the waves' Pending entries). Results are the same bits either way; the
equivalence tests run both.

An instruction gets a program row only when it has a fixed-timing plan (`Engine._fast_entry`),
it is one of the table operations the loop implements (`accel_alu` VALU_OPS, SALU_OPS,
COMPARE_OPS, BRANCH_OPS) in a form its plan takes (no modifiers; VGPR, SGPR and integer
constant operands), it is interlocked, and the hazard monitor, when attached, can find
nothing at it (`Monitor._is_quiet`): a monitor finding is merged against the engine's
state of that moment, which only the Python loop has.

Used when numba's kernels are loaded (`accel`): at once when something already loaded them,
otherwise after `WARMUP` instructions issued by the engine's Python loops in this process
(GCNEMU_NUMBA_ALU_WARMUP; loading costs ~1-2 s, so a short run never pays it). An engine's
`compiled_alu` attribute overrides that: True loads the kernels now, False keeps the Python loop.
"""
from __future__ import annotations

import heapq
import os
from collections import Counter
from itertools import repeat

import numpy as np

from ..asm.program import Imm, Symbol
from . import accel
from . import accel_alu as A
from .plans import _SCC_WRITES, _special_slot, is_reg, table_base
from .context import _ALL_LANES, _HWREGS
from .records import _EMPTY, RECENT_HISTORY, IssueRecord, Pending
from .writes import RegWrite

WARMUP = int(os.environ.get("GCNEMU_NUMBA_ALU_WARMUP", 200_000))
_COUNT = {"issued": 0}
_REASONS = ("dependency", "branch", "pipe busy", "co-issue conflict")
_NEVER = 1 << 62  # no event due
# issues per call (the buffers' size; a full buffer returns and the call repeats): large, since a
# run without history makes IssueRecords only for the newest RECENT_HISTORY of a call's issues
_RECORDS = 1 << 16
MIN_SPAN = 6  # the fewest instructions with rows ahead for a call to start (`CompiledALU.worth`)


def kernels(engine):
    """The compiled loop of accel's kernels for `engine`, or None (the Python loop runs)."""
    want = getattr(engine, "compiled_alu", None)
    if want is False or not accel._wanted() or engine.files is None:
        return None
    if want is True:
        k = accel.load()
    elif "kernels" in accel._STATE:
        k = accel._STATE["kernels"]
    else:
        if _COUNT["issued"] < WARMUP and accel.WARMUP > 0:  # (GCNEMU_NUMBA_WARMUP=0: load at once)
            return None
        k = accel.load()
    run = getattr(k, "run_alu", None) if k is not None else None
    if run is not None and _COUNT.get("compiles") is None:
        _COUNT["compiles"] = _compiles(run)
    return run if _COUNT.get("compiles") else None


def _compiles(run) -> bool:
    """Whether numba compiles the loop here (or loads it from its cache): one call that returns at
    once (an event due), with arrays of the kinds the engine passes. Why: numba compiles at the
    first call, inside a run; a failure there must leave the Python loop in charge, not stop the
    run with a traceback."""
    i64 = np.int64
    s = np.zeros(A.STATE_SIZE, dtype=i64)
    s[A.S_NEXT_EVENT] = -1  # (due: the loop returns before touching anything)
    try:
        run(np.zeros((1, A.COLUMNS), i64), np.zeros((1, 1), i64), np.zeros((1, 1, 64), np.uint32),
            np.zeros((1, 1, 64), bool), np.zeros((1, 128), np.uint32), np.zeros((1, 128), bool),
            np.zeros((1, A.WAVE_STATE), i64), s, np.zeros(1, i64), np.zeros(1, i64), np.zeros(1, i64),
            np.zeros((1, 130), i64), np.zeros((1, 130), i64), np.zeros((1, 130), i64), np.zeros((1, 130), bool),
            np.zeros((4, A.RING_COLUMNS), i64), np.zeros((4, 64), np.uint32), np.zeros((4, 64), bool),
            np.zeros((4, 5), i64), np.zeros((4, 4), i64))
    except Exception:  # (numba's compile errors have no common base class worth naming)
        return False
    return bool(s[A.S_EXIT] == A.X_EVENT)


def note_issued(n: int) -> None:
    """Count `n` instructions the Python loop issued (the warm-up before numba is loaded)."""
    _COUNT["issued"] += n


class CompiledALU:
    """One engine's program rows and the conversions around each call of the compiled loop."""

    def __init__(self, engine, run):
        self.eng = engine
        self.run_kernel = run
        n = len(engine.decoded)
        nsimd = len(engine._pipe_keys)
        nw = len(engine.waves)
        self.prog = np.zeros((n, A.COLUMNS), dtype=np.int64)
        self.keyof = np.zeros((nsimd, n), dtype=np.int64)  # per SIMD and pc: the pipe key's number
        self.known = [None] * n  # per pc: True (a row), False (none), None (not decided yet)
        self.span: list = [None] * n  # per pc: whether a call is worth starting there (`worth`)
        self.start_ok: list = [None] * n  # per pc: has_row and worth (may_start's per-cycle test)
        self._pipes = [(d.pipe, d.simd_pipe) for d in engine.decoded]  # (pipe name, per SIMD?) per pc
        self.key_ids: dict = {}
        self.keys: list = []
        self.rec = np.zeros((_RECORDS, 5), dtype=np.int64)
        self.stalls = np.zeros((_RECORDS, 4), dtype=np.int64)
        ring = 16 + 16 * nw
        self.ring_i = np.zeros((ring, A.RING_COLUMNS), dtype=np.int64)
        self.ring_v = np.zeros((ring, 64), dtype=np.uint32)
        self.ring_m = np.zeros((ring, 64), dtype=bool)
        self.s = np.zeros(A.STATE_SIZE, dtype=np.int64)
        self.ws = np.zeros((nw, A.WAVE_STATE), dtype=np.int64)
        st = engine.waves[0].state
        nk = len(st.vgpr) + len(st.sgpr) + 1
        # per wave and register key: the latest write in flight (all zero between calls) and the
        # registers the engine keeps a write in flight for (memory results, other files)
        self.land_of = np.zeros((nw, nk), dtype=np.int64)
        self.seq_of = np.zeros((nw, nk), dtype=np.int64)
        self.order_of = np.zeros((nw, nk), dtype=np.int64)  # (see accel_alu.run_alu)
        self.blocked = np.zeros((nw, nk), dtype=bool)
        self.calls = 0  # calls of the compiled loop, and the instructions they issued (plan_stats)
        self.issued = 0

    # ------------------------------------------------------------ program rows
    def has_row(self, pc: int, w) -> bool:
        """Whether the compiled loop can issue instruction `pc` (decided once)."""
        k = self.known[pc]
        if k is None:
            k = self.known[pc] = self._build(pc, w)
        return k

    def worth(self, pc: int, w) -> bool:
        """Whether a call starting at `pc` is likely to issue enough to repay its set-up (decided
        once per pc): `MIN_SPAN` instructions with rows in program order from `pc` (a branch ends
        the count), or a loop of them (a backward branch whose whole body has rows).

        Why: a call costs ~20 us of conversions (the writes in flight both ways, the records),
        the Python loop ~7 us per instruction; on the benchmark's memory loop, calls of one or
        two instructions between loads and waits made the run 25% slower."""
        k = self.span[pc]
        if k is None:
            n = len(self.known)
            j = pc
            while j < n and self.has_row(j, w):
                j += 1
                if self.prog[j - 1, A.C_OP] >= A.B_BRANCH:
                    target = int(self.prog[j - 1, A.C_TARGET])
                    if target < j and all(self.has_row(i, w) for i in range(target, j)):
                        j = n + MIN_SPAN  # a loop of rows
                    break
            k = self.span[pc] = j - pc >= MIN_SPAN
        return k

    def _key_id(self, key) -> int:
        kid = self.key_ids.get(key)
        if kid is None:
            kid = self.key_ids[key] = len(self.keys)
            self.keys.append(key)
        return kid

    def _build(self, pc: int, w) -> bool:
        """Fill row `pc` if the compiled loop can issue the instruction (see the module doc)."""
        eng = self.eng
        d = eng.decoded[pc]
        f = eng._fast[pc]
        if f is not None and not isinstance(f, tuple):  # (_UNPLANNED)
            f = eng._fast[pc] = eng._fast_entry(pc, d)
        if f is None or not d.interlocked:
            return False
        if eng.monitor is not None:
            quiet = eng.monitor._quiet[pc]
            if quiet is None:
                quiet = eng.monitor._quiet[pc] = eng.monitor._is_quiet(pc)
            if not quiet:
                return False
        ins = eng._instructions[pc]
        if ins.modifiers:
            return False
        base = table_base(ins, d.sem)
        if base is None:
            return False
        st = w.state
        row = _operands(base, ins.operands, len(st.vgpr), eng._labels, len(st.sgpr))
        if row is None:
            return False
        _, latency, busy = f
        row[A.C_LAT] = latency
        row[A.C_BUSY] = busy
        self.prog[pc] = row
        for simd, keys in enumerate(eng._pipe_keys):
            self.keyof[simd, pc] = self._key_id(keys[pc])
        return True

    # ------------------------------------------------------------ one wave (Engine._run_alu)
    def run_one(self, w, t: int, flight: list, lands: dict):
        """Issue wave `w` (the engine's only one) from cycle `t` with the compiled loop; return (the
        cycle of the last try, exit code, instructions issued), or None when it cannot start here
        (the Python loop goes on). `flight` and `lands` are _run_alu's, taken and given back."""
        nv, ns = len(w.state.vgpr), len(w.state.sgpr)
        if flight and not self._take_flight(flight, lands, nv, ns):
            self._clear()
            return None
        out = self._call(t)
        flight.clear()
        lands.clear()
        pending = []
        for land, seq, wi, writes, regs, index in self._give_back(nv, ns):
            flight.append((land, seq, writes, tuple(regs), index, self.eng.decoded[index].pipe))
            for reg in regs:
                key = _key(reg, nv, ns)
                if self.seq_of[0, key] == seq:
                    pending.append((self.order_of[0, key], reg, land, seq))
        for _, reg, land, seq in sorted(pending):  # (the order _run_alu's dict would hold them in)
            lands[reg] = (land, seq)
        heapq.heapify(flight)
        self._clear()
        return out

    def _take_flight(self, flight, lands, nv, ns) -> bool:
        """`_run_alu`'s writes in flight into the ring (False: one the loop cannot hold)."""
        slot = 0
        for complete, seq, writes, _regs, index, _pipe in flight:
            slot = self._to_ring(slot, 0, complete, seq, index, writes, nv, ns)
            if slot < 0:
                return False
        for place, (reg, (land, seq)) in enumerate(lands.items(), start=-len(lands)):
            key = _key(reg, nv, ns)
            self.land_of[0, key] = land
            self.seq_of[0, key] = seq
            self.order_of[0, key] = place  # (before any write of the call: those are numbered by seq)
        return True

    # ------------------------------------------------------------ a workgroup (Engine._run_many)
    def run_many(self, now: int):
        """Make cycles from `now` on for the engine's waves (one per SIMD) with the compiled loop;
        return (cycle, exit code, instructions issued): with X_LIMIT the cycle was made and the
        engine's end-of-cycle logic is due, else the engine makes that cycle itself. None: the
        loop cannot start (nothing changed)."""
        eng = self.eng
        waves = eng.waves
        nv, ns = len(waves[0].state.vgpr), len(waves[0].state.sgpr)
        events = eng.events
        index_of = {p.seq: p.index for w in waves for p in w.pending.values()}
        keep = []
        taken = set()  # the issues (seq) whose register writes were moved into the ring
        slot = 0
        for e in events:
            cycle, seq, wi, kind, payload = e
            if kind == 0 and self._movable(waves[wi].pending, payload[0], seq):
                s2 = self._to_ring(slot, wi, cycle, seq, index_of.get(seq, -1), payload[0], nv, ns)
                if s2 >= 0:
                    slot = s2
                    taken.add(seq)
                    continue
            keep.append(e)
        kept: list = [[] for _ in waves]  # per wave: (place, register, Pending) the engine keeps
        for wi, w in enumerate(waves):
            for place, (reg, p) in enumerate(w.pending.items(), start=-len(w.pending)):
                key = _key(reg, nv, ns)
                if key >= 0 and p.seq in taken:
                    self.land_of[wi, key] = p.land
                    self.seq_of[wi, key] = p.seq
                    self.order_of[wi, key] = place
                    continue
                if key >= 0:
                    self.blocked[wi, key] = True
                kept[wi].append((place, reg, p))  # (AGPRs too: no row reads or writes one)
        if taken:
            heapq.heapify(keep)
            events[:] = keep
        out = self._call(now)
        if taken or self.ring_i[:, A.I_ALIVE].any():
            # the waves' Pending entries again, in the order their dicts would hold them: what the
            # engine kept at its place, what is still or newly in flight at the place it took
            decoded = eng.decoded
            pending = kept
            for land, seq, wi, writes, regs, index in self._give_back(nv, ns):
                heapq.heappush(events, (land, seq, wi, 0, (writes, seq)))
                p = None
                for reg in regs:
                    key = _key(reg, nv, ns)
                    if self.seq_of[wi, key] == seq:
                        if p is None:
                            p = Pending(land, True, index, seq, decoded[index].pipe)
                        pending[wi].append((int(self.order_of[wi, key]), reg, p))
            for wi, w in enumerate(waves):
                entries = sorted(pending[wi], key=lambda e: e[0])
                w.pending.clear()
                w.pending.update((reg, p) for _, reg, p in entries)
        self._clear()
        return out

    def may_start(self, now: int) -> bool:
        """Whether `run_many` is worth calling at cycle `now`: every wave whose turn it is sits at
        an instruction with a row where a call is worth starting (`worth`), the waves have equal
        priorities (the loop tries them in wave order), and none changed its hardware registers
        (s_setreg, VGPR indexing). Called every cycle of a workgroup's run: the common answer,
        a wave at an instruction without a row, is found first."""
        ok = self.start_ok
        n = len(ok)
        anyone = False
        waves = self.eng.waves
        for w in waves:
            if w.ready_at > now or w.at_barrier:
                continue
            st = w.state
            if st.done:
                continue
            pc = st.pc
            if pc >= n:
                return False
            k = ok[pc]
            if k is None:
                k = ok[pc] = self.has_row(pc, w) and self.worth(pc, w)
            if not k:
                return False
            anyone = True
        if not anyone:
            return False
        p0 = waves[0].priority
        if any(w.priority != p0 for w in waves):
            return False
        return not (_HWREGS and any(_HWREGS.get(id(w.state)) is not None for w in waves))

    @staticmethod
    def _movable(pend: dict, writes: list, seq: int) -> bool:
        """Whether an event's register writes can wait in the ring: plain writes of one VGPR row,
        SGPRs or SCC, whose Pending entries are interlocked (a non-interlocked write is one the
        engine checks reads and overwrites of: hazards)."""
        for wr in writes:
            f = wr.file
            if f == "v":
                if len(wr.values) != 1:
                    return False
                regs = (("v", wr.index),)
            elif f == "s":
                regs = [("s", wr.index + k) for k in range(len(wr.values))]
            elif f == "scc":
                regs = (("scc", 0),)
            else:
                return False
            for reg in regs:
                p = pend.get(reg)
                if p is not None and p.seq == seq and not p.interlocked:
                    return False
        return True

    # ------------------------------------------------------------ writes in flight, both ways
    def _to_ring(self, slot: int, wi: int, land: int, seq: int, index: int, writes: list, nv: int, ns: int) -> int:
        """The register writes of one issue of wave `wi` (instruction `index`; -1: no Pending entry
        names it any more, younger writes own its registers) into the ring from `slot` on; the
        next free slot, or -1 (a write it cannot hold, or the ring full: nothing written)."""
        ring_i, ring_v, ring_m = self.ring_i, self.ring_v, self.ring_m
        cap = len(ring_i) - 2 * len(self.ws)
        entries = []
        for wr in writes:
            f = wr.file
            if f == "v" and len(wr.values) == 1:
                entries.append((wr, wr.index, 0))
            elif f == "s":
                entries.extend((wr, nv + wr.index + k, int(wr.values[k])) for k in range(len(wr.values)))
            elif f == "scc":
                entries.append((wr, nv + ns, int(wr.values[0])))
            else:
                return -1
        if slot + len(entries) > cap:
            return -1
        for wr, key, value in entries:
            ring_i[slot] = (1, land, seq, key, index, value, 0, wi)
            if wr.file == "v":
                ring_v[slot] = wr.values[0]
                if wr.mask is None or wr.full:
                    ring_i[slot, A.I_FULL] = 1
                else:
                    ring_m[slot] = wr.mask
            slot += 1
        return slot

    def _give_back(self, nv: int, ns: int) -> list:
        """The ring's live writes grouped per issue, in issue order: (land, seq, wave, RegWrites,
        registers, instruction)."""
        ring_i = self.ring_i
        alive = np.flatnonzero(ring_i[:, A.I_ALIVE])
        by_seq: dict = {}
        for r in alive.tolist():
            _, land, seq, key, index, value, full, wi = ring_i[r].tolist()
            if key < nv:
                reg = ("v", key)
                values = self.ring_v[r].copy()[None]
                if full:
                    wr = RegWrite("v", key, values, _ALL_LANES)
                    wr.full = True
                else:
                    wr = RegWrite("v", key, values, self.ring_m[r].copy())
            elif key < nv + ns:
                reg = ("s", key - nv)
                wr = RegWrite("s", key - nv, np.array([value], dtype=np.uint32))
            else:
                reg = ("scc", 0)
                wr = _SCC_WRITES[1 if value else 0]
            e = by_seq.get(seq)
            if e is None:
                e = by_seq[seq] = [land, seq, wi, [], [], index]
            e[3].append(wr)
            e[4].append(reg)
            if index >= 0:
                e[5] = index
        return sorted(by_seq.values(), key=lambda e: e[1])

    def _clear(self) -> None:
        """The per-call arrays back to all zero (cheaper than new ones per call)."""
        self.seq_of.fill(0)
        self.blocked.fill(False)
        self.ring_i[:, A.I_ALIVE] = 0

    # ------------------------------------------------------------ the call
    def _call(self, now: int) -> tuple[int, int, int]:
        eng = self.eng
        names = list(_REASONS)
        code = {r: i for i, r in enumerate(names)}

        def reason_code(name) -> int:
            c = code.get(name)
            if c is None:
                c = code[name] = len(names)
                names.append(name)
            return c

        ws = self.ws
        waves = eng.waves
        for wi, w in enumerate(waves):
            st = w.state
            row = ws[wi]
            row[A.W_PC] = st.pc
            row[A.W_FIRST] = -1 if w.first_try is None else w.first_try
            row[A.W_HOLD] = w.hold_until
            row[A.W_HOLD_REASON] = reason_code(w.hold_reason)
            row[A.W_INTERLOCK] = w.interlock_until
            row[A.W_READY] = w.ready_at
            row[A.W_SCC] = int(st.scc)
            row[A.W_SIMD] = w.simd
            row[A.W_ACTIVE] = 0 if (st.done or w.at_barrier) else 1
            row[A.W_STALL_REASON] = -1
            row[A.W_ISSUED] = 0
        s = self.s
        s[A.S_T] = now
        s[A.S_SEQ] = eng._seq
        s[A.S_EXECUTED] = eng.executed
        s[A.S_CHECK_AT] = min(eng._check_at, _NEVER)
        s[A.S_MAX_CYCLES] = min(eng.max_cycles, _NEVER)
        s[A.S_NEXT_EVENT] = eng.events[0][0] if eng.events else _NEVER
        s[A.S_IV] = eng.interval
        s[A.S_BRANCH_LAT] = eng.lat.branch
        s[A.S_NREC] = 0
        s[A.S_NSTALL] = 0
        s[A.S_EXIT] = 0
        keys = self.keys
        pipe_free = eng.pipe_free
        gate = eng._coexec_gate
        pf = np.array([pipe_free.get(k, 0) for k in keys], dtype=np.int64)
        pg = np.array([gate.get(k, -_NEVER) for k in keys], dtype=np.int64)
        ps = np.zeros(len(keys), dtype=np.int64)
        files = eng.files
        self.run_kernel(self.prog, self.keyof, files.vgpr, files.vgpr_init, files.sgpr, files.sgpr_init, ws, s,
                        pf, pg, ps, self.land_of, self.seq_of, self.order_of, self.blocked, self.ring_i, self.ring_v,
                        self.ring_m, self.rec, self.stalls)
        # ---- the state back
        for wi, w in enumerate(waves):
            row = ws[wi].tolist()
            st = w.state
            st.pc = row[A.W_PC]
            st.scc = row[A.W_SCC]
            w.first_try = None if row[A.W_FIRST] < 0 else row[A.W_FIRST]
            w.hold_until = row[A.W_HOLD]
            w.hold_reason = names[row[A.W_HOLD_REASON]]
            w.interlock_until = row[A.W_INTERLOCK]
            w.ready_at = row[A.W_READY]
            if row[A.W_STALL_REASON] >= 0:
                w.stall_reason = names[row[A.W_STALL_REASON]]
        eng._seq = int(s[A.S_SEQ])
        nrec = int(s[A.S_NREC])
        if ps.any():
            for i in self._keys_by_first_use(nrec):
                pipe_free[keys[i]] = int(pf[i])
        nst = int(s[A.S_NSTALL])
        self.calls += 1
        self.issued += nrec
        if nrec or nst:
            self._records(nrec, nst, names)
        return int(s[A.S_T]), int(s[A.S_EXIT]), nrec

    def _keys_by_first_use(self, nrec: int) -> list:
        """The pipe keys (numbers) the call's issues occupied, in the order of their first use.

        Why: the engine's dicts of pipe keys (pipe_free, pipe_use, pipe_owner) take a key at its
        first occupancy, and `Engine.pipes` lists the busy pipes in that order; key numbers follow
        the order rows were built in, which two waves' first issues need not follow."""
        rec = self.rec[:nrec]
        used = np.flatnonzero(self.prog[rec[:, 1], A.C_BUSY])
        simds = np.array([w.simd for w in self.eng.waves], dtype=np.int64)
        kid = self.keyof[simds[rec[used, 0]], rec[used, 1]]
        _, first = np.unique(kid, return_index=True)
        return kid[np.sort(first)].tolist()

    # ------------------------------------------------------------ what the issues leave behind
    def _records(self, nrec: int, nst: int, names: list) -> None:
        """Engine._record for the loop's issues, in order: counts, stalls, IssueRecords, pipe
        uses, monitor notes, the waves' counters."""
        eng = self.eng
        waves = eng.waves
        rec = self.rec[:nrec]
        wav = rec[:, 0].tolist()
        idx = rec[:, 1].tolist()
        # each wave's issues, in order (record numbers), and the stalls that go with them: a
        # stall belongs to its wave's next issue (the wave's own before the first)
        mine: list = [[] for _ in waves]
        for j, wi in enumerate(wav):
            mine[wi].append(j)
        per: dict = {}
        for wi, w in enumerate(waves):
            if w.stalls:
                per[(wi, 0)] = dict(w.stalls)
        for wi, k, reason, amount in self.stalls[:nst].tolist():
            d = per.get((wi, k))
            if d is None:
                d = per[(wi, k)] = {}
            name = names[reason]
            d[name] = d.get(name, 0) + amount
        of_record: dict = {}
        for (wi, k), d in per.items():
            if k < len(mine[wi]):
                of_record[mine[wi][k]] = d
            else:
                waves[wi].stalls = d  # the stalls of an issue still to come
        stalled = eng.stalled
        for j in sorted(of_record):
            d = of_record[j]
            tot = waves[wav[j]].stall_totals
            for name, v in d.items():
                tot[name] = tot.get(name, 0) + v
            at = stalled.get(idx[j])
            if at is None:
                stalled[idx[j]] = dict(d)
            else:
                for name, v in d.items():
                    at[name] = at.get(name, 0) + v
        for wi, w in enumerate(waves):
            if mine[wi] and (wi, len(mine[wi])) not in per:
                w.stalls = {}
        if not nrec:
            return
        counts = eng.issued
        for i, c in Counter(idx).items():
            counts[i] += c
        # records (a run without history keeps what Engine._record's trimming would have left:
        # only those are made)
        records = eng.records
        if eng.keep_history:
            first = 0
        else:
            keep = _kept(len(records), nrec, RECENT_HISTORY)
            first = max(0, nrec - keep)
            del records[:len(records) - (keep - (nrec - first))]
        slot_of = [0] * nrec
        for wi, js in enumerate(mine):
            s0 = waves[wi].slots
            for k, j in enumerate(js):
                slot_of[j] = s0 + k
        tail = rec[first:].T.tolist()
        stalls_of = [of_record.get(j, _EMPTY) for j in range(first, nrec)] if of_record else repeat(_EMPTY)
        wids = [w.wid for w in waves]
        records.extend(map(IssueRecord, [wids[wi] for wi in tail[0]], tail[1], tail[2], tail[3], tail[4], stalls_of,
                           slot_of[first:]))
        # pipe uses: the busy cycles per pipe key, its last owner, and with history the log
        prog = self.prog
        busy = prog[rec[:, 1], A.C_BUSY]
        used = np.flatnonzero(busy)
        if len(used):
            keys = self.keys
            simds = np.array([w.simd for w in waves], dtype=np.int64)
            kid = self.keyof[simds[rec[used, 0]], rec[used, 1]]
            sums = np.bincount(kid, weights=busy[used])
            pipes = self._pipes
            for k in self._keys_by_first_use(nrec):
                key = keys[k]
                eng.pipe_use[key] = eng.pipe_use.get(key, 0) + int(sums[k])
                j = int(used[np.flatnonzero(kid == k)[-1]])
                index, t, wi = idx[j], int(rec[j, 3]), wav[j]
                pipe, per_simd = pipes[index]
                eng.pipe_owner[key] = (pipe, waves[wi].simd if per_simd else None, waves[wi].wid, index, t,
                                       t + int(busy[j]))
            if eng.keep_history:
                uw = rec[used, 0].tolist()
                ui = rec[used, 1].tolist()
                ut = rec[used, 3].tolist()
                eng.pipe_log.extend((pipes[i][0], waves[wi].simd if pipes[i][1] else None, waves[wi].wid, i, t, t + b)
                                    for wi, i, t, b in zip(uw, ui, ut, busy[used].tolist()))
        if eng.monitor is not None:  # every row is a quiet instruction: noted, as on_issue notes it
            ts = rec[:, 3].tolist()
            for wi, js in enumerate(mine):
                if js:
                    eng.monitor.note_quiet(waves[wi].wid, [(idx[j], ts[j]) for j in js])
        for wi, js in enumerate(mine):
            if js:
                waves[wi].slots += len(js)
                waves[wi].instructions += len(js)
        eng.executed += nrec


def _key(reg: tuple, nv: int, ns: int) -> int:
    """The compiled loop's key of an engine register key: ("v", i), ("s", j) or ("scc", 0); -1 for
    another file's register (an AGPR: the loop never reads or writes one)."""
    f, i = reg
    if f == "v":
        return i
    if f == "s":
        return nv + i
    if f == "scc":
        return nv + ns
    return -1


def _kept(old: int, new: int, keep: int) -> int:
    """How many records a list of `old` holds after `new` appends, each followed by Engine._record's
    trim (more than 2*keep: only the newest `keep` stay)."""
    if old + new <= 2 * keep:
        return old + new
    after = new - (2 * keep - old + 1)  # appends after the first trim
    return keep + after % (keep + 1)


def _operands(base: str, ops: tuple, nvgpr: int, labels: dict, nsgpr: int) -> np.ndarray | None:
    """A program row (operation, destination, sources) for `base` with operands `ops` in the forms
    its plan takes, or None."""
    row = np.zeros(A.COLUMNS, dtype=np.int64)

    def source(k: int, op, scalar: bool) -> bool:
        if not scalar and is_reg(op, "v") and op.index < nvgpr:
            row[A.C_K0 + k], row[A.C_V0 + k] = A.K_VGPR, op.index
            return True
        slot = op.index if is_reg(op, "s") else _special_slot(op) if scalar else None
        if slot is not None and slot < nsgpr:
            row[A.C_K0 + k], row[A.C_V0 + k] = A.K_SGPR, slot
            return True
        if type(op) is Imm:
            row[A.C_K0 + k], row[A.C_V0 + k] = A.K_CONST, op.value & A.M32
            return True
        return False

    if base in A.VALU_OPS:
        nsrc = len(ops) - 1
        if not 1 <= nsrc <= 3 or not is_reg(ops[0], "v") or ops[0].index >= nvgpr:
            return None
        row[A.C_OP], row[A.C_DST], row[A.C_NSRC] = A.VALU_OPS[base], ops[0].index, nsrc
        return row if all(source(k, op, False) for k, op in enumerate(ops[1:])) else None
    if base in A.SALU_OPS:
        slot = ops[0].index if ops and is_reg(ops[0], "s") else _special_slot(ops[0]) if ops else None
        if slot is None or slot >= nsgpr or len(ops) not in (2, 3):
            return None
        row[A.C_OP], row[A.C_DST], row[A.C_NSRC] = A.SALU_OPS[base], slot, len(ops) - 1
        row[A.C_SCC] = base in ("s_addc_u32", "s_subb_u32")
        return row if all(source(k, op, True) for k, op in enumerate(ops[1:])) else None
    if base in A.COMPARE_OPS:
        if len(ops) != 2:
            return None
        row[A.C_OP], row[A.C_NSRC] = A.COMPARE_OPS[base], 2
        return row if all(source(k, op, True) for k, op in enumerate(ops)) else None
    if base in A.BRANCH_OPS:
        if len(ops) != 1 or not isinstance(ops[0], Symbol) or labels.get(ops[0].name) is None:
            return None
        row[A.C_OP], row[A.C_TARGET] = A.BRANCH_OPS[base], labels[ops[0].name]
        row[A.C_SCC] = base != "s_branch"
        return row
    return None
