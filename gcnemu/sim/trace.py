"""Chrome trace-event JSON of a timed run (opens in Perfetto and chrome://tracing).

Built from the engine's records only (presentation, no timing decisions). Layout: one process
track per workgroup ("workgroup (x, y, z)"; a grid run has one per workgroup), holding

- per wave three threads: "wave N issue" with each instruction's issue slot, "wave N stalls"
  with the cycles before an issue, named by their reason, and "wave N in flight" with each
  instruction from issue to completion as async slices (they overlap: a load is in flight while
  later instructions issue, so they are async events, which viewers stack by id).
  Stalls have a thread of their own: a wave may start waiting for its next instruction (an
  s_barrier's wait, say) while the previous one's issue slot is still open, and two slices on
  one thread that partly overlap are mis-nested by Perfetto.
- one thread per pipe (VALU/MFMA per SIMD, VMEM, LDS, SMEM per CU) with each occupancy;
- counter tracks vmcnt / lgkmcnt / expcnt per wave.

Time: the trace-event format's `ts` and `dur` are microseconds; gcnemu writes GPU cycles there,
so 1 us of trace time is 1 cycle (integers: exact in every viewer). `displayTimeUnit` is "ms",
the format's default, so chrome://tracing's "1 ms" is 1,000 cycles; Perfetto ignores the key.
`otherData` says this in words, and every slice's args hold its exact cycles.
"""
from __future__ import annotations

import json
import os
import tempfile
from typing import IO, Any, Callable

TIME_UNIT = ("ts and dur are GPU cycles written as trace microseconds: 1 us of trace time = 1 cycle "
             "(so a viewer's 1 ms = 1,000 cycles)")
PIPE_TID0 = 1000  # pipe threads follow the waves' (three per wave)


def _engine(sim_or_engine):
    return getattr(sim_or_engine, "engine", sim_or_engine)


def _workgroup_of(sim_or_engine) -> tuple[int, int, int]:
    setup = getattr(sim_or_engine, "setup", None)
    return tuple(getattr(setup, "workgroup_id", (0, 0, 0)))


def wave_tids(wave: int) -> tuple[int, int, int]:
    """(issue, stalls, in flight) thread ids of a wave."""
    return 3 * wave, 3 * wave + 1, 3 * wave + 2


