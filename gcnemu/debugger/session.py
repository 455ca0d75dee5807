"""The debugger's command interpreter: one command line in, the text to show out.

A `Session` owns a Simulation, the current wave, breakpoints,
watchpoints and the time machine. It knows nothing about terminals, so the REPL,
`--batch` transcripts and tests all run exactly the same code.

Time model (what "stopped at cycle C" means), the engine's own: cycle C has been
processed (what issues at C has issued, results due by C have landed) and nothing
later has. The prompt's line is the current wave's next instruction (its PC).
"""
from __future__ import annotations

import difflib
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import expr as exprmod
from . import probe, views
from .regs import RegRef
from .snapshots import TimeMachine


class CommandError(ValueError):
    """A user mistake in a command: shown as `error: ...`, never a traceback."""


# ---------------------------------------------------------------------- stop points

@dataclass
class Breakpoint:
    """`break LINE|LABEL` (kind 'line': stop when a wave arrives at the instruction) or
    `break if EXPR` (kind 'cond': stop when EXPR becomes true on some wave)."""

    number: int
    kind: str
    text: str
    index: int | None = None
    node: exprmod.Node | None = None
    hits: int = 0
    truth: dict = field(default_factory=dict)  # wave -> last truth value (cond)
    # kind 'line': every instruction it stops at (a macro/.rept body line has one per instantiation)
    indices: frozenset = frozenset()
    temporary: bool = False  # `tbreak`: deleted after its first stop
    enabled: bool = True  # `disable N` keeps the breakpoint but skips it
    condition: exprmod.Node | None = None  # `condition N EXPR`: stop only where EXPR holds
    condition_text: str = ""

    def __post_init__(self) -> None:
        if self.index is not None and not self.indices:
            self.indices = frozenset((self.index,))

    def describe(self, kernel) -> str:
        text = self._where(kernel)
        if self.temporary:
            text = "Temporary b" + text[1:]
        if self.condition_text:
            text += f" (stop only if {self.condition_text})"
        return text if self.enabled else text + " [disabled]"

    def _where(self, kernel) -> str:
        if self.kind == "line":
            ins = kernel.instructions[self.index]
            many = f" ({len(self.indices)} instances: a macro or .rept body line)" if len(self.indices) > 1 else ""
            asked = self.text.rsplit(":", 1)[-1]
            chain = kernel.program.expansions.get(self.index, ())
            if asked.isdigit() and int(asked) != ins.span.line and int(asked) in chain:
                # `break 10` on a macro call: say where the stop is written, not only the body line
                return (f"Breakpoint {self.number} at line {asked}: {ins.text()} "
                        f"(first instruction of the expansion, written on line {ins.span.line})")
            return f"Breakpoint {self.number} at {kernel.written_at(self.index)}: {ins.text()}{many}"
        return f"Breakpoint {self.number}: if {self.text}"


@dataclass
class Watchpoint:
    """`watch REG` (one wave's registers) or `watch lds[ADDR]` (LDS bytes, any wave).

    Stops when a write to it is scheduled (issued, landing later) and when a write lands.
    """

    number: int
    text: str
    wave: int | None = None
    ref: RegRef | None = None
    lds: tuple[int, int] | None = None
    hits: int = 0
    tracked: dict = field(default_factory=dict)  # seq -> Effect scheduled and not landed
    value: bytes = b""
    mem: tuple[int, int] | None = None  # global memory byte range [lo, hi)
    enabled: bool = True
    condition: exprmod.Node | None = None
    condition_text: str = ""
    temporary: bool = False

    def read(self, sim) -> bytes:
        if self.ref is not None:
            return self.ref.read(sim.wave(self.wave)).tobytes()
        if self.mem is not None:
            lo, hi = self.mem
            buf = sim.memory.find(lo)
            return buf.data[lo - buf.base:hi - buf.base].tobytes()
        lo, hi = self.lds
        return sim.lds.data[lo:hi].tobytes()

    def touches(self, e: probe.Effect) -> bool:
        if self.ref is not None:
            return e.wave == self.wave and any(r in e.regs for r in self.ref.slots())
        if self.mem is not None:
            lo, hi = self.mem
            return any(a < hi and lo < b for a, b in e.mem)
        lo, hi = self.lds
        return any(a < hi and lo < b for a, b in e.lds)

    def describe(self) -> str:
        where = f" of wave {self.wave}" if self.ref is not None else ""
        cond = f" (stop only if {self.condition_text})" if self.condition_text else ""
        off = "" if self.enabled else " [disabled]"
        return f"Watchpoint {self.number}: {self.text}{where}{cond}{off}"


