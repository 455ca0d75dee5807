"""Static hazard analysis (the linter) and the dynamic hazard monitor.

Modules, each small and over the ISA tables (the facts live in ``gcnemu/isa``):

* ``classify``   instruction -> hazard classes, register reads/writes per role
* ``cfg``        control-flow graph (networkx) of a program's instructions
* ``waitstates`` wait-state rules counted along every path (loops included)
* ``counters``   outstanding vm/lgkm operations through ``s_waitcnt`` (abstract
                 interpretation to a fixpoint)
* ``lint``       ``lint(program, target)`` -> diagnostics, combining the above
* ``fix``        minimal ``s_nop`` / ``s_waitcnt`` edits on the original bytes
* ``sarif``      SARIF 2.1.0 output
* ``monitor``    the same rules applied to an executed issue stream
"""
from __future__ import annotations

__all__ = ["lint"]


def lint(program, target, rules=None, hints: bool = False, launch=None):
    """See :func:`gcnemu.analysis.lint.lint` (imported lazily to keep imports cheap)."""
    from .lint import lint as _lint
    return _lint(program, target, rules=rules, hints=hints, launch=launch)
