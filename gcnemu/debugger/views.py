"""Text views of the machine: registers, memory, counters, pipes, matrices, source, waves, hazards.

Pure functions from values (or a Simulation plus a cycle) to text, so the same
view serves the REPL, batch transcripts and tests. They never advance or
change the simulation.
"""
from __future__ import annotations

import numpy as np

from . import probe
from .regs import RegRef

FORMATS = ("x", "u", "i", "d", "f", "f16", "bf16", "f64", "t")
FORMAT_HELP = "/x hex (default), /i or /d signed, /u unsigned, /f f32, /f16 and /bf16 (low,high halves), " \
              "/f64 (register pairs), /t binary"
UNINIT = "?"  # shown for lanes/registers never written (they hold poison)


class ViewError(ValueError):
    """A request a view cannot satisfy (bad format, register count mismatch...)."""


def check_format(fmt: str | None) -> str:
    f = (fmt or "x").lower()
    if f == "d":
        f = "i"
    if f not in FORMATS:
        raise ViewError(f"unknown format '/{fmt}' ({FORMAT_HELP})")
    return f


# ---------------------------------------------------------------------- scalars and lanes

def _half_floats(bits: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    lo = (bits & np.uint32(0xFFFF)).astype(np.uint16)
    hi = (bits >> np.uint32(16)).astype(np.uint16)
    if kind == "f16":
        return lo.view(np.float16).astype(np.float32), hi.view(np.float16).astype(np.float32)
    return ((lo.astype(np.uint32) << np.uint32(16)).view(np.float32),
            (hi.astype(np.uint32) << np.uint32(16)).view(np.float32))


def _g(x: float) -> str:
    return f"{float(x):.7g}"


def format_words(words, fmt: str) -> list[str]:
    """uint32 words -> one string per word in format `fmt` (f64 handled by the caller)."""
    w = np.asarray(words, dtype=np.uint32).reshape(-1)
    if fmt == "x":
        return [f"0x{int(v):08x}" for v in w]
    if fmt == "u":
        return [str(int(v)) for v in w]
    if fmt == "i":
        return [str(int(v)) for v in w.view(np.int32)]
    if fmt == "f":
        return [_g(v) for v in w.view(np.float32)]
    if fmt == "t":
        return [f"{int(v):032b}" for v in w]
    if fmt in ("f16", "bf16"):
        lo, hi = _half_floats(w, fmt)
        return [f"{_g(a)},{_g(b)}" for a, b in zip(lo, hi)]
    raise ViewError(f"format /{fmt} does not apply here")


def _pairs_f64(words: np.ndarray) -> list[str]:
    u = words[0::2].astype(np.uint64) | (words[1::2].astype(np.uint64) << np.uint64(32))
    return [f"{float(v):.15g}" for v in u.view(np.float64)]


def _mask_text(value: int) -> str:
    lanes = [i for i in range(64) if value >> i & 1]
    if not lanes:
        return "no lanes"
    runs = []
    start = prev = lanes[0]
    for lane in lanes[1:] + [None]:
        if lane is not None and lane == prev + 1:
            prev = lane
            continue
        runs.append(f"{start}" if start == prev else f"{start}-{prev}")
        if lane is not None:
            start = prev = lane
    return f"{len(lanes)} lane{'s' if len(lanes) != 1 else ''}: {','.join(runs)}"


def format_scalar(ref: RegRef, words: np.ndarray, init: np.ndarray, fmt: str, fmt_given: bool) -> str:
    """SGPRs, specials, scc: one line."""
    if ref.file == "scc":
        return f"scc = {int(words[0])}"
    vals = [int(v) for v in words]
    if not init.all():
        note = "  (never written: holds poison)"
    else:
        note = ""
    if ref.count == 2 and ref.name in ("exec", "vcc", "xnack_mask", "flat_scratch") and not fmt_given:
        v = vals[0] | vals[1] << 32
        extra = f" ({_mask_text(v)})" if ref.name in ("exec", "vcc", "xnack_mask") and not note else ""
        return f"{ref.name} = 0x{v:016x}{extra}{note}"
    if fmt == "f64":
        if ref.count % 2:
            raise ViewError(f"/f64 needs an even number of registers; {ref.name} has {ref.count}")
        return f"{ref.name} = {' '.join(_pairs_f64(np.asarray(words, np.uint32)))}{note}"
    texts = format_words(words, fmt)
    if fmt == "x" and ref.count == 1 and note:
        return f"{ref.name} = {texts[0]}{note}"
    if fmt == "x" and ref.count == 1:
        signed = np.asarray(words, np.uint32).view(np.int32)[0]
        dec = f" ({vals[0]})" if signed >= 0 else f" ({vals[0]}, signed {int(signed)})"
        return f"{ref.name} = {texts[0]}{dec}{note}"
    line = f"{ref.name} = {' '.join(texts)}"
    if ref.count == 2 and fmt == "x":
        line += f"  (64-bit 0x{vals[0] | vals[1] << 32:016x})"
    return line + note


def format_vector(ref: RegRef, words: np.ndarray, init: np.ndarray, fmt: str, per_row: int = 8) -> str:
    """VGPRs/AGPRs: each register's 64 lanes (or the selected lanes), uninitialised lanes as '?'."""
    lanes = list(ref.lanes) if ref.lanes is not None else list(range(64))
    names = ref.names()
    rows: list[str] = []
    if fmt == "f64":
        if ref.count % 2:
            raise ViewError(f"/f64 needs an even number of registers; {ref.name} has {ref.count}")
        items = []
        for k in range(0, ref.count, 2):
            vals = _pairs_f64(np.stack([words[k], words[k + 1]]).T.reshape(-1))
            ok = init[k] & init[k + 1]
            items.append((f"{names[k]}:{names[k + 1]}", vals, ok))
    else:
        items = [(names[k], format_words(words[k], fmt), init[k]) for k in range(ref.count)]
    for name, vals, ok in items:
        texts = [vals[lane] if ok[lane] else UNINIT for lane in lanes]
        label = name if ref.lanes is None else f"{name}[lane{'s' if len(lanes) > 1 else ''} " \
                                                 f"{lanes[0]}{':' + str(lanes[-1]) if len(lanes) > 1 else ''}]"
        if len(lanes) == 1:
            rows.append(f"{label} = {texts[0]}")
            continue
        if len(set(texts)) == 1 and len(lanes) == 64:
            what = "never written (poison)" if texts[0] == UNINIT else texts[0]
            rows.append(f"{label} = {what} (all 64 lanes)")
            continue
        width = max(len(t) for t in texts)
        rows.append(f"{label}:")
        for start in range(0, len(lanes), per_row):
            chunk = texts[start:start + per_row]
            first = lanes[start]
            rows.append(f"  [{first:2d}] " + " ".join(t.rjust(width) for t in chunk))
    return "\n".join(rows)


def format_in_flight(ref: RegRef, wave, fmt: str | None, flights: dict, line_of) -> str:
    """A register whose newest write has not landed: the value it will hold (tagged with the
    producing line and landing cycle) and the old value that a reader without the hardware
    interlock sees until then. "never written" would be wrong while a result is on its way.

    `flights` maps (file, index) -> probe.InFlight; `line_of(index)` gives a source line."""
    f = check_format(fmt)
    words, init = ref.read(wave), ref.initialised(wave)
    names = ref.names() if ref.count > 1 else [ref.name]
    out: list[str] = []
    for k, name in enumerate(names):
        sub = RegRef(ref.file, ref.index + k, 1, name, ref.lanes)
        old_w, old_i = words[k:k + 1], init[k:k + 1]

        def show(w, i) -> str:
            return format_vector(sub, w, i, f) if sub.is_vector else format_scalar(sub, w, i, f, fmt is not None)

        fl = flights.get((ref.file, ref.index + k)) if ref.file != "scc" else flights.get(("scc", 0))
        if fl is None:
            out.append(show(old_w, old_i))
            continue
        where = f"line {line_of(fl.producer)}" if fl.producer is not None else "an earlier instruction"
        tag = f"[in flight from {where}, lands @{fl.cycle}]"
        if fl.values is None:
            out.append(f"{sub.label} = {tag} a load: its value is read from memory when it lands")
        else:
            new_w, new_i = old_w.copy(), old_i.copy()
            if sub.is_vector:
                lanes = np.ones(64, bool) if fl.mask is None else fl.mask
                new_w[0] = np.where(lanes, fl.values, old_w[0])
                new_i[0] = old_i[0] | lanes
            else:
                new_w[0], new_i[0] = fl.values[0], True
            text = show(new_w, new_i)
            head = f"{sub.label} = " if text.startswith(f"{sub.label} = ") else f"{sub.label}:"
            out.append(text.replace(head.rstrip(), f"{head.rstrip()} {tag}", 1))
        old = show(old_w, old_i)
        old = " " + old.split(" = ", 1)[1] if old.startswith(f"{sub.label} = ") else "\n" + old.split("\n", 1)[1]
        out.append(f"  until @{fl.cycle}, a reader without the interlock (a VMEM/LDS address, an MFMA "
                   f"too soon, a read before its s_waitcnt) sees:{old}")
    return "\n".join(out)


def format_register(ref: RegRef, wave, fmt: str | None) -> str:
    f = check_format(fmt)
    words, init = ref.read(wave), ref.initialised(wave)
    if ref.is_vector:
        return format_vector(ref, words, init, f)
    return format_scalar(ref, words, init, f, fmt is not None)


def format_value(label: str, value, fmt: str | None) -> str:
    """An expression's value: a number, or one value per lane."""
    if isinstance(value, np.ndarray) and value.size > 1:
        vals = value.reshape(-1)
        if vals.dtype == bool:
            texts = ["1" if v else "0" for v in vals]
        elif vals.dtype.kind == "f":
            texts = [_g(v) for v in vals]
        elif fmt in (None, "i", "u"):
            texts = [str(int(v)) for v in vals]
        else:
            texts = [f"0x{int(v) & 0xFFFFFFFFFFFFFFFF:x}" for v in vals]
        if len(set(texts)) == 1:
            return f"{label} = {texts[0]} (all {len(texts)} lanes)"
        width = max(len(t) for t in texts)
        rows = [f"{label}:"]
        for start in range(0, len(texts), 8):
            rows.append(f"  [{start:2d}] " + " ".join(t.rjust(width) for t in texts[start:start + 8]))
        return "\n".join(rows)
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0].item()
    if isinstance(value, (bool, np.bool_)):
        return f"{label} = {'true' if value else 'false'}"
    if isinstance(value, float):
        return f"{label} = {_g(value)}"
    v = int(value)
    if fmt == "x":
        return f"{label} = 0x{v & 0xFFFFFFFFFFFFFFFF:x}"
    return f"{label} = {v}" + (f" (0x{v:x})" if v > 9 else "")


