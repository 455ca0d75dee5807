"""The debugger's commands: names, short forms, help, argument parsing.

Names follow gdb where gdb has the concept (step, next, until, continue, break,
watch, delete, list, print/p, x, info, help), so kernel authors' fingers already
know them. A command may be abbreviated to any unique prefix; the short forms in
the table win over prefixes (`c` is continue, `s` is step). `print` and `x`
take gdb's `/FMT` after the command word (`p/f v5`) or as a separate word.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import expr as exprmod
from . import probe, regs, views
from .session import Breakpoint, CommandError, Goal, Session, Watchpoint, suggest


@dataclass(frozen=True)
class Command:
    name: str
    aliases: tuple[str, ...]
    usage: str
    summary: str
    handler: Callable[[Session, str, str | None], str]
    details: str = ""
    complete: str = ""  # what the argument completes to: regs | lines | info | set | commands


COMMANDS: list[Command] = []


def command(name: str, aliases: tuple[str, ...], usage: str, summary: str, details: str = "", complete: str = ""):
    def register(fn):
        COMMANDS.append(Command(name, aliases, usage, summary, fn, details, complete))
        return fn
    return register


def lookup(word: str) -> Command:
    """Exact name, short form, or unique prefix; CommandError otherwise."""
    w = word.lower()
    for c in COMMANDS:
        if w == c.name or w in c.aliases:
            return c
    hits = {c.name: c for c in COMMANDS for n in (c.name,) + c.aliases if n.startswith(w)}
    if len(hits) == 1:
        return next(iter(hits.values()))
    if len(hits) > 1:
        raise CommandError(f"ambiguous command '{word}': {', '.join(sorted(hits))}")
    names = [n for c in COMMANDS for n in (c.name,) + c.aliases]
    raise CommandError(f"unknown command '{word}'{suggest(w, names)}; `help` lists the commands")


def dispatch(s: Session, text: str) -> str:
    m = re.match(r"(\S+)\s*(.*)$", text, re.S)
    word, arg = m.group(1), m.group(2).strip()
    fmt = None
    if "/" in word and not word.startswith("/"):
        word, fmt = word.split("/", 1)
    cmd = lookup(word)
    out = cmd.handler(s, arg, fmt or None)
    if cmd.name in MOTIONS and s.displays:
        shown = display_text(s)
        out = f"{out}\n{shown}" if out else shown
    return out


# commands after which the `display` expressions are shown (they move the machine)
MOTIONS = frozenset({"step", "next", "until", "cycle", "continue", "back", "reverse-cycle", "reverse-continue",
                     "reverse-next", "finish", "run", "start", "wave"})


# ---------------------------------------------------------------------- argument helpers

def _count(arg: str, default: int = 1, what: str = "count") -> int:
    if not arg:
        return default
    try:
        n = int(arg, 0)
    except ValueError:
        raise CommandError(f"expected a number for the {what}, got '{arg}'") from None
    if n < 1:
        raise CommandError(f"the {what} must be at least 1")
    return n


def _split_format(arg: str, fmt: str | None) -> tuple[str, str | None]:
    """Take a `/FMT` word off either end of the argument."""
    parts = arg.split()
    if parts and parts[-1].startswith("/") and len(parts[-1]) > 1:
        fmt = parts.pop()[1:]
    elif parts and parts[0].startswith("/") and len(parts[0]) > 1:
        fmt = parts.pop(0)[1:]
    if fmt is not None:
        views.check_format(fmt)
    return " ".join(parts), fmt


def location(s: Session, arg: str) -> int:
    """LINE or LABEL (or FILE:LINE) -> instruction index."""
    a = arg.strip()
    if not s.kernel.instructions:
        raise CommandError("the program has no instructions to stop at")
    if not a:
        st = s.wave_state
        if st.done:
            raise CommandError(f"wave {s.wave} has ended: give a line or label")
        return st.pc
    file = None
    if ":" in a and a.rsplit(":", 1)[1].isdigit():
        file, a = a.rsplit(":", 1)
    k = s.kernel
    if file is not None and not any(k.same_file(ins.span.file, file) for ins in k.instructions):
        known = sorted({os.path.basename(ins.span.file) for ins in k.instructions})
        raise CommandError(f"no instructions from a file '{file}'; files: {', '.join(known)}")
    if a.lstrip("+-").isdigit():
        line = int(a)
        if line < 1:
            raise CommandError(f"no line {line}: source lines start at 1")
        idx = k.instruction_at_line(line, file)
        if idx is not None:
            return idx
        raise CommandError(f"no instruction at or after line {line} (the last is on line "
                           f"{k.instructions[-1].span.line})")
    if a in k.labels:
        idx = k.labels[a]
        if idx >= len(k.instructions):
            raise CommandError(f"label '{a}' has no instruction after it")
        return idx
    raise CommandError(f"no line or label '{a}'{suggest(a, k.labels)}"
                       + (f"; labels: {', '.join(list(k.labels)[:12])}" if k.labels else "; the file has no labels"))


def _int_expr(s: Session, text: str, what: str) -> int:
    node = exprmod.parse(text)
    v = exprmod.evaluate(node, s.env(s.wave))
    if isinstance(v, np.ndarray) or not isinstance(v, (int, np.integer)):
        raise CommandError(f"{what} must be one integer; '{text}' is not")
    return int(v)


def _require_live_wave(s: Session) -> None:
    if s.wave_state.done:
        others = [i for i, w in enumerate(s.sim.engine.waves) if not w.state.done]
        hint = f"; `wave {others[0]}` selects a live one" if others else ""
        raise CommandError(f"wave {s.wave} has ended{hint}")


# ---------------------------------------------------------------------- running

@command("step", ("s", "stepi", "si"), "step [N]",
         "issue the current wave's next N instructions (default 1)",
         "Runs the clock until the current wave has issued N more instructions; other waves run\n"
         "meanwhile. Shows each issue with its cycle and what it waited for, then the cycle jump.")
def cmd_step(s: Session, arg: str, fmt) -> str:
    n = _count(arg)
    ended = s.ended_text()
    if ended:
        return ended
    _require_live_wave(s)
    w = s.wave
    target = probe.issued(s.sim, w) + n

    def after(ss: Session, res) -> str | None:
        if probe.issued(ss.sim, w) >= target or probe.is_done(ss.sim, w):
            return ""
        return None
    return s.run(Goal("step", after))


@command("next", ("n",), "next",
         "step over: run until the current wave reaches a later instruction",
         "Like step, but on a backward branch (the end of a loop) it runs the loop until the\n"
         "wave leaves it: it stops when the wave's PC is past the current instruction.")
def cmd_next(s: Session, arg: str, fmt) -> str:
    if arg:
        raise CommandError("next takes no argument (use `step N` or `until LINE`)")
    ended = s.ended_text()
    if ended:
        return ended
    _require_live_wave(s)
    w = s.wave
    start_pc = s.wave_state.pc
    start = probe.issued(s.sim, w)

    def after(ss: Session, res) -> str | None:
        st = ss.sim.engine.waves[w].state
        if st.done:
            return ""
        if probe.issued(ss.sim, w) > start and st.pc > start_pc:
            return ""
        return None
    return s.run(Goal("next", after))


@command("until", ("u",), "until LINE|LABEL",
         "run until the current wave arrives at LINE (or ends)", complete="lines")
def cmd_until(s: Session, arg: str, fmt) -> str:
    if not arg:
        return cmd_next(s, "", fmt)
    idx = location(s, arg)
    ended = s.ended_text()
    if ended:
        return ended
    _require_live_wave(s)
    w = s.wave
    start = probe.issued(s.sim, w)
    line = s.kernel.instructions[idx].span.line

    def after(ss: Session, res) -> str | None:
        st = ss.sim.engine.waves[w].state
        if st.done:
            return f"wave {w} ended before reaching line {line}."
        if probe.issued(ss.sim, w) > start and st.pc == idx:
            return ""
        return None
    return s.run(Goal("until", after))


@command("cycle", ("cy",), "cycle [N]",
         "advance the clock by N cycles (default 1), whatever issues",
         "Stops early at breakpoints, watchpoints and hazards like any run command.")
def cmd_cycle(s: Session, arg: str, fmt) -> str:
    n = _count(arg)
    ended = s.ended_text()
    if ended:
        return ended
    return s.run(Goal("cycle", cycle=s.now + n))


@command("continue", ("c", "cont", "fg"), "continue",
         "run until a breakpoint, watchpoint, hazard, the end, or Ctrl-C")
def cmd_continue(s: Session, arg: str, fmt) -> str:
    if arg:
        raise CommandError("continue takes no argument")
    return s.run(Goal("continue"))


# ---------------------------------------------------------------------- stop points

@command("break", ("b", "br"), "break LINE | break LABEL | break if EXPR",
         "stop when a wave arrives at LINE/LABEL, or when EXPR becomes true",
         "EXPR is a small safe expression language (no Python):\n"
         "  v5[3] == 7     s2 > 4     cycle > 100     any(v1 != 0)     f32(v2[0]) >= 1.5\n"
         "  lds[0x40] == 3     wave == 1 && m0 == 0x100\n"
         "Registers read as raw unsigned bits (pairs such as s[0:1], vcc, exec as 64-bit);\n"
         "f32() i32() u32() f16() bf16() f64() reinterpret; any()/all()/count() reduce lanes.\n"
         "Operators: || && | ^ & == != < <= > >= << >> + - * / % ! ~ (and, or, not).\n"
         "A condition is checked on every live wave after every engine step and stops when it\n"
         "turns from false to true.", complete="lines")
def cmd_break(s: Session, arg: str, fmt) -> str:
    return _make_break(s, arg, temporary=False)


def _make_break(s: Session, arg: str, temporary: bool) -> str:
    m = re.match(r"if\b\s*(.*)$", arg, re.S)
    loc_cond = re.match(r"(\S+)\s+if\b\s*(.*)$", arg, re.S)
    if loc_cond and not m:  # gdb's `break LINE if EXPR`: a line breakpoint with a condition
        out = _make_break(s, loc_cond.group(1), temporary)
        bp = s.breakpoints[-1]
        _set_condition(s, bp, loc_cond.group(2).strip())
        return out + f"\n  (stop only if {bp.condition_text})"
    if m:
        text = m.group(1).strip()
        node = exprmod.parse(text)
        exprmod.evaluate(node, s.env(s.wave))  # reject what can never be evaluated now, not mid-run
        bp = Breakpoint(s.new_number(), "cond", text, node=node, temporary=temporary)
        s.add_breakpoint(bp)
        now = [w for w, t in bp.truth.items() if t]
        note = f"\n  (already true on wave {', '.join(map(str, now))}: stops when it becomes true again)" if now else ""
        return bp.describe(s.kernel) + note
    idx = location(s, arg)
    # a body line of a macro/.rept stops in every instantiation; a label, the PC or the line of a
    # macro call stops only there
    line = arg.strip().rsplit(":", 1)[-1]
    same_line = line.isdigit() and s.kernel.instructions[idx].span.line == int(line)
    bp = Breakpoint(s.new_number(), "line", arg or "PC", index=idx,
                    indices=frozenset(s.kernel.instructions_on_line(idx) if same_line else (idx,)),
                    temporary=temporary)
    dup = [b.number for b in s.breakpoints if b.kind == "line" and b.indices == bp.indices]
    s.add_breakpoint(bp)
    note = f"\n  (breakpoint {', '.join(map(str, dup))} is also there)" if dup else ""
    return bp.describe(s.kernel) + note


_GLOBAL_WATCH = re.compile(r"global\s*\[\s*([^\]]+?)\s*\]\s*$", re.I)
_GDB_WATCH = re.compile(r"\*\s*\(\s*([uif])(8|16|32|64)\s*\*\s*\)\s*(.+)$", re.I)


def _global_watch(s: Session, arg: str) -> tuple[int, int] | None:
    """`watch global[ADDR]` (a dword), `watch global[LO:HI]` (bytes LO..HI-1) or gdb's
    `watch *(u32*)ADDR` (u/i/f 8..64 bits): a global byte range; None for other forms.
    ADDR may be a buffer name plus an offset (`A+0x40`) or an expression (`s[4:5]+8`)."""
    m = _GDB_WATCH.match(arg.strip())
    if m:
        lo = _global_address(s, m.group(3))
        return lo, lo + int(m.group(2)) // 8
    m = _GLOBAL_WATCH.match(arg.strip())
    if not m:
        return None
    body = m.group(1)
    colon = re.match(r"(.+?)\s*:\s*(.+)$", body) if not re.search(r"\[[^\]]*:", body) else None
    if colon:
        return _global_address(s, colon.group(1)), _global_address(s, colon.group(2))
    lo = _global_address(s, body)
    return lo, lo + 4


_LDS_WATCH = re.compile(r"lds\s*\[\s*([^\]:]+?)\s*(?::\s*([^\]]+?)\s*)?\]\s*$", re.I)


@command("watch", ("wa",), "watch REG | watch lds[ADDR] | watch lds[LO:HI] | watch global[ADDR] | watch *(u32*)ADDR",
         "stop when a write to REG (current wave), LDS or global bytes is scheduled, and when it lands",
         "`watch v1` stops twice for a load: when the load issues (write scheduled, with the\n"
         "cycle it lands) and when the data arrives. lds[ADDR] watches the dword at ADDR,\n"
         "lds[LO:HI] the bytes LO..HI-1 (any wave, LDS DMA included). global[ADDR] (or\n"
         "global[LO:HI], gdb's *(u32*)ADDR, *(u64*)ADDR...) watches global memory: stores and\n"
         "atomics of any wave; ADDR may be a buffer name plus an offset (`watch global[C+8]`).\n"
         "A hit on LDS or global memory names the wave that wrote and its instruction.", complete="regs")
def cmd_watch(s: Session, arg: str, fmt) -> str:
    if not arg:
        raise CommandError("watch what? e.g. `watch v1`, `watch s[0:1]`, `watch lds[0x40]`")
    mem = _global_watch(s, arg)
    if mem is not None:
        lo, hi = mem
        buf = s.sim.memory.find(lo)
        if buf is None or hi > buf.end:
            raise CommandError(f"global range [0x{lo:x}, 0x{hi:x}) is not inside one buffer")
        where = f"{buf.name}+0x{lo - buf.base:x}"
        text = f"global[0x{lo:x}]" if hi == lo + 4 else f"global[0x{lo:x}:0x{hi:x}]"
        wp = Watchpoint(s.new_number(), f"{text} <{where}>", mem=(lo, hi))
        notes = s.add_watchpoint(wp)
        return "\n".join([wp.describe()] + notes)
    m = _LDS_WATCH.match(arg)
    if m:
        lo = _int_expr(s, m.group(1), "the LDS address")
        hi = _int_expr(s, m.group(2), "the LDS end address") if m.group(2) else lo + 4
        size = len(s.sim.lds.data)
        if lo < 0 or hi > size or hi <= lo:
            raise CommandError(f"LDS range [0x{lo:x}, 0x{hi:x}) is outside the LDS (0x0..0x{size:x})")
        text = f"lds[0x{lo:x}]" if hi == lo + 4 else f"lds[0x{lo:x}:0x{hi:x}]"
        wp = Watchpoint(s.new_number(), text, lds=(lo, hi))
    else:
        ref = regs.parse(arg)
        wp = Watchpoint(s.new_number(), ref.label, wave=s.wave, ref=ref)
    notes = s.add_watchpoint(wp)
    return "\n".join([wp.describe()] + notes)


@command("delete", ("d", "del"), "delete [N...]",
         "delete the given breakpoints/watchpoints, or all of them")
def cmd_delete(s: Session, arg: str, fmt) -> str:
    if not arg:
        n = len(s.breakpoints) + len(s.watchpoints)
        s.breakpoints.clear()
        s.watchpoints.clear()
        return f"Deleted {n} breakpoint{'s' if n != 1 else ''}/watchpoint{'s' if n != 1 else ''}."
    out = []
    for word in arg.replace(",", " ").split():
        if not word.isdigit():
            raise CommandError(f"'{word}' is not a breakpoint number (see `info breakpoints`)")
        k = int(word)
        before = len(s.breakpoints) + len(s.watchpoints)
        s.breakpoints = [b for b in s.breakpoints if b.number != k]
        s.watchpoints = [w for w in s.watchpoints if w.number != k]
        if len(s.breakpoints) + len(s.watchpoints) == before:
            raise CommandError(f"no breakpoint or watchpoint number {k}")
        out.append(f"Deleted {k}.")
    return "\n".join(out)


# ---------------------------------------------------------------------- where am I

@command("wave", ("w",), "wave N", "make wave N the current wave (prompt, step, print, list)")
def cmd_wave(s: Session, arg: str, fmt) -> str:
    n = len(s.sim.engine.waves)
    if not arg:
        return f"current wave: {s.wave} of {n} (0..{n - 1})"
    try:
        k = int(arg, 0)
    except ValueError:
        raise CommandError(f"expected a wave number, got '{arg}'") from None
    if not 0 <= k < n:
        raise CommandError(f"no wave {k}: this launch has {n} wave{'s' if n != 1 else ''} (0..{n - 1})")
    s.wave = k
    return f"[wave {k}]\n" + s.where()


@command("list", ("l",), "list [LINE|LABEL]",
         "show source around the PC (or LINE) with issue markers",
         views.LIST_LEGEND + ".\nAnnotations say why the PC waits and when in-flight results land.",
         complete="lines")
def cmd_list(s: Session, arg: str, fmt) -> str:
    if arg:
        center = s.kernel.instructions[location(s, arg)].span.line
    else:
        center = s.pc_line() or (s.kernel.instructions[-1].span.line if s.kernel.instructions else 1)
    bps = {i for b in s.breakpoints if b.kind == "line" for i in b.indices}
    return views.format_source(s.sim, s.wave, s.now, center, s.listsize, bps)


# ---------------------------------------------------------------------- looking at data

_MFMA = re.compile(r"mfma\s+(\S+)\s+as\s+([abcd])\s+of\s+(\S+)$", re.I)
_MFMA_WORD = re.compile(r"mfma(?:\s|$)", re.I)  # `print mfma ...`: no register or expression is named mfma
_MFMA_USAGE = "print mfma REGS as A|B|C|D of MNEMONIC, e.g. `print mfma a[0:15] as D of v_mfma_f32_32x32x8f16`"


def _mfma_form_error(arg: str) -> CommandError:
    """What is wrong with a `print mfma ...` that does not have the form (the operand, a missing
    part), rather than the expression parser's `unknown name 'mfma'`."""
    m = re.match(r"mfma\s+(\S+)\s+as\s+(\S+)\s+of\s+(\S+)$", arg.strip(), re.I)
    if m:
        return CommandError(f"the MFMA operand must be A, B, C or D, not '{m.group(2)}' ({_MFMA_USAGE})")
    words = arg.split()
    if len(words) < 2:
        return CommandError(f"print mfma: which registers? ({_MFMA_USAGE})")
    if len(words) < 3 or words[2].lower() != "as":
        return CommandError(f"print mfma: expected 'as' after {words[1]} ({_MFMA_USAGE})")
    if len(words) < 4:
        return CommandError(f"print mfma: expected the operand (A, B, C or D) after 'as' ({_MFMA_USAGE})")
    if len(words) < 5 or words[4].lower() != "of":
        return CommandError(f"print mfma: expected 'of MNEMONIC' after the operand ({_MFMA_USAGE})")
    if len(words) < 6:
        return CommandError(f"print mfma: which MFMA instruction? ({_MFMA_USAGE})")
    return CommandError(f"print mfma: unexpected '{' '.join(words[6:])}' after {words[5]} ({_MFMA_USAGE})")


