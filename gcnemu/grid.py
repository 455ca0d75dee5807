"""Whole grids: every workgroup of a dispatch, run against one global memory.

A real convolution or GEMM is thousands of workgroups; `gcnemu run --grid X[,Y,Z]` runs each
with the timed engine (cycles per workgroup stay exact) and combines what they wrote:

- Workgroups are independent on hardware unless they use atomics, so each one runs from the
  initial memory, in a worker process, and returns the bytes it wrote. The parent lays those
  bytes over the initial memory. Two workgroups writing the same byte is a race (the order
  between workgroups is not defined), reported with the buffer, the bytes and the workgroups.
- A kernel with global atomics is run workgroup after workgroup in this process, each starting
  from the memory the previous ones left: one valid serialisation, as atomics allow.

Work is handed to a `concurrent.futures.Executor`: a local process pool by default, or any
executor a caller passes, such as a Dask distributed client's (`--scheduler tcp://host:8786`),
so one grid spreads over a cluster with no protocol of our own. Workers receive a small
picklable `GridJob` (the file, target, CLI overrides) and load the kernel once per process;
a caller whose workers may not see the file (another machine, another directory) ships the
loaded launch itself beside the job (`shipped`, keyed by `GridJob.digest`), so no worker opens
the file, its includes or its data files.
"""
from __future__ import annotations

import copy
import os
import pickle
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from .asm.diagnostics import Diagnostic, GcnemuError
from .setup import MAX_WORKGROUPS  # a grid larger than this is refused up front (here and in headers)



@dataclass(frozen=True)
class GridJob:
    """What a worker needs to rebuild the launch: picklable, small."""

    path: str
    arch: str | None
    extra: tuple = ()  # header Directives from the command line (applied last)
    include_dirs: tuple[str, ...] = ()
    max_cycles: int | None = None
    max_instructions: int | None = None
    latencies: tuple = ()  # (name, cycles) overrides
    digest: str | None = None  # sha256 of the pickled (snippet, kernel) shipped beside the job, if any
    trace: bool = False  # each workgroup returns its trace events (sim.trace), for `run --trace`


@dataclass
class WorkgroupResult:
    """One workgroup's run: its timing, whether it ended well, and the bytes it wrote."""

    id: tuple[int, int, int]
    cycles: int
    instructions: int
    hazards: int
    error: str | None = None
    # buffer name -> (byte offsets written, their final values)
    writes: dict = field(default_factory=dict)
    # buffer name -> (run starts, run ends) of the bytes read: runs keep a workgroup that reads a
    # whole matrix small to send back from a worker
    reads: dict = field(default_factory=dict)
    # its Chrome trace events on its own process track (only when the job asked for a trace)
    trace: list | None = None


@dataclass
class Race:
    """Bytes of one buffer that more than one workgroup wrote, or that one workgroup read and
    another wrote (the result depends on their order)."""

    buffer: str
    first_byte: int
    last_byte: int
    bytes: int  # how many distinct bytes race
    workgroups: list[tuple[int, int, int]]  # every workgroup involved (for a read: the reader first)
    kind: str = "write-write"  # or "read-write"

    def message(self) -> str:
        ws = self.workgroups
        where = f"of buffer '{self.buffer}' (in [{self.first_byte}, {self.last_byte + 1}))"
        if self.kind == "read-write":
            readers = f"workgroup {ws[0]}"
            return (f"global memory race: {readers} reads {self.bytes} bytes {where} that workgroup {ws[1]} "
                    f"writes; workgroups run in no defined order, so the read may see either value")
        who = f"workgroups {ws[0]} and {ws[1]}" if len(ws) == 2 else \
            f"{len(ws)} workgroups ({ws[0]}, {ws[1]}, ...)"
        return (f"global memory race: {who} write the same {self.bytes} bytes {where} and the kernel has "
                f"no atomics for them")


