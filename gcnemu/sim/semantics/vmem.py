"""Vector memory semantics: global_*, flat_*, buffer_* loads, stores, atomics, and loads to LDS.

At issue a semantic reads the address registers, the store data and (for loads to
LDS) M0, forms per-lane addresses (`memaddr`), and defers one memop; memory is only
touched when the engine completes it. EXEC selects the lanes.

Forms come from tables keyed by the mnemonic suffix, so the same code serves the
global, flat and buffer spellings:
- FLAT is treated as GLOBAL with a 64-bit VGPR address: addresses must lie in
  allocated buffers. The LDS and scratch apertures of the flat address space are not
  modelled (a flat access to LDS shows up as an unallocated-address error).
- Buffer (MUBUF) accesses go through the V# with range checking (out-of-range loads
  return 0, stores and atomics are dropped). `buffer_load_format_*`/`tbuffer_*`
  (format conversion) are not modelled.
- Loads to LDS (`buffer_load_* ... lds`, `global_load_lds_*`) write LDS at the address
  formed from M0, the instruction offset and the lane id (`memaddr.lds_dma_addresses`),
  never a VGPR.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...asm.program import Instruction, Reg, Special
from ..context import Ctx, SimError
from ..memops import GlobalAtomic, GlobalLoad, GlobalStore, LdsDma, dwords_to_bytes
from . import semantic
from .memaddr import (BufferResource, buffer_access, d16_preserves_other_half, global_addresses, lds_dma_addresses,
                      modifier_int)

U32 = np.uint32


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class LoadForm:
    size: int  # bytes per lane in memory
    dwords: int  # destination registers
    kind: str  # LaneLoad kind (raw, u8, i8, u16, i16, d16_lo[_u8|_i8], d16_hi[...])


LOAD_FORMS: dict[str, LoadForm] = {
    "dword": LoadForm(4, 1, "raw"), "dwordx2": LoadForm(8, 2, "raw"),
    "dwordx3": LoadForm(12, 3, "raw"), "dwordx4": LoadForm(16, 4, "raw"),
    "ubyte": LoadForm(1, 1, "u8"), "sbyte": LoadForm(1, 1, "i8"),
    "ushort": LoadForm(2, 1, "u16"), "sshort": LoadForm(2, 1, "i16"),
    "short_d16": LoadForm(2, 1, "d16_lo"), "short_d16_hi": LoadForm(2, 1, "d16_hi"),
    "ubyte_d16": LoadForm(1, 1, "d16_lo_u8"), "ubyte_d16_hi": LoadForm(1, 1, "d16_hi_u8"),
    "sbyte_d16": LoadForm(1, 1, "d16_lo_i8"), "sbyte_d16_hi": LoadForm(1, 1, "d16_hi_i8"),
}

# suffix -> (bytes per lane, first bit of the data register stored)
STORE_FORMS: dict[str, tuple[int, int]] = {
    "byte": (1, 0), "byte_d16_hi": (1, 16), "short": (2, 0), "short_d16_hi": (2, 16),
    "dword": (4, 0), "dwordx2": (8, 0), "dwordx3": (12, 0), "dwordx4": (16, 0),
}

# Loads to LDS: suffix -> form. Sub-dword data is extended to a dword in its LDS slot.
# Which targets have which spelling is the mnemonic tables' business (dwordx3/x4 to LDS
# exist on gfx950 only).
LDS_DMA_FORMS: dict[str, LoadForm] = {
    "dword": LoadForm(4, 1, "raw"), "dwordx3": LoadForm(12, 3, "raw"), "dwordx4": LoadForm(16, 4, "raw"),
    "ubyte": LoadForm(1, 1, "u8"), "sbyte": LoadForm(1, 1, "i8"),
    "ushort": LoadForm(2, 1, "u16"), "sshort": LoadForm(2, 1, "i16"),
}

# Memory atomics: gfx9 suffix -> memops.ATOMIC_OPS key. The key's width (32/64) sets the element
# size; cmpswap reads twice the data registers (the new value, then the compare value).
ATOMIC_FORMS: dict[str, str] = {
    "add": "add_u32", "sub": "sub_u32", "and": "and_b32", "or": "or_b32", "xor": "xor_b32",
    "smin": "min_i32", "smax": "max_i32", "umin": "min_u32", "umax": "max_u32", "swap": "swap_b32",
    "cmpswap": "cmpswap_b32", "inc": "inc_u32", "dec": "dec_u32",
    "add_f32": "add_f32",
}
ATOMIC_FORMS.update({f"{sfx}_x2": op[:-2] + "64" for sfx, op in list(ATOMIC_FORMS.items()) if sfx != "add_f32"})
# Packed 16-bit float adds (one dword per lane, no _x2 form). The mnemonic tables decide which
# targets have them: pk_add_f16 from gfx908 (buffer/global), bf16 and flat forms on gfx94x/gfx950.
ATOMIC_FORMS.update({"pk_add_f16": "pk_add_f16", "pk_add_bf16": "pk_add_bf16"})
# f64 float atomics (gfx90a and later: buffer/global/flat add_f64, min_f64, max_f64), one
# register pair of data per lane; the float rules are memops.ATOMIC_OPS'.
ATOMIC_FORMS.update({"add_f64": "add_f64", "min_f64": "min_f64", "max_f64": "max_f64"})


# ---------------------------------------------------------------- operand helpers


# id(instruction) -> (the instruction, its origin text): the text is built at every issue of a
# memory instruction otherwise (Instruction.text() re-renders the operands). The instruction is
# kept in the value so that its id cannot be reused while the entry lives.
_ORIGINS: dict[int, tuple[Instruction, str]] = {}
_ORIGINS_MAX = 1 << 16


def _origin(ins: Instruction) -> str:
    hit = _ORIGINS.get(id(ins))
    if hit is not None and hit[0] is ins:
        return hit[1]
    where = f"{ins.span}: {ins.text()}"
    if ins.mnemonic.startswith("flat_"):
        where += " (flat addresses must lie in global buffers: the LDS and scratch apertures are not modelled)"
    if len(_ORIGINS) >= _ORIGINS_MAX:
        _ORIGINS.clear()
    _ORIGINS[id(ins)] = (ins, where)
    return where


def _lanes(ctx: Ctx) -> np.ndarray:
    return np.nonzero(ctx.exec)[0]


def _offset(ctx: Ctx) -> int:
    return modifier_int(ctx, "offset")


MUBUF_OFFSET_BITS = 12  # the MUBUF instruction offset field (ISA guide, MUBUF encoding: OFFSET[11:0])


def _mubuf_offset(ctx: Ctx) -> int:
    """The MUBUF instruction offset as encoded: its low 12 bits. llvm-mc 22 accepts offsets up to
    65535 on buffer instructions but encodes only OFFSET[11:0] (`offset:4096` assembles as 0), so
    the hardware runs the masked value; check warns about such offsets."""
    return _offset(ctx) & ((1 << MUBUF_OFFSET_BITS) - 1)


def _is_off(operand) -> bool:
    return isinstance(operand, Special) and operand.name == "off"


def _vreg(ctx: Ctx, operand, what: str) -> Reg:
    if not isinstance(operand, Reg) or operand.file not in ("v", "a"):
        raise SimError(f"{ctx.ins.mnemonic}: {what} '{operand.text()}' is not a VGPR")
    return operand


def _sub(reg: Reg, k: int) -> Reg:
    return Reg(reg.file, reg.index + k, 1, reg.span)


def _data(ctx: Ctx, operand, dwords: int) -> np.ndarray:
    reg = _vreg(ctx, operand, "data")
    return np.stack([ctx.vector_value(_sub(reg, k), "int") for k in range(dwords)])


def _store_bytes(ctx: Ctx, operand, size: int, shift: int, lanes: np.ndarray) -> np.ndarray:
    data = _data(ctx, operand, max(1, (size + 3) // 4))[:, lanes]
    if shift:
        data = data >> U32(shift)
    return dwords_to_bytes(data, size)


def _global_addrs(ctx: Ctx, vaddr_op, saddr_op) -> np.ndarray:
    """GLOBAL/FLAT per-lane addresses from `vaddr` and `saddr` (`off` -> 64-bit VGPR address)."""
    if saddr_op is None or _is_off(saddr_op):
        reg = _vreg(ctx, vaddr_op, "address")
        return global_addresses(ctx.vector_value(reg, "int", width=2), None, _offset(ctx))
    return global_addresses(ctx.vector_value(_vreg(ctx, vaddr_op, "address"), "int"),
                            ctx.scalar_value(saddr_op, 2), _offset(ctx))


def _old(ctx: Ctx, dst: Reg, kind: str) -> np.ndarray | None:
    """The half a d16 load keeps: the destination at issue, or None (zeroed) with ECC on."""
    if kind.startswith("d16") and d16_preserves_other_half(ctx):
        return ctx.vector_value(_sub(dst, 0), "int")
    return None


# ---------------------------------------------------------------- GLOBAL and FLAT


def _flat_or_global_load(ctx: Ctx, ins: Instruction, form: LoadForm, saddr_index: int | None) -> None:
    dst = _vreg(ctx, ctx.op(0), "destination")
    lanes = _lanes(ctx)
    saddr = ctx.op(saddr_index) if saddr_index is not None else None
    addrs = _global_addrs(ctx, ctx.op(1), saddr)[lanes]
    ctx.defer(GlobalLoad(dst.file, dst.index, form.dwords, lanes, form.size, form.kind, _old(ctx, dst, form.kind),
                         _origin(ins), addrs=addrs))


def _flat_or_global_store(ctx: Ctx, ins: Instruction, size: int, shift: int, saddr_index: int | None) -> None:
    lanes = _lanes(ctx)
    saddr = ctx.op(saddr_index) if saddr_index is not None else None
    addrs = _global_addrs(ctx, ctx.op(0), saddr)[lanes]
    data = _store_bytes(ctx, ctx.op(1), size, shift, lanes)
    ctx.defer(GlobalStore(lanes, addrs, data, origin=_origin(ins)))


def _atomic_data(ctx: Ctx, operand, op: str, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(data, compare value or None) per lane from vdata: uint32[n], or uint64[n] for 64-bit ops."""
    wide = op.endswith("64")
    n = 2 if wide else 1
    cmpswap = op.startswith("cmpswap")
    regs = _data(ctx, operand, 2 * n if cmpswap else n)[:, lanes]

    def value(first: int) -> np.ndarray:
        if not wide:
            return regs[first].astype(U32)
        return regs[first].astype(np.uint64) | (regs[first + 1].astype(np.uint64) << np.uint64(32))
    return value(0), value(n) if cmpswap else None


