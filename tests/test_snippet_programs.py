"""Every program in programs/ carries a gcnemu header with expectations, and meets them.

`pytest` collects tests/ only (pyproject testpaths), so this test is what runs the
programs' own headers in CI; `gcnemu test programs/` and `pytest programs/` do the same.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gcnemu.commands.test import run_one
from gcnemu.asm.parse import parse_file
from gcnemu.snippets.header import VALUE_EXPECTS, parse_header

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"


def _included(files: list[Path]) -> set[Path]:
    """Files another program pulls in with `.include` (a kernel kept verbatim, like MIOpen's in
    programs/miopen_igemm/): part of their includer's program, not programs of their own."""
    found = set()
    for f in files:
        for name in re.findall(r'^\s*\.include\s+"([^"]+)"', f.read_text(errors="replace"), re.M):
            found.add((f.parent / name).resolve())
    return found


_ALL = sorted(PROGRAMS.rglob("*.s"))
FILES = [f for f in _ALL if f.resolve() not in _included(_ALL)]


def test_there_are_programs():
    assert FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PROGRAMS)))
def test_program_meets_its_header(path):
    header = parse_header(parse_file(path))
    assert any(isinstance(e, VALUE_EXPECTS) for e in header.expects), "no value expectation in the header"
    result = run_one(str(path), None)
    assert result.status == "PASS", "\n".join(result.report)
