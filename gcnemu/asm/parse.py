"""Text -> Program: the parser's public entry. Syntax only: no target knowledge lives here.

`parse` and `parse_file` read a file; the command line sets `INCLUDE_DIRS`, `DEFSYMS` and
`TARGET` here. The work is done in layers, each a module with its reason to exist:

- `scanner`: the file, line by line: comments, labels, assignments, directives, and which
  path builds each instruction line;
- `recipes`: the statement memo (a line seen before is rebuilt from a line-free recipe);
- `pieces`: the piece path (a new line from cached meanings of its comma pieces);
- `fastpath`: the regex fast path (a simple line from one regular expression's tokens);
- `grammar`: the Lark grammar (`grammars/gcn.lark`), the reference the other paths agree with;
- `indexfold`: register indices written with symbols, folded before a line is parsed;
- `syntax`: the words every path reads alike (register names, bare modifiers);
- `slots`: makers of the frozen program objects that set their slots (the one speed device kept,
  with its measured worth).

Every path builds the very same objects; tests/test_parse_fastpath.py and
tests/test_parse_pieces.py check that.
"""
from __future__ import annotations

import gc
import os
import re
from pathlib import Path

from .grammar import OR_CHAR, ParseError, fold, is_forced_literal, lit_call_column  # noqa: F401 (public names)
from .program import Program
from .scanner import MAX_LINE_CHARS, MAX_OPERATORS, last_stats, scan  # noqa: F401 (public names)
from .syntax import FLAG_MODIFIERS, SPECIAL_REGISTERS  # noqa: F401 (public names)
# the layers' internals, which tests/test_parse_pieces.py reaches through this module
from .fastpath import _fast_instruction  # noqa: F401
from .pieces import _piece_recipe  # noqa: F401
from .recipes import _build, _recipe_of, _relocate_instruction  # noqa: F401
from .slots import make_imm as _make_imm, make_reg as _make_reg  # noqa: F401
from .scanner import _LABEL_RE, _SET_RE, _strip_comment  # noqa: F401

# The parser's memos by text (recipes, register index values, foldings, line shapes) are
# pure functions of the text and the symbols it names; tests turn them off (False) to check
# that they change nothing.
_MEMOS = True


def parse(text: str | bytes, file: str = "<input>", fast: bool = True, include_dirs=None,
          target: str | None = None) -> Program:
    """Parse assembly text. Never raises for bad input: problems become diagnostics.

    `include_dirs` are searched for `.include` files after the including file's folder
    (llvm-mc's -I); None means `INCLUDE_DIRS`, which the command line fills from its -I options.
    `target` decides llvm-mc's predefined symbols (.amdgcn.gfx_generation_number ...); None: --arch,
    else the file's .amdgcn_target, else the default.
    `fast=False` sends every instruction line through the Lark grammar (the fast
    path must give identical results; the tests compare both)."""
    was_enabled = gc.isenabled()
    gc.disable()  # the objects built here are acyclic: collector passes over a growing heap cost ~40%
    try:
        return scan(text, file, fast, INCLUDE_DIRS if include_dirs is None else include_dirs,
                    lambda decoded: initial_symbols(decoded, target), _MEMOS)
    finally:
        if was_enabled:
            gc.enable()


# -I folders of the command line: where `.include` looks after the including file's own folder
INCLUDE_DIRS: list[str] = []
# --defsym NAME=VALUE of the command line, and its --arch: the symbols a file starts with are
# llvm-mc's predefined ones for that target (.amdgcn.gfx_generation_number ...) and these
DEFSYMS: dict[str, int] = {}
TARGET: str | None = None
_TARGET_DIRECTIVE = re.compile(r'^\s*\.amdgcn_target\s+"([^"]*)"', re.M)


def initial_symbols(text: str, target: str | None = None, defsyms: dict | None = None) -> dict[str, int]:
    """The symbols defined before the first line: the target's predefined ones (the target from
    the argument, --arch, the file's .amdgcn_target, else the default) and --defsym's."""
    from ..isa.targets import DEFAULT_TARGET, get_target, predefined_symbols, target_from_directive
    name = target or TARGET
    if name is None:
        m = _TARGET_DIRECTIVE.search(text)
        name = (target_from_directive(m.group(1)) if m else None) or DEFAULT_TARGET
    try:
        name = get_target(name).name
    except KeyError:
        name = DEFAULT_TARGET
    out = predefined_symbols(name)
    out.update(DEFSYMS if defsyms is None else defsyms)
    return out


def parse_file(path: str | os.PathLike) -> Program:
    """Read and parse a file; '-' reads standard input."""
    import sys
    if str(path) == "-":
        data = sys.stdin.buffer.read()
        return parse(data, "<stdin>")
    data = Path(path).read_bytes()
    return parse(data, str(path))
