"""The memory counters of one wave (vmcnt, lgkmcnt, expcnt) as the gfx9 ISA defines them.

A counter is the number of operations of its kind issued and not yet complete. The
engine gives every counted operation its completion cycle at issue (that is where the
ordering rules are applied, see below), so the counter's value at any cycle, and the
cycle at which it drops to a given value, follow from the completion times alone:

- ``vm``: vector memory loads, stores (gfx9 has no separate store counter) and LDS DMA.
  They return in issue order, so the engine never lets one complete before an older one.
- ``lgkm``: LDS, GDS, scalar memory and messages. LDS operations complete in order (one
  FIFO per CU); SMEM may return out of order, so with SMEM outstanding only
  ``lgkmcnt(0)`` guarantees a particular result: ``s_waitcnt lgkmcnt(N)`` releases once at
  most N operations are outstanding, whichever they are.
- ``exp``: exports and GDS. On gfx9 VMEM stores do not use expcnt (only gfx6 needed an
  expcnt wait before overwriting store data; LLVM ``vmemWriteNeedsExpWaitcnt``).

The state is small and immutable per operation, so snapshots copy lists of references.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..isa.rule_ids import RULE_MFMA_READ, RULE_OVERWRITE  # ids the engine shares with the rule table

COUNTERS = ("vm", "lgkm", "exp")
COUNTER_NAMES = {"vm": "vmcnt", "lgkm": "lgkmcnt", "exp": "expcnt"}

# Why a wave did not issue, as the engine books stall cycles (`gcnemu run` stall breakdown,
# snippet `expect stall REASON`): one list, so a misspelt expectation is an error, not a 0.
STALL_REASONS = ("waitcnt vmcnt", "waitcnt lgkmcnt", "waitcnt expcnt", "pipe busy", "counter full",
                 "dependency", "barrier", "nop", "sleep", "branch")

# Dynamic hazard rule ids raised by the engine: the counter rules of the hazard table
# (gcnemu/isa/data/hazards.toml [[counter_rule]]), so `run` and `lint` name a race alike.
RULE_VMEM_READ = "vmem-result-before-vmcnt"  # a VGPR read before the load writing it returned
RULE_LDS_READ = "ds-result-before-lgkmcnt"  # a VGPR read before the ds_read writing it returned
RULE_SMEM_READ = "smem-result-before-lgkmcnt"  # an SGPR read before the s_load writing it returned
RULE_LDS_DMA_READ = "lds-dma-read-before-vmcnt"  # LDS bytes read before the LDS DMA writing them landed
RULE_BARRIER_LDS = "barrier-lds-write-pending"  # s_barrier released while a wave's LDS writes are in flight
RULE_VMEM_OVERWRITE = "vmem-dst-overwrite-before-vmcnt"  # a register written while a load to it is in flight
RULE_LGKM_OVERWRITE = "lgkm-dst-overwrite-before-lgkmcnt"  # the same for ds_read / s_load results
OVERWRITE_RULE = {"vmem": RULE_VMEM_OVERWRITE, "lds": RULE_LGKM_OVERWRITE, "smem": RULE_LGKM_OVERWRITE}


@dataclass(frozen=True, slots=True)
class CounterOp:
    """One counted operation still outstanding: what the debugger's `counters` shows."""

    counter: str  # vm | lgkm | exp
    kind: str  # load | store | atomic | lds-dma | lds | smem | msg
    index: int  # instruction index in the kernel
    issue: int
    complete: int


class WaveCounters:
    """Outstanding counted operations of one wave, per counter, in issue order."""

    __slots__ = ("ops", "maxima", "last_vm")

    def __init__(self, maxima: dict[str, int]):
        self.ops: dict[str, list[CounterOp]] = {c: [] for c in COUNTERS}
        self.maxima = maxima
        self.last_vm = 0  # completion of the youngest vm operation: later ones may not finish earlier

    def copy(self) -> "WaveCounters":
        c = WaveCounters.__new__(WaveCounters)
        c.ops = {k: list(v) for k, v in self.ops.items()}
        c.maxima = self.maxima
        c.last_vm = self.last_vm
        return c

    def add(self, op: CounterOp) -> None:
        self.ops[op.counter].append(op)
        if op.counter == "vm" and op.complete > self.last_vm:
            self.last_vm = op.complete

    def vm_in_order(self, complete: int) -> int:
        """The completion a new vm operation gets: not before the youngest outstanding one."""
        return complete if complete >= self.last_vm else self.last_vm

    def _prune(self, counter: str, now: int) -> list[CounterOp]:
        ops = self.ops[counter]
        if ops and any(o.complete <= now for o in ops):
            ops = [o for o in ops if o.complete > now]
            self.ops[counter] = ops
        return ops

    def outstanding(self, counter: str, now: int) -> list[CounterOp]:
        """Operations of `counter` not complete at cycle `now` (issue order)."""
        return list(self._prune(counter, now))

    def value(self, counter: str, now: int) -> int:
        return len(self._prune(counter, now))

    def release(self, counter: str, limit: int, now: int) -> int:
        """First cycle >= now at which at most `limit` operations of `counter` are outstanding.

        Completions are known, so this is the (k - limit)-th earliest completion among
        the k outstanding: for in-order counters the oldest ones, for SMEM any.
        """
        ops = self._prune(counter, now)
        k = len(ops)
        if k <= limit:
            return now
        times = sorted(o.complete for o in ops)
        return times[k - limit - 1]

    def full_until(self, counter: str, now: int) -> int:
        """`now` if another operation of `counter` may issue, else the cycle a slot frees."""
        return self.release(counter, self.maxima[counter] - 1, now)

    def any_outstanding(self, now: int) -> bool:
        return any(self._prune(c, now) for c in COUNTERS)
