"""Memory operations, performed by the memory system when the engine says they complete.

A semantic function computes addresses and store data at issue (from registers,
as the hardware does) and hands the access over as one of these objects. The
engine calls `perform` at completion time, in the order the memory system
processes requests (vector memory and LDS in order, SMEM in any order); `perform`
touches memory and returns the register writes that land with it. So a `ds_read`
that completes before an LDS DMA lands reads the old LDS bytes, exactly as on
hardware.

The engine relies on these attribute names: `dst_file`/`dst_index`/`dwords`
(registers a load will write), `ret_file`/`ret_index` (atomic return), `dst_slot`
(SGPR loads), `lds_addrs` + `lds_ranges()` (LDS DMA in flight), `pieces` (LDS reads
checked against in-flight DMA).

`origin` names the instruction that issued the operation ("file:line:col: text"):
global memory faults are detected at completion, when the wave has moved on, so the
error message carries the issuing instruction itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .writes import RegWrite
from .fp import DEFAULT_MODE, bf16_bits_to_f32, f16_bits_to_f32, f32_to_bf16_bits, f32_to_f16_bits, fmax, fmin
from .state import LDS, WAVE, GlobalMemory, MemoryError_

U32 = np.uint32


def bytes_to_dwords(data: np.ndarray, dwords: int) -> np.ndarray:
    """uint8[n, k] -> uint32[dwords, n] (zero-padded)."""
    n = data.shape[0]
    padded = np.zeros((n, dwords * 4), dtype=np.uint8)
    padded[:, : data.shape[1]] = data
    return padded.view("<u4").reshape(n, dwords).T.astype(U32)


def dwords_to_bytes(values: np.ndarray, size: int) -> np.ndarray:
    """uint32[dwords, n] -> uint8[n, size] (little endian). The shape is spelt out, not inferred:
    a store with EXEC=0 has n = 0 lanes, and numpy cannot infer a -1 axis of an empty array."""
    dwords, n = values.shape
    return np.ascontiguousarray(values.T.astype("<u4")).view(np.uint8).reshape(n, dwords * 4)[:, :size]


def extend(data: np.ndarray, kind: str) -> np.ndarray:
    """Sub-dword load results as dwords: uint8[n, 1|2] -> uint32[n] (zero or sign extended)."""
    if kind == "u8":
        return data[:, 0].astype(U32)
    if kind == "i8":
        return data[:, 0].view(np.int8).astype(np.int32).view(U32)
    if kind == "u16":
        return data[:, :2].copy().view("<u2")[:, 0].astype(U32)
    if kind == "i16":
        return data[:, :2].copy().view("<i2")[:, 0].astype(np.int32).view(U32)
    raise ValueError(kind)


_ALL_LANES = np.ones(WAVE, dtype=bool)
_ALL_LANES.flags.writeable = False  # shared by every full-EXEC load's RegWrite: never written


def _lane_mask(lanes: np.ndarray) -> np.ndarray:
    mask = np.zeros(WAVE, dtype=bool)
    mask[lanes] = True
    return mask


def _components(in_range: np.ndarray | None, n: int) -> np.ndarray | None:
    """Normalise a range mask to bool[components, n] (None: everything in range)."""
    if in_range is None:
        return None
    ok = np.asarray(in_range, dtype=bool)
    return ok[None, :] if ok.ndim == 1 else ok


def _read_checked(mem: GlobalMemory, addrs: np.ndarray, size: int, lanes: np.ndarray,
                  in_range: np.ndarray | None, origin: str) -> np.ndarray:
    """Bytes per lane (uint8[n, size]); components out of buffer range read as 0."""
    n = len(lanes)
    ok = _components(in_range, n)
    if ok is None:  # every component in range: the read's own fresh array (n = 0 gives (0, size))
        try:
            return mem.read(addrs, size, lanes)
        except MemoryError_ as e:
            raise _located(e, origin) from None
    if size % ok.shape[0] == 0 and ok.all():
        # every component of every lane in range (a buffer load inside num_records): the
        # components' bytes are the lanes' whole accesses, read at once (measured: 4x fewer
        # numpy calls). An error is reported as the loop below reports it, so it runs then.
        try:
            return mem.read(addrs, size, lanes)
        except MemoryError_:
            pass
    data = np.zeros((n, size), dtype=np.uint8)
    try:
        piece = size // ok.shape[0]
        for k in range(ok.shape[0]):
            sel = ok[k]
            if sel.any():
                data[sel, k * piece:(k + 1) * piece] = mem.read(addrs[sel] + np.uint64(k * piece), piece, lanes[sel])
    except MemoryError_ as e:
        raise _located(e, origin) from None
    return data


def _write_checked(mem: GlobalMemory, addrs: np.ndarray, data: np.ndarray, lanes: np.ndarray,
                   in_range: np.ndarray | None, origin: str) -> None:
    n = len(lanes)
    ok = _components(in_range, n)
    try:
        if ok is None:
            mem.write(addrs, data, lanes)
            return
        piece = data.shape[1] // ok.shape[0]
        for k in range(ok.shape[0]):
            sel = ok[k]
            if sel.any():
                mem.write(addrs[sel] + np.uint64(k * piece), data[sel, k * piece:(k + 1) * piece], lanes[sel])
    except MemoryError_ as e:
        raise _located(e, origin) from None


def _located(e: MemoryError_, origin: str) -> MemoryError_:
    """Name the issuing instruction in the message (the engine also attaches its index for the span)."""
    if not origin:
        return e
    text = origin.split(": ", 1)[-1]  # "file:line:col: text" -> "text"; the span gives the place
    return MemoryError_(f"{text}: {e}", e.lane, e.address)


# ---------------------------------------------------------------- atomic operations (one table)


def _f32(bits: int) -> np.float32:
    return np.array([bits], dtype=U32).view(np.float32)[0]


def _f32_bits(x) -> int:
    return int(np.array([x], dtype=np.float32).view(U32)[0])


def _flush(bits: int) -> int:
    """Flush an f32 denormal to a zero of the same sign."""
    return bits & 0x80000000 if (bits & 0x7F800000) == 0 else bits


def _add_f32(mem_bits: int, data_bits: int, flush: bool) -> int:
    if flush:
        mem_bits, data_bits = _flush(mem_bits), _flush(data_bits)
    with np.errstate(all="ignore"):
        return _f32_bits(_f32(mem_bits) + _f32(data_bits))


def _pk_add(mem_bits: int, data_bits: int, to_f32, from_f32) -> int:
    """Packed 2 x 16-bit float add per dword (BUFFER/GLOBAL/FLAT_ATOMIC_PK_ADD_F16/BF16): each half
    on its own, round to nearest even, denormals kept (the ISA's float memory atomics: PK_ADD
    never flushes). The f32 sum of two 16-bit values rounded once more to 16 bits is the
    correctly rounded result (24 >= 2*11 + 2 bits), so no double-rounding error."""
    halves = np.array([mem_bits & 0xFFFF, mem_bits >> 16, data_bits & 0xFFFF, data_bits >> 16], dtype=np.uint16)
    f = to_f32(halves)
    with np.errstate(all="ignore"):
        out = from_f32(np.array([f[0] + f[2], f[1] + f[3]], dtype=np.float32))
    return int(out[0]) | (int(out[1]) << 16)


def _s32(x: int) -> int:
    return x - (1 << 32) if x & 0x80000000 else x


_FLOAT = {32: (np.float32, U32), 64: (np.float64, np.uint64)}


def _float_op(bits: int, fn) -> Callable[[int, int], int]:
    """A float memory atomic of one width on raw bits: fn(old, data) -> new, as float arrays."""
    ftype, itype = _FLOAT[bits]

    def op(m: int, d: int) -> int:
        a = np.array([m, d], dtype=itype).view(ftype)
        with np.errstate(all="ignore"):
            return int(np.asarray(fn(a[0:1], a[1:2]), dtype=ftype).view(itype)[0])
    return op


def _float_cmpst(bits: int) -> Callable[[int, tuple[int, int]], int]:
    """DS_CMPST_F32/F64: store `src` when memory equals `cmp` as floats (-0 == +0, NaN never equal)."""
    ftype, itype = _FLOAT[bits]

    def op(m: int, d: tuple[int, int]) -> int:
        src, cmp = d
        a = np.array([m, cmp], dtype=itype).view(ftype)
        return src if a[0] == a[1] else m
    return op


def _float_ops() -> dict[str, Callable]:
    """Float memory atomics beyond ADD_F32 (ISA guide "Memory Atomics", DS opcode table):
    - ADD_F64 (global/flat/buffer on gfx90a+, LDS): IEEE add, round to nearest even, denormals kept
      (the MI200/MI300 guides' float-atomic denormal table flushes only ADD_F32 in L2);
    - MIN/MAX_F32 (LDS), MIN/MAX_F64 (LDS and global): the minimum/maximum of memory and DATA with
      the rules of V_MIN/V_MAX in IEEE mode (one NaN input gives the other value, -0 < +0). LLVM
      lowers `atomicrmw fmin/fmax` (minnum/maxnum) to these instructions, which is the contract
      a compiled kernel relies on;
    - CMPST_F32/F64 (LDS): compare-and-store with a float compare."""
    out: dict[str, Callable] = {}
    for bits in (32, 64):
        out[f"min_f{bits}"] = _float_op(bits, lambda a, b: fmin(a, b, DEFAULT_MODE))
        out[f"max_f{bits}"] = _float_op(bits, lambda a, b: fmax(a, b, DEFAULT_MODE))
        out[f"cmpst_f{bits}"] = _float_cmpst(bits)
    out["add_f64"] = _float_op(64, lambda a, b: a + b)
    return out


# op -> new memory value from (old, data); results are masked to 32 bits.
ATOMIC_OPS: dict[str, Callable[[int, int], int]] = {
    "add_u32": lambda m, d: m + d,
    "sub_u32": lambda m, d: m - d,
    "rsub_u32": lambda m, d: d - m,
    "and_b32": lambda m, d: m & d,
    "or_b32": lambda m, d: m | d,
    "xor_b32": lambda m, d: m ^ d,
    "min_u32": min,
    "max_u32": max,
    "min_i32": lambda m, d: m if _s32(m) <= _s32(d) else d,
    "max_i32": lambda m, d: m if _s32(m) >= _s32(d) else d,
    "swap_b32": lambda m, d: d,
    # Float adds round to nearest even. Global (L2) ADD_F32 flushes input denormals
    # (ISA "Float Memory Atomics", denorm table); the LDS adder follows MODE, which
    # gcnemu models as denormals preserved (the HSA default).
    "add_f32": lambda m, d: _add_f32(m, d, flush=True),
    "add_f32_lds": lambda m, d: _add_f32(m, d, flush=False),
    "pk_add_f16": lambda m, d: _pk_add(m, d, f16_bits_to_f32, f32_to_f16_bits),
    "pk_add_bf16": lambda m, d: _pk_add(m, d, bf16_bits_to_f32, f32_to_bf16_bits),
}


def _integer_ops(bits: int) -> dict[str, Callable]:
    """The integer memory atomics of one width (ISA guide, "Memory Atomics"): new value from
    (old, data); cmpswap's data is the pair (src, cmp). Results are masked by the caller."""
    top = 1 << (bits - 1)

    def signed(x: int) -> int:
        return x - (top << 1) if x & top else x
    b = "b" + str(bits)
    u = "u" + str(bits)
    i = "i" + str(bits)
    return {
        f"add_{u}": lambda m, d: m + d, f"sub_{u}": lambda m, d: m - d,
        f"and_{b}": lambda m, d: m & d, f"or_{b}": lambda m, d: m | d, f"xor_{b}": lambda m, d: m ^ d,
        f"min_{u}": min, f"max_{u}": max,
        f"min_{i}": lambda m, d: m if signed(m) <= signed(d) else d,
        f"max_{i}": lambda m, d: m if signed(m) >= signed(d) else d,
        f"swap_{b}": lambda m, d: d,
        f"cmpswap_{b}": lambda m, d: d[0] if m == d[1] else m,  # DATA[0] = src, DATA[1] = cmp
        f"inc_{u}": lambda m, d: 0 if m >= d else m + 1,  # wraps to 0 past `data`
        f"dec_{u}": lambda m, d: d if m == 0 or m > d else m - 1,  # wraps to `data` below 0
        f"rsub_{u}": lambda m, d: d - m,
        # DS only (gem5's vega ds.cc carries the .arch descriptions): DS_CMPST's data is (src, cmp)
        # here too: the DS semantics read DATA (cmp) and DATA2 (src) and hand over (src, cmp)
        f"cmpst_{b}": lambda m, d: d[0] if m == d[1] else m,
        f"mskor_{b}": lambda m, d: (m & ~d[1]) | d[0],  # (DATA2 = new bits, DATA = mask)
    }


for _k, _fn in {**_integer_ops(32), **_integer_ops(64), **_float_ops()}.items():
    ATOMIC_OPS.setdefault(_k, _fn)
# DS_WRAP_RTN_B32: tmp >= DATA ? tmp - DATA : tmp + DATA2 (data is (DATA2, DATA))
ATOMIC_OPS["wrap_b32"] = lambda m, d: m - d[1] if m >= d[1] else m + d[0]


def _return_writes(lanes: np.ndarray, old: np.ndarray, ret_file: str | None, ret_index: int) -> list[RegWrite]:
    """The pre-op values (uint32[n], or uint64[n] for 64-bit atomics: two registers) under `lanes`."""
    if ret_file is None:
        return []
    dwords = 2 if old.dtype.itemsize == 8 else 1
    vals = np.zeros((dwords, WAVE), dtype=U32)
    vals[0, lanes] = old & 0xFFFFFFFF
    if dwords == 2:
        vals[1, lanes] = old >> np.uint64(32)
    return [RegWrite(ret_file, ret_index, vals, _lane_mask(lanes))]


def landing_regs(op) -> list[tuple[str, int]]:
    """The registers memory effect `op` writes when it lands: a scalar load's SGPR slots, a vector
    load's destination, an atomic's return registers; none for stores and LDS DMA (the timed
    engine marks them pending from issue to landing)."""
    slot = getattr(op, "dst_slot", None)
    if slot is not None:
        return [("s", slot + k) for k in range(op.dwords)]
    dst = getattr(op, "dst_file", None)
    if dst:
        idx = getattr(op, "dst_index", None)
        if idx is None:
            idx = op.ret_index
    else:
        dst = getattr(op, "ret_file", None)
        if not dst:
            return []
        idx = op.ret_index
    return [(dst, idx + k) for k in range(int(getattr(op, "dwords", 1) or 1))]


# ---------------------------------------------------------------- loads into registers


@dataclass
class LaneLoad:
    """Shared shape of vector loads (global/buffer/flat/LDS) into registers.

    kind: raw | u8 | i8 | u16 | i16 | d16_lo[_u8|_i8] | d16_hi[_u8|_i8]. The d16 forms
    write one half of the destination; the other half is `old` (the destination as it
    was at issue, LLVM's tied-input model, used when SRAM ECC is off) or zero (`old`
    None: with ECC on the hardware writes the full VGPR, ISA "16-bit Memory Operations").
    """

    dst_file: str
    dst_index: int
    dwords: int
    lanes: np.ndarray  # lanes that load (EXEC)
    size: int  # bytes per lane
    kind: str = "raw"
    old: np.ndarray | None = None  # for d16 forms: the destination at issue, uint32[64]
    origin: str = ""

    def writes_for(self, data: np.ndarray) -> list[RegWrite]:
        if (self.kind == "raw" and len(self.lanes) == WAVE and data.shape[1] == 4 * self.dwords
                and data.flags.c_contiguous):
            # every lane loads whole dwords (a ds_read_b128 or global_load_dwordx4 under a full
            # EXEC): the bytes are the registers' values as they are, transposed; no zero fill,
            # no lane scatter, no mask merge (measured: 3x cheaper than the general path below,
            # which gives the same values and an all-true mask)
            vals = data.view("<u4").reshape(WAVE, self.dwords).T.astype(U32, order="C")
            w = RegWrite(self.dst_file, self.dst_index, vals, _ALL_LANES)
            w.full = True
            return [w]
        mask = _lane_mask(self.lanes)
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
        else:
            raise ValueError(self.kind)
        return [RegWrite(self.dst_file, self.dst_index, vals, mask)]


@dataclass
class GlobalLoad(LaneLoad):
    """global_/flat_/buffer_load_* into VGPRs (or AGPRs). Out-of-range buffer components read 0."""

    addrs: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))
    in_range: np.ndarray | None = None  # bool[n] or bool[components, n]

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        return self.writes_for(_read_checked(mem, self.addrs, self.size, self.lanes, self.in_range, self.origin))


