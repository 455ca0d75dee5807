"""Scalar memory: s_load_dword*, s_buffer_load_dword*, s_store_dword*, s_buffer_store_dword*.

The address is formed at issue and the access is handed to the memory system
(`memops.ScalarLoad` / `GlobalStore`), which performs it when the engine says
the instruction completes; the SGPRs are written then (counted by lgkmcnt).

gfx9 rules (ISA guide, "Scalar Memory Operations"):
- offset: an immediate byte offset (21-bit signed on gfx9, so negative offsets
  exist), or an SGPR holding an unsigned byte offset, or both
  (`s_load_dword s0, s[0:1], s2 offset:0x10`);
- the address is dword aligned: bits [1:0] of base + offset are ignored (a note
  says so when they were not zero);
- s_buffer_*: the base is a 4-SGPR buffer descriptor V# (base address in
  word0 and word1[15:0], stride in word1[29:16], num_records in word2). Each
  dword is range checked against num_records (bytes; num_records * stride when
  the stride is not 0): out-of-range dwords of a load read 0, of a store are
  dropped. Only complete dwords inside the range count.
"""
from __future__ import annotations

import numpy as np

from ...asm.program import Reg
from ..context import Ctx, SimError
from ..memops import GlobalStore, ScalarLoad
from . import semantic

M64 = 0xFFFFFFFFFFFFFFFF
SIZES = {"dword": 1, "dwordx2": 2, "dwordx4": 4, "dwordx8": 8, "dwordx16": 16}


def _offset(ctx: Ctx) -> int:
    """Byte offset: SGPR (unsigned 32-bit) and/or immediate (signed), as written."""
    op = ctx.op(2)
    total = 0
    if isinstance(op, Reg) or getattr(op, "name", None) in ("m0", "vcc_lo", "vcc_hi", "exec_lo", "exec_hi"):
        total += ctx.scalar_value(op, 1, "int")
        imm = ctx.modifier("offset")
        if imm is not None:
            total += int(imm)
    else:
        total += ctx.const(op)
    return total


def _aligned(ctx: Ctx, address: int) -> int:
    if address & 3:
        ctx.note(f"{ctx.ins.mnemonic}: address 0x{address:x} is not dword aligned; "
                 "the hardware ignores its low two bits")
    return address & ~3 & M64


def _descriptor(ctx: Ctx) -> tuple[int, int]:
    """(base address, range limit in bytes) of the V# in operand 1."""
    rsrc = ctx.op(1)
    if not isinstance(rsrc, Reg) or rsrc.count != 4:
        raise SimError(f"{ctx.ins.mnemonic}: the buffer resource must be 4 SGPRs, got '{rsrc.text()}'")
    words = [ctx.scalar_value(Reg(rsrc.file, rsrc.index + k, 1, rsrc.span), 1, "int") for k in range(4)]
    base = words[0] | ((words[1] & 0xFFFF) << 32)
    stride = (words[1] >> 16) & 0x3FFF
    records = words[2]
    return base, records * stride if stride else records


def _dst_slot(ctx: Ctx, dwords: int) -> int:
    slot, count = ctx._scalar_slots(ctx.op(0))
    if count != dwords:
        raise SimError(f"{ctx.ins.mnemonic}: destination {ctx.op(0).text()} holds {count} dwords, "
                       f"the load returns {dwords}")
    return slot


def _in_range(offset: int, dwords: int, limit: int) -> int:
    """Number of leading dwords that lie completely below `limit`."""
    if offset < 0:
        return 0
    return max(0, min(dwords, (limit - offset) // 4))


def _make_load(size: str, dwords: int) -> None:
    @semantic(f"s_load_{size}")
    def s_load(ctx: Ctx, ins) -> None:
        base = ctx.s_read(1, 2)
        address = _aligned(ctx, (base + _offset(ctx)) & M64)
        ctx.defer(ScalarLoad(address, dwords, _dst_slot(ctx, dwords)))

    @semantic(f"s_buffer_load_{size}")
    def s_buffer_load(ctx: Ctx, ins) -> None:
        base, limit = _descriptor(ctx)
        offset = _offset(ctx) & ~3
        n = _in_range(offset, dwords, limit)
        if n < dwords:
            ctx.note(f"{ins.mnemonic}: {dwords - n} of {dwords} dwords at offset 0x{offset:x} are beyond "
                     f"num_records ({limit} bytes) and read 0")
        ctx.defer(ScalarLoad((base + offset) & M64, dwords, _dst_slot(ctx, dwords), in_range=n))


def _store_data(ctx: Ctx, dwords: int) -> np.ndarray:
    value = 0
    slot, count = ctx._scalar_slots(ctx.op(0))
    if count != dwords:
        raise SimError(f"{ctx.ins.mnemonic}: data {ctx.op(0).text()} holds {count} dwords, the store writes {dwords}")
    for k in range(dwords):
        value |= ctx.scalar_value(Reg("s", slot + k, 1, ctx.op(0).span) if slot < 102 else ctx.op(0), 1,
                                  "int") << (32 * k)
    return np.frombuffer(value.to_bytes(4 * dwords, "little"), dtype=np.uint8).reshape(1, -1).copy()


def _make_store(size: str, dwords: int) -> None:
    @semantic(f"s_store_{size}")
    def s_store(ctx: Ctx, ins) -> None:
        data = _store_data(ctx, dwords)
        address = _aligned(ctx, (ctx.s_read(1, 2) + _offset(ctx)) & M64)
        ctx.defer(GlobalStore(np.array([0]), np.array([address], dtype=np.uint64), data))

    @semantic(f"s_buffer_store_{size}")
    def s_buffer_store(ctx: Ctx, ins) -> None:
        data = _store_data(ctx, dwords)
        base, limit = _descriptor(ctx)
        offset = _offset(ctx) & ~3
        n = _in_range(offset, dwords, limit)
        if n < dwords:
            ctx.note(f"{ins.mnemonic}: {dwords - n} of {dwords} dwords at offset 0x{offset:x} are beyond "
                     f"num_records ({limit} bytes) and are dropped")
        if n:
            ctx.defer(GlobalStore(np.array([0]), np.array([(base + offset) & M64], dtype=np.uint64),
                                  data[:, : 4 * n].copy()))


for _size, _n in SIZES.items():
    _make_load(_size, _n)
    if _n <= 4:
        _make_store(_size, _n)


@semantic("s_dcache_inv", "s_dcache_inv_vol", "s_dcache_wb", "s_dcache_wb_vol", "s_dcache_discard",
          "s_dcache_discard_x2")
def s_dcache(ctx: Ctx, ins) -> None:
    """Scalar cache maintenance: gcnemu models no scalar cache, so nothing changes (timing aside)."""
