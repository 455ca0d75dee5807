"""LDS (DS) semantics: reads, writes, two-address forms, atomics, permutes, swizzle.

Addresses and store data are read at issue; the LDS access itself is a memop the
engine performs when the LDS completes it (in order with other LDS operations and
after LDS DMA that landed earlier). Cross-lane operations that do not touch LDS
memory (ds_permute/bpermute/swizzle) compute their result at issue and let it land
with the LDS latency.

Out-of-range addresses (beyond the workgroup's LDS) read 0 and drop writes, as the
ISA guide says; each such access leaves a note. GDS (`gds` modifier) is not modelled.
The gfx950 transpose loads (`ds_read_b64_tr_b16`, `ds_read_b64_tr_b8`) live in
ds_transpose.py, with their lane mapping and its sources; `ds_read_b64_tr_b4` and
`ds_read_b96_tr_b6` are not registered (their mapping is not established publicly).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...isa.targets import get_target
from ...isa import dpp
from ...asm.program import Call, Imm, Instruction, Modified, Reg, Symbol
from ..banks import bank_conflicts
from ..context import Ctx, SimError
from ..memops import LdsAppend, LdsAtomic, LdsExchange2, LdsRead, LdsWrite, dwords_to_bytes
from ..state import WAVE
from . import semantic
from .memaddr import d16_preserves_other_half, ds_address, ds_out_of_range, modifier_int

U32 = np.uint32


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class DsRead:
    size: int  # bytes read per lane
    dwords: int  # destination registers
    kind: str  # LaneLoad kind


DS_READS: dict[str, DsRead] = {
    "ds_read_b32": DsRead(4, 1, "raw"), "ds_read_b64": DsRead(8, 2, "raw"),
    "ds_read_b96": DsRead(12, 3, "raw"), "ds_read_b128": DsRead(16, 4, "raw"),
    "ds_read_u8": DsRead(1, 1, "u8"), "ds_read_i8": DsRead(1, 1, "i8"),
    "ds_read_u16": DsRead(2, 1, "u16"), "ds_read_i16": DsRead(2, 1, "i16"),
    "ds_read_u8_d16": DsRead(1, 1, "d16_lo_u8"), "ds_read_u8_d16_hi": DsRead(1, 1, "d16_hi_u8"),
    "ds_read_i8_d16": DsRead(1, 1, "d16_lo_i8"), "ds_read_i8_d16_hi": DsRead(1, 1, "d16_hi_i8"),
    "ds_read_u16_d16": DsRead(2, 1, "d16_lo"), "ds_read_u16_d16_hi": DsRead(2, 1, "d16_hi"),
}

# mnemonic -> (bytes per lane, first bit of the data register stored)
DS_WRITES: dict[str, tuple[int, int]] = {
    "ds_write_b8": (1, 0), "ds_write_b16": (2, 0), "ds_write_b32": (4, 0), "ds_write_b64": (8, 0),
    "ds_write_b96": (12, 0), "ds_write_b128": (16, 0),
    "ds_write_b8_d16_hi": (1, 16), "ds_write_b16_d16_hi": (2, 16),
}

# Two-address forms: mnemonic -> (element bytes, offset multiplier). ISA "Double Address
# Instructions": offsets are in elements (x4 for b32, x8 for b64), st64 forms x64 more.
DS_READ2: dict[str, tuple[int, int]] = {
    "ds_read2_b32": (4, 4), "ds_read2_b64": (8, 8), "ds_read2st64_b32": (4, 256), "ds_read2st64_b64": (8, 512),
}
DS_WRITE2: dict[str, tuple[int, int]] = {
    "ds_write2_b32": (4, 4), "ds_write2_b64": (8, 8), "ds_write2st64_b32": (4, 256), "ds_write2st64_b64": (8, 512),
}

# DS atomics: base name (mnemonic without `ds_` and `rtn_`) -> ATOMIC_OPS key. `_rtn_` forms
# return the pre-op value. The key's width (32/64) sets the element size: 64-bit ones read and
# return register pairs. Which targets have which (ds_add_f64 from gfx90a, ds_pk_add_* on
# gfx94x/gfx950) is the mnemonic tables' business.
DS_ATOMICS: dict[str, str] = {"add_f32": "add_f32_lds", "pk_add_f16": "pk_add_f16", "pk_add_bf16": "pk_add_bf16",
                              "wrxchg_b32": "swap_b32", "wrxchg_b64": "swap_b64", "wrap_b32": "wrap_b32"}
for _bits in (32, 64):
    for _op in ("add_u", "sub_u", "rsub_u", "inc_u", "dec_u", "min_i", "max_i", "min_u", "max_u", "and_b",
                "or_b", "xor_b", "mskor_b", "cmpst_b", "cmpst_f", "min_f", "max_f"):
        DS_ATOMICS[f"{_op}{_bits}"] = f"{_op}{_bits}"
DS_ATOMICS["add_f64"] = "add_f64"
# Ops with two data operands (DATA, DATA2), ISA pseudocode (gem5 vega ds.cc .arch text):
# CMPST: MEM = (MEM == DATA) ? DATA2 : MEM (DATA is the compare value: the opposite order of
# BUFFER_ATOMIC_CMPSWAP); MSKOR: MEM = (MEM & ~DATA) | DATA2; WRAP: MEM >= DATA ? MEM - DATA
# : MEM + DATA2. ATOMIC_OPS takes them as (DATA2, DATA).
DS_TWO_DATA = ("cmpst_", "mskor_", "wrap_")


# ---------------------------------------------------------------- helpers


def _lanes(ctx: Ctx) -> np.ndarray:
    return np.nonzero(ctx.exec)[0]


def _check_gds(ctx: Ctx) -> None:
    if ctx.ins.has("gds"):
        raise SimError(f"{ctx.ins.mnemonic} with gds: GDS is not modelled")


def _offset(ctx: Ctx, name: str = "offset") -> int:
    return modifier_int(ctx, name)


def _banks(ctx: Ctx) -> int:
    try:
        return get_target(ctx.target).lds_banks
    except (KeyError, AttributeError):
        return 32


def _physical_lds(ctx: Ctx) -> int:
    try:
        return get_target(ctx.target).lds_bytes
    except (KeyError, AttributeError):
        return 65536


def _record(ctx: Ctx, pieces: list[tuple[np.ndarray, int]], lanes: np.ndarray, is_write: bool) -> None:
    """Bank conflicts for the engine's LDS timing, and a note for out-of-range lanes."""
    ctx.bank_conflicts = bank_conflicts(pieces, lanes, is_write, _banks(ctx))
    bad: list[int] = []
    for addrs, size in pieces:
        oob = ds_out_of_range(addrs, size, ctx.lds_size)
        bad.extend(int(lanes[k]) for k in np.nonzero(oob)[0])
    if bad:
        lanes_txt = ", ".join(str(x) for x in sorted(set(bad))[:8]) + (" ..." if len(set(bad)) > 8 else "")
        first = next(int(a[k]) for a, s in pieces for k in np.nonzero(ds_out_of_range(a, s, ctx.lds_size))[0])
        if ctx.lds_size < _physical_lds(ctx):  # the kernel descriptor's allocation, not the hardware's end
            raise SimError(f"{ctx.ins.mnemonic}: LDS address 0x{first:x} (lanes {lanes_txt}) is beyond the "
                           f"{ctx.lds_size} bytes of LDS the kernel allocates (.amdhsa_group_segment_fixed_size "
                           f"plus the launch's dynamic LDS, --lds-dynamic)")
        what = "writes are dropped" if is_write else "reads return 0"
        ctx.note(f"{ctx.ins.mnemonic}: LDS address 0x{first:x} is outside the {ctx.lds_size}-byte LDS "
                 f"(lanes {lanes_txt}): {what}")