@command("print", ("p", "inspect"), "print[/FMT] REG | EXPR | mfma REGS as D of MNEMONIC",
         "show registers (all lanes), expression values, or an MFMA operand as a matrix",
         "REG: v5, v[4:7], v5[lane 3] (or v5[3], v5[0:7] for lanes), s2, s[0:1], a[0:15],\n"
         "     exec, vcc, m0, scc, ttmp0 ... Lanes never written show '?'. A register whose\n"
         "     newest write is in flight shows the value it will hold, the producing line and\n"
         "     landing cycle, and the old value a reader without the interlock still sees.\n"
         "FMT: " + views.FORMAT_HELP + ".\n"
         "EXPR: the `break if` language, e.g. `p v1[3] + 1`, `p f32(v2[0])`, `p cycle`.\n"
         "mfma: `print mfma a[0:15] as D of v_mfma_f32_32x32x8f16` unpacks the registers with\n"
         "      the instruction's layout (operands A, B, C or D) and prints the matrix.",
         complete="regs")
def cmd_print(s: Session, arg: str, fmt) -> str:
    arg, fmt = _split_format(arg, fmt)
    if not arg:
        raise CommandError("print what? e.g. `p v5`, `p/f v[4:7]`, `p s[0:1]`, `p exec`")
    return show_value(s, arg, fmt)


