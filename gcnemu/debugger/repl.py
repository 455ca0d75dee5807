"""The interactive front end of `gcnemu step`: prompt_toolkit with history and completion.

All the debugging happens in `Session.execute`; this module only reads lines,
prints results, completes words and routes Ctrl-C: at the prompt it clears the
line (like a shell), during a run it asks the session to stop after the current
engine step (never in the middle of one, so the machine stays consistent).
Ctrl-D or `quit` exits. An empty line repeats the last motion command, as in gdb.
"""
from __future__ import annotations

import os
import signal
import sys
from typing import Iterable

from .commands import COMMANDS, lookup
from .session import SETTINGS_HELP, CommandError, Session

REPEATABLE = frozenset({"step", "next", "cycle", "continue", "back", "reverse-cycle", "list", "reverse-continue",
                        "reverse-next", "finish"})
HISTORY_FILE = os.path.join(os.path.expanduser("~"), ".gcnemu_step_history")


def _words_for(session: Session, kind: str, word: str, before: str) -> list[str]:
    """Completion candidates for the argument being typed."""
    from . import regs
    if kind == "commands":
        return [c.name for c in COMMANDS]
    if kind == "info":
        return ["waves", "breakpoints", "registers", "snapshots", "display", "line", "symbol"]
    if kind == "set":
        if len(before.split()) <= 1:
            return list(SETTINGS_HELP)
        return ["on", "off"]
    if kind == "lines":
        return ["if"] + list(session.kernel.labels)
    if kind == "regs":
        out = regs.completions(word)
        if before.split()[:1] and before.split()[0] in ("p", "print", "inspect") and len(before.split()) <= 1:
            out.append("mfma")
        if " of " in before + " ":
            from ..isa import mfma
            return mfma.all_spellings(session.kernel.target.name)
        if before.rstrip().endswith(" as") or " as " in before and " of" not in before:
            return ["A", "B", "C", "D", "of"]
        return out + ["lds["]
    return []


def make_completer(session: Session):
    from prompt_toolkit.completion import Completer, Completion

    class DebuggerCompleter(Completer):
        """First word: commands and short forms. Then what that command takes."""

        def get_completions(self, document, complete_event):
            text = document.text_before_cursor
            word = document.get_word_before_cursor(WORD=True)
            before = text[: len(text) - len(word)]
            if not before.strip():
                names = sorted({c.name for c in COMMANDS})
                for n in names:
                    if n.startswith(word.lower()):
                        yield Completion(n, start_position=-len(word))
                return
            try:
                cmd = lookup(before.split()[0].split("/")[0])
            except CommandError:
                return
            for cand in _words_for(session, cmd.complete or "", word, before):
                if cand.lower().startswith(word.lower()):
                    yield Completion(cand, start_position=-len(word))

    return DebuggerCompleter()


def _execute(session: Session, line: str) -> str:
    """Run one command with Ctrl-C routed to `Session.interrupt`."""
    def on_sigint(signum, frame):
        session.interrupt()
    try:
        previous = signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread
        previous = None
    try:
        return session.execute(line)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def run_repl(session: Session, first: Iterable[str] = ()) -> int:
    """Interactive loop until `quit` or Ctrl-D. Returns the exit status (0)."""
    try:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory
    except ImportError:  # pragma: no cover - prompt_toolkit is a dependency
        return _plain_repl(session, first)
    try:
        history = FileHistory(HISTORY_FILE)
        history.load_history_strings()
    except OSError:
        history = InMemoryHistory()
    ps = PromptSession(history=history, completer=make_completer(session), complete_while_typing=False)
    print(session.banner())
    for line in first:
        print(f"{session.prompt()}{line}")
        _show(_execute(session, line))
    last = ""
    while not session.quit_requested:
        try:
            line = ps.prompt(session.prompt())
        except KeyboardInterrupt:
            continue
        except EOFError:
            print()
            break
        if not line.strip():
            if not last:
                continue
            line = last
        _show(_execute(session, line))
        last = line if _repeatable(line) else ""
    return 0


def _repeatable(line: str) -> bool:
    try:
        return lookup(line.split()[0].split("/")[0]).name in REPEATABLE
    except (CommandError, IndexError):
        return False


def _show(text: str) -> None:
    if text:
        print(text, flush=True)


def _plain_repl(session: Session, first: Iterable[str]) -> int:
    print(session.banner())
    for line in first:
        _show(_execute(session, line))
    while not session.quit_requested:
        try:
            line = input(session.prompt())
        except KeyboardInterrupt:
            print()
            continue
        except EOFError:
            print()
            break
        _show(_execute(session, line))
    return 0
