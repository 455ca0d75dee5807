"""Issue plans: the most frequent simple instructions executed without a Ctx.

Why: an issue through the general path makes a Ctx, calls the semantic function, which
reads each operand and writes its result through Ctx methods (about a dozen Python calls
around a few numpy calls). For an instruction such as `v_add_u32 v2, v2, v1` or
`s_add_u32 s4, s4, 1` the operand shapes are known once the instruction is parsed, so the
engine compiles, at its first issue, one closure per static instruction that reads the
sources, applies the lane function and returns the register writes. The closures take the
wave state as an argument, so every engine running the same kernel with the same launch facts
shares them (`shared_plans`: the workgroups of a grid run). An instruction without a plan,
or whose plan declines an issue, runs through the general path; the engine counts those
issues (`Engine.plan_stats`, `benchmarks/bench_engine.py --plans`).

A plan is never a second copy of the semantics: it applies the lane function the
semantic function itself applies (the tables in `semantics`: VECTOR_LANE_OPS,
VECTOR_F32_OPS, SCALAR_OPS, SCC_BRANCHES, and the compares' vcmp.COMPARE_OPS and
salu.SCALAR_COMPARES; memory plans build the semantic function's memory operation from its
own helpers), and it mirrors only the fast paths of `Ctx.src`,
`Ctx.dst_as_src`, `Ctx.scalar_value`, `Ctx.write_v`, `Ctx.out_f32`, `Ctx.write_s` and
`Ctx.write_scc` (same values, same read order, same RegWrite). Float plans apply MODE's
denormal rule through the same `fp.denorm_in`/`fp.denorm_out` calls as `Ctx.src` and
`Ctx.finish`; every other float rule (rounding, NaN payloads) is inside the table's
function. Whatever those fast paths do not cover is not planned, and a plan returns None
(the engine then takes the general path, with no effect done) when a source was never
written: the general path owns the "uninitialised read" notes.

A plan is `plan(wave_state) -> (writes, reads, branch_to) | None`; a plan of a memory
instruction returns `(writes, reads, branch_to, memops, bank_conflicts)`: the operations the
semantic function would `Ctx.defer` and the conflict cycles it would set on the Ctx.
"""
from __future__ import annotations

import weakref
from typing import Callable

import numpy as np

from ..asm.program import FloatImm, Imm, Instruction, Reg, Special, Symbol
from . import fp
from .context import (_ALL_INIT, _ALL_LANES, _CONST_ROWS, _F32_DT, _HWREGS, _SCC_VALUES, _U32_DT, M32, U32, Ctx,
                      RegWrite, _static_facts, constant_bits)
from .semantics import (SCALAR_OPS, SCC_BRANCHES, SEMANTICS, VECTOR_F32_OPS, VECTOR_LANE_OPS,
                        VECTOR_READ_ORDER)
from .state import SPECIAL_SLOTS, WAVE

Plan = Callable[[object], "tuple[list, list, int | None] | None"]

# Plans compiled for a kernel, shared by every engine that runs it with the same facts: id(kernel)
# -> {(VGPR count, MODE, target, LDS bytes) -> {pc: (instruction, semantic function, plan)}}.
# Why: a timed grid run makes one engine per workgroup of the same Kernel; a plan depends only
# on the instruction, its semantic function and these facts (it takes the wave state as its
# argument), so each workgroup after the first starts with its plans compiled.
_SHARED: dict[int, dict] = {}


def shared_plans(kernel, facts: tuple) -> dict:
    """The plan cache of `kernel` for launch `facts` (see _SHARED); dropped with the kernel. An
    entry stands for the instruction and semantic function it was compiled from: the engine
    uses it only when both are the ones it would compile now (a kernel edited in place, or a
    semantic function replaced, compiles afresh)."""
    key = id(kernel)
    per_kernel = _SHARED.get(key)
    if per_kernel is None:
        per_kernel = _SHARED[key] = {}
        weakref.finalize(kernel, _SHARED.pop, key, None)
    return per_kernel.setdefault(facts, {})
_VECTOR_KINDS = frozenset({"u32", "b32"})  # source kinds read as the raw row (Ctx.src's fast path)


def make_plan(ins: Instruction, sem: Callable | None, nvgpr: int, labels: dict,
              mode: fp.FloatMode = fp.DEFAULT_MODE, target: str | None = None,
              lds_size: int | None = None) -> Plan | None:
    """The plan of `ins`, or None when the general path must execute it (see the module doc).
    `sem` is the semantic function the engine would call: a plan stands only for the
    registered function of the table entry (a replaced one is executed as it is). `mode` is
    the launch's MODE (the Ctx's default); a wave whose MODE s_setreg changed takes the
    general path for float instructions. `target` (the Ctx's) names the MFMA catalog and the
    LDS banks; `lds_size` is the Ctx's LDS size (None: no LDS plans)."""
    if sem is None:
        return None
    if lds_size is not None and target is not None and ins.mnemonic.startswith("ds_read"):
        return _ds_read_plan(ins, sem, nvgpr, lds_size, target)
    if lds_size is not None and target is not None and ins.mnemonic.startswith("ds_write"):
        return _ds_write_plan(ins, sem, nvgpr, lds_size, target)
    if lds_size is not None and target is not None and ins.mnemonic.startswith("global_load_lds_"):
        return _global_lds_dma_plan(ins, sem, nvgpr, lds_size, target)
    if ins.mnemonic.startswith(("global_load_", "global_store_")):
        return _global_plan(ins, sem, nvgpr)
    if ins.mnemonic.startswith("buffer_load_"):
        return _buffer_load_plan(ins, sem, nvgpr)
    if ins.modifiers:
        return None
    if target is not None and ins.mnemonic.startswith("v_mfma_"):
        return _mfma_plan(ins, sem, nvgpr, target)
    base = table_base(ins, sem)
    if base is None:
        return None
    ops = ins.operands
    if base in VECTOR_LANE_OPS:
        kinds, fn = VECTOR_LANE_OPS[base]
        return _vector_plan(ops, kinds, fn, nvgpr, VECTOR_READ_ORDER.get(base))
    if base in VECTOR_F32_OPS:
        nsrc, accumulates, fn = VECTOR_F32_OPS[base]
        return _f32_plan(ops, nsrc, accumulates, fn, nvgpr, mode)
    if base in SCALAR_OPS:
        nsrc, reads_scc, fn = SCALAR_OPS[base]
        return _scalar_plan(ops, nsrc, reads_scc, fn)
    if base in SCC_BRANCHES:
        return _scc_branch_plan(ops, SCC_BRANCHES[base], labels)
    if base in _REGISTER_MOVES:
        return _register_move_plan(ops, nvgpr)
    if base == "s_mov_b64":
        return _scalar_mov64_plan(ops)
    if base == "s_branch":
        return _branch_plan(ops, labels)
    if base == "v_cvt_f16_f32":
        return _cvt_f16_f32_plan(ops, nvgpr, mode)
    from .semantics.salu import SCALAR_COMPARES
    from .semantics.vcmp import COMPARE_OPS
    if base in SCALAR_COMPARES:
        return _scalar_compare_plan(ops, *SCALAR_COMPARES[base])
    if base in COMPARE_OPS:
        return _vector_compare_plan(ops, *COMPARE_OPS[base], nvgpr)
    return None


