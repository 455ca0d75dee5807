"""Address formation for vector memory, buffer (MUBUF + V#), LDS DMA and DS instructions.

Everything here is pure: it takes register values already read (through `Ctx`, so
reads are recorded) and returns per-lane numpy arrays. The formulas follow the AMD
Instinct ISA guides (MI200/MI300/MI350, chapters "Vector Memory Buffer Instructions",
"Memory Buffer Load to LDS", "Flat Memory Instructions / Global", "Data Share
Operations"); the per-target differences are the tables below, not branches in code.

Choices worth knowing (each is a place where the guide is silent or where ROCm's
configuration decides):
- dword-or-larger buffer/global accesses are *not* forced to dword alignment: the
  guide's "two LSBs are ignored" describes the strict alignment mode; ROCm runs gfx9
  in unaligned mode (LLVM's `unaligned-buffer-access`), so the address is used as is.
- swizzled V# (SWIZZLE_ENABLE) addressing, as the private segment buffer (scratch on
  gfx908/gfx90a) uses it, is modelled for accesses no wider than one element (the
  dword spills and reloads compilers emit); a wider one stops the run with a clear
  error, since its bytes are not contiguous in memory.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..context import SimError
from ..state import WAVE

U32 = np.uint32
U64 = np.uint64
LANES = np.arange(WAVE, dtype=np.int64)

# ---------------------------------------------------------------- ISA tables

# MUBUF `... lds`: LDS_offset comes from M0. MI100/MI200/MI300 guides: M0[15:0] (16-bit
# unsigned byte offset); MI350 (CDNA4) guide section 9.1.9: M0[17:0] (18 bits, 160 KiB LDS).
MUBUF_LDS_M0_MASK: dict[str, int] = {"gfx908": 0xFFFF, "gfx90a": 0xFFFF, "gfx942": 0xFFFF, "gfx950": 0x3FFFF}

# global_load_lds_*: MI300/MI350 guides section 10.3, "LDSoffset(M0[17:2] * 4)": the offset
# is dword aligned, the two low bits of M0 are dropped.
GLOBAL_LDS_M0_MASK = 0x3FFFC

# Per-lane slot in LDS for loads to LDS: TIDinWave * 4, or TIDinWave * 16 for 3- and
# 4-dword loads (dwordx3 writes 3 dwords and skips the 4th). Sub-dword loads are
# extended to 32 bits and fill their 4-byte slot.
def lds_dma_slot(size: int) -> int:
    return 16 if size > 4 else 4


# D16 loads (global/flat/buffer `*_d16[_hi]`, `ds_read_*_d16[_hi]`) write half of a VGPR.
# ISA guide, "16-bit Memory Operations": "When ECC is enabled 16-bit memory loads write
# the full 32-bit VGPR. Unused bits are set to zero." LLVM agrees (d16PreservesUnusedBits
# is false when SRAMECC is on or "any"). The Instinct parts ship with ECC enabled, so the
# default is: the other half is zeroed. A launch that knows better (target id with
# `sramecc-`) can set `ctx.sramecc = False` to get the preserving behaviour.
SRAMECC_DEFAULT: dict[str, bool] = {"gfx908": True, "gfx90a": True, "gfx942": True, "gfx950": True}


def d16_preserves_other_half(ctx) -> bool:
    ecc = getattr(ctx, "sramecc", None)
    if ecc is None:
        ecc = SRAMECC_DEFAULT.get(getattr(ctx, "target", ""), True)
    return not ecc


# Global/scratch offsets are 13-bit signed, FLAT 12-bit unsigned, MUBUF 12-bit unsigned,
# DS 16-bit unsigned (single address) or 2 x 8-bit (read2/write2): validation checks
# the ranges; the formulas here just add the value.


def modifier_int(ctx, name: str, default: int = 0) -> int:
    """An integer modifier (`offset:16`, `offset0:3`; `offset:SYM` arrives as the integer resolve folded)."""
    value = ctx.ins.modifier(name, default)
    if isinstance(value, bool) or isinstance(value, tuple):
        raise SimError(f"{ctx.ins.mnemonic}: modifier '{name}' needs an integer value")
    if isinstance(value, int):
        return value
    # resolve gave a modifier written with a `.set` symbol its integer; a name left is undefined
    raise SimError(f"{ctx.ins.mnemonic}: modifier '{name}:{value}': '{value}' is not a constant the assembler "
                   f"can evaluate")


# ---------------------------------------------------------------- global / flat


def global_addresses(vaddr: np.ndarray, saddr: int | None, offset: int) -> np.ndarray:
    """Per-lane 64-bit addresses of GLOBAL instructions.

    - `saddr` given (SGPR pair): SGPR base + VGPR 32-bit unsigned offset + instruction offset;
    - `saddr` None (`off`): 64-bit VGPR address (vaddr is uint64[64]) + instruction offset.
    The instruction offset is signed (13 bits on gfx9); arithmetic wraps at 64 bits.
    """
    if saddr is not None:
        base = (vaddr.astype(U64) & U64(0xFFFFFFFF)) + U64(saddr & 0xFFFFFFFFFFFFFFFF)
    else:
        base = vaddr.astype(U64)
    return base + U64(offset & 0xFFFFFFFFFFFFFFFF)


# ---------------------------------------------------------------- MUBUF / V#


@dataclass(frozen=True)
class BufferResource:
    """The fields of a gfx9 V# that address calculation and range checking use (ISA "Buffer Resource")."""

    base: int  # bits 47:0
    stride: int  # bits 61:48 (14 bits; 18 with ADD_TID_ENABLE for non-format MUBUF)
    swizzle: bool  # bit 63
    num_records: int  # bits 95:64
    add_tid: bool  # bit 119
    element_size: int = 4  # bits 116:115, bytes: 2, 4, 8, 16 (swizzled buffers)
    index_stride: int = 64  # bits 118:117, elements: 8, 16, 32, 64 (swizzled buffers)

    @classmethod
    def from_words(cls, words: list[int]) -> "BufferResource":
        w0, w1, w2, w3 = (int(w) & 0xFFFFFFFF for w in words)
        stride = (w1 >> 16) & 0x3FFF
        add_tid = bool((w3 >> 23) & 1)
        if add_tid:  # stride[17:14] lives in DATA_FORMAT (V# bits 114:111) when ADD_TID_ENABLE
            stride |= ((w3 >> 15) & 0xF) << 14
        return cls(base=w0 | ((w1 & 0xFFFF) << 32), stride=stride, swizzle=bool((w1 >> 31) & 1),
                   num_records=w2, add_tid=add_tid, element_size=2 << ((w3 >> 19) & 3),
                   index_stride=8 << ((w3 >> 21) & 3))


