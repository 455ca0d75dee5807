"""The piece path: an instruction line read as its comma-separated pieces, each piece's meaning
cached by its text.

Used first for an instruction line the statement memo has not seen (with `fast=True`). Lines
that differ as a whole often share their pieces (` v[4:7]`, ` off`, ` offset:16`), so what a
piece means is computed once per mnemonic class and a new line is then a split and a few
dictionary lookups. The result is a recipe (see `recipes`) that the statement memo keeps.

A piece's meaning comes from its units: words (blanks end a word, except inside brackets:
`v[0 : 3]` is one word) with their leading blanks. What a unit means is computed by the fast
path's tokenizer and `_fast_atom` on the word alone (no token crosses a unit boundary, so the
tokens are the ones the whole line would give), then the units follow the rules of
`_fast_instruction` (flags, `scc`, `off`, s_waitcnt call groups, where `-x` may start an
operand). Only what is simple takes this path: a register, a number, a name, `name(int)`,
`key:value`, `-x`, with no modifier before an operand, no empty piece, no comma inside
brackets (`op_sel:[1,0]`), no call group across a comma, no trailing `scc` on a memory
instruction. Anything else returns None and goes to `_fast_instruction` (which may hand over
to the grammar); tests/test_parse_fastpath.py and tests/test_parse_pieces.py check that both
agree on every line.
"""
from __future__ import annotations

import re

from .fastpath import _fast_atom, _fast_tokens, _int_list
from .program import Call, FloatImm, Imm, Modified, Reg, Special, Symbol
from .recipes import _entry_of, _make_group, _relative
from .slots import make_modifier, make_special, make_symbol
from .syntax import _NO_FLAGS, FLAG_MODIFIERS, _mnemonic_facts, needs_grammar

_UNITS = re.compile(r"[ \t]*(?:[^ \t,\[]+(?:\[[^\[\]]*\][^ \t,\[]*)*|\[|,)")
_U_REG, _U_VAL, _U_NAME, _U_CALL, _U_KEY, _U_NEG = range(6)
_CACHE_LIMIT = 100_000  # entries per cache (the caches live across parse() calls)
_unit_cache: dict = {}  # unit text -> (kind, length, entry or modifier entry), or False
_head_cache: dict = {}  # first piece -> its meaning with the mnemonic's facts, or False
_piece_caches: dict = {}  # (memory?, scalar?, s_waitcnt?) -> {piece text -> meaning, or False}


def _unit(text: str):
    """What a unit means (columns relative to the unit's start), or False."""
    word = text.lstrip(" \t")
    off = len(text) - len(word)  # columns are 1-based: word index k is column off + k + 1
    toks = _fast_tokens(word)
    if not toks or word[-1].isspace():  # (`_fast_tokens` drops a trailing \f the line keeps)
        return False
    n = len(toks)
    kind, tok, _ = toks[0]
    if kind == "key":
        if n < 2:
            return False
        if toks[1][1] == "[":  # key:[int, int, ...], as `_fast_instruction` reads it
            if tok == "format:":  # MTBUF's format list holds names: the grammar's
                return False
            vals, j = _int_list(toks, 2, n)
            if not vals or j != n - 1 or toks[j][1] != "]":
                return False
            return (_U_KEY, len(text), (make_modifier, tok[:-1], tuple(vals), None, off + 1, off + toks[j][2] + 1))
        r = _fast_atom(toks, 1, n, "", 0)
        if r is None or r[1] != n:
            return False
        val = r[0]
        if isinstance(val, Imm):
            v = val.value
        elif isinstance(val, (Symbol, Special, Reg)):
            v = val.text()
        else:
            return False
        return (_U_KEY, len(text), (make_modifier, tok[:-1], v, None, off + 1, off + val.span.end_column))
    r = _fast_atom(toks, 0, n, "", 0)
    if r is None or r[1] != n:
        return False
    obj = r[0]
    t = type(obj)
    if kind == "punct":  # `-x`
        if t is not Imm and t is not FloatImm and t is not Modified:
            return False
        kind = _U_NEG
    elif t is Reg:
        kind = _U_REG
    elif t is Imm or t is FloatImm:
        kind = _U_VAL
    elif t is Special or t is Symbol:
        kind = _U_NAME
    elif t is Call:
        kind = _U_CALL
    else:
        return False
    e = _entry_of(obj)
    if e is None:
        return False
    return (kind, len(text), _relative(e, -off))