def display_text(s: Session) -> str:
    """The `display` expressions, shown after every stop as gdb does (`N: EXPR = value`)."""
    rows = []
    for n, text, fmt in s.displays:
        try:
            value = show_value(s, text, fmt)
        except (CommandError, exprmod.ExprError, views.ViewError, ValueError) as e:
            value = f"{text} = <cannot show: {e}>"
        rows.append(f"{n}: {value}")
    return "\n".join(rows)


def show_value(s: Session, arg: str, fmt) -> str:
    """What `print ARG` shows (also each `display` after a stop)."""
    arg = exprmod.strip_dollars(arg)
    m = _MFMA.match(arg)
    if m:
        return _print_mfma(s, m.group(1), m.group(2).upper(), m.group(3), fmt)
    if _MFMA_WORD.match(arg):
        raise _mfma_form_error(arg)
    wave = s.wave_state
    if "[" in arg:  # v[v_c:v_c+3]: register indices written with the kernel's own symbols
        from ..asm.expr import ExprError, fold_register_indices
        try:
            arg = fold_register_indices(arg, s.kernel.program.constants())
        except ExprError:
            pass  # not a symbolic range: the parsers below say what is wrong
        arg = re.sub(r"\b(v|a|s|ttmp)\[\s*(\d+)\s*\]", r"\1\2", arg)  # v[4] is v4, as llvm-mc reads it
    try:
        ref = regs.parse(arg)
    except regs.RegError as e:
        if regs.parse_prefix(arg.strip().lower()) is not None and re.fullmatch(r"[\w\[\]:\s]+", arg):
            raise CommandError(str(e)) from None
        ref = None
    if ref is not None:
        flights = probe.in_flight(s.sim, s.wave, ref.slots())
        if flights:
            return views.format_in_flight(ref, wave, fmt, flights, lambda i: s.kernel.instructions[i].span.line)
        return views.format_register(ref, wave, fmt)
    try:
        node = exprmod.parse(arg)
    except exprmod.ExprError as e:
        shown = arg if len(arg) <= 60 else arg[:57] + "..."  # the error, not a screenful of input
        raise CommandError(f"cannot print '{shown}': {e}") from None
    value = exprmod.evaluate(node, s.env(s.wave))
    return views.format_value(arg, value, fmt)