# ---------------------------------------------------------------------- memory

def format_memory(base: int, data: np.ndarray, fmt: str | None, label=None, per_row: int = 4) -> str:
    """Dwords of LDS or global memory with their addresses. `label(addr)` names an address."""
    f = check_format(fmt)
    raw = np.asarray(data, dtype=np.uint8)
    pad = (-len(raw)) % 4
    words = np.frombuffer(np.concatenate([raw, np.zeros(pad, np.uint8)]).tobytes(), "<u4")
    if f == "f64":
        if len(words) % 2:
            words = np.concatenate([words, np.zeros(1, np.uint32)])
        texts = _pairs_f64(words)
        step = 8
    else:
        texts = format_words(words, f)
        step = 4
    width = max((len(t) for t in texts), default=0)
    rows = []
    for start in range(0, len(texts), per_row):
        addr = base + start * step
        name = f" <{label(addr)}>" if label else ""
        rows.append(f"0x{addr:x}{name}: " + " ".join(t.rjust(width) for t in texts[start:start + per_row]))
    return "\n".join(rows)


# ---------------------------------------------------------------------- matrices

def format_matrix(mat: np.ndarray, title: str, fmt: str | None, width: int = 100, row_name="row",
                  col_name="col", known: np.ndarray | None = None) -> str:
    """A (blocks, rows, cols) matrix as grids, split into column pages that fit `width`.
    `known` (same shape, bool): False where an element comes from never-written lanes, shown
    as `?` like every other view of poison."""
    f = check_format(fmt) if fmt else None
    out = [title]
    for b in range(mat.shape[0]):
        m = mat[b]
        if f in ("x", "t", "u", "i"):
            if m.dtype.kind == "f":
                bits = m.view({2: np.uint16, 4: np.uint32, 8: np.uint64, 1: np.uint8}[m.dtype.itemsize])
            else:
                bits = m
            nd = m.dtype.itemsize * 2
            cells = [[(f"{int(v):0{nd}x}" if f == "x" else str(int(v))) for v in row] for row in bits]
        elif m.dtype.kind == "f" or str(m.dtype) in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
            cells = [[f"{float(v):.4g}" for v in row] for row in m.astype(np.float64)]
        else:
            cells = [[str(int(v)) for v in row] for row in m]
        if known is not None:
            cells = [[c if known[b][r][k] else UNINIT for k, c in enumerate(row)] for r, row in enumerate(cells)]
        cw = max(len(c) for row in cells for c in row)
        cw = max(cw, len(str(m.shape[1] - 1)))
        lw = len(str(m.shape[0] - 1)) + 1
        per_page = max(1, (width - lw - 3) // (cw + 1))
        if mat.shape[0] > 1:
            out.append(f"block {b}:")
        for c0 in range(0, m.shape[1], per_page):
            cols = range(c0, min(m.shape[1], c0 + per_page))
            if m.shape[1] > per_page:
                out.append(f"  {col_name}s {cols[0]}..{cols[-1]}:")
            out.append(" " * (lw + 3) + " ".join(str(c).rjust(cw) for c in cols))
            for r in range(m.shape[0]):
                out.append(f"{r:>{lw}} | " + " ".join(cells[r][c].rjust(cw) for c in cols))
    return "\n".join(out)


# ---------------------------------------------------------------------- timing views

def _ins_text(kernel, index: int) -> str:
    ins = kernel.instructions[index]
    return f"line {ins.span.line:<4} {ins.text()}"


def format_counters(sim, wave: int, now: int) -> str:
    """vmcnt/lgkmcnt/expcnt of a wave with the operations each one counts."""
    t = sim.kernel.target
    maxima = {"vm": t.vmcnt_max, "lgkm": t.lgkmcnt_max, "exp": t.expcnt_max}
    ops = probe.counters(sim, wave, now)
    out = [f"wave {wave}, cycle {now}:"]
    for counter in ("vm", "lgkm", "exp"):
        lst = ops.get(counter, [])
        out.append(f"  {counter + 'cnt':8} {len(lst):3}   (max {maxima[counter]})")
        for o in lst:
            left = o.complete - now
            out.append(f"      {_ins_text(sim.kernel, o.index)}")
            out.append(f"          {o.kind}, issued @{o.issue}, completes @{o.complete} (in {left})")
    return "\n".join(out)


def format_pipeline(sim, now: int) -> str:
    """What each pipe is busy with, and the results still in flight per wave."""
    busy = probe.pipes(sim, now)
    out = [f"cycle {now}:"]
    if not busy:
        out.append("  all pipes idle")
    for p in sorted(busy, key=lambda p: (p.simd if p.simd is not None else 99, p.pipe)):
        unit = f"SIMD{p.simd}" if p.simd is not None else "CU"
        what = _ins_text(sim.kernel, p.index) if p.index is not None else "?"
        who = f"wave {p.wave}, " if p.wave is not None else ""
        since = f"issued @{p.start}, " if p.start is not None else ""
        out.append(f"  {unit:6} {p.pipe:6} busy until @{p.end} ({who}{since}{p.end - now} more): {what}")
    eff = [e for e in probe.effects(sim) if e.cycle > now]
    if eff:
        out.append("results in flight:")
        for e in sorted(eff, key=lambda e: (e.cycle, e.seq)):
            dest = describe_targets(e)
            src = _ins_text(sim.kernel, e.producer) if e.producer is not None else "?"
            out.append(f"  wave {e.wave}: {dest:18} lands @{e.cycle} (in {e.cycle - now})  from {src}")
    return "\n".join(out)


def reg_ranges(regs) -> str:
    """{('v', 4), ('v', 5)} -> 'v[4:5]' (grouped per file, consecutive runs)."""
    from ..sim.state import SPECIAL_SLOTS
    slot_names = {slot: name for name, (slot, n) in SPECIAL_SLOTS.items() if n == 1 and not name.endswith("_lo")}
    slot_names.update({106: "vcc_lo", 107: "vcc_hi", 126: "exec_lo", 127: "exec_hi", 124: "m0"})
    parts = []
    by_file: dict[str, list[int]] = {}
    for f, i in regs:
        by_file.setdefault(f, []).append(i)
    for f in sorted(by_file):
        idx = sorted(set(by_file[f]))
        if f == "scc":
            parts.append("scc")
            continue
        start = prev = idx[0]
        for i in idx[1:] + [None]:
            if i is not None and i == prev + 1:
                prev = i
                continue
            if f == "s" and start >= 102:
                parts.extend(slot_names.get(k, f"s{k}") for k in range(start, prev + 1))
            else:
                parts.append(f"{f}{start}" if start == prev else f"{f}[{start}:{prev}]")
            if i is not None:
                start = prev = i
    return ", ".join(parts)


def describe_targets(e: probe.Effect) -> str:
    parts = []
    if e.regs:
        parts.append(reg_ranges(e.regs))
    for lo, hi in e.lds:
        parts.append(f"lds[0x{lo:x}:0x{hi:x}]")
    if not parts:
        parts.append(e.kind)
    return ", ".join(parts)


def format_waves(sim, current: int, now: int) -> str:
    """One row per wave. Columns widen to their longest entry (never cut: a cycle such as
    `until @100000008` or a line number must read whole)."""
    n = len(sim.kernel.instructions)
    cells = []
    for wi in range(len(sim.engine.waves)):
        st = sim.engine.waves[wi].state
        status = probe.wave_status(sim, wi, now)
        text = status.state
        if status.reason:
            text += f" ({status.reason})"
        if status.until is not None:
            text += f" until @{status.until}"
        line = sim.kernel.instructions[st.pc].span.line if st.pc < n and not st.done else "-"
        c = probe.counters(sim, wi, now)
        simd = probe.simd(sim, wi)
        cells.append(("*" if wi == current else " ", str(wi), "-" if simd is None else str(simd), str(line),
                      str(st.pc), text, str(probe.issued(sim, wi)), str(len(c["vm"])), str(len(c["lgkm"])),
                      str(len(c["exp"]))))
    head = ("", "wave", "simd", "line", "pc", "state", "issued", "vm", "lgkm", "exp")
    least = (1, 5, 5, 5, 4, 36, 7, 2, 4, 0)  # the widths the table always had
    widths = [max([m, len(h)] + [len(r[k]) for r in cells]) for k, (h, m) in enumerate(zip(head, least))]
    widths[-1] = 0  # the last column is not padded
    return "\n".join(" ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [head] + cells)


def format_hazard(sim, h) -> str:
    """A hazard event as a diagnostic at the consumer with a note at the producer."""
    from ..asm.diagnostics import Diagnostic, render
    ins = sim.kernel.instructions
    cons = ins[h.consumer] if 0 <= h.consumer < len(ins) else None
    prod = ins[h.producer] if 0 <= h.producer < len(ins) else None
    lands = getattr(h, "lands", 0)
    note = Diagnostic("note", f"{prod.mnemonic} was issued here" + (f"; its result lands @{lands}" if lands else ""),
                      prod.span) if prod else None
    notes = [note] if note else []
    detail = h.detail(cons.mnemonic if cons else "") if hasattr(h, "detail") else None
    if detail:  # which lanes read what stale value: what the user compares with the right one
        notes.append(Diagnostic("note", detail, None))
    d = Diagnostic("warning", f"{h.message} (wave {h.wave})", cons.span if cons else None,
                   rule=h.rule, notes=notes)
    return render(d, sim.kernel.program.lines)


def format_source(sim, wave: int, now: int, center_line: int, size: int, breakpoints: set[int]) -> str:
    """Source lines around `center_line` with markers.

    `=>` next instruction of the wave (PC), `~` issued with a result in flight,
    `*` issued before, `B` breakpoint; annotations say why the PC waits and when
    in-flight results land.
    """
    kernel = sim.kernel
    lines = kernel.program.lines
    by_line: dict[int, list[int]] = {}  # several instructions share a line in a .rept or macro body
    for i, ins in enumerate(kernel.instructions):
        by_line.setdefault(ins.span.line, []).append(i)
    st = sim.engine.waves[wave].state
    pc = st.pc if not st.done else None
    issued: dict[int, int] = {}
    for r in probe.records(sim):
        if r.wave == wave:
            issued[r.index] = r.issue
    inflight: dict[int, int] = {}
    for e in probe.effects(sim):
        if e.wave == wave and e.producer is not None and e.cycle > now:
            inflight[e.producer] = max(inflight.get(e.producer, 0), e.cycle)
    for ops in probe.counters(sim, wave, now).values():
        for o in ops:
            inflight[o.index] = max(inflight.get(o.index, 0), o.complete)
    status = probe.wave_status(sim, wave, now)
    half = size // 2
    lo = max(1, center_line - half)
    hi = min(len(lines), lo + size - 1)
    lo = max(1, min(lo, hi - size + 1))
    out = []
    for ln in range(lo, hi + 1):
        text = lines[ln - 1].rstrip("\n").expandtabs(8)
        idxs = by_line.get(ln, ())
        i = pc if pc in idxs else next((j for j in idxs if j in inflight), idxs[-1] if idxs else None)
        b = "B" if any(j in breakpoints for j in idxs) else " "
        mark = "  "
        note = ""
        if i is not None:
            if i == pc:
                mark = "=>"
                if status.state == "waiting":
                    note = f"[waiting: {status.reason}" + (f" until @{status.until}]" if status.until else "]")
                elif status.state == "barrier":
                    note = "[waiting at the barrier]"
            elif i in inflight:
                mark = " ~"
                note = f"[in flight, lands @{inflight[i]}]"
            elif i in issued:
                mark = " *"
        row = f"{b}{mark} {ln:4}  {text}"
        if note:
            row = f"{row.rstrip():<60} {note}"
        out.append(row.rstrip())
    return "\n".join(out)


LIST_LEGEND = "markers: => next to issue, ~ issued (result in flight), * issued, B breakpoint"