# ---------------------------------------------------------------------- run goals

@dataclass
class Goal:
    """When a run command is done. `after` sees each step's result; `cycle` caps the clock."""

    name: str
    after: Callable[["Session", probe.TickResult], str | None] = lambda s, r: None
    cycle: int | None = None  # stop when the clock reaches this cycle


SETTINGS_HELP = {
    "stop-on-hazard": "on|off: stop when the dynamic monitor reports a hazard (default on)",
    "listsize": "N: lines shown by `list` (default 11)",
    "snapshot-interval": "N: engine steps between automatic snapshots (default 256)",
}


class Session:
    """Drive a Simulation from debugger commands (see `commands.COMMANDS`)."""

    def __init__(self, sim, snapshot_interval: int = 256, snapshot_budget: int = 256 << 20,
                 timeout: float | None = None):
        """`timeout`: wall-clock seconds one run command (`continue`, `step 1000`...) may take
        before it stops where it is (`--timeout`); the program can be continued after it."""
        self.sim = sim
        self.timeout = timeout
        self.kernel = sim.kernel
        attach_hazard_monitor(sim)
        self.tm = TimeMachine(sim, interval=snapshot_interval, budget_bytes=snapshot_budget)
        self.wave = 0
        self.breakpoints: list[Breakpoint] = []
        self.watchpoints: list[Watchpoint] = []
        self._number = 0
        self.stop_on_hazard = True
        self.listsize = 11
        self.quit_requested = False
        self.failed_commands = 0
        self._interrupt = False
        self.hit_numbers: list[int] = []  # stop points that fired in the last check (tbreak deletes its own)
        self.displays: list[tuple[int, str, str | None]] = []  # `display`: (number, expression, format)
        self._display_number = 0

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_file(cls, path: str, arch: str | None = None, extra=(), max_cycles: int | None = None,
                  max_instructions: int | None = None, **kw) -> "Session":
        """Load a file with its header setup (gcnemu.snippets) and open a session on it."""
        from .launch import simulation_for_file
        return cls(simulation_for_file(path, arch, extra, max_cycles, max_instructions), **kw)

    # ------------------------------------------------------------------ presentation helpers
    @property
    def now(self) -> int:
        """The clock: the last cycle processed."""
        return self.sim.engine.cycle

    @property
    def wave_state(self):
        return self.sim.engine.waves[self.wave].state

    def pc_line(self, wave: int | None = None) -> int | None:
        st = self.sim.engine.waves[self.wave if wave is None else wave].state
        if st.done or st.pc >= len(self.kernel.instructions):
            return None
        return self.kernel.instructions[st.pc].span.line

    def prompt(self) -> str:
        line = self.pc_line()
        where = f"line {line}" if line is not None else "ended"
        return f"(w{self.wave} {where} cycle {self.now}) "

    def banner(self) -> str:
        n = len(self.sim.engine.waves)
        t = self.kernel.target
        return (f"gcnemu step: {self.kernel.program.file} on {t.name} ({t.product}), {n} wave{'s' if n != 1 else ''}. "
                f"Type `help` for commands.\n" + self.where())

    def where(self) -> str:
        """The current wave's next instruction, with why it waits."""
        st = self.wave_state
        if st.done:
            return f"wave {self.wave} has ended (s_endpgm)."
        if st.pc >= len(self.kernel.instructions):
            return f"wave {self.wave} ran past the last instruction."
        ins = self.kernel.instructions[st.pc]
        status = probe.wave_status(self.sim, self.wave, self.now)
        note = ""
        if status.state == "waiting":
            note = f"   [waiting: {status.reason}" + (f" until @{status.until}]" if status.until else "]")
        elif status.state == "barrier":
            note = "   [waiting at the barrier]"
        return f"=> {ins.span.line:4}  {ins.text()}{note}"

    def env(self, wave: int) -> exprmod.Env:
        st = self.sim.engine.waves[wave].state
        line = self.pc_line(wave) or 0
        return exprmod.Env(st, wave, self.now, st.pc, line, self.sim.lds.data)

    # ------------------------------------------------------------------ the interpreter
    # the command table's entry point, `commands.dispatch(session, text)`: set by `commands` when it
    # is imported (the package's `Session` does that), so that this module, which the commands
    # build on, never imports them back
    dispatch = None

    def execute(self, line: str) -> str:
        """Run one command line; returns its output (errors included). Never raises for user input."""
        text = line.strip()
        if not text or text.startswith("#"):
            return ""
        if Session.dispatch is None:
            raise RuntimeError("no command table: use gcnemu.debugger.Session (it loads gcnemu.debugger.commands)")
        try:
            return Session.dispatch(self, text)
        except (CommandError, exprmod.ExprError, views.ViewError, ValueError) as e:
            self.failed_commands += 1
            return f"error: {e}"
        except KeyboardInterrupt:
            return "Interrupted.\n" + self.where()
        except Exception as e:  # a bug in gcnemu must not kill the user's session
            self.failed_commands += 1
            return f"internal error: {type(e).__name__}: {e} (the session continues; please report this)"

    def interrupt(self) -> None:
        """Ask a running `continue`/`step` to stop after the current engine step (signal-safe)."""
        self._interrupt = True

    # ------------------------------------------------------------------ points
    def new_number(self) -> int:
        self._number += 1
        return self._number

    def add_breakpoint(self, bp: Breakpoint) -> None:
        if bp.kind == "cond":
            bp.truth = {w: self._cond(bp, w, quiet=True) for w in range(len(self.sim.engine.waves))}
        self.breakpoints.append(bp)

    def add_watchpoint(self, wp: Watchpoint) -> list[str]:
        """Register a watchpoint; returns notes about writes already in flight to it."""
        wp.value = wp.read(self.sim)
        notes = []
        for e in probe.effects(self.sim):
            if wp.touches(e):
                wp.tracked[e.seq] = e
                notes.append(f"  a write is already in flight: {self._effect_source(e)}, lands @{e.cycle}")
        self.watchpoints.append(wp)
        return notes

    def _cond(self, bp: Breakpoint, wave: int, quiet: bool = False) -> bool:
        st = self.sim.engine.waves[wave].state
        if st.done:
            return False
        try:
            return exprmod.truth(bp.node, self.env(wave))
        except exprmod.ExprError:
            if quiet:
                return False
            raise

    def _resync_points(self) -> None:
        """After time travel: watch values, in-flight writes and condition states as they now are."""
        effects = probe.effects(self.sim) if self.watchpoints else []
        for wp in self.watchpoints:
            wp.value = wp.read(self.sim)
            wp.tracked = {e.seq: e for e in effects if wp.touches(e)}
        for bp in self.breakpoints:
            if bp.kind == "cond":
                bp.truth = {w: self._cond(bp, w, quiet=True) for w in range(len(self.sim.engine.waves))}

    # ------------------------------------------------------------------ running
    def _effect_source(self, e: probe.Effect) -> str:
        if e.producer is None:
            return "an earlier instruction"
        ins = self.kernel.instructions[e.producer]
        return f"{ins.mnemonic} (line {ins.span.line})"

    def ended_text(self) -> str | None:
        if self.sim.error is not None:
            return ("The program stopped with an error:\n" + self._render_error() +
                    "\nUse `back` or `reverse-cycle` to look at earlier states.")
        if self.tm.ended and self.sim.engine.halt_reason:
            return self.halt_text() + "\nUse `back` or `reverse-cycle` to look at earlier states."
        if self.tm.ended:
            return (f"The program has finished (cycle {self.sim.engine.cycle}). "
                    f"Use `back` or `reverse-cycle` to look at earlier states.")
        return None

    def halt_text(self) -> str:
        """The run reached a limit (--max-instructions, --max-cycles) before s_endpgm: which one,
        and where each wave is (the loop it is in, what it waits for)."""
        from ..sim.engine import stop_report
        eng = self.sim.engine
        lines = [f"The program {eng.halt_reason} at cycle {self.now}; it has not ended."]
        lines += [f"  {text}" for _, text in stop_report(eng)]
        return "\n".join(lines)

    def _render_error(self) -> str:
        from ..asm.diagnostics import render
        return render(self.sim.error, self.kernel.program.lines)

    def run(self, goal: Goal) -> str:
        """Advance until the goal is met, a stop point fires, the program ends, or Ctrl-C."""
        done = self.ended_text()
        if done:
            return done
        out: list[str] = []
        start_cycle = self.now
        issued = []
        self._interrupt = False
        stopped_by: list[str] = []
        sim, tm = self.sim, self.tm
        line_bps = {i for b in self.breakpoints if b.kind == "line" and b.enabled for i in b.indices}
        has_cond = any(b.kind == "cond" and b.enabled for b in self.breakpoints)
        t0 = time.perf_counter()
        deadline = t0 + self.timeout if self.timeout else None
        steps = 0
        while True:
            if goal.cycle is not None and probe.next_cycle(sim) > goal.cycle:
                probe.set_clock(sim, goal.cycle)
                break
            if self._interrupt:
                stopped_by.append("Interrupted.")
                break
            steps += 1
            if deadline is not None and steps % 1024 == 0 and time.perf_counter() > deadline:
                stopped_by.append(f"Stopped after --timeout {self.timeout:g} s (wall clock); "
                                  f"`continue` goes on from here.")
                break
            res = tm.step()
            if res.issues:
                issued.extend(res.issues)
            if sim.error is not None:
                stopped_by.append("Error:\n" + self._render_error())
                break
            if res.hazards:
                for group in group_hazards(res.hazards):
                    text = views.format_hazard(sim, group[0])
                    text += also_reported(group)
                    out.append(("Hazard" if self.stop_on_hazard else "Hazard (not stopping)") + ":\n" + text)
                if self.stop_on_hazard:
                    stopped_by.append("")
            if has_cond or (line_bps and res.issues):
                stopped_by.extend(self._check_breakpoints(res))
                self._drop_temporary()
            if self.watchpoints:
                stopped_by.extend(self._check_watchpoints())
                self._drop_temporary()
            reason = goal.after(self, res)
            if reason is not None:
                stopped_by.append(reason)
            if not res.running or tm.ended:
                stopped_by.append(self.halt_text() if sim.engine.halt_reason
                                  else f"The program finished at cycle {self.now}.")
                break
            if stopped_by:
                break
        tm.stats.step_seconds += time.perf_counter() - t0
        self.save_position()
        return self._report(goal, out, stopped_by, issued, start_cycle)

    def save_position(self) -> None:
        """Snapshot where we stopped, so that going back here later is a restore, not a replay."""
        pure = self.tm.clock_after(self.tm.tick)
        self.tm.save(landed=self.now if self.now != pure else None)

    def _report(self, goal: Goal, out: list[str], stopped_by: list[str], issued: list, start_cycle: int) -> str:
        lines: list[str] = []
        mine = [rec for w, _, rec in issued if w == self.wave]
        if goal.name in ("step", "next", "until", "cycle") and mine:
            shown = mine if len(mine) <= 8 else mine[:4] + [None] + mine[-3:]
            for rec in shown:
                if rec is None:
                    lines.append(f"  ... {len(mine) - 7} more")
                    continue
                ins = self.kernel.instructions[rec.index]
                waited = rec.issue - rec.ready
                why = ""
                if waited > 0 and rec.stalls:
                    why = " (" + ", ".join(f"{k} {v}" for k, v in rec.stalls.items()) + ")"
                wait_text = f", after waiting {waited} cycles{why}" if waited > 0 else ""
                lines.append(f"  issued line {ins.span.line}: {ins.text()}  @{rec.issue}{wait_text}")
        lines.extend(out)
        lines.extend(s for s in stopped_by if s)
        delta = self.now - start_cycle
        lines.append(f"cycle {start_cycle} -> {self.now} (+{delta})" if delta else f"cycle {self.now}")
        if not self.tm.ended or not self.wave_state.done:
            lines.append(self.where())
        return "\n".join(lines)

    # ------------------------------------------------------------------ stop checks
    def _drop_temporary(self) -> None:
        """A `tbreak` that fired is deleted, as in gdb."""
        if self.hit_numbers:
            gone = set(self.hit_numbers)
            self.breakpoints = [b for b in self.breakpoints if not (b.temporary and b.number in gone)]
            self.hit_numbers = []

    def _check_breakpoints(self, res: probe.TickResult) -> list[str]:
        reasons = []
        line_bps = [b for b in self.breakpoints if b.kind == "line" and b.enabled]
        if line_bps and res.issues:
            hit_waves = []
            for w, _, _ in res.issues:
                st = self.sim.engine.waves[w].state
                if st.done:
                    continue
                for bp in line_bps:
                    if st.pc in bp.indices and self._holds(bp.condition, w):
                        bp.hits += 1
                        what = "Temporary breakpoint" if bp.temporary else "Breakpoint"
                        reasons.append(f"{what} {bp.number}, wave {w} at {self.kernel.written_at(st.pc)}")
                        hit_waves.append(w)
                        self.hit_numbers.append(bp.number)
            if hit_waves and self.wave not in hit_waves:
                self.wave = hit_waves[0]
                reasons.append(f"[switching to wave {self.wave}]")
        for bp in [b for b in self.breakpoints if b.kind == "cond" and b.enabled]:
            fired = []
            for w in range(len(self.sim.engine.waves)):
                try:
                    now = self._cond(bp, w)
                except exprmod.ExprError as e:
                    self.breakpoints.remove(bp)
                    reasons.append(f"Breakpoint {bp.number} (if {bp.text}) deleted: {e}")
                    break
                if now and not bp.truth.get(w, False) and self._holds(bp.condition, w):
                    fired.append(w)
                bp.truth[w] = now
            if fired:
                bp.hits += 1
                self.hit_numbers.append(bp.number)
                reasons.append(f"Breakpoint {bp.number}, {bp.text} became true on wave "
                               f"{', '.join(map(str, fired))}")
                if self.wave not in fired:
                    self.wave = fired[0]
                    reasons.append(f"[switching to wave {self.wave}]")
        return reasons

    def _check_watchpoints(self) -> list[str]:
        if not self.watchpoints:
            return []
        reasons = []
        effects = probe.effects(self.sim)
        live = {e.seq for e in effects}
        for wp in self.watchpoints:
            if not wp.enabled:
                continue
            landed = [e for seq, e in wp.tracked.items() if seq not in live]
            for e in landed:
                del wp.tracked[e.seq]
            new_value = wp.read(self.sim)
            cond_wave = wp.wave if wp.wave is not None else self.wave
            stop = self._holds(wp.condition, cond_wave)
            if landed and stop:
                e = landed[-1]
                wp.hits += 1
                self.hit_numbers.append(wp.number)
                reasons.append(f"Watchpoint {wp.number} ({wp.text}): written at cycle {e.cycle} by "
                               f"{self._writer(wp, e)}\n" + self._change_text(wp, wp.value, new_value))
            elif new_value != wp.value and stop:
                wp.hits += 1
                self.hit_numbers.append(wp.number)
                reasons.append(f"Watchpoint {wp.number} ({wp.text}): changed\n"
                               + self._change_text(wp, wp.value, new_value))
            wp.value = new_value
            for e in effects:
                if e.seq not in wp.tracked and e.cycle > self.now and wp.touches(e):
                    wp.tracked[e.seq] = e
                    if not stop:
                        continue
                    wp.hits += 1
                    self.hit_numbers.append(wp.number)
                    reasons.append(f"Watchpoint {wp.number} ({wp.text}): write scheduled by "
                                   f"{self._writer(wp, e)}, lands @{e.cycle} (in {e.cycle - self.now})")
        return reasons

    def _writer(self, wp: Watchpoint, e: probe.Effect) -> str:
        """Who writes a watched location: memory (LDS, global) is shared by the waves, so
        the wave is named too; a register belongs to the watched wave."""
        src = self._effect_source(e)
        return src if wp.ref is not None else f"wave {e.wave}, {src}"

    def _holds(self, node, wave: int) -> bool:
        """A stop point's `condition N EXPR` on `wave` (true without a condition). An
        expression that cannot be evaluated there counts as true: the stop shows why."""
        if node is None:
            return True
        try:
            return exprmod.truth(node, self.env(wave))
        except exprmod.ExprError:
            return True

    def _change_text(self, wp: Watchpoint, old: bytes, new: bytes) -> str:
        o = np.frombuffer(old + b"\0" * (-len(old) % 4), "<u4")
        n = np.frombuffer(new + b"\0" * (-len(new) % 4), "<u4")
        if wp.ref is not None and wp.ref.is_vector:
            o = o.reshape(wp.ref.count, 64)
            n = n.reshape(wp.ref.count, 64)
            lanes = list(wp.ref.lanes) if wp.ref.lanes is not None else list(range(64))
            names = wp.ref.names()
            rows = []
            for k in range(wp.ref.count):
                changed = [ln for ln in lanes if o[k, ln] != n[k, ln]]
                if not changed:
                    rows.append(f"    {names[k]}: unchanged")
                    continue
                sample = ", ".join(f"lane {ln}: 0x{o[k, ln]:08x} -> 0x{n[k, ln]:08x}" for ln in changed[:3])
                more = f" (+{len(changed) - 3} more lanes)" if len(changed) > 3 else ""
                rows.append(f"    {names[k]}: {len(changed)} lane{'s' if len(changed) != 1 else ''} changed; "
                            f"{sample}{more}")
            return "\n".join(rows)
        old_t = " ".join(f"0x{v:08x}" for v in o[:8])
        new_t = " ".join(f"0x{v:08x}" for v in n[:8])
        return f"    old: {old_t}\n    new: {new_t}"

    # ------------------------------------------------------------------ time travel
    def scan_stops(self, before: int):
        """The last position before `before` at which a stop point (or a hazard, with
        stop-on-hazard) stops a forward run: (tick, reasons, wave, numbers fired), or None.

        Replays from launch with the stop points as they are now; hit counts and the current
        wave are left as they were (the caller goes to the position found)."""
        hits_before = {id(p): p.hits for p in self.breakpoints + self.watchpoints}
        wave_before = self.wave
        self.tm.goto(0)
        self._resync_points()
        found = None
        while self.tm.tick < before - 1 and not self.tm.ended:
            res = self.tm.step()
            reasons: list[str] = []
            self.hit_numbers = []
            if res.hazards and self.stop_on_hazard:
                reasons += ["Hazard:\n" + views.format_hazard(self.sim, g[0]) for g in group_hazards(res.hazards)]
            if self.breakpoints:
                reasons += self._check_breakpoints(res)
            if self.watchpoints:
                reasons += self._check_watchpoints()
            if reasons:
                found = (self.tm.tick, reasons, self.wave, list(self.hit_numbers))
                self.wave = wave_before
        for p in self.breakpoints + self.watchpoints:
            p.hits = hits_before.get(id(p), p.hits)
        self.hit_numbers = []
        if found is not None:
            for p in self.breakpoints + self.watchpoints:
                if p.number in found[3]:
                    p.hits += 1
        self.wave = wave_before
        return found

    def goto(self, tick: int, cycle: int | None = None) -> str:
        """Go back to engine position `tick` (clock at `cycle`, default: right after that step),
        then re-sync stop points with the state found there."""
        start = self.now
        self.tm.goto(tick, cycle)
        self._resync_points()
        self.save_position()
        return f"cycle {start} -> {self.now} ({self.now - start:+d})\n" + self.where()