@dataclass
class GlobalStore:
    """global_/flat_/buffer_store_*: data read from VGPRs at issue. Out-of-range buffer components are dropped."""

    lanes: np.ndarray
    addrs: np.ndarray
    data: np.ndarray  # uint8[n, size]
    in_range: np.ndarray | None = None
    origin: str = ""

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        _write_checked(mem, self.addrs, self.data, self.lanes, self.in_range, self.origin)
        return []


@dataclass
class GlobalAtomic:
    """Read-modify-write per lane, lanes in order (lanes to the same address serialise).

    32-bit (`data` uint32[n]) or 64-bit (`data` uint64[n], ops `*_b64/u64/i64`: the `_x2`
    instructions) elements; cmpswap also carries `cmp`, the value memory must hold.
    Returns the pre-op value when `ret_file` is set (GLC/SC0), in one or two registers.
    Out-of-range buffer lanes are dropped and return 0.
    """

    op: str  # a key of ATOMIC_OPS
    lanes: np.ndarray
    addrs: np.ndarray
    data: np.ndarray  # uint32[n] or uint64[n]
    ret_file: str | None = None
    ret_index: int = 0
    in_range: np.ndarray | None = None  # bool[n]
    origin: str = ""
    cmp: np.ndarray | None = None  # cmpswap: the compare value per lane (data's dtype)

    @property
    def width(self) -> int:
        """Bytes per element: 4 or 8."""
        return self.data.dtype.itemsize

    @property
    def dwords(self) -> int:
        """Registers the returning form writes (the engine marks them pending)."""
        return self.width // 4

    @property
    def size(self) -> int:
        """Bytes per lane sent to memory (cmpswap sends the compare value too)."""
        return self.width * (1 if self.cmp is None else 2)

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        return _return_writes(self.lanes, self.update(mem), self.ret_file, self.ret_index)

    def update(self, mem: GlobalMemory) -> np.ndarray:
        """Do the read-modify-writes; the pre-op value per lane (0 for out-of-range lanes)."""
        fn = ATOMIC_OPS[self.op]
        width = self.width
        fmt, mask = ("<u8", (1 << 64) - 1) if width == 8 else ("<u4", 0xFFFFFFFF)
        old = np.zeros(len(self.lanes), dtype=self.data.dtype)
        ok = np.ones(len(self.lanes), dtype=bool) if self.in_range is None else np.asarray(self.in_range, bool)
        try:
            for k in range(len(self.lanes)):
                if not ok[k]:
                    continue
                a, lane = self.addrs[k:k + 1], self.lanes[k:k + 1]
                cur = int(mem.read(a, width, lane).view(fmt)[0, 0])
                old[k] = cur
                d = int(self.data[k]) if self.cmp is None else (int(self.data[k]), int(self.cmp[k]))
                new = fn(cur, d) & mask
                mem.write(a, np.array([new], dtype=fmt).view(np.uint8).reshape(1, width), lane)
        except MemoryError_ as e:
            raise _located(e, self.origin) from None
        return old