# v_accvgpr_read/write/mov: `ctx.write_v(0, ctx.src(1, "b32"))` (semantics.lanes), a raw 32-bit
# row from one register file to the other under EXEC
_REGISTER_MOVES = frozenset({"v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_accvgpr_mov_b32"})


def table_base(ins: Instruction, sem: Callable) -> str | None:
    """The base mnemonic whose table entry (VECTOR_LANE_OPS, SCALAR_OPS...) `ins` may be planned
    from, or None: SDWA/DPP forms and semantic functions replaced after registration take the
    general path. Shared by the timed engine's plans and the functional engine's group plans."""
    base, _suffix, is_sdwa, is_dpp, _n_dst, _packed = _static_facts(ins.mnemonic)
    if is_sdwa or is_dpp or SEMANTICS.get(base) is not sem:
        return None
    return base


def is_reg(operand, file: str) -> bool:
    """`operand` is one 32-bit register of `file` ("v", "s")."""
    return type(operand) is Reg and operand.file == file and operand.count == 1


# ---------------------------------------------------------------- VALU: D.v = fn(sources) under EXEC
def _vector_source(operand, kind: str, nvgpr: int) -> Callable | None:
    """A reader `read(state, reads) -> uint32[64] | None` of one 32-bit integer source (Ctx.src: a
    VGPR row, an SGPR or an integer constant broadcast); None from it: never written. The row is
    the register itself, not a copy (see _row_reader's `view`): the table's lane functions make
    a new array and _row_write copies what they return."""
    if kind not in _VECTOR_KINDS:
        return None
    return _row_reader(operand, nvgpr, float_constants=False, view=True)


def _row_reader(operand, nvgpr: int, float_constants: bool, agprs: bool = False,
                view: bool = False) -> Callable | None:
    """A reader `read(state, reads) -> uint32[64] | None` of the 32 raw bits of one source, as
    Ctx.src reads them before typing: a VGPR row copied, an SGPR or an integer constant
    broadcast, and with `float_constants` a float constant as an f32 operand sees it
    (constant_bits), with `agprs` an AGPR row too; None from the reader: a register never written.

    `view`: a register row is returned as the register file's own row and a constant as a shared
    read-only row, not copies. Only for a plan that uses the row before anything can write the
    register and whose result `_row_write` copies (a lane function returning its input, v_mov's,
    hands back the view). Why: the copy was one of the few numpy calls of a planned VALU issue."""
    if float_constants and type(operand) is FloatImm:
        value, how = constant_bits(operand, "f32")
        if how not in ("inline", "literal"):
            return None
        frow = np.full(WAVE, value & M32, dtype=U32)
        frow.flags.writeable = False

        def read_float_const(st, reads):
            return frow.copy()
        return read_float_const
    if is_reg(operand, "v") and operand.index < nvgpr:
        index = operand.index
        key = ("v", index)

        if view:
            def read_vgpr_row(st, reads):
                if st.vgpr_init[index].tobytes() != _ALL_INIT:
                    return None
                reads.append(key)
                return st.vgpr[index]
            return read_vgpr_row

        def read_vgpr(st, reads):
            if st.vgpr_init[index].tobytes() != _ALL_INIT:
                return None
            reads.append(key)
            return st.vgpr[index].copy()
        return read_vgpr
    if agprs and is_reg(operand, "a") and operand.index < nvgpr:  # (Ctx._raw_lanes: the same read of the AGPR file)
        aindex = operand.index
        akey = ("a", aindex)

        def read_agpr(st, reads):
            if st.agpr_init[aindex].tobytes() != _ALL_INIT:
                return None
            reads.append(akey)
            row = st.agpr[aindex]
            return row if view else row.copy()
        return read_agpr
    if is_reg(operand, "s"):
        slot = operand.index
        key = ("s", slot)

        def read_sgpr(st, reads):
            if not st.sgpr_init.item(slot):
                return None
            reads.append(key)
            return np.full(WAVE, st.sgpr.item(slot), dtype=_U32_DT)
        return read_sgpr
    if type(operand) is Imm:
        value = operand.value & M32
        row = _CONST_ROWS.get(value)
        if row is None:
            row = np.full(WAVE, value, dtype=U32)
            row.flags.writeable = False
        if view:
            def read_shared_const(st, reads):
                return row
            return read_shared_const

        def read_const(st, reads):
            return row.copy()
        return read_const
    return None


