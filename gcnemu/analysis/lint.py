"""``lint(program, target)``: wait-state and counter hazards as llvm-mc style diagnostics.

Each hazard becomes one ``warning`` at the consumer (caret under the operand
that carries the dependency), a ``note`` at the producer, and a location-less
``note`` with the arithmetic: required vs provided wait states (and the worst
path when it crosses blocks), or the counter arithmetic with the tightest
``s_waitcnt`` that would do.  ``extra`` carries the JSON fields
(``producer``, ``required_wait_states``, ``provided_wait_states``, ``fix``).

With ``hints=True`` performance hints are added with severity ``hint``: waits
that wait for nothing, ``s_nop`` longer than any rule needs, and
``s_waitcnt vmcnt(0)`` where a larger count would do.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..asm.diagnostics import Diagnostic, GcnemuError
from ..isa.hazard_rules import canonical_target, counter_rule_by_id, counter_rules_for, rules_for
from ..isa.targets import get_target
from ..asm.macros import instantiation_notes
from ..asm.program import Call, CallGroup, Imm, Instruction, Program, Span
from .cfg import CFG, build_cfg
from .classify import Facts, access_span, classify_all
from .counters import CounterAnalysis, CounterHazard
from .paths import PathModel
from .races import RULE_LDS_RACE, StaticRace, static_races
from .values import LaunchFacts, LdsRanges, lds_ranges
from .waitstates import RuleIndex, WaitStateHazard, analyze, describe_path

HINT_RULES = {
    "hint-waitcnt-noop": "An s_waitcnt whose counters can never be above the values it names: it waits for nothing.",
    "hint-nop-too-long": "An s_nop longer than any hazard rule needs at that point.",
    "hint-vmcnt-zero": "s_waitcnt vmcnt(0) where a larger count covers every later use.",
}
NOP_MAX = 15  # s_nop takes 0..15 on gfx9: one s_nop provides at most 16 wait states


@dataclass
class Analysis:
    """Everything one lint run computed (used by lint, fix, hints and tests)."""

    program: Program
    target: str
    instructions: list[Instruction]
    facts: list[Facts]
    cfg: CFG
    index: RuleIndex
    counter_ids: set[str]
    wait_hazards: list[WaitStateHazard] = field(default_factory=list)
    counter_hazards: list[CounterHazard] = field(default_factory=list)
    counters: CounterAnalysis | None = None
    lds: LdsRanges | None = None  # LDS byte ranges of DMAs and DS reads (values.py)
    races: list[StaticRace] = field(default_factory=list)  # proven LDS races between waves (races.py)


def known_rule_ids(target: str) -> set[str]:
    return ({r.id for r in rules_for(target)} | {r.id for r in counter_rules_for(target)} | set(HINT_RULES)
            | {RULE_LDS_RACE})


def _target_name(target) -> str:
    name = getattr(target, "name", target)
    try:
        return canonical_target(str(name))
    except ValueError as e:
        raise GcnemuError(str(e)) from None


def analyze_program(program: Program, target, rules=None, launch: LaunchFacts | None = None) -> Analysis:
    """Run the wait-state and counter analyses (no diagnostics yet); ``launch`` gives the
    workgroup size and the registers the launch sets (see `LaunchFacts`)."""
    tname = _target_name(target)
    only = None
    if rules:
        only = set(rules)
        unknown = sorted(only - known_rule_ids(tname))
        if unknown:
            raise GcnemuError(f"unknown rule(s) for {tname}: {', '.join(unknown)}")
    ins = program.instructions
    symbols = program.symbols
    facts = classify_all(ins, tname, symbols, program.lines)
    cfg = build_cfg(facts, program.labels)
    index = RuleIndex(tname, only)
    counter_ids = {r.id for r in counter_rules_for(tname) if only is None or r.id in only}
    tgt = get_target(tname)
    an = Analysis(program, tname, ins, facts, cfg, index, counter_ids)
    an.wait_hazards = analyze(facts, cfg, index) if index.rules else []
    an.lds = lds_ranges(program, ins, facts, cfg, tname, launch)
    paths = PathModel(facts, ins, cfg, symbols)
    ca = CounterAnalysis(facts, cfg, tgt.vmcnt_max, tgt.lgkmcnt_max, lds=an.lds, paths=paths).run()
    an.counters = ca
    an.counter_hazards = [h for h in ca.hazards() if h.rule in counter_ids]
    if only is None or RULE_LDS_RACE in only:
        an.races = static_races(ins, facts, cfg, tname, launch.workgroup if launch else None, symbols)
    return an


def lint(program: Program, target, rules=None, hints: bool = False,
         launch: LaunchFacts | None = None) -> list[Diagnostic]:
    """All hazards of ``program`` on ``target`` as diagnostics, sorted by position.

    ``rules`` keeps only the named rule ids (hint ids included).  A program
    with parse errors returns those errors (distances would be wrong).
    """
    errors = [d for d in program.diagnostics if d.severity == "error"]
    if errors:
        return errors
    return lint_analysis(analyze_program(program, target, rules, launch), rules, hints)


def lint_analysis(an: Analysis, rules=None, hints: bool = False) -> list[Diagnostic]:
    """Diagnostics of an :class:`Analysis` already computed."""
    diags = [_in_expansion(an, wait_diagnostic(an, h), h.consumer, h.producer) for h in an.wait_hazards]
    diags += [_in_expansion(an, counter_diagnostic(an, h), h.consumer, h.producer) for h in an.counter_hazards]
    diags += [_in_expansion(an, race_diagnostic(an, r), r.second, r.first) for r in an.races]
    from .convention import convention_diagnostics
    diags += convention_diagnostics(an, an.counter_ids)
    if hints:
        from .hints import hint_diagnostics
        only = set(rules) if rules else None
        diags += [d for d in hint_diagnostics(an) if only is None or d.rule in only]
    diags.sort(key=lambda d: (d.span.line if d.span else 0, d.span.column if d.span else 0, d.rule))
    return diags


# --------------------------------------------------------------------------- rendering


def _in_expansion(an: Analysis, d: Diagnostic, consumer: int, producer: int) -> Diagnostic:
    """``d`` with llvm-mc's "while in macro instantiation" notes when its instructions came out of
    a .macro/.rept/.irp expansion.

    Why: a hazard inside a macro body is reported at the body's line, once per instantiation; without
    the notes two warnings would read the same and the user could not tell which call is unsafe.
    The consumer's chain follows the producer note; the producer's own chain is added after it only
    when it differs (a producer outside the macro, or in another instantiation)."""
    expansions = an.program.expansions
    if not expansions:
        return d
    cchain = expansions.get(an.instructions[consumer].index, ())
    pchain = expansions.get(an.instructions[producer].index, ())
    if not cchain and not pchain:
        return d
    file = d.span.file if d.span is not None else an.program.file
    notes = list(d.notes)
    at = 1 if notes and notes[0].span is not None else 0  # right after the producer note
    extra = instantiation_notes(file, pchain, an.program.lines) if pchain and pchain != cchain else []
    notes[at:at] = extra
    notes[0:0] = instantiation_notes(file, cchain, an.program.lines) if cchain else []
    d.notes = notes
    return d


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _mn_span(an: Analysis, i: int) -> Span:
    return an.instructions[i].mnemonic_span


def _span_of(an: Analysis, i: int, access) -> Span:
    if access is not None and access.explicit and access.cols is not None:
        return access_span(access, an.instructions[i].span)
    return _mn_span(an, i)


def _verb(rule_operand: str, producer_operand: str) -> tuple[str, str]:
    """(consumer verb, producer phrase) for the warning sentence; the phrase has a `{}` where its
    object goes ("reads {} as SrcC" reads as English with "it" or a register in it)."""
    c = "overwrites" if rule_operand == "write" else "reads"
    p = {"srcc": "reads {} as SrcC", "vdata": "stores {}"}.get(producer_operand, "writes {}")
    return c, p


def nop_text(count: int) -> list[str]:
    """The fewest s_nop instructions providing ``count`` wait states."""
    out = []
    while count > 0:
        n = min(count, NOP_MAX + 1)
        out.append(f"s_nop {n - 1}")
        count -= n
    return out


def wait_fix(an: Analysis, h: WaitStateHazard) -> dict:
    """Grow the s_nop right before the consumer when it has room, else insert s_nop(s)."""
    ins = an.instructions[h.consumer]
    prev = h.consumer - 1
    if prev >= 0 and an.cfg.block_of[prev] == an.cfg.block_of[h.consumer] and an.facts[prev].base == "s_nop":
        p = an.instructions[prev]
        op = p.operands[0] if p.operands else None
        if isinstance(op, Imm) and op.value + h.deficit <= NOP_MAX:
            sp = op.span
            return {"action": "replace", "line": sp.line, "column": sp.column, "end_column": sp.end_column,
                    "text": str(op.value + h.deficit)}
    return {"action": "insert-before", "line": ins.span.line, "column": ins.span.column,
            "text": "\n".join(nop_text(h.deficit))}


_NOP_ADVICE = re.compile(r"(?:[:;,]\s*|\s+)(?:so\s+)?insert (?:s_nop \d+|\d+ wait states? \(s_nop \d+\))[^.]*\.$")


def why_only(message: str) -> str:
    """A rule's message without its generic "insert s_nop N" advice: the note already names the
    fix for this place (fewer nops where some wait states are provided), and two different
    counts in one sentence contradict each other."""
    return _NOP_ADVICE.sub(".", message)


def wait_diagnostic(an: Analysis, h: WaitStateHazard) -> Diagnostic:
    r = h.rule
    c, p = an.facts[h.consumer], an.facts[h.producer]
    cverb, pverb = _verb(r.operand, r.producer_operand)
    what = h.consumer_access.reg.text() if h.consumer_access is not None else None
    pline = an.instructions[h.producer].span.line
    if what and r.operand not in ("none", "hwreg"):
        msg = (f"{c.mnemonic} {cverb} {what} too soon after {p.mnemonic} (line {pline}) {pverb.format('it')}: "
               f"{h.provided} of {_plural(h.required, 'wait state')}")
    else:
        msg = (f"{c.mnemonic} issues too soon after {p.mnemonic} (line {pline}): "
               f"{h.provided} of {_plural(h.required, 'wait state')}")
    passes = f" ({p.passes} passes)" if p.passes and r.depends_on_passes else ""
    preg = h.producer_access.reg.text() if h.producer_access is not None else None
    pnote_msg = f"{p.mnemonic}{passes} {pverb.format(preg)} here" if preg else f"{p.mnemonic}{passes} is here"
    pnote = Diagnostic("note", pnote_msg, _span_of(an, h.producer, h.producer_access))
    path = describe_path(h, an.cfg, an.facts)
    fix = wait_fix(an, h)
    if fix["action"] == "replace":
        how = f"make it s_nop {fix['text']} at line {fix['line']}"
    else:
        how = f"insert {'; '.join(fix['text'].splitlines())} before line {fix['line']}"
    arith = (f"required {_plural(h.required, 'wait state')}, provided {h.provided}"
             + (f" {path}" if path else "") + f"; fix: {how}. {why_only(r.message)}")
    d = Diagnostic("warning", msg, _span_of(an, h.consumer, h.consumer_access), rule=r.id,
                   notes=[pnote, Diagnostic("note", arith, None)])
    pspan = pnote.span
    d.extra = {"producer": {"line": pspan.line, "column": pspan.column},
               "required_wait_states": h.required, "provided_wait_states": h.provided, "fix": fix}
    return d


_CNT = {"vm": "vmcnt", "lgkm": "lgkmcnt"}


def _noun(an: Analysis, h: CounterHazard, n: int) -> str:
    kinds = h.kinds
    if h.counter == "vm":
        if kinds and kinds <= {"load", "atomic", "lds-dma"}:
            return _plural(n, "load")
        return _plural(n, "vector memory operation")
    if kinds and kinds <= {"ds-read"}:
        return _plural(n, "LDS load")
    if kinds and kinds <= {"smem"}:
        return _plural(n, "scalar load")
    return _plural(n, "LDS/SMEM operation")


def counter_fix(an: Analysis, h: CounterHazard) -> dict:
    """Tighten the s_waitcnt that fails to cover (same block, producer issued before it), else insert one."""
    field = _CNT[h.counter]
    if h.waitcnt is not None and not (an.cfg.block_of[h.producer] == an.cfg.block_of[h.consumer]
                                      and h.waitcnt < h.producer < h.consumer):
        between = sum(1 for i in range(h.waitcnt + 1, h.consumer)
                      if an.facts[i].mem is not None and an.facts[i].mem.counter == h.counter
                      and (h.counter == "vm" or an.facts[i].mem.kind.startswith("ds")
                           or not an.facts[h.producer].mem.kind.startswith("ds")))
        at_wait = h.needed - between
        call = _field_call(an.instructions[h.waitcnt], field)
        if at_wait >= 0 and call is not None:
            sp = call.span
            return {"action": "replace", "line": sp.line, "column": sp.column, "end_column": sp.end_column,
                    "text": f"{field}({at_wait})"}
    ins = an.instructions[h.consumer]
    return {"action": "insert-before", "line": ins.span.line, "column": ins.span.column,
            "text": f"s_waitcnt {field}({h.needed})"}


def _field_call(ins: Instruction, field: str) -> Call | None:
    for op in ins.operands:
        calls = op.calls if isinstance(op, CallGroup) else (op,) if isinstance(op, Call) else ()
        for c in calls:
            if c.name == field:
                return c
    return None


_RACE_VERB = {"RAW": "reads LDS that {p} (line {l}) writes", "WAR": "writes LDS that {p} (line {l}) reads",
              "WAW": "writes LDS that {p} (line {l}) also writes"}


def race_diagnostic(an: Analysis, r: StaticRace) -> Diagnostic:
    """A proven LDS race: warning at the later access of the pair, note at the other one."""
    a, b = an.instructions[r.first], an.instructions[r.second]
    same = r.first == r.second
    other = "the same instruction" if same else a.mnemonic
    msg = (f"LDS race ({r.kind}): {b.mnemonic} in one wave {_RACE_VERB[r.kind].format(p=other, l=a.span.line)}"
           f" in another wave, with no s_barrier between them on some path")
    arith = (f"wave {r.wave_b}'s {b.mnemonic} and wave {r.wave_a}'s {a.mnemonic} both touch LDS byte 0x{r.byte:x}..0x{r.byte + 4:x} "
             f"(addresses from the work-item ids and the header's workgroup size); fix: s_waitcnt lgkmcnt(0) "
             f"then s_barrier between the two accesses, or give each wave its own words")
    notes = [] if same else [Diagnostic("note", f"{a.mnemonic} issued here", _mn_span(an, r.first))]
    notes.append(Diagnostic("note", arith, None))
    d = Diagnostic("warning", msg, _mn_span(an, r.second), rule=RULE_LDS_RACE, notes=notes)
    d.extra = {"producer": {"line": a.span.line, "column": a.mnemonic_span.column},
               "required_wait_states": None, "provided_wait_states": None, "fix": None,
               "race": {"kind": r.kind, "waves": [r.wave_a, r.wave_b], "byte": r.byte}}
    return d


def counter_diagnostic(an: Analysis, h: CounterHazard) -> Diagnostic:
    rule = counter_rule_by_id(an.target, h.rule)
    c, p = an.facts[h.consumer], an.facts[h.producer]
    field = _CNT[h.counter]
    pline = an.instructions[h.producer].span.line
    if h.rule in ("vmem-result-before-vmcnt", "ds-result-before-lgkmcnt", "smem-result-before-lgkmcnt"):
        msg = f"{c.mnemonic} reads {h.registers} before {p.mnemonic} (line {pline}) has returned it"
        the_one = f"the one that writes {h.registers}"
    elif h.rule in ("vmem-dst-overwrite-before-vmcnt", "lgkm-dst-overwrite-before-lgkmcnt"):
        msg = f"{c.mnemonic} overwrites {h.registers}, which {p.mnemonic} (line {pline}) will still write when it returns"
        the_one = f"the one that writes {h.registers}"
    elif h.rule == "lds-dma-read-before-vmcnt":
        msg = f"{c.mnemonic} reads LDS while the LDS DMA {p.mnemonic} (line {pline}) may still be writing it"
        the_one = "the LDS DMA"
    else:
        msg = f"s_barrier while the LDS write {p.mnemonic} (line {pline}) may still be in flight"
        the_one = "that LDS write"
    if h.waitcnt is not None:
        arith = (f"{_noun(an, h, h.waitcnt_outstanding)} outstanding, s_waitcnt {field}({h.waitcnt_value}) "
                 f"(line {an.instructions[h.waitcnt].span.line}) does not cover {the_one}; use {field}({h.needed})")
    else:
        arith = (f"{_noun(an, h, h.outstanding)} outstanding and no s_waitcnt {field} covers {the_one}; "
                 f"use s_waitcnt {field}({h.needed}) before line {an.instructions[h.consumer].span.line}")
    if h.counter == "lgkm" and p.mem is not None and p.mem.kind == "smem":
        arith += " (SMEM returns out of order: only lgkmcnt(0) covers it)"
    if h.path and an.counters is not None:
        arith += f" ({an.counters.describe_path(h)})"
    span = _span_of(an, h.consumer, h.access) if h.access is not None else _mn_span(an, h.consumer)
    pnote = Diagnostic("note", f"{p.mnemonic} issued here", _mn_span(an, h.producer))
    d = Diagnostic("warning", msg, span, rule=h.rule,
                   notes=[pnote, Diagnostic("note", f"{arith}. {rule.message[0].upper()}{rule.message[1:]}.", None)])
    fix = counter_fix(an, h)
    d.extra = {"producer": {"line": pnote.span.line, "column": pnote.span.column},
               "required_wait_states": None, "provided_wait_states": None, "fix": fix}
    return d
