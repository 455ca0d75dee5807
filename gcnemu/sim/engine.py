"""The event-driven timing engine: one clock, waves issuing in order, effects landing later.

Semantics compute *what* changes from the state at issue; this module decides *when*.

Issue model (facts and their sources in `isa.targets.Latencies` and `sim.pipes`):

- The compute unit gives each SIMD an issue turn every ``issue_interval`` clocks
  (round robin, GCN whitepaper), so a wave issues at most one instruction per turn,
  in program order. Waves of a workgroup go to SIMDs round robin (wave i -> SIMD i % 4).
- In one turn a SIMD issues at most one instruction per category (valu, scalar, vmem,
  lds, branch; `pipes.CATEGORY`), each from a different wave. Arbitration order: the
  highest `s_setprio` first, then the oldest wave (lowest wave id), as the ISA guide's
  S_SETPRIO describes ("{priority, wave age}"). A wave that loses its category for the
  turn records the stall as ``pipe busy``.
- An instruction issues when: its hold is over (``nop``: s_nop N gives (N & 0xf) + 1 wait states;
  ``sleep``; ``branch`` redirect), ``s_waitcnt`` is satisfied (``waitcnt vmcnt`` /
  ``waitcnt lgkmcnt`` / ``waitcnt expcnt``), its pipe is free (``pipe busy``), the
  counter it increments is below the target's maximum (``counter full``), and every
  register it reads that an interlocked producer (SALU/VALU) is still computing has
  landed (``dependency``). ``s_barrier`` waits for every live wave of the workgroup
  (``barrier``).
- The VALU and the matrix core of a SIMD share issue by the rules of ``isa.coissue`` (per-target
  data): valu/trans/dp ops hold the SIMD's one VALU for their occupancy, an MFMA issues only
  when that VALU is idle, a VALU op issues no earlier than its MFMA's co-execution delay, packed
  FP32 waits for the matrix core to go idle, and a ready MFMA wins its SIMD's turn over another
  wave's VALU op. A wait on these rules is recorded as ``co-issue conflict``.
- Where hardware does not interlock (memory results, MFMA results) the engine does not
  stall: the reader sees the old value and a :class:`HazardEvent` is raised with both
  instructions (rule ids in `sim.counters`).

Completion: SALU/VALU results after their latency, MFMA results after passes x
``mfma_pass``, memory when the memory system completes the access: vector memory in
issue order per wave, LDS in order per CU, SMEM out of order (size dependent).
Memory effects are performed at completion, so an LDS read that completes before an
LDS DMA lands reads the old bytes, as on hardware.

One workgroup per engine; several workgroups run as several simulations one after
another (they share nothing on chip but the clock of the caller).

Inspection and time travel (for the dynamic monitor and the stepping debugger):
:meth:`Engine.inflight`, :meth:`Engine.pipes`, per-wave ``counters``, ``records``,
``hazards``; :meth:`Engine.snapshot` / :meth:`Engine.restore` copy the whole machine
(registers, memory, LDS, events, counters) so reverse steps are a restore plus replay.
"""
from __future__ import annotations

import bisect
import copy
import heapq
import operator
import re
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..asm.program import Instruction
from .context import _HWREGS, Ctx, RegWrite, SimError, _static_facts, code_facts
from .state import MemoryError_
from .counters import (COUNTER_NAMES, RULE_BARRIER_LDS, RULE_LDS_DMA_READ, RULE_LDS_READ, RULE_MFMA_READ,
                       RULE_OVERWRITE, RULE_SMEM_READ, RULE_VMEM_READ, OVERWRITE_RULE, CounterOp,
                       WaveCounters)
from .latency import MemoryTiming, as_config
from .memops import landing_regs
from .plans import make_plan, shared_plans
from .records import _EMPTY, RECENT_HISTORY, IssueRecord, Pending  # noqa: F401 (re-exported)
from . import alu_compiled
from .accel_alu import X_DECLINE as _X_DECLINE, X_LIMIT as _X_LIMIT, X_NO_ROW as _X_NO_ROW
from .pipes import SIMD_PIPES, Decoded, decode, wave_bytes, waitcnt_fields  # noqa: F401 (re-export)
from ..isa.coissue import VALU_PIPES, rules as coissue_rules
from .races import RULE_GLOBAL_RACE, RULE_LDS_RACE, LdsRaceDetector, describe as race_text
from .state import LDS, GlobalMemory, RegisterFiles, WaveState
from .semantics.gpr_idx import GPR_IDX_EN, M0_SLOT as _M0_SLOT, MODE_HWREG as _MODE_HWREG, indexed_instruction

# pipes whose VGPR operands VGPR indexing mode relocates (VALU); MFMA and memory are not defined
_INDEXED_PIPES = frozenset({"valu", "trans", "dp"})

_SCC_KEY = ("scc", 0)
_COMPLETE = operator.itemgetter(1)
_MIN_RUN = 3  # the fewest instructions a stretch must hold for _run_alu to take it (_stretch_at)
_SEQ = operator.itemgetter(1)  # a write in flight's issue sequence number (Engine._run_alu entries)  # an in-flight LDS DMA's completion cycle (Engine._dma entries)
_UNPLANNED = object()  # an instruction's plan not compiled yet (None: it has none)
_READ_RULE = {"vmem": RULE_VMEM_READ, "lds": RULE_LDS_READ, "smem": RULE_SMEM_READ, "mfma": RULE_MFMA_READ}

# The command line's limits when neither an option nor the header sets one (limits_for). The
# engine keeps an issue record per instruction (the timeline, traces and the debugger read them),
# about 400 bytes each, and runs 100-200 thousand instructions a second: half a million stops a
# kernel that never ends within seconds and about 250 MB, while the kernels in programs/ execute
# thousands. Stalls skip ahead, so cycles are cheap: only a wait this long hits the cycle limit.
DEFAULT_MAX_INSTRUCTIONS = 500_000
DEFAULT_MAX_CYCLES = 50_000_000
# the wall clock is read once per this many executed instructions (Engine.set_deadline): often
# enough to stop within a fraction of a second, rare enough to cost nothing per instruction
_DEADLINE_EVERY = 2048


@dataclass(slots=True)
class HazardEvent:
    """A read or write that raced with an in-flight operation (dynamic hazard monitor)."""

    rule: str
    wave: int
    cycle: int
    consumer: int  # instruction index
    producer: int
    registers: list
    message: str
    lands: int = 0  # cycle the producer's result lands
    values: dict = field(default_factory=dict)  # register -> the stale value that was read
    # the lanes affected: EXEC at the consumer's issue, narrowed to the lanes whose stale value
    # differs from the one in flight where that value is known (None: not known)
    lanes: list | None = None
    # where lint points: the consumer's racing operand and the producer's (None: the instruction)
    consumer_span: object = None
    producer_span: object = None
    # "engine": seen by the engine (a value read or written while in flight); "rules": the
    # rule table's verdict on the issue stream (gcnemu.analysis.monitor) with no race observed
    source: str = "engine"

    def detail(self, mnemonic: str = "") -> str | None:
        """'lanes 32-63; stale v4 = 0.0 (the value in flight lands at cycle 32)': the lanes
        and the stale value read, typed as the consumer `mnemonic` reads it where it says."""
        return stale_text(self, mnemonic)


class EngineNote(str):
    """A runtime note (uninitialised read, LDS out of range, ...): the string is
    ``file:line:col: message`` as before; ``span`` is the instruction's source range and
    ``message`` the text alone, so `gcnemu run` can render it llvm-mc style."""

    span: object
    message: str

    def __new__(cls, span, message: str) -> "EngineNote":
        self = super().__new__(cls, f"{span}: {message}" if span is not None else message)
        self.span = span
        self.message = message
        return self


class WaveRuntime:
    """Timing state of one wave (its architectural state is `state`)."""

    __slots__ = ("wid", "state", "simd", "counters", "ready_at", "first_try", "stalls", "pending",
                 "interlock_until", "async_until", "at_barrier", "hold_until", "hold_reason", "priority",
                 "instructions", "stall_totals", "end_cycle", "slots", "stall_reason")

    def __init__(self, wid: int, state: WaveState, simd: int, maxima: dict[str, int]):
        self.wid = wid
        self.state = state
        self.simd = simd
        self.counters = WaveCounters(maxima)
        self.ready_at = 0
        self.first_try: int | None = None
        self.stalls: dict[str, int] = {}
        self.pending: dict[tuple, Pending] = {}
        self.interlock_until = 0  # latest landing of an interlocked write: before it, check reads
        self.async_until = 0  # latest landing of a non-interlocked write: before it, look for hazards
        self.at_barrier = False
        self.hold_until = 0
        self.hold_reason = ""
        self.priority = 0
        self.instructions = 0
        self.stall_totals: dict[str, int] = {}
        self.end_cycle: int | None = None
        self.slots = 0
        self.stall_reason = ""  # of the latest stall: the one that may reach past the clock

    def copy(self) -> "WaveRuntime":
        c = WaveRuntime.__new__(WaveRuntime)
        for name in WaveRuntime.__slots__:
            setattr(c, name, getattr(self, name))
        c.counters = self.counters.copy()
        c.stalls = dict(self.stalls)
        c.pending = dict(self.pending)
        c.stall_totals = dict(self.stall_totals)
        return c

    @property
    def done(self) -> bool:
        return self.state.done

    # kept for callers of the first engine version
    def outstanding(self, counter: str, now: int) -> list[CounterOp]:
        return self.counters.outstanding(counter, now)


@dataclass
class PipeUse:
    """What a pipe is busy with: the debugger's `pipeline` view."""

    pipe: str
    simd: int | None  # None for CU-wide pipes
    wave: int
    index: int
    start: int
    end: int


@dataclass
class EngineSnapshot:
    """Everything needed to put the engine back to one cycle (see Engine.snapshot)."""

    cycle: int
    next: int
    seq: int
    events: list
    waves: list
    wave_arrays: list
    memory: list | None  # None: kept by the caller (see Engine.snapshot)
    lds: np.ndarray
    pipe_free: dict
    pipe_owner: dict
    pipe_use: dict
    lds_last: int
    records: int
    pipe_log: int
    hazards: int
    notes: int
    executed: int
    dma: list
    halt_reason: str | None
    finished: bool
    flops: int
    monitor: object = None
    issued: list = field(default_factory=list)
    # the register files (RegisterFiles.copy) when the engine keeps them as one array per file;
    # then `wave_arrays` holds None for each wave's arrays
    registers: tuple | None = None
    fallbacks: list | None = None  # Engine.fallbacks (None: a snapshot made before they were counted)
    stalled: dict = field(default_factory=dict)
    cache_hits: dict = field(default_factory=dict)
    coexec_gate: dict = field(default_factory=dict)
    caches: list = field(default_factory=list)  # the cache levels' LRU contents (sim.caches)
    races: tuple | None = None  # (accesses, epoch, releases, recorded) of the LDS race detector
    races_reported: bool = False  # the detectors' races were reported (the run had ended)
    # per wave, the hardware registers s_setreg and s_set_gpr_idx_* wrote (MODE: float mode, GPR_IDX_EN)
    hwregs: list | None = None


_WAVE_ARRAYS = ("sgpr", "vgpr", "agpr", "sgpr_init", "vgpr_init", "agpr_init")