@dataclass
class ClockRead:
    """s_memtime / s_memrealtime: a 64-bit counter into an SGPR pair when the SMEM request
    completes. The engine sets `clock` (its cycle; the functional engine, which has no clock,
    the wave's instruction count) just before `perform`; `mhz` converts core cycles to the
    real-time counter's rate (None: the core clock itself)."""

    dst_slot: int
    dwords: int = 2
    mhz: tuple[int, int] | None = None  # (counter MHz, core MHz) for the real-time clock
    clock: int = 0
    wants_clock = True  # (class attribute: the engines look for it)

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        value = self.clock if self.mhz is None else self.clock * self.mhz[0] // self.mhz[1]
        return [RegWrite("s", self.dst_slot, np.array([value & 0xFFFFFFFF, (value >> 32) & 0xFFFFFFFF], dtype=U32))]


@dataclass
class ScalarAtomic(GlobalAtomic):
    """s_atomic_* / s_buffer_atomic_*: one read-modify-write by the scalar unit (one "lane").
    With GLC the pre-op value returns into the data SGPRs (`dst_slot`, counted by lgkmcnt)."""

    dst_slot: int | None = None

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        old = self.update(mem)
        if self.dst_slot is None:
            return []
        value = int(old[0])
        return [RegWrite("s", self.dst_slot, np.array([(value >> (32 * k)) & 0xFFFFFFFF
                                                       for k in range(self.dwords)], dtype=U32))]