@dataclass
class BufferAccess:
    """Per-lane result of MUBUF address formation: addresses and range checking per component."""

    addrs: np.ndarray  # uint64[64]: address of the first byte of each lane's element
    in_range: np.ndarray  # bool[components, 64]: per dword component (or the whole sub-dword element)


def buffer_access(rsrc: BufferResource, soffset: int, inst_offset: int, vindex: np.ndarray | None,
                  voffset: np.ndarray | None, size: int) -> BufferAccess:
    """Linear buffer address and range check (ISA "Buffer Addressing" / "Range Checking").

    address = base + soffset + inst_offset + voffset + stride * (vindex + TIDinWave if ADD_TID)

    Range checking, with `offset` = inst_offset + voffset (soffset is never checked):
    - raw buffer (no ADD_TID, IDXEN=0): out of range when offset >= num_records;
    - structured buffer (IDXEN=1): out of range when index >= num_records (index counts records);
    - private/scratch (ADD_TID, IDXEN=0): never out of range.
    Dword x2/x3/x4 accesses are checked per dword component; sub-dword accesses as a whole.
    Out-of-range loads return 0 and out-of-range stores are dropped (the caller does that).
    """
    idxen = vindex is not None
    index = vindex.astype(np.int64) & 0xFFFFFFFF if idxen else np.zeros(WAVE, dtype=np.int64)
    if rsrc.add_tid:
        index = index + LANES
    offset = (voffset.astype(np.int64) & 0xFFFFFFFF if voffset is not None else np.zeros(WAVE, np.int64)) + inst_offset
    if rsrc.swizzle:
        if size > rsrc.element_size:  # the lane's bytes would not be contiguous in memory
            raise SimError(f"a {size}-byte access through a swizzled buffer of {rsrc.element_size}-byte elements "
                           "(e.g. the private segment buffer) is not modelled: only accesses of one element are")
        within = _swizzled(rsrc, index, offset)
    else:
        within = offset.astype(U64) + U64(rsrc.stride) * index.astype(U64)
    addrs = U64(rsrc.base) + U64(soffset & 0xFFFFFFFF) + within
    components = max(1, size // 4)
    step = np.arange(components, dtype=np.int64)[:, None] * 4
    if idxen:
        ok = np.broadcast_to(index < rsrc.num_records, (components, WAVE))
    elif rsrc.add_tid:
        ok = np.ones((components, WAVE), dtype=bool)
    else:
        ok = (offset[None, :] + step) < rsrc.num_records
    return BufferAccess(addrs, np.array(ok))


def _swizzled(rsrc: BufferResource, index: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Byte offset of a swizzled buffer element (ISA "Buffer Addressing", swizzled case):
    element-sized pieces of consecutive indices interleave, index_stride indices at a time.
    The private segment buffer (scratch) is one: each lane's dword k lies at k * 4 * 64 + lane * 4."""
    es, ist = rsrc.element_size, rsrc.index_stride
    index_msb, index_lsb = index // ist, index % ist

    return ((index_msb * rsrc.stride + (offset // es) * es) * ist + index_lsb * es + offset % es).astype(U64)


# ---------------------------------------------------------------- LDS DMA


def lds_dma_addresses(kind: str, target: str, m0: int, inst_offset: int, size: int) -> np.ndarray:
    """LDS destination byte address of each lane for a load to LDS.

    kind 'mubuf' (`buffer_load_* ... lds`):  M0[15:0] (M0[17:0] on gfx950) + inst_offset + TID * slot
    kind 'global' (`global_load_lds_*`):     M0[17:2] * 4                + inst_offset + TID * slot
    LDS_BASE (the workgroup's allocation) is 0 in gcnemu: one workgroup owns the LDS.
    """
    if kind == "mubuf":
        base = m0 & MUBUF_LDS_M0_MASK.get(target, 0xFFFF)
    else:
        base = m0 & GLOBAL_LDS_M0_MASK
    return base + inst_offset + LANES * lds_dma_slot(size)


# ---------------------------------------------------------------- DS


def ds_address(vaddr: np.ndarray, offset: int) -> np.ndarray:
    """LDS_Addr = VGPR[ADDR] + offset, a 32-bit byte address: the sum wraps modulo 2**32.

    The ISA guides (AMD Instinct MI300 "CDNA3" and MI355X "CDNA4" ISA reference, DS opcodes:
    `addr = CalcDsAddr(vgpr_a.b32, offset.b32)`) add two 32-bit values into a 32-bit LDS address.
    Compilers rely on the wrap: llc folds a constant into the instruction offset and leaves a
    "negative" base in the VGPR (base 0xFFFFFFF0 with offset:16 is address 0), so an address
    beyond 2**32 is not out of range, it is the low 32 bits of the sum.
    """
    return ((vaddr.astype(np.int64) & 0xFFFFFFFF) + offset) & 0xFFFFFFFF


def ds_out_of_range(addrs: np.ndarray, size: int, lds_size: int) -> np.ndarray:
    """Lanes whose access [addr, addr+size) does not fit in the LDS allocation."""
    return (addrs < 0) | (addrs + size > lds_size)