@dataclass
class GridRun:
    grid: tuple[int, int, int]
    results: list[WorkgroupResult]
    races: list[Race]
    sequential: bool  # atomics: workgroups ran one after another in this process
    workers: int

    @property
    def cycles(self) -> list[int]:
        return [r.cycles for r in self.results]

    def histogram(self, bins: int = 8) -> list[str]:
        """Text histogram of per-workgroup cycles."""
        cyc = np.array(self.cycles)
        if len(cyc) == 0:
            return []
        lo, hi = int(cyc.min()), int(cyc.max())
        if lo == hi:
            return [f"  {lo:>8} cycles: {len(cyc)} workgroups"]
        # whole-cycle bins, at most one per cycle of the spread: a spread under `bins` cycles must
        # not give empty or backwards labels (1018..1017)
        bins = min(bins, hi - lo + 1)
        edges = np.unique(np.floor(np.linspace(lo, hi + 1, bins + 1)).astype(np.int64))
        counts, _ = np.histogram(cyc, edges)
        top = max(int(counts.max()), 1)
        out = []
        for k, c in enumerate(counts):
            bar = "#" * max(1 if c else 0, round(30 * int(c) / top))
            first, last = int(edges[k]), int(edges[k + 1]) - 1
            label = f"{first}" if first == last else f"{first}..{last}"
            out.append(f"  {label:>17} {int(c):>6}  {bar}")
        return out


def parse_grid(text: str) -> tuple[int, int, int]:
    """`X`, `X,Y` or `X,Y,Z` (also `XxYxZ`) workgroups per dimension."""
    parts = [p.strip() for p in text.replace("x", ",").split(",")]
    try:
        dims = [int(p, 0) for p in parts if p]
    except ValueError:
        raise GcnemuError(f"--grid: expected X[,Y[,Z]] workgroup counts, got '{text}'") from None
    if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
        raise GcnemuError(f"--grid: expected one to three positive workgroup counts, got '{text}'")
    dims += [1] * (3 - len(dims))
    if dims[0] * dims[1] * dims[2] > MAX_WORKGROUPS:
        raise GcnemuError(f"--grid {text}: {dims[0] * dims[1] * dims[2]} workgroups; gcnemu runs at most "
                          f"{MAX_WORKGROUPS} in one grid")
    return dims[0], dims[1], dims[2]