def _vector_plan(ops: tuple, kinds: tuple, fn: Callable, nvgpr: int, order: tuple | None = None) -> Plan | None:
    if len(ops) != 1 + len(kinds) or not is_reg(ops[0], "v") or ops[0].index + 1 > nvgpr:
        return None
    readers = [_vector_source(op, kind, nvgpr) for op, kind in zip(ops[1:], kinds)]
    if any(r is None for r in readers):
        return None
    dst = ops[0].index

    def finish(st, values, reads):
        """Ctx.write_v's one-row fast path."""
        if type(values) is not np.ndarray or values.dtype is not _U32_DT or values.ndim != 1:
            return None
        return [_row_write(st, dst, values, reads)], reads, None

    if order is not None:  # the semantic function reads the sources in this order (VECTOR_READ_ORDER)
        ordered = [(pos, readers[pos]) for pos in order]
        count = len(readers)

        def plan_ordered(st):
            reads = []
            srcs = [None] * count
            for pos, r in ordered:
                x = r(st, reads)
                if x is None:
                    return None
                srcs[pos] = x
            return finish(st, fn(*srcs), reads)
        return plan_ordered

    if len(readers) == 1:
        (r0,) = readers

        def plan1(st):
            reads = []
            a = r0(st, reads)
            if a is None:
                return None
            return finish(st, fn(a), reads)
        return plan1
    if len(readers) == 2:
        r0, r1 = readers

        def plan2(st):
            reads = []
            a = r0(st, reads)
            if a is None:
                return None
            b = r1(st, reads)
            if b is None:
                return None
            return finish(st, fn(a, b), reads)
        return plan2

    def plan_n(st):
        reads = []
        srcs = []
        for r in readers:
            x = r(st, reads)
            if x is None:
                return None
            srcs.append(x)
        return finish(st, fn(*srcs), reads)
    return plan_n


_EXEC_READS = (("s", 126), ("s", 127))


def _row_write(st, dst: int, row: np.ndarray, reads: list, file: str = "v") -> RegWrite:
    """The RegWrite of one uint32 row to v[dst] (or a[dst]) under EXEC, reading EXEC (Ctx.write_v:
    the values copied; every lane on shares the read-only all-lanes mask and skips the merge).

    A row that owns its memory (`base` None: a lane function's new array, an SGPR broadcast, or
    a shared read-only constant row) is taken as it is, viewed as (1, 64); a view (a register's
    own row, handed back by v_mov's identity) is copied. Nothing writes into a RegWrite's values
    once made. Why: the copy was a numpy call per planned VALU issue (~1 us measured)."""
    reads += _EXEC_READS
    values = row[None] if row.base is None else np.array(row, ndmin=2)
    sgpr = st.sgpr
    if sgpr.item(126) == M32 and sgpr.item(127) == M32:
        wr = RegWrite(file, dst, values, _ALL_LANES)
        wr.full = True
        return wr
    return RegWrite(file, dst, values, st.exec_mask)


def _register_move_plan(ops: tuple, nvgpr: int) -> Plan | None:
    """D = S0 for the VGPR/AGPR moves (_REGISTER_MOVES): the source read as Ctx.src(1, "b32")
    reads it (a register row, an SGPR or an integer constant broadcast), written by Ctx.write_v's
    one-row path to the destination's file."""
    if len(ops) != 2 or type(ops[0]) is not Reg or ops[0].file not in ("v", "a") or ops[0].count != 1 \
            or ops[0].index + 1 > nvgpr:
        return None
    read = _row_reader(ops[1], nvgpr, float_constants=False, agprs=True, view=True)
    if read is None:
        return None
    dfile, dst = ops[0].file, ops[0].index

    def plan(st):
        reads = []
        row = read(st, reads)
        if row is None:
            return None
        return [_row_write(st, dst, row, reads, dfile)], reads, None
    return plan


# ---------------------------------------------------------------- VALU f32: D.f32 = fn(sources[, D]) under EXEC
def _f32_plan(ops: tuple, nsrc: int, accumulates: bool, fn: Callable, nvgpr: int, mode: fp.FloatMode) -> Plan | None:
    """The plan of an f32 op of VECTOR_F32_OPS: what its semantic function does through
    `Ctx.src(i, "f32")`, [`Ctx.dst_as_src(0, "f32")`], `fn` and `Ctx.out_f32` (no modifiers:
    no omod, no clamp, so `Ctx.finish` is MODE's output denormal rule alone)."""
    if len(ops) != 1 + nsrc or not is_reg(ops[0], "v") or ops[0].index + 1 > nvgpr:
        return None
    readers = [_row_reader(op, nvgpr, float_constants=True) for op in ops[1:]]
    if accumulates:  # D's old value, read after the sources (Ctx.dst_as_src)
        readers.append(_row_reader(ops[0], nvgpr, float_constants=False))
    if any(r is None for r in readers):
        return None
    dst = ops[0].index
    denorm_in, denorm_out = fp.denorm_in, fp.denorm_out

    def plan(st):
        if _HWREGS:  # s_setreg changed this wave's MODE: the Ctx knows which one
            regs = _HWREGS.get(id(st))
            if regs is not None and 1 in regs:
                return None
        reads = []
        srcs = []
        for r in readers:
            bits = r(st, reads)
            if bits is None:
                return None
            srcs.append(denorm_in(bits.view(_F32_DT), mode))
        with np.errstate(all="ignore"):  # as fp.silent runs the semantic function
            x = denorm_out(np.asarray(fn(*srcs), dtype=_F32_DT), mode)
        return [_row_write(st, dst, x.view(_U32_DT), reads)], reads, None
    return plan