def _print_mfma(s: Session, reg_text: str, operand: str, mnemonic: str, fmt) -> str:
    from ..isa import mfma
    target = s.kernel.target.name
    info = mfma.lookup(mnemonic, target)
    if info is None:
        close = mfma.suggest(mnemonic, target)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise CommandError(f"'{mnemonic}' is not an MFMA instruction of {target}{hint}")
    try:
        ref = regs.parse(reg_text)
    except regs.RegError as e:
        raise CommandError(f"print mfma: {e}") from None
    if not ref.is_vector or ref.lanes is not None:
        raise CommandError(f"{ref.label}: an MFMA operand lives in VGPRs or AGPRs, all lanes (e.g. a[0:15])")
    need = info.operand_regs(operand)
    if ref.count != need:
        raise CommandError(f"{operand} of {info.name} takes {need} register{'s' if need != 1 else ''}; "
                           f"{ref.name} is {ref.count}")
    mat = mfma.unpack(info, operand, ref.read(s.wave_state))
    b, r, c = info.shape(operand)
    names = {"A": ("i", "k"), "B": ("k", "j")}.get(operand, ("i", "j"))
    title = (f"{operand} of {info.name} in {ref.name} (wave {s.wave}): {b} block{'s' if b != 1 else ''} of "
             f"{r} x {c} {info.operand_type(operand)} (rows {names[0]}, columns {names[1]})")
    init = ref.initialised(s.wave_state)
    known = None
    if not init.all():
        title += f"\n(note: {int((~init).sum())} register lanes were never written and hold poison: shown as ?)"
        # the same layout applied to all-ones/zero words: an element is known when every bit of it
        # comes from a written lane (all-ones bits unpack to a non-zero value or NaN, zeros to 0)
        marks = mfma.unpack(info, operand, np.where(init, np.uint32(0xFFFFFFFF), np.uint32(0)))
        with np.errstate(invalid="ignore"):
            known = np.asarray(marks).astype(np.float64) != 0
    return views.format_matrix(mat, title, fmt, known=known)


@command("x", (), "x lds ADDR [COUNT] [/FMT] | x global ADDR|BUFFER[+OFF] [COUNT] [/FMT] | x/NSF ADDR",
         "examine COUNT dwords (default 4) of LDS or global memory; gdb's x/4wx too",
         "ADDR is a number or an expression (`x lds m0`, `x global s[4:5]+16`); for global\n"
         "memory a buffer name from the setup works too (`x global A+0x40 8 /f`).\n"
         "gdb's form: x/NSF [lds|global] ADDR, N units of size S (b 1, h 2, w 4, g 8 bytes) in format F\n"
         "(x hex, d signed, u unsigned, f float, t binary): `x/4wx lds 0x100`, `x/2gx A+8`, `x/8hf 0x100`.\n"
         "A bare address is global memory when it lies in a buffer (or names one), else LDS.\n"
         "FMT: " + views.FORMAT_HELP + ".")
def cmd_x(s: Session, arg: str, fmt) -> str:
    gdb = _gdb_format(fmt)
    if gdb is not None:
        fmt = None
    arg, fmt = _split_format(arg, fmt)
    parts = arg.split(None, 1)
    if not parts:
        raise CommandError("x lds ADDR [COUNT] or x global ADDR [COUNT] (or gdb's x/4wx ADDR)")
    if parts[0].lower() in ("lds", "global", "g", "mem"):
        space = "lds" if parts[0].lower() == "lds" else "global"
        rest = parts[1].strip() if len(parts) > 1 else ""
    else:  # a bare address: global memory when it is in a buffer (or names one), else LDS
        rest = arg.strip()
        space = "lds"
        try:
            if s.sim.memory.find(_global_address(s, rest)) is not None:
                space = "global"
        except CommandError:
            pass
    if gdb is not None:
        return _examine_gdb(s, space, rest, *gdb)
    if not rest:
        raise CommandError(f"x {space} needs an address")
    tokens = rest.rsplit(None, 1)
    count = 4
    if len(tokens) == 2 and re.fullmatch(r"\d+|0x[0-9a-fA-F]+", tokens[1]) and not re.search(r"[-+*/&|^<>]\s*$",
                                                                                            tokens[0]):
        addr_text, count = tokens[0], _count(tokens[1], what="COUNT")
    else:
        addr_text = rest
    count = min(count, 4096)
    step = 8 if fmt == "f64" else 4
    nbytes = count * step
    if space == "lds":
        addr = _int_expr(s, addr_text, "the LDS address")
        size = len(s.sim.lds.data)
        if addr < 0 or addr >= size:
            raise CommandError(f"LDS address 0x{addr:x} is outside the LDS (0x0..0x{size - 1:x})")
        data = s.sim.lds.data[addr:min(size, addr + nbytes)]
        return views.format_memory(addr, data, fmt)
    addr = _global_address(s, addr_text)
    buf = s.sim.memory.find(addr)
    if buf is None:
        names = ", ".join(f"{b.name} @0x{b.base:x}" for b in s.sim.memory.buffers if not b.name.startswith("__"))
        raise CommandError(f"0x{addr:x} is not in any buffer" + (f" (buffers: {names})" if names else ""))
    end = min(buf.end, addr + nbytes)
    data = buf.data[addr - buf.base:end - buf.base]

    def label(a: int) -> str:
        return f"{buf.name}+0x{a - buf.base:x}"
    text = views.format_memory(addr, data, fmt, label)
    if addr + nbytes > buf.end:
        text += f"\n(buffer '{buf.name}' ends at 0x{buf.end:x})"
    return text


