"""Machine state: per-wave registers, global memory, LDS.

Registers are numpy arrays so that semantics work on all 64 lanes at once:
VGPRs/AGPRs are uint32[reg, lane]; SGPRs are uint32[128] indexed by their gfx9
encoding number, so that special registers are just names for slots
(vcc = s[106:107], m0 = 124, exec = s[126:127]) and a 64-bit write to `vcc`
and a read of `vcc_lo` see the same bits.

Reads of never-written registers return a poison pattern and are recorded, so a
kernel that forgot an initialisation is visible instead of silently reading 0.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np

POISON = np.uint32(0xBADC0DE5)
WAVE = 64

# Special scalar registers -> (first SGPR slot, count) in the gfx9 encoding.
SPECIAL_SLOTS: dict[str, tuple[int, int]] = {
    "flat_scratch": (102, 2), "flat_scratch_lo": (102, 1), "flat_scratch_hi": (103, 1),
    "xnack_mask": (104, 2), "xnack_mask_lo": (104, 1), "xnack_mask_hi": (105, 1),
    "vcc": (106, 2), "vcc_lo": (106, 1), "vcc_hi": (107, 1),
    "m0": (124, 1),
    "exec": (126, 2), "exec_lo": (126, 1), "exec_hi": (127, 1),
}
TTMP_BASE = 108
SGPR_SLOTS = 128


class MemoryError_(Exception):
    """A bad global memory access (unallocated, out of bounds). Carries lane and address."""

    def __init__(self, message: str, lane: int | None = None, address: int | None = None):
        super().__init__(message)
        self.lane = lane
        self.address = address


@dataclass
class Buffer:
    name: str
    base: int
    data: np.ndarray  # uint8
    written: np.ndarray | None = None  # bool per byte, when writes are tracked (grid runs)
    read: np.ndarray | None = None  # bool per byte read, tracked with the writes

    @property
    def end(self) -> int:
        return self.base + len(self.data)


POISON_WORD = int(POISON)
"""What a never-written register reads as (gcnemu.sim.state registers): an address made of it is
named as such, not as an offset past some buffer."""
NEAR_LIMIT = 1 << 32
"""An address this far past a buffer's end is not an index running over it: say nothing of it."""