# ---------------------------------------------------------------- v_cvt_f16_f32: D.f16 = S0.f32, high half zeroed
def _cvt_f16_f32_plan(ops: tuple, nvgpr: int, mode: fp.FloatMode) -> Plan | None:
    """`v_cvt_f16_f32` (semantics.valu_cvt) without modifiers: the source read as Ctx.src(1, "f32")
    reads it (MODE's f32 input denormals), `fp.f32_to_f16_bits`, then what Ctx.out_f16 and
    write_v16 do with no omod, clamp or op_sel: MODE's f16 output denormals, the 16 bits in the
    low half and the high half zeroed (gfx9), written under EXEC.

    Why: compiled fp16 kernels convert their f32 accumulators with it before storing (32 of the
    MIOpen iGEMM workgroup's general-path issues)."""
    if len(ops) != 2 or not is_reg(ops[0], "v") or ops[0].index + 1 > nvgpr:
        return None
    read = _row_reader(ops[1], nvgpr, float_constants=True)
    if read is None:
        return None
    dst = ops[0].index
    denorm_in, denorm_out, to_f16 = fp.denorm_in, fp.denorm_out, fp.f32_to_f16_bits

    def plan(st):
        if _HWREGS:  # s_setreg changed this wave's MODE: the Ctx knows which one
            regs = _HWREGS.get(id(st))
            if regs is not None and 1 in regs:
                return None
        reads = []
        bits = read(st, reads)
        if bits is None:
            return None
        with np.errstate(all="ignore"):  # as fp.silent runs the semantic function
            half = denorm_out(to_f16(denorm_in(bits.view(_F32_DT), mode)).view(np.float16), mode)
        row = np.asarray(half).view(np.uint16).astype(U32) & U32(0xFFFF)
        return [_row_write(st, dst, row, reads)], reads, None
    return plan


# ---------------------------------------------------------------- SALU: (D.s, SCC) = fn(sources, SCC)
def _special_slot(operand) -> int | None:
    """The first SGPR slot of a special scalar register (m0, vcc_lo, exec_hi, vcc...), the one a
    32-bit read or write of it uses (Ctx.scalar_value and Ctx.write_s: `min(count, width)` slots)."""
    if type(operand) is Special:
        slots = SPECIAL_SLOTS.get(operand.name)
        if slots is not None:
            return slots[0]
    return None


def _scalar_source(operand) -> Callable | None:
    """A reader `read(state, reads) -> int | None` of one 32-bit scalar source (Ctx.scalar_value)."""
    special = _special_slot(operand)
    if is_reg(operand, "s") or special is not None:
        slot = operand.index if special is None else special
        key = ("s", slot)

        def read_sgpr(st, reads):
            if not st.sgpr_init.item(slot):
                return None
            reads.append(key)
            return st.sgpr.item(slot) & M32
        return read_sgpr
    if type(operand) is Imm:
        value = operand.value & M32

        def read_const(st, reads):
            return value
        return read_const
    return None


def _scalar_plan(ops: tuple, nsrc: int, reads_scc: bool, fn: Callable) -> Plan | None:
    special = _special_slot(ops[0]) if ops else None
    if len(ops) != 1 + nsrc or not (is_reg(ops[0], "s") or special is not None):
        return None
    readers = [_scalar_source(op) for op in ops[1:]]
    if any(r is None for r in readers):
        return None
    dst = ops[0].index if special is None else special

    def plan(st):
        reads = []
        srcs = []
        for r in readers:
            x = r(st, reads)
            if x is None:
                return None
            srcs.append(x)
        if reads_scc:
            reads.append(("scc", 0))
            scc = st.scc
        else:
            scc = 0
        result, new_scc = fn(*srcs, scc)
        vals = np.empty(1, dtype=_U32_DT)  # Ctx.write_s's one-SGPR fast path
        vals[0] = result & M32
        writes = [RegWrite("s", dst, vals)]
        if new_scc is not None:
            writes.append(_SCC_WRITES[1 if new_scc else 0])
        return writes, reads, None
    return plan


# Ctx.write_scc's two possible RegWrites, shared by every scalar plan: nothing changes a
# RegWrite once made (measured: building one was ~0.45 us of an s_add_u32 issue)
_SCC_WRITES = (RegWrite("scc", 0, _SCC_VALUES[0]), RegWrite("scc", 0, _SCC_VALUES[1]))


# ---------------------------------------------------------------- s_cmp_*: SCC = rel(S0, S1)
def _scalar_compare_plan(ops: tuple, rel: Callable, signed: bool) -> Plan | None:
    """The 32-bit `s_cmp_*` (semantics.salu `_make_cmp`): both sources read as Ctx.s_read reads
    them, sign-extended for the _i32 forms, SCC written with the relation's truth."""
    from .semantics.salu import sext
    if len(ops) != 2:
        return None
    r0, r1 = _scalar_source(ops[0]), _scalar_source(ops[1])
    if r0 is None or r1 is None:
        return None

    def plan(st):
        reads = []
        a = r0(st, reads)
        if a is None:
            return None
        b = r1(st, reads)
        if b is None:
            return None
        if signed:
            a, b = sext(a, 32), sext(b, 32)
        return [_SCC_WRITES[1 if rel(a, b) else 0]], reads, None
    return plan


# ---------------------------------------------------------------- v_cmp_*/v_cmpx_* of 32-bit integers
def _vector_compare_plan(ops: tuple, kind: str, rel: Callable, to_exec: bool, nvgpr: int) -> Plan | None:
    """A 32-bit integer compare (semantics.vcmp `_make_cmp`): both sources read as Ctx.src reads
    them, the relation's lanes under EXEC (EXEC read after the sources) as a 64-bit mask to the
    destination pair (vcc or an SGPR pair), and for v_cmpx to EXEC as well. Other kinds, and a
    one-SGPR destination (the wave32-style low half), take the general path."""
    if kind not in ("u32", "i32") or len(ops) != 3:
        return None
    dst = _pair_slot(ops[0])
    if dst is None:
        return None
    readers = [_row_reader(op, nvgpr, float_constants=False, view=True) for op in ops[1:]]
    if any(r is None for r in readers):
        return None
    r0, r1 = readers
    signed = kind == "i32"

    def plan(st):
        reads = []
        a = r0(st, reads)
        if a is None:
            return None
        b = r1(st, reads)
        if b is None:
            return None
        if signed:
            a, b = a.view(np.int32), b.view(np.int32)
        reads += _EXEC_READS
        bits = np.asarray(rel(a, b), dtype=bool) & st.exec_mask
        # the mask's 64 bits as (low, high) dwords, as Ctx.write_lane_mask/write_slot store them
        vals = np.packbits(bits, bitorder="little").view("<u4")
        writes = [RegWrite("s", dst, vals)]
        if to_exec:
            writes.append(RegWrite("s", 126, vals))
        return writes, reads, None
    return plan