@dataclass
class LdsDma:
    """Global -> LDS without VGPRs (buffer_load ... lds, global_load_lds_*): counted by vmcnt.

    Each lane's element is read from memory (out-of-range buffer components read 0),
    sub-dword elements are zero/sign extended to a dword (`kind`), and the result is
    written to LDS at `lds_addrs` dword by dword: a dword that does not fit in the LDS
    is dropped, the others land.
    """

    lanes: np.ndarray
    addrs: np.ndarray
    size: int  # bytes read per lane: 1, 2, 4, 12, 16
    lds_addrs: np.ndarray  # per lane destination byte address in LDS (int64[n])
    in_range: np.ndarray | None = None
    kind: str = "raw"  # raw | u8 | i8 | u16 | i16
    origin: str = ""

    @property
    def lds_bytes(self) -> int:
        return 4 if self.kind != "raw" else self.size

    def payload(self, mem: GlobalMemory) -> np.ndarray:
        data = _read_checked(mem, self.addrs, self.size, self.lanes, self.in_range, self.origin)
        if self.kind != "raw":
            data = extend(data, self.kind).astype("<u4").view(np.uint8).reshape(-1, 4)
        return data

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        data = self.payload(mem)
        addrs = np.asarray(self.lds_addrs, dtype=np.int64)
        for k in range(0, self.lds_bytes, 4):
            lds.write(addrs + k, data[:, k:k + 4])
        return []

    def lds_ranges(self) -> list[tuple[int, int]]:
        return [(int(a), int(a) + self.lds_bytes) for a in self.lds_addrs]