def workgroup_ids(grid: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    x, y, z = grid
    return [(i, j, k) for k in range(z) for j in range(y) for i in range(x)]


def has_global_atomics(kernel) -> bool:
    """Does the kernel update global memory atomically? (Then workgroups must run in turn.)"""
    for ins, info in zip(kernel.instructions, kernel.infos):
        if info is not None and info.has("atomic") and info.encoding in ("FLAT", "GLOBAL", "MUBUF"):
            return True
        if ins.mnemonic.startswith(("s_atomic_", "s_buffer_atomic_")):  # scalar atomics (no table row)
            return True
    return False


# ---------------------------------------------------------------- one workgroup


def _launched(snippet, kernel, wg: tuple[int, int, int], grid, job: GridJob, buffers=None, monitor: bool = True):
    """Workgroup `wg` of the snippet's launch, not yet run (optionally over given buffer data)."""
    snip = copy.copy(snippet)
    snip.built = copy.copy(snippet.built)
    setup = copy.deepcopy(snippet.built.setup)
    setup.workgroup_id = wg
    setup.grid = grid
    if buffers is not None:
        for b in setup.buffers:
            if b.name in buffers:
                b.data = buffers[b.name]
    snip.built.setup = setup
    return snip.simulate(kernel, dict(job.latencies) or None, job.max_cycles, job.max_instructions, run=False,
                         monitor=monitor)


def _simulate(snippet, kernel, wg: tuple[int, int, int], grid, job: GridJob, track: bool, buffers=None):
    """Run workgroup `wg` of the snippet's launch (optionally over given initial buffer data)."""
    sim = _launched(snippet, kernel, wg, grid, job, buffers)
    if track:
        sim.memory.track_writes()
    sim.run()
    return sim


def _traced(res: WorkgroupResult, sim, wg, grid, job: GridJob) -> WorkgroupResult:
    """`res` with the workgroup's trace events when the job wants a trace: process id = the
    workgroup's position in the grid + 1, so the viewer lists workgroups in order."""
    if job.trace:
        from .sim.trace import trace_events
        pid = 1 + wg[0] + grid[0] * (wg[1] + grid[1] * wg[2])
        res.trace = trace_events(sim, pid, wg)
    return res


def _result(sim, wg, track: bool) -> WorkgroupResult:
    err = None
    if sim.error is not None:
        err = sim.error.message
    elif getattr(sim.engine, "halt_reason", None):
        err = str(sim.engine.halt_reason)
    res = WorkgroupResult(wg, int(sim.cycles), int(sim.instructions_executed), len(sim.hazards or []), err)
    if track:
        for b in sim.memory.buffers:
            if b.written is not None and not b.name.startswith("__") and b.written.any():
                idx = np.flatnonzero(b.written)
                res.writes[b.name] = (idx.astype(np.int64), b.data[idx].copy())
            if b.read is not None and not b.name.startswith("__") and b.read.any():
                edges = np.flatnonzero(np.diff(np.r_[0, b.read.view(np.int8), 0]))
                res.reads[b.name] = (edges[0::2].astype(np.int64), edges[1::2].astype(np.int64))
    return res


_CACHE: dict = {}


def ship(snippet, kernel) -> tuple[bytes, str]:
    """The loaded launch as bytes and their sha256: what a worker without the file runs."""
    import hashlib
    blob = pickle.dumps((snippet, kernel), protocol=pickle.HIGHEST_PROTOCOL)
    return blob, hashlib.sha256(blob).hexdigest()


def _loaded(job: GridJob, shipped: bytes | None = None):
    """The job's snippet and kernel, loaded once per worker process (from `shipped` when given)."""
    key = pickle.dumps(job)
    hit = _CACHE.get(key)
    if hit is None and shipped is not None:
        hit = _CACHE[key] = pickle.loads(shipped)
    if hit is None:
        from .asm import parse as parse_mod
        from .snippets.runner import load_snippet
        parse_mod.INCLUDE_DIRS[:] = list(job.include_dirs)
        snippet = load_snippet(job.path, job.arch, list(job.extra))
        hit = _CACHE[key] = (snippet, snippet.kernel())
    return hit


def run_chunk(job: GridJob, grid: tuple[int, int, int], wgs: list[tuple[int, int, int]],
              shipped: bytes | None = None) -> list[WorkgroupResult]:
    """Worker entry point: run these workgroups from the initial memory, return their writes."""
    snippet, kernel = _loaded(job, shipped)
    out = []
    for wg in wgs:
        try:
            sim = _simulate(snippet, kernel, wg, grid, job, track=True)
            out.append(_traced(_result(sim, wg, True), sim, wg, grid, job))
        except GcnemuError as e:
            out.append(WorkgroupResult(wg, 0, 0, 0, str(e)))
    return out


# ---------------------------------------------------------------- the grid


def run_grid(snippet, kernel, grid: tuple[int, int, int], job: GridJob, executor: Executor | None = None,
             jobs: int | None = None, progress=None, shipped=None, result=None):
    """Run every workgroup; returns (the Simulation of workgroup (0,0,0) with the combined global
    memory in its buffers, GridRun). `executor` overrides the local process pool (`jobs` workers,
    default: one per core); `progress(done, total)` is called as chunks finish.

    `shipped` (the bytes of `ship()`, or the executor's handle on them, such as a Dask future)
    goes to every chunk so workers need not read the file. `result(future)` waits for one chunk
    in the caller's way: a cluster's caller bounds the wait when no worker is left to run it."""
    ids = workgroup_ids(grid)
    sequential = has_global_atomics(kernel)
    first = _simulate(snippet, kernel, ids[0], grid, job, track=not sequential)
    results = [_traced(_result(first, ids[0], not sequential), first, ids[0], grid, job)]
    races: list[Race] = []
    workers = 1
    if sequential:
        data = {b.name: b.data.copy() for b in first.memory.buffers if not b.name.startswith("__")}
        for k, wg in enumerate(ids[1:], start=2):
            initial = {b.name: data[b.name].view(np.asarray(b.data).dtype).reshape(np.asarray(b.data).shape)
                       for b in snippet.built.setup.buffers if b.name in data}
            sim = _simulate(snippet, kernel, wg, grid, job, track=False, buffers=initial)
            results.append(_traced(_result(sim, wg, False), sim, wg, grid, job))
            data = {b.name: b.data.copy() for b in sim.memory.buffers if not b.name.startswith("__")}
            if progress:
                progress(k, len(ids))
        for b in first.memory.buffers:
            if b.name in data:
                b.data[...] = data[b.name]
    elif len(ids) > 1:
        rest = ids[1:]
        own = executor is None
        workers = jobs or os.cpu_count() or 1
        if own and (workers <= 1 or job.path == "-"):  # in this process, with the kernel already loaded
            part = []
            for k, wg in enumerate(rest, start=2):
                try:
                    sim = _simulate(snippet, kernel, wg, grid, job, track=True)
                    part.append(_traced(_result(sim, wg, True), sim, wg, grid, job))
                except GcnemuError as e:
                    part.append(WorkgroupResult(wg, 0, 0, 0, str(e)))
                if progress:
                    progress(k, len(ids))
            chunks_out = [part]
            workers = 1
        else:
            pool = executor or ProcessPoolExecutor(max_workers=workers)
            try:
                size = max(1, min(64, len(rest) // (workers * 4) or 1))
                chunks = [rest[i:i + size] for i in range(0, len(rest), size)]
                extra = () if shipped is None else (shipped,)
                futures = [pool.submit(run_chunk, job, grid, c, *extra) for c in chunks]
                chunks_out = []
                done = 1
                for f in futures:
                    chunks_out.append(result(f) if result is not None else f.result())
                    done += len(chunks_out[-1])
                    if progress:
                        progress(done, len(ids))
            finally:
                if own:
                    pool.shutdown()
        for part in chunks_out:
            results.extend(part)
        races = _merge(first, results)
    results.sort(key=lambda r: (r.id[2], r.id[1], r.id[0]))
    return first, GridRun(grid, results, races, sequential, workers)


def _merge(first, results: list[WorkgroupResult]) -> list[Race]:
    """Lay every workgroup's written bytes over workgroup 0's memory. Bytes two workgroups wrote
    are races (one report per buffer, naming every workgroup involved); so are bytes one
    workgroup read and another wrote (one report per reading workgroup and buffer, at most
    MAX_READ_RACES per buffer), since workgroups have no order between them."""
    races: list[Race] = []
    for b in first.memory.buffers:
        owner = np.full(len(b.data), -1, dtype=np.int64)
        clashed = np.zeros(len(b.data), dtype=bool)
        involved: list[int] = []
        for k, r in enumerate(results):
            hit = r.writes.get(b.name)
            if hit is None:
                continue
            idx, vals = hit
            prev = owner[idx]
            clash = prev >= 0
            if clash.any():
                clashed[idx[clash]] = True
                for o in np.unique(prev[clash]).tolist() + [k]:
                    if o not in involved:
                        involved.append(o)
            owner[idx] = k
            b.data[idx] = vals
        if clashed.any():
            where = np.flatnonzero(clashed)
            races.append(Race(b.name, int(where[0]), int(where[-1]), int(len(where)),
                              [results[k].id for k in sorted(involved)]))
        if (owner >= 0).any():
            races += _read_races(b.name, owner, clashed, results)
    return races


MAX_READ_RACES = 4
"""Read/write race reports per buffer: past a few, more reports of the same bug only add noise."""


def _read_races(name: str, owner: np.ndarray, clashed: np.ndarray, results: list[WorkgroupResult]) -> list[Race]:
    out: list[Race] = []
    for k, r in enumerate(results):
        runs = r.reads.get(name)
        if runs is None:
            continue
        starts, ends = runs
        idx = np.concatenate([np.arange(s, e) for s, e in zip(starts.tolist(), ends.tolist())])
        who = owner[idx]
        other = (who >= 0) & ((who != k) | clashed[idx])
        if not other.any():
            continue
        where = idx[other]
        writer = int(who[other][0]) if int(who[other][0]) != k else next(
            j for j, q in enumerate(results) if j != k and name in q.writes)
        out.append(Race(name, int(where[0]), int(where[-1]), int(len(where)),
                        [r.id, results[writer].id], kind="read-write"))
        if len(out) >= MAX_READ_RACES:
            break
    return out


def race_diagnostics(run: GridRun) -> list[Diagnostic]:
    return [Diagnostic("warning", r.message(), None, rule="grid-global-race") for r in run.races]


# ---------------------------------------------------------------- the functional engine


@dataclass
class FunctionalRun:
    """A grid run by the functional engine: no cycles, the values every workgroup computed."""

    grid: tuple[int, int, int]
    waves: int
    instructions: int  # wave-instructions executed
    batched: int  # of which in one numpy call per group of waves
    seconds: float
    fallback: str | None = None  # why the launch ran on the timed engine instead (then no batching)

    def text(self) -> str:
        n = self.grid[0] * self.grid[1] * self.grid[2]
        share = 100.0 * self.batched / self.instructions if self.instructions else 0.0
        rate = self.instructions / self.seconds if self.seconds > 0 else 0.0
        return (f"functional: grid {self.grid[0]}x{self.grid[1]}x{self.grid[2]}, {n} workgroup{'s' if n != 1 else ''}, "
                f"{self.waves} waves, {self.instructions} wave-instructions ({share:.0f}% batched), "
                f"{rate:,.0f} wave-instructions/s; no timing" + (f"\nnote: {self.fallback}" if self.fallback else ""))


# Measured (issue 25, item 10: ru_maxrss of `gcnemu run --grid N --functional` at two grid
# sizes, the slope per workgroup): besides its registers, each wave costs about 2 KiB of Python
# objects, SGPRs and flags, and each workgroup twice its LDS (its own copy and the engine's
# stacked one). The old estimate counted LDS once and no per-wave overhead: half the real peak.
WAVE_OVERHEAD = 8 << 10  # bytes per wave beyond its vector registers (measured ~2 KiB, with margin)
LDS_COPIES = 2


def functional_bytes(kernel, waves_per_workgroup: int, workgroups: int, vgprs: int = 256, agprs: int = 256) -> int:
    """Memory the functional engine needs for a grid beyond the launch's buffers: every wave's
    registers (values and written-flags: 5 bytes per lane-register) and overhead, and every
    workgroup's LDS (twice, see LDS_COPIES)."""
    waves = waves_per_workgroup * workgroups
    per_wave = (vgprs + agprs) * 64 * 5 + 128 * 5 + WAVE_OVERHEAD
    return waves * per_wave + workgroups * LDS_COPIES * kernel.target.lds_bytes


def _available_bytes() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _resident_bytes() -> int:
    """This process's resident memory now (0 when /proc is not there)."""
    try:
        with open("/proc/self/statm") as f:
            import os
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def memory_budget(available: int | None = None) -> tuple[int | None, str]:
    """(bytes a functional grid may use in all, what that is): 80% of the memory available, or
    GCNEMU_MEMORY_BUDGET (bytes; K/M/G suffixes) when set and smaller."""
    import os
    have = _available_bytes() if available is None else available
    budget, what = (int(have * 0.8), f"80% of the {have:,} bytes available") if have is not None else (None, "")
    text = os.environ.get("GCNEMU_MEMORY_BUDGET", "").strip()
    if text:
        scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
        try:
            mine = int(float(text[:-1] if scale > 1 else text) * scale)
        except ValueError:
            raise GcnemuError(f"GCNEMU_MEMORY_BUDGET={text!r}: expected a number of bytes (K, M or G suffix allowed)")
        if budget is None or mine < budget:
            budget, what = mine, f"GCNEMU_MEMORY_BUDGET={text}"
    return budget, what


def check_functional_memory(kernel, waves_per_workgroup: int, grid: tuple[int, int, int],
                            available: int | None = None, wave=None) -> int:
    """The estimate (bytes); a GcnemuError before the grid's waves are allocated when it, with
    what the process already holds, does not fit the budget (`memory_budget`). `wave` (a
    launched wave) narrows the estimate to the registers the kernel uses."""
    n = grid[0] * grid[1] * grid[2]
    if wave is not None:
        from .sim.functional import used_registers
        need = functional_bytes(kernel, waves_per_workgroup, n, used_registers(kernel, wave, "v"),
                                used_registers(kernel, wave, "a"))
    else:
        need = functional_bytes(kernel, waves_per_workgroup, n)
    budget, what = memory_budget(available)
    held = _resident_bytes()
    if budget is not None and need + held > budget:
        per = max(1, need // max(n, 1))
        fits = max(0, (budget - held) // per)
        raise GcnemuError(f"--grid {grid[0]},{grid[1]},{grid[2]} --functional: {n} workgroups x {waves_per_workgroup} "
                          f"waves need about {need:,} bytes of registers and LDS (plus {held:,} already in use), "
                          f"more than the budget of {budget:,} bytes ({what}); about {fits:,} workgroups fit: run a "
                          f"smaller grid, or without --functional (the timed engine runs one workgroup at a time)")
    return need


def run_functional(snippet, kernel, grid: tuple[int, int, int] | None, job: GridJob, available: int | None = None):
    """Every workgroup of the grid (None: the one workgroup the launch names) through the
    functional engine: all waves at once, no timing. Returns (the Simulation of the first
    workgroup, whose registers and global memory hold the results, FunctionalRun).

    The grid is refused up front when its registers and LDS would not fit in memory. A kernel
    whose waves wait on each other outside s_barrier (which PC grouping cannot run) is run on
    the timed engine instead, with a note in `FunctionalRun.fallback`."""
    import time

    from .sim.context import SimError
    from .sim.engine import limits_for
    from .sim.functional import FunctionalEngine, Ungroupable
    from .sim.state import MemoryError_
    t0 = time.perf_counter()
    ids = workgroup_ids(grid) if grid else [tuple(snippet.built.setup.workgroup_id)]
    shape = grid or (1, 1, 1)
    first = _launched(snippet, kernel, ids[0], shape, job, monitor=False)
    check_functional_memory(kernel, len(first.waves), shape, available, first.waves[0])
    waves, owner, lds = _workgroup_waves(first, kernel, ids, snippet, shape, job)
    # the timed engine's limit (the option, else the header's max-instructions:, else the
    # default), per workgroup: an endless loop must stop with its message, not hang
    _, limit = limits_for(None, job.max_instructions, snippet.header)
    eng = FunctionalEngine(kernel, waves, owner, first.memory, lds, max_instructions=limit)
    first.functional = eng
    try:
        eng.run()
    except Ungroupable as e:
        return _timed_fallback(snippet, kernel, grid, job, str(e), t0, len(waves))
    except (SimError, MemoryError_) as e:  # a runtime fault is a diagnostic at its line, as in a timed run
        first._fail(e)
    eng.expand(first.waves)
    return first, FunctionalRun(shape, len(waves), eng.executed, eng.batched, time.perf_counter() - t0)


def _workgroup_waves(first, kernel, ids, snippet, shape, job):
    """Every workgroup's waves and LDS. Workgroups differ only in their workgroup-id SGPRs, so the
    others are copies of the first's launched waves with those SGPRs set (no Simulation, no
    buffer copies each); launches with per-wave scratch buffers are launched one by one."""
    import copy as copy_mod

    from .sim.state import LDS
    if first.setup.private_segment_size:
        sims = [first] + [_launched(snippet, kernel, wg, shape, job, monitor=False) for wg in ids[1:]]
        waves, owner = [], []
        for k, s in enumerate(sims):
            if k:
                _same_layout(first.memory, s.memory)
            waves.extend(s.waves)
            owner.extend([k] * len(s.waves))
        return waves, owner, [s.lds for s in sims]
    slots = first.setup.workgroup_id_sgprs
    waves, owner, lds = list(first.waves), [0] * len(first.waves), [first.lds]
    for k, wg in enumerate(ids[1:], start=1):
        for w in first.waves:
            c = copy_mod.copy(w)  # vector registers shared until the engine stacks (copies) them
            c.sgpr, c.sgpr_init = w.sgpr.copy(), w.sgpr_init.copy()
            for axis, slot in slots.items():
                c.sgpr[slot] = wg["xyz".index(axis)]
                c.sgpr_init[slot] = True
            waves.append(c)
            owner.append(k)
        x = LDS(first.lds.size)
        x.data[:] = first.lds.data
        lds.append(x)
    return waves, owner, lds


def _timed_fallback(snippet, kernel, grid, job: GridJob, why: str, t0: float, waves: int):
    import time
    if grid:
        sim, run = run_grid(snippet, kernel, grid, job, jobs=1)
        instructions = sum(r.instructions for r in run.results)
    else:
        sim = _simulate(snippet, kernel, tuple(snippet.built.setup.workgroup_id), (1, 1, 1), job, track=False)
        instructions = int(sim.instructions_executed)
    note = f"{why}: ran on the timed engine instead (per wave, interleaved by cycles)"
    sim.functional = None  # (no functional engine ran: the notes are the timed engine's)
    return sim, FunctionalRun(grid or (1, 1, 1), waves, instructions, 0, time.perf_counter() - t0, fallback=note)


def _same_layout(a, b) -> None:
    if [(x.name, x.base, len(x.data)) for x in a.buffers] != [(x.name, x.base, len(x.data)) for x in b.buffers]:
        raise GcnemuError("workgroups of this launch do not share one buffer layout; the functional engine "
                          "needs them to")
