"""The one place where the debugger reads the timing engine's internals.

The public `Simulation` API gives registers, memory, LDS, the clock, hazards and
`step()`. A debugger also needs what is *in flight*: counted memory operations,
scheduled register/LDS writes, pipe occupancy, why a wave is waiting. The engine
exposes these as `Engine.inflight()`, `Engine.pipes()`, `Engine.pending_writes()`,
`records`, `events`; older engines only had raw attributes. Everything here reads
defensively (`getattr` with fallbacks) so that the debugger keeps working, with
less detail, while the engine evolves; the rest of the debugger sees only the
small dataclasses below.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class CountedOp:
    """One operation a memory counter counts (vmcnt/lgkmcnt/expcnt)."""

    counter: str  # vm | lgkm | exp
    kind: str  # load | store | lds-dma | lds | smem ...
    index: int  # instruction index
    issue: int
    complete: int


@dataclass(frozen=True)
class PipeBusy:
    """A pipe busy with an instruction until `end` (exclusive)."""

    pipe: str
    simd: int | None
    wave: int | None
    index: int | None
    start: int | None
    end: int


@dataclass(frozen=True)
class Effect:
    """A scheduled write that has not landed: registers of one wave and/or LDS bytes."""

    seq: int
    cycle: int  # when it lands
    wave: int
    regs: frozenset  # {(file, index)}
    lds: tuple  # ((lo, hi), ...) byte ranges of LDS it writes
    producer: int | None  # instruction index, when known
    kind: str = "write"  # write | load | lds-write | lds-dma | store ...
    mem: tuple = ()  # ((lo, hi), ...) global memory byte ranges it writes (stores, atomics)


@dataclass(frozen=True)
class WaveStatus:
    state: str  # ready | waiting | barrier | done
    reason: str = ""  # e.g. "waitcnt vmcnt", "dependency", "pipe busy", "nop"
    until: int | None = None




def next_cycle(sim) -> int:
    """The next cycle at which the engine will act (a step processes it)."""
    eng = sim.engine
    return int(getattr(eng, "next_cycle", eng.cycle))


def set_clock(sim, cycle: int) -> None:
    """Stop the clock at `cycle` without processing anything after it: results due by then land.

    Only valid while no wave can act before `cycle` (`next_cycle(sim) > cycle`), so the
    engine's future is unchanged: this is `Engine.run_until` when nothing is left to run.
    """
    eng = sim.engine
    if cycle <= eng.cycle or getattr(eng, "finished", False):
        return
    if next_cycle(sim) <= cycle:
        raise RuntimeError("set_clock would skip engine steps")
    eng.run_until(cycle)


def issued(sim, wave: int) -> int:
    """Instructions the wave has issued so far."""
    w = sim.engine.waves[wave]
    n = getattr(w, "instructions", None)
    if n is not None:
        return int(n)
    return sum(1 for r in sim.engine.records if r.wave == wave)


def records(sim) -> list:
    return getattr(sim.engine, "records", [])


def is_done(sim, wave: int) -> bool:
    return bool(sim.engine.waves[wave].state.done)




def pipe_of(sim, index: int) -> str:
    eng = sim.engine
    decoded = getattr(eng, "decoded", None)
    if decoded is not None and index < len(decoded):
        return decoded[index].pipe
    infos = getattr(sim.kernel, "infos", [])
    info = infos[index] if index < len(infos) else None
    if info is not None:
        return info.pipe
    from ..sim import engine as engmod
    guess = getattr(engmod, "_guess_pipe", None)
    return guess(sim.kernel.instructions[index].mnemonic) if guess else "?"


# ---------------------------------------------------------------------- counters

def counters(sim, wave: int, now: int) -> dict[str, list[CountedOp]]:
    """Outstanding counted operations of a wave at `now`, per counter, in issue order."""
    eng = sim.engine
    out: dict[str, list[CountedOp]] = {"vm": [], "lgkm": [], "exp": []}
    fn = getattr(eng, "inflight", None)
    if callable(fn):
        for counter, ops in fn(wave, now).items():
            out[counter] = [CountedOp(o.counter, o.kind, o.index, o.issue, o.complete) for o in ops]
        return out
    w = eng.waves[wave]
    for f in getattr(w, "inflight", []):
        if f.complete > now:
            out.setdefault(f.counter, []).append(CountedOp(f.counter, f.kind, f.index, f.issue, f.complete))
    return out


# ---------------------------------------------------------------------- pipes

def pipes(sim, now: int) -> list[PipeBusy]:
    """Pipes busy at `now` and the instruction occupying each."""
    eng = sim.engine
    fn = getattr(eng, "pipes", None)
    if callable(fn):
        return [PipeBusy(u.pipe, u.simd, u.wave, u.index, u.start, u.end) for u in fn(now)]
    busy = getattr(eng, "pipe_busy", {})
    out = []
    for key, end in busy.items():
        if end <= now:
            continue
        unit, pipe = key
        simd_scoped = pipe in ("valu", "mfma", "trans", "dp")
        owner = None
        for r in reversed(records(sim)):
            if pipe_of(sim, r.index) != pipe:
                continue
            w = eng.waves[r.wave]
            if (simd_scoped and w.simd == unit) or (not simd_scoped and r.wave == unit):
                owner = r
                break
        out.append(PipeBusy(pipe, unit if simd_scoped else None, owner.wave if owner else (None if simd_scoped else unit),
                            owner.index if owner else None, owner.issue if owner else None, end))
    return out


# ---------------------------------------------------------------------- in-flight writes



def _memop_regs(memop) -> list[tuple[str, int]]:
    dst = getattr(memop, "dst_file", None) or getattr(memop, "ret_file", None)
    regs: list[tuple[str, int]] = []
    if dst:
        idx = getattr(memop, "dst_index", None)
        if idx is None:
            idx = getattr(memop, "ret_index", 0)
        regs = [(dst, idx + k) for k in range(int(getattr(memop, "dwords", 1) or 1))]
    slot = getattr(memop, "dst_slot", None)
    if slot is not None:
        regs = [("s", slot + k) for k in range(int(getattr(memop, "dwords", 1) or 1))]
    return regs


def _memop_lds_writes(memop) -> tuple:
    """LDS byte ranges a memory operation writes (ds_write, ds atomics, LDS DMA); () for reads."""
    name = type(memop).__name__
    if getattr(memop, "dst_file", None) is not None and getattr(memop, "lds_addrs", None) is None:
        return ()  # a load into registers (LdsRead, GlobalLoad): reads LDS, does not write it
    if "Lds" not in name and getattr(memop, "lds_addrs", None) is None:
        return ()
    fn = getattr(memop, "lds_ranges", None)
    if not callable(fn):
        return ()
    try:
        ranges = fn()
    except Exception:
        return ()
    if not ranges:
        return ()
    return _merged(sorted(ranges))  # a few intervals, not one per lane (watch checks overlap only)


def _merged(ranges: list) -> tuple:
    """Sorted [lo, hi) byte ranges joined where they touch or overlap."""
    merged = [list(ranges[0])]
    for lo, hi in ranges[1:]:
        if lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return tuple((a, b) for a, b in merged)


def _memop_mem_writes(memop) -> tuple:
    """Global byte ranges a store or atomic writes (merged); () for loads and LDS operations."""
    name = type(memop).__name__
    if name not in ("GlobalStore", "GlobalAtomic", "ScalarAtomic", "ScalarStore"):
        return ()
    addrs = getattr(memop, "addrs", None)
    if addrs is None:
        return ()
    data = getattr(memop, "data", None)
    size = data.shape[1] if name == "GlobalStore" and data is not None and data.ndim == 2 else \
        int(getattr(memop, "width", 4) or 4)
    ranges = sorted((int(a), int(a) + size) for a in np.asarray(addrs).reshape(-1))
    if not ranges:
        return ()
    return _merged(ranges)


def _memop_kind(memop) -> str:
    name = type(memop).__name__
    return {"LdsDma": "lds-dma", "LdsWrite": "lds-write", "LdsAtomic": "lds-atomic", "LdsRead": "lds-read",
            "GlobalLoad": "load", "GlobalStore": "store", "GlobalAtomic": "atomic",
            "ScalarLoad": "smem", "LdsTransposeRead": "lds-read"}.get(name, name)


def effects(sim) -> list[Effect]:
    """Every scheduled write not landed yet, from the engine's event queue."""
    eng = sim.engine
    out: list[Effect] = []
    for ev in getattr(eng, "events", []):
        try:
            cycle, seq, wave, kind, payload = ev
        except (TypeError, ValueError):
            continue
        if kind in (0, "write"):
            if isinstance(payload, tuple):
                writes, wseq = payload[0], payload[1]
            else:
                writes, wseq = [payload], seq
            regs: set = set()
            for wr in writes:
                regs.update(wr.regs())
            producer = None
            p = eng.waves[wave].pending.get(next(iter(regs))) if regs else None
            if p is not None and getattr(p, "seq", None) in (wseq, seq):
                producer = p.index
            else:  # a later write to the same register replaced the pending entry: ask the records
                for r in reversed(eng.records[-256:]):
                    if r.wave == wave and r.complete == cycle:
                        producer = r.index
                        break
            out.append(Effect(seq, cycle, wave, frozenset(regs), (), producer, "write"))
        else:
            memop = payload[0] if isinstance(payload, tuple) else payload
            index = payload[1] if isinstance(payload, tuple) and len(payload) > 1 else None
            out.append(Effect(seq, cycle, wave, frozenset(_memop_regs(memop)), _memop_lds_writes(memop), index,
                              _memop_kind(memop), _memop_mem_writes(memop)))
    return out


