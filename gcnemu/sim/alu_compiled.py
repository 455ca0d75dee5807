"""The timed engine's side of the compiled issue loop (`accel_alu.run_alu`): which instructions
it takes, the engine's state handed to it and taken back, and its issues turned into the
engine's records, statistics, pipe bookkeeping and monitor notes.

Why: `Engine._run_alu` issues a single wave's fixed-timing ALU instructions in a Python loop,
~7 us each; the compiled loop does the same tries in well under a microsecond. This module
keeps the engine's own structures (Pending entries, events, IssueRecords, dicts of stalls)
the only truth: the compiled loop works on arrays for the length of one call, and everything
it leaves in flight goes back into `_run_alu`'s `flight` heap and `lands` dict as the Python
loop would have left it. Results are the same bits either way; the equivalence tests run both.

An instruction gets a program row only when it has a fixed-timing plan (`Engine._fast_entry`),
it is one of the table operations the loop implements (`accel_alu` VALU_OPS, SALU_OPS,
COMPARE_OPS, BRANCH_OPS) in a form its plan takes (no modifiers; VGPR, SGPR and integer
constant operands), it is interlocked, and the hazard monitor, when attached, can find
nothing at it (`Monitor._is_quiet`): a monitor finding is merged against the engine's
state of that moment, which only the Python loop has.

Used when numba's kernels are loaded (`accel`): at once when something already loaded them,
otherwise after `WARMUP` instructions issued by `_run_alu`'s Python loop in this process
(GCNEMU_NUMBA_ALU_WARMUP; loading costs ~1-2 s, so a short run never pays it). An engine's
`compiled_alu` attribute overrides that: True loads the kernels now, False keeps the Python loop.
"""
from __future__ import annotations

import heapq
import os
from itertools import repeat

import numpy as np

from ..asm.program import Imm, Symbol
from . import accel
from . import accel_alu as A
from .plans import _SCC_WRITES, _pair_slot, _special_slot, is_reg, table_base  # noqa: F401
from .context import _ALL_LANES
from .writes import RegWrite

WARMUP = int(os.environ.get("GCNEMU_NUMBA_ALU_WARMUP", 200_000))
_COUNT = {"issued": 0}
_REASONS = ("dependency", "branch", "pipe busy", "co-issue conflict")
_NEVER = 1 << 62  # no event due
# issues per call (the buffers' size; a full buffer returns and the call repeats): large, since a
# run without history makes IssueRecords only for the newest RECENT_HISTORY of a call's issues
_RECORDS = 1 << 16
_RING = 32  # registers in flight at once
MIN_SPAN = 6  # the fewest instructions with rows ahead for a call to start (`CompiledALU.worth`)


def kernels(engine):
    """The compiled loop of accel's kernels for `engine`, or None (the Python loop runs)."""
    want = getattr(engine, "compiled_alu", None)
    if want is False or not accel._wanted():
        return None
    if want is True:
        k = accel.load()
    elif "kernels" in accel._STATE:
        k = accel._STATE["kernels"]
    else:
        if _COUNT["issued"] < WARMUP and accel.WARMUP > 0:  # (GCNEMU_NUMBA_WARMUP=0: load at once)
            return None
        k = accel.load()
    return getattr(k, "run_alu", None) if k is not None else None


def note_issued(n: int) -> None:
    """Count `n` instructions the Python loop issued (the warm-up before numba is loaded)."""
    _COUNT["issued"] += n


