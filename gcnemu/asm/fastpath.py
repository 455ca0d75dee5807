"""The regex fast path: a simple instruction line built straight from one regular expression's
tokens, without the grammar.

Used (with `parse(fast=True)`, the default) for an instruction line the statement memo has not
seen and the piece path declines. Most instruction lines are a mnemonic, registers, plain numbers, names,
`-x`, `key:value` modifiers and `name(int)` calls; this builds those to the very same objects
(spans included) the grammar builds, and returns None for anything else (expressions,
brackets, `|x|`...), which then goes to the grammar. It exists for speed: Lark costs several
times more per line. tests/test_parse_fastpath.py checks the equivalence line by line.

The piece path (`pieces`) reuses the tokenizer and `_fast_atom` on single words.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .program import Call, CallGroup, Expr, FloatImm, Imm, Instruction, Modified, Modifier, Reg, Special, Symbol
from .slots import new_imm, new_modifier, new_reg, new_span, new_special, new_symbol
from .syntax import _RANGE_RE, _REG_RE, SPECIAL_REGISTERS, _mnemonic_facts, needs_grammar


_FAST_TOKEN = re.compile(r"""[ \t]*(?:
    (?P<reg>(?:v|s|a|acc|ttmp)(?:[0-9]+|\[[ \t]*[0-9]+[ \t]*(?::[ \t]*[0-9]+[ \t]*)?\])(?![A-Za-z0-9_.$@]))
  | (?P<punct>[,()\[\]&-])
  | (?P<key>[A-Za-z_][A-Za-z0-9_]*:(?!:))
  | (?P<name>(?!\.[0-9])[A-Za-z_.$][A-Za-z0-9_.$@]*)
  | (?P<hex>0[xX][0-9a-fA-F]+(?![A-Za-z0-9_.$@]))
  | (?P<float>(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?(?![A-Za-z0-9_.$@])|[0-9]+[eE][-+]?[0-9]+(?![A-Za-z0-9_.$@]))
  | (?P<int>[0-9]+(?![A-Za-z0-9_.$@]))
  | (?P<bad>[^ \t])
    )""", re.X)


@lru_cache(maxsize=65536)
def _reg_fields(text: str):
    """'v[4:7]' -> ('v', 4, 4); None if the range is reversed."""
    m = _REG_RE.match(text)
    if m:
        return ("a" if m.group(1) == "acc" else m.group(1)), int(m.group(2)), 1
    m = _RANGE_RE.match(text)
    lo = int(m.group(2))
    hi = int(m.group(3)) if m.group(3) is not None else lo
    if hi < lo:
        return None
    return ("a" if m.group(1) == "acc" else m.group(1)), lo, hi - lo + 1


def _fast_tokens(code: str):
    """[(kind, text, column)] or None when the line has something the fast path does not handle.

    `bad` catches any character no other token starts with, so the matches are contiguous
    and no position check is needed per token."""
    out = []
    append = out.append
    # rstrip: a run of trailing blanks would make finditer retry the failing blank-prefixed
    # match at every position of the run (quadratic: a 1 MB line took minutes)
    for m in _FAST_TOKEN.finditer(code.rstrip()):
        kind = m.lastgroup
        if kind == "bad":
            return None
        text = m.group(kind)
        append((kind, text, m.end() - len(text) + 1))
    return out


def _fast_atom(toks, j: int, n: int, file: str, line: int):
    """(object, next index) for the operand starting at token j, or None."""
    kind, text, col = toks[j]
    if kind == "reg":
        f = _reg_fields(text)
        if f is None:
            return None
        return new_reg(f[0], f[1], f[2], new_span(file, line, col, line, col + len(text))), j + 1
    if kind == "name":
        if j + 1 < n and toks[j + 1][1] in "([":
            if toks[j + 1][1] == "(" and j + 3 < n and toks[j + 2][0] in ("int", "hex") and toks[j + 3][1] == ")" \
                    and text not in ("neg", "abs", "sext"):
                r = _fast_atom(toks, j + 2, n, file, line)
                if r is None:
                    return None
                a = r[0]
                return Call(text, (a,), new_span(file, line, col, line, a.span.end_column + 1)), j + 4
            return None
        sp = new_span(file, line, col, line, col + len(text))
        m = _REG_RE.match(text)
        if m:
            return new_reg("a" if m.group(1) == "acc" else m.group(1), int(m.group(2)), 1, sp), j + 1
        if text in SPECIAL_REGISTERS:
            return new_special(text, sp), j + 1
        return new_symbol(text, sp), j + 1
    if kind == "int":
        # octal (`017`), or may not fit in 64 bits (int() refuses > 4300 digits): the grammar decides
        if len(text) > 1 and (text[0] == "0" or len(text) > 19):
            return None
        return new_imm(int(text), new_span(file, line, col, line, col + len(text)), text), j + 1
    if kind == "hex":
        if len(text) > 18:
            return None
        return new_imm(int(text, 16), new_span(file, line, col, line, col + len(text)), text), j + 1
    if kind == "float":
        return FloatImm(float(text), new_span(file, line, col, line, col + len(text)), text), j + 1
    if text == "-" and j + 1 < n and toks[j + 1][1] != "-":  # `--x`: the grammar (no recursion here)
        r = _fast_atom(toks, j + 1, n, file, line)
        if r is None:
            return None
        x, nj = r
        if isinstance(x, Call) or nj < n and toks[nj][1] == "-":
            return None
        sp = new_span(file, line, col, line, x.span.end_column)
        if isinstance(x, Imm):
            return new_imm(-x.value, sp, "-" + x.text()), nj
        if isinstance(x, FloatImm):
            return FloatImm(-x.value, sp, "-" + x.text()), nj
        if isinstance(x, (Reg, Special)):
            return Modified(x, True, False, False, sp), nj
        return Expr("neg", (x,), sp), nj
    return None


def _int_list(toks: list, j: int, n: int) -> tuple[list[int], int]:
    """The integers of a `key:[a, b, ...]` list from token `j` on, and the index of the token after
    the last one (the `]` when the list is well formed). Only plain decimal and hex numbers that fit
    a 64-bit value are read here (an octal-looking or longer one ends the list: the grammar decides)."""
    vals = []
    while j < n and (toks[j][0] == "hex" and len(toks[j][1]) < 19 or
                     toks[j][0] == "int" and (len(toks[j][1]) == 1 or toks[j][1][0] != "0" and len(toks[j][1]) < 19)):
        vals.append(int(toks[j][1], 16) if toks[j][0] == "hex" else int(toks[j][1]))
        j += 1
        if j < n and toks[j][1] == ",":
            j += 1
            continue
        break
    return vals, j


def _fast_instruction(code: str, file: str, line: int):
    """The Instruction of a simple line, or None (use the grammar)."""
    toks = _fast_tokens(code)
    if not toks or toks[0][0] != "name":
        return None
    _, mn, c0 = toks[0]
    mnemonic, memory, scalar, flags = _mnemonic_facts(mn)
    if needs_grammar(mnemonic, code):
        return None
    operands: list = []
    modifiers: list = []
    prev_call = False
    i, n = 1, len(toks)
    while i < n:
        kind, text, col = toks[i]
        # registers and integers, the most common operands, inline (what _fast_atom and the
        # checks below would do for them)
        if kind == "reg":
            f = _reg_fields(text)
            i += 1
            if f is None or modifiers or i < n and toks[i][1] in "()[]":
                return None
            operands.append(new_reg(f[0], f[1], f[2], new_span(file, line, col, line, col + len(text))))
            prev_call = False
            continue
        if kind == "int":
            i += 1
            if modifiers or i < n and toks[i][1] in "()[]-" or len(text) > 1 and (text[0] == "0" or len(text) > 19):
                return None
            operands.append(new_imm(int(text), new_span(file, line, col, line, col + len(text)), text))
            prev_call = False
            continue
        if kind == "punct":
            if text == ",":
                if i == 1 or i + 1 < n and toks[i + 1][1] in ",&":  # `s_nop ,0`, `v0,,v1`, `v0,& v1`
                    return None
                i += 1
                continue
            if text == "&":
                # only the s_waitcnt separator between two calls (`vmcnt(0) & lgkmcnt(0)`); anything
                # else is bitwise and, an expression for the grammar
                if not prev_call or i + 2 >= n or toks[i + 1][0] != "name" or toks[i + 2][1] != "(":
                    return None
                i += 1
                continue
            if text != "-":
                return None
            # `-x` after a register starts a new operand; after anything else it is binary minus
            prev = toks[i - 1]
            if i > 1 and prev[1] not in ",&" and not (operands and isinstance(operands[-1], (Reg, Special))
                                                      and prev[2] == operands[-1].span.column):
                return None
        elif kind == "key":
            if i + 1 >= n:
                return None
            if toks[i + 1][1] == "[":  # key:[int, int, ...]
                if text == "format:":  # MTBUF's format list holds names: the grammar's (`_split_format`)
                    return None
                vals, j = _int_list(toks, i + 2, n)
                if not vals or j >= n or toks[j][1] != "]":
                    return None
                modifiers.append(new_modifier(text[:-1], tuple(vals), new_span(file, line, col, line, toks[j][2] + 1)))
                i = j + 1
                prev_call = False
                continue
            r = _fast_atom(toks, i + 1, n, file, line)
            if r is None:
                return None
            val, nj = r
            if nj < n and toks[nj][1] in "()[]-":
                return None
            if isinstance(val, Imm):
                v = val.value
            elif isinstance(val, (Symbol, Special, Reg)):
                v = val.text()
            else:
                return None
            modifiers.append(new_modifier(text[:-1], v, new_span(file, line, col, line, val.span.end_column)))
            prev_call = False
            i = nj
            continue
        r = _fast_atom(toks, i, n, file, line)
        if r is None:
            return None
        item, nj = r
        if nj < n and (toks[nj][1] in "()[]" or toks[nj][1] == "-" and not isinstance(item, (Reg, Special))):
            return None
        i = nj
        if isinstance(item, Symbol) and item.name in flags or \
                modifiers and isinstance(item, Special) and item.name == "scc" and memory:
            modifiers.append(new_modifier(item.name, None, item.span))
            prev_call = False
            continue
        if isinstance(item, Call) and prev_call and mnemonic.startswith("s_waitcnt"):
            prev = operands.pop()
            calls = prev.calls if isinstance(prev, CallGroup) else (prev,)
            operands.append(CallGroup(calls + (item,), new_span(file, line, prev.span.column, line, item.span.end_column)))
            continue
        if modifiers:
            return None
        if scalar and type(item) is Special and item.name == "off":
            item = new_symbol("off", item.span)
        operands.append(item)
        prev_call = isinstance(item, Call)
    if memory:
        trailing = []
        while operands and isinstance(operands[-1], Special) and operands[-1].name == "scc":
            trailing.append(operands.pop())
        modifiers[:0] = [Modifier("scc", None, o.span) for o in reversed(trailing)]
    sp_tok = new_span(file, line, c0, line, c0 + len(mn))
    return Instruction(mnemonic, tuple(operands), tuple(modifiers), sp_tok, sp_tok)