# ---------------------------------------------------------------- LDS


@dataclass
class LdsRead(LaneLoad):
    """One or more LDS reads per lane (ds_read2 has two pieces) into consecutive dwords.

    Out-of-range pieces read 0 (the LDS model does that).
    """

    pieces: list = field(default_factory=list)  # [(addrs int64[n], bytes)]

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        chunks = [lds.read(addrs, size)[0] for addrs, size in self.pieces]
        data = np.concatenate(chunks, axis=1) if len(chunks) > 1 else chunks[0]
        return self.writes_for(data)

    def lds_ranges(self) -> list[tuple[int, int]]:
        return [(int(a), int(a) + size) for addrs, size in self.pieces for a in addrs]


@dataclass
class LdsWrite:
    """One or more LDS writes per lane; out-of-range pieces are dropped (the LDS model does that)."""

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
    """DS read-modify-write per lane in lane order; out-of-range lanes do nothing and return 0.

    32-bit (`data` uint32[n]) or 64-bit (`data` uint64[n]: the `_b64/_u64/_i64/_f64` opcodes)
    elements; two-operand ops (cmpst, mskor, wrap) also carry `data2`, handed to the op as
    (data, data2)."""

    op: str  # a key of ATOMIC_OPS
    lanes: np.ndarray
    addrs: np.ndarray
    data: np.ndarray
    ret_file: str | None = None
    ret_index: int = 0
    data2: np.ndarray | None = None

    @property
    def width(self) -> int:
        """Bytes per element: 4 or 8."""
        return self.data.dtype.itemsize

    @property
    def dwords(self) -> int:
        """Registers the returning form writes (the engine marks them pending)."""
        return self.width // 4

    @property
    def size(self) -> int:
        """Bytes per lane (the engine's LDS bandwidth)."""
        return self.width

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        fn = ATOMIC_OPS[self.op]
        width = self.width
        fmt, mask = ("<u8", (1 << 64) - 1) if width == 8 else ("<u4", 0xFFFFFFFF)
        old = np.zeros(len(self.lanes), dtype=self.data.dtype)
        for k in range(len(self.lanes)):
            a = self.addrs[k:k + 1]
            cur_b, oob = lds.read(a, width)
            if oob[0]:
                continue
            cur = int(cur_b.view(fmt)[0, 0])
            old[k] = cur
            d = int(self.data[k]) if self.data2 is None else (int(self.data[k]), int(self.data2[k]))
            new = fn(cur, d) & mask
            lds.write(a, np.array([new], dtype=fmt).view(np.uint8).reshape(1, width))
        return _return_writes(self.lanes, old, self.ret_file, self.ret_index)

    def lds_ranges(self) -> list[tuple[int, int]]:
        return [(int(a), int(a) + self.width) for a in self.addrs]


