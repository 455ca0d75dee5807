"""Instruction table: one row per mnemonic (family), as data.

A row says what the instruction's operands are (role, allowed kinds, width in
32-bit registers, read or written), which pipe executes it, which memory
counters it increments and which modifiers it accepts. Validation, the
simulator (which operands to read and when results land), the hazard linter
(producer/consumer classes) and the debugger all read the same rows.

Rows are written in a compact text form (see `_parse_row`) and expanded by small
generators for families (sizes, types). Which targets have a mnemonic at all is
answered by `gcnemu.isa.mnemonics` (generated from LLVM); MFMA operand widths come
from the MFMA catalog (`gcnemu.isa.mfma`). Suffixes `_e32`/`_e64`/`_sdwa`/`_dpp`
select an encoding of the same row.

Operand kinds (letters in the `kinds` field):
  v  VGPR             a  AGPR             s  SGPR or special scalar (vcc, exec, m0, ttmp...)
  i  inline constant  l  32-bit literal   o  `off`            L  label / branch target
  k  16-bit immediate w  s_waitcnt fields h  hwreg(...)       m  sendmsg(...)
  n  any integer expression (e.g. s_nop count)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True)
class OperandSpec:
    role: str  # vdst, sdst, src0, src1, src2, vaddr, vdata, saddr, srsrc, soffset, sbase, soff, simm16, label, ...
    kinds: str  # letters, see module docstring
    width: int = 1  # in 32-bit registers
    write: bool = False
    optional: bool = False


@dataclass(frozen=True)
class OpInfo:
    mnemonic: str  # canonical spelling, no encoding suffix
    encoding: str  # SOP1, SOP2, SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOP3, VOPC, VOP3P, MAI, DS, FLAT, GLOBAL, MUBUF
    pipe: str  # salu, valu, trans, dp, smem, vmem, lds, mfma, branch, msg, nop, waitcnt, barrier
    operands: tuple[OperandSpec, ...]
    modifiers: frozenset = field(default_factory=frozenset)
    counters: frozenset = field(default_factory=frozenset)  # subset of {"vm", "lgkm", "exp"}
    flags: frozenset = field(default_factory=frozenset)  # store, load, atomic, lds-dma, writes-exec, ...


def _parse_row(line: str) -> OpInfo:
    """`name enc pipe counters operands... | modifiers | flags`.

    An operand is `role:kinds<width>[w][?]`, e.g. `vdst:v1w`, `src0:vsil1`, `saddr:so2?`.
    """
    main, _, rest = line.partition("|")
    mods, _, flags = rest.partition("|")
    parts = main.split()
    name, enc, pipe, ctr = parts[:4]
    ops = []
    for spec in parts[4:]:
        role, _, k = spec.partition(":")
        write = k.endswith("w") or k.endswith("w?")
        optional = k.endswith("?")
        k = k.rstrip("?").rstrip("w")
        digits = "".join(ch for ch in k if ch.isdigit())
        kinds = "".join(ch for ch in k if not ch.isdigit())
        ops.append(OperandSpec(role, kinds, int(digits) if digits else 1, write, optional))
    counters = frozenset() if ctr == "-" else frozenset(ctr.split(","))
    return OpInfo(name, enc, pipe, tuple(ops), frozenset(mods.split()), counters, frozenset(flags.split()))


# A first set of rows that fixes the format; the foundation issue fills the table.
_ROWS = """
s_nop          SOPP nop     -    count:n
s_endpgm       SOPP branch  -
s_waitcnt      SOPP waitcnt -    fields:w
s_barrier      SOPP barrier -
s_mov_b32      SOP1 salu    -    sdst:s1w ssrc0:sil1
v_mov_b32      VOP1 valu    -    vdst:v1w src0:vsil1                       | clamp
v_add_u32      VOP2 valu    -    vdst:v1w src0:vsil1 src1:vsi1             | clamp
global_load_dword GLOBAL vmem vm vdst:v1w vaddr:v2 saddr:so2              | offset glc slc nt sc0 sc1 | load
ds_read_b32    DS   lds     lgkm vdst:v1w addr:v1                          | offset gds | load
"""


@lru_cache(maxsize=None)
def table() -> dict[str, OpInfo]:
    rows: dict[str, OpInfo] = {}
    for line in _ROWS.strip().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            info = _parse_row(line)
            rows[info.mnemonic] = info
    return rows


SUFFIXES = ("_e32", "_e64", "_sdwa", "_dpp")


def base_mnemonic(mnemonic: str) -> tuple[str, str]:
    """'v_add_u32_e64' -> ('v_add_u32', '_e64'); no suffix -> (mnemonic, '')."""
    m = mnemonic.lower()
    for suf in SUFFIXES:
        if m.endswith(suf):
            return m[: -len(suf)], suf
    return m, ""


def lookup(mnemonic: str) -> OpInfo | None:
    base, _ = base_mnemonic(mnemonic)
    return table().get(base)
