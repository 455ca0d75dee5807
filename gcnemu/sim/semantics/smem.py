"""Scalar memory: s_load_dword*, s_buffer_load_dword*, s_store_dword*, s_buffer_store_dword*,
s_atomic_*, s_buffer_atomic_*.

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
from ..memops import ClockRead, GlobalStore, ScalarAtomic, ScalarLoad
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


# s_atomic_<op>[_x2] / s_buffer_atomic_<op>[_x2] -> memops.ATOMIC_OPS key (the vector atomics' table)
SCALAR_ATOMICS: dict[str, str] = {
    "swap": "swap_b32", "cmpswap": "cmpswap_b32", "add": "add_u32", "sub": "sub_u32", "smin": "min_i32",
    "umin": "min_u32", "smax": "max_i32", "umax": "max_u32", "and": "and_b32", "or": "or_b32",
    "xor": "xor_b32", "inc": "inc_u32", "dec": "dec_u32",
}


def _scalar_atomic(ctx: Ctx, ins, op: str, buffer: bool) -> None:
    """sdata, sbase, offset [glc]: one read-modify-write of global memory by the scalar unit
    (ISA guide, "Scalar Memory Operations": the atomic ops of the vector memory atomics, on
    SGPR data; cmpswap's data is (src, cmp) as for BUFFER_ATOMIC_CMPSWAP). GLC returns the
    pre-op value into sdata (1 dword, 2 for _x2), counted by lgkmcnt. The address is formed as
    for scalar loads (the two low bits dropped); an s_buffer_ atomic outside num_records is
    dropped and returns 0."""
    wide = op.endswith("64")
    n = 2 if wide else 1
    cmpswap = op.startswith("cmpswap")
    slot, count = ctx._scalar_slots(ctx.op(0))
    if count != (2 * n if cmpswap else n):
        raise SimError(f"{ins.mnemonic}: data {ctx.op(0).text()} holds {count} dwords, the atomic needs "
                       f"{2 * n if cmpswap else n}")
    words = [ctx.scalar_value(Reg("s", slot + k, 1, ctx.op(0).span) if slot < 102 else ctx.op(0), 1, "int")
             for k in range(count)]
    value = words[0] | (words[1] << 32 if wide else 0)
    cmp = None
    if cmpswap:
        c = words[n] | (words[n + 1] << 32 if wide else 0)
        cmp = np.array([c], dtype=np.uint64 if wide else np.uint32)
    data = np.array([value], dtype=np.uint64 if wide else np.uint32)
    if buffer:
        base, limit = _descriptor(ctx)
        offset = _offset(ctx) & ~3
        in_range = np.array([_in_range(offset, n, limit) == n])
        if not in_range[0]:
            ctx.note(f"{ins.mnemonic}: offset 0x{offset:x} is beyond num_records ({limit} bytes): the atomic "
                     "is dropped and returns 0")
        address = (base + offset) & M64
    else:
        address, in_range = _aligned(ctx, (ctx.s_read(1, 2) + _offset(ctx)) & M64), None
    ret = slot if ins.has("glc") else None
    ctx.defer(ScalarAtomic(op, np.array([0]), np.array([address], dtype=np.uint64), data, in_range=in_range,
                           origin=f"{ins.span}: {ins.text()}", cmp=cmp, dst_slot=ret))


for _op, _key in SCALAR_ATOMICS.items():
    for _x2, _k in (("", _key), ("_x2", _key[:-2] + "64")):
        semantic(f"s_atomic_{_op}{_x2}")(lambda ctx, ins, k=_k: _scalar_atomic(ctx, ins, k, False))
        semantic(f"s_buffer_atomic_{_op}{_x2}")(lambda ctx, ins, k=_k: _scalar_atomic(ctx, ins, k, True))


# Peak engine clock of each target's flagship part (AMD's product pages: MI100 1502 MHz, MI250X
# 1700, MI300X 2100, MI355X 2400): the rate s_memrealtime's 100 MHz counter is converted from.
CORE_MHZ = {"gfx908": 1502, "gfx90a": 1700, "gfx942": 2100, "gfx950": 2400}
REALTIME_MHZ = 100  # ISA guide, S_MEMREALTIME: "the 64-bit RTC", a constant 100 MHz clock


@semantic("s_memtime")
def s_memtime(ctx: Ctx, ins) -> None:
    """sdst[2] = the 64-bit shader clock when the request completes (gcnemu's cycle count from the
    start of the run), through the SMEM path (lgkmcnt), as the ISA guide describes."""
    ctx.defer(ClockRead(_dst_slot(ctx, 2)))


@semantic("s_memrealtime")
def s_memrealtime(ctx: Ctx, ins) -> None:
    """sdst[2] = the 64-bit real-time counter (100 MHz): gcnemu's cycle count converted at the
    target's peak engine clock (CORE_MHZ), so both counters advance together."""
    ctx.defer(ClockRead(_dst_slot(ctx, 2), mhz=(REALTIME_MHZ, CORE_MHZ.get(ctx.target, 2100))))


@semantic("s_dcache_inv", "s_dcache_inv_vol", "s_dcache_wb", "s_dcache_wb_vol", "s_dcache_discard",
          "s_dcache_discard_x2")
def s_dcache(ctx: Ctx, ins) -> None:
    """Scalar cache maintenance: gcnemu models no scalar cache, so nothing changes (timing aside)."""
