"""Build the Simulation a debugging session runs: the file, its header setup, CLI overrides.

The setup comes from the file's header comments (`gcnemu.snippet`), exactly as
`gcnemu run` and `gcnemu test` launch it, so a program behaves the same in the
debugger as everywhere else. CLI setup options arrive as extra header
directives, applied last so they win. Without the snippet module (older trees)
the default `Setup()` is used.
"""
from __future__ import annotations

from typing import Iterable


def simulation_for_file(path: str, arch: str | None = None, extra: Iterable = (), max_cycles: int | None = None,
                        max_instructions: int | None = None, timing=None, latencies: dict | None = None):
    """A launched, not yet started Simulation for `path` (GcnemuError on bad input)."""
    try:
        from ..snippet import load_snippet
    except ImportError:
        load_snippet = None
    if load_snippet is not None:
        snip = load_snippet(path, arch, extra)
        kernel = snip.kernel()
        return snip.simulate(kernel, latencies, max_cycles=max_cycles, max_instructions=max_instructions, run=False,
                             timing=timing)
    from ..commands.common import load_kernel
    from ..setup import Setup
    from ..simulation import Simulation
    kernel = load_kernel(path, arch)
    try:
        from ..snippet import setup_from_program
        setup = setup_from_program(kernel.program, kernel.target)
    except ImportError:
        setup = Setup()
    kw = {}
    if max_cycles:
        kw["max_cycles"] = max_cycles
    if max_instructions:
        kw["max_instructions"] = max_instructions
    return Simulation(kernel, setup, **kw)

