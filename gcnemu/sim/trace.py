"""Chrome trace-event JSON of a timed run (opens in Perfetto and chrome://tracing).

Built from the engine's records only (presentation, no timing decisions). Layout:

- process "waves": per wave two tracks. "wave N issue" holds, back to back, the
  stall before each instruction (named by its reason) and the instruction's issue
  slot; "wave N in flight" holds each instruction from issue to completion as an
  async slice (they overlap: a load is in flight while later instructions issue).
- process "pipes": one track per pipe (VALU/MFMA per SIMD, VMEM, LDS, SMEM per CU)
  with the occupancy of each instruction.
- process "counters": counter tracks vmcnt / lgkmcnt / expcnt per wave.

Time unit: ``ts`` and ``dur`` are cycles (the viewer labels them microseconds;
1 us on screen = 1 cycle).
"""
from __future__ import annotations

import json
from typing import Any

PID_WAVES, PID_PIPES, PID_COUNTERS = 1, 2, 3


def _engine(sim_or_engine):
    return getattr(sim_or_engine, "engine", sim_or_engine)


def trace_events(sim_or_engine) -> list[dict[str, Any]]:
    eng = _engine(sim_or_engine)
    ins = eng.kernel.instructions
    interval = eng.interval
    ev: list[dict[str, Any]] = []

    def meta(pid: int, tid: int | None, what: str, name: str, sort: int | None = None) -> None:
        e: dict[str, Any] = {"ph": "M", "pid": pid, "name": what, "args": {"name": name}}
        if tid is not None:
            e["tid"] = tid
        ev.append(e)
        if sort is not None:
            ev.append({"ph": "M", "pid": pid, **({"tid": tid} if tid is not None else {}),
                       "name": "thread_sort_index" if tid is not None else "process_sort_index",
                       "args": {"sort_index": sort}})

    meta(PID_WAVES, None, "process_name", "waves", 0)
    meta(PID_PIPES, None, "process_name", "pipes", 1)
    meta(PID_COUNTERS, None, "process_name", "counters", 2)
    for w in eng.waves:
        meta(PID_WAVES, 2 * w.wid, "thread_name", f"wave {w.wid} issue (SIMD {w.simd})", 2 * w.wid)
        meta(PID_WAVES, 2 * w.wid + 1, "thread_name", f"wave {w.wid} in flight", 2 * w.wid + 1)

    counters: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for n, r in enumerate(eng.records):
        d = eng.decoded[r.index]
        i = ins[r.index]
        text = i.text()
        args = {"line": i.span.line, "text": text, "issue": r.issue, "complete": r.complete}
        t = r.ready
        for reason, cycles in r.stalls.items():
            ev.append({"ph": "X", "pid": PID_WAVES, "tid": 2 * r.wave, "ts": t, "dur": cycles,
                       "name": f"stall: {reason}", "cat": "stall", "args": {"line": i.span.line, "text": text}})
            t += cycles
        ev.append({"ph": "X", "pid": PID_WAVES, "tid": 2 * r.wave, "ts": r.issue, "dur": interval,
                   "name": i.mnemonic, "cat": d.pipe, "args": args})
        if r.complete - r.issue > 1:
            common = {"pid": PID_WAVES, "tid": 2 * r.wave + 1, "cat": d.pipe, "id": n, "name": i.mnemonic}
            ev.append({"ph": "b", "ts": r.issue, "args": args, **common})
            ev.append({"ph": "e", "ts": r.complete, **common})
        for c in d.counters:
            lst = counters.setdefault((r.wave, c), [])
            lst.append((r.issue, 1))
            lst.append((r.complete, -1))

    tids: dict[tuple, int] = {}
    from .engine import PipeUse
    for raw in eng.pipe_log:
        use = PipeUse(*raw)
        key = (use.pipe, use.simd)
        if key not in tids:
            tids[key] = len(tids)
            label = f"{use.pipe} SIMD {use.simd}" if use.simd is not None else f"{use.pipe} (CU)"
            meta(PID_PIPES, tids[key], "thread_name", label, tids[key])
        i = ins[use.index]
        ev.append({"ph": "X", "pid": PID_PIPES, "tid": tids[key], "ts": use.start, "dur": use.end - use.start,
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
            ev.append({"ph": "C", "pid": PID_COUNTERS, "ts": ts, "name": f"wave {wave} {names[c]}",
                       "args": {names[c]: value}})
    return ev


def trace_json(sim_or_engine) -> dict[str, Any]:
    eng = _engine(sim_or_engine)
    return {
        "traceEvents": trace_events(eng),
        "displayTimeUnit": "ns",
        "otherData": {"generator": "gcnemu", "target": eng.target.name, "cycles": eng.cycle,
                      "time_unit": "1 trace microsecond = 1 GPU cycle"},
    }


def write_trace(sim, path: str) -> None:
    """Write the Chrome trace of a finished (or stopped) Simulation/Engine to `path`."""
    data = trace_json(sim)
    with open(path, "w") as fh:
        json.dump(data, fh, separators=(",", ":"))
