"""The README's Python example runs as written and checks its own result.

A user copies it first; if it drifts from the API it must fail here, not in their hands.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_python_block_of_the_readme_runs(monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert blocks, "the README has a Python example"
    monkeypatch.chdir(ROOT)
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