class CompiledALU:
    """One engine's program rows and the conversions around each call of the compiled loop."""

    def __init__(self, engine, run):
        self.eng = engine
        self.run_kernel = run
        n = len(engine.decoded)
        self.prog = np.zeros((n, A.COLUMNS), dtype=np.int64)
        self.known = [None] * n  # per pc: True (a row), False (none), None (not decided yet)
        self.span: list = [None] * n  # per pc: whether a call is worth starting there (`worth`)
        self._pipes = [(d.pipe, d.simd_pipe) for d in engine.decoded]  # (pipe name, per SIMD?) per pc
        self.key_ids: dict = {}
        self.keys: list = []
        self.rec = np.zeros((_RECORDS, 4), dtype=np.int64)
        self.stalls = np.zeros((_RECORDS, 3), dtype=np.int64)
        self.ring_i = np.zeros((_RING, A.RING_COLUMNS), dtype=np.int64)
        self.ring_v = np.zeros((_RING, 64), dtype=np.uint32)
        self.ring_m = np.zeros((_RING, 64), dtype=bool)
        self.s = np.zeros(A.STATE_SIZE, dtype=np.int64)
        self.land_of = self.seq_of = np.zeros(0, dtype=np.int64)
        self.calls = 0  # calls of the compiled loop, and the instructions they issued (plan_stats)
        self.issued = 0

    # ------------------------------------------------------------ program rows
    def has_row(self, pc: int, w) -> bool:
        """Whether the compiled loop can issue instruction `pc` of wave `w` (decided once)."""
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
        row[A.C_KEY] = self._key_id(eng._pipe_keys[w.simd][pc])
        self.prog[pc] = row
        return True

    # ------------------------------------------------------------ one call
    def run(self, w, t: int, flight: list, lands: dict):
        """Issue from cycle `t` with the compiled loop; return (cycle of the last try, exit code,
        instructions issued), or None when it cannot start here (the Python loop goes on)."""
        eng = self.eng
        st = w.state
        nv = st.vgpr.shape[0]
        ns = st.sgpr.shape[0]
        land_of, seq_of = self.land_of, self.seq_of  # (all zero between calls: _give_flight clears)
        if len(land_of) != nv + ns + 1:
            land_of = self.land_of = np.zeros(nv + ns + 1, dtype=np.int64)
            seq_of = self.seq_of = np.zeros(nv + ns + 1, dtype=np.int64)
        ring_i = self.ring_i
        ring_i[:, A.I_ALIVE] = 0
        if flight and not self._take_flight(flight, lands, nv, ns, land_of, seq_of):
            seq_of[:] = 0
            return None
        names = list(_REASONS)
        code = {r: i for i, r in enumerate(names)}

        def reason_code(name) -> int:
            c = code.get(name)
            if c is None:
                c = code[name] = len(names)
                names.append(name)
            return c

        pipe_free = eng.pipe_free
        gate = eng._coexec_gate
        keys = self.keys
        s = self.s
        s[:] = 0
        s[A.S_T] = t
        s[A.S_PC] = st.pc
        s[A.S_FIRST] = -1 if w.first_try is None else w.first_try
        s[A.S_HOLD] = w.hold_until
        s[A.S_HOLD_REASON] = reason_code(w.hold_reason)
        s[A.S_INTERLOCK] = w.interlock_until
        s[A.S_SEQ] = eng._seq
        s[A.S_EXECUTED] = eng.executed
        s[A.S_CHECK_AT] = min(eng._check_at, _NEVER)
        s[A.S_MAX_CYCLES] = min(eng.max_cycles, _NEVER)
        s[A.S_NEXT_EVENT] = eng.events[0][0] if eng.events else _NEVER
        s[A.S_IV] = eng.interval
        s[A.S_SIMD] = w.simd
        s[A.S_BRANCH_LAT] = eng.lat.branch
        s[A.S_SCC] = int(st.scc)
        s[A.S_STALL_REASON] = -1
        pf = np.array([pipe_free.get(k, 0) for k in keys], dtype=np.int64)
        pg = np.array([gate.get(k, -_NEVER) for k in keys], dtype=np.int64)
        ps = np.zeros(len(keys), dtype=np.int64)
        self.run_kernel(self.prog, st.vgpr, st.vgpr_init, st.sgpr, st.sgpr_init, s, pf, pg, ps, land_of, seq_of,
                        ring_i, self.ring_v, self.ring_m, self.rec, self.stalls)
        # ---- the state back
        st.pc = int(s[A.S_PC])
        st.scc = int(s[A.S_SCC])
        first = int(s[A.S_FIRST])
        w.first_try = None if first < 0 else first
        w.hold_until = int(s[A.S_HOLD])
        w.hold_reason = names[int(s[A.S_HOLD_REASON])]
        w.interlock_until = int(s[A.S_INTERLOCK])
        eng._seq = int(s[A.S_SEQ])
        for i in np.flatnonzero(ps).tolist():
            pipe_free[keys[i]] = int(pf[i])
        nrec = int(s[A.S_NREC])
        nst = int(s[A.S_NSTALL])
        self.calls += 1
        self.issued += nrec
        if nst:
            w.stall_reason = names[int(s[A.S_STALL_REASON])]
        if nrec or nst:
            self._records(w, nrec, nst, names)
        if nrec or nst:
            w.ready_at = int(s[A.S_READY])
        flight.clear()
        lands.clear()
        self._give_flight(flight, lands, nv, ns, seq_of)
        return int(s[A.S_T]), int(s[A.S_EXIT]), nrec

    # ------------------------------------------------------------ writes in flight, both ways
    def _take_flight(self, flight, lands, nv, ns, land_of, seq_of) -> bool:
        """`_run_alu`'s writes in flight into the ring (False: one the loop cannot hold)."""
        ring_i, ring_v, ring_m = self.ring_i, self.ring_v, self.ring_m
        slot = 0
        for complete, seq, writes, _regs, index, _pipe in flight:
            for wr in writes:
                f = wr.file
                if f == "v" and len(wr.values) == 1:
                    entries = [(wr.index, 0)]
                elif f == "s":
                    entries = [(nv + wr.index + k, int(wr.values[k])) for k in range(len(wr.values))]
                elif f == "scc":
                    entries = [(nv + ns, int(wr.values[0]))]
                else:
                    return False
                for key, value in entries:
                    if slot >= len(ring_i) - 2:
                        return False
                    ring_i[slot] = (1, complete, seq, key, index, value, 0)
                    if f == "v":
                        ring_v[slot] = wr.values[0]
                        if wr.mask is None or wr.full:
                            ring_i[slot, A.I_FULL] = 1
                        else:
                            ring_m[slot] = wr.mask
                    slot += 1
        for (f, i), (land, seq) in lands.items():
            key = i if f == "v" else nv + i if f == "s" else nv + ns
            land_of[key] = land
            seq_of[key] = seq
        return True

    def _give_flight(self, flight, lands, nv, ns, seq_of) -> None:
        """The ring's writes back as `_run_alu`'s flight entries and lands, grouped per issue."""
        ring_i = self.ring_i
        alive = np.flatnonzero(ring_i[:, A.I_ALIVE])
        if not len(alive):
            return
        eng = self.eng
        by_seq: dict = {}
        for r in alive.tolist():
            _, land, seq, key, index, value, full = ring_i[r].tolist()
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
                e = by_seq[seq] = [land, seq, [], [], index]
            e[2].append(wr)
            e[3].append(reg)
            if seq_of[key] == seq:
                lands[reg] = (land, seq)
        for r in alive.tolist():
            seq_of[ring_i[r, A.I_KEY]] = 0  # (the arrays stay all zero between calls)
        for land, seq, writes, regs, index in by_seq.values():
            flight.append((land, seq, writes, tuple(regs), index, eng.decoded[index].pipe))
        heapq.heapify(flight)

    # ------------------------------------------------------------ what the issues leave behind
    def _records(self, w, nrec: int, nst: int, names: list) -> None:
        """Engine._record for the loop's issues, in order: counts, stalls, IssueRecords, pipe
        uses, monitor notes, the wave's counters."""
        from .engine import IssueRecord, RECENT_HISTORY, _EMPTY
        eng = self.eng
        wid = w.wid
        rec = self.rec[:nrec]
        idx = rec[:, 0].tolist()
        # stalls: per issue, in the order they happened (the wave's own before the first)
        per: dict = {}
        if w.stalls:
            per[0] = dict(w.stalls)
        for k, reason, amount in self.stalls[:nst].tolist():
            d = per.get(k)
            if d is None:
                d = per[k] = {}
            name = names[reason]
            d[name] = d.get(name, 0) + amount
        w.stalls = per.pop(nrec, {})
        tot = w.stall_totals
        stalled = eng.stalled
        for k in sorted(per):
            d = per[k]
            for name, v in d.items():
                tot[name] = tot.get(name, 0) + v
            at = stalled.get(idx[k])
            if at is None:
                stalled[idx[k]] = dict(d)
            else:
                for name, v in d.items():
                    at[name] = at.get(name, 0) + v
        if not nrec:
            return
        counts = eng.issued
        if nrec < 256:
            for i in idx:
                counts[i] += 1
        else:
            uniq, cnt = np.unique(rec[:, 0], return_counts=True)
            for i, c in zip(uniq.tolist(), cnt.tolist()):
                counts[i] += c
        # records (a run without history keeps what Engine._record's trimming would have left:
        # only those are made)
        records = eng.records
        slots0 = w.slots
        if eng.keep_history:
            first = 0
        else:
            keep = _kept(len(records), nrec, RECENT_HISTORY)
            first = max(0, nrec - keep)
            del records[:len(records) - (keep - (nrec - first))]
        tail = rec[first:].T.tolist()
        stalls_of = [per.get(k, _EMPTY) for k in range(first, nrec)] if per else repeat(_EMPTY)
        records.extend(map(IssueRecord, repeat(wid), tail[0], tail[1], tail[2], tail[3], stalls_of,
                           range(slots0 + first, slots0 + nrec)))
        # pipe uses: the busy cycles per pipe key, its last owner, and with history the log
        prog = self.prog
        busy = prog[rec[:, 0], A.C_BUSY]
        used = np.flatnonzero(busy)
        if len(used):
            keys = self.keys
            kid = prog[rec[used, 0], A.C_KEY]
            sums = np.bincount(kid, weights=busy[used])
            simd = w.simd
            pipes = self._pipes
            for k in np.flatnonzero(sums).tolist():
                key = keys[k]
                eng.pipe_use[key] = eng.pipe_use.get(key, 0) + int(sums[k])
                j = int(used[np.flatnonzero(kid == k)[-1]])
                index, t = idx[j], int(rec[j, 2])
                pipe, per_simd = pipes[index]
                eng.pipe_owner[key] = (pipe, simd if per_simd else None, wid, index, t, t + int(busy[j]))
            if eng.keep_history:
                ui = rec[used, 0].tolist()
                ut = rec[used, 2].tolist()
                info = [pipes[i] for i in ui]
                eng.pipe_log.extend((p, simd if ps else None, wid, i, t, t + b) for (p, ps), i, t, b
                                    in zip(info, ui, ut, busy[used].tolist()))
        if eng.monitor is not None:  # every row is a quiet instruction: noted, as on_issue notes it
            mon = eng.monitor
            noted = mon._deferred.get(wid)
            if noted is None:
                noted = mon._deferred[wid] = []
            noted.extend(zip(idx, rec[:, 2].tolist()))
        w.slots += nrec
        w.instructions += nrec
        eng.executed += nrec


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