def _piece(text: str, start: int, memory: bool, scalar: bool, waitcnt: bool):
    """What the piece `text[start:]` means: (operand entries, modifier entries, has operands?,
    starts with a call?, ends with a call?, ends with an `scc` operand?), columns relative to
    the piece's start (0-based); False when it is not simple.

    The piece is read as `_fast_instruction` would after a comma (or after the mnemonic), with
    no modifier and no call before it: the line decides what these two change."""
    # not up to trailing blanks: findall would retry the blank-prefixed pattern at each blank of
    # the run (quadratic: a piece ending in 40k blanks took 25 s)
    units = _UNITS.findall(text, start, len(text.rstrip(" \t")))
    if not units:
        return False
    flags = _NO_FLAGS if scalar else FLAG_MODIFIERS
    ops: list = []
    mods: list = []
    prev_call = False  # the last operand is a call (s_waitcnt joins the next one to it)
    neg_ok = True  # a `-x` unit may start an operand here (first, or after a register)
    first_call = False
    pos = start
    for u in units:
        d = _unit_cache.get(u)
        if d is None:
            if len(_unit_cache) > _CACHE_LIMIT:
                _unit_cache.clear()
            d = _unit_cache[u] = _unit(u)
        if not d:
            return False
        kind, length, e = d
        base = pos
        pos += length
        e = _relative(e, -base)
        if kind == _U_KEY:
            mods.append(e)
            prev_call = neg_ok = False
            continue
        if kind == _U_NAME:
            name = e[1]
            if e[0] is make_symbol and name in flags or mods and name == "scc" and memory and e[0] is make_special:
                mods.append((make_modifier, name, None, None, e[4], e[5]))
                prev_call = neg_ok = False
                continue
            if mods:
                return False
            if scalar and name == "off" and e[0] is make_special:  # `off` is no address to s_ instructions
                e = (make_symbol, "off", None, None, e[4], e[5])
            ops.append(e)
            prev_call = False
            neg_ok = e[0] is make_special
            continue
        if kind == _U_CALL:
            if not ops and not mods:
                first_call = True
            if prev_call and waitcnt:  # `vmcnt(0) lgkmcnt(0)` is one operand
                prev = ops.pop()
                col = prev[4]
                calls = prev[1] if prev[0] is _make_group else (_relative(prev, col),)
                ops.append((_make_group, calls + (_relative(e, col),), None, None, col, e[5]))
                neg_ok = False
                continue
            if mods:
                return False
            ops.append(e)
            prev_call = True
            neg_ok = False
            continue
        if mods or kind == _U_NEG and not neg_ok:
            return False
        ops.append(e)
        prev_call = False
        neg_ok = kind == _U_REG
    ends_scc = bool(ops) and ops[-1][0] is make_special and ops[-1][1] == "scc"
    return tuple(ops), tuple(mods), bool(ops), first_call, prev_call, ends_scc


def _head(text: str):
    """The meaning of a line's first piece: (mnemonic, column, end, memory?, scalar?, s_waitcnt?,
    the piece cache for its class, the rest of the piece's meaning or None when the mnemonic is
    alone), or False when the first word is no plain name or the rest is not simple."""
    m = _UNITS.match(text)
    if m is None:
        return False
    unit = m.group()
    word = unit.lstrip(" \t")
    toks = _fast_tokens(word)
    if not toks or len(toks) != 1 or toks[0][0] != "name" or toks[0][1] != word:
        return False
    mnemonic, memory, scalar, _ = _mnemonic_facts(word)
    waitcnt = mnemonic.startswith("s_waitcnt")
    col = len(unit) - len(word) + 1
    cache = _piece_caches.setdefault((memory, scalar, waitcnt), {})
    rest = None
    if text[m.end():].strip(" \t"):
        rest = _piece(text, m.end(), memory, scalar, waitcnt)
        if not rest:
            return False
    return mnemonic, col, col + len(word), memory, scalar, waitcnt, cache, rest


def _piece_recipe(code: str, start_col: int, end_col: int):
    """The recipe of an instruction line made of simple pieces, or None (then `_fast_instruction`)."""
    pieces = code[:end_col - 1].split(",")
    text = pieces[0]
    head = _head_cache.get(text)
    if head is None:
        if len(_head_cache) > _CACHE_LIMIT:
            _head_cache.clear()
        head = _head_cache[text] = _head(text)
    if not head:
        return None
    mnemonic, mcol, mend, memory, scalar, waitcnt, cache, rest = head
    if needs_grammar(mnemonic, code):
        return None
    if rest is None:
        if len(pieces) > 1:  # `s_nop ,0`: the grammar's
            return None
        return (mnemonic, mcol, mend, start_col, end_col, (), ())
    ops, mods, has_ops, _, prev_call, ends_scc = rest
    op_parts = [(ops, 0)]
    mod_parts = [(mods, 0)] if mods else []
    has_mods = bool(mods)
    base = len(text) + 1
    for text in pieces[1:]:
        d = cache.get(text)
        if d is None:
            if len(cache) > _CACHE_LIMIT:
                cache.clear()
            d = cache[text] = _piece(text, 0, memory, scalar, waitcnt)
        if not d:
            return None
        ops, mods, has_ops, first_call, last_call, scc = d
        if has_ops:
            if has_mods or first_call and prev_call and waitcnt:  # the fast path's special cases
                return None
            op_parts.append((ops, base))
            ends_scc = scc
        if mods:
            mod_parts.append((mods, base))
            has_mods = True
        prev_call = last_call
        base += len(text) + 1
    if ends_scc and memory:  # a trailing `scc` is a cache-policy bit: `_fast_instruction` does that
        return None
    return (mnemonic, mcol, mend, start_col, end_col, tuple(op_parts), tuple(mod_parts))


