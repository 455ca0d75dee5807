"""The functional engine: every wave of every workgroup, no timing, grouped by PC.

What it is for: the values a kernel computes over a whole grid, fast enough for real problem
sizes, where the timed engine (`engine.py`) would model every cycle of every workgroup.

How it works:
- All waves live in one structure of arrays: VGPRs (waves, registers, 64), AGPRs, SGPRs, SCC,
  PC, and the LDS of every workgroup (workgroups, bytes). Each wave's `WaveState` (and each
  workgroup's `LDS`) is rebound to views of those arrays, so the per-wave semantic functions
  and the batched paths read and write the same state.
- Each step takes the lowest PC any runnable wave is at and executes that instruction for every
  wave there (a group) at once. Waves that branch apart form separate groups; they rejoin when
  their PCs meet again. `s_barrier` holds a wave until every live wave of its workgroup arrived.
- One instruction, one semantic function: a group runs the timed engine's own semantic function
  once, through a `GroupCtx`, a Ctx whose vector reads are (waves, 64) arrays instead of (64,):
  the lane functions are numpy expressions, so they compute every wave of the group in one call.
  Families known to be lane-wise (integer/float/convert/packed VALU, compares, register moves)
  run this way; a read the group cannot share (a never-written register, an SGPR operand the
  function needs as one number but that differs between waves) or a note sends the group down
  the per-wave path instead, which always gives the timed engine's answer. The instructions
  of the semantic tables (VECTOR_LANE_OPS, VECTOR_F32_OPS: v_fmac_f32, v_add_u32, ...) skip
  the Ctx: a group plan (`group_plans`) applies the table's lane function to the group's
  register rows, as the timed engine's issue plans do per wave.
- Scalar instructions (SALU, SMEM loads, branches) depend only on the scalar registers they
  read, so the group runs the semantic function for one wave and applies its effects to every
  wave whose read registers hold the same values (groups split by those values when they differ).
- Memory: loads and stores run as one gather or scatter over the group; the addresses come from
  the same address functions (`semantics.memaddr`) and forms tables as the semantic functions.
  LDS is per workgroup (one row of the LDS array each), global memory is shared. MFMAs of the
  group stack as blocks of one call to the shared numerics (`mfma_exec.compute`).
- Memory operations take effect when issued. For a kernel whose waits and barriers are right,
  that gives the timed engine's results; a racy kernel may differ (the timed engine and `lint`
  are the tools for races).
- A workgroup whose waves wait for each other outside s_barrier (a spin loop on a flag another
  wave sets) cannot run one PC group after the other: `Ungroupable` is raised, and the caller
  runs the launch on the timed engine instead, with a note.
"""
from __future__ import annotations

import numpy as np

from ..asm.program import Reg, Special
from . import accel, fp
from .alignment import lane_ranges
from .context import _HWREGS, M32, Ctx, RegWrite, SimError, _static_facts, code_facts
from .group_plans import Unshared as _Abort
from .group_plans import make_group_plan
from .masked import exec_lanes, lane_words, masked_write
from .pipes import decode
from .semantics import SEMANTICS
from .state import LDS, POISON, WAVE, GlobalMemory, MemoryError_, WaveState

_FALLBACK = object()  # a compiled entry meaning "per wave, through the semantic function"
# Semantic modules whose functions are lane-wise numpy over their sources (no lane indexing, no
# reductions over lanes): they run once per group through GroupCtx.
_LANEWISE_MODULES = frozenset({"valu", "valu_float", "valu_cvt", "valu_packed", "vcmp"})
_LANEWISE_FUNCTIONS = frozenset({"v_accvgpr_read_b32", "v_accvgpr_write_b32", "v_accvgpr_mov_b32"})
# Scalar instructions whose result depends on more than the scalar registers they read.
_SCALAR_PER_WAVE = ("s_getreg", "s_setreg", "s_memtime", "s_memrealtime", "s_sendmsg", "s_trap", "s_icache",
                    "s_dcache", "s_store", "s_atomic", "s_buffer_store", "s_buffer_atomic", "s_scratch")
EVERYONE = slice(None)  # the group of every wave (register rows are views, not copies)
# lanes of MFMA blocks per numerics call: 32 waves of one-block MFMAs (64: 1.15x slower, 128: 1.5x)
MFMA_LANES = 32 * WAVE
SPIN_LIMIT = 5_000  # backward branches of one loop nest while the rest of its workgroup waits


class Ungroupable(SimError):
    """The waves of a workgroup wait on each other outside s_barrier: no PC grouping can run them."""


def used_registers(kernel, wave: WaveState, file: str) -> int:
    """How many `file` ('v' or 'a') registers the kernel can read or write: past the highest one
    an operand names (and the launch initialised), with a margin; all of them when the kernel
    indexes registers at run time (movrel, gpr_idx)."""
    full = len(wave.vgpr if file == "v" else wave.agpr)
    top = 0
    for ins in kernel.instructions:
        m = ins.mnemonic
        if "movrel" in m or "gpr_idx" in m:
            return full
        for op in ins.operands:
            op = getattr(op, "inner", op)
            if type(op) is Reg and op.file == file:
                top = max(top, op.index + op.count)
    init = wave.vgpr_init if file == "v" else wave.agpr_init
    written = np.flatnonzero(init.any(axis=1))
    if len(written):
        top = max(top, int(written[-1]) + 1)
    return min(full, top + 8)


def _stack_waves(waves: list[WaveState], name: str, rows: int | None = None, axis: int = 0) -> np.ndarray:
    """np.stack of every wave's register file `name` (its first `rows` rows) along `axis`. The
    workgroups of a grid are copies of the first one's waves that share its vector register
    arrays: those are stacked once and repeated by one np.take (one pass over the result
    instead of a copy per wave)."""
    index: dict[int, int] = {}
    unique, order = [], []
    for w in waves:
        arr = getattr(w, name)
        k = index.get(id(arr))
        if k is None:
            k = index[id(arr)] = len(unique)
            unique.append(arr if rows is None else arr[:rows])
        order.append(k)
    stacked = np.stack(unique, axis=axis)
    return stacked if len(unique) == len(waves) else np.take(stacked, order, axis=axis)