def _flat_or_global_atomic(ctx: Ctx, ins: Instruction, op: str, has_saddr: bool) -> None:
    """Operands: [vdst,] vaddr, vdata[, saddr]; the returning form (GLC/SC0) has vdst."""
    n = len(ins.operands)
    ret = n == (4 if has_saddr else 3)
    first = 1 if ret else 0
    lanes = _lanes(ctx)
    saddr = ctx.op(first + 2) if has_saddr else None
    addrs = _global_addrs(ctx, ctx.op(first), saddr)[lanes]
    data, cmp = _atomic_data(ctx, ctx.op(first + 1), op, lanes)
    dst = _vreg(ctx, ctx.op(0), "destination") if ret else None
    ctx.defer(GlobalAtomic(op, lanes, addrs, data, dst.file if dst else None, dst.index if dst else 0,
                           origin=_origin(ins), cmp=cmp))


def _register_global_and_flat() -> None:
    for suffix, form in LOAD_FORMS.items():
        semantic(f"global_load_{suffix}")(lambda ctx, ins, f=form: _flat_or_global_load(ctx, ins, f, 2))
        semantic(f"flat_load_{suffix}")(lambda ctx, ins, f=form: _flat_or_global_load(ctx, ins, f, None))
    for suffix, (size, shift) in STORE_FORMS.items():
        semantic(f"global_store_{suffix}")(
            lambda ctx, ins, s=size, h=shift: _flat_or_global_store(ctx, ins, s, h, 2))
        semantic(f"flat_store_{suffix}")(
            lambda ctx, ins, s=size, h=shift: _flat_or_global_store(ctx, ins, s, h, None))
    for suffix, op in ATOMIC_FORMS.items():
        semantic(f"global_atomic_{suffix}")(lambda ctx, ins, o=op: _flat_or_global_atomic(ctx, ins, o, True))
        semantic(f"flat_atomic_{suffix}")(lambda ctx, ins, o=op: _flat_or_global_atomic(ctx, ins, o, False))
    for suffix, form in LDS_DMA_FORMS.items():
        semantic(f"global_load_lds_{suffix}")(lambda ctx, ins, f=form: _global_load_lds(ctx, ins, f))


