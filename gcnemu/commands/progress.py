"""A progress bar for commands that take more than about a second (a grid, a folder of tests,
`lint --stats` over a corpus).

It draws on stderr with rich, only when stderr is a terminal and `--no-progress` was not given,
so pipes, CI logs and `--format json` stay clean. It appears only once the work has taken
`delay` seconds: a quick command never flashes a bar.
"""
from __future__ import annotations

import os
import sys
import time


def wanted(args) -> bool:
    """A bar only for a person watching: stderr is a terminal and --no-progress is absent."""
    return not getattr(args, "no_progress", False) and sys.stderr.isatty()


def add_option(p) -> None:
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is drawn on stderr only when stderr is a terminal)")


class Progress:
    """`with Progress(total, "linting", enabled) as bar: ... bar.advance(label=name)`."""

    def __init__(self, total: int, what: str, enabled: bool = True, delay: float = 1.0):
        # GCNEMU_PROGRESS_DELAY=0 shows the bar at once (the terminal test uses it)
        delay = float(os.environ.get("GCNEMU_PROGRESS_DELAY", delay))
        self.total, self.what, self.enabled, self.delay = total, what, enabled, delay
        self.done = 0
        self._start = time.monotonic()
        self._bar = None
        self._task = None

    def __enter__(self) -> "Progress":
        return self

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, \
            TimeElapsedColumn
        # lines the command prints meanwhile go above the bar when stdout is that terminal too;
        # piped, they go to the pipe untouched
        self._bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TextColumn("{task.fields[label]}"),
                                 console=Console(stderr=True), transient=True,
                                 redirect_stdout=sys.stdout.isatty(), redirect_stderr=False)
        self._bar.start()
        self._task = self._bar.add_task(self.what, total=self.total, completed=self.done, label="")

    def advance(self, n: int = 1, label: str = "") -> None:
        self.done += n
        if not self.enabled:
            return
        if self._bar is None and time.monotonic() - self._start >= self.delay and self.done < self.total:
            self._show()
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done, label=label)

    def update(self, done: int, label: str = "") -> None:
        """Set the count of finished items (for callers that report totals, not steps)."""
        self.advance(done - self.done, label)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