def _pow2ceil(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


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
        self.n = len(waves)
        self.workgroup_of = np.asarray(workgroup_of, dtype=np.int64)
        self._n_workgroups = int(self.workgroup_of.max()) + 1 if self.n else 0
        self.memory = memory
        self.lds = lds
        # `max_instructions` counts per workgroup, as the timed engine's limit does (it runs one
        # workgroup): the whole grid may run that many per workgroup, so an endless loop stops
        # here no later than in a timed run and a run the timed engine finishes is never cut
        self.max_instructions = max_instructions
        self._limit = max_instructions * max(self._n_workgroups, 1)
        self._last_back: tuple[int, int] | None = None  # (branch, target) of the last jump back
        self.decoded = decode(kernel, lookup)
        self.float_mode = fp.float_mode_from_program(kernel.program)
        self._instructions = kernel.instructions
        self._labels = kernel.branch_labels
        limit = getattr(lds[0], "limit", None) if lds else None  # the descriptor's LDS allocation
        self.lds_size = kernel.target.lds_bytes if limit is None else limit
        # the structure of arrays, and each WaveState rebound to views of it. Vector registers
        # are (registers, waves, 64): one register of a whole group is one contiguous block.
        # Only the registers the kernel can touch are kept (the rest stay poison and unwritten):
        # a kernel using 100 of 512 vector registers needs a fifth of the memory and copies.
        nv, na = used_registers(kernel, waves[0], "v"), used_registers(kernel, waves[0], "a")
        self.full_registers = (len(waves[0].vgpr), len(waves[0].agpr))
        self.V = _stack_waves(waves, "vgpr", nv, axis=1)
        self.VI = _stack_waves(waves, "vgpr_init", nv, axis=1)
        self.A = _stack_waves(waves, "agpr", na, axis=1)
        self.AI = _stack_waves(waves, "agpr_init", na, axis=1)
        self.S = np.stack([w.sgpr for w in waves])  # (each workgroup's own: its ids)
        self.SI = np.stack([w.sgpr_init for w in waves])
        for n, w in enumerate(waves):
            w.vgpr, w.vgpr_init, w.agpr, w.agpr_init = self.V[:, n], self.VI[:, n], self.A[:, n], self.AI[:, n]
            w.sgpr, w.sgpr_init = self.S[n], self.SI[n]
        # registers known to be written in every lane of every wave (written-flags only ever
        # turn on, so once true this stays true): their reads skip the check
        self.known = {"v": np.zeros(self.V.shape[0], dtype=bool), "a": np.zeros(self.A.shape[0], dtype=bool)}
        sizes = {x.size for x in lds}
        self.LDS = None
        if len(sizes) == 1 and next(iter(sizes)) % 4 == 0:  # every workgroup's LDS as one row
            self.LDS = np.stack([x.data for x in lds])
            for k, x in enumerate(lds):
                x.data = self.LDS[k]
        self.SCC = np.array([w.scc for w in waves], dtype=np.int64)
        self.PC = np.array([w.pc for w in waves], dtype=np.int64)
        self.DONE = np.array([w.done for w in waves], dtype=bool)
        self.BARRIER = np.zeros(self.n, dtype=bool)
        self.executed = 0  # wave-instructions
        self.batched = 0  # of which in one execution per group
        self.notes: list[tuple[int, object]] = []
        self._compiled: list = [None] * len(self.decoded)
        self._templates: list = [None] * len(self.decoded)
        self._spins = 0
        self._spin_top = -1
        self._exec_whole = None  # (mask, full) of every wave, while EXEC is unchanged
        self._wave_ids = frozenset(id(w) for w in waves)

    def mode_changed(self) -> bool:
        """Whether s_setreg changed the MODE of some wave of this run (`context._HWREGS`, keyed by
        the WaveState's id). Only this run's waves count: an entry of a wave of an earlier run
        lingers until that wave is garbage collected, and must not send this run per wave."""
        return bool(_HWREGS) and not self._wave_ids.isdisjoint(_HWREGS)

    def expand(self, waves: list[WaveState]) -> None:
        """Give these waves full-size register files again (copies: after the run, for callers
        that read registers the kernel never touched, which hold poison as in a timed run)."""
        for w in waves:
            for name, full, fill in (("vgpr", self.full_registers[0], POISON), ("vgpr_init", self.full_registers[0], False),
                                     ("agpr", self.full_registers[1], POISON), ("agpr_init", self.full_registers[1], False)):
                cur = getattr(w, name)
                out = np.full((full, WAVE), fill, dtype=cur.dtype)
                out[:len(cur)] = cur
                setattr(w, name, out)

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        if any(ins.mnemonic.startswith("s_set_gpr_idx_") for ins in self.kernel.instructions):
            # its operands move with M0 at run time; the timed engine relocates them (semantics.gpr_idx)
            raise Ungroupable("VGPR indexing mode (s_set_gpr_idx_on) runs on the timed engine")
        PC, DONE, BARRIER = self.PC, self.DONE, self.BARRIER
        n_ins = len(self.decoded)
        everyone = EVERYONE
        past = n_ins + 1
        lockstep = False  # every wave ran the last instruction and went on to the next one
        while True:
            if lockstep:  # then they all are at pc + 1, and it is the lowest PC: no scan
                pc, idx, count = pc + 1, everyone, self.n
            else:
                live = ~(DONE | BARRIER)
                pcs = np.where(live, PC, past)
                pc = int(pcs.min())
                if pc == past:
                    if not (BARRIER & ~DONE).any():
                        break
                    self._release_barriers()
                    continue
                here = pcs == pc
                count = int(np.count_nonzero(here))
                idx = everyone if count == self.n else np.flatnonzero(here)
            if pc >= n_ins:
                raise SimError("execution ran past the last instruction without s_endpgm")
            try:
                straight = self._execute(pc, idx, count)
            except (SimError, MemoryError_) as e:  # name the instruction, as the timed engine does
                if getattr(e, "instruction", None) is None:
                    e.instruction = pc
                raise
            self.executed += count
            if not straight and not self.decoded[pc].internal and self.PC[idx].min() <= pc:
                # a jump back (not a wave stopping at s_endpgm or s_barrier): the loop a limit names
                self._last_back = (pc, int(self.PC[idx].min()))
            if self.executed > self._limit:
                raise self._limit_error(pc)
            if pc > self._spin_top >= 0:  # past the last backward branch: that loop was left
                self._spins, self._spin_top = 0, -1
            lockstep = straight and count == self.n
            if count != self.n:
                self._watch_spin(pc, idx)
        for n, w in enumerate(self.states):
            w.scc, w.pc, w.done = int(self.SCC[n]), int(self.PC[n]), bool(self.DONE[n])

    def _limit_error(self, pc: int) -> SimError:
        """The run reached --max-instructions (or the header's max-instructions:): the timed
        engine's words (`Engine._at_limit`, `stop_report`), at the loop's backward branch."""
        where = self.kernel.written_at
        at = pc
        if self._last_back is not None:
            branch, target = self._last_back
            to = "to itself" if branch == target else f"back to {where(target)}"
            what = f"is looping: {self._instructions[branch].mnemonic} ({where(branch)}) jumps {to}"
            at = branch
        else:
            what = f"is at {self._instructions[pc].mnemonic} ({where(pc)})"
        live = np.flatnonzero(~self.DONE)
        waves = f"wave {live[0]}" if len(live) == 1 else f"waves {lane_ranges(live.tolist())}"
        e = SimError(f"stopped after --max-instructions {self.max_instructions} instructions: {waves} {what}"
                     f" (a longer run needs a higher --max-instructions, or the header's max-instructions:)")
        e.instruction = at
        return e

    def _watch_spin(self, pc: int, idx) -> None:
        """A group that keeps branching back while other waves of its workgroups wait elsewhere
        may be waiting for them (a spin loop): the grouping cannot run that kernel."""
        back = self.PC[idx] <= pc
        if not back.any():
            return
        self._spin_top = max(self._spin_top, pc)
        self._spins += 1
        if self._spins < SPIN_LIMIT:
            return
        wgs = np.unique(self.workgroup_of[idx])
        mine = np.isin(self.workgroup_of, wgs) & ~self.DONE
        others = mine.copy()
        others[idx] = False
        if others.any():
            raise Ungroupable(f"the waves of a workgroup wait on each other outside s_barrier (line "
                              f"{self._instructions[pc].span.line} branched back {SPIN_LIMIT} times while "
                              f"other waves of its workgroup waited at other instructions)")
        self._spins = 0

    def _release_barriers(self) -> None:
        """Every workgroup whose live waves all wait at s_barrier goes on past it (counted per
        workgroup in one pass: a loop over 256 workgroups cost ~3 ms per barrier)."""
        live = ~self.DONE
        waiting = self.BARRIER & live
        groups = self._n_workgroups
        at_barrier = np.bincount(self.workgroup_of[waiting], minlength=groups)
        alive = np.bincount(self.workgroup_of[live], minlength=groups)
        go = (at_barrier > 0) & (at_barrier == alive)
        released = go[self.workgroup_of] & waiting
        if not released.any():
            raise SimError("s_barrier can never be released: a wave of the workgroup waits elsewhere")
        self.BARRIER[released] = False
        self.PC[released] += 1
        self._spins = 0

    def _execute(self, pc: int, idx, count: int) -> bool:
        """Instruction `pc` for the waves `idx`; True when they all went on to pc + 1 and can
        run (what every VALU, memory and MFMA path does: only scalar instructions and branches
        choose PCs, only s_endpgm and s_barrier stop waves)."""
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
            self.batched += count
            return d.pipe not in ("endpgm", "barrier")
        entry = self._compiled[pc]
        if entry is None:
            entry = self._compiled[pc] = self._compile(pc)
        if entry is _FALLBACK:
            for n in self._rows(idx).tolist():
                self._one(n, pc)
            return False
        # the whole group in one call (pieces of 256 waves, once faster for numpy temporaries,
        # measured 1.2-2x slower on every path here once the paths stopped copying)
        try:
            done = entry(pc, idx)
        except _Abort:
            done = False
        if done:
            self.batched += count
        else:
            for n in self._rows(idx).tolist():
                self._one(n, pc)
        return entry != self._scalar_group

    # ------------------------------------------------------------------ per wave (the semantic function)
    def _template(self, pc: int) -> dict:
        tpl = self._templates[pc]
        if tpl is None:
            ins = self._instructions[pc]
            tpl = self._templates[pc] = Ctx.issue_template(ins, self._labels, self.lds_size,
                                                           self.kernel.target.name, self.float_mode,
                                                           **code_facts(self.kernel, ins))
        return tpl

    def _one(self, n: int, pc: int) -> None:
        self._exec_whole = None
        d = self.decoded[pc]
        sem = d.sem
        if sem is None:
            raise SimError(f"instruction not modelled yet: {d.mnemonic}")
        st = self.states[n]
        st.scc = int(self.SCC[n])
        st.pc = pc
        ctx = Ctx.at_issue(st, self._template(pc))
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

    # ------------------------------------------------------------------ choosing a batched path
    def _compile(self, pc: int):
        """A function (pc, group) that executes instruction `pc` for the whole group and returns
        True, or False / raises _Abort when this group needs the per-wave path; _FALLBACK: always."""
        ins = self._instructions[pc]
        d = self.decoded[pc]
        sem = d.sem
        if sem is None:
            return _FALLBACK
        base, _sfx, is_sdwa, is_dpp, _n_dst, _packed = _static_facts(ins.mnemonic)
        if d.category in ("scalar", "branch") and d.pipe != "msg" and not base.startswith(_SCALAR_PER_WAVE):
            return self._scalar_group
        if is_sdwa or is_dpp:
            return _FALLBACK
        module = getattr(sem, "__module__", "").rsplit(".", 1)[-1]
        if d.pipe == "mfma" and module == "mfma":
            return self._mfma_path(ins) or _FALLBACK
        if d.category in ("vmem", "lds"):
            return self._memory_path(ins, base) or _FALLBACK
        if SEMANTICS.get(base) is sem and (module in _LANEWISE_MODULES or base in _LANEWISE_FUNCTIONS) \
                and not base.startswith("v_cmpx"):
            return make_group_plan(self, ins, sem) or self._lanewise
        return _FALLBACK

    # ------------------------------------------------------------------ helpers over a group
    def _rows(self, idx) -> np.ndarray:
        return np.arange(self.n)[idx]

    def _exec(self, idx) -> tuple[np.ndarray, bool]:
        """(bool[G, 64] EXEC of the group, every lane of every wave on). For the whole grid the
        answer is kept until something may write EXEC (a scalar write to s126/s127, or any
        per-wave execution); callers only read the mask."""
        if isinstance(idx, slice) and idx is not EVERYONE:  # a piece of the whole grid: a slice of its mask
            mask, full = self._exec(EVERYONE)
            part = mask[idx]
            return part, full or bool(part.all())
        whole = idx is EVERYONE
        if whole and self._exec_whole is not None:
            return self._exec_whole
        lo, hi = self.S[idx, 126], self.S[idx, 127]
        if (lo == M32).all() and (hi == M32).all():
            out = np.ones((len(lo), WAVE), dtype=bool), True
        else:
            out = exec_lanes(lo, hi), False
        if whole:
            out[0].flags.writeable = False
            self._exec_whole = out
        return out

    def _vread(self, file: str, index: int, count: int, idx, check: bool = True) -> np.ndarray:
        """uint32[count, G, 64] of a register range; _Abort when some lane was never written
        (the per-wave path notes the read) unless `check` is off (MFMA operands: no note)."""
        arr, init = (self.V, self.VI) if file == "v" else (self.A, self.AI)
        if index + count > arr.shape[0]:
            raise _Abort
        if check:
            known = self.known[file]
            if not known[index:index + count].all():
                if not init[index:index + count, idx].all():
                    raise _Abort
                if idx is EVERYONE:
                    known[index:index + count] = True
        return arr[index:index + count, idx]

    def _vwrite(self, file: str, index: int, values: np.ndarray, idx, mask: np.ndarray | None) -> None:
        """values uint32[count, G, 64] into registers under `mask` (bool[G, 64]; None: every lane)."""
        arr, init = (self.V, self.VI) if file == "v" else (self.A, self.AI)
        count = values.shape[0]
        if mask is None:
            if isinstance(idx, slice):
                _assign(arr[index:index + count, idx], values)
            else:
                arr[index:index + count, idx] = values
            self._written(file, index, count, idx)
            return
        if isinstance(idx, slice):
            masked_write(arr[index:index + count, idx], values, lane_words(mask)[None])
        else:
            cur = arr[index:index + count, idx]
            masked_write(cur, values, lane_words(mask)[None])
            arr[index:index + count, idx] = cur
        init[index:index + count, idx] |= mask[None]

    def _load(self, file: str, index: int, dw: int, words: np.ndarray, first: np.ndarray, idx,
              mask: np.ndarray | None, records: bool = False) -> None:
        """Registers [index, index + dw) of the group <- `dw` consecutive words from each lane's
        first word index (checked by the caller) under `mask` (None: every lane). The whole
        grid (or any run of consecutive waves) with every lane on takes the compiled gather
        straight into its register rows when numba is there (measured: 0.2 ms against 0.75 ms for a
        ds_read_b128 over 1024 waves), else numpy's gather and copy."""
        if mask is None and isinstance(idx, slice):
            arr = self.V if file == "v" else self.A
            if index + dw <= arr.shape[0] and accel.gather_rows(words, first, arr[index:index + dw, idx]):
                self._written(file, index, dw, idx)
                return
        self._vwrite(file, index, _gather(words, first, dw, records), idx, mask)

    def _written(self, file: str, index: int, count: int, idx) -> None:
        """Registers [index, index + count) were written in every lane of the group's waves."""
        known = self.known[file]
        if not known[index:index + count].all():
            (self.VI if file == "v" else self.AI)[index:index + count, idx] = True
            if idx is EVERYONE:
                known[index:index + count] = True

    # ------------------------------------------------------------------ lane-wise VALU: one call per group
    def _lanewise(self, pc: int, idx) -> bool:
        if self.mode_changed():  # s_setreg changed some wave's MODE: per wave
            return False
        ctx = GroupCtx.make(self, pc, idx)
        self.decoded[pc].sem(ctx, self._instructions[pc])
        ctx.land()
        self.PC[idx] = pc + 1
        return True

    # ------------------------------------------------------------------ scalar: one call per distinct input
    def _scalar_group(self, pc: int, idx) -> bool:
        rows = self._rows(idx)
        todo = [rows]
        while todo:
            group = todo.pop()
            rep = int(group[0])
            st = self.states[rep]
            st.scc = int(self.SCC[rep])
            st.pc = pc
            ctx = Ctx.at_issue(st, self._template(pc))
            self.decoded[pc].sem(ctx, self._instructions[pc])
            if any(f in ("v", "a") for f, _ in ctx.reads) or any(type(m).__name__ != "ScalarLoad" for m in ctx.memops):
                if len(todo) or group is not rows:
                    raise SimError("internal: a scalar instruction changed its reads between waves")
                return False
            same = self._same_scalars(group, rep, ctx.reads)
            if not same.all():
                todo.append(group[~same])
                group = group[same]
            writes = list(ctx.writes)
            lds = self.lds[int(self.workgroup_of[rep])]
            for memop in ctx.memops:  # scalar loads: the same bytes for every wave with the same address
                writes.extend(memop.perform(self.memory, lds))
            at = EVERYONE if len(group) == self.n else group  # (every wave: rows as a view, no fancy index)
            for wr in writes:
                if wr.file == "s":
                    lo, n = wr.index, len(wr.values)
                    self.S[at, lo:lo + n] = wr.values
                    if lo + n > 126 and lo < 128:
                        self._exec_whole = None
                    self.SI[at, lo:lo + n] = True
                elif wr.file == "scc":
                    self.SCC[at] = int(wr.values[0])
                else:
                    raise SimError(f"internal: a scalar instruction wrote {wr.file} registers")
            if ctx.notes:
                span = self._instructions[pc].span
                self.notes.extend((int(n), (span, note)) for n in group for note in ctx.notes)
            self.PC[at] = ctx.branch_to if ctx.branch_to is not None else pc + 1
        return True

    def _same_scalars(self, group: np.ndarray, rep: int, reads) -> np.ndarray:
        """bool[len(group)]: waves whose registers read by the instruction hold the rep's values."""
        slots = sorted({i for f, i in reads if f == "s"})
        same = np.ones(len(group), dtype=bool)
        if slots:
            S, SI = self.S[:, slots][group], self.SI[:, slots][group]  # (the columns first: small)
            same &= (S == self.S[rep, slots]).all(axis=1) & (SI == self.SI[rep, slots]).all(axis=1)
        if any(f == "scc" for f, _ in reads):
            same &= self.SCC[group] == self.SCC[rep]
        return same

    # ------------------------------------------------------------------ MFMA: the group as blocks of one call
    def _mfma_path(self, ins):
        from ..isa import mfma as M
        from .mfma_exec import compute
        info = M.lookup(ins.mnemonic, self.kernel.target.name)
        if info is None or info.sparse or info.scaled or info.format_select or ins.modifiers:
            return None
        if info.element_type("D").bits == 64:
            return None
        ops = ins.operands
        if len(ops) != 4 or not all(isinstance(o, Reg) and o.file in ("v", "a") for o in ops):
            return None
        dst, a_op, b_op, c_op = ops
        if a_op.count < info.a_regs or b_op.count < info.b_regs or c_op.count < info.cd_regs \
                or dst.count < info.cd_regs:
            return None
        flat = self._mfma_flat(info, dst, a_op, b_op, c_op)
        if flat is not None:
            return flat

        def run(pc, idx):
            a = self._vread(a_op.file, a_op.index, check=False, idx=idx, count=info.a_regs)
            b = self._vread(b_op.file, b_op.index, check=False, idx=idx, count=info.b_regs)
            c = self._vread(c_op.file, c_op.index, check=False, idx=idx, count=info.cd_regs)
            g = a.shape[1]
            out = np.empty((g, info.cd_regs, WAVE), dtype=np.uint32)
            chunk = max(1, 64 // info.blocks)  # waves per numerics call: arrays that stay in cache
            blk = info.blocks
            for s in range(0, g, chunk):
                e = min(g, s + chunk)
                w = e - s
                am = M.unpack(info, "A", np.moveaxis(a[:, s:e], 1, 0)).reshape(w * blk, info.m, -1)
                bm = M.unpack(info, "B", np.moveaxis(b[:, s:e], 1, 0)).reshape(w * blk, -1, info.n)
                cm = M.unpack(info, "C", np.moveaxis(c[:, s:e], 1, 0)).reshape(w * blk, info.m, info.n)
                dm = compute(info, am, bm, cm)
                out[s:e] = _pack_many(info, dm, w)
            out = np.moveaxis(out, 0, 1)
            self._vwrite(dst.file, dst.index, out, idx, None)  # MFMAs ignore EXEC
            self.PC[idx] = pc + 1
            return True
        return run

    def _mfma_flat(self, info, dst, a_op, b_op, c_op):
        """The MFMA path for instructions whose operands unpack as one gather and whose fp32 D
        packs as one scatter (`mfma_exec.flat_layout`): each operand's elements of a piece of
        the group come with one np.take from the flat register array (no per-wave register
        stacks, no transposes), D goes back with one scatter, and the numerics are the shared
        `mfma_exec.compute` over the piece's blocks (measured: unpack, moveaxis and pack were
        ~3/4 of an MFMA over 1024 waves)."""
        from . import mfma_exec
        layout = mfma_exec.flat_layout(info)
        if layout is None:
            return None
        try:  # the register files as flat views (a copy would lose D's writes)
            files = {"v": np.reshape(self.V, -1, copy=False), "a": np.reshape(self.A, -1, copy=False)}
        except ValueError:
            return None
        shapes = {"v": self.V.shape[0], "a": self.A.shape[0]}
        ga, gb, gc, dflat = layout
        regs = [(a_op, ga, info.a_regs), (b_op, gb, info.b_regs), (c_op, gc, info.cd_regs)]
        if any(op.index + n > shapes[op.file] for op, _g, n in regs + [(dst, None, info.cd_regs)]):
            return None
        # each operand element's position in its file's flat array, for wave 0; then the same
        # for the waves of a piece (row w: wave w of the piece), so a piece of consecutive waves
        # reads with the table as it is, from a view that starts at its first wave
        row = self.n * WAVE
        chunk = max(1, MFMA_LANES // (info.blocks * WAVE))  # waves per numerics call
        ahead = np.arange(chunk)[:, None] * WAVE
        sources = [(files[op.file], (op.index + g[0] // WAVE) * row + g[0] % WAVE, g) for op, g, _n in regs]
        sources = [(flat_regs, pos, ahead + pos, g) for flat_regs, pos, g in sources]
        d_regs = files[dst.file]
        d_pos = (dst.index + dflat // WAVE) * row + dflat % WAVE
        d_table = ahead + d_pos
        # what compute() does first for a plain fp32 C/D (no xf32 rounding of A and B): the
        # numba exact sum, rounded to float32; then C can come and D go by compiled passes too
        direct = info.a_type != "xf32" and not info.scaled and gc[1] is None and gc[2] is None \
            and gc[4] == np.float32
        c_shape = tuple(gc[5][1:])

        def run(pc, idx):
            waves = np.arange(self.n)[idx]
            for s in range(0, len(waves), chunk):
                part = waves[s:s + chunk]
                w = len(part)
                if isinstance(idx, slice):  # consecutive waves: the tables, from the first one on
                    first = int(part[0]) * WAVE
                    operands = [(flat_regs[first:], table[:w], g) for flat_regs, _p, table, g in sources]
                    where, target = d_table[:w], d_regs[first:]
                else:
                    at = part[:, None] * WAVE
                    operands = [(flat_regs, at + pos, g) for flat_regs, pos, _t, g in sources]
                    where, target = at + d_pos, d_regs
                a, b = (_elements(*op) for op in operands[:2])
                c = accel.gather_f32(*operands[2][:2]) if direct else None  # fp32 C: one compiled pass
                c = _elements(*operands[2]) if c is None else c.reshape((-1,) + c_shape)
                if direct:  # compute()'s own first choice (the numba exact sum), D stored by numba too
                    d64 = accel.exact_sum(a, b, c)
                    if d64 is not None and accel.scatter_f32(target, where, d64.reshape(w, -1)):
                        continue
                d = mfma_exec.compute(info, a, b, c)
                target[where] = d.view(np.uint32).reshape(w, -1)
            self._written(dst.file, dst.index, info.cd_regs, idx)  # MFMAs ignore EXEC
            self.PC[idx] = pc + 1
            return True
        return run

    # ------------------------------------------------------------------ memory: one gather or scatter per group
    def _memory_path(self, ins, base: str):
        from .semantics import ds, vmem
        m = ins.mnemonic
        mods = {x.name for x in ins.modifiers}
        ops = ins.operands
        if m in ds.DS_READS and ds.DS_READS[m].kind == "raw" and mods <= {"offset"}:
            form = ds.DS_READS[m]
            return self._ds_access(ins, [(0, form.size)], ops[0], ops[1], None, pow2=_pow2ceil(form.size))
        if m in ds.DS_WRITES and ds.DS_WRITES[m][1] == 0 and ds.DS_WRITES[m][0] % 4 == 0 and mods <= {"offset"}:
            size = ds.DS_WRITES[m][0]
            return self._ds_access(ins, [(0, size)], None, ops[0], [ops[1]], pow2=_pow2ceil(size))
        if m in ds.DS_READ2 and mods <= {"offset0", "offset1"}:
            elem, mult = ds.DS_READ2[m]
            return self._ds_access(ins, [("offset0", elem, mult), ("offset1", elem, mult)], ops[0], ops[1], None,
                                   pow2=elem)
        if m in ds.DS_WRITE2 and mods <= {"offset0", "offset1"}:
            elem, mult = ds.DS_WRITE2[m]
            return self._ds_access(ins, [("offset0", elem, mult), ("offset1", elem, mult)], None, ops[0],
                                   [ops[1], ops[2]], pow2=elem)
        if not mods <= {"offset"}:
            return None
        if base.startswith("global_load_lds_"):
            form = vmem.LDS_DMA_FORMS.get(base[len("global_load_lds_"):])
            if form is None or form.kind != "raw" or len(ops) != 2:
                return None
            return self._global_access(ins, form.size, ops[0], ops[1], dst=None, data=None, lds_dma=True)
        if base.startswith("global_load_"):
            form = vmem.LOAD_FORMS.get(base[len("global_load_"):])
            if form is None or form.kind != "raw" or len(ops) != 3:
                return None
            return self._global_access(ins, form.size, ops[1], ops[2], dst=ops[0], data=None)
        if base.startswith("global_store_"):
            form = vmem.STORE_FORMS.get(base[len("global_store_"):])
            if form is None or form[1] != 0 or form[0] % 4 or len(ops) != 3:
                return None
            return self._global_access(ins, form[0], ops[0], ops[2], dst=None, data=ops[1])
        return None

    def _vreg_or_none(self, op, count: int):
        if not isinstance(op, Reg) or op.file not in ("v", "a") or op.count < count:
            return None
        return op

    def _ds_access(self, ins, pieces, dst, vaddr, data, pow2: int):
        """ds_read*/ds_write* (dword-sized elements) over a group: per-workgroup LDS rows."""
        from .semantics.memaddr import ds_address, modifier_int
        if self.LDS is None or not isinstance(vaddr, Reg) or vaddr.file != "v":
            return None
        sizes = [p[1] for p in pieces]
        dwords = [s // 4 for s in sizes]
        if dst is not None and self._vreg_or_none(dst, sum(dwords)) is None:
            return None
        if data is not None and any(self._vreg_or_none(o, dw) is None for o, dw in zip(data, dwords)):
            return None
        try:
            probe = Ctx(self.states[0], ins)
            offsets = [modifier_int(probe, "offset") if p[0] == 0 else modifier_int(probe, p[0]) * p[2]
                       for p in pieces]
        except SimError:
            return None
        words_per_wg = self.LDS.shape[1] // 4
        flat = self.LDS.reshape(-1).view("<u4")
        # the workgroup's allocation (the group segment, static + dynamic), not the row's length:
        # an access past it leaves the fast path, and the per-wave path stops the run there
        lds_size = min(self.LDS.shape[1], self.lds_size)
        # every offset a multiple of the alignment: the VGPR addresses alone decide alignment,
        # and the word index is the VGPR's plus the offset's (uint32 passes, no int64 addresses)
        shifted = all(off % pow2 == 0 for off in offsets)
        reach = max(off + size for off, size in zip(offsets, sizes))
        # records of dw words start at multiples of dw (aligned addresses, aligned rows)
        records = [pow2 >= size and words_per_wg % dw == 0 for size, dw in zip(sizes, dwords)]

        def word_indices(idx, mask, full) -> list:
            """Per piece: each lane's first word in the flat LDS array (inactive lanes: a word of
            their own workgroup's row); _Abort when an active lane is out of range or misaligned
            (the per-wave path notes it)."""
            v = self._vread("v", vaddr.index, 1, idx)[0]
            wg = self.workgroup_of[idx][:, None] * words_per_wg
            if shifted:
                act = v if full else v[mask]
                if act.size:
                    highest = int(ds_address(act.max().reshape(1), 0)[0])
                    if highest + reach > lds_size or (act & np.uint32(pow2 - 1)).any():
                        raise _Abort
                words = v >> np.uint32(2)
                addrs = [words + (wg + off // 4) for off in offsets]
                return addrs if full else [np.where(mask, a, wg) for a in addrs]
            base = ds_address(v, 0)
            addrs = []
            for off, size in zip(offsets, sizes):
                a = base + off
                if not _fits(a if full else a[mask], size, lds_size, pow2):
                    raise _Abort
                addrs.append((a >> 2 if full else np.where(mask, a >> 2, 0)) + wg)
            return addrs

        def run(pc, idx):
            mask, full = self._exec(idx)
            addrs = word_indices(idx, mask, full)
            if dst is not None:  # (every address computed above: dst may hold the VGPR address)
                at = dst.index
                for a, dw, rec in zip(addrs, dwords, records):
                    self._load(dst.file, at, dw, flat, a, idx, None if full else mask, rec)
                    at += dw
            else:
                srcs = [self._vread(o.file, o.index, dw, idx) for o, dw in zip(data, dwords)]
                for a, dw, src, rec in zip(addrs, dwords, srcs, records):
                    _scatter(flat, a, dw, src, None if full else mask, rec)
            self.PC[idx] = pc + 1
            return True
        return run

    def _global_access(self, ins, size: int, vaddr, saddr, dst, data, lds_dma: bool = False):
        """global_load/store_dword[xN] and global_load_lds_dword over a group: one gather or
        scatter into the one buffer every active lane addresses."""
        from .semantics.memaddr import global_addresses, lds_dma_addresses, modifier_int
        off_form = isinstance(saddr, Special) and saddr.name == "off"
        if not isinstance(vaddr, Reg) or vaddr.file != "v":
            return None
        if not off_form and not (isinstance(saddr, Reg) and saddr.file == "s" and saddr.count == 2):
            return None
        dw = size // 4
        if dst is not None and self._vreg_or_none(dst, dw) is None:
            return None
        if data is not None and self._vreg_or_none(data, dw) is None:
            return None
        if lds_dma and (self.LDS is None or size != 4):
            return None
        try:
            offset = modifier_int(Ctx(self.states[0], ins), "offset")
        except SimError:
            return None
        target = self.kernel.target.name
        lds_size = self.LDS.shape[1] if self.LDS is not None else 0  # a workgroup's row of LDS
        lds_limit = min(lds_size, self.lds_size)  # what the group segment allocates (static + dynamic)

        def run(pc, idx):
            mask, full = self._exec(idx)
            if off_form:
                v = self._vread("v", vaddr.index, 2, idx)
                addrs = global_addresses(v[0].astype(np.uint64) | (v[1].astype(np.uint64) << np.uint64(32)),
                                         None, offset)
            else:
                if not self.SI[idx, saddr.index:saddr.index + 2].all():
                    raise _Abort
                s = self.S[idx, saddr.index].astype(np.uint64) | \
                    (self.S[idx, saddr.index + 1].astype(np.uint64) << np.uint64(32))
                addrs = global_addresses(self._vread("v", vaddr.index, 1, idx)[0], s[:, None], offset)
            if not mask.any():
                self.PC[idx] = pc + 1
                return True
            active = addrs if full else addrs[mask]
            lo, hi = int(active.min()), int(active.max())
            buf = self.memory.find(lo)
            if buf is None or hi + size > buf.end or (active & np.uint64(3)).any() or len(buf.data) % 4:
                raise _Abort  # a fault or a misaligned access: the per-wave path reports it
            words = buf.data.view("<u4")
            w = (addrs - np.uint64(buf.base)) >> np.uint64(2)
            w = (w if full else np.where(mask, w, 0)).astype(np.int64)
            if lds_dma:
                m0 = self.S[idx, 124]
                if not self.SI[idx, 124].all():
                    raise _Abort
                la = np.broadcast_to(lds_dma_addresses("global", target, m0.astype(np.int64)[:, None], offset, size),
                                     w.shape)
                if not _fits(la if full else la[mask], 4, lds_limit, 1):
                    raise _Abort
                where = la // 4 + self.workgroup_of[idx][:, None] * (lds_size // 4)
                taken = w if full else w[mask]
                self.LDS.reshape(-1).view("<u4")[where if full else where[mask]] = np.take(words, taken)
            elif dst is not None:
                self._load(dst.file, dst.index, dw, words, w, idx, None if full else mask)
            else:
                _scatter(words, w, dw, self._vread(data.file, data.index, dw, idx), None if full else mask)
                if buf.written is not None:
                    where = ((w if full else w[mask]).reshape(-1)[:, None] + np.arange(dw)).reshape(-1)
                    buf.written[(where[:, None] * 4 + np.arange(4)).reshape(-1)] = True
            self.PC[idx] = pc + 1
            return True
        return run


class _GroupWave:
    """What Ctx reads of `wave` for a group: register files whose rows are (G, 64)."""

    def __init__(self, eng: FunctionalEngine, idx, rep: WaveState):
        self.vgpr = _Rows(eng.V, idx)
        self.vgpr_init = _InitRows(eng.VI, idx, eng.known["v"])
        self.agpr = _Rows(eng.A, idx)
        self.agpr_init = _InitRows(eng.AI, idx, eng.known["a"])
        self.sgpr = rep.sgpr  # scalar reads go through GroupCtx, which checks they are shared
        self.sgpr_init = rep.sgpr_init
        self.scc = 0
        self.wave_id = rep.wave_id


class _Rows:
    """`rows[r]` -> (G, 64) lanes of register r of every wave of the group; `rows[a:b]` ->
    (b - a, G, 64); len() -> registers per wave."""

    __slots__ = ("arr", "idx")

    def __init__(self, arr: np.ndarray, idx):
        self.arr, self.idx = arr, idx

    def __getitem__(self, key):
        return self.arr[key, self.idx]

    def __len__(self) -> int:
        return self.arr.shape[0]


_ONES = np.ones((4, WAVE), dtype=bool)
_ONES.flags.writeable = False


class _InitRows(_Rows):
    """Written-flags of a group's registers: one all-true row (what Ctx compares against) when
    every lane of every wave of the group has the register written, else the (G, 64) flags."""

    __slots__ = ("known",)

    def __init__(self, arr: np.ndarray, idx, known: np.ndarray):
        super().__init__(arr, idx)
        self.known = known

    def __getitem__(self, key):
        if isinstance(key, slice):
            lo, hi, _ = key.indices(self.arr.shape[0])
            n = max(0, hi - lo)
            if n <= len(_ONES) and self.known[lo:hi].all():
                return _ONES[:n]
            rows = self.arr[key, self.idx]
            if n <= len(_ONES) and rows.all():
                if self.idx is EVERYONE:
                    self.known[lo:hi] = True
                return _ONES[:n]
            return rows
        if self.known[key]:
            return _ONES[0]
        rows = self.arr[key, self.idx]
        if rows.all():
            if self.idx is EVERYONE:
                self.known[key] = True
            return _ONES[0]
        return rows


class GroupCtx(Ctx):
    """The Ctx of one instruction for a group of waves: vector sources are (G, 64) arrays,
    so a lane-wise semantic function computes the whole group in one call.

    Everything a group cannot share raises _Abort (the engine then runs the group per wave):
    a never-written register, a scalar the function needs as one number that differs between
    waves, notes, memory operations, hardware registers.
    """

    @classmethod
    def make(cls, eng: FunctionalEngine, pc: int, idx) -> "GroupCtx":
        rows = eng._rows(idx)
        rep = eng.states[int(rows[0])]
        self = cls.__new__(cls)
        d = eng._template(pc).copy()
        d["wave"] = _GroupWave(eng, idx, rep)
        d["writes"] = []
        d["memops"] = []
        d["reads"] = []
        d["notes"] = []
        self.__dict__ = d
        self.eng = eng
        self.idx = idx
        self.rep = int(rows[0])
        self._pending: list = []
        self._mask, self._full = eng._exec(idx)
        self.g = len(rows)
        return self

    # -- EXEC
    @property
    def exec(self) -> np.ndarray:
        self.reads.append(("s", 126))
        self.reads.append(("s", 127))
        return np.broadcast_to(self._mask, (self.g, WAVE)).copy()

    def _exec_full(self):
        return self.exec, self._full

    # -- scalars: shared by the group, or per wave where the function only broadcasts them
    def _uniform(self, slots) -> None:
        S, SI = self.eng.S, self.eng.SI
        idx = self.idx
        for s in slots:
            col = S[idx, s]
            if not SI[idx, s].all() or not (col == col[0]).all():
                raise _Abort

    def scalar_value(self, operand, width: int = 1, ftype: str = "f32", signed: bool = False) -> int:
        if isinstance(operand, Special) and operand.name in ("scc", "src_scc"):
            scc = self.eng.SCC[self.idx]
            if not (scc == scc[0]).all():
                raise _Abort
            self.wave.scc = int(scc[0])
        elif isinstance(operand, Special) and operand.name in ("vccz", "src_vccz"):
            self._uniform((106, 107))
        elif isinstance(operand, Special) and operand.name in ("execz", "src_execz"):
            self._uniform((126, 127))
        elif isinstance(operand, (Reg, Special)) and not (isinstance(operand, Reg) and operand.file in ("v", "a")):
            slot, count = self._scalar_slots(operand)
            self._uniform(range(slot, slot + min(count, width)))
        return super().scalar_value(operand, width, ftype, signed)

    def _raw_lanes(self, operand, kind: str, src, quiet: bool) -> np.ndarray:
        if (isinstance(operand, Reg) and operand.file in ("s", "ttmp")) or \
                (isinstance(operand, Special) and operand.name not in ("scc", "src_scc", "vccz", "src_vccz",
                                                                       "execz", "src_execz")
                 and operand.name in _SCALAR_SPECIALS):
            slot, count = self._scalar_slots(operand)
            wide = 2 if (kind in _WIDE_KINDS) else 1
            n = min(count, wide)
            S, SI, idx = self.eng.S, self.eng.SI, self.idx
            if not SI[idx, slot:slot + n].all():
                raise _Abort
            for k in range(n):
                self.reads.append(("s", slot + k))
            value = S[idx, slot].astype(np.uint64 if wide == 2 else np.uint32)
            if n == 2:
                value = value | (S[idx, slot + 1].astype(np.uint64) << np.uint64(32))
            return np.repeat(value[:, None], WAVE, axis=1)
        return super()._raw_lanes(operand, kind, src, quiet)

    def lane_mask(self, operand) -> np.ndarray:
        slot, count = self._scalar_slots(operand)
        S, SI, idx = self.eng.S, self.eng.SI, self.idx
        if not SI[idx, slot:slot + 2].all() or count < 2:
            raise _Abort
        self.reads += [("s", slot), ("s", slot + 1)]
        return exec_lanes(S[idx, slot], S[idx, slot + 1])

    def _check_init(self, file: str, index: int, dwords: int, init) -> None:
        if not init[index:index + dwords].all():
            raise _Abort

    # -- what a group cannot share
    def note(self, message: str) -> None:
        raise _Abort

    def defer(self, memop) -> None:
        raise _Abort

    def hwreg(self, reg: int) -> int:
        raise _Abort

    def set_hwreg(self, reg: int, value: int) -> None:
        raise _Abort

    def _dpp(self):
        raise _Abort

    # -- writes: collected, landed after the function returns (it read everything at issue)
    def write_v(self, i_or_reg, values, mask=None) -> None:
        reg = self.op(i_or_reg) if isinstance(i_or_reg, int) else i_or_reg
        if not isinstance(reg, Reg) or reg.file not in ("v", "a"):
            raise _Abort
        v = np.asarray(values)
        if v.dtype.itemsize == 8 and v.dtype.kind in "uif":
            v64 = v.view(np.uint64) if v.dtype.kind != "i" else v.astype(np.uint64)
            v = np.stack([(v64 & np.uint64(M32)).astype(np.uint32), (v64 >> np.uint64(32)).astype(np.uint32)])
            if v.ndim == 2:
                v = v[:, None, :]
        elif v.dtype.itemsize == 4 and v.dtype.kind in "if":
            v = v.view(np.uint32)
        else:
            v = v.astype(np.uint32)
        if v.ndim == 1:
            v = v[None, None, :]
        elif v.ndim == 2:
            v = v[None]
        if v.ndim != 3 or v.shape[1] not in (1, self.g) or v.shape[2] != WAVE:
            raise _Abort
        v = np.broadcast_to(v, (v.shape[0], self.g, WAVE))
        arr = self.eng.V if reg.file == "v" else self.eng.A
        if reg.index + v.shape[0] > arr.shape[0]:
            raise _Abort  # the per-wave path raises the exact error
        self.reads.append(("s", 126))
        self.reads.append(("s", 127))
        if mask is not None:
            lanes = np.broadcast_to(np.asarray(mask, dtype=bool), (self.g, WAVE))
            if lanes.all():
                lanes = None
        else:
            lanes = None if self._full else np.broadcast_to(self._mask, (self.g, WAVE))
        self._pending.append(("v", reg.file, reg.index, v, lanes))

    def write_s(self, i_or_reg, value, width: int = 1) -> None:
        operand = self.op(i_or_reg) if isinstance(i_or_reg, int) else i_or_reg
        if isinstance(operand, Special) and operand.name == "scc":
            self.write_scc(value)
            return
        slot, _count = self._scalar_slots(operand)
        self.write_slot(slot, value, width)

    def write_slot(self, slot: int, value, width: int = 1) -> None:
        value = np.broadcast_to(np.asarray(value, dtype=np.uint64) if not isinstance(value, int)
                                else np.uint64(value & ((1 << 64) - 1)), (self.g,))
        for k in range(width):
            self._pending.append(("s", slot + k, (value >> np.uint64(32 * k)) & np.uint64(M32)))

    def write_scc(self, value) -> None:
        self._pending.append(("scc", np.broadcast_to(np.asarray(value, dtype=bool), (self.g,)).astype(np.int64)))

    def write_lane_mask(self, i_or_reg, bits) -> None:
        b = np.broadcast_to(np.asarray(bits, dtype=bool), (self.g, WAVE))
        value = np.packbits(b, axis=1, bitorder="little").view("<u8")[:, 0]
        operand = self.op(i_or_reg) if isinstance(i_or_reg, int) else i_or_reg
        if isinstance(operand, Reg) and operand.count == 1 or isinstance(operand, Special) and \
                operand.name.endswith(("_lo", "_hi")):
            self.write_s(operand, value & np.uint64(M32), 1)
            return
        self.write_s(operand, value, 2)

    def land(self) -> None:
        """Apply the collected writes to the group (after every read, as at issue)."""
        eng, idx = self.eng, self.idx
        for w in self._pending:
            if w[0] == "v":
                _, file, index, v, lanes = w
                eng._vwrite(file, index, np.ascontiguousarray(v), idx, lanes)
            elif w[0] == "s":
                _, slot, vals = w
                eng.S[idx, slot] = vals.astype(np.uint32)
                if slot in (126, 127):
                    eng._exec_whole = None
                eng.SI[idx, slot] = True
            else:
                eng.SCC[idx] = w[1]


def _records(words: np.ndarray, dw: int) -> np.ndarray:
    """The words as records of `dw` words (one opaque item each: np.take moves them whole,
    several times faster than a fancy index over a 2-D view)."""
    return words.view(np.dtype((np.void, 4 * dw)))


def _fits(addrs: np.ndarray, size: int, limit: int, align: int) -> bool:
    """Every access [a, a + size) of these (active lanes') addresses lies in [0, limit) and is
    `align`-aligned (a power of two). Three reductions, no boolean temporaries."""
    if addrs.size == 0:
        return True
    return int(addrs.min()) >= 0 and int(addrs.max()) + size <= limit and not (addrs & (align - 1)).any()


def _multiple(first: np.ndarray, dw: int) -> bool:
    """Every word index is a multiple of dw (a bit test when dw is a power of two)."""
    return not (first & (dw - 1) if dw & (dw - 1) == 0 else first % dw).any()


def _assign(dst: np.ndarray, src: np.ndarray) -> None:
    """dst[...] = src for (count, G, 64) register rows, as (count, G * 64) views where both
    allow it: numpy copies a transposed gather (each lane's words together) into register rows
    ~2.4x faster over two axes than over three (measured: 0.36 ms against 0.88 ms, 1024 waves x
    4 dwords)."""
    if dst.ndim == 3 and src.shape == dst.shape:
        try:
            flat = np.reshape(dst, (dst.shape[0], -1), copy=False)
        except ValueError:
            pass
        else:
            flat[...] = src.reshape(src.shape[0], -1)
            return
    dst[...] = src


def _lane_major(src: np.ndarray) -> np.ndarray:
    """uint32[dw, G, 64] register rows -> contiguous uint32[G * 64, dw]: each lane's words
    together (a two-axis transpose, see `_assign`)."""
    return np.ascontiguousarray(src.reshape(src.shape[0], -1).T)


def _gather(words: np.ndarray, first: np.ndarray, dw: int, records: bool = False) -> np.ndarray:
    """uint32[dw, G, 64]: `dw` consecutive words from each lane's first word index. Aligned
    records (index a multiple of dw; `records`: the caller knows they are) are fetched as one
    item each."""
    if dw == 1:
        return np.take(words, first)[None]
    if len(words) % dw == 0 and (records or _multiple(first, dw)):
        got = np.take(_records(words, dw), first // dw).view(np.uint32).reshape(first.shape + (dw,))
        return np.moveaxis(got, 2, 0)
    return np.take(words, first[None] + np.arange(dw)[:, None, None])


def _scatter(words: np.ndarray, first: np.ndarray, dw: int, src: np.ndarray, mask: np.ndarray | None,
             records: bool = False) -> None:
    """Write src (uint32[dw, G, 64]) to `dw` words from each enabled lane's first word index
    (mask None: every lane), in wave order then lane order (the order the per-wave path
    writes: later lanes win)."""
    values = _lane_major(src)  # (G * 64, dw)
    at = first.reshape(-1)
    if mask is not None:
        lanes = mask.reshape(-1)
        values, at = values[lanes], at[lanes]
    if dw == 1:
        words[at] = values[:, 0]
    elif len(words) % dw == 0 and (records or _multiple(at, dw)):
        _records(words, dw)[at // dw] = values.view(np.dtype((np.void, 4 * dw))).reshape(-1)
    else:
        words[(at[:, None] + np.arange(dw)).reshape(-1)] = values.reshape(-1)


def _elements(flat_regs: np.ndarray, where: np.ndarray, g) -> np.ndarray:
    """float64 (waves * blocks, rows, cols): an MFMA operand's elements, one row of `where`
    (flat positions in a register file) per wave, decoded as `mfma_exec._fast_plan` decodes one
    wave's (`g` is that operand's `mfma_exec._gather`)."""
    _flat, shift, mask, u, dt, shape = g
    raw = np.take(flat_regs, where)
    if shift is not None:
        raw >>= shift
    if mask is not None:
        raw &= mask
    return raw.astype(u, copy=False).view(dt).astype(np.float64).reshape((-1,) + tuple(shape[1:]))


def _pack_many(info, d: np.ndarray, waves: int) -> np.ndarray:
    """uint32[waves, cd_regs, 64]: `mfma_exec._pack_d` of each wave's blocks of D, as one scatter
    when D's layout is the plain 32-bit one (`_pack_d` caches that layout)."""
    from ..isa import mfma as M
    from . import mfma_exec
    blk = info.blocks
    first = mfma_exec._pack_d(info, d[:blk])
    scatter = mfma_exec._D_SCATTER.get(info)
    if not scatter:
        return np.stack([first] + [mfma_exec._pack_d(info, d[k * blk:(k + 1) * blk]) for k in range(1, waves)])
    reg, lane, shape, nregs = scatter
    et = info.element_type("D")
    if d.dtype == et.dtype and d.dtype.itemsize == 4:  # already the element type: its bits as they are
        bits = d.reshape(waves, -1).view(np.uint32)
    else:
        bits = M._to_bits(d.reshape((waves,) + tuple(shape)), et).reshape(waves, -1)
    order = _D_ORDER.get(info)
    if order is None:
        pos = np.asarray(reg) * WAVE + np.asarray(lane)
        if len(pos) == nregs * WAVE:  # every (register, lane) holds one element: a permutation
            order = _D_ORDER[info] = np.argsort(pos)
    if order is not None:
        return np.take(bits, order, axis=1).reshape(waves, nregs, WAVE)
    out = np.zeros((waves, nregs, WAVE), dtype=np.uint32)
    out[:, reg, lane] = bits
    return out


_D_ORDER: dict = {}  # MfmaInfo -> the D elements in (register, lane) order, when they fill D exactly


_WIDE_KINDS = frozenset({"b64", "u64", "i64", "f64"})
_SCALAR_SPECIALS = frozenset({"vcc", "vcc_lo", "vcc_hi", "m0", "exec", "exec_lo", "exec_hi", "flat_scratch",
                              "flat_scratch_lo", "flat_scratch_hi", "xnack_mask", "xnack_mask_lo",
                              "xnack_mask_hi"})


def _apply(st: WaveState, wr: RegWrite) -> None:
    """A register write landing at once (the timed engine's Engine._apply, without timing)."""
    f = wr.file
    if f in ("v", "a"):
        arr, init = (st.vgpr, st.vgpr_init) if f == "v" else (st.agpr, st.agpr_init)
        lo, n = wr.index, len(wr.values)
        if wr.mask is None or wr.full:
            arr[lo:lo + n] = wr.values
            init[lo:lo + n] = True
        else:
            masked_write(arr[lo:lo + n], wr.values, wr.mask[None, :])
            init[lo:lo + n] |= wr.mask[None, :]
    elif f == "s":
        lo, n = wr.index, len(wr.values)
        st.sgpr[lo:lo + n] = wr.values
        st.sgpr_init[lo:lo + n] = True
    elif f == "scc":
        st.scc = int(wr.values[0])
