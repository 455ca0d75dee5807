"""The world as a semantic function sees it: operand reads at issue, effects out.

Semantics never write state directly and never know about cycles. They read
operands through `Ctx` (which records every register read, for interlocks and
the hazard monitor) and describe what changes as effects:

- `RegWrite`: a register result, landing when the engine says (ALU latency, MFMA passes);
- a `MemOp` (see `memops`): an access the memory system performs later, in its
  own order (loads return data, stores write memory, LDS DMA writes LDS).

The engine decides *when* each effect lands.

Operand reading follows the gfx9 encoding rules, so that a value read here is
the value the hardware's ALU sees:

- inline constants: integers -16..64 are sign-extended to the operand width;
  the float constants (+-0.5, +-1, +-2, +-4, 1/(2*pi)) are given in the
  operand's format (f16/f32/f64). A 16-bit operand of a packed (VOP3P) or
  op_sel-capable instruction sees a float constant in the low half and 0 in
  the high half, an integer constant as a sign-extended 32-bit value (LLVM's
  AMDGPUBaseInfo documents this hardware behaviour).
- literals are 32 bits. A 64-bit integer operand zero-extends it (sign-extends
  for signed i64 operands); a 64-bit float operand takes it as the high 32 bits
  (`v_fract_f64 v[0:1], 0x3ff80000` is 1.5).
- source modifiers: abs/neg flip the sign bit of the operand's format; SDWA
  selects a byte/word (`src0_sel`, `sext`); DPP permutes the lanes of src0;
  VOP3 `op_sel` picks the high half of 16-bit sources.
- reading a register that was never written returns the poison pattern and
  records an "uninitialised read" note naming the register and lanes.

`mode` (a `fp.FloatMode`) is the wave's MODE register as far as VALU numerics
care: denormals, IEEE, DX10 clamp. The launch may pass the kernel descriptor's
value (`fp.float_mode_from_program`); s_setreg of HW_REG_MODE overrides it for
the instructions issued afterwards (kept in `_HWREGS` until WaveState has a
place for hardware registers).
"""
from __future__ import annotations

import functools
import weakref

import numpy as np

from ..asm.program import Expr, FloatImm, Imm, Instruction, Modified, Reg, Special, Symbol
from . import fp
from ..isa import dpp as dpp_table
from .alignment import MisalignedNote, check as check_alignment
from .writes import RegWrite  # noqa: F401 (re-exported: semantics build RegWrites from here)
from .state import POISON, SPECIAL_SLOTS, TTMP_BASE, WAVE, WaveState

U32 = np.uint32
U64 = np.uint64
M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


class SimError(Exception):
    """A runtime error in the simulated program (bad address, unmodelled instruction...)."""

    def __init__(self, message: str, lane: int | None = None, address: int | None = None):
        super().__init__(message)
        self.lane = lane
        self.address = address


def _defined_dpp(mnemonic: str, mods: dict, target: str) -> None:
    """Refuse a DPP control the ISA does not define (`check` refuses it too; this guards what
    reaches the engine another way, e.g. the Python API without validation): no invented lanes."""
    dpp = dpp_table
    for name, value in mods.items():
        if name in dpp.DPP_CONTROLS and not dpp.dpp_available(name, target):
            raise SimError(f"{mnemonic}: {name} is not a DPP control on {target}; the ISA defines no result for it")
        if name in dpp.DPP_VALUES and not dpp.dpp_value_ok(name, value):
            raise SimError(f"{mnemonic}: {name}:{value} is not a DPP control the ISA defines "
                           f"(valid: {', '.join(map(str, sorted(dpp.DPP_VALUES[name])))})")
        if name == "quad_perm" and not dpp.quad_perm_ok(tuple(value or ())):
            raise SimError(f"{mnemonic}: quad_perm:{list(value or ())} is not a DPP control the ISA defines "
                           "(four lane selects of 0..3)")


# ---------------------------------------------------------------- constants (ISA guide, "Inline constants")

INLINE_INT_MIN, INLINE_INT_MAX = -16, 64
_INV_2PI = 0.15915494309189535
_INLINE_F32 = {0.5: 0x3F000000, -0.5: 0xBF000000, 1.0: 0x3F800000, -1.0: 0xBF800000, 2.0: 0x40000000,
               -2.0: 0xC0000000, 4.0: 0x40800000, -4.0: 0xC0800000, _INV_2PI: 0x3E22F983}
_INLINE_F16 = {0.5: 0x3800, -0.5: 0xB800, 1.0: 0x3C00, -1.0: 0xBC00, 2.0: 0x4000, -2.0: 0xC000,
               4.0: 0x4400, -4.0: 0xC400, _INV_2PI: 0x3118}
_INLINE_F64 = {0.5: 0x3FE0000000000000, -0.5: 0xBFE0000000000000, 1.0: 0x3FF0000000000000,
               -1.0: 0xBFF0000000000000, 2.0: 0x4000000000000000, -2.0: 0xC000000000000000,
               4.0: 0x4010000000000000, -4.0: 0xC010000000000000, _INV_2PI: 0x3FC45F306DC9C882}
_INLINE_F32_BITS = frozenset(_INLINE_F32.values())
_INLINE_F16_BITS = frozenset(_INLINE_F16.values())
_INLINE_F64_BITS = frozenset(_INLINE_F64.values())

# Operand kinds: how a source is typed. Width in bits of the operand.
KIND_WIDTH = {"b32": 32, "u32": 32, "i32": 32, "f32": 32, "b16": 16, "u16": 16, "i16": 16, "f16": 16,
              "bf16": 16, "b64": 64, "u64": 64, "i64": 64, "f64": 64}
FLOAT_KINDS = frozenset({"f16", "bf16", "f32", "f64"})
_LEGACY_FTYPE = {"int": "b32", "f32": "f32", "f16": "f16", "bf16": "bf16", "f64": "f64"}
_WIDTH32_FTYPES = frozenset({"int", "f32", "b32", "u32", "i32"})  # ftypes whose one-dword kind is 32 bits