def attach_hazard_monitor(sim) -> None:
    """Run the rule-table hazard monitor during the session, so wait-state violations (which
    the engine cannot see: it does not stall for them) stop the run like racy reads do."""
    eng = sim.engine
    if not callable(getattr(eng, "attach_monitor", None)) or getattr(eng, "monitor", None) is not None:
        return
    try:
        from ..analysis.monitor import HazardMonitor
        from ..analysis.values import LaunchFacts
        eng.attach_monitor(HazardMonitor(sim.kernel, launch=LaunchFacts.from_setup(sim.setup)))
    except Exception:  # the monitor is optional: the engine's own race checks still run
        pass


def group_hazards(hazards: list) -> list[list]:
    """One group per (wave, consumer, producer): the engine and the rule monitor may both
    report the same race under their own rule ids."""
    groups: dict[tuple, list] = {}
    for h in hazards:
        groups.setdefault((h.wave, h.consumer, h.producer), []).append(h)
    return list(groups.values())


def also_reported(group: list) -> str:
    """The other rule ids a race was reported under (none when the reports agree)."""
    others = [r for r in dict.fromkeys(h.rule for h in group[1:]) if r != group[0].rule]
    return "\n(also reported as " + ", ".join(f"[{r}]" for r in others) + ")" if others else ""


def suggest(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean `{close[0]}`?)" if close else ""