def _vaddr(ctx: Ctx, i: int) -> np.ndarray:
    return ctx.vector_value(ctx.op(i), "int")


def _data(ctx: Ctx, operand, dwords: int) -> np.ndarray:
    """uint32[dwords, 64] from a VGPR/AGPR range (or a constant, broadcast)."""
    reg = operand
    if getattr(reg, "file", None) in ("v", "a"):
        return np.stack([ctx.vector_value(_sub(reg, k), "int") for k in range(dwords)])
    return np.stack([ctx.vector_value(operand, "int")] * dwords)


def _sub(reg: Reg, k: int) -> Reg:
    return Reg(reg.file, reg.index + k, 1, reg.span)


def _dst(ctx: Ctx, i: int):
    reg = ctx.op(i)
    if getattr(reg, "file", None) not in ("v", "a"):
        raise SimError(f"{ctx.ins.mnemonic}: destination '{reg.text()}' is not a VGPR/AGPR")
    return reg


# ---------------------------------------------------------------- reads / writes


def _read(ctx: Ctx, ins: Instruction) -> None:
    _check_gds(ctx)
    form = DS_READS[ins.mnemonic]
    dst = _dst(ctx, 0)
    lanes = _lanes(ctx)
    addrs = ds_address(_vaddr(ctx, 1), _offset(ctx))[lanes]
    keep = form.kind.startswith("d16") and d16_preserves_other_half(ctx)
    old = ctx.vector_value(_sub(dst, 0), "int") if keep else None
    pieces = [(addrs, form.size)]
    _record(ctx, pieces, lanes, is_write=False)
    ctx.defer(LdsRead(dst.file, dst.index, form.dwords, lanes, form.size, form.kind, old, pieces=pieces))


