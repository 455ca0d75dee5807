"""The functional engine: every wave of every workgroup, no timing, grouped by PC.

What it is for: the values a kernel computes over a whole grid, fast enough for real problem
sizes, where the timed engine (`engine.py`) would model every cycle of every workgroup.

How it works:
- All waves live in one structure of arrays: VGPRs (waves, registers, 64), AGPRs, SGPRs, SCC,
  PC. Each wave's `WaveState` is rebound to views of those arrays, so the per-wave semantic
  functions and the batched paths read and write the same registers.
- Each step takes the lowest PC any runnable wave is at and executes that instruction for every
  wave there at once. Waves that branch apart form separate groups; they rejoin when their PCs
  meet again. `s_barrier` holds a wave until every live wave of its workgroup has arrived.
- Instructions of the semantic tables (`VECTOR_LANE_OPS`, `VECTOR_F32_OPS`: D = fn(sources)
  lane-wise) run as one numpy call of the table's own lane function over (waves x 64) lanes.
  SALU table ops call their function per wave (scalars are cheap). Everything else runs per wave
  through the very semantic function the timed engine calls (a Ctx, its register writes and its
  memory operations applied at once), so no instruction has a second definition here.
- Memory operations take effect when issued. For a kernel whose waits and barriers are right,
  that gives the timed engine's results; a racy kernel may differ (the timed engine and `lint`
  are the tools for races).
"""
from __future__ import annotations

import numpy as np

from ..asm.program import FloatImm, Imm, Reg, Symbol
from . import fp
from .context import _HWREGS, M32, Ctx, SimError, _static_facts, constant_bits
from .pipes import decode
from .semantics import SCALAR_OPS, SCC_BRANCHES, SEMANTICS, VECTOR_F32_OPS, VECTOR_LANE_OPS
from .state import LDS, WAVE, GlobalMemory, MemoryError_, WaveState

_SHIFTS = np.arange(WAVE, dtype=np.uint64)
_VECTOR_KINDS = frozenset({"u32", "b32"})
_FALLBACK = object()  # a compiled entry meaning "per wave, through the semantic function"