@dataclass
class LdsExchange2:
    """ds_wrxchg2[st64]_rtn_b32/b64: two exchanges per lane (DATA at ADDR0, DATA2 at ADDR1), in
    lane order; the destination gets both old values (ADDR0's first). Out-of-range pieces are
    left alone and return 0."""

    lanes: np.ndarray
    pieces: list  # [(addrs int64[n], data uint32[n] | uint64[n])] x 2
    ret_file: str = "v"
    ret_index: int = 0

    @property
    def dwords(self) -> int:
        return 2 * self.pieces[0][1].dtype.itemsize // 4

    @property
    def size(self) -> int:
        """Bytes per lane (the engine's LDS bandwidth)."""
        return 4 * self.dwords

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        half = self.dwords // 2
        vals = np.zeros((self.dwords, WAVE), dtype=U32)
        for p, (addrs, data) in enumerate(self.pieces):
            width = data.dtype.itemsize
            fmt = "<u8" if width == 8 else "<u4"
            for k, lane in enumerate(self.lanes):
                a = addrs[k:k + 1]
                cur_b, oob = lds.read(a, width)
                if oob[0]:
                    continue
                vals[p * half:(p + 1) * half, lane] = cur_b.view("<u4")[0]
                lds.write(a, np.array([data[k]], dtype=fmt).view(np.uint8).reshape(1, width))
        return [RegWrite(self.ret_file, self.ret_index, vals, _lane_mask(self.lanes))]

    def lds_ranges(self) -> list[tuple[int, int]]:
        return [(int(a), int(a) + d.dtype.itemsize) for addrs, d in self.pieces for a in addrs]


@dataclass
class LdsAppend(LdsAtomic):
    """ds_append / ds_consume: one 32-bit add (or subtract) of `data[0]` (the number of active
    lanes) at one LDS address for the whole wave; every active lane gets the pre-op value.
    `lanes` and `addrs` are per active lane (all the same address) so the LDS bookkeeping
    (ranges, alignment) sees the instruction like any other DS atomic. Out of range: memory is
    untouched and the lanes get 0, as for the other DS atomics."""

    def perform(self, mem: GlobalMemory, lds: LDS) -> list[RegWrite]:
        old = np.zeros(len(self.lanes), dtype=U32)
        if len(self.lanes):
            a = self.addrs[:1]
            cur_b, oob = lds.read(a, 4)
            if not oob[0]:
                cur = int(cur_b.view("<u4")[0, 0])
                new = ATOMIC_OPS[self.op](cur, int(self.data[0])) & 0xFFFFFFFF
                lds.write(a, np.array([new], dtype="<u4").view(np.uint8).reshape(1, 4))
                old[:] = cur
        return _return_writes(self.lanes, old, self.ret_file, self.ret_index)


# ---------------------------------------------------------------- scalar


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
