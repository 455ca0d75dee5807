"""A loaded snippet (program, header, target, launch) and how it is loaded and simulated."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable

from .header import Directive, Expect, HazardExpect, Header, parse_directives, scan_directives
from .launch import SnippetBuild, build
from ..setup import Setup
from ..asm.program import Program

# ---------------------------------------------------------------- snippets


@dataclass
class Snippet:
    """A loaded snippet: program, header, chosen target, evaluated launch."""

    path: str
    program: Program
    header: Header
    target: str
    built: SnippetBuild
    base_dir: str | None = None  # where npy("...") files are read from

    @property
    def setup(self) -> Setup:
        return self.built.setup

    @property
    def expects(self) -> list[Expect]:
        return self.header.expects

    def kernel(self):
        from ..asm.resolve import resolve
        return resolve(self.program, self.target)

    def simulate(self, kernel=None, latencies: dict[str, int] | None = None, max_cycles: int | None = None,
                 max_instructions: int | None = None, run: bool = True, timing=None, monitor: bool = True,
                 race_check: bool = True):
        """Build the Simulation (with per-wave register values applied) and run it.

        `timing` (a TimingConfig, e.g. from `--latency-file`) adds its latencies over the header's
        and its memory regions; `latencies` (a dict) wins over both."""
        import copy
        from ..simulation import Simulation
        kernel = kernel or self.kernel()
        file_lat = dict(timing.overrides) if timing is not None else {}
        lat = {**self.built.latencies, **file_lat, **(latencies or {})}
        # only the names the user set: a flat `vmem` among them turns the cache hierarchy off
        from ..sim.latency import TimingConfig
        kernel.target.latencies.override(**lat)  # an unknown name or bad value fails here, as before
        lat_obj = TimingConfig(lat, list(timing.regions) if timing is not None else [],
                               dict(timing.caches) if timing is not None else {})
        kw = {}
        mc = max_cycles or self.header.max_cycles
        mi = max_instructions or self.header.max_instructions
        if mc:
            kw["max_cycles"] = mc
        if mi:
            kw["max_instructions"] = mi
        sim = Simulation(kernel, copy.deepcopy(self.setup), latencies=lat_obj, abi_from_file=False, monitor=monitor,
                         race_check=race_check, **kw)
        for p in self.built.patches:
            wave = sim.wave(p.wave)
            if p.reg.file in ("v", "a"):
                arr = wave.vgpr if p.reg.file == "v" else wave.agpr
                init = wave.vgpr_init if p.reg.file == "v" else wave.agpr_init
                arr[p.reg.index:p.reg.index + p.reg.count] = p.words
                init[p.reg.index:p.reg.index + p.reg.count] = True
            else:
                wave.set_sgpr(p.reg.index, p.words)
        if run:
            sim.run()
        return sim


def load_snippet(path: str, arch: str | None = None, extra: Iterable[Directive] = (),
                 program: Program | None = None) -> Snippet:
    """Parse a file, its header, and `extra` statements (CLI options, applied last so they win);
    choose the target (--arch > header 'arch:' > .amdgcn_target > default) and evaluate the setup."""
    from ..isa.targets import get_target
    from ..asm.parse import parse_file
    from ..asm.validate import program_target
    prog = program or parse_file(path)
    header = Header()
    parse_directives(list(scan_directives(prog.lines, prog.file)) + list(extra), header)
    if arch:
        target = get_target(arch).name
    elif header.arch:
        target = header.arch[0]
    else:
        target = program_target(prog, None)
    check_hazard_expects(header, target, prog)
    base = os.path.dirname(os.path.abspath(path)) if path != "-" else None
    built = build(header, get_target(target), base, prog)
    return Snippet(path, prog, header, target, built, base)


def check_hazard_expects(header: Header, target: str, program: Program) -> None:
    """A hazard expectation must name a rule the target has and an instruction's line, or it
    could never fail (a guard with a typo in its rule id forbids nothing): header errors."""
    from ..isa.rule_ids import did_you_mean, hazard_rule_ids, targets_with
    known = hazard_rule_ids(target)
    lines = None
    for e in header.expects:
        if not isinstance(e, HazardExpect) or e.none:
            continue
        src = e.rule_src or e.src
        if e.rule not in known:
            elsewhere = targets_with(e.rule)
            if elsewhere:
                raise src.error(f"hazard rule '{e.rule}' does not apply to {target} "
                                f"(it is a rule of {', '.join(elsewhere)})")
            if e.rule.startswith("hint-"):
                raise src.error(f"'{e.rule}' is a lint hint, not a hazard: a snippet cannot expect it")
            close = did_you_mean(e.rule, target)
            hint = f"; did you mean '{close}'?" if close else " (the ids are in gcnemu/isa/data/hazards.toml)"
            raise src.error(f"unknown hazard rule '{e.rule}'{hint}")
        if e.line is None:
            continue
        where = e.line_src or src
        if not 1 <= e.line <= len(program.lines):
            raise where.error(f"line {e.line} is outside the file (it has {len(program.lines)} lines)")
        if lines is None:
            lines = {ins.span.line for ins in program.instructions if ins.span is not None}
        if e.line not in lines:
            raise where.error(f"line {e.line} holds no instruction: a hazard is reported at the line "
                              f"of the instruction that reads or writes too early")