@dataclass(frozen=True)
class InFlight:
    """The newest write of one register that has not landed: what `print` shows beside the value
    a reader without the interlock still sees. `values`/`mask` are known for ALU and MFMA results
    (computed at issue); a memory load's value is read from memory when it lands, so None."""

    reg: tuple  # (file, index)
    cycle: int  # when it lands
    producer: int | None  # instruction index
    values: np.ndarray | None  # uint32[64] (vector) or a 1-element array (scalar)
    mask: np.ndarray | None  # bool[64]: lanes written (vector registers), None: all


def in_flight(sim, wave: int, regs: list[tuple]) -> dict[tuple, InFlight]:
    """For each of `regs` with a write still in flight in `wave`, the one that lands last (the one
    the register will hold). Reads the engine's event queue, never changes it."""
    want = set(regs)
    found: dict[tuple, tuple] = {}
    for ev in getattr(sim.engine, "events", []):
        cycle, seq, w, kind, payload = ev
        if w != wave:
            continue
        if kind == 0:
            writes, wseq = payload
            for wr in writes:
                for k, reg in enumerate(wr.regs()):
                    if reg in want and (reg not in found or found[reg][0] < (cycle, wseq)):
                        vals = np.asarray(wr.values[k] if wr.file != "scc" else wr.values[:1], np.uint32)
                        mask = None if wr.mask is None or wr.full else np.asarray(wr.mask, bool)
                        found[reg] = ((cycle, wseq), cycle, None, vals.reshape(-1) if wr.file != "scc" else vals,
                                      mask, wseq)
        else:
            memop, index = payload[0], payload[1]
            for reg in _memop_regs(memop):
                if reg in want and (reg not in found or found[reg][0] < (cycle, seq)):
                    found[reg] = ((cycle, seq), cycle, index, None, None, seq)
    out: dict[tuple, InFlight] = {}
    pend = sim.engine.waves[wave].pending
    for reg, (_key, cycle, producer, vals, mask, wseq) in found.items():
        if producer is None:
            p = pend.get(reg)
            producer = p.index if p is not None and p.seq == wseq else _producer_landing(sim, wave, cycle)
        out[reg] = InFlight(reg, cycle, producer, vals, mask)
    return out