class Engine:
    def __init__(self, kernel, waves: list[WaveState], memory: GlobalMemory, lds: LDS, latencies=None,
                 max_cycles: int = 10_000_000, max_instructions: int = 10_000_000,
                 allow_unmodelled: bool = False, race_check: bool = True):
        from .semantics import load_all, lookup as sem_lookup
        load_all()
        self.kernel = kernel
        from . import fp
        # MODE as the kernel descriptor sets it (denormals, IEEE, clamp); s_setreg changes it per wave
        self.float_mode = fp.float_mode_from_program(kernel.program)
        self.target = kernel.target
        cfg = as_config(latencies)
        self.lat = cfg.apply(kernel.target.latencies)
        # loads walk the target's cache hierarchy unless the user chose a flat vmem latency
        self.memtiming = MemoryTiming(self.lat, cfg.regions, memory, cfg.hierarchy(kernel.target.hierarchy))
        self.user_latencies: list[str] = cfg.user_choices  # `run` notes them once
        self.memory = memory
        self.lds = lds
        t = kernel.target
        maxima = {"vm": t.vmcnt_max, "lgkm": t.lgkmcnt_max, "exp": t.expcnt_max}
        if len(waves) > t.max_waves_per_workgroup:
            raise SimError(f"a workgroup has at most {t.max_waves_per_workgroup} waves on {t.name}; "
                           f"the setup asks for {len(waves)}")
        self.waves = [WaveRuntime(i, w, i % t.simds_per_cu, maxima) for i, w in enumerate(waves)]
        # the workgroup's registers as one array per file, each wave's arrays views of it
        # (gcnemu.sim.state.RegisterFiles; None: waves of different shapes keep their own)
        self.files: RegisterFiles | None = RegisterFiles.gather(waves)
        self._own_simd = len(waves) <= t.simds_per_cu  # every wave on a SIMD of its own
        self.decoded: list[Decoded] = decode(kernel, sem_lookup)
        # the pipe key of each instruction per SIMD (a SIMD pipe is (pipe, simd)), built once
        # rather than a tuple per issue
        # (valu, trans and dp share the SIMD's one VALU: isa.coissue.VALU_PIPES; a SIMD pair shares
        # one LDS data path: Latencies.lds_simds_per_port)
        port = max(1, self.lat.lds_simds_per_port)
        self._pipe_keys = [[(("valu" if d.pipe in VALU_PIPES else d.pipe), simd) if d.simd_pipe
                            else ("lds", simd // port) if d.pipe == "lds" else d.pipe
                            for d in self.decoded] for simd in range(max(t.simds_per_cu, 1))]
        self.coissue = coissue_rules(t.name)  # how the VALU and the matrix core share issue (isa.coissue)
        # per SIMD VALU key: the cycle an MFMA's co-execution gate opens (the stall reason is then
        # "co-issue conflict", not "pipe busy")
        self._coexec_gate: dict = {}
        # where time went (views.where): per instruction, how often it issued, the stall cycles by
        # reason it waited before those issues, and which cache level its accesses hit. The
        # memory model names the level of each vector access in `memtiming.last_level` (None:
        # a flat latency, no level); _schedule files it here.
        self.issued: list[int] = [0] * len(kernel.instructions)
        # per instruction, how often it issued through the general path (a Ctx and the semantic
        # function) rather than a plan: what `plan_stats` and the benchmark report as fallbacks
        self.fallbacks: list[int] = [0] * len(kernel.instructions)
        # the compiled issue loop (sim.alu_compiled): None decides by whether numba's kernels are
        # loaded (or the process issued enough to repay loading them), True loads them, False never
        self.compiled_alu: bool | None = None
        self._compiled = None  # its program rows for this engine, made at the first use
        # runs of fixed-timing ALU issues taken by `_run_alu`: [runs, instructions they issued,
        # entries that issued nothing (the per-instruction path took over at once)]
        self.alu_runs: list[int] = [0, 0, 0]
        self._write_keys: dict[tuple, tuple] = {}
        # per instruction, how many fixed-timing ALU instructions follow in program order from it,
        # itself included, up to the first other one or a branch (_stretch_at; 0: not counted yet)
        self._stretch: list[int] = [0] * len(kernel.instructions)
        self.stalled: dict[int, dict[str, int]] = {}
        self.cache_hits: dict[int, dict[str, int]] = {}
        self.interval = max(1, self.lat.issue_interval)
        self.cycle = 0  # the clock: the last cycle processed (or stopped at by run_until)
        self._next = 0  # the next cycle where a wave can act
        self.events: list = []  # heap of (cycle, seq, wave, kind, payload)
        self._seq = 0
        self.records: list[IssueRecord] = []
        # the per-issue history (records, pipe_log) feeds the timeline, traces, the debugger's reverse
        # steps and replays; a plain run keeps only the newest RECENT_HISTORY records (for the stop
        # report's "wave 0 is looping") and no pipe log, so a long run's memory stays flat
        self.keep_history = True
        self.hazards: list[HazardEvent] = []
        # LDS races between waves (None: off, or already reported); see gcnemu.sim.races
        self.lds_races: LdsRaceDetector | None = LdsRaceDetector(len(self.waves)) if race_check else None
        self.global_races: LdsRaceDetector | None = LdsRaceDetector(len(self.waves), "global") if race_check else None
        self._races_reported = False  # (_report_races, once per run; snapshots keep the flag)
        self.notes: list[tuple[int, str]] = []
        self.pipe_free: dict = {}  # pipe key -> first free cycle
        self.pipe_owner: dict = {}  # pipe key -> its last occupancy (a PipeUse as a tuple)
        self.pipe_use: dict = {}  # pipe key -> busy cycles (utilisation)
        self.pipe_log: list[tuple] = []  # every occupancy as PipeUse fields, in issue order (trace)
        self.lds_last = 0  # LDS completes in order per CU
        self.max_cycles = max_cycles
        self._max_instructions = max_instructions
        self.allow_unmodelled = allow_unmodelled
        self.executed = 0
        self.flops = 0
        self.halt_reason: str | None = None
        self.finished = False
        self.deadline: float | None = None  # time.monotonic() past which a run stops (set_deadline)
        self._timeout = 0.0
        self._check_at = max_instructions  # executed count at which _at_limit looks again
        # in-flight LDS DMA: (issue, complete, wave, index, memop, its LDS byte ranges: _dma_ranges)
        self._dma: list = []
        self._unmodelled_noted: set = set()
        self._ctx_target = t.name
        # the issue loop's constant lookups, bound once
        self._instructions = kernel.instructions
        self._labels = kernel.branch_labels
        self._lds_bytes = t.lds_bytes if getattr(lds, "limit", None) is None else lds.limit
        self._ctx_templates: list[dict | None] = [None] * len(kernel.instructions)
        # VGPRs an indexed operand (s_set_gpr_idx_on) may reach: the register file, or what the
        # kernel's descriptor allocates (Simulation sets it)
        self.vgpr_limit = min(len(w.state.vgpr) for w in self.waves) if self.waves else 256
        # issue plans (gcnemu.sim.plans), compiled at an instruction's first issue; only when
        # every wave has the same VGPR count (a plan checks its registers' range once)
        self._plans: list = [_UNPLANNED if len({len(w.vgpr) for w in waves}) == 1 else None] \
            * len(kernel.instructions)
        # per instruction, (plan, latency, pipe busy cycles) when it has a plan and fixed timing
        # (_fast_entry), decided at its first issue attempt; None: the general checks and path
        self._fast: list = [_UNPLANNED] * len(kernel.instructions)
        self.monitor = None  # optional rule-table hazard monitor, see attach_monitor
        # SRAM ECC from the target id (`gfx90a:sramecc-`): decides whether d16 loads keep the
        # other half of the VGPR; None (not named) leaves the per-target default
        from ..asm.resolve import target_features
        self.sramecc: bool | None = target_features(kernel.program).get("sramecc") \
            if getattr(kernel, "program", None) is not None else None

    def attach_monitor(self, monitor) -> None:
        """Feed every issued instruction to `monitor.on_issue(wave, index, cycle, complete)`
        (the rule-table hazard monitor, gcnemu.analysis.monitor); the HazardEvents it
        returns join `hazards`. Its per-wave state is saved and restored with snapshots."""
        self.monitor = monitor
        self._compiled = None  # (the compiled loop's rows depend on what the monitor checks)

    # ================================================================ public stepping
    def run(self) -> None:
        """Run until every wave has ended (or a limit)."""
        if len(self.waves) == 1 and not self.finished:
            self._run_one_wave()
            return
        if not self.finished:
            self._run_many()

    @property
    def max_instructions(self) -> int:
        return self._max_instructions

    @max_instructions.setter
    def max_instructions(self, n: int) -> None:
        """A new limit takes effect at once: the next check is rescheduled for it."""
        self._max_instructions = n
        self._check_at = min(n, self.executed + _DEADLINE_EVERY) if self.deadline is not None else n

    def set_deadline(self, seconds: float | None) -> None:
        """Stop a run after `seconds` of wall-clock time from now (`--timeout`; None: no budget).
        The clock is read every few thousand instructions, so the check costs nothing per issue."""
        self._timeout = seconds or 0.0
        self.deadline = time.monotonic() + seconds if seconds else None
        self.max_instructions = self._max_instructions  # reschedules the next check

    def _at_limit(self) -> bool:
        """Called when `executed` reaches `_check_at`: True (and the run halted) at the instruction
        limit or past the deadline; otherwise the next check is scheduled."""
        if self.executed >= self.max_instructions:
            self.halt_reason = f"stopped after --max-instructions {self.max_instructions} instructions"
            self.finished = True
            return True
        if self.deadline is not None:
            if time.monotonic() > self.deadline:
                self.halt_reason = f"stopped after --timeout {self._timeout:g} s (wall clock)"
                self.finished = True
                return True
            self._check_at = min(self.max_instructions, self.executed + _DEADLINE_EVERY)
        else:
            self._check_at = self.max_instructions
        return False

    def _stop_at_cycle_limit(self) -> None:
        """No wave can act before --max-cycles: the run went that far with nothing to do, so the
        clock shows the limit (not the last issue) and results due by then have landed."""
        self.halt_reason = f"stopped after --max-cycles {self.max_cycles} cycles"
        if self.cycle < self.max_cycles:
            self._land_until(self.max_cycles)
            self.cycle = self.max_cycles
        self.finished = True

    def _run_one_wave(self) -> bool:
        """`run` for a workgroup of one wave: step_cycle's single-wave path as one loop
        (no per-cycle call). False when the run ended (finished or a limit), as step_cycle."""
        w = self.waves[0]
        st = w.state
        events = self.events
        try_issue = self._try_issue
        run_alu = self._run_alu
        fast = self._fast
        stretch = self._stretch
        n = len(self.decoded)
        max_cycles = self.max_cycles
        while True:
            now = self._next if self._next > self.cycle else self.cycle
            self.cycle = now
            if events and events[0][0] <= now:
                self._land_until(now)
            if not st.done and w.ready_at <= now and not w.at_barrier:
                pc = st.pc
                if pc >= n or fast[pc] is None or (stretch[pc] or self._stretch_at(pc)) < _MIN_RUN:
                    try_issue(w, now)
                else:  # a run of fixed-timing ALU issues with nothing else in flight (_run_alu)
                    now, untried = run_alu(w, now)
                    self.cycle = now
                    if untried:
                        try_issue(w, now)
            if st.done or w.at_barrier:
                self._finish(now)
                return False
            nxt = w.ready_at
            self._next = nxt if nxt > now else now + 1
            if self._next > max_cycles:
                self._stop_at_cycle_limit()
                return False
            if self.executed >= self._check_at and self._at_limit():
                return False

    def _run_many(self) -> None:
        """`run` for a workgroup of several waves: step_cycle and _issue_turn as one loop, with
        the per-cycle lookups bound once (measured: the two calls and their attribute loads per
        cycle were a tenth of a GEMM's run). The same order of effects as step_cycle. With a SIMD
        per wave, cycles whose tries are all fixed-timing ALU issues go through the compiled
        issue loop when numba's kernels are loaded (sim.alu_compiled)."""
        own = self._own_simd
        comp = self._compiled
        if comp is None and own and self.compiled_alu is not False:
            run = alu_compiled.kernels(self)
            if run is not None:
                comp = self._compiled = alu_compiled.CompiledALU(self, run)
        executed = self.executed
        try:
            self._run_many_loop(comp)
        finally:
            if comp is None:
                alu_compiled.note_issued(self.executed - executed)

    def _run_many_loop(self, comp) -> None:
        """The loop of `_run_many`; `comp`: the compiled issue loop (sim.alu_compiled) or None."""
        waves = self.waves
        land = self._land_until
        try_issue = self._try_issue
        issue_turn = self._issue_turn
        own = self._own_simd
        max_cycles = self.max_cycles
        release = self._release_barrier
        while True:
            nxt = self._next
            now = nxt if nxt > self.cycle else self.cycle
            self.cycle = now
            events = self.events
            if events and events[0][0] <= now:
                land(now)
            made = False
            if comp is not None and comp.may_start(now):
                # the compiled loop makes cycles from now on; it returns at a cycle it leaves to
                # this loop (made here from the start), or after one whose end needs the limits
                start = now
                now, code, _ = comp.run_many(now)
                self.cycle = now
                if now > start:  # (the cycles it made ended as this loop's do: next_cycle is now)
                    self._next = now
                if code == _X_LIMIT:
                    made = True
                elif events and events[0][0] <= now:
                    land(now)
            if made:
                pass
            elif own:  # _issue_turn's one-wave-per-SIMD case, inline
                ready = [w for w in waves if w.ready_at <= now and not w.at_barrier and not w.state.done]
                if ready:
                    if len(ready) > 1:
                        p0 = ready[0].priority
                        for w in ready:
                            if w.priority != p0:
                                ready.sort(key=lambda w: (-w.priority, w.wid))
                                break
                    for w in ready:
                        try_issue(w, now)
            else:
                issue_turn(now)
            # the next cycle a wave can act; a wave at s_barrier first lets the release run
            # (it moves every wave), then the waves are looked at again
            nxt = -1
            barrier = False
            for w in waves:
                if w.at_barrier:
                    barrier = True
                elif not w.state.done:
                    r = w.ready_at
                    if nxt < 0 or r < nxt:
                        nxt = r
            if barrier:
                release(now)
                nxt = -1
                for w in waves:
                    if not w.at_barrier and not w.state.done:
                        r = w.ready_at
                        if nxt < 0 or r < nxt:
                            nxt = r
            if nxt < 0:
                self._finish(now)
                return
            self._next = nxt if nxt > now else now + 1
            if self._next > max_cycles:
                self._stop_at_cycle_limit()
                return
            if self.executed >= self._check_at and self._at_limit():
                return

    def run_until(self, cycle: int) -> bool:
        """Process every cycle up to and including `cycle`, then stop the clock there (results
        due by then have landed), so inspection shows that cycle. False when finished."""
        while not self.finished and self._next <= cycle:
            self.step_cycle()
        if not self.finished and cycle > self.cycle:
            self.cycle = cycle
            self._land_until(cycle)
        return not self.finished

    def step_cycle(self) -> bool:
        """Process the next cycle where something can happen (land results, issue what can
        issue); `cycle` becomes that cycle. False when every wave has ended."""
        if self.finished:
            return False
        now = self._next if self._next > self.cycle else self.cycle
        self.cycle = now
        if self.events and self.events[0][0] <= now:
            self._land_until(now)
        waves = self.waves
        if len(waves) == 1:
            w = waves[0]
            if not w.state.done and w.ready_at <= now and not w.at_barrier:
                self._try_issue(w, now)
        else:
            self._issue_turn(now)
            for w in waves:
                if w.at_barrier:
                    self._release_barrier(now)
                    break
        nxt = -1
        for w in waves:
            if not w.state.done and not w.at_barrier:
                if nxt < 0 or w.ready_at < nxt:
                    nxt = w.ready_at
        if nxt < 0:
            self._finish(now)
            return False
        self._next = nxt if nxt > now else now + 1
        if self._next > self.max_cycles:
            self._stop_at_cycle_limit()
            return False
        if self.executed >= self._check_at and self._at_limit():
            return False
        return True

    @property
    def next_cycle(self) -> int:
        """The next cycle at which a wave can act (the debugger's `step` target)."""
        return self._next

    def _finish(self, now: int) -> None:
        """Every wave ended: let outstanding effects land; the kernel ends with the last one."""
        last = now
        for w in self.waves:
            if w.end_cycle is not None and w.end_cycle > last:
                last = w.end_cycle
        if self.events:
            last = max(last, max(e[0] for e in self.events))
        self._land_until(last)
        self.cycle = last
        self.finished = True
        self._report_races()

    def _report_races(self) -> None:
        """LDS races between waves (gcnemu.sim.races: happens-before by barrier epochs, whatever
        order this run's schedule gave the accesses), reported once when every wave has ended."""
        if self._races_reported:  # (a run that ended, restored at its end: reported already)
            return
        instructions = self.kernel.instructions
        for det, rule in ((self.lds_races, RULE_LDS_RACE), (self.global_races, RULE_GLOBAL_RACE)):
            if det is None:
                continue
            if det.note and all(n != det.note for _, n in self.notes):
                self.notes.append((self.cycle, det.note))
            for race in det.races():
                a, b = race.first, race.second
                self.hazards.append(HazardEvent(rule, b.wave, b.issued, b.index, a.index, [],
                                                race_text(race, instructions, det.space), a.complete))
        self._races_reported = True  # (a restore before the end reports them again, once)

    # ================================================================ inspection
    def inflight(self, wave: int, now: int | None = None) -> dict[str, list[CounterOp]]:
        """Outstanding counted operations of a wave: {'vm': [...], 'lgkm': [...], 'exp': [...]}."""
        now = self.cycle if now is None else now
        c = self.waves[wave].counters
        return {k: c.outstanding(k, now) for k in ("vm", "lgkm", "exp")}

    def pipes(self, now: int | None = None) -> list[PipeUse]:
        """Pipes busy at `now` and with what."""
        now = self.cycle if now is None else now
        return [PipeUse(*u) for u in self.pipe_owner.values() if u[4] <= now < u[5]]

    def pending_writes(self, wave: int, now: int | None = None) -> dict[tuple, Pending]:
        """Registers of a wave with a write still in flight: (file, index) -> Pending."""
        now = self.cycle if now is None else now
        return {r: p for r, p in self.waves[wave].pending.items() if p.land > now}

    def stats(self) -> dict:
        """Per-kernel figures: cycles, instructions, MFMA utilisation, FLOP/cycle."""
        return kernel_stats(self)

    def plan_stats(self) -> dict:
        """How the issues ran: `planned` through an issue plan (gcnemu.sim.plans), `fallbacks`
        through the general path (a Ctx and the semantic function) although the instruction is
        not one the engine handles itself, with the fallbacks per mnemonic, most frequent first.
        Why: a plan that cannot be built falls back to the general path, which is correct but
        several times slower; the benchmark prints these so a missing plan shows."""
        by: dict[str, int] = {}
        internal = 0
        for d, n, f in zip(self.decoded, self.issued, self.fallbacks):
            if d.internal:
                internal += n
            elif f:
                by[d.mnemonic] = by.get(d.mnemonic, 0) + f
        fallbacks = sum(by.values())
        runs, issues, declined = self.alu_runs
        comp = self._compiled
        return {"planned": self.executed - internal - fallbacks, "fallbacks": fallbacks, "engine_ops": internal,
                "fallbacks_by_mnemonic": dict(sorted(by.items(), key=lambda kv: -kv[1])),
                # a single wave's runs of fixed-timing ALU issues (_run_alu); `declined`: entries
                # that issued nothing, the per-instruction path taking over at once
                "alu_runs": {"runs": runs, "issues": issues, "declined": declined},
                # of those, the issues the compiled loop made (sim.alu_compiled) and its calls
                "compiled": {"calls": comp.calls if comp else 0, "issues": comp.issued if comp else 0}}

    # ================================================================ time travel
    def snapshot(self, memory: bool = True) -> EngineSnapshot:
        """A copy of the machine at the current cycle (cost: the register files, memory and LDS).
        `memory=False` leaves global memory out (None): a caller that keeps many snapshots
        (the debugger) stores it itself, sharing the parts that did not change."""
        files = self.files if self.files is not None and self.files.holds([w.state for w in self.waves]) else None
        return EngineSnapshot(
            cycle=self.cycle, next=self._next, seq=self._seq, events=list(self.events),
            waves=[w.copy() for w in self.waves],
            wave_arrays=[(None if files is not None else tuple(getattr(w.state, a).copy() for a in _WAVE_ARRAYS),
                          w.state.scc, w.state.pc, w.state.done) for w in self.waves],
            registers=files.copy() if files is not None else None,
            memory=[b.data.copy() for b in self.memory.buffers] if memory else None, lds=self.lds.data.copy(),
            pipe_free=dict(self.pipe_free), pipe_owner=dict(self.pipe_owner), pipe_use=dict(self.pipe_use),
            lds_last=self.lds_last, records=len(self.records), pipe_log=len(self.pipe_log), hazards=len(self.hazards), notes=len(self.notes),
            executed=self.executed, dma=list(self._dma), halt_reason=self.halt_reason, finished=self.finished,
            flops=self.flops, monitor=self._monitor_state(), issued=list(self.issued), fallbacks=list(self.fallbacks),
            stalled={k: dict(v) for k, v in self.stalled.items()},
            cache_hits={k: dict(v) for k, v in self.cache_hits.items()}, coexec_gate=dict(self._coexec_gate),
            caches=self.memtiming.caches.contents() if self.memtiming.caches is not None else [],
            races=tuple(None if det is None else (len(det.accesses), det.epoch, len(det.releases), det.recorded)
                        for det in (self.lds_races, self.global_races)),
            races_reported=self._races_reported,
            hwregs=[dict(_HWREGS.get(id(w.state), {})) for w in self.waves])

    def restore(self, snap: EngineSnapshot) -> None:
        """Put the machine back to a snapshot's cycle (arrays are copied in place, so views
        held by callers, e.g. `Simulation.wave(i)`, see the restored values)."""
        self.cycle, self._next, self._seq = snap.cycle, snap.next, snap.seq
        self.events = list(snap.events)
        for w, saved, (arrays, scc, pc, done) in zip(self.waves, snap.waves, snap.wave_arrays):
            state = w.state
            restored = saved.copy()
            for name in WaveRuntime.__slots__:
                setattr(w, name, getattr(restored, name))
            w.state = state
            if arrays is not None:
                for name, arr in zip(_WAVE_ARRAYS, arrays):
                    getattr(state, name)[...] = arr
            state.scc, state.pc, state.done = scc, pc, done
        if snap.registers is not None:  # (made while the waves' arrays were views of these files)
            self.files.restore(snap.registers)
        for w, regs in zip(self.waves, snap.hwregs or ()):
            if id(w.state) in _HWREGS:  # (an entry exists once the wave wrote one; its finalizer drops it)
                _HWREGS[id(w.state)].clear()
                _HWREGS[id(w.state)].update(regs)
        for b, data in zip(self.memory.buffers, snap.memory or ()):  # None: the caller restores memory
            b.data[...] = data
        self.lds.data[...] = snap.lds
        self.pipe_free, self.pipe_owner, self.pipe_use = dict(snap.pipe_free), dict(snap.pipe_owner), dict(snap.pipe_use)
        self.lds_last = snap.lds_last
        del self.records[snap.records:]
        del self.pipe_log[snap.pipe_log:]
        del self.hazards[snap.hazards:]
        del self.notes[snap.notes:]
        self.executed, self._dma = snap.executed, list(snap.dma)
        self.halt_reason, self.finished, self.flops = snap.halt_reason, snap.finished, snap.flops
        self.issued[:] = snap.issued
        if snap.fallbacks is not None:
            self.fallbacks[:] = snap.fallbacks
        self.stalled = {k: dict(v) for k, v in snap.stalled.items()}
        self.cache_hits = {k: dict(v) for k, v in snap.cache_hits.items()}
        self._coexec_gate = dict(snap.coexec_gate)
        if self.memtiming.caches is not None and snap.caches:
            self.memtiming.caches.restore(snap.caches)
        for det, saved in zip((self.lds_races, self.global_races), snap.races or (None, None)):
            if det is not None and saved is not None:  # forget accesses of the undone cycles
                n, epoch, releases, recorded = saved
                del det.accesses[n:], det.releases[releases:]
                det.epoch, det.recorded = epoch, recorded
        self._races_reported = snap.races_reported
        if self.monitor is not None and snap.monitor is not None:
            if hasattr(self.monitor, "restore"):
                self.monitor.restore(snap.monitor)
            else:
                self.monitor.waves = copy.deepcopy(snap.monitor)

    def _monitor_state(self):
        m = self.monitor
        if m is None:
            return None
        if hasattr(m, "snapshot"):
            return m.snapshot()
        return copy.deepcopy(getattr(m, "waves", None))

    # ================================================================ events
    def _push(self, cycle: int, wave: int, kind: int, payload) -> None:
        self._seq += 1
        heapq.heappush(self.events, (cycle, self._seq, wave, kind, payload))

    def _land_until(self, now: int) -> None:
        events = self.events
        pop = heapq.heappop
        waves = self.waves
        apply = self._apply
        while events and events[0][0] <= now:
            cycle, _, wi, kind, payload = pop(events)
            w = waves[wi]
            if kind == 0:  # register writes of one instruction
                writes, seq = payload
                for wr in writes:
                    apply(w, wr, seq)
            else:  # a memory operation performed now
                memop, index, issue, seq = payload
                race = None
                if self._dma and getattr(memop, "pieces", None) is not None and getattr(memop, "dst_file", None):
                    race = self._check_lds_race(wi, index, issue, memop, cycle)
                if getattr(memop, "wants_clock", False):  # s_memtime: the counter when it completes
                    memop.clock = cycle
                try:
                    writes = memop.perform(self.memory, self.lds)
                except MemoryError_ as e:
                    e.instruction = index  # faults surface at completion: name the issuing instruction
                    e.wave = wi
                    raise
                if race is not None:  # the stale value read: what the old bytes put in the registers
                    race.values = {f"{wr.file}{wr.index + k}": np.array(wr.values[k], copy=True)
                                   for wr in writes if wr.file in ("v", "a") for k in range(len(wr.values))}
                for wr in writes:
                    apply(w, wr, seq)
        if self._dma and self._dma[0][1] <= now:
            self._dma = [d for d in self._dma if d[1] > now]

    def _apply(self, w: WaveRuntime, wr: RegWrite, seq: int) -> None:
        st = w.state
        f = wr.file
        pend = w.pending
        if f == "v" or f == "a":
            if f == "v":
                arr, init = st.vgpr, st.vgpr_init
            else:
                arr, init = st.agpr, st.agpr_init
            values = wr.values
            n = len(values)
            lo = wr.index
            mask = wr.mask
            if mask is None or wr.full:  # every lane written: no merge
                if n == 1:  # measured cheapest: the one-row array broadcast, the init row filled
                    arr[lo] = values
                    init[lo].fill(True)
                else:
                    arr[lo:lo + n] = values
                    init[lo:lo + n] = True
            else:
                # One wave's rows: copyto(where=) costs 4.4 us here, the xor-blend of sim/masked.py
                # 15 us (three numpy calls plus the bool -> word mask). The blend wins on the
                # functional engine's (waves, 64) blocks (0.14 ms vs 0.88 ms over (1024, 64)), so
                # each engine keeps the form that is faster at its shape.
                np.copyto(arr[lo:lo + n], values, where=mask[None, :])
                init[lo:lo + n] |= mask[None, :]
        elif f == "s":
            values = wr.values
            lo = wr.index
            n = len(values)
            if n == 1:  # WaveState.set_sgpr, inline (an element is cheaper than a one-element slice)
                st.sgpr[lo] = values[0]
                st.sgpr_init[lo] = True
            else:
                st.sgpr[lo:lo + n] = values
                st.sgpr_init[lo:lo + n] = True
        elif f == "scc":
            st.scc = int(wr.values[0])
            p = pend.get(_SCC_KEY)
            if p is not None and p.seq == seq:
                del pend[_SCC_KEY]
            return
        else:
            return
        if pend:  # the registers' pending entries end here unless a younger write owns them
            if n == 1:
                key = (f, lo)
                p = pend.get(key)
                if p is not None and p.seq == seq:
                    del pend[key]
                return
            for k in range(lo, lo + n):
                key = (f, k)
                p = pend.get(key)
                if p is not None and p.seq == seq:
                    del pend[key]

    # ================================================================ issue
    def _turn(self, w: WaveRuntime, t: int) -> int:
        """First issue turn of the wave's SIMD at or after cycle t."""
        iv = self.interval
        if iv == 1:
            return t
        return t + (w.simd - t) % iv

    def _issue_turn(self, now: int) -> None:
        """Several waves: per SIMD, one instruction per category per turn, by (priority, age)."""
        ready = [w for w in self.waves if w.ready_at <= now and not w.at_barrier and not w.state.done]
        if not ready:
            return
        if len(ready) > 1:
            for w in ready:  # waves are kept in wave-id order: with equal priorities, already sorted
                if w.priority != ready[0].priority:
                    ready.sort(key=lambda w: (-w.priority, w.wid))
                    break
        if self._own_simd:  # one wave per SIMD: no two waves compete for a SIMD's issue category
            try_issue = self._try_issue
            for w in ready:
                try_issue(w, now)
            return
        used: set = set()
        decoded = self.decoded
        n = len(decoded)
        if self.coissue.mfma_first and len(ready) > 1:
            # a ready MFMA wins its SIMD's VALU turn over another wave's VALU op (isa.coissue:
            # pyhip's inter-wave figures are the same whichever wave is older); stable, so
            # priority and age order stay otherwise
            ready.sort(key=lambda w: (-w.priority, not (w.state.pc < n and decoded[w.state.pc].pipe == "mfma")))
        for w in ready:
            pc = w.state.pc
            cat = decoded[pc].category if pc < n else "internal"
            if cat != "internal" and (w.simd, cat) in used:
                if w.first_try is None:
                    w.first_try = now
                self._stall(w, now + 1, "pipe busy", now)
                continue
            if self._try_issue(w, now) and cat != "internal":
                used.add((w.simd, cat))

    def _stall(self, w: WaveRuntime, until: int, reason: str, now: int) -> bool:
        t = self._turn(w, until if until > now else now + 1)
        w.stalls[reason] = w.stalls.get(reason, 0) + (t - now)
        w.stall_reason = reason
        w.ready_at = t
        return False

    def _planned_done(self, w, st, pc: int, now: int, complete: int, branch_to: int | None) -> bool:
        """The end of a planned issue, on the fixed-timing and the general path alike: move the PC
        (a taken branch holds the wave for the branch latency) and record the issue."""
        if branch_to is not None:
            st.pc = branch_to
            w.hold_until, w.hold_reason = now + self.lat.branch, "branch"
        else:
            st.pc = pc + 1
        self._record(w, pc, now, complete, 1)
        return True

    def _try_issue(self, w: WaveRuntime, now: int) -> bool:
        """Issue the wave's next instruction at `now` if nothing holds it; True if it issued."""
        st = w.state
        pc = st.pc
        decoded = self.decoded
        if pc >= len(decoded):
            e = SimError("execution ran past the last instruction without s_endpgm")
            if decoded:  # point at the last instruction: the one that should have been s_endpgm
                e.instruction = len(decoded) - 1
            raise e
        d = decoded[pc]
        if w.first_try is None:
            w.first_try = now
        if w.hold_until > now:
            return self._stall(w, w.hold_until, w.hold_reason, now)
        indexed = None  # the instruction as VGPR indexing mode relocates its operands
        if _HWREGS:
            regs = _HWREGS.get(id(st))
            if regs is not None and regs.get(_MODE_HWREG, 0) & GPR_IDX_EN and not d.internal:
                m0 = w.pending.get(("s", _M0_SLOT))  # the index must have landed before it relocates
                if m0 is not None and m0.interlocked and m0.land > now:
                    return self._stall(w, m0.land, "dependency", now)
                try:
                    indexed = self._gpr_indexed(st, pc, d)
                except SimError as e:
                    e.instruction = pc
                    raise
        fast = self._fast[pc] if indexed is None else None
        if fast is _UNPLANNED:
            fast = self._fast[pc] = self._fast_entry(pc, d)
        if fast is not None:
            # a planned instruction with fixed timing (_fast_entry): no decode error, not an
            # engine op, no counter, so only its pipe can hold it before the plan runs
            key = self._pipe_keys[w.simd][pc]
            free = self.pipe_free.get(key, 0)
            if free > now:
                return self._stall(w, free, self._busy_reason(key, free), now)
            plan, latency, busy = fast
            out = plan(st)
            if out is not None:  # (None: a source never written; the general path notes it)
                writes, reads, branch_to = out
                if w.interlock_until > now or w.async_until > now:
                    if not self._check_reads(w, reads, pc, now):
                        return False
                self._issue_fixed(w, st, d, writes, branch_to, key, now, latency, busy)
                return True
        if d.error is not None:
            raise SimError(d.error)
        pipe = d.pipe
        if d.internal:
            if pipe == "waitcnt":
                until, which = now, ""
                for counter, limit in d.wait.items():
                    r = w.counters.release(counter, limit, now)
                    if r > until:
                        until, which = r, counter
                if until > now:
                    return self._stall(w, until, "waitcnt " + COUNTER_NAMES[which], now)
                self._retire(w, d, now, now + 1)
                return True
            return self._engine_op(w, d, now)
        # the pipe and the counters must have room
        key = self._pipe_keys[w.simd][pc]
        free = self.pipe_free.get(key, 0)
        if free > now:
            return self._stall(w, free, self._busy_reason(key, free), now)
        if pipe == "mfma" or d.packed_fp32:
            gate = self._matrix_gate(w, d, now)
            if gate > now:
                return self._stall(w, gate, "co-issue conflict", now)
        if d.counters:
            for counter in d.counters:
                f = w.counters.full_until(counter, now)
                if f > now:
                    return self._stall(w, f, "counter full", now)
        sem = d.sem
        plan = self._plans[pc] if indexed is None else None
        if plan is _UNPLANNED:
            plan = self._plans[pc] = self._plan(pc, sem)
        if plan is not None and fast is None:  # (a fast entry's plan has just returned None)
            out = plan(st)
            if out is not None:  # (None: a source never written; the general path notes it)
                writes, reads, branch_to = out[0], out[1], out[2]
                if w.interlock_until > now or w.async_until > now:
                    if not self._check_reads(w, reads, pc, now):
                        return False
                if len(out) > 3:  # a memory plan: its operations and LDS bank conflicts
                    complete = self._schedule(w, d, writes, out[3], None, key, now, out[4])
                else:
                    complete = self._schedule(w, d, writes, (), None, key, now)
                return self._planned_done(w, st, pc, now, complete, branch_to)
        if sem is None:
            if not self.allow_unmodelled:
                raise SimError(f"instruction not modelled yet: {d.mnemonic}")
            if d.mnemonic not in self._unmodelled_noted:
                self._unmodelled_noted.add(d.mnemonic)
                self.notes.append((w.wid, EngineNote(self.kernel.instructions[pc].span,
                                                     f"{d.mnemonic} has no semantics yet: timed from its pipe, "
                                                     f"registers and memory left unchanged")))
            ctx = None
        else:
            if indexed is None:
                ins = self._instructions[pc]
                tpl = self._ctx_templates[pc]
                if tpl is None:
                    tpl = self._ctx_templates[pc] = self._ctx_template(ins)
                ctx = Ctx.at_issue(st, tpl)
            else:  # this issue's relocated operands; M0 read as the index (a pending M0 write holds it)
                ins = indexed
                ctx = Ctx.at_issue(st, self._ctx_template(ins))
                ctx.reads.append(("s", _M0_SLOT))
            try:
                sem(ctx, ins)
            except SimError as e:  # name the instruction: another wave's PC may be elsewhere
                if getattr(e, "instruction", None) is None:
                    e.instruction = pc
                raise
            if w.interlock_until > now or w.async_until > now:
                if not self._check_reads(w, ctx.reads, pc, now):
                    return False
        if ctx is None:
            complete = self._schedule(w, d, None, (), None, key, now)
        else:
            complete = self._schedule(w, d, ctx.writes, ctx.memops, ctx, key, now)
        if ctx is not None:
            if ctx.notes:
                span = self.kernel.instructions[pc].span
                self.notes.extend((w.wid, EngineNote(span, n)) for n in ctx.notes)
            if ctx.branch_to is not None:
                st.pc = ctx.branch_to
                w.hold_until, w.hold_reason = now + self.lat.branch, "branch"
            else:
                st.pc = pc + 1
        else:
            st.pc = pc + 1
        self.fallbacks[pc] += 1
        self._record(w, pc, now, complete, 1)
        return True

    def _stretch_at(self, pc: int) -> int:
        """How many instructions from `pc` on a run (_run_alu) can issue before the program's
        order reaches one it cannot (counted once per instruction; a branch ends the count).
        Why: a run costs its set-up and, at its end, turning its writes into events; for one or
        two instructions between loads and waits that is more than the per-instruction path
        costs (measured on the benchmark's memory loop), so shorter stretches are not run."""
        decoded = self.decoded
        fast = self._fast
        k = pc
        while k < len(decoded):
            f = fast[k]
            if f is _UNPLANNED:
                f = fast[k] = self._fast_entry(k, decoded[k])
            if f is None or not decoded[k].interlocked:
                break
            k += 1
            if decoded[k - 1].pipe == "branch":
                break
        # every instruction the scan passed starts a stretch ending at the same place: count them
        # all now, so a long straight-line block is scanned once, not once per run started in it
        # (a 10,000-line block spent 1.0 s of a 2.2 s timeline rescanning)
        stretch = self._stretch
        for j in range(pc, k):
            stretch[j] = k - j
        if k == pc:
            stretch[pc] = -1  # (-1: none, counted)
        return stretch[pc]

    def _run_alu(self, w: WaveRuntime, now: int) -> tuple[int, bool]:
        """Issue the wave's instructions from cycle `now` on while they are planned fixed-timing
        ALU instructions (`_fast_entry`) and nothing else is in flight, as the one-wave loop of
        `_run_one_wave` with `_try_issue` would, try by try; return (the cycle of the last try,
        whether that try is still to be made by `_try_issue`).

        Why: in an ALU loop each issue went through the run loop, `_try_issue`, a Pending object
        per write shared by its registers, the event heap and `_land_until`, about half of the
        engine's cost per instruction. With one wave, the writes this run makes are kept here as
        (land, seq, writes) and their registers' landing cycles in a dict that mirrors the Pending
        entries insert for insert and delete for delete. What was in flight before the run (memory
        operations, MFMA results, unplanned ALU writes) lands through `_land_until` as usual and
        holds the run's readers by its Pending entries; an instruction that writes a register one
        of them still holds (the general path orders the writes and checks write-after-write) or
        reads one the hardware does not wait for (a hazard to report) leaves the run.
        When the run stops (an instruction that is not a fixed-timing ALU op, a plan that
        declines, a limit, an error), the writes still in flight become the events and Pending
        entries the general path would have made, in the same order: every state after the run
        is the one the per-instruction loop leaves. The records, stalls, pipe bookkeeping and the
        monitor go through the same `_record` and `_stall`."""
        st = w.state
        if _HWREGS and _HWREGS.get(id(st)) is not None:  # (s_setreg or VGPR indexing: the general checks)
            self.alu_runs[2] += 1
            return now, True
        decoded = self.decoded
        fast = self._fast
        n = len(decoded)
        keys = self._pipe_keys[w.simd]
        pipe_free = self.pipe_free
        pipe_use = self.pipe_use
        pipe_owner = self.pipe_owner
        log = self.pipe_log if self.keep_history else None
        record = self._record
        stall = self._stall
        apply = self._apply
        pop = heapq.heappop
        push = heapq.heappush
        branch = self.lat.branch
        max_cycles = self.max_cycles
        wid = w.wid
        simd = w.simd
        vgpr, vinit, sgpr, sinit = st.vgpr, st.vgpr_init, st.sgpr, st.sgpr_init
        history = self.keep_history
        counts = self.issued
        records = self.records
        monitor = self.monitor
        iv = self.interval
        keys_of = self._write_keys  # (file, index, count) of a write -> the registers it writes
        flight: list = []  # heap of (land, seq, writes, registers, index, pipe): writes this run made
        lands: dict = {}  # register -> (land, seq): the Pending entries the general path would hold
        t = now
        issued = 0
        untried = True
        events = self.events
        pend = w.pending
        land_until = self._land_until
        comp = self._compiled
        if comp is None and self.compiled_alu is not False:
            run = alu_compiled.kernels(self)
            if run is not None:
                comp = self._compiled = alu_compiled.CompiledALU(self, run)
        try:
            while True:
                # the start of the try's cycle: _land_until(t), also when the general path makes it
                # (what was in flight before the run first: no register of it is one this run wrote)
                if events and events[0][0] <= t:
                    land_until(t)
                while flight and flight[0][0] <= t:
                    _, seq, writes, regs, _, _ = pop(flight)
                    for wr in writes:  # _apply's common cases inline (no Pending entry to drop here)
                        fl = wr.file
                        values = wr.values
                        if len(values) != 1:
                            apply(w, wr, seq)
                        elif fl == "v":
                            if wr.mask is None or wr.full:
                                vgpr[wr.index] = values
                                vinit[wr.index].fill(True)
                            else:
                                apply(w, wr, seq)
                        elif fl == "s":
                            sgpr[wr.index] = values[0]
                            sinit[wr.index] = True
                        elif fl == "scc":
                            st.scc = int(values[0])
                        else:
                            apply(w, wr, seq)
                    for reg in regs:
                        e = lands.get(reg)
                        if e is not None and e[1] == seq:
                            del lands[reg]
                pc = st.pc
                if pc >= n:
                    break
                if comp is not None and not pend and comp.has_row(pc, w) and comp.worth(pc, w):
                    out = comp.run_one(w, t, flight, lands)
                    if out is not None:  # the compiled loop issued from t on (sim.alu_compiled)
                        t, code, k = out
                        issued += k
                        if code == _X_LIMIT:
                            untried = False
                            break
                        if code != _X_NO_ROW and code != _X_DECLINE or st.pc < n and comp.known[st.pc] is None:
                            continue  # an event due, its buffers full, or a row to build: again
                        pc = st.pc  # the try at t is this loop's
                        if pc >= n:
                            break
                f = fast[pc]
                if f is _UNPLANNED:
                    f = fast[pc] = self._fast_entry(pc, decoded[pc])
                if f is None:
                    break
                d = decoded[pc]
                if not d.interlocked:
                    break
                if w.first_try is None:
                    w.first_try = t
                if w.hold_until > t:
                    stall(w, w.hold_until, w.hold_reason, t)
                else:
                    key = keys[pc]
                    free = pipe_free.get(key, 0)
                    if free > t:
                        stall(w, free, self._busy_reason(key, free), t)
                    else:
                        plan, latency, busy = f
                        out = plan(st)
                        if out is None:  # a source never written: the general path notes it
                            break
                        writes, reads, branch_to = out
                        wait = t
                        if pend:  # writes in flight from before the run
                            if any(reg in pend for reg in _write_keys(writes)):
                                break  # written again while in flight: the general path keeps the Pending order
                            racy = False
                            for reg in reads:
                                p = pend.get(reg)
                                if p is not None and p.land > t:
                                    if not p.interlocked:
                                        racy = True  # a hazard to report: the general path's _check_reads
                                    elif p.land > wait:
                                        wait = p.land
                            if racy:
                                break
                        if lands:
                            for reg in reads:
                                e = lands.get(reg)
                                if e is not None and e[0] > wait:
                                    wait = e[0]
                        if wait > t:
                            stall(w, wait, "dependency", t)
                        else:  # _issue_fixed with the writes kept here
                            complete = t + latency
                            index = d.index
                            if busy:
                                end = t + busy
                                pipe_free[key] = end
                                pipe_use[key] = pipe_use.get(key, 0) + busy
                                use = (d.pipe, simd if d.simd_pipe else None, wid, index, t, end)
                                pipe_owner[key] = use
                                if log is not None:
                                    log.append(use)
                            seq = self._seq = self._seq + 1
                            if writes:
                                wr = writes[0]
                                if len(writes) == 1:
                                    span = (wr.file, wr.index, len(wr.values))
                                elif len(writes) == 2:  # (a scalar result and SCC)
                                    w2 = writes[1]
                                    span = (wr.file, wr.index, len(wr.values), w2.file, w2.index, len(w2.values))
                                else:
                                    span = None
                                regs = keys_of.get(span) if span is not None else None
                                if regs is None:
                                    regs = _write_keys(writes)
                                    if span is not None:
                                        keys_of[span] = regs
                                if w.interlock_until > complete:  # _in_order
                                    for reg in regs:
                                        e = lands.get(reg)
                                        if e is not None and e[0] > complete:
                                            complete = e[0]
                                entry = (complete, seq)
                                for reg in regs:
                                    lands[reg] = entry
                                push(flight, (complete, seq, writes, regs, index, d.pipe))
                            if complete > w.interlock_until:
                                w.interlock_until = complete
                            if branch_to is not None:
                                st.pc = branch_to
                                w.hold_until, w.hold_reason = t + branch, "branch"
                            else:
                                st.pc = index + 1
                            if w.stalls:
                                record(w, index, t, complete, 1)
                            else:  # _record without stalls to fold, inline
                                counts[index] += 1
                                ft = w.first_try
                                records.append(IssueRecord(wid, index, t if ft is None else ft, t, complete, _EMPTY,
                                                           w.slots))
                                if not history and len(records) > 2 * RECENT_HISTORY:
                                    del records[:-RECENT_HISTORY]
                                if monitor is not None:
                                    found = monitor.on_issue(wid, index, t, complete)
                                    if found:
                                        self._merge_monitor(found, wid, index, t)
                                w.slots += 1
                                w.first_try = None
                                w.instructions += 1
                                self.executed += 1
                                w.ready_at = t + 1 if iv == 1 else t + 1 + (simd - t - 1) % iv
                            issued += 1
                untried = False
                nxt = w.ready_at
                if nxt > max_cycles or self.executed >= self._check_at:
                    break
                t = nxt
                untried = True
        finally:
            if flight:  # the writes still in flight: events and Pending entries, as _issue_fixed makes them
                made = {}
                events = self.events
                for complete, seq, writes, regs, index, pipe in sorted(flight, key=_SEQ):
                    made[seq] = Pending(complete, True, index, seq, pipe)
                    push(events, (complete, seq, wid, 0, (writes, seq)))
                pend = w.pending
                for reg, (_, seq) in lands.items():
                    pend[reg] = made[seq]
            if comp is None:
                alu_compiled.note_issued(issued)
            runs = self.alu_runs
            if issued:
                runs[0] += 1
                runs[1] += issued
            else:
                runs[2] += 1
        return t, untried

    def _gpr_indexed(self, st: WaveState, pc: int, d: Decoded) -> Instruction | None:
        """Instruction `pc` as VGPR indexing mode (s_set_gpr_idx_on, see semantics.gpr_idx) has
        it read and write registers, or None when the mode relocates none of its operands (then
        it issues as usual: plans and all)."""
        ins = self._instructions[pc]
        n_dst = _static_facts(ins.mnemonic)[4]
        moved = indexed_instruction(ins, n_dst, int(st.sgpr[_M0_SLOT]), d.pipe in _INDEXED_PIPES, self.vgpr_limit)
        return None if moved is ins else moved

    def _busy_reason(self, key, free: int) -> str:
        """Why a pipe key is not free: an MFMA's co-execution gate on the VALU, or plain occupancy."""
        return "co-issue conflict" if self._coexec_gate.get(key) == free else "pipe busy"

    def _matrix_gate(self, w: WaveRuntime, d: Decoded, now: int) -> int:
        """The first cycle the VALU/matrix-core sharing rules (isa.coissue) let `d` issue: an MFMA
        waits for the SIMD's VALU to be idle (a transcendental holds it 16 cycles); a packed FP32
        op waits until the matrix core has been idle `packed_fp32_gap` cycles."""
        if d.pipe == "mfma":
            return self.pipe_free.get(("valu", w.simd), 0)
        gap = self.coissue.packed_fp32_gap
        if gap is None:
            return now
        end = self.pipe_free.get(("mfma", w.simd), 0)
        return end + gap if end > 0 else now

    def _plan(self, pc: int, sem) -> "Callable | None":
        """The issue plan of instruction `pc` (None: the general path), see gcnemu.sim.plans:
        from the kernel's shared cache when compiled there from this instruction and function."""
        ins = self._instructions[pc]
        nvgpr = len(self.waves[0].state.vgpr)
        # the facts a plan is compiled from, as they are now (a caller may set float_mode after
        # the engine is made): plans compiled for this kernel by another engine with the same
        # facts (another workgroup of a grid run) are reused
        cache = shared_plans(self.kernel, (nvgpr, self.float_mode, self._ctx_target, self._lds_bytes))
        hit = cache.get(pc)
        if hit is not None and hit[0] is ins and hit[1] is sem:
            return hit[2]
        plan = make_plan(ins, sem, nvgpr, self._labels, self.float_mode, target=self._ctx_target,
                         lds_size=self._lds_bytes)
        cache[pc] = (ins, sem, plan)
        return plan

    def _ctx_template(self, ins: Instruction) -> dict:
        """The static attributes of the Ctx of `ins` (Ctx.issue_template), made at its first issue."""
        extra = {"sramecc": self.sramecc} if self.sramecc is not None else {}
        extra.update(code_facts(self.kernel, ins))
        return Ctx.issue_template(ins, self._labels, self._lds_bytes, self._ctx_target,
                                  self.float_mode, **extra)

    def _check_reads(self, w: WaveRuntime, reads: list, pc: int, now: int) -> bool:
        """Interlocks stall (False); reads of non-interlocked writes in flight raise hazards."""
        pend = w.pending
        wait_until = now
        racy: dict[int, list] = {}
        for reg in reads:
            p = pend.get(reg)
            if p is not None and p.land > now:
                if p.interlocked:
                    if p.land > wait_until:
                        wait_until = p.land
                else:
                    lst = racy.setdefault(p.index, [])
                    if reg not in lst:
                        lst.append(reg)
        if wait_until > now:
            self._stall(w, wait_until, "dependency", now)
            return False
        for producer, regs in racy.items():
            p = pend[regs[0]]
            self._hazard_read(w, now, pc, producer, regs, p)
        return True

    def _engine_op(self, w: WaveRuntime, d: Decoded, now: int) -> bool:
        """Instructions the engine handles itself: they use no functional unit."""
        pipe = d.pipe
        iv = self.interval
        if pipe == "nop":
            # S_NOP repeats SIMM16[3:0] + 1 times (1..16 wait states; CDNA ISA guides): the
            # hardware ignores the upper bits, so `s_nop 16` is one wait state, not seventeen
            slots = (d.count & 0xF) + 1
            self._retire(w, d, now, now + slots * iv, slots)
            w.hold_until, w.hold_reason = now + slots * iv, "nop"
        elif pipe == "sleep":
            cycles = max(d.count & 0x7F, 0) * self.lat.sleep
            self._retire(w, d, now, now + max(cycles, 1))
            if cycles:
                w.hold_until, w.hold_reason = now + cycles, "sleep"
        elif pipe == "setprio":
            w.priority = d.count & 3
            self._retire(w, d, now, now + 1)
        elif pipe == "endpgm":
            self._retire(w, d, now, now + 1)
            w.state.done = True
            w.end_cycle = now + 1
        elif pipe == "barrier":
            w.at_barrier = True
            if len(self.waves) == 1:
                self._release_barrier(now)
        return True

    def _retire(self, w: WaveRuntime, d: Decoded, now: int, complete: int, slots: int = 1) -> None:
        w.state.pc = d.index + 1
        self._record(w, d.index, now, complete, slots)

    def _record(self, w: WaveRuntime, index: int, now: int, complete: int, slots: int) -> None:
        stalls = w.stalls
        self.issued[index] += 1
        if stalls:
            tot = w.stall_totals
            for k, v in stalls.items():
                tot[k] = tot.get(k, 0) + v
            at = self.stalled.get(index)
            if at is None:
                self.stalled[index] = dict(stalls)
            else:
                for k, v in stalls.items():
                    at[k] = at.get(k, 0) + v
            w.stalls = {}
        else:
            stalls = _EMPTY
        ready = w.first_try if w.first_try is not None else now
        records = self.records
        records.append(IssueRecord(w.wid, index, ready, now, complete, stalls, w.slots))
        if not self.keep_history and len(records) > 2 * RECENT_HISTORY:
            del records[:-RECENT_HISTORY]  # only the newest: where a stopped run was looping
        if self.monitor is not None:
            found = self.monitor.on_issue(w.wid, index, now, complete)
            if found:  # usually nothing: no merge pass over the hazards then
                self._merge_monitor(found, w.wid, index, now)
        w.slots += slots
        w.first_try = None
        w.instructions += 1
        self.executed += 1
        iv = self.interval  # the wave's next issue turn (_turn, inline)
        w.ready_at = now + 1 if iv == 1 else now + 1 + (w.simd - now - 1) % iv

    def _release_barrier(self, now: int) -> None:
        live = [w for w in self.waves if not w.state.done]
        if not live or not all(w.at_barrier for w in live):
            return
        for w in live:
            self._check_barrier_lds(w, now)
        if self.lds_races is not None:
            self.lds_races.barrier(now)
        if self.global_races is not None:
            self.global_races.barrier(now)
        done_at = now + self.lat.barrier
        for w in live:
            w.at_barrier = False
            start = w.first_try if w.first_try is not None else now
            if now > start:
                w.stalls["barrier"] = w.stalls.get("barrier", 0) + (now - start)
            d = self.decoded[w.state.pc]
            self._retire(w, d, now, done_at)
            w.hold_until, w.hold_reason = done_at, "barrier"

    # ================================================================ completion times
    def _fast_entry(self, pc: int, d: Decoded) -> "tuple[Callable, int, int] | None":
        """(plan, latency, pipe busy cycles) of instruction `pc` when `_try_issue` can take its
        fast path: a plan (compiled here, as the general path would) and fixed timing, no decode
        error, no engine op. Why: those facts are static, so the per-issue checks of the general
        path (error, engine op, counters, plan compiled?, pipe dispatch) are decided once."""
        if d.error is not None or d.internal or d.packed_fp32:  # (packed FP32: the matrix-core gate)
            return None
        plan = self._plans[pc]
        if plan is _UNPLANNED:
            plan = self._plans[pc] = self._plan(pc, d.sem)
        if plan is None:
            return None
        fixed = self._fixed_timing(d)
        if fixed is None:
            return None
        return plan, fixed[0], fixed[1]

    def _fixed_timing(self, d: Decoded) -> "tuple[int, int] | None":
        """(latency, pipe busy cycles) of an instruction whose timing `_schedule` decides from
        its pipe alone (SALU, VALU, branch, message: no memory, no counter, no FLOPs), else
        None. Why: a planned issue then skips `_schedule`'s pipe dispatch (see _issue_fixed)."""
        if d.counters:
            return None
        lat = self.lat
        pipe = d.pipe
        if pipe == "valu":
            return lat.valu, lat.valu
        if pipe == "salu" or pipe == "branch" or pipe == "msg":
            return lat.salu, 0
        if pipe == "trans":
            return lat.valu_trans, lat.valu_trans
        if pipe == "dp":
            return lat.valu_dp, lat.valu_dp
        return None

    def _issue_fixed(self, w: WaveRuntime, st, d: Decoded, writes: list, branch_to: int | None, key, now: int,
                     latency: int, busy: int) -> None:
        """The issue of a planned instruction with fixed timing (`_fixed_timing`), once its plan
        has run and its reads were checked: `_schedule`'s pipe occupancy, Pending entries, write
        event and interlock bookkeeping without the memory and counter cases that cannot apply,
        then `_planned_done`'s PC move (a taken branch holds the wave for the branch latency)
        and the issue record, in that order.

        Why: SALU/VALU instructions are most of what a loop issues; `_schedule`'s dispatch was
        once the engine's top cost for them, and the separate schedule and PC-move calls with
        their repeated attribute loads a further share, so this is one call."""
        complete = now + latency
        if writes and w.interlock_until > complete and d.interlocked:
            complete = self._in_order(w, writes, complete)
        index = d.index
        if busy:
            end = now + busy
            self.pipe_free[key] = end
            pipe_use = self.pipe_use
            pipe_use[key] = pipe_use.get(key, 0) + busy
            use = (d.pipe, w.simd if d.simd_pipe else None, w.wid, index, now, end)
            self.pipe_owner[key] = use
            if self.keep_history:
                self.pipe_log.append(use)
        seq = self._seq = self._seq + 1
        interlocked = d.interlocked
        if writes:
            p = Pending(complete, interlocked, index, seq, d.pipe)
            pend = w.pending
            if w.async_until > now:  # a non-interlocked write in flight: the general path checks WAW
                for wr in writes:
                    f = wr.file
                    if f == "scc":
                        self._check_overwrite(w, _SCC_KEY, complete, index, now)
                        pend[_SCC_KEY] = p
                        continue
                    for k in range(wr.index, wr.index + len(wr.values)):
                        reg = (f, k)
                        self._check_overwrite(w, reg, complete, index, now)
                        pend[reg] = p
            else:
                for wr in writes:
                    f = wr.file
                    if f == "scc":
                        pend[_SCC_KEY] = p
                        continue
                    lo = wr.index
                    n = len(wr.values)
                    if n == 1:
                        pend[(f, lo)] = p
                    else:
                        for k in range(lo, lo + n):
                            pend[(f, k)] = p
            heapq.heappush(self.events, (complete, seq, w.wid, 0, (writes, seq)))
            if interlocked:
                if complete > w.interlock_until:
                    w.interlock_until = complete
            elif complete > w.async_until:
                w.async_until = complete
        elif interlocked and complete > w.interlock_until:
            w.interlock_until = complete
        if branch_to is not None:  # _planned_done, inline (one call fewer per planned issue)
            st.pc = branch_to
            w.hold_until, w.hold_reason = now + self.lat.branch, "branch"
        else:
            st.pc = index + 1
        self._record(w, index, now, complete, 1)

    @staticmethod
    def _in_order(w: WaveRuntime, writes: list, complete: int) -> int:
        """When an interlocked result (VALU, transcendental, f64, SALU) may land: not before an
        older interlocked write of the same register still in flight, so the younger value is
        the one left (events of one cycle apply in issue order).

        Why: ALU results are written back in program order on CDNA. LLVM's GCNHazardRecognizer
        has a transcendental rule only for a read (checkVALUHazards: TransDefWaitstates = 1 on
        gfx940+, `hasTransForwardingHazard`, matched against the next VALU's explicit uses) and
        none for an overwrite, and the ISA guides' 'Manually Inserted Wait States' tables list no
        trans/VALU write-after-write row: a `v_sqrt_f32 v10` followed by `v_mov_b32 v10` leaves
        the v_mov's value, as the functional engine computes (issue 25 item 1). The shared VALU
        (isa.coissue) already keeps most later writes after a transcendental's; this keeps the
        order whatever the latencies (`--latency`, calibration) make of it."""
        pend = w.pending
        for wr in writes:
            f = wr.file
            keys = (_SCC_KEY,) if f == "scc" else [(f, k) for k in range(wr.index, wr.index + len(wr.values))]
            for key in keys:
                p = pend.get(key)
                if p is not None and p.interlocked and p.land > complete:
                    complete = p.land
        return complete

    def _schedule(self, w: WaveRuntime, d: Decoded, writes: list | None, memops, ctx: Ctx | None, key,
                  now: int, conflicts: int = 0) -> int:
        """Decide when the instruction's effects land; occupy its pipe; count it. `writes` and
        `memops` are the effects (writes None: an unmodelled instruction, timed only); `ctx`
        is the Ctx of the general path, read for LDS bank conflicts (None for a plan, which
        gives its `conflicts`)."""
        lat = self.lat
        pipe = d.pipe
        busy = 0
        if pipe == "valu":
            complete = now + lat.valu
            busy = lat.valu
        elif pipe == "mfma":
            busy = d.passes * lat.mfma_pass
            complete = now + busy
            self.flops += d.flops
            # a VALU op of this SIMD may issue `coexec` cycles later (the whole busy time when
            # the MFMA cannot co-execute): isa.coissue, from the Matrix Instruction Calculator
            gate = now + (busy if d.coexec < 0 else min(d.coexec, busy))
            vkey = ("valu", w.simd)
            if gate > self.pipe_free.get(vkey, 0):
                self.pipe_free[vkey] = gate
                self._coexec_gate[vkey] = gate
        elif pipe == "salu" or pipe == "branch" or pipe == "msg":
            complete = now + lat.salu
        elif pipe == "trans":
            complete = now + lat.valu_trans
            busy = lat.valu_trans
        elif pipe == "dp":
            complete = now + lat.valu_dp
            busy = lat.valu_dp
        elif pipe == "vmem":
            nbytes = wave_bytes(memops) if memops else 64 * d.lane_bytes
            kind = "lds_dma" if d.is_lds_dma else ("vmem_store" if d.is_store else "vmem")
            complete = w.counters.vm_in_order(now + self.memtiming.vector(kind, memops, nbytes))
            level = self.memtiming.last_level
            if level is not None:
                hits = self.cache_hits.setdefault(d.index, {})
                hits[level] = hits.get(level, 0) + 1
            busy = max(self.interval, nbytes // lat.vmem_bytes_per_cycle)
        elif pipe == "lds":
            nbytes = wave_bytes(memops) if memops else 64 * d.lane_bytes
            if ctx is not None:
                conflicts = int(getattr(ctx, "bank_conflicts", 0) or 0)
            # Latencies: a conflict-free access returns after lds/lds_b128 by width, any bank
            # conflict adds lds_conflict_latency; the SIMD pair's LDS path is held for the wider
            # of its data-path time and its bank time (conflict cycles included)
            busy = max(-(-nbytes // lat.lds_wave_bytes_per_cycle),
                       -(-nbytes // lat.lds_bytes_per_cycle) + conflicts * lat.lds_conflict, 1)
            complete = now + (lat.lds_b128 if d.lds_wide else lat.lds) + (lat.lds_conflict_latency if conflicts else 0)
            if complete < self.lds_last:
                complete = self.lds_last  # one LDS queue per CU: in order
            self.lds_last = complete
        elif pipe == "smem":
            dwords = sum(int(getattr(m, "dwords", 1)) for m in memops) if memops else max(1, d.lane_bytes // 4)
            complete = now + lat.smem + lat.smem_dword * dwords
            busy = 1
        else:
            complete = now + 1
        if busy:
            end = now + busy
            self.pipe_free[key] = end
            self.pipe_use[key] = self.pipe_use.get(key, 0) + busy
            use = (pipe, w.simd if d.simd_pipe else None, w.wid, d.index, now, end)
            self.pipe_owner[key] = use
            if self.keep_history:
                self.pipe_log.append(use)
        if d.counters:
            if pipe == "vmem":
                kind = "lds-dma" if d.is_lds_dma else ("store" if d.is_store else "load")
            elif pipe == "lds":
                kind = "lds-store" if d.is_store else "lds"
            else:
                kind = pipe
            for counter in d.counters:
                w.counters.add(CounterOp(counter, kind, d.index, now, complete))
        if writes is None:
            return complete
        interlocked = d.interlocked
        self._seq += 1
        seq = self._seq
        if not writes and not memops:  # nothing lands (a branch, s_nop-like ops): no Pending
            if interlocked and complete > w.interlock_until:
                w.interlock_until = complete
            return complete
        if interlocked and writes and w.interlock_until > complete:
            complete = self._in_order(w, writes, complete)
        p = Pending(complete, interlocked, d.index, seq, pipe)
        pend = w.pending
        check_waw = w.async_until > now
        if writes:
            for wr in writes:
                f = wr.file
                if f == "scc":
                    reg = _SCC_KEY
                    if check_waw:
                        self._check_overwrite(w, reg, complete, d.index, now)
                    pend[reg] = p
                    continue
                lo = wr.index
                n = len(wr.values)
                if n == 1 and not check_waw:
                    pend[(f, lo)] = p
                    continue
                for k in range(lo, lo + n):
                    reg = (f, k)
                    if check_waw:
                        self._check_overwrite(w, reg, complete, d.index, now)
                    pend[reg] = p
            heapq.heappush(self.events, (complete, seq, w.wid, 0, (writes, seq)))
        lds_races, global_races = self.lds_races, self.global_races
        for memop in memops:
            for reg in landing_regs(memop):
                if check_waw:
                    self._check_overwrite(w, reg, complete, d.index, now)
                pend[reg] = p
            self._seq += 1  # a distinct heap key per push: payloads are never compared
            heapq.heappush(self.events, (complete, self._seq, w.wid, 1, (memop, d.index, now, seq)))
            lds_dma = getattr(memop, "lds_addrs", None) is not None
            if lds_races is not None and (pipe == "lds" or lds_dma):
                lds_races.record(w.wid, d.index, memop, now, complete)
            if global_races is not None and pipe == "vmem":
                global_races.record(w.wid, d.index, memop, now, complete)
            if lds_dma:
                # kept ordered by completion; inserted after equal completions, as the stable sort
                # of the whole list did (measured: that sort was a tenth of an LDS DMA's issue)
                bisect.insort_right(self._dma, (now, complete, w.wid, d.index, memop, _dma_ranges(memop)),
                                    key=_COMPLETE)
        if interlocked:
            if complete > w.interlock_until:
                w.interlock_until = complete
        elif complete > w.async_until and (writes or memops):
            w.async_until = complete
        return complete

    # ================================================================ hazards seen at run time
    def _merge_monitor(self, found: list, wave: int, index: int, now: int) -> None:
        """Add the rule-table monitor's findings for one issue without reporting a race twice.

        The engine saw the race itself when the consumer read a value still in flight (its
        event carries the stale values); the monitor knows which table rule that is. Same
        pair of instructions: one event, with the table's rule id and the engine's values.
        """
        mine = []
        hz = self.hazards
        # the engine's events of this issue are among the last few (a barrier release adds one
        # per wave before the waves retire it)
        for k in range(len(hz) - 1, max(-1, len(hz) - 1 - 4 * len(self.waves) - 16), -1):
            e = hz[k]
            if e.wave == wave and e.cycle == now and e.consumer == index and e.source == "engine":
                mine.append(e)
        for m in found:
            # the same pair; or the same rule at the same issue, where the table names the
            # youngest operation the program did not wait for and the engine the one it saw
            twin = next((e for e in mine if e.producer == m.producer
                         and (e.rule == m.rule or e.rule in (RULE_MFMA_READ, RULE_OVERWRITE))), None) \
                or next((e for e in mine if e.rule == m.rule), None)
            if twin is None:
                if m.lanes is None:
                    m.lanes = _lane_list(self.waves[wave].state.exec_bits)
                self.hazards.append(m)
            else:
                if twin.rule != m.rule:
                    twin.rule = m.rule
                    twin.message = f"{m.message} ({twin.message})"
                twin.consumer_span = twin.consumer_span or m.consumer_span
                twin.producer_span = twin.producer_span or m.producer_span

    def _hazard_read(self, w: WaveRuntime, now: int, consumer: int, producer: int, regs: list, p: Pending) -> None:
        ins_c = self.kernel.instructions[consumer]
        ins_p = self.kernel.instructions[producer]
        names = ", ".join(f"{f}{i}" for f, i in regs)
        rule = _READ_RULE.get(p.pipe, "inflight-result-read")
        values = {}
        st = w.state
        for f, i in regs:
            if f == "v":
                values[f"v{i}"] = st.vgpr[i].copy()
            elif f == "a":
                values[f"a{i}"] = st.agpr[i].copy()
            elif f == "s":
                values[f"s{i}"] = int(st.sgpr[i])
        msg = (f"{ins_c.mnemonic} reads {names} at cycle {now}, but {ins_p.mnemonic} (line {ins_p.span.line}) "
               f"writes it at cycle {p.land}: the old value is read")
        self.hazards.append(HazardEvent(rule, w.wid, now, consumer, producer, list(regs), msg, p.land, values,
                                        self._stale_lanes(w, regs, p)))

    def _stale_lanes(self, w: WaveRuntime, regs: list, p: Pending) -> list[int]:
        """EXEC at issue; for a register write whose values are already computed (ALU/MFMA:
        the write event holds them), only the lanes where the value read differs from it.
        A load's data is only known when it completes: every EXEC lane then."""
        st = w.state
        bits = st.exec_bits
        vregs = [(f, i) for f, i in regs if f in ("v", "a")]
        if not vregs or any(f not in ("v", "a") for f, _ in regs):
            return _lane_list(bits)
        writes = next((e[4][0] for e in self.events if e[3] == 0 and e[4][1] == p.seq), None)
        if writes is None:
            return _lane_list(bits)
        differ = np.zeros(64, dtype=bool)
        known = False
        for f, i in vregs:
            for wr in writes:
                if wr.file == f and wr.index <= i < wr.index + len(wr.values):
                    new = np.asarray(wr.values[i - wr.index])
                    old = (st.vgpr if f == "v" else st.agpr)[i]
                    d = new != old
                    if wr.mask is not None and not wr.full:
                        d &= wr.mask
                    differ |= d
                    known = True
        if not known:
            return _lane_list(bits)
        return [k for k in _lane_list(bits) if differ[k]]

    def _check_overwrite(self, w: WaveRuntime, reg: tuple, complete: int, index: int, now: int) -> None:
        p = w.pending.get(reg)
        if p is None or p.interlocked or p.land <= now or p.land <= complete:
            return
        ins_p = self.kernel.instructions[p.index]
        ins_c = self.kernel.instructions[index]
        msg = (f"{ins_c.mnemonic} writes {reg[0]}{reg[1]} at cycle {complete}, but {ins_p.mnemonic} "
               f"(line {ins_p.span.line}) still in flight writes it later, at cycle {p.land}")
        rule = OVERWRITE_RULE.get(p.pipe, RULE_OVERWRITE)
        self.hazards.append(HazardEvent(rule, w.wid, now, index, p.index, [reg], msg, p.land,
                                        lanes=_lane_list(w.state.exec_bits)))

    def _check_lds_race(self, wi: int, index: int, issue: int, memop, cycle: int) -> "HazardEvent | None":
        """An LDS read performed while an older LDS DMA writing the same bytes is still in flight."""
        reads = None
        for dissue, complete, dwi, dindex, dma, dranges in self._dma:
            if complete <= cycle or dissue > issue:
                continue
            if reads is None:  # (address array, bytes, lowest address, end of the highest access)
                reads = []
                for a, sz in memop.pieces:
                    a = np.asarray(a, dtype=np.int64)
                    sz = int(sz)
                    if len(a):
                        reads.append((a, sz, int(a.min()), int(a.max()) + sz))
            if dranges is None:
                continue
            da, dhi, dlo_min, dhi_max = dranges
            for ra, sz, rlo_min, rhi_max in reads:
                # some read byte range [r, r + sz) meets some DMA range [d, dhi): impossible when
                # the lowest read starts after every DMA range ends, or the reverse
                if rlo_min >= dhi_max or dlo_min >= rhi_max:
                    continue
                hit = (ra[:, None] < dhi[None, :]) & (da[None, :] < ra[:, None] + sz)
                if hit.any():
                    r_i, _ = np.nonzero(hit)
                    lo = int(ra[r_i].min())
                    hi = int(ra[r_i].max()) + sz
                    ins_d = self.kernel.instructions[dindex]
                    msg = (f"{self.kernel.instructions[index].mnemonic} reads LDS [0x{lo:x}, 0x{hi:x}) at cycle "
                           f"{cycle} while the LDS DMA {ins_d.mnemonic} (line {ins_d.span.line}) writing it lands "
                           f"at cycle {complete}: the old bytes are read")
                    lanes = np.asarray(memop.lanes)
                    lanes = sorted({int(x) for x in lanes[r_i]}) if len(lanes) == len(ra) else None
                    # the monitor named this read at issue (after the youngest DMA it did not wait
                    # for); the bytes show which DMA it really raced with: one event, this one's facts
                    seen = next((e for e in reversed(self.hazards) if e.rule == RULE_LDS_DMA_READ and e.wave == wi
                                 and e.consumer == index and e.cycle == issue
                                 and (e.producer == dindex or not e.registers)), None)
                    if seen is not None:
                        seen.source = "engine"
                        seen.producer = dindex
                        seen.registers = [("lds", lo, hi)]
                        seen.message = msg
                        seen.lands = complete
                        seen.lanes = lanes
                        seen.producer_span = None
                        return seen
                    e = HazardEvent(RULE_LDS_DMA_READ, wi, cycle, index, dindex, [("lds", lo, hi)], msg, complete,
                                    lanes=lanes)
                    self.hazards.append(e)
                    return e
        return None

    def _check_barrier_lds(self, w: WaveRuntime, now: int) -> None:
        """Other waves pass the barrier while this wave's LDS writes are still in flight."""
        c = w.counters
        late = [o for o in c.outstanding("lgkm", now) if o.kind == "lds-store"]
        # An LDS DMA still in flight here is a race only if some wave reads its bytes before it
        # lands: _check_lds_race sees that byte-exactly, the rule-table monitor (the linter's
        # barrier-lds-write-pending verdict over LDS ranges) statically.
        if not late or len(self.waves) == 1:
            return
        o = late[0]
        ins = self.kernel.instructions[o.index]
        counter = "lgkmcnt" if o.counter == "lgkm" else "vmcnt"
        msg = (f"s_barrier releases at cycle {now} while wave {w.wid}'s {ins.mnemonic} (line {ins.span.line}) "
               f"still writes LDS until cycle {o.complete}: wait with s_waitcnt {counter}(0) before the barrier")
        self.hazards.append(HazardEvent(RULE_BARRIER_LDS, w.wid, now, w.state.pc, o.index, [], msg, o.complete))


def _write_keys(writes: list) -> tuple:
    """The (file, index) keys of the registers some RegWrites write, as Pending entries name them."""
    regs = []
    for wr in writes:
        f = wr.file
        if f == "scc":
            regs.append(_SCC_KEY)
        else:
            regs.extend((f, k) for k in range(wr.index, wr.index + len(wr.values)))
    return tuple(regs)


def _dma_ranges(dma) -> tuple | None:
    """(start addresses, end addresses, lowest start, highest end) of an LDS DMA's writes
    (None: no lane writes), computed once when it issues rather than per LDS read it may race."""
    da = np.asarray(dma.lds_addrs, dtype=np.int64)
    if not len(da):
        return None
    nbytes = int(getattr(dma, "lds_bytes", dma.size))
    return da, da + nbytes, int(da.min()), int(da.max()) + nbytes


# ==================================================================== hazard details, as text
def lane_ranges(lanes) -> str:
    """[0, 1, 2, 3, 8] -> '0-3, 8'."""
    parts = []
    run_start = prev = None
    for k in lanes:
        if prev is not None and k == prev + 1:
            prev = k
            continue
        if run_start is not None:
            parts.append(f"{run_start}" if run_start == prev else f"{run_start}-{prev}")
        run_start = prev = k
    if run_start is not None:
        parts.append(f"{run_start}" if run_start == prev else f"{run_start}-{prev}")
    return ", ".join(parts)


def _value_type(mnemonic: str) -> str:
    """The type a consumer reads its operands as, for the stale-value view: f32 when its
    name says so, else raw u32 (shown in hex)."""
    m = re.search(r"_(f32|f16|bf16|f64|i32|u32|b32|b64|b128|i16|u16)(?:_|$)", mnemonic)
    return "f32" if m and m.group(1) == "f32" else "hex"


def _show(value: int, tname: str) -> str:
    if tname == "f32":
        text = f"{float(np.array([value], np.uint32).view(np.float32)[0]):.9g}"
        return text + ".0" if text.lstrip("-").isdigit() else text
    return f"0x{int(value):x}"


def stale_text(h: "HazardEvent", mnemonic: str, max_regs: int = 2, max_values: int = 4) -> str | None:
    """'lanes 0-63; stale v4 = 0.0 (the value in flight lands at cycle 812)'."""
    parts = []
    if h.lanes is not None:
        parts.append(f"lanes {lane_ranges(h.lanes)}" if h.lanes else "no lane reads a value that differs from the one in flight")
    if h.values and (h.lanes is None or h.lanes):
        tname = _value_type(mnemonic)
        shown = []
        for name, v in list(h.values.items())[:max_regs]:
            if np.ndim(v) == 0:
                shown.append(f"{name} = {_show(int(v), tname)}")
                continue
            arr = np.asarray(v).reshape(-1)
            sel = arr[h.lanes] if h.lanes else arr
            uniq = list(dict.fromkeys(int(x) for x in sel))
            if len(uniq) == 1:
                shown.append(f"{name} = {_show(uniq[0], tname)}")
            else:
                vals = ", ".join(_show(int(x), tname) for x in sel[:max_values])
                shown.append(f"{name} = [{vals}{', ...' if len(sel) > max_values else ''}]")
        more = len(h.values) - max_regs
        stale = "stale " + ", ".join(shown) + (f", ... ({len(h.values)} registers)" if more > 0 else "")
        if h.lands:
            stale += f" (the value in flight lands at cycle {h.lands})"
        parts.append(stale)
    return "; ".join(parts) or None


def _lane_list(bits: int) -> list[int]:
    """The lanes set in a 64-bit EXEC value."""
    return [k for k in range(64) if bits >> k & 1]


# ==================================================================== summaries
def wave_summary(eng: Engine, wi: int) -> dict:
    """Per wave: cycles, instructions, stall breakdown (the `run --format json` fields)."""
    w = eng.waves[wi]
    stalls = dict(w.stall_totals)
    for k, v in w.stalls.items():
        stalls[k] = stalls.get(k, 0) + v
    if not w.done:
        # a stall is counted up to the cycle the wave may retry: at a stop (a limit, the debugger)
        # that may lie past the clock, and a wave still at s_barrier has waited since it arrived
        ahead = w.ready_at - eng.cycle
        if w.stalls and ahead > 0 and stalls.get(w.stall_reason, 0) > 0:
            stalls[w.stall_reason] -= min(ahead, stalls[w.stall_reason])
        if w.at_barrier and w.first_try is not None and eng.cycle > w.first_try:
            stalls["barrier"] = stalls.get("barrier", 0) + eng.cycle - w.first_try
        stalls = {k: v for k, v in stalls.items() if v}
    return {"wave": wi, "simd": w.simd, "cycles": w.end_cycle if w.end_cycle is not None else eng.cycle,
            "instructions": w.instructions, "stall_cycles": sum(stalls.values()),
            "stalls": dict(sorted(stalls.items(), key=lambda kv: -kv[1]))}


def limits_for(max_cycles: int | None, max_instructions: int | None, header=None) -> tuple[int, int]:
    """(max cycles, max instructions) of a command-line run: the option, else the snippet
    header's (`max-cycles:`), else the defaults above."""
    return (max_cycles or getattr(header, "max_cycles", None) or DEFAULT_MAX_CYCLES,
            max_instructions or getattr(header, "max_instructions", None) or DEFAULT_MAX_INSTRUCTIONS)


def _loop_of(eng: Engine, wi: int, window: int = RECENT_HISTORY) -> tuple[int, int] | None:
    """(branch, target) instruction indices of the last jump backwards wave `wi` took, from the
    issue records (the newest `window` of them): the loop it is in when a limit stops it."""
    later = None
    seen = 0
    for r in reversed(eng.records):
        if r.wave != wi:
            continue
        if later is not None and later <= r.index:
            return r.index, later
        later = r.index
        seen += 1
        if seen >= window:
            break
    return None


def stop_report(eng: Engine) -> list[tuple[int | None, str]]:
    """Where each live wave is when a run stops before s_endpgm, as (instruction index, text),
    the most telling first: a wave in a loop (its backward branch), then waves waiting (at
    s_barrier, for a counter...) and what they wait for. Ended waves are summed up last."""
    ins = eng.kernel.instructions
    live = [w for w in eng.waves if not w.done]
    ended = [w.wid for w in eng.waves if w.done]
    where = eng.kernel.written_at
    looping, waiting = [], []
    for w in live:
        pc = w.state.pc
        at = pc if pc < len(ins) else None
        here = f"{ins[at].mnemonic} ({where(at)})" if at is not None else "the end of the program"
        if w.at_barrier:
            others = [o.wid for o in live if not o.at_barrier]
            why = f" for wave{'s' if len(others) > 1 else ''} {lane_ranges(others)}" if others else ""
            waiting.append((at, f"wave {w.wid} waits at {here}{why}"))
            continue
        loop = _loop_of(eng, w.wid)
        if loop is not None and loop[1] <= pc <= loop[0]:  # still inside the loop it last closed
            b, t = loop
            to = "to itself" if b == t else f"back to {where(t)}"
            looping.append((b, f"wave {w.wid} is looping: {ins[b].mnemonic} ({where(b)}) jumps {to}"))
        elif w.ready_at > eng.cycle and w.stalls:
            waiting.append((at, f"wave {w.wid} waits at {here} for {w.stall_reason} until cycle {w.ready_at}"))
        else:
            looping.append((at, f"wave {w.wid} is at {here}"))
    out = looping + waiting
    if ended and out:
        out.append((None, f"wave{'s' if len(ended) > 1 else ''} {lane_ranges(ended)} "
                          f"{'have' if len(ended) > 1 else 'has'} ended"))
    return out


def kernel_stats(eng: Engine) -> dict:
    """Per kernel: cycles, MFMA pipe utilisation, achieved vs peak FLOP per cycle.

    Utilisation is the matrix cores' busy cycles over cycles x SIMDs that hold waves.
    Peak FLOP/cycle is what those SIMDs would reach issuing the kernel's fastest MFMA
    back to back (catalog flops / (passes x mfma_pass)); achieved is the kernel's MFMA
    flops over its cycles.
    """
    cycles = max(eng.cycle, 1)
    simds = sorted({w.simd for w in eng.waves})
    mfma_busy = {s: eng.pipe_use.get(("mfma", s), 0) for s in simds}
    best = 0.0
    for d in eng.decoded:
        if d.pipe == "mfma" and d.passes:
            best = max(best, d.flops / (d.passes * eng.lat.mfma_pass))
    peak = best * len(simds)
    return {
        "cycles": eng.cycle, "instructions": eng.executed, "waves": len(eng.waves),
        "mfma_busy_cycles": sum(mfma_busy.values()),
        "mfma_utilisation": sum(mfma_busy.values()) / (cycles * max(len(simds), 1)),
        "mfma_utilisation_per_simd": {str(s): b / cycles for s, b in mfma_busy.items()},
        "flops": eng.flops,
        "flops_per_cycle": eng.flops / cycles,
        "peak_flops_per_cycle": peak,
        "hazards": len(eng.hazards),
    }