def _m0(ctx: Ctx) -> int:
    return ctx.scalar_value(Special("m0", ctx.ins.span), 1)


def _global_load_lds(ctx: Ctx, ins: Instruction, form: LoadForm) -> None:
    """global_load_lds_*: operands vaddr, saddr|off. LDS address from M0[17:2]*4 + offset + lane slot."""
    lanes = _lanes(ctx)
    addrs = _global_addrs(ctx, ctx.op(0), ctx.op(1))[lanes]
    lds = lds_dma_addresses("global", ctx.target, _m0(ctx), _offset(ctx), form.size)[lanes]
    _note_lds_range(ctx, lds, form)
    ctx.defer(LdsDma(lanes, addrs, form.size, lds, kind=form.kind, origin=_origin(ins)))


def _note_lds_range(ctx: Ctx, lds: np.ndarray, form: LoadForm) -> None:
    width = 4 if form.kind != "raw" else form.size
    bad = (lds < 0) | (lds + width > ctx.lds_size)
    if bad.any():
        ctx.note(f"{ctx.ins.mnemonic}: LDS destination 0x{int(lds[bad][0]):x} is outside the {ctx.lds_size}-byte "
                 f"LDS for {int(bad.sum())} lane(s): those dwords are dropped")


# ---------------------------------------------------------------- MUBUF


@dataclass
class _Mubuf:
    access: object  # memaddr.BufferAccess
    lanes: np.ndarray