def _producer_landing(sim, wave: int, cycle: int) -> int | None:
    for r in reversed(sim.engine.records[-256:]):
        if r.wave == wave and r.complete == cycle:
            return r.index
    return None


# ---------------------------------------------------------------------- wave state

def wave_status(sim, wave: int, now: int) -> WaveStatus:
    """Why a wave is (not) issuing at `now`."""
    w = sim.engine.waves[wave]
    if w.state.done:
        return WaveStatus("done")
    if getattr(w, "at_barrier", False):
        return WaveStatus("barrier", "s_barrier")
    hold = getattr(w, "hold_until", 0) or 0
    if hold > now:
        return WaveStatus("waiting", getattr(w, "hold_reason", "") or "hold", hold)
    ready = getattr(w, "ready_at", 0)
    stalls = getattr(w, "stalls", {}) or {}
    if ready > now and stalls:  # without a stall it only waits for its SIMD's next issue turn
        return WaveStatus("waiting", next(reversed(stalls)), ready)
    return WaveStatus("ready")


def simd(sim, wave: int) -> int | None:
    return getattr(sim.engine.waves[wave], "simd", None)


class TickResult:
    """What one engine step did: the cycle it processed, issues (wave, index, record), new hazards."""

    __slots__ = ("now", "issues", "hazards", "running")

    def __init__(self, now: int, issues: list, hazards: list, running: bool):
        self.now = now
        self.issues = issues
        self.hazards = hazards
        self.running = running