class GlobalMemory:
    """A sparse 64-bit address space made of allocated buffers (little endian)."""

    def __init__(self, base: int = 0x1_0000_0000, align: int = 0x1000):
        self.buffers: list[Buffer] = []
        self._bases: list[int] = []
        self._next = base
        self._align = align

    def alloc(self, name: str, data: np.ndarray | bytes | int) -> Buffer:
        if isinstance(data, int):
            raw = np.zeros(data, dtype=np.uint8)
        elif isinstance(data, (bytes, bytearray)):
            raw = np.frombuffer(bytes(data), dtype=np.uint8).copy()
        else:
            raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1).copy()
        buf = Buffer(name, self._next, raw)
        size = max(len(raw), 1)
        self._next += (size + 2 * self._align - 1) // self._align * self._align  # a guard gap between buffers
        i = bisect.bisect_right(self._bases, buf.base)  # kept sorted: a placed buffer may lie above
        self.buffers.insert(i, buf)
        self._bases.insert(i, buf.base)
        return buf

    def place(self, name: str, base: int, data: bytes) -> Buffer:
        """A buffer at a fixed address (the code object's GOT, where the loader put it); it must
        not overlap another buffer."""
        raw = np.frombuffer(bytes(data), dtype=np.uint8).copy()
        buf = Buffer(name, base, raw)
        i = bisect.bisect_right(self._bases, base)
        if (i > 0 and self.buffers[i - 1].end > base) or (i < len(self.buffers) and self._bases[i] < buf.end):
            raise MemoryError_(f"buffer '{name}' at 0x{base:x} overlaps another buffer")
        self.buffers.insert(i, buf)
        self._bases.insert(i, base)
        return buf

    def track_writes(self) -> None:
        """Remember which bytes of each buffer get written and read (a grid run merges the writes,
        and finds bytes two workgroups wrote or one read and another wrote)."""
        for b in self.buffers:
            b.written = np.zeros(len(b.data), dtype=bool)
            b.read = np.zeros(len(b.data), dtype=bool)

    def buffer(self, name: str) -> Buffer:
        for b in self.buffers:
            if b.name == name:
                return b
        raise KeyError(name)

    def find(self, address: int) -> Buffer | None:
        i = bisect.bisect_right(self._bases, address) - 1
        if i >= 0 and self.buffers[i].base <= address < self.buffers[i].end:
            return self.buffers[i]
        return None

    def _near(self, address: int) -> str:
        """Which buffer an unallocated address lies just past: an index computed for a larger
        problem (or grid) than the buffer was made for lands there."""
        if (address >> 32) == POISON_WORD or (address & 0xFFFFFFFF) == POISON_WORD:
            return (" (it holds gcnemu's never-written pattern 0xbadc0de5: the address came from a register "
                    "the kernel never set)")
        i = bisect.bisect_right(self._bases, address) - 1
        if i < 0:
            return ""
        b = self.buffers[i]
        if address - b.end >= NEAR_LIMIT:  # far from every buffer: naming the last one would mislead
            return ""
        return (f" ({address - b.end} bytes past the end of buffer '{b.name}', {len(b.data)} bytes at "
                f"0x{b.base:x}: is it smaller than the grid or the sizes the kernel was given?)")

    def _locate(self, addrs: np.ndarray, size: int, lanes: np.ndarray) -> tuple[Buffer, np.ndarray]:
        """The buffer holding all accessed bytes, and the byte offsets; else a MemoryError_."""
        lo = int(addrs.min())
        buf = self.find(lo)
        if buf is not None and int(addrs.max()) + size <= buf.end:
            return buf, (addrs - np.uint64(buf.base)).astype(np.int64)
        for lane, a in zip(lanes, addrs):
            a = int(a)
            b = self.find(a)
            if b is None:
                raise MemoryError_(f"lane {lane}: address 0x{a:x} is not in any allocated buffer{self._near(a)}",
                                   int(lane), a)
            if a + size > b.end:
                raise MemoryError_(f"lane {lane}: access of {size} bytes at 0x{a:x} runs past the end of buffer "
                                   f"'{b.name}' (0x{b.base:x}..0x{b.end:x})", int(lane), a)
        raise MemoryError_("one access spans several buffers; gcnemu requires each instruction's lanes to "
                           "address a single buffer", int(lanes[0]), lo)

    def read(self, addrs: np.ndarray, size: int, lanes: np.ndarray) -> np.ndarray:
        """Bytes at each address: uint8[len(addrs), size]."""
        if len(addrs) == 0:
            return np.zeros((0, size), dtype=np.uint8)
        buf, off = self._locate(addrs, size, lanes)
        idx = off[:, None] + np.arange(size)[None, :]
        if buf.read is not None:
            buf.read[idx.reshape(-1)] = True
        return buf.data[idx]

    def write(self, addrs: np.ndarray, data: np.ndarray, lanes: np.ndarray) -> None:
        """Write uint8[len(addrs), size]; later lanes win on overlap, as on hardware (unordered, but deterministic here)."""
        if len(addrs) == 0:
            return
        size = data.shape[1]
        buf, off = self._locate(addrs, size, lanes)
        idx = off[:, None] + np.arange(size)[None, :]
        buf.data[idx.reshape(-1)] = data.reshape(-1)
        if buf.written is not None:
            buf.written[idx.reshape(-1)] = True

    def read_scalar(self, address: int, size: int) -> np.ndarray:
        return self.read(np.array([address], dtype=np.uint64), size, np.array([0]))[0]


# size -> int64[1, size]: the byte offsets of one lane's access (LDS reads are 1..16 bytes)
_BYTE_STEPS = {n: np.arange(n, dtype=np.int64)[None, :] for n in range(1, 17)}


