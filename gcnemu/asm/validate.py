"""Validation of a parsed Program against one target's ISA tables.

Produces diagnostics in llvm-mc's wording where llvm-mc has one, so that
`gcnemu check` agrees with `llvm-mc -mcpu=<target>` on the subset we model
(tests/test_differential_llvm.py measures the agreement line by line).

Order of checks for one instruction, as llvm-mc does them:
1. the mnemonic: unknown anywhere (`invalid instruction, did you mean: ...?`),
   exists on another target (`instruction not supported on this GPU`), suffix
   not available (`e64 variant of this instruction is not supported`);
2. operands as parsed, independent of the instruction: register index ranges,
   tuple sizes, SGPR tuple alignment, `null`;
3. matching the operand list against the row (count, kinds, widths, modifiers)
   for each candidate encoding (`_e32` first, then `_e64` when no suffix is written);
4. checks on the matched form: literals (none in VOP3/VOP3P/MAI on gfx9, one
   unique literal per instruction), the constant bus (one SGPR or literal per
   VALU instruction), VGPR tuple alignment on gfx90a+, offsets and counters,
   MFMA operand rules, cache-policy bits of atomics.
One error per instruction (llvm-mc also stops at the first), several per file.

Instructions that exist on the target but that `gcnemu run` cannot execute get a `note`
("instruction not modelled by gcnemu yet"); `check` still exits 0 for them. Instructions without
a table row (and SDWA/DPP forms) are checked by the parser only: llvm-mc's operand rules for
them are not repeated here.
"""
from __future__ import annotations

import gc
import json
import re
from bisect import bisect_right
from functools import lru_cache
from importlib import resources

from . import controls
from ..isa import dpp as dpp_table, hwregs, rowless, sendmsg as sendmsg_table
from .constants import INLINE, LITERAL, classify_constant, _T32  # noqa: F401 (also re-exported)
from .diagnostics import Diagnostic, GcnemuError
from ..isa import opcodes
from ..isa.modelled import executes
from ..isa.opcodes import FLOAT_TYPES, OpInfo, OperandSpec
from ..isa.targets import DEFAULT_TARGET, Target, get_target, target_from_directive
from .macros import include_notes, with_instantiation_notes
from .parse import fold, lit_call_column
from .program import (
    Assignment, Call, CallGroup, Directive, Expr, FloatImm, Imm, Instruction, Label, Modified, Modifier, Program, Reg,
    RegList, Span, Special, Symbol,
)

try:  # the full per-target mnemonic lists (generated from LLVM)
    from ..isa import mnemonics as _mn
except ImportError:  # pragma: no cover - the table alone then decides
    _mn = None

TARGET_NAMES = ("gfx908", "gfx90a", "gfx942", "gfx950")


def program_target(program: Program, requested: str | None) -> str:
    """--arch wins; else `.amdgcn_target`; else the default (gfx90a)."""
    if requested:
        return get_target(requested).name
    d = program.directive(".amdgcn_target")
    if d and d.args:
        found = target_from_directive(d.args[0])
        if found:
            return found
        named = re.search(r"gfx[0-9a-z]+", str(d.args[0]))
        if named:  # a GPU we do not model: running it as the default would give plausible nonsense
            msg = (f"target '{named.group(0)}' of .amdgcn_target is not modelled: gcnemu knows gfx908, gfx90a, "
                   "gfx942 (gfx940/gfx941) and gfx950; pass --arch to use one of them")
            raise GcnemuError(msg, [Diagnostic("error", msg, d.span, rule="target")])
    return DEFAULT_TARGET


# ------------------------------------------------------------------ limits

_WORD = re.compile(r"[A-Za-z_.$][A-Za-z0-9_.$@]*")


@lru_cache(maxsize=None)
def _limits_json() -> dict:
    try:
        text = resources.files("gcnemu.isa").joinpath("data/limits.json").read_text(encoding="utf-8")
        return json.loads(text).get("targets", {})
    except (FileNotFoundError, OSError, ValueError):
        return {}


@lru_cache(maxsize=None)
def limits(target: str) -> dict[str, tuple[int, int]]:
    """Ranges llvm-mc enforces on `target`: offsets per encoding and s_waitcnt fields.

    From `isa/data/limits.json` (measured with llvm-mc) when present, else from
    `targets.py` and the documented gfx9 encodings."""
    t = get_target(target)
    out = {
        "ds.offset": (0, 65535), "ds.offset0": (0, 255), "ds.offset1": (0, 255),
        "flat.offset": (0, 4095), "global.offset": (-4096, 4095), "mubuf.offset": (0, 4095),
        "smem.offset": (-(1 << 20), (1 << 20) - 1),
        "s_waitcnt.vmcnt": (0, t.vmcnt_max), "s_waitcnt.expcnt": (0, t.expcnt_max),
        "s_waitcnt.lgkmcnt": (0, t.lgkmcnt_max),
    }
    for key, rec in _limits_json().get(t.name, {}).items():
        lo, hi = rec.get("min"), rec.get("max")
        if hi is not None:
            out[key] = (lo if lo is not None else 0, hi)
    return out


# ------------------------------------------------------------------ operand values

_SPECIAL_WIDTH = {
    "vcc": 2, "exec": 2, "flat_scratch": 2, "xnack_mask": 2,
    "vcc_lo": 1, "vcc_hi": 1, "exec_lo": 1, "exec_hi": 1, "m0": 1, "flat_scratch_lo": 1, "flat_scratch_hi": 1,
    "xnack_mask_lo": 1, "xnack_mask_hi": 1,
}
# 32-bit status sources (SCC, VCCZ, EXECZ): scalar registers for llvm-mc, usable as any-width sources
_SRC_REGS = frozenset("scc src_scc vccz src_vccz execz src_execz src_lds_direct lds_direct "
                      "src_pops_exiting_wave_id pops_exiting_wave_id".split())
# 64-bit aperture sources
_APERTURES = frozenset("src_shared_base src_shared_limit src_private_base src_private_limit shared_base "
                       "shared_limit private_base private_limit".split())
_VALID_VSIZES = frozenset(list(range(1, 13)) + [16, 32])
_VALID_SSIZES = frozenset(list(range(1, 13)) + [16])
_SCALAR_KINDS = frozenset({"s", "srcreg", "aperture"})


class _V:
    """One operand, normalized.

    kind: v a s (SGPR, ttmp or named scalar register), srcreg (scc/vccz/execz),
    aperture (src_shared_base...), const (absolute value), reloc (a symbol or
    expression not known yet: a relocatable literal), off, call, group, other.
    """

    __slots__ = ("kind", "index", "count", "name", "value", "is_float", "neg", "abs", "sext", "modified", "span",
                 "op", "forced")

    def __init__(self, kind, span, op, index=0, count=1, name="", value=None, is_float=False):
        self.kind = kind
        self.index = index
        self.count = count
        self.name = name
        self.value = value
        self.is_float = is_float
        self.neg = self.abs = self.sext = self.modified = False  # modified: neg or abs or sext
        self.span = span
        self.op = op
        self.forced = False  # `lit(x)`: a 32-bit literal even when the value is an inline constant

    def key(self):
        return (self.name or self.kind, self.index, self.count)