def _mubuf(ctx: Ctx, ins: Instruction, first: int, size: int) -> _Mubuf:
    """Operands from `first`: vaddr|off, srsrc, soffset (with offen/idxen/offset modifiers)."""
    vaddr_op, rsrc_op, soff_op = ctx.op(first), ctx.op(first + 1), ctx.op(first + 2)
    if ins.has("addr64"):
        raise SimError(f"{ins.mnemonic}: addr64 does not exist on gfx9")
    idxen, offen = ins.has("idxen"), ins.has("offen")
    vindex = voffset = None
    if idxen or offen:
        reg = _vreg(ctx, vaddr_op, "address")
        if idxen:
            vindex = ctx.vector_value(_sub(reg, 0), "int")
        if offen:
            voffset = ctx.vector_value(_sub(reg, 1 if idxen else 0), "int")
    words128 = ctx.scalar_value(rsrc_op, 4)
    rsrc = BufferResource.from_words([(words128 >> (32 * k)) & 0xFFFFFFFF for k in range(4)])
    access = buffer_access(rsrc, ctx.scalar_value(soff_op, 1), _mubuf_offset(ctx), vindex, voffset, size)
    return _Mubuf(access, _lanes(ctx))


def _buffer_load(ctx: Ctx, ins: Instruction, form: LoadForm) -> None:
    if ins.has("lds"):
        _buffer_load_lds(ctx, ins, form)
        return
    if ins.has("tfe"):
        raise SimError(f"{ins.mnemonic}: tfe is not modelled")
    dst = _vreg(ctx, ctx.op(0), "destination")
    mb = _mubuf(ctx, ins, 1, form.size)
    lanes = mb.lanes
    ctx.defer(GlobalLoad(dst.file, dst.index, form.dwords, lanes, form.size, form.kind, _old(ctx, dst, form.kind),
                         _origin(ins), addrs=mb.access.addrs[lanes], in_range=mb.access.in_range[:, lanes]))


def _buffer_load_lds(ctx: Ctx, ins: Instruction, form: LoadForm) -> None:
    """`buffer_load_* vaddr|off, srsrc, soffset ... lds`: LDS address M0 + offset + lane slot."""
    if form.kind.startswith("d16"):
        raise SimError(f"{ins.mnemonic} cannot load to LDS")
    mb = _mubuf(ctx, ins, 0, form.size)
    lanes = mb.lanes
    lds = lds_dma_addresses("mubuf", ctx.target, _m0(ctx), _mubuf_offset(ctx), form.size)[lanes]
    _note_lds_range(ctx, lds, form)
    ctx.defer(LdsDma(lanes, mb.access.addrs[lanes], form.size, lds, mb.access.in_range[:, lanes],
                     kind=form.kind, origin=_origin(ins)))


def _buffer_store(ctx: Ctx, ins: Instruction, size: int, shift: int) -> None:
    mb = _mubuf(ctx, ins, 1, size)
    lanes = mb.lanes
    data = _store_bytes(ctx, ctx.op(0), size, shift, lanes)
    ctx.defer(GlobalStore(lanes, mb.access.addrs[lanes], data, mb.access.in_range[:, lanes], origin=_origin(ins)))


def _buffer_atomic(ctx: Ctx, ins: Instruction, op: str) -> None:
    """buffer_atomic_*: vdata, vaddr, srsrc, soffset; GLC (gfx908/90a) or SC0 (gfx94x) returns into vdata
    (its first one or two registers). A 64-bit element is updated only when both its dwords are in range."""
    width = 8 if op.endswith("64") else 4
    mb = _mubuf(ctx, ins, 1, width)
    lanes = mb.lanes
    vdata = _vreg(ctx, ctx.op(0), "data")
    data, cmp = _atomic_data(ctx, vdata, op, lanes)
    ret = ins.has("glc") or ins.has("sc0")
    ctx.defer(GlobalAtomic(op, lanes, mb.access.addrs[lanes], data, vdata.file if ret else None, vdata.index,
                           mb.access.in_range[:, lanes].all(axis=0), origin=_origin(ins), cmp=cmp))


def _register_buffer() -> None:
    for suffix, form in LOAD_FORMS.items():
        semantic(f"buffer_load_{suffix}")(lambda ctx, ins, f=form: _buffer_load(ctx, ins, f))
    for suffix, (size, shift) in STORE_FORMS.items():
        semantic(f"buffer_store_{suffix}")(lambda ctx, ins, s=size, h=shift: _buffer_store(ctx, ins, s, h))
    for suffix, op in ATOMIC_FORMS.items():
        semantic(f"buffer_atomic_{suffix}")(lambda ctx, ins, o=op: _buffer_atomic(ctx, ins, o))


_register_global_and_flat()
_register_buffer()
