"""Where time went, per instruction class: the `timeline` and `run` breakdown (text and JSON).

Why: a kernel's cycle count says how long, not why. The engine already knows, per issue, the
cycles a wave waited before it and the reason (`IssueRecord.stalls`); it keeps the totals per
instruction (`Engine.issued`, `Engine.stalled`, `Engine.cache_hits`) even when a plain run
keeps no per-issue history. This view folds them into one row per instruction class (the
instruction's pipe: valu, trans, mfma, salu, smem, vmem, lds, branch, waitcnt, ...), summed
over the waves, in the columns a reader asks about:

- issue: the wave's own issue turns (one `issue_interval` per instruction issued);
- dependency: waiting for an interlocked register result (SALU/VALU/transcendental);
- counter wait: `s_waitcnt` on vmcnt/lgkmcnt/expcnt, or a counter at its maximum;
- pipe busy: the pipe (or the SIMD's issue category) taken by an earlier instruction;
- co-issue conflict: the VALU/matrix-core sharing rules (isa.coissue): a VALU op after an MFMA
  within its co-execution delay, an MFMA behind a transcendental, packed FP32 behind an MFMA;
- other: s_nop/s_sleep holds, taken-branch redirects, s_barrier;
- cache: how many vector-memory accesses hit each cache level (filled when the memory model
  names levels; empty with a flat latency).

Stall cycles belong to the instruction that waited, so `s_waitcnt`'s row holds the counter waits.
"""
from __future__ import annotations

COLUMNS = ("issue", "dependency", "counter wait", "pipe busy", "co-issue conflict", "other")


def column_of(reason: str) -> str:
    """The breakdown column of an engine stall reason."""
    if reason == "dependency":
        return "dependency"
    if reason.startswith("waitcnt") or reason == "counter full":
        return "counter wait"
    if reason == "pipe busy":
        return "pipe busy"
    if reason == "co-issue conflict":
        return "co-issue conflict"
    return "other"


def time_by_class(engine) -> dict:
    """{class: {"instructions": n, "issue": c, "dependency": c, ..., "cache": {level: n}}}, by
    total cycles (issue + stalls), largest first; plus the reasons folded into "other"."""
    issued = getattr(engine, "issued", None)
    if issued is None:
        return {}
    decoded = engine.decoded
    iv = max(1, engine.lat.issue_interval)
    out: dict[str, dict] = {}

    def row(cls: str) -> dict:
        r = out.get(cls)
        if r is None:
            r = out[cls] = {"instructions": 0, **{c: 0 for c in COLUMNS}, "other_reasons": {}, "cache": {}}
        return r

    for index, n in enumerate(issued):
        if n:
            r = row(decoded[index].pipe)
            r["instructions"] += n
            r["issue"] += n * iv
    for index, stalls in engine.stalled.items():
        r = row(decoded[index].pipe)
        for reason, cycles in stalls.items():
            col = column_of(reason)
            r[col] += cycles
            if col == "other":
                r["other_reasons"][reason] = r["other_reasons"].get(reason, 0) + cycles
    for index, levels in engine.cache_hits.items():
        r = row(decoded[index].pipe)
        for level, count in levels.items():
            r["cache"][level] = r["cache"].get(level, 0) + count
    for r in out.values():
        r["total"] = sum(r[c] for c in COLUMNS)
    return dict(sorted(out.items(), key=lambda kv: (-kv[1]["total"], kv[0])))


def render(engine) -> str:
    """The breakdown as a text table (cycles summed over waves)."""
    data = time_by_class(engine)
    if not data:
        return ""
    head = ("class", "instrs", *COLUMNS, "total", "cache hits")
    body = []
    for cls, r in data.items():
        cache = ", ".join(f"{k} {v}" for k, v in r["cache"].items()) or "-"
        body.append((cls, str(r["instructions"]), *(str(r[c]) for c in COLUMNS), str(r["total"]), cache))
    total = {c: sum(r[c] for r in data.values()) for c in COLUMNS}
    body.append(("all", str(sum(r["instructions"] for r in data.values())), *(str(total[c]) for c in COLUMNS),
                 str(sum(total.values())), ""))
    widths = [max(len(h), *(len(b[i]) for b in body)) for i, h in enumerate(head)]
    lines = ["Where time went (cycles summed over waves, by instruction class):"]
    lines.append("  " + "  ".join(h.rjust(w) if 0 < i < len(head) - 1 else h.ljust(w)
                                  for i, (h, w) in enumerate(zip(head, widths))))
    for b in body:
        lines.append("  " + "  ".join(c.rjust(w) if 0 < i < len(head) - 1 else c.ljust(w)
                                      for i, (c, w) in enumerate(zip(b, widths))).rstrip())
    other = {}
    for r in data.values():
        for k, v in r["other_reasons"].items():
            other[k] = other.get(k, 0) + v
    if other:
        lines.append("  other: " + ", ".join(f"{k} {v}" for k, v in sorted(other.items(), key=lambda kv: -kv[1])))
    return "\n".join(lines)