class FunctionalEngine:
    """Run `waves` (any number, from any number of workgroups) to s_endpgm, functionally."""

    def __init__(self, kernel, waves: list[WaveState], workgroup_of: list[int], memory: GlobalMemory,
                 lds: list[LDS], max_instructions: int = 500_000_000):
        from .semantics import load_all, lookup
        load_all()
        if len({len(w.vgpr) for w in waves}) != 1 or len({len(w.agpr) for w in waves}) != 1:
            raise SimError("the functional engine needs the same register counts in every wave")
        self.kernel = kernel
        self.states = waves
        self.workgroup_of = np.asarray(workgroup_of, dtype=np.int64)
        self.memory = memory
        self.lds = lds
        self.max_instructions = max_instructions
        self.decoded = decode(kernel, lookup)
        self.float_mode = fp.float_mode_from_program(kernel.program)
        self._instructions = kernel.instructions
        self._labels = kernel.labels
        # the structure of arrays, and each WaveState rebound to views of it
        self.V = np.stack([w.vgpr for w in waves])
        self.VI = np.stack([w.vgpr_init for w in waves])
        self.A = np.stack([w.agpr for w in waves])
        self.AI = np.stack([w.agpr_init for w in waves])
        self.S = np.stack([w.sgpr for w in waves])
        self.SI = np.stack([w.sgpr_init for w in waves])
        for n, w in enumerate(waves):
            w.vgpr, w.vgpr_init, w.agpr, w.agpr_init = self.V[n], self.VI[n], self.A[n], self.AI[n]
            w.sgpr, w.sgpr_init = self.S[n], self.SI[n]
        self.SCC = np.array([w.scc for w in waves], dtype=np.int64)
        self.PC = np.array([w.pc for w in waves], dtype=np.int64)
        self.DONE = np.array([w.done for w in waves], dtype=bool)
        self.BARRIER = np.zeros(len(waves), dtype=bool)
        self.executed = 0  # wave-instructions
        self.batched = 0  # of which in one numpy call per group
        self.notes: list[tuple[int, object]] = []
        self._compiled: list = [None] * len(self.decoded)
        self._templates: list = [None] * len(self.decoded)
        self._symbols = kernel.symbols

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        PC, DONE, BARRIER = self.PC, self.DONE, self.BARRIER
        n_ins = len(self.decoded)
        while True:
            live = ~DONE & ~BARRIER
            if not live.any():
                if not (BARRIER & ~DONE).any():
                    break
                self._release_barriers()
                continue
            pcs = np.where(live, PC, n_ins + 1)
            pc = int(pcs.min())
            if pc >= n_ins:
                raise SimError("execution ran past the last instruction without s_endpgm")
            idx = np.flatnonzero(pcs == pc)
            try:
                self._execute(pc, idx)
            except (SimError, MemoryError_) as e:  # name the instruction, as the timed engine does
                if getattr(e, "instruction", None) is None:
                    e.instruction = pc
                raise
            self.executed += len(idx)
            if self.executed > self.max_instructions:
                raise SimError(f"stopped after {self.max_instructions} wave-instructions (a loop that never "
                               f"ends? the last issued: line {self._instructions[pc].span.line})")
        for n, w in enumerate(self.states):
            w.scc, w.pc, w.done = int(self.SCC[n]), int(self.PC[n]), bool(self.DONE[n])

    def _release_barriers(self) -> None:
        waiting = self.BARRIER & ~self.DONE
        released = False
        for wg in np.unique(self.workgroup_of[waiting]):
            mine = (self.workgroup_of == wg) & ~self.DONE
            if self.BARRIER[mine].all():
                self.BARRIER[mine] = False
                self.PC[mine] += 1
                released = True
        if not released:
            raise SimError("s_barrier can never be released: a wave of the workgroup waits elsewhere")

    def _execute(self, pc: int, idx: np.ndarray) -> None:
        d = self.decoded[pc]
        if d.error is not None:
            raise SimError(d.error)
        if d.internal:
            if d.pipe == "endpgm":
                self.DONE[idx] = True
            elif d.pipe == "barrier":
                self.BARRIER[idx] = True
            else:  # s_nop, s_waitcnt, s_sleep, s_setprio: timing only
                self.PC[idx] = pc + 1
            return
        entry = self._compiled[pc]
        if entry is None:
            entry = self._compiled[pc] = self._compile(pc)
        if entry is not _FALLBACK and entry(idx):
            self.batched += len(idx)
            return
        for n in idx.tolist():
            self._one(n, pc)

    # ------------------------------------------------------------------ per wave (the semantic function)
    def _one(self, n: int, pc: int) -> None:
        d = self.decoded[pc]
        sem = d.sem
        if sem is None:
            raise SimError(f"instruction not modelled yet: {d.mnemonic}")
        st = self.states[n]
        st.scc = int(self.SCC[n])
        st.pc = pc
        tpl = self._templates[pc]
        if tpl is None:
            tpl = self._templates[pc] = Ctx.issue_template(self._instructions[pc], self._symbols, self._labels,
                                                           self.kernel.target.lds_bytes, self.kernel.target.name,
                                                           self.float_mode)
        ctx = Ctx.at_issue(st, tpl)
        sem(ctx, self._instructions[pc])
        for wr in ctx.writes:
            _apply(st, wr)
        lds = self.lds[int(self.workgroup_of[n])]
        for memop in ctx.memops:
            if getattr(memop, "wants_clock", False):  # no clock here: instructions executed so far
                memop.clock = int(self.executed)
            for wr in memop.perform(self.memory, lds):
                _apply(st, wr)
        if ctx.notes:
            span = self._instructions[pc].span
            self.notes.extend((n, (span, note)) for note in ctx.notes)
        self.SCC[n] = st.scc
        self.PC[n] = ctx.branch_to if ctx.branch_to is not None else pc + 1

    # ------------------------------------------------------------------ batched paths
    def _compile(self, pc: int):
        """A function of the group (wave indices) that executes instruction `pc` for all of them
        and returns True, or False when this group needs the per-wave path; _FALLBACK: always."""
        ins = self._instructions[pc]
        d = self.decoded[pc]
        sem = d.sem
        if sem is None or ins.modifiers:
            return _FALLBACK
        base, _sfx, is_sdwa, is_dpp, _n_dst, _packed = _static_facts(ins.mnemonic)
        if is_sdwa or is_dpp or SEMANTICS.get(base) is not sem:
            return _FALLBACK
        ops = ins.operands
        nv = self.V.shape[1]
        if base in VECTOR_LANE_OPS:
            kinds, fn = VECTOR_LANE_OPS[base]
            if len(ops) != 1 + len(kinds) or not _is_reg(ops[0], "v") or ops[0].index >= nv \
                    or any(k not in _VECTOR_KINDS for k in kinds):
                return _FALLBACK
            readers = [self._reader(op, float_constants=False) for op in ops[1:]]
            if any(r is None for r in readers):
                return _FALLBACK
            return self._vector(pc, ops[0].index, readers, lambda *s: fn(*s))
        if base in VECTOR_F32_OPS:
            nsrc, accumulates, fn = VECTOR_F32_OPS[base]
            if len(ops) != 1 + nsrc or not _is_reg(ops[0], "v") or ops[0].index >= nv:
                return _FALLBACK
            readers = [self._reader(op, float_constants=True) for op in ops[1:]]
            if accumulates:
                readers.append(self._reader(ops[0], float_constants=False))
            if any(r is None for r in readers):
                return _FALLBACK
            mode = self.float_mode
            f32 = np.dtype(np.float32)

            def apply_f32(*bits):
                srcs = [fp.denorm_in(b.view(f32), mode) for b in bits]
                with np.errstate(all="ignore"):
                    x = fp.denorm_out(np.asarray(fn(*srcs), dtype=f32), mode)
                return x.view(np.uint32)
            return self._vector(pc, ops[0].index, readers, apply_f32, float_op=True)
        if base in SCALAR_OPS:
            nsrc, reads_scc, fn = SCALAR_OPS[base]
            if len(ops) != 1 + nsrc or not _is_reg(ops[0], "s"):
                return _FALLBACK
            srcs = []
            for op in ops[1:]:
                if _is_reg(op, "s"):
                    srcs.append(("s", op.index))
                elif type(op) is Imm:
                    srcs.append(("c", op.value & M32))
                else:
                    return _FALLBACK
            return self._scalar(ops[0].index, srcs, reads_scc, fn, pc)
        if base in SCC_BRANCHES and len(ops) == 1 and isinstance(ops[0], Symbol) and ops[0].name in self._labels:
            taken, target = SCC_BRANCHES[base], self._labels[ops[0].name]

            def branch(idx):
                self.PC[idx] = np.where(self.SCC[idx] == taken, target, pc + 1)
                return True
            return branch
        return _FALLBACK

    def _reader(self, operand, float_constants: bool):
        """`read(idx) -> uint32 array broadcastable to (G, 64)`, or None from it when a register
        is not written in every wave of the group (the per-wave path then notes the read)."""
        if float_constants and type(operand) is FloatImm:
            value, how = constant_bits(operand, "f32")
            if how not in ("inline", "literal"):
                return None
            row = np.full((1, 1), value & M32, dtype=np.uint32)
            return lambda idx: row
        if _is_reg(operand, "v") and operand.index < self.V.shape[1]:
            r = operand.index

            def read_v(idx):
                if not self.VI[idx, r].all():
                    return None
                return self.V[idx, r]
            return read_v
        if _is_reg(operand, "s"):
            r = operand.index

            def read_s(idx):
                if not self.SI[idx, r].all():
                    return None
                return self.S[idx, r][:, None]
            return read_s
        if type(operand) is Imm:
            row = np.full((1, 1), operand.value & M32, dtype=np.uint32)
            return lambda idx: row
        return None

    def _vector(self, pc: int, dst: int, readers, fn, float_op: bool = False):
        def run(idx):
            if float_op and _HWREGS:  # s_setreg changed some wave's MODE: per wave
                return False
            srcs = []
            for r in readers:
                x = r(idx)
                if x is None:
                    return False
                srcs.append(x)
            res = fn(*srcs)
            if type(res) is not np.ndarray or res.dtype != np.uint32:
                return False
            res = np.broadcast_to(res, (len(idx), WAVE))
            lo = self.S[idx, 126].astype(np.uint64)
            hi = self.S[idx, 127].astype(np.uint64)
            mask = (((lo | (hi << np.uint64(32)))[:, None] >> _SHIFTS) & np.uint64(1)).astype(bool)
            self.V[idx, dst] = np.where(mask, res, self.V[idx, dst])
            self.VI[idx, dst] |= mask
            self.PC[idx] = pc + 1
            return True
        return run

    def _scalar(self, dst: int, srcs, reads_scc: bool, fn, pc: int):
        S, SI, SCC = self.S, self.SI, self.SCC

        def run(idx):
            for _, r in (s for s in srcs if s[0] == "s"):
                if not SI[idx, r].all():
                    return False
            for n in idx.tolist():
                vals = [int(S[n, r]) if kind == "s" else r for kind, r in srcs]
                result, new_scc = fn(*vals, int(SCC[n]) if reads_scc else 0)
                S[n, dst] = result & M32
                if new_scc is not None:
                    SCC[n] = 1 if new_scc else 0
            SI[idx, dst] = True
            self.PC[idx] = pc + 1
            return True
        return run


def _is_reg(operand, file: str) -> bool:
    return type(operand) is Reg and operand.file == file and operand.count == 1


def _apply(st: WaveState, wr) -> None:
    """A register write landing at once (the timed engine's Engine._apply, without timing)."""
    f = wr.file
    if f in ("v", "a"):
        arr, init = (st.vgpr, st.vgpr_init) if f == "v" else (st.agpr, st.agpr_init)
        lo, n = wr.index, len(wr.values)
        if wr.mask is None or wr.full:
            arr[lo:lo + n] = wr.values
            init[lo:lo + n] = True
        else:
            np.copyto(arr[lo:lo + n], wr.values, where=wr.mask[None, :])
            init[lo:lo + n] |= wr.mask[None, :]
    elif f == "s":
        lo, n = wr.index, len(wr.values)
        st.sgpr[lo:lo + n] = wr.values
        st.sgpr_init[lo:lo + n] = True
    elif f == "scc":
        st.scc = int(wr.values[0])