def trace_events(sim_or_engine, pid: int = 1, workgroup: tuple[int, int, int] | None = None) -> list[dict[str, Any]]:
    """The events of one workgroup's run, on process `pid`."""
    eng = _engine(sim_or_engine)
    wg = tuple(workgroup) if workgroup is not None else _workgroup_of(sim_or_engine)
    ins = eng.kernel.instructions
    interval = eng.interval
    ev: list[dict[str, Any]] = []

    def meta(tid: int | None, what: str, name: str, sort: int) -> None:
        where: dict[str, Any] = {"pid": pid} if tid is None else {"pid": pid, "tid": tid}
        ev.append({"ph": "M", **where, "name": what, "args": {"name": name}})
        ev.append({"ph": "M", **where, "name": "thread_sort_index" if tid is not None else "process_sort_index",
                   "args": {"sort_index": sort}})

    meta(None, "process_name", f"workgroup ({wg[0]}, {wg[1]}, {wg[2]})", pid)
    for w in eng.waves:
        issue, stalls, flight = wave_tids(w.wid)
        meta(issue, "thread_name", f"wave {w.wid} issue (SIMD {w.simd})", issue)
        meta(stalls, "thread_name", f"wave {w.wid} stalls", stalls)
        meta(flight, "thread_name", f"wave {w.wid} in flight", flight)

    counters: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for n, r in enumerate(eng.records):
        d = eng.decoded[r.index]
        i = ins[r.index]
        text = i.text()
        issue_tid, stall_tid, flight_tid = wave_tids(r.wave)
        args = {"line": i.span.line, "text": text, "ready": r.ready, "issue": r.issue, "complete": r.complete}
        t = r.ready
        for reason, cycles in r.stalls.items():
            if cycles > 0:
                ev.append({"ph": "X", "pid": pid, "tid": stall_tid, "ts": t, "dur": cycles,
                           "name": f"stall: {reason}", "cat": "stall",
                           "args": {"line": i.span.line, "text": text, "cycles": cycles}})
            t += cycles
        ev.append({"ph": "X", "pid": pid, "tid": issue_tid, "ts": r.issue, "dur": interval,
                   "name": i.mnemonic, "cat": d.pipe, "args": args})
        if r.complete - r.issue > 1:
            common = {"pid": pid, "tid": flight_tid, "cat": d.pipe, "id": f"{pid}.{n}", "name": i.mnemonic}
            ev.append({"ph": "b", "ts": r.issue, "args": args, **common})
            ev.append({"ph": "e", "ts": r.complete, **common})
        for c in d.counters:
            lst = counters.setdefault((r.wave, c), [])
            lst.append((r.issue, 1))
            lst.append((r.complete, -1))

    tids: dict[tuple, int] = {}
    lane_end: dict[tuple, list[int]] = {}  # (pipe, simd) -> when each of its lanes is free again
    from .engine import PipeUse
    for raw in sorted(eng.pipe_log, key=lambda u: (PipeUse(*u).start, PipeUse(*u).end)):
        use = PipeUse(*raw)
        # a unit that serves several requests at once (the LDS path of a SIMD pair) gets one track
        # per request in progress: slices on one track never partly overlap (Perfetto mis-nests them)
        ends = lane_end.setdefault((use.pipe, use.simd), [])
        lane = next((k for k, e in enumerate(ends) if e <= use.start), len(ends))
        if lane == len(ends):
            ends.append(use.end)
        else:
            ends[lane] = use.end
        key = (use.pipe, use.simd, lane)
        if key not in tids:
            tids[key] = PIPE_TID0 + len(tids)
            label = f"{use.pipe} SIMD {use.simd}" if use.simd is not None else f"{use.pipe} (CU)"
            meta(tids[key], "thread_name", label + (f" ({lane + 1})" if lane else ""), tids[key])
        i = ins[use.index]
        ev.append({"ph": "X", "pid": pid, "tid": tids[key], "ts": use.start, "dur": use.end - use.start,
                   "name": i.mnemonic, "cat": use.pipe,
                   "args": {"wave": use.wave, "line": i.span.line, "text": i.text()}})

    names = {"vm": "vmcnt", "lgkm": "lgkmcnt", "exp": "expcnt"}
    for (wave, c), changes in sorted(counters.items()):
        value = 0
        changes.sort()
        for k, (ts, delta) in enumerate(changes):
            value += delta
            if k + 1 < len(changes) and changes[k + 1][0] == ts:
                continue  # one sample per cycle
            ev.append({"ph": "C", "pid": pid, "ts": ts, "name": f"wave {wave} {names[c]}",
                       "args": {names[c]: value}})
    return ev


def _document(events: list[dict[str, Any]], target: str, cycles: int, **more) -> dict[str, Any]:
    return {
        "traceEvents": events,
        "displayTimeUnit": "ms",
        "otherData": {"generator": "gcnemu", "target": target, "cycles": cycles, "time_unit": TIME_UNIT,
                      "trace_us_per_cycle": 1, **more},
    }


def trace_json(sim_or_engine) -> dict[str, Any]:
    """The trace of one workgroup's run (a Simulation or its Engine)."""
    eng = _engine(sim_or_engine)
    return _document(trace_events(sim_or_engine), eng.target.name, eng.cycle)


def grid_trace_json(target: str, grid: tuple[int, int, int], results) -> dict[str, Any]:
    """The trace of a grid run: each workgroup's events (grid.WorkgroupResult.trace, on its own
    process) in one document. Workgroups all start at cycle 0: gcnemu runs each from the launch,
    as if each had a CU to itself."""
    events: list[dict[str, Any]] = []
    for r in results:
        events.extend(r.trace or [])
    return _document(events, target, max((r.cycles for r in results), default=0), grid=list(grid),
                     workgroups=len(results),
                     note="one process per workgroup; each workgroup's cycles count from its own start")


def write_whole(path: str, write: Callable[[IO[bytes]], None]) -> None:
    """Call `write(fh)` on a temporary file next to `path`, then rename it over `path`, so a
    failure half-way (a full disk) leaves no half-written file. A destination that exists and
    is not a regular file (/dev/stdout, /dev/full, a FIFO) is written in place: a rename would
    replace the device itself."""
    if os.path.exists(path) and not os.path.isfile(path):
        if os.path.isdir(path):
            raise IsADirectoryError(21, "Is a directory", path)
        with open(path, "wb") as fh:
            write(fh)
        return
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # what open() would have given (mkstemp's files are 0600)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_json(data: dict[str, Any], path: str) -> None:
    """Write a trace document whole (see write_whole)."""
    write_whole(path, lambda fh: fh.write(json.dumps(data, separators=(",", ":")).encode()))


def write_trace(sim, path: str) -> None:
    """Write the Chrome trace of a finished (or stopped) Simulation/Engine to `path`."""
    write_json(trace_json(sim), path)
