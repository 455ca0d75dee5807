"""The stepping debugger behind `gcnemu step`.

`Session` is the command interpreter: it takes one command line and returns the
text to show, without knowing about terminals. Batch mode (`--batch`), the
prompt_toolkit REPL and the tests all drive the same `Session`, so what the
tests check is what users see.

Modules:
- `session`: the interpreter and the run loop (breakpoints, watchpoints, hazards);
- `commands`: the command table (names, short forms, help, argument parsing);
- `regs`, `expr`: register names and the small safe expression language;
- `views`: text views of registers, memory, counters, pipes, matrices, source;
- `probe`: the one place that reads engine internals (defensively);
- `snapshots`: time travel (periodic snapshots + deterministic re-execution);
- `repl`: the interactive front end.
"""
__all__ = ["Session"]


def __getattr__(name: str):
    # lazy: `gcnemu.debugger.regs` and friends must not pull in the whole session machinery
    if name == "Session":
        from . import commands  # the command table registers itself with the Session class
        return commands.Session
    raise AttributeError(name)
