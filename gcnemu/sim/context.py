"""The world as a semantic function sees it: operand reads at issue, effects out.

Semantics never write state directly and never know about cycles. They read
operands through `Ctx` (which records every register read, for interlocks and
the hazard monitor) and describe what changes as effects:

- `RegWrite`: a register result, landing when the engine says (ALU latency, MFMA passes);
- a `MemOp` (see `memops`): an access the memory system performs later, in its
  own order (loads return data, stores write memory, LDS DMA writes LDS).

The engine decides *when* each effect lands.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..program import Expr, FloatImm, Imm, Instruction, Modified, Reg, Special, Symbol
from .state import SPECIAL_SLOTS, TTMP_BASE, WAVE, WaveState

U32 = np.uint32


class SimError(Exception):
    """A runtime error in the simulated program (bad address, unmodelled instruction...)."""

    def __init__(self, message: str, lane: int | None = None, address: int | None = None):
        super().__init__(message)
        self.lane = lane
        self.address = address


@dataclass
class RegWrite:
    """Write `values` to registers `file[index : index+count]`.

    file: 'v' or 'a' (values uint32[count, 64], `mask` bool[64] lanes written) or
    's' (SGPR slots, values uint32[count]), 'scc' (values[0] is 0/1).
    """

    file: str
    index: int
    values: np.ndarray
    mask: np.ndarray | None = None

    @property
    def count(self) -> int:
        return 1 if self.file == "scc" else len(self.values)

    def regs(self) -> list[tuple[str, int]]:
        if self.file == "scc":
            return [("scc", 0)]
        return [(self.file, self.index + i) for i in range(len(self.values))]


# Inline constants of gfx9 (ISA guide, "Inline constants"): integers -16..64 and these floats.
_INLINE_F32 = {0.5: 0x3F000000, -0.5: 0xBF000000, 1.0: 0x3F800000, -1.0: 0xBF800000, 2.0: 0x40000000,
               -2.0: 0xC0000000, 4.0: 0x40800000, -4.0: 0xC0800000, 0.15915494309189535: 0x3E22F983}
_INLINE_F16 = {0.5: 0x3800, -0.5: 0xB800, 1.0: 0x3C00, -1.0: 0xBC00, 2.0: 0x4000, -2.0: 0xC000,
               4.0: 0x4400, -4.0: 0xC400, 0.15915494309189535: 0x3118}
_INLINE_F64 = {0.5: 0x3FE0000000000000, -0.5: 0xBFE0000000000000, 1.0: 0x3FF0000000000000,
               -1.0: 0xBFF0000000000000, 2.0: 0x4000000000000000, -2.0: 0xC000000000000000,
               4.0: 0x4010000000000000, -4.0: 0xC010000000000000, 0.15915494309189535: 0x3FC45F306DC9C882}


def float_bits(value: float, kind: str) -> int:
    """Bit pattern of a float operand for an operand of type kind ('f16', 'bf16', 'f32', 'f64')."""
    if kind == "f16":
        if value in _INLINE_F16:
            return _INLINE_F16[value]
        return int(np.array(value, dtype=np.float16).view(np.uint16))
    if kind == "bf16":
        import ml_dtypes
        return int(np.array(value, dtype=ml_dtypes.bfloat16).view(np.uint16))
    if kind == "f64":
        if value in _INLINE_F64:
            return _INLINE_F64[value]
        return int(np.array(value, dtype=np.float64).view(np.uint64))
    if value in _INLINE_F32:
        return _INLINE_F32[value]
    return int(np.array(value, dtype=np.float32).view(np.uint32))


def special_slot(name: str) -> tuple[int, int] | None:
    return SPECIAL_SLOTS.get(name)


@dataclass
class Ctx:
    """Execution context of one instruction on one wave, at issue."""

    wave: WaveState
    ins: Instruction
    symbols: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)
    lds_size: int = 65536
    writes: list = field(default_factory=list)
    memops: list = field(default_factory=list)
    reads: list = field(default_factory=list)  # (file, index) pairs, in read order
    notes: list = field(default_factory=list)
    branch_to: int | None = None
    ended: bool = False
    target: str = "gfx90a"  # some semantics differ per target (e.g. fp8 FNUZ on gfx942, OCP on gfx950)

    # ------------------------------------------------------------ helpers
    @property
    def exec(self) -> np.ndarray:
        self.reads.append(("s", 126))
        self.reads.append(("s", 127))
        return self.wave.exec_mask

    def op(self, i: int):
        ops = self.ins.operands
        if i >= len(ops):
            raise SimError(f"{self.ins.mnemonic}: missing operand {i + 1}")
        return ops[i]

    def const(self, operand) -> int:
        """Integer value of an immediate/symbol operand (e.g. s_movk, offsets)."""
        if isinstance(operand, Imm):
            return operand.value
        if isinstance(operand, (Symbol, Expr)):
            from ..resolve import eval_const
            return eval_const(operand, self.symbols)
        raise SimError(f"{self.ins.mnemonic}: expected a constant, got '{operand.text()}'")

    # ------------------------------------------------------------ scalar reads
    def _scalar_slots(self, operand) -> tuple[int, int]:
        if isinstance(operand, Reg):
            if operand.file == "s":
                return operand.index, operand.count
            if operand.file == "ttmp":
                return TTMP_BASE + operand.index, operand.count
        if isinstance(operand, Special):
            slot = special_slot(operand.name)
            if slot:
                return slot
        raise SimError(f"{self.ins.mnemonic}: '{operand.text()}' is not a scalar register")

    def s_read(self, i: int, width: int = 1) -> int:
        """Scalar source operand as an unsigned integer of `width` dwords (1 or 2)."""
        operand = self.op(i)
        return self.scalar_value(operand, width)

    def scalar_value(self, operand, width: int = 1, ftype: str = "f32") -> int:
        mask = (1 << (32 * width)) - 1
        if isinstance(operand, Special) and operand.name == "scc":
            self.reads.append(("scc", 0))
            return self.wave.scc
        if isinstance(operand, Special) and operand.name in ("vccz", "src_vccz"):
            return int(self.wave.scalar64(106) == 0)
        if isinstance(operand, Special) and operand.name in ("execz", "src_execz"):
            return int(self.wave.scalar64(126) == 0)
        if isinstance(operand, (Reg, Special)):
            slot, count = self._scalar_slots(operand)
            value = 0
            for k in range(min(count, width)):
                self.reads.append(("s", slot + k))
                value |= int(self.wave.sgpr[slot + k]) << (32 * k)
            return value & mask
        if isinstance(operand, FloatImm):
            return float_bits(operand.value, "f64" if width == 2 else ftype) & mask
        if isinstance(operand, Modified):
            return self._apply_float_mods(self.scalar_value(operand.inner, width, ftype), operand, width, ftype)
        return self.const(operand) & mask

    # ------------------------------------------------------------ vector reads
    def v_src(self, i: int, ftype: str = "f32", width: int = 1) -> np.ndarray:
        """A VALU source operand as uint32[64] (width 1) or uint64[64] (width 2), modifiers applied.

        ftype says how float literals and neg/abs apply: 'f32', 'f16', 'bf16', 'f64', or 'int'.
        """
        return self.vector_value(self.op(i), ftype, width)

    def vector_value(self, operand, ftype: str = "f32", width: int = 1) -> np.ndarray:
        if isinstance(operand, Modified):
            base = self.vector_value(operand.inner, ftype, width)
            return self._apply_float_mods(base, operand, width, ftype)
        if isinstance(operand, Reg) and operand.file in ("v", "a"):
            arr = self.wave.vgpr if operand.file == "v" else self.wave.agpr
            for k in range(width):
                self.reads.append((operand.file, operand.index + k))
            if width == 1:
                return arr[operand.index].copy()
            lo = arr[operand.index].astype(np.uint64)
            hi = arr[operand.index + 1].astype(np.uint64)
            return lo | (hi << np.uint64(32))
        # scalar or constant: broadcast
        value = self.scalar_value(operand, width, "f64" if width == 2 else (ftype if ftype != "int" else "f32"))
        if width == 2 and isinstance(operand, Imm) and operand.value < 0:
            value &= (1 << 64) - 1
        dtype = np.uint64 if width == 2 else np.uint32
        return np.full(WAVE, value, dtype=dtype)

    def _apply_float_mods(self, bits, operand: Modified, width: int, ftype: str):
        sign_bit = {1: 31, 2: 63}[width] if ftype not in ("f16", "bf16") else 15
        if ftype in ("f16", "bf16") and isinstance(bits, np.ndarray):
            # packed or low-half: modifiers apply to the low 16 bits here; packed ops use neg_lo/neg_hi
            pass
        sign = (1 << sign_bit)
        if isinstance(bits, np.ndarray):
            s = bits.dtype.type(sign)
            if operand.abs:
                bits = bits & ~s
            if operand.neg:
                bits = bits ^ s
            return bits
        if operand.abs:
            bits &= ~sign
        if operand.neg:
            bits ^= sign
        return bits

    # ------------------------------------------------------------ writes
    def write_v(self, i_or_reg, values: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Write a vector destination (operand index or Reg). values: uint32[64], uint64[64] or uint32[n, 64]."""
        reg = self.op(i_or_reg) if isinstance(i_or_reg, int) else i_or_reg
        if not isinstance(reg, Reg) or reg.file not in ("v", "a"):
            raise SimError(f"{self.ins.mnemonic}: destination '{reg.text()}' is not a VGPR/AGPR")
        values = np.asarray(values)
        if values.dtype == np.uint64 or values.dtype == np.int64 or values.dtype == np.float64:
            v64 = values.view(np.uint64) if values.dtype != np.int64 else values.astype(np.uint64)
            values = np.stack([(v64 & np.uint64(0xFFFFFFFF)).astype(U32), (v64 >> np.uint64(32)).astype(U32)])
        elif values.ndim == 1:
            values = values.astype(U32, copy=False)[None, :] if values.dtype != np.float32 else values.view(U32)[None, :]
        else:
            values = values.view(U32) if values.dtype == np.float32 else values.astype(U32, copy=False)
        if mask is None:
            mask = self.exec
        self.writes.append(RegWrite(reg.file, reg.index, values.copy(), mask.copy()))

    def write_s(self, i_or_reg, value: int, width: int = 1) -> None:
        operand = self.op(i_or_reg) if isinstance(i_or_reg, int) else i_or_reg
        if isinstance(operand, Special) and operand.name == "scc":
            self.write_scc(value)
            return
        slot, count = self._scalar_slots(operand)
        vals = np.array([(value >> (32 * k)) & 0xFFFFFFFF for k in range(width)], dtype=U32)
        self.writes.append(RegWrite("s", slot, vals))

    def write_slot(self, slot: int, value: int, width: int = 1) -> None:
        vals = np.array([(value >> (32 * k)) & 0xFFFFFFFF for k in range(width)], dtype=U32)
        self.writes.append(RegWrite("s", slot, vals))

    def write_scc(self, value: int | bool) -> None:
        self.writes.append(RegWrite("scc", 0, np.array([1 if value else 0], dtype=U32)))

    def write_lane_mask(self, i_or_reg, bits: np.ndarray) -> None:
        """Write a 64-bit lane mask (bool[64]) to an SGPR pair / vcc / exec operand."""
        value = int(np.packbits(bits.astype(np.uint8), bitorder="little").view(np.uint64)[0])
        self.write_s(i_or_reg, value, 2)

    def lane_mask(self, operand) -> np.ndarray:
        """bool[64] from a 64-bit scalar operand (vcc, s[2:3]...)."""
        v = self.scalar_value(operand, 2)
        return ((np.uint64(v) >> np.arange(WAVE, dtype=np.uint64)) & np.uint64(1)).astype(bool)

    def defer(self, memop) -> None:
        self.memops.append(memop)

    def note(self, message: str) -> None:
        self.notes.append(message)
