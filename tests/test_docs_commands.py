"""Every `gcnemu ...` command shown in README.md, docs/*.md and programs/**/README.md runs.

A reader copies these commands first. Each one runs here, in a temporary copy of the
repository, and fails the test when it:
- exits non-zero, unless its line says so in a comment (`# exits 1: ...`) or it is part of a
  transcript, whose output decides (status 0 or 1; never 2, never a traceback);
- prints an empty result (nothing at all, "no instructions", "0 rows");
- belongs to a block marked `<!-- transcript: FILE -->` whose text no longer matches what it
  prints. In a transcript `...` alone on a line stands for any number of lines, and a line
  ending in `...` only has to start with the text before it.

Lines that are synopses (they name FILE, PATH or [options]) are not commands and are skipped.
A file the text refers to but the repository lacks is made by a comment before the block:
`<!-- file: NAME -->` over a code block holding its text, or
`<!-- file: NAME = PATH without line N -->` for a copy of PATH with one line deleted.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "programs").rglob("README.md"))]
FENCE = re.compile(r"((?:<!--[^\n]*-->\n)*)```(\w*)\n(.*?)```", re.S)
MARK = re.compile(r"<!-- (transcript|file): ([^>]*?) -->")
DERIVED = re.compile(r"(\S+) = (\S+) without line (\d+)$")
PROMPT = re.compile(r"^\(w\d+ (?:line \d+|ended) cycle \d+\) (.*)$")
SYNOPSIS = re.compile(r"\b(FILE|PATH|MNEMONIC|CMDS)\b|\[")
EMPTY = ("(no instructions", " 0 rows", "nothing to show")


@dataclass
class Command:
    doc: str
    line: int
    argv: list[str]
    allowed_status: tuple[int, ...] = (0,)
    stdin: str | None = None
    expected: list[str] | None = None  # transcript lines, when the block is one
    files: dict[str, str] = field(default_factory=dict)  # NAME -> recipe, made before running

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}:{' '.join(self.argv[:3])}"


def _strip_comment(line: str) -> tuple[str, str]:
    """`gcnemu lint x.s   # note` -> command and note (a '#' inside quotes is kept)."""
    cut = re.search(r"\s#\s", line)
    if cut is None:
        return line.strip(), ""
    return line[: cut.start()].strip(), line[cut.end():].strip()


def _commands_of(doc: Path) -> list[Command]:
    text = doc.read_text()
    rel = str(doc.relative_to(ROOT))
    files: dict[str, str] = {}
    found: list[Command] = []
    for m in FENCE.finditer(text):
        marks = dict((k, v.strip()) for k, v in MARK.findall(m.group(1)))
        body = m.group(3)
        first_line = text.count("\n", 0, m.start(3)) + 1
        if "file" in marks:
            d = DERIVED.match(marks["file"])
            files[d.group(1) if d else marks["file"]] = marks["file"] if d else "text:" + body
            if not d:
                continue
        lines = body.splitlines()
        is_transcript = "transcript" in marks
        for i, raw in enumerate(lines):
            s = raw.strip()
            if s.startswith("$ "):
                s = s[2:]
                if not is_transcript and s.startswith("gcnemu "):
                    raise AssertionError(f"{rel}:{first_line + i}: a block showing `$ gcnemu` output must be "
                                         "marked <!-- transcript: FILE --> so that it is checked")
            elif is_transcript:
                continue  # output lines of the transcript
            s = re.sub(r"^pip install [^&]*&&\s*", "", s)  # the quick start's install step
            if not s.startswith("gcnemu "):
                continue
            cmd, note = _strip_comment(s)
            if SYNOPSIS.search(cmd):
                continue
            c = Command(rel, first_line + i, shlex.split(cmd)[1:], files=dict(files))
            if re.match(r"exits (\d)", note):
                c.allowed_status = (int(note.split()[1].rstrip(":")),)
            if is_transcript:
                out: list[str] = []
                for later in lines[i + 1:]:
                    if later.startswith("$ "):
                        break
                    out.append(later.rstrip())
                while out and not out[-1]:
                    out.pop()
                c.expected = out
                c.allowed_status = (0, 1)
                if c.argv[0] == "step":  # the debugger's commands are the text after each prompt
                    c.stdin = "".join(p.group(1) + "\n" for p in map(PROMPT.match, out) if p)
            found.append(c)
    return found


COMMANDS = [c for doc in DOCS for c in _commands_of(doc)]


def test_the_docs_show_commands_and_transcripts():
    assert len(COMMANDS) >= 10
    assert sum(c.expected is not None for c in COMMANDS) >= 4
    assert {c.doc for c in COMMANDS} >= {"README.md", "docs/debugger.md", "docs/snippets.md"}


def matches(expected: list[str], actual: list[str]) -> str | None:
    """None when `actual` fits `expected` (with its `...` gaps), else what went wrong."""
    segments: list[list[str]] = [[]]
    for e in expected:
        if e.strip() == "...":
            segments.append([])
        else:
            segments[-1].append(e)
    anchored_start, anchored_end = bool(segments[0]), bool(segments[-1])

    def fits(e: str, a: str) -> bool:
        e, a = e.rstrip(), a.rstrip()
        if e.endswith("...") and e.strip() != "...":
            return a.startswith(e[:-3].rstrip())
        return e == a

    def at(seg: list[str], pos: int) -> bool:
        return pos + len(seg) <= len(actual) and all(fits(e, actual[pos + k]) for k, e in enumerate(seg))

    pos = 0
    for n, seg in enumerate(segments):
        if not seg:
            continue
        if n == len(segments) - 1 and anchored_end and len(segments) > 1:
            start = len(actual) - len(seg)
            if start < pos or not at(seg, start):
                return f"the transcript's last lines do not end the output: {seg[0]!r} ..."
            return None
        if n == 0:
            if not at(seg, 0):
                return f"the output does not start with {seg[0]!r}"
            pos = len(seg)
            continue
        for start in range(pos, len(actual) - len(seg) + 1):
            if at(seg, start):
                pos = start + len(seg)
                break
        else:
            return f"not found in the output (in order): {seg[0]!r}"
    if anchored_end and len(segments) == 1 and pos != len(actual):
        return f"the output goes on after the transcript: {actual[pos]!r}"
    del anchored_start
    return None


def test_transcript_matching_is_strict_where_the_text_is_whole():
    assert matches(["a", "...", "c"], ["a", "b", "b", "c"]) is None
    assert matches(["a", "c"], ["a", "b", "c"]) is not None
    assert matches(["a", "x ..."], ["a", "x and more"]) is None
    assert matches(["b", "..."], ["a", "b"]) is not None
    assert matches(["...", "b"], ["a", "b"]) is None


def _make_files(c: Command, cwd: Path) -> None:
    for name, recipe in c.files.items():
        if recipe.startswith("text:"):
            (cwd / name).write_text(recipe[5:])
            continue
        d = DERIVED.match(recipe)
        src = (cwd / d.group(2)).read_text().splitlines(keepends=True)
        del src[int(d.group(3)) - 1]
        (cwd / name).write_text("".join(src))


@pytest.fixture(scope="module")
def repo_copy(tmp_path_factory) -> Path:
    """README paths are relative to the repository: run them in a copy, so no command can
    write into the checkout (`lint --fix`, `test --update`)."""
    cwd = tmp_path_factory.mktemp("repo")
    for part in ("programs", "docs", "tests/corpus"):
        shutil.copytree(ROOT / part, cwd / part)
    shutil.copy(ROOT / "README.md", cwd)
    return cwd


@pytest.mark.parametrize("c", COMMANDS, ids=[c.id for c in COMMANDS])
def test_a_documented_command_runs_and_prints_what_the_docs_say(c: Command, repo_copy: Path):
    _make_files(c, repo_copy)
    # unbuffered, one stream: warnings and results interleave as in a terminal
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", PYTHONUNBUFFERED="1")
    r = subprocess.run([sys.executable, "-m", "gcnemu", *c.argv], cwd=repo_copy, env=env,
                       input=c.stdin if c.stdin is not None else "", stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=300)
    where = f"{c.doc}:{c.line}: gcnemu {' '.join(c.argv)}"
    printed = r.stdout
    assert "Traceback" not in printed, f"{where}\n{printed}"
    assert r.returncode in c.allowed_status, f"{where}: exit {r.returncode}\n{printed[-3000:]}"
    assert printed.strip(), f"{where}: printed nothing"
    for empty in EMPTY:
        assert empty not in printed, f"{where}: prints an empty result ({empty.strip()!r})"
    if c.expected is not None:
        header = f"$ gcnemu {' '.join(c.argv)}"
        actual = [header, *printed.rstrip("\n").splitlines()]
        problem = matches([header, *c.expected], actual)
        assert problem is None, f"{where}: the transcript no longer matches: {problem}\n--- printed:\n{printed[-3000:]}"
