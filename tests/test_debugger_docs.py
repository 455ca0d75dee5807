"""docs/debugger.md shows real transcripts: this test reruns every one and compares.

A transcript block is a ```text block right after a `<!-- transcript: FILE -->` comment;
its commands are the text after each prompt. FILE is a path in the repository, or the
name of a file whose contents the page shows in a block after `<!-- file: NAME -->`.
When the debugger's output or the timing model changes on purpose, regenerate with

    GCNEMU_UPDATE_DOCS=1 python -m pytest tests/test_debugger_docs.py
"""
from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

from gcnemu.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "debugger.md"
PROMPT = re.compile(r"^\(w\d+ (?:line \d+|ended) cycle \d+\) (.*)$")
BLOCK = re.compile(r"<!-- transcript: (\S+) -->\n```text\n(.*?)```\n", re.S)
FILE = re.compile(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```\n", re.S)


def transcript(file: str, commands: list[str], cwd: Path) -> str:
    cmds = cwd / ".commands.txt"
    cmds.write_text("\n".join(commands) + "\n")
    buf = io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(buf):
            main(["step", file, "--batch", str(cmds)])
    finally:
        os.chdir(old)
        cmds.unlink()
    return f"$ gcnemu step {file}\n" + buf.getvalue()


def regenerate(text: str, tmp_path: Path) -> str:
    files = dict(FILE.findall(text))

    def redo(m: re.Match) -> str:
        file, body = m.group(1), m.group(2)
        commands = [p.group(1) for p in map(PROMPT.match, body.splitlines()) if p]
        if file in files:
            (tmp_path / file).write_text(files[file])
            cwd = tmp_path
        else:
            cwd = ROOT
        return f"<!-- transcript: {file} -->\n```text\n{transcript(file, commands, cwd)}```\n"
    return BLOCK.sub(redo, text)


def test_the_walkthrough_transcripts_are_what_gcnemu_step_prints(tmp_path):
    text = DOC.read_text()
    assert len(BLOCK.findall(text)) >= 2
    fresh = regenerate(text, tmp_path)
    if os.environ.get("GCNEMU_UPDATE_DOCS") and fresh != text:
        DOC.write_text(fresh)
        text = fresh
    assert fresh == text, "docs/debugger.md is out of date: GCNEMU_UPDATE_DOCS=1 pytest tests/test_debugger_docs.py"
    assert "error:" not in "".join(b for _, b in BLOCK.findall(fresh))
