"""gfx950 LDS transpose loads: ds_read_b64_tr_b16 and ds_read_b64_tr_b8.

What the instruction does, per 16-lane group (lanes 16g .. 16g+15), with E elements
per lane (E = 4 for tr_b16: 16-bit elements, E = 8 for tr_b8: bytes):

1. Fetch: every lane reads 8 bytes of LDS at its own address ADDR = vaddr + offset,
   exactly as ds_read_b64 would (out-of-range reads give 0, with a note).
2. Exchange: take the group's 16 fetches in lane order as one row-major matrix of
   E rows x 16 columns (so a row is 16/E consecutive lanes' fetches: lanes 4r..4r+3
   for tr_b16, lanes 2r, 2r+1 for tr_b8). Lane 16g+c receives column c: its element
   n (bits [n*w, (n+1)*w) of the 64-bit vdst pair, w = element bits) is row n,
   column c. Spelled out per source lane:

       vdst(lane l).elem[n] = fetch(lane 16g + n*(16/E) + (l mod 16) div E).elem[l mod E]

   tr_b16: lane l's half n comes from lane 16g + 4n + ((l mod 16) >> 2), half l & 3.
   tr_b8:  lane l's byte n comes from lane 16g + 2n + ((l mod 16) >> 3), byte l & 7.

So when lane s of a group points at row s div (16/E), chunk s mod (16/E) of an
E x 16 tile in LDS, lane c ends up holding column c of the tile (the MFMA operand
layout: each lane holds E consecutive K values of one M/N index).

Sources (two or more independent ones agree for each form):
- tr_b16: AMD's rocjitsu gfx950 simulator, ROCm/rocm-systems PR #10175 "Fix
  ds_read_b64_tr_b16 lane layout": destination lane l halfword n comes from source
  lane ((l & ~0xf) | ((l >> 2) & 3)) + 4n, halfword l & 3; same layout in its HIP
  test LargeStaticLdsReadB64TrB16 (tests/dbt/...lds..._test.cpp). Triton's AMD
  backend, lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp
  (chooseLLDsReadB64TrLayout): lane T loads 4 consecutive M values at K = T div 4,
  M = 4*(T mod 4).., and after the exchange lane m holds M = m, K = 0..3. Composable
  Kernel ck_tile/core/arch/amd_transpose_load_encoding.hpp (4x16 before, 16x4
  after) and Mojo's ds_read_tr16_b64_row docs ("each 16-lane row loads a 4x16 tile
  ... each lane gets a column") say the same.
- tr_b8: Triton's rule above is written for 8- and 16-bit elements alike (the first
  log2(E) lane bases become register bases and vice versa), which gives the tr_b8
  formula; CK's 8-bit LaneGroupTransposeTraits has lane s read row s div 2, bytes
  8*(s mod 2).. of an 8x16 byte tile (16x8 after); Mojo's ds_read_tr8_b64 docs:
  "each 16-lane row reads 16x8 bytes ... two interleaved 8x8 byte transposes".
- CDNA4 ISA guide section 11.4 "MFMA Transpose Load from LDS" (as quoted in public
  kernel notes): EXEC must be all 1's, the LDS address must be aligned to the data
  size, 64-bit destinations are even-aligned VGPRs. The guide gives no lane mapping.

What is not modelled, and stops the run instead of guessing: EXEC other than all
ones (the guide requires it; which data an active lane gets from an inactive one is
undocumented), addresses that are not 8-byte aligned, and ds_read_b64_tr_b4 /
ds_read_b96_tr_b6 (nibble packing and the 96-bit, 128-bit-aligned layout are not
established by the sources above), which stay unregistered. Re-checked for issue 14: the CDNA4
guide's DS_READ_B64_TR_B4 / DS_READ_B96_TR_B6 entries are one sentence each ("interpret the data
as a matrix with 4 [6] bit elements and transpose"); gem5's public vega model (develop, Aug 2024)
has no class for them; ROCm's intrinsic docs give only the K positions each of two calls covers
(tr4 and tr6: 0-15 and 32-47, then 16-31 and 48-63), which fixes neither the source lane of each
element nor the nibble / 6-bit packing order inside the destination dwords. Looked at once more for
issue 14 part 4: a third-party gfx950 test repository reports, from runs on an MI350X, that "B4 is
a 16x16 nibble transpose per 16-lane group" (one source, no nibble order given); Triton's AMD
backend (chooseDotDsReadB64TrLayout) describes the tr4 result only in units of the packed i8
tensor ("swapping the packing" of the FP4 pairs), which leaves which nibble of each destination
byte holds the lower K index open; nothing public describes tr_b6 beyond its K positions. Both
stay unregistered (listed by `check --list-unmodelled`, stopped by run) until a source fixes that.

Timing and counters are those of ds_read_b64: same opcode row (LDS pipe, lgkmcnt),
same 8 bytes per lane, bank conflicts from the per-lane addresses.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..context import Ctx, SimError
from ..memops import LdsRead
from ..state import LDS, WAVE, GlobalMemory
from . import semantic
from .ds import _check_gds, _dst, _offset, _record, _vaddr
from .memaddr import ds_address

GROUP = 16  # lanes that exchange data

# mnemonic -> element bits
DS_READ_TR: dict[str, int] = {"ds_read_b64_tr_b16": 16, "ds_read_b64_tr_b8": 8}


def transpose_groups(fetched: np.ndarray, elem_bits: int) -> np.ndarray:
    """uint8[64, 8] per-lane fetches -> uint8[64, 8] per-lane results (see the module docstring)."""
    per_lane = 64 // elem_bits  # E
    dtype = {16: "<u2", 8: np.uint8}[elem_bits]
    elems = np.ascontiguousarray(fetched).view(dtype).reshape(WAVE // GROUP, per_lane, GROUP)  # [group, row, col]
    out = elems.transpose(0, 2, 1).reshape(WAVE, per_lane)  # lane c of a group takes column c
    return np.ascontiguousarray(out).view(np.uint8).reshape(WAVE, 8)


@dataclass
class LdsTransposeRead(LdsRead):
    """ds_read_b64_tr_*: each lane fetches 8 bytes, then 16-lane groups exchange elements."""

    elem_bits: int = 16

    def perform(self, mem: GlobalMemory, lds: LDS) -> list:
        (addrs, size), = self.pieces
        fetched = np.zeros((WAVE, size), dtype=np.uint8)
        fetched[self.lanes] = lds.read(addrs, size)[0]
        return self.writes_for(transpose_groups(fetched, self.elem_bits)[self.lanes])


def _read_tr(ctx: Ctx, ins) -> None:
    _check_gds(ctx)
    elem_bits = DS_READ_TR[ins.mnemonic]
    if not ctx.exec.all():
        raise SimError(f"{ins.mnemonic}: EXEC must be all ones (CDNA4 ISA guide, MFMA transpose loads); "
                       f"a partial EXEC is not modelled")
    dst = _dst(ctx, 0)
    lanes = np.arange(WAVE)
    addrs = ds_address(_vaddr(ctx, 1), _offset(ctx))
    bad = np.nonzero(addrs % 8)[0]
    if len(bad):
        raise SimError(f"{ins.mnemonic}: LDS address 0x{int(addrs[bad[0]]):x} (lane {int(bad[0])}) is not 8-byte "
                       f"aligned; the ISA guide requires aligned addresses, misaligned ones are not modelled")
    pieces = [(addrs, 8)]
    _record(ctx, pieces, lanes, is_write=False)
    ctx.defer(LdsTransposeRead(dst.file, dst.index, 2, lanes, 8, "raw", pieces=pieces, elem_bits=elem_bits))


for _name in DS_READ_TR:
    semantic(_name)(_read_tr)