# ---------------------------------------------------------------- s_mov_b64: D[2] = S0[2]
def _pair_slot(operand) -> int | None:
    """The first slot of a 64-bit scalar operand: an SGPR pair, or a special pair (vcc, exec...)."""
    if type(operand) is Reg and operand.file == "s" and operand.count == 2:
        return operand.index
    if type(operand) is Special:
        slots = SPECIAL_SLOTS.get(operand.name)
        if slots is not None and slots[1] == 2:
            return slots[0]
    return None


def _scalar_mov64_plan(ops: tuple) -> Plan | None:
    """`s_mov_b64` (semantics.salu: `ctx.write_s(0, ctx.s_read(1, 2), 2)`): the source pair read
    low slot first, or a 64-bit constant as Ctx.scalar_value makes it (a literal it would note as
    zero-extended is left to the general path), written as one two-slot RegWrite."""
    if len(ops) != 2:
        return None
    dst = _pair_slot(ops[0])
    if dst is None:
        return None
    src = _pair_slot(ops[1])
    if src is not None:
        keys = (("s", src), ("s", src + 1))

        def plan(st):
            init = st.sgpr_init
            if not (init.item(src) and init.item(src + 1)):
                return None
            vals = st.sgpr[src:src + 2].copy()
            return [RegWrite("s", dst, vals)], list(keys), None
        return plan
    if type(ops[1]) is not Imm:
        return None
    value, how = constant_bits(ops[1], Ctx._kind_for("int", 2))
    if how not in ("inline", "literal"):
        return None
    vals = np.array([value & M32, (value >> 32) & M32], dtype=U32)
    vals.flags.writeable = False  # shared by every issue: nothing changes a RegWrite's values

    def plan_const(st):
        return [RegWrite("s", dst, vals)], [], None
    return plan_const


# ---------------------------------------------------------------- s_branch
def _branch_plan(ops: tuple, labels: dict) -> Plan | None:
    """`s_branch label` (semantics.control): the PC moves to the label, nothing is read."""
    if len(ops) != 1 or not isinstance(ops[0], Symbol) or labels.get(ops[0].name) is None:
        return None  # (a data label: the general path stops the run there)
    target = labels[ops[0].name]

    def plan(st):
        return [], [], target
    return plan


# ---------------------------------------------------------------- s_cbranch_scc0/1
def _scc_branch_plan(ops: tuple, taken: int, labels: dict) -> Plan | None:
    if len(ops) != 1 or not isinstance(ops[0], Symbol) or labels.get(ops[0].name) is None:
        return None  # (a data label: the general path stops the run there)
    target = labels[ops[0].name]

    def plan(st):
        return [], [("scc", 0)], target if st.scc == taken else None
    return plan


# ---------------------------------------------------------------- v_mfma_*: D = A x B + C
def _mfma_plan(ins: Instruction, sem: Callable, nvgpr: int, target: str) -> Plan | None:
    """The plan of a dense MFMA with no modifiers whose numerics mfma_exec has planned: what
    `semantics.mfma.mfma` does (A, B, C register rows read and recorded in that order, D
    written to every lane: MFMAs ignore EXEC), without the Ctx, the catalog lookup and the
    modifier parsing per issue. Register operands only (a constant C takes the general path)."""
    from ..isa import mfma as M
    from . import mfma_exec
    from .semantics import mfma as mfma_sem
    if sem is not mfma_sem.mfma:
        return None
    info = M.lookup(ins.mnemonic, target)
    if info is None or info.sparse or info.scaled or info.format_select:
        return None
    ops = ins.operands
    if len(ops) != 4:
        return None
    counts = (None, info.a_regs, info.b_regs, info.cd_regs)
    for op, n in zip(ops, counts):
        if type(op) is not Reg or op.file not in ("v", "a") or (n is not None and op.count < n) \
                or op.index + (n or op.count) > nvgpr:
            return None
    run = mfma_exec._FAST.get((info, (False, False, False)), False)
    if run is False:
        run = mfma_exec._FAST[(info, (False, False, False))] = mfma_exec._fast_plan(info, (False,) * 3)
    if run is None:
        return None
    dst = ops[0]
    if dst.index + info.cd_regs > nvgpr:
        return None
    srcs = [(op.file == "v", op.index, n, [(op.file, op.index + k) for k in range(n)])
            for op, n in zip(ops[1:], counts[1:])]
    (av, ai, an, ak), (bv, bi, bn, bk), (cv, ci, cn, ck) = srcs
    dfile, dindex = dst.file, dst.index

    def plan(st):
        a = (st.vgpr if av else st.agpr)[ai:ai + an]
        b = (st.vgpr if bv else st.agpr)[bi:bi + bn]
        c = (st.vgpr if cv else st.agpr)[ci:ci + cn]
        d = run(a, b, c)
        if d is None:  # a sum that is not finite: the general path's IEEE fallback
            return None
        wr = RegWrite(dfile, dindex, d, _ALL_LANES)
        wr.full = True  # every lane: the same registers as the masked merge with all lanes on
        return [wr], ak + bk + ck, None
    return plan


