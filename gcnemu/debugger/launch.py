"""Build the Simulation a debugging session runs: the file, its header setup, CLI overrides.

The setup comes from the file's header comments (`gcnemu.snippets`), exactly as
`gcnemu run` and `gcnemu test` launch it, so a program behaves the same in the
debugger as everywhere else. CLI setup options arrive as extra header
directives, applied last so they win.
"""
from __future__ import annotations

from typing import Iterable


def simulation_for_file(path: str, arch: str | None = None, extra: Iterable = (), max_cycles: int | None = None,
                        max_instructions: int | None = None, timing=None, latencies: dict | None = None):
    """A launched, not yet started Simulation for `path` (GcnemuError on bad input). Limits not
    given come from the header, else the command line's defaults, as for `gcnemu run`."""
    from ..sim.engine import limits_for
    from ..snippets.runner import load_snippet
    snip = load_snippet(path, arch, extra)
    kernel = snip.kernel()
    max_cycles, max_instructions = limits_for(max_cycles, max_instructions, snip.header)
    return snip.simulate(kernel, latencies, max_cycles=max_cycles, max_instructions=max_instructions, run=False,
                         timing=timing)
