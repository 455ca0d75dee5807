"""The event-driven engine: one clock, waves issuing in order, effects landing later.

Model (see README "Timing model" for the defaults and their sources):
- each wave issues at most one instruction per cycle, in program order;
- an instruction issues when its pipe is free (VALU and MFMA pipes belong to the
  wave's SIMD; SALU, SMEM, VMEM and LDS issue ports are per wave/CU), when
  `s_waitcnt` is satisfied, when the counter it increments is not full, and when
  every register it reads that an *interlocked* producer (SALU/VALU) is still
  writing has landed;
- registers written by memory operations and MFMAs are not interlocked: a read
  before they land sees the old value, exactly as on hardware, and the engine
  records a hazard event with both instructions;
- effects land at completion: ALU results after the pipe latency, MFMA results
  after passes x 4 cycles, memory operations when the memory system completes
  them (vector memory and LDS in issue order, SMEM in any order).
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from ..program import CallGroup, Call, Imm, Instruction
from .context import Ctx, RegWrite, SimError
from .state import GlobalMemory, LDS, WaveState

INTERLOCKED_PIPES = frozenset({"salu", "valu", "trans", "dp", "branch"})


@dataclass
class InFlight:
    """One counted operation still outstanding."""

    counter: str  # vm | lgkm | exp
    kind: str  # vmem | lds | smem | lds-dma | store
    issue: int
    complete: int
    index: int  # instruction index
    memop: object = None


@dataclass
class Pending:
    """A register write scheduled to land."""

    land: int
    interlocked: bool
    index: int  # producer instruction
    seq: int


@dataclass
class IssueRecord:
    """What the timeline and trace show for one executed instruction."""

    wave: int
    index: int  # instruction index in the kernel
    ready: int  # cycle the wave first tried to issue it
    issue: int
    complete: int
    stalls: dict = field(default_factory=dict)  # reason -> cycles


@dataclass
class HazardEvent:
    """A read or write that raced with an in-flight operation (dynamic hazard monitor)."""

    rule: str
    wave: int
    cycle: int
    consumer: int  # instruction index
    producer: int
    registers: list
    message: str


@dataclass
class WaveRuntime:
    state: WaveState
    simd: int
    ready_at: int = 0
    first_try: int | None = None
    stalls: dict = field(default_factory=dict)
    inflight: list = field(default_factory=list)
    pending: dict = field(default_factory=dict)  # (file, idx) -> Pending (latest)
    at_barrier: bool = False
    priority: int = 0
    instructions: int = 0
    stall_totals: dict = field(default_factory=dict)
    end_cycle: int | None = None

    def outstanding(self, counter: str, now: int) -> list[InFlight]:
        return [f for f in self.inflight if f.counter == counter and f.complete > now]


class Engine:
    def __init__(self, kernel, waves: list[WaveState], memory: GlobalMemory, lds: LDS, latencies=None,
                 max_cycles: int = 10_000_000, max_instructions: int = 10_000_000):
        from .semantics import load_all
        load_all()
        self.kernel = kernel
        self.target = kernel.target
        self.lat = latencies or kernel.target.latencies
        self.memory = memory
        self.lds = lds
        self.waves = [WaveRuntime(w, simd=i % kernel.target.simds_per_cu) for i, w in enumerate(waves)]
        self.cycle = 0
        self.events: list = []  # heap of (cycle, seq, wave_idx, kind, payload)
        self._seq = 0
        self.records: list[IssueRecord] = []
        self.hazards: list[HazardEvent] = []
        self.notes: list[tuple[int, str]] = []
        self.pipe_busy: dict = {}  # (simd, pipe) -> cycle free
        self.pipe_use: dict = {}  # (simd, pipe) -> busy cycles, for utilisation
        self.vm_last: dict = {}  # wave -> last vm completion (in-order return)
        self.lds_last = 0  # LDS processes requests in order, one queue per CU
        self.max_cycles = max_cycles
        self.max_instructions = max_instructions
        self.executed = 0
        self.halt_reason: str | None = None
        self._dma_inflight: list = []  # (complete, wave, index, ranges)
        from .semantics import lookup as sem_lookup
        self._sem = [sem_lookup(ins.mnemonic) for ins in kernel.instructions]

    # ------------------------------------------------------------ events
    def _push(self, cycle: int, wave: int, kind: str, payload) -> None:
        self._seq += 1
        heapq.heappush(self.events, (cycle, self._seq, wave, kind, payload))

    def _land_until(self, now: int) -> None:
        while self.events and self.events[0][0] <= now:
            cycle, _, wi, kind, payload = heapq.heappop(self.events)
            w = self.waves[wi]
            if kind == "write":
                self._apply(w, payload)
            elif kind == "memop":
                memop, index = payload
                self._check_lds_race(wi, index, memop, cycle)
                for wr in memop.perform(self.memory, self.lds):
                    self._apply(w, wr)

    def _apply(self, w: WaveRuntime, wr: RegWrite) -> None:
        st = w.state
        if wr.file in ("v", "a"):
            arr, init = st.file(wr.file)
            n = len(wr.values)
            sl = slice(wr.index, wr.index + n)
            arr[sl] = np.where(wr.mask[None, :], wr.values, arr[sl])
            init[sl] |= wr.mask[None, :]
        elif wr.file == "s":
            st.set_sgpr(wr.index, wr.values)
        elif wr.file == "scc":
            st.scc = int(wr.values[0])
        for reg in wr.regs():
            p = w.pending.get(reg)
            if p is not None and p.land <= self.cycle:
                del w.pending[reg]

    # ------------------------------------------------------------ issue
    def step_cycle(self) -> bool:
        """Advance to the next cycle where something can happen; issue what can issue. False when done."""
        if all(w.state.done for w in self.waves):
            return False
        now = self.cycle
        self._land_until(now)
        order = sorted(range(len(self.waves)), key=lambda i: (-self.waves[i].priority, i))
        for wi in order:
            w = self.waves[wi]
            if w.state.done or w.ready_at > now or w.at_barrier:
                continue
            self._try_issue(wi, now)
        self._release_barrier(now)
        if all(w.state.done for w in self.waves):
            self._land_until(max([e[0] for e in self.events], default=now))
            self.cycle = max(now, max((e.complete for w in self.waves for e in w.inflight), default=now))
            return False
        nxt = [w.ready_at for w in self.waves if not w.state.done and not w.at_barrier]
        if self.events:
            nxt.append(self.events[0][0])
        t = min(nxt) if nxt else now + 1
        self.cycle = max(t, now + 1)
        if self.cycle > self.max_cycles:
            self.halt_reason = f"stopped after --max-cycles {self.max_cycles} cycles"
            return False
        return True

    def run(self) -> None:
        while self.step_cycle():
            if self.executed >= self.max_instructions:
                self.halt_reason = f"stopped after --max-instructions {self.max_instructions} instructions"
                break

    def _stall(self, w: WaveRuntime, until: int, reason: str, now: int) -> None:
        until = max(until, now + 1)
        w.stalls[reason] = w.stalls.get(reason, 0) + (until - now)
        w.ready_at = until

    def _counter_value(self, w: WaveRuntime, counter: str, now: int) -> list[int]:
        return sorted(f.complete for f in w.outstanding(counter, now))

    def _try_issue(self, wi: int, now: int) -> None:
        w = self.waves[wi]
        st = w.state
        kernel = self.kernel
        if st.pc >= len(kernel.instructions):
            raise SimError("execution ran past the last instruction without s_endpgm")
        ins = kernel.instructions[st.pc]
        info = kernel.infos[st.pc]
        if w.first_try is None:
            w.first_try = now
        m = ins.mnemonic
        pipe = info.pipe if info else _guess_pipe(m)

        # s_waitcnt: wait until each named counter is at or below its value
        if m.startswith("s_waitcnt"):
            limits = waitcnt_fields(ins, self.target, kernel.symbols)
            until = now
            for counter, limit in limits.items():
                times = self._counter_value(w, counter, now)
                if len(times) > limit:
                    until = max(until, times[len(times) - limit - 1])
            if until > now:
                self._stall(w, until, f"waitcnt {counter_names(limits, w, self, now)}", now)
                return
            self._retire_simple(wi, w, ins, now, now + 1)
            return
        if m == "s_barrier":
            # Hardware waits for the wave's own outstanding memory? No: only the barrier.
            w.at_barrier = True
            w._barrier_index = st.pc
            return
        # pipe availability
        key = (w.simd, pipe) if pipe in ("valu", "mfma", "trans", "dp") else (wi, pipe)
        free = self.pipe_busy.get(key, 0)
        if free > now:
            self._stall(w, free, f"pipe {pipe} busy", now)
            return
        # counter overflow
        counters = info.counters if info else frozenset()
        for counter in counters:
            cap = {"vm": self.target.vmcnt_max, "lgkm": self.target.lgkmcnt_max, "exp": self.target.expcnt_max}[counter]
            times = self._counter_value(w, counter, now)
            if len(times) >= cap:
                self._stall(w, times[len(times) - cap], f"{counter}cnt full", now)
                return
        if m == "s_nop":
            n = _const(ins, 0, kernel.symbols) if ins.operands else 0
            self._retire_simple(wi, w, ins, now, now + n + 1, ready=now + n + 1)
            return
        if m == "s_sleep":
            n = _const(ins, 0, kernel.symbols) if ins.operands else 0
            self._retire_simple(wi, w, ins, now, now + 64 * n + 1, ready=now + 64 * max(n, 0) + 1)
            return
        if m == "s_setprio":
            w.priority = _const(ins, 0, kernel.symbols) if ins.operands else 0
            self._retire_simple(wi, w, ins, now, now + 1)
            return
        if m == "s_endpgm":
            self._retire_simple(wi, w, ins, now, now + 1)
            st.done = True
            w.end_cycle = now + 1
            return
        sem = self._sem[st.pc]
        if sem is None:
            raise SimError(f"instruction not modelled yet: {m}")
        ctx = Ctx(st, ins, kernel.symbols, kernel.labels, self.target.lds_bytes, target=self.target.name)
        sem(ctx, ins)
        # interlocks: a read of a register an ALU producer has not written yet waits
        wait_until = now
        for reg in ctx.reads:
            p = w.pending.get(reg)
            if p is not None and p.land > now and p.interlocked:
                wait_until = max(wait_until, p.land)
        if wait_until > now:
            self._stall(w, wait_until, "dependency", now)
            return
        for reg in dict.fromkeys(ctx.reads):
            p = w.pending.get(reg)
            if p is not None and p.land > now and not p.interlocked:
                self._hazard(wi, now, st.pc, p.index, [reg], "read")
        # commit
        index = st.pc
        complete = self._schedule(wi, w, ins, info, pipe, ctx, now)
        busy = self._occupancy(ins, info, pipe)
        self.pipe_busy[key] = now + busy
        self.pipe_use[(w.simd, pipe)] = self.pipe_use.get((w.simd, pipe), 0) + busy
        for note in ctx.notes:
            self.notes.append((wi, f"{ins.span}: {note}"))
        st.pc = ctx.branch_to if ctx.branch_to is not None else st.pc + 1
        self._record(wi, w, index, now, complete)
        w.ready_at = now + (self.lat.branch if ctx.branch_to is not None else 1)

    def _retire_simple(self, wi, w, ins, now, complete, ready=None) -> None:
        index = w.state.pc
        w.state.pc += 1
        self._record(wi, w, index, now, complete)
        w.ready_at = ready if ready is not None else now + 1

    def _record(self, wi: int, w: WaveRuntime, index: int, now: int, complete: int) -> None:
        rec = IssueRecord(wi, index, w.first_try if w.first_try is not None else now, now, complete, dict(w.stalls))
        for k, v in w.stalls.items():
            w.stall_totals[k] = w.stall_totals.get(k, 0) + v
        self.records.append(rec)
        w.stalls = {}
        w.first_try = None
        w.instructions += 1
        self.executed += 1

    def _release_barrier(self, now: int) -> None:
        live = [w for w in self.waves if not w.state.done]
        if live and all(w.at_barrier for w in live):
            for i, w in enumerate(self.waves):
                if w.at_barrier:
                    w.at_barrier = False
                    index = w.state.pc
                    start = w.first_try if w.first_try is not None else now
                    w.stalls["barrier"] = w.stalls.get("barrier", 0) + (now - start)
                    w.state.pc += 1
                    self._record(i, w, index, now, now + self.lat.barrier)
                    w.ready_at = now + self.lat.barrier

    # ------------------------------------------------------------ timing of results
    def _occupancy(self, ins: Instruction, info, pipe: str) -> int:
        if pipe == "mfma":
            return 4 * self._mfma_passes(ins)
        if pipe in ("valu",):
            return 4  # wave64 on a 16-lane SIMD
        if pipe == "trans":
            return 4
        if pipe == "dp":
            return 8
        return 1

    def _mfma_passes(self, ins: Instruction) -> int:
        try:
            from ..isa import mfma
            info = mfma.lookup(ins.mnemonic, self.target.name)
            if info is not None:
                p = info.passes
                return p[self.target.name] if isinstance(p, dict) else int(p)
        except ImportError:
            pass
        return 8

    def _schedule(self, wi: int, w: WaveRuntime, ins: Instruction, info, pipe: str, ctx: Ctx, now: int) -> int:
        lat = self.lat
        counters = info.counters if info else frozenset()
        if pipe == "mfma":
            complete = now + 4 * self._mfma_passes(ins)
            interlocked = False
        elif pipe in ("salu", "branch"):
            complete, interlocked = now + lat.salu, True
        elif pipe == "trans":
            complete, interlocked = now + lat.valu_trans, True
        elif pipe == "dp":
            complete, interlocked = now + lat.valu_dp, True
        elif pipe == "valu":
            complete, interlocked = now + lat.valu, True
        elif pipe == "smem":
            # SMEM may return out of order: larger loads take longer in this model
            words = sum(getattr(m, "dwords", 1) for m in ctx.memops) or 1
            complete, interlocked = now + lat.smem + 4 * int(math.log2(max(words, 1))), False
        elif pipe == "lds":
            conflicts = getattr(ctx, "bank_conflicts", 0)
            complete = max(now + lat.lds + lat.lds_conflict * conflicts, self.lds_last + 1)
            self.lds_last = complete
            interlocked = False
        elif pipe == "vmem":
            is_dma = info is not None and "lds-dma" in info.flags
            is_store = info is not None and "store" in info.flags
            base = lat.lds_dma if is_dma else (lat.vmem_store if is_store else lat.vmem)
            complete = max(now + base, self.vm_last.get(wi, 0) + 1)  # vector memory returns in order
            self.vm_last[wi] = complete
            interlocked = False
        else:
            complete, interlocked = now + 1, True
        for wr in ctx.writes:
            self._push(complete, wi, "write", wr)
            for reg in wr.regs():
                w.pending[reg] = Pending(complete, interlocked, w.state.pc, self._seq)
        for memop in ctx.memops:
            self._push(complete, wi, "memop", (memop, w.state.pc))
            dst = getattr(memop, "dst_file", None) or getattr(memop, "ret_file", None)
            if dst:
                idx = getattr(memop, "dst_index", None)
                if idx is None:
                    idx = memop.ret_index
                for k in range(getattr(memop, "dwords", 1)):
                    w.pending[(dst, idx + k)] = Pending(complete, False, w.state.pc, self._seq)
            slot = getattr(memop, "dst_slot", None)
            if slot is not None:
                for k in range(memop.dwords):
                    w.pending[("s", slot + k)] = Pending(complete, False, w.state.pc, self._seq)
            if hasattr(memop, "lds_addrs"):
                self._dma_inflight.append((complete, wi, w.state.pc, memop))
        for counter in counters:
            kind = "lds-dma" if info is not None and "lds-dma" in info.flags else pipe
            w.inflight.append(InFlight(counter, kind, now, complete, w.state.pc, ctx.memops[0] if ctx.memops else None))
        w.inflight = [f for f in w.inflight if f.complete > now]
        return complete

    # ------------------------------------------------------------ hazards seen at run time
    def _hazard(self, wi: int, now: int, consumer: int, producer: int, regs: list, how: str) -> None:
        ins_c = self.kernel.instructions[consumer]
        ins_p = self.kernel.instructions[producer]
        names = ", ".join(f"{f}{i}" for f, i in regs)
        info_p = self.kernel.infos[producer]
        pipe = info_p.pipe if info_p else _guess_pipe(ins_p.mnemonic)
        if pipe in ("vmem",):
            rule = "vmem-result-before-vmcnt"
        elif pipe in ("lds", "smem"):
            rule = "lgkm-result-before-lgkmcnt"
        elif pipe == "mfma":
            rule = "mfma-result-read-early"
        else:
            rule = "read-in-flight"
        msg = (f"{ins_c.mnemonic} reads {names} while {ins_p.mnemonic} (line {ins_p.span.line}) "
               f"has not written it yet: it sees the old value")
        self.hazards.append(HazardEvent(rule, wi, now, consumer, producer, regs, msg))

    def _check_lds_race(self, wi: int, index: int, memop, cycle: int) -> None:
        """An LDS read performed while an LDS DMA that writes the same bytes is still in flight."""
        self._dma_inflight = [d for d in self._dma_inflight if d[0] > cycle]
        if not hasattr(memop, "pieces") or not self._dma_inflight:
            return
        if not hasattr(memop, "dst_file"):
            return  # writes race too, but reads are what return wrong numbers
        reads = memop.lds_ranges()
        lo = min(a for a, _ in reads)
        hi = max(b for _, b in reads)
        for complete, dwi, dindex, dma in self._dma_inflight:
            ranges = dma.lds_ranges()
            if any(a < hi and lo < b for a, b in ranges):
                msg = (f"{self.kernel.instructions[index].mnemonic} reads LDS [0x{lo:x}, 0x{hi:x}) while the LDS DMA "
                       f"{self.kernel.instructions[dindex].mnemonic} (line {self.kernel.instructions[dindex].span.line}) "
                       f"writing it is still in flight (lands at cycle {complete})")
                self.hazards.append(HazardEvent("lds-dma-read-before-vmcnt", wi, cycle, index, dindex, [], msg))
                break


def _guess_pipe(m: str) -> str:
    if m.startswith("v_mfma") or m.startswith("v_smfmac"):
        return "mfma"
    if m.startswith(("global_", "buffer_", "flat_", "scratch_")):
        return "vmem"
    if m.startswith("ds_"):
        return "lds"
    if m.startswith(("s_load", "s_buffer_load", "s_store", "s_dcache")):
        return "smem"
    if m.startswith("v_"):
        return "valu"
    return "salu"


def _const(ins: Instruction, i: int, symbols: dict) -> int:
    from ..resolve import eval_const
    return eval_const(ins.operands[i], symbols)


def waitcnt_fields(ins: Instruction, target, symbols: dict) -> dict[str, int]:
    """{'vm': n, 'lgkm': n, 'exp': n} for the counters an s_waitcnt names (others: no wait)."""
    out: dict[str, int] = {}
    maxima = {"vm": target.vmcnt_max, "lgkm": target.lgkmcnt_max, "exp": target.expcnt_max}
    for op in ins.operands:
        calls = op.calls if isinstance(op, CallGroup) else (op,) if isinstance(op, Call) else ()
        for c in calls:
            name = c.name.replace("_sat", "")
            key = {"vmcnt": "vm", "lgkmcnt": "lgkm", "expcnt": "exp"}.get(name)
            if key is None or not c.args:
                continue
            from ..resolve import eval_const
            value = eval_const(c.args[0], symbols)
            out[key] = min(value, maxima[key])
        if not calls and not isinstance(op, (Call, CallGroup)):
            from ..resolve import eval_const
            raw = eval_const(op, symbols)
            # gfx9 encoding: vmcnt = [3:0] | [15:14] << 4, expcnt = [6:4], lgkmcnt = [11:8]
            out["vm"] = (raw & 0xF) | (((raw >> 14) & 0x3) << 4)
            out["exp"] = (raw >> 4) & 0x7
            out["lgkm"] = (raw >> 8) & 0xF
    return {k: v for k, v in out.items() if v < maxima[k]}


def counter_names(limits: dict, w: WaveRuntime, eng: Engine, now: int) -> str:
    parts = []
    for counter, limit in limits.items():
        if len(w.outstanding(counter, now)) > limit:
            parts.append(f"{counter}cnt")
    return " ".join(parts) or "counters"