_GDB_SIZES = {"b": 1, "h": 2, "w": 4, "g": 8}


def _gdb_format(fmt: str | None) -> tuple[int, int, str] | None:
    """gdb's `x/NSF` (count, size b/h/w/g, format x/d/u/f/t, letters in any order) as
    (count, bytes, format); None for this project's own formats (`/x`, `/f16`...)."""
    if not fmt or fmt.lower() in views.FORMATS or fmt.lower() == "d":
        return None
    m = re.fullmatch(r"(\d*)([bhwgxdutf]*)", fmt.lower())
    if not m or sum(c in _GDB_SIZES for c in m.group(2)) > 1 or sum(c in "xdutf" for c in m.group(2)) > 1:
        raise CommandError(f"unknown format '/{fmt}' (gdb's /COUNT SIZE FORMAT: sizes b h w g, formats "
                           f"x d u f t, e.g. x/4wx; or {views.FORMAT_HELP})")
    count = int(m.group(1)) if m.group(1) else 1
    if count < 1:
        raise CommandError("the count must be at least 1")
    size = next((_GDB_SIZES[c] for c in m.group(2) if c in _GDB_SIZES), 4)
    form = next((c for c in m.group(2) if c in "xdutf"), "x")
    if form == "f" and size == 1:
        raise CommandError("/f needs a size of h (f16), w (f32) or g (f64), not b")
    return min(count, 4096), size, form


