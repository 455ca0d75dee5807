"""Memory operations, performed by the memory system when the engine says they complete.

A semantic function computes addresses and store data at issue (from registers,
as the hardware does) and hands the access over as one of these objects. The
engine calls `perform` at completion time, in the order the memory system
processes requests (vector memory and LDS in order, SMEM in any order); `perform`
touches memory and returns the register writes that land with it. So a `ds_read`
that completes before an LDS DMA lands reads the old LDS bytes, exactly as on
hardware.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .context import RegWrite
from .state import LDS, WAVE, GlobalMemory

U32 = np.uint32


def bytes_to_dwords(data: np.ndarray, dwords: int) -> np.ndarray:
    """uint8[n, k] -> uint32[dwords, n] (zero-padded)."""
    n = data.shape[0]
    padded = np.zeros((n, dwords * 4), dtype=np.uint8)
    padded[:, : data.shape[1]] = data
    return padded.view("<u4").reshape(n, dwords).T.astype(U32)


def dwords_to_bytes(values: np.ndarray, size: int) -> np.ndarray:
    """uint32[dwords, n] -> uint8[n, size] (little endian)."""
    return np.ascontiguousarray(values.T.astype("<u4")).view(np.uint8).reshape(values.shape[1], -1)[:, :size]


def extend(data: np.ndarray, kind: str) -> np.ndarray:
    """Sub-dword load results as dwords: uint8[n, 1|2] -> uint32[n]."""
    if kind == "u8":
        return data[:, 0].astype(U32)
    if kind == "i8":
        return data[:, 0].view(np.int8).astype(np.int32).view(U32)
    if kind == "u16":
        return data[:, :2].copy().view("<u2")[:, 0].astype(U32)
    if kind == "i16":
        return data[:, :2].copy().view("<i2")[:, 0].astype(np.int32).view(U32)
    raise ValueError(kind)


@dataclass
class LaneLoad:
    """Shared shape of vector loads (global/buffer/flat/LDS) into registers."""

    dst_file: str
    dst_index: int
    dwords: int
    lanes: np.ndarray  # lanes that load (EXEC)
    size: int  # bytes per lane
    kind: str = "raw"  # raw | u8 | i8 | u16 | i16 | d16_lo | d16_hi | d16_lo_u8 ...
    old: np.ndarray | None = None  # for d16 forms: the destination's other half, read at issue

    def writes_for(self, data: np.ndarray) -> list[RegWrite]:
        mask = np.zeros(WAVE, dtype=bool)
        mask[self.lanes] = True
        vals = np.zeros((self.dwords, WAVE), dtype=U32)
        if self.kind == "raw":
            vals[:, self.lanes] = bytes_to_dwords(data, self.dwords)
        elif self.kind in ("u8", "i8", "u16", "i16"):
            vals[0, self.lanes] = extend(data, self.kind)
        elif self.kind.startswith("d16"):
            part = self.kind.split("_")  # d16_lo[_u8|_i8] / d16_hi[...]
            sub = part[2] if len(part) > 2 else "u16"
            v = extend(data, sub) & U32(0xFFFF)
            old = self.old[self.lanes] if self.old is not None else np.zeros(len(self.lanes), dtype=U32)
            if part[1] == "lo":
                vals[0, self.lanes] = (old & U32(0xFFFF0000)) | v
            else:
                vals[0, self.lanes] = (old & U32(0x0000FFFF)) | (v << U32(16))
        return [RegWrite(self.dst_file, self.dst_index, vals, mask)]


@dataclass
class GlobalLoad(LaneLoad):
    addrs: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))
    in_range: np.ndarray | None = None  # buffer range checking: False lanes read 0

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        data = np.zeros((len(self.lanes), self.size), dtype=np.uint8)
        ok = np.ones(len(self.lanes), dtype=bool) if self.in_range is None else self.in_range
        if ok.any():
            data[ok] = mem.read(self.addrs[ok], self.size, self.lanes[ok])
        return self.writes_for(data)


@dataclass
class GlobalStore:
    lanes: np.ndarray
    addrs: np.ndarray
    data: np.ndarray  # uint8[n, size]
    in_range: np.ndarray | None = None  # buffer range checking: False lanes are dropped

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        ok = np.ones(len(self.lanes), dtype=bool) if self.in_range is None else self.in_range
        mem.write(self.addrs[ok], self.data[ok], self.lanes[ok])
        return []


@dataclass
class GlobalAtomic:
    """Read-modify-write per lane in lane order; returns the old value when `ret` is set."""

    op: str  # add_u32 | add_f32
    lanes: np.ndarray
    addrs: np.ndarray
    data: np.ndarray  # uint32[n]
    ret_file: str | None = None
    ret_index: int = 0

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        old = np.zeros(len(self.lanes), dtype=U32)
        for k, lane in enumerate(self.lanes):  # lanes to the same address serialise
            a = self.addrs[k:k + 1]
            cur = mem.read(a, 4, self.lanes[k:k + 1]).view("<u4")[0, 0]
            old[k] = cur
            if self.op == "add_u32":
                new = U32((int(cur) + int(self.data[k])) & 0xFFFFFFFF)
            elif self.op == "add_f32":
                new = (np.array([cur], dtype=U32).view(np.float32) + np.array([self.data[k]], dtype=U32).view(np.float32)).view(U32)[0]
            else:
                raise ValueError(self.op)
            mem.write(a, np.array([new], dtype="<u4").view(np.uint8).reshape(1, 4), self.lanes[k:k + 1])
        if self.ret_file is None:
            return []
        mask = np.zeros(WAVE, dtype=bool)
        mask[self.lanes] = True
        vals = np.zeros((1, WAVE), dtype=U32)
        vals[0, self.lanes] = old
        return [RegWrite(self.ret_file, self.ret_index, vals, mask)]


@dataclass
class LdsDma:
    """Global -> LDS without VGPRs (buffer_load ... lds, global_load_lds_*): counted by vmcnt."""

    lanes: np.ndarray
    addrs: np.ndarray
    size: int
    lds_addrs: np.ndarray  # per lane destination byte address in LDS
    in_range: np.ndarray | None = None

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        data = np.zeros((len(self.lanes), self.size), dtype=np.uint8)
        ok = np.ones(len(self.lanes), dtype=bool) if self.in_range is None else self.in_range
        if ok.any():
            data[ok] = mem.read(self.addrs[ok], self.size, self.lanes[ok])
        lds.write(self.lds_addrs, data)
        return []

    def lds_ranges(self) -> list[tuple[int, int]]:
        return [(int(a), int(a) + self.size) for a in self.lds_addrs]


@dataclass
class LdsRead(LaneLoad):
    """One or more LDS reads per lane (ds_read2 has two pieces) into consecutive dwords."""

    pieces: list = field(default_factory=list)  # [(addrs int64[n], bytes)]

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        chunks = [lds.read(addrs, size)[0] for addrs, size in self.pieces]
        data = np.concatenate(chunks, axis=1) if len(chunks) > 1 else chunks[0]
        return self.writes_for(data)

    def lds_ranges(self) -> list[tuple[int, int]]:
        return [(int(a), int(a) + size) for addrs, size in self.pieces for a in addrs]


@dataclass
class LdsWrite:
    lanes: np.ndarray
    pieces: list  # [(addrs int64[n], data uint8[n, size])]

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        for addrs, data in self.pieces:
            lds.write(addrs, data)
        return []

    def lds_ranges(self) -> list[tuple[int, int]]:
        return [(int(a), int(a) + d.shape[1]) for addrs, d in self.pieces for a in addrs]


@dataclass
class LdsAtomic:
    op: str  # add_u32 | add_f32
    lanes: np.ndarray
    addrs: np.ndarray
    data: np.ndarray
    ret_file: str | None = None
    ret_index: int = 0

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        old = np.zeros(len(self.lanes), dtype=U32)
        for k in range(len(self.lanes)):
            a = self.addrs[k:k + 1]
            cur_b, oob = lds.read(a, 4)
            cur = cur_b.view("<u4")[0, 0]
            old[k] = cur
            if oob[0]:
                continue
            if self.op == "add_u32":
                new = U32((int(cur) + int(self.data[k])) & 0xFFFFFFFF)
            else:
                new = (np.array([cur], dtype=U32).view(np.float32) + np.array([self.data[k]], dtype=U32).view(np.float32)).view(U32)[0]
            lds.write(a, np.array([new], dtype="<u4").view(np.uint8).reshape(1, 4))
        if self.ret_file is None:
            return []
        mask = np.zeros(WAVE, dtype=bool)
        mask[self.lanes] = True
        vals = np.zeros((1, WAVE), dtype=U32)
        vals[0, self.lanes] = old
        return [RegWrite(self.ret_file, self.ret_index, vals, mask)]

    def lds_ranges(self) -> list[tuple[int, int]]:
        return [(int(a), int(a) + 4) for a in self.addrs]


@dataclass
class ScalarLoad:
    """s_load_* / s_buffer_load_*: dwords from memory into consecutive SGPR slots."""

    address: int
    dwords: int
    dst_slot: int
    in_range: int | None = None  # for s_buffer_load: dwords within num_records; the rest read 0

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        n = self.dwords if self.in_range is None else max(0, min(self.dwords, self.in_range))
        vals = np.zeros(self.dwords, dtype=U32)
        if n:
            raw = mem.read_scalar(self.address, 4 * n)
            vals[:n] = raw.view("<u4")
        return [RegWrite("s", self.dst_slot, vals)]