# ---------------------------------------------------------------- ds_read_b32/b64/b96/b128 and the extending forms
def _ds_read_plan(ins: Instruction, sem: Callable, nvgpr: int, lds_size: int, target: str) -> Plan | None:
    """The plan of a DS read of one address per lane (`semantics.ds._read`): the same LdsRead
    from the same helpers (EXEC's lanes, `ds_address`, `bank_conflicts`), without the Ctx.

    Why: a DS read issue through the Ctx cost ~28 us (measured), most of it the Ctx and its
    operand plumbing around a few numpy calls; LDS reads are a sixth of an iGEMM workgroup's
    instructions. Planned: a VGPR address, an integer `offset` (or none), no gds, no d16 form.
    The plan returns None, so that the general path runs and owns the note or error, when the
    address VGPR is not initialised in every lane, a lane falls outside the LDS, or an access
    is misaligned."""
    from .alignment import check as check_alignment
    from .banks import bank_conflicts
    from .memops import LdsRead
    from .semantics import ds as ds_sem
    from .semantics.memaddr import ds_address, ds_out_of_range
    form = ds_sem.DS_READS.get(ins.mnemonic)
    if form is None or sem is not ds_sem._read or form.kind.startswith("d16"):
        return None
    offset = 0
    for m in ins.modifiers:
        if m.name != "offset" or type(m.value) is not int:  # gds, a symbolic offset...: the general path
            return None
        offset = m.value
    ops = ins.operands
    if len(ops) != 2 or type(ops[0]) is not Reg or ops[0].file not in ("v", "a") or not is_reg(ops[1], "v") \
            or ops[1].index >= nvgpr:
        return None
    try:
        from ..isa.targets import get_target
        banks = get_target(target).lds_banks
    except (KeyError, AttributeError):  # as semantics.ds._banks
        banks = 32
    dfile, dindex = ops[0].file, ops[0].index
    vindex = ops[1].index
    vkey = ("v", vindex)
    size, dwords, kind = form.size, form.dwords, form.kind
    mnemonic = ins.mnemonic

    def plan(st):
        if st.vgpr_init[vindex].tobytes() != _ALL_INIT:
            return None
        reads = [("s", 126), ("s", 127), vkey]  # EXEC (its lanes), then the address, as _read reads them
        lanes = np.nonzero(st.exec_mask)[0]
        addrs = ds_address(st.vgpr[vindex], offset)[lanes]
        if ds_out_of_range(addrs, size, lds_size).any():
            return None
        pieces = [(addrs, size)]
        conflicts = bank_conflicts(pieces, lanes, False, banks)
        memop = LdsRead(dfile, dindex, dwords, lanes, size, kind, None, pieces=pieces)
        if check_alignment(mnemonic, memop) is not None:
            return None
        return [], reads, None, [memop], conflicts
    return plan


# ---------------------------------------------------------------- global_load_lds_* (LDS DMA)
def _global_lds_dma_plan(ins: Instruction, sem: Callable, nvgpr: int, lds_size: int, target: str) -> Plan | None:
    """The plan of `global_load_lds_* vaddr, s[n:n+1]` (`semantics.vmem._global_load_lds`): the
    same LdsDma from the same helpers (EXEC's lanes, `global_addresses`, `lds_dma_addresses`),
    reading EXEC, the address VGPR, the SGPR pair and M0 in that order, without the Ctx.

    Why: the flagship GEMM streams its tiles with these: a fifth of its instructions. Planned:
    a VGPR offset with an SGPR-pair base, an integer `offset` (or none), no other modifier.
    None, so that the general path runs and owns the note or warning, when a source register
    is not initialised, a lane's LDS destination falls outside the LDS, or an access is
    misaligned."""
    from .alignment import check as check_alignment
    from .memops import LdsDma
    from .semantics import SEMANTICS as registered
    from .semantics import vmem as vmem_sem
    from .semantics.memaddr import global_addresses, lds_dma_addresses
    form = vmem_sem.LDS_DMA_FORMS.get(ins.mnemonic[len("global_load_lds_"):])
    if form is None or registered.get(ins.mnemonic) is not sem:
        return None
    offset = 0
    for m in ins.modifiers:
        if m.name != "offset" or type(m.value) is not int:
            return None
        offset = m.value
    ops = ins.operands
    if len(ops) != 2 or not is_reg(ops[0], "v") or ops[0].index >= nvgpr or type(ops[1]) is not Reg \
            or ops[1].file != "s" or ops[1].count != 2:
        return None
    vindex = ops[0].index
    slot = ops[1].index
    m0 = SPECIAL_SLOTS["m0"][0]
    reads_static = (("v", vindex), ("s", slot), ("s", slot + 1), ("s", m0))  # after EXEC
    size, kind, width = form.size, form.kind, (4 if form.kind != "raw" else form.size)
    origin = vmem_sem._origin(ins)
    mnemonic = ins.mnemonic

    def plan(st):
        init = st.sgpr_init
        if st.vgpr_init[vindex].tobytes() != _ALL_INIT or not (init.item(slot) and init.item(slot + 1)
                                                               and init.item(m0)):
            return None
        sgpr = st.sgpr
        lanes = np.nonzero(st.exec_mask)[0]
        base = sgpr.item(slot) | sgpr.item(slot + 1) << 32
        addrs = global_addresses(st.vgpr[vindex], base, offset)[lanes]
        lds = lds_dma_addresses("global", target, sgpr.item(m0) & M32, offset, size)[lanes]
        if ((lds < 0) | (lds + width > lds_size)).any():  # (semantics.vmem._note_lds_range's test)
            return None
        memop = LdsDma(lanes, addrs, size, lds, kind=kind, origin=origin)
        if check_alignment(mnemonic, memop) is not None:
            return None
        return [], [("s", 126), ("s", 127), *reads_static], None, [memop], 0
    return plan