def float_bits(value: float, kind: str) -> int:
    """Bit pattern of a float operand for an operand of type kind ('f16', 'bf16', 'f32', 'f64')."""
    if kind == "f16":
        if value in _INLINE_F16:
            return _INLINE_F16[value]
        with np.errstate(over="ignore"):  # float64 -> float16 rounds once (numpy converts directly)
            return int(np.array(value, dtype=np.float64).astype(np.float16).view(np.uint16))
    if kind == "bf16":
        return int(fp.f32_to_bf16_bits(np.array([value], dtype=np.float32))[0])
    if kind == "f64":
        if value in _INLINE_F64:
            return _INLINE_F64[value]
        return int(np.array(value, dtype=np.float64).view(np.uint64))
    if value in _INLINE_F32:
        return _INLINE_F32[value]
    return int(np.array(value, dtype=np.float32).view(np.uint32))


def not_a_constant(operand) -> SimError:
    """The error for a constant operand that `resolve` could not evaluate (a float `.set`
    symbol, an undefined name): resolution finishes before a run, so the simulator has nothing
    left to evaluate and refuses to guess a value."""
    return SimError(f"'{operand.text()}' is not a constant the assembler can evaluate: no value to run it with")


def constant_bits(operand, kind: str, signed64: bool = False) -> tuple[int, str]:
    """(value, how) of an immediate operand for an operand of `kind`.

    The value is the register-like container the ALU sees: 32 bits for 16/32-bit
    kinds, 64 bits for 64-bit kinds. `how` is 'inline', 'literal' or
    'literal-zext' (a negative literal that the hardware zero-extends to 64 bits).
    """
    width = KIND_WIDTH[kind]
    if isinstance(operand, FloatImm):
        value = operand.value
        if value == 0.0 and not np.signbit(value):
            return 0, "inline"
        if width == 64:
            bits = float_bits(value, "f64")
            if bits in _INLINE_F64_BITS:
                return bits, "inline"
            return bits & 0xFFFFFFFF00000000, "literal"  # a 32-bit literal is the high half of an f64
        if kind in ("f16", "bf16"):
            bits = float_bits(value, kind)
            return bits, "inline" if bits in _INLINE_F16_BITS else "literal"
        bits = float_bits(value, "f32")
        if kind in ("b16", "u16", "i16"):
            return bits, "inline" if bits in _INLINE_F32_BITS else "literal"
        return bits, "inline" if bits in _INLINE_F32_BITS else "literal"
    if isinstance(operand, (Symbol, Expr)):
        raise not_a_constant(operand)
    if isinstance(operand, Imm):
        value = operand.value
        if width == 16 and 0x8000 <= value <= 0xFFFF:
            value -= 0x10000  # llvm-mc reads a 16-bit operand's literal as a 16-bit value
        if INLINE_INT_MIN <= value <= INLINE_INT_MAX:
            return value & (M64 if width == 64 else M32), "inline"
        if width == 64:
            lit = value & M32
            if kind == "f64":
                return lit << 32, "literal"
            if signed64 or kind == "i64":
                return (lit - (1 << 32) if lit & 0x80000000 else lit) & M64, "literal"
            return lit, "literal-zext" if value < 0 else "literal"
        if width == 16:
            return value & 0xFFFF, "literal"
        return value & M32, "literal"
    raise TypeError(operand)


def special_slot(name: str) -> tuple[int, int] | None:
    return SPECIAL_SLOTS.get(name)


# Instructions whose leading operands are two destinations (a VGPR and a carry/flag SGPR pair);
# source numbering (src0/src1/src2 for SDWA, DPP, op_sel) starts after them.
_TWO_DESTINATIONS = frozenset({
    "v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32",
    "v_mad_u64_u32", "v_mad_i64_i32", "v_div_scale_f32", "v_div_scale_f64",
})
_SDWA_SEL = {"BYTE_0": (0, 8), "BYTE_1": (8, 8), "BYTE_2": (16, 8), "BYTE_3": (24, 8),
             "WORD_0": (0, 16), "WORD_1": (16, 16), "DWORD": (0, 32)}
_LANES = np.arange(WAVE)

# Hardware registers a program wrote with s_setreg, per wave (keyed by id, dropped with the wave).
# They belong in WaveState; kept here until the state owner adds them.
_HWREGS: dict[int, dict[int, int]] = {}


@functools.lru_cache(maxsize=4096)
def _split_mnemonic(mnemonic: str) -> tuple[str, str]:
    """('v_add_u32', '_e64') for 'v_add_u32_e64' (cached: a Ctx is made for every executed instruction)."""
    from ..isa.opcodes import base_mnemonic
    return base_mnemonic(mnemonic)


def _lane_ranges(lanes: np.ndarray) -> str:
    """[0,1,2,5] -> '0-2,5'."""
    out, start, prev = [], None, None
    for lane in map(int, lanes):
        if start is None:
            start = prev = lane
        elif lane == prev + 1:
            prev = lane
        else:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = lane
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ",".join(out)


@functools.lru_cache(maxsize=4096)
def _static_facts(mnemonic: str) -> tuple[str, str, bool, bool, int, bool]:
    """(base, encoding suffix, is_sdwa, is_dpp, n_dst, is_packed) of a mnemonic: the facts every
    Ctx of that instruction needs, computed once (a Ctx is made for every executed instruction)."""
    base, suffix = _split_mnemonic(mnemonic)
    if base.startswith(("v_cmp_", "v_cmpx_")):
        n_dst = 1
    elif base in _TWO_DESTINATIONS:
        n_dst = 2
    else:
        n_dst = 1
    return base, suffix, suffix == "_sdwa", suffix == "_dpp", n_dst, base.startswith("v_pk_")


_ALL_INIT = b"\x01" * WAVE  # a bool[64] row whose every lane is initialised, as bytes
# dtype objects for the fast paths: a dtype argument or `is` test is cheaper than one given as a type
_U32_DT, _I32_DT, _F32_DT = np.dtype(np.uint32), np.dtype(np.int32), np.dtype(np.float32)
_CONST_ROWS: dict[int, np.ndarray] = {}  # 32-bit constant -> its lanes (copied out, never handed over)
_PLAIN32 = frozenset({"u32", "b32", "i32", "f32"})  # source kinds read as a VGPR row, unconverted
_ALL_LANES = np.ones(WAVE, dtype=bool)  # the write mask under a full EXEC, shared: read-only
_ALL_LANES.flags.writeable = False
_SCC_VALUES = (np.array([0], dtype=U32), np.array([1], dtype=U32))  # write_scc's values, shared: read-only
for _v in _SCC_VALUES:
    _v.flags.writeable = False
