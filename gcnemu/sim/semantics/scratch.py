"""Scratch (private memory): `scratch_load_*` / `scratch_store_*`, per lane.

Every lane owns `private_segment_size` bytes (the kernel descriptor's
`.amdhsa_private_segment_fixed_size`, or the header's `scratch:`). The launch gives each wave
one global buffer of 64 x that size; lane L's private byte P lives at base + L * size + P. The
hardware interleaves lanes differently, but a lane can only name its own private bytes, so no
program can tell. The private address is `vaddr` (32 bits, or `off`) + `saddr` (an SGPR, or
`off`) + the instruction offset; the load and store themselves are the global memory
operations of `vmem` (the same memops, forms and d16 rules).

A private address outside the lane's segment is an error that names the lane, the bytes and the
segment size: scratch overflow on hardware silently corrupts another lane's or wave's data.
"""
from __future__ import annotations

import numpy as np

from ...asm.program import Instruction, Special
from ..context import Ctx, SimError
from ..memops import GlobalLoad, GlobalStore
from . import semantic
from .memaddr import modifier_int
from .vmem import LOAD_FORMS, STORE_FORMS, _lanes, _old, _store_bytes, _vreg


def _is_off(operand) -> bool:
    return isinstance(operand, Special) and operand.name == "off"


def _private_addresses(ctx: Ctx, vaddr_op, saddr_op, size: int, lanes: np.ndarray) -> np.ndarray:
    """The global addresses of each active lane's private bytes (SimError past the segment)."""
    wave = ctx.wave
    seg = int(getattr(wave, "scratch_size", 0) or 0)
    base = getattr(wave, "scratch_base", None)
    if base is None or seg <= 0:
        raise SimError(f"{ctx.ins.mnemonic}: the kernel has no private segment (set "
                       ".amdhsa_private_segment_fixed_size in its descriptor, or 'scratch: BYTES' in the header)")
    private = np.full(64, modifier_int(ctx, "offset"), dtype=np.int64)
    if not _is_off(vaddr_op):
        private += ctx.vector_value(_vreg(ctx, vaddr_op, "address"), "int").astype(np.int64)
    if saddr_op is not None and not _is_off(saddr_op):
        private += int(ctx.scalar_value(saddr_op, 1)) & 0xFFFFFFFF
    private = private[lanes]
    bad = (private < 0) | (private + size > seg)
    if bad.any():
        k = int(np.nonzero(bad)[0][0])
        lo = int(private[k])
        raise SimError(f"{ctx.ins.mnemonic}: lane {int(lanes[k])} accesses private bytes [{lo}, {lo + size}) "
                       f"outside its {seg}-byte private segment (scratch overflow)", int(lanes[k]), lo)
    return (np.uint64(base) + lanes.astype(np.uint64) * np.uint64(seg) + private.astype(np.uint64))


def _load(ctx: Ctx, ins: Instruction, suffix: str) -> None:
    form = LOAD_FORMS[suffix]
    dst = _vreg(ctx, ctx.op(0), "destination")
    lanes = _lanes(ctx)
    saddr = ctx.op(2) if len(ins.operands) > 2 else None
    addrs = _private_addresses(ctx, ctx.op(1), saddr, form.size, lanes)
    ctx.defer(GlobalLoad(dst.file, dst.index, form.dwords, lanes, form.size, form.kind, _old(ctx, dst, form.kind),
                         f"{ins.span}: {ins.text()}", addrs=addrs))


def _store(ctx: Ctx, ins: Instruction, suffix: str) -> None:
    size, shift = STORE_FORMS[suffix]
    lanes = _lanes(ctx)
    saddr = ctx.op(2) if len(ins.operands) > 2 else None
    addrs = _private_addresses(ctx, ctx.op(0), saddr, size, lanes)
    data = _store_bytes(ctx, ctx.op(1), size, shift, lanes)
    ctx.defer(GlobalStore(lanes, addrs, data, origin=f"{ins.span}: {ins.text()}"))


for _sfx in LOAD_FORMS:
    semantic(f"scratch_load_{_sfx}")(lambda ctx, ins, s=_sfx: _load(ctx, ins, s))
for _sfx in STORE_FORMS:
    semantic(f"scratch_store_{_sfx}")(lambda ctx, ins, s=_sfx: _store(ctx, ins, s))