# ---------------------------------------------------------------- global_load_* / global_store_* with an SGPR base
def _global_plan(ins: Instruction, sem: Callable, nvgpr: int) -> Plan | None:
    """The plan of `global_load_* vdst, vaddr, s[n:n+1]` (not the d16 forms) and `global_store_*
    vaddr, vdata, s[n:n+1]` (`semantics.vmem._flat_or_global_load/_store`): the same GlobalLoad
    or GlobalStore from the same helpers, reading EXEC, the address VGPR, the SGPR pair and (a
    store) the data registers in that order, without the Ctx.

    Why: the memory loops of compiled kernels issue these; through the Ctx each cost several
    times a planned issue. Planned: an integer `offset` (or none), no other modifier. None, so
    that the general path runs and owns the note or warning, when a source register is not
    written in every EXEC lane or an access is misaligned."""
    from .alignment import check as check_alignment
    from .memops import GlobalLoad, GlobalStore, dwords_to_bytes
    from .semantics import SEMANTICS as registered
    from .semantics import vmem as vmem_sem
    from .semantics.memaddr import global_addresses
    if registered.get(ins.mnemonic) is not sem:
        return None
    store = ins.mnemonic.startswith("global_store_")
    if store:
        shape = vmem_sem.STORE_FORMS.get(ins.mnemonic[len("global_store_"):])
        if shape is None:
            return None
        size, shift = shape
        dwords = max(1, (size + 3) // 4)
    else:
        form = vmem_sem.LOAD_FORMS.get(ins.mnemonic[len("global_load_"):])
        if form is None or form.kind.startswith("d16"):
            return None
        size, dwords = form.size, form.dwords
    offset = 0
    for m in ins.modifiers:
        if m.name != "offset" or type(m.value) is not int:
            return None
        offset = m.value
    ops = ins.operands
    if len(ops) != 3 or not is_reg(ops[1 if not store else 0], "v") or type(ops[2]) is not Reg \
            or ops[2].file != "s" or ops[2].count != 2:
        return None
    reg = ops[1] if store else ops[0]  # the data registers (a store's source, a load's destination)
    vaddr = ops[0] if store else ops[1]
    if type(reg) is not Reg or reg.file not in ("v", "a") or reg.index + dwords > nvgpr or vaddr.index >= nvgpr:
        return None
    vindex, slot = vaddr.index, ops[2].index
    rfile, rindex = reg.file, reg.index
    reads_static = (("v", vindex), ("s", slot), ("s", slot + 1))  # after EXEC
    data_reads = tuple((rfile, rindex + k) for k in range(dwords))
    origin = vmem_sem._origin(ins)
    mnemonic = ins.mnemonic
    all_init = _ALL_INIT * dwords

    def addresses(st):
        """(EXEC's lanes, their addresses), or None: a source not written in some EXEC lane (the
        lanes the general path would note; the others are not read)."""
        init = st.sgpr_init
        if not (init.item(slot) and init.item(slot + 1)):
            return None
        lanes = np.nonzero(st.exec_mask)[0]
        row = st.vgpr_init[vindex]
        if row.tobytes() != _ALL_INIT and not row[lanes].all():
            return None
        sgpr = st.sgpr
        base = sgpr.item(slot) | sgpr.item(slot + 1) << 32
        return lanes, global_addresses(st.vgpr[vindex], base, offset)[lanes]

    if store:
        def plan_store(st):
            found = addresses(st)
            if found is None:
                return None
            lanes, addrs = found
            arr, init = (st.vgpr, st.vgpr_init) if rfile == "v" else (st.agpr, st.agpr_init)
            rows = init[rindex:rindex + dwords]
            if rows.tobytes() != all_init and not rows[:, lanes].all():
                return None
            data = arr[rindex:rindex + dwords][:, lanes]  # (vmem._store_bytes: the EXEC lanes' dwords)
            if shift:
                data = data >> U32(shift)
            memop = GlobalStore(lanes, addrs, dwords_to_bytes(data, size), origin=origin)
            if check_alignment(mnemonic, memop) is not None:
                return None
            return [], [*_EXEC_READS, *reads_static, *data_reads], None, [memop], 0
        return plan_store

    kind = form.kind

    def plan_load(st):
        found = addresses(st)
        if found is None:
            return None
        lanes, addrs = found
        memop = GlobalLoad(rfile, rindex, dwords, lanes, size, kind, None, origin, addrs=addrs)
        if check_alignment(mnemonic, memop) is not None:
            return None
        return [], [*_EXEC_READS, *reads_static], None, [memop], 0
    return plan_load


# ---------------------------------------------------------------- ds_write_b8/b16/b32/b64/b96/b128 and the d16_hi forms
def _ds_write_plan(ins: Instruction, sem: Callable, nvgpr: int, lds_size: int, target: str) -> Plan | None:
    """The plan of a DS write of one address per lane (`semantics.ds._write`): the same LdsWrite
    and bank conflicts from the same helpers (EXEC's lanes, `ds_address`, the EXEC lanes' data
    as `dwords_to_bytes` packs it, `bank_conflicts`), reading EXEC, the address VGPR and the data
    registers in that order, without the Ctx.

    Why: MIOpen's iGEMM stages its tiles through the LDS with ds_write_b128/b16 (80 of its
    workgroup's general-path issues). Planned: a VGPR address, register data, an integer
    `offset` (or none), no gds. None, so that the general path runs and owns the note, error or
    warning, when a source is unwritten in an EXEC lane, a lane falls outside the LDS, or an
    access is misaligned."""
    from .alignment import check as check_alignment
    from .banks import bank_conflicts
    from .memops import LdsWrite, dwords_to_bytes
    from .semantics import ds as ds_sem
    from .semantics.memaddr import ds_address, ds_out_of_range
    shape = ds_sem.DS_WRITES.get(ins.mnemonic)
    if shape is None or sem is not ds_sem._write:
        return None
    size, shift = shape
    dwords = max(1, (size + 3) // 4)
    offset = 0
    for m in ins.modifiers:
        if m.name != "offset" or type(m.value) is not int:  # gds, a symbolic offset...: the general path
            return None
        offset = m.value
    ops = ins.operands
    if len(ops) != 2 or not is_reg(ops[0], "v") or ops[0].index >= nvgpr or type(ops[1]) is not Reg \
            or ops[1].file not in ("v", "a") or ops[1].index + dwords > nvgpr:
        return None
    try:
        from ..isa.targets import get_target
        banks = get_target(target).lds_banks
    except (KeyError, AttributeError):  # as semantics.ds._banks
        banks = 32
    vindex = ops[0].index
    rfile, rindex = ops[1].file, ops[1].index
    reads_static = (("v", vindex), *((rfile, rindex + k) for k in range(dwords)))  # after EXEC
    all_init = _ALL_INIT * dwords
    mnemonic = ins.mnemonic

    def plan(st):
        lanes = np.nonzero(st.exec_mask)[0]
        row = st.vgpr_init[vindex]
        if row.tobytes() != _ALL_INIT and not row[lanes].all():
            return None
        arr, init = (st.vgpr, st.vgpr_init) if rfile == "v" else (st.agpr, st.agpr_init)
        rows = init[rindex:rindex + dwords]
        if rows.tobytes() != all_init and not rows[:, lanes].all():
            return None
        addrs = ds_address(st.vgpr[vindex], offset)[lanes]
        if ds_out_of_range(addrs, size, lds_size).any():
            return None
        data = arr[rindex:rindex + dwords][:, lanes]
        if shift:
            data = data >> U32(shift)
        pieces = [(addrs, size)]
        conflicts = bank_conflicts(pieces, lanes, True, banks)
        memop = LdsWrite(lanes, [(addrs, dwords_to_bytes(data, size))])
        if check_alignment(mnemonic, memop) is not None:
            return None
        return [], [*_EXEC_READS, *reads_static], None, [memop], conflicts
    return plan


# ---------------------------------------------------------------- buffer_load_* (MUBUF, to VGPRs)
_MUBUF_MODIFIERS = frozenset({"offen", "idxen", "offset"})


def _buffer_load_plan(ins: Instruction, sem: Callable, nvgpr: int) -> Plan | None:
    """The plan of `buffer_load_* vdst, vaddr|off, s[n:n+3], soffset [idxen] [offen] [offset:N]`
    (not d16, not lds: `semantics.vmem._buffer_load`): the same GlobalLoad with the same range
    check from the same helpers (BufferResource.from_words, buffer_access), reading the index
    and offset VGPRs, the resource, soffset and then EXEC, in the Ctx's order.

    Why: the MIOpen iGEMM workgroup loads its input tiles with buffer_load_dwordx4 (48 of its
    general-path issues). None, so that the general path runs and owns the note, error or
    warning, when a source is unwritten (a VGPR in an EXEC lane), the resource asks for what
    the model refuses (a swizzled element wider than the access), or an access is misaligned."""
    from .alignment import check as check_alignment
    from .context import SimError
    from .memops import GlobalLoad
    from .semantics import SEMANTICS as registered
    from .semantics import vmem as vmem_sem
    from .semantics.memaddr import BufferResource, buffer_access
    form = vmem_sem.LOAD_FORMS.get(ins.mnemonic[len("buffer_load_"):])
    if form is None or form.kind.startswith("d16") or registered.get(ins.mnemonic) is not sem:
        return None
    offset = 0
    flags = set()
    for m in ins.modifiers:
        if m.name not in _MUBUF_MODIFIERS:  # lds, tfe, addr64, cache policy...: the general path
            return None
        if m.name == "offset":
            if type(m.value) is not int:
                return None
            offset = m.value & ((1 << vmem_sem.MUBUF_OFFSET_BITS) - 1)  # (vmem._mubuf_offset)
        else:
            flags.add(m.name)
    ops = ins.operands
    if len(ops) != 4 or type(ops[0]) is not Reg or ops[0].file not in ("v", "a") \
            or ops[0].index + form.dwords > nvgpr:
        return None
    if type(ops[2]) is not Reg or ops[2].file != "s" or ops[2].count != 4:
        return None
    read_soffset = _scalar_source(ops[3])
    if read_soffset is None:
        return None
    idxen, offen = "idxen" in flags, "offen" in flags
    vregs: list[int] = []
    if idxen or offen:
        vaddr = ops[1]
        if type(vaddr) is not Reg or vaddr.file != "v" or vaddr.count != (2 if idxen and offen else 1) \
                or vaddr.index + vaddr.count > nvgpr:
            return None
        vregs = [vaddr.index + k for k in range(vaddr.count)]
    slot = ops[2].index
    rsrc_reads = tuple(("s", slot + k) for k in range(4))
    dfile, dindex, dwords, size, kind = ops[0].file, ops[0].index, form.dwords, form.size, form.kind
    origin = vmem_sem._origin(ins)
    mnemonic = ins.mnemonic

    def plan(st):
        exec_lanes = np.nonzero(st.exec_mask)[0]
        reads = []
        rows = []
        for v in vregs:  # the index VGPR, then the offset VGPR (vmem._mubuf)
            row = st.vgpr_init[v]
            if row.tobytes() != _ALL_INIT and not row[exec_lanes].all():
                return None
            reads.append(("v", v))
            rows.append(st.vgpr[v])
        init = st.sgpr_init
        if not (init.item(slot) and init.item(slot + 1) and init.item(slot + 2) and init.item(slot + 3)):
            return None
        reads += rsrc_reads
        soffset = read_soffset(st, reads)
        if soffset is None:
            return None
        sgpr = st.sgpr
        rsrc = BufferResource.from_words([sgpr.item(slot + k) for k in range(4)])
        vindex = rows[0] if idxen else None
        voffset = rows[-1] if offen else None
        try:
            access = buffer_access(rsrc, soffset, offset, vindex, voffset, size)
        except SimError:
            return None
        reads += _EXEC_READS
        memop = GlobalLoad(dfile, dindex, dwords, exec_lanes, size, kind, None, origin,
                           addrs=access.addrs[exec_lanes], in_range=access.in_range[:, exec_lanes])
        if check_alignment(mnemonic, memop) is not None:
            return None
        return [], reads, None, [memop], 0
    return plan