def _write(ctx: Ctx, ins: Instruction) -> None:
    _check_gds(ctx)
    size, shift = DS_WRITES[ins.mnemonic]
    lanes = _lanes(ctx)
    addrs = ds_address(_vaddr(ctx, 0), _offset(ctx))[lanes]
    dwords = max(1, (size + 3) // 4)
    data = _data(ctx, ctx.op(1), dwords)[:, lanes]
    if shift:
        data = data >> U32(shift)
    raw = dwords_to_bytes(data, size)
    _record(ctx, [(addrs, size)], lanes, is_write=True)
    ctx.defer(LdsWrite(lanes, [(addrs, raw)]))


def _read2(ctx: Ctx, ins: Instruction) -> None:
    _check_gds(ctx)
    elem, mult = DS_READ2[ins.mnemonic]
    dst = _dst(ctx, 0)
    lanes = _lanes(ctx)
    vaddr = _vaddr(ctx, 1)
    pieces = [(ds_address(vaddr, _offset(ctx, "offset0") * mult)[lanes], elem),
              (ds_address(vaddr, _offset(ctx, "offset1") * mult)[lanes], elem)]
    _record(ctx, pieces, lanes, is_write=False)
    ctx.defer(LdsRead(dst.file, dst.index, 2 * elem // 4, lanes, 2 * elem, "raw", pieces=pieces))


def _write2(ctx: Ctx, ins: Instruction) -> None:
    _check_gds(ctx)
    elem, mult = DS_WRITE2[ins.mnemonic]
    lanes = _lanes(ctx)
    vaddr = _vaddr(ctx, 0)
    d0 = dwords_to_bytes(_data(ctx, ctx.op(1), elem // 4)[:, lanes], elem)
    d1 = dwords_to_bytes(_data(ctx, ctx.op(2), elem // 4)[:, lanes], elem)
    a0 = ds_address(vaddr, _offset(ctx, "offset0") * mult)[lanes]
    a1 = ds_address(vaddr, _offset(ctx, "offset1") * mult)[lanes]
    _record(ctx, [(a0, elem), (a1, elem)], lanes, is_write=True)
    ctx.defer(LdsWrite(lanes, [(a0, d0), (a1, d1)]))


for _name in DS_READS:
    semantic(_name)(_read)
for _name in DS_WRITES:
    semantic(_name)(_write)
for _name in DS_READ2:
    semantic(_name)(_read2)
for _name in DS_WRITE2:
    semantic(_name)(_write2)


# ---------------------------------------------------------------- atomics


def _element(ctx: Ctx, operand, wide: bool, lanes: np.ndarray) -> np.ndarray:
    """One data operand per active lane: uint32[n], or uint64[n] from a register pair."""
    regs = _data(ctx, operand, 2 if wide else 1)[:, lanes]
    if not wide:
        return regs[0].astype(U32)
    return regs[0].astype(np.uint64) | (regs[1].astype(np.uint64) << np.uint64(32))


def _atomic(ctx: Ctx, ins: Instruction) -> None:
    """ds_<op>[_rtn]_<type> [vdst,] vaddr, data[, data2] [offset:N]: LdsAtomic per active lane."""
    _check_gds(ctx)
    rtn = "_rtn_" in ins.mnemonic
    base = ins.mnemonic[3:].replace("rtn_", "")
    op = DS_ATOMICS[base]
    wide = op.endswith("64")
    first = 1 if rtn else 0
    lanes = _lanes(ctx)
    addrs = ds_address(_vaddr(ctx, first), _offset(ctx))[lanes]
    data = _element(ctx, ctx.op(first + 1), wide, lanes)
    data2 = None
    if base.startswith(DS_TWO_DATA):  # ATOMIC_OPS takes (DATA2, DATA)
        data, data2 = _element(ctx, ctx.op(first + 2), wide, lanes), data
    dst = _dst(ctx, 0) if rtn else None
    _record(ctx, [(addrs, 8 if wide else 4)], lanes, is_write=True)
    ctx.defer(LdsAtomic(op, lanes, addrs, data, dst.file if dst else None, dst.index if dst else 0, data2))


def _rtn_name(base: str) -> str:
    """add_u32 -> add_rtn_u32, pk_add_f16 -> pk_add_rtn_f16."""
    head, _, tail = base.rpartition("_")
    return f"{head}_rtn_{tail}"


for _base in DS_ATOMICS:
    if not _base.startswith(("wrxchg", "wrap")):  # (those exist only as _rtn_)
        semantic(f"ds_{_base}")(_atomic)
    semantic(f"ds_{_rtn_name(_base)}")(_atomic)


# ds_wrxchg2[st64]_rtn_b32/b64: element bytes, offset multiplier (as ds_write2)
DS_WRXCHG2: dict[str, tuple[int, int]] = {
    "ds_wrxchg2_rtn_b32": (4, 4), "ds_wrxchg2_rtn_b64": (8, 8),
    "ds_wrxchg2st64_rtn_b32": (4, 256), "ds_wrxchg2st64_rtn_b64": (8, 512),
}


def _wrxchg2(ctx: Ctx, ins: Instruction) -> None:
    """vdst, vaddr, data0, data1 offset0:A offset1:B: exchange data0 at ADDR + A*size and data1 at
    ADDR + B*size (x64 more for st64); vdst gets both old values, ADDR0's first."""
    _check_gds(ctx)
    elem, mult = DS_WRXCHG2[ins.mnemonic]
    dst = _dst(ctx, 0)
    lanes = _lanes(ctx)
    vaddr = _vaddr(ctx, 1)
    a0 = ds_address(vaddr, _offset(ctx, "offset0") * mult)[lanes]
    a1 = ds_address(vaddr, _offset(ctx, "offset1") * mult)[lanes]
    d0 = _element(ctx, ctx.op(2), elem == 8, lanes)
    d1 = _element(ctx, ctx.op(3), elem == 8, lanes)
    _record(ctx, [(a0, elem), (a1, elem)], lanes, is_write=True)
    ctx.defer(LdsExchange2(lanes, [(a0, d0), (a1, d1)], dst.file, dst.index))


for _name in DS_WRXCHG2:
    semantic(_name)(_wrxchg2)


@semantic("ds_nop")
def ds_nop(ctx: Ctx, ins: Instruction) -> None:
    """No LDS access; timed through the LDS pipe like any DS instruction."""


# ---------------------------------------------------------------- append / consume


def _append_consume(ctx: Ctx, ins: Instruction) -> None:
    """ds_append / ds_consume vdst [offset:N]: one wave-wide counter update in LDS.

    The counter is the LDS dword at the instruction offset; it grows (append) or shrinks
    (consume) by the number of active lanes, wrapping at 32 bits, and every active lane
    receives the value it held before. Sources:
    - CDNA4 ISA guide 12.12 (DS_APPEND opcode 190, DS_CONSUME 189): "Add (count_bits(exec_mask))
      to the value stored in DS memory at (M0.base + instr_offset) if GDS, or at instr_offset
      if LDS. Return the pre-operation value to VGPRs" (consume: "Subtract").
    - gem5 src/arch/amdgpu/vega/insts/ds.cc (Inst_DS__DS_APPEND/CONSUME): the same description
      from the .arch file without the LDS/GDS split; its execute bodies are unimplemented.
    - MIOpen's Conv_Winograd_v21_1_3 gfx9 kernels (tests/corpus/miopen) put the counter's LDS
      address in the offset (`ds_append v105 offset:65472`) with an unrelated M0 (0x2ffc0), which
      only works when LDS ignores M0, as the CDNA4 wording says.
    - LLVM's SelectDSAppendConsume copies a pointer base into M0 and folds a constant into the
      offset for LDS as for GDS; on the guide's reading M0 plays no part for LDS, so gcnemu
      follows the guide and MIOpen (offset only) and ignores M0 here.
    GDS (the `gds` modifier) stays not modelled.
    """
    _check_gds(ctx)
    dst = _dst(ctx, 0)
    lanes = _lanes(ctx)
    addr = np.full(len(lanes), _offset(ctx), dtype=np.int64)
    op = "add_u32" if ins.mnemonic == "ds_append" else "sub_u32"
    count = np.full(len(lanes), len(lanes), dtype=U32)
    _record(ctx, [(addr[:1], 4)], lanes[:1], is_write=True)  # one access for the wave
    ctx.defer(LdsAppend(op, lanes, addr, count, dst.file, dst.index))


semantic("ds_append")(_append_consume)
semantic("ds_consume")(_append_consume)


# ---------------------------------------------------------------- cross-lane (no LDS memory)


@semantic("ds_bpermute_b32")
def ds_bpermute_b32(ctx: Ctx, ins: Instruction) -> None:
    """Backward permute: lane i reads DATA0 of lane ((ADDR[i] + offset) / 4) % 64; 0 if that lane is inactive."""
    exec_ = ctx.exec
    src_lane = ((ds_address(_vaddr(ctx, 1), _offset(ctx)) // 4) % WAVE).astype(np.int64)
    data = _data(ctx, ctx.op(2), 1)[0]
    out = np.where(exec_[src_lane], data[src_lane], U32(0)).astype(U32)
    ctx.bank_conflicts = 0
    ctx.write_v(_dst(ctx, 0), out)


@semantic("ds_permute_b32")
def ds_permute_b32(ctx: Ctx, ins: Instruction) -> None:
    """Forward permute: active lane i sends DATA0 to lane ((ADDR[i] + offset) / 4) % 64.

    Lanes nobody writes get 0; when several lanes pick the same destination the
    highest-numbered source wins (ISA pseudocode: lanes processed in order).
    """
    exec_ = ctx.exec
    dst_lane = ((ds_address(_vaddr(ctx, 1), _offset(ctx)) // 4) % WAVE).astype(np.int64)
    data = _data(ctx, ctx.op(2), 1)[0]
    tmp = np.zeros(WAVE, dtype=U32)
    for i in np.nonzero(exec_)[0]:
        tmp[dst_lane[i]] = data[i]
    ctx.bank_conflicts = 0
    ctx.write_v(_dst(ctx, 0), tmp)


# swizzle(...) macros as llvm-mc encodes them (checked against llvm-mc 22 encodings).
def swizzle_offset(value) -> int:
    """The 16-bit ds_swizzle offset from a number or a `swizzle(MODE, ...)` macro (text or Call)."""
    if isinstance(value, bool):
        raise SimError("ds_swizzle_b32: offset needs a value")
    if isinstance(value, int):
        if not 0 <= value <= dpp.SWIZZLE_OFFSET_MAX:
            raise SimError(f"ds_swizzle_b32: offset {value} is not a 16-bit offset")
        return value
    if isinstance(value, Call):
        args = [_macro_arg(a) for a in value.args]
    elif isinstance(value, str):
        text = value.strip()
        if not (text.lower().startswith("swizzle(") and text.endswith(")")):
            raise SimError(f"ds_swizzle_b32: cannot read offset '{value}'")
        args = [a.strip() for a in text[8:-1].split(",")]
        args = [int(a, 0) if _is_int(a) else a.strip('"') for a in args]
    else:
        raise SimError(f"ds_swizzle_b32: cannot read offset '{value}'")
    mode, rest = str(args[0]), args[1:]
    if mode not in dpp.SWIZZLE_MODES or len(rest) != dpp.SWIZZLE_MODES[mode]:
        raise SimError(f"ds_swizzle_b32: swizzle({value}) is not a swizzle the ISA defines")
    bad = dpp.swizzle_errors(mode, rest)
    if bad is not None:  # the ISA defines no such pattern: never invent one (a masked value would)
        raise SimError(f"ds_swizzle_b32: swizzle({mode}, ...) is not a swizzle the ISA defines: {bad[1]}")
    if mode == "QUAD_PERM":
        return 0x8000 | sum((int(x) & 3) << (2 * k) for k, x in enumerate(rest[:4]))
    if mode == "BITMASK_PERM":
        mask = str(rest[0])
        and_m = or_m = xor_m = 0
        for k, ch in enumerate(mask):
            bit = 1 << (4 - k)
            if ch == "1":
                or_m |= bit
            elif ch == "p":
                and_m |= bit
            elif ch == "i":
                and_m |= bit
                xor_m |= bit
        return and_m | (or_m << 5) | (xor_m << 10)
    if mode == "SWAP":
        return 0x1F | (int(rest[0]) << 10)
    if mode == "REVERSE":
        return 0x1F | ((int(rest[0]) - 1) << 10)
    if mode == "BROADCAST":
        return ((0x20 - int(rest[0])) & 0x1F) | (int(rest[1]) << 5)
    raise SimError(f"ds_swizzle_b32: swizzle mode {mode} is not modelled")


def _is_int(text: str) -> bool:
    try:
        int(text, 0)
        return True
    except ValueError:
        return False


def _macro_arg(a):
    if isinstance(a, Imm):
        return a.value
    if isinstance(a, Symbol):
        return a.name
    if isinstance(a, Modified):
        return _macro_arg(a.inner)
    return a.text().strip('"')


def swizzle_sources(offset: int) -> np.ndarray:
    """Source lane of every lane for a ds_swizzle offset (ISA pseudocode, bitmask and quad-perm modes)."""
    i = np.arange(WAVE)
    if offset >= 0xC000:
        raise SimError(f"ds_swizzle_b32: offset 0x{offset:x} selects the rotate/FFT modes, which are not modelled")
    if offset & 0x8000:
        sel = [(offset >> (2 * k)) & 3 for k in range(4)]
        return (i & ~3) + np.array(sel)[i & 3]
    and_m, or_m, xor_m = offset & 0x1F, (offset >> 5) & 0x1F, (offset >> 10) & 0x1F
    return ((((i & 0x1F) & and_m) | or_m) ^ xor_m) | (i & 0x20)


@semantic("ds_swizzle_b32")
def ds_swizzle_b32(ctx: Ctx, ins: Instruction) -> None:
    """Lane i gets DATA0 of swizzle_sources(offset)[i]; 0 when that lane is inactive."""
    exec_ = ctx.exec
    src = swizzle_sources(swizzle_offset(ins.modifier("offset", 0)))
    data = _data(ctx, ctx.op(1), 1)[0]
    ctx.bank_conflicts = 0
    ctx.write_v(_dst(ctx, 0), np.where(exec_[src], data[src], U32(0)).astype(U32))
