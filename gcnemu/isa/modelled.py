"""Which instructions `gcnemu run` executes: a fact kept as data (``data/modelled.txt``).

The table is generated from the simulator by ``tools/gen_modelled.py`` and pinned against it by
a test, so the front end can say "not modelled" (and ``check --list-unmodelled`` can list what
is missing) without importing the engine.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from . import mnemonics, opcodes


@lru_cache(maxsize=1)
def _names() -> frozenset[str]:
    text = resources.files("gcnemu.isa").joinpath("data/modelled.txt").read_text(encoding="utf-8")
    return frozenset(l for l in text.splitlines() if l and not l.startswith("#"))


@lru_cache(maxsize=4096)
def executes(mnemonic: str) -> bool:
    """True if `gcnemu run` executes ``mnemonic`` (encoding suffixes such as _e64 are ignored)."""
    m = mnemonic.strip().lower()
    names = _names()
    if m in names:
        return True
    base, _ = mnemonics._split_suffix(m)
    return base in names or opcodes.ALIASES.get(base) in names  # alias spellings (v_accvgpr_read)


def unmodelled(target: str) -> list[str]:
    """Every mnemonic llvm-mc accepts on ``target`` that gcnemu validates but does not execute."""
    names = _names()
    return sorted(r.name for r in mnemonics._table(mnemonics._check_target(target)).rows.values()
                  if r.name not in names)
