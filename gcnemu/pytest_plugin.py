"""pytest plugin: asm snippets with a `gcnemu:` header run as test items beside the Python tests.

Registered through the `pytest11` entry point, so it is active wherever gcnemu is
installed. To stay harmless in every other project and never disturb Python test
collection, it collects only

- `programs/**/*.s` (relative to the pytest root directory), and
- any file named `test_*.s`,

and only when the file has a `gcnemu:` header. A header naming several targets
(`arch: gfx90a, gfx942`) gives one item per target, `test_x.s[gfx90a]`, as pytest names
parametrised tests. A failure shows the same report as
`gcnemu test`: the expectation's line with a caret and a table of what differs.
gcnemu itself is imported lazily, when a snippet is actually collected.
"""
from __future__ import annotations

from pathlib import Path

import pytest


class SnippetFailed(Exception):
    """The snippet's expectations did not hold (the message is the full report)."""


def _wanted(path: Path, root: Path) -> bool:
    if path.suffix != ".s":
        return False
    if path.name.startswith("test_"):
        return True
    try:
        rel = path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return len(rel.parts) > 1 and rel.parts[0] == "programs"


def pytest_collect_file(file_path: Path, parent):
    if not _wanted(Path(file_path), Path(parent.config.rootpath)):
        return None
    return SnippetFile.from_parent(parent, path=Path(file_path))


class SnippetFile(pytest.File):
    def collect(self):
        from .commands.test import has_header
        try:
            lines = self.path.read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            lines = []
        if lines and not has_header(lines):
            return
        from .commands.test import header_targets
        targets = header_targets(str(self.path))
        if len(targets) > 1 and not self.config.getoption("gcnemu_arch", default=None):
            for t in targets:  # `arch: gfx90a, gfx942`: one item per target, parametrised ids as pytest names them
                yield SnippetItem.from_parent(self, name=f"{self.path.name}[{t}]", target=t)
            return
        yield SnippetItem.from_parent(self, name=self.path.name)


class SnippetItem(pytest.Item):
    def __init__(self, *, target: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.target = target

    def runtest(self) -> None:
        from .commands.test import run_one
        arch = self.config.getoption("gcnemu_arch", default=None) or self.target
        result = run_one(str(self.path), arch)
        if result.status == "SKIP":
            pytest.skip(result.report[0] if result.report else "no gcnemu header")
        if result.status == "FAIL":
            raise SnippetFailed("\n".join(result.report))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, SnippetFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, 0, f"snippet: {self.path.name}"


def pytest_addoption(parser) -> None:
    group = parser.getgroup("gcnemu")
    group.addoption("--gcnemu-arch", dest="gcnemu_arch", default=None,
                    help="run asm snippets on this target instead of the one their header names")
