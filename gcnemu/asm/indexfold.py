"""Register indices written with symbols, folded to numbers before a line is parsed.

Used by the scanner for an instruction line that names a symbol with a constant value
(`v[vgprValuA_X0_I0+1]` with `.set vgprValuA_X0_I0, 4`). Generated kernels (Tensile, MIOpen)
name nearly every register so; folded, such a line takes the statement memo and the fast
paths like plain code instead of the grammar (the grammar was most of `check`'s time on a
47k-line Tensile kernel). The folding keeps column segments, so every span still points at what
was written. Also here: the scanner's bookkeeping of which cached foldings a changed symbol
invalidates.
"""
from __future__ import annotations

import re

from . import expr as _expr
from .syntax import _WORD

_CACHE_LIMIT = 100_000  # entries per cache (the caches live across parse() calls)
_INDEXED = re.compile(r"\b(?:v|s|a|acc|ttmp)\[([^\[\]]*)\]")
_UNFOLDED = object()


def _fold_register_symbols(code: str, env: dict, reads: set | None = None, memos: bool = True):
    """`v[vgprValuA_X0_I0+1]` -> `v[5]`: register indices written with symbols folded to numbers
    (text, column segments back onto `code`), or None when an index is no constant here.
    `reads`, when given, receives every name the evaluated indices look up in `env`.

    Why: generated kernels (Tensile, MIOpen) name nearly every register through `.set` symbols;
    folded, such a line takes the same fast paths and statement memo as plain code instead of
    the grammar (measured: the grammar was most of check's time on a 47k-line Tensile kernel).
    The segments map the folded text's columns back, so every span points at what was written."""
    out: list[str] = []
    segs: list[tuple] = []
    pos = 0  # in code
    opos = 0  # in the output
    for m in _INDEXED.finditer(code):
        inner = m.group(1)
        if not _WORD.search(inner):
            continue
        parts = inner.split(":")
        if len(parts) > 2:
            return None
        texts = []
        for p in parts:
            v = _index_value(p, env, reads, memos)
            if v is None:
                return None
            texts.append(v)
        if all(len(t) <= len(p) for t, p in zip(texts, parts)):
            # padded to the written width: every column stays where it was (no remapping)
            new = ":".join(t.ljust(len(p)) for t, p in zip(texts, parts))
        else:
            new = ":".join(texts)
        lo, hi = m.start(1), m.end(1)
        if lo > pos:
            out.append(code[pos:lo])
            segs.append((opos, opos + lo - pos, pos, lo, True))
            opos += lo - pos
        out.append(new)
        segs.append((opos, opos + len(new), lo, hi, False))
        opos += len(new)
        pos = hi
    if not segs:
        return None
    out.append(code[pos:])
    segs.append((opos, opos + len(code) - pos, pos, len(code), True))
    text = "".join(out)
    if len(text) == len(code) and all(s[1] - s[0] == s[3] - s[2] for s in segs):
        return text, None  # same columns throughout
    return text, tuple(segs)


_index_names: dict = {}  # index text -> the names its value reads (across parse() calls)
_index_values: dict = {}  # (index text, those names' values) -> the value's text, or None


def _index_value(p: str, env: dict, reads: set | None, memos: bool = True):
    """The text of the value of the register index `p` with the symbols of `env`, or None when
    it is no constant. Memoized (unless `memos` is False) by the values of the names it reads (a kernel writes the same
    few index expressions over and over, under a handful of symbol tables)."""
    names = _index_names.get(p)
    if names is None:
        if len(_index_names) > _CACHE_LIMIT:
            _index_names.clear()
        names = _index_names[p] = tuple(_expr.names(p))
    if reads is not None:
        reads.update(names)
    key = [p] if memos else None
    for n in names if key is not None else ():
        v = env.get(n, _UNFOLDED)
        if type(v) is not int and v is not _UNFOLDED:  # (keys compare by value: True == 1)
            key = None
            break
        key.append(v)
    if key is not None:
        key = tuple(key)
        text = _index_values.get(key, _UNFOLDED)
        if text is not _UNFOLDED:
            return text
    try:
        text = str(_expr.evaluate(p, env))
    except _expr.ExprError:
        text = None
    if key is not None:
        if len(_index_values) > _CACHE_LIMIT:
            _index_values.clear()
        _index_values[key] = text
    return text


def _changed_names(old: dict, new: dict) -> list:
    """The names whose value (or presence) differs between two symbol tables."""
    miss = _UNFOLDED
    out = [k for k, v in new.items() if (o := old.get(k, miss)) is not v and (type(o) is not type(v) or o != v)]
    out += [k for k in old if k not in new]
    return out


def _names_symbol(code: str, env: dict) -> bool:
    """Does the statement read a symbol that has a constant value here? (Such lines bypass the
    statement memo and the fast paths: the same text means another value elsewhere.)"""
    return not env.keys().isdisjoint(_WORD.findall(code))


def _forget(cache: dict, users: dict, pending: list, names) -> None:
    """Drop from the fold cache the texts that name any of `names` (symbols whose value or
    presence changed). `users` (name -> texts naming it) is brought up to date first with the
    (text, names) pairs `pending` holds: it is built only when some symbol changes (a file
    that assigns its symbols before its code never needs it)."""
    if not names:
        return
    for code, words in pending:
        for w in words:
            texts = users.get(w)
            if texts is None:
                users[w] = [code]
            else:
                texts.append(code)
    pending.clear()
    for name in names:
        for code in users.pop(name, ()):
            cache.pop(code, None)