def _examine_gdb(s: Session, space: str, addr_text: str, count: int, size: int, form: str) -> str:
    """`x/4wx ADDR`: COUNT units of SIZE bytes in FORMAT, gdb's rows (8 bytes or halves, 4 words,
    2 giants per row), each row headed by its address (and buffer offset for global memory)."""
    if not addr_text:
        raise CommandError(f"x/{count}{'bhwg'[[1, 2, 4, 8].index(size)]}{form} needs an address")
    nbytes = count * size
    if space == "lds":
        addr = _int_expr(s, addr_text, "the LDS address")
        mem = s.sim.lds.data
        if addr < 0 or addr >= len(mem):
            raise CommandError(f"LDS address 0x{addr:x} is outside the LDS (0x0..0x{len(mem) - 1:x})")
        data, label, end_note = mem[addr:min(len(mem), addr + nbytes)], None, ""
    else:
        addr = _global_address(s, addr_text)
        buf = s.sim.memory.find(addr)
        if buf is None:
            raise CommandError(f"0x{addr:x} is not in any buffer")
        data = buf.data[addr - buf.base:min(buf.end, addr + nbytes) - buf.base]
        label = (lambda a: f"{buf.name}+0x{a - buf.base:x}")
        end_note = f"\n(buffer '{buf.name}' ends at 0x{buf.end:x})" if addr + nbytes > buf.end else ""
    data = np.asarray(data, np.uint8)[:len(data) // size * size]
    kind = {"x": "u", "u": "u", "t": "u", "d": "i", "f": "f"}[form]
    values = data.view(f"<{kind}{size}")
    texts = []
    for v in values:
        if form == "x":
            texts.append(f"0x{int(v):0{2 * size}x}")
        elif form == "t":
            texts.append(f"{int(v):0{8 * size}b}")
        elif form == "f":
            texts.append(f"{float(v):.7g}" if size < 8 else f"{float(v):.15g}")
        else:
            texts.append(str(int(v)))
    per_row = {1: 8, 2: 8, 4: 4, 8: 2}[size]
    width = max((len(t) for t in texts), default=0)
    rows = []
    for k in range(0, len(texts), per_row):
        a = addr + k * size
        name = f" <{label(a)}>" if label else ""
        rows.append(f"0x{a:x}{name}: " + " ".join(t.rjust(width) for t in texts[k:k + per_row]))
    return "\n".join(rows) + end_note


def _global_address(s: Session, text: str) -> int:
    m = re.match(r"([A-Za-z_]\w*)\s*(?:\+\s*(.+))?$", text.strip())
    if m:
        for b in s.sim.memory.buffers:
            if b.name == m.group(1):
                off = _int_expr(s, m.group(2), "the offset") if m.group(2) else 0
                return b.base + off
    try:
        return _int_expr(s, text, "the address")
    except exprmod.ExprError as e:
        names = [b.name for b in s.sim.memory.buffers if not b.name.startswith("__")]
        hint = f"; buffers: {', '.join(names)}" if names else ""
        raise CommandError(f"{e}{hint}") from None


# ---------------------------------------------------------------------- timing views

@command("counters", ("ctr",), "counters [WAVE]",
         "vmcnt/lgkmcnt/expcnt of the current wave with the operations each one counts")
def cmd_counters(s: Session, arg: str, fmt) -> str:
    w = s.wave
    if arg:
        w = int(_wave_arg(s, arg))
    return views.format_counters(s.sim, w, s.now)


def _wave_arg(s: Session, arg: str) -> int:
    try:
        k = int(arg, 0)
    except ValueError:
        raise CommandError(f"expected a wave number, got '{arg}'") from None
    if not 0 <= k < len(s.sim.engine.waves):
        raise CommandError(f"no wave {k}")
    return k


@command("pipeline", ("pipes",), "pipeline", "what each pipe is busy with, and the results in flight")
def cmd_pipeline(s: Session, arg: str, fmt) -> str:
    return views.format_pipeline(s.sim, s.now)


@command("hazards", (), "hazards", "the hazards the dynamic monitor has reported so far")
def cmd_hazards(s: Session, arg: str, fmt) -> str:
    from .session import also_reported, group_hazards
    hz = list(s.sim.hazards)
    if not hz:
        return "No hazards so far."
    out = []
    for group in group_hazards(hz):
        text = views.format_hazard(s.sim, group[0])
        text += also_reported(group)
        out.append(text)
    return "\n".join(out)


@command("info", ("i",), "info waves|breakpoints|registers|snapshots|line N|symbol [NAME]",
         "state of every wave, stop points, scalar registers, time-travel cost, source lines, symbols",
         "info waves: each wave's PC, state (ready/waiting and why/barrier/done), counters\n"
         "info breakpoints: breakpoints and watchpoints with their hit counts\n"
         "info registers [REG...]: the scalar registers written so far, vcc, exec, m0, scc; or the\n"
         "  registers named (`info registers v2 $s0`), shown as print shows them\n"
         "info display: the display expressions\n"
         "info snapshots: how many snapshots, their memory, and what steps/restores cost\n"
         "info line N (or FILE:N): the instructions line N assembles to, as executed, and where the PC is\n"
         "info symbol [NAME]: the value of a .set/= symbol (all of them without NAME) and where it was set",
         complete="info")
def cmd_info(s: Session, arg: str, fmt) -> str:
    subs = {"waves": _info_waves, "breakpoints": _info_breakpoints, "watchpoints": _info_breakpoints,
            "registers": _info_registers, "snapshots": _info_snapshots, "display": _info_display}
    with_arg = {"line": _info_line, "symbol": _info_symbol}
    word, _, rest = (arg.strip().partition(" ") if arg else ("", "", ""))
    word = word.lower()
    if rest.strip() and word in ("r", "reg", "regs", "register", "registers", "all-registers"):
        # `info registers v2 $s0 exec`: the named registers, each as `print` shows it
        return "\n".join(show_value(s, r, None) for r in rest.split())
    if word in with_arg:
        return with_arg[word](s, rest.strip())
    hits = [k for k in subs if k.startswith(word)] if word else []
    if len(hits) != 1 and word not in subs:
        raise CommandError("info waves | info breakpoints | info registers | info snapshots | info line N | "
                           "info symbol [NAME]")
    return subs[word if word in subs else hits[0]](s)


def _info_line(s: Session, text: str) -> str:
    file, _, num = text.rpartition(":")
    if not num.isdigit():
        raise CommandError("info line N (or FILE:N): a line number")
    k = s.kernel
    line = int(num)
    found = [i for i, ins in enumerate(k.instructions)
             if ins.span.line == line and k.same_file(ins.span.file, file or None)]
    if not found:
        at = k.instruction_at_line(line, file or None)
        hint = f"; the next instruction is at {k.written_at(at)}" if at is not None else ""
        return f"Line {line} holds no instruction{hint}."
    pc = s.wave_state.pc
    rows = [f"Line {line}: {len(found)} instruction{'s' if len(found) != 1 else ''}"]
    for i in found:
        ins = k.instructions[i]
        src = k.program.source_line(ins.span.line, ins.span.file).strip()
        state = " <= the PC of this wave" if i == pc and not s.wave_state.done else ""
        rows.append(f"  #{i}  {ins.text()}" + (f"   (written: {src})" if src and src != ins.text() else "") + state)
    return "\n".join(rows)


def _info_symbol(s: Session, name: str) -> str:
    from ..asm.program import Assignment
    program = s.kernel.program
    values = program.constants()
    where = {st.name: st.span for st in program.statements if isinstance(st, Assignment)}

    def row(n: str) -> str:
        v = values[n]
        sp = where.get(n)
        at = f", last set at {k_where(sp)}" if sp is not None else ""
        return f"{n} = {v} (0x{v & 0xFFFFFFFFFFFFFFFF:x}){at}"

    def k_where(sp) -> str:
        import os
        return f"line {sp.line}" if sp.file == program.file else f"{os.path.basename(sp.file)}:{sp.line}"

    if not name:
        return "\n".join(row(n) for n in sorted(values)) if values else "The program sets no symbols."
    if name not in values:
        raise CommandError(f"no symbol '{name}'{suggest(name, values)}")
    return row(name)


def _info_display(s: Session) -> str:
    if not s.displays:
        return "No display expressions."
    return "\n".join(f"{n}: {text}" + (f" /{fmt}" if fmt else "") for n, text, fmt in s.displays)


def _info_waves(s: Session) -> str:
    return views.format_waves(s.sim, s.wave, s.now)


def _info_breakpoints(s: Session) -> str:
    rows = []
    for b in s.breakpoints:
        rows.append(f"{b.describe(s.kernel)}  (hit {b.hits} time{'s' if b.hits != 1 else ''})")
    for w in s.watchpoints:
        rows.append(f"{w.describe()}  (hit {w.hits} time{'s' if w.hits != 1 else ''})")
    return "\n".join(rows) if rows else "No breakpoints or watchpoints."


def _info_registers(s: Session) -> str:
    st = s.wave_state
    rows = [f"wave {s.wave}:"]
    written = [i for i in range(102) if st.sgpr_init[i]]
    for k in range(0, len(written), 4):
        rows.append("  " + "   ".join(f"s{i:<3}= 0x{int(st.sgpr[i]):08x}" for i in written[k:k + 4]))
    for name in ("vcc", "exec", "m0", "scc"):
        rows.append("  " + views.format_register(regs.parse(name), st, None))
    return "\n".join(rows)


def _info_snapshots(s: Session) -> str:
    tm = s.tm
    st = tm.stats
    per_snap = st.snapshot_seconds / st.snapshots_taken * 1e3 if st.snapshots_taken else 0.0
    per_step = st.step_seconds / st.steps * 1e6 if st.steps else 0.0
    per_restore = (st.restore_seconds + st.replay_seconds) / st.restores * 1e3 if st.restores else 0.0
    kind = "Engine.snapshot()" if tm._native else "deep copy"
    return "\n".join([
        f"position: engine step {tm.tick}, cycle {s.now}",
        f"snapshots kept: {len(tm.snaps)} ({tm.snapshot_bytes() / 1e6:.1f} MB, {kind}); "
        f"one every {tm.interval} steps and at every stop",
        f"snapshots taken: {st.snapshots_taken}, {per_snap:.2f} ms each",
        f"engine steps: {st.steps}, {per_step:.1f} us each",
        f"restores: {st.restores}, {per_restore:.2f} ms each on average "
        f"(replayed {st.replayed_steps} steps in total)",
    ])


# ---------------------------------------------------------------------- time travel

@command("back", ("reverse-step", "rs", "bs"), "back [N]",
         "go back N instructions of the current wave (time travel; default 1)",
         "Restores the machine as it was right after the current wave issued its Nth previous\n"
         "instruction (the point where `step` stopped before), from snapshots plus exact\n"
         "re-execution. Registers, memory, LDS, counters, pipes and hazards all go back.")
def cmd_back(s: Session, arg: str, fmt) -> str:
    n = _count(arg)
    tm = s.tm
    here_pure = s.now == tm.clock_after(tm.tick)
    marks = [0] + [t for t in tm.wave_issue_ticks(s.wave) if t < tm.tick or (t == tm.tick and not here_pure)]
    marks = sorted(set(marks))
    if tm.tick == 0 and here_pure:
        return "Already at the start."
    target = marks[-n] if n <= len(marks) else 0
    note = "" if n <= len(marks) else "(reached the start)\n"
    return note + s.goto(target)


@command("reverse-cycle", ("rcy",), "reverse-cycle [N]", "go back N cycles (time travel; default 1)",
         "Short form `rcy`. (Before gdb parity `rc` meant this; `rc` is now reverse-continue, as in gdb.)")
def cmd_reverse_cycle(s: Session, arg: str, fmt) -> str:
    n = _count(arg)
    target = max(0, s.now - n)
    if target == s.now:
        return "Already at the start."
    return s.goto(s.tm.position_at(target), target)


# ---------------------------------------------------------------------- gdb's stop-point management

@command("tbreak", ("tb",), "tbreak LINE|LABEL | tbreak if EXPR",
         "a breakpoint that is deleted after it first stops",
         "As `break` (a condition too: `tbreak 30 if s0 == 1`), but deleted after its first stop, as in gdb.",
         complete="lines")
def cmd_tbreak(s: Session, arg: str, fmt) -> str:
    return _make_break(s, arg, temporary=True)


def _points(s: Session, arg: str) -> list:
    """Breakpoints/watchpoints named by number (all of them without numbers)."""
    everything = list(s.breakpoints) + list(s.watchpoints)
    if not arg.strip():
        return everything
    out = []
    for word in arg.replace(",", " ").split():
        if not word.isdigit():
            raise CommandError(f"'{word}' is not a breakpoint number (see `info breakpoints`)")
        hit = [p for p in everything if p.number == int(word)]
        if not hit:
            raise CommandError(f"no breakpoint or watchpoint number {word}")
        out += hit
    return out


def _enable(s: Session, arg: str, on: bool) -> str:
    points = _points(s, arg)
    for p in points:
        p.enabled = on
    if on:
        s._resync_points()  # a re-enabled watchpoint compares against the value it has now
    verb = "Enabled" if on else "Disabled"
    return f"{verb} {', '.join(str(p.number) for p in points)}." if points else "No breakpoints or watchpoints."


@command("disable", ("dis", "disa"), "disable [N...]",
         "keep breakpoints/watchpoints N but do not stop at them (all without N)")
def cmd_disable(s: Session, arg: str, fmt) -> str:
    return _enable(s, arg, False)


@command("enable", ("en",), "enable [N...]", "stop at breakpoints/watchpoints N again (all without N)")
def cmd_enable(s: Session, arg: str, fmt) -> str:
    return _enable(s, arg, True)


def _set_condition(s: Session, point, text: str) -> None:
    if not text:
        point.condition, point.condition_text = None, ""
        return
    node = exprmod.parse(text)
    exprmod.evaluate(node, s.env(point.wave if getattr(point, "wave", None) is not None else s.wave))
    point.condition, point.condition_text = node, text


@command("condition", ("cond",), "condition N [EXPR]",
         "stop at breakpoint/watchpoint N only when EXPR holds (no EXPR: always)",
         "EXPR is evaluated on the wave that arrives (a watchpoint: its wave, or the current one for\n"
         "memory), in the `break if` language: `condition 1 s0 == 1`, `condition 2 $v1[0] > 4`.")
def cmd_condition(s: Session, arg: str, fmt) -> str:
    word, _, text = arg.strip().partition(" ")
    if not word:
        raise CommandError("condition N [EXPR]: which breakpoint?")
    point = _points(s, word)[0]
    _set_condition(s, point, text.strip())
    if not point.condition_text:
        return f"Breakpoint {point.number} now unconditional."
    return f"Breakpoint {point.number} stops only if {point.condition_text}."


# ---------------------------------------------------------------------- display

@command("display", ("disp",), "display[/FMT] [EXPR]",
         "show EXPR (a register or expression) after every stop; no EXPR: show them all now",
         "Each display has a number (`undisplay N` removes it); formats as for print.", complete="regs")
def cmd_display(s: Session, arg: str, fmt) -> str:
    arg, fmt = _split_format(arg, fmt)
    if not arg:
        return display_text(s) if s.displays else "No display expressions."
    text = show_value(s, arg, fmt)  # an error here refuses the display, as gdb does for a bad one
    s._display_number += 1
    s.displays.append((s._display_number, arg, fmt))
    return f"{s._display_number}: {text}"


@command("undisplay", ("undisp",), "undisplay [N...]", "stop showing display N (all without N)")
def cmd_undisplay(s: Session, arg: str, fmt) -> str:
    if not arg.strip():
        n = len(s.displays)
        s.displays.clear()
        return f"Deleted {n} display{'s' if n != 1 else ''}."
    for word in arg.replace(",", " ").split():
        if not word.isdigit() or not any(d[0] == int(word) for d in s.displays):
            raise CommandError(f"no display number {word} (`display` lists them)")
        s.displays = [d for d in s.displays if d[0] != int(word)]
    return f"Deleted display {arg.strip()}."


# ---------------------------------------------------------------------- restart, finish, reverse runs

@command("run", ("r",), "run", "restart the program from the beginning and run to the first stop",
         "Goes back to launch (exact: the first snapshot) and continues; breakpoints, watchpoints\n"
         "and displays stay.")
def cmd_run(s: Session, arg: str, fmt) -> str:
    if arg:
        raise CommandError("run takes no argument (the launch setup comes from the file's header)")
    s.goto(0)
    return f"Starting program: {s.kernel.program.file}\n" + s.run(Goal("continue"))


@command("start", (), "start", "restart the program and stop at its first instruction")
def cmd_start(s: Session, arg: str, fmt) -> str:
    if arg:
        raise CommandError("start takes no argument")
    start = s.now
    s.goto(0)
    return (f"Starting program: {s.kernel.program.file}\ncycle {start} -> {s.now} ({s.now - start:+d})\n"
            + s.where())


_CALLS = ("s_swappc_b64", "s_call_b64")


def _call_depth(s: Session, w: int) -> tuple[int, int | None]:
    """How many calls the wave is inside (calls minus s_setpc_b64 returns it issued), and the
    instruction index of the innermost open call."""
    stack: list[int] = []
    for r in probe.records(s.sim):
        if r.wave != w:
            continue
        m = s.kernel.instructions[r.index].mnemonic
        if m in _CALLS:
            stack.append(r.index)
        elif m == "s_setpc_b64" and stack:
            stack.pop()
    return len(stack), (stack[-1] if stack else None)


@command("finish", ("fin",), "finish",
         "run until the current call returns (its s_setpc_b64); at top level: to s_endpgm",
         "A call is an s_swappc_b64 or s_call_b64 the wave issued; its return is the s_setpc_b64 that\n"
         "closes it. At top level there is nothing to return from, so the wave runs to its s_endpgm\n"
         "(stopping earlier at a breakpoint, watchpoint or hazard).")
def cmd_finish(s: Session, arg: str, fmt) -> str:
    if arg:
        raise CommandError("finish takes no argument")
    ended = s.ended_text()
    if ended:
        return ended
    _require_live_wave(s)
    w = s.wave
    depth, call = _call_depth(s, w)
    if depth == 0:
        head = f"finish: wave {w} is at top level (in no call): running to its s_endpgm."

        def after(ss: Session, res) -> str | None:
            return "" if probe.is_done(ss.sim, w) else None
    else:
        head = f"Run till exit from the call at {s.kernel.written_at(call)}"
        start = probe.issued(s.sim, w)

        def after(ss: Session, res) -> str | None:
            if probe.is_done(ss.sim, w):
                return f"wave {w} ended inside the call."
            for ww, idx, _ in res.issues:
                if ww == w and ss.kernel.instructions[idx].mnemonic == "s_setpc_b64" and \
                        probe.issued(ss.sim, w) > start and _call_depth(ss, w)[0] < depth:
                    return f"Returned from the call (s_setpc_b64 at {ss.kernel.written_at(idx)})."
            return None
    return head + "\n" + s.run(Goal("finish", after))


@command("reverse-continue", ("rc",), "reverse-continue",
         "run backwards to the most recent breakpoint, watchpoint or hazard stop (or the start)",
         "Replays the run from launch with the stop points as they are now, and goes to the last\n"
         "position before this one where one of them stops (the same place a forward `continue`\n"
         "would have stopped). `rc` was reverse-cycle before gdb parity; that is `rcy` now.")
def cmd_reverse_continue(s: Session, arg: str, fmt) -> str:
    if arg:
        raise CommandError("reverse-continue takes no argument")
    here = s.tm.tick
    if here == 0:
        return "Already at the start."
    start_cycle = s.now
    hits = s.scan_stops(here)
    if not hits:
        s.goto(0)
        return (f"No breakpoint or watchpoint stops before this point: back at the start.\n"
                f"cycle {start_cycle} -> {s.now} ({s.now - start_cycle:+d})\n" + s.where())
    tick, reasons, wave, numbers = hits
    s.goto(tick)
    s.wave = wave
    s.hit_numbers = numbers
    s._drop_temporary()
    return "\n".join([r for r in reasons if r] + [f"cycle {start_cycle} -> {s.now} ({s.now - start_cycle:+d})",
                                                   s.where()])


@command("reverse-next", ("rn",), "reverse-next",
         "go back to where `next` would have started to arrive here (over a whole loop)",
         "The reverse of `next`: the earliest earlier stop of the current wave from which `next`\n"
         "ends here, so after a loop it goes back to the loop's branch before its first repeat.\n"
         "Where no such stop exists it goes back one instruction (as `reverse-step`).")
def cmd_reverse_next(s: Session, arg: str, fmt) -> str:
    if arg:
        raise CommandError("reverse-next takes no argument (use `back N`)")
    w = s.wave
    tm = s.tm
    here_pure = s.now == tm.clock_after(tm.tick)
    ticks = [t for t in tm.wave_issue_ticks(w) if t < tm.tick or (t == tm.tick and not here_pure)]
    recs = [r for r in probe.records(s.sim) if r.wave == w]
    if not ticks:
        return "Already at the start." if tm.tick == 0 else s.goto(0)
    current = s.wave_state.pc if not s.wave_state.done else len(s.kernel.instructions)
    # positions before now: launch (PC of the first issue) and after each issue (PC of the next one)
    marks = [0] + list(ticks)
    pcs = [recs[0].index] + [recs[j + 1].index if j + 1 < len(recs) else current for j in range(len(ticks))]
    best, highest = None, -1
    for mark, pc in zip(reversed(marks), reversed(pcs)):
        if highest >= current:
            break
        if pc < current and highest <= pc:
            best = mark
        highest = max(highest, pc)
    if best is None:
        best = marks[-1]
    return s.goto(best)


# ---------------------------------------------------------------------- settings, help

@command("set", (), "set stop-on-hazard on|off | set listsize N | set snapshot-interval N",
         "change a setting (no argument: show them)", complete="set")
def cmd_set(s: Session, arg: str, fmt) -> str:
    from .session import SETTINGS_HELP
    if not arg:
        return "\n".join([f"stop-on-hazard    {'on' if s.stop_on_hazard else 'off'}",
                          f"listsize          {s.listsize}",
                          f"snapshot-interval {s.tm.interval}"])
    parts = arg.replace("=", " ").split()
    name = parts[0].lower()
    value = parts[1].lower() if len(parts) > 1 else ""
    if name == "stop-on-hazard":
        if value not in ("on", "off"):
            raise CommandError("set stop-on-hazard on|off")
        s.stop_on_hazard = value == "on"
        return f"stop-on-hazard is {value}"
    if name in ("listsize", "snapshot-interval"):
        n = _count(value, what=name) if value else None
        if n is None:
            raise CommandError(f"set {name} N")
        if name == "listsize":
            s.listsize = n
        else:
            s.tm.interval = n
        return f"{name} is {n}"
    raise CommandError(f"unknown setting '{name}'{suggest(name, SETTINGS_HELP)}; settings: "
                       + "; ".join(f"{k} {v}" for k, v in SETTINGS_HELP.items()))


@command("help", ("h", "?"), "help [COMMAND]", "list the commands, or explain one", complete="commands")
def cmd_help(s: Session, arg: str, fmt) -> str:
    if arg:
        c = lookup(arg.split()[0])
        short = f"  (short: {', '.join(c.aliases)})" if c.aliases else ""
        text = [f"{c.usage}{short}", f"  {c.summary}"]
        if c.details:
            text += ["  " + ln for ln in c.details.splitlines()]
        return "\n".join(text)
    def brief(c: Command) -> str:
        first = c.usage.split(" | ")[0]
        if len(first) > 20:
            return first.split()[0] + " ..."
        return first + (" | ..." if " | " in c.usage else "")
    width = max(len(brief(c)) for c in COMMANDS)
    rows = ["Commands (unique prefixes work; short forms in brackets; `help CMD` for details):"]
    for c in COMMANDS:
        short = f" [{', '.join(c.aliases[:2])}]" if c.aliases else ""
        rows.append(f"  {brief(c):<{width}}  {c.summary}{short}")
    rows.append("gdb names: `rc` is reverse-continue and `rn` reverse-next, as in gdb (reverse-cycle is `rcy`); "
                "$v2, $exec, $pc work wherever v2, exec, pc do.")
    rows.append("Empty line repeats the last command (interactive). Ctrl-C interrupts a run; Ctrl-D exits.")
    return "\n".join(rows)


@command("quit", ("q", "exit"), "quit", "leave the debugger")
def cmd_quit(s: Session, arg: str, fmt) -> str:
    s.quit_requested = True
    return ""


def command_names() -> list[str]:
    return [c.name for c in COMMANDS]


Session.dispatch = staticmethod(dispatch)  # the interpreter's entry point (see Session.execute)