class LDS:
    """Local data share of one workgroup. Out-of-range accesses: reads give 0, writes are dropped (ISA guide)."""

    def __init__(self, size: int):
        self.size = size
        self.data = np.zeros(size, dtype=np.uint8)
        # bytes the kernel's descriptor allocates to the workgroup (None: all of it); `ds_*`
        # beyond it is an error, since the descriptor then contradicts the code
        self.limit: int | None = None

    def read(self, addrs: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
        """Returns (uint8[n, size], out_of_range mask[n])."""
        addrs = addrs.astype(np.int64)
        oob = (addrs < 0) | (addrs + size > self.size)
        if not oob.any():  # the common case: no lane to clamp and zero
            steps = _BYTE_STEPS.get(size)
            if steps is None:
                steps = np.arange(size, dtype=np.int64)[None, :]
            return self.data[addrs[:, None] + steps], oob
        safe = np.where(oob, 0, addrs)
        out = self.data[safe[:, None] + np.arange(size)[None, :]]
        out[oob] = 0
        return out, oob

    def write(self, addrs: np.ndarray, data: np.ndarray) -> np.ndarray:
        addrs = addrs.astype(np.int64)
        size = data.shape[1]
        oob = (addrs < 0) | (addrs + size > self.size)
        if not oob.any():  # every lane in range: no selection
            steps = _BYTE_STEPS.get(size)
            if steps is None:
                steps = np.arange(size, dtype=np.int64)[None, :]
            self.data[(addrs[:, None] + steps).reshape(-1)] = data.reshape(-1)
            return oob
        ok = ~oob
        if ok.any():
            idx = addrs[ok][:, None] + np.arange(size)[None, :]
            self.data[idx.reshape(-1)] = data[ok].reshape(-1)
        return oob


_LANE_SHIFTS = np.arange(WAVE, dtype=np.uint64)
_EXEC_CACHE: dict[tuple[int, int], np.ndarray] = {}


@dataclass
class WaveState:
    """Architectural state of one wave64."""

    wave_id: int
    sgpr: np.ndarray = field(default_factory=lambda: np.full(SGPR_SLOTS, POISON, dtype=np.uint32))
    vgpr: np.ndarray = field(default_factory=lambda: np.full((256, WAVE), POISON, dtype=np.uint32))
    agpr: np.ndarray = field(default_factory=lambda: np.full((256, WAVE), POISON, dtype=np.uint32))
    sgpr_init: np.ndarray = field(default_factory=lambda: np.zeros(SGPR_SLOTS, dtype=bool))
    vgpr_init: np.ndarray = field(default_factory=lambda: np.zeros((256, WAVE), dtype=bool))
    agpr_init: np.ndarray = field(default_factory=lambda: np.zeros((256, WAVE), dtype=bool))
    scc: int = 0
    pc: int = 0  # index into the kernel's instruction list
    done: bool = False
    # private memory: the global address of this wave's scratch buffer (64 lanes x scratch_size
    # bytes, lane-major), None when the launch has no private segment
    scratch_base: int | None = None
    scratch_size: int = 0

    def __post_init__(self) -> None:
        # EXEC starts all-ones for a full wave; VCC and M0 start defined-but-zero is NOT
        # guaranteed by hardware, so only EXEC is initialised here (the launch sets the rest).
        self.set_sgpr(126, np.array([0xFFFFFFFF, 0xFFFFFFFF], dtype=np.uint32))

    # -- scalar
    def set_sgpr(self, slot: int, values: np.ndarray) -> None:
        n = len(values)
        self.sgpr[slot:slot + n] = values
        self.sgpr_init[slot:slot + n] = True

    @property
    def exec_mask(self) -> np.ndarray:
        """bool[64] from EXEC (a fresh copy; EXEC changes rarely, so the unpacked mask is cached)."""
        key = (int(self.sgpr[126]), int(self.sgpr[127]))
        cached = _EXEC_CACHE.get(key)
        if cached is None:
            bits = key[0] | (key[1] << 32)
            cached = ((bits >> _LANE_SHIFTS) & np.uint64(1)).astype(bool)
            if len(_EXEC_CACHE) < 4096:
                _EXEC_CACHE[key] = cached
        return cached.copy()

    def exec_mask_full(self) -> tuple[np.ndarray, bool]:
        """(exec_mask, every lane on): the mask as `exec_mask` gives it, and whether EXEC is all ones."""
        lo, hi = int(self.sgpr[126]), int(self.sgpr[127])
        key = (lo, hi)
        cached = _EXEC_CACHE.get(key)
        if cached is None:
            return self.exec_mask, lo == 0xFFFFFFFF and hi == 0xFFFFFFFF
        return cached.copy(), lo == 0xFFFFFFFF and hi == 0xFFFFFFFF

    @property
    def exec_bits(self) -> int:
        return int(self.sgpr[126]) | (int(self.sgpr[127]) << 32)

    def scalar64(self, slot: int) -> int:
        return int(self.sgpr[slot]) | (int(self.sgpr[slot + 1]) << 32)

    # -- vector
    def file(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        if name == "v":
            return self.vgpr, self.vgpr_init
        if name == "a":
            return self.agpr, self.agpr_init
        raise KeyError(name)

    # typed views for users (sim.wave(0).v[1].f32 style access goes through RegView)
    @property
    def v(self) -> "RegView":
        return RegView(self.vgpr)

    @property
    def a(self) -> "RegView":
        return RegView(self.agpr)

    @property
    def s(self) -> np.ndarray:
        return self.sgpr


REGISTER_FILES = ("sgpr", "vgpr", "agpr", "sgpr_init", "vgpr_init", "agpr_init")
"""The per-wave register arrays of a WaveState, values and written-flags."""


class RegisterFiles:
    """The registers of a workgroup's waves as one array per file: `vgpr`/`agpr` uint32[waves,
    registers, 64], `sgpr` uint32[waves, SGPR_SLOTS], and the written-flags of each in the same
    shape. Each WaveState's arrays become views of its wave's block (`vgpr[w]`: contiguous, so
    every per-wave operation sees the same rows as before).

    Why: the machine state is then a handful of arrays, not six per wave: a snapshot (the
    debugger's reverse steps) copies six arrays whatever the wave count, and an issue loop that
    indexes (wave, register) works on the whole workgroup's state (issue 27)."""

    def __init__(self, arrays: dict[str, np.ndarray]):
        self.arrays = arrays
        for name, arr in arrays.items():
            setattr(self, name, arr)

    @classmethod
    def gather(cls, waves: list[WaveState]) -> "RegisterFiles | None":
        """Move the registers of `waves` (their current contents) into one array per file and
        rebind each wave's arrays to its views; None (nothing changed) when the waves' files
        differ in shape or dtype, which only a hand-made WaveState can do."""
        if not waves:
            return None
        for name in REGISTER_FILES:
            first = getattr(waves[0], name)
            if any(getattr(w, name).shape != first.shape or getattr(w, name).dtype != first.dtype for w in waves):
                return None
        arrays = {name: np.stack([getattr(w, name) for w in waves]) for name in REGISTER_FILES}
        for k, w in enumerate(waves):
            for name, arr in arrays.items():
                setattr(w, name, arr[k])
        return cls(arrays)

    def holds(self, waves: list[WaveState]) -> bool:
        """Each wave's arrays are still the views `gather` made (a deep copy of the waves, as
        the debugger's generic snapshots make, gives them arrays of their own)."""
        return all(getattr(w, name).base is arr for name, arr in self.arrays.items() for w in waves)

    def copy(self) -> tuple[np.ndarray, ...]:
        """The contents of every file (REGISTER_FILES order), for `restore`."""
        return tuple(self.arrays[name].copy() for name in REGISTER_FILES)

    def restore(self, saved: tuple[np.ndarray, ...]) -> None:
        """Put back what `copy` saved, in place: views held by callers see the restored values."""
        for name, arr in zip(REGISTER_FILES, saved):
            self.arrays[name][...] = arr


class LaneArray(np.ndarray):
    """A uint32 lane array with typed views: `.f32`, `.i32`, `.u32`, `.f16`, `.bf16` (low halves)."""

    @property
    def u32(self) -> np.ndarray:
        return np.asarray(self).view(np.uint32)

    @property
    def i32(self) -> np.ndarray:
        return np.asarray(self).view(np.int32)

    @property
    def f32(self) -> np.ndarray:
        return np.asarray(self).view(np.float32)

    @property
    def f16(self) -> np.ndarray:
        return (np.asarray(self).view(np.uint32) & 0xFFFF).astype(np.uint16).view(np.float16)

    @property
    def bf16(self) -> np.ndarray:
        import ml_dtypes
        return (np.asarray(self).view(np.uint32) & 0xFFFF).astype(np.uint16).view(ml_dtypes.bfloat16)


class RegView:
    """`wave.v[1]` -> LaneArray copy of v1; `wave.v[0:4]` -> uint32[4, 64]."""

    def __init__(self, arr: np.ndarray):
        self._arr = arr

    def __getitem__(self, key):
        return np.array(self._arr[key], dtype=np.uint32).view(LaneArray)

    def __len__(self) -> int:
        return len(self._arr)