class _Error(Exception):
    def __init__(self, message: str, span: Span | None, rule: str = "", notes=None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.rule = rule
        self.notes = notes or []


class _Ctx:
    """What validation of one instruction needs to know about the file and the target."""

    def __init__(self, target: str, symbols: dict | None = None, labels: frozenset = frozenset(),
                 defined: frozenset = frozenset()):
        self.target: Target = get_target(target)
        self.name = self.target.name
        self.symbols: dict = symbols if symbols is not None else {}  # name -> (value, is_float) | None, so far
        self.labels = labels  # every label of the file
        self.defined = defined  # every symbol the file defines (.set / =), wherever
        self.limits = limits(self.name)
        self.gfx90a_plus = self.name != "gfx908"
        self.gfx94 = self.name in ("gfx942", "gfx950")
        self.used_symbols = False  # set when a result depends on symbols or labels (no memo then)
        self.program: Program | None = None  # the file, for the source text of a control's columns

    def evaluate(self, op, depth: int = 0):
        """(value, is_float) of a constant expression; None when not absolute (symbols not defined yet)."""
        if depth > 64:
            return None
        if isinstance(op, (Symbol, Expr)):
            self.used_symbols = True
        if isinstance(op, Imm):
            return _norm_int(op.value), False
        if isinstance(op, FloatImm):
            return op.value, True
        if isinstance(op, Symbol):
            return self.symbols.get(op.name)
        if isinstance(op, Modified) and op.neg and not op.abs and not op.sext:
            r = self.evaluate(op.inner, depth + 1)
            if r is None:
                return None
            return (-r[0], True) if r[1] else (_norm_int(-r[0]), False)
        if isinstance(op, Expr):
            vals = []
            for a in op.args:
                r = self.evaluate(a, depth + 1)
                if r is None or r[1]:
                    return None
                vals.append(r[0])
            try:
                if op.op == "neg":
                    return _norm_int(-vals[0]), False
                if op.op == "~":
                    return _norm_int(~vals[0]), False
                if op.op == "!":
                    return int(not vals[0]), False
                return _norm_int(fold(op.op, vals[0], vals[1])), False
            except (ZeroDivisionError, ValueError, OverflowError, IndexError):
                return None
        return None


def _norm_int(v: int) -> int:
    """llvm-mc evaluates expressions in 64 bits: 0xffffffffffffffff is -1."""
    if -(1 << 63) <= v < (1 << 64):
        return v - (1 << 64) if v >= (1 << 63) else v
    return v  # out of the 64-bit range: kept, rejected by the operand checks


def _normalize(op, ctx: _Ctx) -> _V:
    """An operand as a _V, raising _Error for what llvm-mc rejects while parsing it."""
    t = type(op)
    if t is Reg:  # the common case first
        f = op.file
        problem = _reg_problem(f, op.index, op.count)
        if problem is not None:
            raise _Error(problem if problem != "na" else f"{op.text()} register not available on this GPU", op.span)
        if f == "s":
            return _V("s", op.span, op, op.index, op.count)
        return _V("s" if f == "ttmp" else f, op.span, op, op.index, op.count, name="" if f != "ttmp" else f)
    if isinstance(op, Modified):
        inner = _normalize(op.inner, ctx)
        inner.neg, inner.abs, inner.sext = op.neg, op.abs, op.sext
        inner.modified = bool(op.neg or op.abs or op.sext)
        inner.span = op.span
        return inner
    if isinstance(op, Reg):
        _check_reg(op.file, op.index, op.count, op.span, op.text())
        kind = "s" if op.file in ("s", "ttmp") else op.file
        return _V(kind, op.span, op, op.index, op.count, name="" if op.file == "s" else op.file)
    if isinstance(op, Special):
        n = op.name
        if n == "off":
            return _V("off", op.span, op, name="off")
        if n == "null":
            raise _Error("'null' operand is not supported on this GPU", op.span)
        if n in _SRC_REGS:
            return _V("srcreg", op.span, op, name=n if n.startswith("src_") else "src_" + n)
        if n in _APERTURES:
            return _V("aperture", op.span, op, name=n if n.startswith("src_") else "src_" + n)
        if n in _SPECIAL_WIDTH:
            return _V("s", op.span, op, 0, _SPECIAL_WIDTH[n], name=n)
        raise _Error(f"{n} register not available on this GPU", op.span)
    if isinstance(op, RegList):
        return _normalize_list(op, ctx)
    if isinstance(op, (Imm, FloatImm, Symbol, Expr)):
        if t is Symbol and op.name == "lit":
            sp = op.span
            raise _Error("expected left paren after lit", Span(sp.file, sp.line, sp.end_column, sp.line, sp.end_column))
        if op.source[:3] == "lit" if t is Imm or t is FloatImm else False:
            return _forced(op, (_norm_int(op.value), False) if t is Imm else (op.value, True))
        r = ctx.evaluate(op)
        if r is None:
            return _V("reloc", op.span, op, name=op.name if isinstance(op, Symbol) else "")
        return _V("const", op.span, op, value=r[0], is_float=r[1])
    if isinstance(op, Call):
        if op.name == "lit" and len(op.args) == 1:  # `lit(sym)`: the symbol's value, forced literal
            r = ctx.evaluate(op.args[0])
            if r is not None:
                return _forced(op, r, op.args[0].span)
            end = op.span.end_column  # llvm-mc: not an absolute expression (yet)
            raise _Error("unknown token in expression", Span(op.span.file, op.span.line, end - 1, op.span.line, end))
        return _V("call", op.span, op, name=op.name)
    if isinstance(op, CallGroup):
        return _V("group", op.span, op)
    return _V("other", getattr(op, "span", None), op)


def _forced(op, r, span=None) -> _V:
    """A `lit(x)` operand: llvm-mc takes 32-bit values only (a float is converted to its operand's format)."""
    value, is_float = r
    span = span or op.span
    if not is_float and not (-(1 << 31) <= value < (1 << 32)):
        raise _Error("invalid operand for instruction", span)
    v = _V("const", span, op, value=value, is_float=is_float)
    v.forced = True
    return v


@lru_cache(maxsize=8192)
def _reg_problem(file: str, index: int, count: int) -> str | None:
    """The parse-time error of a register reference ('na': not available on the GPU), or None."""
    try:
        _check_reg(file, index, count, None, "na")
    except _Error as e:
        return e.message if not e.message.startswith("na ") else "na"
    return None


def _check_reg(file: str, index: int, count: int, span: Span, text: str) -> None:
    last = index + count - 1
    if file in ("v", "a"):
        if last > 255:
            raise _Error("register index is out of range", span)
        if count not in _VALID_VSIZES:
            raise _Error("invalid or unsupported register size", span)
        return
    if last > (15 if file == "ttmp" else 105):
        raise _Error("register index is out of range", span)
    if count not in _VALID_SSIZES:
        raise _Error("invalid or unsupported register size", span)
    if (count == 2 and index % 2) or (count >= 3 and index % 4):
        raise _Error("invalid register alignment", span)
    if file == "s" and last > 101:
        raise _Error(f"{text} register not available on this GPU", span)


def _normalize_list(op: RegList, ctx: _Ctx) -> _V:
    items = op.items
    if not items or not all(isinstance(i, Reg) and i.count == 1 for i in items):
        raise _Error("expected a register", op.span)
    file = items[0].file
    first = items[0].index
    for k, it in enumerate(items):
        if it.file != file:
            raise _Error("registers in a list must be of the same kind", it.span)
        if it.index != first + k:
            raise _Error("registers in a list must have consecutive indices", it.span)
    text = f"{file}[{first}:{first + len(items) - 1}]" if len(items) > 1 else f"{file}{first}"
    _check_reg(file, first, len(items), op.span, text)
    kind = "s" if file in ("s", "ttmp") else file
    return _V(kind, op.span, op, first, len(items), name="" if file == "s" else file)


# ------------------------------------------------------------------ public API

def validate(program: Program, target: str, memo: bool = True) -> list[Diagnostic]:
    """All diagnostics for the program on `target` (parse diagnostics included), in source order.

    Two memos make repeated code cheap (`memo=False` turns them off; the tests
    check both give the same diagnostics): statements that repeat verbatim (same
    text, same column) and name no symbol validate identically, so their result
    is computed once per file and moved to the other lines; and a statement that
    is valid stays valid when only its vector register numbers change within
    the same alignment and range (`_shape_key`)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        diags = _validate_program(program, target, memo)
        extra = _descriptor_checks(program, target)
        if extra:
            diags = sorted(diags + extra, key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
        return diags
    finally:
        if was_enabled:
            gc.enable()


# `.amdhsa_kernel` directives that llvm-mc takes only from gfx90a on
_DESCRIPTOR_GFX90A = frozenset({".amdhsa_accum_offset", ".amdhsa_tg_split"})
_END_KERNEL = ".end_amdhsa_kernel"
# `.amdhsa_kernel` directives that fill a whole 32-bit field of the kernel descriptor (AMDGPUUsage,
# "Kernel Descriptor": GROUP_SEGMENT_FIXED_SIZE, PRIVATE_SEGMENT_FIXED_SIZE, KERNARG_SIZE are
# uint32); llvm-mc 22 refuses a value outside 0..2^32-1 with "value out of range" under the value
_DESCRIPTOR_U32 = frozenset({".amdhsa_kernarg_size", ".amdhsa_group_segment_fixed_size",
                             ".amdhsa_private_segment_fixed_size"})


def _descriptor_checks(program: Program, target: str) -> list[Diagnostic]:
    """What llvm-mc 22 checks of each `.amdhsa_kernel` block, with its error recovery.

    Per line: a directive may not repeat; the 32-bit sizes (`.amdhsa_kernarg_size`, ...) must
    fit 32 bits; `.amdhsa_accum_offset`/`.amdhsa_tg_split` need gfx90a+;
    `.amdhsa_reserve_xnack_mask 0` needs a target id with `xnack-` (without `:xnack-`, XNACK is
    'any' and the mask must be reserved), and the reverse. The first such error abandons the
    block, as llvm-mc's parser does: its later `.amdhsa_*` lines and `.end_amdhsa_kernel` are then
    unknown directives. At the end of a complete block: `.amdhsa_next_free_vgpr`/`_sgpr` are
    required and, on gfx90a+, a multiple-of-4 `.amdhsa_accum_offset` within the VGPRs allocated."""
    from .expr import ExprError, evaluate
    from .features import target_features
    out: list[Diagnostic] = []
    gfx90a_plus = target != "gfx908"
    xnack = None
    seen: dict[str, Directive] | None = None  # directives of the open block
    abandoned = False

    def error(message: str, st: Directive, col: int | None = None, width: int = 1) -> None:
        c = st.span.column if col is None else col
        out.append(Diagnostic("error", message, Span(st.span.file, st.span.line, c, st.span.line, c + width),
                              rule="descriptor"))

    constants: dict | None = None  # program.constants() reads every statement: once, when first needed

    def value(st: Directive) -> int | None:
        nonlocal constants
        if constants is None:
            constants = program.constants()
        try:
            return evaluate(str(st.args[0]), constants) if st.args else None
        except ExprError:
            return None  # a value that is not a constant is reported where it is read

    def value_column(st: Directive) -> int:
        line = program.source_line(st.span.line, st.span.file)
        at = line.find(st.name, st.span.column - 1)
        rest = at + len(st.name) if at >= 0 else st.span.column - 1 + len(st.name)
        while rest < len(line) and line[rest] in " \t":
            rest += 1
        return rest + 1

    for st in program.statements:
        if type(st) is not Directive:
            continue
        name = st.name
        if name == ".amdhsa_kernel":
            seen, abandoned = {}, False
            continue
        if seen is None or not (name.startswith(".amdhsa_") or name == _END_KERNEL):
            continue
        if abandoned:
            error("unknown directive", st, width=len(name))
            if name == _END_KERNEL:
                seen = None
            continue
        if name == _END_KERNEL:
            end_col = st.span.column + len(_END_KERNEL)
            required = [d for d in (".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr") if d not in seen]
            if gfx90a_plus and not required and ".amdhsa_accum_offset" not in seen:
                required.append(".amdhsa_accum_offset")
            if required:
                error(f"{required[0]} directive is required", st, end_col)
            elif gfx90a_plus:
                accum, vgprs = value(seen[".amdhsa_accum_offset"]), value(seen[".amdhsa_next_free_vgpr"])
                if accum is not None and not (4 <= accum <= 256 and accum % 4 == 0):
                    error("accum_offset should be in range [4..256] in increments of 4", st, end_col)
                elif accum is not None and vgprs is not None and accum > -(-max(1, vgprs) // 4) * 4:
                    error("accum_offset exceeds total VGPR allocation", st, end_col)
            seen = None
            continue
        if name in seen:
            error(".amdhsa_ directives cannot be repeated", st, value_column(st))
            abandoned = True
            continue
        if name in _DESCRIPTOR_GFX90A and not gfx90a_plus:
            error("directive requires gfx90a+", st, width=len(name))
            abandoned = True
            continue
        if name in _DESCRIPTOR_U32 and st.args:
            v = value(st)
            if v is not None and not 0 <= v <= 0xFFFFFFFF:
                error("value out of range", st, value_column(st), width=max(1, len(str(st.args[0]).strip())))
                abandoned = True
                continue
        if name == ".amdhsa_reserve_xnack_mask" and st.args:
            if xnack is None:
                xnack = target_features(program).get("xnack", "any")
            v = value(st)
            if v is not None and bool(v) != (xnack is not False):
                error(".amdhsa_reserve_xnack_mask does not match target id", st, width=len(name))
                abandoned = True
                continue
        seen[name] = st
    return out


_MAI_PREFIXES = ("v_mfma", "v_smfmac")
_INT64_MIN, _INT64_END = -(1 << 63), 1 << 63
_OFFSET_MODS = frozenset({"offset", "offset0", "offset1"})


def _offset_bounds(ctx: _Ctx) -> tuple:
    """Every bound an offset modifier is compared with on this target, as the start of a half-open
    range: two offsets between the same neighbouring bounds pass or fail every offset check alike."""
    bounds = {0, 256, 65536}  # the defaults of _check_modifier_value / _check_offset
    for lo, hi in ctx.limits.values():
        bounds.add(lo)
        bounds.add(hi + 1)
    return tuple(sorted(bounds))


def _shape_key(ins: Instruction, offset_bounds: tuple = (), plain_labels: frozenset = frozenset()):
    """What the validity of an instruction depends on, without spans and register numbers.

    Vector registers keep their file, size, parity and range (MFMA destination and
    accumulator exactly: their overlap is checked); scalar registers keep their file,
    size, alignment class, range class and which of the instruction's other scalar
    registers they repeat (the constant bus counts distinct SGPRs); integers 0..64
    written as such (inline constants for every operand type, inside every range an
    operand is checked against) keep which of the instruction's other such integers
    they repeat (literals are counted by value); offsets keep the interval of
    `offset_bounds` they fall in; names of `plain_labels` (labels of the file that are no
    `.set` symbol, never absolute: relocatable literals or branch targets) keep which of
    the instruction's other label names they repeat. Everything else is kept exactly.
    None when the instruction names other symbols (its validity then depends on the file).
    Only used to reuse "valid": two instructions with one key are both valid or both not."""
    mn = ins.mnemonic
    ops = ins.operands
    if mn.startswith(_MAI_PREFIXES):
        return _shape_key_mai(ins, offset_bounds)
    parts = [mn, len(ops)]
    append = parts.append
    seen = None  # scalar registers and small integers, in order, for their repeats
    for op in ops:
        t = type(op)
        plain = True
        if t is Modified:  # `-5` is not an inline constant for every type: no small-integer class inside
            append(("M", op.neg, op.abs, op.sext))
            op = op.inner
            t = type(op)
            plain = False
        if t is Reg:
            f = op.file
            i = op.index
            c = op.count
            if f == "v" or f == "a":
                append((f, c, i & 1, i + c <= 256))
                continue
            if f != "s" and f != "ttmp":
                append((f, i, c))
                continue
            k = (f, i, c)
        elif t is Imm:
            v = op.value
            if not (plain and 0 <= v <= 64):
                append(("i", v))
                continue
            k = v
        elif t is Special:
            append(("S", op.name))
            continue
        elif t is FloatImm:
            append(("f", repr(op.value)))  # repr: 0.0 and -0.0 are equal floats but different constants
            continue
        elif t is Symbol:
            if op.name not in plain_labels:
                return None
            k = ("L", op.name)
        elif t is Call and all(type(a) is Imm for a in op.args):
            append(("C", op.name, tuple(a.value for a in op.args)))
            continue
        elif t is CallGroup and all(type(a) is Imm for c in op.calls for a in c.args):
            append(("G",) + tuple((c.name, tuple(a.value for a in c.args)) for c in op.calls))
            continue
        else:
            return None
        # a scalar register or a small integer: its class and its first occurrence
        if seen is None:
            seen = [k]
            n = 0
        elif k in seen:
            n = seen.index(k)
        else:
            n = len(seen)
            seen.append(k)
        if type(k) is int:
            append(("n", n))
        elif k[0] == "L":
            append(("L", n))
        else:
            f, i, c = k
            last = i + c - 1
            append((f, c, i & 3 if c >= 3 else i & 1 if c == 2 else 0,
                    last <= 15 if f == "ttmp" else (last <= 101) + (last <= 105), n))
    for m in ins.modifiers:
        v = m.value
        if v is None:
            append(m.name)
            continue
        tv = type(v)
        if tv is str:
            return None
        if tv is int and m.name in _OFFSET_MODS and _INT64_MIN <= v < _INT64_END:
            append((m.name, "range", bisect_right(offset_bounds, v)))
        else:
            append((m.name, tv, v))
    return tuple(parts)


def _shape_key_mai(ins: Instruction, offset_bounds: tuple):
    """_shape_key of MFMA/SMFMAC: destination and accumulator (operands 0 and 3) exactly."""
    ops = ins.operands
    parts = [ins.mnemonic, len(ops)]
    for pos, op in enumerate(ops):
        t = type(op)
        if t is Modified:
            parts.append(("M", op.neg, op.abs, op.sext))
            op = op.inner
            t = type(op)
        if t is Reg:
            f = op.file
            if (f == "v" or f == "a") and pos != 0 and pos != 3:
                parts.append((f, op.count, op.index & 1, op.index + op.count <= 256))
            else:
                parts.append((f, op.index, op.count))
        elif t is Imm:
            parts.append(("i", op.value))
        elif t is Special:
            parts.append(("S", op.name))
        elif t is FloatImm:
            parts.append(("f", repr(op.value)))
        else:
            return None
    for m in ins.modifiers:
        v = m.value
        if type(v) is str:
            return None
        parts.append((m.name, type(v), v))
    return tuple(parts)


def _validate_program(program: Program, target: str, use_memo: bool = True) -> list[Diagnostic]:
    diags = list(program.diagnostics)
    statements = program.statements
    label_names, defined_names = [], []
    for s in statements:
        if type(s) is not Instruction:
            if isinstance(s, Label):
                label_names.append(s.name)
            elif isinstance(s, Assignment):
                defined_names.append(s.name)
    labels, defined = frozenset(label_names), frozenset(defined_names)
    ctx = _Ctx(target, {}, labels, defined)
    ctx.program = program
    bounds = _offset_bounds(ctx)
    plain_labels = labels - defined - _SDWA_DPP_MODS
    lines = program.lines
    n_lines = len(lines)
    expansions = program.expansions  # macro-expanded text: the source line is the body's, not the text's
    main_file = program.file
    symbolic = frozenset(defined) if defined else None
    memo: dict = {}
    memo_get = memo.get
    valid_shapes: set = set()
    for st in statements:
        if type(st) is Instruction or isinstance(st, Instruction):
            sp = st.span
            key = shape = None
            if use_memo:
                if sp is not None and sp.line == sp.end_line and 1 <= sp.line <= n_lines \
                        and (not expansions or st.index not in expansions) and sp.file == main_file:
                    key = (sp.column, lines[sp.line - 1][sp.column - 1:sp.end_column - 1])
                    hit = memo_get(key)  # (texts naming a symbol are never stored: see below)
                    if hit is not None:
                        if hit:
                            diags.extend(_moved(d, sp.line) for d in hit)
                        continue
                shape = _shape_key(st, bounds, plain_labels)
                if shape is not None and shape in valid_shapes:
                    if key is not None:
                        memo[key] = []
                    continue
            ctx.used_symbols = False
            out = validate_instruction(st, target, ctx)
            if out and expansions and st.index in expansions:
                out = [with_instantiation_notes(d, expansions[st.index], lines) for d in out]
            if out and sp is not None and sp.file != main_file and program.include_sites:
                notes = include_notes(sp.file, program.include_sites)
                for d in out:
                    d.notes = list(d.notes) + notes
            if key is not None and not ctx.used_symbols and \
                    (symbolic is None or not any(w in symbolic for w in _WORD.findall(key[1]))):
                memo[key] = out  # a symbol's value may differ from one use of the same text to the next
            if shape is not None and not out:  # a shape names no symbol but plain labels
                valid_shapes.add(shape)
            diags.extend(out)
        elif isinstance(st, Assignment):
            ctx.symbols[st.name] = ctx.evaluate(st.value)
    diags.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return diags


def _moved(d: Diagnostic, line: int) -> Diagnostic:
    sp = d.span
    nsp = Span(sp.file, line, sp.column, line + sp.end_line - sp.line, sp.end_column) if sp is not None else None
    return Diagnostic(d.severity, d.message, nsp, d.rule, [_moved(n, line) for n in d.notes], dict(d.extra))


def validate_instruction(ins: Instruction, target: str, ctx: _Ctx | None = None) -> list[Diagnostic]:
    """Diagnostics for one instruction: at most one error (as llvm-mc), plus notes and warnings."""
    if ctx is None:
        ctx = _Ctx(target)
    try:
        out = _validate(ins, ctx)
        if ins.mnemonic.startswith(("v_", "s_")) and any(
                isinstance(o.inner if isinstance(o, Modified) else o, Special) and
                (o.inner if isinstance(o, Modified) else o).name in _LDS_DIRECT for o in ins.operands):
            _check_lds_direct(ins, ctx)
        return out
    except _Error as e:
        return [Diagnostic("error", e.message, e.span or ins.mnemonic_span, rule=e.rule, notes=e.notes)]
    except (RecursionError, ValueError, TypeError, AttributeError, KeyError, IndexError, OverflowError) as e:
        # a bug in gcnemu, never the user's fault: say so instead of a traceback
        return [Diagnostic("error", f"internal error while validating this instruction ({type(e).__name__}: {e}); "
                           "please report it", ins.mnemonic_span, rule="internal")]


_DPP_CONTROLS = dpp_table.DPP_CONTROLS  # every name; which target has which: isa/dpp.py
_SDWA_DPP_MODS = _DPP_CONTROLS | frozenset("row_mask bank_mask bound_ctrl fi dst_sel dst_unused src0_sel "
                                           "src1_sel".split())


_LDS_DIRECT = frozenset({"lds_direct", "src_lds_direct"})
_REV_OPCODE = re.compile(r"v_(pk_)?\w*rev_")  # v_subrev_*, v_lshlrev_*, v_ashrrev_*...: src0 is the 2nd input


def _check_lds_direct(ins: Instruction, ctx: _Ctx) -> None:
    """Where an instruction llvm-mc otherwise accepts may read LDS_DIRECT, as LLVM 22's
    AMDGPUAsmParser::validateLdsDirect decides: nowhere on gfx90a+; on gfx908 not in an SDWA
    form or a "rev" opcode (those swap src0 and src1 in hardware), and only as src0."""
    base, sfx = opcodes.base_mnemonic(ins.mnemonic)
    if base.startswith("s_"):  # scalar sources (SSrc) have no LDS_DIRECT
        o = next(o for o in ins.operands if isinstance(o, Special) and o.name in _LDS_DIRECT)
        raise _Error("invalid operand for instruction", o.span)
    row = opcodes.lookup(base, ctx.name)
    n_dst = sum(1 for o in row.operands if o.write) if row is not None else 1
    sdwa = sfx == "_sdwa" or any(m.name in ("dst_sel", "dst_unused", "src0_sel", "src1_sel") for m in ins.modifiers)
    dpp = sfx == "_dpp" or any(m.name in _DPP_CONTROLS for m in ins.modifiers)
    for i, o in enumerate(ins.operands[n_dst:]):
        inner = o.inner if isinstance(o, Modified) else o
        if not (isinstance(inner, Special) and inner.name in _LDS_DIRECT):
            continue
        if dpp:  # a DPP source is a VGPR: the matcher refuses it before this rule
            raise _Error("invalid operand for instruction", inner.span)
        if ctx.gfx90a_plus:
            raise _Error("lds_direct is not supported on this GPU", inner.span)
        if sdwa or _REV_OPCODE.match(base):
            raise _Error("lds_direct cannot be used with this instruction", inner.span)
        if i != 0:
            raise _Error("lds_direct may be used as src0 only", inner.span)


def _written_line(ins: Instruction, ctx: _Ctx) -> str | None:
    """The source line as written, when the instruction's modifiers sit where their spans say (not
    so for a macro expansion's text): `controls` reads columns from it."""
    if ctx.program is None or ins.span is None or not ins.modifiers:
        return None
    line = ctx.program.source_line(ins.span.line, ins.span.file)
    for m in ins.modifiers:
        if m.span is None or line[m.span.column - 1:m.span.column - 1 + len(m.name)] != m.name:
            return None
    return line


def _check_image_data(ins: Instruction, base: str, ops: list, ctx: _Ctx) -> None:
    """The vdata width of a MIMG instruction against dmask, d16 and tfe, as llvm-mc 22's
    AMDGPUAsmParser::validateMIMGDataSize: one dword per dmask bit (dmask 0 counts as 1, a gather4
    always returns 4), halved rounding up with packed d16 (gfx908 and gfx90a pack), one more with
    tfe. gfx90a has no tfe. image_get_resinfo, image_get_lod, the _pck forms and atomics take no
    d16; a gather4 needs a one-bit dmask, an atomic dmask 0x1, 0x3 or 0xf (validateMIMGAtomicDMask).
    Before those: no r128 on gfx9 (a 128-bit resource is older GPUs'), and the resource is 8 SGPRs,
    the sampler 4, as llvm-mc matches them."""
    r128 = next((m for m in ins.modifiers if m.name == "r128"), None)
    if r128 is not None:
        raise _Error("r128 modifier is not supported on this GPU", r128.span)
    if ctx.gfx90a_plus:  # gfx90a's VGPR/AGPR tuples start at an even register
        for i, v in enumerate(ops):
            if v.kind in ("v", "a") and v.count > 1 and v.index % 2:
                if i == 1 and base.startswith(("image_store", "image_atomic")):  # (llvm-mc's wording there)
                    raise _Error("operands are not valid for this GPU or mode", ins.mnemonic_span)
                raise _invalid(v, ins)
    sampled = base.startswith(("image_sample", "image_gather4")) or base == "image_get_lod"
    for i, size in ((2, 8), (3, 4) if sampled else (2, 8)):
        if i < len(ops) and not (ops[i].kind == "s" and ops[i].count == size):
            raise _invalid(ops[i], ins)
    if not ops or ops[0].kind not in ("v", "a"):
        return
    dmask_mod = next((m for m in ins.modifiers if m.name == "dmask"), None)
    dmask = _mod_int(dmask_mod, ctx) if dmask_mod is not None else 0
    if dmask is None:
        return  # a symbol not known yet: llvm-mc would say so elsewhere
    gather = "gather4" in base
    has_d16 = base not in ("image_get_resinfo", "image_get_lod") and "_pck" not in base and "atomic" not in base
    atomic, cmpswap = "atomic" in base, "cmpswap" in base
    # register classes llvm-mc matches vdata against before anything else
    classes = (2, 4, 5) if gather else (2, 3, 4, 5) if cmpswap else (1, 2, 3) if atomic else None
    if classes is not None and ops[0].count not in classes:
        raise _invalid(ops[0], ins)
    tfe = next((m for m in ins.modifiers if m.name == "tfe"), None)
    if tfe is not None and ctx.gfx90a_plus:
        raise _Error("invalid operand for instruction", tfe.span)
    d16 = next((m for m in ins.modifiers if m.name == "d16"), None)
    if d16 is not None and not has_d16:
        raise _Error("invalid operand for instruction", d16.span)
    want = 4 if gather else max(1, bin(dmask & 0xF).count("1"))
    if d16 is not None:
        want = (want + 1) // 2
    if tfe is not None:
        want += 1
    dmask_at = dmask_mod.span if dmask_mod is not None else ins.mnemonic_span
    if ops[0].count == want:
        if gather and bin(dmask & 0xF).count("1") != 1:
            raise _Error("invalid image_gather dmask: only one bit must be set", dmask_at)
        if atomic and dmask & 0xF not in (0x1, 0x3, 0xF):
            raise _Error("invalid atomic image dmask", dmask_at)
        return
    parts = ["dmask"] + (["d16"] if has_d16 else []) + ([] if ctx.gfx90a_plus else ["tfe"])
    what = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    raise _Error(f"image data size does not match {what}", ins.mnemonic_span)


def _check_dpp_opcode(ins: Instruction, ops: list, ctx: _Ctx) -> None:
    """Which opcodes have DPP, and 64-bit DPP on the DP ALU (isa/dpp.py), as llvm-mc 22."""
    control = next((m for m in ins.modifiers if m.name in dpp_table.DPP_CONTROLS), None) or \
        next((o for o in ins.operands if isinstance(o, Symbol) and o.name in dpp_table.DPP_BARE), None)
    info = opcodes.lookup(ins.mnemonic, ctx.name)
    if control is None or info is None:
        return
    if info.encoding in dpp_table.NO_DPP_ENCODINGS or info.mnemonic in dpp_table.NO_DPP or \
            (ctx.gfx90a_plus and info.mnemonic in dpp_table.NO_DPP_GFX90A_PLUS):
        if opcodes.base_mnemonic(ins.mnemonic)[1] == "_dpp":
            raise _Error("dpp variant of this instruction is not supported", ins.mnemonic_span)
        raise _Error("not a valid operand." if isinstance(control, Modifier) else "invalid operand for instruction",
                     control.span)  # (a bare row_mirror is an unknown word there)
    specs = [sp for sp in info.operands if sp.role in ("vdst", "src0", "src1")]
    wide = [(sp, v) for sp, v in zip(specs, ops) if sp.width == 2]
    if not wide:
        return
    if not ctx.gfx90a_plus:
        src = next((v for sp, v in wide if sp.role != "vdst"), None)
        if src is not None:
            raise _invalid(src, ins)
        return
    if info.mnemonic == "v_mov_b64" and not ctx.gfx94:
        return
    if getattr(control, "name", None) != dpp_table.DP_ALU_CONTROL:
        raise _Error("DP ALU dpp only supports row_newbcast", control.span)


def _check_dpp_operands(ins: Instruction, row: OpInfo, ops: list[_V]) -> None:
    """The operands of a VOP1/VOP2 DPP form, as llvm-mc 22 matches them on gfx9.

    DPP reads its sources from VGPRs of the row's width only: an SGPR or a constant is the invalid
    operand (an SGPR as src1 matches gfx10's DPP form instead, which this GPU lacks: "operands are
    not valid for this GPU or mode"). More operands than the row has is the VOP3 form (an explicit
    carry-out on v_add_u32, ...), which has no DPP: the control is then the operand llvm-mc refuses."""
    specs = row.operands
    if len(ops) > len(specs):
        control = next((m for m in ins.modifiers if m.name in dpp_table.DPP_CONTROLS), None)
        if control is not None:
            raise _Error("not a valid operand.", control.span)
        return
    for v, spec in zip(ops, specs):
        if spec.write or not spec.role.startswith("src") or "v" not in spec.kinds:
            continue
        if v.kind == "v" and v.count == spec.width:
            continue
        if spec.role == "src1" and v.kind == "s" and v.count == spec.width:
            raise _Error("operands are not valid for this GPU or mode", ins.mnemonic_span)
        raise _invalid(v, ins)


def _check_sdwa_operands(ins: Instruction, row: OpInfo, ops: list[_V]) -> None:
    """Scalar sources of a VOP1/VOP2/VOPC SDWA form, as llvm-mc 22 matches them on gfx9: one
    scalar value at most (the constant bus), and no 64-bit register in a 32-bit source."""
    srcs = [(v, spec) for v, spec in zip(ops, row.operands)
            if not spec.write and spec.role.startswith("src") and "v" in spec.kinds]
    wide = next((v for v, spec in srcs if v.kind == "s" and v.count > spec.width), None)
    if wide is not None:  # (with a scalar src0 llvm-mc blames src0, else the wide register)
        raise _invalid(srcs[0][0] if srcs[0][0].kind == "s" else wide, ins)
    seen = set()
    for v, _spec in srcs:
        if v.kind == "s":
            seen.add(v.key())
            if len(seen) > 1:
                raise _Error("invalid operand (violates constant bus restrictions)", v.span)


def _validate(ins: Instruction, ctx: _Ctx) -> list[Diagnostic]:
    m = ins.mnemonic
    base, sfx = opcodes.base_mnemonic(m)
    _check_mnemonic(ins, ctx)
    bad_control = controls.check(ins, ctx.name, _written_line(ins, ctx))
    if bad_control is not None:  # DPP/SDWA/swizzle controls, with llvm-mc's message and column
        message, col = bad_control
        sp = ins.span
        raise _Error(message, Span(sp.file, sp.line, col, sp.line, col + 1))
    if m == "exp":  # (its target is a name, and `null` a target, so it is read before the operands)
        _check_exp(ins)
        return [] if executes(m) else [Diagnostic("note", f"instruction not modelled by gcnemu yet: {m}",
                                                  ins.mnemonic_span, rule="not-modelled")]
    ops = [_normalize(o, ctx) for o in ins.operands]
    if base.startswith("image_") and not ctx.gfx94:  # (gfx94x has no image instructions)
        _check_image_data(ins, base, ops, ctx)
    bare = controls.bare_control(ins)  # `v_mov_b32 v0, v0 row_mirror`: a DPP control written as a word
    if bare:
        ops = [v for v, o in zip(ops, ins.operands) if not (isinstance(o, Symbol) and o.name in dpp_table.DPP_BARE)]
    if sfx == "_dpp" or bare or any(md.name in dpp_table.DPP_CONTROLS for md in ins.modifiers):
        _check_dpp_opcode(ins, ops, ctx)
    if base in _GPR_IDX_OPERANDS:  # no operand row: their forms are checked here, as llvm-mc checks them
        _check_gpr_idx(ins, base, ops, ctx)
        return _reloc_warnings(ops, ctx)
    info = opcodes.row_for(ins, ctx.name)
    _check_rowless(ins, base, sfx, ctx)
    if info is not None and info.encoding == "MUBUF":
        ins, ops = _mubuf_scc_soffset(ins, info, ops, ctx)
    elif info is not None and info.encoding == "SCRATCH" and (ctx.gfx94 or info.has("store")):
        ins, ops = _scratch_scc_saddr(ins, info, ops, ctx)
    if info is None or sfx in ("_sdwa", "_dpp") or bare or \
            ins.modifiers and any(md.name in _SDWA_DPP_MODS for md in ins.modifiers):
        if sfx in ("_sdwa", "_dpp") or info is not None:
            for v in ops:
                if v.forced:  # llvm-mc: no `lit(...)` in SDWA/DPP
                    raise _invalid(v, ins)
        row = opcodes.lookup(ins.mnemonic, ctx.name)
        if sfx in ("_sdwa", "_dpp") and row is not None and row.encoding in ("VOP1", "VOP2") and ops and \
                row.operands and row.operands[0].role == "vdst" and row.operands[0].kinds == "v" and \
                ops[0].kind != "v":  # a VOP1/VOP2 SDWA or DPP result goes to a VGPR (llvm-mc: vcc is refused)
            raise _invalid(ops[0], ins)
        dpp_form = sfx == "_dpp" or bare or any(md.name in dpp_table.DPP_CONTROLS for md in ins.modifiers)
        if dpp_form and sfx != "_sdwa" and row is not None and row.encoding in ("VOP1", "VOP2"):
            _check_dpp_operands(ins, row, ops)
        elif not dpp_form and row is not None and row.encoding in ("VOP1", "VOP2", "VOPC"):
            _check_sdwa_operands(ins, row, ops)
        # (no operand row, or an SDWA form: llvm-mc's rules for the operands are not all
        # repeated here; the note says whether run executes the instruction, not that)
        out = [] if executes(m) else [Diagnostic("note", f"instruction not modelled by gcnemu yet: {m}",
                                                 ins.mnemonic_span, rule="not-modelled")]
        if base in rowless.INTERP:  # attrN.c and p10/p20/p0 are operand syntax, not symbols to relocate
            return out
        return out + _reloc_warnings(ops, ctx)
    if info.encoding == "MUBUF" and ins.has("tfe"):
        info = _mubuf_tfe(ins, info, ops, ctx)
    _check_modifier_values(ins, info, ctx)
    enc = info.encoding
    if enc.startswith("SOP"):
        _check_scalar(ins, info, ops, ctx)
    elif enc == "SMEM":
        _check_smem(ins, info, ops, ctx)
    elif enc in ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"):
        _check_valu(ins, info, ops, ctx, sfx)
    elif enc == "MAI":
        _check_mai(ins, info, ops, ctx)
    elif enc == "DS":
        _check_ds(ins, info, ops, ctx)
    elif enc in ("GLOBAL", "FLAT"):
        _check_flat(ins, info, ops, ctx)
    elif enc == "MUBUF":
        _check_mubuf(ins, info, ops, ctx)
    elif enc == "SCRATCH":
        _check_scratch(ins, info, ops, ctx)
    extra = _mubuf_offset_warning(ins, ctx) if enc == "MUBUF" else []
    if enc == "DS" and ins.has("gds") and executes(m):  # (gfx908 takes `gds` on most DS opcodes)
        return [Diagnostic("note", f"instruction not modelled by gcnemu yet: {m} gds (the global data share "
                           "is not modelled)", ins.mnemonic_span, rule="not-modelled")] + extra + \
            _reloc_warnings(ops, ctx)
    if not executes(m):
        return [Diagnostic("note", f"instruction not modelled by gcnemu yet: {m}", ins.mnemonic_span,
                           rule="not-modelled")] + extra + _reloc_warnings(ops, ctx)
    if info.variant == "lds" and enc in ("GLOBAL", "SCRATCH"):  # gfx908/gfx90a's FLAT load to LDS
        return [Diagnostic("note", f"instruction not modelled by gcnemu yet: {m} ... lds (a load to LDS)",
                           ins.mnemonic_span, rule="not-modelled")] + extra + _reloc_warnings(ops, ctx)
    return extra + _reloc_warnings(ops, ctx)


_SDWA_SELECTS = frozenset({"dst_sel", "dst_unused", "src0_sel", "src1_sel"})


def _check_rowless(ins: Instruction, base: str, sfx: str, ctx: _Ctx) -> None:
    """llvm-mc's operand rules for the VALU mnemonics without a table row (`isa.rowless`)."""
    if base in rowless.NO_SDWA and sfx not in ("_sdwa", "_dpp"):
        for m in ins.modifiers:
            if m.name in _SDWA_SELECTS:
                raise _Error("not a valid operand.", m.span)
    if base in rowless.GWS_WITH_DATA or base in rowless.GWS_NO_DATA:
        _check_gws(ins, base, ctx)
        return
    if base in rowless.DS_COUNTERS:
        _check_ds_counter(ins, ctx)
        return
    if base in rowless.INTERP:
        _check_interp(ins, rowless.INTERP[base])
        return
    if base.startswith("tbuffer_"):  # (no table row yet) vdata, vaddr|off, srsrc, soffset
        if len(ins.operands) < 4:
            raise _too_few(ins)
        data = ins.operands[0]
        if ctx.gfx90a_plus and isinstance(data, Reg) and data.file in ("v", "a") and data.count > 1 and data.index % 2:
            raise _Error("invalid operand for instruction", data.span)  # gfx90a+ data tuples are even-aligned
        _check_tbuffer_modifiers(ins)
    rule = rowless.rule(base)
    if rule is None or sfx in ("_dpp", "_sdwa"):
        return
    if rule.sdwa and any(m.name in _SDWA_SELECTS for m in ins.modifiers):
        if rule.no_sext:
            for o in ins.operands:
                if isinstance(o, Modified) and o.sext:
                    raise _Error("not a valid operand.", o.span)
        return
    if rule.sdwa and any(m.name in _SDWA_DPP_MODS and m.name not in rule.modifiers for m in ins.modifiers):
        return  # a DPP form: its controls are checked elsewhere
    if rule.operands and len(ins.operands) > rule.operands:
        raise _Error("invalid operand for instruction", ins.operands[rule.operands].span)
    if rule.vgprs_only:
        for o in ins.operands:
            if not (isinstance(o, Reg) and o.file == "v"):
                raise _Error("invalid operand for instruction", o.span)
    for i in rule.plain_sources:
        if i < len(ins.operands) and isinstance(ins.operands[i], Modified) and \
                (ins.operands[i].neg or ins.operands[i].abs):
            raise _Error("not a valid operand.", ins.operands[i].span)
    order = list(rule.modifiers) if isinstance(rule.modifiers, tuple) else None
    last = -1
    for m in ins.modifiers:
        key = "omod" if m.name in ("mul", "div") else m.name
        if key not in rule.modifiers or sfx == "_e32" and not rule.e32_modifiers:
            # llvm-mc: a bare word no operand of the row takes is "invalid operand", a name:value "not valid"
            raise _Error("not a valid operand." if m.value is not None and sfx != "_e32" else
                         "invalid operand for instruction", m.span)
        if order is not None:
            if order.index(key) < last:  # read in asm-string order: an earlier one after a later one
                raise _Error("not a valid operand.", m.span)
            last = order.index(key)


_INTERP_ATTR = re.compile(r"attr(\d+)(?:\.(\w*))?$")


def _check_interp(ins: Instruction, rule: rowless.InterpRule) -> None:
    """v_interp_*: llvm-mc reads the slot and the attribute while parsing, then matches the operands."""
    ops = ins.operands
    if len(ops) > 1 and rule.slot and not (isinstance(ops[1], Symbol) and ops[1].name in rowless.INTERP_SLOTS):
        raise _Error("invalid interpolation slot", ops[1].span)
    if len(ops) > 2:
        attr = _INTERP_ATTR.match(ops[2].name) if isinstance(ops[2], Symbol) else None
        if attr is None:
            # (llvm-mc takes a name-like token for an attribute; a number or a sign is just a bad operand)
            numeric = isinstance(ops[2], (Imm, FloatImm, Modified)) or \
                isinstance(ops[2], Expr) and ops[2].op in ("neg", "not", "plus")
            raise _Error("invalid operand for instruction" if numeric else "invalid interpolation attribute",
                         ops[2].span)
        if attr.group(2) not in rowless.INTERP_CHANNELS:
            raise _Error("invalid or missing interpolation attribute channel", ops[2].span)
        if int(attr.group(1)) >= rowless.INTERP_ATTRIBUTES:
            raise _Error("out of bounds interpolation attribute number", ops[2].span)
    if len(ops) < rule.operands:
        raise _too_few(ins)
    if len(ops) > rule.operands:
        raise _Error("invalid operand for instruction", ops[rule.operands].span)
    for i in (0, 1, 3):  # vdst, the source (unless a slot), the second source: one VGPR each
        if i < rule.operands and not (i == 1 and rule.slot):
            o = ops[i]
            if i and isinstance(o, Modified):  # the VOP3 form's neg/abs on a source; no sext()
                if o.sext:
                    raise _Error("not a valid operand.", o.span)
                o = o.inner
            if not (isinstance(o, Reg) and o.file == "v" and o.count == 1):
                raise _Error("invalid operand for instruction", o.span)
    for m in ins.modifiers:
        if m.name == "high" and not rule.high:
            raise _Error("invalid operand for instruction", m.span)
        if m.name in ("mul", "div") and not rule.omod:
            raise _Error("not a valid operand.", m.span)


def _check_exp(ins: Instruction) -> None:
    """exp: llvm-mc reads the target and the modifiers while parsing, then matches the sources."""
    ops = ins.operands
    if ops:
        tgt = ops[0]
        name = tgt.name if isinstance(tgt, (Symbol, Special)) else None
        if name is None:  # (`mrt-1` reads as an expression: a name-like target all the same)
            named = isinstance(tgt, Expr) and tgt.op not in ("neg", "not", "plus")
            raise _Error("invalid exp target" if named else "invalid operand for instruction", tgt.span)
        problem = rowless.exp_target_problem(name)
        if problem is not None:
            raise _Error(problem, tgt.span)
    for o in ops[1:]:
        if isinstance(o, Modified):
            raise _Error("not a valid operand.", o.span)
    for md in ins.modifiers:
        if md.value is not None and md.name not in rowless.EXP_MODIFIERS:
            raise _Error("not a valid operand.", md.span)
    if len(ops) < 5:
        raise _too_few(ins)
    if len(ops) > 5:
        raise _Error("invalid operand for instruction", ops[5].span)
    for o in ops[1:]:
        if not (isinstance(o, Reg) and o.file == "v" and o.count == 1 or isinstance(o, Special) and o.name == "off"):
            raise _Error("invalid operand for instruction", o.span)
    last = -1
    for md in ins.modifiers:
        if md.name not in rowless.EXP_MODIFIERS or rowless.EXP_MODIFIERS.index(md.name) <= last:
            raise _Error("invalid operand for instruction", md.span)
        last = rowless.EXP_MODIFIERS.index(md.name)


def _check_ds_counter(ins: Instruction, ctx: _Ctx) -> None:
    """ds_append / ds_consume: vdst, then offset:N and gds (gone on gfx90a+), as llvm-mc 22."""
    if not ins.operands:
        raise _too_few(ins)
    if len(ins.operands) > 1:
        raise _Error("invalid operand for instruction", ins.operands[1].span)
    dst = ins.operands[0]
    if not (isinstance(dst, Reg) and dst.file in ("v", "a") and dst.count == 1) or \
            dst.file == "a" and not ctx.gfx90a_plus:
        raise _Error("invalid operand for instruction", dst.span)
    for m in ins.modifiers:
        if m.name == "gds" and ctx.gfx90a_plus:
            raise _Error("gds modifier is not supported on this GPU", m.span)
        if m.name not in ("offset", "gds"):
            raise _Error("not a valid operand." if m.value is not None else "invalid operand for instruction",
                         m.span)


def _check_gws(ins: Instruction, base: str, ctx: _Ctx) -> None:
    """ds_gws_*: operand count, a single VGPR/AGPR of data, `gds` present (llvm-mc 22)."""
    n = 1 if base in rowless.GWS_WITH_DATA else 0
    if len(ins.operands) > n:
        raise _Error("invalid operand for instruction", ins.operands[n].span)
    if n:
        if not ins.operands:
            raise _Error("too few operands for instruction", ins.mnemonic_span)
        o = ins.operands[0]
        if not isinstance(o, Reg) or o.file not in ("v", "a") or o.count != 1:
            raise _Error("invalid operand for instruction", o.span)
    last = -1
    for m in ins.modifiers:  # offset:N then gds, in that order
        k = ("offset", "gds").index(m.name) if m.name in ("offset", "gds") else None
        if k is None or k < last:
            raise _Error("not a valid operand." if m.value is not None else "invalid operand for instruction",
                         m.span)
        last = k
    if not ins.has("gds"):
        raise _Error("too few operands for instruction", ins.mnemonic_span)
    if n:
        if o.file == "a" and not ctx.gfx90a_plus:
            raise _Error("invalid register class: agpr loads and stores not supported on this GPU", ins.mnemonic_span)
        if ctx.gfx90a_plus and o.index % 2:
            raise _Error("vgpr must be even aligned", o.span)


def _mubuf_offset_warning(ins: Instruction, ctx: _Ctx) -> list[Diagnostic]:
    """llvm-mc 22 accepts MUBUF offsets up to 65535 but encodes only the 12-bit OFFSET field
    (`offset:4096` assembles as offset 0): the kernel then runs with the low 12 bits, and so
    does gcnemu. Said once per instruction, at the offset."""
    md = next((md for md in ins.modifiers if md.name == "offset"), None)
    v = _mod_int(md, ctx) if md is not None and md.value is not None else None
    if v is None or 0 <= v <= 0xFFF:
        return []
    return [Diagnostic("warning", f"offset {v} does not fit the 12-bit MUBUF offset field: llvm-mc encodes "
                       f"{v & 0xFFF} (its low 12 bits), which is what runs", md.span, rule="offset-truncated")]


def _reloc_warnings(ops: list[_V], ctx: _Ctx) -> list[Diagnostic]:
    out = []
    for v in ops:
        if v.kind == "reloc":
            ctx.used_symbols = True
        if v.kind == "reloc" and v.name and v.name not in ctx.labels and v.name not in ctx.defined:
            out.append(Diagnostic("warning", f"symbol '{v.name}' is not defined in this file: llvm-mc emits a "
                                  "relocation; gcnemu cannot run this instruction", v.span, rule="undefined-symbol"))
    return out


def _check_mnemonic(ins: Instruction, ctx: _Ctx) -> None:
    problem = _mnemonic_problem(ins.mnemonic, ctx.name)
    if problem is not None:
        msg, rule, notes = problem
        sp = ins.mnemonic_span
        raise _Error(msg, sp, rule=rule, notes=[Diagnostic("note", n, sp) for n in notes])


@lru_cache(maxsize=4096)
def _mnemonic_problem(m: str, target: str):
    """None when the spelling exists on the target, else (message, rule, note texts)."""
    try:
        _mnemonic_check(m, _Ctx(target))
    except _Error as e:
        return e.message, e.rule, tuple(n.message for n in e.notes)
    return None


def _mnemonic_check(m: str, ctx: _Ctx) -> None:
    sp = None
    base, sfx = opcodes.base_mnemonic(m)
    if base in opcodes.ALIASES and (not sfx or sfx == "_e64"):
        m = opcodes.ALIASES[base] + sfx
    if _mn is None:
        if opcodes.lookup(m) is None:
            raise _Error("invalid instruction", sp)
        return
    if _mn.exists(m, ctx.name):
        return
    if sfx in ("", "_e64") and opcodes.mfma_info(m, ctx.name) is not None:
        return  # MFMA aliases the mnemonic tables may lack
    base, sfx = opcodes.base_mnemonic(m)
    if sfx and _mn.exists(base, ctx.name):
        raise _Error(f"{sfx[1:]} variant of this instruction is not supported", sp)
    others = _mn.targets_having(m)
    if not others and sfx:  # `v_mov_b64_sdwa` on gfx90a: llvm-mc knows the opcode (from another GPU), so the
        # encoding suffix is not what is wrong
        owners = _mn.targets_having(base)
        if owners:
            raise _Error("instruction not supported on this GPU", sp, rule="target",
                         notes=[Diagnostic("note", f"{base} exists on {', '.join(owners)}", sp)])
        if _mn.other_generation(base):
            raise _Error("instruction not supported on this GPU", sp, rule="target",
                         notes=[Diagnostic("note", f"{base} exists only on other AMDGPU generations", sp)])
    if others:
        raise _Error("instruction not supported on this GPU", sp, rule="target",
                     notes=[Diagnostic("note", f"{m} exists on {', '.join(others)}", sp)])
    if _mn.other_generation(m):  # gfx10+ (or gfx6-8) only: llvm-mc offers no did-you-mean
        raise _Error("instruction not supported on this GPU", sp, rule="target",
                     notes=[Diagnostic("note", f"{base} exists only on other AMDGPU generations", sp)])
    sugg = _mn.suggestions(m, ctx.name)
    if sugg:
        raise _Error(f"invalid instruction, did you mean: {', '.join(sugg)}?", sp)
    best = _mn.suggest(m, ctx.name)
    notes = [Diagnostic("note", f"did you mean '{best}'?", sp)] if best else []
    raise _Error("invalid instruction", sp, notes=notes)


# ------------------------------------------------------------------ modifiers

_LIST_MODS = frozenset({"op_sel", "op_sel_hi", "neg_lo", "neg_hi", "neg"})
_OMOD = {("mul", 2), ("mul", 4), ("div", 2), ("div", 1)}
# llvm-mc parses optional operands in the order of the instruction's asm string
_SLOTS = {name: i for i, name in enumerate(
    ["idxen", "offen", "offset", "offset0", "offset1", "op_sel", "op_sel_hi", "neg_lo", "neg_hi", "cbsz", "abid",
     "blgp", "neg", "cpol", "lds", "tfe", "gds", "clamp", "omod"])}
_CPOL_NAMES = frozenset({"glc", "slc", "scc", "sc0", "sc1", "nt", "dlc"})


# llvm-mc reads `no` + a cache-policy name as that bit cleared (AMDGPUAsmParser::parseCPol), where the
# name itself is valid. (gcnemu's parser must read these words as modifiers for this to apply.)
_NEGATED_CPOL = {"no" + n: n for n in _CPOL_NAMES}


def _slot(name: str) -> int | None:
    if name in _CPOL_NAMES:
        return _SLOTS["cpol"]
    if name in ("mul", "div"):
        return _SLOTS["omod"]
    return _SLOTS.get(name)


def _cpol(ctx: _Ctx) -> frozenset:
    if ctx.gfx94:
        return frozenset({"sc0", "sc1", "nt"})
    if ctx.gfx90a_plus:
        return frozenset({"glc", "slc", "scc"})
    return frozenset({"glc", "slc"})


def _allowed_modifiers(info: OpInfo, ctx: _Ctx) -> frozenset:
    mods = info.modifiers
    if opcodes.CPOL in mods:
        mods = (mods - {opcodes.CPOL}) | _cpol(ctx)
    elif not ctx.gfx94:  # sc0/sc1/nt are gfx940's cache-policy names (buffer_wbl2 sc1 on gfx942 only)
        mods = mods - {"sc0", "sc1", "nt"}
    return mods


def _mod_int(m: Modifier, ctx: _Ctx) -> int | None:
    v = m.value
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return _norm_int(v)
    if isinstance(v, str):
        ctx.used_symbols = True
        r = ctx.symbols.get(v)
        if r is not None and not r[1]:
            return r[0]
    return None


# MTBUF's legacy format fields and their largest values (SIDefines.h: DFMT_MAX 15, NFMT_MAX 7)
_LEGACY_FORMAT_MAX = {"dfmt": 15, "nfmt": 7}


def _check_tbuffer_modifiers(ins: Instruction) -> None:
    """llvm-mc 22's rules for a tbuffer_* instruction's modifiers (AMDGPUAsmParser::parseDfmtNfmt,
    parseFORMAT): the legacy `dfmt:N nfmt:M` stand before soffset only, each once and in range;
    `format:N` is a 7-bit value; tbuffer has no tfe."""
    soffset = ins.operands[3]
    seen: set[str] = set()
    for m in ins.modifiers:
        limit = _LEGACY_FORMAT_MAX.get(m.name)
        if limit is not None:
            if m.span.column > soffset.span.column:
                raise _Error("not a valid operand.", m.span)
            if m.name in seen:
                raise _Error("invalid operand for instruction", m.span)
            seen.add(m.name)
            if isinstance(m.value, int) and not 0 <= m.value <= limit:
                raise _Error(f"out of range {m.name}", m.span)
        elif m.name == "format" and "format" in seen:
            raise _Error("not a valid operand.", m.span)
        elif m.name == "format" and seen:  # the format is already written as dfmt/nfmt
            raise _Error("duplicate format", m.span)
        elif m.name == "format" and isinstance(m.value, int) and not 0 <= m.value <= 127:
            raise _Error("out of range format", m.span)
        if m.name == "format":
            seen.add("format")
        elif m.name == "tfe":
            data = ins.operands[0]
            wide = isinstance(data, Reg) and data.count > 1 and "load" in ins.mnemonic
            raise _Error("invalid operand for instruction", data.span if wide else m.span)


def _check_modifier_values(ins: Instruction, info: OpInfo, ctx: _Ctx) -> None:
    """Modifiers legal for this row on this target, once each, in llvm-mc's order, values in range."""
    if not ins.modifiers:
        return
    allowed = _allowed_modifiers(info, ctx)
    enc = info.encoding
    if enc in ("VOP1", "VOP2"):
        allowed = allowed | {"clamp"}  # the SDWA form clamps any VOP1/VOP2 opcode (checked per encoding)
    seen = set()
    last_slot = -1
    for i, m in enumerate(ins.modifiers):
        if m.name == "inst_offset" and enc in ("FLAT", "GLOBAL", "SCRATCH"):
            # llvm-mc 22 takes `inst_offset:` as an old spelling of offset: on every gfx9 target (its
            # gfx90a "invalid operand" on `flat_load_dword v1, v[3:4] inst_offset:4` is the odd address
            # pair's); resolve renames it so that run adds it to the address
            m = Modifier("offset", m.value, m.span)
        name = _NEGATED_CPOL.get(m.name, m.name)  # `nosc0`, `noglc`: the bit written as clear
        key = "omod" if name in ("mul", "div") else name
        if key in seen:
            if name in _CPOL_NAMES and name in allowed:
                raise _Error("duplicate cache policy modifier", m.span)
            raise _Error("not a valid operand." if m.value is not None else "invalid operand for instruction", m.span)
        seen.add(key)
        if name == "gds" and enc == "DS" and ctx.gfx90a_plus and "gds" in info.modifiers:
            raise _Error("gds modifier is not supported on this GPU", m.span)
        if name == "scc" and enc in ("GLOBAL", "FLAT", "SCRATCH", "MUBUF") and ctx.name == "gfx908" and \
                opcodes.CPOL in info.modifiers:  # (buffer_wbinvl1 has no cache policy: "invalid operand")
            raise _Error("scc modifier is not supported on this GPU", m.span)
        # llvm-mc: dlc on an instruction with a cache-policy operand is "not supported" (gfx94x's vector
        # memory spells its policy sc0/sc1/nt, where dlc is just an invalid operand, as on DS)
        if name == "dlc" and (enc == "SMEM" or (opcodes.CPOL in info.modifiers and not ctx.gfx94)):
            raise _Error("dlc modifier is not supported on this GPU", m.span)
        if key not in allowed:
            if enc == "MAI" and name in ("neg", "blgp", "cbsz", "abid") and m.value is not None:
                raise _Error(f"invalid modifier: {name} is not supported", m.span)
            if enc == "SMEM" and name in _CPOL_NAMES:
                raise _Error("invalid cache policy for SMEM instruction", ins.mnemonic_span)
            raise _Error("not a valid operand." if m.value is not None else "invalid operand for instruction", m.span)
        slot = _slot(name)
        if slot is not None:
            if slot < last_slot:
                if name in ("idxen", "offen"):  # literal tokens of the MUBUF syntax: the earlier modifier is wrong
                    raise _Error("invalid operand for instruction", ins.modifiers[0].span if i else m.span)
                raise _Error("not a valid operand." if m.value is not None else "invalid operand for instruction",
                             m.span)
            last_slot = slot
        _check_modifier_value(m, info, ctx)


def _check_modifier_value(m: Modifier, info: OpInfo, ctx: _Ctx) -> None:
    name = m.name
    if name in _LIST_MODS:
        if not isinstance(m.value, tuple):
            raise _Error("expected a left square bracket", m.span)
        if not m.value or len(m.value) > 4 or any(x not in (0, 1) for x in m.value):
            raise _Error(f"invalid {name} value.", m.span)
        return
    if name in ("mul", "div"):
        if (name, m.value) not in _OMOD:
            raise _Error(f"invalid {name} value.", m.span)  # llvm-mc's wording
        return
    if name not in ("offset", "offset0", "offset1", "cbsz", "abid", "blgp"):
        if m.value is not None:
            raise _Error("invalid operand for instruction", m.span)
        return
    if m.value is None:
        raise _Error("expected a colon", m.span)
    if name == "offset" and info.mnemonic == "ds_swizzle_b32" and isinstance(m.value, str) \
            and m.value.startswith("swizzle("):
        _check_swizzle(m.value, m.span)
        return
    v = _mod_int(m, ctx)
    if v is None:
        raise _Error("expected absolute expression", m.span)
    if name == "offset":
        _check_offset(v, m, info, ctx)
    elif name in ("offset0", "offset1"):
        lo, hi = ctx.limits.get(f"ds.{name}", (0, 255))
        if not lo <= v <= hi:
            raise _Error(f"invalid {name} value.", m.span)
    elif name == "cbsz" and not 0 <= v <= 7:
        raise _Error("invalid cbsz value.", m.span)
    elif name == "abid" and not 0 <= v <= 15:
        raise _Error("invalid abid value.", m.span)
    elif name == "blgp" and not 0 <= v <= 7:
        raise _Error("invalid operand for instruction", m.span)


_OFFSET_KEYS = {"DS": ("ds.offset", "expected a 16-bit unsigned offset"),
                "GLOBAL": ("global.offset", "expected a 13-bit signed offset"),
                "FLAT": ("flat.offset", "expected a 12-bit unsigned offset"),
                "MUBUF": ("mubuf.offset", "expected a 16-bit unsigned offset"),
                "SMEM": ("smem.offset", "expected a 21-bit signed offset")}


def _check_offset(v: int, m: Modifier, info: OpInfo, ctx: _Ctx) -> None:
    key = _OFFSET_KEYS.get(info.encoding)
    if key is None:
        return  # SCRATCH: after the operands, see _check_scratch
    lo, hi = ctx.limits.get(key[0], (0, 65535))
    if not lo <= v <= hi:
        raise _Error(key[1], m.span)


_SWIZZLE_MODES = dpp_table.SWIZZLE_MODES


def _check_swizzle(text: str, span: Span) -> None:
    """`swizzle(MODE, args...)` as written in `offset:` of ds_swizzle_b32: the coarse check for
    text whose columns are not known (a macro expansion); `controls` checks written lines exactly."""
    inner = text[len("swizzle("):-1]
    parts = [p.strip() for p in inner.split(",")] if inner.strip() else []
    if not parts or parts[0] not in _SWIZZLE_MODES:
        raise _Error("expected a swizzle mode", span)
    if len(parts) - 1 != _SWIZZLE_MODES[parts[0]]:
        raise _Error("expected a comma" if len(parts) - 1 < _SWIZZLE_MODES[parts[0]] else
                     "expected a closing parentheses", span)
    if parts[0] == "BITMASK_PERM":  # llvm-mc 22: a quoted mask of five of 0 1 p i (lower case)
        mask = parts[1]
        if not (len(mask) >= 2 and mask[0] == mask[-1] == '"'):
            raise _Error("expected a string", span)
        if len(mask) != 7:
            raise _Error("expected a 5-character mask", span)
        if any(ch not in "01pi" for ch in mask[1:-1]):
            raise _Error("invalid mask", span)


# ------------------------------------------------------------------ shared operand checks

def _too_few(ins: Instruction) -> _Error:
    return _Error("too few operands for instruction", ins.mnemonic_span)


def _invalid(v: _V | None, ins: Instruction, msg: str = "invalid operand for instruction") -> _Error:
    return _Error(msg, v.span if v is not None and v.span is not None else ins.mnemonic_span)


def _count(ins: Instruction, ops: list[_V], n_min: int, n_max: int) -> None:
    if len(ops) < n_min:
        raise _too_few(ins)
    if len(ops) > n_max:
        raise _invalid(ops[n_max], ins)


def _const_ok(v: _V, typ: str, allow_literal: bool) -> bool:
    """A constant (or not-yet-known symbol) is acceptable for an operand of this type."""
    if v.kind in ("reloc", "off"):
        return allow_literal and typ in _T32
    if v.kind != "const":
        return False
    if v.forced and not allow_literal:
        return False
    cls = _const_class(v, typ)
    return cls == INLINE or (cls == LITERAL and allow_literal)


def _const_class(v: _V, typ: str) -> str:
    if v.forced and v.is_float and typ == "f64":  # llvm-mc: `lit(1.0)` of an f64 operand is its high half
        return LITERAL
    return classify_constant(v.value, v.is_float, typ)


def _is_literal(v: _V, typ: str) -> bool:
    """Whether the operand takes the instruction's literal slot. llvm-mc 22 decides by value: a
    forced `lit(1)` is no literal for the VOP3 and unique-literal checks (but uses the constant bus)."""
    if v.kind in ("reloc", "off"):
        return True
    return v.kind == "const" and _const_class(v, typ) == LITERAL


def _literal_key(v: _V):
    if v.kind == "const":
        return ("lit", v.value, v.is_float)
    return ("reloc", v.op.text() if hasattr(v.op, "text") else id(v))


def _scalar_src_ok(v: _V, width: int) -> bool:
    """An SGPR-class source of `width` registers (status sources and apertures fit any width)."""
    if v.kind == "s":
        return v.count == width
    return v.kind in ("srcreg", "aperture")


def _scalar_dst_ok(v: _V, width: int, valu_sdst: bool = False) -> bool:
    if v.kind == "s":
        return v.count == width
    if v.kind == "srcreg":
        return width == 1 or valu_sdst
    return v.kind == "aperture" and valu_sdst


def _vgpr_aligned(v: _V, ctx: _Ctx) -> bool:
    return not (ctx.gfx90a_plus and v.kind in ("v", "a") and v.count >= 2 and v.index % 2)


# ------------------------------------------------------------------ SALU

def _check_scalar(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> None:
    if ins.modifiers:
        raise _Error("invalid operand for instruction", ins.modifiers[0].span)
    specs = info.operands
    if specs and specs[0].kinds == "w" and ops:
        _waitcnt_syntax(ops, ins)
    n_min = sum(1 for sp in specs if not sp.optional)
    _count(ins, ops, n_min, len(specs))
    literals = set()
    for v, spec in zip(ops, specs):
        k = spec.kinds
        if v.modified:
            raise _invalid(v, ins, "not a valid operand.")
        if k == "n":
            if v.kind != "const":
                raise _invalid(v, ins)
        elif k == "L":
            _check_branch_target(v, ins, ctx)
        elif k == "w":
            _check_waitcnt(v, ins, ctx)
        elif k == "h":
            _check_hwreg(v, ins, ctx)
        elif k == "m":
            _check_sendmsg(v, ins, ctx)
        elif k == "k":
            if v.kind != "const" or v.is_float:
                raise _invalid(v, ins)
            if not (0 if spec.type == "u16" else -32768) <= v.value <= 65535:
                raise _invalid(v, ins)
        elif spec.write:
            if not _scalar_dst_ok(v, spec.width):
                raise _invalid(v, ins)
        elif v.kind in _SCALAR_KINDS:
            if "s" not in k or not _scalar_src_ok(v, spec.width):
                raise _invalid(v, ins)
        elif v.kind in ("const", "reloc", "off") and "i" in k:
            if not _const_ok(v, spec.type, "l" in k) or v.kind == "off" and spec.role == "imm":
                raise _invalid(v, ins)
            if _is_literal(v, spec.type):
                literals.add(_literal_key(v))
                if len(literals) > 1:
                    raise _Error("only one unique literal operand is allowed", v.span)
        else:
            raise _invalid(v, ins)


def _check_branch_target(v: _V, ins: Instruction, ctx: _Ctx) -> None:
    if v.kind == "const":
        if v.is_float and v.value != 0 or not v.is_float and not -32768 <= v.value <= 65535:
            raise _Error("expected a 16-bit signed jump offset", v.span)
        return
    if v.kind == "reloc":
        if isinstance(v.op, Symbol):
            if v.name not in ctx.labels and v.name not in ctx.defined:
                raise _Error(f"undefined label '{v.name}'", v.span, rule="undefined-label")
            return
        raise _Error("expected an absolute expression or a label", v.span)
    raise _invalid(v, ins)


_WAITCNT_NAMES = ("vmcnt", "expcnt", "lgkmcnt")


def _waitcnt_syntax(ops: list[_V], ins: Instruction) -> None:
    """What llvm-mc 22's s_waitcnt parser says before operands are counted: a name that is no
    counter call (`vmcnt 0`, an undefined symbol) is no absolute expression; after counters,
    only counters may follow."""
    first = ops[0]
    if first.kind in ("reloc", "s", "srcreg", "aperture", "off", "other") and not first.modified:
        raise _Error("expected absolute expression", first.span)
    if first.kind in ("call", "group") and len(ops) > 1:
        nxt = ops[1]
        o = nxt.op
        if not nxt.modified and (isinstance(o, (Symbol, Special)) or isinstance(o, Reg) and o.count == 1 and
                                 o.span.end_column - o.span.column == len(o.text())):  # an identifier
            sp = nxt.span
            raise _Error("expected a left parenthesis", Span(sp.file, sp.line, sp.end_column, sp.line, sp.end_column + 1))
        if nxt.kind != "call":
            raise _Error("expected a counter name", nxt.span)


def _check_waitcnt(v: _V, ins: Instruction, ctx: _Ctx) -> None:
    if v.forced:
        col = lit_call_column(v.op) if isinstance(v.op, (Imm, FloatImm)) else v.op.span.column
        raise _Error("invalid counter name lit", Span(v.span.file, v.span.line, col, v.span.line, col + 3))
    if v.kind == "const":
        return
    if v.kind == "call":
        calls = (v.op,)
    elif v.kind == "group":
        calls = v.op.calls
    else:
        raise _invalid(v, ins)
    for c in calls:
        name = c.name
        base = name[:-4] if name.endswith("_sat") else name
        if base not in _WAITCNT_NAMES:
            raise _Error(f"invalid counter name {name}", c.span)
        if len(c.args) != 1:
            raise _Error("expected absolute expression", c.span)
        r = ctx.evaluate(c.args[0])
        if r is None or r[1]:
            raise _Error("expected absolute expression", c.args[0].span)
        lo, hi = ctx.limits.get(f"s_waitcnt.{base}", (0, 63))
        if not name.endswith("_sat") and not 0 <= r[0] <= hi:
            raise _Error(f"too large value for {base}", c.args[0].span)


def _check_hwreg(v: _V, ins: Instruction, ctx: _Ctx) -> None:
    if v.kind == "const":
        if v.is_float or not 0 <= v.value <= 65535:
            raise _Error("invalid immediate: only 16-bit values are legal", v.span)
        return
    if v.kind != "call" or v.name != "hwreg":
        raise _invalid(v, ins)
    args = v.op.args
    if not 1 <= len(args) <= 3:
        raise _Error("expected a hwreg macro, structured immediate or an absolute expression", v.span)
    first = args[0]
    if isinstance(first, Symbol) and first.name.startswith("HW_REG_"):
        if first.name not in hwregs.HWREGS:
            raise _Error("expected a register name or an absolute expression", first.span)
        if not hwregs.available(first.name, ctx.name):
            raise _Error("invalid hardware register: not supported on this GPU", first.span)
    else:
        r = ctx.evaluate(first)
        if r is None or r[1]:
            raise _Error("expected a register name or an absolute expression", first.span)
        if not 0 <= r[0] <= 63:
            raise _Error("invalid hardware register: only 6-bit values are legal", first.span)
    if len(args) >= 2:
        r = ctx.evaluate(args[1])
        if r is None or r[1] or not 0 <= r[0] <= 31:
            raise _Error("invalid bit offset: only 5-bit values are legal", args[1].span)
    if len(args) == 3:
        r = ctx.evaluate(args[2])
        if r is None or r[1] or not 1 <= r[0] <= 32:
            raise _Error("invalid bitfield width: only values from 1 to 32 are legal", args[2].span)


_MSG_NAMES = frozenset("""MSG_INTERRUPT MSG_GS MSG_GS_DONE MSG_SAVEWAVE MSG_STALL_WAVE_GEN MSG_HALT_WAVES
MSG_ORDERED_PS_DONE MSG_EARLY_PRIM_DEALLOC MSG_GS_ALLOC_REQ MSG_GET_DOORBELL MSG_GET_DDID MSG_SYSMSG""".split())


def _check_sendmsg(v: _V, ins: Instruction, ctx: _Ctx) -> None:
    if v.kind == "const":
        if v.is_float or not 0 <= v.value <= 65535:
            raise _Error("invalid immediate: only 16-bit values are legal", v.span)
        return
    if v.kind != "call" or v.name != "sendmsg" or not v.op.args:
        raise _invalid(v, ins)
    args = v.op.args
    first = args[0]
    if isinstance(first, Symbol) and first.name.startswith("MSG_"):
        if first.name not in _MSG_NAMES:
            raise _Error("expected a message name or an absolute expression", first.span)
        msg = sendmsg_table.MESSAGES.get(first.name)
    else:
        r = ctx.evaluate(first)
        if r is None:
            raise _Error("expected a message name or an absolute expression", first.span)
        msg = r[0] if not r[1] else None
    if msg is None:
        return
    _check_sendmsg_op(msg, first, args[1:], ctx)


def _check_sendmsg_op(msg: int, first, rest: list, ctx: _Ctx) -> None:
    """The operation and stream of sendmsg(...), as llvm-mc 22 validates them (isa/sendmsg.py)."""
    if not rest:
        if sendmsg_table.requires_op(msg):
            raise _Error("missing message operation", first.span)
        return
    op_arg = rest[0]
    if isinstance(op_arg, Symbol) and op_arg.name in sendmsg_table.OPERATIONS:
        op, known = sendmsg_table.OPERATIONS[op_arg.name]
        if not known:
            raise _Error("specified operation id is not supported on this GPU", op_arg.span)
    elif isinstance(op_arg, Symbol) and op_arg.name.startswith(("GS_OP_", "SYSMSG_OP_")):
        raise _Error("expected an operation name or an absolute expression", op_arg.span)
    else:
        r = ctx.evaluate(op_arg)
        if r is None:
            raise _Error("expected an operation name or an absolute expression", op_arg.span)
        if r[1]:
            return
        op = r[0]
    if not sendmsg_table.requires_op(msg):
        raise _Error("message does not support operations", op_arg.span)
    if not sendmsg_table.valid_op(msg, op):
        raise _Error("invalid operation id", op_arg.span)
    if len(rest) > 1:
        stream = rest[1]
        if not sendmsg_table.supports_stream(msg, op):
            raise _Error("message operation does not support streams", stream.span)
        r = ctx.evaluate(stream)
        if r is not None and not r[1] and r[0] not in sendmsg_table.STREAMS:
            raise _Error("invalid message stream id", stream.span)


# ------------------------------------------------------------------ VGPR indexing mode

# operands of the VGPR-indexing instructions: "s" a 32-bit scalar source (SGPR, special register,
# inline constant or literal: SSrc_b32), "imask" the 4-bit mode (a number 0..15 or gpr_idx(...))
_GPR_IDX_OPERANDS: dict[str, tuple[str, ...]] = {
    "s_set_gpr_idx_on": ("s", "imask"), "s_set_gpr_idx_idx": ("s",),
    "s_set_gpr_idx_mode": ("imask",), "s_set_gpr_idx_off": (),
}
_GPR_IDX_MODES = ("SRC0", "SRC1", "SRC2", "DST")


def _check_gpr_idx(ins: Instruction, base: str, ops: list[_V], ctx: _Ctx) -> None:
    """llvm-mc's checks (AMDGPUAsmParser::parseGPRIdxMode / parseGPRIdxMacro) with its messages."""
    if ins.modifiers:
        raise _Error("invalid operand for instruction", ins.modifiers[0].span)
    kinds = _GPR_IDX_OPERANDS[base]
    _count(ins, ops, len(kinds), len(kinds))
    for v, kind in zip(ops, kinds):
        if v.modified:
            raise _invalid(v, ins)
        if kind == "s":
            if v.kind in _SCALAR_KINDS:
                if not _scalar_src_ok(v, 1):
                    raise _invalid(v, ins)
            elif not _const_ok(v, "b32", True):
                raise _invalid(v, ins)
        elif v.kind == "call" and v.name == "gpr_idx":
            seen: set[str] = set()
            for arg in v.op.args:
                name = arg.name if isinstance(arg, Symbol) else None
                if name not in _GPR_IDX_MODES:
                    raise _Error("expected a VGPR index mode or a closing parenthesis", arg.span)
                if name in seen:
                    raise _Error("duplicate VGPR index mode", arg.span)
                seen.add(name)
        elif v.kind in ("const", "reloc"):
            if v.kind == "reloc" or v.is_float or not 0 <= v.value <= 15:
                raise _Error("invalid immediate: only 4-bit values are legal", v.span)
        else:
            raise _Error("expected absolute expression", v.span)


# ------------------------------------------------------------------ SMEM

_NOT_SMEM_DST = frozenset({"exec", "exec_lo", "exec_hi", "m0"})


def _check_smem(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> None:
    specs = info.operands
    n_min = sum(1 for sp in specs if not sp.optional)
    _count(ins, ops, n_min, len(specs))
    soff_is_reg = False
    for v, spec in zip(ops, specs):
        if v.modified:
            raise _invalid(v, ins, "not a valid operand.")
        if spec.role == "soffset":
            if v.kind in ("s", "srcreg") and v.count == 1:
                soff_is_reg = True
                continue
            if v.kind == "const":
                if v.is_float:
                    raise _Error("expected a 21-bit signed offset", v.span)
                if info.mnemonic.startswith("s_buffer_"):
                    if not 0 <= v.value <= 0xFFFFF:
                        raise _Error("expected a 20-bit unsigned offset", v.span)
                    continue
                lo, hi = ctx.limits.get("smem.offset", (-(1 << 20), (1 << 20) - 1))
                if not lo <= v.value <= hi:
                    raise _Error("expected a 21-bit signed offset", v.span)
                continue
            raise _invalid(v, ins)
        if spec.role in ("sdst", "sdata"):
            if not _scalar_dst_ok(v, spec.width) or v.name in _NOT_SMEM_DST:
                raise _invalid(v, ins)
            continue
        # sbase: an SGPR tuple (or ttmp / vcc-like pair)
        if v.kind != "s" or v.count != spec.width or v.name in ("exec", "m0"):
            raise _invalid(v, ins)
    for m in ins.modifiers:
        if m.name == "offset" and not soff_is_reg:
            raise _Error("invalid operand for instruction", m.span)


# ------------------------------------------------------------------ VALU

def _encodings(info: OpInfo, sfx: str, ctx: _Ctx) -> list[str]:
    """Candidate encodings in llvm-mc's matching order."""
    if info.encoding in ("VOP1", "VOP2", "VOPC"):
        if sfx == "_e32":
            return ["e32"]
        if sfx == "_e64":
            return ["e64"]
        out = ["e32", "e64"]
        if _mn is not None:
            row = _mn.info(info.mnemonic, ctx.name)
            if row is not None and "e32" not in row.suffixes:  # VOP3-only here (v_mul_legacy_f32 on gfx90a+)
                out.remove("e32")
            if row is not None and "sdwa" in row.suffixes:
                out.append("sdwa")
        return out
    return ["e64"]


def _check_valu(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx, sfx: str) -> None:
    errors: list[_Error] = []
    for enc in _encodings(info, sfx, ctx):
        try:
            pairs = _match_valu(ins, info, ops, ctx, enc)
        except _Error as e:
            errors.append(e)
            continue
        _post_valu(ins, info, pairs, ctx, enc)
        return
    raise _nearest_miss(errors)


def _nearest_miss(errors: list[_Error]) -> _Error:
    """Of the failed encodings, the error that got furthest into the line (as llvm-mc reports)."""
    return max(errors, key=lambda e: e.span.column if e.span else 0)


_NOT_VALU_SDST = frozenset({"m0", "exec_lo", "exec_hi"})


def _match_valu(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx, enc: str):
    """Structural match of the operands for one encoding: [(operand, spec)] or _Error."""
    specs = list(info.operands)
    e32, sdwa = enc == "e32", enc == "sdwa"
    vopc = info.encoding == "VOPC"
    if e32 and len(ops) == len(specs) - 1:
        implicit = [i for i, sp in enumerate(specs) if sp.kinds == "s" and sp.width == 2]
        if len(implicit) == 1:  # `v_cmp_eq_u32 v0, v1`, `v_add_co_u32 v0, v1, v2`: the one vcc may be omitted
            specs = specs[:implicit[0]] + specs[implicit[0] + 1:]
    if e32 and ins.modifiers:
        raise _Error("invalid operand for instruction", ins.modifiers[0].span)
    if sdwa:
        ok = ({"clamp"} | ({"omod"} & info.modifiers)) if not vopc else set()
        for m in ins.modifiers:
            if ("omod" if m.name in ("mul", "div") else m.name) not in ok:
                raise _Error("invalid operand for instruction", m.span)
        if any(sp.width > 1 and not (sp.kinds == "s" and sp.width == 2) for sp in specs):
            raise _Error("invalid operand for instruction", ins.mnemonic_span)
    _count(ins, ops, len(specs), len(specs))
    pairs = []
    n_src = 0
    for v, spec in zip(ops, specs):
        narrow = e32 or (sdwa and not vopc)  # encodings where implicit operands must be vcc
        if spec.write:
            if spec.kinds == "s" and spec.width == 2:  # carry-out / compare mask
                if v.modified or not _scalar_dst_ok(v, 2, valu_sdst=True):
                    raise _invalid(v, ins)
                if narrow and v.name != "vcc":
                    raise _invalid(v, ins)
            elif spec.kinds == "s":  # readlane / readfirstlane destination
                if v.modified or not _scalar_dst_ok(v, 1) or v.name in _NOT_VALU_SDST:
                    raise _invalid(v, ins)
            else:
                if v.modified or v.kind != ("a" if spec.kinds == "a" else "v") or v.count != spec.width:
                    raise _invalid(v, ins)
            pairs.append((v, spec))
            continue
        if spec.kinds == "s" and spec.width == 2:  # carry-in / mask: vcc in 32-bit encodings
            if v.modified or not _scalar_src_ok(v, 2):
                raise _invalid(v, ins)
            if narrow and v.name != "vcc":
                raise _invalid(v, ins)
            pairs.append((v, spec))
            continue
        _match_src(v, spec, ins, info, enc, n_src)
        pairs.append((v, spec))
        n_src += 1
    if enc == "e64":
        allowed = _allowed_modifiers(info, ctx)
        for m in ins.modifiers:
            if ("omod" if m.name in ("mul", "div") else m.name) not in allowed:
                raise _Error("invalid operand for instruction", m.span)
    return pairs


def _match_src(v: _V, spec: OperandSpec, ins: Instruction, info: OpInfo, enc: str, n_src: int) -> None:
    k = spec.kinds
    is_float = spec.type in FLOAT_TYPES
    if v.modified and v.forced and is_float and not v.sext and info.encoding != "VOP3P":
        v.modified = False  # llvm-mc 22 folds neg/abs into a float `lit(...)` value (any encoding)
    if v.modified:
        if info.encoding == "VOP3P":
            raise _invalid(v, ins, "not a valid operand.")
        if v.sext:
            if enc != "sdwa" or is_float:
                raise _invalid(v, ins, "not a valid operand.")
        elif not is_float:
            raise _invalid(v, ins, "not a valid operand.")
        elif enc == "e32":
            raise _invalid(v, ins)
        elif v.abs and info.operands[0].kinds == "v" and \
                any(sp.write and sp.kinds == "s" and sp.width == 2 for sp in info.operands):  # VOP3b
            raise _Error("ABS not allowed in VOP3B instructions", ins.mnemonic_span)
    vgpr_only = enc == "e32" and n_src >= 1 and info.encoding in ("VOP2", "VOPC")
    if v.kind == "v":
        if "v" not in k or v.count != spec.width:
            raise _invalid(v, ins)
        return
    if vgpr_only:
        raise _invalid(v, ins)
    if v.kind == "a":
        if "a" not in k or v.count != spec.width:
            raise _invalid(v, ins)
        return
    if v.kind in _SCALAR_KINDS:
        if "s" not in k or not _scalar_src_ok(v, spec.width):
            raise _invalid(v, ins)
        return
    if v.kind in ("const", "reloc", "off"):
        if "i" not in k:
            raise _invalid(v, ins)
        lit_ok = "l" in k and enc != "sdwa"
        if not _const_ok(v, spec.type, lit_ok):
            raise _invalid(v, ins)
        return
    raise _invalid(v, ins)


def _post_valu(ins: Instruction, info: OpInfo, pairs, ctx: _Ctx, enc: str) -> None:
    vop3 = enc == "e64"
    if ctx.gfx90a_plus:  # (elsewhere, e.g. a scratch saddr, it is just an invalid operand)
        for v, _spec in pairs:
            if v.kind == "srcreg" and v.name == "src_lds_direct":  # (at the register, not at a `-` before it)
                raise _Error("lds_direct is not supported on this GPU", v.op.span)
    if ctx.gfx94 and info.mnemonic.startswith("v_dot2_"):  # gfx940+: packed dot2 sources cannot be swizzled
        for m in ins.modifiers:
            if m.name == "op_sel_hi" or m.name == "op_sel" and any(m.value):
                raise _Error("invalid op_sel operand", m.span if m.name == "op_sel" else ins.mnemonic_span)
    reads = []
    for v, spec in pairs:
        if spec.write:
            continue
        if v.kind in ("const", "reloc", "off") and _is_literal(v, spec.type):
            if vop3:
                raise _Error("literal operands are not supported", v.span)
            reads.append((("lit",) if v.forced else _literal_key(v), v))
        elif v.forced:  # `lit(1.0)`: one literal on the bus, however many (llvm-mc counts literals by size)
            reads.append((("lit",), v))
        elif v.kind in _SCALAR_KINDS:
            if info.mnemonic == "v_writelane_b32" and v.name == "m0":
                continue  # writelane reads M0 beside its SGPR source
            if v.name in ("src_lds_direct", "lds_direct"):
                continue  # LDS_DIRECT is no SGPR: it does not use the constant bus (llvm-mc 22, gfx908)
            reads.append((v.key(), v))
    if info.has("reads-vcc") and (not vop3 or info.mnemonic.startswith("v_div_fmas")):
        reads.append((("vcc", 0, 2), None))
    bus = set()
    for key, v in reads:
        bus.add(key)
        if len(bus) > 1:
            sp = v.span if v is not None else next((x.span for x, _ in reversed(reads) if x is not None),
                                                   ins.mnemonic_span)
            raise _Error("invalid operand (violates constant bus restrictions)", sp)
    for v, spec in pairs:  # a destination's class is the aligned one: the matcher refuses the operand;
        if spec.write and not _vgpr_aligned(v, ctx):  # a source's class is not: a later check refuses the
            raise _Error("invalid operand for instruction", v.span)  # instruction (llvm-mc 22, gfx90a)
    for v, spec in pairs:
        if not _vgpr_aligned(v, ctx):
            raise _Error("invalid register class: vgpr tuples must be 64 bit aligned", ins.mnemonic_span)


# ------------------------------------------------------------------ MAI (MFMA, accvgpr)

def _check_mai(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> None:
    name = info.mnemonic
    for v in ops:
        if v.modified:
            raise _invalid(v, ins, "not a valid operand.")
    if name in ("v_accvgpr_read_b32", "v_accvgpr_write_b32"):
        if ins.modifiers:
            raise _Error("invalid operand for instruction", ins.modifiers[0].span)
        _count(ins, ops, 2, 2)
        d, s = ops
        if name == "v_accvgpr_read_b32":
            if d.kind != "v" or d.count != 1:
                raise _invalid(d, ins)
            if s.kind != "a" or s.count != 1:
                raise _invalid(s, ins)
            return
        if d.kind != "a" or d.count != 1:
            raise _invalid(d, ins)
        if s.kind == "v" and s.count == 1 or s.kind == "const" and _const_ok(s, "b32", False):
            return
        if s.kind in _SCALAR_KINDS and _scalar_src_ok(s, 1):
            if not ctx.gfx90a_plus:
                raise _Error("source operand must be either a VGPR or an inline constant", s.span)
            return
        raise _invalid(s, ins)
    mi = opcodes.mfma_info(name, ctx.name)
    if mi is None:
        return
    if mi.format_select:
        cbsz, blgp = ins.modifier("cbsz", 0), ins.modifier("blgp", 0)
        if isinstance(cbsz, int) and isinstance(blgp, int) and 0 <= cbsz <= 4 and 0 <= blgp <= 4:
            mi = mi.with_formats(cbsz, blgp)
        info = opcodes._mfma_row(name, mi)
    specs = info.operands
    _count(ins, ops, len(specs), len(specs))
    d = ops[0]
    acc = ops[0] if mi.sparse else ops[3]
    for v, spec in zip(ops, specs):
        role = spec.role
        if role in ("vdst", "src0", "src1") or (role == "src2" and v.kind in ("v", "a")):
            if v.kind not in ("v", "a") or v.count != spec.width or not _vgpr_aligned(v, ctx):
                raise _invalid(v, ins)
            if role == "src2" and v.kind != d.kind:
                raise _invalid(v, ins)
        elif role == "src2":
            if v.kind in ("srcreg", "aperture") or v.kind == "const" and _const_ok(v, spec.type, False):
                continue
            raise _invalid(v, ins)
        elif role == "idx":
            if v.kind != "v" or v.count != 1:
                raise _invalid(v, ins)
        elif role.startswith("scale_src"):  # llvm-mc 22: one VGPR, no SGPR/AGPR/constant
            if v.kind == "v" and v.count == 1:
                continue
            raise _invalid(v, ins)
    if not ctx.gfx90a_plus:
        if d.kind != "a":
            raise _Error("operands are not valid for this GPU or mode", ins.mnemonic_span)
        if acc.kind == "const":
            raise _Error("inline constants are not allowed for this operand", acc.span)
    if mi.cd_regs > 4 and acc.kind == d.kind and acc.kind in ("v", "a") and not (mi.sparse or mi.scaled or
                                                                                 mi.format_select):
        lo1, hi1 = d.index, d.index + d.count - 1
        lo2, hi2 = acc.index, acc.index + acc.count - 1
        if (lo1, hi1) != (lo2, hi2) and lo1 <= hi2 and lo2 <= hi1:
            raise _Error("source 2 operand must not partially overlap with dst", acc.span)


# ------------------------------------------------------------------ DS

def _check_data_files(ins: Instruction, data: list[_V], ctx: _Ctx) -> None:
    """VMEM/DS data registers: all VGPRs or (gfx90a+) all AGPRs."""
    files = {v.kind for v in data}
    if files == {"a"} and not ctx.gfx90a_plus:
        if len(data) == 1:
            raise _invalid(data[0], ins)
        raise _Error("operands are not valid for this GPU or mode", ins.mnemonic_span)
    if len(files) > 1:
        first = data[0].kind
        raise _invalid(next(v for v in data if v.kind != first), ins)


def _check_ds(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> None:
    specs = info.operands
    _count(ins, ops, len(specs), len(specs))
    data = []
    for v, spec in zip(ops, specs):
        if v.modified:
            raise _invalid(v, ins, "not a valid operand.")
        if spec.role == "addr":
            if v.kind != "v" or v.count != 1:
                raise _invalid(v, ins)
            continue
        if v.kind not in ("v", "a") or v.count != spec.width or \
                not _vgpr_aligned(v, ctx) and info.mnemonic not in _DS_UNALIGNED:
            raise _invalid(v, ins)
        data.append(v)
    _check_data_files(ins, data, ctx)


# gfx950's 96-bit transpose load takes any VGPR/AGPR triple, aligned or not (llvm-mc 22 accepts
# `ds_read_b96_tr_b6 v[1:3], v0`; LLVM's MC test gfx950_asm_read_tr.s encodes it), unlike the b64 forms
_DS_UNALIGNED = frozenset({"ds_read_b96_tr_b6"})


# ------------------------------------------------------------------ FLAT / GLOBAL

_NO_RTN_GFX908 = frozenset({"global_atomic_add_f32", "global_atomic_pk_add_f16", "flat_atomic_add_f32",
                            "flat_atomic_pk_add_f16"})


def _check_flat(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> None:
    specs = list(info.operands)
    atomic = info.has("atomic")
    glc = "sc0" if ctx.gfx94 else "glc"
    rtn = False
    if atomic:
        if len(ops) == len(specs):
            rtn = True
        elif len(ops) == len(specs) - 1:
            specs = specs[1:]
        elif len(ops) < len(specs) - 1:
            raise _too_few(ins)
        else:
            raise _invalid(ops[len(specs)], ins)
        if rtn and not ctx.gfx90a_plus and info.mnemonic in _NO_RTN_GFX908:
            raise _invalid(ops[-1], ins)
    else:
        _lds_form_mismatch(ins, info, ops, ctx)
        if len(ops) > len(specs):
            raise _invalid(ops[len(specs)], ins)
    saddr = next((v for v, sp in zip(ops, specs) if sp.role == "saddr"), None)
    data = []
    for v, spec in zip(ops, specs):
        if v.modified:
            raise _invalid(v, ins, "not a valid operand.")
        role = spec.role
        if role == "saddr":
            if v.kind == "off" or v.kind == "s" and v.count == 2 and (v.name != "exec" or info.has("lds-dma")):
                continue
            raise _invalid(v, ins)
        if role == "vaddr":
            want = 1 if (saddr is not None and saddr.kind == "s") else 2
            if v.kind != "v" or v.count != want or not _vgpr_aligned(v, ctx):
                if v.kind == "v" and v.count in (1, 2) and _vgpr_aligned(v, ctx) and saddr is not None:
                    # a well-formed address of the other form: llvm-mc blames the saddr (`v2, off`,
                    # `v[2:3], s[4:5]`)
                    raise _invalid(saddr, ins)
                raise _invalid(v, ins)
            continue
        if v.kind not in ("v", "a") or v.count != spec.width or not _vgpr_aligned(v, ctx):
            raise _invalid(v, ins)
        data.append(v)
    if len(ops) < len(specs):  # every operand written fits: llvm-mc then says what is missing
        raise _too_few(ins)
    _check_data_files(ins, data, ctx)
    if atomic:
        if rtn and not ins.has(glc):
            raise _Error(f"instruction must use {glc}", ins.mnemonic_span)
        if not rtn and ins.has(glc):
            raise _Error(f"instruction must not use {glc}", next(m for m in ins.modifiers if m.name == glc).span)


def _lds_form_mismatch(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> None:
    """llvm-mc's message for a global load to a VGPR whose first operand is a 64-bit address.

    llvm-mc reports the candidate form that matched the most operands. For the loads with a form
    to LDS (vaddr, saddr, `lds`: gfx908/gfx90a; gfx94x keeps a form of that spelling with the
    address first) a leading VGPR pair is that form's address, so `global_load_dword v[2:3], off`
    is "too few operands" on gfx90a (the `lds` is missing) and "invalid operand" at `off` on gfx94x."""
    if info.encoding != "GLOBAL" or info.mnemonic not in opcodes.FLAT_LDS_LOADS or info.variant or not ops:
        return
    first = ops[0]
    if len(ops) == 2 and first.kind == "v" and first.count == 1 and not first.modified and \
            ops[1].kind == "s" and ops[1].count == 2 and ops[1].name != "exec":
        raise _too_few(ins)  # `v2, s[4:5]`: the address and SGPR base of the LDS form, `lds` missing
    if first.kind != "v" or first.count != 2 or first.modified or not _vgpr_aligned(first, ctx):
        return
    if len(ops) == 1:
        raise _too_few(ins)
    if ctx.gfx94:
        if len(ops) == 2 and ops[1].kind == "off" and ins.modifiers and ins.modifiers[0].name == "offset":
            raise _Error("not a valid operand.", ins.modifiers[0].span)  # (llvm-mc 22 then blames the offset)
        raise _invalid(ops[1], ins)
    if ops[1].kind != "off":  # (a 64-bit address goes with `off`; an SGPR base takes a 32-bit offset)
        raise _invalid(ops[1], ins)
    if len(ops) > 2:
        raise _invalid(ops[2], ins)
    raise _too_few(ins)


# ------------------------------------------------------------------ SCRATCH

def _scratch_scc_saddr(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx):
    """`scratch_load_dword v0, v1, scc` on gfx942+ (where `scc` is no cache-policy name) and `scratch_store_dword
    off, v1, scc` on any target: llvm-mc reads the SCC register as saddr. The parser made it a modifier; give it
    back as an operand when one is missing."""
    if not ins.modifiers or ins.modifiers[0].name != "scc" or len(ops) != len(info.operands) - 1:
        return ins, ops
    reg = Special("scc", ins.modifiers[0].span)
    ins2 = Instruction(ins.mnemonic, ins.operands + (reg,), ins.modifiers[1:], ins.span, ins.mnemonic_span, ins.index)
    return ins2, ops + [_normalize(reg, ctx)]


def _scratch_saddr_ok(v: _V) -> bool:
    """llvm-mc's SReg_32_XEXEC_HI: one SGPR, ttmp, vcc_lo/hi, m0, exec_lo, flat_scratch_lo/hi, xnack_mask_lo/hi,
    and the 32-bit status sources but lds_direct."""
    if v.kind == "s":
        return v.count == 1 and v.name != "exec_hi"
    return v.kind == "srcreg" and v.name != "src_lds_direct"


def _check_scratch(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> None:
    """`vdst, vaddr|off, saddr|off` (stores `vaddr|off, vdata, saddr|off`, LDS DMA `vaddr|off, saddr|off`).
    As llvm-mc: operands in order, then extra/missing ones, then the addressing mode (a VGPR and an SGPR
    address, or none, need gfx942+), then the offset range."""
    specs = info.operands
    vaddr = saddr = None
    for v, spec in zip(ops, specs):
        if v.modified:
            raise _invalid(v, ins, "not a valid operand.")
        role = spec.role
        if role == "vaddr":
            if not (v.kind == "off" or v.kind == "v" and v.count == 1):
                raise _invalid(v, ins)
            vaddr = v
        elif role == "saddr":
            if not (v.kind == "off" or _scratch_saddr_ok(v)):
                raise _invalid(v, ins)
            saddr = v
        else:
            if v.kind not in ("v", "a") or v.count != spec.width or not _vgpr_aligned(v, ctx):
                raise _invalid(v, ins)
            _check_data_files(ins, [v], ctx)
    # extra or missing operands (messages as measured with llvm-mc 22)
    valued = next((m for m in ins.modifiers if m.value is not None), None)
    if len(ops) > len(specs):
        if valued is not None:
            raise _Error("not a valid operand.", valued.span)
        raise _invalid(ops[len(specs)], ins)
    if len(ops) < len(specs):
        if ins.modifiers and not any(v.kind == "off" for v in ops):
            m = ins.modifiers[0]  # llvm-mc matches it against the missing operand
            plain = m.value is None or (not ctx.gfx94 and info.mnemonic == "scratch_load_dword"
                                        and specs[len(ops)].role == "saddr")
            raise _Error("invalid operand for instruction" if plain else "not a valid operand.", m.span)
        raise _too_few(ins)
    if (vaddr.kind == "off") == (saddr.kind == "off") and not ctx.gfx94:
        raise _Error("operands are not valid for this GPU or mode", ins.mnemonic_span)
    for m in ins.modifiers:
        if m.name == "offset":
            v = _mod_int(m, ctx)
            lo, hi = ctx.limits.get("global.offset", (-4096, 4095))
            if v is not None and not lo <= v <= hi:
                raise _Error("expected a 13-bit signed offset", m.span)


# ------------------------------------------------------------------ MUBUF

_LDS_WIDE = frozenset({"buffer_load_dwordx3", "buffer_load_dwordx4"})


def _mubuf_scc_soffset(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx):
    """`buffer_store_dword v1, v0, s[4:7], scc offen`: llvm-mc reads `scc` as the SCC register
    (soffset) when the operand list needs it, except for loads on gfx908/gfx90a, where `scc`
    is the cache-policy bit. The parser made it a modifier; give it back as an operand."""
    if not ins.modifiers or ins.modifiers[0].name != "scc":
        return ins, ops
    n_specs = len(info.operands) - (1 if ins.has("lds") else 0)
    if len(ops) != n_specs - 1 or (info.mnemonic.startswith("buffer_load") and not ctx.gfx94):
        return ins, ops
    m = ins.modifiers[0]
    reg = Special("scc", m.span)
    ins2 = Instruction(ins.mnemonic, ins.operands + (reg,), ins.modifiers[1:], ins.span, ins.mnemonic_span, ins.index)
    return ins2, ops + [_normalize(reg, ctx)]


# buffer float atomics that return the old value only from gfx90a on: on gfx908 llvm-mc 22 matches the
# operands against the gfx90a form and refuses the target (its MC test gfx90a_asm_features.s)
_NO_RTN_MUBUF_GFX908 = frozenset({"buffer_atomic_add_f32", "buffer_atomic_pk_add_f16"})


def _check_mubuf(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> None:
    specs = list(info.operands)
    if info.variant == "rtn" and not ctx.gfx90a_plus and info.mnemonic in _NO_RTN_MUBUF_GFX908:
        _mubuf_operands(ins, specs, ops, ctx)
        raise _Error("operands are not valid for this GPU or mode", ins.mnemonic_span)
    if ins.has("lds"):
        if info.mnemonic in _LDS_WIDE and ctx.name != "gfx950":
            raise _Error("invalid operand for instruction", next(m for m in ins.modifiers if m.name == "lds").span)
        try:
            _mubuf_operands(ins, [sp for sp in specs if sp.role != "vdata"], ops, ctx)
        except _Error:
            # not the LDS form: llvm-mc reports the operands against the form with vdata, and
            # when they fit that one, blames `lds` (`buffer_load_dword v1, v2, s[8:11], 0 offen lds`)
            plain = Instruction(ins.mnemonic, ins.operands, tuple(m for m in ins.modifiers if m.name != "lds"),
                                ins.span, ins.mnemonic_span, ins.index)
            row = opcodes.row_for(plain, ctx.name)
            if row is None or row.encoding != "MUBUF" or not any(sp.role == "vdata" for sp in row.operands):
                raise
            _mubuf_operands(ins, list(row.operands), ops, ctx)
            raise _Error("invalid operand for instruction",
                         next(m for m in ins.modifiers if m.name == "lds").span) from None
        return
    _mubuf_operands(ins, specs, ops, ctx)


def _mubuf_tfe(ins: Instruction, info: OpInfo, ops: list[_V], ctx: _Ctx) -> OpInfo:
    """`tfe` on a buffer load: one more data VGPR (the fault status), on gfx908 only (llvm-mc 22).

    A load written with that extra VGPR gets a row with it and `tfe` allowed. A store with it is
    "TFE modifier has no meaning for store instructions"; without the extra VGPR `tfe` is the invalid
    operand. gfx90a+ has no tfe: where the data is the wider tuple, llvm-mc blames the data."""
    tfe = next(m for m in ins.modifiers if m.name == "tfe")
    k = next((i for i, sp in enumerate(info.operands) if sp.role == "vdata"), None)
    if k is None or k >= len(ops) or info.has("atomic") or info.variant:
        return info
    v, w = ops[k], info.operands[k].width
    wide = v.kind in ("v", "a") and v.count == w + 1 and _vgpr_aligned(v, ctx)
    if ctx.gfx90a_plus:
        if v.kind in ("v", "a") and v.count != w:  # the data of a tfe form: llvm-mc blames it before tfe
            raise _invalid(v, ins)
        return info
    if not wide:
        raise _Error("invalid operand for instruction", tfe.span)
    if info.has("store"):
        raise _Error("TFE modifier has no meaning for store instructions", tfe.span)
    operands = list(info.operands)
    operands[k] = OperandSpec(operands[k].role, "v", w + 1, True)  # (gfx908 loads no AGPR)
    return OpInfo(info.mnemonic, info.encoding, info.pipe, tuple(operands), info.modifiers | {"tfe"},
                  info.counters, info.flags)


def _mubuf_operands(ins: Instruction, specs: list, ops: list[_V], ctx: _Ctx) -> None:
    offen, idxen = ins.has("offen"), ins.has("idxen")
    _count(ins, ops, len(specs), len(specs))
    for v, spec in zip(ops, specs):
        if v.modified:
            raise _invalid(v, ins, "not a valid operand.")
        role = spec.role
        if role == "vdata":
            if v.kind not in ("v", "a") or v.count != spec.width or not _vgpr_aligned(v, ctx):
                raise _invalid(v, ins)
            _check_data_files(ins, [v], ctx)
        elif role == "vaddr":
            if v.kind == "off":
                if offen or idxen:
                    raise _Error("invalid operand for instruction",
                                 next(m for m in ins.modifiers if m.name in ("offen", "idxen")).span)
                continue
            if not (offen or idxen):
                raise _too_few(ins)
            if v.kind != "v" or v.count != (2 if offen and idxen else 1) or not _vgpr_aligned(v, ctx):
                raise _invalid(v, ins)
        elif role == "srsrc":
            if v.kind != "s" or v.count != 4 or v.name not in ("", "ttmp"):
                raise _invalid(v, ins)
        elif role == "soffset":
            if v.kind in _SCALAR_KINDS:
                if not _scalar_src_ok(v, 1):
                    raise _invalid(v, ins)
            elif not _const_ok(v, "b32", False):
                raise _invalid(v, ins)