_ALL_INIT2 = _ALL_INIT * 2


_PC_INSTRUCTIONS = ("s_getpc_b64", "s_setpc_b64", "s_swappc_b64", "s_call_b64")


def code_facts(kernel, ins: Instruction) -> dict:
    """Ctx attributes that only the PC instructions read: the kernel's code image (byte addresses,
    laid out at the first such instruction) and its instruction list (for error messages)."""
    if not ins.mnemonic.startswith(_PC_INSTRUCTIONS):
        return {}
    return {"image": kernel.image, "instructions": kernel.instructions}


class Ctx:
    """Execution context of one instruction on one wave, at issue.

    (A plain class rather than a dataclass: one is made per executed instruction, so its
    constructor is on the engine's hot path. Fields and their defaults are unchanged.)
    """

    def __init__(self, wave: WaveState, ins: Instruction, labels: dict | None = None,
                 lds_size: int = 65536, writes: list | None = None, memops: list | None = None,
                 reads: list | None = None, notes: list | None = None, branch_to: int | None = None,
                 ended: bool = False, target: str = "gfx90a", mode: fp.FloatMode = fp.DEFAULT_MODE) -> None:
        self.wave = wave
        self.ins = ins
        self.labels = {} if labels is None else labels
        self.lds_size = lds_size
        self.writes = [] if writes is None else writes
        self.memops = [] if memops is None else memops
        self.reads = [] if reads is None else reads  # (file, index) pairs, in read order
        self.notes = [] if notes is None else notes
        self.branch_to = branch_to
        self.ended = ended
        self.target = target  # some semantics differ per target (e.g. fp8 FNUZ on gfx942, OCP on gfx950)
        self.mode = mode  # MODE register fields that change VALU results
        (self.base, self.encoding_suffix, self.is_sdwa, self.is_dpp, self.n_dst,
         self._packed) = _static_facts(ins.mnemonic)
        if _HWREGS:
            regs = _HWREGS.get(id(wave))
            if regs is not None and 1 in regs:
                self.mode = fp.mode_from_register(regs[1])
        self._ops = ins.operands
        self._dpp_cache: tuple | None = None
        self._noted: set | None = None
        self.image = None  # CodeImage of the kernel, for the PC instructions (see code_facts)
        self.instructions: list = []

    @staticmethod
    def issue_template(ins: Instruction, labels: dict, lds_size: int, target: str,
                       mode: fp.FloatMode, **extra) -> dict:
        """The attributes every Ctx of one static instruction starts with (see `at_issue`),
        computed once per instruction; `extra` adds engine options (e.g. sramecc)."""
        base, suffix, is_sdwa, is_dpp, n_dst, packed = _static_facts(ins.mnemonic)
        t = {"ins": ins, "labels": labels, "lds_size": lds_size, "branch_to": None,
             "ended": False, "target": target, "mode": mode, "base": base, "encoding_suffix": suffix,
             "is_sdwa": is_sdwa, "is_dpp": is_dpp, "n_dst": n_dst, "_packed": packed, "_ops": ins.operands,
             "_dpp_cache": None, "_noted": None}
        t.update(extra)
        return t

    @classmethod
    def at_issue(cls, wave: WaveState, template: dict) -> "Ctx":
        """A Ctx as `Ctx(wave, ins, ...)` makes it, from `issue_template`'s attributes: the
        engine makes one per executed instruction, so the static part is one dict copy."""
        self = cls.__new__(cls)
        d = template.copy()
        d["wave"] = wave
        d["writes"] = []
        d["memops"] = []
        d["reads"] = []
        d["notes"] = []
        self.__dict__ = d
        if _HWREGS:
            regs = _HWREGS.get(id(wave))
            if regs is not None and 1 in regs:
                self.mode = fp.mode_from_register(regs[1])
        return self

    def __repr__(self) -> str:
        return f"Ctx(wave={self.wave.wave_id}, ins={self.ins.mnemonic!r}, writes={self.writes!r})"

    # ------------------------------------------------------------ helpers
    @property
    def exec(self) -> np.ndarray:
        self.reads.append(("s", 126))
        self.reads.append(("s", 127))
        return self.wave.exec_mask

    def op(self, i: int):
        ops = self._ops
        if i >= len(ops):
            raise SimError(f"{self.ins.mnemonic}: missing operand {i + 1}")
        return ops[i]

    def const(self, operand) -> int:
        """Integer value of an immediate/symbol operand (e.g. s_movk, offsets)."""
        if isinstance(operand, Imm):
            return operand.value
        if isinstance(operand, (Symbol, Expr)):
            raise not_a_constant(operand)
        raise SimError(f"{self.ins.mnemonic}: expected a constant, got '{operand.text()}'")

    def note(self, message: str) -> None:
        if self._noted is None:
            self._noted = set()
        if message not in self._noted:
            self._noted.add(message)
            self.notes.append(message)

    def defer(self, memop) -> None:
        self.memops.append(memop)
        found = check_alignment(self.ins.mnemonic, memop)
        if found is not None:  # reported by `Simulation` as one warning per instruction
            self.notes.append(MisalignedNote(found))

    # ------------------------------------------------------------ hardware registers (MODE, TRAPSTS)
    def hwreg(self, reg: int) -> int:
        """Current value of hardware register `reg` of this wave (MODE starts from the launch's mode)."""
        regs = _HWREGS.get(id(self.wave), {})
        if reg in regs:
            return regs[reg]
        return fp.mode_register(self.mode) if reg == 1 else 0

    def set_hwreg(self, reg: int, value: int) -> None:
        """Write a hardware register; a MODE write changes the float behaviour of later instructions."""
        key = id(self.wave)
        if key not in _HWREGS:
            _HWREGS[key] = {}
            weakref.finalize(self.wave, _HWREGS.pop, key, None)
        _HWREGS[key][reg] = value
        if reg == 1:
            for note in fp.mode_register_notes(value):
                self.note(note)

    # ------------------------------------------------------------ instruction modifiers
    def modifier(self, name: str, default=None):
        return self.ins.modifier(name, default)

    @property
    def clamp(self) -> bool:
        return bool(self.ins.modifier("clamp", False))

    @property
    def omod(self) -> int:
        """0 none, 1 mul:2, 2 mul:4, 3 div:2."""
        mul = self.ins.modifier("mul")
        if mul in (2, 4):
            return {2: 1, 4: 2}[mul]
        if self.ins.modifier("div") == 2:
            return 3
        return 0

    def _bit_list(self, name: str, n: int, default: int = 0) -> list[int]:
        value = self.ins.modifier(name)
        if value is None:
            return [default] * n
        if isinstance(value, tuple):
            bits = [int(v) & 1 for v in value]
        else:
            bits = [(int(value) >> k) & 1 for k in range(n)]
        return (bits + [default] * n)[:n]

    # n_dst (an attribute set at construction): the number of leading destination operands
    # (VOPC: the SGPR pair; carry-out ops: two)

    def src_number(self, i: int) -> int:
        return i - self.n_dst

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

    def s_read(self, i: int, width: int = 1, signed: bool = False) -> int:
        """Scalar source operand as an unsigned integer of `width` dwords (1 or 2).

        `signed` says the operand is a signed 64-bit value (s_ashr_i64, s_bfe_i64):
        a 32-bit literal is then sign-extended rather than zero-extended.
        """
        return self.scalar_value(self.op(i), width, "int", signed=signed)

    def scalar_value(self, operand, width: int = 1, ftype: str = "f32", signed: bool = False) -> int:
        """A scalar-readable operand (SGPR, special, constant) as an unsigned int of `width` dwords."""
        if type(operand) is Reg and operand.file == "s":  # the common case: SGPRs
            slot = operand.index
            wave = self.wave
            init = wave.sgpr_init
            sgpr = wave.sgpr
            reads = self.reads
            n = operand.count if operand.count < width else width
            if n == 1:
                reads.append(("s", slot))
                if not init.item(slot):  # (.item: a Python value without a numpy scalar)
                    self.note(f"reads s{slot} ({operand.text()}) before anything wrote it: "
                              f"it holds the poison pattern 0x{int(POISON):08x}")
                return sgpr.item(slot) & ((1 << (32 * width)) - 1)
            value = 0
            for k in range(n):
                reads.append(("s", slot + k))
                if not init[slot + k]:
                    self.note(f"reads s{slot + k} ({operand.text()}) before anything wrote it: "
                              f"it holds the poison pattern 0x{int(POISON):08x}")
                value |= int(sgpr[slot + k]) << (32 * k)
            return value & ((1 << (32 * width)) - 1)
        if type(operand) is Imm and width == 1 and ftype in _WIDTH32_FTYPES:
            return operand.value & M32  # constant_bits of a 32-bit kind: inline or literal, the low 32 bits
        mask = (1 << (32 * width)) - 1
        if isinstance(operand, Special) and operand.name in ("scc", "src_scc"):
            self.reads.append(("scc", 0))
            return self.wave.scc
        if isinstance(operand, Special) and operand.name in ("vccz", "src_vccz"):
            self.reads += [("s", 106), ("s", 107)]
            return int(self.wave.scalar64(106) == 0)
        if isinstance(operand, Special) and operand.name in ("execz", "src_execz"):
            self.reads += [("s", 126), ("s", 127)]
            return int(self.wave.scalar64(126) == 0)
        if isinstance(operand, (Reg, Special)):
            slot, count = self._scalar_slots(operand)
            value = 0
            for k in range(min(count, width)):
                self.reads.append(("s", slot + k))
                if not self.wave.sgpr_init[slot + k]:
                    self.note(f"reads s{slot + k} ({operand.text()}) before anything wrote it: "
                              f"it holds the poison pattern 0x{int(POISON):08x}")
                value |= int(self.wave.sgpr[slot + k]) << (32 * k)
            return value & mask
        if isinstance(operand, Modified):
            kind = self._kind_for(ftype, width)
            bits = self.scalar_value(operand.inner, width, ftype, signed)
            return self._sign_mods(bits, operand, kind) & mask
        kind = self._kind_for(ftype, width)
        value, how = constant_bits(operand, kind, signed64=signed)
        if how == "literal-zext":
            self._note_zext(operand, value)
        return value & mask

    @staticmethod
    def _kind_for(ftype: str, width: int) -> str:
        kind = _LEGACY_FTYPE.get(ftype, ftype)
        if width == 2 and KIND_WIDTH.get(kind, 32) != 64:
            kind = "f64" if kind in FLOAT_KINDS else "b64"
        return kind

    def _note_zext(self, operand, value: int) -> None:
        self.note(f"the literal {operand.text()} is encoded in 32 bits (0x{value & M32:08x}) and zero-extended by "
                  f"the hardware for this 64-bit operand: it reads 0x{value:016x}")

    # ------------------------------------------------------------ scalar writes
    def write_s(self, i_or_reg, value: int, width: int = 1) -> None:
        operand = self.op(i_or_reg) if isinstance(i_or_reg, int) else i_or_reg
        if width == 1 and type(operand) is Reg and operand.file == "s":  # the common case: one SGPR
            vals = np.empty(1, dtype=_U32_DT)  # (cheaper than np.array of a one-item list)
            vals[0] = value & M32
            self.writes.append(RegWrite("s", operand.index, vals))
            return
        if isinstance(operand, Special) and operand.name == "scc":
            self.write_scc(value)
            return
        slot, count = self._scalar_slots(operand)
        vals = np.array([(value >> (32 * k)) & M32 for k in range(width)], dtype=U32)
        self.writes.append(RegWrite("s", slot, vals))

    def write_slot(self, slot: int, value: int, width: int = 1) -> None:
        vals = np.array([(value >> (32 * k)) & M32 for k in range(width)], dtype=U32)
        self.writes.append(RegWrite("s", slot, vals))

    def write_scc(self, value: int | bool) -> None:
        self.writes.append(RegWrite("scc", 0, _SCC_VALUES[1 if value else 0]))

    def write_lane_mask(self, i_or_reg, bits: np.ndarray) -> None:
        """Write a 64-bit lane mask (bool[64]) to an SGPR pair / vcc / exec operand."""
        value = int(np.packbits(np.asarray(bits).astype(np.uint8), bitorder="little").view(np.uint64)[0])
        operand = self.op(i_or_reg) if isinstance(i_or_reg, int) else i_or_reg
        if isinstance(operand, Reg) and operand.count == 1 or isinstance(operand, Special) and \
                operand.name.endswith(("_lo", "_hi")):
            self.write_s(operand, value & M32, 1)  # wave32-style destination: low half only
            return
        self.write_s(operand, value, 2)

    def lane_mask(self, operand) -> np.ndarray:
        """bool[64] from a 64-bit scalar operand (vcc, s[2:3]...)."""
        v = self.scalar_value(operand, 2, "int")
        return ((np.uint64(v) >> np.arange(WAVE, dtype=np.uint64)) & np.uint64(1)).astype(bool)

    # ------------------------------------------------------------ vector reads (compatible API)
    def v_src(self, i: int, ftype: str = "f32", width: int = 1) -> np.ndarray:
        """A VALU source operand as uint32[64] (width 1) or uint64[64] (width 2), modifiers applied.

        ftype says how float literals and neg/abs apply: 'f32', 'f16', 'bf16', 'f64', or 'int'.
        """
        return self.vector_value(self.op(i), ftype, width, src=self.src_number(i))

    def vector_value(self, operand, ftype: str = "f32", width: int = 1, src: int | None = None,
                     quiet: bool = False) -> np.ndarray:
        """Raw bits of any operand per lane: uint32[64] or uint64[64] (width 2).

        `quiet` suppresses the uninitialised-read note (reads of a destination's
        old value for merging, which the program did not ask for).
        """
        kind = self._kind_for(ftype, width)
        return self._bits(operand, kind, src, quiet=quiet)

    # ------------------------------------------------------------ typed sources
    def src(self, i: int, kind: str, flush: bool = True) -> np.ndarray:
        """Source operand `i` typed as `kind` with every modifier applied.

        u32/b32 -> uint32, i32 -> int32, f32 -> float32, u16/b16 -> uint16,
        i16 -> int16, f16 -> float16, bf16 -> float32, u64/b64 -> uint64,
        i64 -> int64, f64 -> float64. Float sources get MODE's input denormal
        flushing unless `flush` is False (bitwise users such as v_mov).
        """
        ops = self._ops
        if i >= len(ops):
            self.op(i)  # raises "missing operand"
        operand = ops[i]
        if type(operand) is Reg and operand.file == "v" and kind in _PLAIN32 and not self.is_sdwa \
                and not self.is_dpp:
            # the common case (a 32-bit VGPR, nothing to select): _bits/_raw_lanes, inline
            wave = self.wave
            index = operand.index
            vgpr = wave.vgpr
            if index < len(vgpr):
                bits = vgpr[index].copy()
                self.reads.append(("v", index))
                init = wave.vgpr_init
                if init[index].tobytes() != _ALL_INIT:
                    self._check_init("v", index, 1, init)
                if kind == "u32" or kind == "b32":
                    return bits
                if kind == "i32":
                    return bits.view(_I32_DT)
                x = bits.view(_F32_DT)
                return fp.denorm_in(x, self.mode) if flush else x
        elif type(operand) is Imm and kind in _PLAIN32 and not self.is_sdwa:
            # an integer constant as a 32-bit source (constant_bits: its low 32 bits), every lane
            value = operand.value & M32
            row = _CONST_ROWS.get(value)
            if row is None:
                row = np.full(WAVE, value, dtype=U32)
                if len(_CONST_ROWS) < 4096:
                    _CONST_ROWS[value] = row
            bits = row.copy()
            if kind == "u32" or kind == "b32":
                return bits
            if kind == "i32":
                return bits.view(_I32_DT)
            x = bits.view(_F32_DT)
            return fp.denorm_in(x, self.mode) if flush else x
        bits = self._bits(operand, kind, i - self.n_dst)
        # `bits` is always a fresh array (a register row is copied when read), so the common
        # 32-bit kinds need no second copy; the other kinds go through _typed.
        if kind == "u32" or kind == "b32":
            return bits.astype(U32, copy=False)
        if kind == "f32":
            x = bits.astype(U32, copy=False).view(np.float32)
            return fp.denorm_in(x, self.mode) if flush else x
        if kind == "i32":
            return bits.astype(U32, copy=False).view(np.int32)
        return self._typed(bits, kind, flush)

    def _typed(self, bits: np.ndarray, kind: str, flush: bool = True) -> np.ndarray:
        if kind in ("u32", "b32"):
            return bits.astype(U32)
        if kind == "i32":
            return bits.astype(U32).view(np.int32)
        if kind == "f32":
            x = bits.astype(U32).view(np.float32)
            return fp.denorm_in(x, self.mode) if flush else x
        if kind in ("u16", "b16"):
            return (bits & 0xFFFF).astype(np.uint16)
        if kind == "i16":
            return (bits & 0xFFFF).astype(np.uint16).view(np.int16)
        if kind == "f16":
            x = (bits & 0xFFFF).astype(np.uint16).view(np.float16)
            return fp.denorm_in(x, self.mode) if flush else x
        if kind == "bf16":
            return fp.bf16_bits_to_f32(bits & 0xFFFF)
        if kind in ("u64", "b64"):
            return bits.astype(U64)
        if kind == "i64":
            return bits.astype(U64).view(np.int64)
        if kind == "f64":
            x = bits.astype(U64).view(np.float64)
            return fp.denorm_in(x, self.mode) if flush else x
        raise ValueError(kind)

    def _bits(self, operand, kind: str, src: int | None, quiet: bool = False) -> np.ndarray:
        """Bits of an operand per lane after SDWA/DPP/op_sel selection and neg/abs."""
        width = KIND_WIDTH[kind]
        if type(operand) is Reg and not self.is_sdwa and width != 16:  # the common case, nothing to select
            return self._raw_lanes(operand, kind, src, quiet)
        mods = operand if isinstance(operand, Modified) else None
        inner = operand.inner if mods else operand
        bits = self._raw_lanes(inner, kind, src, quiet)
        if self.is_sdwa and src is not None and src < 2 and width <= 32:
            bits = self._sdwa_select(bits, src, sext=bool(mods and mods.sext))
        elif width == 16 and src is not None and not self._packed:
            sel = self.ins.modifier("op_sel")
            if isinstance(sel, tuple) and src < len(sel) and sel[src]:
                bits = bits >> U32(16)
        if mods and (mods.neg or mods.abs):
            bits = self._sign_mods(bits, mods, kind)
        return bits

    def _raw_lanes(self, operand, kind: str, src: int | None, quiet: bool) -> np.ndarray:
        """uint32[64] (16/32-bit kinds) or uint64[64] (64-bit kinds) before modifiers."""
        width = KIND_WIDTH[kind]
        if isinstance(operand, Reg) and (file := operand.file) in ("v", "a"):
            wave = self.wave
            if file == "v":
                arr, init = wave.vgpr, wave.vgpr_init
            else:
                arr, init = wave.agpr, wave.agpr_init
            dwords = 2 if width == 64 else 1
            index = operand.index
            if index + dwords > len(arr):
                raise SimError(f"{self.ins.mnemonic}: register {operand.text()} is out of range")
            lo = arr[index].copy()
            if dwords == 2:
                self.reads += ((file, index), (file, index + 1))
                if not quiet and init[index:index + 2].tobytes() != _ALL_INIT2:
                    self._check_init(file, index, dwords, init)
                value = lo.astype(U64) | (arr[index + 1].astype(U64) << U64(32))
            else:
                self.reads.append((file, index))
                if not quiet and init[index].tobytes() != _ALL_INIT:
                    self._check_init(file, index, dwords, init)
                value = lo
            if self.is_dpp and src == 0:
                value = self._dpp_permute(value)
            return value
        if isinstance(operand, Modified):
            return self._bits(operand, kind, src, quiet)
        dtype = U64 if width == 64 else U32
        if isinstance(operand, (Reg, Special)):
            value = self.scalar_value(operand, 2 if width == 64 else 1, "int")
        else:
            value, how = constant_bits(operand, kind)
            if how == "literal-zext":
                self._note_zext(operand, value)
        return np.full(WAVE, value, dtype=dtype)

    def _check_init(self, file: str, index: int, dwords: int, init: np.ndarray) -> None:
        if init[index:index + dwords].all():
            return
        active = self.wave.exec_mask
        if self.is_dpp:
            active = np.ones(WAVE, dtype=bool)  # DPP reads other lanes than its own
        for k in range(dwords):
            if init[index + k].all():
                continue
            bad = active & ~init[index + k]
            if bad.any():
                self.note(f"reads {file}{index + k} before anything wrote it (lanes {_lane_ranges(_LANES[bad])}): "
                          f"it holds the poison pattern 0x{int(POISON):08x}")

    @staticmethod
    def _sign_mods(bits, mods: Modified, kind: str):
        """abs/neg act on the sign bit of the operand's format."""
        width = KIND_WIDTH.get(kind, 32)
        sign = 1 << (width - 1)
        if isinstance(bits, np.ndarray):
            s = bits.dtype.type(sign)
            if mods.abs:
                bits = bits & ~s
            if mods.neg:
                bits = bits ^ s
            return bits
        if mods.abs:
            bits &= ~sign
        if mods.neg:
            bits ^= sign
        return bits

    # ------------------------------------------------------------ SDWA
    def _sdwa_select(self, bits: np.ndarray, src: int, sext: bool) -> np.ndarray:
        sel = self.ins.modifier(f"src{src}_sel", "DWORD")
        shift, size = _SDWA_SEL.get(str(sel).upper(), (0, 32))
        if size == 32:
            return bits
        field_ = (bits >> U32(shift)) & U32((1 << size) - 1)
        if sext:
            top = U32(1 << (size - 1))
            field_ = np.where(field_ & top, field_ | U32(M32 ^ ((1 << size) - 1)), field_).astype(U32)
        return field_

    def _sdwa_place(self, reg: Reg, values: np.ndarray) -> np.ndarray:
        """Merge a 32-bit result into the destination per dst_sel / dst_unused."""
        sel = str(self.ins.modifier("dst_sel", "DWORD")).upper()
        shift, size = _SDWA_SEL.get(sel, (0, 32))
        if size == 32:
            return values
        unused = str(self.ins.modifier("dst_unused", "UNUSED_PRESERVE")).upper()
        field_mask = U32(((1 << size) - 1) << shift)
        placed = (values.astype(U32) << U32(shift)) & field_mask
        if unused in ("UNUSED_PRESERVE", "2"):
            old = self.vector_value(reg, "int", quiet=True)
            return (old & ~field_mask) | placed
        if unused in ("UNUSED_SEXT", "1"):
            top = U32(1 << (shift + size - 1))
            above = U32(M32 ^ ((1 << (shift + size)) - 1))
            return np.where(placed & top, placed | above, placed).astype(U32)
        return placed

    # ------------------------------------------------------------ DPP
    def _require_dp_alu_control(self, mods: dict) -> None:
        """64-bit DPP runs on the DP ALU: no 64-bit source on gfx908, only row_newbcast on gfx90a+
        (v_mov_b64 on gfx90a takes any control). Anything else has no defined lane mapping."""
        from ..isa import opcodes
        info = opcodes.lookup(self.ins.mnemonic, self.target)
        roles = ("src0", "src1") if self.target == "gfx908" else ("vdst", "src0", "src1")  # (gfx908: 64-bit
        # results of 32-bit sources, v_cvt_f64_f32_dpp, are ordinary DPP)
        if info is None or not any(sp.width == 2 for sp in info.operands if sp.role in roles):
            return
        if info.mnemonic == "v_mov_b64" and self.target == "gfx90a":
            return
        if self.target == "gfx908" or dpp_table.DP_ALU_CONTROL not in mods:
            raise SimError(f"{self.ins.mnemonic}: 64-bit DPP on {self.target} takes "
                           f"{'no 64-bit source' if self.target == 'gfx908' else 'only row_newbcast'}; "
                           "the ISA defines no result for this one")
        if "row_newbcast" in mods and self.target not in dpp_table.DPP_TARGETS["row_newbcast"]:
            raise SimError(f"{self.ins.mnemonic}: row_newbcast is not a DPP control on {self.target}")

    def _dpp(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(source lane, source valid, write enable) of the DPP control, per lane."""
        if self._dpp_cache is not None:
            return self._dpp_cache
        lanes = _LANES
        row_base = lanes & ~15
        in_row = lanes & 15
        mods = {m.name: m.value for m in self.ins.modifiers}
        for o in self.ins.operands:  # bare controls (row_mirror) may come through as symbols
            if isinstance(o, Symbol) and o.name in ("row_mirror", "row_half_mirror"):
                mods[o.name] = None
        _defined_dpp(self.ins.mnemonic, mods, self.target)
        self._require_dp_alu_control(mods)
        srcl = lanes.copy()
        valid = np.ones(WAVE, dtype=bool)
        if "quad_perm" in mods:
            perm = np.array(mods["quad_perm"], dtype=np.int64)
            srcl = (lanes & ~3) + perm[lanes & 3]
        elif "row_shl" in mods:
            n = int(mods["row_shl"])
            srcl, valid = lanes + n, in_row + n < 16
        elif "row_shr" in mods:
            n = int(mods["row_shr"])
            srcl, valid = lanes - n, in_row - n >= 0
        elif "row_ror" in mods:
            n = int(mods["row_ror"])
            srcl = row_base + ((in_row - n) & 15)
        elif "wave_shl" in mods:
            srcl, valid = lanes + 1, lanes < WAVE - 1
        elif "wave_shr" in mods:
            srcl, valid = lanes - 1, lanes > 0
        elif "wave_rol" in mods:
            srcl = (lanes + 1) % WAVE
        elif "wave_ror" in mods:
            srcl = (lanes - 1) % WAVE
        elif "row_mirror" in mods:
            srcl = row_base + 15 - in_row
        elif "row_half_mirror" in mods:
            srcl = (lanes & ~7) + 7 - (lanes & 7)
        elif "row_bcast" in mods:
            n = int(mods["row_bcast"])
            if n == 15:
                srcl, valid = row_base - 1, row_base >= 16
            elif n == 31:
                srcl, valid = np.full(WAVE, 31), row_base >= 32
            else:
                raise SimError(f"{self.ins.mnemonic}: row_bcast:{n} is not a DPP control")
        elif "row_newbcast" in mods:
            srcl = row_base + int(mods["row_newbcast"])
        elif "row_share" in mods or "row_xmask" in mods:
            raise SimError(f"{self.ins.mnemonic}: this DPP control is not modelled yet")
        srcl = np.clip(srcl, 0, WAVE - 1)
        exec_ = self.exec
        valid = valid & exec_[srcl]  # a disabled source lane is an invalid source
        row_mask = int(mods.get("row_mask", 0xF))
        bank_mask = int(mods.get("bank_mask", 0xF))
        enable = (((row_mask >> (lanes >> 4)) & 1) == 1) & (((bank_mask >> ((lanes >> 2) & 3)) & 1) == 1)
        bound_ctrl = "bound_ctrl" in mods
        if not bound_ctrl:
            enable = enable & valid
        self._dpp_cache = (srcl, valid, enable)
        return self._dpp_cache

    def _dpp_permute(self, value: np.ndarray) -> np.ndarray:
        srcl, valid, _ = self._dpp()
        out = value[srcl]
        return np.where(valid, out, out.dtype.type(0))  # invalid sources read 0 (bound_ctrl) or are not written

    # ------------------------------------------------------------ packed (VOP3P) sources
    def pk16(self, i: int, kind: str = "f16") -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) halves of a packed 16-bit source after op_sel/op_sel_hi and neg_lo/neg_hi.

        kind: 'f16' (float16 arrays), 'bf16' (float32 arrays), 'u16' or 'i16'.
        op_sel_hi defaults to 1 (the high result reads the high half), as llvm-mc assumes.
        """
        s = self.src_number(i)
        operand = self.op(i)
        mods = operand if isinstance(operand, Modified) else None
        inner = operand.inner if mods else operand
        const_kind = kind if kind in ("f16", "bf16") else "b16"  # how a constant fills the 32-bit container
        bits = self._raw_lanes(inner, const_kind, s, False).astype(U32)
        sel = self._bit_list("op_sel", 3, 0)[s]
        sel_hi = self._bit_list("op_sel_hi", 3, 1)[s]
        neg_lo = self._bit_list("neg_lo", 3, 0)[s] ^ (1 if mods and mods.neg else 0)
        neg_hi = self._bit_list("neg_hi", 3, 0)[s] ^ (1 if mods and mods.neg else 0)
        halves = []
        for pick, neg in ((sel, neg_lo), (sel_hi, neg_hi)):
            h = (bits >> U32(16)) if pick else (bits & U32(0xFFFF))
            h = h & U32(0xFFFF)
            if kind in ("f16", "bf16") and neg:
                h = h ^ U32(0x8000)
            halves.append(self._typed(h, kind))
        return halves[0], halves[1]

    def pk32(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) float32 halves of a packed-f32 source (64-bit register pair, op_sel picks the dword)."""
        s = self.src_number(i)
        operand = self.op(i)
        mods = operand if isinstance(operand, Modified) else None
        inner = operand.inner if mods else operand
        sel = self._bit_list("op_sel", 3, 0)[s]
        sel_hi = self._bit_list("op_sel_hi", 3, 1)[s]
        neg_lo = self._bit_list("neg_lo", 3, 0)[s] ^ (1 if mods and mods.neg else 0)
        neg_hi = self._bit_list("neg_hi", 3, 0)[s] ^ (1 if mods and mods.neg else 0)
        if isinstance(inner, (Imm, FloatImm, Symbol, Expr)):
            c = self._raw_lanes(inner, "f32", s, False).astype(U32)
            if sel or sel_hi:
                self.note(f"{self.ins.mnemonic}: op_sel selects the high dword of the constant {inner.text()}; "
                          "hardware behaviour is unspecified (LLVM never emits it), gcnemu uses the constant")
            dwords = (c, c)
        else:
            b = self._raw_lanes(inner, "b64", s, False).astype(U64)
            dwords = ((b & U64(M32)).astype(U32), (b >> U64(32)).astype(U32))
        out = []
        for pick, neg in ((sel, neg_lo), (sel_hi, neg_hi)):
            d = dwords[pick]
            if neg:
                d = d ^ U32(0x80000000)
            out.append(self._typed(d, "f32"))
        return out[0], out[1]

    # ------------------------------------------------------------ writes
    def lanes_written(self) -> np.ndarray:
        """EXEC, narrowed by DPP's row/bank masks and invalid sources."""
        mask = self.exec
        if self.is_dpp:
            mask = mask & self._dpp()[2]
        return mask

    def write_v(self, i_or_reg, values: np.ndarray, mask: np.ndarray | None = None) -> None:
        """Write a vector destination (operand index or Reg). values: uint32[64], uint64[64] or uint32[n, 64]."""
        reg = self.op(i_or_reg) if isinstance(i_or_reg, int) else i_or_reg
        if not isinstance(reg, Reg) or reg.file not in ("v", "a"):
            raise SimError(f"{self.ins.mnemonic}: destination '{reg.text()}' is not a VGPR/AGPR")
        if mask is None and type(values) is np.ndarray and values.dtype is _U32_DT and values.ndim == 1 \
                and not self.is_sdwa and not self.is_dpp:
            # the common case (one uint32 row under EXEC): the general path below, without its
            # conversions; every lane on shares one read-only mask (the engine skips the merge)
            reads = self.reads
            reads.append(("s", 126))
            reads.append(("s", 127))
            sgpr = self.wave.sgpr
            if sgpr.item(126) == M32 and sgpr.item(127) == M32:
                mask, full = _ALL_LANES, True
            else:
                mask, full = self.wave.exec_mask, False
            if reg.index + 1 > len(self.wave.vgpr):
                raise SimError(f"{self.ins.mnemonic}: destination {reg.text()} is out of range")
            wr = RegWrite(reg.file, reg.index, np.array(values, ndmin=2), mask)
            if full:
                wr.full = True
            self.writes.append(wr)
            return
        values = np.asarray(values)
        dt = values.dtype
        kind, size = dt.kind, dt.itemsize  # (u|i|f, 8): uint64/int64/float64; (i|f, 4): int32/float32
        fresh = False  # `values` is a new array nobody else holds (no copy needed for the RegWrite)
        if size == 8 and (kind == "u" or kind == "i" or kind == "f"):
            v64 = values.view(np.uint64) if kind != "i" else values.astype(np.uint64)
            values = np.stack([(v64 & np.uint64(M32)).astype(U32), (v64 >> np.uint64(32)).astype(U32)])
            fresh = True
        elif size == 4 and (kind == "f" or kind == "i"):
            values = values.view(U32)[None, :] if values.ndim == 1 else values.view(U32)
        else:
            conv = values.astype(U32, copy=False)
            fresh = conv is not values
            values = conv[None, :] if values.ndim == 1 else conv
        if self.is_sdwa and len(values) == 1:
            values = self._sdwa_place(reg, values[0])[None, :]
            fresh = False
        full = False
        if mask is None:  # a fresh array either way
            if self.is_dpp:
                mask = self.lanes_written()
            else:  # lanes_written() without DPP is EXEC: note whether every lane is on
                mask, full = self._exec_full()
        else:
            mask = np.asarray(mask).copy()
        if reg.index + len(values) > (len(self.wave.vgpr)):
            raise SimError(f"{self.ins.mnemonic}: destination {reg.text()} is out of range")
        wr = RegWrite(reg.file, reg.index, values if fresh else values.copy(), mask)
        if full:
            wr.full = True
        self.writes.append(wr)

    def _exec_full(self) -> tuple[np.ndarray, bool]:
        """`self.exec` (recording the read) and whether EXEC has every lane on."""
        self.reads.append(("s", 126))
        self.reads.append(("s", 127))
        return self.wave.exec_mask_full()

    def write_v16(self, i: int, bits: np.ndarray, preserve_high: bool = False) -> None:
        """Write a 16-bit result (uint16[64] bits).

        gfx9 zeroes the high half of the destination for most 16-bit VALU ops
        (LLVM GCNSubtarget::zeroesHigh16BitsOfDest); `preserve_high` keeps it
        (v_mac_f16/v_fmac_f16/v_madak_f16). VOP3 `op_sel` with the destination
        bit set writes the high half and keeps the low half.
        """
        reg = self.op(i)
        bits = np.asarray(bits).astype(U32) & U32(0xFFFF)
        sel = self.ins.modifier("op_sel")
        if isinstance(sel, tuple) and len(sel) >= 2 and sel[-1] and len(sel) == len(self.ins.operands) - self.n_dst + 1:
            old = self.vector_value(reg, "int", quiet=True)
            self.write_v(i, (old & U32(0xFFFF)) | (bits << U32(16)))
            return
        if preserve_high and not self.is_sdwa:
            old = self.vector_value(reg, "int", quiet=True)
            bits = (old & U32(0xFFFF0000)) | bits
        self.write_v(i, bits)

    # ------------------------------------------------------------ float results
    def out_f32(self, i: int, x: np.ndarray, *, flush: bool | None = None) -> None:
        self.write_v(i, self.finish(x, flush))

    def out_f16(self, i: int, x: np.ndarray, *, preserve_high: bool = False) -> None:
        self.write_v16(i, self.finish(np.asarray(x, dtype=np.float16)).view(np.uint16), preserve_high)

    def out_f64(self, i: int, x: np.ndarray) -> None:
        self.write_v(i, self.finish(np.asarray(x, dtype=np.float64)))

    def finish(self, x: np.ndarray, flush: bool | None = None) -> np.ndarray:
        """Output modifiers in hardware order: omod, then clamp; output denormals per MODE."""
        x = fp.apply_omod(np.asarray(x), self.omod)
        if self.clamp:
            x = fp.apply_clamp(x, self.mode)
        if flush is None:
            x = fp.denorm_out(x, self.mode)
        elif flush:
            x = fp.flush(x)
        return x

    def dst_as_src(self, i: int, kind: str) -> np.ndarray:
        """The destination's current value as a source (v_mac/v_fmac accumulate into their destination)."""
        return self._typed(self._bits(self.op(i), kind, None), kind)
